//! Practice on `#/recompute`: memory accesses when storing activations,
//! accesses saved by recomputing, bytes kept for backward.

use super::{ledger_rows, recompute, META};
use crate::params::Values;
use crate::practice::{a, ask, bank, values, Answer, Made, Rng};

bank!("store" => store, "saved" => saved, "kept" => kept);

fn case(r: &mut Rng) -> Values {
    let depth = r.int(2, 8);
    let upstream = r.pick(&["1", "0"]);
    let n = r.pow2(16, 26);
    let dtype = r.pick(&["fp32", "bf16"]);
    values(
        &META,
        &[("depth", depth.to_string()), ("n", n.to_string()), ("dtype", dtype.into()), ("upstream", upstream.into())],
    )
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let r = recompute(v);
    let [s, c] = ledger_rows(&r);
    vec![
        a("depth", r.depth),
        a("n", crate::format::number(r.n as f64)),
        a("dtype", v.choice("dtype")),
        a("store_f", s.forward),
        a("store_b", s.backward),
        a("store", s.total),
        a("re_f", c.forward),
        a("re_b", c.backward),
        a("re", c.total),
        a("kept_s", crate::format::bytes(r.saved_bytes_store() as f64)),
        a("kept_r", crate::format::bytes(r.saved_bytes_recompute() as f64)),
    ]
}

/// The question with or without the upstream gradient's read counted.
fn with_dy(keys: [&'static str; 2], v: &Values) -> &'static str {
    keys[(v.choice("upstream") == "1") as usize]
}

fn store(r: &mut Rng) -> Made {
    let v = case(r);
    let answer = Answer::count(recompute(&v).accesses_store());
    let prompt = with_dy(["practice.recompute.store", "practice.recompute.store.dy"], &v);
    ask(prompt, answer, "practice.recompute.why", args, v)
}

fn saved(r: &mut Rng) -> Made {
    let v = case(r);
    let answer = Answer::count(recompute(&v).accesses_saved());
    let prompt = with_dy(["practice.recompute.saved", "practice.recompute.saved.dy"], &v);
    ask(prompt, answer, "practice.recompute.why", args, v)
}

fn kept(r: &mut Rng) -> Made {
    let v = case(r);
    let c = recompute(&v);
    let answer = Answer::real(c.saved_bytes_store() as f64 / 1e6, 0.02);
    ask("practice.recompute.kept", answer, "practice.recompute.kept.why", args, v)
}
