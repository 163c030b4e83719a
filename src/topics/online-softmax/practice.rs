//! Practice on `#/online-softmax`: the running maximum m and sum ℓ after a
//! block, and the factor ℓ is rescaled by when the maximum moves.

use super::{softmax_run, ONLINE_SOFTMAX};
use crate::params::{Value, Values};
use crate::practice::{a, bank, values, Answer, Made, Rng, Text};

bank!("online-softmax": "m" => max, "l" => sum, "rescale" => rescale);

/// A short vector of small integers, a block size and a block `from..`.
fn case(r: &mut Rng, from: u64) -> Values {
    r.until(|r| {
        let len = r.int(4, 8);
        let x: Vec<String> = (0..len).map(|_| r.int(0, 9).to_string()).collect();
        let block = r.int(1, 3);
        let v = values(&ONLINE_SOFTMAX, &[("x", x.join(",")), ("block", block.to_string())]);
        let blocks = softmax_run(&v).blocks() as u64;
        (blocks >= from).then(|| {
            let step = from + r.below(blocks - from + 1);
            v.with("step", Value::Int(step as i64))
        })
    })
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let s = softmax_run(v);
    let b = v.int("step") as u64;
    let (now, before) = (s.running(b), s.running(b - 1));
    let seen: Vec<String> = s.x[..s.block_range(b).end].iter().map(|x| crate::format::running(*x)).collect();
    let block: Vec<String> = s.x[s.block_range(b)].iter().map(|x| crate::format::running(*x)).collect();
    let all: Vec<String> = s.x.iter().map(|x| crate::format::running(*x)).collect();
    vec![
        a("x", all.join(", ")),
        a("size", s.block),
        a("b", b),
        a("block", block.join(", ")),
        a("seen", seen.join(", ")),
        a("m", crate::format::running(now.m)),
        a("l", crate::format::running(now.l)),
        a("m0", if b > 1 { crate::format::running(before.m) } else { "−∞".into() }),
        a("l0", crate::format::running(before.l)),
        a("f", crate::format::running(now.rescale)),
    ]
}

fn max(r: &mut Rng) -> Made {
    let v = case(r, 1);
    let m = softmax_run(&v).running(v.int("step") as u64).m;
    Made {
        prompt: Text::new("practice.online-softmax.m", &args(&v)),
        answer: Answer::count(m as u64),
        explain: Text::new("practice.online-softmax.why", &args(&v)),
        state: v,
    }
}

fn sum(r: &mut Rng) -> Made {
    let v = case(r, 1);
    Made {
        prompt: Text::new("practice.online-softmax.l", &args(&v)),
        answer: Answer::real(softmax_run(&v).running(v.int("step") as u64).l, 0.02),
        explain: Text::new("practice.online-softmax.why", &args(&v)),
        state: v,
    }
}

fn rescale(r: &mut Rng) -> Made {
    let v = case(r, 2);
    Made {
        prompt: Text::new("practice.online-softmax.rescale", &args(&v)),
        answer: Answer::real(softmax_run(&v).running(v.int("step") as u64).rescale, 0.02),
        explain: Text::new("practice.online-softmax.rescale.why", &args(&v)),
        state: v,
    }
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.online-softmax.m", "Online softmax reads x = [{x}] in blocks of {size}. After block {b}, what is the running maximum m?", "在线 softmax 以每块 {size} 个的方式读取 x = [{x}]。处理完第 {b} 块后，运行最大值 m 是多少？"),
    ("practice.online-softmax.l", "Online softmax reads x = [{x}] in blocks of {size}. After block {b}, what is the running sum ℓ = Σ e^(xᵢ − m)?", "在线 softmax 以每块 {size} 个的方式读取 x = [{x}]。处理完第 {b} 块后，运行和 ℓ = Σ e^(xᵢ − m) 是多少？"),
    ("practice.online-softmax.why", "After block {b} the values seen are [{seen}]: m = {m}, and ℓ = Σ e^(xᵢ − {m}) over them = {l}. The online update gets there without a second pass: ℓ ← ℓ · e^(m_old − m_new) + Σ e^(xᵢ − m_new) over the block.", "处理完第 {b} 块，已读到 [{seen}]：m = {m}，ℓ = Σ e^(xᵢ − {m}) = {l}。在线更新无需第二遍：ℓ ← ℓ · e^(m_旧 − m_新) + 本块的 Σ e^(xᵢ − m_新)。"),
    ("practice.online-softmax.rescale", "Online softmax reads x = [{x}] in blocks of {size}. Block {b} is [{block}]: by what factor is the old ℓ multiplied before the block's terms are added?", "在线 softmax 以每块 {size} 个的方式读取 x = [{x}]。第 {b} 块是 [{block}]：在加上本块各项之前，旧的 ℓ 要乘以多少？"),
    ("practice.online-softmax.rescale.why", "The maximum goes from {m0} to {m}, so the old terms, computed against {m0}, are rescaled by e^({m0} − {m}) = {f}; ℓ goes from {l0} to {l}.", "最大值从 {m0} 变为 {m}，按 {m0} 算出的旧项要乘以 e^({m0} − {m}) = {f}；ℓ 从 {l0} 变为 {l}。"),
];
