//! `#/online-softmax`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use super::*;
#[allow(unused_imports)]
use crate::params::{Kind, ParamSpec, Value, Values};
#[allow(unused_imports)]
use crate::sim::systolic::{self, Dataflow, MAX_DIM, MAX_K};
#[allow(unused_imports)]
use crate::sim::{coalescing, divergence, expr, flash, fusion, matmul, occupancy, roofline, softmax, threads};

fn check_vector(s: &str) -> Result<(), String> {
    softmax::parse_vector(s).map(|_| ())
}

pub static SOFTMAX_PARAMS: [ParamSpec; 4] = [
    ParamSpec::text("x", 65536, "1,3,2,5", check_vector),
    ParamSpec::int("block", 1, softmax::MAX_VALUES as i64, 2),
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
    position_max: Some(|v| softmax_run(v).blocks() as u64),
    bounds: None,
};

pub fn softmax_run(v: &Values) -> softmax::OnlineSoftmax {
    let x = softmax::parse_vector(v.text("x")).unwrap_or_else(|_| vec![1.0, 3.0, 2.0, 5.0]);
    softmax::OnlineSoftmax::new(x, v.int("block") as usize)
}

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &ONLINE_SOFTMAX,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <crate::ui::panels::softmax::SoftmaxPanel /> },
};

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = &[
    ("topic.online-softmax.title", "Online softmax", "在线 softmax"),
    ("topic.online-softmax.summary", "One pass for the maximum and the sum: keep a running maximum, and rescale the running sum whenever the maximum grows.", "一趟同时求最大值和指数和：维护运行中的最大值，最大值变大时给累加和换基准。"),
    ("param.x", "Input vector x", "输入向量 x"),
    ("param.x.doc", "Comma-separated numbers (at most 4096)", "逗号分隔的数（最多 4096 个）"),
    ("softmax.random", "Random vector", "随机向量"),
    ("softmax.vector-error", "Vector error: {msg}", "向量有误：{msg}"),
    ("softmax.table.block", "Block", "块"),
    ("softmax.table.values", "Values", "数值"),
    ("softmax.table.bmax", "Block max", "块内最大值"),
    ("softmax.table.m", "m (running max)", "m（运行最大值）"),
    ("softmax.table.rescale", "e^(m − m′) on old ℓ", "旧 ℓ 乘以 e^(m − m′)"),
    ("softmax.table.l", "ℓ (running sum)", "ℓ（运行指数和）"),
    ("softmax.probs", "Probabilities p = e^(x − m) / ℓ", "概率 p = e^(x − m) / ℓ"),
    ("softmax.probs-wait", "The probabilities appear once every block is processed.", "处理完所有块后显示概率。"),
    ("softmax.passes", "Passes over x in memory", "对内存中 x 的扫描次数"),
    ("softmax.passes.three", "Three-pass softmax: read x for the max, read x for the sum, read x to normalise: 3 reads.", "三趟 softmax：读 x 求最大值、读 x 求和、读 x 归一化：3 次读取。"),
    ("softmax.passes.online", "Online softmax: read x once for m and ℓ together; the normalising read is the only other one, and inside FlashAttention it is folded into the output O, so x (the scores S) is read once.", "在线 softmax：读一次 x 同时得到 m 和 ℓ；另外只剩归一化那一次读取，而在 FlashAttention 中它被并入输出 O，所以 x（即分数 S）只读一次。"),
    ("softmax.explain", "When a block raises the maximum from m to m′, every term already in ℓ was e^(x − m); multiplying ℓ by e^(m − m′) turns each into e^(x − m′), the new base (the telescoping of the notes). The final m and ℓ are exactly the three-pass ones.", "当某一块把最大值从 m 提高到 m′ 时，ℓ 中已有的每一项都是 e^(x − m)；把 ℓ 乘以 e^(m − m′)，每一项就变成以新基准表示的 e^(x − m′)（讲义所说的“伸缩求和”）。最终的 m 和 ℓ 与三趟算法完全相同。"),
    ("softmax.lecture", "Lecture check (notes §8.2): the online result equals softmax; the notes' demo measures 5 × 10⁻¹⁰ against torch.softmax in float32. Computed here in float64, the difference is at the level of 10⁻¹⁶.", "讲义对照（§8.2）：在线算法与 softmax 一致；讲义的演示用 float32 与 torch.softmax 比较，差 5 × 10⁻¹⁰。这里用 float64 计算，差异在 10⁻¹⁶ 量级。"),
    ("metric.m", "m (running max)", "m（运行最大值）"),
    ("metric.l", "ℓ (running sum)", "ℓ（运行指数和）"),
    ("metric.online-softmax.max-abs-error", "Max |p − softmax(x)|", "最大 |p − softmax(x)|"),
    ("metric.online-softmax.max-abs-error.doc", "Online result against the three-pass softmax", "在线算法与三趟 softmax 之差"),
    ("param.online-softmax.block", "Block size", "块大小"),
    ("param.online-softmax.block.doc", "Values processed per step", "每步处理的数值个数"),
];
