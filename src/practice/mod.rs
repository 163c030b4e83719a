//! Predict, then reveal: questions drawn from each panel's own simulation.
//!
//! Every topic has a bank of question kinds in its folder
//! (`topics/<id>/practice.rs`). A question is a pure function of the topic
//! and a seed (`q=<seed>` in the URL): the seed picks the kind and the
//! parameters, the topic's conversion functions and simulation compute the
//! answer and the explanation, and `state` is the panel's URL query that
//! shows the answer. Nothing here knows about the browser.

use crate::message::Message;

use crate::format::grouped;
use crate::i18n::Lang;
use crate::params::Values;
use crate::sim::SplitMix64;
use crate::topic::TopicMeta;

mod input;
mod round;
#[cfg(test)]
mod tests;

pub use input::{code_spans, read_number, Typed};
pub use round::{part_code, part_from_code, round, Round, ROUND_LEN, ROUND_PARAMS};

/// The practice mode's own texts (each topic's questions are in its
/// `topics/<id>/practice.tsv`).
pub static STRINGS: crate::i18n::Texts = crate::texts!("texts.tsv");

/// How close a predicted number must be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tol {
    /// A count: right only when equal; close within 10%.
    Exact,
    /// A measured-like quantity: right within this fraction, close within four times it.
    Rel(f64),
    /// A percentage (in points): right within this, close within four times it.
    Abs(f64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grade {
    Right,
    Close,
    Wrong,
}

impl Grade {
    pub fn code(self) -> &'static str {
        match self {
            Grade::Right => "right",
            Grade::Close => "close",
            Grade::Wrong => "wrong",
        }
    }
}

/// One option of a multiple-choice question; `right` is decided by the simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub label: Message,
    pub right: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// A number; `traps` are the usual wrong readings (a floor instead of a
    /// ceiling, a forgotten factor), which must never grade as right.
    Number {
        value: f64,
        tol: Tol,
        traps: Vec<f64>,
    },
    Choice(Vec<Choice>),
}

/// What the learner gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Given {
    Number(f64),
    Choice(usize),
}

impl Answer {
    pub fn count(value: u64) -> Self {
        Answer::Number { value: value as f64, tol: Tol::Exact, traps: Vec::new() }
    }
    pub fn real(value: f64, rel: f64) -> Self {
        Answer::Number { value, tol: Tol::Rel(rel), traps: Vec::new() }
    }
    /// A fraction 0..=1 asked as a percentage, right within `points`.
    pub fn percent(fraction: f64, points: f64) -> Self {
        Answer::Number { value: 100.0 * fraction, tol: Tol::Abs(points), traps: Vec::new() }
    }
    pub fn with_traps(self, t: &[f64]) -> Self {
        match self {
            Answer::Number { value, tol, .. } => Answer::Number { value, tol, traps: t.to_vec() },
            c => c,
        }
    }
    /// Options in this order; exactly one should be right.
    pub fn choice(options: Vec<(Message, bool)>) -> Self {
        Answer::Choice(options.into_iter().map(|(label, right)| Choice { label, right }).collect())
    }

    pub fn grade(&self, given: Given) -> Grade {
        match (self, given) {
            (Answer::Number { value, tol, traps }, Given::Number(x)) => {
                let g = grade_number(*value, *tol, x);
                // A trap is the very misreading the panel teaches (a floor for
                // a ceiling): never right, and not "close" either.
                let trapped = traps.iter().any(|t| grade_number(*t, *tol, x) == Grade::Right);
                if g != Grade::Right && trapped {
                    Grade::Wrong
                } else {
                    g
                }
            }
            (Answer::Choice(options), Given::Choice(i)) => match options.get(i) {
                Some(c) if c.right => Grade::Right,
                _ => Grade::Wrong,
            },
            _ => Grade::Wrong,
        }
    }

    /// The right answer as shown after the reveal.
    pub fn shown(&self, lang: Lang) -> String {
        match self {
            Answer::Number { value, tol: Tol::Exact, .. } => grouped(*value as u64),
            Answer::Number { value, tol: Tol::Abs(_), .. } => format!("{}%", crate::format::number(*value)),
            Answer::Number { value, .. } => crate::format::number(*value),
            Answer::Choice(options) => {
                options.iter().find(|c| c.right).map(|c| c.label.render(lang)).unwrap_or_default()
            }
        }
    }
}

fn grade_number(value: f64, tol: Tol, x: f64) -> Grade {
    if !x.is_finite() {
        return Grade::Wrong;
    }
    let d = (x - value).abs();
    let (right, close) = match tol {
        Tol::Exact => (1e-9 * value.abs().max(1.0), 0.1 * value.abs()),
        Tol::Rel(r) => (r * value.abs(), 4.0 * r * value.abs()),
        Tol::Abs(a) => (a, 4.0 * a),
    };
    if d <= right {
        Grade::Right
    } else if d <= close {
        Grade::Close
    } else {
        Grade::Wrong
    }
}

/// What a generator makes: the question without its address.
#[derive(Clone, Debug, PartialEq)]
pub struct Made {
    pub prompt: Message,
    pub answer: Answer,
    pub explain: Message,
    /// The panel's values that show the answer.
    pub state: Values,
}

/// A question's text arguments, from the panel's values.
pub type Args = fn(&Values) -> Vec<(&'static str, String)>;

/// A question on `state`: the texts `prompt` and `explain`, both filled in
/// with `args(&state)` (computed once), and its answer.
pub fn ask(prompt: &'static str, answer: Answer, explain: &'static str, args: Args, state: Values) -> Made {
    let filled = args(&state);
    Made { prompt: Message::new(prompt, &filled), answer, explain: Message::new(explain, &filled), state }
}

/// A question, reproducible from (topic, seed).
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub topic: &'static str,
    pub kind: &'static str,
    pub seed: u64,
    pub prompt: Message,
    pub answer: Answer,
    pub explain: Message,
    pub state: Values,
}

impl Question {
    /// The panel's URL query for the question's configuration.
    pub fn query(&self) -> Vec<(String, String)> {
        self.state.to_query()
    }
}

/// One kind of question: its id and its generator.
pub struct Kind {
    pub id: &'static str,
    pub make: fn(&mut Rng) -> Made,
}

/// A topic's questions and their texts.
pub struct Bank {
    pub topic: &'static str,
    pub kinds: &'static [Kind],
    pub strings: crate::i18n::Texts,
}

/// A topic's `BANK` from its kinds (`"id" => generator`), invoked in
/// `topics/<id>/practice.rs`: its topic is the folder's `META.id` (nothing to
/// repeat or rename in a copy) and its texts are the `practice.tsv` beside it.
macro_rules! bank {
    ($($id:literal => $make:ident),+ $(,)?) => {
        pub static BANK: $crate::practice::Bank = $crate::practice::Bank {
            topic: super::META.id,
            kinds: &[$($crate::practice::Kind { id: $id, make: $make }),+],
            strings: $crate::texts!("practice.tsv"),
        };
    };
}
pub(crate) use bank;

/// The question `seed` of a topic's bank (the seed picks the kind, then the
/// parameters).
pub fn question(b: &'static Bank, seed: u64) -> Question {
    let mut rng = Rng(SplitMix64::new(seed));
    let kind = &b.kinds[rng.below(b.kinds.len() as u64) as usize];
    let m = (kind.make)(&mut rng);
    Question {
        topic: b.topic,
        kind: kind.id,
        seed,
        prompt: m.prompt,
        answer: m.answer,
        explain: m.explain,
        state: m.state,
    }
}

/// The generators' randomness: SplitMix64 with helpers.
pub struct Rng(pub SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(SplitMix64::new(seed))
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.0.next_u64() % n.max(1)
    }
    /// Uniform in `lo..=hi`.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
    /// A power of two `2^lo ..= 2^hi`.
    pub fn pow2(&mut self, lo: u32, hi: u32) -> i64 {
        1 << self.int(lo as i64, hi as i64)
    }
    /// Draw until `f` accepts (a tie, a case without a question): a fixed
    /// sequence for a fixed seed, so still reproducible.
    pub fn until<T>(&mut self, mut f: impl FnMut(&mut Rng) -> Option<T>) -> T {
        loop {
            if let Some(t) = f(self) {
                return t;
            }
        }
    }
}

/// A topic's values from query pairs (validated by its own parser; the
/// tests check that a generator's pairs need no correction).
pub fn values(meta: &'static TopicMeta, pairs: &[(&str, String)]) -> Values {
    let q: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    meta.parse(&q).0
}

/// Yes / no options, the simulation's fact deciding which is right.
pub fn yes_no(fact: bool) -> Answer {
    Answer::choice(vec![(Message::key("practice.yes"), fact), (Message::key("practice.no"), !fact)])
}

/// Memory- / compute-bound options.
pub fn bound_choice(memory_bound: bool) -> Answer {
    Answer::choice(vec![
        (Message::key("practice.memory"), memory_bound),
        (Message::key("practice.compute"), !memory_bound),
    ])
}

/// Shorthand for a text argument.
pub fn a(name: &'static str, v: impl ToString) -> (&'static str, String) {
    (name, v.to_string())
}

/// The raw value of the metric `name` (a simulation's readout).
pub fn metric(ms: &[crate::sim::Metric], name: &str) -> f64 {
    ms.iter().find(|m| m.name == name).map_or(f64::NAN, |m| m.value)
}

/// The values with the panel's player at the end of its run.
pub fn at_end(meta: &'static TopicMeta, v: Values) -> Values {
    match (meta.position_param(), meta.position_max) {
        (Some(name), Some(max)) => v.with(name, crate::params::Value::Int(max(&v).min(i64::MAX as u64) as i64)),
        _ => v,
    }
}
