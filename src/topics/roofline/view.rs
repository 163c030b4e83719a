//! The `#/roofline` panel: attainable = min(peak, intensity × bandwidth)
//! (notes §5, §6.2, demos 2–3 of 01).

use crate::sim::roofline;
use crate::ui::chart::{RoofDot, RooflineChart};
use crate::ui::panel::{controls, use_panel};
use crate::ui::widgets::{Preset, Presets};
use crate::ui::readouts::Readouts;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn RooflinePanel() -> Html {
    let p = use_panel(&super::ROOFLINE);
    let ctx = &p.ctx;
    let h = super::gpu(&p.v);
    let dtype = p.v.choice("dtype");
    let op = p.v.choice("op");
    let work = super::roofline_work(&p.v, op);
    // This panel's chart stays a little narrower than the shared stage cap.
    let width = p.width.min(1000.0);
    let op_label = |o: &str| ctx.t(&format!("choice.op.{o}"));
    let dots: Vec<RoofDot> = super::chart_points(&p.v)
        .into_iter()
        .map(|pt| RoofDot {
            label: op_label(pt.op),
            intensity: pt.intensity,
            tflops: pt.attainable,
            selected: pt.selected,
        })
        .collect();
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
    let presets = Rc::new(
        super::DECODE_PRESETS
            .iter()
            .map(|&(b, label, id)| Preset { label, id, values: super::decode_preset(b) })
            .collect::<Vec<_>>(),
    );
    let controls = html! {
        <>
            { controls(&["gpu", "dtype", "op", "n", "d", "batch"]) }
            if op == "custom" {
                { controls(&["flops", "bytes"]) }
            }
            <Presets title="roofline.presets" presets={presets} dispatch={p.dispatch.clone()} />
        </>
    };
    let stage = html! {
        <>
            <Readouts topic="roofline" metrics={Rc::new(roofline::metrics(h, dtype, work))} />
            <h2 class="chart-title">{ ctx.t("roofline.chart") }</h2>
            <RooflineChart peak={h.peak_tflops(dtype)} bandwidth={h.hbm_tbps} dots={Rc::new(dots)} x_desc={ctx.t("roofline.axis")}
                width={(width - 4.0).max(240.0)} height={if ctx.present { 420.0 } else { 360.0 }} present={ctx.present}
                label={ctx.t("roofline.chart")} />
            <h2 class="chart-title">{ ctx.t("roofline.table") }</h2>
            <table class="ledger" data-testid="ops-table">
                <thead><tr><th>{ ctx.t("roofline.col.op") }</th><th>{ ctx.t("roofline.col.intensity") }</th>
                    <th>{ ctx.t("roofline.col.attainable") }</th><th>{ ctx.t("roofline.col.peak") }</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            <p class="muted">{ ctx.tf("roofline.decode", &[("d", &p.v.int("d").to_string())]) }</p>
            <p data-testid="precision">{ precision }</p>
        </>
    };
    let explain = html! {
        <>
            <p class="current">{ ctx.t("roofline.explain") }</p>
            <p class="lecture-check">{ ctx.t("roofline.lecture") }</p>
        </>
    };
    p.frame(controls, stage, explain)
}
