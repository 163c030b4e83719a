//! The lecture's table on its panel: each printed row beside the figures the
//! simulation computes for it, ✓ or the difference and why; a click on a row
//! loads its configuration.

use crate::lecture::Row;
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::url_state::Action;
use crate::ui::kit::widgets::emit_on_click;
use yew::prelude::*;

/// The table, titled by the translation key `title`; column heads are the
/// metric labels of the panel `topic` (`metric.<topic>.<name>` or
/// `metric.<name>`). A function rather than a component: it has no state of
/// its own, and every component costs its own copy of Yew's lifecycle code.
pub fn lecture_table(
    ctx: &AppCtx,
    topic: &'static str,
    title: &'static str,
    rows: &[Row],
    dispatch: &Callback<Action>,
) -> Html {
    let Some(first) = rows.first() else { return html! {} };
    let heads = first.cells.iter().map(|c| ctx.t(&crate::i18n::topic_key("metric", topic, c.metric)));
    html! {
        <section class="lecture-table" data-testid="lecture-table">
            <h2 class="chart-title">{ ctx.t(title) }</h2>
            <table class="ledger">
                <thead><tr><th></th>{ for heads.map(|h| html! { <th class="num">{ h }</th> }) }<th></th></tr></thead>
                <tbody>
                    { for rows.iter().enumerate().map(|(i, r)| {
                        let onclick = emit_on_click(dispatch, Action::SetMany(r.values.clone()));
                        html! {
                            <tr class={classes!("lecture-row", if r.ok() { "ok" } else { "differs" })} data-row={i.to_string()}
                                data-ok={r.ok().to_string()} onclick={onclick} title={ctx.t("lecture.load")}>
                                <td><button class="link">{ ctx.t(r.label) }</button></td>
                                { for r.cells.iter().map(|c| html! {
                                    <td class="num" data-metric-cell={c.metric} data-printed={c.printed} data-computed={c.computed.clone()}>
                                        if c.ok() {
                                            { &c.computed }
                                        } else {
                                            { &c.computed }<span class="muted">{ ctx.tf("lecture.printed", &[("v", c.printed)]) }</span>
                                        }
                                    </td>
                                }) }
                                <td class="verdict">
                                    if r.ok() { {"✓"} } else { { r.reason.map(|k| ctx.t(k)).unwrap_or_else(|| ctx.t("lecture.differs")) } }
                                </td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </section>
    }
}
