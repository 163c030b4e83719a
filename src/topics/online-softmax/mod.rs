//! `#/online-softmax`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters; the telescoping table's rows,
//! the probabilities' markup and the random vector.

use crate::i18n::{trf, Lang};
use crate::params::{ParamSpec, Reason, Value, Values};
use crate::sim::softmax::{self, OnlineSoftmax, VectorError};
use crate::sim::SplitMix64;
use crate::topic::*;

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

fn check_vector(s: &str) -> Result<(), Reason> {
    softmax::parse_vector(s).map(|_| ()).map_err(|e| vector_reason(&e))
}

/// Why a vector can't be read, as a URL notice's reason.
pub fn vector_reason(e: &VectorError) -> Reason {
    match e {
        VectorError::TooMany => Reason::new("online-softmax.too-many", &[("max", softmax::MAX_VALUES.to_string())]),
        VectorError::NotNumbers { shown, more } => {
            let list: Vec<String> = shown.iter().map(|(i, t)| format!("#{i} “{t}”")).collect();
            let list = list.join(", ");
            match more {
                0 => Reason::new("online-softmax.not-numbers", &[("list", list)]),
                m => Reason::new("online-softmax.not-numbers-more", &[("list", list), ("more", m.to_string())]),
            }
        }
    }
}

/// What the vector box says about a vector that can't be read, in `lang`.
pub fn vector_error(lang: Lang, e: &VectorError) -> String {
    let r = vector_reason(e);
    let args: Vec<(&str, &str)> = r.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    trf(lang, "online-softmax.vector-error", &[("msg", &trf(lang, r.key, &args))])
}

pub static SOFTMAX_PARAMS: [ParamSpec; 4] = [
    ParamSpec::text("x", 65536, "1,3,2,5", check_vector),
    ParamSpec::int("block", 1, softmax::MAX_VALUES as i64, 2).log(),
    ParamSpec::position("step"),
    ParamSpec::int("speed", 1, 1000, 2).optional(),
];

pub static ONLINE_SOFTMAX: TopicMeta = TopicMeta {
    id: "online-softmax",
    sections: &["8.2"],
    demo: "05 · 1",
    part: Part::Flash,
    params: &SOFTMAX_PARAMS,
    metrics: &["step", "m", "l", "max-abs-error"],
    position_max: Some(blocks),
    bounds: None,
};

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

/// Everything this route owns (the registry lists it).
pub static TOPIC: Topic = Topic::new(&ONLINE_SOFTMAX, STRINGS, &practice::BANK);

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("topic.online-softmax.title", "Online softmax", "在线 softmax"),
    ("topic.online-softmax.summary", "One pass for the maximum and the sum: keep a running maximum, and rescale the running sum whenever the maximum grows.", "一趟同时求最大值和指数和：维护运行中的最大值，最大值变大时给累加和换基准。"),
    ("param.x", "Input vector x", "输入向量 x"),
    ("param.x.doc", "Comma-separated numbers (at most 4096)", "逗号分隔的数（最多 4096 个）"),
    ("online-softmax.random", "Random vector", "随机向量"),
    ("online-softmax.vector-error", "Vector error: {msg}", "向量有误：{msg}"),
    ("online-softmax.too-many", "more than {max} values", "超过 {max} 个数"),
    ("online-softmax.not-numbers", "not a number: {list}", "不是数字：{list}"),
    ("online-softmax.not-numbers-more", "not a number: {list} and {more} more", "不是数字：{list}，另有 {more} 个"),
    ("online-softmax.table.block", "Block", "块"),
    ("online-softmax.table.values", "Values", "数值"),
    ("online-softmax.table.bmax", "Block max", "块内最大值"),
    ("online-softmax.table.m", "m (running max)", "m（运行最大值）"),
    ("online-softmax.table.rescale", "e^(m − m′) on old ℓ", "旧 ℓ 乘以 e^(m − m′)"),
    ("online-softmax.table.l", "ℓ (running sum)", "ℓ（运行指数和）"),
    ("online-softmax.probs", "Probabilities p = e^(x − m) / ℓ", "概率 p = e^(x − m) / ℓ"),
    ("online-softmax.three-pass", "three-pass", "三趟算法"),
    ("online-softmax.probs-wait", "The probabilities appear once every block is processed.", "处理完所有块后显示概率。"),
    ("online-softmax.passes", "Passes over x in memory", "对内存中 x 的扫描次数"),
    ("online-softmax.passes.three", "Three-pass softmax: read x for the max, read x for the sum, read x to normalise: 3 reads.", "三趟 softmax：读 x 求最大值、读 x 求和、读 x 归一化：3 次读取。"),
    ("online-softmax.passes.online", "Online softmax: read x once for m and ℓ together; the normalising read is the only other one, and inside FlashAttention it is folded into the output O, so x (the scores S) is read once.", "在线 softmax：读一次 x 同时得到 m 和 ℓ；另外只剩归一化那一次读取，而在 FlashAttention 中它被并入输出 O，所以 x（即分数 S）只读一次。"),
    ("online-softmax.explain", "When a block raises the maximum from m to m′, every term already in ℓ was e^(x − m); multiplying ℓ by e^(m − m′) turns each into e^(x − m′), the new base (the telescoping of the notes). The final m and ℓ are exactly the three-pass ones.", "当某一块把最大值从 m 提高到 m′ 时，ℓ 中已有的每一项都是 e^(x − m)；把 ℓ 乘以 e^(m − m′)，每一项就变成以新基准表示的 e^(x − m′)（讲义所说的“伸缩求和”）。最终的 m 和 ℓ 与三趟算法完全相同。"),
    ("online-softmax.lecture", "Lecture check (notes §8.2): the online result equals softmax; the notes' demo measures 5 × 10⁻¹⁰ against torch.softmax in float32. Computed here in float64, the difference is at the level of 10⁻¹⁶.", "讲义对照（§8.2）：在线算法与 softmax 一致；讲义的演示用 float32 与 torch.softmax 比较，差 5 × 10⁻¹⁰。这里用 float64 计算，差异在 10⁻¹⁶ 量级。"),
    ("metric.m", "m (running max)", "m（运行最大值）"),
    ("metric.l", "ℓ (running sum)", "ℓ（运行指数和）"),
    ("metric.online-softmax.max-abs-error", "Max |p − softmax(x)|", "最大 |p − softmax(x)|"),
    ("metric.online-softmax.max-abs-error.doc", "Online result against the three-pass softmax", "在线算法与三趟 softmax 之差"),
    ("param.online-softmax.block", "Block size", "块大小"),
    ("param.online-softmax.block.doc", "Values processed per step", "每步处理的数值个数"),
];

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
        let (v, n) = ONLINE_SOFTMAX.parse(&q(&[("x", "1,3,2,5"), ("block", "2"), ("step", "2")]));
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
                let (v, _) = ONLINE_SOFTMAX.parse(&q(&[("x", x), ("block", block)]));
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
