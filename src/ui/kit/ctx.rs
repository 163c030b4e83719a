//! What every component may read, and nothing above it: the route, the
//! [`AppCtx`] context (language, projector, embed, deck view, practice), the
//! query helpers, and the topics of the app as handed in by [`crate::ui::app::start`]
//! (this layer never imports the registry: the panels, the tools and the
//! widgets sit below it).

use crate::i18n::{tr, trf, Lang};
use crate::topic::TopicMeta;
use wasm_bindgen::JsCast;
use yew_router::prelude::*;

#[derive(Clone, Routable, PartialEq, Debug)]
pub enum Route {
    #[at("/")]
    Home,
    #[at("/practice")]
    Practice,
    #[at("/deck")]
    Deck,
    #[at("/lecture")]
    Lecture,
    #[at("/:id")]
    Topic { id: String },
    #[not_found]
    #[at("/404")]
    NotFound,
}

/// What every component may read: the language, projector mode, embed mode
/// (`embed=1`: the stage only, for an iframe) and the deck view being
/// presented (`deck=k`, 1-based).
#[derive(Clone, PartialEq, Debug)]
pub struct AppCtx {
    /// The language shown.
    pub lang: Lang,
    /// The language the URL asks for: the one shown, except for the moment
    /// its texts are still loading. Links and URL updates carry this one.
    pub asked_lang: Lang,
    pub present: bool,
    pub embed: bool,
    pub deck: Option<usize>,
    /// Practice mode (`practice=1`) and its question (`q=<seed>`).
    pub practice: PracticeMode,
}

impl AppCtx {
    pub fn t(&self, key: &str) -> String {
        tr(self.lang, key)
    }
    pub fn tf(&self, key: &str, args: &[(&str, &str)]) -> String {
        trf(self.lang, key, args)
    }
    /// The global query pairs that every link and URL update carries along.
    pub fn globals(&self) -> Vec<(String, String)> {
        let mut g = vec![("lang".to_string(), self.asked_lang.code().to_string())];
        if self.present {
            g.push(("present".into(), "1".into()));
        }
        if self.embed {
            g.push(("embed".into(), "1".into()));
        }
        if let Some(k) = self.deck {
            g.push(("deck".into(), k.to_string()));
        }
        g.extend(self.practice.globals());
        g
    }
}

/// The query of the current location as pairs (`None` if it can't be decoded).
pub fn query_pairs(location: &Location) -> Option<Vec<(String, String)>> {
    location.query::<Vec<(String, String)>>().ok()
}

/// Should a key press be left to the element that has focus?
pub fn key_belongs_to_control(e: &web_sys::KeyboardEvent) -> bool {
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return true;
    }
    let key = e.key();
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| match el.tag_name().as_str() {
            "INPUT" | "SELECT" | "TEXTAREA" => true,
            // A focused button keeps Space and Enter; arrows, Home, End and P
            // still drive the player.
            "BUTTON" => key == " " || key == "Enter",
            _ => false,
        })
        .unwrap_or(false)
}

/// A topic's meta, compared by address.
#[derive(Clone, Copy)]
pub struct MetaRef(pub &'static TopicMeta);

impl PartialEq for MetaRef {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

thread_local! {
    /// The app's topics' metas, in lecture order (the registry's `METAS`,
    /// handed in once at start-up).
    static TOPICS: std::cell::Cell<&'static [&'static TopicMeta]> = const { std::cell::Cell::new(&[]) };
}

/// Hands in the app's topics' metas (at start-up, before the first render).
pub fn install_topics(all: &'static [&'static TopicMeta]) {
    TOPICS.with(|t| t.set(all));
}

/// The app's topics' metas, in lecture order.
pub fn topics() -> &'static [&'static TopicMeta] {
    TOPICS.with(|t| t.get())
}

/// The meta of the topic of route `id`, if there is one.
pub fn find(id: &str) -> Option<&'static TopicMeta> {
    topics().iter().copied().find(|t| t.id == id)
}

/// Is `id` a topic's route (what a deck may show)?
pub fn is_route(id: &str) -> bool {
    find(id).is_some()
}

/// `practice=1` and `q=<seed>`, carried by every link like `lang`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PracticeMode {
    pub on: bool,
    pub q: Option<u64>,
}

impl PracticeMode {
    pub fn globals(&self) -> Vec<(String, String)> {
        let mut g = Vec::new();
        if self.on {
            g.push(("practice".to_string(), "1".to_string()));
            if let Some(q) = self.q {
                g.push(("q".to_string(), q.to_string()));
            }
        }
        g
    }
}

/// The section line of a topic ("Notes §6.6, 7 · demo 04"), the same on its
/// landing card and its panel header.
pub fn section_line(ctx: &AppCtx, meta: &TopicMeta) -> String {
    let sections = meta.sections.join(", ");
    match meta.demo {
        // A topic with no companion demo (`#/llm`): the notes only, not "demo —".
        "" | "—" => ctx.tf("landing.section-notes", &[("s", &sections)]),
        demo => ctx.tf("landing.section", &[("s", &sections), ("d", demo)]),
    }
}
