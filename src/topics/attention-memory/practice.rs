//! Practice on `#/attention-memory`: GB of S and P at a sequence length,
//! flash's extra memory, and the ratio between them.

use super::{head, ATTENTION_MEMORY};
use crate::params::Values;
use crate::practice::{a, bank, metric, values, Answer, Made, Rng, Text};
use crate::sim::attention_memory::metrics;
use crate::sim::hw::ML_DTYPES;

bank!("attention-memory": "standard" => standard, "flash" => flash, "ratio" => ratio);

fn case(r: &mut Rng) -> Values {
    let n = if r.below(2) == 0 { r.pow2(10, 18) } else { 1000 * r.int(1, 200) };
    values(
        &ATTENTION_MEMORY,
        &[("n", n.to_string()), ("dtype", r.pick(ML_DTYPES).into()), ("stats", r.pick(&["l", "ml"]).into())],
    )
}

fn figures(v: &Values) -> Vec<crate::sim::Metric> {
    let h = head(v);
    metrics(h.n, h.elem_bytes, h.both_stats)
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let h = head(v);
    let m = figures(v);
    vec![
        a("n", crate::format::number(h.n as f64)),
        a("dtype", v.choice("dtype")),
        a("e", h.elem_bytes),
        a("std", crate::format::bytes(metric(&m, "standard-bytes"))),
        a("flash", crate::format::bytes(metric(&m, "flash-extra-bytes"))),
        a("k", if h.both_stats { 2 } else { 1 }),
        a("x", crate::format::number(metric(&m, "ratio").round())),
    ]
}

fn stats_key(v: &Values, l: &'static str, ml: &'static str) -> &'static str {
    if v.choice("stats") == "ml" {
        ml
    } else {
        l
    }
}

fn standard(r: &mut Rng) -> Made {
    let v = case(r);
    Made {
        prompt: Text::new("practice.attention-memory.standard", &args(&v)),
        answer: Answer::real(metric(&figures(&v), "standard-bytes") / 1e9, 0.02),
        explain: Text::new("practice.attention-memory.why", &args(&v)),
        state: v,
    }
}

fn flash(r: &mut Rng) -> Made {
    let v = case(r);
    Made {
        prompt: Text::new(
            stats_key(&v, "practice.attention-memory.flash.l", "practice.attention-memory.flash.ml"),
            &args(&v),
        ),
        answer: Answer::real(metric(&figures(&v), "flash-extra-bytes") / 1e3, 0.02),
        explain: Text::new("practice.attention-memory.why", &args(&v)),
        state: v,
    }
}

fn ratio(r: &mut Rng) -> Made {
    let v = case(r);
    Made {
        prompt: Text::new(
            stats_key(&v, "practice.attention-memory.ratio.l", "practice.attention-memory.ratio.ml"),
            &args(&v),
        ),
        answer: Answer::real(metric(&figures(&v), "ratio"), 0.03),
        explain: Text::new("practice.attention-memory.why", &args(&v)),
        state: v,
    }
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.attention-memory.standard", "One attention head, sequence length n = {n}, in {dtype} ({e} B): how many GB do the n × n matrices S and P take in HBM?", "单个注意力头，序列长度 n = {n}，{dtype}（{e} 字节）：n × n 的矩阵 S 和 P 在 HBM 中占多少 GB？"),
    ("practice.attention-memory.flash.l", "FlashAttention-2 keeps one fp32 statistic per row (L = m + log ℓ) instead of S and P. At n = {n}, how many kB is that?", "FlashAttention-2 每行只保存一个 fp32 统计量（L = m + log ℓ），而不是 S 和 P。n = {n} 时是多少 kB？"),
    ("practice.attention-memory.flash.ml", "FlashAttention-1 keeps two fp32 statistics per row (m and ℓ) instead of S and P. At n = {n}, how many kB is that?", "FlashAttention-1 每行保存两个 fp32 统计量（m 和 ℓ），而不是 S 和 P。n = {n} 时是多少 kB？"),
    ("practice.attention-memory.ratio.l", "At n = {n} in {dtype}: how many times more memory do S and P take than FlashAttention-2's per-row statistic L (fp32)?", "n = {n}，{dtype}：S 和 P 占用的内存是 FlashAttention-2 每行统计量 L（fp32）的多少倍？"),
    ("practice.attention-memory.ratio.ml", "At n = {n} in {dtype}: how many times more memory do S and P take than FlashAttention-1's per-row m and ℓ (fp32)?", "n = {n}，{dtype}：S 和 P 占用的内存是 FlashAttention-1 每行 m 和 ℓ（fp32）的多少倍？"),
    ("practice.attention-memory.why", "S and P: 2 × n² × {e} B = {std}, growing as n². Flash keeps {k} × n × 4 B = {flash}, growing as n: {x}× less.", "S 和 P：2 × n² × {e} 字节 = {std}，按 n² 增长。Flash 只保存 {k} × n × 4 字节 = {flash}，按 n 增长：少 {x} 倍。"),
];
