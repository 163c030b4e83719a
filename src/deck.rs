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
    routes(id) && !url.contains('#') && !url.contains('\\') && url.len() <= 4000
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
pub static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("frame.controls", "Controls", "控制项"),
    ("frame.loading", "Loading this panel…", "正在加载此面板…"),
    (
        "frame.load-failed",
        "This panel could not be loaded. Check the connection and try again; if the app was just updated, reload the page.",
        "无法加载此面板。请检查网络后重试；如果应用刚刚更新，请重新加载页面。"
    ),
    ("frame.retry", "Retry", "重试"),
    ("page.loading", "Loading…", "正在加载…"),
    (
        "page.load-failed",
        "This page could not be loaded. Check the connection and try again; if the app was just updated, reload the page.",
        "无法加载此页面。请检查网络后重试；如果应用刚刚更新，请重新加载页面。"
    ),
    ("frame.prev", "Previous panel: {title}", "上一个面板：{title}"),
    ("frame.next", "Next panel: {title}", "下一个面板：{title}"),
    ("frame.neighbours", "Panels in lecture order", "按讲课顺序的面板"),
    ("frame.deck-add", "+ Deck", "+ 幻灯"),
    ("frame.deck-add.title", "Add this view (all its settings) to your deck", "把当前画面（含全部设置）加入你的幻灯序列"),
    ("frame.deck-added", "Added: {n} in the deck.", "已加入：序列中共 {n} 个画面。"),
    ("frame.deck-open", "Open the deck", "打开幻灯序列"),
    ("frame.embed", "Embed", "嵌入"),
    ("frame.embed.title", "Copy an <iframe> of this view for slides (canvas, player and key figures only)", "复制本画面的 <iframe> 代码，用于幻灯片（只含画布、播放器和关键数字）"),
    ("frame.embed.copied", "Embed code (copied to the clipboard):", "嵌入代码（已复制到剪贴板）："),
    ("landing.continue", "Continue with {title} →", "继续：{title} →"),
    ("landing.deck", "Lecturing? Put views in a deck (“+ Deck” on any panel), then present them one after the other with a clicker:", "要讲课？把画面放进幻灯序列（任一面板上的“+ 幻灯”），再用翻页笔逐个放映："),
    ("deck.open-n", "the deck ({n} views) →", "幻灯序列（{n} 个画面）→"),
    ("frame.deck-open.n", "Deck ({n})", "幻灯序列（{n}）"),
    ("frame.deck-open.title", "Open the deck: rename, reorder and present its views", "打开幻灯序列：改名、排序并放映"),
    ("deck.title", "Deck", "幻灯序列"),
    ("deck.intro", "An ordered list of views to present: add any panel's current view with “+ Deck” in its header, then rename, annotate and reorder here. While presenting, PageDown (or a clicker) steps the panel's player to its end, then opens the next view. A view added in practice mode keeps its question: a quiz slide (the room predicts, R reveals); language, projector and embed are set by the presentation, never kept in a view.", "按顺序排列、用于讲课的画面：在任一面板标题栏点“+ 幻灯”加入当前画面，再在这里改名、加备注、调整顺序。放映时 PageDown（或翻页笔）先把面板播放到最后一步，再打开下一个画面。在练习模式下加入的画面保留其题目，成为一张小测幻灯（全场先预测，按 R 揭晓）；语言、投影与嵌入由放映决定，不保存在画面里。"),
    ("deck.name", "Deck title", "序列标题"),
    ("deck.empty", "No views yet: open a panel and press “+ Deck”.", "还没有画面：打开一个面板，点“+ 幻灯”。"),
    ("deck.view-title", "Title of the view", "画面标题"),
    ("deck.note", "Note (shown while presenting)", "备注（放映时显示）"),
    ("deck.up", "Move up", "上移"),
    ("deck.down", "Move down", "下移"),
    ("deck.remove", "Remove", "删除"),
    ("deck.present", "Present ▶", "放映 ▶"),
    ("deck.share", "Copy link", "复制链接"),
    ("deck.share.copied", "A link to the whole deck (copied to the clipboard); it opens in presentation:", "整个序列的链接（已复制到剪贴板），打开即放映："),
    ("deck.export", "Export JSON", "导出 JSON"),
    ("deck.import", "Import JSON…", "导入 JSON…"),
    ("deck.clear", "Clear", "清空"),
    ("deck.keys", "Presenting: PageDown/→ next step, then the next view · PageUp/← back · B or the full stop “.” (a clicker's “blank screen” key) skips to the next view, the comma “,” back to the previous one (End then PageDown does too) · P projector mode · Esc gives the keys back from a slider.", "放映时：PageDown/→ 下一步，播完后进入下一个画面 · PageUp/← 后退 · B 或句号“.”（翻页笔的“黑屏”键）直接跳到下一个画面，逗号“,”回到上一个画面（先按 End 再按 PageDown 也可以）· P 投影模式 · Esc 让滑块交还按键。"),
    ("deck.link-held", "Views in this link's deck: {n}. It was not presented at once because of the notices above.", "这个链接包含 {n} 个画面的幻灯序列；由于上面的提示，没有直接放映。"),
    ("deck.link-present", "Present the linked deck ▶", "放映链接中的序列 ▶"),
    ("deck.progress", "View {k} of {n}", "第 {k} / {n} 个画面"),
    ("deck.prev", "Previous view", "上一个画面"),
    ("deck.next", "Next view", "下一个画面"),
    ("deck.prev.title", "Previous view (the comma key “,”)", "上一个画面（逗号键“,”）"),
    ("deck.next.title", "Next view, wherever the player is (key B or the full stop “.”)", "下一个画面，无论播放到哪里（按键 B 或句号“.”）"),
    ("deck.keep", "Keep this deck", "保存此序列"),
    ("deck.keep.title", "Make this deck your own (replaces the deck in the editor)", "设为你自己的序列（替换编辑器中的序列）"),
    ("deck.error.json", "This is not a deck file: {why}", "这不是幻灯序列文件：{why}"),
    ("deck.error.url", "A view is not a panel of this site: {url}", "有一个画面不是本站的面板：{url}"),
    ("canvas.save-figures", "PNG + figures", "PNG + 数字"),
    ("canvas.save-figures.title", "Save the drawing with the panel's title and key figures, for a slide", "保存画面连同标题和关键数字，用于幻灯片"),
    ("export.gif", "GIF…", "GIF…"),
    ("export.from", "From step", "起始步"),
    ("export.to", "to", "到"),
    ("export.frames", "Frames", "帧数"),
    ("export.scale", "Scale", "缩放"),
    ("export.start", "Export GIF", "导出 GIF"),
    ("export.cancel", "Cancel", "取消"),
    ("export.done", "Saved: {frames} frames, {kb} kB.", "已保存：{frames} 帧，{kb} kB。"),
    ("deck.error.long", "{n} views; a deck keeps at most {max}.", "共 {n} 个画面；一个序列最多 {max} 个。"),
    ("deck.error.empty", "This file holds no views: your deck is unchanged.", "这个文件里没有画面：你的序列保持不变。"),
];

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
}
