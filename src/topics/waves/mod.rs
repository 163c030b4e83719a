//! `#/waves`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters; the panel's figures, the
//! modelled throughput curve, why n − 1 → n changed what it did, and the
//! lecture cases.

use super::*;
use crate::i18n::{tr, trf, Lang};
use crate::params::{ParamSpec, Value, Values};
use crate::sim::matmul::{self, modelled_tflops};
use crate::sim::{hw, Metric};

#[cfg(target_arch = "wasm32")]
mod view;

pub static WAVES_PARAMS: [ParamSpec; 8] = [
    ParamSpec::choice("gpu", hw::GPU_CODES, "a100"),
    ParamSpec::int("sms", 0, 1024, 0).optional(),
    ParamSpec::int("n", 1, 16384, 1792).log(),
    ParamSpec::int("m", 0, 16384, 0).optional(),
    ParamSpec::int("k", 0, 16384, 0).optional(),
    ParamSpec::int("tm", 1, 1024, 256).log(),
    ParamSpec::int("tn", 1, 1024, 128).log(),
    ParamSpec::int("ref", 1, 16384, 1792).log(),
];

pub static WAVES: TopicMeta = TopicMeta {
    id: "waves",
    sections: &["7"],
    demo: "02 · 5",
    part: Part::Fast,
    params: &WAVES_PARAMS,
    metrics: &["tiles", "waves", "sm-utilization", "relative-flops", "relative-time"],
    position_max: None,
    bounds: None,
};

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

/// The lecture's cases (notes §7, A100, 256 × 128 tiles): label key,
/// `data-preset` id and n.
pub const LECTURE_CASES: [(&str, &str, i64); 3] =
    [("waves.preset.1792", "n1792", 1792), ("waves.preset.1793", "n1793", 1793), ("waves.preset.2560", "n2560", 2560)];

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

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &WAVES,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <view::WavesPanel /> },
};

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = &[
    ("param.waves.k", "Inner k (0 = n)", "内维度 k（0 表示 = n）"),
    ("topic.waves.title", "Wave quantization and the sawtooth", "波次量化与锯齿曲线"),
    ("topic.waves.summary", "Output tiles go to SMs in waves; one tile more than a multiple of the SM count costs a whole extra wave.", "输出块按波次分给各个 SM；比 SM 数的整数倍多一个块，就要多跑一整波。"),
    ("param.sms", "SMs (0 = the GPU's)", "SM 数（0 表示用该 GPU 的）"),
    ("param.waves.n", "Matrix size n", "矩阵大小 n"),
    ("param.ref", "Reference n", "参考 n"),
    ("waves.grid", "Which SM computes which output tile, wave by wave", "每一波中哪个 SM 计算哪个输出块"),
    ("waves.legend.busy", "SM computing a tile", "计算某块的 SM"),
    ("waves.legend.idle", "idle SM", "空闲的 SM"),
    ("waves.wave", "wave {w}", "第 {w} 波"),
    ("waves.chart", "Modelled throughput (TFLOP/s) against n; click to choose n", "模型估计的吞吐量（TFLOP/s）随 n 的变化；点击选择 n"),
    ("waves.why.same", "From n − 1 to n: same tiles and waves; throughput changes only through the work per tile.", "从 n − 1 到 n：块数和波数都不变，吞吐量只随每块的工作量变化。"),
    ("waves.why.tiles", "From n − 1 to n: tile quantization: a new row or column of tiles ({a} → {b} tiles), mostly padding.", "从 n − 1 到 n：块量化：多出一行或一列块（{a} → {b} 个），大部分是填充。"),
    ("waves.why.waves", "From n − 1 to n: wave quantization: {a} → {b} waves; the last wave has {last} tiles for {sms} SMs.", "从 n − 1 到 n：波次量化：{a} → {b} 波；最后一波只有 {last} 个块给 {sms} 个 SM。"),
    ("waves.time-k", "The notes' relative time counts waves (every wave equally long). If a wave's length grows with k, as each tile's K loop does, the same comparison gives {x}.", "讲义的相对耗时只数波数（每一波一样长）。如果一波的时长随 k 增长（每块的 K 循环确实如此），同样的比较得到 {x}。"),
    ("waves.measured", "Measured series from assets/measured/matmul-{gpu}.csv overlaid.", "已叠加 assets/measured/matmul-{gpu}.csv 中的实测数据。"),
    ("waves.model", "Model: each wave runs its tiles at the SMs' share of the bf16 peak, padded tiles cost full price, and the run cannot beat moving A, B and C through HBM once.", "模型：每一波以各 SM 分得的 bf16 峰值算力计算其块，填充的块照样全价，整个运算不可能快过把 A、B、C 从显存搬一遍。"),
    ("waves.explain", "The curve rises because bigger products have more arithmetic per byte; it drops where n crosses a multiple of the tile size (tile quantization: a new row of mostly empty tiles) and where the tile count crosses a multiple of the SM count (wave quantization: an extra wave in which most SMs idle).", "曲线上升，是因为矩阵越大每字节的计算越多；在 n 越过块大小的整数倍处下降（块量化：多一行几乎空的块），在块数越过 SM 数的整数倍处也下降（波次量化：多一波，其中大部分 SM 空闲）。"),
    ("waves.lecture", "Lecture check (notes §7, A100, 256 × 128 tiles): n = 1792 → 98 tiles, 1 wave, 91 %; 1793 → 120 tiles, 2 waves, 56 %; 2560 → 200 tiles, 2 waves, 93 %, relative FLOPs 2.92, relative time 2.0.", "讲义对照（§7，A100，256 × 128 输出块）：n = 1792 → 98 块、1 波、91%；1793 → 120 块、2 波、56%；2560 → 200 块、2 波、93%，相对计算量 2.92，相对耗时 2.0。"),
    ("waves.presets", "Lecture cases (A100)", "讲义示例（A100）"),
    ("waves.preset.1792", "n = 1792", "n = 1792"),
    ("waves.preset.1793", "n = 1793", "n = 1793"),
    ("waves.preset.2560", "n = 2560", "n = 2560"),
    ("metric.waves", "Waves", "波数"),
    ("metric.sm-utilization", "SM utilization", "SM 利用率"),
    ("metric.sm-utilization.doc", "Tiles ÷ (waves × SMs)", "块数 ÷（波数 × SM 数）"),
    ("metric.relative-flops", "FLOPs vs reference", "相对参考的计算量"),
    ("metric.relative-time", "Time vs reference (waves)", "相对参考的耗时（按波数）"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn case(n: i64) -> Values {
        let start = Values::defaults(&WAVES_PARAMS)
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
        assert_eq!(names, WAVES.metrics);
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
