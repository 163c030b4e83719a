//! URL query state: each panel declares its parameters once as a list of
//! [`ParamSpec`]s; [`parse`] turns the (serde-decoded) query pairs into
//! validated values plus a [`Notice`] for everything it had to clamp, ignore or
//! replace. It never fails: a hostile URL gives notices and a working panel.

use crate::message::Message;

/// The custom machine's parameters, shared by every panel that offers
/// `gpu=custom`: its peak (TFLOP/s, decimal) and bandwidth (GB/s).
pub const CUSTOM_PEAK: ParamSpec = ParamSpec::text("peak", 12, "1000", check_peak).optional();
pub const CUSTOM_BW: ParamSpec = ParamSpec::int("bw", 1, 100_000, 3350).optional().log();

/// The `gpu` of a panel's roofline inset where a custom machine is offered.
pub const INSET_GPU_CUSTOM: ParamSpec = ParamSpec::choice("gpu", crate::sim::hw::GPU_CHOICES, "h100").optional();

fn check_peak(s: &str) -> Result<(), Message> {
    use crate::sim::hw::{parse_peak, PeakError};
    parse_peak(s).map(|_| ()).map_err(|e| match e {
        PeakError::OutOfRange => Message::new("notice.peak-range", &[]),
        PeakError::NotANumber => Message::new("notice.peak-number", &[]),
    })
}

/// The machine a panel's `gpu`, `peak` and `bw` describe.
pub fn machine(v: &Values) -> crate::sim::hw::Gpu {
    match v.choice("gpu") {
        "custom" => {
            crate::sim::hw::custom(crate::sim::hw::parse_peak(v.text("peak")).unwrap_or(1000.0), v.int("bw") as f64)
        }
        code => *crate::sim::hw::gpu(code),
    }
}

/// The most views a deck holds (`deck=k` is 1-based, 0 = no deck).
pub const MAX_DECK_VIEWS: usize = 60;

/// The parameters of the whole app, not of a panel: every page reads them
/// through [`parse_globals`] and every link carries them. `deck=0` and `q`
/// absent mean "no deck" and "no question" (the shell tells absent from 0
/// for `q`, whose seed may be 0).
pub static GLOBALS: [ParamSpec; 6] = [
    ParamSpec::choice("lang", &["en", "zh"], "en").optional(),
    ParamSpec::choice("present", &["0", "1"], "0").optional(),
    ParamSpec::choice("embed", &["0", "1"], "0").optional(),
    ParamSpec::int("deck", 0, MAX_DECK_VIEWS as i64, 0).optional(),
    ParamSpec::choice("practice", &["0", "1"], "0").optional(),
    ParamSpec::int("q", 0, u32::MAX as i64, 0).optional(),
];

/// The parameters of the start page (`#/`): only `broken`, the address
/// the app could not read (put there by `ui::app::start`, shown as a notice).
pub static HOME_PARAMS: [ParamSpec; 1] = [ParamSpec::text("broken", 100_000, "", |_| Ok(())).optional()];

/// The parameters of the lecture page (`#/lecture`): only `study=1`, the
/// student's path; anything else there gets a notice, as on a panel.
pub static LECTURE_PARAMS: [ParamSpec; 1] = [ParamSpec::choice("study", &["0", "1"], "0").optional()];

/// The names of [`GLOBALS`].
pub const GLOBAL_PARAMS: [&str; 6] = ["lang", "present", "embed", "deck", "practice", "q"];

/// The global parameters of a query (the others are the panel's and are
/// left alone): validated values and a notice for each value changed or
/// repeated.
pub fn parse_globals(query: &[(String, String)]) -> (Values, Vec<Notice>) {
    let globals: Vec<(String, String)> =
        query.iter().filter(|(k, _)| GLOBAL_PARAMS.contains(&k.as_str())).cloned().collect();
    validate(&GLOBALS, &globals, false)
}

/// Do two queries say the same for a panel (equal but for the global
/// parameters)? A panel that adopts an address differing from the one it
/// shows only in its globals (practice mode adding `q`, a language switch)
/// keeps the notices about its own values: they still stand.
pub fn same_own_query(a: &[(String, String)], b: &[(String, String)]) -> bool {
    let own = |q: &[(String, String)]| {
        q.iter().filter(|(k, _)| !GLOBAL_PARAMS.contains(&k.as_str())).cloned().collect::<Vec<_>>()
    };
    own(a) == own(b)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An integer in `min..=max`.
    Int { min: i64, max: i64, default: i64 },
    /// One of a fixed list of words (the first is not special: `default` is).
    Choice { options: &'static [&'static str], default: &'static str },
    /// The player's position (`cycle`, `step`): an integer ≥ 0 whose upper
    /// bound depends on the other parameters, so [`parse`] keeps the number as
    /// given and the panel clamps it with [`clamp_position`].
    Position,
    /// Free text up to `max_len` characters, checked by `check` (which returns the
    /// reason it is unusable).
    Text { max_len: usize, default: &'static str, check: Check },
}

/// A text parameter's validator. (Specs compare equal regardless of it:
/// function pointers have no meaningful identity.)
#[derive(Clone, Copy)]
pub struct Check(pub fn(&str) -> Result<(), Message>);

impl PartialEq for Check {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for Check {}
impl std::hash::Hash for Check {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}
impl std::fmt::Debug for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Check")
    }
}

/// One URL parameter of a panel. `name` is public interface: deep links in
/// lecture slides use it. The label shown next to its control is the
/// translation key `param.<name>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParamSpec {
    pub name: &'static str,
    pub kind: Kind,
    /// Written to the URL even when it equals the default (false for things
    /// like playback speed that would only clutter a shared link).
    pub always: bool,
    /// Its slider has a logarithmic track (ranges like 1–16,777,216).
    pub log: bool,
}

impl ParamSpec {
    pub const fn int(name: &'static str, min: i64, max: i64, default: i64) -> Self {
        ParamSpec { name, kind: Kind::Int { min, max, default }, always: true, log: false }
    }
    pub const fn choice(name: &'static str, options: &'static [&'static str], default: &'static str) -> Self {
        ParamSpec { name, kind: Kind::Choice { options, default }, always: true, log: false }
    }
    pub const fn position(name: &'static str) -> Self {
        ParamSpec { name, kind: Kind::Position, always: true, log: false }
    }
    pub const fn text(
        name: &'static str,
        max_len: usize,
        default: &'static str,
        check: fn(&str) -> Result<(), Message>,
    ) -> Self {
        ParamSpec { name, kind: Kind::Text { max_len, default, check: Check(check) }, always: true, log: false }
    }
    pub const fn optional(self) -> Self {
        ParamSpec { always: false, ..self }
    }
    /// A logarithmic slider track.
    pub const fn log(self) -> Self {
        ParamSpec { log: true, ..self }
    }
    pub fn default_value(&self) -> Value {
        match self.kind {
            Kind::Int { default, .. } => Value::Int(default),
            Kind::Choice { default, .. } => Value::Choice(default),
            Kind::Position => Value::Int(0),
            Kind::Text { default, .. } => Value::Text(default.to_string()),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Int(i64),
    Choice(&'static str),
    Text(String),
}

impl Value {
    pub fn to_query_string(&self) -> String {
        match self {
            Value::Int(v) => v.to_string(),
            Value::Choice(s) => s.to_string(),
            Value::Text(s) => s.clone(),
        }
    }
}

/// Why a URL value was not used as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A number outside the allowed range, replaced by the nearest bound.
    OutOfRange { min: i64, max: i64, used: i64 },
    /// Not a number / not one of the options: the default is used.
    Malformed { used: String },
    /// Text the panel can't use (the reason says why): the default is used.
    Invalid { reason: Message, used: String },
    /// A parameter this panel does not have: ignored.
    Unknown,
    /// The query string itself could not be decoded.
    BrokenQuery,
    /// The address after `#` could not be read at all.
    BrokenLink,
    /// Given more than once: the last copy is used (`used`), the others are
    /// ignored, whether they were valid or not.
    Repeated { times: usize, used: String },
}

/// A visible message about one parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub param: String,
    pub given: String,
    pub problem: Problem,
}

/// The validated values of one panel, in spec order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Values {
    specs: &'static [ParamSpec],
    values: Vec<Value>,
}

impl Values {
    pub fn defaults(specs: &'static [ParamSpec]) -> Self {
        Values { specs, values: specs.iter().map(ParamSpec::default_value).collect() }
    }

    fn index(&self, name: &str) -> usize {
        self.specs.iter().position(|s| s.name == name).unwrap_or_else(|| panic!("no parameter named {name}"))
    }

    pub fn specs(&self) -> &'static [ParamSpec] {
        self.specs
    }

    pub fn get(&self, name: &str) -> &Value {
        &self.values[self.index(name)]
    }

    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            Value::Int(v) => *v,
            _ => panic!("{name} is not an integer parameter"),
        }
    }

    pub fn choice(&self, name: &str) -> &'static str {
        match self.get(name) {
            Value::Choice(s) => s,
            _ => panic!("{name} is not a choice parameter"),
        }
    }

    pub fn text(&self, name: &str) -> &str {
        match self.get(name) {
            Value::Text(s) => s,
            _ => panic!("{name} is not a text parameter"),
        }
    }

    /// A copy with `name` set to `value`, clamped / checked like a URL value.
    pub fn with(&self, name: &str, value: Value) -> Self {
        let i = self.index(name);
        let mut out = self.clone();
        out.values[i] = match (self.specs[i].kind, value) {
            (Kind::Int { min, max, .. }, Value::Int(v)) => Value::Int(v.clamp(min, max)),
            (Kind::Choice { options, .. }, Value::Choice(s)) if options.contains(&s) => Value::Choice(s),
            (Kind::Position, Value::Int(v)) => Value::Int(v.max(0)),
            (Kind::Text { max_len, check, .. }, Value::Text(t))
                if t.chars().take(max_len + 1).count() <= max_len && (check.0)(&t).is_ok() =>
            {
                Value::Text(t)
            }
            _ => self.values[i].clone(),
        };
        out
    }

    /// The query pairs for these values, in spec order.
    pub fn to_query(&self) -> Vec<(String, String)> {
        self.specs
            .iter()
            .zip(&self.values)
            .filter(|(s, v)| s.always || **v != s.default_value())
            .map(|(s, v)| (s.name.to_string(), v.to_query_string()))
            .collect()
    }
}

/// Can the hash router read this `location.hash`? It resolves the part after
/// `#` as a URL path, so it must start with one `/`: `#//host` and any
/// backslash (`#/\\evil.example` reads as `//evil.example`, `#/\\` fails to
/// parse) would be taken for a host, and browsers drop tabs and newlines
/// before looking. An empty hash is the router's own start.
pub fn routable_hash(hash: &str) -> bool {
    let h: String = hash.chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')).collect();
    h.is_empty() || (h.starts_with("#/") && !h.starts_with("#//") && !h.contains('\\'))
}

/// A notice for a parameter given more than once (`None` if it is given at
/// most once). The last copy is the one used, as with most servers.
pub fn repeated(query: &[(String, String)], name: &str) -> Option<Notice> {
    let copies: Vec<&String> = query.iter().filter(|(k, _)| k == name).map(|(_, v)| v).collect();
    (copies.len() > 1).then(|| Notice {
        param: name.to_string(),
        given: copies[..copies.len() - 1].iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "),
        problem: Problem::Repeated { times: copies.len(), used: copies[copies.len() - 1].clone() },
    })
}

/// An integer as a URL may write it: digits, or a whole number in
/// scientific notation, as the number boxes accept it (`n=1e6`, `2.5e3`).
/// One too large for i64 saturates (and is then out of range).
fn read_int(s: &str) -> Option<i64> {
    let s = s.trim();
    s.parse::<i64>().ok().or_else(|| {
        let x = s.contains(['e', 'E']).then(|| s.parse::<f64>().ok()).flatten()?;
        (x.is_finite() && x.fract() == 0.0).then(|| x.clamp(i64::MIN as f64, i64::MAX as f64) as i64)
    })
}

/// Validate decoded query pairs against a panel's parameters. Global
/// parameters are skipped (the app shell reads them); a repeated parameter's
/// last value wins, as in `URLSearchParams.get` of most servers, and gets a
/// [`Problem::Repeated`] notice (so a bad earlier copy never goes unmentioned).
pub fn parse(specs: &'static [ParamSpec], query: &[(String, String)]) -> (Values, Vec<Notice>) {
    validate(specs, query, true)
}

/// [`parse`]'s work, with the global parameters skipped (a panel's query)
/// or read like any other (the globals' own specs).
fn validate(specs: &'static [ParamSpec], query: &[(String, String)], skip_globals: bool) -> (Values, Vec<Notice>) {
    let skip = |name: &str| skip_globals && GLOBAL_PARAMS.contains(&name);
    let mut values = Values::defaults(specs);
    let mut notices = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (name, _) in query {
        if !skip(name) && !seen.contains(&name.as_str()) {
            seen.push(name);
            notices.extend(repeated(query, name));
        }
    }
    for (idx, (name, given)) in query.iter().enumerate() {
        if skip(name) {
            continue;
        }
        // Only the last copy of a repeated parameter is validated and used;
        // the Repeated notice above names the others.
        if query[idx + 1..].iter().any(|(k, _)| k == name) {
            continue;
        }
        let Some(i) = specs.iter().position(|s| s.name == name) else {
            notices.push(Notice { param: name.clone(), given: given.clone(), problem: Problem::Unknown });
            continue;
        };
        let spec = specs[i];
        match spec.kind {
            Kind::Int { min, max, default } => match read_int(given).ok_or(()) {
                Ok(v) if (min..=max).contains(&v) => values.values[i] = Value::Int(v),
                Ok(v) => {
                    let used = v.clamp(min, max);
                    values.values[i] = Value::Int(used);
                    notices.push(Notice {
                        param: name.clone(),
                        given: given.clone(),
                        problem: Problem::OutOfRange { min, max, used },
                    });
                }
                Err(_) => {
                    // Numbers too large for i64 are out of range, not malformed.
                    let digits = given.trim().trim_start_matches(['-', '+']);
                    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                        let used = if given.trim().starts_with('-') { min } else { max };
                        values.values[i] = Value::Int(used);
                        notices.push(Notice {
                            param: name.clone(),
                            given: given.clone(),
                            problem: Problem::OutOfRange { min, max, used },
                        });
                    } else {
                        values.values[i] = Value::Int(default);
                        notices.push(Notice {
                            param: name.clone(),
                            given: given.clone(),
                            problem: Problem::Malformed { used: default.to_string() },
                        });
                    }
                }
            },
            Kind::Position => match read_int(given).ok_or(()) {
                Ok(v) => values.values[i] = Value::Int(v),
                Err(_) => {
                    let digits = given.trim().trim_start_matches(['-', '+']);
                    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                        // Too large for i64: keep the sign, the panel clamps.
                        values.values[i] = Value::Int(if given.trim().starts_with('-') { -1 } else { i64::MAX });
                    } else {
                        notices.push(Notice {
                            param: name.clone(),
                            given: given.clone(),
                            problem: Problem::Malformed { used: "0".into() },
                        });
                    }
                }
            },
            Kind::Text { max_len, default, check } => {
                let problem = if given.chars().take(max_len + 1).count() > max_len {
                    Some(Message::new("notice.too-long", &[("max", max_len.to_string())]))
                } else {
                    (check.0)(given).err()
                };
                match problem {
                    None => values.values[i] = Value::Text(given.clone()),
                    Some(reason) => {
                        values.values[i] = Value::Text(default.to_string());
                        notices.push(Notice {
                            param: name.clone(),
                            given: given.clone(),
                            problem: Problem::Invalid { reason, used: default.to_string() },
                        });
                    }
                }
            }
            Kind::Choice { options, default } => match options.iter().find(|o| **o == given.trim()) {
                Some(o) => values.values[i] = Value::Choice(o),
                None => {
                    values.values[i] = Value::Choice(default);
                    notices.push(Notice {
                        param: name.clone(),
                        given: given.clone(),
                        problem: Problem::Malformed { used: default.to_string() },
                    });
                }
            },
        }
    }
    (values, notices)
}

/// Clamp a position parameter (`cycle`, `step`) whose upper bound depends on the
/// other parameters; returns the value to use and a notice if it changed.
pub fn clamp_position(name: &str, given: i64, max: u64) -> (u64, Option<Notice>) {
    if given >= 0 && given as u64 <= max {
        return (given as u64, None);
    }
    let used = given.clamp(0, max.min(i64::MAX as u64) as i64);
    (
        used as u64,
        Some(Notice {
            param: name.to_string(),
            given: given.to_string(),
            problem: Problem::OutOfRange { min: 0, max: max as i64, used },
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    /// Issue 32: `#/lecture` names an unknown parameter or a study value it
    /// cannot use, as a panel does; its own `study=1` and the globals pass.
    #[test]
    fn the_lecture_page_names_bad_and_unknown_parameters() {
        let (v, n) = parse(&LECTURE_PARAMS, &pairs(&[("zap", "1")]));
        assert_eq!((n.len(), n[0].param.as_str(), &n[0].problem), (1, "zap", &Problem::Unknown));
        assert_eq!(v.choice("study"), "0");
        let (v, n) = parse(&LECTURE_PARAMS, &pairs(&[("study", "2")]));
        assert_eq!((n.len(), n[0].param.as_str(), v.choice("study")), (1, "study", "0"));
        let (v, n) = parse(&LECTURE_PARAMS, &pairs(&[("study", "1"), ("lang", "zh"), ("present", "1")]));
        assert!(n.is_empty(), "{n:?}");
        assert_eq!(v.choice("study"), "1");
    }

    /// Issue 32: practice mode adding `q` to `#/threads?practice=1&n=-5`
    /// (after the panel wrote n=1) changes only a global: the panel keeps
    /// its notice about n; a change of its own values does not.
    #[test]
    fn a_change_of_globals_only_is_the_same_query_for_a_panel() {
        let written = pairs(&[("n", "1"), ("block", "256"), ("practice", "1")]);
        let with_q = pairs(&[("n", "1"), ("block", "256"), ("practice", "1"), ("q", "77")]);
        assert!(same_own_query(&written, &with_q));
        assert!(same_own_query(&written, &pairs(&[("n", "1"), ("block", "256"), ("lang", "zh")])));
        assert!(!same_own_query(&written, &pairs(&[("n", "2"), ("block", "256"), ("practice", "1")])));
        assert!(!same_own_query(&written, &pairs(&[("block", "256"), ("n", "1")])));
    }

    /// The global parameters given garbage: a notice naming each, and a
    /// value the app can use (the hostile test of the shell's parameters).
    #[test]
    fn hostile_globals_give_a_notice_and_a_usable_value() {
        for spec in &GLOBALS {
            for bad in ["-3", "abc", "2", "", "1e9", "99999999999999999999999", "%", "１"] {
                let q = vec![(spec.name.to_string(), bad.to_string())];
                let (v, notices) = parse_globals(&q);
                let valid = match spec.kind {
                    Kind::Int { min, max, .. } => read_int(bad).is_some_and(|x| (min..=max).contains(&x)),
                    Kind::Choice { options, .. } => options.contains(&bad),
                    _ => unreachable!("globals are ints and choices"),
                };
                assert_eq!(notices.iter().any(|n| n.param == spec.name), !valid, "{}={bad}", spec.name);
                match spec.kind {
                    Kind::Int { min, max, .. } => assert!((min..=max).contains(&v.int(spec.name))),
                    Kind::Choice { options, .. } => assert!(options.contains(&v.choice(spec.name))),
                    _ => {}
                }
            }
        }
        // A panel's parameters are not the globals' business, and the other way round.
        let (_, notices) = parse_globals(&[("rows".into(), "x".into()), ("lang".into(), "zh".into())]);
        assert!(notices.is_empty(), "{notices:?}");
        let (v, notices) = parse_globals(&[("q".into(), "0".into()), ("deck".into(), "0".into())]);
        assert!(notices.is_empty() && v.int("q") == 0 && v.int("deck") == 0);
        assert_eq!(GLOBALS.map(|s| s.name), GLOBAL_PARAMS);
    }

    static SPECS: [ParamSpec; 3] = [
        ParamSpec::int("rows", 1, 256, 4),
        ParamSpec::choice("dataflow", &["os", "ws"], "os"),
        ParamSpec::int("speed", 1, 1000, 4).optional(),
    ];

    fn q(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    /// `n=1e6` in a link reads as the number box reads 1e3 (issue 22).
    #[test]
    fn integers_in_scientific_notation() {
        let (v, n) = parse(&SPECS, &q(&[("rows", "1.28e2"), ("speed", "1E3")]));
        assert!(n.is_empty(), "{n:?}");
        assert_eq!((v.int("rows"), v.int("speed")), (128, 1000));
        let (v, n) = parse(&SPECS, &q(&[("rows", "1e6")]));
        assert_eq!((v.int("rows"), &n[0].problem), (256, &Problem::OutOfRange { min: 1, max: 256, used: 256 }));
        let (v, n) = parse(&SPECS, &q(&[("rows", "1e30")]));
        assert!(v.int("rows") == 256 && matches!(n[0].problem, Problem::OutOfRange { .. }));
        for bad in ["1.5e0", "1e999", "e3", "1e", "inf", "1.5"] {
            let (v, n) = parse(&SPECS, &q(&[("rows", bad)]));
            assert!(v.int("rows") == 4 && matches!(n[0].problem, Problem::Malformed { .. }), "{bad}");
        }
    }

    #[test]
    fn good_values_pass_without_notice() {
        let (v, n) = parse(&SPECS, &q(&[("rows", "8"), ("dataflow", "ws"), ("lang", "zh")]));
        assert!(n.is_empty());
        assert_eq!(v.int("rows"), 8);
        assert_eq!(v.choice("dataflow"), "ws");
    }

    #[test]
    fn hostile_values_give_notices() {
        let (v, n) = parse(
            &SPECS,
            &q(&[("rows", "-3"), ("dataflow", "zz"), ("bogus", "1"), ("speed", "99999999999999999999999")]),
        );
        assert_eq!(v.int("rows"), 1);
        assert_eq!(v.choice("dataflow"), "os");
        assert_eq!(v.int("speed"), 1000);
        let names: Vec<_> = n.iter().map(|x| x.param.as_str()).collect();
        assert_eq!(names, ["rows", "dataflow", "bogus", "speed"]);
        assert_eq!(n[0].problem, Problem::OutOfRange { min: 1, max: 256, used: 1 });
        assert_eq!(n[2].problem, Problem::Unknown);
        let (v, n) = parse(&SPECS, &q(&[("rows", "abc")]));
        assert_eq!(v.int("rows"), 4);
        assert_eq!(n[0].problem, Problem::Malformed { used: "4".into() });
        let (v, _) = parse(&SPECS, &q(&[("rows", "100000")]));
        assert_eq!(v.int("rows"), 256);
    }

    #[test]
    fn to_query_round_trips_and_skips_optional_defaults() {
        let v = Values::defaults(&SPECS).with("rows", Value::Int(9000));
        assert_eq!(v.int("rows"), 256);
        let query = v.to_query();
        assert_eq!(query, q(&[("rows", "256"), ("dataflow", "os")]));
        let (back, n) = parse(&SPECS, &query);
        assert!(n.is_empty());
        assert_eq!(back, v);
    }

    #[test]
    fn repeated_parameters_are_named_even_when_the_last_copy_is_valid() {
        let (v, n) = parse(&SPECS, &q(&[("rows", "-1"), ("rows", "30"), ("lang", "1"), ("lang", "zh")]));
        assert_eq!(v.int("rows"), 30);
        assert_eq!(n.len(), 1, "{n:?}");
        assert_eq!(n[0].param, "rows");
        assert_eq!(n[0].given, "-1");
        assert_eq!(n[0].problem, Problem::Repeated { times: 2, used: "30".into() });
        // Global parameters are the shell's, which uses `repeated` itself.
        let g = repeated(&q(&[("lang", "1"), ("lang", "zh")]), "lang").unwrap();
        assert_eq!(g.problem, Problem::Repeated { times: 2, used: "zh".into() });
        // An unknown parameter among others is always reported.
        let (_, n) =
            parse(&SPECS, &q(&[("zap", "4294967295"), ("present", "maybe"), ("rows", "5120"), ("present", "1")]));
        let names: Vec<_> = n.iter().map(|x| x.param.as_str()).collect();
        assert_eq!(names, ["zap", "rows"]);
    }

    #[test]
    fn only_plain_absolute_hashes_reach_the_router() {
        for ok in ["", "#/", "#/systolic?rows=4", "#/%5C", "#/threads?n=%E7%BA%BF"] {
            assert!(routable_hash(ok), "{ok}");
        }
        for bad in ["#", "#x", "#//evil", "#/\\", "#/\\evil.example", "#/\t/evil", "#/a\\b", "#%%%"] {
            assert!(!routable_hash(bad), "{bad}");
        }
    }

    #[test]
    fn text_length_is_counted_in_characters() {
        static T: [ParamSpec; 1] = [ParamSpec::text("x", 3, "a", |_| Ok(()))];
        let (v, n) = parse(&T, &q(&[("x", "线程线")]));
        assert!(n.is_empty());
        assert_eq!(v.text("x"), "线程线");
        let (v, n) = parse(&T, &q(&[("x", "线程线程")]));
        assert_eq!(n.len(), 1);
        assert_eq!(v.text("x"), "a");
    }

    #[test]
    fn positions_are_clamped_to_the_run() {
        assert_eq!(clamp_position("cycle", 3, 12), (3, None));
        let (c, n) = clamp_position("cycle", 99, 12);
        assert_eq!(c, 12);
        assert!(n.is_some());
        assert_eq!(clamp_position("cycle", -1, 12).0, 0);
    }
}
