//! The `#/llm` panel: the key figures, the effects waterfall, the measured
//! step, the per-operator table and its roofline, the batch and context
//! sweeps, the notes' §5.3 rows.

use super::lens::{waterfall_html, WfRow};
use crate::scene::Theme;
use crate::sim::llm::{self, Phase};
use crate::ui::kit::chart::CanvasBackend;
use crate::ui::kit::chart::{mesh, Legend, LogChart, LogSeries, Look, Mark, RooflineChart};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::custom_gpu::custom_gpu;
use crate::ui::kit::lecture_table::lecture_table;
use crate::ui::kit::panel::Panel;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::widgets::{chart_title, preset_row, table_head, Preset};
use plotters::prelude::*;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// The training lens's panel, as its chunk gives it.
type TrainView = fn(&Panel, &AppCtx, Theme) -> Html;

/// Where the split build cuts: the training lens (its view, the memory
/// timeline, the step model and its measured files) is reached only from
/// here, so `#/llm`'s inference lens (its default view) does not download it
/// (53 KB gzip of its 502 KB).
#[wasm_split_helpers::wasm_split(llm_train, fallible)]
fn load_train_view() -> Result<TrainView, wasm_split_helpers::SplitLoaderError> {
    Ok(super::train_view::train_panel)
}

crate::ui::kit::chunk::chunks!(static TRAIN_VIEW: TrainView);

#[hook]
pub fn use_llm_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    use crate::ui::kit::chunk::{pending, state_name, use_chunk_if, Chunk};
    let v = &p.v;
    // The training lens, from its own chunk, fetched once it is asked for;
    // both lenses render through the panel's one frame, so a switch between
    // them updates the page in place (no hook below: the early return keeps
    // the hook order).
    let training = super::training(v);
    let train = use_chunk_if(training, TRAIN_VIEW, "llm-train", || Box::pin(load_train_view()), &[]);
    if training {
        if let Chunk::Ready(view) = train {
            return view(p, ctx, theme);
        }
        let stage = html! {
            <section class="stage-pending" data-chunk="llm-train" data-chunk-state={state_name(&train)}>
                { pending(ctx, &train, "frame.loading", "frame.load-failed") }
            </section>
        };
        // The phase stays switchable while the lens loads (or failed).
        return p.frame(p.controls(&["phase"]), stage, html! {});
    }
    let g = super::gpu(v);
    let c = super::case(v);
    let width = p.width.min(1000.0);
    let chart_w = (width - 4.0).max(240.0);
    let rows = super::op_rows(v);
    let roof = super::roofline_spec(v, ctx.lang);
    let (ideal, terms) = super::waterfall(v);
    let total = ideal + terms.iter().map(|t| t.seconds).sum::<f64>();
    let measured = super::measured(v);
    let fit = llm::Fit::shipped();
    let cal = llm::Calibration::shipped();
    let us = |s: f64| format!("{:.2}", s * 1e6);
    let launch_args =
        [("gap", us(fit.graph_gap)), ("host", us(fit.host(c.shape.arch))), ("tiny", us(cal.host_per_kernel))];
    let source = |e: &str| {
        if e == "launch" {
            ctx.tf(&super::source_key(e), &launch_args.each_ref().map(|(k, x)| (*k, x.as_str())))
        } else {
            ctx.t(&super::source_key(e))
        }
    };
    let wf_rows: Vec<WfRow> = terms
        .iter()
        .map(|t| WfRow::new(ctx, "llm", t.effect, t.on, t.seconds, super::toggled(v, t.effect), source(t.effect)))
        .collect();
    let waterfall = waterfall_html(p, ctx, "waterfall", ideal, &wf_rows, total, 3);
    let fmt_g = |x: f64| {
        if x == 0.0 {
            "0".to_string()
        } else {
            crate::format::bytes(x)
        }
    };
    let op_table = html! {
        <div class="measured-scroll"><table class="ledger" data-testid="ops-table">
            { table_head(ctx, &["llm.col.op", "llm.col.count", "llm.col.flops", "llm.col.weights", "llm.col.act", "llm.col.kv", "llm.col.intensity", "llm.col.bound", "llm.col.ms"]) }
            <tbody>
                { for rows.iter().map(|r| html! {
                    <tr data-op={r.key} data-bound={if r.compute_bound { "compute" } else { "memory" }}>
                        <td>{ ctx.t(&format!("llm.op.{}", r.key)) }</td>
                        <td class="num">{ r.count }</td>
                        <td class="num">{ format!("{:.3e}", r.flops) }</td>
                        <td class="num">{ fmt_g(r.weight_bytes) }</td>
                        <td class="num">{ fmt_g(r.act_bytes) }</td>
                        <td class="num">{ fmt_g(r.kv_bytes) }</td>
                        <td class="num">{ format!("{:.1}", r.intensity) }</td>
                        <td>{ ctx.t(if r.compute_bound { "word.compute" } else { "word.memory" }) }</td>
                        <td class="num" data-value={(r.seconds * 1e3).to_string()}>{ format!("{:.3}", r.seconds * 1e3) }</td>
                    </tr>
                }) }
            </tbody>
        </table></div>
    };
    let measured_html = html! {
        <section class="measured" data-testid="measured-llm">
            { chart_title(ctx, "llm.measured.title") }
            if let Some((meas, pred, _)) = measured {
                <p class="formula" data-measured="step-ms" data-value={meas.to_string()}>
                    <span hidden=true data-measured="model-over-measured" data-value={(pred / meas).to_string()} />
                    { ctx.tf("llm.measured.point", &[("meas", &format!("{meas:.3}")), ("pred", &format!("{pred:.3}")), ("ratio", &format!("{:.3}", pred / meas))]) }
                </p>
            } else {
                <p class="muted">{ ctx.t("llm.measured.none") }</p>
            }
            { accuracy(ctx) }
            <p class="muted">{ ctx.t("llm.measured.why") }</p>
            <p class="measured-note" data-testid="measured-note">{
                if matches!(measured, Some((_, _, false))) {
                    ctx.tf("llm.measured.label-gqa", &[("date", super::lens::file_date(llm::GQA_DECODE_CSV))])
                } else {
                    ctx.tf("llm.measured.label", &[("date", super::lens::file_date(llm::DECODE_CSV))])
                }
            }</p>
        </section>
    };
    // Sweeps.
    let sweep = super::batch_sweep(v);
    let knee = super::knee(v);
    let batch_chart = Rc::new(BatchData {
        points: sweep,
        knee: knee.map(|k| k as f64),
        measured: super::measured_batches(v),
        cursor: c.batch as f64,
        labels: [
            ctx.t("llm.series.step"),
            ctx.t("llm.series.ideal"),
            ctx.t("llm.series.tokens"),
            ctx.t("llm.series.intensity"),
        ],
        measured_label: ctx.t("llm.series.measured"),
        x_desc: ctx.t("llm.axis.batch"),
        y_desc: ctx.t("llm.axis.value"),
    });
    let csweep = super::context_sweep(v);
    let context_series = Rc::new(vec![
        LogSeries {
            label: ctx.t("llm.series.weights"),
            color: theme.fill_tint,
            points: csweep.iter().map(|&(x, w, _)| (x, w)).collect(),
        },
        LogSeries {
            label: ctx.t("llm.series.kv"),
            color: theme.busy_hot,
            points: csweep.iter().map(|&(x, _, k)| (x, k)).collect(),
        },
    ]);
    let presets = Preset::decode_sweep(super::decode_preset);
    let controls = html! {
        <>
            { p.controls(&["model"]) }
            if v.choice("model") == "custom" {
                { p.controls(&["layers", "dmodel", "heads", "kvheads", "ffn", "vocab"]) }
            }
            { p.controls(&["phase", "batch", "ctx", "seq", "dtype", "kvdtype", "gpu"]) }
            if v.choice("gpu") == "custom" {
                { custom_gpu(ctx, v.text("peak"), v.int("bw"), &p.dispatch) }
            }
            { p.controls(&["graphs", "measured"]) }
            { preset_row(ctx, "llm.presets", &presets, &p.dispatch) }
        </>
    };
    let (stage_w, stage_h) = p.chart_size(1100.0, p.chart_title_height());
    // On a phone the operators' labels need rows of their own above the
    // axis: a taller roofline (issue 32, item 10).
    let stage_h = if stage_w < 520.0 { stage_h.max((stage_w * super::PHONE_ROOFLINE).floor()) } else { stage_h };
    let roofline = html! {
        <RooflineChart peak={roof.peak} bandwidth={roof.bandwidth} dots={Rc::new(roof.dots)} x_desc={roof.x_desc}
            ridge_label={roof.ridge_label}
            width={stage_w} height={stage_h} present={ctx.present}
            label={ctx.t("llm.roofline")} />
    };
    let model_source = llm::preset(v.choice("model")).map(|m| ctx.tf("llm.model-source", &[("source", m.source)]));
    let stage = html! {
        <>
            // The operators on the roofline are this panel's stage (sized to
            // the screen, what an embed and a projector show first), the key
            // figures beside it; the effects waterfall right below.
            { p.chart_stage("llm.roofline", roofline) }
            if !super::inference_fits(&c, &g) {
                <p class="notice" data-testid="no-fit" role="status">{ {
                    let t = llm::totals(&c);
                    ctx.tf("llm.no-fit", &[
                        ("w", &format!("{:.1}", t.weight_bytes / 1e9)),
                        ("kv", &format!("{:.1}", t.kv_bytes / 1e9)),
                        ("gpu", g.name),
                        ("have", &format!("{:.0}", g.hbm_gb)),
                    ])
                } }</p>
            }
            { readouts(ctx, "llm", &super::metrics(v)) }
            { chart_title(ctx, "llm.waterfall") }
            { waterfall }
            if v.choice("measured") == "1" {
                { measured_html }
            }
            { chart_title(ctx, "llm.ops") }
            { op_table }
            { chart_title(ctx, "llm.batch-sweep") }
            <BatchChart data={batch_chart} width={chart_w} height={if ctx.present { 320.0 } else { 260.0 }} present={ctx.present}
                label={ctx.t("llm.batch-sweep")} />
            <p class="muted" data-testid="knee" data-value={knee.map(|k| k.to_string()).unwrap_or_default()}>
                { match knee { Some(k) => ctx.tf("llm.knee", &[("b", &k.to_string())]), None => ctx.t("llm.no-knee") } }
            </p>
            { chart_title(ctx, "llm.context-sweep") }
            <LogChart series={context_series} marker={c.ctx.max(128) as f64} x_desc={ctx.t("llm.axis.ctx")} y_desc={ctx.t("llm.axis.bytes")}
                width={chart_w} height={if ctx.present { 300.0 } else { 240.0 }} present={ctx.present} label={ctx.t("llm.context-sweep")} />
            <p class="muted" data-testid="crossover">
                { ctx.tf("llm.crossover", &[("b", &c.batch.to_string()), ("ctx", &crate::format::grouped(super::kv_crossover(v)))]) }
            </p>
            { lecture_table(ctx, "llm", "lecture.table", &super::lecture_rows(v), &p.dispatch) }
            if let Some(s) = model_source {
                <p class="muted">{ s }</p>
            }
        </>
    };
    p.frame(controls, stage, p.explain())
}

/// The accuracy table over every measured step.
fn accuracy(ctx: &AppCtx) -> Html {
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    // One row: the main run's rows by phase, launch and fit (`data-phase`);
    // the default decode kernel against the enable_gqa steps (`data-check="gqa"`).
    let row = |r: &llm::AccuracyRow, gqa: bool| {
        let case = format!(
            "{} · {}",
            ctx.t(if r.phase == Phase::Decode { "llm.acc.decode" } else { "llm.acc.prefill" }),
            ctx.t(if r.graphs { "llm.acc.graph" } else { "llm.acc.eager" })
        );
        let fit = if gqa {
            "llm.acc.gqa"
        } else if r.held_out {
            "llm.acc.held-out"
        } else {
            "llm.acc.fitted"
        };
        html! {
            <tr data-phase={(!gqa).then_some(if r.phase == Phase::Decode { "decode" } else { "prefill" })}
                data-check={gqa.then_some("gqa")}
                data-graphs={if r.graphs { "1" } else { "0" }} data-held-out={if r.held_out { "1" } else { "0" }}
                data-median={r.median.to_string()} data-worst={r.worst.to_string()}
                data-typical-median={r.typical.0.to_string()} data-typical-worst={r.typical.1.to_string()}>
                <td>{ case }</td>
                <td>{ ctx.t(fit) }</td>
                <td class="num">{ r.count }</td>
                <td class="num">{ pct(r.median) }</td>
                <td class="num">{ format!("{} ({} B={} {})", pct(r.worst), r.worst_case.0, r.worst_case.1, r.worst_case.2) }</td>
                <td class="num">{ format!("{} / {}", pct(r.typical.0), pct(r.typical.1)) }</td>
            </tr>
        }
    };
    let rows = llm::accuracy_table()
        .iter()
        .map(|r| row(r, false))
        .chain(llm::gqa_accuracy().iter().map(|r| row(r, true)))
        .collect::<Html>();
    let head = [
        "llm.acc.col.case",
        "llm.acc.col.fit",
        "llm.acc.col.n",
        "llm.acc.col.median",
        "llm.acc.col.worst",
        "llm.acc.col.typical",
    ];
    super::lens::accuracy_frame(ctx, "llm.accuracy", "accuracy", &head, rows)
}

/// The batch sweep's data: (batch, step ms, ideal ms, tokens/s, intensity).
#[derive(Clone, Debug, PartialEq)]
pub struct BatchData {
    pub points: Vec<(f64, f64, f64, f64, f64)>,
    pub knee: Option<f64>,
    /// Measured steps (batch, ms) on the H200 at this context.
    pub measured: Vec<(f64, f64)>,
    pub cursor: f64,
    pub labels: [String; 4],
    pub measured_label: String,
    pub x_desc: String,
    pub y_desc: String,
}

#[derive(Properties, PartialEq, Clone)]
pub struct BatchChartProps {
    pub data: Rc<BatchData>,
    pub width: f64,
    pub height: f64,
    pub present: bool,
    pub label: AttrValue,
}

const SERIES_COLORS: [RGBColor; 4] =
    [RGBColor(208, 48, 10), RGBColor(120, 120, 130), RGBColor(21, 89, 201), RGBColor(30, 140, 60)];

fn series(d: &BatchData, i: usize) -> Vec<(f64, f64)> {
    d.points
        .iter()
        .map(|&(b, s, id, tok, int)| (b, [s, id, tok / 1000.0, int][i]))
        .filter(|p| p.1 > 0.0 && p.1.is_finite())
        .collect()
}

fn draw_batch(canvas: &HtmlCanvasElement, p: &BatchChartProps, dpr: f64) -> Option<()> {
    let backend = CanvasBackend::with_canvas_object(canvas.clone())?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).ok()?;
    let d = &p.data;
    let all: Vec<(f64, f64)> = (0..4).flat_map(|i| series(d, i)).chain(d.measured.iter().copied()).collect();
    let y0 = all.iter().map(|q| q.1).fold(f64::MAX, f64::min).max(1e-3);
    let y1 = all.iter().map(|q| q.1).fold(0.0, f64::max).max(y0 * 10.0);
    let look = Look::new(p.present, dpr);
    let k = look.k;
    let mut chart = look
        .builder(&root, 10.0, 40.0, 56.0)
        .build_cartesian_2d((1f64..1024f64).log_scale(), (y0 / 2.0..y1 * 2.0).log_scale())
        .ok()?;
    mesh!(chart, look)
        .x_desc(d.x_desc.as_str())
        .y_desc(d.y_desc.as_str())
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| if *y >= 1.0 { format!("{y:.0}") } else { format!("{y:.2}") })
        .draw()
        .ok()?;
    let stroke = (if p.present { 4.0 } else { 2.0 } * dpr) as u32;
    let mut labels = Legend::new();
    for (i, c) in SERIES_COLORS.iter().enumerate() {
        crate::ui::kit::chart::line_series(&mut chart, series(d, i), *c, stroke, &d.labels[i], &mut labels)?;
    }
    let line = |x: f64, color: RGBColor| {
        PathElement::new(vec![(x, y0 / 2.0), (x, y1 * 2.0)], color.stroke_width((2.0 * dpr * k) as u32))
    };
    if let Some(kx) = d.knee {
        chart.draw_series(std::iter::once(line(kx, RGBColor(30, 140, 60)))).ok()?;
    }
    chart.draw_series(std::iter::once(line(d.cursor, RGBColor(60, 60, 60)))).ok()?;
    for x in d.knee.into_iter().chain([d.cursor]) {
        labels.drawn_path(&[chart.backend_coord(&(x, y0 / 2.0)), chart.backend_coord(&(x, y1 * 2.0))]);
    }
    for p in &d.measured {
        labels.drawn_dot(chart.backend_coord(p), (5.0 * dpr * k) as i32);
    }
    let r = (5.0 * dpr * k) as u32;
    if !d.measured.is_empty() {
        let style = SERIES_COLORS[0].stroke_width((2.0 * dpr) as u32);
        chart.draw_series(d.measured.iter().map(|&(x, y)| Circle::new((x, y), r, style))).ok()?;
        labels.add(&d.measured_label, Mark::Dot(r, style));
    }
    crate::ui::kit::chart::legend(&chart, &look, &labels)?;
    root.present().ok()
}

#[component]
pub fn BatchChart(p: &BatchChartProps) -> Html {
    // Drawn out of the document and copied in (`use_plot`): a font set on a
    // canvas in the page first brings the page's style up to date.
    let props = p.clone();
    let (canvas, pw, ph) =
        crate::ui::kit::chart::use_plot(p.width, p.height, (p.data.clone(), p.present), move |off, dpr| {
            draw_batch(off, &props, dpr)
        });
    let style = format!("width:{}px;height:{}px", p.width, p.height);
    let d = &p.data;
    html! {
        <div class="chart" style={style.clone()} data-testid="chart">
            <canvas ref={canvas} width={pw.to_string()} height={ph.to_string()} style={style} role="img" aria-label={p.label.clone()} />
            <table class="sr-only" data-testid="chart-table">
                <caption>{ p.label.clone() }</caption>
                <thead><tr>
                    <th scope="col">{ d.x_desc.clone() }</th>
                    { for d.labels.iter().map(|l| html! { <th scope="col">{ l.clone() }</th> }) }
                </tr></thead>
                <tbody>
                    { for d.points.iter().map(|&(b, s, i, t, n)| html! {
                        <tr><td>{ b }</td><td>{ format!("{s:.3}") }</td><td>{ format!("{i:.3}") }</td><td>{ format!("{:.2}", t / 1000.0) }</td><td>{ format!("{n:.1}") }</td></tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

crate::ui::kit::panel::panel!(use_llm_panel);
