//! `#/fusion`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use super::*;
#[allow(unused_imports)]
use crate::params::{Kind, ParamSpec, Value, Values};
#[allow(unused_imports)]
use crate::sim::systolic::{self, Dataflow, MAX_DIM, MAX_K};
#[allow(unused_imports)]
use crate::sim::{coalescing, divergence, expr, flash, fusion, matmul, occupancy, roofline, softmax, threads};

fn check_fusion(s: &str) -> Result<(), String> {
    fusion::parse(s).map(|_| ()).map_err(|e| e.to_string())
}

pub static FUSION_PARAMS: [ParamSpec; 4] = [
    ParamSpec::text("expr", fusion::MAX_LEN, "sin(x)^2 + cos(x)^2", check_fusion),
    ParamSpec::int("n", 1, 1 << 30, 16_777_216),
    ParamSpec::choice("dtype", &["fp32", "bf16", "fp16", "fp8"], "fp32"),
    INSET_GPU,
];

pub static FUSION: TopicMeta = TopicMeta {
    id: "fusion",
    sections: &["6.3"],
    demo: "03",
    part: Part::Fast,
    params: &FUSION_PARAMS,
    metrics: &["kernels-unfused", "bytes-unfused", "bytes-fused", "speedup-bound"],
    position_max: None,
    bounds: None,
};

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &FUSION,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <crate::ui::panels::fusion::FusionPanel /> },
};

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = &[
    ("topic.fusion.title", "Operator fusion", "算子融合"),
    ("topic.fusion.summary", "One kernel per operation sends every intermediate result to HBM and back; one fused kernel reads each input once and writes once.", "每个运算一个核函数，每个中间结果都要写回显存再读出来；融合成一个核函数，每个输入只读一次、只写一次。"),
    ("param.expr", "Elementwise expression", "逐元素表达式"),
    ("param.expr.doc", "Names are inputs of n elements; + − * / ^, sin cos tan exp log tanh sqrt abs sigmoid relu, max(a, b) min(a, b)", "名字表示 n 个元素的输入；+ − * / ^，sin cos tan exp log tanh sqrt abs sigmoid relu，max(a, b) min(a, b)"),
    ("param.fusion.n", "Elements n", "元素个数 n"),
    ("fusion.presets", "Presets", "预设"),
    ("fusion.preset.sincos", "sin²x + cos²x", "sin²x + cos²x"),
    ("fusion.preset.gelu", "GELU (tanh form)", "GELU（tanh 形式）"),
    ("fusion.preset.relu-affine", "ReLU(x·w + b)", "ReLU(x·w + b)"),
    ("fusion.preset.silu", "SiLU", "SiLU"),
    ("fusion.error", "Expression error: {msg}", "表达式有误：{msg}"),
    ("fusion.timeline", "Unfused: one kernel per operation", "未融合：每个运算一个核函数"),
    ("fusion.fused", "Fused: one kernel reads {inputs} once and writes the result once", "融合：一个核函数读 {inputs} 各一次，结果写一次"),
    ("fusion.col.kernel", "Kernel", "核函数"),
    ("fusion.col.reads", "Reads", "读"),
    ("fusion.col.writes", "Writes", "写"),
    ("fusion.total", "Total: {r}n reads + {w}n writes = {t}n, against {f}n fused", "合计：读 {r}n + 写 {w}n = {t}n，融合后为 {f}n"),
    ("fusion.explain", "The factory metaphor of the lecture: the warehouse (HBM) is far from the factory (the compute). Running each step as its own kernel ships every half-finished product back to the warehouse and out again. A fused kernel keeps intermediates in registers; elementwise chains like these are what torch.compile fuses automatically.", "讲义中的工厂比喻：仓库（显存）离工厂（计算单元）很远。每一步都单独做成一个核函数，就要把每个半成品运回仓库再运出来。融合的核函数把中间结果留在寄存器里；像这样的逐元素链，torch.compile 可以自动融合。"),
    ("fusion.lecture", "Lecture check (notes §6.3): sin²x + cos²x → 5 kernels, 6n reads + 5n writes = 11n against 2n: at most 5.5× faster (measured 5.4× on an Apple GPU).", "讲义对照（§6.3）：sin²x + cos²x → 5 个核函数，读 6n + 写 5n = 11n，对比 2n：最多快 5.5 倍（在 Apple GPU 上实测 5.4 倍）。"),
    ("metric.kernels-unfused", "Kernels, unfused", "未融合的核函数数"),
    ("metric.bytes-unfused", "HBM bytes, unfused", "显存流量（未融合）"),
    ("metric.bytes-fused", "HBM bytes, fused", "显存流量（融合）"),
    ("metric.speedup-bound", "Speed-up bound", "加速上限"),
    ("metric.speedup-bound.doc", "Unfused bytes ÷ fused bytes: the most fusion can gain on a memory-bound chain", "未融合字节 ÷ 融合字节：内存受限时融合最多能快多少"),
];
