//! The `#/your-machine` panel: this machine's roofline, measured in the
//! browser (notes §5.4, demo 4 of 01). The kernels and the bookkeeping are
//! `crate::bench` (no clock); this view times batches with
//! `performance.now()`, runs about 6 ms of work per animation frame, and
//! writes the rounded results into the URL (`r`), where everything shown is
//! read from.

use super::{
    above_roof, attainable, metrics, noise_text, place_labels, plan, results, roof_points, size_label,
    M4_BANDWIDTH_GBPS, M4_FP32_GFLOPS, M4_TABLE,
};
use crate::bench::{Results, Session, Task};
use crate::params::Value;
use crate::scene::Theme;
use crate::ui::kit::background::now;
use crate::ui::kit::chart::CanvasBackend;
use crate::ui::kit::chart::{mesh, Look};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::panel::Panel;
use crate::ui::kit::readouts::{readouts_pending, Pending};
use crate::ui::kit::url_state::Action;
use crate::ui::kit::widgets::{chart_title, table_head};
use gloo::render::{request_animation_frame, AnimationFrame};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// Work per frame before yielding (ms); a batch itself stays under ~4 ms.
const SLICE_MS: f64 = 6.0;

/// A run in progress: the session and the pending animation frame.
struct Running {
    session: Session,
    _frame: Option<AnimationFrame>,
}

type Slot = Rc<RefCell<Option<Running>>>;

/// One frame's slice: batches until `SLICE_MS` has passed, then the next
/// frame (or the results).
fn tick(slot: Slot, on_progress: Callback<f64>, on_done: Callback<(Results, Vec<Task>)>) {
    let t0 = now();
    let outcome = {
        let Ok(mut guard) = slot.try_borrow_mut() else { return };
        let Some(run) = guard.as_mut() else { return };
        let s = &mut run.session;
        while let Some(k) = s.batch() {
            let t = now();
            s.run(k);
            let dt = now() - t;
            s.record(k, dt);
            if now() - t0 >= SLICE_MS {
                break;
            }
        }
        if let Some(r) = s.results() {
            let failed = s.failed.clone();
            *guard = None;
            Err((r, failed))
        } else {
            let next = {
                let (slot, on_progress, on_done) = (slot.clone(), on_progress.clone(), on_done.clone());
                request_animation_frame(move |_| tick(slot, on_progress, on_done))
            };
            run._frame = Some(next);
            Ok(s.progress())
        }
    };
    match outcome {
        Ok(p) => on_progress.emit(p),
        Err(done) => on_done.emit(done),
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Status {
    Idle,
    Running(f64),
    Cancelled,
}

#[hook]
pub fn use_your_machine_panel(p: &Panel, ctx: &AppCtx, _theme: Theme) -> Html {
    let slot: Slot = use_mut_ref(|| None);
    let status = use_state(|| Status::Idle);
    let failed = use_state(Vec::<Task>::new);
    {
        let slot = slot.clone();
        use_effect_with((), move |_| {
            move || {
                if let Ok(mut g) = slot.try_borrow_mut() {
                    *g = None;
                }
            }
        });
    }
    let res = results(&p.v);
    let start = {
        let (slot, status, failed, dispatch, plan) =
            (slot.clone(), status.clone(), failed.clone(), p.dispatch.clone(), plan(&p.v));
        Callback::from(move |_: MouseEvent| {
            let on_progress = {
                let status = status.clone();
                Callback::from(move |x: f64| status.set(Status::Running(x)))
            };
            let on_done = {
                let (status, failed, dispatch) = (status.clone(), failed.clone(), dispatch.clone());
                Callback::from(move |(r, bad): (Results, Vec<Task>)| {
                    if !bad.is_empty() {
                        web_sys::console::error_1(
                            &format!("warpscope your-machine: output check failed: {bad:?}").into(),
                        );
                    }
                    failed.set(bad);
                    status.set(Status::Idle);
                    dispatch.emit(Action::Set("r", Value::Text(r.encode())));
                })
            };
            *slot.borrow_mut() = Some(Running { session: Session::new(plan.clone()), _frame: None });
            status.set(Status::Running(0.0));
            let first = {
                let slot = slot.clone();
                request_animation_frame(move |_| tick(slot, on_progress, on_done))
            };
            if let Some(mut run) = slot_frame(&slot) {
                run._frame = Some(first);
            }
        })
    };
    let cancel = {
        let (slot, status) = (slot.clone(), status.clone());
        Callback::from(move |_: MouseEvent| {
            if let Ok(mut g) = slot.try_borrow_mut() {
                *g = None;
            }
            status.set(Status::Cancelled);
        })
    };
    let running = matches!(*status, Status::Running(_));
    let state = match (*status, &res) {
        (Status::Running(_), _) => "running",
        (Status::Cancelled, None) => "cancelled",
        (_, Some(_)) => "done",
        (_, None) => "idle",
    };
    let progress = match *status {
        Status::Running(x) => x,
        _ if res.is_some() => 1.0,
        _ => 0.0,
    };
    let names = super::META.metrics.to_vec();
    let (figures, pending) = match (&res, running) {
        (Some(r), false) => (metrics(r), Pending::default()),
        _ => (
            vec![],
            Pending::new(if running { "your-machine.measuring" } else { "your-machine.pending" }, names, progress),
        ),
    };
    let json_href = res.as_ref().map(|r| {
        format!("data:application/json;charset=utf-8,{}", String::from(js_sys::encode_uri_component(&r.to_json())))
    });
    let pct = format!("{:.0}", progress * 100.0);
    let controls = html! {
        <>
            { p.controls(&["quick"]) }
            <div class="bench-buttons">
                <button class="bench-run" data-testid="bench-run" onclick={start} disabled={running}>{ ctx.t("your-machine.run") }</button>
                <button class="bench-cancel" data-testid="bench-cancel" onclick={cancel} disabled={!running}>{ ctx.t("your-machine.cancel") }</button>
                if let Some(href) = json_href {
                    <a class="bench-json" data-testid="bench-json" href={href} download="warpscope-your-machine.json">{ ctx.t("your-machine.json") }</a>
                }
            </div>
            <div class="bench-progress" role="progressbar" aria-label={ctx.t("your-machine.progress")} aria-valuemin="0" aria-valuemax="100" aria-valuenow={pct.clone()}
                data-testid="bench-progress" data-progress={format!("{progress:.3}")}>
                <div class="bench-progress-bar" style={format!("width:{pct}%")}></div>
            </div>
            <p class="muted bench-status">{ match *status {
                Status::Running(_) => ctx.tf("your-machine.running", &[("p", &pct)]),
                Status::Cancelled => ctx.t("your-machine.cancelled"),
                Status::Idle if res.is_some() => ctx.t("your-machine.done"),
                Status::Idle => ctx.t("your-machine.idle"),
            } }</p>
            if !failed.is_empty() {
                <p class="check bad" data-testid="bench-check">{ ctx.tf("your-machine.check-failed", &[("tasks", &format!("{:?}", *failed))]) }</p>
            }
        </>
    };
    // The roofline is the stage, drawn before anything has run: the
    // lecture's M4 Pro and empty axes waiting for this machine's points.
    let (width, height) = p.chart_size(1100.0, p.chart_title_height());
    // A phone's plot has no empty corner wide enough for the "points appear
    // here" note: it goes under the chart instead of over the M4's roof.
    let hint_on_canvas = width >= 480.0;
    let data = Rc::new(ChartData::new(ctx, res.as_ref(), hint_on_canvas));
    let sweep = res.as_ref().map(|r| {
        html! {
            <>
                if let Some(text) = noise_text(ctx.lang, r) {
                    <p class="check bad bench-noise" role="note" data-testid="noise-warning" data-value={above_roof(r).len().to_string()}>{ text }</p>
                }
                { chart_title(ctx, "your-machine.chart.bw") }
                <BenchChart data={data.clone()} roof={false} width={width} height={(height * 0.8).min(420.0)} present={ctx.present} label={ctx.t("your-machine.chart.bw")} />
                { table(ctx, r) }
            </>
        }
    });
    let m4_rows = M4_TABLE.iter().map(|(op, i, m, pred)| {
        html! { <tr><td class="mono">{ *op }</td><td class="num">{ i }</td><td class="num">{ m }</td><td class="num">{ pred }</td></tr> }
    });
    let stage = html! {
        <>
            <figure class="scene chart-scene" data-testid="bench" data-state={state}>
                <h2 class="chart-title">{ ctx.t("your-machine.chart.roof") }</h2>
                <BenchChart data={data} roof={true} width={width} height={height} present={ctx.present} label={ctx.t("your-machine.chart.roof")} />
                if res.is_none() && !hint_on_canvas {
                    <figcaption class="chart-hint" data-testid="chart-hint">{ ctx.t(waiting_key(ctx)) }</figcaption>
                }
                // An embed has no controls: the measurement runs on the panel itself.
                if res.is_none() && ctx.embed {
                    <p class="chart-hint"><a data-testid="embed-open-panel" target="_blank" rel="noopener"
                        href={format!("#/your-machine?lang={}", ctx.asked_lang.code())}>{ ctx.t("your-machine.embed.open") }</a></p>
                }
            </figure>
            { readouts_pending(ctx, "your-machine", &figures, &pending) }
            { for sweep }
            { chart_title(ctx, "your-machine.m4-table") }
            <div class="bench-scroll">
            <table class="ledger" data-testid="m4-table">
                <thead><tr><th>{ ctx.t("your-machine.col.what") }</th><th>{ ctx.t("your-machine.col.intensity") }</th>
                    <th>{ ctx.t("your-machine.col.measured") }{ " GFLOP/s" }</th><th>{ ctx.t("your-machine.col.roof") }</th></tr></thead>
                <tbody>{ for m4_rows }</tbody>
            </table>
            </div>
        </>
    };
    let explain = p.explain_with(html! { <p class="muted">{ ctx.t("your-machine.caveat") }</p> });
    p.frame(controls, stage, explain)
}

/// The running session's slot, if it is free to borrow.
fn slot_frame(slot: &Slot) -> Option<std::cell::RefMut<'_, Running>> {
    let g = slot.try_borrow_mut().ok()?;
    std::cell::RefMut::filter_map(g, |o| o.as_mut()).ok()
}

/// The measurements table: every pass with its time, bytes/s and FLOP/s.
fn table(ctx: &crate::ui::kit::ctx::AppCtx, r: &Results) -> Html {
    let (bw, peak) = (r.bandwidth_gbps(), r.peak_gflops());
    let f = |x: f64| {
        if x >= 100.0 {
            format!("{x:.0}")
        } else if x >= 1.0 {
            format!("{x:.2}")
        } else {
            // Three significant digits (a 16 KiB copy takes microseconds).
            let digits = (2 - x.abs().max(1e-9).log10().floor() as i32).clamp(3, 9) as usize;
            format!("{x:.digits$}")
        }
    };
    let row =
        |what: String, size: String, ms: Option<f64>, gbps: Option<f64>, gflops: Option<f64>, roof: Option<f64>| {
            html! {
                <tr>
                    <td>{ what }</td><td class="num">{ size }</td>
                    <td class="num">{ ms.map(f).unwrap_or_default() }</td>
                    <td class="num">{ gbps.map(f).unwrap_or_default() }</td>
                    <td class="num">{ gflops.map(f).unwrap_or_default() }</td>
                    <td class="num">{ roof.map(f).unwrap_or_default() }</td>
                </tr>
            }
        };
    let mut rows = vec![];
    for &(e, g) in &r.sweep {
        let b = 1u64 << e;
        rows.push(row(ctx.t("your-machine.row.copy"), size_label(b), Some(b as f64 / g / 1e6), Some(g), None, None));
    }
    let [n, x2, un, fu] = r.fusion;
    let [gx2, gun, gfu] = r.elementwise_gflops();
    let elems = format!("{} × f32", n as u64);
    // (kernel, ms, bytes per element moved, GFLOP/s, FLOPs per byte)
    let elementwise = [("x2", x2, 8.0, gx2, 0.125), ("unfused", un, 16.0, gun, 0.25), ("fused", fu, 8.0, gfu, 0.25)];
    for (key, ms, bytes, gflops, intensity) in elementwise {
        let what = ctx.t(&format!("your-machine.point.{key}"));
        let roof = attainable(peak, bw, intensity);
        rows.push(row(what, elems.clone(), Some(ms), Some(bytes * n / ms / 1e6), Some(gflops), Some(roof)));
    }
    let [side, st, tt] = r.transpose;
    let sq = format!("{0}×{0} f32", side as u64);
    let mb = 8.0 * side * side / 1e6;
    for (key, ms) in [("straight", st), ("transposed", tt)] {
        rows.push(row(ctx.t(&format!("your-machine.row.{key}")), sq.clone(), Some(ms), Some(mb / ms), None, None));
    }
    let [hn, f32ms, u16ms] = r.halves;
    // (row, ms, bytes per element moved)
    for (key, ms, bytes) in [("f32", f32ms, 8.0), ("u16", u16ms, 4.0)] {
        let what = ctx.t(&format!("your-machine.row.{key}"));
        rows.push(row(what, format!("{}", hn as u64), Some(ms), Some(bytes * hn / ms / 1e6), None, None));
    }
    for &(n, g) in &r.matmul {
        let nf = n as f64;
        rows.push(row(
            ctx.tf("your-machine.point.matmul", &[("n", &n.to_string())]),
            format!("{n}×{n}"),
            Some(2.0 * nf * nf * nf / g / 1e6),
            None,
            Some(g),
            Some(attainable(peak, bw, nf / 6.0)),
        ));
    }
    html! {
        <>
            { chart_title(ctx, "your-machine.table") }
            <div class="bench-scroll">
            <table class="ledger" data-testid="bench-table">
                { table_head(ctx, &["your-machine.col.what", "your-machine.col.size", "your-machine.col.ms", "your-machine.col.gbps", "your-machine.col.gflops", "your-machine.col.roof"]) }
                <tbody>{ for rows }</tbody>
            </table>
            </div>
        </>
    }
}

/// What both charts draw, with translated labels.
#[derive(Clone, Debug, PartialEq)]
struct ChartData {
    /// This machine's memory roof and compute roof (None: not measured yet).
    roof: Option<(f64, f64)>,
    /// (label, FLOP/byte, GFLOP/s).
    dots: Vec<(String, f64, f64)>,
    /// (working set in bytes, GB/s).
    sweep: Vec<(f64, f64)>,
    mine: String,
    m4: String,
    /// Written across the empty chart before a run (where the plot is wide
    /// enough; else empty, and the view says it under the chart).
    waiting: String,
    x_roof: String,
    x_size: String,
}

/// The note on the empty chart: where "Run the measurement" is (an embed
/// has no ☰ Controls: the panel, opened from the link under the chart).
fn waiting_key(ctx: &crate::ui::kit::ctx::AppCtx) -> &'static str {
    if ctx.embed {
        "your-machine.chart.waiting.embed"
    } else {
        "your-machine.chart.waiting"
    }
}

impl ChartData {
    fn new(ctx: &crate::ui::kit::ctx::AppCtx, r: Option<&Results>, hint_on_canvas: bool) -> Self {
        let dots = r
            .map(roof_points)
            .unwrap_or_default()
            .into_iter()
            .map(|(key, n, i, g)| {
                let label = if n > 0 { ctx.tf(key, &[("n", &n.to_string())]) } else { ctx.t(key) };
                (label, i, g)
            })
            .collect();
        ChartData {
            roof: r.map(|r| (r.bandwidth_gbps(), r.peak_gflops())),
            dots,
            sweep: r.map(|r| r.sweep.iter().map(|&(e, g)| ((1u64 << e) as f64, g)).collect()).unwrap_or_default(),
            mine: ctx.t("your-machine.legend.mine"),
            m4: ctx.t("your-machine.legend.m4"),
            waiting: if hint_on_canvas { ctx.t(waiting_key(ctx)) } else { String::new() },
            x_roof: ctx.t("your-machine.axis.intensity"),
            x_size: ctx.t("your-machine.axis.size"),
        }
    }
}

#[derive(Properties, PartialEq)]
struct BenchChartProps {
    data: Rc<ChartData>,
    /// The roofline (else the bandwidth sweep).
    roof: bool,
    width: f64,
    height: f64,
    present: bool,
    label: AttrValue,
}

const MINE: RGBColor = RGBColor(208, 48, 10);
const M4: RGBColor = RGBColor(21, 89, 201);

fn draw_roof(canvas: &HtmlCanvasElement, d: &ChartData, present: bool, dpr: f64) -> Option<()> {
    let root = CanvasBackend::with_canvas_object(canvas.clone())?.into_drawing_area();
    root.fill(&WHITE).ok()?;
    let look = Look::new(present, dpr);
    let k = look.k;
    let (x0, x1) = (0.02, 2000.0);
    let (bw, peak) = d.roof.unwrap_or((M4_BANDWIDTH_GBPS, M4_FP32_GFLOPS));
    let lowest = d.dots.iter().map(|x| x.2).fold(x0 * bw.min(M4_BANDWIDTH_GBPS), f64::min);
    let (y0, y1) = (lowest / 3.0, M4_FP32_GFLOPS.max(peak) * 3.0);
    // Room on the right so the last axis label is never cut.
    let mut chart = look
        .builder(&root, 12.0, 36.0, 60.0)
        .margin_right((40.0 * dpr * k) as u32)
        .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
        .ok()?;
    mesh!(chart, look)
        .x_desc(d.x_roof.as_str())
        .y_desc("GFLOP/s")
        .x_label_formatter(&|x| if *x >= 1.0 { format!("{x:.0}") } else { format!("{x}") })
        .y_label_formatter(&|y| if *y >= 1.0 { format!("{y:.0}") } else { format!("{y:.2}") })
        .draw()
        .ok()?;
    let stroke = (if present { 4.0 } else { 2.5 } * dpr) as u32;
    let mut roofs = vec![(M4_BANDWIDTH_GBPS, M4_FP32_GFLOPS, M4, &d.m4)];
    if let Some((bw, peak)) = d.roof {
        roofs.push((bw, peak, MINE, &d.mine));
    }
    let mut labels = crate::ui::kit::chart::Legend::new();
    for (bw, peak, color, label) in roofs {
        let ridge = peak / bw;
        crate::ui::kit::chart::line_series(
            &mut chart,
            vec![(x0, x0 * bw), (ridge, peak), (x1, peak)],
            color,
            stroke,
            label,
            &mut labels,
        )?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(ridge, y0), (ridge, peak)],
                color.mix(0.5).stroke_width((1.0 * dpr) as u32),
            )))
            .ok()?;
        labels.drawn_path(&[chart.backend_coord(&(ridge, y0)), chart.backend_coord(&(ridge, peak))]);
    }
    for (op, i, measured, _) in M4_TABLE {
        let pos = (i, measured);
        labels.drawn_dot(chart.backend_coord(&pos), (4.0 * dpr * k) as i32);
        chart
            .draw_series(std::iter::once(Circle::new(pos, (4.0 * dpr * k) as u32, M4.stroke_width((1.5 * dpr) as u32))))
            .ok()?;
        let _ = op;
    }
    // The dots, then their labels where none overlaps another or a dot (x*2+1
    // unfused and fused share an intensity; a quick run's matmuls are close).
    let mut centres = Vec::new();
    let mut sizes = Vec::new();
    let style = look.font(12.0).into_font().color(&MINE).pos(Pos::new(HPos::Left, VPos::Top));
    for (label, i, g) in &d.dots {
        let pos = (i.clamp(x0, x1), g.clamp(y0, y1));
        chart.draw_series(std::iter::once(Circle::new(pos, (5.0 * dpr * k) as u32, MINE.filled()))).ok()?;
        let (x, y) = chart.backend_coord(&pos);
        labels.drawn_dot((x, y), (5.0 * dpr * k) as i32);
        centres.push((x as f64, y as f64));
        let (w, h) = root.estimate_text_size(label, &style).ok()?;
        sizes.push((w as f64, h as f64));
    }
    for ((label, _, _), (lx, ly)) in d.dots.iter().zip(place_labels(&centres, &sizes, 6.0 * dpr * k)) {
        root.draw(&Text::new(label.clone(), (lx.round() as i32, ly.round() as i32), style.clone())).ok()?;
    }
    if d.roof.is_none() && !d.waiting.is_empty() {
        // Not measured yet: say so in the empty lower right of the plot,
        // under the M4's flat roof, right of its measured points (the one at
        // 10 FLOP/byte sits half-way across), on white over the grid.
        let (xr, yr) = chart.plotting_area().get_pixel_range();
        let px = crate::ui::kit::chart::MIN_FONT * k;
        let plot_w = (xr.end - xr.start) as f64 / dpr;
        let lines = crate::scene::wrap(&d.waiting, px, plot_w * 0.36);
        let line_h = px * 1.3 * dpr;
        let widest = lines.iter().map(|l| crate::scene::text_width(l, px)).fold(0.0, f64::max) * dpr;
        let pad = 4.0 * dpr;
        let right = xr.end as f64 - pad;
        let y0 = yr.end as f64 - line_h * (lines.len() as f64 + 0.3);
        let back = WHITE.mix(0.9).filled();
        let (a, b) = (
            ((right - widest - 2.0 * pad) as i32, (y0 - pad) as i32),
            (right as i32 + pad as i32 / 2, (y0 + line_h * lines.len() as f64) as i32),
        );
        root.draw(&Rectangle::new([a, b], back)).ok()?;
        // The legend keeps off the note as off a drawn line.
        labels.drawn((a.1..=b.1).step_by(4).flat_map(|y| (a.0..=b.0).step_by(4).map(move |x| (x, y))));
        for (i, line) in lines.iter().enumerate() {
            let style = look
                .font(crate::ui::kit::chart::MIN_FONT)
                .into_font()
                .color(&MINE)
                .pos(Pos::new(HPos::Right, VPos::Top));
            root.draw(&Text::new(line.clone(), ((right - pad) as i32, (y0 + i as f64 * line_h) as i32), style)).ok()?;
        }
    }
    crate::ui::kit::chart::legend(&chart, &look, &labels)?;
    root.present().ok()
}

fn draw_sweep(canvas: &HtmlCanvasElement, d: &ChartData, present: bool, dpr: f64) -> Option<()> {
    let root = CanvasBackend::with_canvas_object(canvas.clone())?.into_drawing_area();
    root.fill(&WHITE).ok()?;
    let look = Look::new(present, dpr);
    let k = look.k;
    let (x0, x1) = (
        d.sweep.iter().map(|p| p.0).fold(f64::MAX, f64::min) / 2.0,
        d.sweep.iter().map(|p| p.0).fold(1.0, f64::max) * 2.0,
    );
    let y1 = d.sweep.iter().map(|p| p.1).fold(1.0, f64::max) * 1.15;
    // Room on the right for the last size label ("256 MiB"), never cut.
    let mut chart = look
        .builder(&root, 12.0, 36.0, 56.0)
        .margin_right((40.0 * dpr * k) as u32)
        .build_cartesian_2d((x0..x1).log_scale().base(2.0), 0.0..y1)
        .ok()?;
    mesh!(chart, look)
        .x_desc(d.x_size.as_str())
        .y_desc("GB/s")
        // As many size labels as fit (about one per 70 px): on a phone every
        // power of two would overprint its neighbours.
        .x_labels(((canvas.width() as f64 / dpr - 90.0) / 70.0).clamp(3.0, 16.0) as usize)
        .x_label_formatter(&|x| size_label(x.round() as u64))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .ok()?;
    let stroke = (if present { 4.0 } else { 2.5 } * dpr) as u32;
    chart.draw_series(LineSeries::new(d.sweep.clone(), MINE.stroke_width(stroke))).ok()?;
    for &(x, y) in &d.sweep {
        chart.draw_series(std::iter::once(Circle::new((x, y), (4.0 * dpr * k) as u32, MINE.filled()))).ok()?;
        let style = look.font(12.0).into_font().color(&MINE).pos(Pos::new(HPos::Center, VPos::Bottom));
        chart.draw_series(std::iter::once(Text::new(format!("{y:.1}"), (x, y + y1 * 0.03), style))).ok()?;
    }
    root.present().ok()
}

#[component]
fn BenchChart(p: &BenchChartProps) -> Html {
    let canvas = use_node_ref();
    let dpr = crate::ui::kit::dom::window().device_pixel_ratio().clamp(1.0, 4.0);
    let (pw, ph) = ((p.width * dpr).round() as u32, (p.height * dpr).round() as u32);
    {
        let (canvas, data, roof, present) = (canvas.clone(), p.data.clone(), p.roof, p.present);
        use_effect_with((p.data.clone(), pw, ph, p.present, p.roof), move |_| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                let ok = if roof { draw_roof(&c, &data, present, dpr) } else { draw_sweep(&c, &data, present, dpr) };
                if ok.is_some() {
                    let _ = c.set_attribute("data-painted", "1");
                }
            }
        });
    }
    let style = format!("width:{}px;height:{}px", p.width, p.height);
    html! {
        <div class="chart" style={style.clone()} data-testid={if p.roof { "bench-roofline" } else { "bench-sweep" }}>
            <canvas ref={canvas} width={pw.to_string()} height={ph.to_string()} style={style} role="img" aria-label={p.label.clone()}
                data-min-font={crate::ui::kit::chart::min_font(p.present)} />
        </div>
    }
}

crate::ui::kit::panel::panel!(use_your_machine_panel);
