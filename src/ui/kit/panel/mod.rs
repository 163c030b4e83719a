//! What every panel starts from: [`use_panel`] (context, URL state,
//! dispatch, notices, theme and stage width in one call), run by [`panel!`]
//! before the topic's view, which receives the [`Panel`]; the frame that
//! renders header, notices and layout from the topic's meta (`frame`), the
//! controls generated from the parameters' [`ParamSpec`](crate::params::ParamSpec)s
//! (`controls`) in their drawer (`drawer`), fitting the drawing to the screen (`fit`), and the panel
//! loaded from its topic's chunk (`lazy`).

mod controls;
mod drawer;
mod fit;
mod frame;
mod lazy;
mod settle;

pub use fit::{refit, Fit, StageBox};
pub use lazy::{install_registry, prefetch, prefetch_route, LazyPanel, LoadView, Loaded, ViewFuture};
pub use settle::skip as page_without_panel;

use crate::params::{Notice, Value, Values};
use crate::scene::Theme;
use crate::topic::{Topic, TopicMeta};
use crate::ui::kit::ctx::{AppCtx, MetaRef};
use crate::ui::kit::url_state::{use_url_state, Action};
use drawer::use_drawer;
use fit::use_fit;
use std::rc::Rc;
use yew::functional::{Hook, HookContext};
use yew::prelude::*;

/// A topic's panel as a hook (`use_<topic>_panel`) run with the hook
/// context of the component that shows it.
pub type PanelView = fn(&mut HookContext) -> Html;

#[derive(Properties)]
pub struct TopicPanelProps {
    pub meta: MetaRef,
    pub view: PanelView,
}

impl PartialEq for TopicPanelProps {
    /// One topic, one view.
    fn eq(&self, other: &Self) -> bool {
        self.meta == other.meta
    }
}

/// Runs a [`PanelView`] as a hook: the topic's hooks become this
/// component's.
struct RunView(PanelView);

impl Hook for RunView {
    type Output = Html;

    fn run(self, ctx: &mut HookContext) -> Html {
        (self.0)(ctx)
    }
}

fn use_view(view: PanelView) -> RunView {
    RunView(view)
}

/// Every topic's panel, as one component type: each component type costs
/// its own copy of Yew's lifecycle code, and the panels differ only in the
/// hook they run. Keyed by the topic, so that moving to another panel mounts
/// a fresh one (its hooks are others).
#[component]
pub fn TopicPanel(p: &TopicPanelProps) -> Html {
    use_view(p.view)
}

/// A topic's panel hook in a [`TopicPanel`] (what [`panel!`] declares).
pub fn topic_panel(topic: &'static Topic, view: PanelView) -> Html {
    html! { <TopicPanel key={topic.meta.id} meta={MetaRef(topic.meta)} view={view} /> }
}

/// A topic's view, in its `view.rs`: `panel!(use_x_panel);` declares
/// `pub const VIEW`, a [`PanelView`] that runs [`use_panel`] for the
/// folder's `TOPIC` and then the view's hook
/// `use_x_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html` with the
/// panel, its context and its theme (so that every view starts with its own
/// content). The registry's loader (`topics::VIEWS`, written by build.rs)
/// returns it from the topic's own chunk of the split build; [`LazyPanel`]
/// shows it in a [`TopicPanel`].
macro_rules! panel {
    ($hook:ident) => {
        /// This topic's panel as a hook (loaded by the registry's `VIEWS`).
        pub const VIEW: $crate::ui::kit::panel::PanelView = |c| {
            let p = yew::functional::Hook::run($crate::ui::kit::panel::use_panel(&super::TOPIC), c);
            yew::functional::Hook::run($hook(&p, &p.ctx, p.theme), c)
        };
    };
}
pub(crate) use panel;

/// A panel's state and everything it needs to render, from one hook.
#[derive(Clone)]
pub struct Panel {
    pub ctx: AppCtx,
    /// Everything the route owns (its practice bank, measured files, …).
    pub topic: &'static Topic,
    pub meta: &'static TopicMeta,
    /// The validated values (the URL's, or the latest change).
    pub v: Values,
    pub dispatch: Callback<Action>,
    pub notices: Rc<Vec<Notice>>,
    pub dismiss: Callback<()>,
    /// The stage element; its width sizes the canvas.
    pub stage: NodeRef,
    /// The width to draw the stage's canvas at, in CSS pixels: its column's
    /// width, narrowed so that the drawing fits the screen's height.
    pub width: f64,
    pub theme: Theme,
    /// The stage's box and the drawing width that fits it (where a canvas
    /// reports the size it was drawn at).
    pub fit: Fit,
    /// The height the canvas must fit in (CSS pixels).
    pub fit_height: f64,
    /// The page's type over its usual size ([`StageBox::type_scale`]).
    pub type_scale: f64,
    /// Is the controls drawer open?
    pub drawer: UseStateHandle<bool>,
    callbacks: Rc<std::cell::RefCell<Callbacks>>,
}

#[hook]
pub fn use_panel(topic: &'static Topic) -> Panel {
    let meta = topic.meta;
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(meta);
    let stage = use_node_ref();
    let fit = use_fit(stage.clone(), ctx.present, st.notices.len());
    let callbacks = use_mut_ref(Callbacks::default);
    let drawer = use_drawer(ctx.present);
    Panel {
        width: fit.width,
        fit_height: fit.bx.height,
        type_scale: fit.bx.type_scale,
        fit,
        drawer,
        theme: crate::ui::kit::dom::theme(ctx.present),
        ctx,
        topic,
        meta,
        v: st.values,
        dispatch: st.dispatch,
        notices: st.notices,
        dismiss: st.dismiss,
        stage,
        callbacks,
    }
}

/// A panel's setters, made once per parameter ([`Panel::set`], [`Panel::seek`]):
/// the same callback at every render.
#[derive(Default)]
pub struct Callbacks {
    set: Vec<(&'static str, Callback<i64>)>,
    seek: Vec<(&'static str, Callback<u64>)>,
}

impl Panel {
    /// The values with `names` (the position, the speed) at their defaults:
    /// what a [`part`](super::part::part) that shows none of them is rendered again for.
    pub fn values_but(&self, names: &[&str]) -> Values {
        names.iter().fold(self.v.clone(), |v, name| match v.specs().iter().find(|s| s.name == *name) {
            Some(spec) => v.with(name, spec.default_value()),
            None => v,
        })
    }

    /// A callback that sets an integer parameter.
    /// (The same callback at every render: the dispatch is the panel's for its life.)
    pub fn set(&self, name: &'static str) -> Callback<i64> {
        let mut cbs = self.callbacks.borrow_mut();
        if let Some((_, cb)) = cbs.set.iter().find(|(n, _)| *n == name) {
            return cb.clone();
        }
        let d = self.dispatch.clone();
        let cb = Callback::from(move |x: i64| d.emit(Action::Set(name, Value::Int(x))));
        cbs.set.push((name, cb.clone()));
        cb
    }

    /// A callback that sets a position parameter (a player's or chart's seek),
    /// the same at every render.
    pub fn seek(&self, name: &'static str) -> Callback<u64> {
        let mut cbs = self.callbacks.borrow_mut();
        if let Some((_, cb)) = cbs.seek.iter().find(|(n, _)| *n == name) {
            return cb.clone();
        }
        let d = self.dispatch.clone();
        let cb = Callback::from(move |x: u64| d.emit(Action::Set(name, Value::Int(x as i64))));
        cbs.seek.push((name, cb.clone()));
        cb
    }

    /// The size of a chart that is the panel's stage (roofline, hardware,
    /// fusion, attention memory, your machine): as wide as the stage's first
    /// column, at most `max_w`, and as tall as the screen leaves below the
    /// column's top less `reserve` (what the figure holds beside the chart:
    /// its title, a control), between 220 px and three quarters of its width.
    pub fn chart_size(&self, max_w: f64, reserve: f64) -> (f64, f64) {
        let w = (self.width.min(max_w) - 4.0).max(240.0).floor();
        // The reserve is text (titles, choices, values): it grows with the type.
        let h = (self.fit_height - reserve * self.type_scale).min(w * 0.75).max(220.0).floor();
        (w, h)
    }

    /// A chart as the panel's stage: a figure in the stage's first column
    /// (beside it on a wide screen the key figures, under it on a phone),
    /// its title above it. Put it first in the stage.
    pub fn chart_stage(&self, title: &str, chart: Html) -> Html {
        html! {
            <figure class="scene chart-scene" data-testid="stage-chart">
                <h2 class="chart-title">{ self.ctx.t(title) }</h2>
                { chart }
            </figure>
        }
    }

    /// The height a stage chart's title takes (CSS pixels), for [`Panel::chart_size`].
    pub fn chart_title_height(&self) -> f64 {
        if self.ctx.present {
            36.0
        } else {
            30.0
        }
    }

    /// The height a long stage chart title takes (CSS pixels in the page's
    /// usual type, as [`Panel::chart_size`]'s reserve) over a column `width`
    /// wide: its lines as they wrap. Hardware's growth line takes three lines
    /// projected at 1024 × 768; reserving one pushed its chart off the screen.
    pub fn chart_title_height_for(&self, title: &str, width: f64) -> f64 {
        crate::scene::chart_title_reserve(title, width, self.ctx.present, self.type_scale)
    }

    /// The usual explanation below the stage: what the panel shows
    /// (`<topic>.explain`) and how it checks the lecture (`<topic>.lecture`).
    pub fn explain(&self) -> Html {
        self.explain_with(html! {})
    }

    /// [`Panel::explain`] with `more` between its two paragraphs.
    pub fn explain_with(&self, more: Html) -> Html {
        let id = self.meta.id;
        html! {
            <>
                <p class="current">{ self.ctx.t(&format!("{id}.explain")) }</p>
                { more }
                <p class="lecture-check">{ self.ctx.t(&format!("{id}.lecture")) }</p>
            </>
        }
    }
}
