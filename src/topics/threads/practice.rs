//! Practice on `#/threads`: blocks for n elements, idle threads of the last
//! block, warps of the launch.

use super::{threads_grid, THREADS};
use crate::params::Values;
use crate::practice::{a, bank, values, Answer, Made, Rng, Text};

bank!("threads": "blocks" => blocks, "idle" => idle, "warps" => warps);

/// A launch whose last block is partly idle (n not a multiple of the block).
fn launch(r: &mut Rng) -> Values {
    r.until(|r| {
        let block = r.pick(&[32, 64, 96, 128, 192, 256, 512, 1024]);
        let n = r.int(100, 100_000);
        (n % block != 0).then(|| values(&THREADS, &[("n", n.to_string()), ("block", block.to_string())]))
    })
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let g = threads_grid(v);
    vec![
        a("n", g.n),
        a("block", g.block),
        a("blocks", g.blocks()),
        a("threads", g.threads()),
        a("idle", g.idle_threads()),
        a("wpb", g.warps_per_block()),
        a("warps", g.warps()),
    ]
}

fn blocks(r: &mut Rng) -> Made {
    let v = launch(r);
    let g = threads_grid(&v);
    Made {
        prompt: Text::new("practice.threads.blocks", &args(&v)[..2]),
        answer: Answer::count(g.blocks()).with_traps(&[(g.n / g.block) as f64]),
        explain: Text::new("practice.threads.blocks.why", &args(&v)),
        state: v,
    }
}

fn idle(r: &mut Rng) -> Made {
    let v = launch(r);
    let g = threads_grid(&v);
    Made {
        prompt: Text::new("practice.threads.idle", &args(&v)[..2]),
        answer: Answer::count(g.idle_threads()).with_traps(&[0.0]),
        explain: Text::new("practice.threads.blocks.why", &args(&v)),
        state: v,
    }
}

fn warps(r: &mut Rng) -> Made {
    let v = launch(r);
    let g = threads_grid(&v);
    Made {
        prompt: Text::new("practice.threads.warps", &args(&v)[..2]),
        answer: Answer::count(g.warps()).with_traps(&[g.n.div_ceil(32) as f64]),
        explain: Text::new("practice.threads.warps.why", &args(&v)),
        state: v,
    }
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.threads.blocks", "A kernel handles n = {n} elements, one per thread, in blocks of {block} threads. How many blocks does the launch need?", "一个核函数处理 n = {n} 个元素，每个线程一个，每块 {block} 个线程。需要启动多少个线程块？"),
    ("practice.threads.blocks.why", "⌈{n} ÷ {block}⌉ = {blocks} blocks, so {blocks} × {block} = {threads} threads for {n} elements: the last block has {idle} idle threads (the `if (i < n)` guard keeps them out).", "⌈{n} ÷ {block}⌉ = {blocks} 个块，共 {blocks} × {block} = {threads} 个线程处理 {n} 个元素：最后一块有 {idle} 个线程空闲（由 `if (i < n)` 挡住）。"),
    ("practice.threads.idle", "n = {n} elements, one per thread, blocks of {block} threads: how many launched threads have no element to work on?", "n = {n} 个元素，每线程一个，每块 {block} 个线程：启动的线程中有多少个没有元素可处理？"),
    ("practice.threads.warps", "n = {n} elements, blocks of {block} threads: how many warps of 32 threads does the launch create?", "n = {n} 个元素，每块 {block} 个线程：这次启动一共产生多少个 32 线程的 warp？"),
    ("practice.threads.warps.why", "{blocks} blocks × ⌈{block} ÷ 32⌉ = {wpb} warps per block = {warps} warps. Warps are cut within a block, never across blocks.", "{blocks} 个块 × 每块 ⌈{block} ÷ 32⌉ = {wpb} 个 warp = {warps} 个 warp。warp 在块内划分，从不跨块。"),
];
