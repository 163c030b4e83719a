//! `#/attention-memory`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use crate::params::{ParamSpec, Value, Values};
use crate::sim::attention_memory::{flash_extra_bytes, qkvo_bytes, standard_bytes};
use crate::sim::hw::dtype_bytes;
use crate::sim::measured::Table;
use crate::sim::train::attention::Bench;
use crate::sim::train::measured::AttnPoint;
use crate::sim::Metric;
use crate::topic::*;

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static PARAMS: [ParamSpec; 9] = [
    ParamSpec::int("n", 1, 1 << 20, 4096).log(),
    ParamSpec::int("d", 1, 256, 128).log(),
    ParamSpec::choice("dtype", crate::sim::hw::ML_DTYPES, "bf16"),
    ParamSpec::choice("stats", &["l", "ml"], "l"),
    MEASURED,
    // Assignment 2's attention benchmark (issue 31): attention alone, timed.
    ParamSpec::int("batch", 1, 256, 1).optional().log(),
    ParamSpec::int("heads", 1, 128, 1).optional().log(),
    ParamSpec::choice("causal", &["1", "0"], "1").optional(),
    ParamSpec::choice("gpu", crate::sim::hw::GPU_CODES, "h100").optional(),
];

pub static META: TopicMeta =
    TopicMeta::new("attention-memory", Part::Flash, &PARAMS).notes(&["8.5"], "05 · 4").metrics(&[
        "standard-bytes",
        "flash-extra-bytes",
        "ratio",
        "fwd-ms",
        "bwd-ms",
        "flash-fwd-ms",
        "flash-bwd-ms",
        "saved-bytes",
    ]);

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic = Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK).measured(&[ATTENTION_FILE]);

/// One head's sizes, from the URL values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head {
    /// Sequence length.
    pub n: u64,
    /// Head dimension.
    pub d: u64,
    /// Bytes per element of Q, K, V, O, S and P.
    pub elem_bytes: u64,
    /// Flash keeps m and ℓ (FlashAttention-1) rather than L alone.
    pub both_stats: bool,
}

pub fn head(v: &Values) -> Head {
    Head {
        n: v.int("n") as u64,
        d: v.int("d") as u64,
        elem_bytes: dtype_bytes(v.choice("dtype")),
        both_stats: v.choice("stats") == "ml",
    }
}

/// The chart's three curves, points (n, bytes) for n = 64 … 2²⁰ (doubling):
/// S and P of standard attention, Q K V O (both need them), and flash's
/// statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct Curves {
    pub standard: Vec<(f64, f64)>,
    pub qkvo: Vec<(f64, f64)>,
    pub flash: Vec<(f64, f64)>,
}

pub fn curves(h: Head) -> Curves {
    let ns: Vec<u64> = (6..=20).map(|p| 1u64 << p).collect();
    let points = |f: &dyn Fn(u64) -> u64| ns.iter().map(|&n| (n as f64, f(n) as f64)).collect();
    Curves {
        standard: points(&|n| standard_bytes(n, h.elem_bytes)),
        qkvo: points(&|n| qkvo_bytes(n, h.d, h.elem_bytes)),
        flash: points(&|n| flash_extra_bytes(n, h.both_stats)),
    }
}

/// Assignment 2's attention benchmark at the URL's sizes: written out
/// (`fused` false) or one fused kernel, at the dtype's element size (fp8
/// counts as bf16: no fp8 attention here).
pub fn bench(v: &Values, fused: bool) -> Bench {
    let h = head(v);
    Bench {
        batch: v.int("batch") as u64,
        heads: v.int("heads") as u64,
        d: h.d,
        seq: h.n,
        causal: v.choice("causal") == "1",
        elem: h.elem_bytes.clamp(2, 4),
        fused,
        // As the metric's doc says: FlashAttention-2 in bf16 (on [B, H, T, d]),
        // SDPA's math path in fp32 (the assignment's [B, T, d]).
        four_d: fused && h.elem_bytes <= 2,
    }
}

/// The benchmark's figures: forward and backward of both versions (ms, on
/// the URL's GPU, with the training lens's fitted rates) and what autograd
/// keeps for the written-out backward.
pub fn bench_metrics(v: &Values) -> Vec<Metric> {
    let g = crate::sim::hw::gpu(v.choice("gpu"));
    let r = &crate::sim::train::measured::Fit::shipped().rates;
    let (w, f) = (bench(v, false), bench(v, true));
    let (wf, wb) = w.times(g, r);
    let (ff, fb) = f.times(g, r);
    vec![
        Metric::real("fwd-ms", wf * 1e3),
        Metric::real("bwd-ms", wb * 1e3),
        Metric::real("flash-fwd-ms", ff * 1e3),
        Metric::real("flash-bwd-ms", fb * 1e3),
        Metric::bytes("saved-bytes", w.saved_bytes() as u64),
    ]
}

/// The H200's measurement of the benchmark at the URL's point, when it was
/// run there (`measured=1`, `gpu=h200`, fp32 written out against SDPA, the
/// assignment's grid): (written, fused), each `None` where not run.
pub fn bench_measured(v: &Values) -> Option<(Option<AttnPoint>, Option<AttnPoint>)> {
    if v.choice("measured") != "1" || v.choice("gpu") != "h200" {
        return None;
    }
    let find = |fused: bool| {
        // The assignment's benchmark passes [B, T, d]: SDPA's math path.
        let b = Bench { four_d: false, ..bench(v, fused) };
        crate::sim::train::measured::attn_points().iter().find(|p| p.bench == b).copied()
    };
    let (w, f) = (find(false), find(true));
    (w.is_some() || f.is_some()).then_some((w, f))
}

/// Where each GPU runs out of memory: the longest sequence (a power of two)
/// whose forward and backward fit, written out and fused, per GPU.
pub fn out_of_memory(v: &Values) -> Vec<(&'static str, u64, u64)> {
    crate::sim::hw::GPUS.iter().map(|g| (g.name, bench(v, false).max_seq(g), bench(v, true).max_seq(g))).collect()
}

#[cfg(test)]
mod bench_tests {
    use super::*;
    use crate::topic::q;

    #[test]
    fn the_assignment_benchmark_point_shows_its_h200_measurement() {
        let (v, n) = META.parse(&q(&[
            ("n", "8192"),
            ("d", "64"),
            ("dtype", "fp32"),
            ("batch", "8"),
            ("causal", "1"),
            ("gpu", "h200"),
            ("measured", "1"),
        ]));
        assert!(n.is_empty(), "{n:?}");
        let (w, f) = bench_measured(&v).expect("measured on the H200");
        let (w, f) = (w.expect("written"), f.expect("sdpa"));
        // What autograd saved: the model's count, exactly.
        assert_eq!(w.saved, bench(&v, false).saved_bytes());
        assert!(w.fwd_ms > 0.0 && f.fwd_ms > 0.0);
        // Off the grid or on another GPU: nothing claimed.
        assert!(bench_measured(&v.with("n", Value::Int(8000))).is_none());
        assert!(bench_measured(&v.with("gpu", Value::Choice("h100"))).is_none());
    }
}

/// The sequence lengths of the lecture's table (notes §8.5).
pub const LECTURE_NS: [u64; 3] = [4096, 16384, 65536];

/// One row of the lecture's table (one head, bf16, FlashAttention-2's L),
/// rounded as the notes round it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LectureRow {
    pub n: u64,
    /// S and P, in GB.
    pub standard: String,
    /// Flash's statistics, in MB.
    pub flash: String,
}

pub fn lecture_row(n: u64) -> LectureRow {
    let gb = standard_bytes(n, 2) as f64 / 1e9;
    let mb = flash_extra_bytes(n, false) as f64 / 1e6;
    LectureRow {
        n,
        standard: if gb >= 10.0 { format!("{gb:.1} GB") } else { format!("{gb:.2} GB") },
        flash: format!("{mb:.2} MB"),
    }
}

/// The values a row's button sets: the lecture's head at sequence length `n`.
pub fn lecture_case(n: u64) -> Vec<(&'static str, Value)> {
    vec![
        ("n", Value::Int(n as i64)),
        ("d", Value::Int(128)),
        ("dtype", Value::Choice("bf16")),
        ("stats", Value::Choice("l")),
    ]
}

/// The measured configuration (`h200-attention.csv`): batch 1, 16 heads,
/// head dimension 128, bf16. The model is scaled to it.
pub const MEASURED_HEADS: u64 = 16;
pub const MEASURED_D: u64 = 128;
pub const MEASURED_ELEM_BYTES: u64 = 2;
/// MiB, the unit of `peak_extra_MiB`.
pub const MIB: f64 = (1u64 << 20) as f64;

/// One implementation's measurement at one n.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    pub ms: f64,
    /// Peak memory during one call beyond what was allocated before (q, k,
    /// v excluded), bytes.
    pub peak_extra: f64,
}

/// One n of the measured sweep beside the model (16 heads, d = 128, bf16).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttentionRow {
    pub n: u64,
    /// `None`: out of memory (or a row that did not parse).
    pub naive: Option<Measured>,
    pub flash: Option<Measured>,
    /// The model: S and P for every head.
    pub model_sp: f64,
    /// The model: flash's statistics L for every head.
    pub model_l: f64,
    /// The output O, which both allocate during the call (the model's Q K V O
    /// share of it: n × d × heads).
    pub model_o: f64,
}

impl AttentionRow {
    /// The model's extra memory of naive attention: S, P and O.
    pub fn model_naive(&self) -> f64 {
        self.model_sp + self.model_o
    }
    /// The model's extra memory of flash: L and O.
    pub fn model_flash(&self) -> f64 {
        self.model_l + self.model_o
    }
    pub fn naive_ratio(&self) -> Option<f64> {
        self.naive.map(|m| self.model_naive() / m.peak_extra)
    }
    pub fn flash_ratio(&self) -> Option<f64> {
        self.flash.map(|m| self.model_flash() / m.peak_extra)
    }
    /// Measured naive time ÷ flash time.
    pub fn time_ratio(&self) -> Option<f64> {
        Some(self.naive?.ms / self.flash?.ms)
    }
}

/// The model at n for the measured configuration.
pub fn measured_model(n: u64) -> AttentionRow {
    let h = MEASURED_HEADS as f64;
    AttentionRow {
        n,
        naive: None,
        flash: None,
        model_sp: h * standard_bytes(n, MEASURED_ELEM_BYTES) as f64,
        model_l: h * flash_extra_bytes(n, false) as f64,
        // Q K V O is 4 n d: O alone is a quarter.
        model_o: h * (qkvo_bytes(n, MEASURED_D, MEASURED_ELEM_BYTES) / 4) as f64,
    }
}

/// The measured sweep, one row per n in the file's order, with the model.
pub fn measured_rows(t: &Table) -> Vec<AttentionRow> {
    let mut rows: Vec<AttentionRow> = Vec::new();
    for r in &t.rows {
        let Some(n) = t.num(r, "n").filter(|&n| n >= 1.0).map(|n| n as u64) else { continue };
        let ok = t.text(r, "status") == Some("ok");
        let m = match (ok, t.num(r, "ms"), t.num(r, "peak_extra_MiB")) {
            (true, Some(ms), Some(mib)) if mib > 0.0 => Some(Measured { ms, peak_extra: mib * MIB }),
            _ => None,
        };
        let i = match rows.iter().position(|x| x.n == n) {
            Some(i) => i,
            None => {
                rows.push(measured_model(n));
                rows.len() - 1
            }
        };
        match t.text(r, "impl") {
            Some("naive") => rows[i].naive = m,
            Some("flash") => rows[i].flash = m,
            _ => {}
        }
    }
    rows
}

/// The measured table the panel overlays (`assets/measured/`).
pub const ATTENTION_FILE: &str = "h200-attention.csv";

/// The chart's three lines (S and P written out, Q K V O, flash's
/// statistics) in `theme`'s colours, labelled by `label`.
pub fn series(
    h: Head,
    theme: &crate::scene::Theme,
    label: impl Fn(&str) -> String,
) -> Vec<crate::draw::chart::log::LogSeries> {
    use crate::draw::chart::log::LogSeries;
    let c = curves(h);
    vec![
        LogSeries { label: label("attention-memory.series.standard"), color: theme.busy_hot, points: c.standard },
        LogSeries { label: label("attention-memory.series.qkvo"), color: theme.muted, points: c.qkvo },
        LogSeries { label: label("attention-memory.series.flash"), color: theme.fill_tint, points: c.flash },
    ]
}

/// Every key figure at the URL's point: the memory of the chart's n, then
/// the benchmark's.
pub fn figures(v: &Values) -> Vec<Metric> {
    let h = head(v);
    let mut figures = crate::sim::attention_memory::metrics(h.n, h.elem_bytes, h.both_stats);
    figures.extend(bench_metrics(v));
    figures
}

/// The static snapshot (`crate::topic::snapshot`): the memory chart drawn as
/// SVG by the chart the panel draws on its canvas, and the key figures.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: crate::i18n::Lang, width: f64) -> crate::topic::snapshot::Snapshot {
    use crate::draw::chart::log::{draw, LogPlot};
    use crate::i18n::tr;
    use crate::topic::snapshot::{chart, Above, Snapshot, View};
    let (v, _) = META.parse(&[]);
    let h = head(&v);
    let series = series(h, &crate::scene::Theme::normal(), |key| tr(lang, key));
    let y_desc = tr(lang, "attention-memory.axis.bytes");
    let title = tr(lang, "attention-memory.chart");
    let stage = chart(title.clone(), width.min(1100.0), 0.0, |root, look, _| {
        let p = LogPlot {
            series: &series,
            marker: h.n as f64,
            x_desc: "n",
            y_desc: &y_desc,
            present: false,
            growth: false,
        };
        draw(root, &p, look)
    });
    Snapshot::View(View { above: Above::Nothing, stage, label: title, figures: figures(&v), pending: (vec![], "") })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::attention_memory::metrics;

    use crate::topic::q;

    #[test]
    fn the_lecture_table() {
        let rows = LECTURE_NS.map(lecture_row);
        let cells: Vec<(&str, &str)> = rows.iter().map(|r| (r.standard.as_str(), r.flash.as_str())).collect();
        assert_eq!(cells, [("0.07 GB", "0.02 MB"), ("1.07 GB", "0.07 MB"), ("17.2 GB", "0.26 MB")]);
        // Each row's button gives the same numbers as the table, exactly.
        let start = Values::defaults(&PARAMS)
            .with("d", Value::Int(7))
            .with("dtype", Value::Choice("fp32"))
            .with("stats", Value::Choice("ml"));
        for (n, sp, flash) in [(4096, 67_108_864u64, 16_384u64), (16384, 1 << 30, 65_536), (65536, 1 << 34, 262_144)] {
            let v = lecture_case(n).into_iter().fold(start.clone(), |acc, (k, x)| acc.with(k, x));
            let h = head(&v);
            assert_eq!(h, Head { n, d: 128, elem_bytes: 2, both_stats: false });
            let m = metrics(h.n, h.elem_bytes, h.both_stats);
            assert_eq!([m[0].value, m[1].value, m[2].value], [sp as f64, flash as f64, sp as f64 / flash as f64]);
        }
    }

    #[test]
    fn deep_links() {
        let (v, n) = META.parse(&q(&[("n", "65536"), ("stats", "ml"), ("dtype", "fp8"), ("d", "64")]));
        assert!(n.is_empty());
        assert_eq!(head(&v), Head { n: 65536, d: 64, elem_bytes: 1, both_stats: true });
        assert_eq!(flash_extra_bytes(65536, true), 2 * 65536 * 4);
    }

    #[test]
    fn curves_are_quadratic_and_linear_over_the_chart() {
        let h = head(&Values::defaults(&PARAMS));
        let c = curves(h);
        for s in [&c.standard, &c.qkvo, &c.flash] {
            assert_eq!(s.len(), 15);
            assert_eq!((s[0].0, s[14].0), (64.0, (1u64 << 20) as f64));
        }
        for w in c.standard.windows(2) {
            assert_eq!(w[1].1, 4.0 * w[0].1);
        }
        for w in c.flash.windows(2).chain(c.qkvo.windows(2)) {
            assert_eq!(w[1].1, 2.0 * w[0].1);
        }
        // The default (n = 4096, bf16) lies on the standard curve.
        let at = c.standard.iter().find(|p| p.0 == h.n as f64).unwrap();
        assert_eq!(at.1, standard_bytes(h.n, h.elem_bytes) as f64);
    }

    #[test]
    fn texts_are_in_this_topics_namespace() {
        crate::topics::install_texts();
        for (key, ..) in TOPIC.strings.entries() {
            assert!(!key.starts_with("memory."), "{key}");
        }
        assert!(crate::i18n::has("attention-memory.qkvo"));
        let log = |name| PARAMS.iter().find(|p| p.name == name).unwrap().log;
        assert!(log("n") && log("d"));
    }

    #[test]
    fn measured_sweep_beside_the_model() {
        let t = Table::parse(include_str!("../../../assets/measured/h200-attention.csv"));
        let rows = measured_rows(&t);
        assert_eq!(rows.len() * 2, t.rows.len());
        // The model at the measured configuration: n = 4096, 16 heads, bf16:
        // S and P 1 GiB, L 256 KiB, O 16 MiB.
        let m = measured_model(4096);
        assert_eq!((m.model_sp, m.model_l, m.model_o), ((1u64 << 30) as f64, 262_144.0, (16u64 << 20) as f64));
        for r in &rows {
            assert_eq!((r.model_sp, r.model_l, r.model_o), {
                let m = measured_model(r.n);
                (m.model_sp, m.model_l, m.model_o)
            });
            let line =
                |imp: &str| t.rows.iter().find(|x| t.num(x, "n") == Some(r.n as f64) && t.text(x, "impl") == Some(imp));
            for (imp, got) in [("naive", r.naive), ("flash", r.flash)] {
                let x = line(imp).expect("a line per impl");
                match got {
                    Some(g) => {
                        assert_eq!(g.ms, t.num(x, "ms").unwrap());
                        assert_eq!(g.peak_extra, t.num(x, "peak_extra_MiB").unwrap() * MIB);
                    }
                    None => assert_eq!(t.text(x, "status"), Some("oom")),
                }
            }
            // Naive: S, P and O are what the call allocates (to the file's 0.1 MiB).
            if let Some(q) = r.naive_ratio() {
                assert!((q - 1.0).abs() < 0.01, "naive n = {}: {q}", r.n);
            } else {
                // Out of memory where the model exceeds the H200's HBM.
                let hbm = crate::sim::hw::gpu("h200").hbm_gb * 1e9;
                assert!(r.model_naive() > hbm, "n = {}", r.n);
            }
            // Flash: L and O, once n is past the kernel's scratch.
            let q = r.flash_ratio().expect("flash ran at every n");
            if r.n >= 1024 {
                assert!((q - 1.0).abs() < 0.02, "flash n = {}: {q}", r.n);
            }
            // Flash is never bigger than naive and, from n = 1024, faster.
            if let (Some(nv), Some(fl)) = (r.naive, r.flash) {
                assert!(fl.peak_extra <= nv.peak_extra * 1.01, "n = {}", r.n);
                assert_eq!(r.time_ratio(), Some(nv.ms / fl.ms));
                if r.n >= 1024 {
                    assert!(r.time_ratio().unwrap() > 1.0, "n = {}", r.n);
                }
            }
        }
        assert!(rows.iter().any(|r| r.naive.is_none()), "the sweep reaches an out-of-memory n");
        assert!(measured_rows(&Table::parse("n,impl\nx,naive")).is_empty());
    }
}
