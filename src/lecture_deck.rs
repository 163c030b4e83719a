//! The lecture as a built-in deck: one view per slide of CS336 Lecture 5 that
//! a panel can show, in the slides' order, each at the configuration the
//! slide discusses, with a note citing its slide (`#/lecture`); and the same
//! path for a student, cut into parts that each end with a practice question
//! and a summary of the part's key numbers (`#/lecture?study=1`).
//!
//! Pure data and logic: no web types, and no registry (the routes and the
//! parsing of a view's query are handed in by the caller, the texts come
//! through [`crate::i18n`]).

use crate::deck::{Deck, View};
use crate::i18n::Lang;
use serde::{Deserialize, Serialize};

/// One view of the lecture: the slide it follows, the panel's URL (as after
/// `#`), and the rows of `tests/lecture_numbers.md` whose numbers it shows
/// (each row's URL is this view's). Title and note: the translation keys
/// `lecture.view.<id>.title` and `lecture.view.<id>.note`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LectureView {
    pub id: &'static str,
    pub slide: u32,
    pub url: &'static str,
    pub numbers: &'static [&'static str],
}

impl LectureView {
    pub fn title_key(&self) -> String {
        format!("lecture.view.{}.title", self.id)
    }
    pub fn note_key(&self) -> String {
        format!("lecture.view.{}.note", self.id)
    }
    /// The route (`waves` of `/waves?n=…`).
    pub fn route(&self) -> &'static str {
        self.url.trim_start_matches('/').split('?').next().unwrap_or("")
    }
    /// The view's query as decoded pairs.
    pub fn query(&self) -> Vec<(String, String)> {
        query_pairs(self.url)
    }
}

const fn v(id: &'static str, slide: u32, url: &'static str, numbers: &'static [&'static str]) -> LectureView {
    LectureView { id, slide, url, numbers }
}

/// The FlashAttention paper's configuration (A100, batch 64, 16 heads, n = 1024).
const FLASH_PAPER: &str = "/flash?n=1024&d=64&heads=16&batch=64&dtype=fp16&sram=192&blocks=sram&order=kv&std=kernels&causal=1&gpu=a100&pass=fwd&step=0";

/// Every view, in the slides' order.
pub static VIEWS: &[LectureView] = &[
    // Part 1: how a GPU works (slides 2–13).
    v("s2", 2, "/waves?gpu=a100&n=1792&tm=256&tn=128&ref=1792", &["n7-1792"]),
    v("s7", 7, "/hardware?gpu=b200&dtype=bf16", &["n4-b200"]),
    v("s8", 8, "/hardware?gpu=h100&dtype=bf16", &["n2.1-sms", "n2.1-bf16", "n4-h100"]),
    v("s9", 9, "/hardware?gpu=a100&dtype=bf16", &["s-a100-128", "n4-a100"]),
    v("s10", 10, "/hardware?gpu=h100&dtype=bf16", &["n2.2"]),
    v("s11", 11, "/threads?n=1000&block=256", &["n3.1"]),
    v("s12", 12, "/occupancy?arch=sm90&threads=256&regs=32&smem=0", &["n6.7-256x32"]),
    v("s13", 13, "/gpu-vs-tpu?m=512&k=4096&n=4096&mxu=128&gpu=h100&tm=128&tn=128", &[]),
    v("s13-mxu", 13, "/systolic?rows=8&cols=8&k=8&dataflow=os", &["n9.2-8x8k8", "n9.2-reuse"]),
    // Part 2: performance, the roofline and the first tricks (slides 17–36).
    v("s17", 17, "/hardware?gpu=h100&dtype=fp32", &["n2.1-fp32"]),
    v("s18", 18, "/hardware?gpu=h100&dtype=bf16", &["s-growth"]),
    v("s20", 20, "/waves?gpu=a100&n=2560&tm=256&tn=128&ref=1792", &["n7-2560"]),
    v("s21-relu", 21, "/roofline?gpu=h100&dtype=bf16&op=relu&n=4096", &["n5.2-relu"]),
    v("s21-matmul", 21, "/roofline?gpu=h100&dtype=bf16&op=matmul&n=4096", &["n5.2-matmul"]),
    v("s23", 23, "/divergence?warps=1&cond=tid%3C4&then=2&else=2&after=0", &["s-diverge8"]),
    v("s26", 26, "/roofline?gpu=h100&dtype=fp32&op=relu&n=4096", &["n6.2-relu"]),
    v("s28", 28, "/fusion?expr=sin(x)%5E2%20%2B%20cos(x)%5E2&n=16777216&dtype=fp32", &["n6.3"]),
    v("s32", 32, "/recompute?depth=3&upstream=0", &["s6.4"]),
    v("s33", 33, "/recompute?depth=3&upstream=1", &["n6.4"]),
    v("s34", 34, "/coalescing?dtype=fp32&pattern=stride&stride=1&section=128", &["s6.5"]),
    v("s36", 36, "/coalescing?dtype=fp32&pattern=column&rowlen=1024&section=128", &[]),
    // Part 3: tiling and the matmul mystery (slides 39–45).
    v("s39", 39, "/tiling?n=256&tile=16&dtype=fp32&mode=tiled", &["n6.6-tiled16"]),
    v("s40", 40, "/tiling?n=256&tile=64&dtype=fp32&mode=tiled", &["n6.6-tiled64"]),
    v("s41", 41, "/quantization?n=257&tile=128&dtype=fp32&section=128", &[]),
    v("s42", 42, "/quantization?n=1025&tile=128&dtype=fp32&section=128", &["n6.6-q1025"]),
    v("s44", 44, "/quantization?n=1024&tile=128&dtype=fp32&section=128", &["n6.6-q1024"]),
    v("s45-1792", 45, "/waves?gpu=a100&n=1792&tm=256&tn=128&ref=1792", &["n7-1792"]),
    v("s45-1793", 45, "/waves?gpu=a100&n=1793&tm=256&tn=128&ref=1792", &["n7-1793", "s7-wave2"]),
    // Part 4: FlashAttention (slides 47–51).
    v("s47", 47, FLASH_PAPER, &["s-fa-gb", "n8.5-order"]),
    v("s48", 48, "/attention-memory?n=65536&d=128&dtype=bf16&stats=l", &["n8.1", "n8.5-65536"]),
    v(
        "s49",
        49,
        "/flash?n=256&d=64&bq=32&bk=32&causal=1&seed=1&pass=fwd&step=20&dtype=bf16&sram=228&order=kv",
        &["n8.3-exact"],
    ),
    v("s50", 50, "/online-softmax?x=1,3,2,5&block=2&step=2", &["n8.2"]),
    v("s51", 51, "/flash?n=64&d=64&bq=64&bk=32&causal=0&seed=1&pass=fwd&step=0&dtype=bf16&sram=228", &[]),
    v(
        "s51-bwd",
        51,
        "/flash?n=256&d=64&bq=32&bk=32&causal=1&seed=1&pass=bwd&step=0&dtype=bf16&sram=228",
        &["n8.4-exact"],
    ),
];

/// Slides of the digest with nothing a panel simulates (history, a fitted
/// scaling law, an overview, a recap): no view; docs/lecturing.md lists them.
pub const SKIPPED: &[u32] = &[5, 6, 22, 46];

/// A key number of a part, computed at its end by the panel's simulation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sum {
    /// Row `row` of the lecture table of the topic `route` (`Topic::lecture`,
    /// computed on the topic's default values).
    Row { route: &'static str, row: usize },
    /// One attention head of length `n` (d = 128, bf16): the standard
    /// implementation's S and P against FlashAttention's statistics.
    Attention { n: u64 },
}

/// A part of the study path: its views (`first..=last` of [`VIEWS`]), the
/// topic whose practice bank asks its question, and its summary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StudyPart {
    pub id: &'static str,
    pub first: usize,
    pub last: usize,
    pub practice: &'static str,
    pub summary: &'static [Sum],
}

impl StudyPart {
    /// Translation key of its heading.
    pub fn title_key(&self) -> String {
        format!("lecture.part.{}", self.id)
    }
    /// The question's seed: fixed per part, so a resumed study asks the same.
    pub fn seed(&self) -> u64 {
        PARTS.iter().position(|p| p.id == self.id).unwrap_or(0) as u64 * 7919 + 25
    }
}

pub static PARTS: &[StudyPart] = &[
    StudyPart {
        id: "gpu",
        first: 0,
        last: 8,
        practice: "threads",
        summary: &[Sum::Row { route: "hardware", row: 1 }, Sum::Row { route: "occupancy", row: 0 }],
    },
    StudyPart {
        id: "fast",
        first: 9,
        last: 20,
        practice: "roofline",
        summary: &[
            Sum::Row { route: "roofline", row: 0 },
            Sum::Row { route: "roofline", row: 3 },
            Sum::Row { route: "divergence", row: 0 },
            Sum::Row { route: "coalescing", row: 2 },
        ],
    },
    StudyPart {
        id: "tiling",
        first: 21,
        last: 27,
        practice: "waves",
        summary: &[
            Sum::Row { route: "tiling", row: 0 },
            Sum::Row { route: "tiling", row: 3 },
            Sum::Row { route: "quantization", row: 1 },
            Sum::Row { route: "waves", row: 1 },
        ],
    },
    StudyPart {
        id: "flash",
        first: 28,
        last: 33,
        practice: "online-softmax",
        summary: &[Sum::Attention { n: 4096 }, Sum::Attention { n: 65536 }],
    },
];

/// [`Sum::Attention`]'s figures: bytes of S and P (bf16) for one head of
/// length `n`, and FlashAttention's statistics (the row sums `l`).
pub fn attention_bytes(n: u64) -> (u64, u64) {
    use crate::sim::attention_memory::{flash_extra_bytes, standard_bytes};
    (standard_bytes(n, 2), flash_extra_bytes(n, false))
}

/// One stop of the study path: a view, or the check at the end of a part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    View(usize),
    Check(usize),
}

/// Every stop, in order: each part's views, then its check.
pub fn stops() -> Vec<Stop> {
    PARTS
        .iter()
        .enumerate()
        .flat_map(|(p, part)| (part.first..=part.last).map(Stop::View).chain(std::iter::once(Stop::Check(p))))
        .collect()
}

/// The part a view belongs to.
pub fn part_of(view: usize) -> usize {
    PARTS.iter().position(|p| (p.first..=p.last).contains(&view)).unwrap_or(0)
}

/// A student's progress, as kept in local storage.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Study {
    /// The stop reached (index into [`stops`]).
    #[serde(default)]
    pub stop: usize,
    /// Each part's answer once revealed.
    #[serde(default)]
    pub answers: Vec<Answered>,
}

/// A part's question, answered: the grade code (`right`, `close`, `wrong`,
/// `none`) and what was given (a number or the index of a choice).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answered {
    pub part: String,
    pub grade: String,
    #[serde(default)]
    pub number: Option<f64>,
    #[serde(default)]
    pub choice: Option<usize>,
}

impl Study {
    /// Kept inside the path (a stored value from an older deck is clamped).
    pub fn checked(mut self) -> Study {
        self.stop = self.stop.min(stops().len() - 1);
        self.answers.retain(|a| PARTS.iter().any(|x| x.id == a.part));
        self
    }
    pub fn answer(&self, part: &str) -> Option<&Answered> {
        self.answers.iter().find(|a| a.part == part)
    }
    pub fn answered(mut self, a: Answered) -> Study {
        self.answers.retain(|x| x.part != a.part);
        self.answers.push(a);
        self
    }
    /// Moved by `by` stops, inside the path.
    pub fn go(mut self, by: isize) -> Study {
        self.stop = (self.stop as isize + by).clamp(0, stops().len() as isize - 1) as usize;
        self
    }
    /// Anything to resume: a stop past the first or an answer.
    pub fn started(&self) -> bool {
        self.stop > 0 || !self.answers.is_empty()
    }

    /// A stored study as serde_json reads it, without serde_json
    /// (`crate::json`): for the start page, whose module carries none.
    pub fn read(text: &str) -> Option<Study> {
        use crate::json::Value;
        let v = crate::json::parse(text)?;
        let f = v.fields(&["stop", "answers"])?;
        let stop = match f[0] {
            None => 0,
            Some(v) => v.usize()?,
        };
        let answers = match f[1] {
            None => Vec::new(),
            Some(Value::Arr(items)) => items.iter().map(Answered::read).collect::<Option<_>>()?,
            Some(_) => return None,
        };
        Some(Study { stop, answers })
    }
}

impl Answered {
    fn read(v: &crate::json::Value) -> Option<Answered> {
        use crate::json::Value;
        let f = v.fields(&["part", "grade", "number", "choice"])?;
        Some(Answered {
            part: f[0]?.str()?.to_string(),
            grade: f[1]?.str()?.to_string(),
            number: match f[2] {
                None | Some(Value::Null) => None,
                Some(v) => Some(v.f64()?),
            },
            choice: match f[3] {
                None | Some(Value::Null) => None,
                Some(v) => Some(v.usize()?),
            },
        })
    }
}

/// The built-in deck, its texts from `t` (a translation lookup).
pub fn deck(t: &dyn Fn(&str) -> String) -> Deck {
    Deck {
        title: t("lecture.deck.title"),
        views: VIEWS
            .iter()
            .map(|v| View { url: v.url.to_string(), title: t(&v.title_key()), note: t(&v.note_key()) })
            .collect(),
    }
}

/// The built-in deck in `lang`, if `deck` is the built-in deck untouched in a
/// language whose texts `text` has (what a presented deck shows after a
/// language switch); any other deck as it is.
pub fn localized(deck: Deck, lang: Lang, text: &dyn Fn(Lang, &str) -> Option<String>) -> Deck {
    let built = |l: Lang| -> Option<Deck> {
        let title = text(l, "lecture.deck.title")?;
        let mut views = Vec::with_capacity(VIEWS.len());
        for v in VIEWS {
            views.push(View { url: v.url.to_string(), title: text(l, &v.title_key())?, note: text(l, &v.note_key())? });
        }
        Some(Deck { title, views })
    };
    let builtin = [Lang::En, Lang::Zh].into_iter().any(|l| built(l).as_ref() == Some(&deck));
    match (builtin, built(lang)) {
        (true, Some(d)) => d,
        _ => deck,
    }
}

/// A URL's query (after `?`) as decoded pairs.
pub fn query_pairs(url: &str) -> Vec<(String, String)> {
    let Some((_, q)) = url.split_once('?') else { return Vec::new() };
    q.split('&')
        .filter(|s| !s.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Percent-decoding (`+` stays a plus: the views write spaces as `%20`).
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(x) = hex {
                out.push(x);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// How many notices a panel's parser raises for a route and query (`None`:
/// no such panel).
pub type Notices<'a> = &'a dyn Fn(&str, &[(String, String)]) -> Option<usize>;

/// Problems of the deck against the app: views whose route is not a panel,
/// whose query the panel corrects (`notices(route, query)` gives how many
/// notices the panel's parser raises, `None` for no such panel), or whose
/// note does not cite its slide in a language (`t(lang, key)`).
pub fn problems(notices: Notices, t: &dyn Fn(Lang, &str) -> String) -> Vec<String> {
    let mut out = Vec::new();
    for v in VIEWS {
        match notices(v.route(), &v.query()) {
            None => out.push(format!("{}: {} is not a panel", v.id, v.url)),
            Some(0) => {}
            Some(n) => out.push(format!("{}: {} raises {n} notice(s)", v.id, v.url)),
        }
        let en = t(Lang::En, &v.note_key());
        let zh = t(Lang::Zh, &v.note_key());
        if !en.contains(&format!("Slide {}", v.slide)) && !en.contains(&format!("slide {}", v.slide)) {
            out.push(format!("{}: the English note does not cite slide {}", v.id, v.slide));
        }
        if !zh.contains(&format!("第{}页", v.slide)) {
            out.push(format!("{}: the Chinese note does not cite 第{}页", v.id, v.slide));
        }
        for (lang, s) in [("en", &en), ("zh", &zh)] {
            if s.chars().count() > crate::deck::MAX_TEXT {
                out.push(format!("{}: the {lang} note is longer than a deck keeps", v.id));
            }
        }
    }
    out
}

/// Texts of the lecture pages and its study path.
pub static STRINGS: crate::i18n::Texts = crate::texts!("lecture_deck.tsv");

/// The built-in views' titles and notes (`lecture.view.*`): a text file of
/// their own ([`TEXTS_PART`]), fetched where they are shown (the lecture's
/// page; a presented deck's bar; the projected start page's "Present the
/// lecture", before it stores the deck), not by every first visit (2.7 KB
/// of the shared file's 14.7 KB, gzip).
pub static VIEW_STRINGS: crate::i18n::Texts = crate::texts!("lecture_views.tsv");

/// The id of [`VIEW_STRINGS`]' text file (`strings.<lang>.lecture.json`).
pub const TEXTS_PART: &str = "lecture";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_follow_the_slides() {
        assert!(VIEWS.len() >= 25);
        assert!(VIEWS.windows(2).all(|w| w[0].slide <= w[1].slide), "in the slides' order");
        for (i, v) in VIEWS.iter().enumerate() {
            assert!(VIEWS[..i].iter().all(|u| u.id != v.id), "{} repeated", v.id);
            assert!(!SKIPPED.contains(&v.slide));
        }
        assert!(VIEWS.len() <= crate::deck::MAX_VIEWS);
    }

    #[test]
    fn parts_cover_every_view_once() {
        let mut next = 0;
        for p in PARTS {
            assert_eq!(p.first, next, "{}", p.id);
            assert!(p.last >= p.first);
            next = p.last + 1;
        }
        assert_eq!(next, VIEWS.len());
        assert_eq!(stops().len(), VIEWS.len() + PARTS.len());
        assert_eq!(stops().last(), Some(&Stop::Check(PARTS.len() - 1)));
        assert_eq!(part_of(0), 0);
        assert_eq!(part_of(VIEWS.len() - 1), PARTS.len() - 1);
    }

    #[test]
    fn queries_decode() {
        let v = VIEWS.iter().find(|v| v.id == "s28").unwrap();
        assert_eq!(v.route(), "fusion");
        assert!(v.query().contains(&("expr".to_string(), "sin(x)^2 + cos(x)^2".to_string())));
        let d = VIEWS.iter().find(|v| v.id == "s23").unwrap();
        assert!(d.query().contains(&("cond".to_string(), "tid<4".to_string())));
        assert_eq!(query_pairs("/waves"), vec![]);
        assert_eq!(decode("a%2"), "a%2");
    }

    #[test]
    fn study_progress_stays_inside_the_path() {
        let a = |part: &str, grade: &str| Answered {
            part: part.into(),
            grade: grade.into(),
            number: Some(1.5),
            choice: None,
        };
        let s = Study { stop: 9999, answers: vec![a("nope", "right")] }.checked();
        assert_eq!(s.stop, stops().len() - 1);
        assert!(s.answers.is_empty());
        let s = Study::default().go(-3);
        assert_eq!(s.stop, 0);
        assert!(!s.started());
        let s = s.go(2).answered(a("gpu", "close")).answered(a("gpu", "right"));
        assert_eq!(s.stop, 2);
        assert!(s.started());
        assert_eq!(s.answer("gpu").map(|a| a.grade.as_str()), Some("right"));
        assert_eq!(s.answers.len(), 1);
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Study>(&json).unwrap(), s);
        assert_eq!(serde_json::from_str::<Study>("{}").unwrap(), Study::default());
        let seeds: Vec<u64> = PARTS.iter().map(|p| p.seed()).collect();
        assert!(seeds.windows(2).all(|w| w[0] != w[1]));
    }

    #[test]
    fn the_deck_localizes_only_when_untouched() {
        let text = |l: Lang, k: &str| {
            STRINGS.get(k).or_else(|| VIEW_STRINGS.get(k)).map(|(en, zh)| {
                if l == Lang::En {
                    en.to_string()
                } else {
                    zh.to_string()
                }
            })
        };
        let en = deck(&|k| text(Lang::En, k).unwrap());
        let zh = deck(&|k| text(Lang::Zh, k).unwrap());
        assert_eq!(en.views.len(), VIEWS.len());
        assert_eq!(localized(en.clone(), Lang::Zh, &text), zh);
        assert_eq!(localized(zh.clone(), Lang::En, &text), en);
        let mut mine = en.clone();
        mine.views[0].note = "my own words".into();
        assert_eq!(localized(mine.clone(), Lang::Zh, &text), mine);
        // Without the views' texts (their file not in yet), the deck stays as it is.
        let shared = |l: Lang, k: &str| STRINGS.get(k).map(|(en, zh)| if l == Lang::En { en } else { zh }.to_string());
        assert_eq!(localized(en.clone(), Lang::Zh, &shared), en);
        // Without the other language's texts, the deck stays as it is.
        assert_eq!(localized(en.clone(), Lang::Zh, &|l, k| (l == Lang::En).then(|| text(l, k)).flatten()), en);
    }

    /// `Study::read` (the start page's, without serde_json) reads what
    /// serde_json reads.
    #[test]
    fn study_reads_as_serde_json_reads_it() {
        let a = |part: &str, number: Option<f64>, choice: Option<usize>| Answered {
            part: part.into(),
            grade: "close".into(),
            number,
            choice,
        };
        let written = [
            Study::default(),
            Study {
                stop: 7,
                answers: vec![a("gpu", Some(0.1), None), a("flash", None, Some(2)), a("x", Some(-1.5e-7), None)],
            },
            Study { stop: usize::MAX, answers: vec![a("tpu", Some(123456789.125), Some(0))] },
        ];
        let mut texts: Vec<String> = written.iter().map(|s| serde_json::to_string(s).unwrap()).collect();
        texts.extend(
            [
                r#"{}"#,
                r#"{"stop":3}"#,
                r#"{"stop":3,"other":{"deep":["\ud800"]}}"#,
                r#"{"stop":-1}"#,
                r#"{"stop":1.0}"#,
                r#"{"stop":null}"#,
                r#"{"stop":"1"}"#,
                r#"{"stop":1,"stop":2}"#,
                r#"{"answers":null}"#,
                r#"{"answers":[{"part":"gpu"}]}"#,
                r#"{"answers":[{"part":"gpu","grade":"right","number":null,"choice":null}]}"#,
                r#"{"answers":[{"part":"gpu","grade":"right","number":"1"}]}"#,
                r#"{"answers":[{"part":"gpu","grade":"right","choice":-2}]}"#,
                r#"{"answers":[{"part":"gpu","grade":"right","number":5}]}"#,
                r#"{"answers":[["gpu","wrong",2.5,1]]}"#,
                r#"{"answers":[["gpu","wrong",2.5,1,0]]}"#,
                r#"{"answers":[["gpu"]]}"#,
                r#"[4,[]]"#,
                r#"[4]"#,
                r#"[]"#,
                r#"[4,[],1]"#,
                r#"{"stop":2} trailing"#,
                r#"{"stop":2,}"#,
                "",
                "null",
                "42",
            ]
            .map(String::from),
        );
        for t in &texts {
            assert_eq!(Study::read(t), serde_json::from_str::<Study>(t).ok(), "{t}");
        }
    }
}
