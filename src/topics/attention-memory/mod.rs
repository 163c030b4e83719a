//! `#/attention-memory`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use super::*;
#[allow(unused_imports)]
use crate::params::{Kind, ParamSpec, Value, Values};
#[allow(unused_imports)]
use crate::sim::systolic::{self, Dataflow, MAX_DIM, MAX_K};
#[allow(unused_imports)]
use crate::sim::{coalescing, divergence, expr, flash, fusion, matmul, occupancy, roofline, softmax, threads};

pub static MEMORY_PARAMS: [ParamSpec; 4] = [
    ParamSpec::int("n", 1, 1 << 20, 4096),
    ParamSpec::int("d", 1, 256, 128),
    ParamSpec::choice("dtype", &["fp32", "bf16", "fp16", "fp8"], "bf16"),
    ParamSpec::choice("stats", &["l", "ml"], "l"),
];

pub static ATTENTION_MEMORY: TopicMeta = TopicMeta {
    id: "attention-memory",
    sections: &["8.5"],
    demo: "05 · 4",
    part: Part::Flash,
    params: &MEMORY_PARAMS,
    metrics: &["standard-bytes", "flash-extra-bytes", "ratio"],
    position_max: None,
    bounds: None,
};

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &ATTENTION_MEMORY,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <crate::ui::panels::memory::MemoryPanel /> },
};

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = &[
    ("topic.attention-memory.title", "Attention memory: O(n²) against O(n)", "注意力显存：O(n²) 对 O(n)"),
    ("topic.attention-memory.summary", "Standard attention stores two n × n matrices per head; FlashAttention stores one or two numbers per row.", "标准注意力每个头要存两个 n × n 矩阵；FlashAttention 每行只存一两个数。"),
    ("param.stats", "Flash statistics", "Flash 保存的统计量"),
    ("choice.stats.l", "L = m + log ℓ (FlashAttention-2)", "L = m + log ℓ（FlashAttention-2）"),
    ("choice.stats.ml", "m and ℓ (FlashAttention-1)", "m 和 ℓ（FlashAttention-1）"),
    ("memory.chart", "Bytes for one head against sequence length n (log–log)", "单个头所需字节数随序列长度 n 的变化（双对数）"),
    ("memory.series.standard", "standard: S and P", "标准：S 和 P"),
    ("memory.series.flash", "flash: statistics", "flash：统计量"),
    ("memory.series.qkvo", "Q, K, V, O (both)", "Q、K、V、O（两者都要）"),
    ("memory.table", "The lecture's table (one head, bf16, d = 128), computed", "讲义中的表（单头，bf16，d = 128），由模拟算出"),
    ("memory.table.n", "n", "n"),
    ("memory.table.standard", "Standard: S and P", "标准：S 和 P"),
    ("memory.table.flash", "Flash: extra", "Flash：额外"),
    ("memory.show", "Show", "查看"),
    ("memory.explain", "S and P are n × n for every head: 2 n² values, quadratic in the sequence length. FlashAttention keeps only per-row softmax statistics in fp32 (the logsumexp L, or m and ℓ), linear in n; Q, K, V and O are needed by both. In training this also removes the attention matrices from the activations saved for backward.", "S 和 P 对每个头都是 n × n：2n² 个数，随序列长度平方增长。FlashAttention 只保存每行的 softmax 统计量（fp32 的 logsumexp L，或 m 和 ℓ），随 n 线性增长；Q、K、V、O 两者都需要。训练时，这也把注意力矩阵从为反向保存的激活中去掉了。"),
    ("memory.lecture", "Lecture check (notes §8.5): 4096 → 0.07 GB against 0.02 MB; 16384 → 1.07 GB against 0.07 MB; 65536 → 17.2 GB against 0.26 MB.", "讲义对照（§8.5）：4096 → 0.07 GB 对 0.02 MB；16384 → 1.07 GB 对 0.07 MB；65536 → 17.2 GB 对 0.26 MB。"),
    ("metric.standard-bytes", "Standard: S and P", "标准：S 和 P"),
    ("metric.flash-extra-bytes", "Flash: extra memory", "Flash：额外显存"),
    ("metric.ratio", "Ratio", "倍数"),
    ("param.attention-memory.n", "Sequence length n", "序列长度 n"),
];
