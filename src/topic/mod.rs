//! What a topic is: its [`TopicMeta`] (route, lecture sections, URL
//! parameters, metrics, position), the lecture [`Part`] it belongs to, and
//! [`Topic`], everything one route owns (meta, texts, practice bank, lecture
//! rows, measured files). The registry of topics is `crate::topics`; this
//! module knows none of them.

use crate::params::{clamp_position, parse, Kind, Notice, ParamSpec, Value, Values};

mod entry;
pub use entry::Topic;
#[cfg(not(target_arch = "wasm32"))]
pub mod snapshot;

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
    /// A topic: its route, the lecture part it belongs to, its URL
    /// parameters; where the notes treat it, its key figures, its position
    /// and dependent bounds follow as builder calls.
    pub const fn new(id: &'static str, part: Part, params: &'static [ParamSpec]) -> Self {
        TopicMeta { id, sections: &[], demo: "", part, params, metrics: &[], position_max: None, bounds: None }
    }

    /// The notes sections it covers and its companion demo.
    pub const fn notes(self, sections: &'static [&'static str], demo: &'static str) -> Self {
        TopicMeta { sections, demo, ..self }
    }

    /// The `data-metric` names the panel always shows.
    pub const fn metrics(self, metrics: &'static [&'static str]) -> Self {
        TopicMeta { metrics, ..self }
    }

    /// The largest position for given values (a panel that steps).
    pub const fn position(self, max: fn(&Values) -> u64) -> Self {
        TopicMeta { position_max: Some(max), ..self }
    }

    /// Upper bounds of parameters that depend on the others.
    pub const fn bounds(self, bounds: Bounds) -> Self {
        TopicMeta { bounds: Some(bounds), ..self }
    }

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

/// Query pairs from string pairs (the topics' tests).
#[cfg(test)]
pub(crate) fn q(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}
