//! `#/flash`: FlashAttention forward and backward, tile by tile (notes
//! §8.3–8.4, demos 2–3 of 05).
//!
//! Everything a step shows is O(1) or bounded by what is drawn: the schedule
//! and ledger are closed forms, the tile grid a bounded scene, the rows table
//! a replay of six rows kept for the whole query block. The checks against
//! naive attention and direct gradients (O(n²d), up to seconds at n = 1024,
//! d = 256) run as a [`Check`] in short slices between frames, once per
//! configuration (not per step, pass, dtype or SRAM size), remembered when
//! done; their metrics say "checking…" (`data-state="checking"`, no
//! `data-value`) until their numbers are in.

use super::frame::{legend_item, setter, Choice, PanelFrame};
use super::inset::RooflineInset;
use crate::draw::flash::{colors, draw};
use crate::i18n::{format_bytes, format_metric, group_digits, has, topic_key, Lang};
use crate::params::Value;
use crate::scene::Theme;
use crate::sim::flash::{Check, Flash, Pass, NUMERIC_MAX_N};
use crate::sim::roofline::Work;
use crate::sim::Metric;
use crate::topics::{flash_params, flash_pass, FLASH};
use crate::ui::app::AppCtx;
use crate::ui::canvas::{use_width, SceneCanvas, SceneRef};
use crate::ui::player::Player;
use crate::ui::slider::Slider;
use crate::ui::url_state::{use_url_state, Action};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use yew::prelude::*;

fn sci(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else {
        format!("{v:.2e}")
    }
}

fn num(v: f64) -> String {
    if v == f64::NEG_INFINITY {
        "−∞".into()
    } else {
        format!("{v:.5}")
    }
}

/// What the numbers depend on (`Params::numeric_key`).
type Key = (usize, usize, usize, usize, bool, u64);

/// What the panel knows of one configuration's checks.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Checks {
    key: Key,
    err: Option<f64>,
    grad: Option<f64>,
    progress: f64,
}

/// Work per slice of a running check, in milliseconds: a step or a scrub
/// that arrives meanwhile waits at most this long.
const SLICE_MS: f64 = 4.0;
/// Multiply-adds between two looks at the clock (well under a millisecond).
const CHUNK_OPS: u64 = 100_000;
/// Checks this small (a few milliseconds) are done before the first paint.
const SYNC_OPS: u64 = 2_000_000;
/// How many finished checks are remembered.
const REMEMBER: usize = 32;
/// A running check shows its progress this often (ms).
const PROGRESS_EVERY_MS: f64 = 250.0;

thread_local! {
    /// Finished checks, most recent last: coming back to a configuration
    /// (another seed and back, or to the panel) shows them at once.
    static FINISHED: RefCell<Vec<(Key, f64, f64)>> = const { RefCell::new(Vec::new()) };
}

fn finished(key: Key) -> Option<(f64, f64)> {
    FINISHED.with(|f| f.borrow().iter().find(|x| x.0 == key).map(|x| (x.1, x.2)))
}

fn remember(key: Key, err: f64, grad: f64) {
    FINISHED.with(|f| {
        let mut f = f.borrow_mut();
        f.retain(|x| x.0 != key);
        if f.len() >= REMEMBER {
            f.remove(0);
        }
        f.push((key, err, grad));
    });
}

fn now() -> f64 {
    crate::ui::window().performance().map(|p| p.now()).unwrap_or(0.0)
}

/// Let the browser handle input and paint: resolves in a new task, posted
/// through a `MessageChannel` (a chain of `setTimeout(0)` is clamped to 4 ms
/// a link, which would leave the CPU idle 40 % of the time), or a timer
/// where there is none.
async fn yield_to_browser() {
    use js_sys::{Function, Reflect};
    use wasm_bindgen::{JsCast, JsValue};
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let posted = (|| -> Option<()> {
            let ctor: Function = Reflect::get(&js_sys::global(), &"MessageChannel".into()).ok()?.dyn_into().ok()?;
            let channel = Reflect::construct(&ctor, &js_sys::Array::new()).ok()?;
            let (port1, port2) =
                (Reflect::get(&channel, &"port1".into()).ok()?, Reflect::get(&channel, &"port2".into()).ok()?);
            Reflect::set(&port1, &"onmessage".into(), &resolve).ok()?;
            let post: Function = Reflect::get(&port2, &"postMessage".into()).ok()?.dyn_into().ok()?;
            post.call1(&port2, &JsValue::from(0)).ok()?;
            Some(())
        })();
        if posted.is_none() {
            let _ = crate::ui::window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

/// Run `job` in slices of about `SLICE_MS`, publishing what is known into
/// `live`, until it is done or `stop` is set (new parameters, unmount).
async fn run_check(mut job: Check, key: Key, live: UseStateHandle<Option<Checks>>, stop: Rc<Cell<bool>>) {
    let mut published = (false, f64::NEG_INFINITY);
    loop {
        yield_to_browser().await;
        if stop.get() {
            return;
        }
        let t0 = now();
        let done = loop {
            let done = job.run(CHUNK_OPS);
            if done || now() - t0 >= SLICE_MS {
                break done;
            }
        };
        let (err, grad) = (job.err(), job.grad_err());
        if let (Some(e), Some(g)) = (err, grad) {
            remember(key, e, g);
        }
        let t = now();
        if done || err.is_some() != published.0 || t - published.1 >= PROGRESS_EVERY_MS {
            live.set(Some(Checks { key, err, grad, progress: job.progress() }));
            published = (err.is_some(), t);
        }
        if done {
            return;
        }
    }
}

/// A key figure as the shared readouts show it, or one still being checked.
enum Entry {
    Value(Metric),
    Checking(&'static str, f64),
}

fn readouts(ctx: &AppCtx, entries: &[Entry]) -> Html {
    let label = |name: &str| {
        let key = topic_key("metric", "flash", name);
        let doc = format!("{key}.doc");
        (ctx.t(&key), has(&doc).then(|| ctx.t(&doc)))
    };
    let checking = match ctx.lang {
        Lang::Zh => "校验中…",
        _ => "checking…",
    };
    html! {
        <div class="readouts" role="group">
            { for entries.iter().map(|e| match e {
                Entry::Value(m) => {
                    let (text, title) = label(m.name);
                    html! {
                        <div class="metric" data-metric={m.name} data-value={m.raw()} title={title}>
                            <span class="metric-label">{ text }</span>
                            <span class="metric-value">{ format_metric(m) }</span>
                        </div>
                    }
                }
                Entry::Checking(name, progress) => {
                    let (text, title) = label(name);
                    html! {
                        <div class="metric checking" data-metric={*name} data-state="checking" aria-busy="true"
                            data-progress={format!("{progress:.2}")} title={title}>
                            <span class="metric-label">{ text }</span>
                            <span class="metric-value muted">{ checking }</span>
                        </div>
                    }
                }
            }) }
        </div>
    }
}

#[component]
pub fn FlashPanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&FLASH);
    let v = st.values.clone();
    let params = flash_params(&v);
    let pass = flash_pass(&v);
    // The schedule: a handful of integers, whatever n.
    let sim = use_memo(params, |p| Flash::schedule_only(*p));
    let key: Key = params.numeric_key();
    let numeric = sim.p.n <= NUMERIC_MAX_N;
    let step = v.int("step") as u64;
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(1000.0);
    let tile = sim.tile_at(pass, step);
    let caption = match tile {
        None => ctx.t("flash.start"),
        Some((i, j)) => ctx.tf(
            if pass == Pass::Fwd { "flash.current.fwd" } else { "flash.current.bwd" },
            &[("t", &step.to_string()), ("i", &i.to_string()), ("j", &j.to_string())],
        ),
    };
    let scene = {
        let sim = sim.clone();
        use_memo(
            (params, pass, step, width as u32, ctx.present, caption.clone()),
            move |(_, pass, s, w, present, cap)| {
                SceneRef(Rc::new(draw(&sim, *pass, *s, &Theme::for_mode(*present), *w as f64, cap)))
            },
        )
    };

    // The checks: remembered, done now if tiny, else running in slices.
    let live = use_state(|| None::<Checks>);
    {
        let live = live.clone();
        use_effect_with(key, move |&key| {
            let stop = Rc::new(Cell::new(false));
            if key.0 <= NUMERIC_MAX_N && finished(key).is_none() {
                if let Some(job) = Check::new(&Flash::schedule_only(params)) {
                    wasm_bindgen_futures::spawn_local(run_check(job, key, live, stop.clone()));
                }
            }
            move || stop.set(true)
        });
    }
    let checks: Option<Checks> = numeric.then(|| {
        let done = |(err, grad): (f64, f64)| Checks { key, err: Some(err), grad: Some(grad), progress: 1.0 };
        finished(key)
            .map(done)
            .or_else(|| {
                let mut job = Check::new(&sim)?;
                (job.total_ops() <= SYNC_OPS).then(|| {
                    while !job.run(u64::MAX) {}
                    let r = (job.err().unwrap_or(f64::NAN), job.grad_err().unwrap_or(f64::NAN));
                    remember(key, r.0, r.1);
                    done(r)
                })
            })
            .or_else(|| (*live).filter(|c| c.key == key))
            .unwrap_or(Checks { key, err: None, grad: None, progress: 0.0 })
    });

    let set = |name: &'static str| setter(&st.dispatch, name);
    let on_seek = {
        let d = st.dispatch.clone();
        Callback::from(move |c: u64| d.emit(Action::Set("step", Value::Int(c as i64))))
    };
    // The current query block's first rows after each of its tiles (forward,
    // n ≤ NUMERIC_MAX_N): replayed once per block, so a step inside the block
    // costs nothing and a jump to another block one replay of six rows.
    let block = match (pass, tile) {
        (Pass::Fwd, Some((i, _))) if numeric => Some(i),
        _ => None,
    };
    let trace = {
        let sim = sim.clone();
        use_memo((key, block), move |(_, block)| block.map(|i| sim.row_trace(i, ROWS_SHOWN, MAX_D_SHOWN)))
    };
    let rows_view = match (pass, tile, trace.as_ref()) {
        (Pass::Fwd, Some((i, j)), Some(trace)) => {
            let stn = &trace[j];
            let shown = stn.m.len();
            let cols = sim.p.d.min(MAX_D_SHOWN);
            html! {
                <>
                    <h2 class="chart-title">{ ctx.tf("flash.rows", &[("i", &i.to_string())]) }</h2>
                    <table class="ledger" data-testid="flash-rows">
                        <thead><tr><th>{ ctx.t("flash.row") }</th><th>{"mᵢ"}</th><th>{"ℓᵢ"}</th><th>{"e^(m − m′)"}</th><th>{"Oᵢ[0..3] / ℓᵢ"}</th></tr></thead>
                        <tbody>
                            { for (0..shown).map(|r| {
                                let o: Vec<String> = (0..cols).map(|x| num(stn.o[r * cols + x] / stn.l[r])).collect();
                                html! { <tr>
                                    <td>{ i * sim.p.bq + r }</td>
                                    <td class="mono">{ num(stn.m[r]) }</td>
                                    <td class="mono">{ num(stn.l[r]) }</td>
                                    <td class={classes!("mono", (stn.rescale[r] < 1.0 && j > 0).then_some("hot"))}>{ num(stn.rescale[r]) }</td>
                                    <td class="mono">{ o.join(", ") }</td>
                                </tr> }
                            }) }
                        </tbody>
                    </table>
                    <p class="muted">{ ctx.t("flash.final") }</p>
                </>
            }
        }
        (Pass::Bwd, _, _) => html! { <p class="muted">{ ctx.t("flash.bwd-note") }</p> },
        _ => html! {},
    };
    let (std_b, fl_b) = (sim.hbm_bytes_standard(pass), sim.hbm_bytes_flash(pass));
    let sram_line = ctx.tf(
        "flash.sram",
        &[
            ("used", &format!("{:.1} KB", sim.sram_bytes() as f64 / 1024.0)),
            ("have", &format!("{} KB", params.sram / 1024)),
        ],
    );
    let checking = |progress: f64| match ctx.lang {
        Lang::Zh => format!("校验中…（{:.0} %）", progress * 100.0),
        _ => format!("checking… ({:.0} %)", progress * 100.0),
    };
    let check_line = |id: &'static str, key: &str, value: Option<f64>, ok_below: f64, progress: f64| match value {
        Some(e) => html! {
            <p class={classes!("check", if e < ok_below { "ok" } else { "bad" })} data-testid={id}>
                { ctx.tf(key, &[("e", &sci(e))]) }</p>
        },
        None => html! {
            <p class="check muted" data-testid={id} data-state="checking" aria-busy="true">
                { ctx.tf(key, &[("e", &checking(progress))]) }</p>
        },
    };
    let checks_html = match checks {
        Some(c) => html! {
            <>
                { check_line("check-fwd", "flash.check.fwd", c.err, 1e-10, c.progress) }
                { check_line("check-bwd", "flash.check.bwd", c.grad, 1e-9, c.progress) }
            </>
        },
        None => {
            html! { <p class="muted" data-testid="check-large">{ ctx.tf("flash.check.large", &[("max", &NUMERIC_MAX_N.to_string())]) }</p> }
        }
    };
    let mut entries: Vec<Entry> = sim.metrics(pass, step).into_iter().map(Entry::Value).collect();
    if let Some(c) = checks {
        let at = entries.len().min(3);
        let entry = |name: &'static str, value: Option<f64>| match value {
            Some(x) => Entry::Value(Metric::real(name, x)),
            None => Entry::Checking(name, c.progress),
        };
        entries.insert(at, entry("grad-max-abs-error", c.grad));
        entries.insert(at, entry("max-abs-error", c.err));
    }
    let controls = html! {
        <>
            <Choice name="pass" options={&["fwd", "bwd"][..]} value={v.choice("pass")} dispatch={st.dispatch.clone()} />
            <Slider topic="flash" name="n" value={v.int("n")} min={1} max={65536} log={true} on_change={set("n")} />
            <Slider topic="flash" name="d" value={v.int("d")} min={1} max={256} log={true} on_change={set("d")} />
            <Slider topic="flash" name="bq" value={v.int("bq")} min={1} max={v.int("n").max(1)} log={true} on_change={set("bq")} />
            <Slider topic="flash" name="bk" value={v.int("bk")} min={1} max={v.int("n").max(1)} log={true} on_change={set("bk")} />
            <Choice name="causal" options={&["0", "1"][..]} value={v.choice("causal")} dispatch={st.dispatch.clone()} />
            <Choice name="dtype" options={&["fp32", "bf16", "fp16", "fp8"][..]} value={v.choice("dtype")} dispatch={st.dispatch.clone()} />
            <Slider topic="flash" name="sram" value={v.int("sram")} min={1} max={1024} log={true} on_change={set("sram")} />
            <Slider topic="flash" name="seed" value={v.int("seed")} min={0} max={1000} on_change={set("seed")} />
        </>
    };
    let c = colors(&Theme::normal());
    let stage_html = html! {
        <>
            <h2 class="chart-title">{ ctx.t("flash.grid") }</h2>
            <SceneCanvas scene={(*scene).clone()} name={format!("flash-{}-n{}-step{}", v.choice("pass"), params.n, step)} label={caption.clone()} />
            <div class="legend">
                { legend_item(&ctx, c[0], "flash.legend.done") }
                { legend_item(&ctx, c[1], "flash.legend.current") }
                { legend_item(&ctx, c[2], "flash.legend.pending") }
                { legend_item(&ctx, c[3], "flash.legend.skipped") }
            </div>
            <Player pos={step} len={sim.steps()} speed={v.int("speed")} unit="param.step" on_seek={on_seek} on_speed={set("speed")} />
            { readouts(&ctx, &entries) }
            { checks_html }
            { rows_view }
            <h2 class="chart-title">{ ctx.t("flash.ledger") }</h2>
            <table class="ledger" data-testid="flash-ledger">
                <tbody>
                    <tr><td>{ ctx.t("flash.ledger.standard") }</td><td class="num">{ format_bytes(std_b as f64) }</td><td class="num mono">{ group_digits(std_b) }{" B"}</td></tr>
                    <tr><td>{ ctx.t("flash.ledger.flash") }</td><td class="num">{ format_bytes(fl_b as f64) }</td><td class="num mono">{ group_digits(fl_b) }{" B"}</td></tr>
                    <tr><td colspan="3" class="hot">{ ctx.tf("flash.ledger.saving", &[("x", &format!("{:.1}", std_b as f64 / fl_b.max(1) as f64))]) }</td></tr>
                </tbody>
            </table>
            <p class={classes!("check", if sim.fits_sram() { "ok" } else { "bad" })} data-testid="sram-check">
                { sram_line }{" — "}{ ctx.t(if sim.fits_sram() { "flash.sram.fits" } else { "flash.sram.too-big" }) }
            </p>
            <RooflineInset gpu={v.choice("gpu")} dtype={v.choice("dtype")} dispatch={st.dispatch.clone()} points={Rc::new(vec![
                ("inset.flash", Work { flops: sim.flops(pass) as f64, bytes: fl_b as f64 }),
                ("inset.standard", Work { flops: sim.flops_standard(pass) as f64, bytes: std_b as f64 }),
            ])} />
            if pass == Pass::Bwd {
                <p data-testid="recompute">{ ctx.tf("flash.recompute", &[
                    ("flops", &group_digits(sim.recompute_flops())),
                    ("bytes", &format_bytes(sim.bytes_not_stored() as f64)),
                ]) }</p>
            }
        </>
    };
    let explain = html! {
        <>
            <p class="current">{ ctx.t("flash.explain") }</p>
            <p class="lecture-check">{ ctx.t("flash.lecture") }</p>
        </>
    };
    html! {
        <PanelFrame id="flash" sections="8.3–8.4" demo="05 · 2–3" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={stage} />
    }
}

const MAX_D_SHOWN: usize = 3;
const ROWS_SHOWN: usize = 6;
