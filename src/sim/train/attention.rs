//! Assignment 2's attention benchmarks: attention alone, written out
//! (scores, mask, softmax, @V, as assignment 1 writes it) against one fused
//! kernel (`F.scaled_dot_product_attention`), forward and backward, and what
//! autograd keeps between them.

use super::ledger::{Class, Kernel, Phase};
use super::time::{kernel_time, Rates};
use super::{Config, Precision, Shape};
use crate::sim::hw::Gpu;

/// How many times its bytes a pass over one-byte (boolean) elements costs:
/// the elementwise kernels load them a few at a time, at about a third of the
/// bandwidth.
pub const BOOL_COST: f64 = 3.0;

/// One attention benchmark point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bench {
    pub batch: u64,
    pub heads: u64,
    pub d: u64,
    pub seq: u64,
    pub causal: bool,
    /// bf16 (2) or fp32 (4).
    pub elem: u64,
    /// `F.scaled_dot_product_attention` (else written out).
    pub fused: bool,
    /// The inputs carry a head dimension, [B, H, T, d]: SDPA then runs a
    /// fused kernel (FlashAttention-2 in bf16, the memory-efficient kernel in
    /// fp32). On the assignment's [B, T, d] it takes its math path (scores, a
    /// softmax, @V, the probabilities kept): both fused kernels need 4-D
    /// inputs.
    pub four_d: bool,
}

impl Bench {
    fn t2(&self) -> f64 {
        (self.batch * self.heads) as f64 * (self.seq * self.seq) as f64
    }
    fn td(&self) -> f64 {
        (self.batch * self.heads * self.seq * self.d) as f64
    }
    fn precision(&self) -> Precision {
        if self.elem == 2 {
            Precision::Bf16
        } else {
            Precision::Fp32
        }
    }
    /// A config that carries the precision for [`kernel_time`].
    fn config(&self) -> Config {
        let shape = Shape { d: self.d, dff: self.d, layers: 1, heads: 1, vocab: 1 };
        let mut c = Config::assignment(shape, self.seq);
        c.precision = self.precision();
        c
    }
    /// The kernels of one forward and one backward. The passes over the T×T
    /// scores are elementwise work at the plain bandwidth, each one's own
    /// penalties spelled out (the broadcast mask, the one-byte booleans): the
    /// training ledger's lumped rate for them (`Rates::tt`) is the steps'.
    pub fn kernels(&self) -> Vec<Kernel> {
        let e = self.elem as f64;
        let (t2, td) = (self.t2(), self.td());
        let mut out = Vec::new();
        let mut push = |op, phase, class, launches: f64, flops: f64, bytes: f64| {
            out.push(Kernel { op, phase, class, launches, flops, bytes, ideal_bytes: bytes });
        };
        let copies = self.batch * self.heads;
        if self.fused && self.four_d {
            let frac = if self.causal { 0.5 } else { 1.0 };
            let flops = 4.0 * t2 * self.d as f64 * frac;
            let grid = Class::Fused { copies, seq: self.seq, d: self.d, causal: self.causal };
            push("flash-attention", Phase::Forward, grid, 1.0, flops, 4.0 * td * e);
            push("flash-attention", Phase::Backward, grid, 3.0, 2.5 * flops, 10.0 * td * e);
            return out;
        }
        let mm = Class::Matmul { m: self.seq * copies, n: self.seq, k: self.d };
        let pv_mm = Class::Matmul { m: self.seq * copies, n: self.d, k: self.seq };
        let mm_flops = 2.0 * t2 * self.d as f64;
        if self.fused {
            // [B, T, d] inputs (no head dimension): SDPA takes its math path
            // (scores, a causal bias, one softmax, @V), which keeps the
            // probabilities: the measured saved bytes say so.
            // Causal: a T × T bias (from a tril of ones) added in place,
            // broadcast over the batch (a stride-0 operand: half the
            // bandwidth, counted as twice the bytes). Then `_safe_softmax`:
            // the softmax, which rows are all −inf (isneginf, all), and a
            // `where` that zeroes them (5 passes and two boolean ones).
            let (bl, bias) = if self.causal { (1.0, 4.0 * t2 * e) } else { (0.0, 0.0) };
            push("scores", Phase::Forward, mm, 1.0, mm_flops, 2.0 * td * e + t2 * e);
            push("softmax", Phase::Forward, Class::Memory, 4.0 + bl, 0.0, 5.0 * t2 * e + 2.0 * t2 + bias);
            push("pv", Phase::Forward, pv_mm, 1.0, mm_flops, t2 * e + 2.0 * td * e);
            push("scores", Phase::Backward, mm, 2.0, 2.0 * mm_flops, 2.0 * (2.0 * td * e + t2 * e));
            push("softmax", Phase::Backward, Class::Memory, 2.0, 0.0, 3.0 * t2 * e);
            push("pv", Phase::Backward, pv_mm, 2.0, 2.0 * mm_flops, 2.0 * (t2 * e + 2.0 * td * e));
            return out;
        }
        push("scores", Phase::Forward, mm, 1.0, mm_flops, 2.0 * td * e + t2 * e);
        // scale; mask (ones, tril, not, masked_fill); max, subtract, exp, sum, divide.
        // The mask is T × T booleans: ones writes a byte, tril and not read and
        // write one each, masked_fill reads one (6 bytes), each kernel moving
        // one-byte elements at about a third of the bandwidth (counted as
        // three times the bytes). masked_fill reads and writes the scores
        // with the mask broadcast over the batch (a stride-0 operand): off
        // the vectorized path, at about half the bandwidth (twice the bytes).
        let bools = BOOL_COST * 6.0 * (self.seq * self.seq) as f64;
        let (ml, mb) = if self.causal { (4.0, 4.0 * t2 * e + bools) } else { (0.0, 0.0) };
        push("mask", Phase::Forward, Class::Memory, 1.0 + ml, 0.0, 2.0 * t2 * e + mb);
        push("softmax", Phase::Forward, Class::Memory, 5.0, 0.0, 8.0 * t2 * e);
        push("pv", Phase::Forward, pv_mm, 1.0, mm_flops, t2 * e + 2.0 * td * e);
        push("scores", Phase::Backward, mm, 2.0, 2.0 * mm_flops, 2.0 * (2.0 * td * e + t2 * e));
        push("mask", Phase::Backward, Class::Memory, 2.0, 0.0, 2.0 * (2.0 * t2 * e + mb));
        push("softmax", Phase::Backward, Class::Memory, 8.0, 0.0, 2.0 * 8.0 * t2 * e);
        push("pv", Phase::Backward, pv_mm, 2.0, 2.0 * mm_flops, 2.0 * (t2 * e + 2.0 * td * e));
        out
    }
    /// What runs: `written`, `sdpa-math`, `flash-2` or `mem-efficient`.
    pub fn kernel_name(&self) -> &'static str {
        match (self.fused, self.four_d, self.elem) {
            (false, _, _) => "written",
            (true, false, _) => "sdpa-math",
            (true, true, 2) => "flash-2",
            _ => "mem-efficient",
        }
    }
    /// Forward and backward times (s): the GPU's, at least the host's time
    /// for one call of the fused kernel from Python.
    pub fn times(&self, g: &Gpu, r: &Rates) -> (f64, f64) {
        let c = self.config();
        let on = super::time::On::ALL.without(super::time::Effect::Host);
        let mut t = (0.0, 0.0);
        for k in self.kernels() {
            let s = kernel_time(&k, &c, g, r, on);
            match k.phase {
                Phase::Forward => t.0 += s,
                _ => t.1 += s,
            }
        }
        if self.fused && self.four_d {
            t = (t.0.max(r.fused.host[0]), t.1.max(r.fused.host[1]));
        }
        t
    }
    /// Bytes autograd keeps for the backward (the distinct tensors saved):
    /// q, k, v; written out also the mask, the row maxima's indices, the
    /// exponentials, their row sums and the probabilities; fused, the output
    /// and its log-sum-exp.
    pub fn saved_bytes(&self) -> f64 {
        let e = self.elem as f64;
        let rows = (self.batch * self.heads * self.seq) as f64;
        let inputs = 3.0 * self.td() * e;
        if self.fused && self.four_d {
            return inputs + self.td() * e + rows * 4.0;
        }
        if self.fused {
            // The math path keeps the probabilities.
            return inputs + self.t2() * e;
        }
        let mask = if self.causal { (self.seq * self.seq) as f64 } else { 0.0 };
        inputs + mask + rows * 8.0 + 2.0 * self.t2() * e + rows * e
    }
    /// The most memory a forward and backward hold at once (bytes): what is
    /// saved, plus the backward's three T×T gradients (written out) or the
    /// gradients of q, k, v and the output (fused).
    pub fn peak_bytes(&self) -> f64 {
        let e = self.elem as f64;
        let extra =
            if self.fused && self.four_d { 4.0 * self.td() * e } else { 3.0 * self.t2() * e + 4.0 * self.td() * e };
        self.saved_bytes() + extra
    }
    /// Whether it runs on `g` (its peak within the GPU's memory).
    pub fn fits(&self, g: &Gpu) -> bool {
        self.peak_bytes() <= g.hbm_gb * 1e9
    }
    /// The longest sequence (a power of two) that fits on `g`.
    pub fn max_seq(&self, g: &Gpu) -> u64 {
        let mut seq = 128;
        while (Bench { seq: seq * 2, ..*self }).fits(g) && seq < 1 << 22 {
            seq *= 2;
        }
        seq
    }
}
