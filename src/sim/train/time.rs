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
    /// The fused attention kernels ([`FusedKernel`]: FlashAttention-2 in
    /// bf16, the memory-efficient kernel in fp32), forward and backward.
    pub fused: FusedRates,
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
    pub const PEAK: Rates =
        Rates { mm: [1.0; 3], fused: FusedRates::PEAK, bw: 1.0, tt: 1.0, floor: 0.0, host: [0.0; 3] };
}

/// Which fused attention kernel `F.scaled_dot_product_attention` runs on
/// [B, H, T, d] inputs on an H100/H200: FlashAttention-2 for bf16 (tensor
/// cores), the memory-efficient (xformers, CUTLASS) kernel for fp32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FusedKernel {
    Flash,
    Efficient,
}

impl FusedKernel {
    pub fn of(p: Precision) -> FusedKernel {
        if p == Precision::Bf16 {
            FusedKernel::Flash
        } else {
            FusedKernel::Efficient
        }
    }
    fn index(self) -> usize {
        self as usize
    }
    /// (query rows, key columns) of one tile: the thread block's queries and
    /// the keys it takes at a time, from the kernels' sources
    /// (FlashAttention-2: 128 × 128 forward, key blocks of 128 backward;
    /// memory-efficient fp32: 64 × 64, forward 32 × 128 from d > 64).
    pub fn tile(self, backward: bool, d: u64) -> (u64, u64) {
        match self {
            FusedKernel::Flash => (128, 128),
            FusedKernel::Efficient if !backward && d > 64 => (32, 128),
            FusedKernel::Efficient => (64, 64),
        }
    }
}

/// The fused kernels' fitted costs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FusedRates {
    /// One SM's seconds per score element when its softmax (exponentials,
    /// row maxima) sets the pace: [kernel][forward, backward].
    pub score: [[f64; 2]; 2],
    /// One SM's seconds per score element and head dimension when its
    /// matmuls do: [kernel][forward, backward].
    pub mac: [[f64; 2]; 2],
    /// Thread blocks one SM holds at once (1 or 2: the kernel's shared
    /// memory and registers): [kernel][forward, backward].
    pub resident: [[u8; 2]; 2],
    /// How much slower each of two thread blocks sharing an SM runs than one
    /// alone (1: twice the throughput; 2: none): [kernel][forward, backward].
    pub share: [[f64; 2]; 2],
    /// A launch's fixed time on the GPU (s).
    pub latency: f64,
    /// The host's time for one call from Python, forward (one SDPA call) and
    /// backward (autograd's engine and its three launches): a benchmark of
    /// one small attention takes at least this (s).
    pub host: [f64; 2],
}

impl FusedRates {
    pub const PEAK: FusedRates = FusedRates {
        score: [[0.0; 2]; 2],
        mac: [[0.0; 2]; 2],
        resident: [[1; 2]; 2],
        share: [[1.0; 2]; 2],
        latency: 0.0,
        host: [0.0; 2],
    };
}

/// One launch of a fused attention kernel: `copies` (batch × heads) of a
/// `seq` × `seq` attention at head dimension `d`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    pub kernel: FusedKernel,
    pub backward: bool,
    pub copies: u64,
    pub seq: u64,
    pub d: u64,
    pub causal: bool,
}

impl Grid {
    /// Score elements of each thread block of one copy, in launch order. The
    /// forward's block i takes queries i·bm… and walks the keys up to its
    /// diagonal (causal): the first blocks are short. The backward's block j
    /// takes keys j·bn… and walks the queries from its diagonal to the end:
    /// the first blocks are long.
    pub fn block_scores(&self) -> Vec<f64> {
        let (bm, bn) = self.kernel.tile(self.backward, self.d);
        let t = self.seq.max(1);
        let (rows, cols) = if self.backward { (bn, bm) } else { (bm, bn) };
        let n = t.div_ceil(rows);
        (0..n)
            .map(|i| {
                let span = if !self.causal {
                    t.div_ceil(cols)
                } else if self.backward {
                    t.div_ceil(cols) - (i * rows) / cols
                } else {
                    ((i + 1) * rows).min(t).div_ceil(cols)
                };
                (span.max(1) * bm * bn) as f64
            })
            .collect()
    }
    /// One SM's seconds per score element for one block alone on it.
    pub fn per_score(&self, r: &FusedRates) -> f64 {
        let (k, ph) = (self.kernel.index(), self.backward as usize);
        // The head dimension the kernel is compiled for: FlashAttention-2's
        // multiples of 32; the memory-efficient kernel's powers of two.
        let d_pad = match self.kernel {
            FusedKernel::Flash => self.d.max(1).div_ceil(32) * 32,
            FusedKernel::Efficient => self.d.max(1).next_power_of_two().max(32),
        } as f64;
        r.score[k][ph].max(r.mac[k][ph] * d_pad)
    }
    /// The launch's time on `sms` SMs (s), without its fixed latency: the
    /// blocks dispatched in order, up to `resident` an SM, a block
    /// starting on the SM where one finished; blocks sharing an SM run
    /// `share` times slower each.
    pub fn seconds(&self, sms: u64, r: &FusedRates) -> f64 {
        let per = self.per_score(r);
        if per <= 0.0 || sms == 0 {
            return 0.0;
        }
        let one = self.block_scores();
        let blocks = one.len() as u64 * self.copies.max(1);
        let (k, ph) = (self.kernel.index(), self.backward as usize);
        let resident = r.resident[k][ph].clamp(1, 2) as usize;
        let share = if resident > 1 { r.share[k][ph].clamp(1.0, resident as f64) } else { 1.0 };
        let sms = sms as usize;
        // A very large grid: the whole work over the SMs at the shared rate
        // plus the last block's tail (the schedule's simulation would cost
        // more than it tells).
        if blocks > 50_000 {
            let total: f64 = one.iter().sum::<f64>() * self.copies.max(1) as f64;
            let longest = one.iter().copied().fold(0.0, f64::max);
            return (total * share / (resident * sms) as f64 + longest) * per;
        }
        let mut order = (0..self.copies.max(1)).flat_map(|_| one.iter().copied());
        // Each SM: its resident blocks' remaining scores.
        let mut sm: Vec<Vec<f64>> = vec![Vec::with_capacity(resident); sms];
        for _ in 0..resident {
            for s in sm.iter_mut() {
                if let Some(b) = order.next() {
                    s.push(b);
                }
            }
        }
        let rate = |k: usize| if k > 1 { 1.0 / (share * per) } else { 1.0 / per };
        let mut now = 0.0_f64;
        let mut clock = vec![0.0_f64; sms];
        let next = |s: &Vec<f64>, at: f64| -> f64 {
            if s.is_empty() {
                f64::INFINITY
            } else {
                at + s.iter().copied().fold(f64::INFINITY, f64::min) / rate(s.len())
            }
        };
        let mut heap: std::collections::BinaryHeap<(std::cmp::Reverse<u64>, usize)> = (0..sms)
            .filter(|i| !sm[*i].is_empty())
            .map(|i| (std::cmp::Reverse(next(&sm[i], 0.0).to_bits()), i))
            .collect();
        while let Some((std::cmp::Reverse(bits), i)) = heap.pop() {
            let t = f64::from_bits(bits);
            let done = (t - clock[i]) * rate(sm[i].len());
            for b in sm[i].iter_mut() {
                *b -= done;
            }
            clock[i] = t;
            now = now.max(t);
            let m = sm[i].iter().copied().fold(f64::INFINITY, f64::min);
            if let Some(p) = sm[i].iter().position(|b| *b <= m) {
                sm[i].swap_remove(p);
            }
            if let Some(b) = order.next() {
                sm[i].push(b);
            }
            if !sm[i].is_empty() {
                heap.push((std::cmp::Reverse(next(&sm[i], t).to_bits()), i));
            }
        }
        now
    }
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
    waves_factor_tiled(m, n, k, sms, 128)
}

/// The output tile a matmul's kernels use at a precision: the tensor-core
/// kernels (TF32, bf16) 128 × 128; true fp32 runs cuBLAS's CUDA-core SGEMM,
/// whose tiles are 64 × 64 (its FMA loop has no tensor-core fragment to fill,
/// and the smaller tile keeps the grid filling the SMs: at context 128, 512
/// rows by the small model's 768 columns are 48 tiles of 128 × 128 for 132
/// SMs, but 96 of 64 × 64). With 128 × 128 tiles the fit read the idle SMs
/// of the short contexts into a fast rate (90 % of the CUDA cores' peak) that
/// the long ones, whose grids fill the GPU, then outran.
pub fn mm_tile(p: Precision) -> u64 {
    if p == Precision::Fp32 {
        64
    } else {
        128
    }
}

/// [`waves_factor`] with `tile` × `tile` output tiles (rows shorter for
/// skinny products).
pub fn waves_factor_tiled(m: u64, n: u64, k: u64, sms: u64, tile: u64) -> f64 {
    if sms == 0 {
        return 1.0;
    }
    let tm = m.max(1).next_power_of_two().clamp(16, tile);
    let w = Waves { m: m.max(1), n: n.max(1), k: k.max(1), tm, tn: tile, sms };
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
            let wf = waves_factor_tiled(m, n, kk, g.sms as u64, mm_tile(c.precision));
            let eff = if rates { r.mm[prec_index(c.precision)] / wf } else { 1.0 };
            k.flops / (mm_peak(g, c.precision) * eff)
        }
        Class::Fused { copies, seq, d, causal } => {
            let kernel = FusedKernel::of(c.precision);
            if rates {
                // Each launch (one a layer): its thread blocks scheduled on
                // the SMs, their longest chain of tiles (#/waves).
                // The backward is three launches a layer (dO·O, the kernel, dQ's
                // conversion); checkpointing's recompute is a forward.
                let backward = k.phase == Phase::Backward && k.op != "recompute";
                let layers = (k.launches / if backward { 3.0 } else { 1.0 }).max(1.0);
                let grid = Grid { kernel, backward, copies, seq, d, causal };
                return layers * grid.seconds(g.sms as u64, &r.fused) + k.launches * r.fused.latency;
            }
            let peak =
                if kernel == FusedKernel::Flash { mm_peak(g, Precision::Bf16) } else { mm_peak(g, Precision::Fp32) };
            k.flops / peak
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
    /// A phase's time as a range (s): the GPU's alone (the host's launches
    /// hidden behind it) to the longer of the two. One number where the GPU
    /// is the bound.
    pub fn range(&self, i: usize) -> (f64, f64) {
        (self.gpu[i], self.gpu[i].max(self.host[i]))
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
