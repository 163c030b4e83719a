//! A TPU-style systolic array computing `C = A · B` (lecture §9.2, demo 06).
//!
//! The physical array has `rows × cols` processing elements (PEs). The same
//! operands are used by both dataflows: `A` is `rows × k`, `B` is `k × cols`,
//! so `C` is `rows × cols`.
//!
//! * **Output-stationary** (`os`, the lecture's version): row `i` of `A` enters
//!   from the left, `i` cycles late; column `j` of `B` enters from the top, `j`
//!   cycles late. `A[i][k]` and `B[k][j]` meet in PE `(i, j)` in cycle
//!   `i + j + k + 1`, which multiplies them and adds to its accumulator `C[i][j]`.
//!   The whole product takes `rows + cols + k - 2` cycles.
//! * **Weight-stationary** (`ws`, the lecture's exercise): `B` is cut along `k`
//!   into chunks of `rows` rows. For each chunk the weights are first pushed down
//!   into the PEs (one row per cycle; real TPUs double-buffer this load behind the
//!   previous chunk's compute, here it is its own phase so it can be seen), then
//!   the `rows` vectors of `A` stream in from the left, skewed; partial sums flow
//!   down and leave the bottom into the output accumulators.
//!
//! Cycle `c` in `0..=total_cycles()` means "after `c` cycles": cycle 0 is the
//! empty array, and the per-PE view at cycle `c ≥ 1` shows what happened during
//! cycle `c`. Every per-cycle quantity is a closed form, so jumping to any cycle
//! costs the same as one step; [`rtl`] is an independent register-transfer
//! simulation (registers shifting every tick) that the tests check the closed
//! forms against, cycle by cycle.

use super::{Metric, SplitMix64, Steppable};
use std::cell::{OnceCell, RefCell};

/// Largest array side (TPU v6e Trillium's MXU is 256×256).
pub const MAX_DIM: usize = 256;
/// Largest inner dimension.
pub const MAX_K: usize = 4096;
/// Operands are drawn uniformly from `0..=OPERAND_MAX`: one digit, readable.
pub const OPERAND_MAX: i32 = 9;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dataflow {
    /// Output-stationary: each PE keeps its `C[i][j]`.
    Os,
    /// Weight-stationary: each PE keeps a weight `B[k][j]`.
    Ws,
}

impl Dataflow {
    pub const ALL: [Dataflow; 2] = [Dataflow::Os, Dataflow::Ws];
    /// The URL spelling.
    pub fn code(self) -> &'static str {
        match self {
            Dataflow::Os => "os",
            Dataflow::Ws => "ws",
        }
    }
    pub fn from_code(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.code() == s)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// PE rows (and rows of `A`), 1..=256.
    pub rows: usize,
    /// PE columns (and columns of `B`), 1..=256.
    pub cols: usize,
    /// Inner dimension, 1..=4096.
    pub k: usize,
    pub dataflow: Dataflow,
    /// Seed of the operand generator.
    pub seed: u64,
}

impl Default for Params {
    fn default() -> Self {
        Params { rows: 4, cols: 4, k: 6, dataflow: Dataflow::Os, seed: 1 }
    }
}

/// What the array as a whole is doing in a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Cycle 0: nothing has entered yet.
    Start,
    /// Weight-stationary only: pushing a chunk of `B` into the PEs.
    LoadWeights,
    /// Some PEs have not started yet (operands still travelling in).
    Fill,
    /// Every PE is busy.
    Steady,
    /// Some PEs have finished, the rest are still working.
    Drain,
    /// Both at once: the operands are so short (small `k`) that the first PEs
    /// finish before the last ones start.
    FillDrain,
}

impl Phase {
    /// Translation key suffix and CSS class.
    pub fn code(self) -> &'static str {
        match self {
            Phase::Start => "start",
            Phase::LoadWeights => "load",
            Phase::Fill => "fill",
            Phase::Steady => "steady",
            Phase::Drain => "drain",
            Phase::FillDrain => "fill-drain",
        }
    }
}

/// One PE in one cycle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pe {
    /// Did it multiply-accumulate in this cycle?
    pub busy: bool,
    /// The `A` value in its register this cycle (if any).
    pub a: Option<i32>,
    /// OS: the `B` value passing through; WS: the stationary weight (also while
    /// it is being loaded).
    pub b: Option<i32>,
    /// OS: the accumulator `C[i][j]` so far. WS: the partial sum it passed down
    /// this cycle (if busy).
    pub acc: Option<i64>,
    /// How far along this PE is, in 0..=1 (OS: MACs done ÷ k; WS: 1 once the
    /// current chunk's vectors have all passed).
    pub progress: f32,
}

/// Where a cycle falls in the weight-stationary schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WsPos {
    /// Which chunk of `B` (0-based).
    pub chunk: usize,
    /// Rows of the array this chunk uses (`rows`, or fewer for the last chunk).
    pub kc: usize,
    /// `Some(l)`: load step `l` (1-based) of this chunk.
    pub load: Option<usize>,
    /// `Some(u)`: compute step `u` (1-based) of this chunk.
    pub compute: Option<usize>,
}

/// The array-level state at one cycle (the per-PE detail is asked for with
/// [`Systolic::pe`], so a frame costs nothing to make).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub cycle: u64,
    pub phase: Phase,
    pub busy_pes: u64,
    pub ws: Option<WsPos>,
}

pub struct Systolic {
    p: Params,
    /// `A` and `B` (row-major) when they are small; larger ones are computed
    /// element by element from the seed (see [`operand`]) and, for the check,
    /// generated in slices.
    ops: Option<(Vec<i32>, Vec<i32>)>,
    total: u64,
    /// (array output, max |array − direct|), once the check has finished.
    check: OnceCell<(Vec<i64>, i64)>,
    /// The check in progress (see [`Systolic::check_step`]).
    checking: RefCell<Option<Checking>>,
}

/// A check part-way through: rows `0..b_rows` of `B` are generated, then
/// output rows `0..next_row` are done.
struct Checking {
    /// `B`, row-major.
    b: Vec<i32>,
    /// `B` transposed (columns contiguous).
    bt: Vec<i32>,
    b_rows: usize,
    out: Vec<i64>,
    direct: Vec<i32>,
    next_row: usize,
}

/// Operands are stored when there are at most this many (about a
/// millisecond to draw); beyond, each is computed from the seed when asked
/// for, so that a new 256 × 256 × 4096 run (2 M operands) costs nothing until
/// its check runs.
pub const STORED_OPERANDS: usize = 1 << 18;
/// Cost of generating one operand, in multiply-adds (for slicing the check).
const GEN_COST: u64 = 8;

/// Draw number `n` (0-based) of `SplitMix64::new(seed)` as an operand in
/// `0..=OPERAND_MAX`: SplitMix64's state after `n + 1` draws is
/// `seed + (n + 1)·γ`, so any draw can be computed directly.
pub fn operand(seed: u64, n: u64) -> i32 {
    let mut z = seed.wrapping_add(n.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z % (OPERAND_MAX as u64 + 1)) as i32
}

/// Total cycles of a run, without generating its operands.
pub fn total_cycles(p: &Params) -> u64 {
    let (rows, cols, k) = (p.rows.clamp(1, MAX_DIM), p.cols.clamp(1, MAX_DIM), p.k.clamp(1, MAX_K));
    match p.dataflow {
        Dataflow::Os => (rows + cols + k - 2) as u64,
        Dataflow::Ws => (2 * k + k.div_ceil(rows) * (rows + cols - 2)) as u64,
    }
}

/// Number of `(i, j)` with `i < r`, `j < c` and `i + j <= s`, in O(1): the
/// pairs of non-negative integers with `i + j < n` (n = s + 1) are a triangle
/// of `n(n+1)/2`; take away those with `i >= r` and those with `j >= c`
/// (triangles again), and add back those with both.
fn pairs_sum_at_most(r: usize, c: usize, s: i64) -> u64 {
    if s < 0 {
        return 0;
    }
    let tri = |x: i64| if x > 0 { (x * (x + 1) / 2) as u64 } else { 0 };
    let (n, r, c) = (s + 1, r as i64, c as i64);
    tri(n) + tri(n - r - c) - tri(n - r) - tri(n - c)
}

/// Number of `(i, j)` with `i < r`, `j < c` and `lo <= i + j <= hi`.
fn pairs_sum_between(r: usize, c: usize, lo: i64, hi: i64) -> u64 {
    pairs_sum_at_most(r, c, hi) - pairs_sum_at_most(r, c, lo - 1)
}

impl Systolic {
    pub fn new(p: Params) -> Self {
        let p = Params { rows: p.rows.clamp(1, MAX_DIM), cols: p.cols.clamp(1, MAX_DIM), k: p.k.clamp(1, MAX_K), ..p };
        // The same numbers as drawing A then B from SplitMix64::new(seed).
        let ops = (p.rows * p.k + p.k * p.cols <= STORED_OPERANDS).then(|| {
            let mut rng = SplitMix64::new(p.seed);
            let a = (0..p.rows * p.k).map(|_| rng.range_i32(0, OPERAND_MAX)).collect();
            let b = (0..p.k * p.cols).map(|_| rng.range_i32(0, OPERAND_MAX)).collect();
            (a, b)
        });
        let total = total_cycles(&p);
        Systolic { p, ops, total, check: OnceCell::new(), checking: RefCell::new(None) }
    }

    pub fn params(&self) -> &Params {
        &self.p
    }
    pub fn a(&self, i: usize, k: usize) -> i32 {
        let n = i * self.p.k + k;
        match &self.ops {
            Some((a, _)) => a[n],
            None => operand(self.p.seed, n as u64),
        }
    }
    pub fn b(&self, k: usize, j: usize) -> i32 {
        let n = k * self.p.cols + j;
        match &self.ops {
            Some((_, b)) => b[n],
            None => operand(self.p.seed, (self.p.rows * self.p.k + n) as u64),
        }
    }
    pub fn total_cycles(&self) -> u64 {
        self.total
    }
    /// Vectors of `A` streamed per weight chunk (weight-stationary).
    fn m(&self) -> usize {
        self.p.rows
    }
    fn chunk_len(&self, kc: usize) -> u64 {
        (2 * kc + self.m() + self.p.cols - 2) as u64
    }
    pub fn chunks(&self) -> usize {
        match self.p.dataflow {
            Dataflow::Os => 1,
            Dataflow::Ws => self.p.k.div_ceil(self.p.rows),
        }
    }

    /// Weight-stationary position of cycle `c ≥ 1`.
    pub fn ws_pos(&self, c: u64) -> WsPos {
        let r = self.p.rows;
        let full = self.chunk_len(r);
        let chunks = self.chunks();
        let c = c.clamp(1, self.total);
        let chunk = (((c - 1) / full) as usize).min(chunks - 1);
        let kc = (self.p.k - chunk * r).min(r);
        let s = (c - chunk as u64 * full) as usize; // 1-based within the chunk
        if s <= kc {
            WsPos { chunk, kc, load: Some(s), compute: None }
        } else {
            WsPos { chunk, kc, load: None, compute: Some(s - kc) }
        }
    }

    /// PEs that multiply-accumulate during cycle `c` (0 for cycle 0).
    pub fn busy_at(&self, c: u64) -> u64 {
        if c == 0 || c > self.total {
            return 0;
        }
        let (r, cc) = (self.p.rows, self.p.cols);
        match self.p.dataflow {
            Dataflow::Os => {
                let t = c as i64 - 1;
                pairs_sum_between(r, cc, t - self.p.k as i64 + 1, t)
            }
            Dataflow::Ws => {
                let pos = self.ws_pos(c);
                match pos.compute {
                    None => 0,
                    Some(u) => {
                        let u = u as i64;
                        pairs_sum_between(pos.kc, cc, u - self.m() as i64, u - 1)
                    }
                }
            }
        }
    }

    pub fn phase_at(&self, c: u64) -> Phase {
        if c == 0 {
            return Phase::Start;
        }
        let (r, cc) = (self.p.rows as u64, self.p.cols as u64);
        let (step, span, kc) = match self.p.dataflow {
            Dataflow::Os => (c, self.p.k as u64, r),
            Dataflow::Ws => {
                let pos = self.ws_pos(c);
                match pos.compute {
                    None => return Phase::LoadWeights,
                    Some(u) => (u as u64, self.m() as u64, pos.kc as u64),
                }
            }
        };
        // The last PE starts in step kc + cols - 1; the first finishes after step `span`.
        let filling = step < kc + cc - 1;
        let draining = step > span;
        match (filling, draining) {
            (true, true) => Phase::FillDrain,
            (true, false) => Phase::Fill,
            (false, true) => Phase::Drain,
            (false, false) => Phase::Steady,
        }
    }

    /// The cheap part of [`Systolic::pe`] (no sums): `(busy, progress,
    /// holds_weight)`. O(1); the heat map calls it for every PE every frame.
    pub fn pe_brief(&self, c: u64, i: usize, j: usize) -> (bool, f32, bool) {
        match self.p.dataflow {
            Dataflow::Os => {
                let k = self.p.k as i64;
                let t = c as i64 - (i + j) as i64;
                let busy = c >= 1 && t >= 1 && t <= k;
                (busy, t.clamp(0, k) as f32 / k as f32, false)
            }
            Dataflow::Ws => {
                if c == 0 {
                    return (false, 0.0, false);
                }
                let pos = self.ws_pos(c);
                if i >= pos.kc {
                    return (false, 0.0, false);
                }
                match (pos.load, pos.compute) {
                    (Some(l), _) => (false, 0.0, i < l || pos.chunk > 0),
                    (None, Some(u)) => {
                        let m = self.m() as i64;
                        let t = u as i64 - (i + j) as i64;
                        (t >= 1 && t <= m, t.clamp(0, m) as f32 / m as f32, true)
                    }
                    (None, None) => (false, 0.0, false),
                }
            }
        }
    }

    /// The state of PE `(i, j)` during cycle `c`.
    pub fn pe(&self, c: u64, i: usize, j: usize) -> Pe {
        let idle = Pe { busy: false, a: None, b: None, acc: None, progress: 0.0 };
        match self.p.dataflow {
            Dataflow::Os => {
                let k = self.p.k as i64;
                let done = (c as i64 - (i + j) as i64).clamp(0, k) as usize;
                let acc = (0..done).map(|kk| self.a(i, kk) as i64 * self.b(kk, j) as i64).sum();
                let kk = c as i64 - 1 - (i + j) as i64;
                let busy = c >= 1 && (0..k).contains(&kk);
                Pe {
                    busy,
                    a: busy.then(|| self.a(i, kk as usize)),
                    b: busy.then(|| self.b(kk as usize, j)),
                    acc: Some(acc),
                    progress: done as f32 / k as f32,
                }
            }
            Dataflow::Ws => {
                if c == 0 {
                    return idle;
                }
                let pos = self.ws_pos(c);
                let base = pos.chunk * self.p.rows;
                if i >= pos.kc {
                    return idle;
                }
                if let Some(l) = pos.load {
                    // After l pushes, row i < l holds chunk row kc - l + i; the
                    // rows below still hold the previous chunk, shifted down by l.
                    let b = if i < l {
                        Some(self.b(base + pos.kc - l + i, j))
                    } else if pos.chunk > 0 {
                        Some(self.b(base - self.p.rows + i - l, j))
                    } else {
                        None
                    };
                    return Pe { b, ..idle };
                }
                let u = pos.compute.unwrap_or(0) as i64;
                let w = self.b(base + i, j);
                let m = u - 1 - (i + j) as i64;
                let busy = (0..self.m() as i64).contains(&m);
                let psum = busy
                    .then(|| (0..=i).map(|r| self.a(m as usize, base + r) as i64 * self.b(base + r, j) as i64).sum());
                let passed = (u - (i + j) as i64).clamp(0, self.m() as i64);
                Pe {
                    busy,
                    a: busy.then(|| self.a(m as usize, base + i)),
                    b: Some(w),
                    acc: psum,
                    progress: passed as f32 / self.m() as f32,
                }
            }
        }
    }

    /// The operand waiting in slot `s` (0 = next to enter) of row `i`'s queue on
    /// the left, at cycle `c`.
    pub fn left_queue(&self, c: u64, i: usize, s: usize) -> Option<i32> {
        match self.p.dataflow {
            Dataflow::Os => {
                let k = c as i64 + s as i64 - i as i64;
                (0..self.p.k as i64).contains(&k).then(|| self.a(i, k as usize))
            }
            Dataflow::Ws => {
                let pos = self.ws_pos(c.max(1));
                if i >= pos.kc {
                    return None;
                }
                // During a load step (and at cycle 0) the whole chunk is still to come.
                let u = if c == 0 { 0 } else { pos.compute.unwrap_or(0) as i64 };
                let m = u + s as i64 - i as i64;
                (0..self.m() as i64).contains(&m).then(|| self.a(m as usize, pos.chunk * self.p.rows + i))
            }
        }
    }

    /// The operand waiting in slot `s` (0 = next to enter) above column `j`.
    /// For weight-stationary this is the weight queue of the current chunk.
    pub fn top_queue(&self, c: u64, j: usize, s: usize) -> Option<i32> {
        match self.p.dataflow {
            Dataflow::Os => {
                let k = c as i64 + s as i64 - j as i64;
                (0..self.p.k as i64).contains(&k).then(|| self.b(k as usize, j))
            }
            Dataflow::Ws => {
                let pos = self.ws_pos(c.max(1));
                let l = if c == 0 { 0 } else { pos.load? };
                // Push number l + 1 + s carries chunk row kc - (l + 1 + s).
                let row = pos.kc as i64 - (l + 1 + s) as i64;
                (row >= 0).then(|| self.b(pos.chunk * self.p.rows + row as usize, j))
            }
        }
    }

    /// Weight-stationary output accumulator `C[m][j]` after cycle `c`
    /// (the sums that have left the bottom of the array so far).
    pub fn ws_output(&self, c: u64, m: usize, j: usize) -> i64 {
        let r = self.p.rows;
        let dot = |k0: usize, k1: usize| -> i64 { (k0..k1).map(|k| self.a(m, k) as i64 * self.b(k, j) as i64).sum() };
        if c == 0 {
            return 0;
        }
        let pos = self.ws_pos(c);
        let base = pos.chunk * r;
        let mut sum = dot(0, base);
        if let Some(u) = pos.compute {
            if m + pos.kc + j <= u {
                sum += dot(base, base + pos.kc);
            }
        }
        sum
    }

    /// Busy PE-cycles ÷ (PEs × total cycles), counted from the schedule.
    pub fn utilization(&self) -> f64 {
        let busy: u64 = match self.p.dataflow {
            Dataflow::Os => (self.p.rows * self.p.cols * self.p.k) as u64,
            Dataflow::Ws => (0..self.chunks())
                .map(|q| {
                    let kc = (self.p.k - q * self.p.rows).min(self.p.rows);
                    (self.m() * kc * self.p.cols) as u64
                })
                .sum(),
        };
        busy as f64 / ((self.p.rows * self.p.cols) as u64 * self.total) as f64
    }

    /// Operand elements fetched from memory by the schedule, ÷ distinct operand
    /// elements: how many times each is read.
    pub fn reads_per_operand(&self) -> f64 {
        let (r, c, k) = (self.p.rows, self.p.cols, self.p.k);
        let fetched: usize = match self.p.dataflow {
            // Each row queue carries its k values of A, each column queue k of B.
            Dataflow::Os => r * k + c * k,
            // Each chunk pushes kc×cols weights and streams m vectors of kc values.
            Dataflow::Ws => (0..self.chunks())
                .map(|q| {
                    let kc = (k - q * r).min(r);
                    kc * c + self.m() * kc
                })
                .sum(),
        };
        fetched as f64 / (r * k + k * c) as f64
    }

    /// PEs that use each operand element, on average: every MAC uses one `A`
    /// and one `B` element.
    pub fn uses_per_operand(&self) -> f64 {
        let (r, c, k) = (self.p.rows, self.p.cols, self.p.k);
        (2 * r * c * k) as f64 / (r * k + k * c) as f64
    }

    /// Runs of equal phase over cycles `1..=total`: `(first, last, phase)`.
    pub fn phase_segments(&self) -> Vec<(u64, u64, Phase)> {
        let mut out: Vec<(u64, u64, Phase)> = Vec::new();
        for c in 1..=self.total {
            let ph = self.phase_at(c);
            match out.last_mut() {
                Some(last) if last.2 == ph => last.1 = c,
                _ => out.push((c, c, ph)),
            }
        }
        out
    }

    /// Busy PEs in every cycle `0..=total` (for the timeline chart).
    pub fn busy_series(&self) -> Vec<u64> {
        (0..=self.total).map(|c| self.busy_at(c)).collect()
    }
}

impl Steppable for Systolic {
    type State = Frame;

    fn steps(&self) -> u64 {
        self.total
    }

    fn state_at(&self, t: u64) -> Frame {
        let cycle = t.min(self.total);
        Frame {
            cycle,
            phase: self.phase_at(cycle),
            busy_pes: self.busy_at(cycle),
            ws: (self.p.dataflow == Dataflow::Ws && cycle > 0).then(|| self.ws_pos(cycle)),
        }
    }

    fn metrics(&self, t: u64) -> Vec<Metric> {
        self.check();
        self.metrics_checked(t)
    }
}

/// A register-transfer simulation, written independently of the closed forms:
/// registers shift one PE per tick and PEs multiply what they hold. Used by the
/// tests as the ground truth for [`Systolic::pe`], [`Systolic::busy_at`] and
/// [`Systolic::total_cycles`].
pub mod rtl;

mod check;

#[cfg(test)]
mod tests;
