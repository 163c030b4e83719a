//! The `#/roofline` panel: attainable = min(peak, intensity × bandwidth)
//! (notes §5, §6.2, demos 2–3 of 01).

use crate::scene::Theme;
use crate::sim::measured::Table;
use crate::sim::roofline;
use crate::ui::kit::chart::{RoofDot, RooflineChart};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::custom_gpu::custom_gpu;
use crate::ui::kit::lecture_table::lecture_table;
use crate::ui::kit::measured::{measured_cell, measured_note, measured_table, ratio_cell, use_measured};
use crate::ui::kit::panel::Panel;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::url_state::Action;
use crate::ui::kit::widgets::{chart_title, emit_on_click, preset_row, table_head, Preset};
use std::rc::Rc;
use yew::prelude::*;

#[hook]
pub fn use_roofline_panel(p: &Panel, ctx: &AppCtx, _theme: Theme) -> Html {
    let h = super::gpu(&p.v);
    let dtype = p.v.choice("dtype");
    let op = p.v.choice("op");
    let figures = use_measured(super::FIGURES_FILE, p.v.choice("measured") == "1");
    let work = super::roofline_work(&p.v, op);
    // The chart is the stage: a little narrower than the shared cap, as tall as the screen leaves.
    let (chart_w, chart_h) = p.chart_size(1100.0, p.chart_title_height());
    let op_label = |o: &str| ctx.t(&format!("choice.op.{o}"));
    let mut roof = super::roofline_spec(&p.v, ctx.lang);
    // Measured points belong on the H200's roof only.
    if let (Some(t), super::MEASURED_GPU) = (&figures, p.v.choice("gpu")) {
        // Short markers: the table names them.
        roof.dots.extend(super::measured_points(t).into_iter().enumerate().filter(|(_, m)| m.draw).map(|(i, m)| {
            RoofDot {
                label: MARKERS[i % MARKERS.len()].to_string(),
                intensity: m.intensity,
                tflops: m.tflops,
                selected: false,
            }
        }));
    }
    let rows = super::lecture_points(&p.v).into_iter().map(|pt| {
        let [intensity, attainable, of_peak] = pt.cells();
        html! {
            <tr class={classes!(pt.selected.then_some("current"))}>
                <td>{ op_label(pt.op) }</td>
                <td class="num">{ intensity }</td>
                <td class="num">{ attainable }</td>
                <td class="num">{ of_peak }</td>
            </tr>
        }
    });
    let precision_args = super::precision_args(dtype);
    let precision = ctx.tf("roofline.precision", &precision_args.each_ref().map(|(k, v)| (*k, v.as_str())));
    let presets = Preset::decode_sweep(super::decode_preset);
    let controls = html! {
        <>
            { p.controls(&["gpu"]) }
            if p.v.choice("gpu") == "custom" {
                { custom_gpu(ctx, p.v.text("peak"), p.v.int("bw"), &p.dispatch) }
            } else {
                <button class="preset" data-preset="m4-pro" onclick={emit_on_click(&p.dispatch, Action::SetMany(crate::ui::kit::custom_gpu::m4_pro()))}>{ ctx.t("custom.m4-pro") }</button>
            }
            { p.controls(&["dtype", "op", "n", "d", "batch", "measured"]) }
            if op == "custom" {
                { p.controls(&["flops", "bytes"]) }
            }
            { preset_row(ctx, "roofline.presets", &presets, &p.dispatch) }
        </>
    };
    let chart = html! {
        <RooflineChart peak={roof.peak} bandwidth={roof.bandwidth} dots={Rc::new(roof.dots)} x_desc={roof.x_desc}
            ridge_label={roof.ridge_label}
            width={chart_w} height={chart_h} present={ctx.present}
            label={ctx.t("roofline.chart")} />
    };
    let stage = html! {
        <>
            { p.chart_stage("roofline.chart", chart) }
            { readouts(ctx, "roofline", &roofline::metrics(&h, dtype, work)) }
            { lecture_table(ctx, "roofline", "lecture.table", &super::lecture_rows(&p.v), &p.dispatch) }
            { chart_title(ctx, "roofline.table") }
            <table class="ledger" data-testid="ops-table">
                { table_head(ctx, &["roofline.col.op", "roofline.col.intensity", "roofline.col.attainable", "roofline.col.peak"]) }
                <tbody>{ for rows }</tbody>
            </table>
            <p class="muted">{ ctx.tf("roofline.decode", &[("d", &p.v.int("d").to_string())]) }</p>
            <p data-testid="precision" data-mxfp8={precision_args[2].1.clone()} data-mxfp4={precision_args[3].1.clone()} data-nvfp4={precision_args[4].1.clone()}>{ precision }</p>
            if let Some(t) = figures {
                { measured(ctx, t, p.v.choice("gpu") == super::MEASURED_GPU) }
            }
        </>
    };
    p.frame(controls, stage, p.explain())
}

/// The labels of the measured dots on the chart, in the table's order.
const MARKERS: [&str; 7] = ["①", "②", "③", "④", "⑤", "⑥", "⑦"];

/// The H200 overlay: the copy as the measured memory roof, and the
/// elementwise kernels as measured points beside the model's attainable.
fn measured(ctx: &crate::ui::kit::ctx::AppCtx, t: Rc<Table>, on_chart: bool) -> Html {
    let roof = super::measured_roof(&t);
    let points = super::measured_points(&t);
    html! {
        <section class="measured measured-beside" data-testid="measured-roofline" data-on-chart={if on_chart { "1" } else { "0" }}>
            { chart_title(ctx, "roofline.measured.title") }
            if let Some(r) = roof {
                <p class="formula" data-measured="copy.model-over-measured" data-value={r.model_over_measured().to_string()}>
                    { ctx.tf("roofline.measured.roof", &[("copy", &format!("{:.0}", r.copy_gbps)),
                        ("spec", &format!("{:.0}", r.spec_gbps)), ("r", &format!("{:.3}", r.model_over_measured()))]) }
                </p>
            }
            { measured_table(
                table_head(ctx, &["roofline.measured.col.kernel", "roofline.measured.col.intensity", "roofline.measured.col.gbps", "roofline.measured.col.tflops", "roofline.measured.col.model", "roofline.measured.col.ratio"]),
                points.iter().enumerate().map(|(i, m)| html! {
                    <tr data-kernel={m.id}>
                        <td>
                            if on_chart && m.draw {
                                <span class="measured-marker">{ MARKERS[i % MARKERS.len()] }</span>
                            }
                            { ctx.t(&format!("roofline.measured.{}", m.id)) }
                        </td>
                        <td class="num">{ format!("{}", m.intensity) }</td>
                        <td class="num">{ format!("{:.0} ; {:.0}", m.effective_gbps, m.ledger_gbps) }</td>
                        { measured_cell(format!("{}.tflops", m.id), m.tflops, format!("{:.3}", m.tflops)) }
                        <td class="num">{ format!("{:.3}", m.model) }</td>
                        { ratio_cell(m.id, m.model_over_measured(), 2) }
                    </tr>
                }).collect::<Html>(),
            ) }
            <p class="muted">{ ctx.t("roofline.measured.setup") }</p>
            <p class="measured-why">{ ctx.t("roofline.measured.why") }</p>
            { measured_note(ctx, &t) }
        </section>
    }
}

crate::ui::kit::panel::panel!(use_roofline_panel);
