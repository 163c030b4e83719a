//! How long a step takes: the plain roofline of the ledger, then one named
//! effect at a time, as a waterfall whose terms add up exactly to the
//! prediction.

use super::ledger::{self, Class, Kernel, Phase};
use super::{Config, Precision};
use crate::sim::hw::Gpu;
use crate::sim::matmul::Waves;

/// The named effects, in the waterfall's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Achievable rates instead of the data sheet's peaks (matmuls per
    /// precision, with wave and tile quantization; HBM; a kernel's floor).
    Rates,
    /// Autocast's casts (weights and fp32 activations to bf16, gradients back).
    Autocast,
    /// The operators' traffic as written (each op its own kernel, every pass
    /// through memory) instead of one fused kernel per operator.
    Unfused,
    /// The optimizer's traffic beyond one fused pass (loop or foreach).
    Optimizer,
    /// Eager PyTorch launches each kernel from the host: a phase takes at
    /// least the host's time to launch its kernels.
    Host,
}

impl Effect {
    pub const ALL: [Effect; 5] = [Effect::Rates, Effect::Autocast, Effect::Unfused, Effect::Optimizer, Effect::Host];
    pub const fn code(self) -> &'static str {
        match self {
            Effect::Rates => "rates",
            Effect::Autocast => "autocast",
            Effect::Unfused => "unfused",
            Effect::Optimizer => "optimizer",
            Effect::Host => "host",
        }
    }
    fn bit(self) -> u8 {
        1 << Effect::ALL.iter().position(|e| *e == self).unwrap_or(0)
    }
}

/// A set of effects switched on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct On(pub u8);

impl On {
    pub const ALL: On = On(0b1_1111);
    pub const NONE: On = On(0);
    pub fn has(self, e: Effect) -> bool {
        self.0 & e.bit() != 0
    }
    pub fn with(self, e: Effect) -> On {
        On(self.0 | e.bit())
    }
    pub fn without(self, e: Effect) -> On {
        On(self.0 & !e.bit())
    }
    /// From the URL's comma list of effect codes (unknown codes ignored).
    pub fn parse(s: &str) -> On {
        let mut on = On::NONE;
        for e in Effect::ALL {
            if s.split(',').any(|c| c.trim() == e.code()) {
                on = on.with(e);
            }
        }
        on
    }
    pub fn code(self) -> String {
        Effect::ALL.iter().filter(|e| self.has(**e)).map(|e| e.code()).collect::<Vec<_>>().join(",")
    }
}

/// The constants the effects need, fitted to part of the H200 runs
/// ([`super::measured::Fit`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rates {
    /// Achieved fraction of the peak for matmuls in fp32 (CUDA cores), TF32
    /// and bf16 (tensor cores).
    pub mm: [f64; 3],
    /// Achieved fraction of the peak for the fused attention kernel, fp32 and bf16.
    pub fused: [f64; 2],
    /// Score elements (each an exponential) the fused kernel retires a
    /// second on the whole GPU.
    pub exps: f64,
    /// The fused backward's time over what its FLOPs and exponentials say
    /// (its extra passes: dP, dS, the atomics of dQ).
    pub fused_bwd: f64,
    /// Achieved fraction of the HBM bandwidth.
    pub bw: f64,
    /// Achieved fraction of the HBM bandwidth in the passes over the T×T
    /// scores (broadcast masks, row reductions).
    pub tt: f64,
    /// The shortest a kernel takes on the GPU (s).
    pub floor: f64,
    /// The host's time to launch one kernel (s), forward, backward, optimizer.
    pub host: [f64; 3],
}

impl Rates {
    /// Peaks everywhere, nothing on the host (the plain roofline).
    pub const PEAK: Rates = Rates {
        mm: [1.0; 3],
        fused: [1.0; 2],
        exps: f64::INFINITY,
        fused_bwd: 1.0,
        bw: 1.0,
        tt: 1.0,
        floor: 0.0,
        host: [0.0; 3],
    };
}

/// A matmul's peak at a precision (TF32 tensor cores run at half of bf16's
/// rate on A100, H100, H200 and B200: NVIDIA's data sheets).
pub fn mm_peak(g: &Gpu, p: Precision) -> f64 {
    1e12 * match p {
        Precision::Fp32 => g.fp32_tflops,
        Precision::Tf32 => g.bf16_tflops / 2.0,
        Precision::Bf16 => g.bf16_tflops,
    }
}

fn prec_index(p: Precision) -> usize {
    match p {
        Precision::Fp32 => 0,
        Precision::Tf32 => 1,
        Precision::Bf16 => 2,
    }
}

/// Wave and tile quantization of a matmul on `sms` SMs (128 × 128 tiles, or
/// shorter for skinny products): ≥ 1.
pub fn waves_factor(m: u64, n: u64, k: u64, sms: u64) -> f64 {
    if sms == 0 {
        return 1.0;
    }
    let tm = m.max(1).next_power_of_two().clamp(16, 128);
    let w = Waves { m: m.max(1), n: n.max(1), k: k.max(1), tm, tn: 128, sms };
    1.0 / (w.sm_utilization() * w.tile_efficiency()).max(1e-9)
}

/// One kernel's GPU time (s) under the effects `on`.
pub fn kernel_time(k: &Kernel, c: &Config, g: &Gpu, r: &Rates, on: On) -> f64 {
    let rates = on.has(Effect::Rates);
    let bw = g.hbm_tbps * 1e12 * if rates { r.bw } else { 1.0 };
    let bytes = match k.class {
        Class::Cast if !on.has(Effect::Autocast) => return 0.0,
        Class::Memory | Class::Scores if !on.has(Effect::Unfused) => k.ideal_bytes,
        Class::Optim if !on.has(Effect::Optimizer) => k.ideal_bytes,
        _ => k.bytes,
    };
    let compute = match k.class {
        Class::Matmul { m, n, k: kk } => {
            let eff = if rates { r.mm[prec_index(c.precision)] / waves_factor(m, n, kk, g.sms as u64) } else { 1.0 };
            k.flops / (mm_peak(g, c.precision) * eff)
        }
        Class::Fused { blocks, scores, seq } => {
            let (peak, eff) = if c.precision == Precision::Bf16 {
                (mm_peak(g, Precision::Bf16), r.fused[1])
            } else {
                (mm_peak(g, Precision::Fp32), r.fused[0])
            };
            if rates {
                // Each thread block walks its keys one after another on one
                // SM: a key costs its multiply-adds with 128 queries and 128
                // exponentials at one SM's share of the rates. The kernel takes
                // the longest block (all `seq` keys) or the whole work spread
                // over the SMs, whichever is longer (#/waves).
                let sms = g.sms.max(1) as f64;
                let layers = (k.launches / if k.phase == Phase::Backward { 3.0 } else { 1.0 }).max(1.0);
                // The whole work at the whole GPU's rates.
                let work = k.flops / (peak * eff) + scores as f64 * layers / r.exps;
                // One SM's time for one key of one block (128 queries).
                let keys_total = (scores as f64 * layers / 128.0).max(1.0);
                let per_key_sm = work / keys_total * sms;
                // Fewer blocks than SMs: the longest block sets the time.
                let longest = if (blocks as f64) < sms { seq as f64 * layers * per_key_sm } else { 0.0 };
                work.max(longest) * if k.phase == Phase::Backward { r.fused_bwd } else { 1.0 }
            } else {
                k.flops / peak
            }
        }
        _ => 0.0,
    };
    let bw = if k.class == Class::Scores && rates { bw * r.tt } else { bw };
    let t = compute.max(bytes / bw);
    if rates {
        t.max(k.launches * r.floor)
    } else {
        t
    }
}

/// The three phases' times (s): forward, backward, optimizer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Phases {
    pub gpu: [f64; 3],
    pub host: [f64; 3],
    pub launches: [f64; 3],
    /// What the step takes: each phase the longer of the GPU's and, with the
    /// host effect, the host's time.
    pub time: [f64; 3],
}

impl Phases {
    pub fn step(&self) -> f64 {
        self.time.iter().sum()
    }
    /// Whether a phase is host-bound (the host's launches take longer than the GPU's work).
    pub fn host_bound(&self, i: usize) -> bool {
        self.host[i] > self.gpu[i]
    }
}

/// The step's phases under `on`.
pub fn phases(c: &Config, g: &Gpu, r: &Rates, on: On) -> Phases {
    phases_of(&ledger::kernels(c), c, g, r, on)
}

pub fn phases_of(ks: &[Kernel], c: &Config, g: &Gpu, r: &Rates, on: On) -> Phases {
    let mut p = Phases { gpu: [0.0; 3], host: [0.0; 3], launches: [0.0; 3], time: [0.0; 3] };
    for k in ks {
        let i = Phase::ALL.iter().position(|ph| *ph == k.phase).unwrap_or(0);
        p.gpu[i] += kernel_time(k, c, g, r, on);
        p.launches[i] += k.launches;
    }
    for i in 0..3 {
        p.host[i] = p.launches[i] * r.host[i];
        p.time[i] = if on.has(Effect::Host) { p.gpu[i].max(p.host[i]) } else { p.gpu[i] };
    }
    p
}

/// One bar of the waterfall: an effect and what it adds (s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Term {
    /// `None` for the plain roofline.
    pub effect: Option<Effect>,
    pub seconds: f64,
    /// The step after this term.
    pub total: f64,
}

/// The waterfall: the plain roofline, then each effect in `on` added in
/// order. The terms add up to the prediction with `on` (exactly: each term is
/// the difference of two totals).
pub fn waterfall(c: &Config, g: &Gpu, r: &Rates, on: On) -> Vec<Term> {
    let ks = ledger::kernels(c);
    let mut cur = On::NONE;
    let plain = phases_of(&ks, c, g, r, cur).step();
    let mut out = vec![Term { effect: None, seconds: plain, total: plain }];
    let mut total = plain;
    for e in Effect::ALL {
        if !on.has(e) {
            continue;
        }
        cur = cur.with(e);
        let next = phases_of(&ks, c, g, r, cur).step();
        out.push(Term { effect: Some(e), seconds: next - total, total: next });
        total = next;
    }
    out
}

/// Whether an effect changes anything for this configuration (autocast
/// only under bf16-autocast; the optimizer only when it is not fused).
pub fn applies(e: Effect, c: &Config) -> bool {
    match e {
        Effect::Autocast => c.precision == Precision::Bf16,
        Effect::Optimizer => c.optimizer != super::Optimizer::Fused,
        _ => true,
    }
}

/// Model FLOPs utilization: the model's FLOPs over the step at the
/// precision's peak.
pub fn mfu(c: &Config, g: &Gpu, step_s: f64) -> f64 {
    if step_s <= 0.0 {
        return 0.0;
    }
    c.model_flops() / step_s / mm_peak(g, c.precision)
}
