//! The `#/systolic` panel: the TPU systolic array (notes §9.2, demo 06).

use crate::draw::systolic::{phase_tint, StripBox, DETAIL_MAX};
use crate::scene::{Scene, Theme};
use crate::sim::hw::tpu::TPUS;
use crate::sim::systolic::{Conv, Dataflow, Fold, Phase, Systolic};
use crate::sim::{Metric, Steppable};
use crate::ui::kit::background::{at_background_priority, slice};
use crate::ui::kit::canvas::{SceneCanvas, SceneRef};
use crate::ui::kit::chart::{Band, Chart, SeriesChart};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::dom::next_frame;
use crate::ui::kit::export::Export;
use crate::ui::kit::inset::RooflineInset;
use crate::ui::kit::panel::Panel;
use crate::ui::kit::part::part;
use crate::ui::kit::player::Player;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::widgets::{chart_title, legend_item, preset_row, Preset};
use std::cell::Cell;
use std::rc::Rc;
use yew::prelude::*;

/// Checks of at most this many multiply-adds (a few milliseconds) run at once,
/// in the render; larger ones (up to 2 × 4.3 G at m = n = 1024, k = 4096) run
/// in slices at background priority, the panel showing "checking…".
const SYNC_CHECK_MACS: u64 = 1 << 22;
/// Work per slice of the background check, in milliseconds.
const SLICE_MS: f64 = 4.0;

/// Run the check of `sim` in slices of about [`SLICE_MS`], from the frame after
/// the one that shows the new parameters; `progress` gets the percentage done
/// now and then, and 100 at the end. Stops when `cancel` is set.
fn check_in_background(sim: Rc<Systolic>, cancel: Rc<Cell<bool>>, progress: UseStateSetter<u32>) {
    yew::platform::spawn_local(async move {
        let mut shown = 0;
        next_frame().await;
        loop {
            at_background_priority().await;
            if cancel.get() {
                return;
            }
            // One piece of a row (a millisecond or two) at a time.
            let done = slice(SLICE_MS, || sim.check_step(1));
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

/// Cycles the timeline samples at most (every cycle of a shorter run).
const TIMELINE_POINTS: u64 = 1200;

/// Busy PEs per cycle over the whole run, the phases as bands behind.
fn timeline(ctx: &AppCtx, sim: &Systolic, theme: &Theme) -> SeriesChart {
    let p = sim.params();
    let (_, dx) = sim.samples(TIMELINE_POINTS);
    SeriesChart {
        ys: sim.busy_series(TIMELINE_POINTS).into_iter().map(|b| b as f64).collect(),
        x0: 0.0,
        dx,
        y_max: (p.rows * p.cols) as f64,
        bands: sim
            .phase_segments(TIMELINE_POINTS)
            .into_iter()
            .map(|(a, b, ph)| Band { start: a as f64 - dx.min(1.0), end: b as f64, color: phase_tint(ph, theme) })
            .collect(),
        x_desc: ctx.t("param.cycle"),
        y_desc: ctx.t("metric.busy-pes"),
        color: theme.busy_hot,
        present: theme.present,
        overlay: vec![],
    }
}

/// The array at cycle `c`, drawn `width` wide with its caption (the canvas
/// and the GIF export draw the same).
fn scene_at(ctx: &AppCtx, th: &Theme, sim: &Systolic, c: u64, width: f64, cap: &str) -> Scene {
    super::draw(ctx.lang, th, sim, c, width, f64::INFINITY, cap).0
}

/// The first cycle of fold `index` (clamped to the run's folds).
fn fold_start(sim: &Systolic, index: usize) -> u64 {
    let index = index.min(sim.folds() - 1);
    (sim.schedule().start(index) + 1).min(sim.total_cycles())
}

#[hook]
pub fn use_systolic_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    let params = super::systolic_params(&p.v);
    let sim = use_memo(params, |p| Systolic::new(*p));
    let cycle = p.v.int("cycle") as u64;
    let cap = super::caption(ctx.lang, &sim, cycle);
    let scene = {
        let sim = sim.clone();
        let ctx = ctx.clone();
        // Projected, the array fills the height the screen leaves (a short screen).
        let max_h = if ctx.present { p.fit_height.floor() as u32 } else { u32::MAX };
        use_memo(
            (params, cycle, p.width as u32, max_h, ctx.present, ctx.lang, cap.clone()),
            move |(_, c, w, h, _, _, cap)| {
                let max_h = if *h == u32::MAX { f64::INFINITY } else { *h as f64 };
                let (scene, strip) = super::draw(ctx.lang, &theme, &sim, *c, *w as f64, max_h, cap);
                (SceneRef(Rc::new(scene)), strip)
            },
        )
    };
    // A click on the fold strip goes to that fold's first cycle.
    let on_canvas_click = scene.1.map(|strip| {
        let (sim, seek) = (sim.clone(), p.seek("cycle"));
        Callback::from(move |(x, y): (f64, f64)| {
            if let Some(index) = strip.fold_at(x, y) {
                seek.emit(fold_start(&sim, index));
            }
        })
    });
    let export = {
        let sim = sim.clone();
        let ctx = ctx.clone();
        let width = p.width;
        use_memo((params, p.width as u32, ctx.present, ctx.lang), move |_| {
            let (p, d) = (sim.params(), sim.params().dataflow.code());
            Export {
                name: format!("systolic-{}x{}-m{}k{}n{}-{d}", p.rows, p.cols, p.m, p.k, p.n),
                scene_at: Rc::new(move |c| scene_at(&ctx, &theme, &sim, c, width, &super::caption(ctx.lang, &sim, c))),
            }
        })
    };
    let chart = {
        let sim = sim.clone();
        let ctx = ctx.clone();
        use_memo((params, ctx.clone()), move |_| Rc::new(timeline(&ctx, &sim, &theme)))
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
    let pct = ((sim.check_progress() * 100.0).floor() as u32).min(99).to_string();
    let all_metrics = sim.metrics_checked(cycle);
    let metrics = Rc::new(all_metrics.iter().filter(|m| super::CARDS.contains(&m.name)).cloned().collect::<Vec<_>>());
    let frame = sim.state_at(cycle);
    let frame_fold = sim.fold_at(cycle);

    let on_seek = p.seek("cycle");
    let phase_chip = |ph: &Phase| {
        let active = frame.phase == *ph;
        html! {
            <span class={classes!("phase-chip", active.then_some("active"))} data-phase={ph.code()}
                aria-current={active.then_some("step")}
                style={format!("--tint:{}", phase_tint(*ph, &theme).css())}>{ ctx.t(&format!("phase.{}", ph.code())) }</span>
        }
    };
    let chart_w = (p.width - 4.0).max(240.0);
    let chart_h = if ctx.present { 240.0 } else { 180.0 };
    let os = params.dataflow == Dataflow::Os;

    // The parts that don't show the cycle are rendered again only when what
    // they show changed (a scrub renders the stage's figures and the canvas).
    let still = (p.values_but(&["cycle", "speed"]), ctx.clone());
    let controls = {
        let p = p.clone();
        part(still.clone(), move || {
            let ctx = &p.ctx;
            let presets = super::PRESETS
                .iter()
                .map(|&(label, id, r, c, k)| Preset { label, id, values: super::preset_values(r, c, k) })
                .collect::<Vec<_>>();
            let tpu_presets = TPUS
                .iter()
                .map(|t| Preset { label: super::tpu_label(t.code), id: t.code, values: super::tpu_preset_values(t) })
                .collect::<Vec<_>>();
            html! {
                <>
                    { p.controls(&["rows", "cols", "m", "k", "n", "dataflow"]) }
                    if !os {
                        { p.controls(&["dbuf"]) }
                    }
                    { p.controls(&["conv", "seed"]) }
                    { preset_row(ctx, "panel.presets", &presets, &p.dispatch) }
                    { preset_row(ctx, "systolic.tpus", &tpu_presets, &p.dispatch) }
                </>
            }
        })
    };
    let legend = {
        let (ctx, theme) = (ctx.clone(), theme);
        part((params, ctx.clone()), move || {
            let ctx = &ctx;
            html! {
                <div class="legend">
                    { legend_item(ctx, theme.waiting, "systolic.legend.waiting") }
                    { legend_item(ctx, theme.busy_hot, "systolic.legend.busy") }
                    if os {
                        { legend_item(ctx, theme.done, "systolic.legend.done") }
                    } else {
                        { legend_item(ctx, theme.weight, "systolic.legend.weight") }
                    }
                    if params.rows > DETAIL_MAX || params.cols > DETAIL_MAX {
                        <span class="legend-note">{ ctx.t("systolic.large") }</span>
                    }
                </div>
            }
        })
    };
    let folds = (sim.folds() > 1).then(|| {
        let strip = scene.1.map(|b| (b, scene.0 .0.width, scene.0 .0.height));
        let (ctx, sim, seek) = (ctx.clone(), sim.clone(), on_seek.clone());
        part((params, frame_fold.index, strip, ctx.clone()), move || fold_nav(&ctx, &sim, cycle, &seek, strip))
    });
    let chip = {
        let (ctx, sim, v) = (ctx.clone(), sim.clone(), p.v.clone());
        part(still.clone(), move || match super::chip_line(ctx.lang, &v, &sim) {
            Some(line) => html! {
                <p class="systolic-chip" data-testid="systolic-chip" data-clock={super::chip(&v).map(super::clock_value)}>{ line }</p>
            },
            None => html! {},
        })
    };
    // This fold's figures beside the run's (which don't move with the cycle).
    let table = {
        let (ctx, sim, fold) = (ctx.clone(), sim.clone(), frame_fold);
        let run: Vec<Metric> = all_metrics.iter().filter(|m| !super::CARDS.contains(&m.name)).cloned().collect();
        part((params, frame_fold.index, run.clone(), ctx.clone()), move || accounting(&ctx, &sim, &fold, &run))
    };
    let stage = html! {
        <>
            <div class="phase-row" data-testid="phase" data-value={frame.phase.code()}>
                { for super::phases(params.dataflow).iter().map(phase_chip) }
            </div>
            <SceneCanvas scene={scene.0.clone()} on_click={on_canvas_click} name={format!("systolic-{}x{}x{}-{}-c{}", params.rows, params.cols, params.k, params.dataflow.code(), cycle)}
                label={cap.clone()} />
            { legend }
            <Player pos={cycle} len={sim.total_cycles()} speed={p.v.int("speed")} unit="param.cycle"
                max_speed={super::MAX_SPEED}
                on_seek={on_seek.clone()} on_speed={p.set("speed")} export={Some((*export).clone())} />
            if let Some(folds) = folds {
                { folds }
            }
            { chart_title(ctx, "systolic.timeline") }
            <Chart data={(*chart).clone()} width={chart_w} height={chart_h} cursor={cycle as f64}
                on_seek={on_seek} label={ctx.t("systolic.timeline")} />
            { chip }
            { readouts(ctx, "systolic", &metrics) }
            { table }
            if checked.is_none() {
                // Until the check has finished there is no max-abs-error
                // metric (no number that has not been computed), only this.
                <div class="readouts" role="status" aria-busy="true">
                    <div class="metric" data-testid="check-pending" data-pending-metric="max-abs-error">
                        <span class="metric-label">{ ctx.t("metric.systolic.max-abs-error") }</span>
                        <span class="metric-value" style="font-size:1rem;color:var(--muted)">
                            { ctx.tf("systolic.checking.short", &[("pct", &pct)]) }
                        </span>
                    </div>
                </div>
            }
            <RooflineInset gpu={p.v.choice("gpu")} custom={Some((p.v.text("peak").to_string().into(), p.v.int("bw")))}
                dtype="bf16" dispatch={p.dispatch.clone()}
                points={Rc::new(vec![("inset.this", super::work(&params))])} />
            <p class={classes!("result", checked.is_some_and(|e| e != 0).then_some("bad"), checked.is_none().then_some("pending"))}
                data-testid="result" aria-busy={checked.is_none().to_string()}
                style={checked.is_none().then_some("color:var(--muted)")}>
                <strong>{ ctx.t("systolic.result") }{": "}</strong>
                { match checked {
                    None => ctx.tf("systolic.checking", &[("pct", &pct)]),
                    Some(0) => ctx.t("systolic.result.ok"),
                    Some(_) => ctx.t("systolic.result.bad"),
                } }
            </p>
        </>
    };
    let explain = part((params.dataflow, params.conv, ctx.clone()), {
        let ctx = ctx.clone();
        move || {
            let ctx = &ctx;
            html! {
                <>
                    <p class={classes!(os.then_some("current"))} data-explain="os">{ ctx.t("systolic.os.explain") }</p>
                    <p class={classes!((params.dataflow == Dataflow::Ws).then_some("current"))} data-explain="ws">{ ctx.t("systolic.ws.explain") }</p>
                    <p class={classes!((params.dataflow == Dataflow::Is).then_some("current"))} data-explain="is">{ ctx.t("systolic.is.explain") }</p>
                    <p data-explain="folds">{ ctx.t("systolic.folds.explain") }</p>
                    <h3>{ ctx.t("systolic.conv.title") }</h3>
                    <ul class={classes!("systolic-conv", (params.conv == Conv::ScaleSim).then_some("current"))} data-testid="conventions">
                        { for ["pad", "load", "drain", "util", "index"].iter().map(|k| html! {
                            <li data-conv={*k}>{ ctx.t(&format!("systolic.conv.{k}")) }</li>
                        }) }
                    </ul>
                    <p class="lecture-check">{ ctx.t("systolic.lecture") }</p>
                </>
            }
        }
    });
    p.frame(controls, stage, explain)
}

/// Previous and next fold: each goes to a fold's first cycle (a clicker's
/// way through a GEMM of thousands of cycles; B or `.` leaves the view).
/// `strip`: where the clickable strip is in the drawing (and the drawing's
/// size), published as `data-strip` for the browser tests.
fn fold_nav(
    ctx: &AppCtx,
    sim: &Rc<Systolic>,
    cycle: u64,
    seek: &Callback<u64>,
    strip: Option<(StripBox, f64, f64)>,
) -> Html {
    let i = sim.fold_at(cycle).index;
    let n = sim.folds();
    let go = |to: usize| {
        let (sim, seek) = (sim.clone(), seek.clone());
        Callback::from(move |_: MouseEvent| seek.emit(fold_start(&sim, to)))
    };
    html! {
        <div class="fold-nav" data-testid="fold-nav" data-fold={(i + 1).to_string()} data-folds={n.to_string()}
            data-strip={strip.map(|(b, w, h)| format!("{:.1} {:.1} {:.1} {:.1} {w:.1} {h:.1}", b.x, b.y, b.w, b.h))}>
            <button class="tool" data-testid="fold-prev" disabled={i == 0} onclick={go(i.saturating_sub(1))}
                title={ctx.t("systolic.fold.prev.title")}>{ ctx.t("systolic.fold.prev") }</button>
            <button class="tool" data-testid="fold-next" disabled={i + 1 >= n} onclick={go(i + 1)}
                title={ctx.t("systolic.fold.next.title")}>{ ctx.t("systolic.fold.next") }</button>
            <span class="fold-nav-pos">{ ctx.tf("systolic.fold", &[("q", &(i + 1).to_string()), ("n", &n.to_string())]) }</span>
        </div>
    }
}

/// The accounting table: this fold's figures beside the whole run's; the
/// run's efficiencies and operand figures carry their metric names.
fn accounting(ctx: &AppCtx, sim: &Systolic, fold: &Fold, metrics: &[Metric]) -> Html {
    let (cy, macs, map, cutil, util) = sim.fold_figures(fold);
    let all = sim.schedule().total_cycles_split();
    let pct = |x: f64| format!("{:.1} %", 100.0 * x);
    let n = crate::format::grouped;
    let (ra, rb) = sim.operand_reads();
    let p = sim.params();
    let (ea, eb) = ((p.m * p.k) as f64, (p.k * p.n) as f64);
    let raw = |name: &str| metrics.iter().find(|m| m.name == name).map(|m| m.raw());
    // (row, this fold, all folds, the metric the all-folds cell is)
    let rows: Vec<(&str, String, String, Option<&str>)> = vec![
        ("load", n(cy.load), n(all.load), None),
        ("fill", n(cy.fill), n(all.fill), None),
        ("steady", n(cy.steady), n(all.steady), None),
        ("drain", n(cy.drain), n(all.drain), None),
        ("fill-drain", n(cy.fill_drain), n(all.fill_drain), None),
        ("compute", n(cy.compute()), n(all.compute()), None),
        ("macs", n(macs), n(sim.macs()), None),
        ("mapping", pct(map), pct(sim.mapping_efficiency()), Some("mapping-efficiency")),
        ("cutil", pct(cutil), pct(sim.compute_utilization()), Some("compute-utilization")),
        ("util", pct(util), pct(sim.utilization()), Some("overall-utilization")),
        (
            "reads",
            String::new(),
            format!("{:.2} (A {:.2} · B {:.2})", sim.reads_per_operand(), ra as f64 / ea, rb as f64 / eb),
            Some("reads-per-operand"),
        ),
        ("uses", String::new(), format!("{:.1}", sim.uses_per_operand()), Some("uses-per-operand")),
    ];
    html! {
        <>
        { chart_title(ctx, "systolic.acct") }
        <table class="ledger systolic-acct" data-testid="accounting">
            <thead><tr><th></th>
                <th>{ ctx.t("systolic.acct.this") }{" "}{ fold.index + 1 }</th>
                <th>{ ctx.t("systolic.acct.all") }{" ("}{ sim.folds() }{")"}</th></tr></thead>
            <tbody>
                { for rows.into_iter().map(|(k, a, b, metric)| html! {
                    <tr data-row={k}><th>{ ctx.t(&format!("systolic.acct.{k}")) }</th><td>{ a }</td>
                        <td data-metric={metric} data-value={metric.and_then(raw)}>{ b }</td></tr>
                }) }
            </tbody>
        </table>
        </>
    }
}

crate::ui::kit::panel::panel!(use_systolic_panel);
