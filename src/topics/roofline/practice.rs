//! Practice on `#/roofline`: memory- or compute-bound, attainable TFLOP/s,
//! arithmetic intensity of the lecture's operations.

use super::{gpu, roofline_work, META};
use crate::params::Values;
use crate::practice::{a, ask, bank, bound_choice, metric, values, Answer, Made, Rng};
use crate::sim::hw::{GPU_CODES, ML_DTYPES};
use crate::sim::roofline;

bank!("bound" => bound, "attainable" => attainable, "intensity" => intensity);

/// One of the lecture's operations at random sizes, on a random GPU.
fn case(r: &mut Rng) -> Values {
    let op = r.pick(&super::LECTURE_OPS);
    let (g, dtype) = (r.pick(GPU_CODES), r.pick(ML_DTYPES));
    let n = r.pow2(6, 15);
    let (d, batch) = (r.pick(&[2048, 4096, 8192]), r.pow2(0, 11));
    values(
        &META,
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
    let answer = bound_choice(memory);
    let why = if memory { "practice.roofline.bound.memory" } else { "practice.roofline.bound.compute" };
    ask("practice.roofline.bound", answer, why, args, v)
}

fn attainable(r: &mut Rng) -> Made {
    let v = case(r);
    let (h, dtype) = (gpu(&v), v.choice("dtype"));
    let m = roofline::metrics(&h, dtype, roofline_work(&v, v.choice("op")));
    let answer = Answer::real(metric(&m, "attainable-tflops"), 0.03);
    ask("practice.roofline.attainable", answer, "practice.roofline.attainable.why", args, v)
}

fn intensity(r: &mut Rng) -> Made {
    let v = case(r);
    let answer = Answer::real(roofline_work(&v, v.choice("op")).intensity(), 0.03);
    ask("practice.roofline.intensity", answer, "practice.roofline.intensity.why", args, v)
}
