//! The shell's hooks: the global parameters read from the address, the
//! texts of the language shown, the notices that stay up, what the page
//! reflects on `<html>`, and the global changes (projector mode, language)
//! with their keys.

use super::location::ShellLocation;
use crate::i18n::{tr, Lang};
use crate::params::{Notice, Problem};
use crate::ui::kit::ctx::{key_belongs_to_control, query_pairs, PracticeMode, Route};
use crate::ui::kit::storage;
use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;
use yew_router::prelude::*;

const LANG_KEY: &str = "warpscope.lang";

/// The global parameters as the shell uses them, and the notices about
/// those it could not use.
pub struct Globals {
    /// The language asked for (its texts may still be on their way).
    pub wanted: Lang,
    pub present: bool,
    pub embed: bool,
    pub deck: Option<usize>,
    pub practice: PracticeMode,
    pub notices: Vec<Notice>,
}

/// The global parameters, read by their specs (`params::GLOBALS`); lang:
/// the URL's, else the remembered one, else English.
#[hook]
pub fn use_globals(location: &ShellLocation, route: &Route) -> Globals {
    let query = location.pairs.clone().unwrap_or_default();
    let (globals, mut global_notices) = crate::params::parse_globals(&query);
    let given = |name: &str| query.iter().any(|(k, _)| k == name);
    let refused = |notices: &[Notice], name: &str| {
        notices.iter().any(|n| n.param == name && !matches!(n.problem, Problem::Repeated { .. }))
    };
    // The remembered language, read from storage once (a synchronous,
    // disk-backed call) and kept in step with this page's own writes: the
    // shell renders on every URL change.
    let remembered = use_mut_ref(|| storage::get_str(LANG_KEY).and_then(|s| Lang::from_code(&s)));
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
    let practice = PracticeMode { on: globals.choice("practice") == "1", q: question };
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
    if *route == Route::Home {
        // The start page's own parameters (only `broken`): anything else gets a notice.
        let (home, notices) = crate::params::parse(&crate::params::HOME_PARAMS, &query);
        global_notices.extend(notices);
        if given("broken") {
            let given = home.text("broken").to_string();
            global_notices.push(Notice { param: "#".into(), given, problem: Problem::BrokenLink });
        }
    }
    if *route == Route::Lecture {
        // `#/lecture`'s own parameter (`study`): anything else, or a study
        // value it cannot use, gets a notice (issue 32).
        global_notices.extend(crate::params::parse(&crate::params::LECTURE_PARAMS, &query).1);
    }
    if location.pairs.is_none() {
        global_notices.push(Notice {
            param: "?".into(),
            given: location.broken.clone(),
            problem: Problem::BrokenQuery,
        });
    }
    // Remembered only when it changes: the shell renders on every URL change,
    // and a localStorage write is a synchronous disk-backed call.
    if url_lang.is_some() && stored != Some(lang) {
        let _ = storage::set_str(LANG_KEY, lang.code());
        *remembered.borrow_mut() = Some(lang);
    }
    Globals { wanted: lang, present, embed, deck, practice, notices: global_notices }
}

/// The language the page is shown in, and how its texts' loading stands.
pub struct Texts {
    /// The language shown: the one asked for once its texts are in, until
    /// then the other.
    pub lang: Lang,
    /// The language whose texts could not be loaded, if any.
    pub failed: Option<Lang>,
    /// Asking again for a language that failed (its button) tries again.
    pub attempt: UseStateHandle<u32>,
}

/// The texts of the language asked for may still be on their way (a
/// switch, or a link in the other language): the page stays in the one it
/// has until they are in, then shows the new one whole.
#[hook]
pub fn use_texts(wanted: Lang, path: &str) -> Texts {
    let lang = if crate::i18n::is_loaded(wanted) { wanted } else { wanted.other() };
    let texts_arrived = use_force_update();
    let texts_failed = use_state(|| None::<Lang>);
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
    crate::ui::kit::texts::showing(path, lang);
    Texts { lang, failed: *texts_failed, attempt: texts_attempt }
}

/// Global notices stay up after the URL has been rewritten (same page),
/// until dismissed or the page changes. Kept at render time, not in an
/// effect: the panel's own rewrite can re-render the shell first. Gives the
/// notices shown and their dismissal.
#[hook]
pub fn use_sticky_notices(path: &str, notices: &[Notice]) -> (Vec<Notice>, Callback<()>) {
    let sticky = use_mut_ref(|| (String::new(), Vec::<Notice>::new()));
    let refresh = use_force_update();
    let shown = {
        let mut st = sticky.borrow_mut();
        if !notices.is_empty() {
            *st = (path.to_string(), notices.to_vec());
        } else if st.0 != path {
            *st = (path.to_string(), Vec::new());
        }
        st.1.clone()
    };
    let dismiss = Callback::from(move |_: ()| {
        sticky.borrow_mut().1.clear();
        refresh.force_update();
    });
    (shown, dismiss)
}

/// Reflect language and projector mode on `<html>`, and start a new page
/// at its top (a link from far down the practice review, a deck's next
/// view); a change of query on the same page keeps the scroll.
#[hook]
pub fn use_page_state(lang: Lang, present: bool, embed: bool, path: &str) {
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
    use_effect_with(path.to_string(), |_| crate::ui::kit::dom::window().scroll_to_with_x_and_y(0.0, 0.0));
}

/// Change a global parameter, keeping the route and the panel's own
/// query as they are now: the panel's latest change is written first, and
/// the URL read at the moment of the change (not as it was when this
/// callback was made: a key handler may outlive a render).
#[hook]
pub fn use_set_global(route: &Route) -> Callback<(&'static str, Option<String>)> {
    let navigator = use_navigator().expect("inside a router");
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
                let _ = storage::set_str(LANG_KEY, &v.1);
            }
        }
        let _ = navigator.replace_with_query(&route, &q);
    })
}

/// Key P toggles projector mode anywhere (`toggle_present`); Escape and a
/// pointer let go give the keys back to the player. Set up again whenever
/// the page changes: the toggle keeps the current route and query (not
/// those of the page first shown).
#[hook]
pub fn use_present_key(
    toggle_present: Callback<()>,
    present: bool,
    route: &Route,
    pairs: &Option<Vec<(String, String)>>,
) {
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
