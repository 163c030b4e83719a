//! Practice on `#/llm`: how many bytes of weights and KV cache a model
//! carries, how fast a decode step can be at best, and whether a decode
//! step is memory- or compute-bound.

use super::{case, gpu, metrics, META};
use crate::params::Values;
use crate::practice::{a, ask, bank, bound_choice, metric, values, Answer, Made, Rng};
use crate::sim::llm;

bank!("weights" => weights, "kv" => kv, "ideal" => ideal, "bound" => bound);

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
        &META,
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
    ask("practice.llm.weights", Answer::real(t.weight_bytes / 1e9, 0.03), "practice.llm.weights.why", args, v)
}

fn kv(r: &mut Rng) -> Made {
    let v = pick(r);
    let t = llm::totals(&case(&v));
    ask("practice.llm.kv", Answer::real(t.kv_bytes / 1e9, 0.03), "practice.llm.kv.why", args, v)
}

fn ideal(r: &mut Rng) -> Made {
    let v = r.until(|r| {
        let v = pick(r);
        let t = llm::totals(&case(&v));
        // Questions where the bytes decide (memory-bound decode).
        (t.flops / t.bytes < 0.5 * gpu(&v).ridge(case(&v).dt.rate)).then_some(v)
    });
    ask("practice.llm.ideal", Answer::real(metric(&metrics(&v), "ideal-ms"), 0.1), "practice.llm.ideal.why", args, v)
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
    let answer = bound_choice(memory);
    let prompt = "practice.llm.bound";
    ask(prompt, answer, if memory { "practice.llm.bound.memory" } else { "practice.llm.bound.compute" }, args, v)
}
