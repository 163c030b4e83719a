//! `#/tiling`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters; the step caption, the shared
//! memory check and the lecture cases.

use crate::format::{grouped, kib};
use crate::i18n::{tr, trf, Lang};
use crate::params::{ParamSpec, Value, Values};
use crate::sim::hw;
use crate::sim::matmul::{self, TileRun, TileState};
use crate::topic::*;

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static PARAMS: [ParamSpec; 14] = [
    ParamSpec::int("n", 1, 4096, 256).log(),
    ParamSpec::int("m", 0, 4096, 0).optional(),
    ParamSpec::int("k", 0, 4096, 0).optional(),
    ParamSpec::int("tile", 1, 256, 16).log(),
    ParamSpec::choice("dtype", hw::ML_DTYPES, "fp32"),
    ParamSpec::choice("mode", &["naive", "tiled"], "tiled"),
    ParamSpec::position("step"),
    ParamSpec::int("smem", 1, 1024, 228).log(),
    ParamSpec::int("speed", 1, 1000, 2).optional(),
    crate::params::INSET_GPU_CUSTOM,
    crate::params::CUSTOM_PEAK,
    crate::params::CUSTOM_BW,
    ParamSpec::int("ti", 0, 4095, 0),
    ParamSpec::int("tj", 0, 4095, 0),
];

pub static META: TopicMeta = TopicMeta::new("tiling", Part::Fast, &PARAMS)
    .notes(&["6.6"], "04")
    .metrics(&["step", "global-reads", "global-bytes", "intensity", "smem-bytes", "max-tile"])
    .position(|v| tiling(v).steps())
    .bounds(|v| {
        let (mt, nt) = tiling(v).tile_grid();
        vec![("ti", (mt - 1) as i64), ("tj", (nt - 1) as i64)]
    });

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic = Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK).lecture(lecture_rows);

pub fn tiling(v: &Values) -> matmul::Tiling {
    matmul::Tiling {
        m: or_n(v, "m"),
        n: v.int("n") as u64,
        k: or_n(v, "k"),
        t: v.int("tile") as u64,
        elem_bytes: hw::dtype_bytes(v.choice("dtype")),
        tiled: v.choice("mode") == "tiled",
    }
}

/// The run the panel plays: the product, its followed output tile and the
/// shared memory budget (KB in the URL, bytes here).
pub fn tile_run(v: &Values) -> TileRun {
    TileRun { tiling: tiling(v), ti: v.int("ti") as u64, tj: v.int("tj") as u64, smem: v.int("smem") as u64 * 1024 }
}

/// What the latest step did to the followed tile.
/// The key figures, byte counts shown with units.
pub fn readouts(run: &TileRun, step: u64) -> Vec<crate::sim::Metric> {
    use crate::sim::{Metric, Steppable};
    run.metrics(step)
        .into_iter()
        .map(|m| match m.name {
            "global-bytes" => Metric::bytes(m.name, m.value as u64),
            "smem-bytes" => Metric::kib(m.name, m.value as u64),
            _ => m,
        })
        .collect()
}

pub fn caption(lang: Lang, run: &TileRun, s: &TileState) -> String {
    let Some(span) = s.current else { return tr(lang, "tiling.start") };
    let t = &run.tiling;
    let (rows, cols) = t.tile_extent(run.ti, run.tj);
    trf(
        lang,
        if t.tiled { "tiling.step.tiled" } else { "tiling.step.naive" },
        &[
            ("s", &s.step.to_string()),
            ("p", &t.steps().to_string()),
            ("s0", &(s.step - 1).to_string()),
            ("ti", &run.ti.to_string()),
            ("tj", &run.tj.to_string()),
            ("macs", &grouped(rows * cols * span.len())),
        ],
    )
}

/// The followed tile's counters so far.
pub fn counters(lang: Lang, s: &TileState) -> String {
    let ratio = if s.loads == 0 { "—".to_string() } else { format!("{:.2}", s.macs as f64 / s.loads as f64) };
    trf(lang, "tiling.counters", &[("loads", &grouped(s.loads)), ("macs", &grouped(s.macs)), ("ratio", &ratio)])
}

/// Whether two tiles fit in the shared memory (the check's class), and the
/// sentence saying so.
pub fn fit_text(lang: Lang, v: &Values) -> (bool, String) {
    let run = tile_run(v);
    let t = &run.tiling;
    let fit = t.fit(run.smem);
    let text = trf(
        lang,
        if fit.fits { "tiling.fit" } else { "tiling.fit.no" },
        &[
            ("t", &t.t.to_string()),
            ("dtype", v.choice("dtype")),
            ("bytes", &kib(fit.bytes as f64)),
            ("smem", &v.int("smem").to_string()),
            ("max", &fit.max_tile.to_string()),
        ],
    );
    (fit.fits, text)
}

/// The lecture's cases (notes §6.6, n = 256, fp32): label key (also the
/// `data-preset` id), method and tile size.
pub const LECTURE_CASES: [(&str, &str, i64); 4] = [
    ("tiling.preset.naive", "naive", 16),
    ("tiling.preset.t4", "tiled", 4),
    ("tiling.preset.t16", "tiled", 16),
    ("tiling.preset.t64", "tiled", 64),
];

/// The notes' §6.6 table beside the counter (n = 256, fp32).
pub fn lecture_rows(v: &Values) -> Vec<crate::lecture::Row> {
    let printed = [["33,554,432", "0.25"], ["8,388,608", "1"], ["2,097,152", "4"], ["524,288", "16"]];
    let cases = LECTURE_CASES.iter().map(|&(label, mode, tile)| (label, lecture_case(mode, tile)));
    crate::lecture::table(v, cases, ["global-reads", "intensity"], printed, |v| {
        use crate::sim::Steppable;
        tile_run(v).metrics(0)
    })
}

/// The values a lecture case sets (from the start, output tile (0, 0)).
pub fn lecture_case(mode: &'static str, tile: i64) -> Vec<(&'static str, Value)> {
    vec![
        ("n", Value::Int(256)),
        ("m", Value::Int(0)),
        ("k", Value::Int(0)),
        ("dtype", Value::Choice("fp32")),
        ("mode", Value::Choice(mode)),
        ("tile", Value::Int(tile)),
        ("step", Value::Int(0)),
        ("ti", Value::Int(0)),
        ("tj", Value::Int(0)),
    ]
}

/// The static snapshot (`crate::topic::snapshot`): the default tiling at
/// the default step, drawn as the panel draws it, and its key figures.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: Lang, width: f64) -> crate::topic::snapshot::Snapshot {
    use crate::sim::Steppable;
    use crate::topic::snapshot::{Above, Snapshot, Stage, View};
    let (v, _) = META.parse(&[]);
    let run = tile_run(&v);
    let step = v.int("step") as u64;
    let state = run.state_at(step);
    let cap = caption(lang, &run, &state);
    let scene = crate::draw::matmul::draw_tiling(
        &run.tiling,
        run.ti,
        run.tj,
        &state,
        &crate::scene::Theme::normal(),
        width,
        &cap,
    );
    Snapshot::View(View {
        above: Above::Nothing,
        stage: Stage::Scene(scene),
        label: cap,
        figures: readouts(&run, step),
        pending: (vec![], ""),
    })
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::sim::Steppable;

    use crate::topic::q;

    fn case(mode: &'static str, tile: i64) -> Values {
        let start = Values::defaults(&PARAMS).with("n", Value::Int(1000)).with("ti", Value::Int(7));
        META.normalize(lecture_case(mode, tile).into_iter().fold(start, |acc, (n, x)| acc.with(n, x)))
    }

    #[test]
    fn lecture_cases_give_the_lecture_table() {
        crate::topics::install_texts();
        // notes §6.6 (n = 256, fp32): naive 33,554,432 reads, intensity 0.25;
        // T = 4 → 8,388,608, 1; T = 16 → 2,097,152, 4; T = 64 → 524,288, 16.
        let expected = [(33_554_432, 0.25), (8_388_608, 1.0), (2_097_152, 4.0), (524_288, 16.0)];
        for ((id, mode, tile), (reads, ai)) in LECTURE_CASES.iter().zip(expected) {
            let t = tiling(&case(mode, *tile));
            assert_eq!((t.global_reads(), t.intensity()), (reads, ai), "{id}");
        }
        let v = case("tiled", 64);
        let run = tile_run(&v);
        assert_eq!(run.metrics(0).last().unwrap().value, 170.0, "largest T in 228 KiB");
        let shown = readouts(&run, 0);
        assert_eq!(shown.iter().map(|m| m.name).collect::<Vec<_>>(), META.metrics);
        // Traffic in decimal bytes, on-chip shared memory in KiB.
        let unit = |name: &str| shown.iter().find(|m| m.name == name).map(|m| m.unit);
        assert_eq!(unit("global-bytes"), Some(crate::sim::Unit::Bytes));
        assert_eq!(unit("smem-bytes"), Some(crate::sim::Unit::KiB));
        assert_eq!((run.ti, run.tj, run.steps()), (0, 0, 4));
    }

    #[test]
    fn matmul_deep_links() {
        let (v, n) = META.parse(&q(&[("n", "256"), ("tile", "64"), ("dtype", "fp32")]));
        assert!(n.is_empty());
        assert_eq!(tiling(&v).global_reads(), 524_288);
        assert_eq!(tiling(&v).steps(), 4);
        // The chosen output tile is kept inside the grid, with a notice.
        let (v, n) = META.parse(&q(&[("n", "256"), ("tile", "64"), ("ti", "9"), ("tj", "3")]));
        assert_eq!((v.int("ti"), v.int("tj")), (3, 3));
        assert_eq!(n.len(), 1);
        assert_eq!(META.normalize(v.with("tile", Value::Int(128))).int("ti"), 1);
    }

    #[test]
    fn captions_and_counters() {
        let v = case("tiled", 64).with("step", Value::Int(2));
        let run = tile_run(&v);
        let s = run.state_at(2);
        assert_eq!(
            caption(Lang::En, &run, &s),
            "Step 2 of 4: load A tile (0, 1) and B tile (1, 0) into shared memory, then 262,144 multiply-adds for output tile (0, 0)"
        );
        assert_eq!(caption(Lang::En, &run, &run.state_at(0)), "Step 0: nothing loaded yet");
        assert_eq!(
            counters(Lang::En, &s),
            "This output tile so far: 16,384 elements read from global memory, 524,288 multiply-adds (32.00 per element read)"
        );
        assert!(counters(Lang::En, &run.state_at(0)).contains("(— per"));
        // The edge tile of n = 100, T = 32 (the e2e case): its last phase is 4 wide.
        let (v, _) = META.parse(&q(&[("n", "100"), ("tile", "32"), ("step", "4"), ("ti", "3"), ("tj", "1")]));
        let run = tile_run(&v);
        let s = run.state_at(4);
        assert!(caption(Lang::En, &run, &s).contains("then 512 multiply-adds for output tile (3, 1)"));
        assert!(counters(Lang::En, &s).contains("3,600 elements read from global memory, 12,800 multiply-adds"));
        let naive = tile_run(&case("naive", 16));
        assert!(caption(Lang::Zh, &naive, &naive.state_at(5)).contains("A[i, 4]"));
    }

    #[test]
    fn the_shared_memory_check() {
        let (fits, text) = fit_text(Lang::En, &case("tiled", 64));
        assert!(fits);
        assert!(text.starts_with("Two 64 × 64 tiles of fp32:") && text.ends_with("in 228 KiB is 170."), "{text}");
        let (fits, text) = fit_text(Lang::En, &case("tiled", 64).with("tile", Value::Int(200)));
        assert!(!fits);
        assert!(text.contains("more than 228 KiB"), "{text}");
    }
}
