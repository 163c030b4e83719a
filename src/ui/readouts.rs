//! Key figures (`data-metric` / `data-value`) and URL notices.

use super::app::AppCtx;
use crate::i18n::{format_metric, has, notice_text};
use crate::params::Notice;
use crate::sim::Metric;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ReadoutsProps {
    pub metrics: Rc<Vec<Metric>>,
    /// The panel: a label `metric.<topic>.<name>` overrides `metric.<name>`.
    pub topic: &'static str,
}

/// Every metric as `<div data-metric=name data-value=raw>` with a translated
/// label, its formatted value and (where there is one) a tooltip.
#[component]
pub fn Readouts(props: &ReadoutsProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    html! {
        <div class="readouts" role="group">
            { for props.metrics.iter().map(|m| {
                let label_key = crate::i18n::topic_key("metric", props.topic, m.name);
                let doc_key = format!("{label_key}.doc");
                let title = has(&doc_key).then(|| ctx.t(&doc_key));
                html! {
                    <div class="metric" data-metric={m.name} data-value={m.raw()} title={title}>
                        <span class="metric-label">{ ctx.t(&label_key) }</span>
                        <span class="metric-value">{ match m.word {
                            Some(w) => ctx.t(&format!("word.{w}")),
                            None => format_metric(m),
                        } }</span>
                    </div>
                }
            }) }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct NoticesProps {
    pub notices: Vec<Notice>,
    #[prop_or_default]
    pub on_dismiss: Option<Callback<()>>,
}

/// The visible list of parameters the URL could not use as given.
#[component]
pub fn Notices(props: &NoticesProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    if props.notices.is_empty() {
        return html! {};
    }
    html! {
        <div class="notices" role="status" data-testid="notices">
            <strong>{ ctx.t("notice.title") }</strong>
            <ul>
                { for props.notices.iter().map(|n| html! {
                    <li class="notice" data-notice-param={n.param.clone()}>{ notice_text(ctx.lang, n) }</li>
                }) }
            </ul>
            if let Some(cb) = props.on_dismiss.clone() {
                <button class="notice-dismiss" onclick={cb.reform(|_: MouseEvent| ())}>{ ctx.t("notice.dismiss") }</button>
            }
        </div>
    }
}
