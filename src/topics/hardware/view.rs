//! The `#/hardware` panel: compute against memory (notes §1–2, §4, demo 1 of 01).

use crate::scene::Theme;
use crate::sim::measured::Table;
use crate::ui::kit::chart::LogChart;
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::custom_gpu::custom_gpu;
use crate::ui::kit::lecture_table::lecture_table;
use crate::ui::kit::measured::{measured_cell, measured_note, measured_table, ratio_cell, use_measured};
use crate::ui::kit::panel::Panel;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::widgets::{chart_title, table_head};
use std::rc::Rc;
use yew::prelude::*;

#[hook]
pub fn use_hardware_panel(p: &Panel, ctx: &AppCtx, _theme: Theme) -> Html {
    let h = super::machine(&p.v);
    let dtype = p.v.choice("dtype");
    let custom = p.v.choice("gpu") == "custom";
    let figures = use_measured(super::FIGURES_FILE, p.v.choice("measured") == "1");
    // The growth chart is the stage: a little narrower than the shared cap, as tall as the screen leaves.
    // Its title is long (three lines projected at 1024 × 768): the chart keeps below it what is left.
    let (chart_w, chart_h) =
        p.chart_size(1100.0, p.chart_title_height_for(&ctx.t("hardware.growth"), p.width.min(1100.0)));
    let args = super::ridge_args(&h, dtype);
    let ridge = ctx.tf("hardware.ridge", &args.each_ref().map(|(k, v)| (*k, v.as_str())));
    let levels = super::hierarchy(&h).map(|l| {
        let speed_args: Vec<(&str, &str)> = l.speed_args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let level = l.key.trim_start_matches("hardware.level.");
        // The shared memory's chip-wide bandwidth, where computed (TB/s).
        let speed_value = (l.speed == "hardware.speed.smem.bw").then(|| super::smem_tbps(&h).map(|b| b.0.to_string())).flatten();
        html! {
            <tr data-level={level}><td>{ ctx.t(l.key) }</td><td class="num" data-value={l.bytes.to_string()}>{ l.size }</td><td>{ ctx.t(l.scope) }</td>
                <td data-speed={speed_value}>{ ctx.tf(l.speed, &speed_args) }</td></tr>
        }
    });
    let growth = super::growth_values();
    let growth_line = {
        let f = |x: f64| if x >= 10.0 { format!("{x:.0}") } else { format!("{x:.1}") };
        let names = ["c", "d", "i"];
        let mut args: Vec<(String, String)> = Vec::new();
        for (n, (_, two, ten)) in names.iter().zip(&growth) {
            args.push((format!("{n}2"), f(*two)));
            args.push((format!("{n}10"), f(*ten)));
        }
        let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        ctx.tf("hardware.growth.values", &args)
    };
    let series = Rc::new(super::growth_series(|key| ctx.t(key)));
    let source = ctx.t(&format!("hardware.source.{}", h.code));
    let controls = html! {
        <>
            { p.controls(&["gpu", "dtype", "measured"]) }
            if custom {
                { custom_gpu(ctx, p.v.text("peak"), p.v.int("bw"), &p.dispatch) }
            }
        </>
    };
    let chart = html! {
        <LogChart series={series} marker={0.0} x_desc={ctx.t("hardware.years")} y_desc={ctx.t("hardware.growth.axis")}
            width={chart_w} height={chart_h} present={ctx.present} growth={true} label={ctx.t("hardware.growth")} />
    };
    let stage = html! {
        <>
            <figure class="scene chart-scene" data-testid="stage-chart">
                <h2 class="chart-title" data-testid="growth">{ ctx.t("hardware.growth") }</h2>
                { chart }
            </figure>
            { readouts(ctx, "hardware", &super::metrics(&h, dtype)) }
            { lecture_table(ctx, "hardware", "hardware.lecture-table", &super::lecture_rows(&p.v), &p.dispatch) }
            <p class="formula" data-testid="ridge">{ ridge }</p>
            { chart_title(ctx, "hardware.hierarchy") }
            <table class="ledger" data-testid="hierarchy">
                <tbody>{ for levels }</tbody>
            </table>
            <p class="muted">{ ctx.t("hardware.notes-why") }</p>
            if let Some(line) = super::sms_line(ctx.lang, &h) {
                <p class="formula" data-testid="sms" data-value={h.sms.to_string()} data-die={h.die_sms.to_string()}>{ line }</p>
            }
            if let Some(t) = figures {
                { measured(ctx, t) }
            }
            <p class="muted" data-testid="growth-values">
                { for growth.iter().map(|(key, two, ten)| html! {
                    <span hidden=true data-growth={key.trim_start_matches("hardware.growth.")} data-value={two.to_string()} data-ten={ten.to_string()} />
                }) }
                { growth_line }
            </p>
            <p class="muted" data-testid="hardware-source">{ ctx.tf("hardware.source", &[("s", &source)]) }</p>
        </>
    };
    p.frame(controls, stage, p.explain())
}

/// The H200 overlay: measured copy bandwidth against the spec.
fn measured(ctx: &crate::ui::kit::ctx::AppCtx, t: Rc<Table>) -> Html {
    let rows = super::measured_copies(&t);
    let transpose = super::transposed_over_straight(&t);
    html! {
        <section class="measured measured-beside" data-testid="measured-hardware">
            { chart_title(ctx, "hardware.measured.title") }
            { measured_table(
                table_head(ctx, &["hardware.measured.col.copy", "hardware.measured.col.gbps", "hardware.measured.col.spec", "hardware.measured.col.ratio"]),
                rows.iter().map(|r| html! {
                    <tr data-copy={r.id}>
                        <td>{ ctx.t(&format!("hardware.measured.{}", r.id)) }</td>
                        { measured_cell(format!("{}.gbps", r.id), r.gbps, format!("{:.0}", r.gbps)) }
                        <td class="num">{ format!("{:.0}", r.spec_gbps) }</td>
                        { ratio_cell(r.id, r.model_over_measured(), 3) }
                    </tr>
                }).collect::<Html>(),
            ) }
            if let Some(q) = transpose {
                <p class="formula" data-measured="transposed-over-straight" data-value={q.to_string()}>
                    { ctx.tf("hardware.measured.transpose", &[("r", &format!("{q:.2}"))]) }</p>
            }
            <p class="measured-why">{ ctx.t("hardware.measured.why") }</p>
            { measured_note(ctx, &t) }
        </section>
    }
}

crate::ui::kit::panel::panel!(use_hardware_panel);
