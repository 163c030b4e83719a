//! `#/systolic`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters; the caption, the phases shown
//! for a dataflow and the lecture presets.

use crate::draw::systolic::{draw_fit, Labels, StripBox};
use crate::i18n::{tr, trf, Lang};
use crate::params::{ParamSpec, Value, Values};
use crate::scene::{Scene, Theme};
use crate::sim::hw::tpu::{self, TPU_CODES};
use crate::sim::systolic::{self, Conv, Dataflow, Phase, Systolic, MAX_DIM, MAX_K};
use crate::sim::Steppable;
#[cfg(not(target_arch = "wasm32"))]
use crate::topic::snapshot::{Above, Snapshot, Stage, View};
use crate::topic::*;

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

/// The systolic simulation's parameters from validated URL values.
/// `m` and `n` of 0 (their default) mean the array's rows and columns, so
/// that a link without them is one tile of work, as it always was.
pub fn systolic_params(v: &Values) -> systolic::Params {
    let rows = v.int("rows") as usize;
    let cols = v.int("cols") as usize;
    let or = |x: i64, d: usize| if x == 0 { d } else { x as usize };
    systolic::Params {
        rows,
        cols,
        m: or(v.int("m"), rows),
        k: v.int("k") as usize,
        n: or(v.int("n"), cols),
        dataflow: Dataflow::from_code(v.choice("dataflow")).unwrap_or(Dataflow::Os),
        dbuf: v.choice("dbuf") == "on",
        conv: Conv::from_code(v.choice("conv")).unwrap_or(Conv::Warpscope),
        seed: v.int("seed") as u64,
    }
}

/// The TPU whose MXU the array is (none: a free-standing array).
pub fn chip(v: &Values) -> Option<&'static tpu::Tpu> {
    let code = v.choice("tpu");
    TPU_CODES.contains(&code).then(|| tpu::tpu(code))
}

/// The fastest playback (cycles per second): folded GEMMs run to tens of
/// thousands of cycles, and the player offers to play a whole run in seconds.
pub const MAX_SPEED: i64 = 100_000;

pub static PARAMS: [ParamSpec; 15] = [
    ParamSpec::int("rows", 1, MAX_DIM as i64, 4).log(),
    ParamSpec::int("cols", 1, MAX_DIM as i64, 4).log(),
    ParamSpec::int("m", 0, MAX_K as i64, 0).optional(),
    ParamSpec::int("k", 1, MAX_K as i64, 6).log(),
    ParamSpec::int("n", 0, MAX_K as i64, 0).optional(),
    ParamSpec::choice("dataflow", &["os", "ws", "is"], "os"),
    ParamSpec::choice("dbuf", &["off", "on"], "off").optional(),
    ParamSpec::choice("conv", &["warpscope", "scalesim"], "warpscope").optional(),
    ParamSpec::choice("tpu", &["none", "v2", "v3", "v4", "v5e", "v5p", "v6e"], "none").optional(),
    ParamSpec::int("seed", 0, u32::MAX as i64, 1),
    ParamSpec::position("cycle"),
    ParamSpec::int("speed", 1, MAX_SPEED, 4).optional(),
    crate::params::INSET_GPU_CUSTOM,
    crate::params::CUSTOM_PEAK,
    crate::params::CUSTOM_BW,
];

pub static META: TopicMeta = TopicMeta::new("systolic", Part::Tpu, &PARAMS)
    .notes(&["9.2"], "06")
    .metrics(&[
        "cycle",
        "total-cycles",
        "utilization",
        "busy-pes",
        "max-abs-error",
        "reads-per-operand",
        "uses-per-operand",
        "fold",
        "folds",
        "mapping-efficiency",
        "compute-utilization",
        "overall-utilization",
    ])
    .position(|v| systolic::total_cycles(&systolic_params(v)));

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic = Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK);

/// The line above the array: cycle, phase, busy PEs (and the weight chunk).
pub fn caption(lang: Lang, sim: &Systolic, cycle: u64) -> String {
    let f = sim.state_at(cycle);
    let p = sim.params();
    let mut s = format!(
        "{} {} / {} · {} · {} / {} PE",
        tr(lang, "param.cycle"),
        f.cycle,
        sim.total_cycles(),
        tr(lang, &format!("phase.{}", f.phase.code())),
        f.busy_pes,
        p.rows * p.cols
    );
    if sim.folds() > 1 {
        let fold = sim.fold_at(cycle).index + 1;
        let fold = trf(lang, "systolic.fold", &[("q", &fold.to_string()), ("n", &sim.folds().to_string())]);
        s += &format!(" · {fold}");
    }
    s
}

/// The figures shown as cards beside the canvas; the others are cells of the
/// accounting table (still `data-metric` elements with their raw `data-value`),
/// so the side column stays as short as a single tile's.
pub const CARDS: [&str; 7] = ["cycle", "total-cycles", "utilization", "busy-pes", "max-abs-error", "fold", "folds"];

/// The array at cycle `c`, drawn `width` wide in a box `max_h` tall, with
/// its caption and labels in `lang` (the canvas, the GIF export and the
/// static snapshot draw the same), and where its fold strip is.
pub fn draw(
    lang: Lang,
    th: &Theme,
    sim: &Systolic,
    c: u64,
    width: f64,
    max_h: f64,
    cap: &str,
) -> (Scene, Option<StripBox>) {
    let is = sim.params().dataflow == Dataflow::Is;
    let [a, b, weights, out] = [
        if is { "systolic.b-queue" } else { "systolic.a-queue" },
        "systolic.b-queue",
        if is { "systolic.i-queue" } else { "systolic.w-queue" },
        if is { "systolic.out-t" } else { "systolic.out" },
    ]
    .map(|k| tr(lang, k));
    let what = tr(
        lang,
        match sim.params().dataflow {
            Dataflow::Os => "systolic.strip.c",
            Dataflow::Ws => "systolic.strip.b",
            Dataflow::Is => "systolic.strip.a",
        },
    );
    let strip = trf(lang, "systolic.strip", &[("what", &what)]);
    let dims = strip_words(lang, sim);
    let labels = Labels { a: &a, b: &b, weights: &weights, c: &out, strip: &strip, dims: &dims };
    draw_fit(sim, c, th, width, max_h, cap, &labels)
}

/// The static snapshot (`crate::topic::snapshot`): the default view's
/// array and its key figures, the result check done (the panel does it at
/// once for a run this small).
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: Lang, width: f64) -> Snapshot {
    let (v, _) = META.parse(&[]);
    let sim = Systolic::new(systolic_params(&v));
    let cycle = v.int("cycle") as u64;
    sim.check();
    let cap = caption(lang, &sim, cycle);
    let (scene, _) = draw(lang, &Theme::normal(), &sim, cycle, width, f64::INFINITY, &cap);
    let figures = sim.metrics_checked(cycle).into_iter().filter(|m| CARDS.contains(&m.name)).collect();
    let now = sim.state_at(cycle).phase;
    let th = Theme::normal();
    let chips = phases(sim.params().dataflow)
        .iter()
        .map(|ph| {
            (tr(lang, &format!("phase.{}", ph.code())), crate::draw::systolic::phase_tint(*ph, &th).css(), *ph == now)
        })
        .collect();
    Snapshot::View(View {
        above: Above::Chips(chips),
        stage: Stage::Scene(scene),
        label: cap,
        figures,
        pending: (vec![], ""),
    })
}

/// The fold strip's sizes in words: the matrix the folds tile, its size,
/// the blocks along each side, the folds, the array's size, and that a
/// block can be clicked.
pub fn strip_words(lang: Lang, sim: &Systolic) -> String {
    let sc = sim.schedule();
    let p = sim.params();
    let what = tr(
        lang,
        match p.dataflow {
            Dataflow::Os => "systolic.strip.c",
            Dataflow::Ws => "systolic.strip.b",
            Dataflow::Is => "systolic.strip.a",
        },
    );
    let n = |x: usize| crate::format::grouped(x as u64);
    trf(
        lang,
        "systolic.strip.dims",
        &[
            ("what", &what),
            ("er", &n(sc.er)),
            ("ec", &n(sc.ec)),
            ("fi", &n(sc.fi)),
            ("fo", &n(sc.fo)),
            ("n", &n(sc.folds())),
            ("rows", &n(p.rows)),
            ("cols", &n(p.cols)),
        ],
    )
}

/// The phases a run of this dataflow goes through, in the order the chips show them.
pub fn phases(dataflow: Dataflow) -> &'static [Phase] {
    match dataflow {
        Dataflow::Os => &[Phase::Fill, Phase::Steady, Phase::Drain, Phase::FillDrain],
        Dataflow::Ws | Dataflow::Is => {
            &[Phase::LoadWeights, Phase::Fill, Phase::Steady, Phase::Drain, Phase::FillDrain]
        }
    }
}

/// The lecture's claims (notes §9.2): label key, `data-preset` id
/// (`<rows>x<cols>x<k>`), rows, columns and K.
pub const PRESETS: [(&str, &str, i64, i64, i64); 4] = [
    ("systolic.preset.4x4", "4x4x6", 4, 4, 6),
    ("systolic.preset.8x8", "8x8x8", 8, 8, 8),
    ("systolic.preset.8x8-512", "8x8x512", 8, 8, 512),
    ("systolic.preset.tpu", "128x128x512", 128, 128, 512),
];

/// The values a preset sets: one tile of work, output-stationary, from cycle 0.
pub fn preset_values(rows: i64, cols: i64, k: i64) -> Vec<(&'static str, Value)> {
    vec![
        ("rows", Value::Int(rows)),
        ("cols", Value::Int(cols)),
        ("m", Value::Int(0)),
        ("k", Value::Int(k)),
        ("n", Value::Int(0)),
        ("dataflow", Value::Choice("os")),
        ("tpu", Value::Choice("none")),
        ("cycle", Value::Int(0)),
    ]
}

/// A TPU preset: the chip's MXU as the array (the GEMM and dataflow kept),
/// at the start of the run.
pub fn tpu_preset_values(t: &'static tpu::Tpu) -> Vec<(&'static str, Value)> {
    vec![
        ("rows", Value::Int(t.dim as i64)),
        ("cols", Value::Int(t.dim as i64)),
        ("tpu", Value::Choice(t.code)),
        ("cycle", Value::Int(0)),
    ]
}

/// The label key of a TPU preset.
pub fn tpu_label(code: &str) -> &'static str {
    match code {
        "v2" => "choice.tpu.v2",
        "v3" => "choice.tpu.v3",
        "v4" => "choice.tpu.v4",
        "v5e" => "choice.tpu.v5e",
        "v5p" => "choice.tpu.v5p",
        _ => "choice.tpu.v6e",
    }
}

/// The chip line shown when the array is a TPU's MXU: its MXUs and clock,
/// and this GEMM's time on one MXU (cycles ÷ clock).
pub fn chip_line(lang: Lang, v: &Values, sim: &Systolic) -> Option<String> {
    let t = chip(v)?;
    let us = sim.total_cycles() as f64 / (t.ghz * 1e3);
    Some(trf(
        lang,
        "systolic.tpu",
        &[
            ("chip", t.name),
            ("mxus", &t.mxus.to_string()),
            ("dim", &t.dim.to_string()),
            ("clock", &clock_text(lang, t)),
            ("us", &format!("{us:.1}")),
        ],
    ))
}

/// A TPU's clock as the panels say it: published, derived from the published
/// peak (and said so), or, where the derivation is doubtful (v6e: 3.5 GHz,
/// twice any other TPU's), "unpublished": a number that is probably wrong
/// is never shown as a clock. Times still follow from the published peak.
pub fn clock_text(lang: Lang, t: &crate::sim::hw::tpu::Tpu) -> String {
    if t.clock_doubtful() {
        tr(lang, "hw.tpu.unpublished")
    } else {
        let derived = t.clock_note().map(|k| tr(lang, k)).unwrap_or_default();
        trf(lang, "hw.tpu.clock", &[("ghz", &format!("{:.2}", t.ghz)), ("derived", &derived)])
    }
}

/// The clock as data (`data-clock`): GHz, or "unpublished".
pub fn clock_value(t: &crate::sim::hw::tpu::Tpu) -> String {
    if t.clock_doubtful() {
        "unpublished".into()
    } else {
        t.ghz.to_string()
    }
}

/// The link to this panel for an `m × k × n` GEMM on a `dim × dim` MXU of
/// `tpu`, in the given dataflow (weight- and input-stationary with
/// double-buffered loads, as a TPU runs them).
pub fn link(tpu: &str, dim: u64, m: u64, k: u64, n: u64, dataflow: &str, lang: &str) -> String {
    let dbuf = if dataflow == "os" { "" } else { "&dbuf=on" };
    format!("#/systolic?rows={dim}&cols={dim}&m={m}&k={k}&n={n}&dataflow={dataflow}{dbuf}&tpu={tpu}&seed=1&cycle=0&lang={lang}")
}

/// FLOPs and bytes of the product (bf16 operands and output), for the roofline inset.
pub fn work(p: &systolic::Params) -> crate::sim::roofline::Work {
    crate::sim::roofline::Work {
        flops: 2.0 * p.m as f64 * p.n as f64 * p.k as f64,
        bytes: 2.0 * (p.m * p.k + p.k * p.n + p.m * p.n) as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_give_the_lecture_numbers() {
        // notes §9.2: 4×4, K=6 → 12 cycles, 50 %; 8×8, K=8 → 36 %; 8×8, K=512 → 97 %.
        let start = Values::defaults(&PARAMS).with("dataflow", Value::Choice("ws")).with("seed", Value::Int(7));
        let expected = [(12, "50"), (22, "36"), (526, "97"), (128 + 128 + 512 - 2, "67")];
        for ((key, id, r, c, k), (cycles, util)) in PRESETS.iter().zip(expected) {
            assert_eq!(*id, format!("{r}x{c}x{k}"), "{key}");
            let v = META.normalize(preset_values(*r, *c, *k).into_iter().fold(start.clone(), |a, (n, x)| a.with(n, x)));
            let sim = Systolic::new(systolic_params(&v));
            assert_eq!(sim.total_cycles(), cycles, "{id}");
            assert_eq!(v.int("cycle"), 0, "{id}: opens at cycle 0");
            assert_eq!(format!("{:.0}", 100.0 * sim.utilization()), util, "{id}");
        }
    }

    #[test]
    fn captions_name_cycle_phase_and_chunk() {
        crate::topics::install_texts();
        let p = |df| systolic::Params { dataflow: df, ..Default::default() };
        let os = Systolic::new(p(Dataflow::Os));
        assert_eq!(caption(Lang::En, &os, 3), "Cycle 3 / 12 · Fill: operands still arriving · 6 / 16 PE");
        assert!(caption(Lang::Zh, &os, 12).starts_with("周期 12 / 12 · 排空"));
        let ws = Systolic::new(p(Dataflow::Ws));
        assert!(caption(Lang::En, &ws, 1).ends_with(" · fold 1 of 2"), "{}", caption(Lang::En, &ws, 1));
        assert!(caption(Lang::Zh, &ws, 24).ends_with(" · 第 2/2 折"), "{}", caption(Lang::Zh, &ws, 24));
        assert!(
            phases(Dataflow::Ws).contains(&Phase::LoadWeights) && !phases(Dataflow::Os).contains(&Phase::LoadWeights)
        );
    }

    #[test]
    fn the_fold_strip_says_its_sizes_in_words() {
        crate::topics::install_texts();
        let p = crate::sim::systolic::Params {
            rows: 32,
            cols: 32,
            m: 64,
            k: 256,
            n: 128,
            dataflow: Dataflow::Ws,
            ..Default::default()
        };
        let sim = Systolic::new(p);
        assert_eq!(
            strip_words(Lang::En, &sim),
            "B (weights) is 256 × 128: 8 × 4 = 32 folds of up to 32 × 32 (the array) · click a block to go to its fold"
        );
        assert!(
            strip_words(Lang::Zh, &sim).starts_with("B（权重） 为 256 × 128：8 × 4 = 32 折"),
            "{}",
            strip_words(Lang::Zh, &sim)
        );
    }

    #[test]
    fn old_links_are_one_tile_and_new_ones_fold() {
        crate::topics::install_texts();
        // A link without m and n is the array's own shape, as before.
        let (v, notices) = META.parse(
            &[("rows", "4"), ("cols", "4"), ("k", "6"), ("cycle", "12")].map(|(a, b)| (a.to_string(), b.to_string())),
        );
        assert!(notices.is_empty());
        let sim = Systolic::new(systolic_params(&v));
        assert_eq!((sim.params().m, sim.params().n, sim.total_cycles(), sim.folds()), (4, 4, 12, 1));
        assert_eq!(v.to_query().len(), 6, "no m, n, dbuf, conv or tpu in the URL: {:?}", v.to_query());
        // The gpu-vs-tpu link: a 1024 × 4096 × 1024 GEMM on TPU v6e's MXU.
        let link = link("v6e", 256, 1024, 4096, 1024, "ws", "en");
        let query: Vec<(String, String)> = link
            .split_once('?')
            .unwrap()
            .1
            .split('&')
            .map(|kv| {
                let (a, b) = kv.split_once('=').unwrap();
                (a.to_string(), b.to_string())
            })
            .collect();
        let (v, notices) = META.parse(&query);
        assert!(notices.is_empty(), "{notices:?}");
        let sim = Systolic::new(systolic_params(&v));
        assert_eq!(sim.folds(), 16 * 4);
        assert_eq!(chip(&v).map(|t| t.mxus), Some(2));
        let line = chip_line(Lang::En, &v, &sim).unwrap();
        // Google never publishes v6e's clock: "unpublished", never a derived 3.5 GHz.
        assert!(line.starts_with("TPU v6e (Trillium): 2 MXUs of 256×256, clock unpublished"), "{line}");
        assert!(!line.contains("GHz") && !chip_line(Lang::Zh, &v, &sim).unwrap().contains("GHz"), "{line}");
        assert_eq!(clock_value(chip(&v).unwrap()), "unpublished");
        assert_eq!(clock_value(crate::sim::hw::tpu::tpu("v4")), "1.05");
        assert!(chip_line(Lang::Zh, &v, &sim).unwrap().contains("个 256×256 的 MXU"));
    }

    #[test]
    fn the_inset_point() {
        let w = work(&systolic::Params::default());
        assert_eq!((w.flops, w.bytes), (192.0, 2.0 * (24 + 24 + 16) as f64));
    }
}
