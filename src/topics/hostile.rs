//! Hostile URLs over the whole registry, 10,000 of them: every parameter of
//! every topic given negative, huge, NaN, empty, Unicode and 10,000-character
//! values, broken percent-encoding, repeated and unknown parameters, behind
//! broken hashes. Each query string is decoded as the browser's router does
//! (`application/x-www-form-urlencoded`, lossy), then parsed. No panic; every
//! value used is legal; every value not used as given has a notice naming its
//! parameter; and the values written back to the URL read again unchanged.

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
            let as_given = match used {
                Value::Int(v) => given.trim().parse::<i64>() == Ok(*v),
                Value::Choice(s) => given.trim() == *s,
                Value::Text(t) => *given == t,
            };
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
