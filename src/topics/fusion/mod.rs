//! `#/fusion`: its URL parameters, its registry entry, the typed conversion
//! from URL values to the expression, and the numbers its panel shows (the
//! ledger's totals, the roofline inset's two points) as pure data.

use crate::i18n::{trf, Lang};
use crate::message::Message;
use crate::params::{ParamSpec, Values};
use crate::sim::fusion::{self, Ledger, Node};
use crate::sim::measured::Table;
use crate::sim::roofline::Work;
use crate::topic::{Part, Topic, TopicMeta, MEASURED};

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

fn check_fusion(s: &str) -> Result<(), Message> {
    fusion::parse(s).map(|_| ()).map_err(|e| super::divergence::syntax_reason(e.kind))
}

/// What the expression box says about an expression that doesn't parse, in
/// `lang`: the message and the character it points at.
pub fn expr_error(lang: Lang, e: &fusion::FusionError) -> super::divergence::BoxError {
    let msg = super::divergence::syntax_text(lang, e.kind, e.pos);
    super::divergence::BoxError { message: trf(lang, "fusion.error", &[("msg", &msg)]), at: Some(e.pos) }
}

pub static PARAMS: [ParamSpec; 7] = [
    ParamSpec::text("expr", fusion::MAX_LEN, "sin(x)^2 + cos(x)^2", check_fusion),
    ParamSpec::int("n", 1, 1 << 30, 16_777_216).log(),
    ParamSpec::choice("dtype", crate::sim::hw::ML_DTYPES, "fp32"),
    crate::params::INSET_GPU_CUSTOM,
    crate::params::CUSTOM_PEAK,
    crate::params::CUSTOM_BW,
    MEASURED,
];

pub static META: TopicMeta = TopicMeta::new("fusion", Part::Fast, &PARAMS).notes(&["6.3"], "03").metrics(&[
    "kernels-unfused",
    "bytes-unfused",
    "bytes-fused",
    "speedup-bound",
]);

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic = Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK).measured(&[FIGURES_FILE]);

/// The URL's expression (its spec has checked it parses), or the first
/// preset should it not.
pub fn expression(v: &Values) -> Node {
    fusion::parse(v.text("expr")).unwrap_or_else(|_| fusion::parse(fusion::PRESETS[0].1).expect("preset parses"))
}

/// Bytes per element of the chosen dtype.
pub fn elem_bytes(v: &Values) -> u64 {
    crate::sim::hw::dtype_bytes(v.choice("dtype"))
}

/// The arguments of `fusion.total`, in arrays of n elements: unfused reads,
/// writes and their sum, against the fused kernel's.
pub fn total_args(l: &Ledger) -> [(&'static str, String); 4] {
    [
        ("r", l.reads_unfused.to_string()),
        ("w", l.writes_unfused.to_string()),
        ("t", l.arrays_unfused().to_string()),
        ("f", l.arrays_fused().to_string()),
    ]
}

/// The roofline inset's points (label key, work): fused first (highlighted),
/// then unfused; the same FLOPs, different bytes.
pub fn inset_points(l: &Ledger, n: u64, elem_bytes: u64) -> [(&'static str, Work); 2] {
    let flops = l.flops(n) as f64;
    [
        ("inset.fused", Work { flops, bytes: l.bytes_fused(n, elem_bytes) as f64 }),
        ("inset.unfused", Work { flops, bytes: l.bytes_unfused(n, elem_bytes) as f64 }),
    ]
}

/// The expressions measured on the H200 (`measure/run_all.py`), written in
/// this panel's grammar exactly as PyTorch ran them: `x * x * x` is two
/// kernels, as in the measured GELU (our preset's `x^3` is one).
pub const MEASURED_EXPRS: [(&str, &str); 4] = [
    ("x2", "x * 2"),
    ("x2p1", "x * 2 + 1"),
    ("sincos", "sin(x)^2 + cos(x)^2"),
    ("gelu", "0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)))"),
];

/// The ledger of one of [`MEASURED_EXPRS`].
pub fn measured_ledger(id: &str) -> Ledger {
    let src = MEASURED_EXPRS.iter().find(|e| e.0 == id).map_or("x", |e| e.1);
    fusion::ledger(&fusion::parse(src).expect("measured expressions parse"))
}

/// One side of a comparison: an expression run as separate kernels (eager)
/// or as one fused kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    Eager(&'static str),
    Fused(&'static str),
}

impl Run {
    /// Arrays of n elements this run moves, by the ledger.
    pub fn arrays(self) -> usize {
        match self {
            Run::Eager(id) => measured_ledger(id).arrays_unfused(),
            Run::Fused(id) => measured_ledger(id).arrays_fused(),
        }
    }
}

/// One measured comparison: time of `slow` ÷ time of `fast`, against the
/// model's bytes of `slow` ÷ bytes of `fast`. The keys are median times in
/// `h200-figures.csv`; `check` is the ratio the export also states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comparison {
    pub id: &'static str,
    pub slow: Run,
    pub fast: Run,
    pub slow_key: &'static str,
    pub fast_key: &'static str,
    pub check: Option<&'static str>,
}

/// The lecture's claims, as measured: x*2+1 costs twice x*2; sin²+cos²
/// eager against one pass and against torch.compile; GELU written out
/// against torch.compile and against F.gelu.
pub const COMPARISONS: [Comparison; 5] = [
    Comparison {
        id: "x2p1",
        slow: Run::Eager("x2p1"),
        fast: Run::Eager("x2"),
        slow_key: "elementwise_eager.x*2+1.median_ms",
        fast_key: "elementwise_eager.x*2.median_ms",
        check: Some("elementwise_eager.x*2+1.ratio"),
    },
    Comparison {
        id: "sincos-eager",
        slow: Run::Eager("sincos"),
        fast: Run::Eager("x2"),
        slow_key: "elementwise_eager.sin(x)**2+cos(x)**2.median_ms",
        fast_key: "elementwise_eager.x*2.median_ms",
        check: Some("elementwise_eager.sin(x)**2+cos(x)**2.ratio"),
    },
    Comparison {
        id: "sincos-compiled",
        slow: Run::Eager("sincos"),
        fast: Run::Fused("sincos"),
        slow_key: "elementwise_compiled.sin(x)**2+cos(x)**2.eager.median_ms",
        fast_key: "elementwise_compiled.sin(x)**2+cos(x)**2.compiled.median_ms",
        check: Some("elementwise_compiled.sin(x)**2+cos(x)**2.speedup"),
    },
    Comparison {
        id: "gelu-compiled",
        slow: Run::Eager("gelu"),
        fast: Run::Fused("gelu"),
        slow_key: "elementwise_compiled.gelu_manual_tanh.eager.median_ms",
        fast_key: "elementwise_compiled.gelu_manual_tanh.compiled.median_ms",
        check: Some("elementwise_compiled.gelu_manual_tanh.speedup"),
    },
    Comparison {
        id: "gelu-builtin",
        slow: Run::Eager("gelu"),
        fast: Run::Fused("gelu"),
        slow_key: "elementwise_compiled.gelu_manual_tanh.eager.median_ms",
        fast_key: "elementwise_compiled.gelu_manual_tanh.F.gelu(approximate='tanh').median_ms",
        check: None,
    },
];

/// A row of the measured table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasuredRow {
    pub id: &'static str,
    /// Kernels of the slow side, by the ledger.
    pub kernels: usize,
    /// Arrays of n elements moved by the slow and the fast side (model).
    pub arrays: (usize, usize),
    /// Bytes ratio (the model's bound on the speed-up).
    pub model: f64,
    /// Measured median times (ms) of the slow and fast side.
    pub ms: (f64, f64),
    /// Measured time ratio.
    pub measured: f64,
}

impl MeasuredRow {
    pub fn model_over_measured(&self) -> f64 {
        self.model / self.measured
    }
}

/// The rows the figures table supports (a missing key drops its row).
pub fn measured_rows(t: &Table) -> Vec<MeasuredRow> {
    COMPARISONS
        .iter()
        .filter_map(|c| {
            let (slow, fast) = (t.value(c.slow_key)?, t.value(c.fast_key)?);
            let kernels = match c.slow {
                Run::Eager(id) => measured_ledger(id).kernels,
                Run::Fused(_) => 1,
            };
            let arrays = (c.slow.arrays(), c.fast.arrays());
            (fast > 0.0).then_some(MeasuredRow {
                id: c.id,
                kernels,
                arrays,
                model: arrays.0 as f64 / arrays.1 as f64,
                ms: (slow, fast),
                measured: slow / fast,
            })
        })
        .collect()
}

/// The measured table the panel overlays (`assets/measured/`).
pub const FIGURES_FILE: &str = "h200-figures.csv";

/// No static snapshot (`crate::topic::snapshot`): its stage is HTML built by its view (no Scene, no chart); not written yet.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(_: crate::i18n::Lang, _: f64) -> crate::topic::snapshot::Snapshot {
    crate::topic::snapshot::Snapshot::Exempt(
        "its stage is HTML built by its view (no Scene, no chart); not written yet",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(pairs: &[(&str, &str)]) -> (Values, usize) {
        let q: Vec<(String, String)> = pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        let (v, notices) = META.parse(&q);
        (v, notices.len())
    }

    #[test]
    fn lecture_sincos_by_default() {
        // notes §6.3: sin²x + cos²x → 5 kernels, 6n reads + 5n writes = 11n against 2n, 5.5×.
        let (v, notices) = parse(&[]);
        assert_eq!(notices, 0);
        let l = fusion::ledger(&expression(&v));
        assert_eq!(total_args(&l).map(|(_, a)| a), ["6", "5", "11", "2"]);
        let (n, e) = (v.int("n") as u64, elem_bytes(&v));
        assert_eq!((n, e), (16_777_216, 4));
        let m = l.metrics(n, e);
        assert_eq!(m.iter().map(|m| m.name).collect::<Vec<_>>(), META.metrics);
        assert_eq!(
            (m[0].value, m[1].value, m[2].value, m[3].value),
            (5.0, (11 * n * 4) as f64, (2 * n * 4) as f64, 5.5)
        );
    }

    #[test]
    fn inset_points_share_flops() {
        let (v, _) = parse(&[("dtype", "bf16"), ("n", "1000")]);
        let l = fusion::ledger(&expression(&v));
        let [(fk, fused), (uk, unfused)] = inset_points(&l, 1000, elem_bytes(&v));
        assert_eq!((fk, uk), ("inset.fused", "inset.unfused"));
        assert_eq!(fused, Work { flops: 5000.0, bytes: 4000.0 });
        assert_eq!(unfused, Work { flops: 5000.0, bytes: 22_000.0 });
        // Fusing raises the intensity by the speed-up bound.
        assert_eq!(fused.intensity() / unfused.intensity(), 5.5);
    }

    #[test]
    fn a_bad_expression_falls_back_to_the_lecture_one() {
        let (v, notices) = parse(&[("expr", "foo(x)")]);
        assert_eq!(notices, 1);
        assert_eq!(expression(&v), fusion::parse(fusion::PRESETS[0].1).unwrap());
        let (v, notices) = parse(&[("expr", "exp(x) / (exp(x) + exp(y))")]);
        assert_eq!(notices, 0);
        assert_eq!(fusion::ledger(&expression(&v)).kernels, 5);
        // GELU preset: 8 kernels.
        let (v, _) = parse(&[("expr", fusion::PRESETS[1].1)]);
        assert_eq!(fusion::ledger(&expression(&v)).kernels, 8);
    }

    fn figures() -> Table {
        Table::parse(include_str!("../../../assets/measured/h200-figures.csv"))
    }

    #[test]
    fn measured_expressions_match_the_lecture_and_pytorch() {
        // Kernel counts as PyTorch launched them (h200.json: cuda_kernels_per_call).
        let k = |id| measured_ledger(id).kernels;
        assert_eq!([k("x2"), k("x2p1"), k("sincos"), k("gelu")], [1, 2, 5, 9]);
        // The lecture: x*2+1 moves 4n against x*2's 2n; sin²+cos² 11n against 2n.
        assert_eq!((Run::Eager("x2p1").arrays(), Run::Eager("x2").arrays()), (4, 2));
        assert_eq!((Run::Eager("sincos").arrays(), Run::Fused("sincos").arrays()), (11, 2));
        assert_eq!((Run::Eager("gelu").arrays(), Run::Fused("gelu").arrays()), (22, 2));
    }

    #[test]
    fn measured_rows_from_the_shipped_figures() {
        let t = figures();
        let rows = measured_rows(&t);
        assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), COMPARISONS.map(|c| c.id));
        assert_eq!(rows.iter().map(|r| r.model).collect::<Vec<_>>(), [2.0, 5.5, 5.5, 11.0, 11.0]);
        for (r, c) in rows.iter().zip(COMPARISONS) {
            // The measured ratio is the quotient of the two medians…
            assert_eq!(r.measured, t.value(c.slow_key).unwrap() / t.value(c.fast_key).unwrap());
            // …and agrees with the ratio the export states (rounded there).
            if let Some(key) = c.check {
                let stated = t.value(key).unwrap();
                assert!((r.measured / stated - 1.0).abs() < 0.005, "{}: {} against {stated}", r.id, r.measured);
            }
            assert_eq!(r.model_over_measured(), r.model / r.measured);
            // The model is a bound on bytes: within 15 % of the measurement here.
            assert!((0.85..1.15).contains(&r.model_over_measured()), "{}: {}", r.id, r.model_over_measured());
        }
        // Eager chains are memory-bound: x*2+1 costs twice x*2 to within 1 %.
        assert!((rows[0].model_over_measured() - 1.0).abs() < 0.01);
        // torch.compile's sin²+cos² falls short of the 5.5× bound.
        assert!(rows[2].measured < rows[2].model);
        // A table without the keys gives no rows (and no panic).
        assert!(measured_rows(&Table::parse("key,value\nx,1")).is_empty());
    }
}
