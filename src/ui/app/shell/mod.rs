//! The shell: hash routing, the global `lang`, `present`, `embed` and `deck`
//! parameters (`hooks`), the header, and the page of each route (the
//! landing and not-found pages are in `pages::landing`). The top of the
//! app: it reads the registry (`topics::ALL`, each topic's view).

mod hooks;
mod location;

use super::lazy::{LazyPage, LoadPage};
use super::pages::landing::{Landing, NotFoundPage};
use crate::topics;
use crate::ui::kit::ctx::{AppCtx, Route};
use crate::ui::kit::readouts::Notices;
use hooks::{use_globals, use_page_state, use_present_key, use_set_global, use_sticky_notices, use_texts};
use location::use_shell_location;
use yew::prelude::*;
use yew_router::prelude::*;

/// The pages that are chunks of their own (issue 24): each `#[wasm_split]`
/// function below is where the split build cuts; its page's code is reached
/// only from there.
mod pages {
    use crate::ui::app::lazy::PageFuture;
    use wasm_split_helpers::{wasm_split, SplitLoaderError};
    use yew::prelude::*;

    #[wasm_split(page_deck, fallible)]
    fn deck_page() -> Result<fn() -> Html, SplitLoaderError> {
        Ok(|| html! { <crate::ui::app::pages::deck::DeckPage /> })
    }
    pub fn deck() -> PageFuture {
        Box::pin(deck_page())
    }

    #[wasm_split(page_lecture, fallible)]
    fn lecture_page() -> Result<fn() -> Html, SplitLoaderError> {
        Ok(|| html! { <crate::ui::app::pages::lecture::LecturePage /> })
    }
    pub fn lecture() -> PageFuture {
        Box::pin(lecture_page())
    }

    #[wasm_split(page_practice, fallible)]
    fn practice_page() -> Result<fn() -> Html, SplitLoaderError> {
        Ok(|| html! { <crate::ui::app::pages::practice_round::RoundPage /> })
    }
    pub fn practice() -> PageFuture {
        Box::pin(practice_page())
    }

    /// Every one of them, by route (for prefetching, `lazy::install_pages`).
    pub static ALL: &[(&str, crate::ui::app::lazy::LoadPage)] =
        &[("deck", deck), ("lecture", lecture), ("practice", practice)];
}

/// Hands the lazily loaded pages to [`super::lazy`] (at start-up).
pub fn install_pages() {
    super::lazy::install_pages(pages::ALL);
}

#[component]
pub fn App() -> Html {
    html! {
        <HashRouter>
            <Shell />
        </HashRouter>
    }
}

#[component]
fn Shell() -> Html {
    let location = use_shell_location();
    let route = Route::recognize(&location.path).unwrap_or(Route::NotFound);
    let g = use_globals(&location, &route);
    let (wanted, present, embed) = (g.wanted, g.present, g.embed);
    let texts = use_texts(wanted, &location.path);
    let lang = texts.lang;
    let ctx = AppCtx { lang, asked_lang: wanted, present, embed, deck: g.deck, practice: g.practice };
    let (shown_notices, dismiss_globals) = use_sticky_notices(&location.path, &g.notices);
    use_page_state(lang, present, embed, &location.path);
    let set_global = use_set_global(&route);
    let toggle_present = {
        let set_global = set_global.clone();
        Callback::from(move |_| set_global.emit(("present", (!present).then(|| "1".to_string()))))
    };
    let switch_lang = {
        let attempt = texts.attempt.clone();
        // The button names the other language of the page as shown, and goes
        // there; while that language's texts are still loading (or failed)
        // it asks for them again.
        Callback::from(move |_: MouseEvent| {
            if lang != wanted {
                attempt.set(*attempt + 1);
            }
            set_global.emit(("lang", Some(lang.other().code().to_string())))
        })
    };
    use_present_key(toggle_present.clone(), present, &route, &location.pairs);

    let home_query = ctx.globals();
    html! {
        <ContextProvider<AppCtx> context={ctx.clone()}>
            <div class={classes!("app", present.then_some("present"))}>
                <header class="site-header">
                    <Link<Route, Vec<(String, String)>> to={Route::Home} query={Some(home_query)} classes="brand">
                        <span class="brand-mark">{"◆"}</span>
                        <span class="brand-name">{ ctx.t("app.name") }</span>
                        <span class="brand-tagline">{ ctx.t("app.tagline") }</span>
                    </Link<Route, Vec<(String, String)>>>
                    <nav class="site-nav">
                        <crate::ui::kit::practice::PracticeToggle />
                        <button class="lang-switch" data-testid="lang-switch" title={ctx.t("app.lang-switch.title")}
                            onclick={switch_lang}>{ ctx.t("app.lang-switch") }</button>
                        <button class="present-toggle" data-testid="present-toggle" title={ctx.t("app.present.title")}
                            aria-pressed={present.to_string()}
                            onclick={toggle_present.reform(|_: MouseEvent| ())}>{ ctx.t("app.present") }</button>
                    </nav>
                </header>
                // Panels have the exit among their header's tools.
                if present && !matches!(&route, Route::Topic { id } if crate::ui::kit::ctx::is_route(id)) {
                    <button class="present-exit" data-testid="present-exit"
                        onclick={toggle_present.reform(|_: MouseEvent| ())}>{ ctx.t("app.present.exit") }</button>
                }
                <Notices notices={shown_notices} on_dismiss={dismiss_globals} />
                // Site data blocked or storage full: the page works from memory, and says so.
                if let Some(t) = crate::ui::kit::storage::trouble() {
                    <div class="notices" role="status" data-testid="storage-trouble" data-trouble={format!("{t:?}").to_lowercase()}>
                        { ctx.t(crate::ui::kit::storage::trouble_key(t)) }
                    </div>
                }
                if let Some(failed) = texts.failed.filter(|&l| l == wanted && !crate::i18n::is_loaded(l)) {
                    // In both languages: the one asked for may be the reader's only one.
                    <div class="notices" role="alert" data-testid="texts-failed">
                        { for [failed, failed.other()].into_iter().map(|l| html! {
                            <p lang={if l == crate::i18n::Lang::Zh { "zh-CN" } else { "en" }}>
                                { crate::i18n::trf(l, "strings.failed", &[("file", &crate::i18n::file_name(failed))]) }
                            </p>
                        }) }
                    </div>
                }
                <main class="site-main">{ body(&route, &location.path) }</main>
                <footer class="site-footer"><p>{ ctx.t("app.footer") }</p></footer>
            </div>
        </ContextProvider<AppCtx>>
    }
}

/// The page of a route: the start page, a lazily loaded page, a topic's
/// panel from its chunk, or the not-found page.
fn body(route: &Route, path: &str) -> Html {
    if !matches!(route, Route::Topic { .. }) {
        // Only a page that opens on a panel waits for it to settle.
        crate::ui::kit::panel::page_without_panel();
    }
    match route {
        Route::Home => html! { <Landing /> },
        Route::Deck => html! { <LazyPage key="deck" name="deck" load={pages::deck as LoadPage} /> },
        Route::Lecture => html! { <LazyPage key="lecture" name="lecture" load={pages::lecture as LoadPage} /> },
        Route::Practice => html! { <LazyPage key="practice" name="practice" load={pages::practice as LoadPage} /> },
        Route::Topic { id } => match crate::ui::kit::ctx::find(id).and_then(|m| Some((m, topics::view(id)?))) {
            Some((meta, load)) => html! { <crate::ui::kit::panel::LazyPanel key={meta.id} meta={meta} load={load} /> },
            None => html! { <NotFoundPage path={format!("/{id}")} /> },
        },
        Route::NotFound => html! { <NotFoundPage path={path.to_string()} /> },
    }
}
