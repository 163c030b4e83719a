//! The lecture's table on its panel: each printed row beside the figures the
//! simulation computes for it, ✓ or the difference and why; a click on a row
//! loads its configuration.

use crate::lecture::Row;
use crate::ui::app::AppCtx;
use crate::ui::url_state::Action;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LectureTableProps {
    /// The panel (metric labels: `metric.<topic>.<name>` or `metric.<name>`).
    pub topic: &'static str,
    /// The table's title (translation key).
    pub title: &'static str,
    pub rows: Rc<Vec<Row>>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn LectureTable(p: &LectureTableProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let Some(first) = p.rows.first() else { return html! {} };
    let heads = first.cells.iter().map(|c| ctx.t(&crate::i18n::topic_key("metric", p.topic, c.metric)));
    html! {
        <section class="lecture-table" data-testid="lecture-table">
            <h2 class="chart-title">{ ctx.t(p.title) }</h2>
            <table class="ledger">
                <thead><tr><th></th>{ for heads.map(|h| html! { <th>{ h }</th> }) }<th></th></tr></thead>
                <tbody>
                    { for p.rows.iter().enumerate().map(|(i, r)| {
                        let d = p.dispatch.clone();
                        let values = r.values.clone();
                        let onclick = Callback::from(move |_: MouseEvent| d.emit(Action::SetMany(values.clone())));
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
