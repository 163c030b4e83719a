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

pub static PARAMS: [ParamSpec; 5] = [
    ParamSpec::choice("gpu", crate::sim::hw::GPU_CHOICES, "h100"),
    ParamSpec::choice("dtype", crate::sim::hw::ML_DTYPES, "bf16"),
    crate::params::CUSTOM_PEAK,
    crate::params::CUSTOM_BW,
    MEASURED,
];

pub static META: TopicMeta = TopicMeta::new("hardware", Part::Gpu, &PARAMS)
    .notes(&["1", "2", "4"], "01 · 1")
    .metrics(&["ridge", "peak-tflops", "bandwidth-tbps"]);

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic =
    Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK).lecture(lecture_rows).measured(&[FIGURES_FILE]);

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

/// The measured table the panel overlays (`assets/measured/`).
pub const FIGURES_FILE: &str = "h200-figures.csv";

/// The growth chart's lines ([`GROWTH`], each in its colour), labelled by `label`.
pub fn growth_series(label: impl Fn(&str) -> String) -> Vec<crate::draw::chart::log::LogSeries> {
    GROWTH
        .iter()
        .zip(GROWTH_COLORS)
        .map(|((key, per2), color)| crate::draw::chart::log::LogSeries {
            label: label(key),
            color,
            points: growth_curve(*per2),
        })
        .collect()
}

/// Colours of the growth curves, in the order of [`GROWTH`].
const GROWTH_COLORS: [crate::scene::Rgba; 3] =
    [crate::scene::Rgba::rgb(235, 110, 20), crate::scene::Rgba::rgb(20, 90, 200), crate::scene::Rgba::rgb(16, 130, 60)];

/// The static snapshot (`crate::topic::snapshot`): the growth chart drawn as
/// SVG by the chart the panel draws on its canvas, and the default GPU's
/// key figures.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: Lang, width: f64) -> crate::topic::snapshot::Snapshot {
    use crate::draw::chart::log::{draw, LogPlot};
    use crate::i18n::tr;
    use crate::topic::snapshot::{chart, Above, Snapshot, View};
    let (v, _) = META.parse(&[]);
    let series = growth_series(|key| tr(lang, key));
    let (x_desc, y_desc) = (tr(lang, "hardware.years"), tr(lang, "hardware.growth.axis"));
    let title = tr(lang, "hardware.growth");
    let stage = chart(title.clone(), width.min(1100.0), 0.0, |root, look, _| {
        let p =
            LogPlot { series: &series, marker: 0.0, x_desc: &x_desc, y_desc: &y_desc, present: false, growth: true };
        draw(root, &p, look)
    });
    let figures = metrics(&machine(&v), v.choice("dtype"));
    Snapshot::View(View { above: Above::Nothing, stage, label: title, figures, pending: (vec![], "") })
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_lecture_table() {
        let rows = lecture_rows(&Values::defaults(&PARAMS));
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
            let (v, n) = META.parse(&q(&[("gpu", gpu), ("dtype", "bf16")]));
            assert!(n.is_empty());
            let m = metrics(&machine(&v), "bf16");
            assert_eq!(m.iter().map(|m| m.name).collect::<Vec<_>>(), META.metrics);
            assert_eq!(format!("{:.0}", m[0].value), ridge, "{gpu}");
            assert_eq!(ridge_args(&machine(&v), "bf16")[2].1, ridge);
        }
        let (v, _) = META.parse(&q(&[("gpu", "h100"), ("dtype", "bf16")]));
        let args = ridge_args(&machine(&v), "bf16").map(|(_, a)| a);
        assert_eq!(args, ["990", "3.35", "295"]);
    }

    #[test]
    fn custom_machine() {
        let (v, n) = META.parse(&q(&[("gpu", "custom"), ("dtype", "bf16"), ("peak", "100"), ("bw", "1000")]));
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
        let caption = TOPIC.strings.get("hardware.growth").unwrap().0;
        for (key, per2) in GROWTH {
            assert!(caption.contains(&format!("{per2:.1}×")), "{key}");
            let label = TOPIC.strings.get(key).unwrap();
            assert!(label.0.contains(&format!("{per2:.1}× / 2 years")), "{key}");
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
