//! `#/gpu-vs-tpu`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters; the two cycle counts spelled
//! out, and the link to the same pass on the systolic array.

use crate::format::grouped;
use crate::i18n::{tr, trf, Lang};
use crate::params::{ParamSpec, Values};
use crate::sim::hw::tpu::{self, Tpu};
use crate::sim::matmul::{self, Chips, Compare};
use crate::sim::{hw, systolic::MAX_K, Metric};
use crate::topic::*;

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static PARAMS: [ParamSpec; 8] = [
    ParamSpec::int("m", 1, 16384, 512).log(),
    ParamSpec::int("k", 1, 16384, 4096).log(),
    ParamSpec::int("n", 1, 16384, 4096).log(),
    ParamSpec::choice("mxu", &["128", "256"], "128"),
    ParamSpec::choice("tpu", &["auto", "v2", "v3", "v4", "v5e", "v5p", "v6e"], "auto").optional(),
    ParamSpec::choice("gpu", hw::GPU_CODES, "h100"),
    ParamSpec::int("tm", 1, 1024, 128).log(),
    ParamSpec::int("tn", 1, 1024, 128).log(),
];

pub static META: TopicMeta = TopicMeta::new("gpu-vs-tpu", Part::Tpu, &PARAMS).notes(&["9.1"], "06").metrics(&[
    "mxu-passes",
    "mxu-utilization",
    "gpu-waves",
    "gpu-utilization",
    "tpu-mxus",
    "tpu-chip-cycles",
    "tpu-time-us",
    "gpu-time-us",
    "tpu-tflops",
    "gpu-tflops",
]);

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic = Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK);

/// The TPU chip: the one named, or for `auto` the newest with the chosen
/// MXU size (v5p for 128 × 128, v6e for 256 × 256).
pub fn chip(v: &Values) -> &'static Tpu {
    match (v.choice("tpu"), v.choice("mxu")) {
        ("auto", "256") => tpu::tpu("v6e"),
        ("auto", _) => tpu::tpu("v5p"),
        (code, _) => tpu::tpu(code),
    }
}

/// The GPU's Tensor Core clock in GHz, from its published bf16 peak:
/// peak ÷ (2 · SMs · MACs per SM-cycle).
pub fn gpu_ghz(g: &hw::Gpu) -> f64 {
    g.bf16_tflops * 1e3 / (2.0 * g.sms as f64 * g.macs_per_sm_cycle as f64)
}

pub fn gpu_tpu(v: &Values) -> matmul::Compare {
    let g = hw::gpu(v.choice("gpu"));
    matmul::Compare {
        m: v.int("m") as u64,
        k: v.int("k") as u64,
        n: v.int("n") as u64,
        mxu: chip(v).dim as u64,
        sms: g.sms as u64,
        tm: v.int("tm") as u64,
        tn: v.int("tn") as u64,
        macs_per_sm_cycle: g.macs_per_sm_cycle,
    }
}

/// Both chips whole.
pub fn chips(v: &Values) -> Chips {
    let t = chip(v);
    Chips { c: gpu_tpu(v), mxus: t.mxus as u64, tpu_ghz: t.ghz, gpu_ghz: gpu_ghz(hw::gpu(v.choice("gpu"))) }
}

/// Every metric: one MXU against all SMs as before, then chip against chip.
pub fn metrics(v: &Values) -> Vec<Metric> {
    let ch = chips(v);
    let mut m = ch.c.metrics();
    m.extend(ch.metrics());
    m
}

/// `key.one` for a count of 1, else `key.other` (English plurals; 中文 has one form).
fn plural(key: &str, n: u64) -> String {
    format!("{key}.{}", if n == 1 { "one" } else { "other" })
}

/// The TPU's cycles: the first weight load, then passes × (rows streamed +
/// fill and drain).
pub fn tpu_detail(lang: Lang, c: &Compare) -> String {
    // k or n not a multiple of the array: the last blocks' passes are narrower.
    let key = if c.aligned() { "gpu-vs-tpu.tpu.detail" } else { "gpu-vs-tpu.tpu.detail-ragged" };
    trf(
        lang,
        &plural(key, c.mxu_passes()),
        &[
            ("first", &c.first_load().to_string()),
            ("passes", &c.mxu_passes().to_string()),
            ("m", &c.m.to_string()),
            ("s", &c.mxu.to_string()),
            ("cycles", &grouped(c.mxu_cycles())),
        ],
    )
}

/// The GPU's cycles: waves × one tile's multiply-adds at the SM's rate.
pub fn gpu_detail(lang: Lang, c: &Compare) -> String {
    trf(
        lang,
        &plural("gpu-vs-tpu.gpu.detail", c.waves().waves()),
        &[
            ("waves", &c.waves().waves().to_string()),
            ("tm", &c.tm.to_string()),
            ("tn", &c.tn.to_string()),
            ("k", &c.k.to_string()),
            ("rate", &c.macs_per_sm_cycle.to_string()),
            ("cycles", &grouped(c.gpu_cycles())),
        ],
    )
}

/// The whole chip against the whole chip: MXUs × clock beside SMs × clock,
/// the peaks and the times.
pub fn chip_detail(lang: Lang, v: &Values) -> [String; 2] {
    let (t, g, ch) = (chip(v), hw::gpu(v.choice("gpu")), chips(v));
    [
        trf(
            lang,
            &plural("gpu-vs-tpu.chip.tpu", ch.tpu_rounds()),
            &[
                ("chip", t.name),
                ("mxus", &t.mxus.to_string()),
                ("clock", &super::systolic::clock_text(lang, t)),
                ("peak", &format!("{:.0}", t.bf16_tflops)),
                ("rounds", &grouped(ch.tpu_rounds())),
                ("cycles", &grouped(ch.tpu_cycles())),
                ("us", &format!("{:.1}", ch.tpu_us())),
                ("tflops", &format!("{:.0}", ch.tflops(ch.tpu_us()))),
            ],
        ),
        trf(
            lang,
            "gpu-vs-tpu.chip.gpu",
            &[
                ("gpu", g.name),
                ("sms", &g.sms.to_string()),
                ("ghz", &format!("{:.2}", ch.gpu_ghz)),
                ("peak", &format!("{:.0}", g.bf16_tflops)),
                ("cycles", &grouped(ch.c.gpu_cycles())),
                ("us", &format!("{:.1}", ch.gpu_us())),
                ("tflops", &format!("{:.0}", ch.tflops(ch.gpu_us()))),
            ],
        ),
    ]
}

/// This GEMM as folds on one MXU of the chip, on the systolic panel: weight-
/// stationary with double-buffered loads (the model above), each dimension
/// capped at that panel's largest.
pub fn systolic_link(lang: Lang, v: &Values) -> String {
    let c = gpu_tpu(v);
    let cap = |x: u64| x.min(MAX_K as u64);
    super::systolic::link(chip(v).code, c.mxu, cap(c.m), cap(c.k), cap(c.n), "ws", lang.code())
}

/// The link's text: the GEMM and the folds it becomes (and whether it was capped).
pub fn systolic_link_text(lang: Lang, v: &Values) -> String {
    let c = gpu_tpu(v);
    let cap = |x: u64| x.min(MAX_K as u64);
    let folds = cap(c.k).div_ceil(c.mxu) * cap(c.n).div_ceil(c.mxu);
    let capped = [c.m, c.k, c.n].iter().any(|&x| x > MAX_K as u64);
    let mut s = trf(
        lang,
        &plural("gpu-vs-tpu.systolic", folds),
        &[
            ("m", &cap(c.m).to_string()),
            ("k", &cap(c.k).to_string()),
            ("n", &cap(c.n).to_string()),
            ("s", &c.mxu.to_string()),
            ("folds", &grouped(folds)),
        ],
    );
    if capped {
        s += &tr(lang, "gpu-vs-tpu.systolic.capped");
    }
    s
}

/// Rows of the terminology table (`gpu-vs-tpu.term.<i>` and `…<i>t`).
pub const TERMS: u32 = 6;

/// The static snapshot (`crate::topic::snapshot`): the default matmul on
/// both chips, drawn as the panel draws it, and its key figures.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: Lang, width: f64) -> crate::topic::snapshot::Snapshot {
    use crate::topic::snapshot::{Above, Snapshot, Stage, View};
    let (v, _) = META.parse(&[]);
    let c = gpu_tpu(&v);
    let titles = [tr(lang, "gpu-vs-tpu.tpu"), tr(lang, "gpu-vs-tpu.gpu")];
    let scene = crate::draw::matmul::draw_compare(&c, &crate::scene::Theme::normal(), width, [&titles[0], &titles[1]]);
    Snapshot::View(View {
        above: Above::Nothing,
        stage: Stage::Scene(scene),
        label: format!("{}: {} {}", tr(lang, "topic.gpu-vs-tpu.title"), tpu_detail(lang, &c), gpu_detail(lang, &c)),
        figures: metrics(&v),
        pending: (vec![], ""),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::topic::q;

    #[test]
    fn the_default_case_spelled_out() {
        crate::topics::install_texts();
        let (v, n) = META.parse(&q(&[("m", "512"), ("k", "4096"), ("n", "4096"), ("gpu", "h100")]));
        assert!(n.is_empty());
        let c = gpu_tpu(&v);
        assert_eq!((c.sms, c.macs_per_sm_cycle), (132, 2048));
        // The first weight block's load, then 32 × 32 weight blocks of
        // 512 + 2·128 − 2 cycles: what the systolic panel counts (784,512).
        assert_eq!(
            tpu_detail(Lang::En, &c),
            "One MXU: 128 (first weight load) + 1024 passes × (512 + 2 × 128 − 2) cycles = 784,512 cycles"
        );
        // 4 × 32 = 128 tiles on 132 SMs: one wave of 128·128·4096 / 2048 cycles.
        assert_eq!(gpu_detail(Lang::En, &c), "All SMs: 1 wave × 128·128·4096 / 2048 MAC per SM-cycle = 32,768 cycles");
        assert!(gpu_detail(Lang::Zh, &c).starts_with("全部 SM：1 波 ×"));
        let one = gpu_tpu(&v.with("k", crate::params::Value::Int(128)).with("n", crate::params::Value::Int(128)));
        assert!(tpu_detail(Lang::En, &one).starts_with("One MXU: 128 (first weight load) + 1 pass × "));
        let a100 = gpu_tpu(&v.with("gpu", crate::params::Value::Choice("a100")));
        assert_eq!((a100.sms, a100.macs_per_sm_cycle), (108, 1024));
    }

    #[test]
    fn whole_chip_against_whole_chip() {
        crate::topics::install_texts();
        // The default: 512 × 4096 × 4096 on TPU v5p (8 MXUs) against an H100.
        let (v, _) = META.parse(&q(&[]));
        let ch = chips(&v);
        assert_eq!((chip(&v).code, ch.mxus), ("v5p", 8));
        // The first loads (all MXUs at once), then 1024 passes over 8 MXUs:
        // 128 rounds of 766 cycles.
        assert_eq!(ch.tpu_rounds(), 128);
        assert_eq!(ch.tpu_cycles(), 128 + 128 * 766);
        let [t, g] = chip_detail(Lang::En, &v);
        assert!(t.starts_with("TPU v5p: 8 MXUs at 1.75 GHz (clock derived from the published peak), peak 459 TFLOP/s bf16 · the passes in 128 rounds"), "{t}");
        assert!(g.starts_with("H100: 132 SMs at 1.83 GHz"), "{g}");
        // Both near their peaks for this GEMM: the same order, as the lecture says.
        let (tt, gt) = (ch.tflops(ch.tpu_us()), ch.tflops(ch.gpu_us()));
        assert!(tt > 0.5 * 459.0 && tt <= 459.0, "{tt}");
        assert!(gt > 0.5 * hw::gpu("h100").bf16_tflops && gt <= hw::gpu("h100").bf16_tflops, "{gt}");
        let names: Vec<_> = metrics(&v).iter().map(|m| m.name).collect();
        assert_eq!(names, META.metrics);
        // mxu=256 alone picks v6e (2 MXUs of 256²); an explicit chip wins.
        let v6 = v.with("mxu", crate::params::Value::Choice("256"));
        assert_eq!((chip(&v6).code, gpu_tpu(&v6).mxu), ("v6e", 256));
        let v2 = v.with("tpu", crate::params::Value::Choice("v2"));
        assert_eq!((chips(&v2).mxus, gpu_tpu(&v2).mxu), (2, 128));
    }

    /// What the systolic panel makes of this panel's link to it.
    fn systolic_values(v: &Values) -> (Values, Vec<crate::params::Notice>) {
        let link = systolic_link(Lang::En, v);
        let query = crate::lecture_deck::query_pairs(&link);
        super::super::systolic::META.parse(&query)
    }

    #[test]
    fn the_systolic_link_shows_the_same_cycles() {
        crate::topics::install_texts();
        // On the systolic panel, this GEMM on one MXU, weight-stationary with
        // double-buffered loads, takes the first load plus passes × (m + 2s − 2).
        let (v, _) = META.parse(&q(&[("m", "512"), ("k", "1024"), ("n", "512"), ("tpu", "v4")]));
        let (sv, notices) = systolic_values(&v);
        assert!(notices.is_empty(), "{notices:?}");
        let p = super::super::systolic::systolic_params(&sv);
        assert!(p.dbuf);
        let sim = crate::sim::systolic::Systolic::new(p);
        let c = gpu_tpu(&v);
        assert_eq!(sim.folds() as u64, c.mxu_passes());
        // The same count on both panels (issue 22: 784,384 against 784,512 was
        // the first weight load, which one model left out).
        assert_eq!(sim.total_cycles(), c.mxu_cycles());
        assert_eq!(
            systolic_link_text(Lang::En, &v),
            "Step through this GEMM (512×1024×512) as 32 folds on one 128×128 MXU"
        );
        // And on a 256×256 MXU (v6e), k and n not multiples of the array, and
        // a spread of shapes on 128×128 (v4): one count on both panels.
        let cases = [("v6e", "300", "600", "300"), ("v6e", "64", "256", "512"), ("v6e", "1", "1", "1")];
        let more = [1, 7, 128, 129, 300].iter().flat_map(|&m| {
            [(100, 128), (129, 257), (512, 40)].map(|(k, n)| ("v4", m.to_string(), k.to_string(), n.to_string()))
        });
        let cases: Vec<(&str, String, String, String)> =
            cases.iter().map(|(t, m, k, n)| (*t, m.to_string(), k.to_string(), n.to_string())).chain(more).collect();
        for (tpu, m, k, n) in &cases {
            let (m, k, n) = (m.as_str(), k.as_str(), n.as_str());
            let (v, _) = META.parse(&q(&[("m", m), ("k", k), ("n", n), ("tpu", tpu)]));
            let (sv, _) = systolic_values(&v);
            let sim = crate::sim::systolic::Systolic::new(super::super::systolic::systolic_params(&sv));
            assert_eq!(sim.total_cycles(), gpu_tpu(&v).mxu_cycles(), "{m}×{k}×{n} on {tpu}");
            let c = gpu_tpu(&v);
            if !c.aligned() {
                assert!(
                    tpu_detail(Lang::En, &c).contains(&format!("= {} cycles", crate::format::grouped(c.mxu_cycles())))
                );
                assert!(tpu_detail(Lang::En, &c).contains("its rows + its columns"), "{}", tpu_detail(Lang::En, &c));
            }
        }
    }

    #[test]
    fn the_systolic_link_opens_cleanly() {
        crate::topics::install_texts();
        let (v, _) = META.parse(&q(&[("k", "16384"), ("mxu", "256")]));
        let link = systolic_link(Lang::Zh, &v);
        assert_eq!(
            link,
            "#/systolic?rows=256&cols=256&m=512&k=4096&n=4096&dataflow=ws&dbuf=on&tpu=v6e&seed=1&cycle=0&lang=zh"
        );
        assert!(systolic_link_text(Lang::En, &v).ends_with(" (dimensions capped at 4096)"));
        let query: Vec<(String, String)> = link
            .split_once('?')
            .unwrap()
            .1
            .split('&')
            .filter(|kv| !kv.starts_with("lang="))
            .map(|kv| kv.split_once('=').map(|(a, b)| (a.to_string(), b.to_string())).unwrap())
            .collect();
        let (_, notices) = super::super::systolic::META.parse(&query);
        assert!(notices.is_empty(), "{notices:?}");
    }

    #[test]
    fn every_term_has_both_columns() {
        crate::topics::install_texts();
        for i in 1..=TERMS {
            assert!(crate::i18n::has(&format!("gpu-vs-tpu.term.{i}")));
            assert!(crate::i18n::has(&format!("gpu-vs-tpu.term.{i}t")));
        }
        assert!(!crate::i18n::has(&format!("gpu-vs-tpu.term.{}", TERMS + 1)));
    }
}
