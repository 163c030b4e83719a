//! A TPU-style systolic array computing a GEMM `C = A · B` (lecture §9.2,
//! demo 06), `A` being `m × k` and `B` `k × n`, on an array of `rows × cols`
//! processing elements (PEs), however the two sizes compare.
//!
//! The GEMM is cut into **folds**, each a block that fits the array, run one
//! after the other (see [`schedule`]). Three dataflows, named after what stays
//! put in a PE:
//!
//! * **Output-stationary** (`os`, the lecture's version): a fold is a block of
//!   `C`. Row `i` of the block's `A` rows enters from the left `i` cycles late,
//!   column `j` of `B` from the top `j` cycles late; `A[i][κ]` and `B[κ][j]`
//!   meet in PE `(i, j)` in compute step `i + j + κ + 1`, which adds their product
//!   to its own accumulator. The stream is `T = k` long.
//! * **Weight-stationary** (`ws`): a fold is a block of `B` (rows of `k` along
//!   the array's rows, columns of `n` along its columns). Its weights are first
//!   pushed down into the PEs, one row per cycle (or, double-buffered, behind
//!   the previous fold's compute); then all `T = m` rows of `A` stream in from
//!   the left, skewed; each PE adds its product to the partial sum from above
//!   and passes it down; sums leave the bottom into the output accumulators.
//! * **Input-stationary** (`is`): the same with `A` held (`Aᵀ`'s block: `k`
//!   along the rows, `m` along the columns) and the `T = n` columns of `B`
//!   streaming through.
//!
//! Cycle `c` in `0..=total_cycles()` means "after `c` cycles": cycle 0 is the
//! empty array, and the per-PE view at cycle `c ≥ 1` shows what happened during
//! cycle `c`. Every per-cycle quantity is a closed form, so jumping to any cycle
//! costs the same as one step; [`rtl`] is an independent register-transfer
//! simulation that the tests check the closed forms against, cycle by cycle.

use super::{Metric, SplitMix64, Steppable};
use std::cell::{OnceCell, RefCell};

pub use schedule::{Cycles, Fold, Pos, Schedule};

/// Largest array side (TPU v6e Trillium's MXU is 256×256).
pub const MAX_DIM: usize = 256;
/// Largest GEMM dimension (`m`, `k`, `n`).
pub const MAX_K: usize = 4096;
/// Operands are drawn uniformly from `0..=OPERAND_MAX`: one digit, readable.
pub const OPERAND_MAX: i32 = 9;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dataflow {
    /// Output-stationary: each PE keeps its `C[i][j]`.
    Os,
    /// Weight-stationary: each PE keeps a weight `B[κ][j]`.
    Ws,
    /// Input-stationary: each PE keeps an input `A[i][κ]`.
    Is,
}

impl Dataflow {
    pub const ALL: [Dataflow; 3] = [Dataflow::Os, Dataflow::Ws, Dataflow::Is];
    /// The URL spelling.
    pub fn code(self) -> &'static str {
        match self {
            Dataflow::Os => "os",
            Dataflow::Ws => "ws",
            Dataflow::Is => "is",
        }
    }
    pub fn from_code(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.code() == s)
    }
}

/// How cycles are counted (see the panel's list of differences).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conv {
    /// A fold lasts until its last multiply-accumulate over the PEs it uses;
    /// a weight load takes one cycle per used row.
    Warpscope,
    /// SCALE-Sim v2's compute model: partial folds padded to the whole array,
    /// a weight load of `rows` cycles, no double buffering.
    ScaleSim,
}

impl Conv {
    pub const ALL: [Conv; 2] = [Conv::Warpscope, Conv::ScaleSim];
    pub fn code(self) -> &'static str {
        match self {
            Conv::Warpscope => "warpscope",
            Conv::ScaleSim => "scalesim",
        }
    }
    pub fn from_code(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.code() == s)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// PE rows, 1..=256.
    pub rows: usize,
    /// PE columns, 1..=256.
    pub cols: usize,
    /// The GEMM: `A` is `m × k`, `B` is `k × n`, each 1..=4096.
    pub m: usize,
    pub k: usize,
    pub n: usize,
    pub dataflow: Dataflow,
    /// Weight-/input-stationary: load the next fold behind the current one.
    pub dbuf: bool,
    pub conv: Conv,
    /// Seed of the operand generator.
    pub seed: u64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            rows: 4,
            cols: 4,
            m: 4,
            k: 6,
            n: 4,
            dataflow: Dataflow::Os,
            dbuf: false,
            conv: Conv::Warpscope,
            seed: 1,
        }
    }
}

impl Params {
    /// Every size within its bounds.
    pub fn clamped(self) -> Self {
        Params {
            rows: self.rows.clamp(1, MAX_DIM),
            cols: self.cols.clamp(1, MAX_DIM),
            m: self.m.clamp(1, MAX_K),
            k: self.k.clamp(1, MAX_K),
            n: self.n.clamp(1, MAX_K),
            ..self
        }
    }
}

/// What the array as a whole is doing in a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Cycle 0: nothing has entered yet.
    Start,
    /// Weight-/input-stationary: loading (or waiting for) a fold's operands.
    LoadWeights,
    /// Some PEs have not started yet (operands still travelling in).
    Fill,
    /// Every PE is busy.
    Steady,
    /// Some PEs have finished, the rest are still working.
    Drain,
    /// Both at once: the stream is so short that the first PEs finish before
    /// the last ones start.
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
    /// The value moving right through it this cycle (OS: `A`; WS: `A`; IS: `B`).
    pub a: Option<i32>,
    /// OS: the `B` value passing down; WS / IS: the stationary operand it holds
    /// (also while it is being loaded).
    pub b: Option<i32>,
    /// OS: its accumulator so far (this fold). WS / IS: the partial sum it
    /// passed down this cycle (if busy).
    pub acc: Option<i64>,
    /// How far along this PE is in the current fold, in 0..=1.
    pub progress: f32,
}

/// The array-level state at one cycle (the per-PE detail is asked for with
/// [`Systolic::pe`], so a frame costs nothing to make).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub cycle: u64,
    pub phase: Phase,
    pub busy_pes: u64,
    /// The fold and the step within it (`None` at cycle 0).
    pub pos: Option<Pos>,
}

pub struct Systolic {
    p: Params,
    sched: Schedule,
    /// `A` and `B` (row-major) when they are small; larger ones are computed
    /// element by element from the seed (see [`operand`]) and, for the check,
    /// generated in slices.
    ops: Option<(Vec<i32>, Vec<i32>)>,
    total: u64,
    /// (array output, max |array − direct|), once the check has finished.
    check: OnceCell<(Vec<i64>, i64)>,
    /// The check in progress (see [`Systolic::check_step`]).
    checking: RefCell<Option<check::Checking>>,
}

/// Operands are stored when there are at most this many (about a
/// millisecond to draw); beyond, each is computed from the seed when asked
/// for, so that a new large run costs nothing until its check runs.
pub const STORED_OPERANDS: usize = 1 << 18;
/// Cost of generating one operand, in multiply-adds (for slicing the check).
const GEN_COST: u64 = 8;

/// Draw number `n` (0-based) of `SplitMix64::new(seed)` as an operand in
/// `0..=OPERAND_MAX`: SplitMix64's state after `n + 1` draws is
/// `seed + (n + 1)·γ`, so any draw can be computed directly.
#[inline]
pub fn operand(seed: u64, n: u64) -> i32 {
    let mut z = seed.wrapping_add(n.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    digit(z)
}

/// `z % 10` (an operand in `0..=OPERAND_MAX` from a draw), from the two
/// halves of `z`: 2³² ≡ 6 (mod 10), so z ≡ 6·hi + lo. The same number as the
/// 64-bit remainder, which WebAssembly computes with a slow division while
/// these remainders by a constant are a multiply and a shift (a new run
/// draws up to 2¹⁸ operands, its check a million more).
///
/// (The release build optimises for size, where LLVM keeps a remainder by a
/// constant as a division: [`rem10`] spells out the multiply and shift.)
#[inline(always)]
pub fn digit(z: u64) -> i32 {
    const _: () = assert!(OPERAND_MAX == 9);
    rem10(rem10((z >> 32) as u32) * 6 + rem10(z as u32)) as i32
}

/// `x % 10` for any `u32`: ⌊x / 10⌋ = ⌊x · ⌈2³⁵ / 10⌉ / 2³⁵⌋ exactly.
#[inline(always)]
fn rem10(x: u32) -> u32 {
    let q = ((x as u64 * 0xCCCC_CCCD) >> 35) as u32;
    x - q * 10
}

/// Total cycles of a run, without generating its operands.
pub fn total_cycles(p: &Params) -> u64 {
    Schedule::new(p.clamped()).total()
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
        let p = p.clamped();
        // The same numbers as drawing A then B from SplitMix64::new(seed).
        let ops = (p.m * p.k + p.k * p.n <= STORED_OPERANDS).then(|| {
            // (`rng.range_i32(0, OPERAND_MAX)`, its remainder taken by [`digit`].)
            let mut rng = SplitMix64::new(p.seed);
            let a = (0..p.m * p.k).map(|_| digit(rng.next_u64())).collect();
            let b = (0..p.k * p.n).map(|_| digit(rng.next_u64())).collect();
            (a, b)
        });
        let sched = Schedule::new(p);
        let total = sched.total();
        Systolic { p, sched, ops, total, check: OnceCell::new(), checking: RefCell::new(None) }
    }

    pub fn params(&self) -> &Params {
        &self.p
    }
    pub fn schedule(&self) -> &Schedule {
        &self.sched
    }
    /// `A[i][κ]`.
    pub fn a(&self, i: usize, k: usize) -> i32 {
        let n = i * self.p.k + k;
        match &self.ops {
            Some((a, _)) => a[n],
            None => operand(self.p.seed, n as u64),
        }
    }
    /// `B[κ][j]`.
    pub fn b(&self, k: usize, j: usize) -> i32 {
        let n = k * self.p.n + j;
        match &self.ops {
            Some((_, b)) => b[n],
            None => operand(self.p.seed, (self.p.m * self.p.k + n) as u64),
        }
    }
    pub fn total_cycles(&self) -> u64 {
        self.total
    }
    pub fn folds(&self) -> usize {
        self.sched.folds()
    }
    /// The stream length `T` of every fold (OS: `k`; WS: `m`; IS: `n`).
    pub fn stream_len(&self) -> usize {
        self.sched.t
    }
    /// Where cycle `c` falls (`None` for cycle 0).
    pub fn pos(&self, c: u64) -> Option<Pos> {
        (c >= 1 && c <= self.total).then(|| self.sched.pos(c))
    }
    /// The fold shown at cycle `c` (the first one at cycle 0).
    pub fn fold_at(&self, c: u64) -> Fold {
        self.pos(c).map(|p| p.fold).unwrap_or_else(|| self.sched.fold(0))
    }

    /// WS / IS: the operand PE `(i, j)` holds during fold `f`.
    pub fn stationary(&self, f: &Fold, i: usize, j: usize) -> Option<i32> {
        if i >= f.ur || j >= f.uc {
            return None;
        }
        let (kk, cc) = (f.r0 + i, f.c0 + j);
        match self.p.dataflow {
            Dataflow::Os => None,
            Dataflow::Ws => Some(self.b(kk, cc)),
            Dataflow::Is => Some(self.a(cc, kk)),
        }
    }
    /// The value vector `t` of the stream brings to row `i` in fold `f`
    /// (OS: `A[r0 + i][t]`; WS: `A[t][r0 + i]`; IS: `B[r0 + i][t]`).
    pub fn stream(&self, f: &Fold, t: usize, i: usize) -> i32 {
        match self.p.dataflow {
            Dataflow::Os => self.a(f.r0 + i, t),
            Dataflow::Ws => self.a(t, f.r0 + i),
            Dataflow::Is => self.b(f.r0 + i, t),
        }
    }
    /// OS: the value vector `t` brings down column `j` (`B[t][c0 + j]`).
    pub fn stream_top(&self, f: &Fold, t: usize, j: usize) -> i32 {
        self.b(t, f.c0 + j)
    }

    /// PEs that multiply-accumulate during cycle `c` (0 for cycle 0).
    pub fn busy_at(&self, c: u64) -> u64 {
        let Some(pos) = self.pos(c) else { return 0 };
        match pos.compute_step() {
            None => 0,
            Some(s) => {
                let s = s as i64;
                pairs_sum_between(pos.fold.ur, pos.fold.uc, s - self.sched.t as i64, s - 1)
            }
        }
    }

    pub fn phase_at(&self, c: u64) -> Phase {
        let Some(pos) = self.pos(c) else { return Phase::Start };
        let Some(s) = pos.compute_step() else { return Phase::LoadWeights };
        let (r, cc) = self.sched.phase_dims(&pos.fold);
        let filling = s < (r + cc - 1) as u64;
        let draining = s > self.sched.t as u64;
        match (filling, draining) {
            (true, true) => Phase::FillDrain,
            (true, false) => Phase::Fill,
            (false, true) => Phase::Drain,
            (false, false) => Phase::Steady,
        }
    }

    /// Steps of the stream PE `(i, j)` has passed by compute step `s`, and
    /// whether it works in step `s`.
    fn stream_at(&self, f: &Fold, s: u64, i: usize, j: usize) -> (i64, bool) {
        if i >= f.ur || j >= f.uc {
            return (0, false);
        }
        let t = self.sched.t as i64;
        let d = s as i64 - (i + j) as i64;
        (d.clamp(0, t), d >= 1 && d <= t)
    }

    /// During a visible load step `l` of `pos`: the operand PE `(i, j)`
    /// holds. A load pushes `L` rows down the used columns (`L` = the load's
    /// length; SCALE-Sim's padded load pushes empty rows first), so after `l`
    /// pushes row `i < l` holds push `l − i`, which carries the block's row
    /// `L − l + i`, and rows `l ≤ i < L` still hold the previous fold's
    /// operands, shifted down by `l`. With double buffering the load goes to
    /// shadow registers, and the PEs keep the previous fold's operands until
    /// the swap.
    fn held_during_load(&self, pos: &Pos, l: u64, i: usize, j: usize) -> Option<i32> {
        self.held_at(pos, l, i, j).and_then(|(f, r, c)| self.stationary(&f, r, c))
    }

    /// Where the operand of [`Systolic::held_during_load`] comes from: (fold,
    /// row, column of its block), without fetching it.
    fn held_at(&self, pos: &Pos, l: u64, i: usize, j: usize) -> Option<(Fold, usize, usize)> {
        let f = pos.fold;
        let prev = || (f.index > 0).then(|| self.sched.fold(f.index - 1));
        let inside = |f: Fold, r: usize, c: usize| (r < f.ur && c < f.uc).then_some((f, r, c));
        if self.sched.double_buffered() && f.index > 0 {
            return prev().and_then(|pf| inside(pf, i, j));
        }
        let (l, big_l) = (l as usize, pos.load as usize);
        if i >= big_l || j >= f.uc {
            return None;
        }
        if i < l {
            inside(f, big_l - l + i, j)
        } else {
            prev().and_then(|pf| inside(pf, i - l, j))
        }
    }

    /// The cheap part of [`Systolic::pe`] (no sums): `(busy, progress,
    /// holds_operand)`. O(1); the heat map calls it for every PE every frame.
    pub fn pe_brief(&self, c: u64, i: usize, j: usize) -> (bool, f32, bool) {
        self.pe_brief_in(self.pos(c).as_ref(), i, j)
    }

    /// [`Systolic::pe_brief`] with the cycle's position already found.
    pub fn pe_brief_in(&self, pos: Option<&Pos>, i: usize, j: usize) -> (bool, f32, bool) {
        let Some(pos) = pos else { return (false, 0.0, false) };
        let os = self.p.dataflow == Dataflow::Os;
        match (pos.load_step(), pos.compute_step()) {
            (Some(l), _) => (false, 0.0, self.held_at(pos, l, i, j).is_some()),
            (None, Some(s)) => {
                let (done, busy) = self.stream_at(&pos.fold, s, i, j);
                let held = !os && i < pos.fold.ur && j < pos.fold.uc;
                (busy, done as f32 / self.sched.t as f32, held)
            }
            (None, None) => (false, 0.0, false),
        }
    }

    /// The state of PE `(i, j)` during cycle `c`.
    pub fn pe(&self, c: u64, i: usize, j: usize) -> Pe {
        let idle = Pe { busy: false, a: None, b: None, acc: None, progress: 0.0 };
        let os = self.p.dataflow == Dataflow::Os;
        let Some(pos) = self.pos(c) else {
            return Pe { acc: (os && i < self.sched.fold(0).ur && j < self.sched.fold(0).uc).then_some(0), ..idle };
        };
        let f = pos.fold;
        if let Some(l) = pos.load_step() {
            return Pe { b: self.held_during_load(&pos, l, i, j), ..idle };
        }
        let s = pos.compute_step().unwrap_or(0);
        if i >= f.ur || j >= f.uc {
            return idle;
        }
        let (done, busy) = self.stream_at(&f, s, i, j);
        let t = (s as i64 - 1 - (i + j) as i64) as usize;
        let progress = done as f32 / self.sched.t as f32;
        if os {
            let acc =
                (0..done as usize).map(|kk| self.stream(&f, kk, i) as i64 * self.stream_top(&f, kk, j) as i64).sum();
            return Pe {
                busy,
                a: busy.then(|| self.stream(&f, t, i)),
                b: busy.then(|| self.stream_top(&f, t, j)),
                acc: Some(acc),
                progress,
            };
        }
        let psum = busy.then(|| {
            (0..=i).map(|r| self.stream(&f, t, r) as i64 * self.stationary(&f, r, j).unwrap_or(0) as i64).sum()
        });
        Pe { busy, a: busy.then(|| self.stream(&f, t, i)), b: self.stationary(&f, i, j), acc: psum, progress }
    }

    /// The fold and compute step the queues are drawn for at cycle `c`.
    fn queue_pos(&self, c: u64) -> (Fold, u64, Option<u64>) {
        match self.pos(c) {
            None => (self.sched.fold(0), 0, Some(0)),
            Some(pos) => (pos.fold, pos.compute_step().unwrap_or(0), pos.load_step()),
        }
    }

    /// The operand waiting in slot `s` (0 = next to enter) of row `i`'s queue on
    /// the left, at cycle `c`.
    pub fn left_queue(&self, c: u64, i: usize, s: usize) -> Option<i32> {
        let (f, step, _) = self.queue_pos(c);
        let t = step as i64 + s as i64 - i as i64;
        (i < f.ur && (0..self.sched.t as i64).contains(&t)).then(|| self.stream(&f, t as usize, i))
    }

    /// The operand waiting in slot `s` (0 = next to enter) above column `j`:
    /// OS, the stream of `B`; WS / IS, the rows of the next load.
    pub fn top_queue(&self, c: u64, j: usize, s: usize) -> Option<i32> {
        let (f, step, load) = self.queue_pos(c);
        if j >= f.uc {
            return None;
        }
        if self.p.dataflow == Dataflow::Os {
            let t = step as i64 + s as i64 - j as i64;
            return (0..self.sched.t as i64).contains(&t).then(|| self.stream_top(&f, t as usize, j));
        }
        let l = load? as usize;
        if self.sched.double_buffered() && f.index > 0 {
            return None;
        }
        let big_l = self.sched.load_len(&f) as usize;
        // Push number l + 1 + s carries the block's row L − (l + 1 + s).
        let row = big_l as i64 - (l + 1 + s) as i64;
        (row >= 0).then(|| self.stationary(&f, row as usize, j)).flatten()
    }

    /// WS / IS: the output accumulator for stream vector `t` and array column
    /// `j` of the fold at cycle `c`, after that cycle: the earlier row blocks'
    /// sums plus this fold's once its sum has left the bottom of the array
    /// (compute step `t + ur + j`). WS: `C[t][c0 + j]`; IS: `C[c0 + j][t]`.
    pub fn output(&self, c: u64, t: usize, j: usize) -> i64 {
        let f = self.fold_at(c);
        let col = f.c0 + j;
        let term = |kk: usize| -> i64 {
            match self.p.dataflow {
                Dataflow::Is => self.a(col, kk) as i64 * self.b(kk, t) as i64,
                _ => self.a(t, kk) as i64 * self.b(kk, col) as i64,
            }
        };
        let mut sum: i64 = (0..f.r0).map(term).sum();
        let s = self.pos(c).and_then(|p| p.compute_step()).unwrap_or(0);
        if (t + f.ur + j) as u64 <= s {
            sum += (f.r0..f.r0 + f.ur).map(term).sum::<i64>();
        }
        sum
    }

    /// Multiply-accumulates of the whole GEMM (in u64: up to 2³⁶, more than
    /// a wasm32 `usize` holds).
    pub fn macs(&self) -> u64 {
        self.p.m as u64 * self.p.k as u64 * self.p.n as u64
    }
    fn pes(&self) -> u64 {
        (self.p.rows * self.p.cols) as u64
    }

    /// Busy PE-cycles ÷ (PEs × total cycles) (SCALE-Sim's "overall utilization").
    pub fn utilization(&self) -> f64 {
        self.macs() as f64 / (self.pes() * self.total) as f64
    }

    /// Used PEs ÷ all PEs, averaged over the folds.
    pub fn mapping_efficiency(&self) -> f64 {
        self.sched.used_pe_sum() as f64 / (self.folds() as u64 * self.pes()) as f64
    }

    /// Compute utilisation. Warpscope: MACs ÷ (PEs × cycles the stream is in
    /// the array, loads left out). SCALE-Sim: the mean over folds of
    /// `mac_used · T / (rows · cols · cycles_this_fold)`, its
    /// `cycles_this_fold` being `T + R + C − 2` (OS) or `2R + 2C + T − 3`
    /// (WS, IS); `Σ mac_used = er · ec`, so the mean is one division.
    pub fn compute_utilization(&self) -> f64 {
        let (r, c, t) = (self.p.rows as u64, self.p.cols as u64, self.sched.t as u64);
        match self.p.conv {
            Conv::Warpscope => self.macs() as f64 / (self.pes() * self.sched.total_cycles_split().compute()) as f64,
            Conv::ScaleSim => {
                let per_fold = match self.p.dataflow {
                    Dataflow::Os => t + r + c - 2,
                    _ => 2 * r + 2 * c + t - 3,
                };
                (self.sched.used_pe_sum() * t) as f64 / (self.pes() * per_fold * self.folds() as u64) as f64
            }
        }
    }

    /// One fold's figures: (cycles, MACs, mapping efficiency, compute
    /// utilisation, utilisation over the whole fold).
    pub fn fold_figures(&self, f: &Fold) -> (Cycles, u64, f64, f64, f64) {
        let cy = self.sched.cycles(f);
        let macs = f.ur as u64 * f.uc as u64 * self.sched.t as u64;
        let pes = self.pes() as f64;
        (
            cy,
            macs,
            (f.ur * f.uc) as f64 / pes,
            macs as f64 / (pes * cy.compute() as f64),
            macs as f64 / (pes * cy.total() as f64),
        )
    }

    /// Elements of `A` and of `B` fetched from memory by the schedule: a
    /// stationary block is loaded once; the streamed operand is fetched again
    /// for every column block (OS: `A` once per column block of `C`, `B` once
    /// per row block).
    pub fn operand_reads(&self) -> (u64, u64) {
        let (m, k, n) = (self.p.m as u64, self.p.k as u64, self.p.n as u64);
        let (fi, fo) = (self.sched.fi as u64, self.sched.fo as u64);
        match self.p.dataflow {
            Dataflow::Os => (m * k * fo, k * n * fi),
            Dataflow::Ws => (m * k * fo, k * n),
            Dataflow::Is => (m * k, k * n * fo),
        }
    }

    /// Operand elements fetched from memory ÷ distinct operand elements: how
    /// many times each is read.
    pub fn reads_per_operand(&self) -> f64 {
        let (a, b) = self.operand_reads();
        (a + b) as f64 / (self.p.m * self.p.k + self.p.k * self.p.n) as f64
    }

    /// PEs that use each operand element, on average: every MAC uses one `A`
    /// and one `B` element.
    pub fn uses_per_operand(&self) -> f64 {
        (2 * self.macs()) as f64 / (self.p.m * self.p.k + self.p.k * self.p.n) as f64
    }

    /// The cycles a chart of the run samples: every cycle up to `max` of them,
    /// else `max + 1` evenly spaced ones. Returns `(cycles, spacing)`.
    pub fn samples(&self, max: u64) -> (Vec<u64>, f64) {
        if self.total <= max {
            return ((0..=self.total).collect(), 1.0);
        }
        let dx = self.total as f64 / max as f64;
        ((0..=max).map(|i| ((i as f64 * dx).round() as u64).min(self.total)).collect(), dx)
    }

    /// Runs of equal phase over the sampled cycles: `(first, last, phase)`.
    pub fn phase_segments(&self, max: u64) -> Vec<(u64, u64, Phase)> {
        let mut out: Vec<(u64, u64, Phase)> = Vec::new();
        for c in self.samples(max).0.into_iter().filter(|&c| c >= 1) {
            let ph = self.phase_at(c);
            match out.last_mut() {
                Some(last) if last.2 == ph => last.1 = c,
                _ => out.push((c, c, ph)),
            }
        }
        out
    }

    /// Busy PEs at the sampled cycles (for the timeline chart).
    pub fn busy_series(&self, max: u64) -> Vec<u64> {
        self.samples(max).0.into_iter().map(|c| self.busy_at(c)).collect()
    }
}

impl Steppable for Systolic {
    type State = Frame;

    fn steps(&self) -> u64 {
        self.total
    }

    fn state_at(&self, t: u64) -> Frame {
        let cycle = t.min(self.total);
        Frame { cycle, phase: self.phase_at(cycle), busy_pes: self.busy_at(cycle), pos: self.pos(cycle) }
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
pub mod schedule;

#[cfg(test)]
mod tests;
