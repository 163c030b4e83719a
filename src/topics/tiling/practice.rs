//! Practice on `#/tiling`: global reads of a tiled matmul, the largest tile
//! that fits in shared memory, and whether a given tile fits.

use super::{tiling, TILING};
use crate::params::Values;
use crate::practice::{a, bank, values, yes_no, Answer, Made, Rng, Text};
use crate::sim::hw::ML_DTYPES;

bank!("tiling": "reads" => reads, "max-tile" => max_tile, "fits" => fits);

fn case(r: &mut Rng) -> Values {
    let n = if r.below(2) == 0 { r.pow2(5, 10) } else { r.int(20, 1000) };
    let tile = r.pick(&[4, 8, 16, 32, 64, 128]);
    let dtype = r.pick(ML_DTYPES);
    let smem = r.pick(&[16, 48, 64, 100, 164, 228]);
    values(
        &TILING,
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
    Made {
        prompt: Text::new("practice.tiling.reads", &args(&v)),
        answer: Answer::count(t.global_reads()).with_traps(&[naive.global_reads() as f64]),
        explain: Text::new("practice.tiling.reads.why", &args(&v)),
        state: v,
    }
}

fn max_tile(r: &mut Rng) -> Made {
    let v = case(r);
    let fit = tiling(&v).fit(v.int("smem") as u64 * 1024);
    Made {
        prompt: Text::new("practice.tiling.max-tile", &args(&v)),
        answer: Answer::count(fit.max_tile),
        explain: Text::new("practice.tiling.max-tile.why", &args(&v)),
        state: v,
    }
}

fn fits(r: &mut Rng) -> Made {
    let v = case(r);
    let fit = tiling(&v).fit(v.int("smem") as u64 * 1024);
    Made {
        prompt: Text::new("practice.tiling.fits", &args(&v)),
        answer: yes_no(fit.fits),
        explain: Text::new(if fit.fits { "practice.tiling.fits.yes" } else { "practice.tiling.fits.no" }, &args(&v)),
        state: v,
    }
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.tiling.reads", "C = A B with {n}×{n} matrices, computed in {t}×{t} tiles through shared memory. How many elements are read from global memory in all?", "C = A B，矩阵为 {n}×{n}，用 {t}×{t} 的分块经共享内存计算。一共从全局内存读取多少个元素？"),
    ("practice.tiling.reads.why", "Naive, every output reads a row of A and a column of B: 2n³ = {naive}. Tiled, each input element is read once per tile of the other side, ⌈{n} ÷ {t}⌉ = {tiles} times: {tiled}.", "朴素实现中每个输出读 A 的一行和 B 的一列：2n³ = {naive}。分块后，每个输入元素对另一侧的每个分块只读一次，即 ⌈{n} ÷ {t}⌉ = {tiles} 次：{tiled}。"),
    ("practice.tiling.max-tile", "A tile of A and a tile of B, each T×T in {dtype} ({e} B), must fit together in {smem} KiB of shared memory. What is the largest T?", "A 的一个分块和 B 的一个分块（都是 T×T，{dtype}，每元素 {e} 字节）要一起放进 {smem} KiB 共享内存。T 最大是多少？"),
    ("practice.tiling.max-tile.why", "2 × T² × {e} B ≤ {budget} B: T = {max} needs {maxpair} B, T = {next} would need {nextpair} B.", "2 × T² × {e} 字节 ≤ {budget} 字节：T = {max} 需要 {maxpair} 字节，T = {next} 则需要 {nextpair} 字节。"),
    ("practice.tiling.fits", "Do two {t}×{t} tiles of {dtype} ({e} B each element) fit in {smem} KiB of shared memory?", "两个 {t}×{t} 的 {dtype} 分块（每元素 {e} 字节）能放进 {smem} KiB 共享内存吗？"),
    ("practice.tiling.fits.yes", "2 × {t}² × {e} B = {pair} B ≤ {budget} B: yes. The largest tile that fits is {max}.", "2 × {t}² × {e} 字节 = {pair} 字节 ≤ {budget} 字节：能。能放下的最大分块是 {max}。"),
    ("practice.tiling.fits.no", "2 × {t}² × {e} B = {pair} B > {budget} B: no. The largest tile that fits is {max}.", "2 × {t}² × {e} 字节 = {pair} 字节 > {budget} 字节：放不下。能放下的最大分块是 {max}。"),
];
