//! `#/threads`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use crate::params::{ParamSpec, Values};
use crate::sim::threads;
use crate::topic::{Part, Topic, TopicMeta};

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static THREADS_PARAMS: [ParamSpec; 3] = [
    ParamSpec::int("n", 1, threads::MAX_N as i64, 1000).log(),
    ParamSpec::int("block", 1, threads::MAX_BLOCK as i64, 256).log(),
    ParamSpec::position("thread"),
];

pub static THREADS: TopicMeta = TopicMeta {
    id: "threads",
    sections: &["3.1"],
    demo: "02 · 1",
    part: Part::Gpu,
    params: &THREADS_PARAMS,
    metrics: &["blocks", "threads", "idle-threads", "warps"],
    position_max: Some(|v| threads_grid(v).threads() - 1),
    bounds: None,
};

pub fn threads_grid(v: &Values) -> threads::Grid {
    threads::Grid::new(v.int("n") as u64, v.int("block") as u64)
}

/// Everything this route owns (the registry lists it).
pub static TOPIC: Topic = Topic::new(&THREADS, STRINGS, &practice::BANK);

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("topic.threads.title", "Threads, blocks, warps", "线程、线程块与 warp"),
    ("topic.threads.summary", "Every thread finds its element by i = blockIdx × blockDim + threadIdx; the last block is padded, so some threads must do nothing.", "每个线程用 i = blockIdx × blockDim + threadIdx 找到自己的元素；最后一个块被补齐，所以有些线程什么也不做。"),
    ("param.thread", "Selected thread", "选中的线程"),
    ("param.thread.doc", "Global thread number to inspect", "要查看的线程（全局编号）"),
    ("threads.formula", "i = blockIdx × blockDim + threadIdx = {b} × {d} + {t} = {i}", "i = blockIdx × blockDim + threadIdx = {b} × {d} + {t} = {i}"),
    ("threads.active", "{i} < n = {n}: this thread processes element {i}.", "{i} < n = {n}：该线程处理第 {i} 个元素。"),
    ("threads.idle", "{i} ≥ n = {n}: the guard if (i < n) is false; this thread does nothing.", "{i} ≥ n = {n}：边界检查 if (i < n) 不成立，该线程什么也不做。"),
    ("threads.where", "block {b}, warp {w} (lane {l})", "第 {b} 块，第 {w} 个 warp（lane {l}）"),
    ("threads.explain", "The grid has ceil(n / blockDim) blocks, so the last block is padded up to a whole block: those threads exist and are scheduled, but fail the bounds check. Inside a block, every 32 consecutive threads form a warp, the unit the hardware actually schedules; a block size that is not a multiple of 32 leaves part of its last warp empty.", "网格有 ceil(n / blockDim) 个块，最后一块被补成完整的块：多出的线程照样存在、照样被调度，只是过不了边界检查。块内每 32 个连续线程组成一个 warp，这是硬件真正调度的单位；块大小不是 32 的倍数时，最后一个 warp 有一部分是空的。"),
    ("threads.lecture", "Lecture check (notes §3.1): n = 1000, 256 threads per block → 4 blocks, 1024 threads, 24 idle.", "讲义对照（§3.1）：n = 1000、每块 256 线程 → 4 个块、1024 个线程、24 个空闲。"),
    ("threads.preset", "n = 1000, 256 threads per block", "n = 1000，每块 256 线程"),
    ("threads.block", "block {b}", "块 {b}"),
    ("threads.more-blocks", "… {n} more blocks …", "……另有 {n} 个块……"),
    ("threads.legend.active", "thread with an element", "有元素可处理的线程"),
    ("threads.legend.idle", "idle thread (i ≥ n)", "空闲线程（i ≥ n）"),
    ("threads.legend.selected", "selected thread", "选中的线程"),
    ("metric.blocks", "Blocks", "线程块数"),
    ("metric.threads", "Threads launched", "启动的线程数"),
    ("metric.idle-threads", "Idle threads", "空闲线程数"),
    ("metric.warps", "Warps", "warp 数"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topic::q;

    #[test]
    fn the_lecture_grid() {
        // notes §3.1: 1000 elements in blocks of 256 → 4 blocks, 1024 threads, 24 idle.
        let (v, n) = THREADS.parse(&q(&[("n", "1000"), ("block", "256")]));
        assert!(n.is_empty());
        let g = threads_grid(&v);
        assert_eq!((g.blocks(), g.threads(), g.idle_threads()), (4, 1024, 24));
    }
}
