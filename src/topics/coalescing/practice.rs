//! Practice on `#/coalescing`: transactions of a strided warp load, the
//! useful share of the bytes moved, bytes of a column read.

use super::{coalescing_params, META};
use crate::params::Values;
use crate::practice::{a, ask, bank, values, Answer, Made, Rng};
use crate::sim::coalescing::Access;
use crate::sim::hw::ALL_DTYPES;

bank!("transactions" => transactions, "useful" => useful, "column" => column);

fn case(r: &mut Rng, pattern: &str) -> Values {
    let dtype = r.pick(ALL_DTYPES);
    let stride = r.pick(&[1, 2, 3, 4, 8, 16, 32, 64]);
    let rowlen = r.pick(&[16, 64, 100, 1024, 4096]);
    let section = r.pick(&["32", "64", "128"]);
    values(
        &META,
        &[
            ("dtype", dtype.into()),
            ("pattern", pattern.into()),
            ("stride", stride.to_string()),
            ("rowlen", rowlen.to_string()),
            ("section", section.into()),
        ],
    )
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let x = Access::new(coalescing_params(v));
    vec![
        a("dtype", v.choice("dtype")),
        a("e", x.p.elem_bytes),
        a("stride", x.p.stride),
        a("rowlen", x.p.rowlen),
        a("section", x.p.section),
        a("first", x.addrs[0]),
        a("last", x.addrs[31]),
        a("t", x.transactions()),
        a("moved", crate::format::number(x.bytes_moved() as f64)),
        a("useful", crate::format::number(x.useful_bytes() as f64)),
        a("pct", crate::format::percent(x.useful_fraction())),
    ]
}

fn transactions(r: &mut Rng) -> Made {
    let v = case(r, "stride");
    let x = Access::new(coalescing_params(&v));
    ask("practice.coalescing.transactions", Answer::count(x.transactions()), "practice.coalescing.why", args, v)
}

fn useful(r: &mut Rng) -> Made {
    let v = case(r, "stride");
    let answer = Answer::percent(Access::new(coalescing_params(&v)).useful_fraction(), 2.0);
    ask("practice.coalescing.useful", answer, "practice.coalescing.why", args, v)
}

fn column(r: &mut Rng) -> Made {
    let v = case(r, "column");
    let x = Access::new(coalescing_params(&v));
    let answer = Answer::count(x.bytes_moved()).with_traps(&[x.useful_bytes() as f64]);
    ask("practice.coalescing.column", answer, "practice.coalescing.why", args, v)
}
