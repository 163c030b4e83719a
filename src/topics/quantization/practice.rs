//! Practice on `#/quantization`: tiles of a matrix, whether its rows are
//! aligned to memory sections, the useful share of the tiles' work.

use super::{quantization, META};
use crate::params::Values;
use crate::practice::{a, ask, bank, values, yes_no, Answer, Made, Rng};
use crate::sim::hw::ML_DTYPES;

bank!("tiles" => tiles, "aligned" => aligned, "useful" => useful);

fn case(r: &mut Rng) -> Values {
    let n = if r.below(3) == 0 { 128 * r.int(1, 16) } else { r.int(100, 4096) };
    let tile = r.pick(&[32, 64, 128, 256]);
    let dtype = r.pick(ML_DTYPES);
    let section = r.pick(&["32", "64", "128"]);
    values(
        &META,
        &[("n", n.to_string()), ("tile", tile.to_string()), ("dtype", dtype.into()), ("section", section.into())],
    )
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let q = quantization(v);
    vec![
        a("m", q.m),
        a("n", q.n),
        a("t", q.t),
        a("dtype", v.choice("dtype")),
        a("e", q.elem_bytes),
        a("section", q.section),
        a("tm", q.m.div_ceil(q.t)),
        a("tn", q.n.div_ceil(q.t)),
        a("tiles", q.tiles()),
        a("row", q.row_bytes()),
        a("rem", q.row_bytes() % q.section),
        a("padded", q.padded_n()),
        a("area", crate::format::number((q.m * q.n) as f64)),
        a("computed", crate::format::number((q.tiles() * q.t * q.t) as f64)),
        a("pct", crate::format::percent(q.useful_fraction())),
    ]
}

fn tiles(r: &mut Rng) -> Made {
    let v = case(r);
    let q = quantization(&v);
    let answer = Answer::count(q.tiles()).with_traps(&[((q.m / q.t) * (q.n / q.t)) as f64]);
    ask("practice.quantization.tiles", answer, "practice.quantization.tiles.why", args, v)
}

fn aligned(r: &mut Rng) -> Made {
    let v = case(r);
    let q = quantization(&v);
    let answer = yes_no(q.aligned());
    let why = if q.aligned() { "practice.quantization.aligned.yes" } else { "practice.quantization.aligned.no" };
    ask("practice.quantization.aligned", answer, why, args, v)
}

fn useful(r: &mut Rng) -> Made {
    let v = case(r);
    let answer = Answer::percent(quantization(&v).useful_fraction(), 2.0);
    ask("practice.quantization.useful", answer, "practice.quantization.tiles.why", args, v)
}
