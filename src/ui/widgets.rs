//! Widgets the panels share: a segmented choice control, the lecture presets
//! and legend entries. (The frame itself is `ui::panel`.)

use crate::params::Value;
use crate::ui::app::AppCtx;
use crate::ui::url_state::Action;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ChoiceProps {
    /// The URL parameter (labels: `param.<name>`, `choice.<name>.<option>`).
    pub name: &'static str,
    pub options: &'static [&'static str],
    pub value: &'static str,
    pub dispatch: Callback<Action>,
}

/// A segmented control for a choice parameter.
#[component]
pub fn Choice(p: &ChoiceProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let doc = format!("param.{}.doc", p.name);
    html! {
        <div class="control" data-param={p.name} title={crate::i18n::has(&doc).then(|| ctx.t(&doc))}>
            <span class="control-label">{ ctx.t(&format!("param.{}", p.name)) }</span>
            <div class={classes!("segmented", (p.options.len() > 3).then_some("wrap"))} role="group">
                { for p.options.iter().map(|&o| {
                    let d = p.dispatch.clone();
                    let name = p.name;
                    let active = o == p.value;
                    html! {
                        <button class={classes!("seg", active.then_some("active"))} data-param={name} data-value={o}
                            aria-pressed={active.to_string()}
                            onclick={Callback::from(move |_: MouseEvent| d.emit(Action::Set(name, Value::Choice(o))))}>
                            { ctx.t(&format!("choice.{name}.{o}")) }
                        </button>
                    }
                }) }
            </div>
        </div>
    }
}

/// One lecture case: a label key, a `data-preset` id, and the values it sets.
pub struct Preset {
    pub label: &'static str,
    pub id: &'static str,
    pub values: Vec<(&'static str, Value)>,
}

#[derive(Properties, PartialEq)]
pub struct PresetsProps {
    pub title: &'static str,
    pub presets: Rc<Vec<Preset>>,
    pub dispatch: Callback<Action>,
}

impl PartialEq for Preset {
    fn eq(&self, o: &Self) -> bool {
        self.id == o.id && self.values == o.values
    }
}

#[component]
pub fn Presets(p: &PresetsProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    html! {
        <div class="presets">
            <span class="control-label">{ ctx.t(p.title) }</span>
            { for p.presets.iter().map(|pr| {
                let d = p.dispatch.clone();
                let values = pr.values.clone();
                html! {
                    <button class="preset" data-preset={pr.id}
                        onclick={Callback::from(move |_: MouseEvent| d.emit(Action::SetMany(values.clone())))}>
                        { ctx.t(pr.label) }
                    </button>
                }
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
