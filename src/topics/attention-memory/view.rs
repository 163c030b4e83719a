//! The `#/attention-memory` panel: S and P against flash's statistics (notes
//! §8.5, demo 4 of 05).

use crate::scene::Theme;
use crate::sim::attention_memory::qkvo_bytes;
use crate::sim::measured::Table;
use crate::ui::kit::chart::LogChart;
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::measured::{measured_cell, measured_note, measured_table, use_measured};
use crate::ui::kit::panel::Panel;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::url_state::Action;
use crate::ui::kit::widgets::{chart_title, emit_on_click, table_head};
use std::rc::Rc;
use yew::prelude::*;

/// This panel's chart is a little narrower than other stages.
const MAX_CHART_WIDTH: f64 = 1100.0;

#[hook]
pub fn use_memory_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    let h = super::head(&p.v);
    let measured_table = use_measured(super::ATTENTION_FILE, p.v.choice("measured") == "1");
    let (chart_w, chart_h) = p.chart_size(MAX_CHART_WIDTH, p.chart_title_height());
    let figures = super::figures(&p.v);
    let series = Rc::new(super::series(h, &theme, |key| ctx.t(key)));
    let controls = html! {
        <>
            { p.controls(&["n", "d", "dtype", "stats", "measured", "batch", "heads", "causal", "gpu"]) }
        </>
    };
    let lecture_rows = super::LECTURE_NS.map(|ln| {
        let row = super::lecture_row(ln);
        let onclick = emit_on_click(&p.dispatch, Action::SetMany(super::lecture_case(ln)));
        html! {
            <tr>
                <td class="num">{ row.n }</td>
                <td class="num">{ row.standard }</td>
                <td class="num">{ row.flash }</td>
                <td><button class="preset" data-preset={format!("n{ln}")} onclick={onclick}>{ ctx.t("attention-memory.show") }</button></td>
            </tr>
        }
    });
    let stage = html! {
        <>
            { p.chart_stage("attention-memory.chart", html! {
                <LogChart series={series} marker={h.n as f64} x_desc={"n"} y_desc={ctx.t("attention-memory.axis.bytes")}
                    width={chart_w} height={chart_h} present={ctx.present}
                    label={ctx.t("attention-memory.chart")} />
            }) }
            { readouts(ctx, "attention-memory", &figures) }
            <div class="measured-scroll"><table class="ledger" data-testid="out-of-memory">
                <caption>{ ctx.t("attention-memory.oom") }</caption>
                { table_head(ctx, &["attention-memory.oom.gpu", "attention-memory.oom.written", "attention-memory.oom.fused"]) }
                <tbody>
                    { for super::out_of_memory(&p.v).into_iter().map(|(name, w, f)| html! {
                        <tr data-gpu={name}><td>{ name }</td>
                            <td class="num" data-value={w.to_string()}>{ crate::format::grouped(w) }</td>
                            <td class="num" data-value={f.to_string()}>{ crate::format::grouped(f) }</td></tr>
                    }) }
                </tbody>
            </table></div>
            if let Some((w, f)) = super::bench_measured(&p.v) {
                <p class="formula" data-testid="bench-measured"
                    data-fwd={w.map(|m| m.fwd_ms.to_string()).unwrap_or_default()}
                    data-bwd={w.map(|m| m.bwd_ms.to_string()).unwrap_or_default()}
                    data-saved={w.map(|m| m.saved.to_string()).unwrap_or_default()}
                    data-flash-fwd={f.map(|m| m.fwd_ms.to_string()).unwrap_or_default()}
                    data-flash-bwd={f.map(|m| m.bwd_ms.to_string()).unwrap_or_default()}>
                    { ctx.tf("attention-memory.bench.measured", &[
                        ("fwd", &w.map_or("—".into(), |m| format!("{:.2}", m.fwd_ms))),
                        ("bwd", &w.map_or("—".into(), |m| format!("{:.2}", m.bwd_ms))),
                        ("saved", &w.map_or("—".into(), |m| crate::format::bytes(m.saved))),
                        ("ffwd", &f.map_or("—".into(), |m| format!("{:.2}", m.fwd_ms))),
                        ("fbwd", &f.map_or("—".into(), |m| format!("{:.2}", m.bwd_ms))),
                    ]) }
                </p>
            }
            <p class="muted">{ ctx.t("attention-memory.bench.note") }</p>
            <p class="muted">{ ctx.tf("attention-memory.qkvo", &[("bytes", &crate::format::bytes(qkvo_bytes(h.n, h.d, h.elem_bytes) as f64))]) }</p>
            { chart_title(ctx, "attention-memory.table") }
            <table class="ledger" data-testid="memory-table">
                <thead><tr>
                    <th>{ ctx.t("attention-memory.table.n") }</th>
                    <th>{ ctx.t("attention-memory.table.standard") }</th>
                    <th>{ ctx.t("attention-memory.table.flash") }</th>
                    <th></th>
                </tr></thead>
                <tbody>{ for lecture_rows }</tbody>
            </table>
            if let Some(t) = measured_table {
                { measured(ctx, t, h.n) }
            }
        </>
    };
    p.frame(controls, stage, p.explain())
}

/// MiB with one decimal (the file's precision).
fn mib(bytes: f64) -> String {
    format!("{:.1} MiB", bytes / super::MIB)
}

/// The H200 overlay: the measured sweep beside the model at 16 heads, d = 128, bf16.
fn measured(ctx: &crate::ui::kit::ctx::AppCtx, t: Rc<Table>, current: u64) -> Html {
    let rows = super::measured_rows(&t);
    let ratio = |name: String, q: Option<f64>| match q {
        Some(q) => measured_cell(name, q, format!("{q:.3}")),
        None => html! { <td class="num">{ "—" }</td> },
    };
    html! {
        <section class="measured measured-beside" data-testid="measured-attention">
            { chart_title(ctx, "attention-memory.measured.title") }
            { measured_table(html! {
                <thead><tr>
                    <th>{ "n" }</th>
                    <th>{ ctx.t("attention-memory.measured.col.naive") }</th>
                    <th>{ ctx.t("attention-memory.measured.col.naive-model") }</th>
                    <th>{ ctx.t("attention-memory.measured.col.ratio") }</th>
                    <th>{ ctx.t("attention-memory.measured.col.flash") }</th>
                    <th>{ ctx.t("attention-memory.measured.col.flash-model") }</th>
                    <th>{ ctx.t("attention-memory.measured.col.ratio") }</th>
                    <th>{ ctx.t("attention-memory.measured.col.ms") }</th>
                    <th>{ ctx.t("attention-memory.measured.col.time") }</th>
                </tr></thead>
            }, html! {
                    { for rows.iter().map(|r| {
                        let oom = || html! { <span class="oom">{ ctx.t("attention-memory.measured.oom") }</span> };
                        let ms = |m: Option<super::Measured>| m.map_or("—".to_string(), |m| format!("{:.3}", m.ms));
                        html! {
                            <tr data-n={r.n.to_string()} class={classes!((r.n == current).then_some("current"))}>
                                <td class="num">{ r.n }</td>
                                <td class="num">{ match r.naive { Some(m) => html! { mib(m.peak_extra) }, None => oom() } }</td>
                                <td class="num">{ mib(r.model_naive()) }</td>
                                { ratio(format!("naive.{}.model-over-measured", r.n), r.naive_ratio()) }
                                <td class="num">{ match r.flash { Some(m) => html! { mib(m.peak_extra) }, None => oom() } }</td>
                                <td class="num">{ mib(r.model_flash()) }</td>
                                { ratio(format!("flash.{}.model-over-measured", r.n), r.flash_ratio()) }
                                <td class="num">{ format!("{} ; {}", ms(r.naive), ms(r.flash)) }</td>
                                { match r.time_ratio() {
                                    Some(q) => measured_cell(format!("time.{}.naive-over-flash", r.n), q, format!("{q:.2}×")),
                                    None => html! { <td class="num">{ "—" }</td> },
                                } }
                            </tr>
                        }
                    }) }
            }) }
            <p class="muted">{ ctx.t("attention-memory.measured.setup") }</p>
            <p class="measured-why">{ ctx.t("attention-memory.measured.why") }</p>
            { measured_note(ctx, &t) }
        </section>
    }
}

crate::ui::kit::panel::panel!(use_memory_panel);
