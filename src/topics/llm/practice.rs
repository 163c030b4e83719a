//! Practice on `#/llm`: how many bytes of weights and KV cache a model
//! carries, how fast a decode step can be at best, and whether a decode
//! step is memory- or compute-bound; in training (`phase=train`): the
//! backward against the forward, bytes a parameter with AdamW, which sizes
//! fit 80 GB, what bf16 buys a small model.

use super::{case, gpu, metrics, META};
use crate::params::Values;
use crate::practice::{a, ask, bank, bound_choice, metric, values, yes_no, Answer, Made, Rng};
use crate::sim::llm;

bank!(
    "weights" => weights,
    "kv" => kv,
    "ideal" => ideal,
    "bound" => bound,
    "train-bwd" => train_bwd,
    "train-bytes" => train_bytes,
    "train-fits" => train_fits,
    "train-bf16" => train_bf16
);

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

/// A training step of an assignment-2 size at batch 4 (`phase=train`).
fn train_pick(r: &mut Rng, sizes: &[&str], precision: &str) -> Values {
    let model = r.pick(sizes);
    let seq = r.pick(&["128", "256", "512", "1024"]);
    let g = r.pick(&["h100", "h200"]);
    values(
        &META,
        &[
            ("phase", "train".into()),
            ("model", model.into()),
            ("batch", "4".into()),
            ("seq", seq.into()),
            ("precision", precision.into()),
            ("gpu", g.into()),
            ("effects", "all".into()),
        ],
    )
}

fn train_args(v: &Values) -> Vec<(&'static str, String)> {
    let c = super::train::config(v);
    let m = super::train::metrics(v);
    let f2 = |x: f64| crate::format::number((x * 100.0).round() / 100.0);
    let fwd = metric(&m, "fwd-ms");
    let bwd = metric(&m, "bwd-ms");
    let n = c.shape.params() as f64 / 1e9;
    // The same step in fp32 and under bf16 autocast.
    let step_in = |p: &'static str| {
        let w = v.with("precision", crate::params::Value::Choice(p));
        metric(&super::train::metrics(&w), "train-step-ms")
    };
    let (t32, t16) = (step_in("fp32"), step_in("bf16-autocast"));
    vec![
        a("model", v.choice("model")),
        a("seq", c.seq),
        a("batch", c.batch),
        a("precision", v.choice("precision")),
        a("gpu", gpu(v).name),
        a("fwd", f2(fwd)),
        a("bwd", f2(bwd)),
        a("ratio", f2(bwd / fwd)),
        a("params", f2(n)),
        a("gb", f2(16.0 * n)),
        a("peak", f2(metric(&m, "peak-gb"))),
        a("res", f2(metric(&m, "resident-gb"))),
        a("act", f2(metric(&m, "activation-gb"))),
        a("fp32", f2(t32)),
        a("bf16", f2(t16)),
        a("speedup", f2(t32 / t16)),
    ]
}

fn train_bwd(r: &mut Rng) -> Made {
    let precision = r.pick(&["fp32", "bf16-autocast"]);
    let v = train_pick(r, &["cs336-large", "cs336-xl", "cs336-2.7b"], precision);
    let bwd = metric(&super::train::metrics(&v), "bwd-ms");
    ask("practice.llm.train-bwd", Answer::real(bwd, 0.25), "practice.llm.train-bwd.why", train_args, v)
}

fn train_bytes(r: &mut Rng) -> Made {
    let v = train_pick(r, &["cs336-small", "cs336-medium", "cs336-large", "cs336-xl", "cs336-2.7b"], "fp32");
    let n = super::train::config(&v).shape.params() as f64;
    ask("practice.llm.train-bytes", Answer::real(16.0 * n / 1e9, 0.05), "practice.llm.train-bytes.why", train_args, v)
}

fn train_fits(r: &mut Rng) -> Made {
    let precision = r.pick(&["fp32", "bf16-autocast"]);
    let v = train_pick(r, &["cs336-xl", "cs336-2.7b"], precision);
    let v = v.with("gpu", crate::params::Value::Choice("h100"));
    let fits = super::train::metrics(&v).iter().any(|m| m.name == "fits" && m.word == Some("yes"));
    ask("practice.llm.train-fits", yes_no(fits), "practice.llm.train-fits.why", train_args, v)
}

fn train_bf16(r: &mut Rng) -> Made {
    let v = train_pick(r, &["cs336-small", "cs336-medium"], "fp32");
    let a32 = metric(&super::train::metrics(&v), "train-step-ms");
    let w = v.with("precision", crate::params::Value::Choice("bf16-autocast"));
    let a16 = metric(&super::train::metrics(&w), "train-step-ms");
    ask("practice.llm.train-bf16", Answer::real(a32 / a16, 0.25), "practice.llm.train-bf16.why", train_args, v)
}
