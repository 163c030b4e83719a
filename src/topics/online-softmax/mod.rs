//! `#/online-softmax`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters; the telescoping table's rows,
//! the probabilities' markup and the random vector.

use crate::i18n::{trf, Lang};
use crate::message::Message;
use crate::params::{ParamSpec, Value, Values};
use crate::sim::softmax::{self, OnlineSoftmax, VectorError};
use crate::sim::SplitMix64;
#[cfg(not(target_arch = "wasm32"))]
use crate::topic::snapshot::{Above, Snapshot, Stage, View};
use crate::topic::*;

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

fn check_vector(s: &str) -> Result<(), Message> {
    softmax::parse_vector(s).map(|_| ()).map_err(|e| vector_reason(&e))
}

/// Why a vector can't be read, as a URL notice's reason.
pub fn vector_reason(e: &VectorError) -> Message {
    match e {
        VectorError::TooMany => Message::new("online-softmax.too-many", &[("max", softmax::MAX_VALUES.to_string())]),
        VectorError::NotNumbers { shown, more } => {
            let list: Vec<String> = shown.iter().map(|(i, t)| format!("#{i} “{t}”")).collect();
            let list = list.join(", ");
            match more {
                0 => Message::new("online-softmax.not-numbers", &[("list", list)]),
                m => Message::new("online-softmax.not-numbers-more", &[("list", list), ("more", m.to_string())]),
            }
        }
    }
}

/// What the vector box says about a vector that can't be read, in `lang`.
pub fn vector_error(lang: Lang, e: &VectorError) -> String {
    trf(lang, "online-softmax.vector-error", &[("msg", &vector_reason(e).render(lang))])
}

pub static PARAMS: [ParamSpec; 4] = [
    ParamSpec::text("x", 65536, "1,3,2,5", check_vector),
    ParamSpec::int("block", 1, softmax::MAX_VALUES as i64, 2).log(),
    ParamSpec::position("step"),
    ParamSpec::int("speed", 1, 1000, 2).optional(),
];

pub static META: TopicMeta = TopicMeta::new("online-softmax", Part::Flash, &PARAMS)
    .notes(&["8.2"], "05 · 1")
    .metrics(&["step", "m", "l", "max-abs-error"])
    .position(blocks);

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic = Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK);

/// The vector of `v`'s `x` (the default one if it doesn't parse).
fn vector(v: &Values) -> Vec<f64> {
    softmax::parse_vector(v.text("x")).unwrap_or_else(|_| vec![1.0, 3.0, 2.0, 5.0])
}

pub fn softmax_run(v: &Values) -> softmax::OnlineSoftmax {
    softmax::OnlineSoftmax::new(vector(v), v.int("block") as usize)
}

/// The run's steps, `softmax_run(v).blocks()` without running it. Every
/// step and scrub asks (to keep the position inside the run) and `x` may
/// hold 4,096 numbers, so their count is kept for the last text seen.
fn blocks(v: &Values) -> u64 {
    thread_local!(static COUNT: std::cell::RefCell<(String, usize)> = const { std::cell::RefCell::new((String::new(), 0)) });
    let x = v.text("x");
    let n = COUNT.with(|c| {
        let mut c = c.borrow_mut();
        if c.0 != x || c.0.is_empty() {
            *c = (x.to_string(), vector(v).len());
        }
        c.1
    });
    n.div_ceil((v.int("block") as usize).max(1)) as u64
}

/// Table rows shown at most (the latest blocks; earlier ones in one row).
pub const TABLE_ROWS: u64 = 12;
/// Values of a block listed in its row (then "…").
const ROW_VALUES: usize = 8;

/// One processed block in the telescoping table, as shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The step (block number, 1-based).
    pub step: u64,
    /// Its first values, `…` after when there are more.
    pub values: String,
    pub block_max: String,
    /// The running maximum before and after.
    pub m_before: String,
    pub m_after: String,
    /// `e^(m − m′) = …`, or `—` for the first block.
    pub rescale: String,
    /// The maximum grew, so the old sum was rescaled.
    pub grew: bool,
    pub l: String,
}

/// The table at `step`: the range of earlier blocks folded into one row (if
/// any), then the last [`TABLE_ROWS`] processed blocks, the current one
/// last; a step costs the same at block 4096 as at 2.
pub fn table(sim: &OnlineSoftmax, step: u64) -> (Option<(u64, u64)>, Vec<Row>) {
    let last = step.min(sim.blocks() as u64);
    let first = last.saturating_sub(TABLE_ROWS - 1).max(1);
    let rows = (first..=last)
        .map(|s| {
            let r = sim.running(s);
            let prev = sim.running(s - 1);
            let range = sim.block_range(s);
            let vals: Vec<String> =
                sim.x[range.clone()].iter().take(ROW_VALUES).map(|x| crate::format::running(*x)).collect();
            let more = if range.len() > ROW_VALUES { " …" } else { "" };
            let bmax = sim.x[range].iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let start = prev.m == f64::NEG_INFINITY;
            Row {
                step: s,
                values: format!("{}{more}", vals.join(", ")),
                block_max: crate::format::running(bmax),
                m_before: crate::format::running(prev.m),
                m_after: crate::format::running(r.m),
                rescale: if start {
                    "—".to_string()
                } else {
                    format!(
                        "e^({} − {}) = {}",
                        crate::format::running(prev.m),
                        crate::format::running(r.m),
                        crate::format::running(r.rescale)
                    )
                },
                grew: r.m > prev.m && !start,
                l: crate::format::running(r.l),
            }
        })
        .collect();
    ((first > 1).then_some((1, first - 1)), rows)
}

/// The spans of probabilities `range`, as markup (numbers, and the label
/// `three_pass` of the reference in the tooltip, escaped: texts come from a
/// file).
pub fn probs_markup(p: &[f64], reference: &[f64], range: std::ops::Range<usize>, three_pass: &str) -> String {
    use std::fmt::Write;
    let three_pass = crate::i18n::escape_html(three_pass);
    let mut markup = String::with_capacity(range.len() * 96);
    for i in range {
        let _ = write!(
            markup,
            "<span class=\"prob\" data-metric=\"p-{i}\" data-value=\"{}\" title=\"{three_pass}: {}\">p{i} = {}</span>",
            p[i],
            reference[i],
            crate::format::running(p[i])
        );
    }
    markup
}

/// The values the "random vector" button sets: 16 numbers in −4.0..6.0,
/// seeded by the current text (the same text, the same vector), in blocks of 4
/// from the start.
pub fn random_vector(current: &str) -> Vec<(&'static str, Value)> {
    let seed = current.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
    let mut rng = SplitMix64::new(seed);
    let xs: Vec<String> = (0..16).map(|_| format!("{:.1}", rng.range_i32(-40, 60) as f64 / 10.0)).collect();
    vec![("x", Value::Text(xs.join(","))), ("block", Value::Int(4)), ("step", Value::Int(0))]
}

/// The static snapshot (`crate::topic::snapshot`): the default vector at
/// the default step, drawn as the panel draws it, and its key figures.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: Lang, width: f64) -> Snapshot {
    use crate::sim::Steppable;
    let (v, _) = META.parse(&[]);
    let sim = softmax_run(&v);
    let step = v.int("step") as u64;
    let scene = crate::draw::softmax::draw(&sim, step, &crate::scene::Theme::normal(), width);
    Snapshot::View(View {
        above: Above::Nothing,
        stage: Stage::Scene(scene),
        label: crate::i18n::tr(lang, "param.x"),
        figures: sim.metrics(step),
        pending: (vec![], ""),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::topic::q;

    #[test]
    fn numbers_as_the_table_shows_them() {
        assert_eq!(crate::format::running(f64::NEG_INFINITY), "−∞");
        assert_eq!(crate::format::running(3.0), "3");
        assert_eq!(crate::format::running(1.0 + (-2f64).exp()), "1.135335");
        assert_eq!(crate::format::running(123456.0), "1.2346e5");
        assert_eq!(crate::format::running(0.0001), "1.0000e-4");
        assert_eq!(crate::format::running(0.0), "0");
    }

    #[test]
    fn the_issue_example_telescopes() {
        // x = 1,3,2,5 in blocks of 2: m 3 then 5; the old sum is rescaled by e^(3 − 5).
        let (v, n) = META.parse(&q(&[("x", "1,3,2,5"), ("block", "2"), ("step", "2")]));
        assert!(n.is_empty());
        let sim = softmax_run(&v);
        let (earlier, rows) = table(&sim, 2);
        assert_eq!(earlier, None);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].values.as_str(), rows[0].m_before.as_str(), rows[0].m_after.as_str()), ("1, 3", "−∞", "3"));
        assert_eq!((rows[0].rescale.as_str(), rows[0].grew), ("—", false));
        assert_eq!(
            (rows[1].block_max.as_str(), rows[1].rescale.as_str(), rows[1].grew),
            ("5", "e^(3 − 5) = 0.135335", true)
        );
        assert_eq!(table(&sim, 0), (None, vec![]));
    }

    #[test]
    fn blocks_are_the_runs_steps() {
        let long = (0..4096).map(|i| ((i * 37) % 101).to_string()).collect::<Vec<_>>().join(",");
        for x in ["1,3,2,5", "7", "1,2,3,4,5,6,7,8,9", long.as_str(), "1,3,2,5", "1, x", ""] {
            for block in ["1", "2", "3", "8", "4096", "65536"] {
                let (v, _) = META.parse(&q(&[("x", x), ("block", block)]));
                assert_eq!(blocks(&v), softmax_run(&v).blocks() as u64, "x = {:.20}, block {block}", x);
            }
        }
    }

    #[test]
    fn long_runs_fold_earlier_blocks() {
        // 200 values in blocks of 9: 23 blocks.
        let sim = OnlineSoftmax::new((0..200).map(|i| (i % 7) as f64).collect(), 9);
        assert_eq!(table(&sim, 12).0, None, "twelve rows fit");
        let (earlier, rows) = table(&sim, 14);
        assert_eq!(earlier, Some((1, 2)));
        assert_eq!(rows.len() as u64, TABLE_ROWS);
        assert_eq!((rows[0].step, rows.last().unwrap().step), (3, 14));
        assert!(rows[0].values.ends_with(" …"), "9 values, 8 shown");
        assert_eq!(table(&sim, 999), table(&sim, 23), "past the end is the end");
    }

    #[test]
    fn probabilities_markup_and_random_vectors() {
        let m = probs_markup(&[0.25, 0.75], &[0.25, 0.75], 1..2, "三趟算法");
        assert_eq!(
            m,
            "<span class=\"prob\" data-metric=\"p-1\" data-value=\"0.75\" title=\"三趟算法: 0.75\">p1 = 0.75</span>"
        );
        let hostile = probs_markup(&[1.0], &[1.0], 0..1, "\"><img src=x onerror=alert(1)>");
        assert!(hostile.contains("title=\"&quot;&gt;&lt;img src=x onerror=alert(1)&gt;: 1\""), "{hostile}");
        let r = random_vector("1,3,2,5");
        assert_eq!(r, random_vector("1,3,2,5"), "seeded by the text");
        let Value::Text(x) = &r[0].1 else { panic!("a text") };
        let xs = softmax::parse_vector(x).expect("a valid vector");
        assert_eq!(xs.len(), 16);
        assert!(xs.iter().all(|v| (-4.0..=6.0).contains(v)));
        assert_ne!(r, random_vector(x));
    }
}
