//! The `#/attention-memory` panel: S and P against flash's statistics (notes
//! §8.5, demo 4 of 05).

use crate::i18n::format_bytes;
use crate::sim::attention_memory::{metrics, qkvo_bytes};
use crate::ui::chart::{LogChart, LogSeries};
use crate::ui::panel::{controls, use_panel};
use crate::ui::readouts::Readouts;
use crate::ui::url_state::Action;
use std::rc::Rc;
use yew::prelude::*;

/// This panel's chart is a little narrower than other stages.
const MAX_CHART_WIDTH: f64 = 1000.0;

#[component]
pub fn MemoryPanel() -> Html {
    let p = use_panel(&super::ATTENTION_MEMORY);
    let ctx = &p.ctx;
    let h = super::head(&p.v);
    let width = p.width.min(MAX_CHART_WIDTH);
    let theme = &p.theme;
    let c = super::curves(h);
    let series = Rc::new(vec![
        LogSeries { label: ctx.t("attention-memory.series.standard"), color: theme.busy_hot, points: c.standard },
        LogSeries { label: ctx.t("attention-memory.series.qkvo"), color: theme.muted, points: c.qkvo },
        LogSeries { label: ctx.t("attention-memory.series.flash"), color: theme.fill_tint, points: c.flash },
    ]);
    let controls = html! {
        <>
            { controls(&["n", "d", "dtype", "stats"]) }
        </>
    };
    let lecture_rows = super::LECTURE_NS.map(|ln| {
        let row = super::lecture_row(ln);
        let d = p.dispatch.clone();
        let onclick = Callback::from(move |_: MouseEvent| d.emit(Action::SetMany(super::lecture_case(ln))));
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
            <Readouts topic="attention-memory" metrics={Rc::new(metrics(h.n, h.elem_bytes, h.both_stats))} />
            <h2 class="chart-title">{ ctx.t("attention-memory.chart") }</h2>
            <LogChart series={series} marker={h.n as f64} x_desc={"n"} y_desc={ctx.t("metric.standard-bytes")}
                width={(width - 4.0).max(240.0)} height={if ctx.present { 380.0 } else { 320.0 }} present={ctx.present}
                label={ctx.t("attention-memory.chart")} />
            <p class="muted">{ ctx.tf("attention-memory.qkvo", &[("bytes", &format_bytes(qkvo_bytes(h.n, h.d, h.elem_bytes) as f64))]) }</p>
            <h2 class="chart-title">{ ctx.t("attention-memory.table") }</h2>
            <table class="ledger" data-testid="memory-table">
                <thead><tr>
                    <th>{ ctx.t("attention-memory.table.n") }</th>
                    <th>{ ctx.t("attention-memory.table.standard") }</th>
                    <th>{ ctx.t("attention-memory.table.flash") }</th>
                    <th></th>
                </tr></thead>
                <tbody>{ for lecture_rows }</tbody>
            </table>
        </>
    };
    let explain = html! {
        <>
            <p class="current">{ ctx.t("attention-memory.explain") }</p>
            <p class="lecture-check">{ ctx.t("attention-memory.lecture") }</p>
        </>
    };
    p.frame(controls, stage, explain)
}
