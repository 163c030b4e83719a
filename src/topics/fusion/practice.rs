//! Practice on `#/fusion`: kernels an expression launches unfused, bytes
//! it moves, and the speed-up fusion bounds.

use super::{elem_bytes, expression, META};
use crate::params::Values;
use crate::practice::{a, ask, bank, metric, values, Answer, Made, Rng};
use crate::sim::fusion::{kernels, ledger, PRESETS};

bank!("kernels" => kernel_count, "bytes" => bytes, "speedup" => speedup);

const EXPRS: [&str; 6] =
    ["x * 2 + 1", "sin(x)^2 + cos(x)^2", "relu(x * w + b)", "x * sigmoid(x)", "exp(x - m) / s", "(x + y) * (x - y)"];

fn case(r: &mut Rng) -> Values {
    let e = if r.below(3) == 0 { r.pick(&PRESETS).1 } else { r.pick(&EXPRS) };
    let n = r.pow2(20, 26);
    let dtype = r.pick(&["fp32", "bf16"]);
    values(&META, &[("expr", e.into()), ("n", n.to_string()), ("dtype", dtype.into())])
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let e = expression(v);
    let l = ledger(&e);
    let (n, b) = (v.int("n") as u64, elem_bytes(v));
    let m = l.metrics(n, b);
    let calls: Vec<String> = kernels(&e).iter().map(|k| k.call()).collect();
    vec![
        a("expr", v.text("expr")),
        a("n", crate::format::number(n as f64)),
        a("dtype", v.choice("dtype")),
        a("e", b),
        a("kernels", l.kernels),
        a("calls", calls.join("; ")),
        a("ru", l.reads_unfused),
        a("wu", l.writes_unfused),
        a("rf", l.reads_fused),
        a("wf", l.writes_fused),
        a("bu", crate::format::bytes(metric(&m, "bytes-unfused"))),
        a("bf", crate::format::bytes(metric(&m, "bytes-fused"))),
        a("x", crate::format::number(metric(&m, "speedup-bound"))),
    ]
}

fn kernel_count(r: &mut Rng) -> Made {
    let v = case(r);
    let answer = Answer::count(ledger(&expression(&v)).kernels as u64).with_traps(&[1.0]);
    ask("practice.fusion.kernels", answer, "practice.fusion.kernels.why", args, v)
}

fn bytes(r: &mut Rng) -> Made {
    let v = case(r);
    let m = ledger(&expression(&v)).metrics(v.int("n") as u64, elem_bytes(&v));
    let answer = Answer::real(metric(&m, "bytes-unfused") / 1e6, 0.02);
    ask("practice.fusion.bytes", answer, "practice.fusion.bytes.why", args, v)
}

fn speedup(r: &mut Rng) -> Made {
    let v = case(r);
    let m = ledger(&expression(&v)).metrics(v.int("n") as u64, elem_bytes(&v));
    let answer = Answer::real(metric(&m, "speedup-bound"), 0.03);
    ask("practice.fusion.speedup", answer, "practice.fusion.bytes.why", args, v)
}
