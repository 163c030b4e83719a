//! `#/your-machine`: the roofline of the reader's own computer (notes §5.4,
//! demo 4 of 01), measured in the browser by `crate::bench`; its URL
//! parameters (`quick`, and the results `r`), its registry entry, the
//! lecture's Apple M4 Pro figures and what the panel shows, as pure data.

use crate::bench::{check_results, Plan, Results, MAX_ENCODED};
use crate::params::{ParamSpec, Values};

/// The `r` of a shared link: results this page wrote, or empty. The decoder's
/// own complaint is a developer's detail; the reader is told what `r` is for.
fn check_r(s: &str) -> Result<(), crate::message::Message> {
    check_results(s).map_err(|_| crate::message::Message::new("your-machine.r-invalid", &[]))
}
use crate::sim::Metric;
use crate::topic::{Part, Topic, TopicMeta};

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static PARAMS: [ParamSpec; 2] = [
    ParamSpec::choice("quick", &["0", "1"], "0").optional(),
    // Always written (an empty `r=` says "not measured"), like every text parameter.
    ParamSpec::text("r", MAX_ENCODED, "", check_r),
];

pub static META: TopicMeta = TopicMeta::new("your-machine", Part::Fast, &PARAMS).notes(&["5.4"], "01 · 4").metrics(&[
    "bandwidth-gbps",
    "peak-gflops",
    "ridge",
    "unfused-ratio",
    "fused-ratio",
    "transpose-ratio",
    "u16-speedup",
]);

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic = Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK);

/// The lecture's machine (notes §5.4, demo 4 of 01: "在一台 Apple M4 Pro 上
/// （Apple GPU / MPS）：带宽约 215 GB/s，FP32 矩阵乘法约 5.5 TFLOP/s，平衡点约
/// 26 FLOP/字节"): the lecture's quoted figures, not ours.
pub const M4_BANDWIDTH_GBPS: f64 = 215.0;
/// FP32 matmul on the M4 Pro's GPU (notes §5.4), GFLOP/s.
pub const M4_FP32_GFLOPS: f64 = 5500.0;
/// The ridge the notes quote (§5.4), FLOP/byte (5500 ÷ 215 = 25.6).
pub const M4_RIDGE: f64 = 26.0;

/// The notes' §5.4 table on the M4 Pro: (operation, FLOP/byte, measured
/// GFLOP/s, roofline prediction GFLOP/s).
pub const M4_TABLE: [(&str, f64, f64, f64); 5] = [
    ("x*2", 0.125, 28.0, 27.0),
    ("x*2+1", 0.25, 30.0, 54.0),
    ("matmul 64×64", 11.0, 9.0, 2295.0),
    ("matmul 1024×1024", 171.0, 4640.0, 5519.0),
    ("matmul 4096×4096", 683.0, 5383.0, 5519.0),
];

/// The run the `quick` parameter asks for.
pub fn plan(v: &Values) -> Plan {
    if v.choice("quick") == "1" {
        Plan::quick()
    } else {
        Plan::full()
    }
}

/// The results in the URL, if any.
pub fn results(v: &Values) -> Option<Results> {
    let r = v.text("r");
    (!r.is_empty()).then(|| Results::decode(r).ok()).flatten()
}

/// The panel's figures from a run.
pub fn metrics(r: &Results) -> Vec<Metric> {
    vec![
        Metric::real("bandwidth-gbps", r.bandwidth_gbps()),
        Metric::real("peak-gflops", r.peak_gflops()),
        Metric::real("ridge", r.ridge()),
        Metric::real("unfused-ratio", r.unfused_ratio()),
        Metric::real("fused-ratio", r.fused_ratio()),
        Metric::real("transpose-ratio", r.transpose_ratio()),
        Metric::real("u16-speedup", r.u16_speedup()),
    ]
}

/// A measured point on the roofline: (label key, n for the label, FLOP/byte,
/// GFLOP/s). x*2+1 is placed at its fused intensity (0.25), as the notes'
/// table does: unfused, it moves twice the bytes and lands below the roof.
pub fn roof_points(r: &Results) -> Vec<(&'static str, u32, f64, f64)> {
    let [x2, unfused, fused] = r.elementwise_gflops();
    let mut v = vec![
        ("your-machine.point.x2", 0, 0.125, x2),
        ("your-machine.point.unfused", 0, 0.25, unfused),
        ("your-machine.point.fused", 0, 0.25, fused),
    ];
    v.extend(r.matmul.iter().map(|&(n, g)| ("your-machine.point.matmul", n, n as f64 / 6.0, g)));
    v
}

/// Attainable GFLOP/s on a roofline: min(peak, intensity × bandwidth).
pub fn attainable(peak_gflops: f64, bandwidth_gbps: f64, intensity: f64) -> f64 {
    peak_gflops.min(intensity * bandwidth_gbps)
}

/// How far above its own roof a point may land before the run counts as
/// noisy: the roof is this run's fastest copy and fastest matmul, so a point
/// above it means the machine ran faster at one moment than at another (a
/// busy core, a clock boost, power saving; a short quick run shows it most).
pub const ABOVE_ROOF: f64 = 0.05;

/// The measured points more than [`ABOVE_ROOF`] above this machine's own
/// roofline: (label key, n, measured GFLOP/s, predicted GFLOP/s).
pub fn above_roof(r: &Results) -> Vec<(&'static str, u32, f64, f64)> {
    let (peak, bw) = (r.peak_gflops(), r.bandwidth_gbps());
    roof_points(r)
        .into_iter()
        .map(|(key, n, i, g)| (key, n, g, attainable(peak, bw, i)))
        .filter(|&(_, _, g, roof)| g > roof * (1.0 + ABOVE_ROOF))
        .collect()
}

/// The warning beside the roofline when points lie above it, in `lang`
/// (`None` for a steady run).
pub fn noise_text(lang: crate::i18n::Lang, r: &Results) -> Option<String> {
    use crate::i18n::{tr, trf};
    let above = above_roof(r);
    if above.is_empty() {
        return None;
    }
    let points: Vec<String> = above
        .iter()
        .map(|&(key, n, measured, roof)| {
            let what = if n > 0 { trf(lang, key, &[("n", &n.to_string())]) } else { tr(lang, key) };
            let (m, p) = (format!("{measured:.2}"), format!("{roof:.2}"));
            trf(lang, "your-machine.noise.point", &[("what", &what), ("measured", &m), ("roof", &p)])
        })
        .collect();
    Some(trf(lang, "your-machine.noise", &[("points", &points.join(tr(lang, "your-machine.noise.sep").as_str()))]))
}

/// Where to put the labels of dots on a chart so that no two overlap and
/// none covers a dot: for each dot (pixel centre) and its label's size, the
/// label's top-left corner. Candidates around the dot are tried in order
/// (right above, right below, left above, left below, then further out);
/// the first free one wins, or the least overlapping.
pub fn place_labels(dots: &[(f64, f64)], sizes: &[(f64, f64)], gap: f64) -> Vec<(f64, f64)> {
    type Rect = (f64, f64, f64, f64);
    let overlap = |a: Rect, b: Rect| {
        let w = (a.0 + a.2).min(b.0 + b.2) - a.0.max(b.0);
        let h = (a.1 + a.3).min(b.1 + b.3) - a.1.max(b.1);
        if w > 0.0 && h > 0.0 {
            w * h
        } else {
            0.0
        }
    };
    let dot_rects: Vec<Rect> = dots.iter().map(|&(x, y)| (x - gap, y - gap, 2.0 * gap, 2.0 * gap)).collect();
    let mut placed: Vec<Rect> = Vec::new();
    for (&(x, y), &(w, h)) in dots.iter().zip(sizes) {
        let mut best: Option<(f64, Rect)> = None;
        'search: for far in [0.0, 1.0, 2.0] {
            let dy = far * h;
            for (lx, ly) in [(x + gap, y - h - dy), (x + gap, y + dy), (x - gap - w, y - h - dy), (x - gap - w, y + dy)]
            {
                let r = (lx, ly, w, h);
                let cost: f64 = placed.iter().chain(&dot_rects).map(|&o| overlap(r, o)).sum();
                if best.is_none_or(|(c, _)| cost < c) {
                    best = Some((cost, r));
                }
                if cost == 0.0 {
                    break 'search;
                }
            }
        }
        let r = best.map_or((x + gap, y, w, h), |b| b.1);
        placed.push(r);
    }
    placed.into_iter().map(|r| (r.0, r.1)).collect()
}

/// A working set in bytes as "16 KiB", "4 MiB".
pub fn size_label(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 => format!("{} KiB", b >> 10),
        b => format!("{b} B"),
    }
}

/// No static snapshot (`crate::topic::snapshot`): its figures are measured in the reader's own browser: there is no value to compute at build time.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(_: crate::i18n::Lang, _: f64) -> crate::topic::snapshot::Snapshot {
    crate::topic::snapshot::Snapshot::Exempt(
        "its figures are measured in the reader's own browser: there is no value to compute at build time",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topic::q;

    #[test]
    fn the_lectures_m4_pro() {
        // notes §5.4: 215 GB/s, 5.5 TFLOP/s, ridge ≈ 26; the table's predictions follow.
        assert_eq!((M4_FP32_GFLOPS / M4_BANDWIDTH_GBPS).round(), M4_RIDGE);
        assert!((attainable(M4_FP32_GFLOPS, M4_BANDWIDTH_GBPS, 0.125) - 27.0).abs() < 0.5);
        assert!((attainable(M4_FP32_GFLOPS, M4_BANDWIDTH_GBPS, 0.25) - 54.0).abs() < 0.5);
        // The table's own 5519 is 5.5 TFLOP/s before rounding; its 2295 at 64² is 11 (10.67) × 215.
        assert!((attainable(M4_FP32_GFLOPS, M4_BANDWIDTH_GBPS, 64.0 / 6.0) - 2295.0).abs() < 5.0);
    }

    #[test]
    fn results_come_from_the_url_and_give_the_figures() {
        let text =
            "S14-61.23_28-9.876*F8388608-6.123-12.87-6.2*T4096-14.1-120.5*H16777216-12.25-6.5*M256-21.5_512-24.75";
        let (v, n) = META.parse(&q(&[("quick", "1"), ("r", text)]));
        assert!(n.is_empty(), "{n:?}");
        assert_eq!(plan(&v), Plan::quick());
        let r = results(&v).unwrap();
        let m = metrics(&r);
        assert_eq!(m.iter().map(|m| m.name).collect::<Vec<_>>(), META.metrics);
        assert_eq!(m[0].value, 9.876);
        assert_eq!(m[1].value, 24.75);
        assert_eq!(v.to_query(), q(&[("quick", "1"), ("r", text)]));
        let pts = roof_points(&r);
        assert_eq!(pts[0].2, 0.125);
        assert_eq!(pts.len(), 5);
        // A broken r is replaced by "not measured", with a notice.
        let (v, n) = META.parse(&q(&[("r", "S14-1*oops")]));
        assert_eq!(v.text("r"), "");
        assert_eq!(n.len(), 1);
        assert!(results(&v).is_none());
        assert_eq!(plan(&v), Plan::full());
    }

    /// Issue 22: under load a quick run put x*2 at 1.37 GFLOP/s against a
    /// roof of 0.91; such points are named so the panel can warn.
    #[test]
    fn points_above_their_own_roof_are_found() {
        // DRAM copy 9.876 GB/s: x*2 at 8388608 ÷ 8.0 ms = 1.05 under its roof of 1.23.
        let quiet =
            "S14-61.23_28-9.876*F8388608-8.0-12.87-7.0*T4096-14.1-120.5*H16777216-12.25-6.5*M256-21.5_512-24.75";
        let (v, _) = META.parse(&q(&[("r", quiet)]));
        assert_eq!(above_roof(&results(&v).unwrap()), vec![]);
        // The copy slowed to 7.28 GB/s (roof 0.91 at 0.125 FLOP/byte) while x*2 ran at 1.37.
        let noisy =
            "S14-61.23_28-7.28*F8388608-6.123-12.87-10.0*T4096-14.1-120.5*H16777216-12.25-6.5*M256-21.5_512-24.75";
        let (v, n) = META.parse(&q(&[("r", noisy)]));
        assert!(n.is_empty(), "{n:?}");
        let above = above_roof(&results(&v).unwrap());
        assert_eq!(above.len(), 1, "{above:?}");
        let (key, _, measured, roof) = above[0];
        assert_eq!(key, "your-machine.point.x2");
        assert_eq!((format!("{measured:.2}"), format!("{roof:.2}")), ("1.37".into(), "0.91".into()));
        let r = results(&v).unwrap();
        let en = noise_text(crate::i18n::Lang::En, &r).expect("a warning");
        assert!(en.starts_with("Noisy run: x*2 measured 1.37 GFLOP/s, above the 0.91 its roof allows."), "{en}");
        assert!(noise_text(crate::i18n::Lang::Zh, &r).unwrap().starts_with("测量有噪声：x*2 实测 1.37 GFLOP/s"));
    }

    #[test]
    fn labels_never_overlap() {
        // The quick run's matmul 128² and 256² dots, close on the chart, and a
        // crowd of three at one place.
        let dots = [(300.0, 100.0), (318.0, 96.0), (120.0, 200.0), (120.0, 200.0), (122.0, 204.0)];
        let sizes = [(90.0, 14.0), (90.0, 14.0), (60.0, 14.0), (60.0, 14.0), (60.0, 14.0)];
        let at = place_labels(&dots, &sizes, 6.0);
        for i in 0..dots.len() {
            for j in 0..i {
                let (a, b) = (at[i], at[j]);
                let apart = a.0 + sizes[i].0 <= b.0
                    || b.0 + sizes[j].0 <= a.0
                    || a.1 + sizes[i].1 <= b.1
                    || b.1 + sizes[j].1 <= a.1;
                assert!(apart, "labels {i} and {j} overlap: {a:?} {b:?}");
            }
        }
    }

    #[test]
    fn size_labels() {
        assert_eq!(size_label(1 << 14), "16 KiB");
        assert_eq!(size_label(1 << 28), "256 MiB");
    }
}
