//! Tests over the whole registry: every topic, its texts, its practice
//! bank, its lecture table and its measured files, through [`ALL`] (never a
//! hand list).

use super::*;
use crate::i18n::{
    self, file_contents, file_name, has, has_part, install, is_loaded, own_key, part_file_contents, part_file_name,
    tables, Entry, Lang, BUILD, BUILD_KEY, PARTS_KEY, PART_KEY, RESIDENT,
};
use crate::message::Message;
use crate::params::{parse, Kind, Value, Values};
use crate::practice::{question, round, Answer, Given, Grade, Tol, ROUND_LEN};
use crate::topic::{q, Part};

#[test]
fn ids_and_names_are_unique() {
    for (i, t) in ALL.iter().map(|t| t.meta).enumerate() {
        assert!(ALL[..i].iter().all(|u| u.meta.id != t.id));
        for (j, p) in t.params.iter().enumerate() {
            assert!(t.params[..j].iter().all(|o| o.name != p.name), "{} repeats {}", t.id, p.name);
            assert!(!crate::params::GLOBAL_PARAMS.contains(&p.name));
        }
    }
}

/// One id, one spelling. Each `#[path = "<folder>/mod.rs"] pub mod <module>;`
/// item of `topics/mod.rs` (read here as build.rs reads them) is the topic at
/// its place in [`ALL`] (that folder's `texts.tsv` is its texts), whose
/// `META.id` (its route) is the folder's name; the module is the id with `-`
/// as `_`; and build.rs named its view's split point from the id
/// (`topic_<id with _>`, which `tools/split` maps back through the list
/// build.rs writes, [`ITEMS`]).
#[test]
fn folder_module_and_id_agree() {
    let mut items = Vec::new();
    let mut lines = include_str!("mod.rs").lines().map(str::trim);
    while let Some(line) = lines.next() {
        if let Some(folder) = line.strip_prefix("#[path = \"").and_then(|s| s.strip_suffix("/mod.rs\"]")) {
            let module = lines.next().and_then(|l| l.strip_prefix("pub mod ")).and_then(|l| l.strip_suffix(';'));
            items
                .push((folder, module.unwrap_or_else(|| panic!("{folder}: no `pub mod <module>;` under its #[path]"))));
        }
    }
    assert_eq!(items.len(), ALL.len(), "one registry item per topic");
    assert_eq!(ITEMS.len(), ALL.len());
    let folders = concat!(env!("CARGO_MANIFEST_DIR"), "/src/topics/");
    for (i, (&(folder, module), t)) in items.iter().zip(ALL).enumerate() {
        let id = t.meta.id;
        assert_eq!(folder, id, "the folder topics/{folder}/ declares META.id {id:?}");
        assert_eq!(module, id.replace('-', "_"), "topics/{folder}/ is `pub mod {module}`, not its id in snake case");
        let texts = std::fs::read_to_string(format!("{folders}{folder}/texts.tsv")).expect("a topic's texts.tsv");
        assert!(t.strings.0 == texts, "ALL[{i}] ({id}) is not the topic of topics/{folder}/");
        assert!(std::ptr::eq(METAS[i], t.meta), "METAS[{i}] is {id}'s meta");
        let split = format!("topic_{}", id.replace('-', "_"));
        assert_eq!(ITEMS[i], (folder, module, split.as_str()), "build.rs's list, item {i}");
        assert!(split.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{split} is an identifier");
    }
}

/// The hostile-URL test of the pure layer, over the whole registry: every
/// parameter of every topic, given garbage, gives a notice naming it and a
/// value inside its range.
#[test]
fn hostile_values_for_every_parameter_of_every_topic() {
    // An integer as a URL may write it: digits, or a whole number in
    // scientific notation (`1e9`, as the number boxes read it).
    let as_int = |s: &str| {
        s.parse::<i64>().ok().or_else(|| {
            let x = s.parse::<f64>().ok().filter(|x| s.contains(['e', 'E']) && x.is_finite() && x.fract() == 0.0)?;
            Some(x as i64)
        })
    };
    for t in ALL.iter().map(|t| t.meta) {
        for p in t.params {
            for bad in ["-3", "abc", "100000", "", "1e9", "99999999999999999999999", "%"] {
                let (v, notices) = parse(t.params, &q(&[(p.name, bad)]));
                match p.kind {
                    Kind::Int { min, max, .. } => {
                        let x = v.int(p.name);
                        assert!((min..=max).contains(&x), "{}.{}={bad} → {x}", t.id, p.name);
                        if !(min..=max).contains(&as_int(bad).unwrap_or(i64::MIN)) {
                            assert!(notices.iter().any(|n| n.param == p.name), "{}.{}={bad}", t.id, p.name);
                        }
                    }
                    Kind::Choice { options, .. } => {
                        assert!(options.contains(&v.choice(p.name)));
                        assert!(notices.iter().any(|n| n.param == p.name));
                    }
                    Kind::Position => {
                        if as_int(bad).is_none() && !bad.chars().all(|c| c.is_ascii_digit()) {
                            assert!(notices.iter().any(|n| n.param == p.name), "{}.{}={bad}", t.id, p.name);
                        }
                    }
                    Kind::Text { check, .. } => {
                        // Either accepted as given, or replaced (valid) with a notice.
                        let used = v.text(p.name);
                        assert!((check.0)(used).is_ok());
                        assert!(used == bad || notices.iter().any(|n| n.param == p.name), "{}.{}={bad}", t.id, p.name);
                    }
                }
            }
        }
        let (_, notices) = parse(t.params, &q(&[("no-such-param", "1")]));
        assert_eq!(notices.len(), 1);
        if let Some(pos) = t.position_param() {
            let (v, notices) = t.parse(&q(&[(pos, "99999999999")]));
            assert!(notices.iter().any(|n| n.param == pos));
            assert_eq!(v.int(pos) as u64, (t.position_max.unwrap())(&v));
        }
    }
}

#[test]
fn the_issue_deep_link_parses_cleanly() {
    let (v, notices) = systolic::META.parse(&q(&[
        ("rows", "4"),
        ("cols", "4"),
        ("k", "6"),
        ("dataflow", "os"),
        ("seed", "1"),
        ("cycle", "3"),
    ]));
    assert!(notices.is_empty());
    assert_eq!(v.int("cycle"), 3);
    assert_eq!(
        v.to_query(),
        q(&[("rows", "4"), ("cols", "4"), ("k", "6"), ("dataflow", "os"), ("seed", "1"), ("cycle", "3")])
    );
    // Shrinking k pulls the cycle back inside the run.
    let shrunk = systolic::META.normalize(v.with("cycle", Value::Int(12)).with("k", Value::Int(1)));
    assert_eq!(shrunk.int("cycle"), 7);
}

#[test]
fn params_json_names_every_parameter() {
    let j = systolic::META.params_json();
    assert!(j.starts_with(r#"[{"name":"rows","kind":"int","min":1,"max":256}"#), "{j}");
    assert!(j.contains(r#"{"name":"dataflow","kind":"choice","options":["os","ws","is"]}"#));
    assert!(j.contains(r#"{"name":"cycle","kind":"position"}"#));
    assert!(j.contains(r#"{"name":"speed","kind":"int","min":1,"max":100000,"optional":true}"#));
}

#[test]
fn panels_doc_lists_every_panel() {
    let doc = include_str!("../../docs/panels.md");
    assert!(doc.contains(&readme_table()), "docs/panels.md's panel table is stale; expected:\n{}", readme_table());
}

// ---- Texts: every table the registry hands to i18n.

#[test]
fn keys_are_unique_and_both_languages_present() {
    install_texts();
    let all: Vec<&Entry> = tables().flat_map(|t| t.iter()).collect();
    let mut seen = std::collections::HashSet::new();
    for (k, en, zh) in all {
        assert!(seen.insert(*k), "duplicate key {k}");
        assert!(!en.trim().is_empty() && !zh.trim().is_empty(), "{k} lacks a language");
    }
}

#[test]
fn placeholders_match_between_languages() {
    install_texts();
    let holes = |s: &str| {
        let mut v: Vec<String> =
            s.split('{').skip(1).filter_map(|p| p.split_once('}')).map(|(h, _)| h.to_string()).collect();
        v.sort();
        v
    };
    for (k, en, zh) in tables().flat_map(|t| t.iter()) {
        assert_eq!(holes(en), holes(zh), "placeholders differ in {k}");
    }
}

/// Every topic is fully translated: title, summary, every parameter, every
/// choice and every metric.
#[test]
fn every_topic_is_translated() {
    install_texts();
    for t in ALL.iter().map(|t| t.meta) {
        for key in [format!("topic.{}.title", t.id), format!("topic.{}.summary", t.id)] {
            assert!(has(&key), "missing {key}");
        }
        for p in t.params {
            assert!(has(&format!("param.{}", p.name)), "missing param.{}", p.name);
            if let Kind::Choice { options, .. } = p.kind {
                for o in options {
                    assert!(has(&format!("choice.{}.{o}", p.name)), "missing choice.{}.{o}", p.name);
                }
            }
        }
        for m in t.metrics {
            assert!(has(&format!("metric.{m}")), "missing metric.{m}");
        }
    }
}

/// The text files (the shared one and each topic's) carry every table's
/// texts (the resident ones aside), each once, and loaded they give exactly
/// the tables' texts; a topic's file has only its own.
#[test]
fn text_files_round_trip() {
    install_texts();
    let parts = text_parts();
    assert_eq!(parts.len(), ALL.len() + 1, "every topic's, and the lecture views'");
    for lang in [Lang::En, Lang::Zh] {
        let shared = file_contents(lang, &parts);
        install(lang, &shared).expect("the shared file installs");
        assert!(is_loaded(lang));
        let mut in_files = 0;
        let map: std::collections::HashMap<String, String> = serde_json::from_str(&shared).unwrap();
        assert_eq!(map[BUILD_KEY], BUILD);
        let ids: Vec<&str> = parts.iter().map(|(id, _)| *id).collect();
        assert_eq!(map[PARTS_KEY], ids.join(","));
        in_files += map.len() - 2;
        for (id, _) in &parts {
            let file = part_file_contents(lang, id, &parts);
            install(lang, &file).expect("a topic's file installs");
            assert!(has_part(lang, id));
            let map: std::collections::HashMap<String, String> = serde_json::from_str(&file).unwrap();
            assert_eq!((map[BUILD_KEY].as_str(), map[PART_KEY].as_str()), (BUILD, *id));
            assert!(map.keys().filter(|k| !k.starts_with('_')).all(|k| own_key(id, k)), "{id}: only its own keys");
            assert!(map.len() > 2, "{id} has texts of its own");
            in_files += map.len() - 2;
        }
        let mut keys = 0;
        for (k, en, zh) in tables().flat_map(|t| t.iter()).filter(|(k, ..)| !RESIDENT.iter().any(|r| r.0 == *k)) {
            assert_eq!(i18n::text(lang, k), Some(if lang == Lang::En { *en } else { *zh }), "{k}");
            keys += 1;
        }
        assert_eq!(in_files, keys, "every key in exactly one file");
        assert!(RESIDENT.iter().all(|(k, ..)| !map.contains_key(*k)), "resident texts stay compiled in");
    }
    assert!(install(Lang::En, "{}").is_err());
    assert!(install(Lang::En, r#"{"_build":"0","app.name":"W"}"#).is_err(), "another build's file");
    assert!(install(Lang::En, &format!(r#"{{"_build":"{BUILD}"}}"#)).is_err(), "no texts");
    assert!(install(Lang::En, "<html>").is_err());
    assert_eq!(file_name(Lang::Zh), "strings.zh.json");
    assert_eq!(part_file_name(Lang::Zh, "flash"), "strings.zh.flash.json");
}

/// A topic's own keys are its namespace's, and no other topic's.
#[test]
fn own_keys_are_a_topics_namespace() {
    assert!(
        own_key("flash", "flash.tile") && own_key("flash", "param.flash.bq") && own_key("flash", "practice.flash.x")
    );
    assert!(!own_key("flash", "param.bq") && !own_key("flash", "topic.flash.title") && !own_key("flash", "flashy.x"));
    assert!(!own_key("gpu", "gpu-vs-tpu.x"), "an id that is another's prefix");
    for (id, _) in text_parts() {
        for (other, _) in text_parts().into_iter().filter(|(o, _)| *o != id) {
            assert!(!own_key(other, &format!("{id}.x")), "{id}.x is {other}'s too");
        }
    }
}

// ---- Practice: every bank of the registry, thousands of seeds each.

const SEEDS: u64 = 2000;

/// A rendered text with no `{placeholder}` left (trf panics in tests on a
/// missing argument; this also catches a stray brace).
fn filled(t: &Message, lang: Lang) -> String {
    let s = t.render(lang);
    assert!(!s.trim().is_empty(), "{} is empty", t.key);
    assert!(crate::i18n::placeholders(&s).is_empty(), "{}: unfilled in {s}", t.key);
    assert!(!s.contains("NaN") && !s.contains("inf"), "{}: {s}", t.key);
    s
}

#[test]
fn every_topic_has_three_kinds_and_a_bank_in_registry_order() {
    for t in ALL {
        let b = t.practice;
        assert_eq!(b.topic, t.meta.id, "{} holds the bank of {}", t.meta.id, b.topic);
        assert!(b.kinds.len() >= 3, "{} has {} kinds", b.topic, b.kinds.len());
        for (i, k) in b.kinds.iter().enumerate() {
            assert!(b.kinds[..i].iter().all(|o| o.id != k.id), "{} repeats {}", b.topic, k.id);
        }
    }
}

#[test]
fn every_question_is_sound() {
    install_texts();
    for t in ALL {
        let (b, meta) = (t.practice, t.meta);
        let mut kinds_seen = std::collections::HashSet::new();
        for seed in 0..SEEDS {
            let q = question(b, seed);
            kinds_seen.insert(q.kind);
            let at = format!("{} q={seed} ({})", b.topic, q.kind);
            // Reproducible.
            assert_eq!(question(b, seed), q, "{at}");
            // The state is a valid, canonical panel URL (no notice, nothing changed).
            let (v, notices) = meta.parse(&q.query());
            assert!(notices.is_empty(), "{at}: {notices:?}");
            assert_eq!(v, q.state, "{at}");
            for lang in [Lang::En, Lang::Zh] {
                filled(&q.prompt, lang);
                filled(&q.explain, lang);
            }
            match &q.answer {
                Answer::Number { value, tol, traps } => {
                    assert!(value.is_finite() && *value >= 0.0, "{at}: {value}");
                    assert_eq!(q.answer.grade(Given::Number(*value)), Grade::Right, "{at}");
                    if *tol == Tol::Exact {
                        assert_eq!(value.fract(), 0.0, "{at}: a count must be whole");
                        // A neighbouring whole number is never right.
                        assert_ne!(q.answer.grade(Given::Number(value + 1.0)), Grade::Right, "{at}");
                    }
                    // The usual misreadings never pass as right.
                    // The usual misreadings are wrong, not "close" (issue 22: 15 waves for 16).
                    for t in traps.iter().filter(|t| *t != value) {
                        let g = q.answer.grade(Given::Number(*t));
                        assert!(
                            g == Grade::Wrong || g == Grade::Right && (t - value).abs() <= 1e-9 * value.abs().max(1.0),
                            "{at}: trap {t} vs {value}: {g:?}"
                        );
                    }
                    // The shown answer, read back, is right.
                    let shown = q.answer.shown(Lang::En).replace([',', '%'], "");
                    let read: f64 = shown.parse().unwrap_or_else(|_| panic!("{at}: shown {shown}"));
                    assert_eq!(q.answer.grade(Given::Number(read)), Grade::Right, "{at}: shown {shown} vs {value}");
                }
                Answer::Choice(options) => {
                    assert!(options.len() >= 2, "{at}");
                    assert_eq!(options.iter().filter(|c| c.right).count(), 1, "{at}: exactly one right option");
                    for lang in [Lang::En, Lang::Zh] {
                        let labels: Vec<String> = options.iter().map(|c| filled(&c.label, lang)).collect();
                        let mut distinct = labels.clone();
                        distinct.sort();
                        distinct.dedup();
                        assert_eq!(distinct.len(), labels.len(), "{at}: options repeat {labels:?}");
                    }
                    for (i, c) in options.iter().enumerate() {
                        let g = q.answer.grade(Given::Choice(i));
                        assert_eq!(g == Grade::Right, c.right, "{at}");
                    }
                }
            }
        }
        assert_eq!(kinds_seen.len(), b.kinds.len(), "{}: every kind is drawn", b.topic);
    }
}

#[test]
fn the_waves_explanation_reads_like_the_lecture() {
    // Find a waves-count question and check its explanation carries the
    // simulation's numbers.
    install_texts();
    let q = (0..200).map(|s| question(waves::TOPIC.practice, s)).find(|q| q.kind == "waves").expect("a waves question");
    let w = waves::waves_at(&q.state, q.state.int("n") as u64);
    let text = q.explain.render(Lang::En);
    let word = if w.waves() == 1 { "wave" } else { "waves" };
    assert!(text.contains(&format!("= {} tiles on {} SMs → {} {word}", w.tiles(), w.sms, w.waves())), "{text}");
    assert_eq!(q.answer, Answer::count(w.waves()).with_traps(&[(w.tiles() / w.sms) as f64]));
}

/// "1 waves", "warps — (0 of 4)": a count of one reads in the singular, and
/// no warp diverging says so, in every explanation of these banks, in both
/// languages; the single-wave and no-divergence cases do come up.
#[test]
fn explanations_say_one_wave_and_no_diverging_warp_in_words() {
    install_texts();
    let (mut one_wave, mut none) = (0, 0);
    for topic in [waves::TOPIC.practice, gpu_vs_tpu::TOPIC.practice, divergence::TOPIC.practice] {
        for seed in 0..600 {
            let q = question(topic, seed);
            let (en, zh) = (q.explain.render(Lang::En), q.explain.render(Lang::Zh));
            for bad in [" 1 waves", "warps —", "warps: —", "warp —", "warp：—"] {
                assert!(!en.contains(bad) && !zh.contains(bad), "{} {seed}: {en} / {zh}", q.topic);
            }
            one_wave += en.contains(" 1 wave") as usize;
            none += en.contains("No warp diverges") as usize + en.contains("none of the") as usize;
        }
    }
    assert!(one_wave > 0 && none > 0, "{one_wave} {none}");
}

#[test]
fn rounds_are_ten_questions_in_lecture_order() {
    let order: Vec<&str> = ALL.iter().map(|t| t.meta.id).collect();
    let part_of = |id: &str| find(id).map(|t| t.meta.part);
    for seed in 0..300 {
        for part in [None, Some(Part::Gpu), Some(Part::Fast), Some(Part::Flash), Some(Part::Tpu)] {
            let r = round(seed, part, ALL);
            assert_eq!(r.items.len(), ROUND_LEN);
            let pos: Vec<usize> = r.items.iter().map(|(t, _)| order.iter().position(|o| o == t).unwrap()).collect();
            assert!(pos.windows(2).all(|w| w[0] <= w[1]), "{pos:?}");
            assert!(r.items.iter().all(|(t, _)| part.is_none() || part_of(t) == part));
            if part.is_none() {
                let mut d = pos.clone();
                d.dedup();
                assert_eq!(d.len(), ROUND_LEN, "no repeats across the whole lecture");
            }
            assert_eq!(round(seed, part, ALL), r);
        }
    }
    assert_eq!(crate::practice::part_from_code("flash"), Some(Part::Flash));
    assert_eq!(crate::practice::part_from_code("x"), None);
}

#[test]
fn a_question_is_reproduced_by_its_seed_and_differs_across_seeds() {
    let bank = threads::TOPIC.practice;
    let a = question(bank, 7);
    assert_eq!(question(bank, 7), a);
    assert!((0..20).any(|s| question(bank, s).prompt != a.prompt));
}

// ---- The lecture's tables and the measured files each topic declares.

/// Every topic with a lecture table: each printed figure of the notes comes
/// out of its model, or differs with its reason shown (the rows the panel shows beside the model).
#[test]
fn every_lecture_table_matches_its_model() {
    let mut tables = 0;
    for t in ALL {
        if let Some(rows) = t.lecture {
            let rows = rows(&Values::defaults(t.meta.params));
            assert!(!rows.is_empty(), "{}: an empty lecture table", t.meta.id);
            // A figure may differ from the notes only with its reason shown.
            assert!(rows.iter().all(|r| r.ok() || r.reason.is_some()), "{}: {rows:?}", t.meta.id);
            tables += 1;
        }
    }
    assert!(tables >= 9, "{tables} lecture tables");
}

/// Every measured file a topic declares ships, names its device and parses.
#[test]
fn every_measured_file_a_topic_declares_ships_and_parses() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/measured/");
    let declared: Vec<&str> = ALL.iter().flat_map(|t| t.measured.iter().copied()).collect();
    for file in &declared {
        let text = std::fs::read_to_string(format!("{dir}{file}")).unwrap_or_else(|e| panic!("{file}: {e}"));
        let t = crate::sim::measured::Table::parse(&text);
        assert!(t.meta("device").is_some(), "{file} names its device");
        assert!(t.header.len() >= 2 && !t.rows.is_empty(), "{file}: {:?}", t.header);
        assert!(t.rows.iter().all(|r| r.len() == t.header.len()), "{file}: ragged rows");
    }
}

/// `#/waves?practice=1&q=0` (issue 22): the waves question answered with the
/// floor (tiles ÷ SMs rounded down) instead of the ceiling is wrong, not close.
#[test]
fn waves_floor_is_wrong_not_close() {
    install_texts();
    let bank = waves::TOPIC.practice;
    let mut checked = 0;
    for seed in 0..200 {
        let q = question(bank, seed);
        if q.kind != "waves" {
            continue;
        }
        let Answer::Number { value, ref traps, .. } = q.answer else { panic!("a count") };
        // The floor is the trap; it differs from the answer unless the tiles fill whole waves.
        let floor = traps[0];
        if floor != value {
            assert_eq!(floor, value - 1.0, "q={seed}");
            assert_eq!(q.answer.grade(Given::Number(floor)), Grade::Wrong, "q={seed}: {floor} waves for {value}");
            assert_eq!(q.answer.grade(Given::Number(value)), Grade::Right);
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked}");
    // q=0 is the issue's own question.
    // (n = 5170, 128×128 tiles, A100: 41 × 41 = 1681 tiles on 108 SMs → 16 waves).
    let q = question(bank, 0);
    assert_eq!((q.kind, q.answer.grade(Given::Number(16.0))), ("waves", Grade::Right));
    assert_eq!(q.answer.grade(Given::Number(15.0)), Grade::Wrong, "q=0: the floor");
}

/// Words of two or more Latin letters in `s`, other than the names a
/// reader types or reads as code (`tid`, `warp`, `lane`, the unit TFLOP).
fn latin_words(s: &str) -> Vec<String> {
    const CODE: [&str; 4] = ["tid", "warp", "lane", "TFLOP"];
    s.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 2 && !CODE.contains(w))
        .map(str::to_string)
        .collect()
}

/// No English in a Chinese error (issue 22, item 6): every parser error of
/// the condition, fusion's expression and online softmax's vector, as its
/// box shows it and as a link's notice says it, in 中文.
#[test]
fn no_english_in_chinese_errors() {
    use crate::i18n::notice_text;
    use crate::sim::expr::{self, Syntax};
    use crate::sim::{fusion, softmax};
    use divergence::{draft_error, syntax_text};
    crate::topics::install_texts();
    let zh = Lang::Zh;
    let mut messages = Vec::new();
    for kind in Syntax::ALL {
        messages.push(syntax_text(zh, kind, 0));
        assert!(!syntax_text(Lang::En, kind, 0).is_empty());
    }
    // The condition box's first line (the others echo the input and the caret).
    for cond in
        ["tid＜100", "tid < 100 线", "tid % 2 = 0", "tid & 1", "tid | 1", "foo", "(tid", "tid)", "", "tid 3", "tid <"]
    {
        let first = draft_error(zh, cond, 4).expect("an error").message;
        assert!(first.starts_with("条件有误："), "{first}");
        messages.push(first);
    }
    assert!(draft_error(zh, "tid＜100", 4).unwrap().message.contains("全角字符：请把输入法切换到半角（英文）标点"));
    for ex in ["sin（x）", "foo(x)", "max(x)", "sin x", "x +", "1..2", "x y", "(x"] {
        let e = fusion::parse(ex).expect_err(ex);
        let shown = self::fusion::expr_error(zh, &e);
        assert_eq!(shown.at, Some(e.pos));
        messages.push(shown.message);
    }
    let too_many = "1,".repeat(softmax::MAX_VALUES + 2);
    for x in ["1,二,3", "一,二,三,四,五,六,七", too_many.as_str()] {
        let e = softmax::parse_vector(x).expect_err("not a vector");
        messages.push(self::online_softmax::vector_error(zh, &e));
    }
    // A link's notices: the reason in 中文 (the echoed value taken out).
    let bad: [(&Topic, &str, &str); 6] = [
        (&divergence::TOPIC, "cond", "tid＜100"),
        (&divergence::TOPIC, "cond", &"线".repeat(expr::MAX_LEN + 1)),
        (&self::fusion::TOPIC, "expr", "sin（x）"),
        (&self::fusion::TOPIC, "peak", "很多"),
        (&online_softmax::TOPIC, "x", "1,二"),
        (&your_machine::TOPIC, "r", "五十"),
    ];
    for (topic, name, given) in bad {
        let (_, notices) = topic.meta.parse(&q(&[(name, given)]));
        let n = notices.iter().find(|n| n.param == name).unwrap_or_else(|| panic!("no notice for {name}"));
        let text = notice_text(zh, n);
        let reason = text.split_once('：').map(|(_, r)| r.to_string()).unwrap_or_default();
        let reason = reason.rsplit_once('；').map(|(r, _)| r.to_string()).unwrap_or_default();
        assert!(!reason.is_empty(), "{text}");
        messages.push(reason);
    }
    for m in &messages {
        assert!(latin_words(m).is_empty(), "English in a Chinese error: {m:?} ({:?})", latin_words(m));
    }
    // And the test would see English: the same messages in English have it.
    assert!(!latin_words(&syntax_text(Lang::En, Syntax::FullWidth, 0)).is_empty());
}

/// A topic's own label wins over the shared one (`i18n::topic_key`).
#[test]
fn a_topics_own_label_first() {
    crate::topics::install_texts();
    assert_eq!(crate::i18n::topic_key("param", "online-softmax", "block"), "param.online-softmax.block");
    assert_eq!(crate::i18n::topic_key("param", "threads", "block"), "param.block");
}

/// Every topic says where the notes treat it, its demo and its key figures
/// (`TopicMeta::new` leaves them empty until `.notes(..)` and `.metrics(..)`).
#[test]
fn every_meta_is_whole() {
    for t in ALL {
        let m = t.meta;
        assert!(!m.sections.is_empty() && !m.demo.is_empty(), "#/{}: notes sections and demo", m.id);
        assert!(!m.metrics.is_empty(), "#/{}: metrics", m.id);
        assert_eq!(m.position_param().is_some(), m.position_max.is_some(), "#/{}: a position and its maximum", m.id);
    }
}
