//! The H200 runs of `measure/train/run_train.py` (assignment 2's benchmarks
//! of our own implementation of the assignment-1 model), the constants fitted
//! to one part of them, and the accuracy on the part kept out of the fit.
//!
//! Kept out of the fit (held out): every step at context 256 and 512, every
//! step with `attention=flash`, `checkpoint=blocks` or a torch optimizer, the
//! attention benchmark, and the FlashAttention benchmark from 8,192 tokens.

use super::attention::Bench;
use super::ledger::{Class, Kernel, Phase};
use super::memory::Timeline;
use super::time::{kernel_time, phases, On, Rates};
use super::{preset, Attention, Checkpoint, Config, Ops, Optimizer, Precision};
use crate::sim::hw::{gpu, Gpu};
use crate::sim::measured::Table;
use std::sync::OnceLock;

pub const STEPS_CSV: &str = include_str!("../../../assets/measured/h200-train-steps.csv");
pub const ATTN_CSV: &str = include_str!("../../../assets/measured/h200-train-attn.csv");
pub const FLASH_CSV: &str = include_str!("../../../assets/measured/h200-train-flash.csv");
/// The steps' Linear matmuls alone (forward, dX, dW; fp32 with TF32 off and
/// bf16): never fitted, a check of the matmul rates and tiles.
pub const GEMM_CSV: &str = include_str!("../../../assets/measured/h200-train-gemm.csv");
/// The same products with fp32 operands and TF32 on (`run_train.py --only gemmtf32`).
pub const GEMM_TF32_CSV: &str = include_str!("../../../assets/measured/h200-train-gemmtf32.csv");
/// Students' published H100 results (cited in `assets/reference/students-h100.csv`):
/// a check, never fitted.
pub const STUDENTS_CSV: &str = include_str!("../../../assets/reference/students-h100-numbers.csv");

/// One published number: (configuration, phase 0 forward / 1 backward, ms).
pub fn students() -> Vec<(Config, usize, f64)> {
    let t = Table::parse(STUDENTS_CSV);
    t.rows
        .iter()
        .filter_map(|r| {
            let p = preset(t.text(r, "size")?)?;
            let precision = Precision::parse(t.text(r, "precision")?)?;
            let phase = match t.text(r, "what")? {
                "fwd_ms" => 0,
                "bwd_ms" => 1,
                _ => return None,
            };
            let mut c = Config::assignment(p.shape, t.num(r, "context")? as u64);
            c.batch = t.num(r, "batch")? as u64;
            c.precision = precision;
            Some((c, phase, t.num(r, "value")?))
        })
        .collect()
}

/// One measured training step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    pub size: &'static str,
    pub config: Config,
    /// Out of memory on the H200.
    pub oom: bool,
    /// Forward, backward, optimizer (ms), as the assignment times them.
    pub ms: [f64; 3],
    /// The host's own time in each phase (ms).
    pub host_ms: [f64; 3],
    pub step_ms: f64,
    pub resident: f64,
    pub after_fwd: f64,
    pub fwd_peak: f64,
    pub peak: f64,
    /// Kernels torch.profiler counted in each phase (0 where not counted).
    pub kernels: [f64; 3],
}

impl Step {
    /// Kept out of the fit.
    pub fn held_out(&self) -> bool {
        let c = &self.config;
        if c.attention == Attention::Flash && c.checkpoint == Checkpoint::None {
            // The fused kernel's fp32 rate is fitted at context 256.
            return c.seq != 256;
        }
        matches!(c.seq, 256 | 512)
            || c.attention == Attention::Flash
            || c.checkpoint == Checkpoint::Blocks
            || c.optimizer != Optimizer::Loop
    }
}

fn parse_steps(text: &str) -> Vec<Step> {
    let t = Table::parse(text);
    let mut out = Vec::new();
    for r in &t.rows {
        let txt = |k: &str| t.text(r, k).unwrap_or("");
        let num = |k: &str| t.num(r, k).unwrap_or(0.0);
        let Some(p) = preset(txt("size")) else { continue };
        let (Some(precision), Some(attention), Some(optimizer), Some(checkpoint), Some(ops)) = (
            Precision::parse(txt("precision")),
            Attention::parse(txt("attention")),
            Optimizer::parse(txt("optimizer")),
            Checkpoint::parse(txt("checkpoint")),
            Ops::parse(txt("ops")),
        ) else {
            continue;
        };
        let config = Config {
            shape: p.shape,
            batch: num("batch") as u64,
            seq: num("ctx") as u64,
            precision,
            attention,
            optimizer,
            checkpoint,
            ops,
        };
        out.push(Step {
            size: p.size,
            config,
            oom: txt("status") == "oom",
            ms: [num("fwd_ms"), num("bwd_ms"), num("opt_ms")],
            host_ms: [num("fwd_host_ms"), num("bwd_host_ms"), num("opt_host_ms")],
            step_ms: num("step_ms"),
            resident: num("resident_bytes"),
            after_fwd: num("after_fwd_bytes"),
            fwd_peak: num("fwd_peak_bytes"),
            peak: num("peak_bytes"),
            kernels: [num("kernels_fwd"), num("kernels_bwd"), num("kernels_opt")],
        });
    }
    out
}

/// Every measured step.
pub fn steps() -> &'static [Step] {
    static S: OnceLock<Vec<Step>> = OnceLock::new();
    S.get_or_init(|| parse_steps(STEPS_CSV))
}

/// The measured step of a configuration, if it was run.
pub fn step_for(c: &Config) -> Option<&'static Step> {
    steps().iter().find(|s| s.config == *c)
}

/// One measured attention-benchmark point (`attn`: batch 8, fp32; `flash`:
/// batch 1, causal, bf16 or fp32).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttnPoint {
    pub bench: Bench,
    pub oom: bool,
    pub fwd_ms: f64,
    pub bwd_ms: f64,
    /// What autograd saved (attention benchmark only; 0 otherwise).
    pub saved: f64,
}

fn parse_attn(text: &str, flash: bool) -> Vec<AttnPoint> {
    let t = Table::parse(text);
    t.rows
        .iter()
        .filter_map(|r| {
            let num = |k: &str| t.num(r, k).unwrap_or(0.0);
            let impl_ = t.text(r, "impl")?;
            let elem = if flash && t.text(r, "dtype") == Some("bf16") { 2 } else { 4 };
            let bench = Bench {
                batch: if flash { 1 } else { num("batch") as u64 },
                heads: 1,
                d: num("d") as u64,
                seq: num("seq") as u64,
                causal: flash || num("causal") != 0.0,
                elem,
                fused: impl_ == "sdpa",
                // The FlashAttention benchmark passes [1, 1, T, d]; the
                // attention benchmark the assignment's [B, T, d].
                four_d: flash,
            };
            Some(AttnPoint {
                bench,
                oom: t.text(r, "status") == Some("oom"),
                fwd_ms: num("fwd_ms"),
                bwd_ms: num("bwd_ms"),
                saved: num("saved_bytes"),
            })
        })
        .collect()
}

/// The attention benchmark's points.
pub fn attn_points() -> &'static [AttnPoint] {
    static S: OnceLock<Vec<AttnPoint>> = OnceLock::new();
    S.get_or_init(|| parse_attn(ATTN_CSV, false))
}

/// The FlashAttention benchmark's points.
pub fn flash_points() -> &'static [AttnPoint] {
    static S: OnceLock<Vec<AttnPoint>> = OnceLock::new();
    S.get_or_init(|| parse_attn(FLASH_CSV, true))
}

fn h200() -> &'static Gpu {
    gpu("h200")
}

/// Squared log error of a prediction against a measurement.
fn sq_log(pred: f64, meas: f64) -> f64 {
    if pred <= 0.0 || meas <= 0.0 {
        return 0.0;
    }
    (pred / meas).ln().powi(2)
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// One Linear-layer product timed alone (`h200-train-gemm.csv`), GPU-bound.
#[derive(Clone, Debug, PartialEq)]
pub struct Product {
    pub size: String,
    pub label: String,
    pub precision: Precision,
    pub kernel: Kernel,
    pub us: f64,
}

impl Product {
    /// Kept out of the fit: the medium and xl models' products.
    pub fn held_out(&self) -> bool {
        self.size == "medium" || self.size == "xl"
    }
    /// The predicted time (µs) at `r`.
    pub fn predict(&self, g: &Gpu, r: &Rates) -> f64 {
        let mut c = Config::assignment(preset("cs336-small").expect("preset").shape, 128);
        c.precision = self.precision;
        kernel_time(&self.kernel, &c, g, r, On::ALL) * 1e6
    }
}

/// The GPU-bound products of the gemm file: a call from Python costs the
/// host 11–20 µs (the file's fastest products take that whatever their
/// size), so a product measured under 2.5 × the fastest times the host.
pub fn products() -> &'static [Product] {
    static S: OnceLock<Vec<Product>> = OnceLock::new();
    S.get_or_init(|| {
        let files = [Table::parse(GEMM_CSV), Table::parse(GEMM_TF32_CSV)];
        let fastest =
            files.iter().flat_map(|t| t.rows.iter().filter_map(|row| t.num(row, "us"))).fold(f64::MAX, f64::min);
        let rows = files.iter().flat_map(|t| t.rows.iter().map(move |row| (t, row)));
        rows.filter(|(t, row)| t.num(row, "us").is_some_and(|us| us >= 2.5 * fastest))
            .map(|(t, row)| {
                let num = |k: &str| t.num(row, k).unwrap_or(0.0);
                let precision = match t.text(row, "precision") {
                    Some("bf16") => Precision::Bf16,
                    Some("tf32") => Precision::Tf32,
                    _ => Precision::Fp32,
                };
                let (m, n, k) = (num("m") as u64, num("n") as u64, num("k") as u64);
                let e = if precision == Precision::Bf16 { 2.0 } else { 4.0 };
                let bytes = e * (m * k + k * n + m * n) as f64;
                let size = t.text(row, "size").unwrap_or("").to_string();
                let label = format!(
                    "{} {} {} m {} n {} k {}",
                    size,
                    t.text(row, "op").unwrap_or(""),
                    t.text(row, "pass").unwrap_or(""),
                    m,
                    n,
                    k
                );
                let kernel = Kernel {
                    op: "gemm",
                    phase: Phase::Forward,
                    class: Class::Matmul { m, n, k },
                    launches: 1.0,
                    flops: 2.0 * (m * n * k) as f64,
                    bytes,
                    ideal_bytes: bytes,
                };
                Product { size, label, precision, kernel, us: num("us") }
            })
            .collect()
    })
}

/// The FlashAttention benchmark's held-out part: d 64 and 128 from 8,192 tokens.
pub fn flash_held_out(p: &AttnPoint) -> bool {
    p.bench.seq >= 8192 && matches!(p.bench.d, 64 | 128)
}

/// The fitted constants and what they were fitted to.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub rates: Rates,
    /// Steps and phases used for the GPU constants, and for the host's.
    pub gpu_points: usize,
    pub host_points: usize,
}

impl Fit {
    /// Fits the constants to the training part of `steps` and `flash`: the
    /// host's time a launch (median of host time ÷ predicted launches, per
    /// phase, on the training steps); the fused kernel's fraction of peak (on
    /// the FlashAttention benchmark below 8,192 tokens); the matmul fractions
    /// per precision, the bandwidth fraction and a kernel's floor by
    /// coordinate descent on the squared log error of every GPU-bound phase.
    pub fn from(steps: &[Step], flash: &[AttnPoint], gemm: &[Product]) -> Fit {
        let g = h200();
        let train: Vec<&Step> = steps.iter().filter(|s| !s.oom && !s.held_out() && s.ms[0] > 0.0).collect();
        let mut r = Rates {
            mm: [0.7; 3],
            fused: super::time::FusedRates {
                score: [[7e-11, 1.8e-10], [1.4e-9, 3e-9]],
                mac: [[7e-13, 2e-12], [2.4e-11, 3.5e-11]],
                resident: [[1, 1], [2, 2]],
                share: [[1.5, 1.5], [1.1, 1.4]],
                latency: 5e-6,
                host: [8e-6, 5e-5],
            },
            bw: 0.85,
            tt: 0.6,
            floor: 3e-6,
            host: [0.0; 3],
        };
        let mut host_points = 0;
        for i in 0..3 {
            let v: Vec<f64> = train
                .iter()
                .map(|s| {
                    let p = phases(&s.config, g, &Rates::PEAK, On::NONE);
                    s.host_ms[i] * 1e-3 / p.launches[i].max(1.0)
                })
                .collect();
            host_points += v.len();
            r.host[i] = median(v);
        }
        // Every phase of every training step, predicted with the host (whose
        // constants are fixed above): host-bound phases then weigh nothing
        // on the GPU constants, as they should.
        // Each step's ledger once (the descent asks for thousands of predictions).
        let gpu_pts: Vec<(&Step, Vec<super::ledger::Kernel>)> =
            train.iter().map(|s| (*s, super::ledger::kernels(&s.config))).collect();
        // The FlashAttention benchmark's fused kernels (bf16 and fp32)
        // outside its held-out part (d 64 and 128 from 8,192 tokens).
        // and the written-out attention beside them from 8,192 tokens (below,
        // its ~0.15 ms whatever the size is the host's: the attention
        // benchmark's part below 4,096 tokens is all so, and stays out).
        let fl: Vec<&AttnPoint> = flash
            .iter()
            .filter(|p| !p.oom && p.fwd_ms > 0.0 && !flash_held_out(p) && (p.bench.fused || p.bench.seq >= 8192))
            .collect();
        let prods: Vec<&Product> = gemm.iter().filter(|p| !p.held_out()).collect();
        let loss = |r: &Rates| -> f64 {
            let mut l = 0.0;
            for p in &prods {
                l += sq_log(p.predict(g, r), p.us);
            }
            for (s, ks) in &gpu_pts {
                let p = super::time::phases_of(ks, &s.config, g, r, On::ALL);
                l += (0..3).map(|i| sq_log(p.time[i], s.ms[i] * 1e-3)).sum::<f64>();
            }
            for p in &fl {
                let (f, b) = p.bench.times(g, r);
                l += sq_log(f, p.fwd_ms * 1e-3) + sq_log(b, p.bwd_ms * 1e-3);
            }
            l
        };
        // Coordinate descent, multiplicative steps shrinking each round.
        let mut best = loss(&r);
        let mut step = 1.6_f64;
        for _ in 0..10 {
            // Blocks an SM holds, per kernel and phase: whichever fits better.
            for kk in 0..4 {
                let mut c = r;
                let v = &mut c.fused.resident[kk / 2][kk % 2];
                *v = 3 - *v;
                let l = loss(&c);
                if l < best {
                    best = l;
                    r = c;
                }
            }
            for k in 0..21 {
                for dir in [step, 1.0 / step] {
                    loop {
                        let mut c = r;
                        let f = &mut c.fused;
                        let (v, max) = match k {
                            0..=2 => (&mut c.mm[k], 1.0),
                            3 => (&mut c.bw, 1.0),
                            4 => (&mut c.tt, 1.0),
                            5 => (&mut c.floor, f64::INFINITY),
                            6..=9 => (&mut f.score[(k - 6) / 2][(k - 6) % 2], f64::INFINITY),
                            10..=13 => (&mut f.mac[(k - 10) / 2][(k - 10) % 2], f64::INFINITY),
                            14 => (&mut f.latency, f64::INFINITY),
                            15 | 16 => (&mut f.host[k - 15], f64::INFINITY),
                            _ => (&mut f.share[(k - 17) / 2][(k - 17) % 2], 2.0),
                        };
                        *v *= dir;
                        if *v > max || (k >= 17 && *v < 1.0) {
                            break;
                        }
                        let l = loss(&c);
                        if l < best {
                            best = l;
                            r = c;
                        } else {
                            break;
                        }
                    }
                }
            }
            step = step.sqrt();
        }
        Fit { rates: r, gpu_points: 3 * gpu_pts.len() + 2 * fl.len() + prods.len(), host_points }
    }

    /// The fit to the shipped files: computed when the data change, by
    /// `warpscope train-fit > src/sim/train/fitted.rs`, not in the browser
    /// (the coordinate descent takes 1–2.5 s natively and held the training
    /// lens's first render ~1.1 s); a test keeps the file equal to a fresh
    /// fit ([`fitted_source`]).
    pub fn shipped() -> &'static Fit {
        &super::fitted::SHIPPED
    }

    /// A fresh fit to the shipped files (what `fitted.rs` must equal).
    pub fn fresh() -> Fit {
        Fit::from(steps(), flash_points(), products())
    }
}

/// `src/sim/train/fitted.rs` for `fit`: its constants as Rust (`{:?}` of an
/// `f64` is the shortest text that reads back as the same number).
pub fn fitted_source(fit: &Fit) -> String {
    let lit = |x: f64| if x.is_nan() { "f64::NAN".to_string() } else { format!("{x:?}") };
    let rows: String = accuracy_at(&fit.rates)
        .iter()
        .map(|a| {
            format!(
                "    Accuracy {{ check: {:?}, points: {}, median: {}, worst: {}, goal: ({}, {}) }},\n",
                a.check,
                a.points,
                lit(a.median),
                lit(a.worst),
                lit(a.goal.0),
                lit(a.goal.1)
            )
        })
        .collect();
    let n = CHECKS.len();
    format!(
        "//! The training lens's constants fitted to the shipped H200 measurements\n\
         //! (`measured::Fit::from`). Generated by `cargo run --bin warpscope -- train-fit >\n\
         //! src/sim/train/fitted.rs`; `sim::train::tests` keeps it equal to a fresh fit.\n\
         \n\
         use super::measured::{{Accuracy, Fit}};\n\
         use super::time::{{FusedRates, Rates}};\n\
         \n\
         #[rustfmt::skip]\n\
         pub const SHIPPED: Fit = {fit:?};\n\
         \n\
         /// The held-out accuracy table at these constants (`measured::accuracy_at`).\n\
         #[rustfmt::skip]\n\
         pub const ACCURACY: [Accuracy; {n}] = [\n{rows}];\n"
    )
}

/// A relative error, or 0 inside the band `[lo, hi]` (two implementations'
/// measurements: a prediction between them counts as exact).
pub fn band_error(pred: f64, lo: f64, hi: f64) -> f64 {
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    if pred < lo {
        (lo - pred) / lo
    } else if pred > hi {
        (pred - hi) / hi
    } else {
        0.0
    }
}

/// A measurement against a predicted range `[lo, hi]`: 0 inside, else the
/// distance to the nearer end over the measurement.
pub fn range_error(meas: f64, lo: f64, hi: f64) -> f64 {
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    if meas <= 0.0 || (lo..=hi).contains(&meas) {
        0.0
    } else if meas < lo {
        (lo - meas) / meas
    } else {
        (meas - hi) / meas
    }
}

/// One row of the accuracy table.
#[derive(Clone, Debug, PartialEq)]
pub struct Accuracy {
    /// The check's key (`acc.<key>` in the texts and the docs).
    pub check: &'static str,
    pub points: usize,
    pub median: f64,
    pub worst: f64,
    /// The bounds (median, worst).
    pub goal: (f64, f64),
}

fn summary(check: &'static str, errs: Vec<f64>, goal: (f64, f64)) -> Accuracy {
    let worst = errs.iter().copied().fold(0.0, f64::max);
    Accuracy { check, points: errs.len(), median: median(errs), worst, goal }
}

/// The measured band for a step: the same configuration with the other
/// `ops` (written against library), where it ran; else the step alone.
fn band<'a>(s: &'a Step, all: &'a [Step]) -> (&'a Step, &'a Step) {
    let other = all.iter().find(|o| {
        let mut c = o.config;
        c.ops = s.config.ops;
        c == s.config && o.config.ops != s.config.ops && !o.oom
    });
    (s, other.unwrap_or(s))
}

/// One held-out point of a check: what it is, the prediction, the measured
/// band and the error.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub check: &'static str,
    pub label: String,
    pub pred: f64,
    pub lo: f64,
    pub hi: f64,
    pub err: f64,
}

fn point(check: &'static str, label: String, pred: f64, lo: f64, hi: f64) -> Point {
    Point { check, label, pred, lo, hi, err: band_error(pred, lo, hi) }
}

/// Every held-out point of every check (`warpscope train-accuracy --points`).
pub fn accuracy_points() -> Vec<Point> {
    accuracy_points_at(&Fit::shipped().rates)
}

/// Every held-out point of every check, predicted at the constants `r`.
pub fn accuracy_points_at(r: &Rates) -> Vec<Point> {
    let g = h200();
    let all = steps();
    let held: Vec<&Step> = all.iter().filter(|s| s.held_out() && !s.oom && s.config.ops == Ops::Written).collect();
    let mut out = Vec::new();
    for s in held.iter().filter(|s| s.config.checkpoint == Checkpoint::None && s.config.optimizer == Optimizer::Loop) {
        let p = phases(&s.config, g, r, On::ALL);
        let (a, b) = band(s, all);
        let c = &s.config;
        let label = format!(
            "{} ctx {} {} (fwd, bwd, opt: {:.1}, {:.1}, {:.1} ms; measured {:.1}, {:.1}, {:.1})",
            s.size,
            c.seq,
            c.precision.code(),
            p.time[0] * 1e3,
            p.time[1] * 1e3,
            p.time[2] * 1e3,
            s.ms[0],
            s.ms[1],
            s.ms[2]
        );
        let step = |check| point(check, label.clone(), p.step() * 1e3, a.step_ms, b.step_ms);
        if c.attention == Attention::Flash {
            out.push(step("flash-model"));
        } else if p.host_bound(0) || p.host_bound(1) {
            // Host-bound (the model's verdict: the host's launches outlast the
            // GPU's work); its time is a range.
            out.push(step("host-bound-step"));
        } else if c.precision != Precision::Tf32 {
            out.push(step("gpu-step"));
            out.push(point("gpu-forward", label.clone(), p.time[0] * 1e3, a.ms[0], b.ms[0]));
        }
    }
    for s in all.iter().filter(|s| s.held_out() && !s.oom && s.peak > 0.0) {
        let (a, b) = band(s, all);
        let c = &s.config;
        let label = format!(
            "{} ctx {} {} {} {} {} {}",
            s.size,
            c.seq,
            c.precision.code(),
            c.attention.code(),
            c.optimizer.code(),
            c.checkpoint.code(),
            c.ops.code()
        );
        out.push(point("peak-memory", label, Timeline::new(s.config).peak().0 / 1e6, a.peak / 1e6, b.peak / 1e6));
    }
    for p in attn_points().iter().filter(|p| !p.oom && p.bench.seq >= 4096 && p.fwd_ms > 0.0) {
        let (f, b) = p.bench.times(g, r);
        let bn = &p.bench;
        let label = format!("{} causal {} d {} seq {}", bn.kernel_name(), bn.causal as u8, bn.d, bn.seq);
        out.push(point("attention-bench", format!("fwd {label}"), f * 1e3, p.fwd_ms, p.fwd_ms));
        out.push(point("attention-bench", format!("bwd {label}"), b * 1e3, p.bwd_ms, p.bwd_ms));
        out.push(point("attention-bench", format!("saved {label}"), bn.saved_bytes(), p.saved, p.saved));
    }
    for p in flash_points().iter().filter(|p| !p.oom && flash_held_out(p) && p.fwd_ms > 0.0) {
        let (f, b) = p.bench.times(g, r);
        let bn = &p.bench;
        let label = format!("{} e{} d {} seq {}", bn.kernel_name(), bn.elem, bn.d, bn.seq);
        out.push(point("flash-bench", format!("fwd {label}"), f * 1e3, p.fwd_ms, p.fwd_ms));
        out.push(point("flash-bench", format!("bwd {label}"), b * 1e3, p.bwd_ms, p.bwd_ms));
    }
    // The Linear layers' matmuls alone (their held-out part), each product
    // as its own kernel (the step's ledger counts a backward as twice its
    // forward's shape).
    for p in products().iter().filter(|p| p.held_out()) {
        let check = match p.precision {
            Precision::Bf16 => "matmul-bf16",
            Precision::Tf32 => "matmul-tf32",
            Precision::Fp32 => "matmul-fp32",
        };
        out.push(point(check, p.label.clone(), p.predict(g, r), p.us, p.us));
    }
    // Students' H100 numbers at batch 4, context 512, true fp32 and bf16
    // autocast (their own code: the written-out model, the loop optimizer).
    let h100 = crate::sim::hw::gpu("h100");
    for (c, i, ms) in
        students().into_iter().filter(|(c, _, _)| c.seq == 512 && c.batch == 4 && c.precision != Precision::Tf32)
    {
        let p = phases(&c, h100, r, On::ALL);
        let label = format!("{} {} {}", c.shape.d, c.precision.code(), ["fwd", "bwd"][i]);
        // A host-bound phase is a range: from the GPU's time (the launches
        // hidden behind it) to the host's (none hidden).
        let (lo, hi) = p.range(i);
        let mut pt = point("students-h100", label, p.time[i] * 1e3, ms, ms);
        pt.err = range_error(ms, lo * 1e3, hi * 1e3);
        out.push(pt);
    }
    out
}

/// The checks, in the table's order, with the bounds (median, worst).
pub const CHECKS: [(&str, (f64, f64)); 11] = [
    ("gpu-step", (0.10, 0.25)),
    ("gpu-forward", (0.10, 0.25)),
    ("host-bound-step", (f64::NAN, f64::NAN)),
    ("peak-memory", (0.10, 0.25)),
    ("flash-model", (0.10, 0.25)),
    ("attention-bench", (0.15, 0.30)),
    ("flash-bench", (0.20, 0.40)),
    ("students-h100", (0.15, 0.30)),
    ("matmul-fp32", (f64::NAN, f64::NAN)),
    ("matmul-tf32", (f64::NAN, f64::NAN)),
    ("matmul-bf16", (f64::NAN, f64::NAN)),
];

/// The accuracy table: every held-out check.
///
/// The shipped table (`fitted.rs`, computed with the fit ahead of time, as
/// [`accuracy_at`] computes it: a test keeps the two equal): the browser
/// would otherwise predict every held-out point — and carry the files of
/// those never shown, such as the matmuls alone — to print eleven rows.
pub fn accuracy() -> Vec<Accuracy> {
    super::fitted::ACCURACY.to_vec()
}

/// The accuracy table at the constants `r`.
pub fn accuracy_at(r: &Rates) -> Vec<Accuracy> {
    let pts = accuracy_points_at(r);
    CHECKS
        .iter()
        .map(|(check, goal)| summary(check, pts.iter().filter(|p| p.check == *check).map(|p| p.err).collect(), *goal))
        .collect()
}

/// The held-out points as a plain table (one a line: check, label,
/// prediction, measured band, error).
pub fn points_text() -> String {
    let mut s = format!("# fitted: {:?}\n", Fit::shipped().rates);
    let (g, r) = (h200(), &Fit::shipped().rates);
    for st in steps().iter().filter(|st| !st.oom && !st.held_out() && st.config.attention == Attention::Flash) {
        let p = phases(&st.config, g, r, On::ALL);
        s.push_str(&format!(
            "# fit step {} ctx {} {} {}: fwd {:.1} / {:.1}, bwd {:.1} / {:.1}\n",
            st.size,
            st.config.seq,
            st.config.precision.code(),
            st.config.ops.code(),
            p.time[0] * 1e3,
            st.ms[0],
            p.time[1] * 1e3,
            st.ms[1]
        ));
    }
    for p in flash_points().iter().filter(|p| !p.oom && !flash_held_out(p) && p.fwd_ms > 0.0 && p.bench.fused) {
        let (f, b) = p.bench.times(g, r);
        let bn = &p.bench;
        s.push_str(&format!(
            "# fit flash-bench {} d {} seq {}: fwd {:.4} / {:.4}, bwd {:.4} / {:.4}\n",
            bn.kernel_name(),
            bn.d,
            bn.seq,
            f * 1e3,
            p.fwd_ms,
            b * 1e3,
            p.bwd_ms
        ));
    }
    for p in accuracy_points() {
        s.push_str(&format!(
            "{}\t{}\t{:.4}\t{:.4}\t{:.4}\t{:.1} %\n",
            p.check,
            p.label,
            p.pred,
            p.lo,
            p.hi,
            p.err * 100.0
        ));
    }
    s
}

/// The accuracy table as the docs print it (a test keeps the docs' copy equal).
pub fn accuracy_markdown() -> String {
    let mut s = String::from(
        "| check | points | median error | worst error | goal (median / worst) |\n| --- | --- | --- | --- | --- |\n",
    );
    for a in accuracy() {
        let goal = if a.check == "host-bound-step" {
            "a range (host-bound)".to_string()
        } else if a.goal.0.is_nan() {
            "— (held-out products; the others fitted)".to_string()
        } else {
            format!("≤ {:.0} % / ≤ {:.0} %", a.goal.0 * 100.0, a.goal.1 * 100.0)
        };
        s.push_str(&format!(
            "| {} | {} | {:.1} % | {:.1} % | {} |\n",
            a.check,
            a.points,
            a.median * 100.0,
            a.worst * 100.0,
            goal
        ));
    }
    s
}
