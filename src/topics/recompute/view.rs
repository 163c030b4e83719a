//! The `#/recompute` panel: recomputation (notes §6.4, demo 03).

use crate::ui::lecture_table::lecture_table;
use crate::ui::panel::use_panel;
use crate::ui::readouts::readouts;
use crate::ui::widgets::chart_title;
use yew::prelude::*;

#[hook]
pub fn use_recompute_panel() -> Html {
    let p = use_panel(&super::TOPIC);
    let ctx = &p.ctx;
    let r = super::recompute(&p.v);
    let rows = super::ledger_rows(&r).map(|row| {
        html! {
            <tr><td>{ ctx.t(row.key) }</td><td>{ row.forward }</td><td>{ row.backward }</td>
                <td class="num"><strong>{ row.total }</strong></td></tr>
        }
    });
    let controls = html! {
        <>
            { p.controls(&["depth", "n", "dtype", "upstream"]) }
        </>
    };
    // The slides' "5/8", read both ways (computed for this depth).
    let slides_58 = {
        let (mixed, without, with) = super::slides_fractions(&p.v);
        let with_up = crate::sim::fusion::Recompute { upstream: true, ..r };
        let without_up = crate::sim::fusion::Recompute { upstream: false, ..r };
        let pct = |x: f64| format!("{:.1} %", 100.0 * x);
        let args = [
            ("r", with_up.accesses_recompute().to_string()),
            ("s", without_up.accesses_store().to_string()),
            ("mixed", pct(mixed)),
            ("s2", without_up.accesses_store().to_string()),
            ("r2", without_up.accesses_recompute().to_string()),
            ("without", pct(without)),
            ("s1", with_up.accesses_store().to_string()),
            ("r1", with_up.accesses_recompute().to_string()),
            ("with", pct(with)),
        ];
        let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        html! {
            <p class="muted" data-testid="slides-58" data-value={mixed.to_string()} data-without={without.to_string()} data-with={with.to_string()}>
                { ctx.tf("recompute.slides-58", &args) }
            </p>
        }
    };
    let stage = html! {
        <>
            { readouts(ctx, "recompute", &r.metrics()) }
            { lecture_table(ctx, "recompute", "lecture.table", &super::lecture_rows(&p.v), &p.dispatch) }
            { chart_title(ctx, "recompute.ledger") }
            <table class="ledger" data-testid="recompute-ledger">
                <thead><tr><th></th><th>{ ctx.t("recompute.forward") }</th><th>{ ctx.t("recompute.backward") }</th><th>{ ctx.t("recompute.total") }</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            <p class="formula">{ format!("{}: {} · {}: {}",
                ctx.t("metric.saved-bytes-store"), crate::format::bytes(r.saved_bytes_store() as f64),
                ctx.t("metric.saved-bytes-recompute"), crate::format::bytes(r.saved_bytes_recompute() as f64)) }</p>
            <p class="muted">{ ctx.tf("recompute.why-differ", &[("d", &r.accesses_saved().to_string())]) }</p>
            <p class="muted" data-testid="extra-sigmoids" data-value={r.extra_sigmoids().to_string()}>{ ctx.tf("recompute.extra", &[("k", &r.extra_sigmoids().to_string())]) }</p>
            { slides_58 }
        </>
    };
    p.frame(controls, stage, p.explain())
}

crate::ui::panel::panel!(use_recompute_panel);
