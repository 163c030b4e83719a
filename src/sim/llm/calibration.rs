//! The calibration: everything the effects read from the measurements
//! shipped in `assets/measured/h200-llm-*.csv`, as curves and constants.

use super::shape::{flash_head, preset, Arch, Ew, Phase, Shape};
use crate::sim::fusion::ledger;
use crate::sim::hw::Gpu;
use crate::sim::matmul::Waves;
use crate::sim::measured::Table;
use std::sync::OnceLock;

pub const DECODE_CSV: &str = include_str!("../../../assets/measured/h200-llm-decode.csv");
pub const PREFILL_CSV: &str = include_str!("../../../assets/measured/h200-llm-prefill.csv");
/// Decode steps of the grouped-query models with one SDPA call over all
/// query heads (`enable_gqa`), as a plain PyTorch step writes it
/// (`run_llm.py --decode-attn gqa --grid gqa`, 2026-12-03): never in a fit.
pub const GQA_DECODE_CSV: &str = include_str!("../../../assets/measured/h200-llm-gqa-decode.csv");
#[cfg(not(target_arch = "wasm32"))]
pub(super) const GEMM_CSV: &str = include_str!("../../../assets/measured/h200-llm-gemm.csv");
#[cfg(not(target_arch = "wasm32"))]
pub(super) const SDPA_CSV: &str = include_str!("../../../assets/measured/h200-llm-sdpa.csv");
#[cfg(not(target_arch = "wasm32"))]
pub(super) const LAUNCH_CSV: &str = include_str!("../../../assets/measured/h200-llm-launch.csv");
#[cfg(not(target_arch = "wasm32"))]
pub(super) const ELEMENTWISE_CSV: &str = include_str!("../../../assets/measured/h200-llm-elementwise.csv");
#[cfg(not(target_arch = "wasm32"))]
pub(super) const HOST_CSV: &str = include_str!("../../../assets/measured/h200-llm-host.csv");
/// Decode attention per layer, one SDPA over all query heads against the
/// per-head layout (`measure/train/run_train.py`, section decode).
pub const TRAIN_DECODE_CSV: &str = include_str!("../../../assets/measured/h200-train-decode.csv");
/// The same decode attention at batch 1 (and 4), eager and captured in one
/// CUDA graph of 32 layers' calls (`run_train.py --only decodeg`).
pub const TRAIN_DECODEG_CSV: &str = include_str!("../../../assets/measured/h200-train-decodeg.csv");
#[cfg(test)]
pub(super) const KERNELS_CSV: &str = include_str!("../../../assets/measured/h200-llm-kernels.csv");

/// The H200 the calibration was measured on.
pub(super) fn h200() -> &'static Gpu {
    crate::sim::hw::gpu("h200")
}

/// A curve: sorted (x, y) points.
pub type Curve = Vec<(f64, f64)>;
/// Curves by a key.
pub type Curves<K> = Vec<(K, Curve)>;
/// Attention families: (head dim, group, heads) → curves by batch.
pub type Families = Vec<((u64, u64, u64), Curves<f64>)>;

/// Everything the effects read from the measurements.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    /// Best GEMV/skinny-GEMM bandwidth (GB/s, weights past L2, no reuse).
    pub bw_gbps: f64,
    /// Best GEMM rate (TFLOP/s) over the grid.
    pub peak_tflops: f64,
    /// (n, k) → [(m, time ÷ waves model on the achievable roofs)].
    pub gemm: Curves<(u64, u64)>,
    /// Decode attention families: (hd, group, kvheads) → [(batch, [(kv, seconds)])].
    pub sdpa_decode: Families,
    /// An engine's split-KV decode kernel (one SDPA over all query heads,
    /// `enable_gqa`, `h200-train-decodeg.csv`'s gqa rows captured in a CUDA
    /// graph, as an engine runs them): its latency (s) and the fraction of
    /// HBM it streams the KV cache at.
    pub decode_engine: (f64, f64),
    /// Prefill attention families: (hd, group, heads) → [(batch, [(log₂ seq, time ÷ roofline)])].
    pub sdpa_prefill: Families,
    /// Elementwise op → (fixed seconds per kernel call, bytes per second).
    pub elementwise: Vec<(&'static str, f64, f64)>,
    /// Host seconds per kernel, eager (median of the tiny-layer runs).
    pub host_per_kernel: f64,
    /// Seconds per kernel of back-to-back tiny kernels in a CUDA graph.
    pub graph_per_kernel: f64,
    /// Same, launched eagerly one by one (a bare `add_`).
    pub eager_per_kernel_bare: f64,
    /// Host seconds of each stage of the step (an operator of the table, or
    /// `embed`) timed alone at a fitted model's shapes, fastest round
    /// (`h200-llm-host.csv`): (calibration model, phase, op key, seconds).
    pub host: Vec<(String, Phase, String, f64)>,
    /// The whole step's host time ÷ the sum of its stages timed alone (same
    /// model, same minutes, fastest rounds): the stages run colder inside the
    /// step's mixed stream than in a loop of one. Median over the fitted
    /// models and both phases.
    pub host_in_situ: f64,
}

/// A family of attention curves as `shipped.rs` holds it: its key (head
/// dim, group, heads) and (batch, [(x, y)]) curves.
pub type Family = ((u64, u64, u64), &'static [(f64, &'static [(f64, f64)])]);
/// A GEMM curve as `shipped.rs` holds it: (n, k) and [(log₂ m, ratio)].
pub type GemmCurve = ((u64, u64), &'static [(f64, f64)]);
/// A host stage as `shipped.rs` holds it: (model, phase, op key, seconds).
pub type HostStage = (&'static str, Phase, &'static str, f64);

/// [`Calibration`] as static data (`shipped.rs`).
pub struct ShippedCalibration {
    pub bw_gbps: f64,
    pub peak_tflops: f64,
    pub gemm: &'static [GemmCurve],
    pub sdpa_decode: &'static [Family],
    pub decode_engine: (f64, f64),
    pub sdpa_prefill: &'static [Family],
    pub elementwise: &'static [(&'static str, f64, f64)],
    pub host_per_kernel: f64,
    pub graph_per_kernel: f64,
    pub eager_per_kernel_bare: f64,
    pub host: &'static [HostStage],
    pub host_in_situ: f64,
}

impl ShippedCalibration {
    pub fn to_calibration(&self) -> Calibration {
        let families = |f: &[Family]| -> Families {
            f.iter().map(|(key, cs)| (*key, cs.iter().map(|(x, pts)| (*x, pts.to_vec())).collect())).collect()
        };
        Calibration {
            bw_gbps: self.bw_gbps,
            peak_tflops: self.peak_tflops,
            gemm: self.gemm.iter().map(|(key, pts)| (*key, pts.to_vec())).collect(),
            sdpa_decode: families(self.sdpa_decode),
            decode_engine: self.decode_engine,
            sdpa_prefill: families(self.sdpa_prefill),
            elementwise: self.elementwise.to_vec(),
            host_per_kernel: self.host_per_kernel,
            graph_per_kernel: self.graph_per_kernel,
            eager_per_kernel_bare: self.eager_per_kernel_bare,
            host: self.host.iter().map(|&(m, p, op, s)| (m.to_string(), p, op.to_string(), s)).collect(),
            host_in_situ: self.host_in_situ,
        }
    }
}

/// The models whose measured steps set a constant (the graph gap) or a
/// calibration (the host's stage costs); every other model is held out.
pub fn fitted_model(code: &str) -> bool {
    matches!(code, "llama3-8b" | "llama-7b" | "gpt2")
}

/// The fitted model whose host stages stand for a layout: GPT-2's, LLaMA
/// with grouped KV heads (Llama-3-8B's code path), or plain MHA (LLaMA-7B's).
pub fn host_model(shape: &Shape) -> &'static str {
    match shape.arch {
        Arch::Gpt2 => "gpt2",
        Arch::Llama if shape.group() > 1 => "llama3-8b",
        Arch::Llama => "llama-7b",
    }
}

pub(super) fn median(mut xs: Vec<f64>) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        0.5 * (xs[n / 2 - 1] + xs[n / 2])
    }
}

/// Linear interpolation of `ys` over sorted `xs` at `x`, clamped at the ends.
fn interp(pts: &[(f64, f64)], x: f64) -> f64 {
    match pts {
        [] => f64::NAN,
        [only] => only.1,
        _ => {
            if x <= pts[0].0 {
                return pts[0].1;
            }
            for w in pts.windows(2) {
                if x <= w[1].0 {
                    let f = (x - w[0].0) / (w[1].0 - w[0].0).max(1e-300);
                    return w[0].1 + f * (w[1].1 - w[0].1);
                }
            }
            pts[pts.len() - 1].1
        }
    }
}

/// The waves model of a GEMM on a GPU's achievable roofs (what the skinny
/// curve is measured against): compute time × (1 ÷ SM and tile use), or
/// the bytes at the achievable bandwidth, whichever is longer.
pub(super) fn gemm_waves_time(m: u64, n: u64, k: u64, bytes: f64, peak: f64, bw: f64, sms: u64) -> f64 {
    let flops = 2.0 * (m * n) as f64 * k as f64;
    let q = waves_factor(m, n, k, sms);
    (flops / peak * q).max(bytes / bw)
}

/// Compute-time factor of wave and tile quantization (`sim::matmul::Waves`
/// with up to 128 × 128 output tiles): 1 ÷ (SM utilization × tile efficiency).
pub fn waves_factor(m: u64, n: u64, k: u64, sms: u64) -> f64 {
    if sms == 0 {
        return 1.0;
    }
    // cuBLAS picks shorter tiles for skinny products: the tile's m is the
    // power of two at or above m, from 16 to 128.
    let tm = m.max(1).next_power_of_two().clamp(16, 128);
    let w = Waves { m: m.max(1), n: n.max(1), k: k.max(1), tm, tn: 128, sms };
    1.0 / (w.sm_utilization() * w.tile_efficiency())
}

impl Calibration {
    pub fn from_tables(gemm: &Table, sdpa: &Table, launch: &Table, ew: &Table, host: &Table) -> Calibration {
        let g = h200();
        // Achievable roofs.
        let mut bw: f64 = 0.0;
        let mut peak: f64 = 0.0;
        for r in &gemm.rows {
            let (Some(m), Some(gb), Some(tf)) = (gemm.num(r, "m"), gemm.num(r, "GBps"), gemm.num(r, "TFLOPs")) else {
                continue;
            };
            if m <= 16.0 {
                bw = bw.max(gb);
            }
            peak = peak.max(tf);
        }
        let (bw_s, peak_s) = (bw * 1e9, peak * 1e12);
        // Skinny GEMM: measured ÷ waves model, by shape and m.
        let mut shapes: Curves<(u64, u64)> = Vec::new();
        for r in &gemm.rows {
            let (Some(m), Some(n), Some(k), Some(us)) =
                (gemm.num(r, "m"), gemm.num(r, "n"), gemm.num(r, "k"), gemm.num(r, "us"))
            else {
                continue;
            };
            let (m, n, k) = (m as u64, n as u64, k as u64);
            let bytes = 2.0 * (n * k + m * k + m * n) as f64;
            let model = gemm_waves_time(m, n, k, bytes, peak_s, bw_s, g.sms as u64);
            let ratio = us * 1e-6 / model;
            match shapes.iter_mut().find(|(s, _)| *s == (n, k)) {
                Some((_, v)) => v.push(((m as f64).log2(), ratio)),
                None => shapes.push(((n, k), vec![((m as f64).log2(), ratio)])),
            }
        }
        for (_, v) in shapes.iter_mut() {
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        // Attention, decode: per family and batch, time = a + s · kv (least squares).
        let mut dec: Vec<((u64, u64, u64), Curves<f64>)> = Vec::new();
        let mut pre: Vec<((u64, u64, u64), Curves<f64>)> = Vec::new();
        for r in &sdpa.rows {
            let kind = sdpa.text(r, "kind").unwrap_or("");
            let get = |c: &str| sdpa.num(r, c);
            let (Some(b), Some(h), Some(hkv), Some(hd), Some(kv), Some(us)) =
                (get("batch"), get("heads"), get("kvheads"), get("hd"), get("kv"), get("us"))
            else {
                continue;
            };
            let (hu, hkvu, hdu) = (h as u64, hkv as u64, hd as u64);
            let grp = (hu / hkvu.max(1)).max(1);
            if kind == "decode" {
                slot(slot(&mut dec, (hdu, grp, hkvu)), b).push((kv, us * 1e-6));
            } else if kind == "prefill" {
                let (bytes, flops) = flash_head(kv as u64, hdu, 2);
                let heads = b * h;
                let roof = (heads * flops / peak_s).max(heads * bytes / bw_s);
                slot(slot(&mut pre, (hdu, grp, hu)), b).push((kv.log2(), us * 1e-6 / roof));
            }
        }
        let sdpa_decode = dec
            .into_iter()
            .map(|(fam, per_b)| {
                let mut per_b: Curves<f64> = per_b
                    .into_iter()
                    .map(|(b, mut pts)| {
                        pts.sort_by(|x, y| x.0.total_cmp(&y.0));
                        (b, pts)
                    })
                    .collect();
                per_b.sort_by(|a, b| a.0.total_cmp(&b.0));
                (fam, per_b)
            })
            .collect();
        for (_, per_b) in pre.iter_mut() {
            per_b.sort_by(|a, b| a.0.total_cmp(&b.0));
            for (_, v) in per_b.iter_mut() {
                v.sort_by(|a, b| a.0.total_cmp(&b.0));
            }
        }
        // Elementwise: the smallest call gives the fixed cost, the largest the bandwidth
        // (bytes as the fusion ledger counts them, unfused).
        let mut elementwise = Vec::new();
        for (name, e) in [
            ("rms_norm", Ew::RmsNorm),
            ("layer_norm", Ew::LayerNorm),
            ("rope", Ew::Rope),
            ("add", Ew::Add),
            ("silu_mul", Ew::SiluMul),
            ("gelu", Ew::Gelu),
        ] {
            let rows: Vec<(f64, f64, f64)> = ew
                .rows
                .iter()
                .filter(|r| ew.text(r, "op") == Some(name))
                .filter_map(|r| Some((ew.num(r, "m")?, ew.num(r, "n")?, ew.num(r, "us")? * 1e-6)))
                .collect();
            let (Some(lo), Some(hi)) = (
                rows.iter().copied().min_by(|a, b| a.0.total_cmp(&b.0)),
                rows.iter().copied().max_by(|a, b| a.0.total_cmp(&b.0)),
            ) else {
                continue;
            };
            let arrays = ledger(&e.node()).arrays_unfused() as f64;
            let bytes_hi = arrays * hi.0 * hi.1 * 2.0;
            let rate = bytes_hi / (hi.2 - lo.2).max(1e-9);
            elementwise.push((name, lo.2, rate));
        }
        // Launch.
        let per_kernel = |what: &dyn Fn(&str) -> bool, mode: &str| -> f64 {
            median(
                launch
                    .rows
                    .iter()
                    .filter(|r| launch.text(r, "mode") == Some(mode) && launch.text(r, "what").is_some_and(what))
                    .filter_map(|r| launch.num(r, "us_per_kernel"))
                    .map(|u| u * 1e-6)
                    .collect(),
            )
        };
        let tiny = |w: &str| w.starts_with("tiny_");
        let bare = |w: &str| w == "add_1elem";
        // Host: every stage's fastest round; the step's too, for the in-situ factor.
        let mut stages: Vec<(String, Phase, String, f64)> = Vec::new();
        let mut steps: Vec<(String, Phase, f64)> = Vec::new();
        for r in &host.rows {
            let (Some(model), Some(phase), Some(op), Some(us)) =
                (host.text(r, "model"), host.text(r, "phase"), host.text(r, "op"), host.num(r, "us_min"))
            else {
                continue;
            };
            let phase = if phase == "prefill" { Phase::Prefill } else { Phase::Decode };
            if op == "step" {
                steps.push((model.to_string(), phase, us * 1e-6));
            } else {
                stages.push((model.to_string(), phase, op.to_string(), us * 1e-6));
            }
        }
        let kappas: Vec<f64> = steps
            .iter()
            .filter(|(m, _, _)| fitted_model(m))
            .filter_map(|(m, phase, t)| {
                let l = preset(m)?.shape.layers as f64;
                let sum: f64 = stages
                    .iter()
                    .filter(|(sm, sp, _, _)| sm == m && sp == phase)
                    .map(
                        |(_, _, op, s)| {
                            if matches!(op.as_str(), "embed" | "final-norm" | "lm-head") {
                                *s
                            } else {
                                l * s
                            }
                        },
                    )
                    .sum();
                (sum > 0.0).then(|| t / sum)
            })
            .collect();
        Calibration {
            bw_gbps: bw,
            peak_tflops: peak,
            gemm: shapes,
            sdpa_decode,
            decode_engine: decode_engine(&Table::parse(TRAIN_DECODEG_CSV)),
            sdpa_prefill: pre,
            elementwise,
            host_per_kernel: per_kernel(&tiny, "eager"),
            graph_per_kernel: per_kernel(&bare, "graph"),
            eager_per_kernel_bare: per_kernel(&bare, "eager"),
            host: stages,
            host_in_situ: if kappas.is_empty() { 1.0 } else { median(kappas) },
        }
    }

    /// Host seconds of one stage (an op key or `embed`) inside a step of this
    /// layout: the fitted model's stage alone × the in-situ factor.
    pub fn host_time(&self, shape: &Shape, phase: Phase, key: &str) -> f64 {
        let m = host_model(shape);
        self.host
            .iter()
            .find(|(hm, hp, op, _)| hm == m && *hp == phase && op == key)
            .map_or(0.0, |&(_, _, _, s)| s * self.host_in_situ)
    }

    /// The calibration from the shipped files, computed ahead of time
    /// (`shipped.rs`, generated by `sim::llm::generate`): built once from
    /// its static data.
    pub fn shipped() -> &'static Calibration {
        static CAL: OnceLock<Calibration> = OnceLock::new();
        CAL.get_or_init(|| super::shipped::CALIBRATION.to_calibration())
    }

    /// A fresh calibration from the shipped files (what `shipped.rs` must equal).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn fresh() -> Calibration {
        Calibration::from_tables(
            &Table::parse(GEMM_CSV),
            &Table::parse(SDPA_CSV),
            &Table::parse(LAUNCH_CSV),
            &Table::parse(ELEMENTWISE_CSV),
            &Table::parse(HOST_CSV),
        )
    }

    /// Achievable bandwidth ÷ spec, and achievable matmul rate ÷ spec, on the H200.
    pub fn fractions(&self) -> (f64, f64) {
        let g = h200();
        (self.bw_gbps / (g.hbm_tbps * 1000.0), self.peak_tflops / g.bf16_tflops)
    }

    /// Measured ÷ waves model of a GEMM (m, n, k): the curve of the nearest
    /// calibration shapes by n·k (interpolated in log n·k), each read at log₂ m.
    pub fn gemm_ratio(&self, m: u64, n: u64, k: u64) -> f64 {
        if let Some((_, pts)) = self.gemm.iter().find(|(s, _)| *s == (n, k)) {
            return interp(pts, (m.max(1) as f64).log2());
        }
        let x = ((n * k) as f64).ln();
        let mut by: Vec<(f64, f64)> = self
            .gemm
            .iter()
            .map(|((sn, sk), pts)| (((sn * sk) as f64).ln(), interp(pts, (m.max(1) as f64).log2())))
            .collect();
        by.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Shapes of equal size: their mean.
        let mut merged: Vec<(f64, f64)> = Vec::new();
        for (xk, y) in by {
            match merged.last_mut() {
                Some(last) if (last.0 - xk).abs() < 1e-9 => last.1 = 0.5 * (last.1 + y),
                _ => merged.push((xk, y)),
            }
        }
        interp(&merged, x)
    }

    /// Decode attention time measured on the H200 (interpolated): batch,
    /// heads, KV heads, head dim, tokens attended.
    pub fn sdpa_decode_time(&self, b: u64, h: u64, hkv: u64, hd: u64, kv: u64) -> f64 {
        let grp = (h / hkv.max(1)).max(1);
        // The family with this head dim (else the nearest), group (else the nearest), KV heads.
        let score = |&(fhd, fg, fkv): &(u64, u64, u64)| {
            let lg = |x: u64| (x.max(1) as f64).ln();
            (lg(fhd) - lg(hd)).abs() * 100.0 + (lg(fg) - lg(grp)).abs() * 10.0 + (lg(fkv) - lg(hkv)).abs()
        };
        let Some((fam, fits)) = self.sdpa_decode.iter().min_by(|a, b| score(&a.0).total_cmp(&score(&b.0))) else {
            return f64::NAN;
        };
        // Each measured batch: piecewise linear in the tokens attended (the last
        // segment extended). Across batches: log time, interpolated in log
        // (sequence, KV head) pairs (flat while the pairs underfill the GPU,
        // proportional once they fill it);
        // past the largest measured batch, proportional to the pairs.
        let pairs = (b * hkv) as f64;
        let kvf = kv as f64 * hd as f64 / fam.0 as f64;
        let per: Vec<(f64, f64)> = fits
            .iter()
            .map(|(fb, pts)| {
                let t = match pts.len() {
                    0 => f64::NAN,
                    1 => pts[0].1,
                    n if kvf > pts[n - 1].0 => {
                        let (a, z) = (pts[n - 2], pts[n - 1]);
                        z.1 + (kvf - z.0) * (z.1 - a.1) / (z.0 - a.0).max(1e-9)
                    }
                    _ => interp(pts, kvf),
                };
                ((fb * fam.2 as f64).ln(), t.max(1e-9).ln())
            })
            .collect();
        let pmax = per.last().map_or(1.0, |p| p.0.exp());
        interp(&per, pairs.ln()).exp() * (pairs / pmax).max(1.0)
    }

    /// Prefill attention on the H200: measured ÷ roofline at this batch and
    /// prompt length (each measured batch's curve read at log₂ seq, then
    /// interpolated in log batch: more sequences fill more of the SMs).
    pub fn sdpa_prefill_ratio(&self, b: u64, h: u64, hkv: u64, hd: u64, seq: u64) -> f64 {
        let grp = (h / hkv.max(1)).max(1);
        let score = |&(fhd, fg, fh): &(u64, u64, u64)| {
            let lg = |x: u64| (x.max(1) as f64).ln();
            (lg(fhd) - lg(hd)).abs() * 100.0 + (lg(fg) - lg(grp)).abs() * 10.0 + (lg(fh) - lg(h)).abs()
        };
        match self.sdpa_prefill.iter().min_by(|a, b| score(&a.0).total_cmp(&score(&b.0))) {
            Some((_, per_b)) => {
                let x = (seq.max(1) as f64).log2();
                let by_b: Vec<(f64, f64)> = per_b.iter().map(|(fb, pts)| (fb.ln(), interp(pts, x))).collect();
                interp(&by_b, (b.max(1) as f64).ln())
            }
            None => 1.0,
        }
    }

    /// (fixed seconds per call, bytes per second) of an elementwise op.
    pub fn ew(&self, e: Ew) -> (f64, f64) {
        self.elementwise
            .iter()
            .find(|(n, _, _)| *n == e.calib())
            .map(|&(_, a, r)| (a, r))
            .unwrap_or((0.0, self.bw_gbps * 1e9))
    }
}

/// The value of `key` in a small association list (inserted empty if absent).
fn slot<K: PartialEq, V: Default>(list: &mut Vec<(K, V)>, key: K) -> &mut V {
    let i = list.iter().position(|(k, _)| *k == key).unwrap_or_else(|| {
        list.push((key, V::default()));
        list.len() - 1
    });
    &mut list[i].1
}

/// Fits (latency, HBM fraction) of the engine's decode kernel to the gqa
/// rows of the decode-attention file replayed from a CUDA graph (`graphs`
/// 1, where the file has that column): t = √(latency² + (bytes ÷ (HBM ×
/// fraction))²), by a search on the squared log error. Falls back to
/// (20 µs, 0.9) on an empty file. The eager rows (`h200-train-decode.csv`)
/// time Python's call of SDPA (20 µs a layer flat up to 8,192 tokens at
/// batch 1), which the step's host effect already counts.
pub fn decode_engine(t: &Table) -> (f64, f64) {
    let hbm = h200().hbm_tbps * 1e12;
    let pts: Vec<(f64, f64)> = t
        .rows
        .iter()
        .filter(|r| t.text(r, "layout") == Some("gqa"))
        .filter(|r| t.col("graphs").is_none() || t.num(r, "graphs") == Some(1.0))
        .filter_map(|r| Some((t.num(r, "kv_bytes_per_layer")?, t.num(r, "us_per_layer")? * 1e-6)))
        .filter(|&(b, us)| b > 0.0 && us > 0.0)
        .collect();
    if pts.is_empty() {
        return (20e-6, 0.9);
    }
    let loss = |lat: f64, frac: f64| -> f64 {
        pts.iter()
            .map(|&(b, meas)| {
                let s = b / (hbm * frac);
                ((lat * lat + s * s).sqrt() / meas).ln().powi(2)
            })
            .sum()
    };
    let mut best = (f64::MAX, 20e-6, 0.9);
    for i in 0..=60 {
        let lat = 5e-6 * 1.04f64.powi(i);
        for j in 0..=50 {
            let frac = 0.5 + 0.01 * j as f64;
            let l = loss(lat, frac);
            if l < best.0 {
                best = (l, lat, frac);
            }
        }
    }
    (best.1, best.2)
}
