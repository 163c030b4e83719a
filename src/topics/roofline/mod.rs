//! `#/roofline`: its URL parameters, its registry entry, the typed conversion
//! from URL values to work, and what its panel shows (the lecture's
//! operations on the roofline, the precision note, the decode presets) as
//! pure data.

use super::fusion::measured_ledger;
use crate::params::{ParamSpec, Value, Values};
use crate::sim::hw::Gpu;
use crate::sim::measured::Table;
use crate::sim::roofline::{self, attainable_tflops, block_scaled_bits, op_work};
use crate::topic::{Part, Topic, TopicMeta, MEASURED};

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static PARAMS: [ParamSpec; 11] = [
    ParamSpec::choice("gpu", crate::sim::hw::GPU_CHOICES, "h100"),
    ParamSpec::choice("dtype", crate::sim::hw::ML_DTYPES, "bf16"),
    ParamSpec::choice("op", &["relu", "dot", "matvec", "matmul", "decode", "custom"], "matmul"),
    ParamSpec::int("n", 1, 65536, 4096).log(),
    ParamSpec::int("d", 1, 65536, 8192).log(),
    ParamSpec::int("batch", 1, 65536, 1).log(),
    ParamSpec::int("flops", 1, 1_000_000_000_000_000, 1_000_000).optional().log(),
    ParamSpec::int("bytes", 1, 1_000_000_000_000_000, 1_000_000).optional().log(),
    MEASURED,
    crate::params::CUSTOM_PEAK,
    crate::params::CUSTOM_BW,
];

pub static META: TopicMeta = TopicMeta::new("roofline", Part::Fast, &PARAMS)
    .notes(&["5", "6.2"], "01 · 2–3")
    .metrics(&["intensity", "attainable-tflops", "percent-of-peak", "bound"]);

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic =
    Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK).lecture(lecture_rows).measured(&[FIGURES_FILE]);

/// FLOPs and bytes of the chosen operation.
pub fn roofline_work(v: &Values, op: &str) -> roofline::Work {
    let e = crate::sim::hw::dtype_bytes(v.choice("dtype")) as f64;
    if op == "custom" {
        return roofline::Work { flops: v.int("flops") as f64, bytes: v.int("bytes") as f64 };
    }
    roofline::op_work(op, v.int("n") as f64, v.int("d") as f64, v.int("batch") as f64, e)
}

/// The chosen GPU, or the custom machine (`peak`, `bw`).
pub fn gpu(v: &Values) -> Gpu {
    crate::params::machine(v)
}

/// The lecture's operations (notes §5.2, §5.3), in the table's order.
pub const LECTURE_OPS: [&str; 5] = ["relu", "dot", "matvec", "matmul", "decode"];

/// One operation on the roofline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpPoint {
    pub op: &'static str,
    /// FLOP per byte.
    pub intensity: f64,
    /// TFLOP/s.
    pub attainable: f64,
    /// Attainable ÷ peak, 0..=1.
    pub of_peak: f64,
    /// The operation the URL chose.
    pub selected: bool,
}

impl OpPoint {
    fn new(v: &Values, op: &'static str) -> Self {
        let (h, dtype) = (gpu(v), v.choice("dtype"));
        let intensity = roofline_work(v, op).intensity();
        let attainable = attainable_tflops(&h, dtype, intensity);
        OpPoint {
            op,
            intensity,
            attainable,
            of_peak: attainable / h.peak_tflops(dtype),
            selected: op == v.choice("op"),
        }
    }
    /// The table's cells: intensity, attainable, share of peak.
    pub fn cells(&self) -> [String; 3] {
        [
            crate::format::sig3(self.intensity),
            format!("{} TFLOP/s", crate::format::sig3(self.attainable)),
            format!("{:.1}%", 100.0 * self.of_peak),
        ]
    }
}

/// The lecture's operations at the URL's sizes (the table's rows).
pub fn lecture_points(v: &Values) -> Vec<OpPoint> {
    LECTURE_OPS.iter().map(|op| OpPoint::new(v, op)).collect()
}

/// Every dot of the chart: the lecture's operations, and the custom one when
/// it is chosen.
pub fn chart_points(v: &Values) -> Vec<OpPoint> {
    let mut points = lecture_points(v);
    if v.choice("op") == "custom" {
        points.push(OpPoint::new(v, "custom"));
    }
    points
}

/// The arguments of `roofline.precision` (notes §6.2): bytes ReLU moves per
/// FLOP in this dtype, and the effective bits of MXFP8 (E4M3, an E8M0 scale
/// per 32 values), MXFP4 (E2M1, an E8M0 scale per 32: the OCP MX
/// specification's block of 32, where the notes say 16) and NVFP4 (E2M1, an
/// E4M3 scale per 16: the only one of these with 16).
pub fn precision_args(dtype: &'static str) -> [(&'static str, String); 5] {
    let relu = op_work("relu", 1.0, 0.0, 0.0, crate::sim::hw::dtype_bytes(dtype) as f64);
    [
        ("b", format!("{}", relu.bytes)),
        ("dtype", dtype.to_string()),
        ("mx", block_scaled_bits(8.0, 8.0, 32.0).to_string()),
        ("mx4", block_scaled_bits(4.0, 8.0, 32.0).to_string()),
        ("nv", block_scaled_bits(4.0, 8.0, 16.0).to_string()),
    ]
}

/// What a decode preset sets: H100, bf16, d = 8192, B tokens.
pub fn decode_preset(batch: i64) -> Vec<(&'static str, Value)> {
    vec![
        ("gpu", Value::Choice("h100")),
        ("dtype", Value::Choice("bf16")),
        ("op", Value::Choice("decode")),
        ("d", Value::Int(8192)),
        ("batch", Value::Int(batch)),
    ]
}

/// The notes' §5.2 and §5.3 tables beside the model (H100, bf16).
pub fn lecture_rows(v: &Values) -> Vec<crate::lecture::Row> {
    use crate::lecture::Case;
    let ops: [(&'static str, [&'static str; 3]); 4] = [
        ("relu", ["0.25", "0.8", "0.1%"]),
        ("dot", ["0.5", "1.7", "0.2%"]),
        ("matvec", ["1.0", "3.3", "0.3%"]),
        ("matmul", ["1365", "990", "100%"]),
    ];
    let mut cases: Vec<Case> = ops
        .into_iter()
        .map(|(op, [i, t, pc])| Case {
            label: ["choice.op.relu", "choice.op.dot", "choice.op.matvec", "choice.op.matmul"]
                [LECTURE_OPS.iter().position(|&o| o == op).unwrap_or(0)],
            values: vec![
                ("gpu", Value::Choice("h100")),
                ("dtype", Value::Choice("bf16")),
                ("op", Value::Choice(op)),
                ("n", Value::Int(4096)),
            ],
            printed: vec![("intensity", i), ("attainable-tflops", t), ("percent-of-peak", pc)],
            reason: None,
        })
        .collect();
    let decode = [("1.0", "0.3%"), ("8.0", "2.7%"), ("63", "21%"), ("241", "82%"), ("819", "100%")];
    cases.extend(crate::lecture::DECODE_BATCHES.iter().zip(decode).map(|(&(b, label, _), (i, pc))| Case {
        label,
        values: decode_preset(b),
        printed: vec![("intensity", i), ("attainable-tflops", crate::lecture::NOT_PRINTED), ("percent-of-peak", pc)],
        reason: None,
    }));
    crate::lecture::rows(v, cases, |v| roofline::metrics(&gpu(v), v.choice("dtype"), roofline_work(v, v.choice("op"))))
}

/// The GPU and dtype the measurements were taken on (x = torch.randn(2²⁸), fp32).
pub const MEASURED_GPU: &str = "h200";
pub const MEASURED_DTYPE: &str = "fp32";
/// Bytes per element a one-input elementwise kernel must move at least: read
/// x once and write the result once, fp32 (what `effective_GBps` counts).
pub const MIN_BYTES_PER_ELEM: f64 = 8.0;

/// One measured elementwise kernel: (id, expression in `fusion::MEASURED_EXPRS`,
/// fused into one kernel, key of its effective GB/s, drawn on the chart).
pub const MEASURED_KERNELS: [(&str, &str, bool, &str, bool); 7] = [
    ("x2-eager", "x2", false, "elementwise_eager.x*2.effective_GBps", true),
    ("x2p1-eager", "x2p1", false, "elementwise_eager.x*2+1.effective_GBps", true),
    ("sincos-eager", "sincos", false, "elementwise_eager.sin(x)**2+cos(x)**2.effective_GBps", true),
    ("sincos-compiled", "sincos", true, "elementwise_compiled.sin(x)**2+cos(x)**2.compiled.effective_GBps", true),
    ("gelu-eager", "gelu", false, "elementwise_eager.gelu_manual_tanh.effective_GBps", true),
    ("gelu-compiled", "gelu", true, "elementwise_compiled.gelu_manual_tanh.compiled.effective_GBps", true),
    ("gelu-builtin", "gelu", true, "elementwise_eager.F.gelu(approximate='tanh').effective_GBps", false),
];

/// The copy that gives the measured memory roof (1 GiB fp32, read + write).
pub const COPY_KEY: &str = "copy_bandwidth.fp32_1GiB.GBps";

/// A measured point on the H200's roofline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasuredPoint {
    pub id: &'static str,
    /// FLOP per element (one per operation, as the fusion ledger counts).
    pub flops: f64,
    /// FLOP per byte at the minimal bytes (x read once, result written once).
    pub intensity: f64,
    /// Measured: minimal bytes ÷ time, GB/s.
    pub effective_gbps: f64,
    /// Measured: the bytes the ledger says this run moves ÷ time, GB/s.
    pub ledger_gbps: f64,
    /// Measured TFLOP/s = intensity × effective GB/s.
    pub tflops: f64,
    /// The model: attainable on the H200 (spec bandwidth) at this intensity.
    pub model: f64,
    pub draw: bool,
}

impl MeasuredPoint {
    pub fn model_over_measured(&self) -> f64 {
        self.model / self.tflops
    }
}

/// The measured memory roof: copy bandwidth against the spec's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasuredRoof {
    pub copy_gbps: f64,
    pub spec_gbps: f64,
}

impl MeasuredRoof {
    pub fn model_over_measured(&self) -> f64 {
        self.spec_gbps / self.copy_gbps
    }
}

/// The copy bandwidth against the H200's spec, if the table has it.
pub fn measured_roof(t: &Table) -> Option<MeasuredRoof> {
    let h = crate::sim::hw::gpu(MEASURED_GPU);
    t.value(COPY_KEY).filter(|&g| g > 0.0).map(|copy_gbps| MeasuredRoof { copy_gbps, spec_gbps: h.hbm_tbps * 1000.0 })
}

/// The elementwise kernels as points on the H200's fp32 roofline.
pub fn measured_points(t: &Table) -> Vec<MeasuredPoint> {
    let h = crate::sim::hw::gpu(MEASURED_GPU);
    MEASURED_KERNELS
        .iter()
        .filter_map(|&(id, expr, fused, key, draw)| {
            let effective_gbps = t.value(key)?;
            let l = measured_ledger(expr);
            let flops = l.flops(1) as f64;
            let intensity = flops / MIN_BYTES_PER_ELEM;
            let arrays = if fused { l.arrays_fused() } else { l.arrays_unfused() };
            let tflops = intensity * effective_gbps / 1000.0;
            (tflops > 0.0).then_some(MeasuredPoint {
                id,
                flops,
                intensity,
                effective_gbps,
                ledger_gbps: effective_gbps * arrays as f64 / l.arrays_fused() as f64,
                tflops,
                model: attainable_tflops(h, MEASURED_DTYPE, intensity),
                draw,
            })
        })
        .collect()
}

/// The measured table the panel overlays (`assets/measured/`).
pub const FIGURES_FILE: &str = "h200-figures.csv";

/// The chart in `lang`: the GPU's roofs in the URL's dtype, and each
/// lecture operation (and the custom one when chosen) as a dot at its
/// intensity and attainable rate. (The H200's measured points join them in
/// the panel once its file is in.)
pub fn roofline_spec(v: &Values, lang: crate::i18n::Lang) -> crate::draw::chart::roofline::RooflineSpec {
    use crate::i18n::{tr, trf};
    let (h, dtype) = (gpu(v), v.choice("dtype"));
    let dots = chart_points(v)
        .into_iter()
        .map(|pt| crate::draw::chart::roofline::RoofDot {
            label: tr(lang, &format!("choice.op.{}", pt.op)),
            intensity: pt.intensity,
            tflops: pt.attainable,
            selected: pt.selected,
        })
        .collect();
    crate::draw::chart::roofline::RooflineSpec {
        peak: h.peak_tflops(dtype),
        bandwidth: h.hbm_tbps,
        dots,
        x_desc: tr(lang, "chart.roofline-axis"),
        ridge_label: trf(lang, "chart.ridge-label", &[("r", &format!("{:.0}", h.ridge(dtype)))]),
    }
}

/// The static snapshot (`crate::topic::snapshot`): the default view's
/// roofline drawn as SVG by the chart the panel draws on its canvas, and its
/// key figures (the measured points join once the panel's file is in, as
/// in the panel).
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: crate::i18n::Lang, width: f64) -> crate::topic::snapshot::Snapshot {
    use crate::topic::snapshot::{roofline_chart, Above, Snapshot, View};
    let (v, _) = META.parse(&[]);
    let (h, dtype) = (gpu(&v), v.choice("dtype"));
    let title = crate::i18n::tr(lang, "roofline.chart");
    let stage = roofline_chart(title.clone(), width.min(1100.0), 0.0, &roofline_spec(&v, lang));
    let figures = roofline::metrics(&h, dtype, roofline_work(&v, v.choice("op")));
    Snapshot::View(View { above: Above::Nothing, stage, label: title, figures, pending: (vec![], "") })
}

#[cfg(test)]
mod tests {

    use super::*;

    fn parse(pairs: &[(&str, &str)]) -> Values {
        let q: Vec<(String, String)> = pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        let (v, notices) = META.parse(&q);
        assert!(notices.is_empty(), "{notices:?}");
        v
    }

    #[test]
    fn lecture_operations_table() {
        // notes §5.2 (H100, bf16, n = 4096).
        let v = parse(&[("gpu", "h100"), ("dtype", "bf16"), ("op", "matmul"), ("n", "4096")]);
        let rows = lecture_points(&v);
        assert_eq!(rows.iter().map(|r| r.op).collect::<Vec<_>>(), LECTURE_OPS);
        let cells: Vec<[String; 3]> = rows.iter().take(4).map(OpPoint::cells).collect();
        assert_eq!(cells[0], ["0.25", "0.84 TFLOP/s", "0.1%"]);
        assert_eq!(cells[1], ["0.50", "1.68 TFLOP/s", "0.2%"]);
        assert_eq!(cells[2], ["1.00", "3.35 TFLOP/s", "0.3%"]);
        assert_eq!(cells[3], ["1365", "990 TFLOP/s", "100.0%"]);
        assert_eq!(rows.iter().filter(|r| r.selected).map(|r| r.op).collect::<Vec<_>>(), ["matmul"]);
        // The chart shows the same points; no custom one unless chosen.
        assert_eq!(chart_points(&v), rows);
    }

    /// The notes' Apple M4 Pro (§5.4) as a custom machine: ridge ≈ 26.
    #[test]
    fn a_custom_machine() {
        let v = parse(&[("gpu", "custom"), ("dtype", "fp32"), ("peak", "5.5"), ("bw", "215"), ("op", "matmul")]);
        let h = gpu(&v);
        assert_eq!((h.peak_tflops("fp32"), h.hbm_tbps, h.ridge("fp32").round()), (5.5, 0.215, 26.0));
        let m = roofline::metrics(&h, "fp32", roofline_work(&v, "matmul"));
        assert_eq!(m[2].value, 1.0, "a 4096² fp32 matmul reaches the M4 Pro's peak");
        let (_, notices) = META.parse(&crate::topic::q(&[("gpu", "custom"), ("peak", "-1")]));
        assert_eq!(notices.len(), 1, "a bad peak is named");
    }

    #[test]
    fn custom_work_is_a_selected_extra_dot() {
        // Intensity 16 at fp32 on an H100: what the tiling panel's inset shows.
        let v = parse(&[("gpu", "h100"), ("dtype", "fp32"), ("op", "custom"), ("flops", "16"), ("bytes", "1")]);
        let points = chart_points(&v);
        assert_eq!(points.len(), LECTURE_OPS.len() + 1);
        let c = points.last().unwrap();
        assert_eq!((c.op, c.intensity, c.selected), ("custom", 16.0, true));
        assert_eq!(c.attainable, 16.0 * 3.35);
        assert!(lecture_points(&v).iter().all(|r| !r.selected));
        let m = roofline::metrics(&gpu(&v), "fp32", roofline_work(&v, "custom"));
        assert_eq!(m[1].value, c.attainable);
    }

    #[test]
    fn lecture_decode_presets() {
        // notes §5.3 (H100, bf16, d = 8192): B = 1, 8, 64, 256, 1024 → 0.3 %, 2.7 %, 21 %, 82 %, 100 %.
        let expect = ["0.3", "2.7", "21", "82", "100"];
        crate::topics::install_texts();
        for ((b, label, id), pct) in crate::lecture::DECODE_BATCHES.into_iter().zip(expect) {
            assert_eq!((label, id), (format!("decode.b{b}").as_str(), format!("b{b}").as_str()));
            assert!(crate::i18n::has(label));
            let v = decode_preset(b).into_iter().fold(META.parse(&[]).0, |v, (k, x)| v.with(k, x));
            let p = lecture_points(&v).into_iter().find(|r| r.op == "decode").unwrap();
            assert!(p.selected);
            let shown = 100.0 * p.of_peak;
            let shown = if shown < 10.0 { format!("{shown:.1}") } else { format!("{shown:.0}") };
            assert_eq!(shown, pct, "B = {b}");
        }
    }

    #[test]
    fn precision_note() {
        // notes §6.2: ReLU moves 8 bytes per FLOP in fp32, 4 in bf16; MXFP8 8.25 bits,
        // MXFP4 4.25 (OCP MX: a scale per 32, not the notes' 16), NVFP4 4.5 (per 16).
        let vals = |dtype| precision_args(dtype).map(|(_, a)| a);
        assert_eq!(vals("fp32"), ["8", "fp32", "8.25", "4.25", "4.5"]);
        assert_eq!(vals("bf16")[0], "4");
        assert_eq!(vals("fp8")[0], "2");
    }

    #[test]
    fn measured_points_from_the_shipped_figures() {
        let t = Table::parse(include_str!("../../../assets/measured/h200-figures.csv"));
        let h = crate::sim::hw::gpu(MEASURED_GPU);
        let roof = measured_roof(&t).expect("copy bandwidth");
        assert_eq!(roof.spec_gbps, 4800.0);
        assert_eq!(roof.copy_gbps, t.value(COPY_KEY).unwrap());
        // The spec is an upper bound the copy does not reach.
        assert!((1.0..1.3).contains(&roof.model_over_measured()), "{}", roof.model_over_measured());
        let points = measured_points(&t);
        assert_eq!(points.iter().map(|p| p.id).collect::<Vec<_>>(), MEASURED_KERNELS.map(|k| k.0));
        // One FLOP per operation over 8 bytes: x*2 1/8, x*2+1 2/8, sin²+cos² 5/8, GELU 9/8.
        let intensities: Vec<f64> = points.iter().map(|p| p.intensity).collect();
        assert_eq!(intensities, [0.125, 0.25, 0.625, 0.625, 1.125, 1.125, 1.125]);
        for (p, (_, _, _, key, _)) in points.iter().zip(MEASURED_KERNELS) {
            assert_eq!(p.effective_gbps, t.value(key).unwrap());
            assert_eq!(p.tflops, p.intensity * p.effective_gbps / 1000.0);
            // All are memory-bound on the H200: the model is intensity × 4.8 TB/s.
            assert_eq!(p.model, p.intensity * h.hbm_tbps);
            let q = h.hbm_tbps * 1000.0 / p.effective_gbps;
            assert!((p.model_over_measured() / q - 1.0).abs() < 1e-12, "{}", p.id);
            // Nothing beats the spec; counted by the ledger, every kernel runs
            // within 15 % of the measured copy.
            assert!(p.model_over_measured() > 1.0, "{}", p.id);
            assert!((p.ledger_gbps / roof.copy_gbps - 1.0).abs() < 0.15, "{}: {}", p.id, p.ledger_gbps);
        }
        // Eager x*2+1 moves twice its minimal bytes: about twice as far under the roof as x*2.
        let r = |id: &str| points.iter().find(|p| p.id == id).unwrap().model_over_measured();
        assert!((r("x2p1-eager") / r("x2-eager") - 2.0).abs() < 0.05);
        assert!(r("sincos-eager") > 5.0 * r("sincos-compiled") * 0.9);
        assert!(measured_points(&Table::default()).is_empty() && measured_roof(&Table::default()).is_none());
    }
}
