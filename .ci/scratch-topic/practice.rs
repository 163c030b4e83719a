//! Practice on `#/scratch`: three kinds, each answered by `blocks`.

use super::{blocks, META};
use crate::params::Values;
use crate::practice::{a, ask, bank, values, yes_no, Answer, Made, Rng};

bank!("blocks" => count, "more" => more, "exact" => exact);

fn pick(r: &mut Rng) -> Values {
    values(&META, &[("n", r.int(100, 9999).to_string()), ("block", r.pick(&[32, 64, 128, 256]).to_string())])
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    vec![a("n", v.int("n")), a("block", v.int("block")), a("b", blocks(v))]
}

fn count(r: &mut Rng) -> Made {
    let v = pick(r);
    ask("practice.scratch.q", Answer::count(blocks(&v)), "practice.scratch.why", args, v)
}

fn more(r: &mut Rng) -> Made {
    let v = pick(r);
    ask("practice.scratch.more", yes_no(blocks(&v) > 10), "practice.scratch.why", args, v)
}

fn exact(r: &mut Rng) -> Made {
    let v = pick(r);
    ask("practice.scratch.exact", yes_no(v.int("n") % v.int("block") == 0), "practice.scratch.why", args, v)
}
