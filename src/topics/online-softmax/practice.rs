//! Practice on `#/online-softmax`: the running maximum m and sum ℓ after a
//! block, and the factor ℓ is rescaled by when the maximum moves.

use super::{softmax_run, META};
use crate::params::{Value, Values};
use crate::practice::{a, ask, bank, values, Answer, Made, Rng};

bank!("m" => max, "l" => sum, "rescale" => rescale);

/// A short vector of small integers, a block size and a block `from..`.
fn case(r: &mut Rng, from: u64) -> Values {
    r.until(|r| {
        let len = r.int(4, 8);
        let x: Vec<String> = (0..len).map(|_| r.int(0, 9).to_string()).collect();
        let block = r.int(1, 3);
        let v = values(&META, &[("x", x.join(",")), ("block", block.to_string())]);
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
    ask("practice.online-softmax.m", Answer::count(m as u64), "practice.online-softmax.why", args, v)
}

fn sum(r: &mut Rng) -> Made {
    let v = case(r, 1);
    let answer = Answer::real(softmax_run(&v).running(v.int("step") as u64).l, 0.02);
    ask("practice.online-softmax.l", answer, "practice.online-softmax.why", args, v)
}

fn rescale(r: &mut Rng) -> Made {
    let v = case(r, 2);
    let answer = Answer::real(softmax_run(&v).running(v.int("step") as u64).rescale, 0.02);
    ask("practice.online-softmax.rescale", answer, "practice.online-softmax.rescale.why", args, v)
}
