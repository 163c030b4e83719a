//! Practice on `#/occupancy`: blocks resident on an SM, the resource that
//! limits them, the occupancy that results.

use super::{occupancy_kernel, OCCUPANCY};
use crate::params::Values;
use crate::practice::{a, bank, values, Answer, Made, Rng, Text};
use crate::sim::occupancy::{compute, Occupancy, Resource};

bank!("occupancy": "blocks" => blocks, "limiter" => limiter, "occupancy" => occ);

fn run(v: &Values) -> Occupancy {
    let (arch, k) = occupancy_kernel(v);
    compute(arch, k)
}

/// A kernel that runs (at least one block fits) with one resource alone
/// limiting it, so the limiter has one answer.
fn case(r: &mut Rng) -> Values {
    r.until(|r| {
        let arch = r.pick(&["sm80", "sm90", "sm100"]);
        let threads = 32 * r.int(2, 32);
        let regs = r.int(16, 255);
        let smem = if r.below(2) == 0 { 0 } else { 1024 * r.int(1, 120) };
        let v = values(
            &OCCUPANCY,
            &[
                ("arch", arch.into()),
                ("threads", threads.to_string()),
                ("regs", regs.to_string()),
                ("smem", smem.to_string()),
            ],
        );
        let o = run(&v);
        let tied = o.limits.iter().filter(|&&l| l == o.blocks).count() > 1;
        (o.blocks > 0 && !tied).then_some(v)
    })
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let o = run(v);
    let (arch, _) = occupancy_kernel(v);
    let [w, b, r, s] = o.limits;
    vec![
        a("arch", arch.name),
        a("threads", v.int("threads")),
        a("regs", v.int("regs")),
        a("smem", crate::format::number(v.int("smem") as f64)),
        a("lw", w),
        a("lb", b),
        a("lr", r),
        a("ls", s),
        a("blocks", o.blocks),
        a("wpb", o.warps_per_block),
        a("active", o.active_warps),
        a("max", arch.max_warps_per_sm),
        a("pct", crate::format::percent(o.occupancy)),
    ]
}

fn blocks(r: &mut Rng) -> Made {
    let v = case(r);
    Made {
        prompt: Text::new("practice.occupancy.blocks", &args(&v)),
        answer: Answer::count(run(&v).blocks as u64),
        explain: Text::new("practice.occupancy.why", &args(&v)),
        state: v,
    }
}

const WORDS: [(Resource, &str); 4] = [
    (Resource::Warps, "word.warps"),
    (Resource::Blocks, "word.blocks"),
    (Resource::Registers, "word.registers"),
    (Resource::SharedMemory, "word.shared-memory"),
];

fn limiter(r: &mut Rng) -> Made {
    let v = case(r);
    let o = run(&v);
    Made {
        prompt: Text::new("practice.occupancy.limiter", &args(&v)),
        answer: Answer::choice(WORDS.iter().map(|(res, key)| (Text::key(key), *res == o.limiter)).collect()),
        explain: Text::new("practice.occupancy.why", &args(&v)),
        state: v,
    }
}

fn occ(r: &mut Rng) -> Made {
    let v = case(r);
    Made {
        prompt: Text::new("practice.occupancy.occupancy", &args(&v)),
        answer: Answer::percent(run(&v).occupancy, 2.0),
        explain: Text::new("practice.occupancy.why", &args(&v)),
        state: v,
    }
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.occupancy.blocks", "On {arch}, a kernel uses {threads} threads per block, {regs} registers per thread and {smem} B of shared memory per block. How many blocks fit on one SM at once?", "在 {arch} 上，一个核函数每块 {threads} 个线程，每线程 {regs} 个寄存器，每块 {smem} 字节共享内存。一个 SM 上同时能驻留多少个块？"),
    ("practice.occupancy.limiter", "On {arch}: {threads} threads per block, {regs} registers per thread, {smem} B of shared memory per block. Which resource limits the blocks per SM?", "在 {arch} 上：每块 {threads} 个线程，每线程 {regs} 个寄存器，每块 {smem} 字节共享内存。是哪种资源限制了每个 SM 的块数？"),
    ("practice.occupancy.occupancy", "On {arch}: {threads} threads per block, {regs} registers per thread, {smem} B of shared memory per block. What is the occupancy (active warps ÷ the SM's maximum), in percent?", "在 {arch} 上：每块 {threads} 个线程，每线程 {regs} 个寄存器，每块 {smem} 字节共享内存。占用率（活跃 warp ÷ SM 上限）是百分之多少？"),
    ("practice.occupancy.why", "Blocks per SM allowed by warp slots {lw}, by block slots {lb}, by registers {lr}, by shared memory {ls}: the smallest, {blocks}, wins. {blocks} × {wpb} warps = {active} of {max} warps: {pct}%.", "按 warp 槽位可放 {lw} 块，按块槽位 {lb} 块，按寄存器 {lr} 块，按共享内存 {ls} 块：取最小值 {blocks}。{blocks} × {wpb} 个 warp = {active} / {max} 个 warp：{pct}%。"),
];
