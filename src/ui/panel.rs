//! What every panel starts from: [`use_panel`] (context, URL state,
//! dispatch, notices, theme and stage width in one call), the frame that
//! renders header, notices and layout from the topic's meta, and
//! [`Control`], a slider or choice generated from the parameter's
//! [`ParamSpec`] (range, scale, options, label and dependent maximum).

use super::app::AppCtx;
use super::canvas::use_width;
use super::readouts::Notices;
use super::slider::Slider;
use super::url_state::{use_url_state, Action};
use super::widgets::Choice;
use crate::params::{Kind, Notice, Value, Values};
use crate::scene::Theme;
use crate::topics::TopicMeta;
use std::rc::Rc;
use yew::prelude::*;

/// Widest a stage's drawing gets (CSS pixels).
const MAX_STAGE_WIDTH: f64 = 1100.0;

/// A panel's state and everything it needs to render, from one hook.
#[derive(Clone)]
pub struct Panel {
    pub ctx: AppCtx,
    pub meta: &'static TopicMeta,
    /// The validated values (the URL's, or the latest change).
    pub v: Values,
    pub dispatch: Callback<Action>,
    pub notices: Rc<Vec<Notice>>,
    pub dismiss: Callback<()>,
    /// The stage element; its width sizes the canvas.
    pub stage: NodeRef,
    /// The stage's width in CSS pixels (capped), for drawing.
    pub width: f64,
    pub theme: Theme,
}

#[hook]
pub fn use_panel(meta: &'static TopicMeta) -> Panel {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(meta);
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(MAX_STAGE_WIDTH);
    Panel {
        theme: Theme::for_mode(ctx.present),
        ctx,
        meta,
        v: st.values,
        dispatch: st.dispatch,
        notices: st.notices,
        dismiss: st.dismiss,
        stage,
        width,
    }
}

impl Panel {
    /// A callback that sets an integer parameter.
    pub fn set(&self, name: &'static str) -> Callback<i64> {
        let d = self.dispatch.clone();
        Callback::from(move |x: i64| d.emit(Action::Set(name, Value::Int(x))))
    }

    /// The panel in its frame: header from the meta, notices, controls
    /// beside the stage, the explanation below.
    pub fn frame(&self, controls: Html, stage: Html, explain: Html) -> Html {
        html! {
            <Frame meta={MetaRef(self.meta)} values={self.v.clone()} dispatch={self.dispatch.clone()}
                notices={self.notices.clone()} on_dismiss={self.dismiss.clone()}
                controls={controls} stage={stage} explain={explain} stage_ref={self.stage.clone()} />
        }
    }
}

/// A topic's meta, compared by address.
#[derive(Clone, Copy)]
pub struct MetaRef(pub &'static TopicMeta);

impl PartialEq for MetaRef {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

/// What the controls inside a frame read: whose parameters, their values,
/// and where changes go.
#[derive(Clone, PartialEq)]
pub struct PanelCtx {
    pub meta: MetaRef,
    pub values: Values,
    pub dispatch: Callback<Action>,
}

#[derive(Properties, PartialEq)]
pub struct FrameProps {
    pub meta: MetaRef,
    pub values: Values,
    pub dispatch: Callback<Action>,
    pub notices: Rc<Vec<Notice>>,
    pub on_dismiss: Callback<()>,
    pub controls: Html,
    pub stage: Html,
    pub explain: Html,
    pub stage_ref: NodeRef,
}

/// The section line of a topic ("Notes §6.6, 7 · demo 04"), the same on its
/// landing card and its panel header.
pub fn section_line(ctx: &AppCtx, meta: &TopicMeta) -> String {
    ctx.tf("landing.section", &[("s", &meta.sections.join(", ")), ("d", meta.demo)])
}

#[component]
pub fn Frame(p: &FrameProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let meta = p.meta.0;
    let panel_ctx = PanelCtx { meta: p.meta, values: p.values.clone(), dispatch: p.dispatch.clone() };
    html! {
        <ContextProvider<PanelCtx> context={panel_ctx}>
            <article class={classes!("panel", format!("panel-{}", meta.id))} data-topic={meta.id}>
                <header class="panel-header">
                    <p class="panel-section">{ section_line(&ctx, meta) }</p>
                    <h1>{ ctx.t(&format!("topic.{}.title", meta.id)) }</h1>
                    <p class="panel-summary">{ ctx.t(&format!("topic.{}.summary", meta.id)) }</p>
                </header>
                <Notices notices={(*p.notices).clone()} on_dismiss={p.on_dismiss.clone()} />
                <super::practice::PracticeCard />
                <div class="panel-body">
                    <aside class="controls">{ p.controls.clone() }</aside>
                    <section class="stage" ref={p.stage_ref.clone()}>{ p.stage.clone() }</section>
                </div>
                <section class="explain">{ p.explain.clone() }</section>
            </article>
        </ContextProvider<PanelCtx>>
    }
}

/// The controls of several parameters, in this order (see [`Control`]).
pub fn controls(names: &[&'static str]) -> Html {
    names.iter().map(|&name| html! { <Control name={name} /> }).collect()
}

#[derive(Properties, PartialEq)]
pub struct ControlProps {
    /// The URL parameter.
    pub name: &'static str,
}

/// The control of one parameter, generated from its spec: a slider for an
/// integer or a position (range, log scale and dependent maximum from the
/// registry), a segmented control for a choice. Text parameters have
/// panel-specific editors.
#[component]
pub fn Control(p: &ControlProps) -> Html {
    let panel = use_context::<PanelCtx>().expect("a Control inside a panel frame");
    let meta = panel.meta.0;
    let Some(spec) = meta.params.iter().find(|s| s.name == p.name) else {
        web_sys::console::error_1(&format!("warpscope: {} has no parameter {}", meta.id, p.name).into());
        return html! {};
    };
    let v = &panel.values;
    let set = {
        let d = panel.dispatch.clone();
        let name = spec.name;
        Callback::from(move |x: i64| d.emit(Action::Set(name, Value::Int(x))))
    };
    match spec.kind {
        Kind::Int { min, max, .. } => {
            let max = meta.dependent_max(v, spec.name).map_or(max, |m| m.min(max));
            html! { <Slider topic={meta.id} name={spec.name} value={v.int(spec.name)} min={min} max={max.max(min)}
            log={spec.log} on_change={set} /> }
        }
        Kind::Position => {
            let max = meta.position_max.map_or(0, |f| f(v)).min(i64::MAX as u64) as i64;
            html! { <Slider topic={meta.id} name={spec.name} value={v.int(spec.name)} min={0} max={max}
            log={spec.log} on_change={set} /> }
        }
        Kind::Choice { options, .. } => html! {
            <Choice name={spec.name} options={options} value={v.choice(spec.name)} dispatch={panel.dispatch.clone()} />
        },
        Kind::Text { .. } => html! {},
    }
}
