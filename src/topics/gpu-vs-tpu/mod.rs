//! `#/gpu-vs-tpu`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use super::*;
#[allow(unused_imports)]
use crate::params::{Kind, ParamSpec, Value, Values};
#[allow(unused_imports)]
use crate::sim::systolic::{self, Dataflow, MAX_DIM, MAX_K};
#[allow(unused_imports)]
use crate::sim::{coalescing, divergence, expr, flash, fusion, matmul, occupancy, roofline, softmax, threads};

pub static GPU_TPU_PARAMS: [ParamSpec; 7] = [
    ParamSpec::int("m", 1, 16384, 512),
    ParamSpec::int("k", 1, 16384, 4096),
    ParamSpec::int("n", 1, 16384, 4096),
    ParamSpec::choice("mxu", &["128", "256"], "128"),
    ParamSpec::choice("gpu", crate::sim::hw::GPU_CODES, "h100"),
    ParamSpec::int("tm", 1, 1024, 128),
    ParamSpec::int("tn", 1, 1024, 128),
];

pub static GPU_TPU: TopicMeta = TopicMeta {
    id: "gpu-vs-tpu",
    sections: &["9.1"],
    demo: "06",
    part: Part::Tpu,
    params: &GPU_TPU_PARAMS,
    metrics: &["mxu-passes", "mxu-utilization", "gpu-waves", "gpu-utilization"],
    position_max: None,
    bounds: None,
};

pub fn gpu_tpu(v: &Values) -> matmul::Compare {
    let code = v.choice("gpu");
    matmul::Compare {
        m: v.int("m") as u64,
        k: v.int("k") as u64,
        n: v.int("n") as u64,
        mxu: v.choice("mxu").parse().unwrap_or(128),
        sms: matmul::gpu(code).sms as u64,
        tm: v.int("tm") as u64,
        tn: v.int("tn") as u64,
        macs_per_sm_cycle: matmul::macs_per_sm_cycle(code),
    }
}

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &GPU_TPU,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <crate::ui::panels::matmul::GpuTpuPanel /> },
};

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = &[
    ("topic.gpu-vs-tpu.title", "GPU vs TPU: the same matmul", "GPU 与 TPU：同一个矩阵乘法"),
    ("topic.gpu-vs-tpu.summary", "Few huge systolic arrays against many SMs with Tensor Cores: passes and padding on one side, tiles and waves on the other.", "少数巨大的脉动阵列，对比许多带 Tensor Core 的 SM：一边是遍数与填充，一边是分块与波次。"),
    ("param.mxu", "TPU MXU", "TPU MXU"),
    ("param.gpu-vs-tpu.m", "Rows m (tokens)", "行数 m（token 数）"),
    ("param.gpu-vs-tpu.k", "Inner k", "内维度 k"),
    ("param.gpu-vs-tpu.n", "Columns n", "列数 n"),
    ("choice.mxu.128", "128 × 128 (v2–v5)", "128 × 128（v2–v5）"),
    ("choice.mxu.256", "256 × 256 (v6e)", "256 × 256（v6e）"),
    ("gputpu.tpu", "TPU: weight blocks of B through one MXU", "TPU：B 的权重块依次通过一个 MXU"),
    ("gputpu.gpu", "GPU: output tiles of C over the SMs, by wave", "GPU：C 的输出块按波次分给各 SM"),
    ("gputpu.tpu.detail", "{passes} passes × ({m} + 2 × {s} − 2) cycles = {cycles} cycles", "{passes} 遍 ×（{m} + 2 × {s} − 2）个周期 = {cycles} 个周期"),
    ("gputpu.gpu.detail", "{waves} waves × {tm}·{tn}·{k} / {rate} MAC per SM-cycle = {cycles} cycles", "{waves} 波 × {tm}·{tn}·{k} / 每 SM 每周期 {rate} 次乘加 = {cycles} 个周期"),
    ("gputpu.systolic", "Watch one pass on the systolic array", "在脉动阵列面板中观看一遍"),
    ("gputpu.terms", "Terminology (notes §9.1)", "术语对照（讲义 §9.1）"),
    ("gputpu.term.gpu", "GPU", "GPU"),
    ("gputpu.term.tpu", "TPU", "TPU"),
    ("gputpu.term.1", "SM (132 on H100)", "SM（H100 有 132 个）"),
    ("gputpu.term.1t", "TensorCore (a few per chip)", "TensorCore（每芯片少数几个）"),
    ("gputpu.term.2", "Tensor Cores (small matrix units)", "Tensor Core（小矩阵单元）"),
    ("gputpu.term.2t", "MXU (128 × 128 or 256 × 256 systolic array)", "MXU（128 × 128 或 256 × 256 脉动阵列）"),
    ("gputpu.term.3", "warp (32 threads in lockstep)", "warp（32 个线程同步执行）"),
    ("gputpu.term.3t", "none: only blocks", "没有：只有“块”"),
    ("gputpu.term.4", "shared memory / L1 (SRAM)", "共享内存 / L1（SRAM）"),
    ("gputpu.term.4t", "VMEM (vector memory, SRAM)", "VMEM（向量存储，SRAM）"),
    ("gputpu.term.5", "CUDA cores (scalar/vector)", "CUDA 核（标量/向量）"),
    ("gputpu.term.5t", "VPU (vector unit) and scalar unit", "VPU（向量单元）与标量单元"),
    ("gputpu.term.6", "NVLink / NVSwitch", "NVLink / NVSwitch"),
    ("gputpu.term.6t", "ICI (inter-chip interconnect, pods)", "ICI（芯片间互连，组成 pod）"),
    ("gputpu.explain", "Both are light control logic plus fast matrix units plus fast on-chip memory. The TPU's MXU gets reuse from its structure, but a dimension smaller than the array (few tokens, small k or n) leaves most PEs idle, and every pass pays fill and drain. The GPU splits the output into tiles over many SMs, so its waste is tile padding and the last, partly idle wave.", "两者都是轻量的控制逻辑 + 很快的矩阵单元 + 很快的片上存储。TPU 的 MXU 靠结构获得复用，但某一维比阵列小（token 少、k 或 n 小）时大部分 PE 闲着，而且每一遍都要付填充和排空的代价。GPU 把输出切块分给许多 SM，它的浪费是块的填充和最后那一波部分空闲。"),
    ("metric.mxu-passes", "MXU passes", "MXU 遍数"),
    ("metric.mxu-utilization", "MXU utilization", "MXU 利用率"),
    ("metric.gpu-waves", "GPU waves", "GPU 波数"),
    ("metric.gpu-utilization", "GPU utilization", "GPU 利用率"),
];
