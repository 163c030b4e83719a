//! Practice on `#/quantization`: tiles of a matrix, whether its rows are
//! aligned to memory sections, the useful share of the tiles' work.

use super::{quantization, QUANTIZATION};
use crate::params::Values;
use crate::practice::{a, bank, values, yes_no, Answer, Made, Rng, Text};
use crate::sim::hw::ML_DTYPES;

bank!("quantization": "tiles" => tiles, "aligned" => aligned, "useful" => useful);

fn case(r: &mut Rng) -> Values {
    let n = if r.below(3) == 0 { 128 * r.int(1, 16) } else { r.int(100, 4096) };
    let tile = r.pick(&[32, 64, 128, 256]);
    let dtype = r.pick(ML_DTYPES);
    let section = r.pick(&["32", "64", "128"]);
    values(
        &QUANTIZATION,
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
    Made {
        prompt: Text::new("practice.quantization.tiles", &args(&v)),
        answer: Answer::count(q.tiles()).with_traps(&[((q.m / q.t) * (q.n / q.t)) as f64]),
        explain: Text::new("practice.quantization.tiles.why", &args(&v)),
        state: v,
    }
}

fn aligned(r: &mut Rng) -> Made {
    let v = case(r);
    let q = quantization(&v);
    Made {
        prompt: Text::new("practice.quantization.aligned", &args(&v)),
        answer: yes_no(q.aligned()),
        explain: Text::new(
            if q.aligned() { "practice.quantization.aligned.yes" } else { "practice.quantization.aligned.no" },
            &args(&v),
        ),
        state: v,
    }
}

fn useful(r: &mut Rng) -> Made {
    let v = case(r);
    Made {
        prompt: Text::new("practice.quantization.useful", &args(&v)),
        answer: Answer::percent(quantization(&v).useful_fraction(), 2.0),
        explain: Text::new("practice.quantization.tiles.why", &args(&v)),
        state: v,
    }
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.quantization.tiles", "An output of {m}×{n} is computed in {t}×{t} tiles. How many tiles are launched?", "一个 {m}×{n} 的输出用 {t}×{t} 的分块计算。一共启动多少个分块？"),
    ("practice.quantization.tiles.why", "⌈{m} ÷ {t}⌉ × ⌈{n} ÷ {t}⌉ = {tm} × {tn} = {tiles} tiles, computing {computed} outputs for {area} wanted: {pct}% useful. The edge tiles are mostly padding.", "⌈{m} ÷ {t}⌉ × ⌈{n} ÷ {t}⌉ = {tm} × {tn} = {tiles} 个分块，共计算 {computed} 个输出，需要的只有 {area} 个：有效 {pct}%。边缘分块大多是填充。"),
    ("practice.quantization.aligned", "A row-major {dtype} matrix ({e} B per element) has rows of n = {n}. Memory moves {section}-byte sections. Does every row start on a section boundary?", "一个行主序的 {dtype} 矩阵（每元素 {e} 字节）每行 n = {n} 个元素。内存按 {section} 字节分段搬运。每一行都从段边界开始吗？"),
    ("practice.quantization.aligned.yes", "A row is {n} × {e} B = {row} B, a whole number of {section}-byte sections: every row starts aligned.", "一行是 {n} × {e} = {row} 字节，正好是 {section} 字节段的整数倍：每行都对齐。"),
    ("practice.quantization.aligned.no", "A row is {n} × {e} B = {row} B, and {row} mod {section} = {rem}: rows drift off the section boundaries and loads straddle an extra section. Padding n to {padded} fixes it.", "一行是 {n} × {e} = {row} 字节，{row} mod {section} = {rem}：行首逐渐偏离段边界，读取会多跨一个段。把 n 填充到 {padded} 就能修好。"),
    ("practice.quantization.useful", "An output of {m}×{n} in {t}×{t} tiles: what percentage of the outputs the tiles compute are part of the matrix?", "{m}×{n} 的输出用 {t}×{t} 分块计算：分块算出的输出中有百分之多少属于矩阵本身？"),
];
