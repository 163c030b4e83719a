//! Widgets the panels share: a segmented choice control, the lecture presets
//! and legend entries. (The frame itself is `ui::panel`.)

use crate::params::Value;
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::url_state::Action;
use yew::prelude::*;

/// A segmented control for a choice parameter `name` (labels: `param.<name>`,
/// `choice.<name>.<option>`). Like the other shared widgets, a function
/// rather than a component: it has no state of its own, and every component
/// costs its own copy of Yew's lifecycle code.
pub fn choice(
    ctx: &AppCtx,
    name: &'static str,
    options: &'static [&'static str],
    value: &str,
    dispatch: &Callback<Action>,
) -> Html {
    let doc = format!("param.{name}.doc");
    html! {
        <div class="control" data-param={name} title={crate::i18n::has(&doc).then(|| ctx.t(&doc))}>
            <span class="control-label">{ ctx.t(&format!("param.{name}")) }</span>
            <div class={classes!("segmented", (options.len() > 3).then_some("wrap"))} role="group">
                { for options.iter().map(|&o| {
                    let active = o == value;
                    html! {
                        <button class={classes!("seg", active.then_some("active"))} data-param={name} data-value={o}
                            aria-pressed={active.to_string()}
                            onclick={emit_on_click(dispatch, Action::Set(name, Value::Choice(o)))}>
                            { ctx.t(&format!("choice.{name}.{o}")) }
                        </button>
                    }
                }) }
            </div>
        </div>
    }
}

/// A click handler that sends `action` (one shared, non-generic closure for
/// every button that sets parameters).
pub fn emit_on_click(dispatch: &Callback<Action>, action: Action) -> Callback<MouseEvent> {
    let d = dispatch.clone();
    Callback::from(move |_: MouseEvent| d.emit(action.clone()))
}

/// One lecture case: a label key, a `data-preset` id, and the values it sets.
pub struct Preset {
    pub label: &'static str,
    pub id: &'static str,
    pub values: Vec<(&'static str, Value)>,
}

impl Preset {
    /// The notes' §5.3 decode sweep (B = 1 … 1024) as presets, each batch's
    /// values given by the panel.
    pub fn decode_sweep(values: fn(i64) -> Vec<(&'static str, Value)>) -> Vec<Preset> {
        crate::lecture::DECODE_BATCHES.iter().map(|&(b, label, id)| Preset { label, id, values: values(b) }).collect()
    }
}

/// A row of lecture presets under the translated `title`.
pub fn preset_row(ctx: &AppCtx, title: &'static str, presets: &[Preset], dispatch: &Callback<Action>) -> Html {
    html! {
        <div class="presets">
            <span class="control-label">{ ctx.t(title) }</span>
            { for presets.iter().map(|pr| html! {
                <button class="preset" data-preset={pr.id}
                    onclick={emit_on_click(dispatch, Action::SetMany(pr.values.clone()))}>
                    { ctx.t(pr.label) }
                </button>
            }) }
        </div>
    }
}

/// A legend entry: a swatch and a translated label.
pub fn legend_item(ctx: &AppCtx, color: crate::scene::Rgba, key: &str) -> Html {
    html! {
        <span class="legend-item"><span class="swatch" style={format!("background:{}", color.css())}></span>{ ctx.t(key) }</span>
    }
}

/// A chart's or table's heading: `<h2 class="chart-title">` with a
/// translated text. (Shared, like [`table_head`], so that the markup is
/// built by one function rather than at every call site.)
pub fn chart_title(ctx: &AppCtx, key: &str) -> Html {
    html! { <h2 class="chart-title">{ ctx.t(key) }</h2> }
}

/// What goes right under a short canvas (a strip), in its column beside the
/// side column (style/main.css, `.beside-scene`) while `short`; else below,
/// full width. The side column's later items (the key figures) then start
/// under the taller of the canvas and the side column's first item, so a
/// panel says `short` only for a canvas about as tall as that item. The
/// wrapper is there either way (a change of `short` moves it, never mounts
/// its content again).
pub fn beside_scene(content: Html, short: bool) -> Html {
    html! { <div class={classes!(short.then_some("beside-scene"))}>{ content }</div> }
}

/// A table's head row: one `<th>` per translated key.
pub fn table_head(ctx: &AppCtx, keys: &[&str]) -> Html {
    html! { <thead><tr>{ for keys.iter().map(|k| html! { <th>{ ctx.t(k) }</th> }) }</tr></thead> }
}
