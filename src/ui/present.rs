//! Lecture-hall tools around a panel: previous/next panel, "add this view"
//! to the deck, the embed code, the deck's progress bar and keys while
//! presenting, the deck editor (`#/deck`) and the landing page's
//! "continue where you left off".

use super::app::{query_pairs, AppCtx, Route};
use super::panel::MetaRef;
use crate::deck::{present_hash, view_url, Deck, DeckError, View};
use crate::topics::ALL as TOPICS;
use gloo::events::EventListener;
use gloo::storage::{LocalStorage, Storage};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;
use yew_router::prelude::*;

/// The instructor's own deck (the editor's).
const DECK_KEY: &str = "warpscope.deck";
/// The deck being presented (own, or opened from a link).
const LIVE_KEY: &str = "warpscope.deck.live";
/// The last panel visited (landing page: "continue").
const LAST_KEY: &str = "warpscope.last";

pub fn load(key: &str) -> Deck {
    LocalStorage::get::<Deck>(key).ok().and_then(|d| d.checked().ok()).unwrap_or_default()
}

fn store(key: &str, deck: &Deck) {
    let _ = LocalStorage::set(key, deck);
}

/// Give the keys back to the page (the player, the deck): blur a focused
/// slider or button. Text fields keep their focus.
pub fn release_focus() {
    let Some(doc) = super::window().document() else { return };
    let Some(el) = doc.active_element() else { return };
    let keep = match el.tag_name().as_str() {
        "TEXTAREA" | "SELECT" => true,
        "INPUT" => el.dyn_ref::<web_sys::HtmlInputElement>().is_some_and(|i| i.type_() != "range"),
        _ => false,
    };
    if !keep {
        if let Some(h) = el.dyn_ref::<web_sys::HtmlElement>() {
            let _ = h.blur();
        }
    }
}

/// Open view `k` (1-based) of the deck being presented, if there is one.
pub fn deck_go(lang: &str, k: usize) -> bool {
    let deck = load(LIVE_KEY);
    let Some(view) = k.checked_sub(1).and_then(|i| deck.views.get(i)) else { return false };
    super::window().location().set_hash(&present_hash(view, k, lang)).is_ok()
}

/// Present `deck` from its first view.
fn present(deck: &Deck, lang: &str) {
    store(LIVE_KEY, deck);
    deck_go(lang, 1);
}

fn copy_text(text: &str) {
    let clipboard = super::window().navigator().clipboard();
    let _ = clipboard.write_text(text);
}

/// The app's address without the hash (works from a subpath too).
fn base_url() -> String {
    let loc = super::window().location();
    format!("{}{}", loc.origin().unwrap_or_default(), loc.pathname().unwrap_or_default())
}

#[derive(Properties, PartialEq)]
pub struct PanelToolsProps {
    pub meta: MetaRef,
    pub title: String,
}

/// The panel header's tools: add this view to the deck, copy the embed code,
/// previous and next panel in lecture order. Also remembers the panel as
/// the last one visited.
#[component]
pub fn PanelTools(p: &PanelToolsProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let location = use_location().expect("inside a router");
    let id = p.meta.0.id;
    use_effect_with(id, |id| {
        let _ = LocalStorage::set(LAST_KEY, *id);
    });
    let added = use_state(|| None::<usize>);
    let embed_code = use_state(|| None::<String>);
    let pairs = query_pairs(&location).unwrap_or_default();
    let url = view_url(location.path(), &pairs);
    let add = {
        let added = added.clone();
        let url = url.clone();
        let title = p.title.clone();
        Callback::from(move |_: MouseEvent| {
            let mut deck = load(DECK_KEY);
            if deck.views.len() < crate::deck::MAX_VIEWS {
                deck.views.push(View { url: url.clone(), title: title.clone(), note: String::new() });
                store(DECK_KEY, &deck);
            }
            added.set(Some(deck.views.len()));
        })
    };
    let embed = {
        let embed_code = embed_code.clone();
        let title = p.title.clone();
        let lang = ctx.asked_lang.code();
        Callback::from(move |_: MouseEvent| {
            if embed_code.is_some() {
                embed_code.set(None);
                return;
            }
            let sep = if url.contains('?') { '&' } else { '?' };
            let src = format!("{}#{url}{sep}embed=1&lang={lang}", base_url());
            let code = format!(
                r#"<iframe src="{}" width="960" height="540" style="border:0" title="{}" loading="lazy"></iframe>"#,
                src.replace('"', "%22"),
                title.replace('"', "&quot;").replace('<', "&lt;")
            );
            copy_text(&code);
            embed_code.set(Some(code));
        })
    };
    let i = TOPICS.iter().position(|t| t.meta.id == id).unwrap_or(0);
    let link = |t: Option<&crate::topics::Topic>, rel: &'static str, arrow: &'static str| match t {
        Some(t) => {
            let name = ctx.t(&format!("topic.{}.title", t.meta.id));
            let label = ctx.tf(&format!("frame.{rel}"), &[("title", &name)]);
            html! {
                <Link<Route, Vec<(String, String)>> to={Route::Topic { id: t.meta.id.to_string() }}
                    query={Some(ctx.globals())} classes={classes!("neighbour", rel)}>
                    <span aria-hidden="true">{ arrow }</span><span class="sr-only">{ label.clone() }</span>
                </Link<Route, Vec<(String, String)>>>
            }
        }
        None => html! {},
    };
    let exit_present = {
        let navigator = use_navigator().expect("inside a router");
        let path = location.path().to_string();
        let pairs = pairs.clone();
        Callback::from(move |_: MouseEvent| {
            let q: Vec<(String, String)> = pairs.iter().filter(|(k, _)| k != "present").cloned().collect();
            let id = path.trim_start_matches('/').to_string();
            let _ = navigator.replace_with_query(&Route::Topic { id }, &q);
        })
    };
    let prev = i.checked_sub(1).and_then(|j| TOPICS.get(j)).copied();
    let next = TOPICS.get(i + 1).copied();
    html! {
        <>
            <button class="tool" data-testid="deck-add" title={ctx.t("frame.deck-add.title")} onclick={add}>
                { ctx.t("frame.deck-add") }
            </button>
            if let Some(n) = *added {
                <span class="tool-status" role="status" data-testid="deck-added">
                    { ctx.tf("frame.deck-added", &[("n", &n.to_string())]) }{" "}
                    <Link<Route, Vec<(String, String)>> to={Route::Topic { id: "deck".into() }} query={Some(ctx.globals())}>
                        { ctx.t("frame.deck-open") }
                    </Link<Route, Vec<(String, String)>>>
                </span>
            }
            <button class="tool" data-testid="embed-copy" title={ctx.t("frame.embed.title")} onclick={embed}
                aria-expanded={embed_code.is_some().to_string()}>{ ctx.t("frame.embed") }</button>
            if ctx.present {
                <button class="tool" data-testid="present-exit" onclick={exit_present}>{ ctx.t("app.present.exit") }</button>
            }
            <nav class="neighbours" aria-label={ctx.t("frame.neighbours")}>
                { link(prev, "prev", "←") }
                <span class="neighbour-pos">{ format!("{}/{}", i + 1, TOPICS.len()) }</span>
                { link(next, "next", "→") }
            </nav>
            { copied(&ctx, "frame.embed.copied", "embed-code", &embed_code) }
        </>
    }
}

/// While presenting a deck (`deck=k`): the deck's title, "k of n", the next
/// view's title, and the keys: PageDown/PageUp move between views when the
/// panel has no player (the player moves on itself at its last step).
#[component]
pub fn DeckProgress() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let Some(k) = ctx.deck else { return html! {} };
    let deck = load(LIVE_KEY);
    let n = deck.views.len();
    let lang = ctx.asked_lang.code();
    {
        use_effect_with((k, lang), move |&(k, lang)| {
            let doc = super::window().document().expect("document");
            let opts = gloo::events::EventListenerOptions::enable_prevent_default();
            let listener = EventListener::new_with_options(&doc, "keydown", opts, move |e| {
                let e = e.dyn_ref::<web_sys::KeyboardEvent>().expect("KeyboardEvent");
                let has_player = super::window()
                    .document()
                    .and_then(|d| d.query_selector("[data-testid=player]").ok().flatten())
                    .is_some();
                let to = match e.key().as_str() {
                    "PageDown" if !has_player => k + 1,
                    "PageUp" if !has_player => k.saturating_sub(1),
                    _ => return,
                };
                if deck_go(lang, to) {
                    e.prevent_default();
                }
            });
            move || drop(listener)
        });
    }
    if k > n {
        return html! {};
    }
    let view = &deck.views[k - 1];
    let go = |to: usize| Callback::from(move |_: MouseEvent| _ = deck_go(lang, to));
    let keep = {
        let deck = deck.clone();
        Callback::from(move |_: MouseEvent| store(DECK_KEY, &deck))
    };
    html! {
        <div class="deck-bar" data-testid="deck-bar" data-view={k.to_string()} data-views={n.to_string()}>
            <button class="tool" disabled={k <= 1} onclick={go(k.saturating_sub(1))} aria-label={ctx.t("deck.prev")}>{"←"}</button>
            <span class="deck-pos">{ ctx.tf("deck.progress", &[("k", &k.to_string()), ("n", &n.to_string())]) }</span>
            <progress max={n.to_string()} value={k.to_string()} aria-hidden="true"></progress>
            <span class="deck-title">{ if view.title.is_empty() { deck.title.clone() } else { view.title.clone() } }</span>
            if !view.note.is_empty() {
                <span class="deck-note">{ view.note.clone() }</span>
            }
            <button class="tool" disabled={k >= n} onclick={go(k + 1)} aria-label={ctx.t("deck.next")}>{"→"}</button>
            <button class="tool" onclick={keep} title={ctx.t("deck.keep.title")}>{ ctx.t("deck.keep") }</button>
        </div>
    }
}

/// `#/deck`: edit the deck (titles, notes, order), present it, export and
/// import it as JSON, share it as a link. A link with views (`v=…`) opens
/// straight into presentation.
#[component]
pub fn DeckPage() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let location = use_location().expect("inside a router");
    let deck = use_state(|| load(DECK_KEY));
    let problem = use_state(|| None::<String>);
    let shared = use_state(|| None::<String>);
    let lang = ctx.asked_lang.code();
    // A shared link: check it, then present it.
    {
        let pairs = query_pairs(&location).unwrap_or_default();
        let problem = problem.clone();
        let ctx = ctx.clone();
        use_effect_with(pairs, move |pairs| match Deck::from_query(pairs) {
            Some(Ok(d)) => present(&d, lang),
            Some(Err(e)) => problem.set(Some(deck_error(&ctx, &e))),
            None => {}
        });
    }
    let update = {
        let deck = deck.clone();
        Rc::new(move |f: &dyn Fn(&mut Deck)| {
            let mut d = (*deck).clone();
            f(&mut d);
            store(DECK_KEY, &d);
            deck.set(d);
        })
    };
    let text_input = |f: fn(&mut Deck, usize, String), i: usize| {
        let update = update.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(input) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                let v = input.value();
                update(&|d: &mut Deck| f(d, i, v.clone()));
            }
        })
    };
    let export = {
        let deck = deck.clone();
        Callback::from(move |_: MouseEvent| download("warpscope-deck.json", &deck.to_json()))
    };
    let import = {
        let deck = deck.clone();
        let problem = problem.clone();
        let ctx = ctx.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            let (deck, problem, ctx) = (deck.clone(), problem.clone(), ctx.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let text = wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|t| t.as_string());
                match Deck::from_json(&text.unwrap_or_default()) {
                    Ok(d) => {
                        store(DECK_KEY, &d);
                        deck.set(d);
                        problem.set(None);
                    }
                    Err(e) => problem.set(Some(deck_error(&ctx, &e))),
                }
            });
        })
    };
    let share = {
        let deck = deck.clone();
        let shared = shared.clone();
        Callback::from(move |_: MouseEvent| {
            let q: Vec<String> =
                deck.to_query().iter().map(|(k, v)| format!("{}={}", k, crate::deck::encode(v))).collect();
            let link = format!("{}#/deck?{}", base_url(), q.join("&"));
            copy_text(&link);
            shared.set(Some(link));
        })
    };
    let start = {
        let deck = deck.clone();
        Callback::from(move |_: MouseEvent| present(&deck, lang))
    };
    let clear = {
        let update = update.clone();
        Callback::from(move |_: MouseEvent| update(&|d: &mut Deck| *d = Deck::default()))
    };
    let title_input = {
        let update = update.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(input) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                let v = input.value();
                update(&|d: &mut Deck| d.title = v.clone());
            }
        })
    };
    let empty = deck.views.is_empty();
    html! {
        <div class="deck-page" data-testid="deck-page" data-views={deck.views.len().to_string()}>
            <h1>{ ctx.t("deck.title") }</h1>
            <p class="lead">{ ctx.t("deck.intro") }</p>
            if let Some(p) = (*problem).clone() {
                <div class="notices" role="status" data-testid="notices"><p class="notice">{ p }</p></div>
            }
            <label class="deck-name">{ ctx.t("deck.name") }
                <input type="text" value={deck.title.clone()} oninput={title_input} data-testid="deck-name" />
            </label>
            if empty {
                <p class="muted" data-testid="deck-empty">{ ctx.t("deck.empty") }</p>
            }
            <ol class="deck-views">
                { for deck.views.iter().enumerate().map(|(i, v)| {
                    let up = { let u = update.clone(); Callback::from(move |_: MouseEvent| u(&|d: &mut Deck| d.shift(i, -1))) };
                    let down = { let u = update.clone(); Callback::from(move |_: MouseEvent| u(&|d: &mut Deck| d.shift(i, 1))) };
                    let remove = { let u = update.clone(); Callback::from(move |_: MouseEvent| u(&|d: &mut Deck| { if i < d.views.len() { d.views.remove(i); } })) };
                    html! {
                        <li class="deck-view" data-testid="deck-view">
                            <input type="text" class="deck-view-title" value={v.title.clone()} aria-label={ctx.t("deck.view-title")}
                                oninput={text_input(|d, i, s| if let Some(v) = d.views.get_mut(i) { v.title = s }, i)} />
                            <input type="text" class="deck-view-note" value={v.note.clone()} placeholder={ctx.t("deck.note")}
                                aria-label={ctx.t("deck.note")}
                                oninput={text_input(|d, i, s| if let Some(v) = d.views.get_mut(i) { v.note = s }, i)} />
                            <a class="deck-view-url mono" href={format!("#{}", v.url)}>{ v.url.clone() }</a>
                            <span class="deck-view-buttons">
                                <button class="tool" onclick={up} disabled={i == 0} aria-label={ctx.t("deck.up")}>{"↑"}</button>
                                <button class="tool" onclick={down} disabled={i + 1 == deck.views.len()} aria-label={ctx.t("deck.down")}>{"↓"}</button>
                                <button class="tool" onclick={remove} aria-label={ctx.t("deck.remove")}>{"✕"}</button>
                            </span>
                        </li>
                    }
                }) }
            </ol>
            <div class="deck-buttons">
                <button class="tool primary" data-testid="deck-present" onclick={start} disabled={empty}>{ ctx.t("deck.present") }</button>
                <button class="tool" data-testid="deck-share" onclick={share} disabled={empty}>{ ctx.t("deck.share") }</button>
                <button class="tool" data-testid="deck-export" onclick={export} disabled={empty}>{ ctx.t("deck.export") }</button>
                <label class="tool file">{ ctx.t("deck.import") }
                    <input type="file" accept="application/json,.json" data-testid="deck-import" onchange={import} />
                </label>
                <button class="tool" data-testid="deck-clear" onclick={clear} disabled={empty}>{ ctx.t("deck.clear") }</button>
            </div>
            { copied(&ctx, "deck.share.copied", "deck-link", &shared) }
            <p class="muted">{ ctx.t("deck.keys") }</p>
        </div>
    }
}

fn deck_error(ctx: &AppCtx, e: &DeckError) -> String {
    match e {
        DeckError::Json(m) => ctx.tf("deck.error.json", &[("why", m)]),
        DeckError::BadUrl(u) => ctx.tf("deck.error.url", &[("url", u)]),
        DeckError::TooLong(n) => {
            ctx.tf("deck.error.long", &[("n", &n.to_string()), ("max", &crate::deck::MAX_VIEWS.to_string())])
        }
    }
}

/// Offer `text` as a file download.
pub fn download(name: &str, text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else { return };
    download_blob(name, &blob);
}

/// Offer a blob as a file download.
pub fn download_blob(name: &str, blob: &web_sys::Blob) {
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else { return };
    super::canvas::download_href(&url, name);
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// The landing page's "continue with …" link to the last panel visited.
#[component]
pub fn ContinueLink() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let last: Option<String> = LocalStorage::get::<String>(LAST_KEY).ok();
    let Some(t) = last.as_deref().and_then(crate::topics::find) else { return html! {} };
    let title = ctx.t(&format!("topic.{}.title", t.meta.id));
    html! {
        <p class="continue" data-testid="continue">
            <Link<Route, Vec<(String, String)>> to={Route::Topic { id: t.meta.id.to_string() }} query={Some(ctx.globals())}>
                { ctx.tf("landing.continue", &[("title", &title)]) }
            </Link<Route, Vec<(String, String)>>>
            {" · "}
            <Link<Route, Vec<(String, String)>> to={Route::Topic { id: "deck".into() }} query={Some(ctx.globals())}>
                { ctx.t("deck.title") }
            </Link<Route, Vec<(String, String)>>>
        </p>
    }
}

/// What was just put on the clipboard (an embed code, a deck's link), shown
/// to read or copy by hand, under the note `said`.
fn copied(ctx: &AppCtx, said: &str, testid: &'static str, text: &Option<String>) -> Html {
    let Some(text) = text.clone() else { return Html::default() };
    html! {
        <div class="embed-code" role="status">
            <p>{ ctx.t(said) }</p>
            <textarea readonly=true rows="3" data-testid={testid} value={text} />
        </div>
    }
}
