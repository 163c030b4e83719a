//! What both lenses of `#/llm` show alike (inference, `view.rs`; training,
//! `train_view.rs`, in a chunk of its own): the effects waterfall, a
//! measured file's date, the accuracy table's frame.

use crate::params::Value;
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::panel::Panel;
use crate::ui::kit::url_state::Action;
use crate::ui::kit::widgets::{emit_on_click, table_head};
use yew::prelude::*;

/// One switchable row of an effects waterfall.
pub struct WfRow {
    pub effect: &'static str,
    pub label: String,
    pub on: bool,
    /// What it adds (ms), or would add when off.
    pub ms: f64,
    pub toggle: Action,
    pub source: String,
}

impl WfRow {
    /// A row of `lens`'s waterfall (`<lens>.effect.<effect>` names it).
    pub fn new(
        ctx: &AppCtx,
        lens: &str,
        effect: &'static str,
        on: bool,
        ms: f64,
        toggled: String,
        source: String,
    ) -> WfRow {
        let label = ctx.t(&format!("{lens}.effect.{effect}"));
        WfRow { effect, label, on, ms, toggle: Action::Set("effects", Value::Text(toggled)), source }
    }
}

/// An effects waterfall: the plain roofline, one switchable bar per effect
/// with its source, the prediction, and the all-on / all-off buttons (both
/// lenses; `digits` after the point).
pub fn waterfall_html(
    p: &Panel,
    ctx: &AppCtx,
    testid: &'static str,
    plain: f64,
    rows: &[WfRow],
    total: f64,
    digits: usize,
) -> Html {
    let max_bar = rows.iter().map(|r| r.ms.abs()).fold(plain.max(total), f64::max).max(1e-9);
    let bar = |ms: f64, class: &'static str| {
        let pct = (100.0 * ms.abs() / max_bar).clamp(0.0, 100.0);
        html! { <span class={classes!("llm-bar", class)} style={format!("width:{pct:.1}%")} /> }
    };
    let set = |code: &str| emit_on_click(&p.dispatch, Action::Set("effects", Value::Text(code.into())));
    html! {
        <div class="llm-waterfall" data-testid={testid}>
            <div class="llm-wf-row" data-effect="ideal" data-value={plain.to_string()}>
                <span class="llm-wf-label">{ ctx.t("llm.waterfall.ideal") }</span>
                <span class="llm-wf-track">{ bar(plain, "ideal") }</span>
                <span class="num">{ format!("{plain:.digits$}") }</span>
            </div>
            { for rows.iter().map(|row| html! {
                <div class={classes!("llm-wf-row", (!row.on).then_some("off"))} data-effect={row.effect}
                    data-on={if row.on { "1" } else { "0" }} data-value={row.ms.to_string()}>
                    <label class="llm-wf-label">
                        <input type="checkbox" checked={row.on} data-testid={format!("effect-{}", row.effect)}
                            onclick={emit_on_click(&p.dispatch, row.toggle.clone())} />
                        { row.label.clone() }
                    </label>
                    <span class="llm-wf-track">{ bar(row.ms, if row.ms < 0.0 { "minus" } else { "plus" }) }</span>
                    <span class="num">{ if row.on { format!("{:+.digits$}", row.ms) } else { ctx.t("llm.waterfall.off") } }</span>
                    <span class="llm-wf-source muted">{ row.source.clone() }</span>
                </div>
            }) }
            <div class="llm-wf-row total" data-effect="total" data-value={total.to_string()}>
                <span class="llm-wf-label">{ ctx.t("llm.waterfall.total") }</span>
                <span class="llm-wf-track">{ bar(total, "total") }</span>
                <span class="num">{ format!("{total:.digits$}") }</span>
            </div>
            <div class="llm-wf-buttons">
                <button class="preset" data-preset="effects-all" onclick={set("all")}>{ ctx.t("llm.waterfall.all") }</button>
                <button class="preset" data-preset="effects-none" onclick={set("none")}>{ ctx.t("llm.waterfall.none") }</button>
            </div>
        </div>
    }
}

/// The `# date,…` line of a shipped measured file.
pub fn file_date(csv: &'static str) -> &'static str {
    csv.lines().find_map(|l| l.strip_prefix("# date,")).unwrap_or("—")
}

/// An accuracy table under its one-line introduction: the frame both lenses share.
pub fn accuracy_frame(ctx: &AppCtx, intro: &str, testid: &'static str, head: &[&str], rows: Html) -> Html {
    html! {
        <>
            <p class="muted">{ ctx.t(intro) }</p>
            <div class="measured-scroll"><table class="ledger" data-testid={testid}>
                { table_head(ctx, head) }
                <tbody>{ rows }</tbody>
            </table></div>
        </>
    }
}
