//! `#/attention-memory`: S and P against flash's statistics (notes §8.5,
//! demo 4 of 05).

use super::frame::{setter, Choice, PanelFrame};
use crate::i18n::format_bytes;
use crate::params::Value;
use crate::sim::attention_memory::{flash_extra_bytes, metrics, qkvo_bytes, standard_bytes};
use crate::sim::coalescing::dtype_bytes;
use crate::topics::ATTENTION_MEMORY;
use crate::ui::app::AppCtx;
use crate::ui::canvas::use_width;
use crate::ui::chart::{LogChart, LogSeries};
use crate::ui::readouts::Readouts;
use crate::ui::slider::Slider;
use crate::ui::url_state::{use_url_state, Action};
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn MemoryPanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&ATTENTION_MEMORY);
    let v = st.values.clone();
    let n = v.int("n") as u64;
    let d = v.int("d") as u64;
    let e = dtype_bytes(v.choice("dtype"));
    let both = v.choice("stats") == "ml";
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(1000.0);
    let theme = crate::scene::Theme::for_mode(ctx.present);
    let ns: Vec<f64> = (6..=20).map(|p| (1u64 << p) as f64).collect();
    let series = Rc::new(vec![
        LogSeries {
            label: ctx.t("memory.series.standard"),
            color: theme.busy_hot,
            points: ns.iter().map(|&x| (x, standard_bytes(x as u64, e) as f64)).collect(),
        },
        LogSeries {
            label: ctx.t("memory.series.qkvo"),
            color: theme.muted,
            points: ns.iter().map(|&x| (x, qkvo_bytes(x as u64, d, e) as f64)).collect(),
        },
        LogSeries {
            label: ctx.t("memory.series.flash"),
            color: theme.fill_tint,
            points: ns.iter().map(|&x| (x, flash_extra_bytes(x as u64, both) as f64)).collect(),
        },
    ]);
    let set = |name: &'static str| setter(&st.dispatch, name);
    let controls = html! {
        <>
            <Slider topic="attention-memory" name="n" value={v.int("n")} min={1} max={1 << 20} log={true} on_change={set("n")} />
            <Slider topic="attention-memory" name="d" value={v.int("d")} min={1} max={256} log={true} on_change={set("d")} />
            <Choice name="dtype" options={&["fp32", "bf16", "fp16", "fp8"][..]} value={v.choice("dtype")} dispatch={st.dispatch.clone()} />
            <Choice name="stats" options={&["l", "ml"][..]} value={v.choice("stats")} dispatch={st.dispatch.clone()} />
        </>
    };
    let lecture_rows = [4096u64, 16384, 65536].map(|ln| {
        let gb = standard_bytes(ln, 2) as f64 / 1e9;
        let mb = flash_extra_bytes(ln, false) as f64 / 1e6;
        let d_ = st.dispatch.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            d_.emit(Action::SetMany(vec![
                ("n", Value::Int(ln as i64)),
                ("d", Value::Int(128)),
                ("dtype", Value::Choice("bf16")),
                ("stats", Value::Choice("l")),
            ]))
        });
        html! {
            <tr>
                <td class="num">{ ln }</td>
                <td class="num">{ if gb >= 10.0 { format!("{gb:.1} GB") } else { format!("{gb:.2} GB") } }</td>
                <td class="num">{ format!("{mb:.2} MB") }</td>
                <td><button class="preset" data-preset={format!("n{ln}")} onclick={onclick}>{ ctx.t("memory.show") }</button></td>
            </tr>
        }
    });
    let stage_html = html! {
        <>
            <Readouts topic="attention-memory" metrics={Rc::new(metrics(n, e, both))} />
            <h2 class="chart-title">{ ctx.t("memory.chart") }</h2>
            <LogChart series={series} marker={n as f64} x_desc={"n"} y_desc={ctx.t("metric.standard-bytes")}
                width={(width - 4.0).max(240.0)} height={if ctx.present { 380.0 } else { 320.0 }} present={ctx.present}
                label={ctx.t("memory.chart")} />
            <p class="muted">{ format!("Q, K, V, O: {}", format_bytes(qkvo_bytes(n, d, e) as f64)) }</p>
            <h2 class="chart-title">{ ctx.t("memory.table") }</h2>
            <table class="ledger" data-testid="memory-table">
                <thead><tr><th>{ ctx.t("memory.table.n") }</th><th>{ ctx.t("memory.table.standard") }</th><th>{ ctx.t("memory.table.flash") }</th><th></th></tr></thead>
                <tbody>{ for lecture_rows }</tbody>
            </table>
        </>
    };
    let explain = html! {
        <>
            <p class="current">{ ctx.t("memory.explain") }</p>
            <p class="lecture-check">{ ctx.t("memory.lecture") }</p>
        </>
    };
    html! {
        <PanelFrame id="attention-memory" sections="8.5" demo="05 · 4" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={stage} />
    }
}
