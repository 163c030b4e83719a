//! Practice on `#/flash`: tiles computed under a causal mask, HBM bytes of
//! standard attention against flash, whether a block's working set fits in
//! SRAM.

use super::{flash_params, FLASH};
use crate::params::Values;
use crate::practice::{a, bank, values, yes_no, Answer, Made, Rng, Text};
use crate::sim::flash::{Flash, Pass};
use crate::sim::hw::ML_DTYPES;

bank!("flash": "tiles" => tiles, "hbm" => hbm, "sram" => sram);

fn case(r: &mut Rng, causal: bool) -> Values {
    let n = r.pick(&[64, 96, 128, 200, 256, 512, 1024]);
    let (bq, bk) = (r.pick(&[16, 32, 64]), r.pick(&[16, 32, 64]));
    let d = r.pick(&[32, 64, 128]);
    let sram = r.pick(&[48, 100, 164, 228]);
    values(
        &FLASH,
        &[
            ("n", n.to_string()),
            ("d", d.to_string()),
            ("bq", bq.to_string()),
            ("bk", bk.to_string()),
            ("causal", if causal { "1" } else { "0" }.into()),
            ("dtype", r.pick(ML_DTYPES).into()),
            ("sram", sram.to_string()),
        ],
    )
}

fn sim(v: &Values) -> Flash {
    Flash::schedule_only(flash_params(v))
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let f = sim(v);
    let (std, fl) = (f.hbm_bytes_standard(Pass::Fwd), f.hbm_bytes_flash(Pass::Fwd));
    vec![
        a("n", f.p.n),
        a("d", f.p.d),
        a("bq", f.p.bq),
        a("bk", f.p.bk),
        a("dtype", v.choice("dtype")),
        a("e", f.p.elem_bytes),
        a("tr", f.tile_rows()),
        a("tc", f.tile_cols()),
        a("total", f.tile_rows() * f.tile_cols()),
        a("skipped", f.tiles_skipped()),
        a("computed", f.tiles_computed()),
        a("std", crate::format::bytes(std as f64)),
        a("flash", crate::format::bytes(fl as f64)),
        a("x", crate::format::number((10.0 * std as f64 / fl as f64).round() / 10.0)),
        a("sram", v.int("sram")),
        a("need", crate::format::number(f.sram_bytes() as f64)),
        a("budget", crate::format::number(f.p.sram as f64)),
    ]
}

fn tiles(r: &mut Rng) -> Made {
    let v = case(r, true);
    let f = sim(&v);
    Made {
        prompt: Text::new("practice.flash.tiles", &args(&v)),
        answer: Answer::count(f.tiles_computed()).with_traps(&[(f.tile_rows() * f.tile_cols()) as f64]),
        explain: Text::new("practice.flash.tiles.why", &args(&v)),
        state: v,
    }
}

fn hbm(r: &mut Rng) -> Made {
    let causal = r.below(2) == 0;
    let v = case(r, causal);
    Made {
        prompt: Text::new("practice.flash.hbm", &args(&v)),
        answer: Answer::real(sim(&v).hbm_bytes_standard(Pass::Fwd) as f64 / 1e3, 0.02),
        explain: Text::new("practice.flash.hbm.why", &args(&v)),
        state: v,
    }
}

fn sram(r: &mut Rng) -> Made {
    let v = case(r, true);
    let f = sim(&v);
    Made {
        prompt: Text::new("practice.flash.sram", &args(&v)),
        answer: yes_no(f.fits_sram()),
        explain: Text::new(if f.fits_sram() { "practice.flash.sram.yes" } else { "practice.flash.sram.no" }, &args(&v)),
        state: v,
    }
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.flash.tiles", "Causal FlashAttention with n = {n}, query blocks of {bq} and key blocks of {bk}: how many score tiles are computed (tiles wholly above the diagonal are skipped)?", "因果 FlashAttention，n = {n}，查询块 {bq}，键块 {bk}：一共计算多少个分数块（完全位于对角线上方的块被跳过）？"),
    ("practice.flash.tiles.why", "⌈{n} ÷ {bq}⌉ × ⌈{n} ÷ {bk}⌉ = {tr} × {tc} = {total} tiles; {skipped} lie wholly above the diagonal and are skipped: {computed} computed.", "⌈{n} ÷ {bq}⌉ × ⌈{n} ÷ {bk}⌉ = {tr} × {tc} = {total} 个块；其中 {skipped} 个完全在对角线上方被跳过：计算 {computed} 个。"),
    ("practice.flash.hbm", "Standard attention with n = {n}, d = {d} in {dtype} ({e} B): its forward pass writes S, reads it, writes P and reads it (n × n each), and reads Q, K, V and writes O (n × d each). How many kB go to and from HBM?", "标准注意力，n = {n}，d = {d}，{dtype}（{e} 字节）：前向写 S、读 S、写 P、读 P（各 n × n），并读 Q、K、V、写 O（各 n × d）。与 HBM 之间一共传输多少 kB？"),
    ("practice.flash.hbm.why", "4n² × {e} + 4nd × {e} = {std}. FlashAttention never stores S or P: it moves {flash}, {x}× less.", "4n² × {e} + 4nd × {e} = {std}。FlashAttention 从不存 S 和 P：只传输 {flash}，少 {x} 倍。"),
    ("practice.flash.sram", "A FlashAttention block keeps a {bq}×{d} query tile and {bk}×{d} key and value tiles ({dtype}), the {bq}×{bk} score tile, the output accumulator and m, ℓ (fp32). Does it fit in {sram} KiB of SRAM?", "一个 FlashAttention 线程块要保存 {bq}×{d} 的查询块、{bk}×{d} 的键块和值块（{dtype}）、{bq}×{bk} 的分数块、输出累加器以及 m、ℓ（fp32）。{sram} KiB 的 SRAM 放得下吗？"),
    ("practice.flash.sram.yes", "It needs {need} B of the {budget} B: yes.", "需要 {need} 字节，预算 {budget} 字节：放得下。"),
    ("practice.flash.sram.no", "It needs {need} B, more than the {budget} B: no — smaller blocks would.", "需要 {need} 字节，超过 {budget} 字节：放不下——要用更小的块。"),
];
