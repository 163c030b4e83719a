//! `#/systolic`: the TPU systolic array (notes §9.2, demo 06).

use super::frame::setter;
use super::inset::RooflineInset;
use crate::draw::systolic::{draw, phase_tint};
use crate::params::Value;
use crate::scene::Theme;
use crate::sim::roofline::Work;
use crate::sim::systolic::{Dataflow, Phase, Systolic};
use crate::sim::Steppable;
use crate::topics::{self, SYSTOLIC};
use crate::ui::app::AppCtx;
use crate::ui::canvas::{use_width, SceneCanvas, SceneRef};
use crate::ui::chart::{Band, Chart, SeriesChart};
use crate::ui::player::Player;
use crate::ui::readouts::{Notices, Readouts};
use crate::ui::slider::Slider;
use crate::ui::url_state::{use_url_state, Action};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Checks of at most this many multiply-adds (a few milliseconds) run at once,
/// in the render; larger ones (up to 2 × 268 M at 256 × 256 × 4096) run in
/// slices between frames while the panel shows "checking…".
const SYNC_CHECK_MACS: u64 = 1 << 22;
/// Work per slice of the background check, in milliseconds.
const SLICE_MS: f64 = 6.0;

fn now() -> f64 {
    crate::ui::window().performance().map(|p| p.now()).unwrap_or(0.0)
}

/// Resolve on a later task (a zero timeout), so that input, rendering and
/// painting run between two slices of the check.
async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = crate::ui::window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Run the check of `sim` in slices of about [`SLICE_MS`]; `progress` gets the
/// percentage done now and then, and 100 at the end. Stops when `cancel` is set.
fn check_in_background(sim: Rc<Systolic>, cancel: Rc<Cell<bool>>, progress: UseStateSetter<u32>) {
    yew::platform::spawn_local(async move {
        let mut shown = 0;
        loop {
            next_task().await;
            if cancel.get() {
                return;
            }
            let t0 = now();
            // A row is 2 · cols · k multiply-adds (≈ 1 ms at the largest size).
            let row = 2 * (sim.params().cols * sim.params().k) as u64;
            let done = loop {
                let done = sim.check_step(row);
                if done || now() - t0 >= SLICE_MS {
                    break done;
                }
            };
            let pct = (sim.check_progress() * 100.0).floor() as u32;
            if done {
                progress.set(100);
                return;
            }
            if pct >= shown + 5 {
                shown = pct;
                progress.set(pct);
            }
        }
    });
}

/// "Checking…" in the panel's language, long (the result line) or short (the
/// pending metric), with the percentage done.
fn checking_text(ctx: &AppCtx, pct: u32, long: bool) -> String {
    match (ctx.lang, long) {
        (crate::i18n::Lang::Zh, true) => format!("正在核对 C 与直接计算的 A·B……{pct}%"),
        (crate::i18n::Lang::Zh, false) => format!("核对中……{pct}%"),
        (_, true) => format!("checking C against A·B computed directly… {pct}%"),
        (_, false) => format!("checking… {pct}%"),
    }
}

/// The lecture's claims, each a button that sets the panel to that case.
const PRESETS: [(&str, i64, i64, i64); 4] = [
    ("systolic.preset.4x4", 4, 4, 6),
    ("systolic.preset.8x8", 8, 8, 8),
    ("systolic.preset.8x8-512", 8, 8, 512),
    ("systolic.preset.tpu", 128, 128, 512),
];

fn caption(ctx: &AppCtx, sim: &Systolic, cycle: u64) -> String {
    let f = sim.state_at(cycle);
    let p = sim.params();
    let mut s = format!(
        "{} {} / {} · {} · {} / {} PE",
        ctx.t("param.cycle"),
        f.cycle,
        sim.total_cycles(),
        ctx.t(&format!("phase.{}", f.phase.code())),
        f.busy_pes,
        p.rows * p.cols
    );
    if let Some(ws) = f.ws {
        s += &format!(
            " · {}",
            ctx.tf("systolic.chunk", &[("q", &(ws.chunk + 1).to_string()), ("n", &sim.chunks().to_string())])
        );
    }
    s
}

fn timeline(ctx: &AppCtx, sim: &Systolic, theme: &Theme) -> SeriesChart {
    let p = sim.params();
    SeriesChart {
        ys: sim.busy_series().into_iter().map(|b| b as f64).collect(),
        x0: 0.0,
        dx: 1.0,
        y_max: (p.rows * p.cols) as f64,
        bands: sim
            .phase_segments()
            .into_iter()
            .map(|(a, b, ph)| Band { start: a as f64 - 1.0, end: b as f64, color: phase_tint(ph, theme) })
            .collect(),
        x_desc: ctx.t("param.cycle"),
        y_desc: ctx.t("metric.busy-pes"),
        color: theme.busy_hot,
        present: theme.present,
        overlay: vec![],
    }
}

#[component]
pub fn SystolicPanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&SYSTOLIC);
    let v = st.values.clone();
    let params = topics::systolic_params(&v);
    let sim = use_memo(params, |p| Systolic::new(*p));
    let cycle = v.int("cycle") as u64;
    let theme = Theme::for_mode(ctx.present);

    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(if ctx.present { 1400.0 } else { 1000.0 });
    let cap = caption(&ctx, &sim, cycle);
    let scene = {
        let sim = sim.clone();
        use_memo((params, cycle, width as u32, ctx.present, cap.clone()), move |(_, c, w, present, cap)| {
            SceneRef(Rc::new(draw(&sim, *c, &Theme::for_mode(*present), *w as f64, cap)))
        })
    };
    let chart = {
        let sim = sim.clone();
        let ctx = ctx.clone();
        use_memo((params, ctx.clone()), move |_| Rc::new(timeline(&ctx, &sim, &Theme::for_mode(ctx.present))))
    };
    // The result check: at once when small, else in slices after the render.
    if sim.check_result().is_none() && sim.check_macs() <= SYNC_CHECK_MACS {
        sim.check();
    }
    let check_pct = use_state(|| 0u32);
    {
        let sim = sim.clone();
        let progress = check_pct.setter();
        use_effect_with(params, move |_| {
            let cancel = Rc::new(Cell::new(false));
            if sim.check_result().is_none() {
                check_in_background(sim, cancel.clone(), progress);
            }
            move || cancel.set(true)
        });
    }
    let checked = sim.check_result().map(|(_, err)| *err);
    // Read from the check itself (the state above only asks for re-renders).
    let pct = ((sim.check_progress() * 100.0).floor() as u32).min(99);
    let metrics = Rc::new(sim.metrics_checked(cycle));
    let frame = sim.state_at(cycle);

    let set = |name: &'static str| setter(&st.dispatch, name);
    let on_seek = {
        let d = st.dispatch.clone();
        Callback::from(move |c: u64| d.emit(Action::Set("cycle", Value::Int(c as i64))))
    };
    let dataflow_btn = |df: Dataflow| {
        let d = st.dispatch.clone();
        let active = params.dataflow == df;
        html! {
            <button class={classes!("seg", active.then_some("active"))} data-param="dataflow" data-value={df.code()}
                aria-pressed={active.to_string()}
                onclick={Callback::from(move |_: MouseEvent| d.emit(Action::Set("dataflow", Value::Choice(df.code()))))}>
                { ctx.t(&format!("choice.dataflow.{}", df.code())) }
            </button>
        }
    };
    let on_seed = {
        let d = st.dispatch.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                .and_then(|i| i.value().trim().parse::<i64>().ok());
            if let Some(v) = v {
                d.emit(Action::Set("seed", Value::Int(v)));
            }
        })
    };
    let new_seed = {
        let d = st.dispatch.clone();
        let seed = v.int("seed");
        Callback::from(move |_: MouseEvent| d.emit(Action::Set("seed", Value::Int(seed + 1))))
    };
    let legend = |color: crate::scene::Rgba, key: &str| {
        html! { <span class="legend-item"><span class="swatch" style={format!("background:{}", color.css())}></span>{ ctx.t(key) }</span> }
    };
    let phase_chip = |ph: Phase| {
        let active = frame.phase == ph;
        html! {
            <span class={classes!("phase-chip", active.then_some("active"))} data-phase={ph.code()}
                style={format!("--tint:{}", phase_tint(ph, &theme).css())}>{ ctx.t(&format!("phase.{}", ph.code())) }</span>
        }
    };
    let phases: Vec<Phase> = match params.dataflow {
        Dataflow::Os => vec![Phase::Fill, Phase::Steady, Phase::Drain, Phase::FillDrain],
        Dataflow::Ws => vec![Phase::LoadWeights, Phase::Fill, Phase::Steady, Phase::Drain, Phase::FillDrain],
    };
    let chart_w = (width - 4.0).max(240.0);
    let chart_h = if ctx.present { 240.0 } else { 180.0 };

    html! {
        <article class="panel panel-systolic" data-topic="systolic">
            <header class="panel-header">
                <p class="panel-section">{ ctx.tf("landing.section", &[("s", "9.2"), ("d", "06")]) }</p>
                <h1>{ ctx.t("topic.systolic.title") }</h1>
                <p class="panel-summary">{ ctx.t("topic.systolic.summary") }</p>
            </header>
            <Notices notices={(*st.notices).clone()} on_dismiss={st.dismiss.clone()} />
            <div class="panel-body">
                <aside class="controls">
                    <Slider name="rows" value={v.int("rows")} min={1} max={256} log={true} on_change={set("rows")} />
                    <Slider name="cols" value={v.int("cols")} min={1} max={256} log={true} on_change={set("cols")} />
                    <Slider name="k" value={v.int("k")} min={1} max={4096} log={true} on_change={set("k")} />
                    <div class="control" data-param="dataflow" title={ctx.t("param.dataflow.doc")}>
                        <span class="control-label">{ ctx.t("param.dataflow") }</span>
                        <div class="segmented" role="group">
                            { dataflow_btn(Dataflow::Os) }
                            { dataflow_btn(Dataflow::Ws) }
                        </div>
                    </div>
                    <div class="control" data-param="seed" title={ctx.t("param.systolic.seed.doc")}>
                        <label class="control-label" for="param-seed">{ ctx.t("param.seed") }</label>
                        <div class="seed-row">
                            <input id="param-seed" name="seed" type="number" min="0" value={v.int("seed").to_string()} onchange={on_seed} />
                            <button class="seed-next" onclick={new_seed} title="+1">{"↻"}</button>
                        </div>
                    </div>
                    <div class="presets">
                        <span class="control-label">{ ctx.t("systolic.presets") }</span>
                        { for PRESETS.iter().map(|(key, r, c, k)| {
                            let d = st.dispatch.clone();
                            let (r, c, k) = (*r, *c, *k);
                            html! {
                                <button class="preset" data-preset={format!("{r}x{c}x{k}")} onclick={Callback::from(move |_: MouseEvent| d.emit(Action::SetMany(vec![
                                    ("rows", Value::Int(r)), ("cols", Value::Int(c)), ("k", Value::Int(k)),
                                    ("dataflow", Value::Choice("os")), ("cycle", Value::Int(i64::MAX)),
                                ])))}>{ ctx.t(key) }</button>
                            }
                        }) }
                    </div>
                </aside>
                <section class="stage" ref={stage}>
                    <div class="phase-row" data-testid="phase" data-value={frame.phase.code()}>
                        { for phases.into_iter().map(phase_chip) }
                    </div>
                    <SceneCanvas scene={(*scene).clone()} name={format!("systolic-{}x{}x{}-{}-c{}", params.rows, params.cols, params.k, params.dataflow.code(), cycle)}
                        label={cap.clone()} />
                    <div class="legend">
                        { legend(theme.waiting, "systolic.legend.waiting") }
                        { legend(theme.busy_hot, "systolic.legend.busy") }
                        if params.dataflow == Dataflow::Os {
                            { legend(theme.done, "systolic.legend.done") }
                        } else {
                            { legend(theme.weight, "systolic.legend.weight") }
                        }
                        if params.rows > crate::draw::systolic::DETAIL_MAX || params.cols > crate::draw::systolic::DETAIL_MAX {
                            <span class="legend-note">{ ctx.t("systolic.large") }</span>
                        }
                    </div>
                    <Player pos={cycle} len={sim.total_cycles()} speed={v.int("speed")} unit="param.cycle"
                        on_seek={on_seek.clone()} on_speed={set("speed")} />
                    <h2 class="chart-title">{ ctx.t("systolic.timeline") }</h2>
                    <Chart data={(*chart).clone()} width={chart_w} height={chart_h} cursor={cycle as f64}
                        on_seek={on_seek} label={ctx.t("systolic.timeline")} />
                    <Readouts topic="systolic" metrics={metrics} />
                    if checked.is_none() {
                        // Until the check has finished there is no max-abs-error
                        // metric (no number that has not been computed), only this.
                        <div class="readouts" role="status" aria-busy="true">
                            <div class="metric" data-testid="check-pending" data-pending-metric="max-abs-error">
                                <span class="metric-label">{ ctx.t("metric.systolic.max-abs-error") }</span>
                                <span class="metric-value" style="font-size:1rem;color:var(--muted)">{ checking_text(&ctx, pct, false) }</span>
                            </div>
                        </div>
                    }
                    <RooflineInset gpu={v.choice("gpu")} dtype="bf16" dispatch={st.dispatch.clone()} points={Rc::new(vec![
                        ("inset.this", Work {
                            flops: 2.0 * (params.rows * params.cols * params.k) as f64,
                            bytes: 2.0 * (params.rows * params.k + params.k * params.cols + params.rows * params.cols) as f64,
                        }),
                    ])} />
                    <p class={classes!("result", checked.is_some_and(|e| e != 0).then_some("bad"), checked.is_none().then_some("pending"))}
                        data-testid="result" aria-busy={checked.is_none().to_string()}
                        style={checked.is_none().then_some("color:var(--muted)")}>
                        <strong>{ ctx.t("systolic.result") }{": "}</strong>
                        { match checked {
                            None => checking_text(&ctx, pct, true),
                            Some(0) => ctx.t("systolic.result.ok"),
                            Some(_) => ctx.t("systolic.result.bad"),
                        } }
                    </p>
                </section>
            </div>
            <section class="explain">
                <p class={classes!((params.dataflow == Dataflow::Os).then_some("current"))} data-explain="os">{ ctx.t("systolic.os.explain") }</p>
                <p class={classes!((params.dataflow == Dataflow::Ws).then_some("current"))} data-explain="ws">{ ctx.t("systolic.ws.explain") }</p>
                <p class="lecture-check">{ ctx.t("systolic.lecture") }</p>
            </section>
        </article>
    }
}
