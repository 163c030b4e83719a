//! The deck editor (`#/deck`): rename, annotate, reorder and remove views,
//! present them, export and import them as JSON, copy one link that carries
//! the whole deck.

use crate::deck::{read_json, read_link, read_stored, Deck, DeckError, Stored, View};
use crate::i18n::notice_text;
use crate::params::Notice;
use crate::ui::kit::ctx::{self, query_pairs, AppCtx};
use crate::ui::kit::storage::Trouble;
use crate::ui::kit::tools::{base_url, copied, copy_text, load_stored, present, store, trouble_why, DECK_KEY};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;
use yew_router::prelude::*;

/// `#/deck`: edit the deck (titles, notes, order), present it, export and
/// import it as JSON, share it as a link. A link with views (`v=…`) opens
/// straight into presentation, unless something in it was not taken as
/// given: then the page says what, and offers to present it.
#[component]
pub fn DeckPage() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let location = use_location().expect("inside a router");
    // Every stored view, those failing a check marked; a stored text that
    // is not a deck is kept, and nothing but Clear writes over it.
    let stored = use_state(|| load_stored(DECK_KEY));
    let deck = &stored.deck;
    // The last write the browser refused (storage full or blocked): the
    // deck is then this page's, until it is left.
    let unsaved = use_state(|| None::<(Trouble, bool)>);
    // What the last import said (an error or what it changed): cleared by
    // the next import and by any new link.
    let problem = use_state(|| None::<String>);
    let imported = use_state(Vec::<Notice>::new);
    let shared = use_state(|| None::<String>);
    let lang = ctx.asked_lang.code();
    // The link, read afresh on every render: its notices and error belong
    // to the query shown, never to an earlier one.
    let pairs = query_pairs(&location).unwrap_or_default();
    let link = read_link(&pairs, &ctx::is_route);
    {
        let (problem, imported) = (problem.clone(), imported.clone());
        let link = link.clone();
        use_effect_with(pairs, move |_| {
            problem.set(None);
            imported.set(Vec::new());
            // A clean link with views: present it at once.
            if let (Some(Ok(d)), true) = (&link.deck, link.notices.is_empty()) {
                present(d, lang);
            }
        });
    }
    // Write `d` (from an edit, `imported` or not), and show it.
    let save = {
        let (stored, unsaved) = (stored.clone(), unsaved.clone());
        Rc::new(move |d: Deck, imported: bool| {
            unsaved.set(store(DECK_KEY, &d).err().map(|t| (t, imported)));
            stored.set(recheck(d));
        })
    };
    let update = {
        let (stored, save) = (stored.clone(), save.clone());
        Rc::new(move |f: &dyn Fn(&mut Deck)| {
            // A stored text that could not be read is never written over.
            if stored.unreadable.is_some() {
                return;
            }
            let mut d = stored.deck.clone();
            f(&mut d);
            save(d, false);
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
        Callback::from(move |_: MouseEvent| crate::ui::kit::dom::download("warpscope-deck.json", &deck.to_json()))
    };
    let import = {
        let save = save.clone();
        let problem = problem.clone();
        let imported = imported.clone();
        let ctx = ctx.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            // The same file chosen again is a new import.
            input.set_value("");
            let (save, problem, imported, ctx) = (save.clone(), problem.clone(), imported.clone(), ctx.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let text = wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|t| t.as_string());
                match read_json(&text.unwrap_or_default(), &ctx::is_route) {
                    Ok((d, notices)) => {
                        // An import replaces the deck on purpose (an unreadable one too).
                        save(d, true);
                        problem.set(None);
                        imported.set(notices);
                    }
                    // Refused (an empty file too): the deck stays as it was.
                    Err(e) => {
                        problem.set(Some(deck_error(&ctx, &e)));
                        imported.set(Vec::new());
                    }
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
    // Clear is the one edit that writes over a stored deck that could not be read.
    let clear = {
        let save = save.clone();
        Callback::from(move |_: MouseEvent| save(Deck::default(), false))
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
    let unreadable = stored.unreadable.is_some();
    html! {
        <div class="deck-page" data-testid="deck-page" data-views={deck.views.len().to_string()}>
            <h1>{ ctx.t("deck.title") }</h1>
            <p class="lead">{ ctx.t("deck.intro") }</p>
            { notices_block(&ctx, &link, (*problem).clone(), &imported) }
            if let Some(why) = stored.unreadable.clone() {
                <p class="notices" role="alert" data-testid="deck-unreadable">{ ctx.tf("deck.unreadable", &[("why", &why)]) }</p>
            }
            if let Some((t, imported)) = *unsaved {
                <p class="notices" role="alert" data-testid="deck-unsaved">
                    { ctx.tf(if imported { "deck.import-unsaved" } else { "deck.unsaved" },
                        &[("why", &trouble_why(&ctx, t)), ("n", &deck.views.len().to_string())]) }
                </p>
            }
            if let (Some(Ok(d)), false) = (&link.deck, link.notices.is_empty()) {
                <p class="deck-held" data-testid="deck-link-held">
                    { ctx.tf("deck.link-held", &[("n", &d.views.len().to_string())]) }{" "}
                    <button class="tool primary" data-testid="deck-link-present"
                        onclick={{ let d = d.clone(); Callback::from(move |_: MouseEvent| present(&d, lang)) }}>
                        { ctx.t("deck.link-present") }
                    </button>
                </p>
            }
            <label class="deck-name">{ ctx.t("deck.name") }
                <input type="text" value={deck.title.clone()} oninput={title_input} data-testid="deck-name" />
            </label>
            if empty && !unreadable {
                <p class="muted" data-testid="deck-empty">{ ctx.t("deck.empty") }</p>
            }
            <ol class="deck-views">
                { for deck.views.iter().enumerate().map(|(i, v)| {
                    let up = { let u = update.clone(); Callback::from(move |_: MouseEvent| u(&|d: &mut Deck| d.shift(i, -1))) };
                    let down = { let u = update.clone(); Callback::from(move |_: MouseEvent| u(&|d: &mut Deck| d.shift(i, 1))) };
                    let remove = { let u = update.clone(); Callback::from(move |_: MouseEvent| u(&|d: &mut Deck| { if i < d.views.len() { d.views.remove(i); } })) };
                    let bad = stored.problem(i).map(|e| bad_view_text(&ctx, v, e));
                    html! {
                        <li class={classes!("deck-view", bad.is_some().then_some("bad"))} data-testid="deck-view"
                            data-bad={bad.is_some().then_some("1")}>
                            <input type="text" class="deck-view-title" value={v.title.clone()} aria-label={ctx.t("deck.view-title")}
                                oninput={text_input(|d, i, s| if let Some(v) = d.views.get_mut(i) { v.title = s }, i)} />
                            <input type="text" class="deck-view-note" value={v.note.clone()} placeholder={ctx.t("deck.note")}
                                aria-label={ctx.t("deck.note")}
                                oninput={text_input(|d, i, s| if let Some(v) = d.views.get_mut(i) { v.note = s }, i)} />
                            <a class="deck-view-url mono" href={format!("#{}", v.url)}>{ v.url.chars().take(300).collect::<String>() }</a>
                            if let Some(why) = bad {
                                <p class="check bad deck-view-bad" data-testid="deck-view-bad">{ why }</p>
                            }
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
                <button class="tool" data-testid="deck-clear" onclick={clear} disabled={empty && !unreadable}>{ ctx.t("deck.clear") }</button>
            </div>
            { copied(&ctx, "deck.share.copied", "deck-link", &shared) }
            <p class="muted">{ ctx.t("deck.keys") }</p>
        </div>
    }
}

/// One notice block for the page: the link's notices and error, the last
/// import's error or changes (one block, one `data-testid="notices"`).
fn notices_block(ctx: &AppCtx, link: &crate::deck::LinkRead, problem: Option<String>, imported: &[Notice]) -> Html {
    let link_error = match &link.deck {
        Some(Err(e)) => Some(deck_error(ctx, e)),
        _ => None,
    };
    let notices: Vec<&Notice> = link.notices.iter().chain(imported).collect();
    if notices.is_empty() && link_error.is_none() && problem.is_none() {
        return html! {};
    }
    html! {
        <div class="notices" role="status" data-testid="notices">
            <strong>{ ctx.t("notice.title") }</strong>
            <ul>
                { for notices.iter().map(|n| html! {
                    <li class="notice" data-notice-param={n.param.clone()}>{ notice_text(ctx.lang, n) }</li>
                }) }
                { for link_error.into_iter().map(|e| html! { <li class="notice" data-notice-param="v">{ e }</li> }) }
                { for problem.into_iter().map(|e| html! { <li class="notice" data-notice-param="file">{ e }</li> }) }
            </ul>
        </div>
    }
}

/// A deck read back, its views that fail a check marked.
fn recheck(d: Deck) -> Stored {
    read_stored(Some(&d.to_json()), &ctx::is_route)
}

/// Why a stored view fails a check.
fn bad_view_text(ctx: &AppCtx, v: &View, e: &DeckError) -> String {
    let why = if v.url.len() > crate::deck::MAX_URL {
        ctx.tf("deck.error.url-long", &[("len", &v.url.len().to_string()), ("max", &crate::deck::MAX_URL.to_string())])
    } else {
        deck_error(ctx, e)
    };
    ctx.tf("deck.bad-view", &[("why", &why)])
}

fn deck_error(ctx: &AppCtx, e: &DeckError) -> String {
    match e {
        DeckError::Json(m) => ctx.tf("deck.error.json", &[("why", m)]),
        DeckError::BadUrl(u) => ctx.tf("deck.error.url", &[("url", u)]),
        DeckError::TooLong(n) => {
            ctx.tf("deck.error.long", &[("n", &n.to_string()), ("max", &crate::deck::MAX_VIEWS.to_string())])
        }
        DeckError::Empty => ctx.t("deck.error.empty"),
    }
}
