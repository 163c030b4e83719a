//! Practice on `#/coalescing`: transactions of a strided warp load, the
//! useful share of the bytes moved, bytes of a column read.

use super::{coalescing_params, COALESCING};
use crate::params::Values;
use crate::practice::{a, bank, values, Answer, Made, Rng, Text};
use crate::sim::coalescing::Access;
use crate::sim::hw::ALL_DTYPES;

bank!("coalescing": "transactions" => transactions, "useful" => useful, "column" => column);

fn case(r: &mut Rng, pattern: &str) -> Values {
    let dtype = r.pick(ALL_DTYPES);
    let stride = r.pick(&[1, 2, 3, 4, 8, 16, 32, 64]);
    let rowlen = r.pick(&[16, 64, 100, 1024, 4096]);
    let section = r.pick(&["32", "64", "128"]);
    values(
        &COALESCING,
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
    Made {
        prompt: Text::new("practice.coalescing.transactions", &args(&v)),
        answer: Answer::count(x.transactions()),
        explain: Text::new("practice.coalescing.why", &args(&v)),
        state: v,
    }
}

fn useful(r: &mut Rng) -> Made {
    let v = case(r, "stride");
    Made {
        prompt: Text::new("practice.coalescing.useful", &args(&v)),
        answer: Answer::percent(Access::new(coalescing_params(&v)).useful_fraction(), 2.0),
        explain: Text::new("practice.coalescing.why", &args(&v)),
        state: v,
    }
}

fn column(r: &mut Rng) -> Made {
    let v = case(r, "column");
    let x = Access::new(coalescing_params(&v));
    Made {
        prompt: Text::new("practice.coalescing.column", &args(&v)),
        answer: Answer::count(x.bytes_moved()).with_traps(&[x.useful_bytes() as f64]),
        explain: Text::new("practice.coalescing.why", &args(&v)),
        state: v,
    }
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.coalescing.transactions", "The 32 lanes of a warp each load one {dtype} element ({e} B), lane i reading element i × {stride}. Memory moves whole {section}-byte sections. How many sections (transactions) does the warp's load touch?", "一个 warp 的 32 个 lane 各读一个 {dtype} 元素（{e} 字节），lane i 读第 i × {stride} 个元素。内存按整段 {section} 字节搬运。这次 warp 读取涉及多少个段（事务）？"),
    ("practice.coalescing.useful", "32 lanes each load one {dtype} element ({e} B) at stride {stride}, in {section}-byte sections. What percentage of the bytes moved did the lanes ask for?", "32 个 lane 各以步长 {stride} 读一个 {dtype} 元素（{e} 字节），按 {section} 字节分段搬运。搬运的字节中有百分之多少是 lane 真正请求的？"),
    ("practice.coalescing.column", "A row-major {dtype} matrix has rows of {rowlen} elements. 32 lanes read one column (lane i reads row i). With {section}-byte sections, how many bytes does the warp move?", "一个行主序的 {dtype} 矩阵每行 {rowlen} 个元素。32 个 lane 读同一列（lane i 读第 i 行）。按 {section} 字节分段，这个 warp 要搬运多少字节？"),
    ("practice.coalescing.why", "The lanes' addresses run from byte {first} to byte {last}; they fall in {t} sections of {section} B = {moved} B moved, for {useful} B asked for ({pct}% useful).", "各 lane 的地址从第 {first} 字节到第 {last} 字节，落在 {t} 个 {section} 字节的段里：搬运 {moved} 字节，其中请求的只有 {useful} 字节（有效 {pct}%）。"),
];
