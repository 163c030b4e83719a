//! Practice on `#/llm`: how many bytes of weights and KV cache a model
//! carries, how fast a decode step can be at best, and whether a decode
//! step is memory- or compute-bound.

use super::{case, gpu, metrics, LLM};
use crate::params::Values;
use crate::practice::{a, bank, bound_choice, metric, values, Answer, Made, Rng, Text};
use crate::sim::llm;

bank!("llm": "weights" => weights, "kv" => kv, "ideal" => ideal, "bound" => bound);

const PRESET_MODELS: [&str; 7] =
    ["gpt2-xl", "llama-7b", "llama-13b", "llama3-8b", "llama3-70b", "mistral-7b", "gpt2-large"];

/// A preset at a random decode batch and context, on a random GPU, in bf16 or fp8.
fn pick(r: &mut Rng) -> Values {
    let model = r.pick(&PRESET_MODELS);
    let g = r.pick(&["a100", "h100", "h200", "b200"]);
    let dtype = r.pick(&["bf16", "bf16", "fp8", "int4"]);
    let batch = r.pow2(0, 9);
    let ctx = r.pow2(9, 14);
    values(
        &LLM,
        &[
            ("model", model.into()),
            ("gpu", g.into()),
            ("dtype", dtype.into()),
            ("phase", "decode".into()),
            ("batch", batch.to_string()),
            ("ctx", ctx.to_string()),
            ("effects", "all".into()),
        ],
    )
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let c = case(v);
    let g = gpu(v);
    let s = c.shape;
    let m = metrics(v);
    let t = llm::totals(&c);
    vec![
        a("model", llm::preset(v.choice("model")).map_or("custom", |p| p.name)),
        a("gpu", g.name),
        a("dtype", v.choice("dtype")),
        a("params", crate::format::number((s.params() as f64 / 1e9 * 100.0).round() / 100.0)),
        a("bpp", c.dt.weight),
        a("gb", crate::format::number((t.weight_bytes / 1e9 * 100.0).round() / 100.0)),
        a("batch", c.batch),
        a("ctx", c.ctx),
        a("layers", s.layers),
        a("kvheads", s.kvheads),
        a("hd", s.head_dim()),
        a("kvgb", crate::format::number((t.kv_bytes / 1e9 * 1000.0).round() / 1000.0)),
        a("bw", g.hbm_tbps),
        a("ideal", crate::format::number(metric(&m, "ideal-ms"))),
        a("i", crate::format::number((t.flops / t.bytes * 10.0).round() / 10.0)),
        a("ridge", crate::format::number((g.peak_tflops(c.dt.rate) / g.hbm_tbps).round())),
    ]
}

fn weights(r: &mut Rng) -> Made {
    let v = pick(r);
    let t = llm::totals(&case(&v));
    Made {
        prompt: Text::new("practice.llm.weights", &args(&v)),
        answer: Answer::real(t.weight_bytes / 1e9, 0.03),
        explain: Text::new("practice.llm.weights.why", &args(&v)),
        state: v,
    }
}

fn kv(r: &mut Rng) -> Made {
    let v = pick(r);
    let t = llm::totals(&case(&v));
    Made {
        prompt: Text::new("practice.llm.kv", &args(&v)),
        answer: Answer::real(t.kv_bytes / 1e9, 0.03),
        explain: Text::new("practice.llm.kv.why", &args(&v)),
        state: v,
    }
}

fn ideal(r: &mut Rng) -> Made {
    let v = r.until(|r| {
        let v = pick(r);
        let t = llm::totals(&case(&v));
        // Questions where the bytes decide (memory-bound decode).
        (t.flops / t.bytes < 0.5 * gpu(&v).ridge(case(&v).dt.rate)).then_some(v)
    });
    Made {
        prompt: Text::new("practice.llm.ideal", &args(&v)),
        answer: Answer::real(metric(&metrics(&v), "ideal-ms"), 0.1),
        explain: Text::new("practice.llm.ideal.why", &args(&v)),
        state: v,
    }
}

fn bound(r: &mut Rng) -> Made {
    let v = r.until(|r| {
        let v = pick(r);
        let c = case(&v);
        let t = llm::totals(&c);
        let ratio = t.flops / t.bytes / gpu(&v).ridge(c.dt.rate);
        ((ratio - 1.0).abs() > 0.3).then_some(v)
    });
    let memory = metrics(&v).iter().any(|m| m.word == Some("memory"));
    Made {
        prompt: Text::new("practice.llm.bound", &args(&v)),
        answer: bound_choice(memory),
        explain: Text::new(if memory { "practice.llm.bound.memory" } else { "practice.llm.bound.compute" }, &args(&v)),
        state: v,
    }
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.llm.weights", "{model} in {dtype}: how many GB of weights does one decode step read?", "{model}，{dtype}：一步解码要读多少 GB 权重？"),
    ("practice.llm.weights.why", "{params} billion parameters × {bpp} bytes each = {gb} GB, read once per step whatever the batch.", "{params} 十亿参数 × 每个 {bpp} 字节 = {gb} GB，不论批次大小，每步都读一遍。"),
    ("practice.llm.kv", "{model}, batch {batch}, {ctx} tokens of context, bf16 KV cache: how many GB does the KV cache hold?", "{model}，批次 {batch}，上下文 {ctx} 个 token，bf16 KV 缓存：KV 缓存有多少 GB？"),
    ("practice.llm.kv.why", "K and V × {layers} layers × {kvheads} KV heads × {hd} dims × 2 bytes × (ctx + 1) tokens × batch {batch} = {kvgb} GB.", "K 和 V × {layers} 层 × {kvheads} 个 KV 头 × {hd} 维 × 2 字节 ×（上下文 + 1）个 token × 批次 {batch} = {kvgb} GB。"),
    ("practice.llm.ideal", "{model} in {dtype} on the {gpu} ({bw} TB/s), decode at batch {batch} with {ctx} tokens of context: how many ms does one step take at best (plain roofline)?", "{model}（{dtype}）在 {gpu} 上（{bw} TB/s），批次 {batch}、上下文 {ctx} 个 token 解码：一步最快要多少毫秒（朴素屋顶线）？"),
    ("practice.llm.ideal.why", "Memory-bound: about (weights {gb} GB + KV cache {kvgb} GB) ÷ {bw} TB/s, plus the little the activations add: {ideal} ms.", "内存受限：约为（权重 {gb} GB + KV 缓存 {kvgb} GB）÷ {bw} TB/s，再加上激活的少量读写：{ideal} 毫秒。"),
    ("practice.llm.bound", "{model} in {dtype} on the {gpu}, decode at batch {batch} with {ctx} tokens of context: is the step memory-bound or compute-bound?", "{model}（{dtype}）在 {gpu} 上，批次 {batch}、上下文 {ctx} 个 token 解码：这一步是内存受限还是计算受限？"),
    ("practice.llm.bound.memory", "The step does {i} FLOP per byte, below the {gpu}'s ridge of {ridge}: memory-bound.", "这一步每字节 {i} FLOP，低于 {gpu} 的平衡点 {ridge}：内存受限。"),
    ("practice.llm.bound.compute", "The step does {i} FLOP per byte, above the {gpu}'s ridge of {ridge}: compute-bound.", "这一步每字节 {i} FLOP，高于 {gpu} 的平衡点 {ridge}：计算受限。"),
];
