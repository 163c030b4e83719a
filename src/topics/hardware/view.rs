//! The `#/hardware` panel: compute against memory (notes §1–2, §4, demo 1 of 01).

use crate::scene::Rgba;
use crate::ui::chart::{LogChart, LogSeries};
use crate::ui::panel::{controls, use_panel};
use crate::ui::readouts::Readouts;
use std::rc::Rc;
use yew::prelude::*;

/// Colours of the growth curves, in the order of [`super::GROWTH`].
const GROWTH_COLORS: [Rgba; 3] = [Rgba::rgb(235, 110, 20), Rgba::rgb(20, 90, 200), Rgba::rgb(16, 130, 60)];

#[component]
pub fn HardwarePanel() -> Html {
    let p = use_panel(&super::HARDWARE);
    let ctx = &p.ctx;
    let h = super::machine(&p.v);
    let dtype = p.v.choice("dtype");
    let custom = p.v.choice("gpu") == "custom";
    // This panel's charts stay a little narrower than the shared stage cap.
    let width = p.width.min(1000.0);
    let args = super::ridge_args(&h, dtype);
    let ridge = ctx.tf("hardware.ridge", &args.each_ref().map(|(k, v)| (*k, v.as_str())));
    let levels = super::hierarchy(&h).map(|l| {
        let speed_args: Vec<(&str, &str)> = l.speed_args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        html! {
            <tr><td>{ ctx.t(l.key) }</td><td class="num">{ l.size }</td><td>{ ctx.t(l.scope) }</td>
                <td>{ ctx.tf(l.speed, &speed_args) }</td></tr>
        }
    });
    let series = Rc::new(
        super::GROWTH
            .iter()
            .zip(GROWTH_COLORS)
            .map(|((key, per2), color)| LogSeries { label: ctx.t(key), color, points: super::growth_curve(*per2) })
            .collect::<Vec<_>>(),
    );
    let source = if custom { ctx.t("hardware.source.custom") } else { h.source.to_string() };
    let controls = html! {
        <>
            { controls(&["gpu", "dtype"]) }
            if custom {
                { controls(&["peak", "bw"]) }
            }
        </>
    };
    let stage = html! {
        <>
            <Readouts topic="hardware" metrics={Rc::new(super::metrics(&h, dtype))} />
            <p class="formula" data-testid="ridge">{ ridge }</p>
            <h2 class="chart-title">{ ctx.t("hardware.hierarchy") }</h2>
            <table class="ledger" data-testid="hierarchy">
                <tbody>{ for levels }</tbody>
            </table>
            <h2 class="chart-title">{ ctx.t("hardware.table") }</h2>
            <table class="ledger" data-testid="gpu-table">
                <thead><tr><th>{"GPU"}</th><th>{"SMs"}</th><th>{"BF16"}</th><th>{"HBM"}</th><th>{ ctx.t("metric.ridge") }</th></tr></thead>
                <tbody>
                    { for super::gpu_table().into_iter().map(|g| html! {
                        <tr data-gpu={g.code}>
                            <td>{ g.name }</td><td class="num">{ g.sms }</td>
                            <td class="num">{ g.bf16 }</td>
                            <td class="num">{ g.hbm }{ for g.notes.as_ref().map(|(hbm, _)| html! {
                                <span class="notes-value">{ ctx.tf("hardware.notes-value", &[("v", hbm)]) }</span> }) }</td>
                            <td class="num" data-ridge={g.ridge.clone()}>{ g.ridge.clone() }{ for g.notes.as_ref().map(|(_, ridge)| html! {
                                <span class="notes-value" data-notes-ridge={ridge.clone()}>{ ctx.tf("hardware.notes-value", &[("v", ridge)]) }</span> }) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            <p class="muted">{ ctx.t("hardware.notes-why") }</p>
            <h2 class="chart-title">{ ctx.t("hardware.growth") }</h2>
            <LogChart series={series} marker={0.0} x_desc={ctx.t("hardware.years")} y_desc={ctx.t("hardware.growth.axis")}
                width={(width - 4.0).max(240.0)} height={240.0} present={ctx.present} growth={true} label={ctx.t("hardware.growth")} />
            <p class="muted">{ ctx.tf("hardware.source", &[("s", &source)]) }</p>
        </>
    };
    let explain = html! {
        <>
            <p class="current">{ ctx.t("hardware.explain") }</p>
            <p class="lecture-check">{ ctx.t("hardware.lecture") }</p>
        </>
    };
    p.frame(controls, stage, explain)
}
