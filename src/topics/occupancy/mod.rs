//! `#/occupancy`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use super::*;
#[allow(unused_imports)]
use crate::params::{Kind, ParamSpec, Value, Values};
#[allow(unused_imports)]
use crate::sim::systolic::{self, Dataflow, MAX_DIM, MAX_K};
#[allow(unused_imports)]
use crate::sim::{coalescing, divergence, expr, flash, fusion, matmul, occupancy, roofline, softmax, threads};

pub static OCCUPANCY_PARAMS: [ParamSpec; 4] = [
    ParamSpec::choice("arch", &["sm80", "sm90", "sm100"], "sm90"),
    ParamSpec::int("threads", 1, 1024, 256),
    ParamSpec::int("regs", 1, 255, 32),
    ParamSpec::int("smem", 0, 227 * 1024, 0),
];

pub static OCCUPANCY: TopicMeta = TopicMeta {
    id: "occupancy",
    sections: &["6.7"],
    demo: "02 · 4",
    part: Part::Fast,
    params: &OCCUPANCY_PARAMS,
    metrics: &["occupancy", "blocks-per-sm", "active-warps", "limiter"],
    position_max: None,
    bounds: None,
};

pub fn occupancy_kernel(v: &Values) -> (&'static occupancy::Arch, occupancy::Kernel) {
    (
        occupancy::arch(v.choice("arch")),
        occupancy::Kernel { threads: v.int("threads") as u32, regs: v.int("regs") as u32, smem: v.int("smem") as u32 },
    )
}

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &OCCUPANCY,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <crate::ui::panels::occupancy::OccupancyPanel /> },
};

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = &[
    ("topic.occupancy.title", "Occupancy", "占用率"),
    ("topic.occupancy.summary", "How many warps can live on one SM at once, and which resource (registers, shared memory, warp or block slots) runs out first.", "一个 SM 同时能驻留多少个 warp，以及哪种资源（寄存器、共享内存、warp 或块的名额）最先用完。"),
    ("param.arch", "GPU", "GPU"),
    ("param.threads", "Threads per block", "每块线程数"),
    ("param.regs", "Registers per thread", "每线程寄存器数"),
    ("param.regs.doc", "At most 255; allocated per warp in units of 256", "最多 255；按 warp 以 256 为单位分配"),
    ("choice.arch.sm80", "A100 (sm_80)", "A100（sm_80）"),
    ("choice.arch.sm90", "H100 / H200 (sm_90)", "H100 / H200（sm_90）"),
    ("choice.arch.sm100", "B200 (sm_100)", "B200（sm_100）"),
    ("occupancy.sm", "One SM's 64 warp slots (one colour per resident block)", "一个 SM 的 64 个 warp 槽位（每个驻留块一种颜色）"),
    ("occupancy.limits", "Blocks per SM allowed by each resource", "各资源允许的每 SM 块数"),
    ("occupancy.limit.warps", "Warp slots: {n}", "warp 槽位：{n}"),
    ("occupancy.limit.blocks", "Block slots: {n}", "块槽位：{n}"),
    ("occupancy.limit.registers", "Registers: {n}", "寄存器：{n}"),
    ("occupancy.limit.shared-memory", "Shared memory: {n}", "共享内存：{n}"),
    ("occupancy.detail", "{w} warps per block · {r} registers per warp (allocated) · {s} bytes of shared memory per block (allocated)", "每块 {w} 个 warp · 每 warp 分配 {r} 个寄存器 · 每块分配 {s} 字节共享内存"),
    ("occupancy.axis.smem-kb", "Shared memory per block (KB)", "每块共享内存（KB）"),
    ("occupancy.chart.threads", "Occupancy against threads per block", "占用率随每块线程数的变化"),
    ("occupancy.chart.regs", "Occupancy against registers per thread", "占用率随每线程寄存器数的变化"),
    ("occupancy.chart.smem", "Occupancy against shared memory per block (KB)", "占用率随每块共享内存（KB）的变化"),
    ("occupancy.explain", "Resident warps let the SM hide memory latency: while one warp waits for memory, another runs. Each block needs its warps, registers and shared memory for its whole life, so the scarcest resource decides how many blocks fit. Low occupancy is not always slow: a kernel whose threads each do a lot of work (thread coarsening) or reuse data well can run fast with few warps.", "驻留的 warp 让 SM 能掩盖内存延迟：一个 warp 等内存时，另一个 warp 可以执行。每个块在整个生命周期内都占着自己的 warp、寄存器和共享内存，所以最紧缺的资源决定能放下几个块。占用率低不一定慢：每个线程做很多工作（线程粗化）或数据复用很好的核函数，warp 少也能跑得很快。"),
    ("occupancy.lecture", "Lecture check (notes §6.7, H100): 256 threads × 32 registers → 100 %; 256 × 64 → 50 %; 128 × 160 → 19 %.", "讲义对照（§6.7，H100）：256 线程 × 32 寄存器 → 100%；256 × 64 → 50%；128 × 160 → 19%。"),
    ("occupancy.presets", "Lecture cases", "讲义示例"),
    ("occupancy.preset.256x32", "256 threads × 32 registers", "256 线程 × 32 寄存器"),
    ("occupancy.preset.256x64", "256 threads × 64 registers", "256 线程 × 64 寄存器"),
    ("occupancy.preset.128x160", "128 threads × 160 registers", "128 线程 × 160 寄存器"),
    ("metric.occupancy", "Occupancy", "占用率"),
    ("metric.occupancy.doc", "Resident warps ÷ the SM's maximum (64)", "驻留 warp 数 ÷ SM 上限（64）"),
    ("metric.blocks-per-sm", "Blocks per SM", "每 SM 块数"),
    ("metric.active-warps", "Resident warps", "驻留 warp 数"),
    ("metric.limiter", "Limited by", "瓶颈资源"),
];
