//! Key figures (`data-metric` / `data-value`, or pending while still being
//! computed) and URL notices.

use super::ctx::AppCtx;
use crate::i18n::{format_metric, has, notice_text};
use crate::params::Notice;
use crate::sim::Metric;
use yew::prelude::*;

/// Key figures still being computed (a reference check running in the
/// background): their names, how far the computation has got, and the text
/// shown in place of their values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pending {
    /// Metrics still being computed. A metric of the list with one of these
    /// names is shown pending in its place (its value ignored); a name not in
    /// the list is shown pending after it.
    pub metrics: Vec<&'static str>,
    /// Share of the computation done, 0 to 1 (`data-progress`).
    pub progress: f64,
    /// Translation key of the text shown instead of a value ("checking…").
    pub text: &'static str,
}

impl Pending {
    pub fn new(text: &'static str, metrics: Vec<&'static str>, progress: f64) -> Self {
        Pending { metrics, progress, text }
    }
    fn has(&self, name: &str) -> bool {
        self.metrics.contains(&name)
    }
}

/// Every metric as `<div data-metric=name data-value=raw>` with a translated
/// label, its formatted value and (where there is one) a tooltip; a label
/// `metric.<topic>.<name>` overrides `metric.<name>`. A plain function
/// rather than a component: the panel re-renders it with its own state, and
/// each component costs its own copy of Yew's lifecycle code.
pub fn readouts(ctx: &AppCtx, topic: &'static str, metrics: &[Metric]) -> Html {
    readouts_pending(ctx, topic, metrics, &Pending::default())
}

/// [`readouts`], with the metrics still being computed shown pending. A
/// pending metric has no `data-value` (a test reading it waits): `<div
/// class="metric checking" data-metric=name data-state="checking"
/// aria-busy="true" data-progress="0.37">` with the pending text in place of
/// the value.
pub fn readouts_pending(ctx: &AppCtx, topic: &'static str, metrics: &[Metric], pending: &Pending) -> Html {
    let label = |name: &str| {
        let label_key = crate::i18n::topic_key("metric", topic, name);
        let doc_key = format!("{label_key}.doc");
        (ctx.t(&label_key), has(&doc_key).then(|| ctx.t(&doc_key)))
    };
    let checking = |name: &'static str| {
        let (text, title) = label(name);
        html! {
            <div class="metric checking" data-metric={name} data-state="checking" aria-busy="true"
                data-progress={format!("{:.2}", pending.progress)} title={title}>
                <span class="metric-label">{ text }</span>
                <span class="metric-value muted">{ ctx.t(pending.text) }</span>
            </div>
        }
    };
    let listed = |name: &str| metrics.iter().any(|m| m.name == name);
    html! {
        <div class="readouts" role="group">
            { for metrics.iter().map(|m| {
                if pending.has(m.name) {
                    return checking(m.name);
                }
                let (text, doc) = label(m.name);
                // Bytes are shown with units; the hover gives the exact count.
                let exact = crate::i18n::exact_value(m);
                let title = match (doc, exact) {
                    (Some(d), Some(x)) => Some(format!("{d} ({x})")),
                    (d, x) => d.or(x),
                };
                html! {
                    <div class="metric" data-metric={m.name} data-value={m.raw()} title={title}>
                        <span class="metric-label">{ text }</span>
                        <span class="metric-value">{ match m.word_key() {
                            Some(key) => html! { ctx.t(&key) },
                            // A number is never broken across lines: in a
                            // narrow card it is drawn smaller (style/main.css, `.fit`).
                            None => {
                                let text = format_metric(m);
                                let chars = text.chars().count().max(1);
                                html! { <span class="fit" style={format!("--chars:{chars}")}>{ text }</span> }
                            }
                        } }</span>
                    </div>
                }
            }) }
            { for pending.metrics.iter().filter(|n| !listed(n)).map(|n| checking(n)) }
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
