//! Practice on `#/tiling`: global reads of a tiled matmul, the largest tile
//! that fits in shared memory, and whether a given tile fits.

use super::{tiling, META};
use crate::params::Values;
use crate::practice::{a, ask, bank, values, yes_no, Answer, Made, Rng};
use crate::sim::hw::ML_DTYPES;

bank!("reads" => reads, "max-tile" => max_tile, "fits" => fits);

fn case(r: &mut Rng) -> Values {
    let n = if r.below(2) == 0 { r.pow2(5, 10) } else { r.int(20, 1000) };
    let tile = r.pick(&[4, 8, 16, 32, 64, 128]);
    let dtype = r.pick(ML_DTYPES);
    let smem = r.pick(&[16, 48, 64, 100, 164, 228]);
    values(
        &META,
        &[("n", n.to_string()), ("tile", tile.to_string()), ("dtype", dtype.into()), ("smem", smem.to_string())],
    )
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let t = tiling(v);
    let naive = crate::sim::matmul::Tiling { tiled: false, ..t };
    let smem = v.int("smem") as u64;
    let fit = t.fit(smem * 1024);
    vec![
        a("n", t.n),
        a("t", t.t),
        a("dtype", v.choice("dtype")),
        a("e", t.elem_bytes),
        a("naive", crate::format::number(naive.global_reads() as f64)),
        a("tiled", crate::format::number(t.global_reads() as f64)),
        a("tiles", t.n.div_ceil(t.t)),
        a("smem", smem),
        a("pair", crate::format::number(fit.bytes as f64)),
        a("budget", crate::format::number((smem * 1024) as f64)),
        a("max", fit.max_tile),
        a("maxpair", crate::format::number((2 * fit.max_tile * fit.max_tile * t.elem_bytes) as f64)),
        a("next", fit.max_tile + 1),
        a("nextpair", crate::format::number((2 * (fit.max_tile + 1) * (fit.max_tile + 1) * t.elem_bytes) as f64)),
    ]
}

fn reads(r: &mut Rng) -> Made {
    let v = case(r);
    let t = tiling(&v);
    let naive = crate::sim::matmul::Tiling { tiled: false, ..t };
    let answer = Answer::count(t.global_reads()).with_traps(&[naive.global_reads() as f64]);
    ask("practice.tiling.reads", answer, "practice.tiling.reads.why", args, v)
}

fn max_tile(r: &mut Rng) -> Made {
    let v = case(r);
    let fit = tiling(&v).fit(v.int("smem") as u64 * 1024);
    ask("practice.tiling.max-tile", Answer::count(fit.max_tile), "practice.tiling.max-tile.why", args, v)
}

fn fits(r: &mut Rng) -> Made {
    let v = case(r);
    let fit = tiling(&v).fit(v.int("smem") as u64 * 1024);
    let answer = yes_no(fit.fits);
    let prompt = "practice.tiling.fits";
    ask(prompt, answer, if fit.fits { "practice.tiling.fits.yes" } else { "practice.tiling.fits.no" }, args, v)
}
