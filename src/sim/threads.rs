//! Thread indexing (notes §3.1, demo 1 of 02): a 1-D grid of `ceil(n / block)`
//! blocks of `block` threads; thread `threadIdx` of block `blockIdx` handles
//! element `i = blockIdx × blockDim + threadIdx`, guarded by `if (i < n)`.
//! Warps are 32 consecutive threads of a block (a block of 100 threads has
//! 4 warps, the last one a quarter full).

use super::Metric;

pub const WARP: u64 = 32;
pub const MAX_BLOCK: u64 = 1024;
pub const MAX_N: u64 = 1 << 24;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    pub n: u64,
    pub block: u64,
}

/// One thread's view of the indexing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thread {
    pub block_idx: u64,
    pub thread_idx: u64,
    pub warp_in_block: u64,
    pub lane: u64,
    /// `blockIdx × blockDim + threadIdx`.
    pub i: u64,
    /// `i < n`: does it do any work?
    pub active: bool,
}

impl Grid {
    pub fn new(n: u64, block: u64) -> Self {
        Grid { n: n.clamp(1, MAX_N), block: block.clamp(1, MAX_BLOCK) }
    }
    pub fn blocks(&self) -> u64 {
        self.n.div_ceil(self.block)
    }
    pub fn threads(&self) -> u64 {
        self.blocks() * self.block
    }
    pub fn idle_threads(&self) -> u64 {
        self.threads() - self.n
    }
    pub fn warps_per_block(&self) -> u64 {
        self.block.div_ceil(WARP)
    }
    pub fn warps(&self) -> u64 {
        self.blocks() * self.warps_per_block()
    }
    /// The thread with global index `g` (`0..threads()`, clamped).
    pub fn thread(&self, g: u64) -> Thread {
        let g = g.min(self.threads() - 1);
        let (block_idx, thread_idx) = (g / self.block, g % self.block);
        let i = block_idx * self.block + thread_idx;
        Thread {
            block_idx,
            thread_idx,
            warp_in_block: thread_idx / WARP,
            lane: thread_idx % WARP,
            i,
            active: i < self.n,
        }
    }
    pub fn metrics(&self) -> Vec<Metric> {
        vec![
            Metric::count("blocks", self.blocks()),
            Metric::count("threads", self.threads()),
            Metric::count("idle-threads", self.idle_threads()),
            Metric::count("warps", self.warps()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn lecture_example() {
        // n = 1000, 256 threads per block → 4 blocks, 1024 threads, 24 idle.
        let g = Grid::new(1000, 256);
        assert_eq!((g.blocks(), g.threads(), g.idle_threads(), g.warps()), (4, 1024, 24, 32));
        let last = g.thread(1023);
        assert_eq!((last.block_idx, last.thread_idx, last.i, last.active), (3, 255, 1023, false));
        assert!(g.thread(999).active && !g.thread(1000).active);
    }

    proptest! {
        #[test]
        fn every_element_has_exactly_one_thread(n in 1u64..5000, block in 1u64..=1024) {
            let g = Grid::new(n, block);
            let active: Vec<u64> = (0..g.threads()).map(|t| g.thread(t)).filter(|t| t.active).map(|t| t.i).collect();
            prop_assert_eq!(active, (0..n).collect::<Vec<_>>());
            prop_assert!(g.idle_threads() < block);
            prop_assert!(g.warps() * WARP >= g.threads());
        }
    }
}
