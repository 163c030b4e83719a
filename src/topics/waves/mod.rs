//! `#/waves`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters; the panel's figures, the
//! modelled throughput curve, why n − 1 → n changed what it did, and the
//! lecture cases.

use crate::i18n::{tr, trf, Lang};
use crate::params::{ParamSpec, Value, Values};
use crate::sim::matmul::{self, modelled_tflops};
use crate::sim::measured::Table;
use crate::sim::{hw, Metric};
use crate::topic::*;

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static PARAMS: [ParamSpec; 9] = [
    ParamSpec::choice("gpu", hw::GPU_CODES, "a100"),
    ParamSpec::int("sms", 0, 1024, 0).optional(),
    ParamSpec::int("n", 1, 16384, 1792).log(),
    ParamSpec::int("m", 0, 16384, 0).optional(),
    ParamSpec::int("k", 0, 16384, 0).optional(),
    ParamSpec::int("tm", 1, 1024, 256).log(),
    ParamSpec::int("tn", 1, 1024, 128).log(),
    ParamSpec::int("ref", 1, 16384, 1792).log(),
    MEASURED,
];

pub static META: TopicMeta = TopicMeta::new("waves", Part::Fast, &PARAMS).notes(&["7"], "02 · 5").metrics(&[
    "tiles",
    "waves",
    "sm-utilization",
    "relative-flops",
    "relative-time",
]);

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic =
    Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK).lecture(lecture_rows).measured(&[MATMUL_FILE]);

/// The waves model for side `n` (with the panel's m, k ratios and tiles).
pub fn waves_at(v: &Values, n: u64) -> matmul::Waves {
    let g = hw::gpu(v.choice("gpu"));
    let sms = match v.int("sms") {
        0 => g.sms as u64,
        x => x as u64,
    };
    let scale = |name: &str| match v.int(name) {
        0 => n,
        x => x as u64,
    };
    matmul::Waves { m: scale("m"), n, k: scale("k"), tm: v.int("tm") as u64, tn: v.int("tn") as u64, sms }
}

/// The panel's figures at its n against its reference n.
pub fn metrics(v: &Values) -> Vec<Metric> {
    waves_at(v, v.int("n") as u64).metrics_against(&waves_at(v, v.int("ref") as u64))
}

/// Relative time when a wave's length grows with k (the note under the figures).
pub fn time_k(v: &Values) -> f64 {
    waves_at(v, v.int("n") as u64).time_waves_k() / waves_at(v, v.int("ref") as u64).time_waves_k()
}

/// What changed from n − 1 to n: a new wave, a new row of tiles, or
/// neither (empty at n = 1).
pub fn why(lang: Lang, v: &Values) -> String {
    let n = v.int("n") as u64;
    if n <= 1 {
        return String::new();
    }
    let (prev, w) = (waves_at(v, n - 1), waves_at(v, n));
    if prev.waves() != w.waves() {
        trf(
            lang,
            "waves.why.waves",
            &[
                ("a", &prev.waves().to_string()),
                ("b", &w.waves().to_string()),
                ("last", &w.last_wave_tiles().to_string()),
                ("sms", &w.sms.to_string()),
            ],
        )
    } else if prev.tiles() != w.tiles() {
        trf(lang, "waves.why.tiles", &[("a", &prev.tiles().to_string()), ("b", &w.tiles().to_string())])
    } else {
        tr(lang, "waves.why.same")
    }
}

/// The chart's range of n.
pub const CURVE_N: (u64, u64) = (128, 8192);

/// The modelled throughput (TFLOP/s) at every n of [`CURVE_N`], and the
/// chart's top: the bf16 peak of the SMs in use.
pub fn curve(v: &Values) -> (Vec<f64>, f64) {
    let g = hw::gpu(v.choice("gpu"));
    let (x0, x1) = CURVE_N;
    let ys = (x0..=x1).map(|x| modelled_tflops(&waves_at(v, x), g)).collect();
    (ys, g.bf16_tflops / g.sms as f64 * waves_at(v, x0).sms as f64)
}

/// The measured sweep of `h200-matmul.csv`: (n, median TFLOP/s), by n.
pub fn measured_series(t: &Table) -> Vec<(f64, f64)> {
    let mut v: Vec<(f64, f64)> =
        t.rows.iter().filter_map(|r| Some((t.num(r, "n")?, t.num(r, "tflops_median")?))).collect();
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    v
}

/// Is the measured series for this GPU? (The table's `device` names it.)
pub fn measured_on(t: &Table, g: &hw::Gpu) -> bool {
    t.meta("device").is_some_and(|d| d.split_whitespace().any(|w| w == g.name))
}

fn median(mut xs: Vec<f64>) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    xs.sort_by(f64::total_cmp);
    let m = xs.len() / 2;
    Some(if xs.len() % 2 == 1 { xs[m] } else { (xs[m - 1] + xs[m]) / 2.0 })
}

/// The alignment effect in the measured boundary windows (the runs of
/// consecutive n around 1024, 1408, 1792, 2048 and 4096): median TFLOP/s of
/// n ≡ 0 mod 64, of the other multiples of 8, and of odd n.
#[derive(Clone, Debug, PartialEq)]
pub struct Alignment {
    pub mult64: f64,
    pub mult8: f64,
    pub odd: f64,
    /// mult64 ÷ odd.
    pub ratio: f64,
    /// Within each window, the median of its multiples of 8 ÷ the median of
    /// its odd n: the lowest and highest over the windows.
    pub window_ratio: (f64, f64),
    pub windows: usize,
    /// Sizes in the windows.
    pub sizes: usize,
}

pub fn alignment(t: &Table) -> Option<Alignment> {
    let s = measured_series(t);
    let has = |n: f64| s.iter().any(|&(x, _)| x == n);
    let window: Vec<(u64, f64)> =
        s.iter().filter(|&&(n, _)| has(n - 1.0) || has(n + 1.0)).map(|&(n, y)| (n as u64, y)).collect();
    let pick = |f: &dyn Fn(u64) -> bool| median(window.iter().filter(|(n, _)| f(*n)).map(|&(_, y)| y).collect());
    let mult64 = pick(&|n| n % 64 == 0)?;
    let mult8 = pick(&|n| n % 8 == 0 && n % 64 != 0)?;
    let odd = pick(&|n| n % 2 == 1)?;
    // Split the windows at gaps, and compare inside each.
    let mut runs: Vec<Vec<(u64, f64)>> = Vec::new();
    for &(n, y) in &window {
        match runs.last_mut() {
            Some(r) if r.last().is_some_and(|&(m, _)| m + 1 == n) => r.push((n, y)),
            _ => runs.push(vec![(n, y)]),
        }
    }
    let ratios: Vec<f64> = runs
        .iter()
        .filter_map(|r| {
            let fast = median(r.iter().filter(|(n, _)| n % 8 == 0).map(|&(_, y)| y).collect())?;
            Some(fast / median(r.iter().filter(|(n, _)| n % 2 == 1).map(|&(_, y)| y).collect())?)
        })
        .collect();
    let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ratios.iter().copied().fold(0.0, f64::max);
    Some(Alignment {
        mult64,
        mult8,
        odd,
        ratio: mult64 / odd,
        window_ratio: (lo, hi),
        windows: ratios.len(),
        sizes: window.len(),
    })
}

/// The slides' colouring of the sweep (slide "Part 1: tiling alignment"):
/// the median measured TFLOP/s of n a multiple of 128, of the other
/// multiples of 32, and of the rest, over the measured n from 1000 up (the
/// boundary windows and the grid between them). The slides: ÷128 best, ÷32
/// next, the rest worst.
pub fn by_divisor(t: &Table) -> Option<[f64; 3]> {
    let s: Vec<(u64, f64)> =
        measured_series(t).into_iter().filter(|&(n, _)| n >= 1000.0).map(|(n, y)| (n as u64, y)).collect();
    let pick = |f: &dyn Fn(u64) -> bool| median(s.iter().filter(|(n, _)| f(*n)).map(|&(_, y)| y).collect());
    Some([pick(&|n| n % 128 == 0)?, pick(&|n| n % 32 == 0 && n % 128 != 0)?, pick(&|n| n % 32 != 0)?])
}

/// Model ÷ measured on the H200 (with the panel's tiles) over the measured n
/// ≡ 0 mod 64 from 2048 up (aligned and big enough to be compute-bound):
/// the median.
pub fn model_over_measured(v: &Values, t: &Table) -> Option<f64> {
    let v = v.clone().with("gpu", Value::Choice("h200")).with("sms", Value::Int(0));
    let g = hw::gpu("h200");
    median(
        measured_series(t)
            .into_iter()
            .filter(|&(n, y)| n >= 2048.0 && (n as u64) % 64 == 0 && y > 0.0)
            .map(|(n, y)| modelled_tflops(&waves_at(&v, n as u64), g) / y)
            .collect(),
    )
}

/// The overlay's sentences: the alignment effect and what the model leaves out.
pub fn measured_text(lang: Lang, a: &Alignment, ratio: Option<f64>) -> [String; 2] {
    let f = |x: f64| format!("{x:.0}");
    [
        trf(
            lang,
            "waves.measured.alignment",
            &[
                ("sizes", &a.sizes.to_string()),
                ("m64", &f(a.mult64)),
                ("m8", &f(a.mult8)),
                ("odd", &f(a.odd)),
                ("ratio", &format!("{:.1}", a.ratio)),
                ("windows", &a.windows.to_string()),
                ("lo", &format!("{:.1}", a.window_ratio.0)),
                ("hi", &format!("{:.1}", a.window_ratio.1)),
            ],
        ),
        trf(lang, "waves.measured.missing", &[("ratio", &ratio.map_or("—".into(), |r| format!("{r:.2}")))]),
    ]
}

/// The lecture's cases (notes §7, A100, 256 × 128 tiles): label key,
/// `data-preset` id and n.
pub const LECTURE_CASES: [(&str, &str, i64); 3] =
    [("waves.preset.1792", "n1792", 1792), ("waves.preset.1793", "n1793", 1793), ("waves.preset.2560", "n2560", 2560)];

/// The notes' §7 table beside the model (A100, 256 × 128 tiles).
pub fn lecture_rows(v: &Values) -> Vec<crate::lecture::Row> {
    let printed: [[&'static str; 5]; 3] =
        [["98", "1", "91%", "1.00", "1.0"], ["120", "2", "56%", "1.00", "2.0"], ["200", "2", "93%", "2.92", "2.0"]];
    let names = ["tiles", "waves", "sm-utilization", "relative-flops", "relative-time"];
    let cases = LECTURE_CASES.iter().map(|&(label, _, n)| (label, lecture_case(n)));
    crate::lecture::table(v, cases, names, printed, metrics)
}

/// The values a lecture case sets (against the reference 1792).
pub fn lecture_case(n: i64) -> Vec<(&'static str, Value)> {
    vec![
        ("gpu", Value::Choice("a100")),
        ("sms", Value::Int(0)),
        ("n", Value::Int(n)),
        ("m", Value::Int(0)),
        ("k", Value::Int(0)),
        ("tm", Value::Int(256)),
        ("tn", Value::Int(128)),
        ("ref", Value::Int(1792)),
    ]
}

/// The measured table the panel overlays (`assets/measured/`).
pub const MATMUL_FILE: &str = "h200-matmul.csv";

/// The static snapshot (`crate::topic::snapshot`): the default matmul's
/// tiles in waves over the SMs, drawn as the panel draws them, and its key
/// figures.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: Lang, width: f64) -> crate::topic::snapshot::Snapshot {
    use crate::topic::snapshot::{Above, Snapshot, Stage, View};
    let (v, _) = META.parse(&[]);
    let w = waves_at(&v, v.int("n") as u64);
    let wave_label = |i: u64| trf(lang, "waves.wave", &[("w", &i.to_string())]);
    let scene = crate::draw::matmul::draw_waves(&w, &crate::scene::Theme::normal(), width, &wave_label);
    Snapshot::View(View {
        above: Above::Title(tr(lang, "waves.grid")),
        stage: Stage::Scene(scene),
        label: tr(lang, "waves.grid"),
        figures: metrics(&v),
        pending: (vec![], ""),
    })
}

#[cfg(test)]
mod tests {

    use super::*;

    fn case(n: i64) -> Values {
        let start = Values::defaults(&PARAMS)
            .with("gpu", Value::Choice("b200"))
            .with("tm", Value::Int(64))
            .with("k", Value::Int(9));
        lecture_case(n).into_iter().fold(start, |acc, (k, x)| acc.with(k, x))
    }

    #[test]
    fn lecture_cases_give_the_lecture_table() {
        // notes §7 (A100, 256 × 128 tiles): 1792 → 98 tiles, 1 wave, 91 %;
        // 1793 → 120, 2, 56 %; 2560 → 200, 2, 93 %, FLOPs 2.92, time 2.0.
        let expected =
            [(98.0, 1.0, "91", "1.00", 1.0), (120.0, 2.0, "56", "1.00", 2.0), (200.0, 2.0, "93", "2.92", 2.0)];
        for ((_, id, n), (tiles, waves, util, flops, time)) in LECTURE_CASES.iter().zip(expected) {
            assert_eq!(*id, format!("n{n}"));
            let m: Vec<f64> = metrics(&case(*n)).iter().map(|m| m.value).collect();
            assert_eq!(
                (m[0], m[1], format!("{:.0}", 100.0 * m[2]), format!("{:.2}", m[3]), m[4]),
                (tiles, waves, util.into(), flops.into(), time),
                "{n}"
            );
        }
        let names: Vec<&str> = metrics(&case(1792)).iter().map(|m| m.name).collect();
        assert_eq!(names, META.metrics);
    }

    #[test]
    fn why_names_the_quantization() {
        assert_eq!(
            why(Lang::En, &case(1793)),
            "From n − 1 to n: wave quantization: 1 → 2 waves; the last wave has 12 tiles for 108 SMs."
        );
        // 1792 → 1793 adds a row and column of tiles only once n crosses a multiple of 128.
        let v = case(1793).with("sms", Value::Int(1000));
        assert!(why(Lang::En, &v).contains("tile quantization: a new row or column of tiles (98 → 120 tiles)"));
        assert_eq!(why(Lang::En, &case(1794)), tr(Lang::En, "waves.why.same"));
        assert_eq!(why(Lang::En, &case(1).with("ref", Value::Int(1))), "");
    }

    fn shipped() -> Table {
        Table::parse(include_str!("../../../assets/measured/h200-matmul.csv"))
    }

    #[test]
    fn the_slides_divisibility_order_holds_on_the_h200() {
        let t = Table::parse(include_str!("../../../assets/measured/h200-matmul.csv"));
        let [m128, m32, rest] = by_divisor(&t).expect("classes");
        assert!(m128 > m32 && m32 > rest, "{m128} {m32} {rest}");
        assert_eq!([m128, m32, rest].map(|x| format!("{x:.0}")), ["678", "662", "125"]);
    }

    #[test]
    fn the_measured_sweep_shows_the_alignment_effect() {
        crate::topics::install_texts();
        let t = shipped();
        let s = measured_series(&t);
        assert!(s.len() >= 190 && s.windows(2).all(|w| w[0].0 < w[1].0));
        // The same numbers as the n,tflops file assets/measured/README.md describes.
        let plain = crate::sim::matmul::parse_measured(include_str!("../../../assets/measured/matmul-h200.csv"));
        assert_eq!(s, plain);
        assert!(measured_on(&t, hw::gpu("h200")) && !measured_on(&t, hw::gpu("h100")));
        let a = alignment(&t).expect("windows");
        assert!(a.sizes > 50 && a.windows == 5, "{a:?}");
        assert!(a.window_ratio.0 > 3.0 && a.window_ratio.1 < 10.0, "{a:?}");
        // Multiples of 64 several times faster than odd n; multiples of 8 close
        // to them; odd sizes the slowest.
        assert!(a.ratio > 3.0, "{a:?}");
        assert!(a.mult8 > 0.5 * a.mult64 && a.mult8 > 2.0 * a.odd, "{a:?}");
        // The model (H200, lecture tiles) is faster than measured at aligned sizes:
        // it has no power or clock limit.
        let r = model_over_measured(&case(1792), &t).expect("a ratio");
        assert!((1.1..2.0).contains(&r), "{r}");
        for lang in [Lang::En, Lang::Zh] {
            let [x, y] = measured_text(lang, &a, Some(r));
            assert!(x.contains(&format!("{:.0}", a.mult64)) && x.contains(&format!("{:.1}", a.ratio)), "{x}");
            assert!(y.contains(&format!("{r:.2}")), "{y}");
        }
    }

    #[test]
    fn the_curve_stays_under_its_top() {
        let v = case(1792);
        let (ys, top) = curve(&v);
        assert_eq!(ys.len() as u64, CURVE_N.1 - CURVE_N.0 + 1);
        assert_eq!(top, 312.0, "A100 bf16 peak on all its SMs");
        assert!(ys.iter().all(|&y| y > 0.0 && y <= top * (1.0 + 1e-9)));
        // The sawtooth: one past 1792 drops (a second, mostly idle wave).
        let at = |n: u64| ys[(n - CURVE_N.0) as usize];
        assert!(at(1793) < 0.7 * at(1792));
        // Waves grow with k: relative time with k-long waves at 2560 is 2 × 2560/1792.
        assert_eq!(format!("{:.2}", time_k(&case(2560))), "2.86");
    }
}
