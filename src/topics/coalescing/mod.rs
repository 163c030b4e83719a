//! `#/coalescing`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use crate::i18n::{trf, Lang};
use crate::params::{ParamSpec, Value, Values};
use crate::sim::coalescing::{self, Access, Pattern};
use crate::sim::measured::Table;
use crate::topic::*;

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static PARAMS: [ParamSpec; 8] = [
    ParamSpec::choice("dtype", crate::sim::hw::ALL_DTYPES, "fp32"),
    ParamSpec::choice("pattern", &["stride", "row", "column", "random"], "stride"),
    ParamSpec::int("stride", 1, 1024, 1).log(),
    ParamSpec::int("offset", 0, 4096, 0),
    ParamSpec::int("rowlen", 1, 65536, 1024).log(),
    ParamSpec::choice("section", &["32", "64", "128"], "128"),
    ParamSpec::int("seed", 0, u32::MAX as i64, 1),
    MEASURED,
];

pub static META: TopicMeta = TopicMeta::new("coalescing", Part::Fast, &PARAMS).notes(&["6.5"], "02 · 3").metrics(&[
    "transactions",
    "useful-fraction",
    "bytes-moved",
]);

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic =
    Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK).lecture(lecture_rows).measured(&[COALESCING_FILE]);

pub fn coalescing_params(v: &Values) -> coalescing::Params {
    coalescing::Params {
        elem_bytes: crate::sim::hw::dtype_bytes(v.choice("dtype")),
        pattern: coalescing::Pattern::from_code(v.choice("pattern")).unwrap_or(coalescing::Pattern::Stride),
        stride: v.int("stride") as u64,
        offset: v.int("offset") as u64,
        rowlen: v.int("rowlen") as u64,
        section: v.choice("section").parse().unwrap_or(128),
        seed: v.int("seed") as u64,
    }
}

/// Does the control of `param` matter for this access pattern? (The stride
/// only for strided reads, the row length for row and column reads, the seed
/// for random ones; the rest always.)
pub fn shown(pattern: Pattern, param: &str) -> bool {
    match param {
        "stride" => pattern == Pattern::Stride,
        "rowlen" => matches!(pattern, Pattern::Row | Pattern::Column),
        "seed" => pattern == Pattern::Random,
        _ => true,
    }
}

/// The lecture's cases (notes §6.5; fp32, 128-byte sections, aligned): label
/// key (also the `data-preset` id), pattern and stride.
pub const LECTURE_CASES: [(&str, &str, i64); 4] = [
    ("coalescing.preset.x-t", "stride", 1),
    ("coalescing.preset.x-2t", "stride", 2),
    ("coalescing.preset.x-32t", "stride", 32),
    ("coalescing.preset.random", "random", 1),
];

/// The notes' §6.5 table beside the model (fp32, 128-byte sections).
pub fn lecture_rows(v: &Values) -> Vec<crate::lecture::Row> {
    let printed = [["1", "100%"], ["2", "50%"], ["32", "3%"], ["32", "3%"]];
    let cases = LECTURE_CASES.iter().map(|&(label, pattern, stride)| (label, lecture_case(pattern, stride)));
    let names = ["transactions", "useful-fraction"];
    crate::lecture::table(v, cases, names, printed, |v| coalescing::Access::new(coalescing_params(v)).metrics())
}

/// The values one lecture case sets.
pub fn lecture_case(pattern: &'static str, stride: i64) -> Vec<(&'static str, Value)> {
    vec![
        ("dtype", Value::Choice("fp32")),
        ("pattern", Value::Choice(pattern)),
        ("stride", Value::Int(stride)),
        ("offset", Value::Int(0)),
        ("section", Value::Choice("128")),
    ]
}

/// The measured series of `h200-coalescing.csv` the overlay shows for one
/// element size: loads per thread (1 as in the lecture; 8 keeps more bytes
/// in flight and reaches the copy bandwidth).
pub const MEASURED_LOADS: [u64; 2] = [1, 8];

/// The strides of the measured table (plus the random permutation), and the
/// panel's own stride if it was measured and isn't among them.
pub const MEASURED_STRIDES: [u64; 7] = [1, 2, 4, 8, 16, 32, 64];

/// The measured dtype for the panel's element size: `bf16` for 2-byte
/// elements, `fp32` for everything else (only these two were measured).
pub fn measured_dtype(elem_bytes: u64) -> &'static str {
    if elem_bytes == 2 {
        "bf16"
    } else {
        "fp32"
    }
}

/// Measured GB/s (bytes asked for ÷ time) of one series at one stride
/// (`None` = the random permutation).
pub fn measured_gbps(t: &Table, dtype: &str, loads: u64, stride: Option<u64>) -> Option<f64> {
    t.rows
        .iter()
        .find(|r| {
            t.text(r, "dtype") == Some(dtype)
                && t.num(r, "loads_per_thread") == Some(loads as f64)
                && match stride {
                    Some(s) => t.text(r, "pattern") == Some("stride") && t.num(r, "stride") == Some(s as f64),
                    None => t.text(r, "pattern").is_some_and(|p| p.starts_with("random")),
                }
        })
        .and_then(|r| t.num(r, "useful_GBps"))
}

/// The element size of a measured dtype (from the table).
pub fn measured_elem_bytes(t: &Table, dtype: &str) -> Option<u64> {
    t.rows.iter().find(|r| t.text(r, "dtype") == Some(dtype)).and_then(|r| t.num(r, "elem_bytes")).map(|b| b as u64)
}

/// The model's useful fraction for one warp reading `x[t × stride]` (or
/// random positions) with `section`-byte transactions, aligned.
pub fn model_fraction(elem_bytes: u64, stride: Option<u64>, section: u64) -> f64 {
    Access::new(coalescing::Params {
        elem_bytes,
        pattern: if stride.is_some() { Pattern::Stride } else { Pattern::Random },
        stride: stride.unwrap_or(1),
        offset: 0,
        rowlen: 1,
        section,
        seed: 1,
    })
    .useful_fraction()
}

/// The H200's HBM bandwidth (GB/s) from `sim::hw`: the model's peak.
pub fn peak_gbps() -> f64 {
    crate::sim::hw::gpu("h200").hbm_tbps * 1000.0
}

/// The model's GB/s: useful fraction × peak.
pub fn model_gbps(elem_bytes: u64, stride: Option<u64>, section: u64) -> f64 {
    model_fraction(elem_bytes, stride, section) * peak_gbps()
}

/// The DRAM rate a model implies: measured useful GB/s ÷ its useful
/// fraction (what the memory must have moved if that model were right).
pub fn implied_gbps(t: &Table, dtype: &str, loads: u64, stride: Option<u64>, section: u64) -> Option<f64> {
    let eb = measured_elem_bytes(t, dtype)?;
    Some(measured_gbps(t, dtype, loads, stride)? / model_fraction(eb, stride, section))
}

/// What the measurement says about the transaction size, from the 8-loads
/// series (the ones that reach the copy bandwidth) of both dtypes, strides
/// 1…64.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The highest DRAM rate each model implies (GB/s): 128-byte, 32-byte.
    pub max_implied_128: f64,
    pub max_implied_32: f64,
    /// Where it happens (dtype, stride) for the 128-byte model.
    pub max_128_at: (&'static str, u64),
    /// The 32-byte model's implied rate over the strides where a warp still
    /// shares sectors (stride × element < 32 B): lowest and highest.
    pub shared_32: (f64, f64),
    /// HBM peak (GB/s).
    pub peak: f64,
    /// `32` if only the 32-byte model stays under the peak, `128` if only
    /// the 128-byte one does, `0` if neither or both.
    pub supports: u64,
}

pub fn verdict(t: &Table) -> Option<Verdict> {
    let (mut m128, mut at, mut m32, mut lo, mut hi) = (0.0f64, ("", 0), 0.0f64, f64::INFINITY, 0.0f64);
    for dtype in ["fp32", "bf16"] {
        let eb = measured_elem_bytes(t, dtype)?;
        for s in 1..=64u64 {
            let (Some(a), Some(b)) = (implied_gbps(t, dtype, 8, Some(s), 128), implied_gbps(t, dtype, 8, Some(s), 32))
            else {
                continue;
            };
            if a > m128 {
                (m128, at) = (a, (dtype, s));
            }
            m32 = m32.max(b);
            if s > 1 && s * eb < 32 {
                (lo, hi) = (lo.min(b), hi.max(b));
            }
        }
    }
    if m128 == 0.0 || hi == 0.0 {
        return None;
    }
    let peak = peak_gbps();
    let supports = match (m128 <= peak, m32 <= peak) {
        (false, true) => 32,
        (true, false) => 128,
        _ => 0,
    };
    Some(Verdict { max_implied_128: m128, max_implied_32: m32, max_128_at: at, shared_32: (lo, hi), peak, supports })
}

/// The verdict in words.
pub fn verdict_text(lang: Lang, v: &Verdict) -> String {
    let f = |x: f64| format!("{x:.0}");
    trf(
        lang,
        &format!("coalescing.measured.verdict.{}", v.supports),
        &[
            ("dtype", v.max_128_at.0),
            ("stride", &v.max_128_at.1.to_string()),
            ("implied", &f(v.max_implied_128)),
            ("peak", &f(v.peak)),
            ("lo", &f(v.shared_32.0)),
            ("hi", &f(v.shared_32.1)),
            ("hi32", &f(v.max_implied_32)),
        ],
    )
}

/// Where model and measurement differ, with the `dtype`'s stride-1 figures.
pub fn gap_text(lang: Lang, t: &Table, dtype: &str) -> String {
    let g = |loads| measured_gbps(t, dtype, loads, Some(1)).map_or("—".into(), |x| format!("{x:.0}"));
    trf(lang, "coalescing.measured.gap", &[("m1", &g(1)), ("m8", &g(8))])
}

/// The panel's access counted in 32-byte sectors.
pub fn sector_view(lang: Lang, p: coalescing::Params) -> String {
    let a = Access::new(coalescing::Params { section: 32, ..p });
    trf(
        lang,
        "coalescing.sector-view",
        &[("n", &a.transactions().to_string()), ("pct", &format!("{:.0} %", 100.0 * a.useful_fraction()))],
    )
}

/// The measured table the panel overlays (`assets/measured/`).
pub const COALESCING_FILE: &str = "h200-coalescing.csv";

/// The static snapshot (`crate::topic::snapshot`): the default access's
/// lanes and sections, drawn as the panel draws them, and its key figures.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: Lang, width: f64) -> crate::topic::snapshot::Snapshot {
    use crate::i18n::tr;
    use crate::topic::snapshot::{Above, Snapshot, Stage, View};
    let (v, _) = META.parse(&[]);
    let access = Access::new(coalescing_params(&v));
    let skipped = |n: u64| trf(lang, "coalescing.skipped", &[("n", &n.to_string())]);
    let more = |n: u64| trf(lang, "coalescing.more", &[("n", &n.to_string())]);
    let lanes = tr(lang, "coalescing.lanes.short");
    let labels = crate::draw::coalescing::Labels { lanes: &lanes, skipped: &skipped, more: &more };
    let scene = crate::draw::coalescing::draw(&access, &crate::scene::Theme::normal(), width, &labels);
    Snapshot::View(View {
        above: Above::Title(format!("{} → {}", tr(lang, "coalescing.lanes"), tr(lang, "coalescing.sections"))),
        stage: Stage::Scene(scene),
        label: tr(lang, "coalescing.sections"),
        figures: access.metrics(),
        pending: (vec![], ""),
    })
}

#[cfg(test)]
mod tests {

    use super::*;

    use crate::topic::q;

    fn access(v: &Values) -> Access {
        Access::new(coalescing_params(v))
    }

    #[test]
    fn lecture_deep_links() {
        let (v, n) = META.parse(&q(&[("stride", "32")]));
        assert!(n.is_empty());
        assert_eq!(access(&v).transactions(), 32);
        let (v, _) = META.parse(&q(&[("pattern", "column"), ("rowlen", "1024")]));
        assert_eq!(access(&v).transactions(), 32);
        let (v, _) = META.parse(&q(&[("stride", "1"), ("offset", "1")]));
        assert_eq!(access(&v).transactions(), 2, "misaligned by one element");
    }

    #[test]
    fn lecture_cases_give_the_lecture_table() {
        crate::topics::install_texts();
        // notes §6.5: x[t] → 1, 100 %; x[2t] → 2, 50 %; x[32t] → 32, 3 %; random → 32, 3 %.
        let expected = [(1, 1.0), (2, 0.5), (32, 1.0 / 32.0), (32, 1.0 / 32.0)];
        // From a state far from the lecture's, each case alone sets what it needs.
        let start = Values::defaults(&PARAMS)
            .with("dtype", Value::Choice("fp8"))
            .with("offset", Value::Int(3))
            .with("section", Value::Choice("32"));
        for ((_, pattern, stride), (tx, frac)) in LECTURE_CASES.iter().zip(expected) {
            let v = lecture_case(pattern, *stride).into_iter().fold(start.clone(), |acc, (n, x)| acc.with(n, x));
            let a = access(&v);
            assert_eq!((a.transactions(), a.useful_fraction()), (tx, frac), "{pattern} {stride}");
        }
        assert!(LECTURE_CASES.iter().all(|(key, ..)| crate::i18n::has(key)));
    }

    #[test]
    fn controls_follow_the_pattern() {
        let shown_for = |p| ["stride", "rowlen", "seed", "offset"].map(|n| shown(p, n));
        assert_eq!(shown_for(Pattern::Stride), [true, false, false, true]);
        assert_eq!(shown_for(Pattern::Row), [false, true, false, true]);
        assert_eq!(shown_for(Pattern::Column), [false, true, false, true]);
        assert_eq!(shown_for(Pattern::Random), [false, false, true, true]);
        // Every pattern a URL can name has a pattern of its own.
        for code in ["stride", "row", "column", "random"] {
            assert_eq!(Pattern::from_code(code).map(Pattern::code), Some(code));
        }
    }

    fn shipped() -> Table {
        Table::parse(include_str!("../../../assets/measured/h200-coalescing.csv"))
    }

    #[test]
    fn the_measured_table_has_every_series_the_overlay_shows() {
        let t = shipped();
        for dtype in ["fp32", "bf16"] {
            assert_eq!(measured_elem_bytes(&t, dtype), Some(crate::sim::hw::dtype_bytes(dtype)));
            for loads in MEASURED_LOADS {
                for s in MEASURED_STRIDES.map(Some).into_iter().chain([None]) {
                    let g = measured_gbps(&t, dtype, loads, s).expect("a measured row");
                    assert!(g > 0.0 && g < peak_gbps(), "{dtype} {loads} {s:?}: {g}");
                }
            }
        }
        assert_eq!(measured_dtype(2), "bf16");
        assert_eq!(measured_dtype(4), "fp32");
    }

    #[test]
    fn the_measurement_supports_32_byte_sectors() {
        let t = shipped();
        let v = verdict(&t).expect("a verdict");
        assert_eq!(v.peak, 4800.0, "the H200's HBM3e in sim::hw");
        // 128-byte transactions would need more than the peak from DRAM…
        assert!(v.max_implied_128 > 1.3 * v.peak, "{v:?}");
        // …32-byte sectors never do, and where warps share sectors the implied
        // rate is flat (time ∝ sectors touched) and near the peak.
        assert!(v.max_implied_32 <= v.peak, "{v:?}");
        assert!(v.shared_32.1 / v.shared_32.0 < 1.1 && v.shared_32.0 > 0.85 * v.peak, "{v:?}");
        assert_eq!(v.supports, 32);
        // Relative bandwidth at strides 2, 4, 8 (fp32, 8 loads): 1/2, 1/4, 1/8 as
        // both models say (within 10 %); at 32 the models part, 1/32 against 1/8,
        // and the measurement lies between them, above the 128-byte floor.
        let rel = |s| measured_gbps(&t, "fp32", 8, Some(s)).unwrap() / measured_gbps(&t, "fp32", 8, Some(1)).unwrap();
        for s in [2, 4, 8] {
            let (m128, m32) = (model_fraction(4, Some(s), 128), model_fraction(4, Some(s), 32));
            assert_eq!(m128, m32);
            assert!((rel(s) / m128 - 1.0).abs() < 0.1, "stride {s}: {}", rel(s));
        }
        let (m128, m32) = (model_fraction(4, Some(32), 128), model_fraction(4, Some(32), 32));
        assert_eq!((m128, m32), (1.0 / 32.0, 1.0 / 8.0));
        assert!(rel(32) > m128 && rel(32) < m32, "{}", rel(32));
    }

    #[test]
    fn model_over_measured_ratios() {
        let t = shipped();
        let ratio =
            |loads, s: Option<u64>, section| model_gbps(4, s, section) / measured_gbps(&t, "fp32", loads, s).unwrap();
        // x[t]: 8 loads per thread get within 20 % of the peak; 1 load per thread
        // is latency-bound, the model is 2–4× too fast.
        assert!((1.0..1.2).contains(&ratio(8, Some(1), 128)), "{}", ratio(8, Some(1), 128));
        assert!((2.0..4.0).contains(&ratio(1, Some(1), 128)), "{}", ratio(1, Some(1), 128));
        // Random: 32 transactions of 128 B predict about what was measured; 32-B
        // sectors predict several times too much.
        assert!((0.7..1.3).contains(&ratio(8, None, 128)), "{}", ratio(8, None, 128));
        assert!(ratio(8, None, 32) > 3.0, "{}", ratio(8, None, 32));
        // The table's own implied bandwidth is our 32-byte model's.
        let row =
            t.rows.iter().find(|r| t.text(r, "dtype") == Some("fp32") && t.num(r, "stride") == Some(8.0)).unwrap();
        let implied = implied_gbps(&t, "fp32", 1, Some(8), 32).unwrap();
        assert!((implied / t.num(row, "implied_GBps").unwrap() - 1.0).abs() < 1e-3);
    }

    #[test]
    fn the_texts_state_the_derived_numbers() {
        crate::topics::install_texts();
        let t = shipped();
        let v = verdict(&t).unwrap();
        for lang in [Lang::En, Lang::Zh] {
            let s = verdict_text(lang, &v);
            assert!(s.contains(&format!("{:.0}", v.max_implied_128)) && s.contains("4800"), "{s}");
            let g = gap_text(lang, &t, "bf16");
            assert!(g.contains(&format!("{:.0}", measured_gbps(&t, "bf16", 8, Some(1)).unwrap())), "{g}");
        }
        assert!(verdict_text(Lang::En, &v).ends_with("The data supports 32-byte sectors."));
        for supports in [0, 128] {
            assert!(!verdict_text(Lang::En, &Verdict { supports, ..v.clone() }).is_empty());
        }
        let (v, _) = META.parse(&q(&[("stride", "2")]));
        assert_eq!(sector_view(Lang::En, coalescing_params(&v)), "The same access counted in 32-byte sectors (the model with section = 32): 8 sectors, 50 % of the bytes moved are useful.");
    }

    #[test]
    fn log_tracks_for_the_wide_ranges() {
        let log = |name| PARAMS.iter().find(|p| p.name == name).unwrap().log;
        assert!(log("stride") && log("rowlen") && !log("offset") && !log("seed"));
    }
}
