//! Pages of the split build (issue 24) that load their code on first use:
//! the deck editor, the practice round and the lecture page are each a
//! `#[wasm_split]` chunk (see `shell.rs`); [`LazyPage`] shows a page's
//! "loading…" line until its chunk is in, or an error with Retry.

use crate::topic::TopicMeta;
use crate::ui::kit::chunk::{ChunkFuture, Load};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::panel::{self, LoadView};
use yew::prelude::*;

/// A page, rendered.
type PageView = fn() -> Html;
/// What a page's loader gives: a function rendering the page, once its chunk is in.
pub type PageFuture = ChunkFuture<PageView>;
/// A page's loader: fetches its chunk the first time.
pub type LoadPage = Load<PageView>;

crate::ui::kit::chunk::chunks!(
    /// The pages whose chunks are in, by name.
    static LOADED: PageView
);

thread_local! {
    /// Every lazily loaded page, by route name (handed in by the shell).
    static PAGES: std::cell::Cell<&'static [(&'static str, LoadPage)]> = const { std::cell::Cell::new(&[]) };
}

/// Hands in the lazily loaded pages (at start-up), for [`prefetch`].
pub fn install_pages(pages: &'static [(&'static str, LoadPage)]) {
    PAGES.with(|p| p.set(pages));
}

/// Fetch the chunk of page `name` (a route: `deck`, `practice`, `lecture`)
/// ahead of use, if it is one (see [`Chunks::prefetch`](crate::ui::kit::chunk::Chunks::prefetch)).
pub fn prefetch(name: &str) {
    if let Some(&(name, load)) = PAGES.with(|p| p.get()).iter().find(|(n, _)| *n == name) {
        LOADED.prefetch(name, load);
    }
}

#[derive(Properties, Clone)]
pub struct LazyPageProps {
    /// The chunk's name (`data-chunk` while it loads).
    pub name: &'static str,
    pub load: LoadPage,
}

impl PartialEq for LazyPageProps {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

/// A page from its chunk: at once when the chunk is in, else a "loading…"
/// line, then the page; an error with Retry if the chunk can't be fetched.
#[component]
pub fn LazyPage(p: &LazyPageProps) -> Html {
    use crate::ui::kit::chunk::{pending, state_name, use_chunk, Chunk};
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    // These pages show every topic: all their texts; the lecture's, the
    // built-in views' too.
    let mut ids: Vec<&'static str> = crate::ui::kit::ctx::topics().iter().map(|t| t.id).collect();
    if p.name == "lecture" {
        ids.push(crate::lecture_deck::TEXTS_PART);
    }
    let chunk = use_chunk(LOADED, p.name, p.load, &ids);
    if let Chunk::Ready(page) = chunk {
        return page();
    }
    html! {
        <div class="page-pending" data-chunk={p.name} data-chunk-state={state_name(&chunk)}
            aria-busy={(state_name(&chunk) == "loading").to_string()}>
            { pending(&ctx, &chunk, "page.loading", "page.load-failed") }
        </div>
    }
}

/// The route id a link's `href` goes to (`#/systolic?lang=zh` → `systolic`).
fn route_of(href: &str) -> Option<&str> {
    let rest = &href[href.find("#/")? + 2..];
    Some(rest.split(['?', '/', '#']).next().unwrap_or_default()).filter(|r| !r.is_empty())
}

/// Hands in the registry's topics and loaders, and prefetches a panel's or
/// a page's chunk as soon as a link to it is hovered or focused (one
/// listener on the document for every link: landing cards, neighbours,
/// decks, lecture).
pub fn install_prefetch(all: &'static [&'static TopicMeta], views: &'static [LoadView]) {
    use wasm_bindgen::JsCast;
    panel::install_registry(all, views);
    let Some(doc) = crate::ui::kit::dom::window().document() else { return };
    for event in ["pointerover", "focusin"] {
        gloo::events::EventListener::new(&doc, event, |e| {
            let link = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| el.closest("a[href]").ok().flatten());
            if let Some(href) = link.and_then(|a| a.get_attribute("href")) {
                if let Some(id) = route_of(&href) {
                    panel::prefetch_route(id);
                    prefetch(id);
                }
            }
        })
        .forget();
    }
}
