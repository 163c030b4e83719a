//! `#/roofline`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use super::*;
#[allow(unused_imports)]
use crate::params::{Kind, ParamSpec, Value, Values};
#[allow(unused_imports)]
use crate::sim::systolic::{self, Dataflow, MAX_DIM, MAX_K};
#[allow(unused_imports)]
use crate::sim::{coalescing, divergence, expr, flash, fusion, matmul, occupancy, roofline, softmax, threads};

pub static ROOFLINE_PARAMS: [ParamSpec; 8] = [
    ParamSpec::choice("gpu", &["a100", "h100", "h200", "b200"], "h100"),
    ParamSpec::choice("dtype", &["fp32", "bf16", "fp16", "fp8"], "bf16"),
    ParamSpec::choice("op", &["relu", "dot", "matvec", "matmul", "decode", "custom"], "matmul"),
    ParamSpec::int("n", 1, 65536, 4096),
    ParamSpec::int("d", 1, 65536, 8192),
    ParamSpec::int("batch", 1, 65536, 1),
    ParamSpec::int("flops", 1, 1_000_000_000_000_000, 1_000_000).optional(),
    ParamSpec::int("bytes", 1, 1_000_000_000_000_000, 1_000_000).optional(),
];

pub static ROOFLINE: TopicMeta = TopicMeta {
    id: "roofline",
    sections: &["5", "6.2"],
    demo: "01 · 2–3",
    part: Part::Fast,
    params: &ROOFLINE_PARAMS,
    metrics: &["intensity", "attainable-tflops", "percent-of-peak", "bound"],
    position_max: None,
    bounds: None,
};

/// FLOPs and bytes of the chosen operation.
pub fn roofline_work(v: &Values, op: &str) -> roofline::Work {
    let e = roofline::dtype_bytes(v.choice("dtype"));
    if op == "custom" {
        return roofline::Work { flops: v.int("flops") as f64, bytes: v.int("bytes") as f64 };
    }
    roofline::op_work(op, v.int("n") as f64, v.int("d") as f64, v.int("batch") as f64, e)
}

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &ROOFLINE,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <crate::ui::panels::roofline::RooflinePanel /> },
};

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = &[
    ("topic.roofline.title", "Roofline", "Roofline 模型"),
    ("topic.roofline.summary", "Attainable = min(peak, intensity × bandwidth): only big matmuls reach the roof; elementwise ops and small-batch decoding are stuck on the slope.", "可达算力 = min(峰值, 强度 × 带宽)：只有大矩阵乘法能碰到屋顶；逐元素运算和小批次解码都卡在斜坡上。"),
    ("param.op", "Operation", "运算"),
    ("param.roofline.n", "Size n", "规模 n"),
    ("param.roofline.d", "Model width d (decode)", "模型宽度 d（解码）"),
    ("param.batch", "Tokens in the batch B (decode)", "批次中的 token 数 B（解码）"),
    ("param.flops", "Custom FLOPs", "自定义 FLOPs"),
    ("param.bytes", "Custom bytes", "自定义字节数"),
    ("choice.op.relu", "ReLU", "ReLU"),
    ("choice.op.dot", "Dot product", "点积"),
    ("choice.op.matvec", "Matrix × vector", "矩阵 × 向量"),
    ("choice.op.matmul", "Matrix × matrix", "矩阵 × 矩阵"),
    ("choice.op.decode", "Decode (d × d by B)", "解码（d × d 乘 B）"),
    ("choice.op.custom", "Custom", "自定义"),
    ("roofline.chart", "Roofline (log–log): TFLOP/s against FLOP per byte", "Roofline（双对数）：TFLOP/s 对 FLOP/字节"),
    ("roofline.table", "The lecture's operations at this size", "讲义中的运算（当前规模）"),
    ("roofline.col.op", "Operation", "运算"),
    ("roofline.col.intensity", "Intensity", "强度"),
    ("roofline.col.attainable", "Attainable", "可达"),
    ("roofline.col.peak", "of peak", "占峰值"),
    ("roofline.decode", "Decode, d = {d}: intensity ≈ B because the weights are read once and used by B tokens", "解码，d = {d}：强度约等于 B，因为权重读一次、被 B 个 token 使用"),
    ("roofline.precision", "Precision (notes §6.2): fewer bits, fewer bytes. ReLU moves {b} bytes per FLOP in {dtype}; block-scaled formats add a shared scale: MXFP8 (E4M3 + one E8M0 scale per 32 values) = {mx} bits per value, NVFP4 (one scale per 16) = {nv} bits.", "低精度（§6.2）：位数少，字节就少。{dtype} 下 ReLU 每次运算搬 {b} 字节；分块缩放格式再加一个共享的缩放因子：MXFP8（E4M3 + 每 32 个值一个 E8M0 缩放）= 每值 {mx} 位，NVFP4（每 16 个值一个缩放）= {nv} 位。"),
    ("roofline.explain", "An operation is limited by the slower of computing (FLOPs ÷ peak) and moving data (bytes ÷ bandwidth). Below the ridge point it is memory-bound: it rises along the slope with its intensity; above it, compute-bound on the flat roof. A matmul's intensity is about n/3, far past the ridge; decoding one token per request has intensity about 1.", "一个运算的耗时由计算（FLOPs ÷ 峰值）和搬数据（字节 ÷ 带宽）中较慢的决定。平衡点以下是内存受限：沿斜线随强度上升；以上是计算受限：在平顶上。矩阵乘法的强度约 n/3，远超平衡点；每个请求一次只解码一个 token，强度约为 1。"),
    ("roofline.lecture", "Lecture check (H100, bf16, n = 4096): ReLU 0.25 → 0.8 TFLOP/s (0.1 %); dot 0.5 → 1.7; matvec 1.0 → 3.3; matmul 1365 → 990 (100 %). Decode (d = 8192): B = 1, 8, 64, 256, 1024 → intensity 1.0, 8.0, 63, 241, 819 → 0.3 %, 2.7 %, 21 %, 82 %, 100 %.", "讲义对照（H100，bf16，n = 4096）：ReLU 0.25 → 0.8 TFLOP/s（0.1%）；点积 0.5 → 1.7；矩阵×向量 1.0 → 3.3；矩阵×矩阵 1365 → 990（100%）。解码（d = 8192）：B = 1、8、64、256、1024 → 强度 1.0、8.0、63、241、819 → 0.3%、2.7%、21%、82%、100%。"),
    ("roofline.presets", "Decode batches (d = 8192)", "解码批次（d = 8192）"),
    ("roofline.b1", "B = 1", "B = 1"),
    ("roofline.b8", "B = 8", "B = 8"),
    ("roofline.b64", "B = 64", "B = 64"),
    ("roofline.b256", "B = 256", "B = 256"),
    ("roofline.b1024", "B = 1024", "B = 1024"),
    ("metric.attainable-tflops", "Attainable (TFLOP/s)", "可达算力（TFLOP/s）"),
    ("metric.percent-of-peak", "Of peak", "占峰值"),
    ("metric.bound", "Bound by", "受限于"),
];
