//! The chain of effects: each one term in seconds on top of the roofline
//! time, switchable; the fitted constants; the step's time, its waterfall,
//! totals and the largest batch that fits.

use super::calibration::{gemm_waves_time, h200, median, Calibration};
use super::shape::{attention_op, dtypes, kernels, ops, preset, Arch, Case, Ew, Kind, Op, Phase};
#[cfg(not(target_arch = "wasm32"))]
use super::validation::measured;
use super::validation::Measured;
use crate::sim::hw::Gpu;

/// The named effects, in the order the waterfall applies them. `per-head`
/// is the decode attention kernel that runs the g query heads of a KV head as
/// g rows of one SDPA call over B × (KV heads) blocks (what
/// `measure/llm/run_llm.py` timed): too few blocks for the SMs at a small
/// batch. Without it a decode step uses what an engine's decode kernel does,
/// splitting the KV sequence across the SMs (flash-decoding).
pub const EFFECTS: [&str; 7] = ["bandwidth", "waves", "gemm", "attention", "per-head", "elementwise", "launch"];

/// Which effects are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct On(pub [bool; 7]);

impl On {
    /// `all`: every effect of the hardware, with an engine's decode kernel.
    pub const ALL: On = On([true, true, true, true, false, true, true]);
    pub const NONE: On = On([false; 7]);
    /// How `measure/llm/run_llm.py` ran its steps (the per-head decode
    /// kernel): every comparison with its measurements uses this.
    pub const MEASURED: On = On([true; 7]);
    pub fn has(&self, name: &str) -> bool {
        EFFECTS.iter().position(|&e| e == name).is_some_and(|i| self.0[i])
    }
    /// From the URL's comma-separated names (`all`, `none`, or a list).
    pub fn parse(s: &str) -> On {
        match s {
            "all" | "" => On::ALL,
            "none" => On::NONE,
            "all,per-head" | "per-head,all" => On::MEASURED,
            _ => On(EFFECTS.map(|e| s.split(',').any(|p| p.trim() == e))),
        }
    }
    pub fn code(&self) -> String {
        if *self == On::ALL {
            return "all".into();
        }
        if *self == On::NONE {
            return "none".into();
        }
        EFFECTS.iter().zip(self.0).filter(|(_, on)| *on).map(|(e, _)| *e).collect::<Vec<_>>().join(",")
    }
}

/// One operator's time (seconds, one instance) with these effects on.
pub fn op_time(op: &Op, c: &Case, g: &Gpu, cal: &Calibration, on: On) -> f64 {
    let spec_peak = g.peak_tflops(c.dt.rate) * 1e12;
    let spec_bw = g.hbm_tbps * 1e12;
    let (fb, fp) = cal.fractions();
    let (peak, bw) = if on.has("bandwidth") { (spec_peak * fp, spec_bw * fb) } else { (spec_peak, spec_bw) };
    let roof = |flops: f64, bytes: f64| (flops / peak).max(bytes / bw);
    let sms = g.sms as u64;
    match op.kind {
        Kind::Gemm { m, n, k } => {
            let bytes = op.bytes();
            let mut t = roof(op.flops, bytes);
            if on.has("waves") {
                t = gemm_waves_time(m, n, k, bytes, peak, bw, sms);
            }
            if on.has("gemm") {
                // The measured curve, as a ratio to the waves model on the H200's
                // achievable roofs; applied to whatever the effects before it give.
                t *= cal.gemm_ratio(m, n, k);
            }
            t
        }
        Kind::Attention => {
            let t = roof(op.flops, op.bytes());
            if !on.has("attention") {
                return t;
            }
            let s = &c.shape;
            let h = h200();
            let (hpeak, hbw) = (h.bf16_tflops * 1e12 * fp, h.hbm_tbps * 1e12 * fb);
            let ratio = match c.phase {
                Phase::Decode => {
                    // Measured at bf16 KV: compare with the roof of the same bytes in bf16.
                    let o = attention_op(&Case { dt: dtypes("bf16", "bf16"), ..*c });
                    let hroof = (o.flops / hpeak).max(o.bytes() / hbw);
                    cal.sdpa_decode_time(c.batch, s.heads, s.kvheads, s.head_dim(), c.kv_len()) / hroof
                }
                Phase::Prefill => cal.sdpa_prefill_ratio(c.batch, s.heads, s.kvheads, s.head_dim(), c.seq),
            };
            // The ratio is against the H200's achievable roofs; keep this GPU's roof underneath.
            let own = (op.flops / (spec_peak * fp)).max(op.bytes() / (spec_bw * fb));
            let whole = own * ratio.max(0.0);
            if c.phase == Phase::Decode && !on.has("per-head") {
                // An engine's split-KV decode kernel: a fixed latency, then the
                // KV cache streamed at the measured rate (scaled to this GPU).
                // Taken only where it is predicted faster than one block per
                // (sequence, KV head), as FlashAttention's split heuristic
                // chooses: in effect where B × KV heads leave SMs idle; where
                // they fill them the unsplit kernel streams the cache faster
                // (measured: Llama-3-8B at B 64, ctx 8192, the enable_gqa step
                // runs as the per-head one, 21.4 against 21.9 ms).
                let (floor, frac) = cal.decode_engine;
                let stream = op.bytes() / (spec_bw * frac);
                return (floor * floor + stream * stream).sqrt().min(whole);
            }
            whole
        }
        Kind::Elementwise(e) => {
            let ideal = roof(op.flops, op.ideal_bytes());
            if !on.has("elementwise") {
                return ideal;
            }
            // Unfused traffic at the op's measured streaming rate (scaled to this GPU).
            let (_, rate) = cal.ew(e);
            let scale = g.hbm_tbps / h200().hbm_tbps;
            ideal.max((op.bytes()) / (rate * scale))
        }
    }
}

/// Per-kernel fixed cost of an op in a CUDA graph (part of the launch
/// effect): the elementwise ops' measured fixed cost per call.
fn fixed_cost(op: &Op, cal: &Calibration) -> f64 {
    match op.kind {
        Kind::Elementwise(e) => {
            let (a, _) = cal.ew(e);
            let calls = match e {
                Ew::Rope | Ew::KvWrite => 2.0,
                _ => 1.0,
            };
            a * calls
        }
        _ => 0.0,
    }
}

/// The launch constants: the tail each kernel of a real step adds in a
/// CUDA graph beyond its calibrated time, fitted on the fitted models' graph
/// steps (never on the held-out models); and, for the figures, the host's
/// cost per kernel of an eager decode layer of each layout (measured stage
/// by stage, `Calibration::host_time`: nothing fitted).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    pub graph_gap: f64,
    /// What each kernel adds on the GPU when launched one by one instead of
    /// in a graph (the front end's gap between separately submitted
    /// kernels): the median of (eager − graph) ÷ kernels over the fitted
    /// models' decode steps that stay GPU-bound when eager.
    pub eager_gap: f64,
    pub host_llama: f64,
    pub host_gpt2: f64,
}

impl Fit {
    const ZERO: Fit = Fit { graph_gap: 0.0, eager_gap: 0.0, host_llama: 0.0, host_gpt2: 0.0 };

    /// Fitted ahead of time to the shipped measurements (`shipped.rs`).
    pub fn shipped() -> &'static Fit {
        &super::shipped::FIT
    }

    /// A fresh fit to the shipped measurements (what `shipped.rs` must equal).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn fresh() -> Fit {
        Fit::from(measured().iter().filter(|m| !m.held_out()), &Calibration::fresh())
    }

    /// Least squares in relative error for the graph gap (graph steps); the
    /// eager gap from the same points measured both ways where the eager
    /// step stays within 15 % of the graph (GPU-bound: the host keeps ahead).
    pub fn from<'a>(pts: impl Iterator<Item = &'a Measured>, cal: &Calibration) -> Fit {
        let pts: Vec<&Measured> = pts.collect();
        let (mut num, mut den) = (0.0, 0.0);
        for m in pts.iter().filter(|m| m.graphs) {
            let Some(c) = m.case() else { continue };
            let base = step_time_with(&c, h200(), cal, On::MEASURED, &Fit::ZERO) * 1e3;
            let x = kernels(&c) as f64 / m.ms;
            num += x * (1.0 - base / m.ms);
            den += x * x;
        }
        let graph_gap = if den > 0.0 { (num / den).max(0.0) * 1e-3 } else { 0.0 };
        let mut gaps = Vec::new();
        for e in pts.iter().filter(|m| !m.graphs && m.phase == Phase::Decode) {
            let Some(g) = pts.iter().find(|g| g.graphs && g.model == e.model && g.batch == e.batch && g.n == e.n)
            else {
                continue;
            };
            let Some(c) = e.case() else { continue };
            if e.ms < 1.15 * g.ms {
                gaps.push((e.ms - g.ms) * 1e-3 / kernels(&c) as f64);
            }
        }
        let eager_gap = if gaps.is_empty() { 0.0 } else { median(gaps).max(0.0) };
        let per_kernel = |code: &str| {
            let Some(p) = preset(code) else { return 0.0 };
            let c = Case {
                shape: p.shape,
                phase: Phase::Decode,
                batch: 1,
                ctx: 128,
                seq: 1,
                dt: dtypes("bf16", "bf16"),
                graphs: false,
            };
            let layer: Vec<Op> = ops(&c).into_iter().filter(|o| o.count == p.shape.layers).collect();
            let host: f64 = layer.iter().map(|o| cal.host_time(&p.shape, Phase::Decode, o.key)).sum();
            host / layer.iter().map(|o| o.kernels).sum::<u64>().max(1) as f64
        };
        Fit { graph_gap, eager_gap, host_llama: per_kernel("llama3-8b"), host_gpt2: per_kernel("gpt2") }
    }

    pub fn host(&self, arch: Arch) -> f64 {
        match arch {
            Arch::Llama => self.host_llama,
            Arch::Gpt2 => self.host_gpt2,
        }
    }
}

/// The whole step (seconds) with these effects on.
pub fn step_time(c: &Case, g: &Gpu, cal: &Calibration, on: On) -> f64 {
    step_time_with(c, g, cal, on, Fit::shipped())
}

fn step_time_with(c: &Case, g: &Gpu, cal: &Calibration, on: On, fit: &Fit) -> f64 {
    let table = ops(c);
    let device: f64 = table.iter().map(|o| o.count as f64 * op_time(o, c, g, cal, on)).sum();
    if !on.has("launch") {
        return device;
    }
    if !c.graphs {
        return eager_time(c, &table, g, cal, on, fit);
    }
    let fixed: f64 = table.iter().map(|o| o.count as f64 * fixed_cost(o, cal)).sum();
    device + fixed + kernels(c) as f64 * fit.graph_gap
}

/// An eager step from an idle GPU, as a queue: Python issues each operator
/// after the host time of its stage (`Calibration::host_time`), and the GPU
/// starts it when both it has been issued and the GPU has finished the one
/// before; the step ends when the GPU finishes the last (or the host, if it
/// is later). Host-bound steps come out as the host's time plus the last
/// kernels; GPU-bound ones as the GPU's time plus the host's head start.
pub fn eager_time(c: &Case, table: &[Op], g: &Gpu, cal: &Calibration, on: On, fit: &Fit) -> f64 {
    let gap = fit.graph_gap + fit.eager_gap;
    let gpu = |o: &Op| op_time(o, c, g, cal, on) + fixed_cost(o, cal) + o.kernels as f64 * gap;
    let host = |o: &Op| cal.host_time(&c.shape, c.phase, o.key);
    let (layer, head): (Vec<&Op>, Vec<&Op>) = table.iter().partition(|o| o.count == c.shape.layers && o.count > 1);
    let layer: Vec<(f64, f64)> = layer.iter().map(|o| (host(o), gpu(o))).collect();
    let head: Vec<(f64, f64)> = head.iter().map(|o| (host(o), gpu(o))).collect();
    // The embedding lookup (and GPT-2's position lookup and add) first.
    let extra = (kernels(c) - table.iter().map(|o| o.kernels * o.count).sum::<u64>()) as f64;
    let (mut h, mut t) = (cal.host_time(&c.shape, c.phase, "embed"), 0.0_f64);
    t = t.max(h) + extra * (gap + cal.ew(Ew::Add).0);
    for _ in 0..c.shape.layers {
        for &(hs, gs) in &layer {
            h += hs;
            t = t.max(h) + gs;
        }
    }
    for &(hs, gs) in &head {
        h += hs;
        t = t.max(h) + gs;
    }
    t.max(h)
}

/// The plain roofline: every operator at max(FLOPs ÷ spec peak, ideal bytes ÷ spec bandwidth).
pub fn ideal_time(c: &Case, g: &Gpu, cal: &Calibration) -> f64 {
    step_time(c, g, cal, On::NONE)
}

/// One bar of the waterfall.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    pub effect: &'static str,
    /// Seconds it adds (0 when switched off).
    pub seconds: f64,
    pub on: bool,
}

/// The waterfall: each effect's term, applied in [`EFFECTS`] order on top of
/// the effects before it that are on. Ideal + Σ terms = the prediction.
pub fn waterfall(c: &Case, g: &Gpu, cal: &Calibration, on: On) -> (f64, Vec<Term>) {
    let ideal = ideal_time(c, g, cal);
    let mut cur = On::NONE;
    let mut prev = ideal;
    let mut terms = Vec::new();
    for (i, e) in EFFECTS.iter().enumerate() {
        // The decode kernel's layout does not apply to a prefill.
        if *e == "per-head" && c.phase != Phase::Decode {
            continue;
        }
        if on.0[i] {
            cur.0[i] = true;
            let t = step_time(c, g, cal, cur);
            terms.push(Term { effect: e, seconds: t - prev, on: true });
            prev = t;
        } else {
            terms.push(Term { effect: e, seconds: 0.0, on: false });
        }
    }
    (ideal, terms)
}

/// A step's totals for the figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Totals {
    pub flops: f64,
    pub bytes: f64,
    pub weight_bytes: f64,
    pub kv_bytes: f64,
}

pub fn totals(c: &Case) -> Totals {
    let t = ops(c);
    let sum = |f: &dyn Fn(&Op) -> f64| t.iter().map(|o| o.count as f64 * f(o)).sum::<f64>();
    Totals {
        flops: sum(&|o| o.flops),
        bytes: sum(&|o| o.bytes()),
        weight_bytes: c.shape.params() as f64 * c.dt.weight,
        kv_bytes: (c.shape.kv_per_token() * c.batch * c.kv_len()) as f64 * c.dt.kv,
    }
}

/// Largest batch whose weights and KV cache (at this context) fit in the
/// GPU's memory (0 for a machine with no memory size, or when the weights
/// alone do not fit).
pub fn max_batch(c: &Case, g: &Gpu) -> u64 {
    let mem = g.hbm_gb * 1e9;
    let w = c.shape.params() as f64 * c.dt.weight;
    let per_seq = (c.shape.kv_per_token() * c.kv_len()) as f64 * c.dt.kv;
    if mem <= w || per_seq <= 0.0 {
        return 0;
    }
    ((mem - w) / per_seq).floor() as u64
}
