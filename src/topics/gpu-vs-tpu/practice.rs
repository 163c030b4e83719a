//! Practice on `#/gpu-vs-tpu`: passes through the MXU, waves on the GPU,
//! and which of the two leaves less of its hardware idle.

use super::{gpu_tpu, GPU_TPU};
use crate::params::Values;
use crate::practice::{a, bank, values, Answer, Made, Rng, Text};
use crate::sim::hw::GPU_CODES;

bank!("gpu-vs-tpu": "passes" => passes, "waves" => waves, "busier" => busier);

fn case(r: &mut Rng) -> Values {
    let dim = |r: &mut Rng| if r.below(2) == 0 { r.pow2(6, 13) } else { r.int(50, 8000) };
    let (m, k, n) = (dim(r), dim(r), dim(r));
    values(
        &GPU_TPU,
        &[
            ("m", m.to_string()),
            ("k", k.to_string()),
            ("n", n.to_string()),
            ("mxu", r.pick(&["128", "256"]).into()),
            ("gpu", r.pick(GPU_CODES).into()),
            ("tm", r.pick(&[64, 128, 256]).to_string()),
            ("tn", r.pick(&[64, 128, 256]).to_string()),
        ],
    )
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let c = gpu_tpu(v);
    let w = c.waves();
    vec![
        a("m", c.m),
        a("k", c.k),
        a("n", c.n),
        a("s", c.mxu),
        a("kp", c.k.div_ceil(c.mxu)),
        a("np", c.n.div_ceil(c.mxu)),
        a("passes", c.mxu_passes()),
        a("gpu", crate::sim::hw::gpu(v.choice("gpu")).name),
        a("sms", c.sms),
        a("tm", c.tm),
        a("tn", c.tn),
        a("tiles", w.tiles()),
        a("waves", w.waves()),
        a("tpu_u", crate::format::percent(c.mxu_utilization())),
        a("gpu_u", crate::format::percent(c.gpu_utilization())),
    ]
}

fn passes(r: &mut Rng) -> Made {
    let v = case(r);
    Made {
        prompt: Text::new("practice.gpu-vs-tpu.passes", &args(&v)),
        answer: Answer::count(gpu_tpu(&v).mxu_passes()),
        explain: Text::new("practice.gpu-vs-tpu.passes.why", &args(&v)),
        state: v,
    }
}

fn waves(r: &mut Rng) -> Made {
    let v = case(r);
    let w = gpu_tpu(&v).waves();
    Made {
        prompt: Text::new("practice.gpu-vs-tpu.waves", &args(&v)),
        answer: Answer::count(w.waves()).with_traps(&[(w.tiles() / w.sms) as f64]),
        explain: Text::new("practice.gpu-vs-tpu.waves.why", &args(&v)),
        state: v,
    }
}

fn busier(r: &mut Rng) -> Made {
    r.until(|r| {
        let v = case(r);
        let c = gpu_tpu(&v);
        let (t, g) = (c.mxu_utilization(), c.gpu_utilization());
        ((t - g).abs() >= 0.03).then(|| Made {
            prompt: Text::new("practice.gpu-vs-tpu.busier", &args(&v)),
            answer: Answer::choice(vec![
                (Text::key("practice.gpu-vs-tpu.tpu"), t > g),
                (Text::key("practice.gpu-vs-tpu.gpu"), g > t),
            ]),
            explain: Text::new("practice.gpu-vs-tpu.busier.why", &args(&v)),
            state: v,
        })
    })
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.gpu-vs-tpu.passes", "A TPU computes C = A B (A: {m}×{k}, B: {k}×{n}) on one {s}×{s} systolic array, holding one {s}×{s} block of B per pass. How many passes does it need?", "TPU 在一个 {s}×{s} 的脉动阵列上计算 C = A B（A：{m}×{k}，B：{k}×{n}），每一趟装入 B 的一个 {s}×{s} 块。需要多少趟？"),
    ("practice.gpu-vs-tpu.passes.why", "B is cut into ⌈{k} ÷ {s}⌉ × ⌈{n} ÷ {s}⌉ = {kp} × {np} = {passes} blocks, one pass each; the {m} rows of A stream through every pass. MXU utilisation: {tpu_u}%.", "B 被切成 ⌈{k} ÷ {s}⌉ × ⌈{n} ÷ {s}⌉ = {kp} × {np} = {passes} 块，每块一趟；A 的 {m} 行在每一趟中流过阵列。MXU 利用率：{tpu_u}%。"),
    ("practice.gpu-vs-tpu.waves", "The {gpu} ({sms} SMs) computes the {m}×{n} output of C = A B in {tm}×{tn} tiles, one per SM at a time. How many waves?", "{gpu}（{sms} 个 SM）以 {tm}×{tn} 的分块计算 C = A B 的 {m}×{n} 输出，每个 SM 一次一块。需要多少个波次？"),
    ("practice.gpu-vs-tpu.waves.why", "{tiles} tiles on {sms} SMs → {waves} waves. GPU utilisation (tile and wave quantization): {gpu_u}%.", "{tiles} 个分块分给 {sms} 个 SM → {waves} 个波次。GPU 利用率（分块与波次量化）：{gpu_u}%。"),
    ("practice.gpu-vs-tpu.busier", "C = A B with A: {m}×{k}, B: {k}×{n}. Which keeps more of its hardware busy: the TPU's {s}×{s} array, or the {gpu} with {tm}×{tn} tiles?", "C = A B，A：{m}×{k}，B：{k}×{n}。哪一方让更多硬件保持忙碌：TPU 的 {s}×{s} 阵列，还是用 {tm}×{tn} 分块的 {gpu}？"),
    ("practice.gpu-vs-tpu.busier.why", "TPU: {passes} passes, {tpu_u}% of the array's PE-cycles useful (padding to {s} and fill/drain). GPU: {tiles} tiles in {waves} waves, {gpu_u}% useful (tile and wave quantization).", "TPU：{passes} 趟，阵列 PE 周期中 {tpu_u}% 有用（补齐到 {s} 以及填充/排空）。GPU：{tiles} 个分块 {waves} 波，{gpu_u}% 有用（分块与波次量化）。"),
    ("practice.gpu-vs-tpu.tpu", "The TPU", "TPU"),
    ("practice.gpu-vs-tpu.gpu", "The GPU", "GPU"),
];
