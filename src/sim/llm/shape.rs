//! The model's shape and the per-operator table: decoder layouts, the
//! published presets, data types, the case asked about, and each operator's
//! FLOPs, bytes and kernels for one layer and the head.

use crate::sim::flash::{Flash, Params as FlashParams, Pass};
use crate::sim::fusion::{ledger, Node};

/// Decoder layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    /// RMSNorm, fused QKV, RoPE, (grouped-query) attention, SwiGLU, untied head.
    Llama,
    /// LayerNorm with biases, learned positions, GELU MLP, tied head.
    Gpt2,
}

/// A model's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    pub arch: Arch,
    pub layers: u64,
    pub d: u64,
    pub heads: u64,
    pub kvheads: u64,
    pub ffn: u64,
    pub vocab: u64,
}

impl Shape {
    pub fn head_dim(&self) -> u64 {
        (self.d / self.heads.max(1)).max(1)
    }
    /// Query heads per KV head.
    pub fn group(&self) -> u64 {
        (self.heads / self.kvheads.max(1)).max(1)
    }
    /// Parameters of one layer (weights and biases; norms included).
    pub fn layer_params(&self) -> u64 {
        let (d, hd) = (self.d, self.head_dim());
        let qkv = (self.heads + 2 * self.kvheads) * hd * d;
        let o = d * self.heads * hd;
        match self.arch {
            Arch::Llama => qkv + o + 3 * d * self.ffn + 2 * d,
            Arch::Gpt2 => qkv + (self.heads + 2 * self.kvheads) * hd + o + d + 2 * d * self.ffn + self.ffn + d + 4 * d,
        }
    }
    /// All parameters: layers, embeddings (and an untied head), final norm.
    pub fn params(&self) -> u64 {
        let emb = self.vocab * self.d;
        let head = match self.arch {
            Arch::Llama => emb + emb + self.d,
            Arch::Gpt2 => emb + 1024 * self.d + 2 * self.d,
        };
        self.layers * self.layer_params() + head
    }
    /// KV-cache elements per token (all layers).
    pub fn kv_per_token(&self) -> u64 {
        2 * self.layers * self.kvheads * self.head_dim()
    }
}

/// A model preset: URL code, name, shape and where the shape comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    pub code: &'static str,
    pub name: &'static str,
    pub shape: Shape,
    pub source: &'static str,
}

const fn llama(layers: u64, d: u64, heads: u64, kvheads: u64, ffn: u64, vocab: u64) -> Shape {
    Shape { arch: Arch::Llama, layers, d, heads, kvheads, ffn, vocab }
}
const fn gpt2(layers: u64, d: u64, heads: u64) -> Shape {
    Shape { arch: Arch::Gpt2, layers, d, heads, kvheads: heads, ffn: 4 * d, vocab: 50257 }
}

/// The presets (published configs).
pub const PRESETS: [Preset; 9] = [
    Preset { code: "gpt2", name: "GPT-2 small", shape: gpt2(12, 768, 12), source: "openai-community/gpt2 config.json (n_layer 12, n_embd 768, n_head 12, vocab 50257); Radford et al. 2019" },
    Preset { code: "gpt2-medium", name: "GPT-2 medium", shape: gpt2(24, 1024, 16), source: "openai-community/gpt2-medium config.json (24, 1024, 16)" },
    Preset { code: "gpt2-large", name: "GPT-2 large", shape: gpt2(36, 1280, 20), source: "openai-community/gpt2-large config.json (36, 1280, 20)" },
    Preset { code: "gpt2-xl", name: "GPT-2 XL", shape: gpt2(48, 1600, 25), source: "openai-community/gpt2-xl config.json (48, 1600, 25)" },
    Preset { code: "llama-7b", name: "LLaMA-7B", shape: llama(32, 4096, 32, 32, 11008, 32000), source: "Touvron et al. 2023 (LLaMA), Table 2; meta-llama/Llama-2-7b-hf config.json (intermediate_size 11008, vocab 32000)" },
    Preset { code: "llama-13b", name: "LLaMA-13B", shape: llama(40, 5120, 40, 40, 13824, 32000), source: "Touvron et al. 2023 (LLaMA), Table 2; meta-llama/Llama-2-13b-hf config.json (intermediate_size 13824)" },
    Preset { code: "llama3-8b", name: "Llama-3-8B", shape: llama(32, 4096, 32, 8, 14336, 128256), source: "meta-llama/Meta-Llama-3-8B config.json (32 layers, 4096, 32 heads, 8 KV heads, 14336, vocab 128256)" },
    Preset { code: "llama3-70b", name: "Llama-3-70B", shape: llama(80, 8192, 64, 8, 28672, 128256), source: "meta-llama/Meta-Llama-3-70B config.json (80 layers, 8192, 64 heads, 8 KV heads, 28672, vocab 128256)" },
    Preset { code: "mistral-7b", name: "Mistral-7B", shape: llama(32, 4096, 32, 8, 14336, 32000), source: "mistralai/Mistral-7B-v0.1 config.json (32 layers, 4096, 32 heads, 8 KV heads, 14336, vocab 32000); Jiang et al. 2023" },
];

pub fn preset(code: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.code == code)
}

/// Decode (one new token for each of `batch` sequences) or prefill (the
/// whole prompt of `seq` tokens for each sequence).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Decode,
    Prefill,
}

/// Bytes per element: weights, activations, KV cache; and which Tensor Core
/// rate the matmuls run at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dtypes {
    pub weight: f64,
    pub act: f64,
    pub kv: f64,
    /// `bf16` or `fp8` (int8 runs at the fp8 rate on Hopper).
    pub rate: &'static str,
}

pub const DTYPES: &[&str] = &["bf16", "fp8", "int8", "int4"];
pub const KV_DTYPES: &[&str] = &["bf16", "fp8", "int8"];

pub fn dtypes(dtype: &str, kvdtype: &str) -> Dtypes {
    let kv = if kvdtype == "bf16" { 2.0 } else { 1.0 };
    match dtype {
        "fp8" | "int8" => Dtypes { weight: 1.0, act: 1.0, kv, rate: "fp8" },
        // Weight-only: weights 4 bits, activations and arithmetic bf16.
        "int4" => Dtypes { weight: 0.5, act: 2.0, kv, rate: "bf16" },
        _ => Dtypes { weight: 2.0, act: 2.0, kv, rate: "bf16" },
    }
}

/// One prediction's inputs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Case {
    pub shape: Shape,
    pub phase: Phase,
    pub batch: u64,
    /// Tokens already in the KV cache (decode).
    pub ctx: u64,
    /// Prompt tokens (prefill).
    pub seq: u64,
    pub dt: Dtypes,
    /// One CUDA graph per step (true) or eager launches.
    pub graphs: bool,
}

impl Case {
    /// Rows the per-layer matmuls see.
    pub fn tokens(&self) -> u64 {
        match self.phase {
            Phase::Decode => self.batch,
            Phase::Prefill => self.batch * self.seq,
        }
    }
    /// Tokens each sequence attends over.
    pub fn kv_len(&self) -> u64 {
        match self.phase {
            Phase::Decode => self.ctx + 1,
            Phase::Prefill => self.seq,
        }
    }
}

/// What kind of work an operator is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// y[m, n] = x[m, k] · Wᵀ.
    Gemm {
        m: u64,
        n: u64,
        k: u64,
    },
    Attention,
    Elementwise(Ew),
}

/// The elementwise operators (each calibrated separately).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ew {
    RmsNorm,
    LayerNorm,
    Rope,
    KvWrite,
    Add,
    SiluMul,
    Gelu,
}

impl Ew {
    /// Its row in `h200-llm-elementwise.csv` (the KV write is a strided copy,
    /// timed like the residual add).
    pub(super) fn calib(self) -> &'static str {
        match self {
            Ew::RmsNorm => "rms_norm",
            Ew::LayerNorm => "layer_norm",
            Ew::Rope => "rope",
            Ew::KvWrite | Ew::Add => "add",
            Ew::SiluMul => "silu_mul",
            Ew::Gelu => "gelu",
        }
    }
    /// The op as an expression tree for `sim::fusion`'s ledger: unfused,
    /// every node is a kernel that reads its operands from HBM and writes
    /// its result; fused, the inputs are read once and the result written
    /// once. Constants (cos, sin tables, norm weights) are not counted.
    pub fn node(self) -> Node {
        let x = || Node::Input("x".into());
        let op = |name: &str, args: Vec<Node>| Node::Op(name.into(), args);
        match self {
            Ew::RmsNorm => op("rms_norm", vec![x()]),
            Ew::LayerNorm => op("layer_norm", vec![x()]),
            // x·cos + cat(−x₂, x₁)·sin: neg, cat, mul, mul, add (5 kernels).
            Ew::Rope => op(
                "+",
                vec![
                    op("*", vec![x(), Node::Num(1.0)]),
                    op("*", vec![op("cat", vec![op("neg", vec![x()])]), Node::Num(1.0)]),
                ],
            ),
            Ew::KvWrite => op("copy", vec![x()]),
            Ew::Add => op("+", vec![x(), Node::Input("r".into())]),
            Ew::SiluMul => op("*", vec![op("silu", vec![Node::Input("g".into())]), Node::Input("u".into())]),
            Ew::Gelu => op("gelu", vec![x()]),
        }
    }
}

/// One operator of the table: per instance, and how many instances a step
/// runs (`count`: the layers, or 1 for the head).
#[derive(Clone, Debug, PartialEq)]
pub struct Op {
    /// Translation key's last part (`llm.op.<key>`).
    pub key: &'static str,
    pub kind: Kind,
    pub count: u64,
    pub flops: f64,
    /// Weights read.
    pub weight_bytes: f64,
    /// KV cache read.
    pub kv_read: f64,
    /// KV cache written.
    pub kv_write: f64,
    /// Activations read and written (unfused, as the kernels do).
    pub act_bytes: f64,
    /// Activations if the op's elementwise chain were one kernel (the ideal).
    pub act_fused: f64,
    /// Kernels it launches.
    pub kernels: u64,
}

impl Op {
    /// Bytes the plain roofline counts (elementwise chains fused).
    pub fn ideal_bytes(&self) -> f64 {
        self.weight_bytes + self.kv_read + self.kv_write + self.act_fused
    }
    /// Bytes the kernels actually move.
    pub fn bytes(&self) -> f64 {
        self.weight_bytes + self.kv_read + self.kv_write + self.act_bytes
    }
    pub fn intensity(&self) -> f64 {
        self.flops / self.ideal_bytes().max(1.0)
    }
}

pub(super) fn gemm(key: &'static str, count: u64, m: u64, n: u64, k: u64, bias: bool, dt: &Dtypes) -> Op {
    let (mf, nf, kf) = (m as f64, n as f64, k as f64);
    let w = nf * kf * dt.weight + if bias { nf * dt.act } else { 0.0 };
    let act = (mf * kf + mf * nf) * dt.act;
    Op {
        key,
        kind: Kind::Gemm { m, n, k },
        count,
        flops: 2.0 * mf * nf * kf,
        weight_bytes: w,
        kv_read: 0.0,
        kv_write: 0.0,
        act_bytes: act,
        act_fused: act,
        kernels: 1,
    }
}

/// An elementwise op's ledger per element (arrays unfused, arrays fused,
/// FLOPs, kernels): [`Ew::node`]'s `sim::fusion` ledger, which depends on
/// the op alone, so it is built once per op (every step time builds the
/// operator table, and a panel's sweeps build it hundreds of times).
fn ew_ledger(ew: Ew) -> (u64, u64, u64, u64) {
    const ALL: [Ew; 7] = [Ew::RmsNorm, Ew::LayerNorm, Ew::Rope, Ew::KvWrite, Ew::Add, Ew::SiluMul, Ew::Gelu];
    static LEDGERS: std::sync::OnceLock<[(u64, u64, u64, u64); 7]> = std::sync::OnceLock::new();
    let all = LEDGERS.get_or_init(|| {
        ALL.map(|e| {
            let l = ledger(&e.node());
            (l.arrays_unfused() as u64, l.arrays_fused() as u64, l.flops(1), l.kernels as u64)
        })
    });
    all[ALL.iter().position(|&e| e == ew).expect("every Ew is in ALL")]
}

pub(super) fn elementwise(key: &'static str, count: u64, ew: Ew, elems: f64, instances: u64, dt: &Dtypes) -> Op {
    let (unfused, fused_arrays, flops, kernels) = ew_ledger(ew);
    let (kv_write, act, fused) = if ew == Ew::KvWrite {
        // Read K and V (activations), write them into the cache.
        (elems * dt.kv, elems * dt.act, elems * dt.act)
    } else {
        (0.0, unfused as f64 * elems * dt.act, fused_arrays as f64 * elems * dt.act)
    };
    Op {
        key,
        kind: Kind::Elementwise(ew),
        count,
        flops: flops as f64 * elems,
        weight_bytes: 0.0,
        kv_read: 0.0,
        kv_write,
        act_bytes: act,
        act_fused: fused,
        kernels: kernels * instances,
    }
}

/// FlashAttention's forward ledger for one head of a causal prefill of `n`
/// tokens (`sim::flash`, FlashAttention-2 loop order, 128 × 64 tiles):
/// (HBM bytes, FLOPs of the computed tiles).
pub fn flash_head(n: u64, d: u64, elem: u64) -> (f64, f64) {
    let f = Flash::schedule_only(FlashParams {
        n: n as usize,
        d: d as usize,
        bq: 128,
        bk: 64,
        causal: true,
        // FlashAttention-2's loop order skips the fully masked tiles.
        skip_masked: true,
        seed: 0,
        elem_bytes: elem,
        sram: 228 * 1024,
    });
    (f.hbm_bytes_flash(Pass::Fwd) as f64, 4.0 * f.scores() as f64 * d as f64)
}

/// The attention operator of one layer: decode reads the KV cache of every
/// sequence; prefill is FlashAttention's forward ledger (`sim::flash`).
pub fn attention_op(c: &Case) -> Op {
    let s = &c.shape;
    let dt = &c.dt;
    let (hd, l) = (s.head_dim(), s.layers);
    let (h, hkv) = (s.heads, s.kvheads);
    let (b, t) = (c.batch as f64, c.kv_len() as f64);
    match c.phase {
        Phase::Decode => {
            let kv = 2.0 * b * (hkv * hd) as f64 * t * dt.kv;
            Op {
                key: "attention",
                kind: Kind::Attention,
                count: l,
                flops: 4.0 * b * (h * hd) as f64 * t,
                weight_bytes: 0.0,
                kv_read: kv,
                kv_write: 0.0,
                act_bytes: 2.0 * b * (h * hd) as f64 * dt.act,
                act_fused: 2.0 * b * (h * hd) as f64 * dt.act,
                kernels: 1,
            }
        }
        Phase::Prefill => {
            let (bytes, flops) = flash_head(c.seq, hd, dt.act as u64);
            // Per query head: Q read and O written once (with the fp32
            // row statistics); the rest is K and V, read per query block.
            let heads = b * h as f64;
            let qo = (2 * c.seq * hd) as f64 * dt.act + 4.0 * c.seq as f64;
            let kv = heads * (bytes - qo);
            Op {
                key: "attention",
                kind: Kind::Attention,
                count: l,
                flops: heads * flops,
                weight_bytes: 0.0,
                kv_read: kv,
                kv_write: 0.0,
                act_bytes: heads * bytes - kv,
                act_fused: heads * bytes - kv,
                kernels: 1,
            }
        }
    }
}

/// The per-operator table: one layer's operators (`count` = layers), then the head's.
pub fn ops(c: &Case) -> Vec<Op> {
    let s = &c.shape;
    let dt = &c.dt;
    let (m, d, hd, l) = (c.tokens(), s.d, s.head_dim(), s.layers);
    let (h, hkv) = (s.heads, s.kvheads);
    let mf = m as f64;
    let gpt = s.arch == Arch::Gpt2;
    let norm = if gpt { Ew::LayerNorm } else { Ew::RmsNorm };
    let mut v = vec![elementwise("norm1", l, norm, mf * d as f64, 1, dt)];
    v.push(gemm("qkv", l, m, (h + 2 * hkv) * hd, d, gpt, dt));
    if !gpt {
        v.push(elementwise("rope", l, Ew::Rope, mf * ((h + hkv) * hd) as f64, 2, dt));
    }
    v.push(elementwise("kv-write", l, Ew::KvWrite, mf * (2 * hkv * hd) as f64, 2, dt));
    v.push(attention_op(c));
    v.push(gemm("o-proj", l, m, d, h * hd, gpt, dt));
    v.push(elementwise("residual1", l, Ew::Add, mf * d as f64, 1, dt));
    v.push(elementwise("norm2", l, norm, mf * d as f64, 1, dt));
    if gpt {
        v.push(gemm("up", l, m, s.ffn, d, true, dt));
        v.push(elementwise("act", l, Ew::Gelu, mf * s.ffn as f64, 1, dt));
    } else {
        v.push(gemm("gate-up", l, m, 2 * s.ffn, d, false, dt));
        v.push(elementwise("act", l, Ew::SiluMul, mf * s.ffn as f64, 1, dt));
    }
    v.push(gemm("down", l, m, d, s.ffn, gpt, dt));
    v.push(elementwise("residual2", l, Ew::Add, mf * d as f64, 1, dt));
    // The head: last token of each sequence only.
    v.push(elementwise("final-norm", 1, norm, c.batch as f64 * d as f64, 1, dt));
    v.push(gemm("lm-head", 1, c.batch, s.vocab, d, false, dt));
    v
}

/// Kernels the step launches: the table's, plus the embedding lookup (and
/// GPT-2's position lookup and add).
pub fn kernels(c: &Case) -> u64 {
    let extra = if c.shape.arch == Arch::Gpt2 { 3 } else { 1 };
    ops(c).iter().map(|o| o.kernels * o.count).sum::<u64>() + extra
}
