//! The `#/flash` panel: FlashAttention forward and backward, tile by tile
//! (notes §8.3–8.4, demos 2–3 of 05).
//!
//! Everything a step shows is O(1) or bounded by what is drawn: the schedule
//! and ledger are closed forms, the tile grid a bounded scene, the rows table
//! a replay of six rows kept for the whole query block. The checks against
//! naive attention and direct gradients (O(n²d), up to seconds at n = 1024,
//! d = 256) run as a [`Check`] in short slices between frames, once per
//! configuration (not per step, pass, dtype or SRAM size), remembered when
//! done; their metrics say "checking…" (`data-state="checking"`, no
//! `data-value`) until their numbers are in.

use super::{Checks, Key, RecentChecks, Verdict, MAX_D_SHOWN, MAX_WIDTH, ROWS_SHOWN};
use crate::draw::flash::draw;
use crate::format::{bytes, grouped};
use crate::params::Values;
use crate::scene::Theme;
use crate::sim::flash::{Check, Flash, FlashRun, Pass, NUMERIC_MAX_N};
use crate::sim::roofline::Work;
use crate::sim::Steppable;
use crate::ui::kit::background::{next_task, now, slice};
use crate::ui::kit::canvas::{SceneCanvas, SceneRef};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::export::Export;
use crate::ui::kit::inset::RooflineInset;
use crate::ui::kit::panel::Panel;
use crate::ui::kit::player::Player;
use crate::ui::kit::readouts::{readouts_pending, Pending};
use crate::ui::kit::slider::{slider, Slider};
use crate::ui::kit::widgets::{chart_title, preset_row, Preset};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use yew::prelude::*;

/// Work per slice of a running check, in milliseconds: a step or a scrub
/// that arrives meanwhile waits at most this long.
const SLICE_MS: f64 = 4.0;
/// Multiply-adds between two looks at the clock (well under a millisecond).
const CHUNK_OPS: u64 = 100_000;
/// A running check shows its progress this often (ms).
const PROGRESS_EVERY_MS: f64 = 250.0;

thread_local! {
    /// Finished checks of this page.
    static FINISHED: RefCell<RecentChecks> = const { RefCell::new(RecentChecks::new()) };
}

/// Run `job` in slices of about `SLICE_MS`, publishing what is known into
/// `live`, until it is done or `stop` is set (new parameters, unmount).
async fn run_check(mut job: Check, key: Key, live: UseStateHandle<Option<Checks>>, stop: Rc<Cell<bool>>) {
    let mut published = (false, f64::NEG_INFINITY);
    loop {
        next_task().await;
        if stop.get() {
            return;
        }
        let done = slice(SLICE_MS, || job.run(CHUNK_OPS));
        let (err, grad) = (job.err(), job.grad_err());
        if let (Some(e), Some(g)) = (err, grad) {
            FINISHED.with(|f| f.borrow_mut().remember(key, e, g));
        }
        let t = now();
        if super::should_publish(done, err.is_some(), published, t, PROGRESS_EVERY_MS) {
            live.set(Some(Checks { key, err, grad, progress: job.progress() }));
            published = (err.is_some(), t);
        }
        if done {
            return;
        }
    }
}

#[hook]
pub fn use_flash_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    let v = &p.v;
    let params = super::flash_params(v);
    let pass = super::flash_pass(v);
    // The schedule: a handful of integers, whatever n.
    let order = super::ledger::order(v);
    let run = use_memo((params, pass, order), |&(params, pass, order)| {
        FlashRun::new(Flash::schedule_only(params).with_order(order), pass)
    });
    let sim = &run.flash;
    let key: Key = params.numeric_key();
    let numeric = sim.p.n <= NUMERIC_MAX_N;
    let step = v.int("step") as u64;
    let width = p.width.min(MAX_WIDTH);
    let tile = run.state_at(step).tile;
    let caption = super::caption(ctx.lang, sim, pass, step);
    let scene = {
        let run = run.clone();
        let lang = ctx.lang;
        use_memo(
            (params, pass, order, step, width as u32, ctx.present, lang, caption.clone()),
            move |(_, pass, _, s, w, _, lang, cap)| {
                let legend = super::legend(*lang);
                SceneRef(Rc::new(draw(
                    &run.flash,
                    *pass,
                    *s,
                    &theme,
                    *w as f64,
                    cap,
                    &legend.each_ref().map(|l| l.as_str()),
                )))
            },
        )
    };
    let export = {
        let run = run.clone();
        let lang = ctx.lang;
        use_memo((params, pass, order, width as u32, ctx.present, lang), move |&(params, pass, _, w, _, lang)| Export {
            name: format!("flash-{}-n{}-d{}", if pass == Pass::Fwd { "fwd" } else { "bwd" }, params.n, params.d),
            scene_at: Rc::new(move |s| {
                let cap = super::caption(lang, &run.flash, pass, s);
                let legend = super::legend(lang);
                draw(&run.flash, pass, s, &theme, w as f64, &cap, &legend.each_ref().map(|l| l.as_str()))
            }),
        })
    };

    // The checks: remembered, done now if tiny, else running in slices.
    let live = use_state(|| None::<Checks>);
    {
        let live = live.clone();
        use_effect_with(key, move |&key| {
            let stop = Rc::new(Cell::new(false));
            if FINISHED.with(|f| super::needs_background_check(key, &f.borrow())) {
                if let Some(job) = Check::new(&Flash::schedule_only(params)) {
                    wasm_bindgen_futures::spawn_local(run_check(job, key, live, stop.clone()));
                }
            }
            move || stop.set(true)
        });
    }
    let checks = FINISHED.with(|f| super::current_checks(sim, &mut f.borrow_mut(), *live));

    let on_seek = p.seek("step");
    // The current query block's first rows after each of its tiles (forward,
    // n ≤ NUMERIC_MAX_N): replayed once per block, so a step inside the block
    // costs nothing and a jump to another block one replay of six rows.
    let block = super::trace_block(pass, tile, numeric);
    let trace = {
        let run = run.clone();
        // Keyed by all the parameters: the tiles a block computes depend on the
        // order too (FlashAttention-1 computes the masked ones).
        use_memo((params, block), move |(_, block)| block.map(|i| run.flash.row_trace(i, ROWS_SHOWN, MAX_D_SHOWN)))
    };
    let state = tile.and_then(|(_, j)| trace.as_ref().as_ref().and_then(|t| t.get(j)));
    let rows_view = match (pass, tile, state) {
        (Pass::Fwd, Some((i, j)), Some(state)) => html! {
            <>
                <h2 class="chart-title">{ ctx.tf("flash.rows", &[("i", &i.to_string())]) }</h2>
                <table class="ledger" data-testid="flash-rows">
                    <thead><tr><th>{ ctx.t("flash.row") }</th><th>{"mᵢ"}</th><th>{"ℓᵢ"}</th><th>{"e^(m − m′)"}</th><th>{"Oᵢ[0..3] / ℓᵢ"}</th></tr></thead>
                    <tbody>
                        { for super::row_lines(sim, i, j, state).into_iter().map(|r| html! { <tr>
                            <td>{ r.row }</td>
                            <td class="mono">{ r.m }</td>
                            <td class="mono">{ r.l }</td>
                            <td class={classes!("mono", r.hot.then_some("hot"))}>{ r.rescale }</td>
                            <td class="mono">{ r.o }</td>
                        </tr> }) }
                    </tbody>
                </table>
                <p class="muted">{ ctx.t("flash.final") }</p>
            </>
        },
        (Pass::Bwd, _, _) => html! { <p class="muted">{ ctx.t("flash.bwd-note") }</p> },
        _ => html! {},
    };
    let (std_b, fl_b) = super::ledger::pass_bytes(sim, pass, v);
    let checks_html = match &checks {
        Some(c) => html! {
            <>{ for super::check_lines(ctx.lang, c).into_iter().map(|l| match l.verdict {
                Verdict::Checking => html! {
                    <p class="check muted" data-testid={l.id} data-state="checking" aria-busy="true">{ l.text }</p>
                },
                verdict => html! {
                    <p class={classes!("check", if verdict == Verdict::Ok { "ok" } else { "bad" })} data-testid={l.id}>
                        { l.text }</p>
                },
            }) }</>
        },
        None => {
            html! { <p class="muted" data-testid="check-large">{ ctx.tf("flash.check.large", &[("max", &NUMERIC_MAX_N.to_string())]) }</p> }
        }
    };
    let (metrics, pending) = super::readout_metrics(sim, v, step, checks.as_ref());
    let pending = Pending::new("flash.checking", pending, checks.map_or(0.0, |c| c.progress));
    // The block sliders reach n (a larger block from the URL is kept; the run uses n).
    let block_max = super::block_max(v);
    let block_slider = |name: &'static str| {
        let on_change = p.set(name);
        slider(ctx, &Slider { topic: "flash", name, value: v.int(name), min: 1, max: block_max, log: true, on_change })
    };
    let controls = html! {
        <>
            { p.controls(&["pass", "n", "d"]) }
            { p.controls(&["blocks"]) }
            if v.choice("blocks") == "manual" {
                { block_slider("bq") }
                { block_slider("bk") }
            }
            { p.controls(&["causal", "dtype", "sram", "order", "std", "heads", "batch", "seed"]) }
            { preset_row(ctx, "flash.presets", &[Preset {
                label: "flash.preset.paper",
                id: "paper",
                values: super::ledger::Paper::preset(),
            }], &p.dispatch) }
        </>
    };
    let stage = html! {
        <>
            { chart_title(ctx, "flash.grid") }
            <SceneCanvas scene={(*scene).clone()} name={format!("flash-{}-n{}-step{}", v.choice("pass"), params.n, step)} label={caption.clone()} />
            <Player pos={step} len={run.steps()} speed={v.int("speed")} unit="param.step" on_seek={on_seek} on_speed={p.set("speed")} export={Some((*export).clone())} />
            { readouts_pending(ctx, "flash", &metrics, &pending) }
            { checks_html }
            { rows_view }
            { chart_title(ctx, "flash.ledger") }
            { ledger_html(ctx, sim, v) }
            <p class={classes!("check", if sim.fits_sram() { "ok" } else { "bad" })} data-testid="sram-check" data-value={sim.sram_bytes().to_string()}>
                { super::sram_line(ctx.lang, sim) }{" — "}{ ctx.t(super::sram_verdict(sim, v.choice("blocks") == "sram")) }
            </p>
            if v.choice("blocks") == "sram" {
                <p class="muted" data-testid="sram-paper" data-value={sim.sram_elements_paper().to_string()}>{ super::sram_paper_line(ctx.lang, sim) }</p>
            }
            <RooflineInset gpu={v.choice("gpu")} custom={Some((v.text("peak").to_string().into(), v.int("bw")))} dtype={v.choice("dtype")} dispatch={p.dispatch.clone()} points={Rc::new(vec![
                ("inset.flash", Work { flops: sim.flops(pass) as f64, bytes: fl_b as f64 }),
                ("inset.standard", Work { flops: sim.flops_standard(pass) as f64, bytes: std_b as f64 }),
            ])} />
            if pass == Pass::Bwd {
                <p data-testid="recompute">{ ctx.tf("flash.recompute", &[
                    ("flops", &grouped(sim.recompute_flops())),
                    ("bytes", &bytes(sim.bytes_not_stored() as f64)),
                ]) }</p>
            }
        </>
    };
    p.frame(controls, stage, p.explain())
}

/// The ledger: both passes and the total, standard against flash; the
/// standard implementation kernel by kernel; the blocks, loop order and IO
/// complexity; the paper's benchmark beside the model when the shape is its.
fn ledger_html(ctx: &AppCtx, sim: &Flash, v: &Values) -> Html {
    use super::ledger::{self as l, bytes_cell};
    let cell = |b: u64| {
        let (short, exact) = bytes_cell(b);
        html! { <td class="num" title={exact} data-value={b.to_string()}>{ short }</td> }
    };
    let row = |label: String, id: &str, (s, f): (u64, u64)| {
        html! {
            <tr data-row={id.to_string()}><td>{ label }</td>{ cell(s) }{ cell(f) }<td data-ratio={(s as f64 / f.max(1) as f64).to_string()}>{ super::saving(ctx.lang, s, f) }</td></tr>
        }
    };
    let sram = sim.p.sram;
    let kernels = l::kernel_rows(ctx.lang, sim, v);
    html! {
        <>
            <table class="ledger" data-testid="flash-ledger">
                <thead><tr><th>{ ctx.t("flash.ledger.pass") }</th><th>{ ctx.t("flash.ledger.standard") }</th><th>{ ctx.t("flash.ledger.flash") }</th><th></th></tr></thead>
                <tbody>
                    { row(ctx.t("choice.pass.fwd"), "fwd", l::pass_bytes(sim, Pass::Fwd, v)) }
                    { row(ctx.t("choice.pass.bwd"), "bwd", l::pass_bytes(sim, Pass::Bwd, v)) }
                    { row(ctx.tf("flash.ledger.total", &[("c", &l::copies(v).to_string())]), "total", l::totals(sim, v)) }
                </tbody>
            </table>
            if v.choice("blocks") == "sram" {
                <p data-testid="flash-blocks">{ l::blocks_line(ctx.lang, sim, sram) }</p>
            }
            if v.choice("order") == "kv" {
                <p class="muted" data-testid="flash-order">{ ctx.t("flash.order.kv-note") }</p>
            }
            <p class="muted" data-testid="flash-io" data-flash={l::io_values(sim, sram).1.to_string()} data-standard={l::io_values(sim, sram).0.to_string()}>{ l::io_line(ctx.lang, sim, sram) }</p>
            <details class="kernels" data-testid="flash-kernels" open={v.choice("std") == "kernels"}>
                <summary>{ ctx.tf("flash.kernels", &[("nn", &l::nn_passes(sim, v).to_string())]) }</summary>
                <table class="ledger">
                    <thead><tr><th>{ ctx.t("flash.ledger.pass") }</th><th>{ ctx.t("flash.kernels.kernel") }</th><th>{ ctx.t("flash.kernels.nn") }</th><th>{ ctx.t("flash.kernels.nd") }</th><th>{"HBM"}</th></tr></thead>
                    <tbody>
                        { for kernels.into_iter().map(|k| html! { <tr>
                            <td>{ ctx.t(if k.pass == Pass::Fwd { "choice.pass.fwd" } else { "choice.pass.bwd" }) }</td>
                            <td>{ k.name }</td><td class="num">{ k.nn }</td><td class="num">{ k.nd }</td>{ cell(k.bytes) }
                        </tr> }) }
                    </tbody>
                </table>
                if v.choice("std") == "kernels" {
                    <p class="muted">{ ctx.t("flash.kernels.note") }</p>
                }
            </details>
            if let Some(lines) = l::paper_lines(sim, v) {
                <div class="paper" data-testid="flash-paper">
                    <h3>{ ctx.t("flash.paper") }</h3>
                    { for lines.iter().enumerate().map(|(i, line)| html! {
                        <p class={classes!("check", if line.within { "ok" } else { "bad" })}
                            data-testid={if i == 0 { "paper-standard" } else { "paper-flash" }}
                            data-model-gb={format!("{:.3}", line.model_gb)} data-paper-gb={line.paper_gb.to_string()}
                            data-within={line.within.to_string()}>{ line.text(ctx.lang) }</p>
                    }) }
                    <p data-testid="paper-time">{ l::time_line(ctx.lang, sim, v, crate::params::machine(v).hbm_tbps) }</p>
                    <p class="muted">{ ctx.t("flash.paper.assumptions") }</p>
                </div>
            }
        </>
    }
}

crate::ui::kit::panel::panel!(use_flash_panel);
