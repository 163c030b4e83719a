//! The LLM lens (issue 23): how long one decode step or one prefill of a real
//! model shape takes on a GPU, as a pure function. The per-operator table of
//! one layer and the head gives FLOPs, bytes and the plain roofline time
//! (`ideal`); a chain of named effects, each calibrated from a measurement
//! shipped in `assets/measured/h200-llm-*.csv` or taken from a simulation
//! already in Warpscope (`sim::matmul`'s waves, `sim::fusion`'s ledger,
//! `sim::flash`'s ledger), turns it into the prediction. Every effect is one
//! term in seconds and can be switched off.

use super::flash::{Flash, Params as FlashParams, Pass};
use super::fusion::{ledger, Node};
use super::hw::Gpu;
use super::matmul::Waves;
use super::measured::Table;
use std::sync::OnceLock;

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
    fn calib(self) -> &'static str {
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

fn gemm(key: &'static str, count: u64, m: u64, n: u64, k: u64, bias: bool, dt: &Dtypes) -> Op {
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

fn elementwise(key: &'static str, count: u64, ew: Ew, elems: f64, instances: u64, dt: &Dtypes) -> Op {
    let l = ledger(&ew.node());
    let (kv_write, act, fused) = if ew == Ew::KvWrite {
        // Read K and V (activations), write them into the cache.
        (elems * dt.kv, elems * dt.act, elems * dt.act)
    } else {
        (0.0, l.arrays_unfused() as f64 * elems * dt.act, l.arrays_fused() as f64 * elems * dt.act)
    };
    Op {
        key,
        kind: Kind::Elementwise(ew),
        count,
        flops: l.flops(1) as f64 * elems,
        weight_bytes: 0.0,
        kv_read: 0.0,
        kv_write,
        act_bytes: act,
        act_fused: fused,
        kernels: l.kernels as u64 * instances,
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

// --------------------------------------------------------------------------- calibration

pub const DECODE_CSV: &str = include_str!("../../../assets/measured/h200-llm-decode.csv");
pub const PREFILL_CSV: &str = include_str!("../../../assets/measured/h200-llm-prefill.csv");
const GEMM_CSV: &str = include_str!("../../../assets/measured/h200-llm-gemm.csv");
const SDPA_CSV: &str = include_str!("../../../assets/measured/h200-llm-sdpa.csv");
const LAUNCH_CSV: &str = include_str!("../../../assets/measured/h200-llm-launch.csv");
const ELEMENTWISE_CSV: &str = include_str!("../../../assets/measured/h200-llm-elementwise.csv");
const HOST_CSV: &str = include_str!("../../../assets/measured/h200-llm-host.csv");
#[cfg(test)]
const KERNELS_CSV: &str = include_str!("../../../assets/measured/h200-llm-kernels.csv");

/// The H200 the calibration was measured on.
fn h200() -> &'static Gpu {
    super::hw::gpu("h200")
}

/// A curve: sorted (x, y) points.
pub type Curve = Vec<(f64, f64)>;
/// Curves by a key.
pub type Curves<K> = Vec<(K, Curve)>;

/// Everything the effects read from the measurements.
#[derive(Clone, Debug)]
pub struct Calibration {
    /// Best GEMV/skinny-GEMM bandwidth (GB/s, weights past L2, no reuse).
    pub bw_gbps: f64,
    /// Best GEMM rate (TFLOP/s) over the grid.
    pub peak_tflops: f64,
    /// (n, k) → [(m, time ÷ waves model on the achievable roofs)].
    pub gemm: Curves<(u64, u64)>,
    /// Decode attention families: (hd, group, kvheads) → [(batch, [(kv, seconds)])].
    pub sdpa_decode: Vec<((u64, u64, u64), Curves<f64>)>,
    /// Prefill attention families: (hd, group, heads) → [(batch, [(log₂ seq, time ÷ roofline)])].
    pub sdpa_prefill: Vec<((u64, u64, u64), Curves<f64>)>,
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

fn median(mut xs: Vec<f64>) -> f64 {
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
fn gemm_waves_time(m: u64, n: u64, k: u64, bytes: f64, peak: f64, bw: f64, sms: u64) -> f64 {
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

    /// The calibration from the shipped files (parsed once).
    pub fn shipped() -> &'static Calibration {
        static CAL: OnceLock<Calibration> = OnceLock::new();
        CAL.get_or_init(|| {
            Calibration::from_tables(
                &Table::parse(GEMM_CSV),
                &Table::parse(SDPA_CSV),
                &Table::parse(LAUNCH_CSV),
                &Table::parse(ELEMENTWISE_CSV),
                &Table::parse(HOST_CSV),
            )
        })
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

// --------------------------------------------------------------------------- the chain of effects

/// The named effects, in the order the waterfall applies them.
pub const EFFECTS: [&str; 6] = ["bandwidth", "waves", "gemm", "attention", "elementwise", "launch"];

/// Which effects are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct On(pub [bool; 6]);

impl On {
    pub const ALL: On = On([true; 6]);
    pub const NONE: On = On([false; 6]);
    pub fn has(&self, name: &str) -> bool {
        EFFECTS.iter().position(|&e| e == name).is_some_and(|i| self.0[i])
    }
    /// From the URL's comma-separated names (`all`, `none`, or a list).
    pub fn parse(s: &str) -> On {
        match s {
            "all" | "" => On::ALL,
            "none" => On::NONE,
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
            own * ratio.max(0.0)
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

    /// Fitted once from the shipped measurements.
    pub fn shipped() -> &'static Fit {
        static FIT: OnceLock<Fit> = OnceLock::new();
        FIT.get_or_init(|| Fit::from(measured().iter().filter(|m| !m.held_out()), Calibration::shipped()))
    }

    /// Least squares in relative error for the graph gap (graph steps); the
    /// eager gap from the same points measured both ways where the eager
    /// step stays within 15 % of the graph (GPU-bound: the host keeps ahead).
    pub fn from<'a>(pts: impl Iterator<Item = &'a Measured>, cal: &Calibration) -> Fit {
        let pts: Vec<&Measured> = pts.collect();
        let (mut num, mut den) = (0.0, 0.0);
        for m in pts.iter().filter(|m| m.graphs) {
            let Some(c) = m.case() else { continue };
            let base = step_time_with(&c, h200(), cal, On::ALL, &Fit::ZERO) * 1e3;
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

// --------------------------------------------------------------------------- measured points

/// A measured step: model code, phase, batch, ctx (decode) or seq (prefill), graphs, ms.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub model: String,
    pub phase: Phase,
    pub batch: u64,
    pub n: u64,
    pub graphs: bool,
    /// The step the prediction is held against. A CUDA graph: the median of
    /// its isolated replays. Eager: its fastest isolated call of the run (15
    /// calls in 5 passes over the grid), i.e. the step with the host at full
    /// speed; the host spends part of any run in a slower state
    /// (`h200-llm-host_probe.csv`: a bare launch takes 7 µs or 10–18 µs).
    pub ms: f64,
    /// The median of the calls' pass medians (eager: mixes in the host's
    /// slow states; equal in kind to `ms` for graphs).
    pub typical_ms: f64,
}

/// Every measured step of the shipped files (the rows that ran).
pub fn measured() -> &'static [Measured] {
    static M: OnceLock<Vec<Measured>> = OnceLock::new();
    M.get_or_init(|| {
        let mut out = Vec::new();
        for (text, phase, col) in [(DECODE_CSV, Phase::Decode, "ctx"), (PREFILL_CSV, Phase::Prefill, "seq")] {
            let t = Table::parse(text);
            for r in &t.rows {
                let (Some(model), Some(b), Some(n), Some(gr), Some(ms), Some(min)) = (
                    t.text(r, "model"),
                    t.num(r, "batch"),
                    t.num(r, col),
                    t.num(r, "graphs"),
                    t.num(r, "ms"),
                    t.num(r, "min_ms"),
                ) else {
                    continue;
                };
                if gr < 0.0 {
                    continue;
                }
                let graphs = gr > 0.5;
                out.push(Measured {
                    model: model.to_string(),
                    phase,
                    batch: b as u64,
                    n: n as u64,
                    graphs,
                    ms: if graphs { ms } else { min },
                    typical_ms: ms,
                })
            }
        }
        out
    })
}

impl Measured {
    /// The case it measured (H200, bf16 weights and KV).
    pub fn case(&self) -> Option<Case> {
        let p = preset(&self.model)?;
        Some(Case {
            shape: p.shape,
            phase: self.phase,
            batch: self.batch,
            ctx: if self.phase == Phase::Decode { self.n } else { 0 },
            seq: if self.phase == Phase::Prefill { self.n } else { 1 },
            dt: dtypes("bf16", "bf16"),
            graphs: self.graphs,
        })
    }
    /// Held out of every fit: the models not used to choose or tune any
    /// effect (the calibration curves come from separate microbenchmarks;
    /// these models' steps were only compared at the end).
    pub fn held_out(&self) -> bool {
        !fitted_model(&self.model)
    }
}

/// The measured step for a case, if one was measured (H200, bf16, a preset).
pub fn measured_for(model: &str, c: &Case, gpu_code: &str) -> Option<&'static Measured> {
    if gpu_code != "h200" || c.dt != dtypes("bf16", "bf16") {
        return None;
    }
    let n = if c.phase == Phase::Decode { c.ctx } else { c.seq };
    measured()
        .iter()
        .find(|m| m.model == model && m.phase == c.phase && m.batch == c.batch && m.n == n && m.graphs == c.graphs)
}

/// One row of the accuracy table.
#[derive(Clone, Debug, PartialEq)]
pub struct AccuracyRow {
    pub phase: Phase,
    pub graphs: bool,
    pub held_out: bool,
    pub count: usize,
    /// Median and largest |prediction ÷ measured − 1|.
    pub median: f64,
    pub worst: f64,
    /// The worst case: model, batch, ctx or seq, prediction ÷ measured.
    pub worst_case: (String, u64, u64, f64),
    /// Median and largest |prediction ÷ typical − 1| against the median
    /// calls (`Measured::typical_ms`: for eager, the host's slow states mixed in).
    pub typical: (f64, f64),
}

/// Prediction against measurement over the shipped grid: decode and
/// prefill, graphs and eager, fitted and held-out models (computed once).
pub fn accuracy_table() -> &'static [AccuracyRow] {
    static ROWS: OnceLock<Vec<AccuracyRow>> = OnceLock::new();
    ROWS.get_or_init(accuracy_rows)
}

fn accuracy_rows() -> Vec<AccuracyRow> {
    let cal = Calibration::shipped();
    let mut rows = Vec::new();
    for phase in [Phase::Decode, Phase::Prefill] {
        for graphs in [true, false] {
            for held_out in [false, true] {
                let mut errs: Vec<(f64, &Measured, f64)> = Vec::new();
                let mut typical = Vec::new();
                for m in
                    measured().iter().filter(|m| m.phase == phase && m.graphs == graphs && m.held_out() == held_out)
                {
                    let Some(c) = m.case() else { continue };
                    let p = step_time(&c, h200(), cal, On::ALL) * 1e3;
                    let r = p / m.ms;
                    errs.push(((r - 1.0).abs(), m, r));
                    typical.push((p / m.typical_ms - 1.0).abs());
                }
                let Some(w) = errs.iter().max_by(|a, b| a.0.total_cmp(&b.0)) else { continue };
                rows.push(AccuracyRow {
                    phase,
                    graphs,
                    held_out,
                    count: errs.len(),
                    median: median(errs.iter().map(|e| e.0).collect()),
                    worst: w.0,
                    worst_case: (w.1.model.clone(), w.1.batch, w.1.n, w.2),
                    typical: (median(typical.clone()), typical.iter().copied().fold(0.0, f64::max)),
                });
            }
        }
    }
    rows
}

/// The accuracy table as docs/measurements/2026-12-01-llm-accuracy.md prints it
/// (markdown, from [`accuracy_table`]): a test keeps that copy equal to it.
pub fn accuracy_markdown() -> String {
    let pct = |x: f64| format!("{:.1} %", 100.0 * x);
    let (f, cal) = (Fit::shipped(), Calibration::shipped());
    let us = |x: f64| format!("{:.2} µs", x * 1e6);
    let mut s = format!(
        "Constants: graph gap {} per kernel and eager gap {} per kernel (fitted); the host's stages \
         × in-situ factor {:.2} (measured), about {} per kernel of a LLaMA decode layer and {} of a \
         GPT-2 one.\n\n",
        us(f.graph_gap),
        us(f.eager_gap),
        cal.host_in_situ,
        us(f.host_llama),
        us(f.host_gpt2)
    );
    s += "| steps | models | n | median | worst | against the median calls |\n|---|---|---|---|---|---|\n";
    for r in accuracy_table() {
        let (model, b, n, ratio) = &r.worst_case;
        let name = preset(model).map_or(model.as_str(), |p| p.name);
        let at = match r.phase {
            Phase::Decode => format!("B {b}, ctx {n}"),
            Phase::Prefill => format!("B {b}, {n} tokens"),
        };
        s += &format!(
            "| {}, {} | {} | {} | {} | {} ({name}, {at}: {ratio:.2}×) | {} |\n",
            if r.phase == Phase::Decode { "decode" } else { "prefill" },
            if r.graphs { "graph" } else { "eager" },
            if r.held_out { "held out" } else { "fitted" },
            r.count,
            pct(r.median),
            pct(r.worst),
            if r.graphs { "(the same)".to_string() } else { format!("{} / {}", pct(r.typical.0), pct(r.typical.1)) },
        );
    }
    s
}

#[cfg(test)]
mod tests;

/// The value of `key` in a small association list (inserted empty if absent).
fn slot<K: PartialEq, V: Default>(list: &mut Vec<(K, V)>, key: K) -> &mut V {
    let i = list.iter().position(|(k, _)| *k == key).unwrap_or_else(|| {
        list.push((key, V::default()));
        list.len() - 1
    });
    &mut list[i].1
}
