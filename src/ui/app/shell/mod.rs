//! The shell: hash routing, the global `lang`, `present`, `embed` and `deck`
//! parameters, the header, the landing page and the not-found page. The top
//! of the app: it reads the registry (`topics::ALL`, each topic's view).

use super::lazy::{LazyPage, LoadPage};
use crate::i18n::{tr, Lang};
use crate::params::{Notice, Problem};
use crate::topic::Part;
use crate::topics::{self, METAS as TOPICS};
use crate::ui::kit::ctx::{key_belongs_to_control, query_pairs, AppCtx, Route};
use crate::ui::kit::readouts::Notices;
use gloo::events::EventListener;
use gloo::storage::{LocalStorage, Storage};
use wasm_bindgen::JsCast;
use yew::prelude::*;
use yew_router::prelude::*;

const LANG_KEY: &str = "warpscope.lang";

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

/// What the shell reads from the address: the path, and of the query on
/// the start page all of it, elsewhere only the global parameters (a panel
/// or page reads its own).
#[derive(Clone, PartialEq)]
struct ShellLocation {
    path: String,
    /// `None`: the query could not be decoded.
    pairs: Option<Vec<(String, String)>>,
    /// The query as given, when it could not be decoded (for its notice).
    broken: String,
}

impl ShellLocation {
    fn now() -> Self {
        let location = yew_router::history::History::location(&yew_router::history::HashHistory::new());
        let home = Route::recognize(location.path()) == Some(Route::Home);
        let pairs = query_pairs(&location).map(|q| {
            if home {
                q
            } else {
                q.into_iter().filter(|(k, _)| crate::params::GLOBAL_PARAMS.contains(&k.as_str())).collect()
            }
        });
        let broken = if pairs.is_none() { location.query_str().to_string() } else { String::new() };
        ShellLocation { path: location.path().to_string(), pairs, broken }
    }
}

/// The shell's part of the address, rendered again only when it changes:
/// a panel's own parameters changing (a jump through the URL, the panel's
/// writes of its state) leave the shell as it is. (The router's location
/// context would render the shell on every change of the address.)
#[hook]
fn use_shell_location() -> ShellLocation {
    let location = use_state_eq(ShellLocation::now);
    {
        let set = location.setter();
        use_effect_with((), move |_| {
            let history = yew_router::history::HashHistory::new(); // the router's own (one per page)
            set.set(ShellLocation::now());
            let listener = yew_router::history::History::listen(&history, move || set.set(ShellLocation::now()));
            move || drop(listener)
        });
    }
    (*location).clone()
}

#[component]
fn Shell() -> Html {
    let location = use_shell_location();
    let navigator = use_navigator().expect("inside a router");
    let route = Route::recognize(&location.path).unwrap_or(Route::NotFound);
    let pairs = location.pairs.clone();

    // The global parameters, read by their specs (`params::GLOBALS`); lang:
    // the URL's, else the remembered one, else English.
    let query = pairs.clone().unwrap_or_default();
    let (globals, mut global_notices) = crate::params::parse_globals(&query);
    let given = |name: &str| query.iter().any(|(k, _)| k == name);
    let refused = |notices: &[Notice], name: &str| {
        notices.iter().any(|n| n.param == name && !matches!(n.problem, Problem::Repeated { .. }))
    };
    // The remembered language, read from storage once (a synchronous,
    // disk-backed call) and kept in step with this page's own writes: the
    // shell renders on every URL change.
    let remembered = use_mut_ref(|| LocalStorage::get::<String>(LANG_KEY).ok().and_then(|s| Lang::from_code(&s)));
    let stored: Option<Lang> = *remembered.borrow();
    let url_lang =
        (given("lang") && !refused(&global_notices, "lang")).then(|| Lang::from_code(globals.choice("lang")));
    let lang = url_lang.flatten().unwrap_or(stored.unwrap_or_default());
    let present = globals.choice("present") == "1";
    let embed = globals.choice("embed") == "1";
    let deck = match globals.int("deck") {
        // Out of range: no deck (0), rather than a view the deck may not have.
        _ if refused(&global_notices, "deck") => None,
        0 => None,
        k => Some(k as usize),
    };
    let question = (given("q") && !refused(&global_notices, "q")).then(|| globals.int("q") as u64);
    let practice = crate::ui::kit::ctx::PracticeMode { on: globals.choice("practice") == "1", q: question };
    // Say what was used instead: the remembered language, no deck, no question.
    for n in &mut global_notices {
        match (n.param.as_str(), &mut n.problem) {
            ("lang", Problem::Malformed { used }) => *used = lang.code().into(),
            ("deck", p @ Problem::OutOfRange { .. }) => *p = Problem::Malformed { used: "0".into() },
            ("q", p @ (Problem::OutOfRange { .. } | Problem::Malformed { .. })) => {
                *p = Problem::Malformed { used: "—".into() }
            }
            _ => {}
        }
    }
    if route == Route::Home {
        // The start page's own parameters (only `broken`): anything else gets a notice.
        let (home, notices) = crate::params::parse(&crate::params::HOME_PARAMS, &query);
        global_notices.extend(notices);
        if given("broken") {
            let given = home.text("broken").to_string();
            global_notices.push(Notice { param: "#".into(), given, problem: Problem::BrokenLink });
        }
    }
    if pairs.is_none() {
        global_notices.push(Notice {
            param: "?".into(),
            given: location.broken.clone(),
            problem: Problem::BrokenQuery,
        });
    }
    // Remembered only when it changes: the shell renders on every URL change,
    // and a localStorage write is a synchronous disk-backed call.
    if url_lang.is_some() && stored != Some(lang) {
        let _ = LocalStorage::set(LANG_KEY, lang.code());
        *remembered.borrow_mut() = Some(lang);
    }

    // The texts of the language asked for may still be on their way (a
    // switch, or a link in the other language): the page stays in the one
    // it has until they are in, then shows the new one whole.
    let wanted = lang;
    let lang = if crate::i18n::is_loaded(wanted) { wanted } else { wanted.other() };
    let texts_arrived = use_force_update();
    let texts_failed = use_state(|| None::<Lang>);
    // Asking again for a language that failed (its button) tries again.
    let texts_attempt = use_state(|| 0u32);
    {
        let texts_failed = texts_failed.clone();
        use_effect_with((wanted, *texts_attempt), move |&(wanted, _)| {
            if !crate::i18n::is_loaded(wanted) {
                texts_failed.set(None);
                wasm_bindgen_futures::spawn_local(async move {
                    match crate::ui::kit::texts::load(wanted).await {
                        Ok(()) => texts_arrived.force_update(),
                        Err(problem) => {
                            web_sys::console::warn_1(&format!("warpscope: texts not loaded: {problem}").into());
                            texts_failed.set(Some(wanted));
                        }
                    }
                });
            }
        });
    }
    crate::ui::kit::texts::showing(&location.path, lang);
    let ctx = AppCtx { lang, asked_lang: wanted, present, embed, deck, practice };

    // Global notices stay up after the URL has been rewritten (same page),
    // until dismissed or the page changes. Kept at render time, not in an
    // effect: the panel's own rewrite can re-render the shell first.
    let sticky = use_mut_ref(|| (String::new(), Vec::<Notice>::new()));
    let refresh = use_force_update();
    let shown_notices = {
        let mut st = sticky.borrow_mut();
        let path = location.path.clone();
        if !global_notices.is_empty() {
            *st = (path, global_notices.clone());
        } else if st.0 != path {
            *st = (path, Vec::new());
        }
        st.1.clone()
    };
    let dismiss_globals = {
        let sticky = sticky.clone();
        Callback::from(move |_: ()| {
            sticky.borrow_mut().1.clear();
            refresh.force_update();
        })
    };

    // Reflect language and projector mode on <html>.
    use_effect_with((lang, present, embed), |&(lang, present, embed)| {
        let (lang, present) = (&lang, &present);
        if let Some(root) = crate::ui::kit::dom::window().document().and_then(|d| d.document_element()) {
            let _ = root.set_attribute("lang", if *lang == Lang::Zh { "zh-CN" } else { "en" });
            let _ = root.set_attribute("class", if *present { "present" } else { "" });
            let _ = root.class_list().toggle_with_force("embed", embed);
        }
        if let Some(doc) = crate::ui::kit::dom::window().document() {
            doc.set_title(&format!("{} · {}", tr(*lang, "app.name"), tr(*lang, "app.tagline")));
        }
    });

    // Change a global parameter, keeping the route and the panel's own
    // query as they are now: the panel's latest change is written first, and
    // the URL read at the moment of the change (not as it was when this
    // callback was made: a key handler may outlive a render).
    let set_global = {
        let navigator = navigator.clone();
        let route = route.clone();
        Callback::from(move |(key, value): (&'static str, Option<String>)| {
            crate::ui::kit::url_state::flush_pending();
            let now = yew_router::history::History::location(&yew_router::history::HashHistory::new());
            let route = Route::recognize(now.path()).unwrap_or_else(|| route.clone());
            let pairs = query_pairs(&now).unwrap_or_default();
            let mut q: Vec<(String, String)> = pairs.iter().filter(|(k, _)| k != key).cloned().collect();
            if let Some(v) = value {
                q.push((key.to_string(), v));
            }
            if key == "lang" {
                if let Some(v) = q.iter().find(|(k, _)| k == "lang") {
                    let _ = LocalStorage::set(LANG_KEY, v.1.clone());
                }
            }
            let _ = navigator.replace_with_query(&route, &q);
        })
    };
    let toggle_present = {
        let set_global = set_global.clone();
        Callback::from(move |_| set_global.emit(("present", (!present).then(|| "1".to_string()))))
    };
    let switch_lang = {
        let set_global = set_global.clone();
        let texts_attempt = texts_attempt.clone();
        // The button names the other language of the page as shown, and goes
        // there; while that language's texts are still loading (or failed)
        // it asks for them again.
        Callback::from(move |_: MouseEvent| {
            if lang != wanted {
                texts_attempt.set(*texts_attempt + 1);
            }
            set_global.emit(("lang", Some(lang.other().code().to_string())))
        })
    };

    // A new page starts at its top (a link from far down the practice
    // review, a deck's next view); a change of query on the same page keeps
    // the scroll.
    use_effect_with(location.path.clone(), |_| crate::ui::kit::dom::window().scroll_to_with_x_and_y(0.0, 0.0));

    // Key P toggles projector mode anywhere.
    {
        let toggle_present = toggle_present.clone();
        // Set up again whenever the page changes: the toggle keeps the
        // current route and query (not those of the page first shown).
        use_effect_with((present, route.clone(), pairs.clone()), move |_| {
            let doc = crate::ui::kit::dom::window().document().expect("document");
            let opts = gloo::events::EventListenerOptions::enable_prevent_default();
            let listener = EventListener::new_with_options(&doc, "keydown", opts, move |e| {
                let e = e.dyn_ref::<web_sys::KeyboardEvent>().expect("keydown is a KeyboardEvent");
                if (e.key() == "p" || e.key() == "P") && !key_belongs_to_control(e) {
                    e.prevent_default();
                    toggle_present.emit(());
                }
                if e.key() == "Escape" {
                    crate::ui::kit::tools::release_focus();
                }
            });
            // A slider or button used with the pointer gives the keys back to
            // the player when let go: a clicker's PageDown or Space never
            // changes a parameter or presses a preset again. Tab still
            // focuses them for the keyboard.
            let pointer = EventListener::new(&doc, "pointerup", |_| crate::ui::kit::tools::release_focus());
            move || {
                drop(listener);
                drop(pointer);
            }
        });
    }

    let body = match &route {
        Route::Home => html! { <Landing /> },
        Route::Deck => html! { <LazyPage key="deck" name="deck" load={pages::deck as LoadPage} /> },
        Route::Lecture => html! { <LazyPage key="lecture" name="lecture" load={pages::lecture as LoadPage} /> },
        Route::Practice => html! { <LazyPage key="practice" name="practice" load={pages::practice as LoadPage} /> },
        Route::Topic { id } => match crate::ui::kit::ctx::find(id).and_then(|m| Some((m, topics::view(id)?))) {
            Some((meta, load)) => html! { <crate::ui::kit::panel::LazyPanel key={meta.id} meta={meta} load={load} /> },
            None => html! { <NotFoundPage path={format!("/{id}")} /> },
        },
        Route::NotFound => html! { <NotFoundPage path={location.path.clone()} /> },
    };

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
                if let Some(failed) = (*texts_failed).filter(|&l| l == wanted && !crate::i18n::is_loaded(l)) {
                    <div class="notices" role="alert" data-testid="texts-failed">
                        { ctx.tf("strings.failed", &[("file", &crate::i18n::file_name(failed))]) }
                    </div>
                }
                <main class="site-main">{ body }</main>
                <footer class="site-footer"><p>{ ctx.t("app.footer") }</p></footer>
            </div>
        </ContextProvider<AppCtx>>
    }
}

/// The landing page: the lecture's parts, and under each the panels that exist.
#[component]
fn Landing() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let parts: Vec<Part> = Part::ALL.into_iter().filter(|p| TOPICS.iter().any(|t| t.part == *p)).collect();
    html! {
        <div class="landing">
            <h1>{ ctx.t("landing.title") }</h1>
            <p class="lead">{ ctx.t("landing.intro") }</p>
            <crate::ui::app::pages::lecture::LectureLinks />
            <ContinueLink />
            <DeckLine />
            { for parts.iter().map(|part| html! {
                <section class="landing-part">
                    <h2>{ ctx.t(part.key()) }</h2>
                    <div class="cards">
                        { for TOPICS.iter().filter(|t| t.part == *part).map(|&meta| {
                            let params: Vec<&str> = meta.params.iter().map(|p| p.name).collect();
                            html! {
                                <div class="card" data-topic={meta.id} data-params={params.join(",")} data-param-spec={meta.params_json()}>
                                    <Link<Route, Vec<(String, String)>> to={Route::Topic { id: meta.id.to_string() }}
                                        query={Some(ctx.globals())} classes="card-link">
                                        <span class="card-section">{ crate::ui::kit::ctx::section_line(&ctx, meta) }</span>
                                        <span class="card-title">{ ctx.t(&format!("topic.{}.title", meta.id)) }</span>
                                        <span class="card-summary">{ ctx.t(&format!("topic.{}.summary", meta.id)) }</span>
                                        <span class="card-open">{ ctx.t("landing.open") }{" →"}</span>
                                    </Link<Route, Vec<(String, String)>>>
                                </div>
                            }
                        }) }
                    </div>
                </section>
            }) }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct NotFoundProps {
    path: String,
}

#[component]
fn NotFoundPage(props: &NotFoundProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    html! {
        <div class="not-found" data-testid="not-found">
            <div class="notices" role="status" data-testid="notices">
                <p class="notice" data-notice-param="route">{ ctx.tf("notfound.body", &[("path", &props.path)]) }</p>
            </div>
            <h1>{ ctx.t("notfound.title") }</h1>
            <Landing />
        </div>
    }
}

/// The landing page's "continue with …" link to the last panel visited.
#[component]
pub fn ContinueLink() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let last: Option<String> = LocalStorage::get::<String>(crate::ui::kit::tools::LAST_KEY).ok();
    let Some(t) = last.as_deref().and_then(crate::ui::kit::ctx::find) else { return html! {} };
    let title = ctx.t(&format!("topic.{}.title", t.id));
    html! {
        <p class="continue" data-testid="continue">
            <Link<Route, Vec<(String, String)>> to={Route::Topic { id: t.id.to_string() }} query={Some(ctx.globals())}>
                { ctx.tf("landing.continue", &[("title", &title)]) }
            </Link<Route, Vec<(String, String)>>>
        </p>
    }
}

/// The landing page's way to the deck, for the lecturer: what a deck is
/// for, and the deck with its number of views.
#[component]
fn DeckLine() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let n = crate::ui::kit::tools::load(crate::ui::kit::tools::DECK_KEY).views.len();
    html! {
        <p class="landing-deck" data-testid="landing-deck">
            { ctx.t("landing.deck") }{" "}
            <Link<Route, Vec<(String, String)>> to={Route::Deck} query={Some(ctx.globals())} classes="deck-open">
                { ctx.tf("deck.open-n", &[("n", &n.to_string())]) }
            </Link<Route, Vec<(String, String)>>>
        </p>
    }
}
