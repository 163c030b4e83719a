//! The memory of one training step as a timeline (what PyTorch's memory
//! snapshot shows after the fact, predicted before): parameters and AdamW's
//! state as the floor; each block's saved activations added through the
//! forward; released through the backward as the gradients appear; the
//! optimizer's transient; the peak marked.
//!
//! The saved tensors are counted from what autograd keeps for the model of
//! `measure/train/run_train.py` (which tensors each operator saves for its
//! backward, at which dtype); transients are the tensors alive only inside one
//! operator.

use super::ledger::act_bytes;
use super::{Attention, Checkpoint, Config, Ops, Optimizer, Precision};
use crate::sim::{Metric, Steppable};

/// One block's saved tensors (bytes), by what they are.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Saved {
    /// The T×T score-sized tensors (written-out attention only).
    pub scores: f64,
    /// Everything else (norm inputs, projections' inputs, q, k, v, the MLP's).
    pub other: f64,
}

impl Saved {
    pub fn total(&self) -> f64 {
        self.scores + self.other
    }
}

/// What one block saves for its backward.
pub fn block_saved(c: &Config) -> Saved {
    let s = c.shape;
    let m = c.tokens() as f64;
    let md = m * s.d as f64;
    let mf = m * s.dff as f64;
    let t2 = (c.batch * s.heads) as f64 * (c.seq * c.seq) as f64;
    let e = act_bytes(c);
    let ac = c.precision == Precision::Bf16;
    let written = c.ops == Ops::Written;
    // An RMSNorm keeps its fp32 input (and, written out, x / rms for the gain).
    let norm = if written { 8.0 * md } else { 4.0 * md };
    // The projections' inputs: the fp32 norm output once, or under autocast
    // one bf16 copy per projection (q, k, v; W1, W3).
    let qkv_in = if ac { 6.0 * md } else { 4.0 * md };
    // (W1 and W3 share the fp32 norm output; under autocast two bf16 copies:
    // the same 4 B a value.)
    let ffn_in = 4.0 * md;
    // q and k after RoPE (fp32 under autocast, cast again for the matmul), v,
    // the heads back in rows for the output projection.
    let qk = 2.0 * md * e;
    let v = md * e;
    let rows = md * e;
    let (scores, attn_other) = match c.attention {
        Attention::Written => {
            let tt = match (written, ac) {
                (true, _) => 2.0 * t2 * e,
                (false, false) => t2 * 4.0,
                (false, true) => t2 * 6.0,
            };
            let mask = (c.seq * c.seq) as f64 + (c.batch * s.heads * c.seq) as f64 * 8.0;
            (tt, qk + v + mask)
        }
        // Fused: q, k, v, the output and its log-sum-exp.
        Attention::Flash => (0.0, qk + v + md * e + (c.batch * s.heads * c.seq) as f64 * 4.0),
    };
    let mlp = if written { 5.0 * mf * e } else { 4.0 * mf * e };
    // Under autocast each Linear's bf16 weight is kept for its backward.
    let weights = if ac { 2.0 * (4 * s.d * s.d + 3 * s.d * s.dff) as f64 } else { 0.0 };
    Saved { scores, other: 2.0 * norm + qkv_in + ffn_in + attn_other + rows + mlp + weights }
}

/// What the head and loss save: the final norm's, the head's input (and its
/// bf16 weight under autocast), the loss's fp32 exponentials or log-softmax.
pub fn head_saved(c: &Config) -> f64 {
    let s = c.shape;
    let m = c.tokens() as f64;
    let md = m * s.d as f64;
    let mv = m * s.vocab as f64;
    let ac = c.precision == Precision::Bf16;
    let norm = if c.ops == Ops::Written { 8.0 * md } else { 4.0 * md };
    let head_in = if ac { 2.0 * md + 2.0 * (s.d * s.vocab) as f64 } else { 4.0 * md };
    norm + head_in + 4.0 * mv
}

/// The largest tensors alive only inside one block's forward (the T×T
/// scores before the softmax keeps its own) and its backward (the softmax's
/// gradients), bytes.
fn block_transients(c: &Config) -> (f64, f64) {
    let s = c.shape;
    let m = c.tokens() as f64;
    let t2 = (c.batch * s.heads) as f64 * (c.seq * c.seq) as f64;
    let e = act_bytes(c);
    let mf = m * s.dff as f64;
    match c.attention {
        Attention::Written => {
            let fwd = 2.0 * t2 * e;
            let bwd = if c.ops == Ops::Written {
                3.0 * t2 * e
            } else {
                2.0 * t2 * e.max(if c.precision == Precision::Bf16 { 4.0 } else { e })
            };
            (fwd.max(2.0 * mf * e), bwd.max(3.0 * mf * e))
        }
        Attention::Flash => (2.0 * mf * e, 3.0 * mf * e),
    }
}

/// The loss's transients: the logits, their fp32 copy and the shifted
/// logits (forward); the logits' gradient in fp32 and at the head's dtype
/// (backward).
fn head_transients(c: &Config) -> (f64, f64) {
    let mv = (c.tokens() * c.shape.vocab) as f64;
    let e = act_bytes(c);
    let fwd = if c.ops == Ops::Written { mv * e + 2.0 * mv * 4.0 } else { mv * e + mv * 4.0 };
    (fwd, mv * 4.0 + mv * e)
}

/// What the optimizer allocates while it runs: the loop's √v of one tensor,
/// foreach's √v of every tensor (a copy of the whole state's size), nothing
/// for fused.
pub fn optimizer_transient(c: &Config) -> f64 {
    let s = c.shape;
    let largest = (s.vocab * s.d).max(s.d * s.dff) as f64;
    match c.optimizer {
        Optimizer::Loop => 4.0 * largest,
        Optimizer::Foreach => 4.0 * s.params() as f64,
        Optimizer::Fused => 0.0,
    }
}

/// The part of memory a bar of the timeline is made of.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Alloc {
    /// fp32 parameters (4 B each).
    pub params: f64,
    /// AdamW's m and v (8 B a parameter).
    pub optimizer: f64,
    /// Gradients present so far (4 B a parameter).
    pub grads: f64,
    /// Saved T×T scores.
    pub scores: f64,
    /// Other saved activations.
    pub activations: f64,
    /// Alive only inside the operator at this point (its peak).
    pub transient: f64,
}

impl Alloc {
    /// Allocated bytes at this point's peak.
    pub fn total(&self) -> f64 {
        self.params + self.optimizer + self.grads + self.scores + self.activations + self.transient
    }
    /// Allocated bytes once the operator is done (no transient).
    pub fn held(&self) -> f64 {
        self.total() - self.transient
    }
}

/// Where a point of the timeline is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    Start,
    Embedding,
    /// Block i (0-based) forward.
    Forward(u64),
    Head,
    HeadBackward,
    /// Block i backward.
    Backward(u64),
    EmbeddingBackward,
    Optimizer,
    /// zero_grad: the gradients freed.
    End,
}

/// One step's memory, point by point: a [`Steppable`] (state at any step
/// in closed form).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timeline {
    pub c: Config,
}

impl Timeline {
    pub fn new(c: Config) -> Timeline {
        Timeline { c }
    }
    fn layers(&self) -> u64 {
        self.c.shape.layers
    }
    /// The point at step `t`.
    pub fn point(&self, t: u64) -> Point {
        let l = self.layers();
        match t.min(self.steps()) {
            0 => Point::Start,
            1 => Point::Embedding,
            t if t < l + 2 => Point::Forward(t - 2),
            t if t == l + 2 => Point::Head,
            t if t == l + 3 => Point::HeadBackward,
            t if t < 2 * l + 4 => Point::Backward(2 * l + 3 - t),
            t if t == 2 * l + 4 => Point::EmbeddingBackward,
            t if t == 2 * l + 5 => Point::Optimizer,
            _ => Point::End,
        }
    }
    /// The resident floor: parameters and optimizer state (after the first step).
    pub fn resident(&self) -> f64 {
        12.0 * self.c.shape.params() as f64
    }
    /// Saved by each block as it sits between the forward and the backward
    /// (checkpointed: only its input).
    fn kept(&self) -> Saved {
        match self.c.checkpoint {
            Checkpoint::None => block_saved(&self.c),
            Checkpoint::Blocks => Saved { scores: 0.0, other: 4.0 * (self.c.tokens() * self.c.shape.d) as f64 },
        }
    }
    /// Every saved activation at the end of the forward (bytes).
    pub fn activations(&self) -> f64 {
        self.layers() as f64 * self.kept().total() + head_saved(&self.c)
    }
    /// The memory at step `t`.
    pub fn alloc(&self, t: u64) -> Alloc {
        let c = &self.c;
        let s = c.shape;
        let n = s.params() as f64;
        let lp = 4.0 * s.layer_params() as f64;
        let head_grads = 4.0 * (s.vocab * s.d + s.d) as f64;
        let kept = self.kept();
        let full = block_saved(c);
        let (tf, tb) = block_transients(c);
        let (hf, hb) = head_transients(c);
        let mut a = Alloc { params: 4.0 * n, optimizer: 8.0 * n, ..Alloc::default() };
        let blocks = |a: &mut Alloc, count: u64| {
            a.scores = count as f64 * kept.scores;
            a.activations = count as f64 * kept.other;
        };
        let l = self.layers();
        match self.point(t) {
            Point::Start | Point::End => {}
            Point::Embedding => a.transient = 4.0 * (c.tokens() * s.d) as f64,
            Point::Forward(i) => {
                // Blocks before i hold what they keep; block i adds its saved
                // tensors (checkpointed: only its input), and inside it the
                // T×T temporaries live before the softmax keeps its own.
                blocks(&mut a, i);
                match c.checkpoint {
                    Checkpoint::None => {
                        a.scores += full.scores;
                        a.activations += full.other;
                        a.transient = (tf - full.scores).max(0.0);
                    }
                    Checkpoint::Blocks => {
                        a.activations += kept.other;
                        a.transient = tf;
                    }
                }
            }
            Point::Head => {
                blocks(&mut a, l);
                a.activations += head_saved(c);
                a.transient = hf;
            }
            Point::HeadBackward => {
                blocks(&mut a, l);
                a.grads = head_grads;
                a.transient = hb;
            }
            Point::Backward(i) => {
                // Blocks below i still hold theirs; block i's are in use
                // (recomputed when checkpointed) and freed as its gradients land.
                blocks(&mut a, i);
                a.scores += full.scores;
                a.activations += full.other;
                a.grads = head_grads + (l - i) as f64 * lp;
                a.transient = tb;
            }
            Point::EmbeddingBackward => {
                // The embedding's dense gradient lands as its .grad; the
                // stream's gradient is the last transient.
                a.grads = 4.0 * n;
                a.transient = 4.0 * (c.tokens() * s.d) as f64;
            }
            Point::Optimizer => {
                a.grads = 4.0 * n;
                a.transient = optimizer_transient(c);
            }
        }
        a
    }
    /// The step's peak (bytes) and the step where it happens.
    pub fn peak(&self) -> (f64, u64) {
        (0..=self.steps()).map(|t| (self.alloc(t).total(), t)).fold((0.0, 0), |m, x| if x.0 > m.0 { x } else { m })
    }
    /// The peak of the forward alone.
    pub fn forward_peak(&self) -> f64 {
        (0..=self.layers() + 2).map(|t| self.alloc(t).total()).fold(0.0, f64::max)
    }
}

/// The state at a step: the point and its memory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct State {
    pub point: Point,
    pub alloc: Alloc,
    /// The highest total so far.
    pub peak_so_far: f64,
}

impl Steppable for Timeline {
    type State = State;
    fn steps(&self) -> u64 {
        2 * self.layers() + 6
    }
    fn state_at(&self, t: u64) -> State {
        let t = t.min(self.steps());
        // The running peak is the peak of a prefix: the same closed form a jump
        // and a step take (the timeline has at most ~200 points).
        let peak_so_far = (0..=t).map(|u| self.alloc(u).total()).fold(0.0, f64::max);
        State { point: self.point(t), alloc: self.alloc(t), peak_so_far }
    }
    fn metrics(&self, t: u64) -> Vec<Metric> {
        let st = self.state_at(t);
        vec![Metric::real("allocated-gb", st.alloc.total() / 1e9), Metric::real("peak-so-far-gb", st.peak_so_far / 1e9)]
    }
}
