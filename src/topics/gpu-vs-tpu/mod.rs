//! `#/gpu-vs-tpu`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters; the two cycle counts spelled
//! out, and the link to the same pass on the systolic array.

use super::*;
use crate::i18n::{group_digits, trf, Lang};
use crate::params::{ParamSpec, Values};
use crate::sim::matmul::{self, Compare};
use crate::sim::{hw, systolic::MAX_K};

#[cfg(target_arch = "wasm32")]
mod view;
pub mod practice;

pub static GPU_TPU_PARAMS: [ParamSpec; 7] = [
    ParamSpec::int("m", 1, 16384, 512).log(),
    ParamSpec::int("k", 1, 16384, 4096).log(),
    ParamSpec::int("n", 1, 16384, 4096).log(),
    ParamSpec::choice("mxu", &["128", "256"], "128"),
    ParamSpec::choice("gpu", hw::GPU_CODES, "h100"),
    ParamSpec::int("tm", 1, 1024, 128).log(),
    ParamSpec::int("tn", 1, 1024, 128).log(),
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
    let g = hw::gpu(v.choice("gpu"));
    matmul::Compare {
        m: v.int("m") as u64,
        k: v.int("k") as u64,
        n: v.int("n") as u64,
        mxu: v.choice("mxu").parse().unwrap_or(128),
        sms: g.sms as u64,
        tm: v.int("tm") as u64,
        tn: v.int("tn") as u64,
        macs_per_sm_cycle: g.macs_per_sm_cycle,
    }
}

/// The TPU's cycles: passes × (rows streamed + fill and drain).
pub fn tpu_detail(lang: Lang, c: &Compare) -> String {
    trf(
        lang,
        "gpu-vs-tpu.tpu.detail",
        &[
            ("passes", &c.mxu_passes().to_string()),
            ("m", &c.m.to_string()),
            ("s", &c.mxu.to_string()),
            ("cycles", &group_digits(c.mxu_cycles())),
        ],
    )
}

/// The GPU's cycles: waves × one tile's multiply-adds at the SM's rate.
pub fn gpu_detail(lang: Lang, c: &Compare) -> String {
    trf(
        lang,
        "gpu-vs-tpu.gpu.detail",
        &[
            ("waves", &c.waves().waves().to_string()),
            ("tm", &c.tm.to_string()),
            ("tn", &c.tn.to_string()),
            ("k", &c.k.to_string()),
            ("rate", &c.macs_per_sm_cycle.to_string()),
            ("cycles", &group_digits(c.gpu_cycles())),
        ],
    )
}

/// One weight-stationary pass of this MXU on the systolic panel (k capped
/// at that panel's largest).
pub fn systolic_link(lang: Lang, c: &Compare) -> String {
    format!(
        "#/systolic?rows={s}&cols={s}&k={k}&dataflow=ws&seed=1&cycle=0&lang={l}",
        s = c.mxu,
        k = c.k.min(MAX_K as u64),
        l = lang.code()
    )
}

/// Rows of the terminology table (`gpu-vs-tpu.term.<i>` and `…<i>t`).
pub const TERMS: u32 = 6;

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &GPU_TPU,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <view::GpuTpuPanel /> },
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
    ("gpu-vs-tpu.tpu", "TPU: weight blocks of B through one MXU", "TPU：B 的权重块依次通过一个 MXU"),
    ("gpu-vs-tpu.gpu", "GPU: output tiles of C over the SMs, by wave", "GPU：C 的输出块按波次分给各 SM"),
    ("gpu-vs-tpu.tpu.detail", "{passes} passes × ({m} + 2 × {s} − 2) cycles = {cycles} cycles", "{passes} 遍 ×（{m} + 2 × {s} − 2）个周期 = {cycles} 个周期"),
    ("gpu-vs-tpu.gpu.detail", "{waves} waves × {tm}·{tn}·{k} / {rate} MAC per SM-cycle = {cycles} cycles", "{waves} 波 × {tm}·{tn}·{k} / 每 SM 每周期 {rate} 次乘加 = {cycles} 个周期"),
    ("gpu-vs-tpu.systolic", "Watch one pass on the systolic array", "在脉动阵列面板中观看一遍"),
    ("gpu-vs-tpu.terms", "Terminology (notes §9.1)", "术语对照（讲义 §9.1）"),
    ("gpu-vs-tpu.term.gpu", "GPU", "GPU"),
    ("gpu-vs-tpu.term.tpu", "TPU", "TPU"),
    ("gpu-vs-tpu.term.1", "SM (132 on H100)", "SM（H100 有 132 个）"),
    ("gpu-vs-tpu.term.1t", "TensorCore (a few per chip)", "TensorCore（每芯片少数几个）"),
    ("gpu-vs-tpu.term.2", "Tensor Cores (small matrix units)", "Tensor Core（小矩阵单元）"),
    ("gpu-vs-tpu.term.2t", "MXU (128 × 128 or 256 × 256 systolic array)", "MXU（128 × 128 或 256 × 256 脉动阵列）"),
    ("gpu-vs-tpu.term.3", "warp (32 threads in lockstep)", "warp（32 个线程同步执行）"),
    ("gpu-vs-tpu.term.3t", "none: only blocks", "没有：只有“块”"),
    ("gpu-vs-tpu.term.4", "shared memory / L1 (SRAM)", "共享内存 / L1（SRAM）"),
    ("gpu-vs-tpu.term.4t", "VMEM (vector memory, SRAM)", "VMEM（向量存储，SRAM）"),
    ("gpu-vs-tpu.term.5", "CUDA cores (scalar/vector)", "CUDA 核（标量/向量）"),
    ("gpu-vs-tpu.term.5t", "VPU (vector unit) and scalar unit", "VPU（向量单元）与标量单元"),
    ("gpu-vs-tpu.term.6", "NVLink / NVSwitch", "NVLink / NVSwitch"),
    ("gpu-vs-tpu.term.6t", "ICI (inter-chip interconnect, pods)", "ICI（芯片间互连，组成 pod）"),
    ("gpu-vs-tpu.explain", "Both are light control logic plus fast matrix units plus fast on-chip memory. The TPU's MXU gets reuse from its structure, but a dimension smaller than the array (few tokens, small k or n) leaves most PEs idle, and every pass pays fill and drain. The GPU splits the output into tiles over many SMs, so its waste is tile padding and the last, partly idle wave.", "两者都是轻量的控制逻辑 + 很快的矩阵单元 + 很快的片上存储。TPU 的 MXU 靠结构获得复用，但某一维比阵列小（token 少、k 或 n 小）时大部分 PE 闲着，而且每一遍都要付填充和排空的代价。GPU 把输出切块分给许多 SM，它的浪费是块的填充和最后那一波部分空闲。"),
    ("metric.mxu-passes", "MXU passes", "MXU 遍数"),
    ("metric.mxu-utilization", "MXU utilization", "MXU 利用率"),
    ("metric.gpu-waves", "GPU waves", "GPU 波数"),
    ("metric.gpu-utilization", "GPU utilization", "GPU 利用率"),
];

#[cfg(test)]
mod tests {
    use super::*;

    use crate::topics::q;

    #[test]
    fn the_default_case_spelled_out() {
        let (v, n) = GPU_TPU.parse(&q(&[("m", "512"), ("k", "4096"), ("n", "4096"), ("gpu", "h100")]));
        assert!(n.is_empty());
        let c = gpu_tpu(&v);
        assert_eq!((c.sms, c.macs_per_sm_cycle), (132, 2048));
        // 32 × 32 weight blocks, each 512 + 2·128 − 2 cycles.
        assert_eq!(tpu_detail(Lang::En, &c), "1024 passes × (512 + 2 × 128 − 2) cycles = 784,384 cycles");
        // 4 × 32 = 128 tiles on 132 SMs: one wave of 128·128·4096 / 2048 cycles.
        assert_eq!(gpu_detail(Lang::En, &c), "1 waves × 128·128·4096 / 2048 MAC per SM-cycle = 32,768 cycles");
        let a100 = gpu_tpu(&v.with("gpu", crate::params::Value::Choice("a100")));
        assert_eq!((a100.sms, a100.macs_per_sm_cycle), (108, 1024));
    }

    #[test]
    fn the_systolic_link_opens_cleanly() {
        let (v, _) = GPU_TPU.parse(&q(&[("k", "16384"), ("mxu", "256")]));
        let link = systolic_link(Lang::Zh, &gpu_tpu(&v));
        assert_eq!(link, "#/systolic?rows=256&cols=256&k=4096&dataflow=ws&seed=1&cycle=0&lang=zh");
        let query: Vec<(String, String)> = link
            .split_once('?')
            .unwrap()
            .1
            .split('&')
            .filter(|kv| !kv.starts_with("lang="))
            .map(|kv| kv.split_once('=').map(|(a, b)| (a.to_string(), b.to_string())).unwrap())
            .collect();
        let (_, notices) = super::super::systolic::SYSTOLIC.parse(&query);
        assert!(notices.is_empty(), "{notices:?}");
    }

    #[test]
    fn every_term_has_both_columns() {
        for i in 1..=TERMS {
            assert!(crate::i18n::has(&format!("gpu-vs-tpu.term.{i}")));
            assert!(crate::i18n::has(&format!("gpu-vs-tpu.term.{i}t")));
        }
        assert!(!crate::i18n::has(&format!("gpu-vs-tpu.term.{}", TERMS + 1)));
    }
}
