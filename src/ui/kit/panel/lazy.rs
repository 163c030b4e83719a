//! A topic's panel from its own chunk of the split build (issue 24): the
//! registry's loaders (`topics::VIEWS`, handed in at start-up), fetching a
//! topic's chunk ahead of use, and [`LazyPanel`], which shows the panel's
//! frame with "loading…" (or an error with Retry) until its chunk is in.

use super::{topic_panel, PanelView};
use crate::topic::{Topic, TopicMeta};
use crate::ui::kit::chunk::{ChunkFuture, Load};
use crate::ui::kit::ctx::AppCtx;
use yew::prelude::*;

/// A topic's view and the topic (its practice bank, lecture rows, …), which
/// come with its chunk: the main module knows only its meta.
pub type Loaded = (PanelView, &'static Topic);
/// What a topic's loader gives: its view and topic, once its chunk is in.
pub type ViewFuture = ChunkFuture<Loaded>;
/// A topic's loader (`topics::VIEWS`): fetches its chunk the first time.
pub type LoadView = Load<Loaded>;

crate::ui::kit::chunk::chunks!(
    /// The views whose chunks are in, by topic id.
    static LOADED: Loaded
);

/// Fetch a topic's chunk ahead of use (see [`Chunks::prefetch`](crate::ui::kit::chunk::Chunks::prefetch)).
pub fn prefetch(id: &'static str, load: LoadView) {
    LOADED.prefetch(id, load);
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
        crate::ui::kit::texts::prefetch_part(t.id);
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
        crate::ui::kit::background::at_background_priority().await;
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
    use crate::ui::kit::chunk::{pending, state_name, use_chunk, Chunk};
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let id = p.meta.id;
    let chunk = use_chunk(LOADED, id, p.load, &[id]);
    let ready = matches!(chunk, Chunk::Ready(_));
    let failed = matches!(chunk, Chunk::Failed(_));
    // The page's first panel is shown once it has settled (its stage
    // measured, its drawing painted at its final size): until then it is
    // laid out unseen, under the build's static snapshot of it if the page
    // opened with one (see `settle`).
    let settling = use_mut_ref(|| false);
    if ready && !*settling.borrow() {
        *settling.borrow_mut() = super::settle::begin();
    }
    // The waiting frame's stage, measured for the panel's first render.
    let pending_stage = use_node_ref();
    {
        let pending_stage = pending_stage.clone();
        use_effect_with(ready, move |&ready| {
            if let Some(el) = pending_stage.cast::<web_sys::Element>().filter(|_| !ready) {
                super::fit::remember_pending_box(&el);
            }
        });
    }
    use_effect_with((id, ready, failed), move |&(id, ready, failed)| {
        if ready {
            prefetch_neighbours_when_idle(id);
            if *settling.borrow() {
                super::settle::watch();
            } else {
                // Not the page's first panel: nothing of it waits (a snapshot
                // left over would hide the app).
                crate::ui::kit::dom::remove_boot();
            }
        }
        // Its Retry is shown at once.
        if failed {
            super::settle::finish();
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
                        <p class="panel-section">{ crate::ui::kit::ctx::section_line(&ctx, meta) }</p>
                        <h1>{ ctx.t(&format!("topic.{id}.title")) }</h1>
                    </div>
                    <p class="panel-summary">{ ctx.t(&format!("topic.{id}.summary")) }</p>
                </header>
            }
            <div class="panel-body">
                <section class="stage stage-pending" ref={pending_stage}>
                    { pending(&ctx, &chunk, "frame.loading", "frame.load-failed") }
                </section>
            </div>
        </article>
    }
}
