//! Practice on `#/roofline`: memory- or compute-bound, attainable TFLOP/s,
//! arithmetic intensity of the lecture's operations.

use super::{gpu, roofline_work, ROOFLINE};
use crate::params::Values;
use crate::practice::{a, bank, bound_choice, metric, values, Answer, Made, Rng, Text};
use crate::sim::hw::{GPU_CODES, ML_DTYPES};
use crate::sim::roofline;

bank!("roofline": "bound" => bound, "attainable" => attainable, "intensity" => intensity);

/// One of the lecture's operations at random sizes, on a random GPU.
fn case(r: &mut Rng) -> Values {
    let op = r.pick(&super::LECTURE_OPS);
    let (g, dtype) = (r.pick(GPU_CODES), r.pick(ML_DTYPES));
    let n = r.pow2(6, 15);
    let (d, batch) = (r.pick(&[2048, 4096, 8192]), r.pow2(0, 11));
    values(
        &ROOFLINE,
        &[
            ("gpu", g.into()),
            ("dtype", dtype.into()),
            ("op", op.into()),
            ("n", n.to_string()),
            ("d", d.to_string()),
            ("batch", batch.to_string()),
        ],
    )
}

/// The operation as a formula, the same in both languages.
fn op_text(v: &Values) -> String {
    let (n, d, b) = (v.int("n"), v.int("d"), v.int("batch"));
    match v.choice("op") {
        "relu" => format!("y = max(x, 0), n = {n}"),
        "dot" => format!("x · y, n = {n}"),
        "matvec" => format!("A x, A: {n}×{n}"),
        "matmul" => format!("C = A B, {n}×{n}×{n}"),
        _ => format!("W X, W: {d}×{d}, X: {d}×{b}"),
    }
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let (h, dtype) = (gpu(v), v.choice("dtype"));
    let w = roofline_work(v, v.choice("op"));
    let m = roofline::metrics(&h, dtype, w);
    vec![
        a("op", op_text(v)),
        a("gpu", h.name),
        a("dtype", dtype),
        a("flops", crate::format::number(w.flops)),
        a("bytes", crate::format::number(w.bytes)),
        a("i", crate::format::sig3(metric(&m, "intensity"))),
        a("peak", crate::format::sig3(h.peak_tflops(dtype))),
        a("bw", h.hbm_tbps),
        a("ridge", crate::format::sig3(h.ridge(dtype))),
        a("att", crate::format::sig3(metric(&m, "attainable-tflops"))),
    ]
}

fn bound(r: &mut Rng) -> Made {
    let v = r.until(|r| {
        let v = case(r);
        let ratio = roofline_work(&v, v.choice("op")).intensity() / gpu(&v).ridge(v.choice("dtype"));
        ((ratio - 1.0).abs() > 0.15).then_some(v)
    });
    let m = roofline::metrics(&gpu(&v), v.choice("dtype"), roofline_work(&v, v.choice("op")));
    let memory = m.iter().any(|x| x.word == Some("memory"));
    Made {
        prompt: Text::new("practice.roofline.bound", &args(&v)),
        answer: bound_choice(memory),
        explain: Text::new(
            if memory { "practice.roofline.bound.memory" } else { "practice.roofline.bound.compute" },
            &args(&v),
        ),
        state: v,
    }
}

fn attainable(r: &mut Rng) -> Made {
    let v = case(r);
    let (h, dtype) = (gpu(&v), v.choice("dtype"));
    let m = roofline::metrics(&h, dtype, roofline_work(&v, v.choice("op")));
    Made {
        prompt: Text::new("practice.roofline.attainable", &args(&v)),
        answer: Answer::real(metric(&m, "attainable-tflops"), 0.03),
        explain: Text::new("practice.roofline.attainable.why", &args(&v)),
        state: v,
    }
}

fn intensity(r: &mut Rng) -> Made {
    let v = case(r);
    Made {
        prompt: Text::new("practice.roofline.intensity", &args(&v)),
        answer: Answer::real(roofline_work(&v, v.choice("op")).intensity(), 0.03),
        explain: Text::new("practice.roofline.intensity.why", &args(&v)),
        state: v,
    }
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.roofline.bound", "On the {gpu} in {dtype}: is {op} memory-bound or compute-bound?", "在 {gpu} 上用 {dtype}：{op} 是内存受限还是计算受限？"),
    ("practice.roofline.bound.memory", "{flops} FLOPs over {bytes} bytes is {i} FLOP per byte, below the {gpu}'s ridge of {ridge}: memory-bound, at {att} of {peak} TFLOP/s.", "{flops} FLOP ÷ {bytes} 字节 = {i} FLOP/字节，低于 {gpu} 的平衡点 {ridge}：内存受限，只能达到 {att} / {peak} TFLOP/s。"),
    ("practice.roofline.bound.compute", "{flops} FLOPs over {bytes} bytes is {i} FLOP per byte, above the {gpu}'s ridge of {ridge}: compute-bound, at the peak of {peak} TFLOP/s.", "{flops} FLOP ÷ {bytes} 字节 = {i} FLOP/字节，高于 {gpu} 的平衡点 {ridge}：计算受限，可达峰值 {peak} TFLOP/s。"),
    ("practice.roofline.attainable", "On the {gpu} in {dtype} ({peak} TFLOP/s, {bw} TB/s): how many TFLOP/s can {op} attain at best?", "在 {gpu} 上用 {dtype}（{peak} TFLOP/s，{bw} TB/s）：{op} 最多能达到多少 TFLOP/s？"),
    ("practice.roofline.attainable.why", "Intensity {flops} ÷ {bytes} = {i} FLOP per byte; attainable = min(peak, intensity × bandwidth) = min({peak}, {i} × {bw}) = {att} TFLOP/s.", "强度 {flops} ÷ {bytes} = {i} FLOP/字节；可达算力 = min(峰值, 强度 × 带宽) = min({peak}, {i} × {bw}) = {att} TFLOP/s。"),
    ("practice.roofline.intensity", "What is the arithmetic intensity of {op} in {dtype}, in FLOP per byte of HBM traffic?", "{op}（{dtype}）的算术强度是多少 FLOP/字节（按 HBM 读写计）？"),
    ("practice.roofline.intensity.why", "{flops} FLOPs ÷ {bytes} bytes read and written = {i} FLOP per byte.", "{flops} FLOP ÷ 读写的 {bytes} 字节 = {i} FLOP/字节。"),
];
