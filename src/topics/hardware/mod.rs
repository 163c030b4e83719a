//! `#/hardware`: its URL parameters, its registry entry, the typed conversion
//! from URL values to the machine, and what its panel shows (metrics, the
//! memory hierarchy, the lecture's GPU table and growth curves) as pure data.

use crate::i18n::{trf, Lang};
use crate::params::{ParamSpec, Value, Values};
use crate::sim::hw::Gpu;
use crate::sim::measured::Table;
use crate::sim::Metric;
use crate::topic::{Part, Topic, TopicMeta, MEASURED};

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static HARDWARE_PARAMS: [ParamSpec; 5] = [
    ParamSpec::choice("gpu", crate::sim::hw::GPU_CHOICES, "h100"),
    ParamSpec::choice("dtype", crate::sim::hw::ML_DTYPES, "bf16"),
    crate::params::CUSTOM_PEAK,
    crate::params::CUSTOM_BW,
    MEASURED,
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
pub fn machine(v: &Values) -> Gpu {
    crate::params::machine(v)
}

/// The notes' §4 table and §5.4 machine beside the model, in one table:
/// SMs, peak, bandwidth and ridge point. The A100 twice: with NVIDIA's
/// 2,039 GB/s (153, not the notes' 156, with the reason) and with the
/// notes' rounded 2.0 TB/s, which gives their 156.
pub fn lecture_rows(v: &Values) -> Vec<crate::lecture::Row> {
    use crate::lecture::{Case, NOT_PRINTED};
    use crate::sim::hw::M4_PRO;
    let gpu = |code: &'static str| vec![("gpu", Value::Choice(code)), ("dtype", Value::Choice("bf16"))];
    let custom = |peak: &str, bw: u64, dtype: &'static str| {
        vec![
            ("gpu", Value::Choice("custom")),
            ("dtype", Value::Choice(dtype)),
            ("peak", Value::Text(peak.into())),
            ("bw", Value::Int(bw as i64)),
        ]
    };
    let a100 = crate::sim::hw::gpu("a100");
    let cases = vec![
        Case {
            label: "choice.gpu.a100",
            values: gpu("a100"),
            printed: vec![("sms", "108"), ("peak-tflops", "312"), ("bandwidth-tbps", "2.0"), ("ridge", "156")],
            reason: Some("hardware.reason.a100"),
        },
        Case {
            label: "hardware.case.a100-notes",
            values: custom(&format!("{}", a100.bf16_tflops), (a100.notes_hbm_tbps * 1000.0) as u64, "bf16"),
            printed: vec![("sms", NOT_PRINTED), ("peak-tflops", "312"), ("bandwidth-tbps", "2.0"), ("ridge", "156")],
            reason: None,
        },
        Case {
            label: "choice.gpu.h100",
            values: gpu("h100"),
            printed: vec![("sms", "132"), ("peak-tflops", "990"), ("bandwidth-tbps", "3.35"), ("ridge", "295")],
            reason: None,
        },
        Case {
            label: "choice.gpu.b200",
            values: gpu("b200"),
            printed: vec![("sms", "148"), ("peak-tflops", "2250"), ("bandwidth-tbps", "8.0"), ("ridge", "281")],
            reason: None,
        },
        Case {
            label: "custom.m4-pro",
            values: custom(M4_PRO.0, M4_PRO.1, "fp32"),
            printed: vec![("sms", NOT_PRINTED), ("peak-tflops", "5.5"), ("bandwidth-tbps", "0.215"), ("ridge", "26")],
            reason: None,
        },
    ];
    crate::lecture::rows(v, cases, |v| {
        let h = machine(v);
        let mut m = metrics(&h, v.choice("dtype"));
        // SMs where the machine has them (a custom one has none).
        if h.sms > 0 {
            m.push(Metric::count("sms", h.sms as u64));
        }
        m
    })
}

/// The SMs line: enabled SMs, and the full die's where the chip disables
/// some (A100: 108 of the GA100 die's 128, the slides' "128 SMs").
pub fn sms_line(lang: Lang, h: &Gpu) -> Option<String> {
    let args = [("gpu", h.name.to_string()), ("sms", h.sms.to_string()), ("die", h.die_sms.to_string())];
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    match (h.sms, h.die_sms) {
        (0, _) => None,
        (_, 0) => Some(trf(lang, "hardware.sms", &args)),
        _ => Some(trf(lang, "hardware.sms.die", &args)),
    }
}

/// Shared memory's bandwidth over the whole chip, TB/s: each SM's 32 banks
/// deliver 4 bytes a clock (128 B per clock per SM), at the Tensor Core
/// clock the published bf16 peak implies. The notes' "tens of TB/s".
/// (`None` for a machine without SMs.)
pub fn smem_tbps(h: &Gpu) -> Option<(f64, f64)> {
    (h.sms > 0 && h.macs_per_sm_cycle > 0).then(|| {
        let ghz = h.bf16_tflops * 1e12 / (2.0 * h.macs_per_sm_cycle as f64 * h.sms as f64) / 1e9;
        (h.sms as f64 * 128.0 * ghz / 1e3, ghz)
    })
}

/// What the growth chart's curves give after two and after ten years
/// (read off the curves, not the caption): (label key, ×2 years, ×10 years).
pub fn growth_values() -> Vec<(&'static str, f64, f64)> {
    GROWTH.iter().map(|(key, per2)| (*key, growth_curve(*per2)[2].1, growth_curve(*per2)[10].1)).collect()
}

/// The readouts: ridge point, peak and bandwidth for the dtype.
pub fn metrics(h: &Gpu, dtype: &str) -> Vec<Metric> {
    vec![
        Metric::real("ridge", h.ridge(dtype)),
        Metric::real("peak-tflops", h.peak_tflops(dtype)),
        Metric::real("bandwidth-tbps", h.hbm_tbps),
    ]
}

/// The arguments of `hardware.ridge`: peak (TFLOP/s), bandwidth (TB/s) and
/// their quotient (FLOP per byte).
pub fn ridge_args(h: &Gpu, dtype: &str) -> [(&'static str, String); 3] {
    [
        ("peak", crate::format::sig3(h.peak_tflops(dtype))),
        ("bw", h.hbm_tbps.to_string()),
        ("r", format!("{:.0}", h.ridge(dtype))),
    ]
}

/// One level of the memory hierarchy: its label, size ("—" where unknown),
/// scope and speed (translation keys; the speed's arguments).
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub key: &'static str,
    pub size: String,
    /// The size in bytes (0 where unknown).
    pub bytes: f64,
    pub scope: &'static str,
    pub speed: &'static str,
    pub speed_args: Vec<(&'static str, String)>,
}

/// A size, or "—" when the machine does not say (a custom one, B200's L2).
fn known(x: f64, unit: &str) -> String {
    if x > 0.0 {
        format!("{x} {unit}")
    } else {
        "—".to_string()
    }
}

/// Registers, shared memory, L2 and HBM of the machine, closest first.
pub fn hierarchy(h: &Gpu) -> [Level; 4] {
    let level = |key, size, bytes, scope, speed| Level { key, size, bytes, scope, speed, speed_args: vec![] };
    let smem = match smem_tbps(h) {
        Some((tbps, ghz)) => Level {
            speed_args: vec![("bw", format!("{tbps:.0}")), ("sms", h.sms.to_string()), ("ghz", format!("{ghz:.2}"))],
            ..level(
                "hardware.level.smem",
                known(h.smem_kb_per_sm, "KiB"),
                h.smem_kb_per_sm * 1024.0,
                "hardware.per-sm",
                "hardware.speed.smem.bw",
            )
        },
        None => level(
            "hardware.level.smem",
            known(h.smem_kb_per_sm, "KiB"),
            h.smem_kb_per_sm * 1024.0,
            "hardware.per-sm",
            "hardware.speed.smem",
        ),
    };
    [
        level(
            "hardware.level.regs",
            known(h.regs_kb_per_sm, "KiB"),
            h.regs_kb_per_sm * 1024.0,
            "hardware.per-sm",
            "hardware.speed.regs",
        ),
        smem,
        level("hardware.level.l2", known(h.l2_mb, "MB"), h.l2_mb * 1e6, "hardware.chip", "hardware.speed.l2"),
        Level {
            speed_args: vec![("bw", format!("{:.2}", h.hbm_tbps))],
            ..level("hardware.level.hbm", known(h.hbm_gb, "GB"), h.hbm_gb * 1e9, "hardware.chip", "hardware.speed.hbm")
        },
    ]
}

/// Growth per two years (CS336 slides, after Gholami et al., “AI and Memory
/// Wall”): (label key, factor).
pub const GROWTH: [(&str, f64); 3] =
    [("hardware.growth.compute", 3.0), ("hardware.growth.dram", 1.6), ("hardware.growth.ici", 1.4)];

/// Years the growth chart spans.
pub const GROWTH_YEARS: u32 = 20;

/// (year, growth since year 0) for a factor per two years, every year.
pub fn growth_curve(per_two_years: f64) -> Vec<(f64, f64)> {
    (0..=GROWTH_YEARS).map(|y| (y as f64, per_two_years.powf(y as f64 / 2.0))).collect()
}

/// The measured copies of the H200 (`h200-figures.csv`): (id, GB/s key).
/// GB/s counts bytes read + bytes written, as the spec's bandwidth does.
pub const MEASURED_COPIES: [(&str, &str); 5] = [
    ("copy-fp32-1GiB", "copy_bandwidth.fp32_1GiB.GBps"),
    ("copy-bf16-1GiB", "copy_bandwidth.bf16_1GiB.GBps"),
    ("copy-fp32-4GiB", "copy_bandwidth.fp32_4GiB.GBps"),
    ("straight", "transpose_copy.straight_clone.GBps"),
    ("transposed", "transpose_copy.transposed_contiguous.GBps"),
];

/// One measured copy against the H200's spec bandwidth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CopyRow {
    pub id: &'static str,
    pub gbps: f64,
    /// The model: NVIDIA's HBM bandwidth, GB/s.
    pub spec_gbps: f64,
}

impl CopyRow {
    pub fn model_over_measured(&self) -> f64 {
        self.spec_gbps / self.gbps
    }
}

/// The measured copies the table has.
pub fn measured_copies(t: &Table) -> Vec<CopyRow> {
    let spec_gbps = crate::sim::hw::gpu("h200").hbm_tbps * 1000.0;
    MEASURED_COPIES
        .iter()
        .filter_map(|&(id, key)| t.value(key).filter(|&g| g > 0.0).map(|gbps| CopyRow { id, gbps, spec_gbps }))
        .collect()
}

/// Time of the transposed copy ÷ time of the straight one (8192² fp32).
pub fn transposed_over_straight(t: &Table) -> Option<f64> {
    let straight = t.value("transpose_copy.straight_clone.median_ms").filter(|&x| x > 0.0)?;
    Some(t.value("transpose_copy.transposed_contiguous.median_ms")? / straight)
}

/// Everything this route owns (the registry lists it).
pub static TOPIC: Topic =
    Topic::new(&HARDWARE, STRINGS, &practice::BANK).lecture(lecture_rows).measured(&[FIGURES_FILE]);

/// The measured table the panel overlays (`assets/measured/`).
pub const FIGURES_FILE: &str = "h200-figures.csv";

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = crate::texts![
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
    ("hardware.case.a100-notes", "A100, the notes' 2.0 TB/s", "A100（讲义取 2.0 TB/s）"),
    ("metric.sms", "SMs", "SM 数"),
    ("hardware.sms", "{gpu}: {sms} SMs.", "{gpu}：{sms} 个 SM。"),
    ("hardware.sms.die", "{gpu}: {sms} SMs enabled of the full die's {die} (a figure like “{die} SMs” counts the whole die).", "{gpu}：整颗芯片 {die} 个 SM 中启用 {sms} 个（“{die} 个 SM”这类说法数的是整颗芯片）。"),
    ("hardware.growth.values", "Read off the curves: after 2 years compute ×{c2}, DRAM bandwidth ×{d2}, interconnect ×{i2}; after 10 years ×{c10}, ×{d10}, ×{i10}.", "从曲线读出：两年后算力 ×{c2}、DRAM 带宽 ×{d2}、互连 ×{i2}；十年后 ×{c10}、×{d10}、×{i10}。"),
    ("hardware.speed.smem.bw", "very fast: about {bw} TB/s over the chip (32 banks × 4 B per clock on each of {sms} SMs at {ghz} GHz: the notes' “tens of TB/s”); ~23 cycles latency (slides)", "很快：整个芯片约 {bw} TB/s（{sms} 个 SM 各 32 个存储体 × 每周期 4 字节，{ghz} GHz：即讲义的“每秒几十 TB”）；延迟约 23 个周期（课件）"),
    ("hardware.notes-why", "NVIDIA's data sheet gives the A100 (SXM, 80 GB) 2,039 GB/s; the notes round it to 2.0 TB/s, so their ridge point is 156 where NVIDIA's figures give 153. The table computes both: its first row with NVIDIA's figure, its second with the notes'.", "NVIDIA 数据手册给出 A100（SXM，80 GB）带宽 2,039 GB/s；讲义取整为 2.0 TB/s，所以讲义的平衡点是 156，而按 NVIDIA 的数字是 153。表中两者都算出：第一行用 NVIDIA 的数字，第二行用讲义的。"),
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
    ("hardware.source.custom", "given in the URL (peak, bw)", "由 URL 给出（peak、bw）"),
    ("hardware.lecture-table", "The lecture's figures (notes §4, §5.4) beside this model", "讲义的数字（§4、§5.4）与本模型对照"),
    ("hardware.reason.a100", "NVIDIA's data sheet gives 2,039 GB/s; the notes round it to 2.0 TB/s", "NVIDIA 数据手册为 2,039 GB/s，讲义取整为 2.0 TB/s"),
    ("hardware.source.a100", "NVIDIA A100 Tensor Core GPU datasheet (SXM 80 GB: 312 TFLOPS BF16 dense, 2,039 GB/s, which the notes round to 2.0 TB/s); NVIDIA Ampere GA100 whitepaper (108 SMs enabled of the die's 128, 40 MB L2, 164 KB shared memory and 256 KB registers per SM)", "NVIDIA A100 Tensor Core GPU 数据手册（SXM 80 GB：BF16 稠密 312 TFLOPS，2,039 GB/s，讲义取整为 2.0 TB/s）；NVIDIA Ampere GA100 白皮书（芯片 128 个 SM 中启用 108 个，40 MB L2，每 SM 164 KB 共享内存和 256 KB 寄存器）"),
    ("hardware.source.h100", "NVIDIA H100 Tensor Core GPU datasheet (SXM5: 1,979 TFLOPS BF16 with sparsity, so 989.5 dense, which the notes round to 990; 3.35 TB/s); NVIDIA Hopper architecture whitepaper (132 SMs, 50 MB L2, 228 KB shared memory and 256 KB registers per SM)", "NVIDIA H100 Tensor Core GPU 数据手册（SXM5：含稀疏的 BF16 1,979 TFLOPS，即稠密 989.5，讲义取整为 990；3.35 TB/s）；NVIDIA Hopper 架构白皮书（132 个 SM，50 MB L2，每 SM 228 KB 共享内存和 256 KB 寄存器）"),
    ("hardware.source.h200", "NVIDIA H200 Tensor Core GPU datasheet (SXM: 141 GB HBM3e at 4.8 TB/s; the same Hopper compute as H100)", "NVIDIA H200 Tensor Core GPU 数据手册（SXM：141 GB HBM3e，4.8 TB/s；计算部分与 H100 相同的 Hopper）"),
    ("hardware.source.b200", "NVIDIA HGX B200 / DGX B200 specifications (per GPU at 1,000 W: 2.25 PFLOPS dense BF16, 4.5 PFLOPS dense FP8, 80 TFLOPS FP32, 8 TB/s, 180 GB); L2 size not published by NVIDIA", "NVIDIA HGX B200 / DGX B200 规格（每 GPU 1,000 W：BF16 稠密 2.25 PFLOPS，FP8 稠密 4.5 PFLOPS，FP32 80 TFLOPS，8 TB/s，180 GB）；NVIDIA 未公布 L2 大小"),
    ("hardware.explain", "Tensor Cores make matrix multiplication more than ten times faster than other floating-point work (H100: about 990 TFLOP/s bf16 against 67 fp32), so anything that is not a matmul is comparatively expensive. Fast GPU code respects the hierarchy: keep data close to the compute and go to HBM as rarely as possible.", "Tensor Core 让矩阵乘法比其他浮点运算快十倍以上（H100：bf16 约 990 TFLOP/s，fp32 约 67），所以凡是不能写成矩阵乘法的运算都相对很贵。快的 GPU 程序尊重存储层次：让数据待在离计算近的地方，尽量少去 HBM。"),
    ("hardware.lecture", "Lecture check (notes §4): A100 312 TFLOP/s, 2.0 TB/s → 156 FLOP/byte; H100 990, 3.35 → 295; B200 2250, 8.0 → 281.", "讲义对照（§4）：A100 312 TFLOP/s、2.0 TB/s → 156 FLOP/字节；H100 990、3.35 → 295；B200 2250、8.0 → 281。"),
    ("hardware.measured.title", "Measured on an H200: HBM bandwidth against the spec", "H200 实测：显存带宽对比标称值"),
    ("hardware.measured.col.copy", "Copy (H200)", "拷贝（H200）"),
    ("hardware.measured.col.gbps", "Measured GB/s", "实测 GB/s"),
    ("hardware.measured.col.spec", "Spec (model) GB/s", "标称（模型）GB/s"),
    ("hardware.measured.col.ratio", "Model ÷ measured", "模型 ÷ 实测"),
    ("hardware.measured.copy-fp32-1GiB", "dst.copy_(src), fp32, 1 GiB", "dst.copy_(src)，fp32，1 GiB"),
    ("hardware.measured.copy-bf16-1GiB", "dst.copy_(src), bf16, 1 GiB", "dst.copy_(src)，bf16，1 GiB"),
    ("hardware.measured.copy-fp32-4GiB", "dst.copy_(src), fp32, 4 GiB", "dst.copy_(src)，fp32，4 GiB"),
    ("hardware.measured.straight", "8192 × 8192 fp32: m.clone() (straight)", "8192 × 8192 fp32：m.clone()（顺序）"),
    ("hardware.measured.transposed", "8192 × 8192 fp32: m.t().contiguous() (transposed)", "8192 × 8192 fp32：m.t().contiguous()（转置）"),
    ("hardware.measured.transpose", "The transposed copy takes {r}× the straight one's time: the same bytes, but one side walks memory with a stride of 8192 elements, so its accesses are far less coalesced (see #/coalescing).", "转置拷贝的耗时是顺序拷贝的 {r} 倍：字节数相同，但有一侧以 8192 个元素为步长访问内存，合并访问差得多（见 #/coalescing）。"),
    ("hardware.measured.why", "Why they differ: 4.8 TB/s is the interface's peak (bus width × data rate); a real copy also pays DRAM refresh, row switches and read/write turnarounds, so even the best copy sustains somewhat less. Every GB/s here counts bytes read plus bytes written. The gap is why the roofline's memory roof is an upper bound, not a prediction.", "差异的原因：4.8 TB/s 是接口的峰值（位宽 × 数据速率）；真实的拷贝还要付出 DRAM 刷新、换行和读写切换的代价，所以即使最好的拷贝也只能维持略低的带宽。这里的 GB/s 都按读字节加写字节计算。正因为有这个差距，roofline 的内存屋顶是上限，而不是预测。"),
    ("metric.ridge", "Ridge point (FLOP/byte)", "平衡点（FLOP/字节）"),
    ("metric.peak-tflops", "Peak (TFLOP/s)", "峰值（TFLOP/s）"),
    ("metric.bandwidth-tbps", "HBM bandwidth (TB/s)", "HBM 带宽（TB/s）"),
];

#[cfg(test)]
mod tests {

    #[test]
    fn the_lecture_table() {
        let rows = lecture_rows(&Values::defaults(&HARDWARE_PARAMS));
        // A100: the notes' 2.0 TB/s against NVIDIA's 2.039: 153, not 156; with
        // the notes' own figure 156 (second row); the rest match.
        assert_eq!(rows.iter().map(|r| r.ok()).collect::<Vec<_>>(), [false, true, true, true, true]);
        assert_eq!((rows[0].cells[3].computed.as_str(), rows[0].reason), ("153", Some("hardware.reason.a100")));
        assert_eq!(rows[1].cells[3].computed, "156");
        // The SM counts are computed from the hardware table; a custom machine has none.
        let sms: Vec<&str> = rows.iter().map(|r| r.cells[0].computed.as_str()).collect();
        assert_eq!(sms, ["108", "—", "132", "148", "—"]);
    }
    use super::*;

    use crate::topic::q;

    #[test]
    fn lecture_ridges_through_the_url() {
        // notes §4: A100 156 (NVIDIA's 2,039 GB/s: 153; the table shows
        // both), H100 295, B200 281 FLOP/byte.
        for (gpu, ridge) in [("a100", "153"), ("h100", "295"), ("b200", "281")] {
            let (v, n) = HARDWARE.parse(&q(&[("gpu", gpu), ("dtype", "bf16")]));
            assert!(n.is_empty());
            let m = metrics(&machine(&v), "bf16");
            assert_eq!(m.iter().map(|m| m.name).collect::<Vec<_>>(), HARDWARE.metrics);
            assert_eq!(format!("{:.0}", m[0].value), ridge, "{gpu}");
            assert_eq!(ridge_args(&machine(&v), "bf16")[2].1, ridge);
        }
        let (v, _) = HARDWARE.parse(&q(&[("gpu", "h100"), ("dtype", "bf16")]));
        let args = ridge_args(&machine(&v), "bf16").map(|(_, a)| a);
        assert_eq!(args, ["990", "3.35", "295"]);
    }

    #[test]
    fn custom_machine() {
        let (v, n) = HARDWARE.parse(&q(&[("gpu", "custom"), ("dtype", "bf16"), ("peak", "100"), ("bw", "1000")]));
        assert!(n.is_empty());
        let h = machine(&v);
        let m = metrics(&h, "fp8");
        assert_eq!((m[0].value, m[1].value, m[2].value), (100.0, 100.0, 1.0));
        assert_eq!(ridge_args(&h, "fp32").map(|(_, a)| a), ["100", "1", "100"]);
        // Its memory sizes are unknown.
        assert!(hierarchy(&h).iter().all(|l| l.size == "—"));
    }

    #[test]
    fn memory_hierarchy() {
        let levels = hierarchy(crate::sim::hw::gpu("h100"));
        let sizes: Vec<&str> = levels.iter().map(|l| l.size.as_str()).collect();
        assert_eq!(sizes, ["256 KiB", "228 KiB", "50 MB", "80 GB"]);
        assert_eq!(levels[3].speed_args, [("bw", "3.35".to_string())]);
        // B200's L2 size is not published.
        assert_eq!(hierarchy(crate::sim::hw::gpu("b200"))[2].size, "—");
    }

    /// Every preset's sources in both languages; the English is hw.rs's.
    #[test]
    fn sources_in_both_languages() {
        crate::topics::install_texts();
        for g in crate::sim::hw::GPUS {
            let key = format!("hardware.source.{}", g.code);
            assert_eq!(crate::i18n::tr(crate::i18n::Lang::En, &key), g.source);
            assert!(crate::i18n::tr(crate::i18n::Lang::Zh, &key).contains("数据手册") || g.code == "b200");
        }
    }

    #[test]
    fn sms_shared_memory_and_growth_are_computed() {
        crate::topics::install_texts();
        let a100 = crate::sim::hw::gpu("a100");
        assert_eq!(
            sms_line(Lang::En, a100).unwrap(),
            "A100: 108 SMs enabled of the full die's 128 (a figure like “128 SMs” counts the whole die)."
        );
        assert_eq!(sms_line(Lang::En, crate::sim::hw::gpu("b200")).unwrap(), "B200: 148 SMs.");
        assert!(sms_line(Lang::En, &crate::sim::hw::custom(5.5, 215.0)).is_none());
        // H100: 132 SMs × 128 B × 1.83 GHz ≈ 31 TB/s: "tens of TB/s".
        let (tbps, ghz) = smem_tbps(crate::sim::hw::gpu("h100")).unwrap();
        assert_eq!((format!("{tbps:.0}"), format!("{ghz:.2}")), ("31".into(), "1.83".into()));
        assert!(smem_tbps(crate::sim::hw::gpu("a100")).unwrap().0 > 10.0);
        let levels = hierarchy(crate::sim::hw::gpu("h100"));
        assert_eq!(levels[1].speed, "hardware.speed.smem.bw");
        assert_eq!(levels.map(|l| l.bytes), [262_144.0, 233_472.0, 50e6, 80e9]);
        let g = growth_values();
        assert_eq!(g.iter().map(|x| format!("{:.1}", x.1)).collect::<Vec<_>>(), ["3.0", "1.6", "1.4"]);
        assert_eq!(format!("{:.0}", g[0].2), "243");
    }

    #[test]
    fn lecture_growth() {
        // The chart's factors are the ones its caption states.
        let caption = STRINGS.iter().find(|e| e.0 == "hardware.growth").unwrap().1;
        for (key, per2) in GROWTH {
            assert!(caption.contains(&format!("{per2:.1}×")), "{key}");
            let label = STRINGS.iter().find(|e| e.0 == key).unwrap();
            assert!(label.1.contains(&format!("{per2:.1}× / 2 years")), "{key}");
            let c = growth_curve(per2);
            assert_eq!(c.len(), GROWTH_YEARS as usize + 1);
            assert_eq!(c[0], (0.0, 1.0));
            assert!((c[2].1 - per2).abs() < 1e-12);
        }
        // Over 20 years compute grows 3^10 = 59049×, bandwidth 1.6^10 ≈ 110×:
        // the ridge point rises about 537-fold.
        let last = |per2| growth_curve(per2)[GROWTH_YEARS as usize].1;
        assert!((last(3.0) - 59049.0).abs() < 1e-6);
        assert_eq!(format!("{:.0}", last(3.0) / last(1.6)), "537");
    }

    #[test]
    fn short_numbers() {
        assert_eq!(
            [
                crate::format::sig3(989.5),
                crate::format::sig3(67.0),
                crate::format::sig3(0.8375),
                crate::format::sig3(19.5)
            ],
            ["990", "67.0", "0.84", "19.5"]
        );
    }

    #[test]
    fn measured_bandwidth_against_the_spec() {
        let t = Table::parse(include_str!("../../../assets/measured/h200-figures.csv"));
        let rows = measured_copies(&t);
        assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), MEASURED_COPIES.map(|c| c.0));
        for (r, (_, key)) in rows.iter().zip(MEASURED_COPIES) {
            assert_eq!((r.gbps, r.spec_gbps), (t.value(key).unwrap(), 4800.0));
            assert_eq!(r.model_over_measured(), 4800.0 / r.gbps);
        }
        // Straight copies: below the spec, but within 20 % of it.
        for r in rows.iter().filter(|r| r.id != "transposed") {
            assert!((1.0..1.2).contains(&r.model_over_measured()), "{}: {}", r.id, r.model_over_measured());
        }
        // GB/s is bytes read + written over the median time.
        let bytes = t.value("copy_bandwidth.fp32_1GiB.buffer_bytes").unwrap();
        let ms = t.value("copy_bandwidth.fp32_1GiB.median_ms").unwrap();
        assert!((2.0 * bytes / (ms * 1e-3) / 1e9 / rows[0].gbps - 1.0).abs() < 0.001);
        // The transposed copy moves the same bytes several times slower.
        let q = transposed_over_straight(&t).unwrap();
        let (straight, transposed) = (rows[3].gbps, rows[4].gbps);
        assert!((q / (straight / transposed) - 1.0).abs() < 0.005, "{q}");
        assert!(q > 2.0, "{q}");
        assert!(measured_copies(&Table::default()).is_empty() && transposed_over_straight(&Table::default()).is_none());
    }
}
