//! The one registry of lecture topics. Each topic is a folder named by its
//! route (`topics/<id>/`): `mod.rs` is pure (parameters, meta, conversion to
//! simulation parameters, texts, tests), `view.rs` is its panel (wasm32).
//! `registry!` below lists them; the landing page, the router, the README
//! generator and every test read `ALL`. Adding a panel: a folder and a line.

use crate::params::{clamp_position, parse, Kind, Notice, ParamSpec, Value, Values};

pub struct TopicMeta {
    /// The route (`#/<id>`) and the stem of its translation keys
    /// (`topic.<id>.title`, `topic.<id>.summary`).
    pub id: &'static str,
    /// Lecture notes sections it covers (`../shared/lecture/notes.txt`).
    pub sections: &'static [&'static str],
    /// Companion demo in the notes (script number, and demo within it).
    pub demo: &'static str,
    /// The lecture part the landing page files it under.
    pub part: Part,
    /// URL parameters, in the order they are written.
    pub params: &'static [ParamSpec],
    /// `data-metric` names the panel always shows.
    pub metrics: &'static [&'static str],
    /// The largest value of the position parameter (`cycle`, `step`) for
    /// these values, if the panel steps.
    pub position_max: Option<fn(&Values) -> u64>,
    /// Upper bounds of integer parameters that depend on the others (e.g. a
    /// tile index below the tile count): clamped with a notice when read from
    /// a URL, silently when another parameter changes.
    pub bounds: Option<Bounds>,
}

/// The parts of the lecture, in order (landing page sections).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// §1–4: how a GPU works.
    Gpu,
    /// §5–7: making ML workloads fast.
    Fast,
    /// §8: FlashAttention.
    Flash,
    /// §9: TPUs.
    Tpu,
}

impl Part {
    pub const ALL: [Part; 4] = [Part::Gpu, Part::Fast, Part::Flash, Part::Tpu];
    /// Translation key of its heading.
    pub fn key(self) -> &'static str {
        match self {
            Part::Gpu => "landing.part.gpu",
            Part::Fast => "landing.part.fast",
            Part::Flash => "landing.part.flash",
            Part::Tpu => "landing.part.tpu",
        }
    }
}

/// Dependent upper bounds: `(parameter, largest value)` for given values.
pub type Bounds = fn(&Values) -> Vec<(&'static str, i64)>;

impl TopicMeta {
    /// The position parameter's name, if the panel steps.
    pub fn position_param(&self) -> Option<&'static str> {
        self.params.iter().find(|p| p.kind == Kind::Position).map(|p| p.name)
    }

    /// Parse a URL query for this topic: validated values, with the position
    /// clamped to the run, and a notice for everything that was changed.
    pub fn parse(&'static self, query: &[(String, String)]) -> (Values, Vec<Notice>) {
        let (values, mut notices) = parse(self.params, query);
        let values = match (self.position_param(), self.position_max) {
            (Some(name), Some(max)) => {
                let (pos, notice) = clamp_position(name, values.int(name), max(&values));
                notices.extend(notice);
                values.with(name, Value::Int(pos as i64))
            }
            _ => values,
        };
        let mut values = values;
        if let Some(bounds) = self.bounds {
            for (name, max) in bounds(&values) {
                let given = values.int(name);
                if given > max {
                    let problem = crate::params::Problem::OutOfRange { min: 0, max, used: max };
                    // One notice per parameter: refine the static range's notice if there is one.
                    let same = |n: &&mut Notice| {
                        n.param == name && matches!(n.problem, crate::params::Problem::OutOfRange { .. })
                    };
                    match notices.iter_mut().find(same) {
                        Some(n) => n.problem = problem,
                        None => notices.push(Notice { param: name.to_string(), given: given.to_string(), problem }),
                    }
                    values = values.with(name, Value::Int(max));
                }
            }
        }
        (values, notices)
    }

    /// The parameters as JSON (`[{"name":…,"kind":"int","min":…,"max":…}, …]`),
    /// published on the landing page's cards for the browser tests.
    pub fn params_json(&self) -> String {
        let items: Vec<String> = self
            .params
            .iter()
            .map(|p| match p.kind {
                Kind::Int { min, max, .. } => format!(
                    r#"{{"name":"{}","kind":"int","min":{min},"max":{max}{}}}"#,
                    p.name,
                    if p.always { "" } else { r#","optional":true"# }
                ),
                Kind::Choice { options, .. } => format!(
                    r#"{{"name":"{}","kind":"choice","options":[{}]}}"#,
                    p.name,
                    options.iter().map(|o| format!("\"{o}\"")).collect::<Vec<_>>().join(",")
                ),
                Kind::Position => format!(r#"{{"name":"{}","kind":"position"}}"#, p.name),
                Kind::Text { max_len, .. } => format!(r#"{{"name":"{}","kind":"text","maxLen":{max_len}}}"#, p.name),
            })
            .collect();
        format!("[{}]", items.join(","))
    }

    /// The largest value of `name` that the other values allow (from
    /// `bounds`), if it depends on them.
    pub fn dependent_max(&self, values: &Values, name: &str) -> Option<i64> {
        self.bounds.and_then(|b| b(values).into_iter().find(|(n, _)| *n == name).map(|(_, m)| m))
    }

    /// Keep the position inside the run after another parameter changed.
    pub fn normalize(&self, values: Values) -> Values {
        let mut values = values;
        if let Some(bounds) = self.bounds {
            for (name, max) in bounds(&values) {
                let v = values.int(name).min(max);
                values = values.with(name, Value::Int(v));
            }
        }
        match (self.position_param(), self.position_max) {
            (Some(name), Some(max)) => {
                let m = max(&values);
                let pos = values.int(name).clamp(0, m as i64);
                values.with(name, Value::Int(pos))
            }
            _ => values,
        }
    }
}

/// `m` or `k` given as 0 means "the same as n" (square by default).
pub fn or_n(v: &Values, name: &str) -> u64 {
    match v.int(name) {
        0 => v.int("n") as u64,
        x => x as u64,
    }
}

/// Measured data beside the model (`measured=0` hides it; optional, so links
/// stay short).
pub const MEASURED: ParamSpec = ParamSpec::choice("measured", &["1", "0"], "1").optional();

/// The GPU a panel's roofline inset is drawn for.
pub const INSET_GPU: ParamSpec = ParamSpec::choice("gpu", crate::sim::hw::GPU_CODES, "h100").optional();

// The registry: one `#[path] pub mod` item per topic, in lecture order. They
// are plain items (not inside a macro) so that `cargo fmt` reads every topic
// file; `build.rs` reads these items, in this order, and writes `ALL` (the one
// list of topics that the landing page, router, README generator and tests
// read). Adding a panel: one folder and one item here.
#[path = "hardware/mod.rs"]
pub mod hardware;
#[path = "threads/mod.rs"]
pub mod threads;
#[path = "roofline/mod.rs"]
pub mod roofline;
#[path = "your-machine/mod.rs"]
pub mod your_machine;
#[path = "divergence/mod.rs"]
pub mod divergence;
#[path = "fusion/mod.rs"]
pub mod fusion;
#[path = "recompute/mod.rs"]
pub mod recompute;
#[path = "coalescing/mod.rs"]
pub mod coalescing;
#[path = "tiling/mod.rs"]
pub mod tiling;
#[path = "quantization/mod.rs"]
pub mod quantization;
#[path = "occupancy/mod.rs"]
pub mod occupancy;
#[path = "waves/mod.rs"]
pub mod waves;
#[path = "online-softmax/mod.rs"]
pub mod online_softmax;
#[path = "flash/mod.rs"]
pub mod flash;
#[path = "attention-memory/mod.rs"]
pub mod attention_memory;
#[path = "gpu-vs-tpu/mod.rs"]
pub mod gpu_vs_tpu;
#[path = "systolic/mod.rs"]
pub mod systolic;

include!(concat!(env!("OUT_DIR"), "/topics_all.rs"));

// Legacy paths (crate::topics::THREADS, ...) while the panels move into their folders.
pub use attention_memory::{ATTENTION_MEMORY, MEMORY_PARAMS};
pub use coalescing::{coalescing_params, COALESCING, COALESCING_PARAMS};
pub use divergence::{divergence_params, divergence_run, DIVERGENCE, DIVERGENCE_PARAMS};
pub use flash::{flash_params, flash_pass, FLASH, FLASH_PARAMS};
pub use fusion::{FUSION, FUSION_PARAMS};
pub use hardware::{machine, HARDWARE, HARDWARE_PARAMS};
pub use occupancy::{occupancy_kernel, OCCUPANCY, OCCUPANCY_PARAMS};
pub use recompute::{recompute, RECOMPUTE, RECOMPUTE_PARAMS};
pub use roofline::{roofline_work, ROOFLINE, ROOFLINE_PARAMS};
pub use threads::{threads_grid, THREADS, THREADS_PARAMS};

/// One registry entry: the pure meta, this topic's texts and (in the
/// browser) its panel.
pub struct Topic {
    pub meta: &'static TopicMeta,
    /// (key, English, 中文), looked up by [`crate::i18n`].
    pub strings: &'static [(&'static str, &'static str, &'static str)],
    #[cfg(target_arch = "wasm32")]
    pub view: fn() -> yew::Html,
}

pub fn find(id: &str) -> Option<&'static Topic> {
    ALL.iter().copied().find(|t| t.meta.id == id)
}

/// A markdown table of every panel's URL parameters and metrics (the README's
/// panel table is checked against it by a test).
pub fn readme_table() -> String {
    let mut out =
        String::from("| route | notes § | demo | URL parameters | metrics (`data-metric`) |\n|---|---|---|---|---|\n");
    for t in ALL.iter().map(|t| t.meta) {
        let params: Vec<String> = t.params.iter().map(|p| format!("`{}`", p.name)).collect();
        let metrics: Vec<String> = t.metrics.iter().map(|m| format!("`{m}`")).collect();
        out += &format!(
            "| `#/{}` | {} | {} | {} | {} |\n",
            t.id,
            t.sections.join(", "),
            t.demo,
            params.join(" "),
            metrics.join(" ")
        );
    }
    out
}

/// Query pairs from string pairs (the topics' tests).
#[cfg(test)]
pub(crate) fn q(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[cfg(test)]
mod hostile;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{parse, Kind};

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

    /// The hostile-URL test of the pure layer, over the whole registry: every
    /// parameter of every topic, given garbage, gives a notice naming it and a
    /// value inside its range.
    #[test]
    fn hostile_values_for_every_parameter_of_every_topic() {
        // An integer as a URL may write it: digits, or a whole number in
        // scientific notation (`1e9`, as the number boxes read it).
        let as_int = |s: &str| {
            s.parse::<i64>().ok().or_else(|| {
                let x =
                    s.parse::<f64>().ok().filter(|x| s.contains(['e', 'E']) && x.is_finite() && x.fract() == 0.0)?;
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
                            assert!(
                                used == bad || notices.iter().any(|n| n.param == p.name),
                                "{}.{}={bad}",
                                t.id,
                                p.name
                            );
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
        let (v, notices) = systolic::SYSTOLIC.parse(&q(&[
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
        let shrunk = systolic::SYSTOLIC.normalize(v.with("cycle", Value::Int(12)).with("k", Value::Int(1)));
        assert_eq!(shrunk.int("cycle"), 7);
    }

    #[test]
    fn params_json_names_every_parameter() {
        let j = systolic::SYSTOLIC.params_json();
        assert!(j.starts_with(r#"[{"name":"rows","kind":"int","min":1,"max":256}"#), "{j}");
        assert!(j.contains(r#"{"name":"dataflow","kind":"choice","options":["os","ws","is"]}"#));
        assert!(j.contains(r#"{"name":"cycle","kind":"position"}"#));
        assert!(j.contains(r#"{"name":"speed","kind":"int","min":1,"max":1000,"optional":true}"#));
    }

    #[test]
    fn readme_lists_every_panel() {
        let readme = include_str!("../../README.md");
        assert!(readme.contains(&readme_table()), "README's panel table is stale; expected:\n{}", readme_table());
    }
}
