//! `#/hardware`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use super::*;
#[allow(unused_imports)]
use crate::params::{Kind, ParamSpec, Value, Values};
#[allow(unused_imports)]
use crate::sim::systolic::{self, Dataflow, MAX_DIM, MAX_K};
#[allow(unused_imports)]
use crate::sim::{coalescing, divergence, expr, flash, fusion, matmul, occupancy, roofline, softmax, threads};

pub static HARDWARE_PARAMS: [ParamSpec; 4] = [
    ParamSpec::choice("gpu", &["a100", "h100", "h200", "b200", "custom"], "h100"),
    ParamSpec::choice("dtype", &["fp32", "bf16", "fp16", "fp8"], "bf16"),
    ParamSpec::int("peak", 1, 100_000, 1000).optional(),
    ParamSpec::int("bw", 1, 100_000, 3350).optional(),
];

pub static HARDWARE: TopicMeta = TopicMeta {
    id: "hardware",
    sections: &["1", "2", "4"],
    demo: "01 · 1",
    part: Part::Gpu,
    params: &HARDWARE_PARAMS,
    metrics: &["ridge", "peak-tflops", "bandwidth-tbps"],
    position_max: None,
    bounds: None,
};

/// The chosen machine: a preset, or the custom one (`peak` TFLOP/s for every
/// dtype, `bw` GB/s) whose memory sizes are unknown (zero).
pub fn machine(v: &Values) -> roofline::Hardware {
    match v.choice("gpu") {
        "custom" => {
            let peak = v.int("peak") as f64;
            roofline::Hardware {
                code: "custom",
                name: "custom",
                sms: 0,
                bf16_tflops: peak,
                fp8_tflops: Some(peak),
                fp32_tflops: peak,
                hbm_tbps: v.int("bw") as f64 / 1000.0,
                hbm_gb: 0.0,
                l2_mb: 0.0,
                smem_kb_per_sm: 0.0,
                regs_kb_per_sm: 0.0,
                source: "given in the URL (peak, bw)",
            }
        }
        code => *roofline::hardware(code),
    }
}

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &HARDWARE,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <crate::ui::panels::roofline::HardwarePanel /> },
};

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = &[
    ("topic.hardware.title", "Hardware: compute against memory", "硬件：算力对比内存"),
    ("topic.hardware.summary", "SMs, Tensor Cores and a memory hierarchy; compute grows faster than bandwidth, so the ridge point keeps rising.", "SM、Tensor Core 与存储层次；算力比带宽涨得快，所以平衡点不断升高。"),
    ("param.hardware.gpu", "GPU", "GPU"),
    ("param.peak", "Custom peak (TFLOP/s)", "自定义峰值（TFLOP/s）"),
    ("param.bw", "Custom bandwidth (GB/s)", "自定义带宽（GB/s）"),
    ("hardware.hierarchy", "Memory hierarchy (closer is faster, smaller, costlier)", "存储层次（越近越快、越小、越贵）"),
    ("hardware.level.regs", "Registers", "寄存器"),
    ("hardware.level.smem", "Shared memory / L1", "共享内存 / L1"),
    ("hardware.level.l2", "L2 cache", "L2 缓存"),
    ("hardware.level.hbm", "HBM (global memory)", "HBM（全局内存）"),
    ("hardware.per-sm", "per SM", "每 SM"),
    ("hardware.chip", "whole chip", "整个芯片"),
    ("hardware.ridge", "Ridge point: {peak} TFLOP/s ÷ {bw} TB/s = {r} FLOP per byte: every byte read from HBM must feed about {r} operations to keep the compute busy.", "平衡点：{peak} TFLOP/s ÷ {bw} TB/s = 每字节 {r} 次运算：每从 HBM 读一个字节，要做约 {r} 次运算，计算单元才不会闲着。"),
    ("hardware.table", "The lecture's table (notes §4)", "讲义中的表（§4）"),
    ("hardware.growth", "Growth per 2 years (CS336 slides, after Gholami et al., “AI and Memory Wall”): compute 3.0×, DRAM bandwidth 1.6×, interconnect 1.4×", "每两年的增长（CS336 课件，引自 Gholami 等《AI and Memory Wall》）：算力 3.0 倍，DRAM 带宽 1.6 倍，互连 1.4 倍"),
    ("hardware.growth.compute", "compute 3.0× / 2 years", "算力 3.0 倍/两年"),
    ("hardware.growth.dram", "DRAM bandwidth 1.6× / 2 years", "DRAM 带宽 1.6 倍/两年"),
    ("hardware.growth.ici", "interconnect 1.4× / 2 years", "互连 1.4 倍/两年"),
    ("hardware.speed.regs", "fastest", "最快"),
    ("hardware.speed.smem", "very fast: ~23 cycles latency (slides)", "很快：延迟约 23 个周期（课件）"),
    ("hardware.speed.l2", "fast", "较快"),
    ("hardware.speed.hbm", "slowest: ~290 cycles latency (slides), {bw} TB/s", "最慢：延迟约 290 个周期（课件），{bw} TB/s"),
    ("hardware.years", "years", "年"),
    ("hardware.growth.axis", "growth", "增长倍数"),
    ("hardware.source", "Sources: {s}", "来源：{s}"),
    ("hardware.explain", "Tensor Cores make matrix multiplication more than ten times faster than other floating-point work (H100: about 990 TFLOP/s bf16 against 67 fp32), so anything that is not a matmul is comparatively expensive. Fast GPU code respects the hierarchy: keep data close to the compute and go to HBM as rarely as possible.", "Tensor Core 让矩阵乘法比其他浮点运算快十倍以上（H100：bf16 约 990 TFLOP/s，fp32 约 67），所以凡是不能写成矩阵乘法的运算都相对很贵。快的 GPU 程序尊重存储层次：让数据待在离计算近的地方，尽量少去 HBM。"),
    ("hardware.lecture", "Lecture check (notes §4): A100 312 TFLOP/s, 2.0 TB/s → 156 FLOP/byte; H100 990, 3.35 → 295; B200 2250, 8.0 → 281.", "讲义对照（§4）：A100 312 TFLOP/s、2.0 TB/s → 156 FLOP/字节；H100 990、3.35 → 295；B200 2250、8.0 → 281。"),
    ("metric.ridge", "Ridge point (FLOP/byte)", "平衡点（FLOP/字节）"),
    ("metric.peak-tflops", "Peak (TFLOP/s)", "峰值（TFLOP/s）"),
    ("metric.bandwidth-tbps", "HBM bandwidth (TB/s)", "HBM 带宽（TB/s）"),
];
