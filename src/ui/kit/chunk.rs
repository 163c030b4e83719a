//! Code that comes in a chunk of its own (the split build, issue 24): one
//! hook for every place that waits for one (a topic's panel, the deck,
//! lecture and practice pages, the practice card, the GIF export), and the
//! one "loading…" / error-with-Retry block they show meanwhile.

use super::ctx::AppCtx;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::thread::LocalKey;
use wasm_split_helpers::SplitLoaderError;
use yew::prelude::*;

/// What a split point's loader gives, once its chunk is in.
pub type ChunkFuture<T> = Pin<Box<dyn Future<Output = Result<T, SplitLoaderError>>>>;

/// The values of one kind of split point that are in, by name (each kind
/// keeps its own in a `thread_local`).
pub type Slots<T> = RefCell<Vec<(&'static str, T)>>;

/// A split point's loader: fetches its chunk the first time.
pub type Load<T> = fn() -> ChunkFuture<T>;

/// One kind of split point (a topic's view, a page, the practice card's
/// question, the GIF export's form): the values whose chunks are in, by
/// name. Declared with [`chunks!`]; [`use_chunk`] shows one, [`Chunks::prefetch`]
/// fetches one ahead of use.
pub struct Chunks<T: 'static>(pub &'static LocalKey<Slots<T>>);

impl<T: 'static> Clone for Chunks<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: 'static> Copy for Chunks<T> {}

impl<T: Copy + 'static> Chunks<T> {
    /// `name`'s value, if its chunk is in.
    pub fn get(self, name: &str) -> Option<T> {
        self.0.with(|s| s.borrow().iter().find(|(n, _)| *n == name).map(|(_, v)| *v))
    }

    /// Keeps `name`'s value (the first one stays).
    pub fn put(self, name: &'static str, value: T) {
        self.0.with(|s| {
            if !s.borrow().iter().any(|(n, _)| *n == name) {
                s.borrow_mut().push((name, value));
            }
        });
    }

    /// Fetch `name`'s chunk ahead of use (a link to it hovered or focused,
    /// the browser idle); nothing if it is in or on its way. A failure is
    /// forgotten: the place that needs it tries again.
    pub fn prefetch(self, name: &'static str, load: Load<T>) {
        if self.get(name).is_some() || PREFETCHING.with(|p| p.borrow().contains(&name)) {
            return;
        }
        PREFETCHING.with(|p| p.borrow_mut().push(name));
        wasm_bindgen_futures::spawn_local(async move {
            if let Ok(value) = load().await {
                self.put(name, value);
            }
            PREFETCHING.with(|p| p.borrow_mut().retain(|n| *n != name));
        });
    }
}

/// Declares one kind of split point's [`Chunks`]: `chunks!(static LOADED: T);`
/// (doc comments allowed before `static`).
macro_rules! chunks {
    ($(#[$m:meta])* static $name:ident: $t:ty) => {
        $(#[$m])*
        static $name: $crate::ui::kit::chunk::Chunks<$t> = {
            thread_local! {
                static SLOTS: $crate::ui::kit::chunk::Slots<$t> = const { std::cell::RefCell::new(Vec::new()) };
            }
            $crate::ui::kit::chunk::Chunks(&SLOTS)
        };
    };
}
pub(crate) use chunks;

thread_local! {
    /// The chunks being fetched ahead of use, by name.
    static PREFETCHING: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
}

/// Where a chunk stands.
pub enum Chunk<T> {
    Ready(T),
    Loading,
    /// It could not be fetched (offline, or a chunk of another build): the
    /// callback tries again.
    Failed(Callback<MouseEvent>),
}

/// `name`'s value from its chunk, fetched through `load` the first time
/// (again after a failure, on Retry), together with the own texts of
/// `topics` in the language shown (`texts::load_parts`): ready when both
/// are in.
#[hook]
pub fn use_chunk<T: Copy + 'static>(
    chunks: Chunks<T>,
    name: &'static str,
    load: Load<T>,
    topics: &[&'static str],
) -> Chunk<T> {
    use_chunk_if(true, chunks, name, load, topics)
}

/// [`use_chunk`] that fetches only while `wanted` (a view that needs the
/// chunk in one of its modes keeps the hook in every mode, in one place).
#[hook]
pub fn use_chunk_if<T: Copy + 'static>(
    wanted: bool,
    chunks: Chunks<T>,
    name: &'static str,
    load: Load<T>,
    topics: &[&'static str],
) -> Chunk<T> {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let failed = use_state(|| false);
    let attempt = use_state(|| 0u32);
    let arrived = use_force_update();
    // Their texts are needed in any language the page switches to.
    topics.iter().for_each(|id| super::texts::want(id));
    let missing: Vec<&'static str> = topics.iter().copied().filter(|id| !crate::i18n::has_part(ctx.lang, id)).collect();
    let texts_in = missing.is_empty();
    {
        let failed = failed.clone();
        use_effect_with((wanted, name, ctx.lang, *attempt), move |&(wanted, name, lang, _)| {
            if !wanted {
                return;
            }
            let chunk = chunks.get(name).is_none();
            if chunk || !missing.is_empty() {
                failed.set(false);
            }
            if chunk {
                let (failed, arrived) = (failed.clone(), arrived.clone());
                wasm_bindgen_futures::spawn_local(async move {
                    match load().await {
                        Ok(value) => {
                            chunks.put(name, value);
                            arrived.force_update();
                        }
                        Err(e) => {
                            web_sys::console::warn_1(&format!("warpscope: the chunk of {name}: {e}").into());
                            failed.set(true);
                        }
                    }
                });
            }
            if !missing.is_empty() {
                wasm_bindgen_futures::spawn_local(async move {
                    match super::texts::load_parts(lang, &missing).await {
                        Ok(()) => arrived.force_update(),
                        Err(e) => {
                            web_sys::console::warn_1(&format!("warpscope: the texts of {name}: {e}").into());
                            failed.set(true);
                        }
                    }
                });
            }
        });
    }
    match chunks.get(name).filter(|_| texts_in) {
        Some(value) => Chunk::Ready(value),
        None if *failed => Chunk::Failed(Callback::from(move |_: MouseEvent| attempt.set(*attempt + 1))),
        None => Chunk::Loading,
    }
}

/// What a place shows while its chunk loads ("loading…", as a status) or
/// after it failed (the error `failed_key` says, and Retry).
pub fn pending<T>(ctx: &AppCtx, chunk: &Chunk<T>, loading_key: &str, failed_key: &str) -> Html {
    match chunk {
        Chunk::Failed(retry) => html! {
            <div class="chunk-failed" role="alert" data-testid="chunk-failed">
                <p>{ ctx.t(failed_key) }</p>
                <button class="chunk-retry" data-testid="chunk-retry" onclick={retry.clone()}>{ ctx.t("frame.retry") }</button>
            </div>
        },
        _ => html! { <p class="chunk-loading" role="status" data-testid="chunk-loading">{ ctx.t(loading_key) }</p> },
    }
}

/// `data-chunk-state` of a pending place.
pub fn state_name<T>(chunk: &Chunk<T>) -> &'static str {
    match chunk {
        Chunk::Failed(_) => "failed",
        _ => "loading",
    }
}
