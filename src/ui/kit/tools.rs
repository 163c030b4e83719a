//! Lecture-hall tools around a panel: previous/next panel, "add this view"
//! to the deck, the embed code, the deck's progress bar and keys while
//! presenting; the decks in local storage. The deck editor is
//! `deck_page`, the landing page's "continue" link is the shell's.

use super::ctx::{self, key_belongs_to_control, query_pairs, AppCtx, MetaRef, Route};
use super::storage::{self, Trouble};
use crate::deck::{add_view, present_hash, read_stored, view_url, AddRefused, Deck, Stored, View};
use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;
use yew_router::prelude::*;

/// The instructor's own deck (the editor's).
pub const DECK_KEY: &str = "warpscope.deck";
/// The deck being presented (own, or opened from a link).
pub const LIVE_KEY: &str = "warpscope.deck.live";
/// The last panel visited (landing page: "continue").
pub const LAST_KEY: &str = "warpscope.last";

/// The deck stored under `key`, every view kept (those that fail a check
/// marked), or why it could not be read (then kept, never written over).
pub fn load_stored(key: &str) -> Stored {
    read_stored(storage::get(key).as_deref(), &ctx::is_route)
}

pub fn load(key: &str) -> Deck {
    load_stored(key).deck
}

/// Store a deck; when the browser refuses (storage full or blocked) the
/// page keeps it in memory and says why.
pub fn store(key: &str, deck: &Deck) -> Result<(), Trouble> {
    storage::set_json(key, deck)
}

/// "the browser's storage is full." / "… blocks site data.".
pub fn trouble_why(ctx: &AppCtx, t: Trouble) -> String {
    ctx.t(match t {
        Trouble::Blocked => "storage.why.blocked",
        Trouble::Full => "storage.why.full",
    })
}

/// What "+ Deck" did: added (and saved), refused (nothing written), or
/// added in this page only (the browser would not save it).
#[derive(Clone, Debug, PartialEq)]
enum AddStatus {
    Added(usize),
    Refused(AddRefused),
    Unsaved(Trouble, usize),
}

/// Give the keys back to the page (the player, the deck): blur a focused
/// slider or button. Text fields keep their focus.
pub fn release_focus() {
    let Some(doc) = super::dom::window().document() else { return };
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
    super::dom::window().location().set_hash(&present_hash(view, k, lang)).is_ok()
}

/// Present `deck` from its first view (from this page's memory if the
/// browser will not store it: never a deck presented earlier).
pub fn present(deck: &Deck, lang: &str) {
    let _ = store(LIVE_KEY, deck);
    // What `deck_go(lang, 1)` reads back, without reading it through
    // serde_json (the start page, whose module carries none, presents).
    if let Some(url) = crate::deck::first_url_as_stored(deck, &ctx::is_route) {
        let view = View { url, title: String::new(), note: String::new() };
        let _ = super::dom::window().location().set_hash(&present_hash(&view, 1, lang));
    }
}

pub fn copy_text(text: &str) {
    let clipboard = super::dom::window().navigator().clipboard();
    let _ = clipboard.write_text(text);
}

/// The app's address without the hash (works from a subpath too).
pub fn base_url() -> String {
    let loc = super::dom::window().location();
    format!("{}{}", loc.origin().unwrap_or_default(), loc.pathname().unwrap_or_default())
}

#[derive(Properties, PartialEq)]
pub struct PanelToolsProps {
    pub meta: MetaRef,
    pub title: String,
}

/// The address as it is now. The panel's tools read it when used rather
/// than subscribing to the router's location, which would render them again
/// for every change of the address (each jump, each of the panel's writes);
/// what they read is what a render after the last change would have seen.
fn current_location() -> yew_router::history::Location {
    yew_router::history::History::location(&yew_router::history::HashHistory::new())
}

/// This view's address (path and query), as the deck stores it.
fn current_view_url() -> String {
    let now = current_location();
    view_url(now.path(), &query_pairs(&now).unwrap_or_default())
}

/// The panel header's tools: add this view to the deck, copy the embed code,
/// previous and next panel in lecture order. Also remembers the panel as
/// the last one visited.
#[component]
pub fn PanelTools(p: &PanelToolsProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let id = p.meta.0.id;
    use_effect_with(id, |id| {
        let _ = storage::set_str(LAST_KEY, id);
    });
    let added = use_state(|| None::<AddStatus>);
    // Views in the deck (read once; "+ Deck" updates it).
    let in_deck = use_state(|| crate::deck::stored_len(storage::get(DECK_KEY).as_deref()));
    let embed_code = use_state(|| None::<String>);
    let add = {
        let added = added.clone();
        let in_deck = in_deck.clone();
        let title = p.title.clone();
        Callback::from(move |_: MouseEvent| {
            let url = current_view_url();
            let stored = load_stored(DECK_KEY);
            // Checked before anything is written: a view the stored deck
            // would refuse on its next read is refused here.
            let view = View { url, title: title.clone(), note: String::new() };
            let status = match add_view(&stored, view, &ctx::is_route) {
                Err(why) => AddStatus::Refused(why),
                Ok(deck) => match store(DECK_KEY, &deck) {
                    Ok(()) => AddStatus::Added(deck.views.len()),
                    Err(t) => AddStatus::Unsaved(t, deck.views.len()),
                },
            };
            in_deck.set(load(DECK_KEY).views.len());
            added.set(Some(status));
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
            let url = current_view_url();
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
    let i = ctx::topics().iter().position(|t| t.id == id).unwrap_or(0);
    let link = |t: Option<&crate::topic::TopicMeta>, rel: &'static str, arrow: &'static str| match t {
        Some(t) => {
            let name = ctx.t(&format!("topic.{}.title", t.id));
            let label = ctx.tf(&format!("frame.{rel}"), &[("title", &name)]);
            html! {
                <Link<Route, Vec<(String, String)>> to={Route::Topic { id: t.id.to_string() }}
                    query={Some(ctx.globals())} classes={classes!("neighbour", rel)}>
                    <span aria-hidden="true">{ arrow }</span><span class="sr-only">{ label.clone() }</span>
                </Link<Route, Vec<(String, String)>>>
            }
        }
        None => html! {},
    };
    let exit_present = {
        let navigator = use_navigator().expect("inside a router");
        Callback::from(move |_: MouseEvent| {
            let now = current_location();
            let pairs = query_pairs(&now).unwrap_or_default();
            let q: Vec<(String, String)> = pairs.iter().filter(|(k, _)| k != "present").cloned().collect();
            let id = now.path().trim_start_matches('/').to_string();
            let _ = navigator.replace_with_query(&Route::Topic { id }, &q);
        })
    };
    let prev = i.checked_sub(1).and_then(|j| ctx::topics().get(j)).copied();
    let next = ctx::topics().get(i + 1).copied();
    html! {
        <>
            <button class="tool" data-testid="deck-add" title={ctx.t("frame.deck-add.title")} onclick={add}>
                { ctx.t("frame.deck-add") }
            </button>
            { match (*added).clone() {
                None => html! {},
                Some(AddStatus::Added(n)) => added_to_deck(&ctx, "deck-added", &ctx.tf("frame.deck-added", &[("n", &n.to_string())])),
                Some(AddStatus::Refused(why)) => html! {
                    <span class="tool-status bad" role="alert" data-testid="deck-refused">{ refused_text(&ctx, &why) }</span>
                },
                Some(AddStatus::Unsaved(t, n)) => html! {
                    <span class="tool-status bad" role="alert" data-testid="deck-unsaved">
                        { ctx.tf("frame.deck-unsaved", &[("why", &trouble_why(&ctx, t)), ("n", &n.to_string())]) }{" "}
                        <Link<Route, Vec<(String, String)>> to={Route::Deck} query={Some(ctx.globals())}>
                            { ctx.t("frame.deck-open") }
                        </Link<Route, Vec<(String, String)>>>
                    </span>
                },
            } }
            if !matches!(*added, Some(AddStatus::Added(_) | AddStatus::Unsaved(..))) {
                <Link<Route, Vec<(String, String)>> to={Route::Deck} query={Some(deck_query(&ctx))}
                    classes="tool deck-open" >
                    <span title={ctx.t("frame.deck-open.title")} data-testid="deck-open">
                        { ctx.tf("frame.deck-open.n", &[("n", &in_deck.to_string())]) }
                    </span>
                </Link<Route, Vec<(String, String)>>>
            }
            <button class="tool" data-testid="embed-copy" title={ctx.t("frame.embed.title")} onclick={embed}
                aria-expanded={embed_code.is_some().to_string()}>{ ctx.t("frame.embed") }</button>
            if ctx.present {
                <button class="tool" data-testid="present-exit" onclick={exit_present}>{ ctx.t("app.present.exit") }</button>
            }
            // While a deck is presented its bar's ← → move between views:
            // the lecture-order arrows would sit confusingly beside them.
            if ctx.deck.is_none() {
                <nav class="neighbours" aria-label={ctx.t("frame.neighbours")}>
                    { link(prev, "prev", "←") }
                    <span class="neighbour-pos">{ format!("{}/{}", i + 1, ctx::topics().len()) }</span>
                    { link(next, "next", "→") }
                </nav>
            }
            { copied(&ctx, "frame.embed.copied", "embed-code", &embed_code) }
        </>
    }
}

/// Why "+ Deck" added nothing.
fn refused_text(ctx: &AppCtx, why: &AddRefused) -> String {
    match why {
        AddRefused::TooLong { len, max } => {
            ctx.tf("frame.deck-refused.long", &[("len", &len.to_string()), ("max", &max.to_string())])
        }
        AddRefused::BadUrl => ctx.t("frame.deck-refused.url"),
        AddRefused::Full { max } => ctx.tf("frame.deck-refused.full", &[("max", &max.to_string())]),
        AddRefused::Unreadable => ctx.t("frame.deck-refused.unreadable"),
    }
}

/// The deck editor's query from a page: the language only (the editor is
/// not presented, embedded or part of a deck).
fn deck_query(ctx: &AppCtx) -> Vec<(String, String)> {
    vec![("lang".to_string(), ctx.asked_lang.code().to_string())]
}

/// What a key does in a presented deck, wherever the player is: `Some(+1)`
/// the next view (B or `.`, the "blank screen" key most clickers have),
/// `Some(-1)` the previous one (`,`).
pub fn view_key(key: &str) -> Option<isize> {
    match key {
        "b" | "B" | "." => Some(1),
        "," => Some(-1),
        _ => None,
    }
}

/// While presenting a deck (`deck=k`): the deck's title, "k of n", the next
/// view's title, and the keys: PageDown/PageUp move between views when the
/// panel has no player (the player moves on itself at its last step); B or
/// `.` and `,` move between views wherever the player is.
#[component]
pub fn DeckProgress() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    // The built-in lecture, untouched, follows a language switch: its views'
    // texts come in a file of their own (until then the deck shows the
    // texts it was stored with).
    {
        let texts_in = use_force_update();
        use_effect_with((ctx.lang, ctx.deck.is_some()), move |&(lang, presenting)| {
            let part = crate::lecture_deck::TEXTS_PART;
            if presenting && !crate::i18n::has_part(lang, part) {
                wasm_bindgen_futures::spawn_local(async move {
                    if super::texts::load_parts(lang, &[part]).await.is_ok() {
                        texts_in.force_update();
                    }
                });
            }
        });
    }
    let Some(k) = ctx.deck else { return html! {} };
    let deck = crate::lecture_deck::localized(load(LIVE_KEY), ctx.lang, &|l, key| {
        crate::i18n::text(l, key).map(str::to_string)
    });
    let n = deck.views.len();
    let lang = ctx.asked_lang.code();
    {
        use_effect_with((k, lang), move |&(k, lang)| {
            let doc = super::dom::window().document().expect("document");
            let opts = gloo::events::EventListenerOptions::enable_prevent_default();
            let listener = EventListener::new_with_options(&doc, "keydown", opts, move |e| {
                let e = e.dyn_ref::<web_sys::KeyboardEvent>().expect("KeyboardEvent");
                let has_player = super::dom::window()
                    .document()
                    .and_then(|d| d.query_selector("[data-testid=player]").ok().flatten())
                    .is_some();
                let to = match (e.key().as_str(), view_key(&e.key())) {
                    ("PageDown", _) if !has_player => k + 1,
                    ("PageUp", _) if !has_player => k.saturating_sub(1),
                    (_, Some(by)) if !key_belongs_to_control(e) => k.saturating_add_signed(by),
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
        Callback::from(move |_: MouseEvent| _ = store(DECK_KEY, &deck))
    };
    html! {
        <div class="deck-bar" data-testid="deck-bar" data-view={k.to_string()} data-views={n.to_string()}>
            <button class="tool" disabled={k <= 1} onclick={go(k.saturating_sub(1))} aria-label={ctx.t("deck.prev")}
                title={ctx.t("deck.prev.title")} data-testid="deck-prev">{"←"}</button>
            <span class="deck-pos">{ ctx.tf("deck.progress", &[("k", &k.to_string()), ("n", &n.to_string())]) }</span>
            <span class="sr-only" aria-hidden="true" data-metric="deck-view" data-value={k.to_string()}>{ k }</span>
            <span class="sr-only" aria-hidden="true" data-metric="deck-views" data-value={n.to_string()}>{ n }</span>
            <progress max={n.to_string()} value={k.to_string()} aria-hidden="true"></progress>
            <span class="deck-title">{ if view.title.is_empty() { deck.title.clone() } else { view.title.clone() } }</span>
            if !view.note.is_empty() {
                <span class="deck-note">{ view.note.clone() }</span>
            }
            <button class="tool" disabled={k >= n} onclick={go(k + 1)} aria-label={ctx.t("deck.next")}
                title={ctx.t("deck.next.title")} data-testid="deck-next">{"→"}</button>
            <button class="tool deck-keep" data-testid="deck-keep" onclick={keep} title={ctx.t("deck.keep.title")}>{ ctx.t("deck.keep") }</button>
        </div>
    }
}

/// What was just put on the clipboard (an embed code, a deck's link), shown
/// to read or copy by hand, under the note `said`.
pub fn copied(ctx: &AppCtx, said: &str, testid: &'static str, text: &Option<String>) -> Html {
    let Some(text) = text.clone() else { return Html::default() };
    html! {
        <div class="embed-code" role="status">
            <p>{ ctx.t(said) }</p>
            <textarea readonly=true rows="3" data-testid={testid} value={text} />
        </div>
    }
}

/// "n views added" with a link to the deck (after adding this view, or the
/// whole lecture).
pub fn added_to_deck(ctx: &AppCtx, testid: &'static str, done: &str) -> Html {
    html! {
        <span class="tool-status" role="status" data-testid={testid}>
            { done }{" "}
            <Link<Route, Vec<(String, String)>> to={Route::Deck} query={Some(ctx.globals())}>
                { ctx.t("frame.deck-open") }
            </Link<Route, Vec<(String, String)>>>
        </span>
    }
}
