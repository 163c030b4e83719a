//! Texts in two languages: the lookup ([`tr`], [`trf`], whose `{name}`
//! placeholders are filled in), the shared vocabulary (chrome, notices, the
//! player, parameters several topics use), and the text files the wasm build
//! loads. Every other table (each topic's, each practice bank's, the deck's)
//! is handed in by the registry ([`install_tables`]); this module knows none
//! of them.

use crate::params::{Notice, Problem};
use crate::sim::{Metric, Unit};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }
    pub fn from_code(s: &str) -> Option<Lang> {
        match s {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }
    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::Zh,
            Lang::Zh => Lang::En,
        }
    }
}

/// A table of texts in a file beside its owner (`texts.tsv`,
/// `practice.tsv`, …), one text a line: `key<TAB>English<TAB>中文`; blank
/// lines and lines starting with `#` are comments. Natively (the tests, the
/// panel table of docs/panels.md and the generator of the text files) it is
/// the file's contents. In
/// the wasm build it is empty: the browser loads the texts of the language
/// shown, `strings.<lang>.json`, written by the native binary at build time
/// (`warpscope strings <dir>`, a trunk hook), so that a page carries one
/// language, not both, and no text is compiled into the code.
#[derive(Clone, Copy, Debug)]
pub struct Texts(pub &'static str);

impl Texts {
    /// The table's texts in file order. A line that is not three fields
    /// stops with its line number (natively only: every test and the text
    /// hook read every table).
    pub fn entries(self) -> Vec<Entry> {
        let mut out = Vec::new();
        for (n, line) in self.0.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let mut fields = line.split('\t');
            match (fields.next(), fields.next(), fields.next(), fields.next()) {
                (Some(k), Some(en), Some(zh), None) if !k.is_empty() => out.push((k, en, zh)),
                _ => panic!("text table line {}: want key<TAB>English<TAB>中文, got {line:?}", n + 1),
            }
        }
        out
    }

    /// The text of `key` in this table (English, 中文); reads the whole
    /// table (for tests and tools: the app looks texts up through [`tr`]).
    pub fn get(self, key: &str) -> Option<(&'static str, &'static str)> {
        self.entries().into_iter().find(|e| e.0 == key).map(|e| (e.1, e.2))
    }

    fn leak(self) -> &'static [Entry] {
        Box::leak(self.entries().into_boxed_slice())
    }
}

/// A [`Texts`] table from a file beside the invoking source file.
#[cfg(not(target_arch = "wasm32"))]
#[macro_export]
macro_rules! texts {
    ($file:literal) => {
        $crate::i18n::Texts(include_str!($file))
    };
}
/// See the native definition: in the wasm build a table is empty.
#[cfg(target_arch = "wasm32")]
#[macro_export]
macro_rules! texts {
    ($file:literal) => {
        $crate::i18n::Texts("")
    };
}

/// Texts needed before or without the text files: the panic card (the app's
/// state is gone, and it shows both languages) and the message shown when a
/// text file can't be loaded. Compiled into every build.
pub static RESIDENT: &[(&str, &str, &str)] = &[
    ("panic.title", "Something went wrong", "出错了"),
    (
        "panic.body",
        "Warpscope hit an internal error and stopped. Please report the link you were on.",
        "Warpscope 遇到内部错误并已停止。请报告出错时的链接。",
    ),
    ("panic.link", "Back to the start page", "返回首页"),
    (
        "strings.failed",
        "The texts could not be loaded ({file}). Check the connection and reload the page.",
        "无法加载界面文字（{file}）。请检查网络后重新加载页面。",
    ),
    ("strings.reload", "Reload", "重新加载"),
];

/// The shared vocabulary: app chrome, notices, the player, and parameters,
/// choices and metrics used by more than one topic (`i18n.tsv`). Each
/// topic's own texts are in its folder (`topics/<id>/texts.tsv`, its
/// questions' in `practice.tsv`).
static TABLE: Texts = crate::texts!("i18n.tsv");

/// [`TABLE`], read once.
fn shared() -> &'static [Entry] {
    static READ: std::sync::OnceLock<&'static [Entry]> = std::sync::OnceLock::new();
    READ.get_or_init(|| TABLE.leak())
}

/// (key, English, 中文): one text of a table.
pub type Entry = (&'static str, &'static str, &'static str);

/// The tables of the rest of the app (each topic's, practice's, the deck's),
/// handed in once by whoever assembles the app (`topics::install_texts`):
/// this module knows none of them. Empty in the wasm build, whose texts
/// come from the text files.
struct Handed {
    tables: Vec<&'static [Entry]>,
    index: std::collections::HashMap<&'static str, &'static Entry>,
}

#[cfg(not(test))]
static HANDED: std::sync::OnceLock<&'static Handed> = std::sync::OnceLock::new();
#[cfg(test)]
thread_local! {
    /// Per test (each runs on its own thread): a test that needs the app's
    /// texts installs them itself, so none passes by another's side effect.
    static HANDED: std::cell::Cell<Option<&'static Handed>> = const { std::cell::Cell::new(None) };
}

fn handed() -> Option<&'static Handed> {
    #[cfg(not(test))]
    return HANDED.get().copied();
    #[cfg(test)]
    return HANDED.with(|h| h.get());
}

/// Hands in the app's tables (the first call counts; later ones are ignored).
pub fn install_tables(tables: Vec<Texts>) {
    if handed().is_some() {
        return;
    }
    let tables: Vec<&'static [Entry]> = tables.into_iter().map(Texts::leak).collect();
    let index = [RESIDENT, shared()]
        .into_iter()
        .chain(tables.iter().copied())
        .flat_map(|t| t.iter())
        .map(|e| (e.0, e))
        .collect();
    let h: &'static Handed = Box::leak(Box::new(Handed { tables, index }));
    #[cfg(not(test))]
    let _ = HANDED.set(h);
    #[cfg(test)]
    HANDED.with(|c| c.set(Some(h)));
}

/// Every table: the always-resident one, the shared one, then those handed in.
pub fn tables() -> impl Iterator<Item = &'static [Entry]> {
    [RESIDENT, shared()].into_iter().chain(handed().into_iter().flat_map(|h| h.tables.iter().copied()))
}

fn lookup(key: &str) -> Option<&'static Entry> {
    match handed() {
        Some(h) => h.index.get(key).copied(),
        // Before the tables are handed in: this module's own.
        None => [RESIDENT, shared()].into_iter().flat_map(|t| t.iter()).find(|e| e.0 == key),
    }
}

/// The texts of one language loaded from its files: the shared one
/// (`strings.<lang>.json`: the app's chrome, the start page, every text
/// used by more than one page) and a part per topic (`strings.<lang>.<id>.json`:
/// the texts only that topic's panel and its practice show, see
/// [`own_key`]), each loaded when first needed (issue 24: a page downloads
/// the texts it shows). Texts live as long as the page.
#[derive(Default)]
struct Loaded {
    shared: bool,
    parts: Vec<String>,
    map: std::collections::HashMap<&'static str, &'static str>,
}

static LOADED: std::sync::Mutex<[Option<Loaded>; 2]> = std::sync::Mutex::new([None, None]);

fn with_loaded<R>(lang: Lang, f: impl FnOnce(Option<&Loaded>) -> R) -> R {
    let guard = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    f(guard[lang as usize].as_ref())
}

/// Can `lang` be shown: its shared file is loaded (natively the tables
/// always are)?
pub fn is_loaded(lang: Lang) -> bool {
    cfg!(not(target_arch = "wasm32")) || with_loaded(lang, |l| l.is_some_and(|l| l.shared))
}

/// Are topic `id`'s own texts in `lang` loaded (natively always)?
pub fn has_part(lang: Lang, id: &str) -> bool {
    cfg!(not(target_arch = "wasm32")) || with_loaded(lang, |l| l.is_some_and(|l| l.parts.iter().any(|p| p == id)))
}

/// The name of a language's shared text file, next to `index.html`.
pub fn file_name(lang: Lang) -> String {
    format!("strings.{}.json", lang.code())
}

/// The name of topic `id`'s text file in `lang`, next to `index.html`.
pub fn part_file_name(lang: Lang, id: &str) -> String {
    format!("strings.{}.{id}.json", lang.code())
}

/// Is `key`, of topic `id`'s tables, that topic's own: in its namespace
/// (`<id>.…`, `param.<id>.…`, `metric.<id>.…`, `choice.<id>.…`,
/// `practice.<id>.…`), so shown by its panel and practice only? Its other
/// keys (`param.rows`, `metric.cycles`, `topic.<id>.title`, …) serve other
/// pages too and go into the shared file.
pub fn own_key(id: &str, key: &str) -> bool {
    let rest =
        |prefix: &str| key.strip_prefix(prefix).and_then(|k| k.strip_prefix(id)).is_some_and(|k| k.starts_with('.'));
    key.strip_prefix(id).is_some_and(|k| k.starts_with('.'))
        || ["param.", "metric.", "choice.", "practice."].iter().any(|p| rest(p))
}

/// The fingerprint of the sources this binary was built from (`build.rs`),
/// written into the text files as [`BUILD_KEY`].
pub const BUILD: &str = env!("WARPSCOPE_BUILD");
pub const BUILD_KEY: &str = "_build";
/// What [`install`] says of a file of another build (the page's own build is
/// older or newer than the server's: see `ui::kit::texts::initial`).
pub const OTHER_BUILD: &str = "texts of another build";
/// In the shared file: the topics that have a file of their own, by id,
/// comma-separated (the service worker caches them all).
pub const PARTS_KEY: &str = "_parts";
/// In a topic's file: its id.
pub const PART_KEY: &str = "_part";

/// Adopts one of a language's text files (a JSON object of key → text, with
/// the build's fingerprint; the shared one, or a topic's with [`PART_KEY`]).
/// A file of another build is refused; a file already adopted changes
/// nothing.
pub fn install(lang: Lang, json: &str) -> Result<(), String> {
    // Read without serde_json (src/json.rs): this is the JSON a first paint reads.
    let Some(crate::json::Value::Obj(pairs)) = crate::json::parse(json) else { return Err("not a JSON object".into()) };
    let mut map = std::collections::HashMap::with_capacity(pairs.len());
    for (k, v) in pairs {
        match (k, v.str()) {
            (Some(k), Some(v)) => map.insert(k, v.to_string()),
            _ => return Err("not a JSON object of texts".into()),
        };
    }
    match map.remove(BUILD_KEY) {
        Some(b) if b == BUILD => {}
        _ => return Err(OTHER_BUILD.into()),
    }
    map.remove(PARTS_KEY);
    let part = map.remove(PART_KEY);
    if map.is_empty() {
        return Err("no texts".into());
    }
    let mut guard = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    let loaded = guard[lang as usize].get_or_insert_with(Loaded::default);
    let done = match &part {
        Some(id) => loaded.parts.contains(id),
        None => loaded.shared,
    };
    if !done {
        for (k, v) in map {
            let k: &'static str = Box::leak(k.into_boxed_str());
            loaded.map.entry(k).or_insert_with(|| Box::leak(v.into_boxed_str()));
        }
        match part {
            Some(id) => loaded.parts.push(id),
            None => loaded.shared = true,
        }
    }
    Ok(())
}

/// The texts of `lang` that go into a file: every key of every table with
/// its text (the resident ones aside: they are compiled in); those of
/// topic `part` that are its own ([`own_key`]), or with `None` every other.
#[cfg(not(target_arch = "wasm32"))]
fn file_map(
    lang: Lang,
    part: Option<&str>,
    parts: &[(&'static str, Vec<Texts>)],
) -> std::collections::BTreeMap<&'static str, &'static str> {
    let owners: std::collections::HashMap<&str, &str> = parts
        .iter()
        .flat_map(|(id, tables)| tables.iter().flat_map(|t| t.entries()).map(move |e| (e.0, *id)))
        .filter(|(key, id)| own_key(id, key))
        .collect();
    let owner = |key: &str| owners.get(key).copied();
    tables()
        .flat_map(|t| t.iter())
        .filter(|(k, ..)| !RESIDENT.iter().any(|r| r.0 == *k))
        .filter(|(k, ..)| owner(k) == part)
        .map(|(k, en, zh)| (*k, if lang == Lang::En { *en } else { *zh }))
        .collect()
}

/// A language's shared text file (sorted by key): every text but the
/// topics' own, the build's fingerprint and the topics with a file of their
/// own. `parts`: each topic's id and tables (`topics::text_parts`).
/// Natively only: the wasm build has no tables.
#[cfg(not(target_arch = "wasm32"))]
pub fn file_contents(lang: Lang, parts: &[(&'static str, Vec<Texts>)]) -> String {
    let mut map = file_map(lang, None, parts);
    map.insert(BUILD_KEY, BUILD);
    let ids: Vec<&str> = parts.iter().map(|(id, _)| *id).collect();
    let ids = ids.join(",");
    map.insert(PARTS_KEY, &ids);
    serde_json::to_string(&map).expect("strings serialise")
}

/// Topic `id`'s text file in `lang`: its own texts, the fingerprint, its id.
#[cfg(not(target_arch = "wasm32"))]
pub fn part_file_contents(lang: Lang, id: &'static str, parts: &[(&'static str, Vec<Texts>)]) -> String {
    let mut map = file_map(lang, Some(id), parts);
    map.insert(BUILD_KEY, BUILD);
    map.insert(PART_KEY, id);
    serde_json::to_string(&map).expect("strings serialise")
}

/// The text of `key` in `lang`, from the loaded file, else the tables.
pub(crate) fn text(lang: Lang, key: &str) -> Option<&'static str> {
    if let Some(s) = with_loaded(lang, |l| l.and_then(|l| l.map.get(key).copied())) {
        return Some(s);
    }
    lookup(key).map(|(_, en, zh)| if lang == Lang::En { *en } else { *zh })
}

/// Is there a text for `key`?
pub fn has(key: &str) -> bool {
    lookup(key).is_some()
        || [Lang::En, Lang::Zh].into_iter().any(|l| with_loaded(l, |l| l.is_some_and(|l| l.map.contains_key(key))))
}

/// A text that can't be shown as meant (a missing key, an unfilled
/// `{placeholder}`): in the browser a console error, which every end-to-end
/// test fails on; in native tests a panic. Never a panic in the app.
fn report(problem: String) {
    #[cfg(target_arch = "wasm32")]
    web_sys::console::error_1(&format!("warpscope i18n: {problem}").into());
    #[cfg(all(test, not(target_arch = "wasm32")))]
    panic!("i18n: {problem}");
    #[cfg(all(not(test), not(target_arch = "wasm32")))]
    let _ = problem;
}

/// The text of `key` in `lang`; a missing key shows itself and is reported
/// (see [`report`]), never panics.
pub fn tr(lang: Lang, key: &str) -> String {
    match text(lang, key) {
        Some(s) => s.to_string(),
        None => {
            report(format!("missing key {key}"));
            key.to_string()
        }
    }
}

impl crate::message::Message {
    /// The text in `lang`, its placeholders filled in (through [`trf`]).
    pub fn render(&self, lang: Lang) -> String {
        let args: Vec<(&str, &str)> = self.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        trf(lang, self.key, &args)
    }
}

/// The `{name}` placeholders of a template, in order.
pub fn placeholders(s: &str) -> Vec<&str> {
    s.split('{')
        .skip(1)
        .filter_map(|p| p.split_once('}'))
        .map(|(h, _)| h)
        .filter(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .collect()
}

/// `<kind>.<topic>.<name>` if the table has it, else `<kind>.<name>`: how a
/// panel gives a shared parameter or metric its own label.
pub fn topic_key(kind: &str, topic: &str, name: &str) -> String {
    let specific = format!("{kind}.{topic}.{name}");
    if has(&specific) {
        specific
    } else {
        format!("{kind}.{name}")
    }
}

/// [`tr`] with `{name}` placeholders filled in: the one checked path for
/// text with arguments. A placeholder of the template without an argument is
/// reported (see [`report`]) — "load A tile ({ti}, 3)" never ships silently.
pub fn trf(lang: Lang, key: &str, args: &[(&str, &str)]) -> String {
    let template = tr(lang, key);
    let missing: Vec<&str> =
        placeholders(&template).into_iter().filter(|h| !args.iter().any(|(name, _)| name == h)).collect();
    if !missing.is_empty() {
        report(format!("{key}: no value for {{{}}}", missing.join("}, {")));
    }
    // One pass, so a value that happens to contain `{name}` is left alone.
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template.as_str();
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match after.split_once('}').and_then(|(h, tail)| args.iter().find(|(n, _)| *n == h).map(|(_, v)| (v, tail))) {
            Some((value, tail)) => {
                out.push_str(value);
                rest = tail;
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `s` safe inside HTML text and double-quoted attributes: for the few
/// places that build markup as a string (texts come from a file, values
/// from the URL).
pub fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// How a metric is shown to a person (the raw value goes in `data-value`).
pub fn format_metric(m: &Metric) -> String {
    match m.unit {
        Unit::Count => crate::format::grouped(m.value.max(0.0) as u64),
        Unit::Percent => {
            let pct = 100.0 * m.value;
            if (pct - pct.round()).abs() < 1e-9 {
                format!("{pct:.0}%")
            } else {
                format!("{pct:.1}%")
            }
        }
        Unit::Word => m.word.unwrap_or("").to_string(),
        Unit::Flag => if m.value != 0.0 { "yes" } else { "no" }.to_string(),
        Unit::Bytes => crate::format::bytes(m.value),
        Unit::KiB => crate::format::kib(m.value),
        Unit::Real => {
            let v = m.value;
            if v != 0.0 && v.abs() < 1e-3 {
                format!("{v:.2e}")
            } else if (v - v.round()).abs() < 1e-9 {
                format!("{v:.0}")
            } else if v.abs() >= 100.0 {
                format!("{v:.1}")
            } else {
                format!("{v:.2}")
            }
        }
    }
}

/// The exact value behind a rounded one (bytes: "738,197,504 B"), for a
/// tooltip; `None` where the shown value is already exact.
pub fn exact_value(m: &Metric) -> Option<String> {
    (matches!(m.unit, Unit::Bytes | Unit::KiB) && m.value >= 1e3)
        .then(|| format!("{} B", crate::format::grouped(m.value.max(0.0) as u64)))
}

/// At most `max` characters of `s` (a value quoted in a notice can be a
/// 10,000-character string), with an ellipsis if cut.
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().take(max + 1).count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max).collect::<String>())
    }
}

/// One line of text for a URL notice.
pub fn notice_text(lang: Lang, n: &Notice) -> String {
    let n = &Notice { param: shorten(&n.param, 40), given: shorten(&n.given, 60), problem: n.problem.clone() };
    match &n.problem {
        Problem::Repeated { times, used } => trf(
            lang,
            "notice.repeated",
            &[("param", &n.param), ("given", &n.given), ("times", &times.to_string()), ("used", &shorten(used, 60))],
        ),
        Problem::OutOfRange { min, max, used } => trf(
            lang,
            "notice.out-of-range",
            &[
                ("param", &n.param),
                ("given", &n.given),
                ("min", &min.to_string()),
                ("max", &max.to_string()),
                ("used", &used.to_string()),
            ],
        ),
        Problem::Malformed { used } => {
            trf(lang, "notice.malformed", &[("param", &n.param), ("given", &n.given), ("used", used)])
        }
        Problem::Unknown => trf(lang, "notice.unknown", &[("param", &n.param)]),
        Problem::Invalid { reason, used } => {
            let (reason, used) = (shorten(&reason.render(lang), 120), shorten(used, 60));
            trf(
                lang,
                "notice.invalid",
                &[("param", &n.param), ("given", &n.given), ("reason", &reason), ("used", &used)],
            )
        }
        Problem::BrokenQuery => tr(lang, "notice.broken"),
        Problem::BrokenLink => trf(lang, "notice.broken-link", &[("given", &n.given)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_file_reads_line_by_line() {
        let t = Texts("# a comment\n\na.b\tA 'quoted' text\t中文 {n}\nc\t\t空\n");
        assert_eq!(t.entries(), [("a.b", "A 'quoted' text", "中文 {n}"), ("c", "", "空")]);
        assert_eq!(t.get("a.b"), Some(("A 'quoted' text", "中文 {n}")));
        assert_eq!(t.get("#"), None);
    }

    #[test]
    #[should_panic(expected = "text table line 2")]
    fn a_line_without_three_fields_stops_with_its_number() {
        Texts("a\tb\tc\nd\te\n").entries();
    }

    #[test]
    #[should_panic(expected = "missing key")]
    fn a_missing_key_is_reported() {
        tr(Lang::En, "no.such.key");
    }

    #[test]
    #[should_panic(expected = "no value for {n}")]
    fn an_unfilled_placeholder_is_reported() {
        trf(Lang::En, "player.per-second", &[]);
    }

    #[test]
    fn values_are_inserted_once() {
        assert_eq!(
            trf(Lang::En, "player.per-second", &[("n", "{n}")]),
            trf(Lang::En, "player.per-second", &[("n", "{n}")])
        );
        assert!(trf(Lang::En, "player.per-second", &[("n", "{n}")]).contains("{n}"));
        assert_eq!(placeholders("a {b} {c-d} {} {x y}"), ["b", "c-d"]);
    }

    #[test]
    fn escaping() {
        assert_eq!(escape_html(r#"<img src=x onerror="a&b">"#), "&lt;img src=x onerror=&quot;a&amp;b&quot;&gt;");
    }

    #[test]
    fn formatting() {
        assert_eq!(crate::format::grouped(33554432), "33,554,432");
        assert_eq!(crate::format::grouped(12), "12");
        assert_eq!(format_metric(&Metric::percent("u", 0.5)), "50%");
        assert_eq!(format_metric(&Metric::percent("u", 8.0 / 22.0)), "36.4%");
        assert_eq!(format_metric(&Metric::real("r", 8.0)), "8");
        assert_eq!(format_metric(&Metric::real("e", 2.78e-16)), "2.78e-16");
        assert_eq!(format_metric(&Metric::real("e", 0.0)), "0");
        assert_eq!(trf(Lang::Zh, "player.per-second", &[("n", "5")]), "5/秒");
        assert_eq!(crate::format::bytes(67108864.0), "67.1 MB");
        assert_eq!(crate::format::bytes(17179869184.0), "17.2 GB");
        assert_eq!(crate::format::bytes(16384.0), "16.4 kB");
        assert_eq!(crate::format::bytes(12.0), "12 B");
    }
}
