//! A deck: an ordered list of views (a panel's URL with a title and a note)
//! that an instructor presents one after the other. Pure: kept as JSON in
//! the browser's storage, exported and imported as a JSON file, and shared
//! as one link whose query lists the views.

use crate::params::{Notice, ParamSpec, Problem};
use serde::{Deserialize, Serialize};

/// Most views a deck keeps (a link stays well under browsers' URL limits).
pub const MAX_VIEWS: usize = crate::params::MAX_DECK_VIEWS;
/// Longest title or note kept, in characters.
pub const MAX_TEXT: usize = 300;
/// Longest view URL a deck keeps, in bytes (every read checks it).
pub const MAX_URL: usize = 4000;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Deck {
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub views: Vec<View>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// The panel's route and query, as after `#` (`/systolic?rows=4&…`).
    pub url: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub note: String,
}

/// Why a deck file or link was not taken.
#[derive(Clone, Debug, PartialEq)]
pub enum DeckError {
    /// Not JSON of a deck (the parser's message).
    Json(String),
    /// A view whose URL is not a panel of this app.
    BadUrl(String),
    /// More views than [`MAX_VIEWS`].
    TooLong(usize),
    /// A file without a single view (importing it would empty the deck).
    Empty,
}

fn clip(s: &str) -> String {
    s.chars().take(MAX_TEXT).collect()
}

/// The global parameters a view never keeps: the presentation sets them.
/// `practice=1` (with its `q`) is kept on purpose: a view in practice mode is
/// a quiz slide (the class predicts, the lecturer reveals); any other
/// `practice` value, and a `q` without `practice=1`, are dropped.
const NOT_KEPT: [&str; 4] = ["lang", "present", "embed", "deck"];

/// A view's URL from a location's path and query pairs: the route and the
/// panel's own parameters, without language, projector, embed or deck (a
/// practice question is kept: see [`NOT_KEPT`]).
pub fn view_url(path: &str, query: &[(String, String)]) -> String {
    let quiz = query.iter().rev().find(|(k, _)| k == "practice").is_some_and(|(_, v)| v == "1");
    let kept: Vec<String> = query
        .iter()
        .filter(|(k, _)| kept_param(k, quiz))
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect();
    if kept.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", kept.join("&"))
    }
}

fn kept_param(key: &str, quiz: bool) -> bool {
    !NOT_KEPT.contains(&key) && (quiz || !matches!(key, "practice" | "q"))
}

/// A view URL without the global parameters a view does not keep (see
/// [`NOT_KEPT`]), the others left exactly as written.
pub fn tidy_url(url: &str) -> String {
    let Some((path, query)) = url.split_once('?') else { return url.to_string() };
    let pieces: Vec<(&str, String)> =
        query.split('&').filter(|s| !s.is_empty()).map(|s| (s, decode(s.split('=').next().unwrap_or("")))).collect();
    let value = |piece: &str| decode(piece.split_once('=').map_or("", |(_, v)| v));
    let quiz = pieces.iter().rev().find(|(_, k)| k == "practice").is_some_and(|(s, _)| value(s) == "1");
    let kept: Vec<&str> = pieces.iter().filter(|(_, k)| kept_param(k, quiz)).map(|(s, _)| *s).collect();
    if kept.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", kept.join("&"))
    }
}

/// Percent-decoding of a query key or value as a browser reads it (`+` is a
/// space; a broken escape or invalid UTF-8 is kept, lossily).
pub fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The routes a deck may show (the registry's topics, handed in by the
/// caller: this module knows no registry).
pub type Routes<'a> = &'a dyn Fn(&str) -> bool;

/// Is `url` a view this app can open: `/<route>` of one of `routes`,
/// optionally with a query, and nothing that leaves the page?
pub fn valid_url(url: &str, routes: Routes) -> bool {
    let path = url.split('?').next().unwrap_or("");
    let Some(id) = path.strip_prefix('/') else { return false };
    routes(id) && !url.contains('#') && !url.contains('\\') && url.len() <= MAX_URL
}

/// Why "+ Deck" refused a view (nothing was written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddRefused {
    /// The view's link is longer than a stored deck may hold.
    TooLong { len: usize, max: usize },
    /// Not a view this app can open again.
    BadUrl,
    /// The deck already holds [`MAX_VIEWS`] views.
    Full { max: usize },
    /// The stored deck could not be read: it is kept as it is, not
    /// overwritten (the deck page says why).
    Unreadable,
}

/// The deck with `view` added, or why not. Checked before anything is
/// written: a view the stored deck's own checks would refuse is never
/// stored, so one long link can never make the whole deck unreadable.
pub fn add_view(stored: &Stored, view: View, routes: Routes) -> Result<Deck, AddRefused> {
    if stored.unreadable.is_some() {
        return Err(AddRefused::Unreadable);
    }
    let url = tidy_url(&view.url);
    if url.len() > MAX_URL {
        return Err(AddRefused::TooLong { len: url.len(), max: MAX_URL });
    }
    if !valid_url(&url, routes) {
        return Err(AddRefused::BadUrl);
    }
    if stored.deck.views.len() >= MAX_VIEWS {
        return Err(AddRefused::Full { max: MAX_VIEWS });
    }
    let mut deck = stored.deck.clone();
    deck.views.push(View { url, title: clip(&view.title), note: clip(&view.note) });
    Ok(deck)
}

/// A deck as read back from the browser's storage: every view kept, those
/// that fail a check marked (never dropped: the next write would lose
/// them); a text that is not a deck at all kept out of reach of writes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stored {
    /// The views, the good ones tidied, the bad ones exactly as stored.
    pub deck: Deck,
    /// The views that fail a check: (index, why).
    pub bad: Vec<(usize, DeckError)>,
    /// The stored text is not a deck (the parser's message): nothing may
    /// overwrite it but an explicit Clear.
    pub unreadable: Option<String>,
}

impl Stored {
    /// A deck with nothing wrong (nothing stored yet, or an in-memory deck).
    pub fn clean(deck: Deck) -> Stored {
        Stored { deck, bad: Vec::new(), unreadable: None }
    }
    /// Why view `i` fails a check, if it does.
    pub fn problem(&self, i: usize) -> Option<&DeckError> {
        self.bad.iter().find(|(j, _)| *j == i).map(|(_, e)| e)
    }
}

/// Read a stored deck (`None`: nothing stored). Lenient where
/// [`Deck::checked`] is strict: a view that fails a check (too long a link,
/// a panel this build does not have, beyond [`MAX_VIEWS`]) is kept as
/// stored and marked.
pub fn read_stored(text: Option<&str>, routes: Routes) -> Stored {
    let Some(text) = text else { return Stored::default() };
    let raw = match serde_json::from_str::<Deck>(text) {
        Ok(d) => d,
        Err(e) => return Stored { unreadable: Some(e.to_string()), ..Stored::default() },
    };
    let mut bad = Vec::new();
    let title = clip(&raw.title);
    let views = raw
        .views
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            if i >= MAX_VIEWS {
                bad.push((i, DeckError::TooLong(i + 1)));
                v
            } else if !valid_url(&v.url, routes) {
                bad.push((i, DeckError::BadUrl(v.url.chars().take(80).collect())));
                v
            } else {
                View { url: tidy_url(&v.url), title: clip(&v.title), note: clip(&v.note) }
            }
        })
        .collect();
    Stored { deck: Deck { title, views }, bad, unreadable: None }
}

/// The first view's link of `deck` as [`read_stored`] reads it back once
/// stored (tidied if valid, else as it is), without the round trip through
/// serde_json: the start page presents the lecture's deck.
pub fn first_url_as_stored(deck: &Deck, routes: Routes) -> Option<String> {
    let v = deck.views.first()?;
    Some(if valid_url(&v.url, routes) { tidy_url(&v.url) } else { v.url.clone() })
}

/// How many views a stored deck has, as `read_stored(text, _).deck.views`
/// counts them (0 when nothing is stored or it is unreadable), without
/// serde_json (`crate::json`): for the start page, whose module carries none.
pub fn stored_len(text: Option<&str>) -> usize {
    use crate::json::Value;
    let string = |v: Option<&Value>, required: bool| v.map_or(!required, |v| v.str().is_some());
    let read = |text: &str| {
        let v = crate::json::parse(text)?;
        let f = v.fields(&["title", "views"])?;
        if !string(f[0], false) {
            return None;
        }
        match f[1] {
            None => Some(0),
            Some(Value::Arr(views)) => views
                .iter()
                .all(|v| {
                    v.fields(&["url", "title", "note"])
                        .is_some_and(|f| string(f[0], true) && string(f[1], false) && string(f[2], false))
                })
                .then_some(views.len()),
            Some(_) => None,
        }
    };
    text.and_then(read).unwrap_or(0)
}

impl Deck {
    /// Validate and tidy a deck read from a file, storage or a link.
    pub fn checked(mut self, routes: Routes) -> Result<Deck, DeckError> {
        if self.views.len() > MAX_VIEWS {
            return Err(DeckError::TooLong(self.views.len()));
        }
        if let Some(bad) = self.views.iter().find(|v| !valid_url(&v.url, routes)) {
            return Err(DeckError::BadUrl(bad.url.chars().take(80).collect()));
        }
        self.title = clip(&self.title);
        for v in &mut self.views {
            v.url = tidy_url(&v.url);
            v.title = clip(&v.title);
            v.note = clip(&v.note);
        }
        Ok(self)
    }

    /// Notices for what [`Deck::checked`] changed of `raw` (its tidy copy is
    /// `self`): a view's global parameters dropped, a text clipped.
    fn changes_from(&self, raw: &Deck) -> Vec<Notice> {
        let mut notices = Vec::new();
        let mut changed = |param: &str, given: &str, used: &str| {
            if given != used {
                let problem = Problem::Malformed { used: used.to_string() };
                notices.push(Notice { param: param.to_string(), given: given.to_string(), problem });
            }
        };
        changed("title", &raw.title, &self.title);
        for (v, r) in self.views.iter().zip(&raw.views) {
            changed("v", &r.url, &v.url);
            changed("t", &r.title, &v.title);
            changed("n", &r.note, &v.note);
        }
        notices
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn from_json(text: &str, routes: Routes) -> Result<Deck, DeckError> {
        read_json(text, routes).map(|(d, _)| d)
    }

    /// The deck as query pairs for one link: `title`, then `v`, `t`, `n`
    /// per view, in order.
    pub fn to_query(&self) -> Vec<(String, String)> {
        let mut q = Vec::new();
        if !self.title.is_empty() {
            q.push(("title".to_string(), self.title.clone()));
        }
        for v in &self.views {
            q.push(("v".into(), v.url.clone()));
            q.push(("t".into(), v.title.clone()));
            if !v.note.is_empty() {
                q.push(("n".into(), v.note.clone()));
            }
        }
        q
    }

    /// Read a deck from a link's query pairs (see [`Deck::to_query`] and,
    /// with the notices, [`read_link`]); `None` when the query lists no view.
    pub fn from_query(q: &[(String, String)], routes: Routes) -> Option<Result<Deck, DeckError>> {
        read_link(q, routes).deck
    }

    /// Move view `i` by `by` places (clamped to the deck).
    pub fn shift(&mut self, i: usize, by: isize) {
        if i >= self.views.len() {
            return;
        }
        let j = (i as isize + by).clamp(0, self.views.len() as isize - 1) as usize;
        let v = self.views.remove(i);
        self.views.insert(j, v);
    }
}

/// The parameters of a deck link (`#/deck?title=…&v=…&t=…&n=…`) that are
/// not per view; each `v` starts a view, and the `t` (title) and `n` (note)
/// after it belong to it ([`VIEW_PARAMS`]).
pub static LINK_PARAMS: [ParamSpec; 1] = [ParamSpec::text("title", MAX_TEXT, "", |_| Ok(())).optional()];
/// The per-view parameters of a deck link, in the order they are written.
pub const VIEW_PARAMS: [&str; 3] = ["v", "t", "n"];

/// A deck link, read: the deck it holds (`None`: no view) and a notice for
/// every value not taken as given (unknown or repeated parameters, a title or
/// note before any view, a text clipped, a view's global parameters dropped).
#[derive(Clone, Debug, PartialEq)]
pub struct LinkRead {
    pub deck: Option<Result<Deck, DeckError>>,
    pub notices: Vec<Notice>,
}

/// Read a deck link's query pairs (see [`Deck::to_query`]).
pub fn read_link(q: &[(String, String)], routes: Routes) -> LinkRead {
    let others: Vec<(String, String)> = q.iter().filter(|(k, _)| !VIEW_PARAMS.contains(&k.as_str())).cloned().collect();
    let (values, mut notices) = crate::params::parse(&LINK_PARAMS, &others);
    let mut raw = Deck { title: values.text("title").to_string(), views: Vec::new() };
    // Per view: how often its title and note were given.
    let mut given: Vec<[Vec<&str>; 2]> = Vec::new();
    for (k, v) in q {
        match (k.as_str(), raw.views.last_mut(), given.last_mut()) {
            ("v", _, _) => {
                raw.views.push(View { url: v.clone(), title: String::new(), note: String::new() });
                given.push([Vec::new(), Vec::new()]);
            }
            ("t", Some(view), Some(g)) => {
                view.title = v.clone();
                g[0].push(v);
            }
            ("n", Some(view), Some(g)) => {
                view.note = v.clone();
                g[1].push(v);
            }
            ("t" | "n", _, _) => notices.push(Notice { param: k.clone(), given: v.clone(), problem: Problem::Unknown }),
            _ => {}
        }
    }
    for (name, copies) in given.iter().flat_map(|g| [("t", &g[0]), ("n", &g[1])]) {
        if let [earlier @ .., last] = copies.as_slice() {
            if !earlier.is_empty() {
                let problem = Problem::Repeated { times: copies.len(), used: last.to_string() };
                notices.push(Notice { param: name.into(), given: earlier.join(", "), problem });
            }
        }
    }
    if raw.views.is_empty() {
        return LinkRead { deck: None, notices };
    }
    let deck = raw.clone().checked(routes);
    if let Ok(d) = &deck {
        notices.extend(d.changes_from(&raw));
    }
    LinkRead { deck: Some(deck), notices }
}

/// Read a deck file: the deck and a notice for every value not taken as
/// given. A file without views is refused ([`DeckError::Empty`]): it would
/// silently empty the deck it replaces.
pub fn read_json(text: &str, routes: Routes) -> Result<(Deck, Vec<Notice>), DeckError> {
    let raw = serde_json::from_str::<Deck>(text).map_err(|e| DeckError::Json(e.to_string()))?;
    if raw.views.is_empty() {
        return Err(DeckError::Empty);
    }
    let deck = raw.clone().checked(routes)?;
    let notices = deck.changes_from(&raw);
    Ok((deck, notices))
}

/// The hash (`#…`) that presents view `k` (1-based) of a deck.
pub fn present_hash(view: &View, k: usize, lang: &str) -> String {
    let sep = if view.url.contains('?') { '&' } else { '?' };
    format!("#{}{sep}present=1&deck={k}&lang={lang}", view.url)
}

/// Percent-encoding for a query key or value (what `URLSearchParams` reads).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Texts of the frame's lecture-hall tools, the deck and exports.
pub static STRINGS: crate::i18n::Texts = crate::texts!("deck.tsv");

#[cfg(test)]
mod tests {
    use super::*;

    /// Routes for the tests (the registry is not this module's business).
    const ROUTES: Routes = &|id| ["fusion", "threads", "waves", "systolic", "flash", "roofline"].contains(&id);
    use proptest::prelude::*;

    fn sample() -> Deck {
        Deck {
            title: "Lecture 5 — 脉动阵列".into(),
            views: vec![
                View {
                    url: "/systolic?rows=4&cols=4&k=6&cycle=0".into(), title: "4×4, K = 6".into(), note: "".into()
                },
                View { url: "/waves?n=1664".into(), title: "Waves".into(), note: "ask: why 2 waves?".into() },
            ],
        }
    }

    #[test]
    fn json_round_trip() {
        let d = sample();
        assert_eq!(Deck::from_json(&d.to_json(), ROUTES), Ok(d));
    }

    #[test]
    fn query_round_trip() {
        let d = sample();
        assert_eq!(Deck::from_query(&d.to_query(), ROUTES), Some(Ok(d)));
        assert_eq!(Deck::from_query(&[("x".into(), "1".into())], ROUTES), None);
    }

    #[test]
    fn rejects_foreign_and_broken_views() {
        for url in ["https://evil.example/", "/nope", "systolic", "/systolic#x", "//evil.example", "/\\evil"] {
            let d = Deck {
                title: String::new(),
                views: vec![View { url: url.into(), title: String::new(), note: String::new() }],
            };
            assert!(matches!(d.checked(ROUTES), Err(DeckError::BadUrl(_))), "{url}");
        }
        assert!(matches!(Deck::from_json("{\"views\": 3}", ROUTES), Err(DeckError::Json(_))));
        let long = Deck {
            title: String::new(),
            views: vec![View { url: "/waves".into(), title: String::new(), note: String::new() }; MAX_VIEWS + 1],
        };
        assert_eq!(long.checked(ROUTES), Err(DeckError::TooLong(MAX_VIEWS + 1)));
    }

    #[test]
    fn view_url_drops_presentation_globals() {
        let q: Vec<(String, String)> = [("rows", "4"), ("lang", "zh"), ("present", "1"), ("deck", "2"), ("k", "6")]
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(view_url("/systolic", &q), "/systolic?rows=4&k=6");
        assert_eq!(view_url("/waves", &[]), "/waves");
        let v = View { url: "/waves".into(), title: String::new(), note: String::new() };
        assert_eq!(present_hash(&v, 3, "zh"), "#/waves?present=1&deck=3&lang=zh");
    }

    #[test]
    fn views_drop_global_parameters_on_every_way_in() {
        for (given, kept) in [
            ("/threads?embed=1", "/threads"),
            ("/waves?n=3&lang=zh&present=1&deck=2", "/waves?n=3"),
            ("/waves?%6Cang=zh&n=3", "/waves?n=3"),
            // A practice question is kept, deliberately: a quiz slide.
            ("/waves?practice=1&q=5&lang=zh", "/waves?practice=1&q=5"),
            ("/waves?q=5&practice=0&n=2", "/waves?n=2"),
            ("/systolic?rows=4&cols=4", "/systolic?rows=4&cols=4"),
        ] {
            assert_eq!(tidy_url(given), kept, "{given}");
            // A link…
            let q: Vec<(String, String)> = vec![("v".into(), given.into()), ("t".into(), "x".into())];
            let read = read_link(&q, ROUTES);
            let deck = read.deck.unwrap().unwrap();
            assert_eq!(deck.views[0].url, kept);
            assert_eq!(read.notices.iter().any(|n| n.param == "v" && n.given == given), given != kept, "{given}");
            // … and a file.
            let json = format!("{{\"views\": [{{\"url\": \"{given}\"}}]}}");
            let (deck, notices) = read_json(&json, ROUTES).unwrap();
            assert_eq!(deck.views[0].url, kept);
            assert_eq!(notices.len(), usize::from(given != kept));
        }
        // "+ Deck" on a panel keeps the same.
        let pairs = |p: &[(&str, &str)]| p.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect::<Vec<_>>();
        assert_eq!(
            view_url("/waves", &pairs(&[("practice", "1"), ("q", "5"), ("embed", "1")])),
            "/waves?practice=1&q=5"
        );
        assert_eq!(view_url("/waves", &pairs(&[("q", "5"), ("n", "2")])), "/waves?n=2");
    }

    #[test]
    fn links_give_a_notice_for_every_value_not_taken() {
        let q = |p: &[(&str, &str)]| p.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect::<Vec<_>>();
        let read = read_link(&q(&[("zap", "1")]), ROUTES);
        assert_eq!(read.deck, None);
        assert_eq!(read.notices.len(), 1);
        assert_eq!((read.notices[0].param.as_str(), &read.notices[0].problem), ("zap", &Problem::Unknown));
        let long = "x".repeat(MAX_TEXT + 5);
        let read = read_link(
            &q(&[
                ("t", "orphan"),
                ("title", "a"),
                ("title", "b"),
                ("v", "/waves"),
                ("t", "one"),
                ("t", "two"),
                ("n", &long),
            ]),
            ROUTES,
        );
        let deck = read.deck.unwrap().unwrap();
        assert_eq!((deck.title.as_str(), deck.views[0].title.as_str()), ("b", "two"));
        assert_eq!(deck.views[0].note.chars().count(), MAX_TEXT);
        let mut named: Vec<&str> = read.notices.iter().map(|n| n.param.as_str()).collect();
        named.sort_unstable();
        assert_eq!(named, ["n", "t", "t", "title"], "{:?}", read.notices);
        // A link as the deck writes it reads back silently.
        let d = sample();
        let read = read_link(&d.to_query(), ROUTES);
        assert!(read.notices.is_empty(), "{:?}", read.notices);
        assert_eq!(read.deck, Some(Ok(d)));
    }

    #[test]
    fn a_file_without_views_is_refused() {
        for empty in ["[]", "{}", "{\"title\": \"t\", \"views\": []}"] {
            assert_eq!(read_json(empty, ROUTES), Err(DeckError::Empty), "{empty}");
        }
    }

    /// Issue 32: a view whose link is over the stored deck's own length
    /// check is refused before anything is written; the deck is unchanged.
    #[test]
    fn plus_deck_refuses_what_the_stored_deck_would_not_keep() {
        let stored = Stored::clean(sample());
        let long = format!("/fusion?x={}", "1%2C".repeat(1750));
        assert!(long.len() > MAX_URL);
        let view = |url: &str| View { url: url.into(), title: "t".into(), note: String::new() };
        assert_eq!(add_view(&stored, view(&long), ROUTES), Err(AddRefused::TooLong { len: long.len(), max: MAX_URL }));
        assert_eq!(add_view(&stored, view("/nope?x=1"), ROUTES), Err(AddRefused::BadUrl));
        // Accepted: appended, tidied; and the result reads back from storage whole.
        let d = add_view(&stored, view("/waves?n=3&lang=zh"), ROUTES).unwrap();
        assert_eq!((d.views.len(), d.views[2].url.as_str()), (3, "/waves?n=3"));
        assert_eq!(read_stored(Some(&d.to_json()), ROUTES), Stored::clean(d.clone()));
        // Full: refused, nothing dropped.
        let full = Stored::clean(Deck { title: String::new(), views: vec![view("/waves"); MAX_VIEWS] });
        assert_eq!(add_view(&full, view("/waves"), ROUTES), Err(AddRefused::Full { max: MAX_VIEWS }));
        // A stored text that is not a deck is never written over.
        let broken = read_stored(Some("{\"views\": [tru"), ROUTES);
        assert!(broken.unreadable.is_some() && broken.deck.views.is_empty());
        assert_eq!(add_view(&broken, view("/waves"), ROUTES), Err(AddRefused::Unreadable));
        assert_eq!(read_stored(None, ROUTES), Stored::default());
    }

    /// Issue 32: a stored deck with a view that fails a check (the 7,049
    /// character link an older "+ Deck" stored) is kept whole, the view
    /// marked; adding to it keeps every earlier view.
    #[test]
    fn a_stored_deck_that_fails_a_check_is_kept_and_marked() {
        let long = format!("/fusion?x={}", "1%2C".repeat(1750));
        let mut d = sample();
        d.views.insert(1, View { url: long.clone(), title: "softmax".into(), note: String::new() });
        d.views.push(View { url: "/gone?a=1".into(), title: "old".into(), note: String::new() });
        let json = d.to_json();
        // The strict read refuses it (as before) …
        assert!(Deck::from_json(&json, ROUTES).is_err());
        // … the stored read keeps every view, in order, the bad ones as stored.
        let st = read_stored(Some(&json), ROUTES);
        assert_eq!(st.deck.views.len(), 4);
        assert_eq!(st.deck.views[1].url, long);
        assert_eq!(st.bad.iter().map(|(i, _)| *i).collect::<Vec<_>>(), [1, 3]);
        assert!(matches!(st.problem(1), Some(DeckError::BadUrl(_))) && st.problem(0).is_none());
        let more =
            add_view(&st, View { url: "/threads".into(), title: String::new(), note: String::new() }, ROUTES).unwrap();
        assert_eq!(more.views.len(), 5);
        assert_eq!(&more.views[..4], &st.deck.views[..]);
        // Written back and read again: still all there, still marked.
        let again = read_stored(Some(&more.to_json()), ROUTES);
        assert_eq!((again.deck.views.len(), again.bad.len()), (5, 2));
        // Beyond MAX_VIEWS: kept and marked, not cut.
        let over = Deck {
            title: String::new(),
            views: vec![View { url: "/waves".into(), title: String::new(), note: String::new() }; MAX_VIEWS + 2],
        };
        let st = read_stored(Some(&over.to_json()), ROUTES);
        assert_eq!((st.deck.views.len(), st.bad.len()), (MAX_VIEWS + 2, 2));
    }

    #[test]
    fn shift_moves_within_bounds() {
        let mut d = sample();
        d.shift(0, 5);
        assert_eq!(d.views[1].title, "4×4, K = 6");
        d.shift(1, -9);
        assert_eq!(d, sample());
    }

    proptest! {
        #[test]
        fn any_text_round_trips(title in "\\PC{0,40}", t in "\\PC{0,40}", n in "\\PC{0,40}") {
            let d = Deck { title, views: vec![View { url: "/fusion".into(), title: t, note: n }] }.checked(ROUTES).unwrap();
            prop_assert_eq!(Deck::from_json(&d.to_json(), ROUTES), Ok(d.clone()));
            prop_assert_eq!(Deck::from_query(&d.to_query(), ROUTES), Some(Ok(d)));
        }
    }

    /// The start page's count of stored views is `read_stored`'s, for decks
    /// as the app writes them and for every way a stored text can be off.
    #[test]
    fn stored_len_counts_as_read_stored_does() {
        let any = |_: &str| true;
        let mut texts: Vec<String> = vec![
            r#"{"title":"t","views":[{"url":"/systolic","title":"a","note":""},{"url":"/flash"}]}"#.into(),
            r#"{"views":[]}"#.into(),
            r#"{}"#.into(),
            r#"{"title":"t"}"#.into(),
            r#"{"views":[{"url":"/x","extra":[1,{"y":null}]}],"other":"\ud800"}"#.into(),
            r#"["t",[{"url":"/a"},["/b","t","n"]]]"#.into(),
            r#"["t"]"#.into(),
            r#"[]"#.into(),
            r#"["t",[],3]"#.into(),
            r#"{"views":[{"title":"no url"}]}"#.into(),
            r#"{"views":[{"url":1}]}"#.into(),
            r#"{"views":[{"url":"/a","note":null}]}"#.into(),
            r#"{"views":{"url":"/a"}}"#.into(),
            r#"{"title":null}"#.into(),
            r#"{"title":"a","title":"b"}"#.into(),
            r#"{"views":[{"url":"/a","url":"/b"}]}"#.into(),
            r#"{"views":[{"url":"\ud800"}]}"#.into(),
            r#"{"views":[["/a","t","n","x"]]}"#.into(),
            r#"{"views":[]} x"#.into(),
            r#"{"views":[],}"#.into(),
            "not json".into(),
            "".into(),
            "null".into(),
            r#""a string""#.into(),
        ];
        let big = Deck {
            title: "T \"quoted\" 中文".into(),
            views: (0..MAX_VIEWS + 3)
                .map(|i| View { url: format!("/roofline?i={i}"), title: format!("v{i}"), note: "n\n".into() })
                .collect(),
        };
        texts.push(big.to_json());
        texts.push(serde_json::to_string(&big).unwrap());
        for t in &texts {
            assert_eq!(stored_len(Some(t)), read_stored(Some(t), &any).deck.views.len(), "{t}");
        }
        assert_eq!(stored_len(None), read_stored(None, &any).deck.views.len());
    }

    /// What `present` opens is what reading the stored deck back gives.
    #[test]
    fn first_url_as_stored_is_read_stored_s() {
        let routes = |r: &str| r == "systolic" || r == "flash";
        let deck = |url: &str| Deck {
            title: "t".into(),
            views: vec![View { url: url.into(), title: "a".into(), note: String::new() }],
        };
        for d in [
            Deck::default(),
            deck("/systolic?rows=4&rows=5"),
            deck("/flash?"),
            deck("/nope?x=1"),
            deck("not a url"),
            deck("/systolic?cols=3&present=1&deck=2"),
        ] {
            let back = read_stored(Some(&serde_json::to_string(&d).unwrap()), &routes);
            assert_eq!(first_url_as_stored(&d, &routes), back.deck.views.first().map(|v| v.url.clone()), "{d:?}");
        }
    }
}
