//! Practice on `#/fusion`: kernels an expression launches unfused, bytes
//! it moves, and the speed-up fusion bounds.

use super::{elem_bytes, expression, FUSION};
use crate::params::Values;
use crate::practice::{a, bank, metric, values, Answer, Made, Rng, Text};
use crate::sim::fusion::{kernels, ledger, PRESETS};

bank!("fusion": "kernels" => kernel_count, "bytes" => bytes, "speedup" => speedup);

const EXPRS: [&str; 6] =
    ["x * 2 + 1", "sin(x)^2 + cos(x)^2", "relu(x * w + b)", "x * sigmoid(x)", "exp(x - m) / s", "(x + y) * (x - y)"];

fn case(r: &mut Rng) -> Values {
    let e = if r.below(3) == 0 { r.pick(&PRESETS).1 } else { r.pick(&EXPRS) };
    let n = r.pow2(20, 26);
    let dtype = r.pick(&["fp32", "bf16"]);
    values(&FUSION, &[("expr", e.into()), ("n", n.to_string()), ("dtype", dtype.into())])
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
    Made {
        prompt: Text::new("practice.fusion.kernels", &args(&v)),
        answer: Answer::count(ledger(&expression(&v)).kernels as u64).with_traps(&[1.0]),
        explain: Text::new("practice.fusion.kernels.why", &args(&v)),
        state: v,
    }
}

fn bytes(r: &mut Rng) -> Made {
    let v = case(r);
    let m = ledger(&expression(&v)).metrics(v.int("n") as u64, elem_bytes(&v));
    Made {
        prompt: Text::new("practice.fusion.bytes", &args(&v)),
        answer: Answer::real(metric(&m, "bytes-unfused") / 1e6, 0.02),
        explain: Text::new("practice.fusion.bytes.why", &args(&v)),
        state: v,
    }
}

fn speedup(r: &mut Rng) -> Made {
    let v = case(r);
    let m = ledger(&expression(&v)).metrics(v.int("n") as u64, elem_bytes(&v));
    Made {
        prompt: Text::new("practice.fusion.speedup", &args(&v)),
        answer: Answer::real(metric(&m, "speedup-bound"), 0.03),
        explain: Text::new("practice.fusion.bytes.why", &args(&v)),
        state: v,
    }
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.fusion.kernels", "Without fusion, every operation of `{expr}` is its own kernel. How many kernels does it launch?", "不做融合时，`{expr}` 的每个运算都是一个单独的核函数。一共启动多少个核函数？"),
    ("practice.fusion.kernels.why", "One kernel per operation: {calls} — {kernels} kernels, each reading its operands from HBM and writing its result back. Fused, it is one kernel.", "每个运算一个核函数：{calls}——共 {kernels} 个，每个都从 HBM 读操作数、再把结果写回。融合后只有一个核函数。"),
    ("practice.fusion.bytes", "`{expr}` on n = {n} elements in {dtype} ({e} B each), unfused: how many MB go to and from HBM?", "`{expr}` 作用在 n = {n} 个 {dtype} 元素上（每个 {e} 字节），不融合：与 HBM 之间一共传输多少 MB？"),
    ("practice.fusion.bytes.why", "Unfused, {kernels} kernels read {ru} and write {wu} arrays of n elements: {bu}. Fused, the inputs are read once and the result written once ({rf} + {wf} arrays): {bf}. At most {x}× faster.", "不融合：{kernels} 个核函数读 {ru} 个、写 {wu} 个长度为 n 的数组，共 {bu}。融合后：输入只读一次、结果只写一次（{rf} + {wf} 个数组），共 {bf}。最多快 {x} 倍。"),
    ("practice.fusion.speedup", "`{expr}` is memory-bound. By how many times at most can fusing it into one kernel speed it up (bytes unfused ÷ bytes fused)?", "`{expr}` 是内存受限的。把它融合成一个核函数，最多能快多少倍（未融合字节 ÷ 融合后字节）？"),
];
