//! One training step of CS336 assignment 1's Transformer language model,
//! predicted before it runs: how long the forward, the backward and the
//! optimizer step take, and how much memory the step needs.
//!
//! - [`ledger`]: every kernel of a step (forward, backward, optimizer) with its
//!   FLOPs, its bytes as written and its bytes if fused, and its launches.
//! - [`time`]: the plain roofline of that ledger, then one named effect at a
//!   time (achievable rates, autocast's casts, the written-out traffic, the
//!   optimizer's traffic, the host), as a waterfall that adds up exactly.
//! - [`memory`]: the memory timeline of one step (parameters and optimizer
//!   state as the floor, activations saved through the forward, released
//!   through the backward as gradients appear, the optimizer's transient), a
//!   [`crate::sim::Steppable`].
//! - [`attention`]: assignment 2's attention benchmarks (written-out against a
//!   fused kernel) and what autograd saves.
//! - [`measured`]: the H200 runs of `measure/train/run_train.py`, the
//!   constants fitted to part of them, and the accuracy on the rest.

pub mod attention;
pub mod fitted;
pub mod ledger;
pub mod measured;
pub mod memory;
pub mod time;
#[cfg(test)]
mod tests;

/// Assignment 1's vocabulary.
pub const VOCAB: u64 = 10_000;

/// The model's shape (assignment 1's layout: untied head, SwiGLU, RoPE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub d: u64,
    pub dff: u64,
    pub layers: u64,
    pub heads: u64,
    pub vocab: u64,
}

impl Shape {
    /// Parameters of one block: q, k, v, o (4 d²), W1, W2, W3 (3 d·d_ff), two
    /// RMSNorm gains.
    pub fn layer_params(&self) -> u64 {
        4 * self.d * self.d + 3 * self.d * self.dff + 2 * self.d
    }
    /// Every parameter: embedding, blocks, final norm, LM head.
    pub fn params(&self) -> u64 {
        2 * self.vocab * self.d + self.layers * self.layer_params() + self.d
    }
    pub fn head_dim(&self) -> u64 {
        self.d / self.heads.max(1)
    }
}

/// A named size of assignment 2's Table 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    pub code: &'static str,
    /// The size's name in the assignment and in the measured files.
    pub size: &'static str,
    pub shape: Shape,
}

const fn shape(d: u64, dff: u64, layers: u64, heads: u64) -> Shape {
    Shape { d, dff, layers, heads, vocab: VOCAB }
}

pub const PRESETS: [Preset; 5] = [
    Preset { code: "cs336-small", size: "small", shape: shape(768, 3072, 12, 12) },
    Preset { code: "cs336-medium", size: "medium", shape: shape(1024, 4096, 24, 16) },
    Preset { code: "cs336-large", size: "large", shape: shape(1280, 5120, 36, 20) },
    Preset { code: "cs336-xl", size: "xl", shape: shape(1600, 6400, 48, 25) },
    Preset { code: "cs336-2.7b", size: "2.7b", shape: shape(2560, 10240, 32, 32) },
];

pub fn preset(code: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.code == code || p.size == code)
}

/// Declares a URL-coded choice: its variants, their codes, `ALL`, `code()`
/// and `parse()`.
macro_rules! choice {
    ($(#[$m:meta])* $name:ident { $($v:ident = $code:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($v),+ }
        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$v),+];
            pub const CODES: &'static [&'static str] = &[$($code),+];
            pub const fn code(self) -> &'static str {
                match self { $($name::$v => $code),+ }
            }
            pub fn parse(s: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|c| c.code() == s)
            }
        }
    };
}

choice!(
    /// How the matmuls run: fp32 on CUDA cores (TF32 off, torch's default),
    /// TF32 on tensor cores, or bf16 under `torch.autocast`.
    Precision { Fp32 = "fp32", Tf32 = "tf32", Bf16 = "bf16-autocast" }
);
choice!(
    /// The attention core: written out (scores, mask, softmax, @V), or one
    /// fused kernel (`F.scaled_dot_product_attention`).
    Attention { Written = "written", Flash = "flash" }
);
choice!(
    /// AdamW: a Python loop over parameters (assignment 1), or torch's
    /// `foreach` / `fused` implementations.
    Optimizer { Loop = "adamw-loop", Foreach = "adamw-foreach", Fused = "adamw-fused" }
);
choice!(
    /// Activation checkpointing: none, or each block's activations recomputed
    /// in the backward.
    Checkpoint { None = "none", Blocks = "blocks" }
);
choice!(
    /// The elementwise operators: written out as assignment 1 asks, or torch's
    /// library kernels.
    Ops { Written = "written", Library = "library" }
);

/// One training step's configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    pub shape: Shape,
    pub batch: u64,
    pub seq: u64,
    pub precision: Precision,
    pub attention: Attention,
    pub optimizer: Optimizer,
    pub checkpoint: Checkpoint,
    pub ops: Ops,
}

impl Config {
    /// Assignment 1's choices for a shape, at assignment 2's batch 4.
    pub fn assignment(shape: Shape, seq: u64) -> Config {
        Config {
            shape,
            batch: 4,
            seq,
            precision: Precision::Fp32,
            attention: Attention::Written,
            optimizer: Optimizer::Loop,
            checkpoint: Checkpoint::None,
            ops: Ops::Written,
        }
    }
    /// Tokens in the batch.
    pub fn tokens(&self) -> u64 {
        self.batch * self.seq
    }
    /// The model FLOPs of a step: 6 per matmul weight per token (the norms'
    /// gains and the embedding's lookup do none) and the attention's
    /// 12·L·T·d per token over the full T×T, as the written-out attention
    /// computes it.
    pub fn model_flops(&self) -> f64 {
        let s = &self.shape;
        let t = self.tokens() as f64;
        let dense = 6.0 * ledger::linear_params(self) * t;
        let attn = 12.0 * s.layers as f64 * self.seq as f64 * s.d as f64 * t;
        dense + attn
    }
}
