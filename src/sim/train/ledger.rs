//! Every kernel of one training step, as eager PyTorch runs the assignment-1
//! model: per operator its launches, FLOPs, bytes as written and bytes if the
//! operator were one fused kernel (inputs read once, outputs written once).
//!
//! The counts follow the code in `measure/train/run_train.py` (the same model,
//! written out or with library kernels); `tests.rs` checks the launch counts
//! against the kernels torch.profiler counted on the H200.

use super::{Attention, Checkpoint, Config, Ops, Optimizer, Precision};

/// Where in the step a kernel runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Forward,
    Backward,
    Optimizer,
}

impl Phase {
    pub const ALL: [Phase; 3] = [Phase::Forward, Phase::Backward, Phase::Optimizer];
    pub const fn code(self) -> &'static str {
        match self {
            Phase::Forward => "fwd",
            Phase::Backward => "bwd",
            Phase::Optimizer => "opt",
        }
    }
}

/// What bounds a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A matmul at the step's precision: m × k by k × n (a batched launch's
    /// copies counted in m, as their output tiles share the SMs).
    Matmul { m: u64, n: u64, k: u64 },
    /// The fused attention kernel over `copies` (batch × heads) attentions of
    /// `seq` queries and keys at head dimension `d` (its thread blocks and
    /// their schedule: [`super::time::Grid`]).
    Fused { copies: u64, seq: u64, d: u64, causal: bool },
    /// Memory-bound elementwise work, reductions, gathers.
    Memory,
    /// Elementwise passes over the T×T scores (masks, softmax).
    Scores,
    /// Autocast's dtype conversions (bf16-autocast only).
    Cast,
    /// The optimizer's elementwise work.
    Optim,
}

/// One operator of the step (all layers together).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kernel {
    /// The operator's key (`op.<key>` in the texts).
    pub op: &'static str,
    pub phase: Phase,
    pub class: Class,
    /// Kernel launches.
    pub launches: f64,
    pub flops: f64,
    /// Bytes read and written as the code runs it.
    pub bytes: f64,
    /// Bytes if the operator were one fused kernel.
    pub ideal_bytes: f64,
}

/// Bytes of an activation element at the step's precision (matmul outputs).
pub fn act_bytes(c: &Config) -> f64 {
    if c.precision == Precision::Bf16 {
        2.0
    } else {
        4.0
    }
}

/// Parameter tensors: nine per block (q, k, v, o, W1, W2, W3, two gains),
/// the embedding, the final gain and the head.
pub fn param_tensors(c: &Config) -> u64 {
    9 * c.shape.layers + 3
}

/// Parameters of the Linear layers (the ones autocast casts).
pub fn linear_params(c: &Config) -> f64 {
    let s = &c.shape;
    (s.layers * (4 * s.d * s.d + 3 * s.d * s.dff) + s.d * s.vocab) as f64
}

struct Ledger {
    out: Vec<Kernel>,
}

impl Ledger {
    #[allow(clippy::too_many_arguments)] // a kernel's fields
    fn push(
        &mut self,
        op: &'static str,
        phase: Phase,
        class: Class,
        launches: f64,
        flops: f64,
        bytes: f64,
        ideal: f64,
    ) {
        self.out.push(Kernel { op, phase, class, launches, flops, bytes, ideal_bytes: ideal });
    }
    /// A forward matmul: `launches` launches of `copies` products (m×k)·(k×n)
    /// each, element size `e`; and its backward (input gradient and weight
    /// gradient: twice the FLOPs, twice the launches).
    #[allow(clippy::too_many_arguments)]
    fn matmul(
        &mut self,
        op: &'static str,
        launches: f64,
        copies: u64,
        m: u64,
        n: u64,
        k: u64,
        e: f64,
        recompute: bool,
    ) {
        let count = launches * copies as f64;
        let flops = 2.0 * m as f64 * n as f64 * k as f64 * count;
        let bytes = e * (m * k + k * n + m * n) as f64 * count;
        let class = Class::Matmul { m: m * copies, n, k };
        self.push(op, Phase::Forward, class, launches, flops, bytes, bytes);
        self.push(op, Phase::Backward, class, 2.0 * launches, 2.0 * flops, 2.0 * bytes, 2.0 * bytes);
        if recompute {
            self.push("recompute", Phase::Backward, class, launches, flops, bytes, bytes);
        }
    }
    /// An elementwise chain of `class` (memory or the T×T scores): forward
    /// launches and bytes; the backward reads the output's gradient and the
    /// saved tensors and writes the input's gradient: `bwd_launch` × the
    /// launches, twice the bytes.
    #[allow(clippy::too_many_arguments)]
    fn chain(
        &mut self,
        op: &'static str,
        class: Class,
        launches: f64,
        bytes: f64,
        ideal: f64,
        bwd_launch: f64,
        recompute: bool,
    ) {
        self.push(op, Phase::Forward, class, launches, 0.0, bytes, ideal);
        if bwd_launch > 0.0 {
            self.push(op, Phase::Backward, class, bwd_launch * launches, 0.0, 2.0 * bytes, 2.0 * ideal);
        }
        if recompute {
            self.push("recompute", Phase::Backward, class, launches, 0.0, bytes, ideal);
        }
    }
    fn memory(&mut self, op: &'static str, launches: f64, bytes: f64, ideal: f64, bwd_launch: f64, recompute: bool) {
        self.chain(op, Class::Memory, launches, bytes, ideal, bwd_launch, recompute);
    }
}

/// The kernels of one step of `c`, in the order they run.
pub fn kernels(c: &Config) -> Vec<Kernel> {
    let s = c.shape;
    let l = s.layers as f64;
    let m = c.tokens();
    let md = (m * s.d) as f64;
    let mf = (m * s.dff) as f64;
    let mv = (m * s.vocab) as f64;
    let bh = (c.batch * s.heads) as f64;
    let t2 = bh * (c.seq * c.seq) as f64;
    let e = act_bytes(c);
    let written = c.ops == Ops::Written;
    let autocast = c.precision == Precision::Bf16;
    let rc = c.checkpoint == Checkpoint::Blocks;
    let mut k = Ledger { out: Vec::new() };

    // Forward (and each operator's backward beside it).
    k.memory("embedding", 1.0, md * 4.0 + m as f64 * 8.0, md * 4.0, 2.0, false);
    // RMSNorm in fp32: pow, mean, +eps, sqrt, divide, gain (6 launches, 7
    // passes) written; one kernel (2 passes) from the library. Two a block.
    let (nl, np) = if written { (6.0, 7.0) } else { (1.0, 2.0) };
    k.memory("rmsnorm", 2.0 * l * nl, 2.0 * l * np * md * 4.0, 2.0 * l * 2.0 * md * 4.0, 1.5, rc);
    k.matmul("qkv", 3.0 * l, 1, m, s.d, s.d, e, rc);
    // RoPE on q and k: strided halves, four products, a difference, a sum, a
    // stack (7 launches, 9 passes each); under autocast the cos/sin tables
    // promote bf16 to fp32 outputs.
    let rope_e = if autocast { 3.0 } else { 4.0 };
    k.memory("rope", 14.0 * l, 18.0 * l * md * rope_e, 4.0 * l * md * e, 1.5, rc);
    let hd = s.head_dim();
    let bhu = c.batch * s.heads;
    let mask_bytes = 3.0 * l * (c.seq * c.seq) as f64 * 2.0;
    match (c.attention, c.precision) {
        (Attention::Written, _) => {
            k.matmul("scores", l, bhu, c.seq, c.seq, hd, e, rc);
            // The scale, the causal mask (built each layer: ones, tril, not;
            // then masked_fill), the softmax: written out as max, subtract,
            // exp, sum, divide (8 passes); one kernel from the library (whose
            // output autocast keeps in fp32, then casts to bf16 for @V).
            k.chain("mask", Class::Scores, 5.0 * l, 4.0 * l * t2 * e + mask_bytes, 0.0, 1.0, rc);
            // Written out under autocast, exp and sum are on its fp32 list:
            // max (2 B), subtract (2 + 2), exp (2 + 4), sum (4), divide in
            // fp32 (4 + 4), then @V casts the fp32 probabilities to bf16
            // (4 + 2): 30 B an element, not eight bf16 passes' 16.
            let (sl, sb) = match (written, autocast) {
                (true, false) => (5.0, 8.0 * t2 * e),
                (true, true) => (6.0, 30.0 * t2),
                (false, false) => (1.0, 2.0 * t2 * 4.0),
                (false, true) => (2.0, t2 * (2.0 + 4.0) + t2 * (4.0 + 2.0)),
            };
            k.chain("softmax", Class::Scores, sl * l, sb * l, 2.0 * t2 * e * l, 1.5, rc);
            k.matmul("pv", l, bhu, c.seq, hd, c.seq, e, rc);
        }
        (Attention::Flash, _) => {
            // One fused kernel (bf16: FlashAttention-2's tensor-core kernel;
            // fp32: the memory-efficient kernel on CUDA cores). Causal: half
            // of the T×T blocks; reads q, k, v, writes o (and the
            // log-sum-exp); the backward recomputes the scores: 2.5× the
            // FLOPs, twice the exponentials.
            let flops = 4.0 * t2 * hd as f64 / 2.0 * l;
            let bytes = 4.0 * md * e * l;
            let grid = Class::Fused { copies: bhu, seq: c.seq, d: hd, causal: true };
            k.push("flash-attention", Phase::Forward, grid, l, flops, bytes, bytes);
            k.push("flash-attention", Phase::Backward, grid, 3.0 * l, 2.5 * flops, 2.5 * bytes, 2.5 * bytes);
            if rc {
                k.push("recompute", Phase::Backward, grid, l, flops, bytes, bytes);
            }
        }
    }
    // The heads back into rows: transpose then reshape copies.
    k.memory("reshape", l, 2.0 * l * md * e, 0.0, 1.0, rc);
    k.matmul("out-proj", l, 1, m, s.d, s.d, e, rc);
    // Two residual adds a block in the fp32 stream; their backward also
    // accumulates the two gradients that meet at each branch.
    k.memory("residual", 2.0 * l, 2.0 * l * 3.0 * md * 4.0, 2.0 * l * 3.0 * md * 4.0, 1.0, rc);
    k.matmul("ffn-up", 2.0 * l, 1, m, s.dff, s.d, e, rc);
    // SwiGLU: sigmoid, a·σ(a), times W3x (3 launches, 8 passes); library: SiLU
    // then the product (2 launches, 5 passes).
    let (gl, gb) = if written { (3.0, 8.0) } else { (2.0, 5.0) };
    k.memory("swiglu", gl * l, gb * l * mf * e, 3.0 * l * mf * e, 1.5, rc);
    k.matmul("ffn-down", l, 1, m, s.d, s.dff, e, rc);
    k.memory("rmsnorm", nl, np * md * 4.0, 2.0 * md * 4.0, 1.5, false);
    k.matmul("lm-head", 1.0, 1, m, s.vocab, s.d, e, false);
    // Cross-entropy over the vocabulary in fp32: max, subtract, exp, sum, log,
    // gather, mean (6 passes over the logits) written out; log-softmax and the
    // loss from the library (2 passes).
    let (cl, cb) = if written { (9.0, 6.0) } else { (3.0, 2.0) };
    k.memory("cross-entropy", cl, cb * mv * 4.0, mv * e, 1.5, false);

    if autocast {
        // Each Linear's fp32 weight cast to bf16 in the forward (6 B a
        // parameter), its bf16 gradient cast back to fp32 in the backward;
        // the fp32 inputs of q, k, v, W1, W3 and the head cast to bf16, and
        // RoPE's fp32 q and k before the scores.
        let w = linear_params(c);
        let casts_in = (5.0 * l + 1.0) * md + if c.attention == Attention::Written { 2.0 * l * md } else { 0.0 };
        let launches = 7.0 * l + 1.0 + 5.0 * l + 1.0 + 2.0 * l;
        k.push("casts", Phase::Forward, Class::Cast, launches, 0.0, 6.0 * (w + casts_in), 0.0);
        k.push("casts", Phase::Backward, Class::Cast, launches, 0.0, 6.0 * (w + casts_in), 0.0);
    }

    // The optimizer: AdamW over every parameter. Fused, it reads p, g, m, v
    // and writes p, m, v once (28 B a parameter); the loop runs 8 kernels a
    // tensor (80 B a parameter); foreach runs 9 list operations in chunks of
    // tensors (88 B a parameter).
    let n = s.params() as f64;
    let tensors = param_tensors(c) as f64;
    let chunks = |per: f64| (tensors / per).ceil().max(n / (65_536.0 * 320.0)).ceil();
    let (launches, bytes) = match c.optimizer {
        Optimizer::Loop => (8.0 * tensors, 80.0 * n),
        Optimizer::Foreach => (9.0 * chunks(48.0), 88.0 * n),
        Optimizer::Fused => (chunks(36.0), 28.0 * n),
    };
    k.push("adamw", Phase::Optimizer, Class::Optim, launches, 11.0 * n, bytes, 28.0 * n);
    k.out
}

/// Launches a phase makes.
pub fn launches(ks: &[Kernel], phase: Phase) -> f64 {
    ks.iter().filter(|k| k.phase == phase).map(|k| k.launches).sum()
}
