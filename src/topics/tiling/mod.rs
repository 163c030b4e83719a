//! `#/tiling`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use super::*;
#[allow(unused_imports)]
use crate::params::{Kind, ParamSpec, Value, Values};
#[allow(unused_imports)]
use crate::sim::systolic::{self, Dataflow, MAX_DIM, MAX_K};
#[allow(unused_imports)]
use crate::sim::{coalescing, divergence, expr, flash, fusion, matmul, occupancy, roofline, softmax, threads};

pub static TILING_PARAMS: [ParamSpec; 12] = [
    ParamSpec::int("n", 1, 4096, 256),
    ParamSpec::int("m", 0, 4096, 0).optional(),
    ParamSpec::int("k", 0, 4096, 0).optional(),
    ParamSpec::int("tile", 1, 256, 16),
    ParamSpec::choice("dtype", crate::sim::hw::ML_DTYPES, "fp32"),
    ParamSpec::choice("mode", &["naive", "tiled"], "tiled"),
    ParamSpec::position("step"),
    ParamSpec::int("smem", 1, 1024, 228),
    ParamSpec::int("speed", 1, 1000, 2).optional(),
    INSET_GPU,
    ParamSpec::int("ti", 0, 4095, 0),
    ParamSpec::int("tj", 0, 4095, 0),
];

pub static TILING: TopicMeta = TopicMeta {
    id: "tiling",
    sections: &["6.6"],
    demo: "04",
    part: Part::Fast,
    params: &TILING_PARAMS,
    metrics: &["step", "global-reads", "global-bytes", "intensity", "smem-bytes", "max-tile"],
    position_max: Some(|v| tiling_steps(&tiling(v))),
    bounds: Some(|v| {
        let t = tiling(v);
        vec![("ti", (t.m.div_ceil(t.t) - 1) as i64), ("tj", (t.n.div_ceil(t.t) - 1) as i64)]
    }),
};

pub fn tiling(v: &Values) -> matmul::Tiling {
    matmul::Tiling {
        m: or_n(v, "m"),
        n: v.int("n") as u64,
        k: or_n(v, "k"),
        t: v.int("tile") as u64,
        elem_bytes: coalescing::dtype_bytes(v.choice("dtype")),
        tiled: v.choice("mode") == "tiled",
    }
}

/// Tiled: one step per phase (a pair of tiles); naive: one step per k.
pub fn tiling_steps(t: &matmul::Tiling) -> u64 {
    if t.tiled {
        t.phases()
    } else {
        t.k
    }
}

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &TILING,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <crate::ui::panels::matmul::TilingPanel /> },
};

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = &[
    ("topic.tiling.title", "Tiled matmul: counting reuse", "分块矩阵乘法：数一数复用"),
    ("topic.tiling.summary", "Load a T × T tile of A and of B into shared memory, do every multiply-add they allow, move on: each value is read n/T times instead of n.", "把 A 和 B 各一个 T × T 的小块搬进共享内存，做完它们能做的全部乘加，再换下一对：每个值只读 n/T 次，而不是 n 次。"),
    ("param.tiling.n", "Matrix size n", "矩阵大小 n"),
    ("param.tiling.k", "Inner k (0 = n)", "内维度 k（0 表示 = n）"),
    ("param.mode", "Method", "方式"),
    ("param.tiling.smem", "Shared memory per SM (KB)", "每 SM 共享内存（KB）"),
    ("param.tiling.smem.doc", "H100: 228 KB", "H100：228 KB"),
    ("choice.mode.naive", "Naive", "朴素"),
    ("choice.mode.tiled", "Tiled", "分块"),
    ("tiling.step.tiled", "Step {s} of {p}: load A tile ({ti}, {s0}) and B tile ({s0}, {tj}) into shared memory, then {macs} multiply-adds for output tile ({ti}, {tj})", "第 {s} / {p} 步：把 A 的块 ({ti}, {s0}) 和 B 的块 ({s0}, {tj}) 搬进共享内存，再为输出块 ({ti}, {tj}) 做 {macs} 次乘加"),
    ("tiling.step.naive", "Step {s} of {p}: every output element of tile ({ti}, {tj}) reads A[i, {s0}] and B[{s0}, j] from global memory", "第 {s} / {p} 步：输出块 ({ti}, {tj}) 的每个元素都从显存读 A[i, {s0}] 和 B[{s0}, j]"),
    ("param.ti", "Output tile row", "输出块的行号"),
    ("param.tj", "Output tile column", "输出块的列号"),
    ("tiling.start", "Step 0: nothing loaded yet", "第 0 步：尚未读取"),
    ("tiling.counters", "This output tile so far: {loads} elements read from global memory, {macs} multiply-adds ({ratio} per element read)", "这个输出块到目前为止：从显存读 {loads} 个元素，做 {macs} 次乘加（每读一个元素做 {ratio} 次）"),
    ("tiling.fit", "Two {t} × {t} tiles of {dtype}: {bytes} of shared memory; the largest T that fits in {smem} KB is {max}.", "两个 {t} × {t} 的 {dtype} 小块：占 {bytes} 共享内存；{smem} KB 中能放下的最大 T 为 {max}。"),
    ("tiling.fit.no", "Two {t} × {t} tiles of {dtype} need {bytes}: more than {smem} KB. The largest T that fits is {max}.", "两个 {t} × {t} 的 {dtype} 小块需要 {bytes}：超过 {smem} KB。能放下的最大 T 为 {max}。"),
    ("tiling.explain", "Naively every output element reads its whole row of A and column of B: each input value is read n times (2n³ reads). Tiled, a thread block loads one tile of A and one of B per phase and reuses each loaded value T times from shared memory, so global reads fall to 2n³/T and the arithmetic intensity rises T-fold. The tile size is bounded by shared memory: two T × T tiles must fit.", "朴素做法中每个输出元素都读 A 的一整行和 B 的一整列：每个输入值被读 n 次（共 2n³ 次）。分块后，线程块每个阶段搬入 A 和 B 各一个小块，每个搬来的值在共享内存中被复用 T 次，于是显存读取降到 2n³/T，算术强度提高 T 倍。块的大小受共享内存限制：两个 T × T 的块必须放得下。"),
    ("tiling.lecture", "Lecture check (notes §6.6, n = 256, fp32): naive 33,554,432 reads, intensity 0.25; T = 4 → 8,388,608, 1; T = 16 → 2,097,152, 4; T = 64 → 524,288, 16. Largest T in 228 KB: about 170.", "讲义对照（§6.6，n = 256，FP32）：朴素 33,554,432 次读取、强度 0.25；T = 4 → 8,388,608、1；T = 16 → 2,097,152、4；T = 64 → 524,288、16。228 KB 中最大的 T 约为 170。"),
    ("tiling.presets", "Lecture cases (n = 256, fp32)", "讲义示例（n = 256，FP32）"),
    ("tiling.preset.naive", "Naive", "朴素"),
    ("tiling.preset.t4", "T = 4", "T = 4"),
    ("tiling.preset.t16", "T = 16", "T = 16"),
    ("tiling.preset.t64", "T = 64", "T = 64"),
    ("metric.global-reads", "Global reads (elements)", "显存读取（元素）"),
    ("metric.global-bytes", "Global bytes", "显存字节数"),
    ("metric.smem-bytes", "Shared memory used", "共享内存用量"),
    ("metric.max-tile", "Largest T that fits", "能放下的最大 T"),
];
