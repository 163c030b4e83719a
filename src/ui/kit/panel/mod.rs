//! What every panel starts from: [`use_panel`] (context, URL state,
//! dispatch, notices, theme and stage width in one call), the frame that
//! renders header, notices and layout from the topic's meta, and
//! [`Panel::control`], a slider or choice generated from the parameter's
//! [`ParamSpec`] (range, scale, options, label and dependent maximum).

use super::ctx::{AppCtx, MetaRef};
use super::practice::BankRef;
use super::readouts::Notices;
use super::slider::{slider, Slider};
use super::tools::{DeckProgress, PanelTools};
use super::url_state::{use_url_state, Action};
use super::widgets::choice;
use crate::params::{Kind, Notice, Value, Values};
use crate::scene::Theme;
use crate::topic::{Topic, TopicMeta};
use std::rc::Rc;
use yew::functional::{Hook, HookContext};
use yew::prelude::*;

/// Widest a stage's drawing gets (CSS pixels).
const MAX_STAGE_WIDTH: f64 = 1800.0;
/// Narrowest width a canvas is redrawn at to fit the screen's height; below
/// it the drawing is scaled down instead.
const MIN_FIT_WIDTH: f64 = 420.0;

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
/// `pub const VIEW`, the hook `use_x_panel` as a [`PanelView`], which the
/// registry's loader (`topics::VIEWS`, written by build.rs) returns from the
/// topic's own chunk of the split build; [`LazyPanel`] shows it in a
/// [`TopicPanel`] for the folder's `TOPIC`.
macro_rules! panel {
    ($hook:ident) => {
        /// This topic's panel as a hook (loaded by the registry's `VIEWS`).
        pub const VIEW: $crate::ui::kit::panel::PanelView = |c| yew::functional::Hook::run($hook(), c);
    };
}
pub(crate) use panel;

/// A topic's view and the topic (its practice bank, lecture rows, …), which
/// come with its chunk: the main module knows only its meta.
pub type Loaded = (PanelView, &'static Topic);
/// What a topic's loader gives: its view and topic, once its chunk is in.
pub type ViewFuture =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<Loaded, wasm_split_helpers::SplitLoaderError>>>>;
/// A topic's loader (`topics::VIEWS`): fetches its chunk the first time.
pub type LoadView = fn() -> ViewFuture;

thread_local! {
    /// The views whose chunks are in, by topic id.
    static LOADED: super::chunk::Slots<Loaded> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Fetch a topic's chunk ahead of use (see [`super::chunk::prefetch`]).
pub fn prefetch(id: &'static str, load: LoadView) {
    super::chunk::prefetch(&LOADED, id, load);
}

thread_local! {
    /// The registry's topics and their loaders (handed in at start-up).
    static REGISTRY: std::cell::Cell<(&'static [&'static TopicMeta], &'static [LoadView])> = const { std::cell::Cell::new((&[], &[])) };
}

/// Fetch the chunk of the topic of route `id` ahead of use.
pub fn prefetch_route(id: &str) {
    let (all, views) = REGISTRY.with(|r| r.get());
    if let Some((t, load)) = all.iter().zip(views).find(|(t, _)| t.id == id) {
        prefetch(t.id, *load);
        super::texts::prefetch_part(t.id);
    }
}

/// Hands in the registry's topics and loaders (at start-up), for
/// [`prefetch_route`] and the prefetching of a shown panel's neighbours.
pub fn install_registry(all: &'static [&'static TopicMeta], views: &'static [LoadView]) {
    REGISTRY.with(|r| r.set((all, views)));
}

/// A little after a panel is shown, at background priority, prefetch the
/// panels before and after it in lecture order (the likely next pages; not
/// part of what a first visit needs to show the page); the service worker
/// caches the rest.
fn prefetch_neighbours_when_idle(id: &'static str) {
    gloo::timers::callback::Timeout::new(2000, move || prefetch_neighbours_on_idle(id)).forget();
}

fn prefetch_neighbours_on_idle(id: &'static str) {
    let (all, _) = REGISTRY.with(|r| r.get());
    let Some(i) = all.iter().position(|t| t.id == id) else { return };
    let ids: Vec<&'static str> =
        [i.checked_sub(1), Some(i + 1)].into_iter().flatten().filter_map(|j| all.get(j)).map(|t| t.id).collect();
    wasm_bindgen_futures::spawn_local(async move {
        super::background::at_background_priority().await;
        ids.iter().for_each(|id| prefetch_route(id));
    });
}

#[derive(Properties, Clone)]
pub struct LazyPanelProps {
    pub meta: &'static TopicMeta,
    pub load: LoadView,
}

impl PartialEq for LazyPanelProps {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.meta, other.meta)
    }
}

/// A topic's panel from its chunk: shown at once when the chunk is in,
/// else the panel's frame (header, an empty stage of the usual height) with
/// "loading…", then the panel; if the chunk can't be fetched (offline, or a
/// chunk of another build after an update), an error with Retry. Keyed by
/// topic in the shell.
#[component]
pub fn LazyPanel(p: &LazyPanelProps) -> Html {
    use super::chunk::{pending, state_name, use_chunk, Chunk};
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let id = p.meta.id;
    let chunk = use_chunk(&LOADED, id, p.load, &[id]);
    let ready = matches!(chunk, Chunk::Ready(_));
    use_effect_with((id, ready), |&(id, ready)| {
        if ready {
            prefetch_neighbours_when_idle(id);
        }
    });
    if let Chunk::Ready((view, topic)) = chunk {
        return topic_panel(topic, view);
    }
    let meta = p.meta;
    html! {
        <article class={classes!("panel", format!("panel-{id}"), "panel-pending")} data-chunk={id}
            data-chunk-state={state_name(&chunk)} aria-busy={(state_name(&chunk) == "loading").to_string()}>
            if !ctx.embed {
                <header class="panel-header">
                    <div class="panel-titles">
                        <p class="panel-section">{ super::ctx::section_line(&ctx, meta) }</p>
                        <h1>{ ctx.t(&format!("topic.{id}.title")) }</h1>
                    </div>
                    <p class="panel-summary">{ ctx.t(&format!("topic.{id}.summary")) }</p>
                </header>
            }
            <div class="panel-body">
                <section class="stage stage-pending">
                    { pending(&ctx, &chunk, "frame.loading", "frame.load-failed") }
                </section>
            </div>
        </article>
    }
}

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
    /// How a canvas reports the size it was drawn at, to fit the screen.
    pub fit: Callback<(f64, f64)>,
    /// The height the canvas must fit in (CSS pixels).
    pub fit_height: f64,
    /// The page's type over its usual size ([`StageBox::type_scale`]).
    pub type_scale: f64,
    /// Is the controls drawer open?
    pub drawer: UseStateHandle<bool>,
    callbacks: Rc<std::cell::RefCell<Callbacks>>,
}

/// The box a panel's canvas may fill: its column's width and the height left
/// between the top of the stage and the bottom of the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StageBox {
    pub width: f64,
    pub height: f64,
    /// The page's type over its usual size (more than 1 on a wide projected
    /// screen, where the type grows with the width: style/main.css).
    pub type_scale: f64,
}

/// The next drawing width, given the box and a drawing of `drawn.1` CSS pixels
/// tall at width `drawn.0`: narrower when it overflows the box's height,
/// wider again (up to the column) when it leaves much of it empty; `None`
/// when the current width is good. Texts keep their size, so the height
/// does not scale with the width: the estimate is refined over a few draws.
pub fn refit(bx: StageBox, drawn: (f64, f64)) -> Option<f64> {
    let (w, h) = drawn;
    let full = bx.width.min(MAX_STAGE_WIDTH);
    let floor = MIN_FIT_WIDTH.min(full);
    if h <= 0.0 || w <= 0.0 {
        return None;
    }
    let target = if h > bx.height + 2.0 && w > floor + 1.0 {
        w * bx.height / h
    } else if h < bx.height * 0.9 && w < full - 1.0 {
        w * bx.height * 0.97 / h
    } else {
        return None;
    };
    let target = target.clamp(floor, full).floor();
    ((target - w).abs() >= 2.0).then_some(target)
}

#[hook]
pub fn use_panel(topic: &'static Topic) -> Panel {
    let meta = topic.meta;
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(meta);
    let stage = use_node_ref();
    let bx = use_stage_box(stage.clone(), ctx.present, st.notices.len());
    // The width the canvas is drawn at, kept per box: a new box (resize,
    // drawer, projector mode) starts again from the column's width.
    let fitted = use_mut_ref(|| (bx, bx.width));
    let refresh = use_force_update();
    if fitted.borrow().0 != bx {
        *fitted.borrow_mut() = (bx, bx.width);
    }
    let width = fitted.borrow().1.clamp(1.0, MAX_STAGE_WIDTH);
    // One callback for the panel's life (the canvas's context doesn't change).
    let fit = (*use_memo((), move |_| {
        Callback::from(move |drawn: (f64, f64)| {
            let next = refit(fitted.borrow().0, drawn);
            if let Some(w) = next {
                if (fitted.borrow().1 - w).abs() >= 2.0 {
                    fitted.borrow_mut().1 = w;
                    refresh.force_update();
                }
            }
        })
    }))
    .clone();
    let callbacks = use_mut_ref(Callbacks::default);
    let drawer = use_state(|| drawer_default(ctx.present));
    {
        let drawer = drawer.clone();
        use_effect_with(ctx.present, move |present| drawer.set(drawer_default(*present)));
    }
    Panel {
        fit,
        fit_height: bx.height,
        type_scale: bx.type_scale,
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
        width,
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

    /// The usual explanation below the stage: what the panel shows
    /// (`<topic>.explain`) and how it checks the lecture (`<topic>.lecture`).
    pub fn explain(&self) -> Html {
        let id = self.meta.id;
        html! {
            <>
                <p class="current">{ self.ctx.t(&format!("{id}.explain")) }</p>
                <p class="lecture-check">{ self.ctx.t(&format!("{id}.lecture")) }</p>
            </>
        }
    }

    /// The panel in its frame: a one-line header (section, title, tools,
    /// previous and next panel), notices, the controls drawer beside the
    /// stage (canvas, then player and key figures beside it on wide
    /// screens), and the secondary material below. `embed=1` keeps the stage
    /// only.
    pub fn frame(&self, controls: Html, stage: Html, explain: Html) -> Html {
        let ctx = &self.ctx;
        let meta = self.meta;
        let open = *self.drawer;
        let toggle_drawer = {
            let drawer = self.drawer.clone();
            let present = ctx.present;
            Callback::from(move |_: MouseEvent| {
                use gloo::storage::{LocalStorage, Storage};
                let key = format!("{DRAWER_KEY}.{}", if present { "present" } else { "normal" });
                let _ = LocalStorage::set(key, !*drawer);
                drawer.set(!*drawer);
            })
        };
        let drawer_id = format!("controls-{}", meta.id);
        let title = ctx.t(&format!("topic.{}.title", meta.id));
        html! {
            <ContextProvider<FitCtx> context={FitCtx { report: self.fit.clone(), max_height: self.fit_height }}>
                <article class={classes!("panel", format!("panel-{}", meta.id))} data-topic={meta.id}>
                    if !ctx.embed {
                        <header class="panel-header">
                            <div class="panel-titles">
                                <p class="panel-section">{ super::ctx::section_line(ctx, meta) }</p>
                                <h1>{ title.clone() }</h1>
                            </div>
                            <div class="panel-tools">
                                <button class="drawer-toggle" data-testid="drawer-toggle" aria-controls={drawer_id.clone()}
                                    aria-expanded={open.to_string()} onclick={toggle_drawer}>
                                    <span aria-hidden="true">{ "☰ " }</span>{ ctx.t("frame.controls") }
                                </button>
                                <PanelTools meta={MetaRef(meta)} title={title} />
                                // Phones have no room for the toggle in the site header: it is
                                // in the panel's row of tools instead.
                                <span class="practice-phone"><super::practice::PracticeToggle /></span>
                            </div>
                            <p class="panel-summary">{ ctx.t(&format!("topic.{}.summary", meta.id)) }</p>
                        </header>
                        <DeckProgress />
                    }
                    <Notices notices={(*self.notices).clone()} on_dismiss={self.dismiss.clone()} />
                    if !ctx.embed {
                        <super::practice::PracticeCard bank={BankRef(self.topic.practice)} dispatch={self.dispatch.clone()} />
                    }
                    <div class={classes!("panel-body", (open && !ctx.embed).then_some("drawer-open"))}>
                        if !ctx.embed {
                            <aside class="controls" id={drawer_id} hidden={!open}>{ controls }</aside>
                        }
                        <section class="stage" ref={self.stage.clone()}>{ stage }</section>
                    </div>
                    if !ctx.embed {
                        <section class="explain">{ explain }</section>
                    }
                </article>
            </ContextProvider<FitCtx>>
        }
    }
}

/// Where a canvas inside a frame reports the size it was drawn at, and the
/// height it must fit in (scaled down below that, as a last resort).
#[derive(Clone, PartialEq)]
pub struct FitCtx {
    pub report: Callback<(f64, f64)>,
    pub max_height: f64,
}

/// The stage's [`StageBox`], measured after each render that can move it
/// (projector mode, notices) and whenever the stage or the window resizes.
/// The width is that of the canvas's column (`.scene`) if there is one.
#[hook]
fn use_stage_box(node: NodeRef, present: bool, notices: usize) -> StageBox {
    let bx = use_state(|| StageBox { width: 860.0, height: 640.0, type_scale: 1.0 });
    {
        let bx = bx.clone();
        use_effect_with((node, present, notices), move |(node, _, _)| {
            let measure = {
                let node = node.clone();
                let bx = bx.clone();
                Rc::new(move || {
                    if let Some(next) = measure_box(&node) {
                        if (next.width - bx.width).abs() >= 1.0 || (next.height - bx.height).abs() >= 1.0 {
                            bx.set(next);
                        }
                    }
                })
            };
            measure();
            let on_resize = measure.clone();
            let listener = gloo::events::EventListener::new(&super::dom::window(), "resize", move |_| on_resize());
            let observer = node.cast::<web_sys::Element>().and_then(|el| {
                let m = measure.clone();
                let cb = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || m());
                let obs = web_sys::ResizeObserver::new(wasm_bindgen::JsCast::unchecked_ref(cb.as_ref())).ok()?;
                obs.observe(&el);
                Some((obs, cb))
            });
            move || {
                drop(listener);
                if let Some((obs, _cb)) = observer {
                    obs.disconnect();
                }
            }
        });
    }
    *bx
}

fn measure_box(node: &NodeRef) -> Option<StageBox> {
    let stage = node.cast::<web_sys::Element>()?;
    let w = super::dom::window();
    let column = stage.query_selector(":scope > .scene").ok().flatten().unwrap_or_else(|| stage.clone());
    let width = column.client_width() as f64;
    if width <= 0.0 {
        return None;
    }
    let inner_h = w.inner_height().ok()?.as_f64()?;
    let top = column.get_bounding_client_rect().top() + w.scroll_y().unwrap_or(0.0);
    // The canvas's column is beside the player on wide screens; stacked
    // (narrow screens), the player and key figures go under it.
    let stacked = stage.client_width() < 760;
    let class = |c: &str| w.document().and_then(|d| d.document_element()).is_some_and(|e| e.class_list().contains(c));
    let embed = class("embed");
    let type_scale = super::dom::type_scale(class("present"));
    // What goes under the canvas (its caption, the export buttons) grows with the type.
    let below = type_scale
        * match (stacked, embed) {
            (true, _) => 150.0,
            (false, true) => 8.0,
            (false, false) => 46.0,
        };
    let height = (inner_h - top - below).max(inner_h * 0.45).max(200.0).floor();
    Some(StageBox { width: width.floor(), height, type_scale })
}

const DRAWER_KEY: &str = "warpscope.drawer";

/// Is the controls drawer open? Remembered per mode; by default open on a
/// wide screen, closed when projecting and on a phone.
fn drawer_default(present: bool) -> bool {
    use gloo::storage::{LocalStorage, Storage};
    let key = format!("{DRAWER_KEY}.{}", if present { "present" } else { "normal" });
    if let Ok(open) = LocalStorage::get::<bool>(&key) {
        return open;
    }
    let wide = super::dom::window().inner_width().ok().and_then(|w| w.as_f64()).unwrap_or(1280.0) >= 900.0;
    wide && !present
}

impl Panel {
    /// The controls of several parameters, in this order (see [`Panel::control`]).
    pub fn controls(&self, names: &[&'static str]) -> Html {
        names.iter().map(|&name| self.control(name)).collect()
    }

    /// The control of one parameter, generated from its spec: a slider for
    /// an integer or a position (range, log scale and dependent maximum from
    /// the registry), a segmented control for a choice. Text parameters have
    /// panel-specific editors.
    pub fn control(&self, name: &'static str) -> Html {
        let meta = self.meta;
        let Some(spec) = meta.params.iter().find(|s| s.name == name) else {
            web_sys::console::error_1(&format!("warpscope: {} has no parameter {}", meta.id, name).into());
            return html! {};
        };
        let v = &self.v;
        let (min, max) = match spec.kind {
            Kind::Int { min, max, .. } => {
                let max = meta.dependent_max(v, spec.name).map_or(max, |m| m.min(max));
                (min, max.max(min))
            }
            Kind::Position => (0, meta.position_max.map_or(0, |f| f(v)).min(i64::MAX as u64) as i64),
            Kind::Choice { options, .. } => {
                return choice(&self.ctx, spec.name, options, v.choice(spec.name), &self.dispatch);
            }
            Kind::Text { .. } => return html! {},
        };
        let on_change = self.set(spec.name);
        slider(
            &self.ctx,
            &Slider { topic: meta.id, name: spec.name, value: v.int(spec.name), min, max, log: spec.log, on_change },
        )
    }
}
