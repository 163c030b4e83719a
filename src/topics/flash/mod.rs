//! `#/flash`: its URL parameters, its registry entry, the typed conversion
//! from URL values to simulation parameters, and the panel's math: which
//! checks are known, pending or to be computed in the background, the key
//! figures with the pending ones marked, captions, check lines, the rows
//! table and the ledger's texts.

use crate::i18n::{tr, trf, Lang};
use crate::params::{ParamSpec, Values};
use crate::sim::flash::{self, Check, Flash, FlashRun, Pass, RowState, NUMERIC_MAX_N};
use crate::sim::{hw, Metric};
#[cfg(not(target_arch = "wasm32"))]
use crate::topic::snapshot::{Above, Snapshot, Stage, View};
use crate::topic::*;

pub mod ledger;
pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static PARAMS: [ParamSpec; 19] = [
    ParamSpec::int("n", 1, flash::MAX_N as i64, 256).log(),
    ParamSpec::int("d", 1, flash::MAX_D as i64, 64).log(),
    ParamSpec::int("bq", 1, flash::MAX_N as i64, 32).log(),
    ParamSpec::int("bk", 1, flash::MAX_N as i64, 32).log(),
    ParamSpec::choice("causal", &["0", "1"], "1"),
    ParamSpec::int("seed", 0, u32::MAX as i64, 1),
    ParamSpec::choice("pass", &["fwd", "bwd"], "fwd"),
    ParamSpec::position("step"),
    ParamSpec::choice("dtype", hw::ML_DTYPES, "bf16"),
    ParamSpec::int("sram", 1, 1024, 228).log(),
    ParamSpec::int("speed", 1, 1000, 4).optional(),
    crate::params::INSET_GPU_CUSTOM,
    crate::params::CUSTOM_PEAK,
    crate::params::CUSTOM_BW,
    ParamSpec::choice("blocks", &["manual", "sram"], "manual").optional(),
    ParamSpec::choice("order", &["q", "kv"], "q").optional(),
    ParamSpec::choice("std", &["fused", "kernels"], "fused").optional(),
    ParamSpec::int("heads", 1, 128, 1).optional(),
    ParamSpec::int("batch", 1, 1024, 1).optional().log(),
];

pub static META: TopicMeta = TopicMeta::new("flash", Part::Flash, &PARAMS)
    .notes(&["8.3", "8.4"], "05 · 2–3")
    .metrics(&[
        "step",
        "tiles-computed",
        "tiles-skipped",
        "max-abs-error",
        "grad-max-abs-error",
        "hbm-bytes-flash",
        "hbm-bytes-standard",
        "sram-bytes",
        "hbm-total-standard",
        "hbm-total-flash",
    ])
    .position(|v| Flash::schedule_only(flash_params(v)).steps());

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic = Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK);

/// The simulation's parameters; with `blocks=sram` the block sizes come
/// from the SRAM size (`bq`, `bk` in the URL are then unused).
pub fn flash_params(v: &Values) -> flash::Params {
    let (n, d) = (v.int("n") as usize, v.int("d") as usize);
    let elem_bytes = hw::dtype_bytes(v.choice("dtype"));
    let sram = v.int("sram") as u64 * 1024;
    let (bq, bk) = if v.choice("blocks") == "sram" {
        flash::io::blocks_from_sram(sram, elem_bytes, d, n)
    } else {
        (v.int("bq") as usize, v.int("bk") as usize)
    };
    // FlashAttention-1's order (K/V outer) computes the masked tiles too.
    let skip_masked = v.choice("order") != "kv";
    let (causal, seed) = (v.choice("causal") == "1", v.int("seed") as u64);
    flash::Params { n, d, bq, bk, causal, skip_masked, seed, elem_bytes, sram }
}

pub fn flash_pass(v: &Values) -> Pass {
    match v.choice("pass") {
        "bwd" => Pass::Bwd,
        _ => Pass::Fwd,
    }
}

/// The schedule in the chosen loop order (`order=kv`: FlashAttention-1,
/// key/value blocks outer forward), no numbers: O(1) to build, any n.
pub fn flash_schedule(v: &Values) -> Flash {
    Flash::schedule_only(flash_params(v)).with_order(ledger::order(v))
}

/// The chosen pass over the schedule (no numbers: O(1) to build, any n).
pub fn flash_run(v: &Values) -> FlashRun {
    FlashRun::new(flash_schedule(v), flash_pass(v))
}

/// The largest query or key block the sliders offer: n. A larger one from
/// the URL is kept as given (the simulation uses n), so this is the sliders'
/// range only, not a bound that rewrites the URL.
pub fn block_max(v: &Values) -> i64 {
    v.int("n").max(1)
}

/// Drawing width cap of the tile grid (CSS pixels).
pub const MAX_WIDTH: f64 = 1000.0;
/// Rows of the current query block shown in the rows table, and O's columns.
pub const ROWS_SHOWN: usize = 6;
pub const MAX_D_SHOWN: usize = 3;

// ---- The checks: cached, done at once if tiny, else in the background. ----

/// What the numbers depend on (`Params::numeric_key`).
pub type Key = (usize, usize, usize, usize, bool, u64);

/// What the panel knows of one configuration's checks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Checks {
    pub key: Key,
    /// max |O − naive|, once known.
    pub err: Option<f64>,
    /// max gradient error, once known.
    pub grad: Option<f64>,
    /// Share of the check's work done, 0 to 1.
    pub progress: f64,
}

impl Checks {
    pub fn done(key: Key, (err, grad): (f64, f64)) -> Self {
        Checks { key, err: Some(err), grad: Some(grad), progress: 1.0 }
    }
    pub fn pending(key: Key) -> Self {
        Checks { key, err: None, grad: None, progress: 0.0 }
    }
}

/// Checks this small (a few milliseconds) are done before the first paint.
pub const SYNC_OPS: u64 = 2_000_000;
/// How many finished checks are remembered.
pub const REMEMBER: usize = 32;

/// Finished checks, most recent last: coming back to a configuration
/// (another seed and back, or to the panel) shows them at once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecentChecks(Vec<(Key, f64, f64)>);

impl RecentChecks {
    pub const fn new() -> Self {
        RecentChecks(Vec::new())
    }
    /// (forward error, gradient error) of `key`, if finished.
    pub fn get(&self, key: Key) -> Option<(f64, f64)> {
        self.0.iter().find(|x| x.0 == key).map(|x| (x.1, x.2))
    }
    /// Remember a finished check (the most recent; the oldest beyond
    /// [`REMEMBER`] forgotten).
    pub fn remember(&mut self, key: Key, err: f64, grad: f64) {
        self.0.retain(|x| x.0 != key);
        if self.0.len() >= REMEMBER {
            self.0.remove(0);
        }
        self.0.push((key, err, grad));
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Should the page start a background check for `key`? Only for numbers it
/// computes (n ≤ NUMERIC_MAX_N) and does not already have.
pub fn needs_background_check(key: Key, cache: &RecentChecks) -> bool {
    key.0 <= NUMERIC_MAX_N && cache.get(key).is_none()
}

/// The checks of `f` as the panel shows them now: `None` above
/// NUMERIC_MAX_N; else remembered, or computed at once if tiny (and
/// remembered), or what the background check `live` has published for this
/// configuration, or pending at 0 %.
pub fn current_checks(f: &Flash, cache: &mut RecentChecks, live: Option<Checks>) -> Option<Checks> {
    let key = f.p.numeric_key();
    if f.p.n > NUMERIC_MAX_N {
        return None;
    }
    if let Some(r) = cache.get(key) {
        return Some(Checks::done(key, r));
    }
    if let Some(mut job) = Check::new(f).filter(|j| j.total_ops() <= SYNC_OPS) {
        while !job.run(u64::MAX) {}
        let r = (job.err().unwrap_or(f64::NAN), job.grad_err().unwrap_or(f64::NAN));
        cache.remember(key, r.0, r.1);
        return Some(Checks::done(key, r));
    }
    Some(live.filter(|c| c.key == key).unwrap_or(Checks::pending(key)))
}

/// Should a background check publish now? When done, when the forward error
/// has just become known, or when the last published progress is
/// `every_ms` old (`published`: whether the error was known then, and when).
pub fn should_publish(done: bool, err_known: bool, published: (bool, f64), now_ms: f64, every_ms: f64) -> bool {
    done || err_known != published.0 || now_ms - published.1 >= every_ms
}

/// The key figures in display order (the checks after the tile counts), and
/// the names of those still being computed: these are in the list with a
/// placeholder value, for the readouts to show as "checking…".
pub fn readout_metrics(f: &Flash, v: &Values, step: u64, checks: Option<&Checks>) -> (Vec<Metric>, Vec<&'static str>) {
    let pass = flash_pass(v);
    let (std_b, fl_b) = ledger::pass_bytes(f, pass, v);
    let mut metrics: Vec<Metric> = f
        .metrics(pass, step)
        .into_iter()
        .map(|m| match m.name {
            "hbm-bytes-flash" => Metric::bytes(m.name, fl_b),
            "hbm-bytes-standard" => Metric::bytes(m.name, std_b),
            _ => m,
        })
        .collect();
    let (std_t, fl_t) = ledger::totals(f, v);
    metrics.extend([Metric::bytes("hbm-total-standard", std_t), Metric::bytes("hbm-total-flash", fl_t)]);
    let mut pending = Vec::new();
    if let Some(c) = checks {
        let at = metrics.len().min(3);
        for (name, value) in [("grad-max-abs-error", c.grad), ("max-abs-error", c.err)] {
            if value.is_none() {
                pending.insert(0, name);
            }
            metrics.insert(at, Metric::real(name, value.unwrap_or(f64::NAN)));
        }
    }
    (metrics, pending)
}

/// A small error in scientific notation (0 as "0").
pub fn sci(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else {
        format!("{v:.2e}")
    }
}

/// What step `step` of the pass does.
/// The grid's legend (drawn under it, in the scene): done, this step, to do,
/// skipped, as `draw::flash::colors` orders them.
pub fn legend(lang: Lang) -> [String; 4] {
    ["flash.legend.done", "flash.legend.current", "flash.legend.pending", "flash.legend.skipped"].map(|k| tr(lang, k))
}

pub fn caption(lang: Lang, f: &Flash, pass: Pass, step: u64) -> String {
    match f.tile_at(pass, step) {
        None => tr(lang, "flash.start"),
        Some((i, j)) => trf(
            lang,
            match pass {
                Pass::Bwd => "flash.current.bwd",
                Pass::Fwd if f.kv_outer(pass) => "flash.current.fwd-kv",
                Pass::Fwd => "flash.current.fwd",
            },
            &[("t", &step.to_string()), ("i", &i.to_string()), ("j", &j.to_string())],
        ),
    }
}

/// "checking… (37 %)".
pub fn checking_text(lang: Lang, progress: f64) -> String {
    trf(lang, "flash.checking.progress", &[("p", &format!("{:.0}", progress * 100.0))])
}

/// How a check line reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Ok,
    Bad,
    Checking,
}

/// One line under the readouts: `data-testid`, text and verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckLine {
    pub id: &'static str,
    pub text: String,
    pub verdict: Verdict,
}

/// The forward and backward check lines: exact below 10⁻¹⁰ (forward) and
/// 10⁻⁹ (gradients); their progress while being computed.
pub fn check_lines(lang: Lang, c: &Checks) -> [CheckLine; 2] {
    let line = |id, key, value: Option<f64>, ok_below: f64| match value {
        Some(e) => CheckLine {
            id,
            text: trf(lang, key, &[("e", &sci(e))]),
            verdict: if e < ok_below { Verdict::Ok } else { Verdict::Bad },
        },
        None => CheckLine {
            id,
            text: trf(lang, key, &[("e", &checking_text(lang, c.progress))]),
            verdict: Verdict::Checking,
        },
    };
    [line("check-fwd", "flash.check.fwd", c.err, 1e-10), line("check-bwd", "flash.check.bwd", c.grad, 1e-9)]
}

/// The query block whose rows the table shows: the current tile's, forward,
/// where the numbers are computed.
pub fn trace_block(pass: Pass, tile: Option<(usize, usize)>, numeric: bool) -> Option<usize> {
    match (pass, tile) {
        (Pass::Fwd, Some((i, _))) if numeric => Some(i),
        _ => None,
    }
}

/// One row of the rows table, formatted.
#[derive(Clone, Debug, PartialEq)]
pub struct RowLine {
    /// The query row (global index).
    pub row: usize,
    pub m: String,
    pub l: String,
    pub rescale: String,
    /// The last tile raised this row's maximum (its O and ℓ were rescaled).
    pub hot: bool,
    /// O's first columns divided by ℓ.
    pub o: String,
}

/// The rows table of query block `i` after its key block `j`, from that
/// step's state (`Flash::row_trace` with [`ROWS_SHOWN`], [`MAX_D_SHOWN`]).
pub fn row_lines(f: &Flash, i: usize, j: usize, st: &RowState) -> Vec<RowLine> {
    let cols = f.p.d.min(MAX_D_SHOWN);
    (0..st.m.len())
        .map(|r| RowLine {
            row: i * f.p.bq + r,
            m: crate::format::stat5(st.m[r]),
            l: crate::format::stat5(st.l[r]),
            rescale: crate::format::stat5(st.rescale[r]),
            hot: st.rescale[r] < 1.0 && j > 0,
            o: (0..cols).map(|x| crate::format::stat5(st.o[r * cols + x] / st.l[r])).collect::<Vec<_>>().join(", "),
        })
        .collect()
}

/// "{x}× less traffic" (standard over flash bytes, one decimal), or, when
/// flash moves more (small blocks re-read K and V for every query block),
/// "{x}× more traffic": a ratio below 1 is never worded as "less".
pub fn saving(lang: Lang, standard: u64, flash: u64) -> String {
    let (s, f) = (standard as f64, flash.max(1) as f64);
    if f > s {
        trf(lang, "flash.ledger.more", &[("x", &format!("{:.1}", f / s.max(1.0)))])
    } else {
        trf(lang, "flash.ledger.saving", &[("x", &format!("{:.1}", s / f))])
    }
}

/// The SRAM line: working set of one thread block against what it has.
pub fn sram_line(lang: Lang, f: &Flash) -> String {
    trf(
        lang,
        "flash.sram",
        &[("used", &crate::format::kib(f.sram_bytes() as f64)), ("have", &crate::format::kib(f.p.sram as f64))],
    )
}

/// The verdict beside the SRAM line: fits; or, with blocks from the SRAM
/// size that fit as the paper counts M, "not in fp32 bytes" (pointing to
/// the paper's count) rather than advice to shrink the paper's own blocks.
pub fn sram_verdict(f: &Flash, blocks_from_sram: bool) -> &'static str {
    let m = crate::sim::flash::io::sram_elements(f.p.sram, f.p.elem_bytes);
    if f.fits_sram() {
        "flash.sram.fits"
    } else if blocks_from_sram && f.sram_elements_paper() <= m {
        "flash.sram.too-big.fp32"
    } else {
        "flash.sram.too-big"
    }
}

/// Where the blocks come from the SRAM size (the paper's Algorithm 1): the
/// working set counted as the paper counts M, in elements, beside the bytes
/// line (which keeps S and the O accumulator in fp32, as a kernel does).
pub fn sram_paper_line(lang: Lang, f: &Flash) -> String {
    let m = crate::sim::flash::io::sram_elements(f.p.sram, f.p.elem_bytes);
    let used = f.sram_elements_paper();
    trf(
        lang,
        "flash.sram.paper",
        &[
            ("used", &crate::format::grouped(used)),
            ("m", &crate::format::grouped(m)),
            ("e", &f.p.elem_bytes.to_string()),
            ("verdict", &tr(lang, if used <= m { "flash.sram.fits" } else { "flash.sram.too-big.short" })),
        ],
    )
}

/// The static snapshot (`crate::topic::snapshot`): the default view's
/// tiles and its key figures; the checks' errors pending, as the panel shows
/// them while its check runs (rounding errors: the browser's maths gives
/// other last bits than the build's, see `snapshot::View::pending`).
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: Lang, width: f64) -> Snapshot {
    let (v, _) = META.parse(&[]);
    let (params, pass) = (flash_params(&v), flash_pass(&v));
    let run = FlashRun::new(Flash::schedule_only(params).with_order(ledger::order(&v)), pass);
    let step = v.int("step") as u64;
    let cap = caption(lang, &run.flash, pass, step);
    let legend = legend(lang);
    let legend = legend.each_ref().map(|l| l.as_str());
    let scene = crate::draw::flash::draw(
        &run.flash,
        pass,
        step,
        &crate::scene::Theme::normal(),
        width.min(MAX_WIDTH),
        &cap,
        &legend,
    );
    let running = (run.flash.p.n <= NUMERIC_MAX_N).then(|| Checks {
        key: run.flash.p.numeric_key(),
        err: None,
        grad: None,
        progress: 0.0,
    });
    let (figures, pending) = readout_metrics(&run.flash, &v, step, running.as_ref());
    Snapshot::View(View {
        above: Above::Title(tr(lang, "flash.grid")),
        stage: Stage::Scene(scene),
        label: cap,
        figures,
        pending: (pending, "flash.checking"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Value;
    use crate::sim::Steppable;

    use crate::topic::q;

    /// The lecture link of the browser tests.
    fn lecture() -> Values {
        let (v, notices) = META.parse(&q(&[
            ("n", "256"),
            ("d", "64"),
            ("bq", "32"),
            ("bk", "32"),
            ("causal", "1"),
            ("seed", "1"),
            ("pass", "fwd"),
            ("step", "20"),
            ("dtype", "bf16"),
            ("sram", "228"),
        ]));
        assert!(notices.is_empty(), "{notices:?}");
        v
    }

    /// Issue 32: slide 49's view (`order=kv`, FlashAttention-1) steps K/V
    /// blocks outer, as its note says ("blocks of K and V are copied into
    /// SRAM, blocks of Q stream through"), and its caption says so.
    #[test]
    fn slide_49_steps_key_value_blocks_outer() {
        crate::topics::install_texts();
        let view = crate::lecture_deck::VIEWS.iter().find(|x| x.id == "s49").unwrap();
        let (v, notices) = META.parse(&crate::lecture_deck::query_pairs(view.url));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(v.choice("order"), "kv");
        let run = flash_run(&v);
        let f = &run.flash;
        // FlashAttention-1 computes the masked tiles too: 8 × 8, none skipped.
        assert_eq!((f.tiles_computed(), f.tiles_skipped()), (64, 0));
        assert_eq!(
            [run.state_at(1).tile, run.state_at(2).tile, run.state_at(9).tile],
            [Some((0, 0)), Some((1, 0)), Some((0, 1))]
        );
        assert_eq!(
            caption(Lang::En, f, Pass::Fwd, 2),
            "Step 2: key block 0 × query block 1: Kⱼ, Vⱼ stay in SRAM; Qᵢ, Oᵢ, ℓᵢ, mᵢ are read from HBM, updated and written back"
        );
        assert!(caption(Lang::Zh, f, Pass::Fwd, 2).starts_with("第 2 步：key 块 0 × query 块 1"));
        // The view's step 20: key block 2 (16 tiles before it), query block 3.
        assert_eq!(run.state_at(20).tile, Some((3, 2)));
        assert_eq!(run.state_at(3).tile, Some((2, 0)));
        // Before the fix, `order=kv` kept query blocks outer: step 2 was query
        // block 0 × key block 1 (nothing skipped). Without `order`,
        // FlashAttention-2: query blocks outer, the masked tiles skipped.
        let fa2 = flash_run(&lecture());
        assert_eq!([fa2.state_at(2).tile, fa2.state_at(3).tile], [Some((1, 0)), Some((1, 1))]);
        assert!(caption(Lang::En, &fa2.flash, Pass::Fwd, 3).starts_with("Step 3: query block 1 × key block 1"));
    }

    /// Issue 32: projected at 1024 × 768, the deck's FlashAttention views
    /// drew their legend (HTML under the canvas) at y 747–832, off the
    /// screen or touching its edge. Drawn in the scene it is part of what
    /// the page fits to the screen: in the canvas's column (about 570 px
    /// wide) and the height left under the deck's bar and the grid's title
    /// (about 474 px at 248 px down), each view's grid, caption and legend
    /// fit at 18 px once narrowed as the page does (ui::kit::panel::fit:
    /// scaled to the height left, not under 420 px), in both languages.
    #[test]
    fn the_decks_views_draw_their_legend_in_the_height_left_projected() {
        crate::topics::install_texts();
        let th = crate::scene::Theme::present();
        let views: Vec<_> = crate::lecture_deck::VIEWS.iter().filter(|x| x.url.starts_with("/flash?")).collect();
        assert_eq!(views.len(), 4);
        for view in views {
            let (v, notices) = META.parse(&crate::lecture_deck::query_pairs(view.url));
            assert!(notices.is_empty(), "{notices:?}");
            let run = flash_run(&v);
            let (f, pass, step) = (&run.flash, flash_pass(&v), v.int("step") as u64);
            for lang in [Lang::En, Lang::Zh] {
                let words = legend(lang);
                let words = words.each_ref().map(|w| w.as_str());
                let cap = caption(lang, f, pass, step);
                let (column, left) = (570.0, 474.0);
                let mut width: f64 = column;
                let mut s = crate::draw::flash::draw(f, pass, step, &th, width, &cap, &words);
                for _ in 0..6 {
                    if s.height <= left + 2.0 || width <= 421.0 {
                        break;
                    }
                    width = (width * left / s.height).floor().max(420.0);
                    s = crate::draw::flash::draw(f, pass, step, &th, width, &cap, &words);
                }
                assert!(s.height <= left + 2.0, "{} ({lang:?}): {} tall at {width}", view.id, s.height);
                assert!(s.smallest_text(0.0).unwrap() >= 18.0, "{}: {:?}", view.id, s.smallest_text(0.0));
                let texts = s.texts();
                let shown = if f.tiles_skipped() > 0 { 4 } else { 3 };
                for w in &words[..shown] {
                    assert!(texts.contains(w), "{} ({lang:?}): no {w} in {texts:?}", view.id);
                }
            }
        }
    }

    #[test]
    fn lecture_deep_link_gives_the_lecture_figures() {
        crate::topics::install_texts();
        let v = lecture();
        let run = flash_run(&v);
        let f = &run.flash;
        assert_eq!((f.tiles_computed(), f.tiles_skipped()), (36, 28));
        assert_eq!(f.sram_bytes(), 32 * 64 * 2 + 2 * 32 * 64 * 2 + 32 * 32 * 4 + 32 * 64 * 4 + 2 * 32 * 4);
        assert!(f.hbm_bytes_flash(Pass::Fwd) < f.hbm_bytes_standard(Pass::Fwd));
        assert!(sram_line(Lang::En, f).starts_with("SRAM working set") && f.fits_sram());
        // Step 20 forward: query block 5 (15 tiles before it), its fifth key block.
        assert_eq!(run.state_at(20).tile, Some((5, 4)));
        assert_eq!(
            caption(Lang::En, f, Pass::Fwd, 20),
            "Step 20: query block 5 × key block 4: S = QᵢKⱼᵀ/√d in SRAM, update m, ℓ, O"
        );
        assert_eq!(caption(Lang::En, f, Pass::Fwd, 0), "Step 0: no tile computed yet");
        assert!(caption(Lang::Zh, f, Pass::Bwd, 1).starts_with("第 1 步：key 块 0 × query 块 0"));
        // Exact to 10⁻¹⁴ (forward) and 10⁻¹³ (gradients), as the notes say.
        let num = Flash::new(flash_params(&v)).numeric.unwrap();
        let mut cache = RecentChecks::new();
        cache.remember(f.p.numeric_key(), num.err, num.grad_err);
        let c = current_checks(f, &mut cache, None).unwrap();
        assert!(c.err.unwrap() < 1e-14 && c.grad.unwrap() < 1e-13, "{c:?}");
        let [fwd, bwd] = check_lines(Lang::En, &c);
        assert_eq!((fwd.id, fwd.verdict, bwd.id, bwd.verdict), ("check-fwd", Verdict::Ok, "check-bwd", Verdict::Ok));
        // Large n: no numbers, no check metrics; the schedule is exact anyway.
        let big =
            META.normalize(v.with("n", Value::Int(65536)).with("bq", Value::Int(128)).with("bk", Value::Int(128)));
        let f = Flash::schedule_only(flash_params(&big));
        assert_eq!(f.tiles_skipped(), 512 * 511 / 2);
        assert_eq!(current_checks(&f, &mut cache, None), None);
        let (m, pending) = readout_metrics(&f, &big, 3, None);
        assert!(pending.is_empty() && !m.iter().any(|m| m.name == "max-abs-error"));
    }

    #[test]
    fn the_inset_takes_a_custom_machine() {
        let (v, notices) = META.parse(&q(&[("gpu", "custom"), ("peak", "5.5"), ("bw", "215")]));
        assert!(notices.is_empty(), "{notices:?}");
        let m = crate::params::machine(&v);
        assert_eq!((m.code, m.peak_tflops("bf16"), m.hbm_tbps), ("custom", 5.5, 0.215));
        // A panel whose model needs more than peak and bandwidth (waves: the SMs) does not offer it.
        let (_, notices) = crate::topics::waves::META.parse(&q(&[("gpu", "custom")]));
        assert_eq!(notices.len(), 1);
    }

    #[test]
    fn blocks_that_do_not_divide_n() {
        let (v, notices) = META.parse(&q(&[("n", "100"), ("d", "8"), ("bq", "24"), ("bk", "16"), ("causal", "0")]));
        assert!(notices.is_empty());
        let f = flash_run(&v).flash;
        assert_eq!(f.tiles_computed(), 5 * 7);
        // A block larger than n stays in the URL as given; the run uses n.
        let (v, notices) = META.parse(&q(&[("n", "16"), ("bq", "64")]));
        assert!(notices.is_empty());
        assert_eq!((v.int("bq"), block_max(&v), flash_run(&v).flash.p.bq), (64, 16, 16));
    }

    #[test]
    fn the_readouts_keep_their_order_and_mark_what_is_pending() {
        crate::topics::install_texts();
        let v = lecture();
        let f = Flash::schedule_only(flash_params(&v));
        let key = f.p.numeric_key();
        let names = |m: &[Metric]| m.iter().map(|m| m.name).collect::<Vec<_>>();
        // Every metric of the registry, in its order, whatever the checks' state.
        for c in [
            Checks::pending(key),
            Checks { key, err: Some(1e-17), grad: None, progress: 0.5 },
            Checks::done(key, (1e-17, 2e-16)),
        ] {
            let (m, pending) = readout_metrics(&f, &v, 20, Some(&c));
            assert_eq!(names(&m), META.metrics);
            let expected: Vec<&str> = [("max-abs-error", c.err), ("grad-max-abs-error", c.grad)]
                .into_iter()
                .filter(|(_, x)| x.is_none())
                .map(|(n, _)| n)
                .collect();
            assert_eq!(pending, expected);
            if let Some(e) = c.err {
                assert_eq!(m[3].value, e);
            }
        }
        // Pending lines say how far the check has got, in both languages.
        let c = Checks { key, err: Some(0.0), grad: None, progress: 0.374 };
        let [fwd, bwd] = check_lines(Lang::En, &c);
        assert_eq!(fwd.text, "Forward: max |O − naive attention| = 0");
        assert_eq!(bwd.verdict, Verdict::Checking);
        assert_eq!(bwd.text, "Backward: max |gradient − direct gradient| over dQ, dK, dV = checking… (37 %)");
        assert!(check_lines(Lang::Zh, &c)[1].text.ends_with("校验中…（37 %）"));
        assert_eq!(tr(Lang::Zh, "flash.checking"), "校验中…");
        let bad = Checks::done(key, (1e-3, 1e-10));
        assert_eq!(check_lines(Lang::En, &bad).map(|l| l.verdict), [Verdict::Bad, Verdict::Ok]);
    }

    #[test]
    fn checks_are_remembered_done_at_once_when_tiny_and_otherwise_left_to_the_background() {
        let mut cache = RecentChecks::new();
        // Tiny: computed before the first paint and remembered; nothing to run later.
        let tiny = Flash::schedule_only(flash::Params { n: 40, d: 8, ..flash_params(&lecture()) });
        let c = current_checks(&tiny, &mut cache, None).unwrap();
        assert_eq!(c.progress, 1.0);
        assert!(!needs_background_check(tiny.p.numeric_key(), &cache));
        // Large enough to run in slices: pending until the background publishes.
        let f = Flash::schedule_only(flash_params(&lecture()));
        let key = f.p.numeric_key();
        assert!(Check::new(&f).unwrap().total_ops() > SYNC_OPS);
        assert!(needs_background_check(key, &cache));
        assert_eq!(current_checks(&f, &mut cache, None), Some(Checks::pending(key)));
        let other = Checks { key: (1, 1, 1, 1, false, 0), err: Some(0.0), grad: None, progress: 0.5 };
        assert_eq!(current_checks(&f, &mut cache, Some(other)), Some(Checks::pending(key)), "another run's news");
        let half = Checks { key, err: Some(1e-17), grad: None, progress: 0.6 };
        assert_eq!(current_checks(&f, &mut cache, Some(half)), Some(half));
        cache.remember(key, 1e-17, 1e-16);
        assert_eq!(current_checks(&f, &mut cache, Some(half)), Some(Checks::done(key, (1e-17, 1e-16))));
        // The dtype and the SRAM size do not change the numbers: the same key.
        let fp32 = lecture().with("dtype", Value::Choice("fp32")).with("sram", Value::Int(100));
        assert_eq!(flash_params(&fp32).numeric_key(), key);
        // Only the most recent REMEMBER are kept; remembering again makes a key recent.
        for s in 0..REMEMBER as u64 + 5 {
            cache.remember((1, 1, 1, 1, false, s), 0.0, 0.0);
            cache.remember(key, 1e-17, 1e-16);
        }
        assert_eq!(cache.len(), REMEMBER);
        assert!(cache.get(key).is_some() && cache.get((1, 1, 1, 1, false, 0)).is_none());
        assert!(!needs_background_check((2048, 1, 1, 1, false, 0), &RecentChecks::new()), "no numbers above 1024");
    }

    #[test]
    fn publishing_is_throttled_but_news_goes_out_at_once() {
        let every = 250.0;
        assert!(should_publish(false, false, (false, f64::NEG_INFINITY), 0.0, every), "the first slice");
        assert!(!should_publish(false, false, (false, 100.0), 200.0, every));
        assert!(should_publish(false, false, (false, 100.0), 350.0, every));
        assert!(should_publish(false, true, (false, 100.0), 101.0, every), "the forward error is known");
        assert!(should_publish(true, true, (true, 100.0), 101.0, every), "done");
    }

    #[test]
    fn the_rows_table_is_the_current_blocks_rows_after_this_tile() {
        crate::topics::install_texts();
        let v = lecture();
        let f = Flash::schedule_only(flash_params(&v));
        assert_eq!(trace_block(Pass::Fwd, Some((5, 2)), true), Some(5));
        assert_eq!(trace_block(Pass::Fwd, Some((5, 2)), false), None);
        assert_eq!(trace_block(Pass::Bwd, Some((5, 2)), true), None);
        assert_eq!(trace_block(Pass::Fwd, None, true), None);
        let trace = f.row_trace(5, ROWS_SHOWN, MAX_D_SHOWN);
        let lines = row_lines(&f, 5, 4, &trace[4]);
        assert_eq!(lines.len(), 6);
        assert_eq!(lines.iter().map(|l| l.row).collect::<Vec<_>>(), (160..166).collect::<Vec<_>>());
        assert!(lines.iter().all(|l| l.o.split(", ").count() == 3));
        // The first tile never rescales.
        assert!(row_lines(&f, 5, 0, &trace[0]).iter().all(|l| !l.hot && l.rescale == "0.00000"));
        assert_eq!(crate::format::stat5(f64::NEG_INFINITY), "−∞");
        assert_eq!(sci(0.0), "0");
        assert_eq!(sci(2.5e-16), "2.50e-16");
        assert_eq!(saving(Lang::En, 1000, 300), "3.3× less traffic");
        assert_eq!(saving(Lang::En, 1000, 0), "1000.0× less traffic");
        // 1.03 MB against 885 kB is more traffic, not "0.9× less".
        assert!(saving(Lang::En, 885_000, 1_030_000).starts_with("1.2× more traffic"));
        assert!(saving(Lang::Zh, 885_000, 1_030_000).contains("1.2 倍"));
    }
}
