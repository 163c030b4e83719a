//! Pages of the split build (issue 24) that load their code on first use:
//! the deck editor, the practice round and the lecture page are each a
//! `#[wasm_split]` chunk (see `shell.rs`); [`LazyPage`] shows a page's
//! "loading…" line until its chunk is in, or an error with Retry.

use super::ctx::AppCtx;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use wasm_split_helpers::SplitLoaderError;
use yew::prelude::*;

/// What a page's loader gives: a function rendering the page, once its chunk is in.
pub type PageFuture = Pin<Box<dyn Future<Output = Result<fn() -> Html, SplitLoaderError>>>>;
/// A page's loader: fetches its chunk the first time.
pub type LoadPage = fn() -> PageFuture;
/// A page, rendered.
type PageView = fn() -> Html;

thread_local! {
    /// The pages whose chunks are in, by name.
    static LOADED: RefCell<Vec<(&'static str, PageView)>> = const { RefCell::new(Vec::new()) };
}

thread_local! {
    /// Every lazily loaded page, by route name (handed in by the shell).
    static PAGES: std::cell::Cell<&'static [(&'static str, LoadPage)]> = const { std::cell::Cell::new(&[]) };
    static PREFETCHING: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
}

/// Hands in the lazily loaded pages (at start-up), for [`prefetch`].
pub fn install_pages(pages: &'static [(&'static str, LoadPage)]) {
    PAGES.with(|p| p.set(pages));
}

/// Fetch the chunk of page `name` (a route: `deck`, `practice`, `lecture`)
/// ahead of use, if it is one; a failure is forgotten (the page tries again).
pub fn prefetch(name: &str) {
    let Some(&(name, load)) = PAGES.with(|p| p.get()).iter().find(|(n, _)| *n == name) else { return };
    if loaded(name).is_some() || PREFETCHING.with(|p| p.borrow().contains(&name)) {
        return;
    }
    PREFETCHING.with(|p| p.borrow_mut().push(name));
    wasm_bindgen_futures::spawn_local(async move {
        if let Ok(page) = load().await {
            if loaded(name).is_none() {
                LOADED.with(|l| l.borrow_mut().push((name, page)));
            }
        }
        PREFETCHING.with(|p| p.borrow_mut().retain(|n| *n != name));
    });
}

fn loaded(name: &str) -> Option<PageView> {
    LOADED.with(|l| l.borrow().iter().find(|(n, _)| *n == name).map(|(_, v)| *v))
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

#[derive(Clone, Copy, PartialEq)]
enum Chunk {
    Loading,
    Failed,
}

/// A page from its chunk: at once when the chunk is in, else a "loading…"
/// line, then the page; an error with Retry if the chunk can't be fetched.
#[component]
pub fn LazyPage(p: &LazyPageProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let state = use_state(|| Chunk::Loading);
    let attempt = use_state(|| 0u32);
    let arrived = use_force_update();
    // These pages show every topic: all their texts, in any language shown.
    let ids: Vec<&'static str> = super::ctx::topics().iter().map(|t| t.id).collect();
    ids.iter().for_each(|id| super::texts::want(id));
    let texts_in = |lang| ids.iter().all(|id| crate::i18n::has_part(lang, id));
    {
        let state = state.clone();
        let load = p.load;
        let texts = !texts_in(ctx.lang);
        use_effect_with((p.name, ctx.lang, *attempt), move |&(name, lang, _)| {
            let chunk = loaded(name).is_none();
            if chunk || texts {
                state.set(Chunk::Loading);
            }
            if chunk {
                let (state, arrived) = (state.clone(), arrived.clone());
                wasm_bindgen_futures::spawn_local(async move {
                    match load().await {
                        Ok(page) => {
                            if loaded(name).is_none() {
                                LOADED.with(|l| l.borrow_mut().push((name, page)));
                            }
                            arrived.force_update();
                        }
                        Err(e) => {
                            web_sys::console::warn_1(&format!("warpscope: the {name} page's chunk: {e}").into());
                            state.set(Chunk::Failed);
                        }
                    }
                });
            }
            if texts {
                wasm_bindgen_futures::spawn_local(async move {
                    let ids: Vec<&'static str> = super::ctx::topics().iter().map(|t| t.id).collect();
                    match super::texts::load_parts(lang, &ids).await {
                        Ok(()) => arrived.force_update(),
                        Err(e) => {
                            web_sys::console::warn_1(&format!("warpscope: the {name} page's texts: {e}").into());
                            state.set(Chunk::Failed);
                        }
                    }
                });
            }
        });
    }
    if let Some(page) = loaded(p.name).filter(|_| texts_in(ctx.lang)) {
        return page();
    }
    let failed = *state == Chunk::Failed;
    let retry = {
        let attempt = attempt.clone();
        Callback::from(move |_: MouseEvent| attempt.set(*attempt + 1))
    };
    html! {
        <div class="page-pending" data-chunk={p.name} data-chunk-state={if failed { "failed" } else { "loading" }}
            aria-busy={(!failed).to_string()}>
            if failed {
                <div class="chunk-failed" role="alert" data-testid="chunk-failed">
                    <p>{ ctx.t("page.load-failed") }</p>
                    <button class="chunk-retry" data-testid="chunk-retry" onclick={retry}>{ ctx.t("frame.retry") }</button>
                </div>
            } else {
                <p class="chunk-loading" role="status" data-testid="chunk-loading">{ ctx.t("page.loading") }</p>
            }
        </div>
    }
}
