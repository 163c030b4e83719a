//! A pass as a `Steppable` run.

use super::*;

/// One pass of one configuration, step by step: step `t` (1-based) computes
/// one tile, in the pass's order (forward: query blocks outer, or key/value
/// blocks outer in FlashAttention-1's order; backward: key blocks outer).
pub struct FlashRun {
    pub flash: Flash,
    pub pass: Pass,
}

/// Where a pass stands after `step` steps: the tile computed in that step
/// (`None` at step 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileStep {
    pub step: u64,
    pub tile: Option<(usize, usize)>,
}

impl FlashRun {
    pub fn new(flash: Flash, pass: Pass) -> Self {
        FlashRun { flash, pass }
    }

    /// The tile after `cur` in the pass's order (`None` → the first tile),
    /// in O(1); `None` after the last.
    pub fn next_tile(&self, cur: Option<(usize, usize)>) -> Option<(usize, usize)> {
        let f = &self.flash;
        let (tr, tc) = (f.tr, f.tc);
        match (f.kv_outer(self.pass), cur) {
            (false, None) => Some((0, 0)),
            (true, None) => Some((f.first_row(0), 0)),
            (false, Some((i, j))) if j + 1 < f.cols_in_row(i) => Some((i, j + 1)),
            (false, Some((i, _))) => (i + 1 < tr).then_some((i + 1, 0)),
            (true, Some((i, j))) if i + 1 < tr => Some((i + 1, j)),
            (true, Some((_, j))) => (j + 1 < tc).then(|| (f.first_row(j + 1), j + 1)),
        }
    }
}

impl Steppable for FlashRun {
    type State = TileStep;
    fn steps(&self) -> u64 {
        self.flash.steps()
    }
    /// O(log n): the closed-form schedule looked up.
    fn state_at(&self, t: u64) -> TileStep {
        let step = t.min(self.steps());
        TileStep { step, tile: self.flash.tile_at(self.pass, step) }
    }
    /// O(1): the next tile in the pass's order.
    fn step_from(&self, prev: &TileStep, t: u64) -> TileStep {
        if t >= self.steps() {
            return *prev;
        }
        TileStep { step: prev.step + 1, tile: self.next_tile(prev.tile) }
    }
    fn metrics(&self, t: u64) -> Vec<Metric> {
        self.flash.metrics(self.pass, t)
    }
}
