//! `#/flash`: its URL parameters, its registry entry, the typed conversion
//! from URL values to simulation parameters, and the panel's math: which
//! checks are known, pending or to be computed in the background, the key
//! figures with the pending ones marked, captions, check lines, the rows
//! table and the ledger's texts.

use crate::i18n::{tr, trf, Lang};
use crate::params::{ParamSpec, Values};
use crate::sim::flash::{self, Check, Flash, FlashRun, Pass, RowState, NUMERIC_MAX_N};
use crate::sim::{hw, Metric};
use crate::topic::*;

pub mod ledger;
pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static FLASH_PARAMS: [ParamSpec; 19] = [
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

pub static FLASH: TopicMeta = TopicMeta {
    id: "flash",
    sections: &["8.3", "8.4"],
    demo: "05 · 2–3",
    part: Part::Flash,
    params: &FLASH_PARAMS,
    metrics: &[
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
    ],
    position_max: Some(|v| Flash::schedule_only(flash_params(v)).steps()),
    bounds: None,
};

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
    if v.choice("pass") == "bwd" {
        Pass::Bwd
    } else {
        Pass::Fwd
    }
}

/// The chosen pass over the schedule (no numbers: O(1) to build, any n).
pub fn flash_run(v: &Values) -> FlashRun {
    FlashRun::new(Flash::schedule_only(flash_params(v)), flash_pass(v))
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
pub fn caption(lang: Lang, f: &Flash, pass: Pass, step: u64) -> String {
    match f.tile_at(pass, step) {
        None => tr(lang, "flash.start"),
        Some((i, j)) => trf(
            lang,
            if pass == Pass::Fwd { "flash.current.fwd" } else { "flash.current.bwd" },
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

/// Everything this route owns (the registry lists it).
pub static TOPIC: Topic = Topic::new(&FLASH, STRINGS, &practice::BANK);

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("metric.flash.max-abs-error", "Max |O − naive|", "最大 |O − 朴素|"),
    ("metric.flash.max-abs-error.doc", "Flash output against naive attention (n ≤ 1024)", "Flash 输出与朴素注意力之差（n ≤ 1024）"),
    ("topic.flash.title", "FlashAttention, forward and backward", "FlashAttention 前向与反向"),
    ("topic.flash.summary", "Tiling, online softmax, fusion and recomputation: the n × n matrices S and P never reach HBM, and the result is exact.", "分块、在线 softmax、融合与重计算：n × n 的 S 和 P 从不写回显存，结果是精确的。"),
    ("param.bq", "Query block bq", "query 块大小 bq"),
    ("param.bk", "Key block bk", "key 块大小 bk"),
    ("param.causal", "Mask", "掩码"),
    ("param.pass", "Pass", "阶段"),
    ("param.sram", "SRAM per thread block (KiB)", "每线程块 SRAM（KiB）"),
    ("param.sram.doc", "Shared memory one thread block may use, in KiB (1024 B; NVIDIA's “KB”); H100: 228 KiB per SM", "一个线程块可用的共享内存，单位 KiB（1024 字节，即 NVIDIA 所说的“KB”）；H100 每 SM 228 KiB"),
    ("choice.causal.0", "None", "无"),
    ("choice.causal.1", "Causal", "因果"),
    ("choice.pass.fwd", "Forward", "前向"),
    ("choice.pass.bwd", "Backward", "反向"),
    ("flash.grid", "Tiles of S: query blocks i (rows) × key blocks j (columns)", "S 的分块：query 块 i（行）× key 块 j（列）"),
    ("flash.legend.done", "computed", "已计算"),
    ("flash.legend.current", "this step", "本步"),
    ("flash.legend.pending", "to do", "待计算"),
    ("flash.legend.skipped", "skipped (causal mask)", "跳过（因果掩码）"),
    ("flash.start", "Step 0: no tile computed yet", "第 0 步：尚未计算任何分块"),
    ("flash.current.fwd", "Step {t}: query block {i} × key block {j}: S = QᵢKⱼᵀ/√d in SRAM, update m, ℓ, O", "第 {t} 步：query 块 {i} × key 块 {j}：在 SRAM 中算 S = QᵢKⱼᵀ/√d，更新 m、ℓ、O"),
    ("flash.current.bwd", "Step {t}: key block {j} × query block {i}: recompute P = e^(S − L), add to dVⱼ, dKⱼ and dQᵢ", "第 {t} 步：key 块 {j} × query 块 {i}：重算 P = e^(S − L)，累加到 dVⱼ、dKⱼ 和 dQᵢ"),
    ("flash.rows", "Query block {i}, first rows, after this tile", "query 块 {i} 的前几行（本分块之后）"),
    ("flash.row", "Row", "行"),
    ("flash.final", "At the end: O = O / ℓ, L = m + log ℓ (kept for the backward pass)", "最后：O = O / ℓ，L = m + log ℓ（留给反向）"),
    ("flash.bwd-note", "D = rowsum(dO ∘ O) is computed once per row; P is recomputed from L tile by tile, never stored.", "D = rowsum(dO ∘ O) 每行只算一次；P 由 L 逐块重算，从不存储。"),
    ("flash.ledger", "HBM traffic of this pass", "本阶段的显存（HBM）流量"),
    ("flash.ledger.standard", "Standard attention", "标准注意力"),
    ("flash.ledger.flash", "FlashAttention", "FlashAttention"),
    ("flash.ledger.saving", "{x}× less traffic", "流量减少为 1/{x}"),
    ("flash.ledger.more", "{x}× more traffic than standard: with these blocks, re-reading K and V for every query block costs more than S and P would", "流量是标准实现的 {x} 倍：在这种分块下，每个 query 块都重读 K、V，比写读 S 和 P 还多"),
    ("flash.sram", "SRAM working set (Qᵢ, Kⱼ, Vⱼ, the S tile, Oᵢ, m, ℓ): {used} of {have}", "SRAM 工作集（Qᵢ、Kⱼ、Vⱼ、S 分块、Oᵢ、m、ℓ）：{used} / {have}"),
    ("flash.sram.fits", "fits", "放得下"),
    ("flash.sram.too-big", "does not fit: use smaller blocks", "放不下：请用更小的块"),
    ("flash.sram.too-big.short", "does not fit", "放不下"),
    ("flash.sram.too-big.fp32", "does not fit with S and the accumulator in fp32; as the paper counts M it fits (below)", "S 和累加器用 fp32 时放不下；按论文计算 M 的方式放得下（见下）"),
    ("flash.sram.paper", "Counted as the paper's Algorithm 1 counts its SRAM size M, every value one element of {e} B (scores and accumulator too): {used} of M = {m} elements, {verdict}. The line above counts bytes with S and the O accumulator in fp32, as a kernel keeps them; the paper's block sizes (Bc = ⌈M/4d⌉) assume the first count. Either way the HBM traffic beside the paper's (✓) is the same: it depends on the blocks, not on where they fit.", "按论文算法 1 计算 SRAM 大小 M 的方式（每个值都算一个 {e} 字节的元素，分数和累加器也一样）：{used} / M = {m} 个元素，{verdict}。上一行按字节计算，S 和 O 的累加器用 fp32，与 kernel 实际保存的一样；论文的块大小（Bc = ⌈M/4d⌉）依据的是前一种算法。无论哪种，与论文对照（✓）的显存流量都不变：流量取决于块的大小，与放不放得下无关。"),
    ("flash.recompute", "Recomputation: {flops} FLOPs to rebuild S and P, instead of storing P ({bytes})", "重计算：用 {flops} 次浮点运算重建 S 和 P，代替存储 P（{bytes}）"),
    ("flash.check.fwd", "Forward: max |O − naive attention| = {e}", "前向：max |O − 朴素注意力| = {e}"),
    ("flash.check.bwd", "Backward: max |gradient − direct gradient| over dQ, dK, dV = {e}", "反向：dQ、dK、dV 与直接求导的最大差 = {e}"),
    ("flash.checking", "checking…", "校验中…"),
    ("flash.checking.progress", "checking… ({p} %)", "校验中…（{p} %）"),
    ("flash.check.large", "Values and checks are computed for n ≤ {max}; the tiles and the ledger are exact for any n.", "数值与校验只对 n ≤ {max} 计算；分块与流量账对任意 n 都精确。"),
    ("flash.explain", "Each query block is one thread block on the GPU; its Qᵢ, the current Kⱼ and Vⱼ, the score tile and the running O, m and ℓ stay in SRAM. Whenever a new tile raises a row's maximum, the old ℓ and O are rescaled by e^(m − m′), exactly as in online softmax. Nothing n × n is ever written to HBM. The backward pass recomputes P from the saved logsumexp L instead of reading a stored P: more FLOPs, far fewer bytes, and attention is memory-bound.", "每个 query 块对应 GPU 上的一个线程块；它的 Qᵢ、当前的 Kⱼ 和 Vⱼ、分数块以及运行中的 O、m、ℓ 都留在 SRAM 里。新分块使某行最大值变大时，旧的 ℓ 和 O 乘以 e^(m − m′) 换基准，与在线 softmax 完全相同。任何 n × n 的东西都不写回显存。反向时由保存的 logsumexp L 重算 P，而不是读取存下来的 P：计算多一些，字节少得多——而注意力是内存受限的。"),
    ("flash.lecture", "Lecture check (notes §8.3–8.4): FlashAttention is exact: forward differences from standard attention of order 10⁻¹⁶, gradients of order 10⁻¹⁵ (float64 here, as in the demos).", "讲义对照（§8.3–8.4）：FlashAttention 是精确计算：前向与标准注意力的差在 10⁻¹⁶ 量级，梯度差在 10⁻¹⁵ 量级（这里与演示一样用 float64）。"),
    ("metric.tiles-computed", "Tiles computed", "计算的分块数"),
    ("metric.tiles-skipped", "Tiles skipped", "跳过的分块数"),
    ("metric.grad-max-abs-error", "Max gradient error", "最大梯度误差"),
    ("metric.grad-max-abs-error.doc", "Flash gradients against gradients computed directly from the full P", "Flash 梯度与由完整 P 直接求得的梯度之差"),
    ("metric.hbm-bytes-flash", "HBM bytes, flash", "显存流量（flash）"),
    ("metric.hbm-bytes-standard", "HBM bytes, standard", "显存流量（标准）"),
    ("metric.sram-bytes", "SRAM working set", "SRAM 工作集"),
    ("param.flash.n", "Sequence length n", "序列长度 n"),
    ("param.blocks", "Block sizes", "分块大小"),
    ("param.blocks.doc", "By hand (bq, bk), or from the SRAM size as the FlashAttention paper: Bc = ⌈M/4d⌉, Br = min(Bc, d)", "手动（bq、bk），或像 FlashAttention 论文那样由 SRAM 大小决定：Bc = ⌈M/4d⌉，Br = min(Bc, d)"),
    ("choice.blocks.manual", "By hand", "手动"),
    ("choice.blocks.sram", "From SRAM", "由 SRAM 决定"),
    ("param.order", "Loop order", "循环顺序"),
    ("param.order.doc", "FlashAttention-2: query blocks outer; FlashAttention-1: key/value blocks outer", "FlashAttention-2：query 块在外层；FlashAttention-1：key/value 块在外层"),
    ("choice.order.q", "Q outer (FA-2)", "Q 在外层（FA-2）"),
    ("choice.order.kv", "K/V outer (FA-1)", "K/V 在外层（FA-1）"),
    ("param.std", "Standard attention", "标准注意力"),
    ("param.std.doc", "How the standard implementation is split into kernels, each reading and writing its n × n matrix in HBM", "标准实现拆成几个 kernel，每个都在显存中读写自己的 n × n 矩阵"),
    ("choice.std.fused", "S, P only", "只有 S、P"),
    ("choice.std.kernels", "Separate kernels", "分开的 kernel"),
    ("param.heads", "Heads", "头数"),
    ("param.flash.batch", "Batch", "批大小"),
    ("flash.blocks.sram", "Blocks from SRAM (FlashAttention paper, Algorithm 1): M = {m} elements, Bc = ⌈M/4d⌉ = {bc}, Br = min(Bc, d) = {br}. The paper counts every tile in M's elements (Kⱼ and Vⱼ take M/2); the SRAM check below keeps S, O, m, ℓ in fp32, so it may find these blocks too big.", "由 SRAM 决定分块（FlashAttention 论文算法 1）：M = {m} 个元素，Bc = ⌈M/4d⌉ = {bc}，Br = min(Bc, d) = {br}。论文把每个分块都按 M 的元素计（Kⱼ、Vⱼ 占 M/2）；下面的 SRAM 检查把 S、O、m、ℓ 按 fp32 计，所以可能认为这些块放不下。"),
    ("flash.io", "IO complexity (paper, Theorem 2), in elements: standard Θ(Nd + N²) ≈ {std}; FlashAttention Θ(N²d²/M) ≈ {flash} with M = {m}. (The slides write N²d + N²; the paper's theorem has Nd + N².)", "IO 复杂度（论文定理 2，单位：元素）：标准 Θ(Nd + N²) ≈ {std}；FlashAttention Θ(N²d²/M) ≈ {flash}，M = {m}。（幻灯片写作 N²d + N²，论文定理中是 Nd + N²。）"),
    ("flash.ledger.pass", "Pass", "阶段"),
    ("flash.ledger.total", "Forward + backward × {c} (heads × batch)", "前向 + 反向 × {c}（头数 × 批大小）"),
    ("flash.order.kv-note", "K/V outer (FlashAttention-1): every query block's Q, O, ℓ, m are read and O, ℓ, m written again for each key block, and the causal mask is applied inside the tiles: the tiles above the diagonal are computed too (skipping them came with FlashAttention-2), so none is skipped here.", "K/V 在外层（FlashAttention-1）：每个 key 块都要重新读每个 query 块的 Q、O、ℓ、m 并写回 O、ℓ、m；因果掩码在分块内部施加：对角线以上的分块也要计算（跳过它们是 FlashAttention-2 才有的），所以这里没有跳过的分块。"),
    ("flash.kernels", "Standard attention, kernel by kernel ({nn} passes over n × n matrices)", "标准注意力，逐个 kernel（共 {nn} 次读写 n × n 矩阵）"),
    ("flash.kernels.kernel", "Kernel", "Kernel"),
    ("flash.kernels.nn", "n × n read + written", "n × n 读 + 写"),
    ("flash.kernels.nd", "n × d read + written", "n × d 读 + 写"),
    ("flash.kernels.note", "Separate kernels: the scale's and the mask's backward are folded into the softmax backward (P is 0 where masked); the dropout mask is regenerated from its seed, not stored.", "分开的 kernel：缩放与掩码的反向并入 softmax 反向（被掩码处 P 为 0）；dropout 掩码由随机种子重新生成，不存储。"),
    ("flash.kernel.qk", "S = QKᵀ", "S = QKᵀ"),
    ("flash.kernel.scale", "scale S/√d", "缩放 S/√d"),
    ("flash.kernel.mask", "causal mask", "因果掩码"),
    ("flash.kernel.softmax", "P = softmax(S)", "P = softmax(S)"),
    ("flash.kernel.dropout", "dropout", "dropout"),
    ("flash.kernel.pv", "O = PV", "O = PV"),
    ("flash.kernel.dv", "dV = PᵀdO", "dV = PᵀdO"),
    ("flash.kernel.dp", "dP = dO Vᵀ", "dP = dO Vᵀ"),
    ("flash.kernel.ddropout", "dropout backward", "dropout 反向"),
    ("flash.kernel.dsoftmax", "dS = P ∘ (dP − rowsum(dP ∘ P))", "dS = P ∘ (dP − rowsum(dP ∘ P))"),
    ("flash.kernel.dq", "dQ = dS K", "dQ = dS K"),
    ("flash.kernel.dk", "dK = dSᵀQ", "dK = dSᵀQ"),
    ("flash.presets", "Benchmark", "基准"),
    ("flash.preset.paper", "FlashAttention paper: GPT-2 medium on A100", "FlashAttention 论文：A100 上的 GPT-2 medium"),
    ("flash.paper", "The FlashAttention paper's benchmark (GPT-2 medium: n = 1024, d = 64, 16 heads, batch 64, A100, forward + backward), as the slides quote it", "FlashAttention 论文的基准（GPT-2 medium：n = 1024、d = 64、16 个头、批大小 64、A100、前向 + 反向），幻灯片引用的数字"),
    ("flash.paper.assumptions", "Assumptions of this model: fp16 elements; GB = 10⁹ bytes; every byte a kernel reads or writes goes to HBM (no L2 hits); the settings above (blocks, loop order, kernels, SRAM) as chosen; tolerance ±10 %.", "本模型的假设：fp16 元素；GB = 10⁹ 字节；kernel 读写的每个字节都到显存（不计 L2 命中）；分块、循环顺序、kernel、SRAM 按上面的设置；容差 ±10 %。"),
    ("flash.paper.standard", "Standard: {model} modelled, {paper} in the paper ({diff}) {mark}", "标准实现：模型 {model}，论文 {paper}（{diff}）{mark}"),
    ("flash.paper.flash", "FlashAttention: {model} modelled, {paper} in the paper ({diff}) {mark}", "FlashAttention：模型 {model}，论文 {paper}（{diff}）{mark}"),
    ("flash.paper.outside", "✗ outside ±10 %: change the settings above", "✗ 超出 ±10 %：请调整上面的设置"),
    ("flash.paper.time", "Runtime {a} ms → {b} ms: the paper's measurement, not modelled here. Bytes ÷ {bw} TB/s alone would take {sa} ms and {sb} ms, lower bounds (FlashAttention is closer to its compute time).", "运行时间 {a} ms → {b} ms：论文的实测，这里不建模。只按字节 ÷ {bw} TB/s 计算需 {sa} ms 与 {sb} ms，是下界（FlashAttention 更接近其计算时间）。"),
    ("metric.hbm-total-standard", "Fwd + bwd, all heads, standard", "前向 + 反向（全部头），标准"),
    ("metric.hbm-total-flash", "Fwd + bwd, all heads, flash", "前向 + 反向（全部头），flash"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Value;
    use crate::sim::Steppable;

    use crate::topic::q;

    /// The lecture link of the browser tests.
    fn lecture() -> Values {
        let (v, notices) = FLASH.parse(&q(&[
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
            FLASH.normalize(v.with("n", Value::Int(65536)).with("bq", Value::Int(128)).with("bk", Value::Int(128)));
        let f = Flash::schedule_only(flash_params(&big));
        assert_eq!(f.tiles_skipped(), 512 * 511 / 2);
        assert_eq!(current_checks(&f, &mut cache, None), None);
        let (m, pending) = readout_metrics(&f, &big, 3, None);
        assert!(pending.is_empty() && !m.iter().any(|m| m.name == "max-abs-error"));
    }

    #[test]
    fn the_inset_takes_a_custom_machine() {
        let (v, notices) = FLASH.parse(&q(&[("gpu", "custom"), ("peak", "5.5"), ("bw", "215")]));
        assert!(notices.is_empty(), "{notices:?}");
        let m = crate::params::machine(&v);
        assert_eq!((m.code, m.peak_tflops("bf16"), m.hbm_tbps), ("custom", 5.5, 0.215));
        // A panel whose model needs more than peak and bandwidth (waves: the SMs) does not offer it.
        let (_, notices) = crate::topics::waves::WAVES.parse(&q(&[("gpu", "custom")]));
        assert_eq!(notices.len(), 1);
    }

    #[test]
    fn blocks_that_do_not_divide_n() {
        let (v, notices) = FLASH.parse(&q(&[("n", "100"), ("d", "8"), ("bq", "24"), ("bk", "16"), ("causal", "0")]));
        assert!(notices.is_empty());
        let f = flash_run(&v).flash;
        assert_eq!(f.tiles_computed(), 5 * 7);
        // A block larger than n stays in the URL as given; the run uses n.
        let (v, notices) = FLASH.parse(&q(&[("n", "16"), ("bq", "64")]));
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
            assert_eq!(names(&m), FLASH.metrics);
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
