//! Hostile URLs over the whole registry, 10,000 of them: every parameter of
//! every topic given negative, huge, NaN, empty, Unicode and 10,000-character
//! values, broken percent-encoding, repeated and unknown parameters, behind
//! broken hashes. Each query string is decoded as the browser's router does
//! (`application/x-www-form-urlencoded`, lossy), then parsed. No panic; every
//! value used is legal; every value not used as given has a notice naming its
//! parameter; and the values written back to the URL read again unchanged.
//! Then the pages that are not panels (`#/`, `#/practice`, `#/deck`) and the
//! global parameters, read as the shell and those pages read them: every
//! unknown parameter and every value not used as given has a notice.

use super::ALL;
use crate::params::{routable_hash, Kind, Value, GLOBAL_PARAMS};
use proptest::prelude::*;
use proptest::sample::Index;

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        (1i64..=i64::MAX).prop_map(|v| format!("-{v}")),
        "[0-9]{1,40}",
        prop::sample::select(vec!["NaN", "Infinity", "-0", "+7", "1e309", "0x10", "1.5", " 7 ", "٣", "１２"])
            .prop_map(String::from),
        Just(String::new()),
        "\\PC{1,12}",
        "[\u{4e00}-\u{9fff}\u{1f300}-\u{1faff}\u{200b}-\u{200f}\u{0300}-\u{036f}]{1,8}",
        (0usize..2).prop_map(|k| if k == 0 { "x".repeat(10_000) } else { "线".repeat(10_000) }),
        "(<img src=x onerror=alert\\(1\\)>|\"><svg onload=alert\\(1\\)>|</textarea><script>alert\\(1\\)</script>)",
        // Plausible values (so that the checks below also see valid ones).
        (0i64..5000).prop_map(|v| v.to_string()),
        "(os|ws|fwd|bwd|fp8|bf16|fp32|tid < 16|exp\\(x\\)|1,2,3|h100|a100)",
    ]
}

/// Percent-encode, or leave raw, or append a broken escape.
fn encode(s: &str, how: u8) -> String {
    let enc: String = form_urlencoded::byte_serialize(s.as_bytes()).collect();
    match how {
        0 => s.replace(['#', '&'], ""),
        1 => enc + "%",
        2 => enc + "%E0%A4%A",
        3 => enc + "%FF%C0%AF",
        4 => enc + "%Z9",
        _ => enc,
    }
}

#[derive(Debug, Clone)]
enum Name {
    /// One of the topic's parameters (by index), given once or twice.
    Param(Index, bool),
    Global(Index),
    Unknown(String),
}

fn name() -> impl Strategy<Value = Name> {
    prop_oneof![
        6 => (any::<Index>(), any::<bool>()).prop_map(|(i, twice)| Name::Param(i, twice)),
        1 => any::<Index>().prop_map(Name::Global),
        2 => prop_oneof![
            "\\PC{1,8}",
            prop::sample::select(vec!["zap", "__proto__", "constructor", "embed", ""]).prop_map(String::from)
        ]
        .prop_map(Name::Unknown),
    ]
}

#[derive(Debug, Clone)]
struct Case {
    topic: Index,
    pairs: Vec<(Name, String, String, u8)>,
    separator: &'static str,
    route: Option<String>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        any::<Index>(),
        prop::collection::vec((name(), value(), value(), 0u8..12), 1..6),
        prop::sample::select(vec!["&", "&", "&&", ";"]),
        prop::option::weighted(0.05, "(\\PC{0,6}|%E0%A4%A|\\\\evil\\.example|/x|//host)"),
    )
        .prop_map(|(topic, pairs, separator, route)| Case { topic, pairs, separator, route })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn ten_thousand_hostile_urls(c in case()) {
        let meta = c.topic.get(ALL).meta;
        let mut raw = Vec::new();
        for (n, v1, v2, how) in &c.pairs {
            let key = match n {
                Name::Param(i, _) => i.get(meta.params).name.to_string(),
                Name::Global(i) => i.get(&GLOBAL_PARAMS).to_string(),
                Name::Unknown(s) => s.clone(),
            };
            raw.push(format!("{}={}", encode(&key, 5), encode(v1, *how)));
            if matches!(n, Name::Param(_, true)) {
                raw.push(format!("{}={}", encode(&key, 5), encode(v2, how.wrapping_add(1) % 12)));
            }
        }
        let query_string = raw.join(c.separator);
        let hash = format!("#/{}?{query_string}", c.route.as_deref().unwrap_or(meta.id));
        // A broken hash (a backslash anywhere, a host after `#/`) never reaches
        // the router; the app shows the start page with a notice.
        if !routable_hash(&hash) {
            prop_assert!(c.route.is_some() || hash.contains('\\'), "{hash}");
            return Ok(());
        }
        let query: Vec<(String, String)> =
            form_urlencoded::parse(query_string.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
        let (values, notices) = meta.parse(&query);
        let noticed = |name: &str| notices.iter().any(|n| n.param == name);

        for spec in meta.params {
            let used = values.get(spec.name);
            match (spec.kind, used) {
                (Kind::Int { min, max, .. }, Value::Int(v)) => prop_assert!((min..=max).contains(v)),
                (Kind::Choice { options, .. }, Value::Choice(s)) => prop_assert!(options.contains(s)),
                (Kind::Position, Value::Int(v)) => {
                    prop_assert!(*v >= 0 && *v as u64 <= (meta.position_max.unwrap())(&values));
                }
                (Kind::Text { max_len, check, .. }, Value::Text(t)) => {
                    prop_assert!(t.chars().count() <= max_len && (check.0)(t).is_ok());
                }
                _ => prop_assert!(false, "{}: value of the wrong kind", spec.name),
            }
            let copies: Vec<&String> = query.iter().filter(|(k, _)| k == spec.name).map(|(_, v)| v).collect();
            let Some(given) = copies.last() else {
                prop_assert_eq!(used, &spec.default_value(), "{} not given", spec.name);
                continue;
            };
            let as_given = used_as_given(used, given);
            prop_assert!(as_given || noticed(spec.name), "{}={given:?} used as {used:?} without a notice", spec.name);
            if copies.len() > 1 {
                prop_assert!(noticed(spec.name), "{} repeated without a notice", spec.name);
            }
        }
        for (k, _) in &query {
            if !GLOBAL_PARAMS.contains(&k.as_str()) && meta.params.iter().all(|p| p.name != k) {
                prop_assert!(noticed(k), "unknown {k:?} without a notice");
            }
        }
        // What the panel writes back reads again as the same values, silently.
        prop_assert_eq!(meta.normalize(values.clone()), values.clone());
        let (again, again_notices) = meta.parse(&values.to_query());
        prop_assert_eq!(again, values);
        prop_assert!(again_notices.is_empty(), "{:?}", again_notices);
    }
}

/// The routes that are not panels, as their pages read a query: their
/// specs (through `params::parse`) and, for the deck, the per-view
/// parameters (through `deck::read_link`).
const PAGES: [&str; 4] = ["", "practice", "deck", "lecture"];

fn page_specs(route: &str) -> &'static [crate::params::ParamSpec] {
    match route {
        "" => &crate::params::HOME_PARAMS,
        "practice" => &crate::practice::ROUND_PARAMS,
        "lecture" => &crate::params::LECTURE_PARAMS,
        _ => &crate::deck::LINK_PARAMS,
    }
}

fn page_name() -> impl Strategy<Value = (u8, Index, String)> {
    (
        0u8..4,
        any::<Index>(),
        prop_oneof![
            "\\PC{1,8}",
            prop::sample::select(vec!["zap", "v", "t", "n", "title", "round", "part", "broken", "__proto__", ""])
                .prop_map(String::from)
        ],
    )
}

fn page_value() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => value(),
        1 => prop::sample::select(vec!["/waves", "/threads?embed=1", "/waves?practice=1&q=5&lang=zh", "/nope", "/systolic?rows=4&present=1", "https://evil.example/", "4294967296", "-1", "1e3", "abc", "tpu", "all"]).prop_map(String::from),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    #[test]
    fn hostile_urls_on_every_page_that_is_not_a_panel(
        route in prop::sample::select(PAGES.to_vec()),
        pairs in prop::collection::vec((page_name(), page_value(), 0u8..12), 1..7),
    ) {
        use crate::params::{parse, parse_globals};
        let specs = page_specs(route);
        let raw: Vec<String> = pairs
            .iter()
            .map(|((kind, i, other), v, how)| {
                let key = match kind {
                    0 => i.get(specs).name.to_string(),
                    1 => i.get(&GLOBAL_PARAMS).to_string(),
                    2 if route == "deck" => i.get(&crate::deck::VIEW_PARAMS).to_string(),
                    _ => other.clone(),
                };
                format!("{}={}", encode(&key, 5), encode(v, *how))
            })
            .collect();
        let query_string = raw.join("&");
        let query: Vec<(String, String)> =
            form_urlencoded::parse(query_string.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
        // The shell's reading of the globals (every page).
        let (globals, global_notices) = parse_globals(&query);
        for spec in &crate::params::GLOBALS {
            if let Some((_, given)) = query.iter().rev().find(|(k, _)| k == spec.name) {
                let used = globals.get(spec.name);
                let as_given = match used {
                    // Digits, or a whole number in scientific notation (`1e3`).
                Value::Int(v) => {
                    given.trim().parse::<i64>() == Ok(*v)
                        || given.trim().contains(['e', 'E']) && given.trim().parse::<f64>() == Ok(*v as f64)
                }
                    other => given.trim() == other.to_query_string(),
                };
                prop_assert!(as_given || global_notices.iter().any(|n| n.param == spec.name),
                    "{}={given:?} used as {used:?} without a notice", spec.name);
            }
        }
        // The page's own reading.
        let (notices, values) = if route == "deck" {
            let read = crate::deck::read_link(&query, &|id| super::ALL.iter().any(|t| t.meta.id == id));
            let mut notices = read.notices.clone();
            // A view that is not a panel refuses the whole link, with its own notice.
            if let Some(Err(e)) = &read.deck {
                notices.push(crate::params::Notice { param: "v".into(), given: format!("{e:?}"), problem: crate::params::Problem::Unknown });
            }
            if let Some(Ok(d)) = &read.deck {
                // Each view as given, or a notice naming what changed.
                let views: Vec<&String> = query.iter().filter(|(k, _)| k == "v").map(|(_, v)| v).collect();
                prop_assert_eq!(views.len(), d.views.len());
                for (given, view) in views.iter().zip(&d.views) {
                    prop_assert!(**given == view.url || notices.iter().any(|n| n.param == "v" && &n.given == *given),
                        "v={given:?} used as {:?} without a notice", view.url);
                }
            }
            let (values, _) = parse(&crate::deck::LINK_PARAMS, &query.iter().filter(|(k, _)| !crate::deck::VIEW_PARAMS.contains(&k.as_str())).cloned().collect::<Vec<_>>());
            (notices, values)
        } else {
            let (values, notices) = parse(specs, &query);
            (notices, values)
        };
        let noticed = |name: &str| notices.iter().any(|n| n.param == name);
        for (k, _) in &query {
            let known = GLOBAL_PARAMS.contains(&k.as_str())
                || specs.iter().any(|s| s.name == k)
                || (route == "deck" && crate::deck::VIEW_PARAMS.contains(&k.as_str()));
            prop_assert!(known || noticed(k), "#/{route}: unknown {k:?} without a notice");
        }
        for spec in specs {
            let copies: Vec<&String> = query.iter().filter(|(k, _)| k == spec.name).map(|(_, v)| v).collect();
            let Some(given) = copies.last() else { continue };
            let used = values.get(spec.name);
            let as_given = used_as_given(used, given);
            prop_assert!(as_given || noticed(spec.name), "#/{route}: {}={given:?} used as {used:?} silently", spec.name);
            prop_assert!(copies.len() == 1 || noticed(spec.name), "#/{route}: {} repeated silently", spec.name);
        }
    }
}

/// Was the value used the one given (not clamped, replaced or defaulted)?
fn used_as_given(used: &Value, given: &str) -> bool {
    match used {
        // Digits, or a whole number in scientific notation (`1e3`).
        Value::Int(v) => {
            given.trim().parse::<i64>() == Ok(*v)
                || given.trim().contains(['e', 'E']) && given.trim().parse::<f64>() == Ok(*v as f64)
        }
        Value::Choice(c) => given.trim() == *c,
        Value::Text(t) => given == t,
    }
}
