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

    /// The array's final `C` (row-major), and its largest absolute difference
    /// from `A·B` computed directly (a plain i-k-j loop over rows of `B`).
    ///
    /// The array's output is read off the schedule: OS, each PE's accumulator
    /// after the last cycle (the dot product in the order its operands arrive,
    /// k = 0, 1, …); WS, the sums that left the bottom of the array, chunk by
    /// chunk. (The tests check these against the register-transfer run.)
    /// Operands are digits and k ≤ 4096, so every sum fits an i32 exactly.
    ///
    /// At 256 × 256 × 4096 this is 2 × 268 M multiply-adds: the UI runs it in
    /// slices with [`Systolic::check_step`] instead; this finishes whatever is
    /// left at once.
    pub fn check(&self) -> &(Vec<i64>, i64) {
        while !self.check_step(u64::MAX) {}
        self.check.get().expect("check finished")
    }

    /// The result of the check if it has finished.
    pub fn check_result(&self) -> Option<&(Vec<i64>, i64)> {
        self.check.get()
    }

    /// Multiply-adds of the whole check (the array's product and the direct one).
    pub fn check_macs(&self) -> u64 {
        2 * (self.p.rows * self.p.cols * self.p.k) as u64
    }

    /// Fraction of the check done, in 0..=1.
    pub fn check_progress(&self) -> f64 {
        if self.check.get().is_some() {
            return 1.0;
        }
        match &*self.checking.borrow() {
            // Generating B counts as a tenth of the work.
            Some(st) => 0.1 * st.b_rows as f64 / self.p.k as f64 + 0.9 * st.next_row as f64 / self.p.rows as f64,
            None => 0.0,
        }
    }

    /// Advance the check by whole output rows, about `macs` multiply-adds'
    /// worth (at least one row, 2 · cols · k of them); `true` once it has
    /// finished. The result does not depend on how the work was sliced.
    pub fn check_step(&self, macs: u64) -> bool {
        if self.check.get().is_some() {
            return true;
        }
        let (r, c, k) = (self.p.rows, self.p.cols, self.p.k);
        let mut slot = self.checking.borrow_mut();
        let st = slot.get_or_insert_with(|| Checking {
            b: vec![0; k * c],
            bt: vec![0; c * k],
            b_rows: 0,
            out: vec![0; r * c],
            direct: vec![0; r * c],
            next_row: 0,
        });
        let mut spent = 0u64;
        // First B, in blocks of about 64 K operands, row-major and transposed
        // (columns contiguous: what flows down column j (OS) or sits in column
        // j of the PEs (WS)).
        let block = (65_536 / c).max(1);
        while st.b_rows < k && (spent == 0 || spent < macs) {
            let end = (st.b_rows + block).min(k);
            for kk in st.b_rows..end {
                for j in 0..c {
                    let v = self.b(kk, j);
                    st.b[kk * c + j] = v;
                    st.bt[j * k + kk] = v;
                }
            }
            spent += ((end - st.b_rows) * c) as u64 * GEN_COST;
            st.b_rows = end;
        }
        // Then the output, row by row: the array's and the direct product's.
        let row_macs = 2 * (c * k) as u64;
        while st.b_rows == k && st.next_row < r && (spent == 0 || spent + row_macs <= macs) {
            let i = st.next_row;
            let a_row: Vec<i32> = (0..k).map(|kk| self.a(i, kk)).collect();
            let dot = |j: usize, k0: usize, k1: usize| -> i32 {
                let b = &st.bt[j * k + k0..j * k + k1];
                a_row[k0..k1].iter().zip(b).map(|(x, y)| x * y).sum()
            };
            let mut out_row = vec![0i64; c];
            match self.p.dataflow {
                Dataflow::Os => {
                    for (j, o) in out_row.iter_mut().enumerate() {
                        *o = dot(j, 0, k) as i64;
                    }
                }
                Dataflow::Ws => {
                    for q in 0..self.chunks() {
                        let (k0, k1) = (q * r, ((q + 1) * r).min(k));
                        for (j, o) in out_row.iter_mut().enumerate() {
                            *o += dot(j, k0, k1) as i64;
                        }
                    }
                }
            }
            st.out[i * c..(i + 1) * c].copy_from_slice(&out_row);
            let row = &mut st.direct[i * c..(i + 1) * c];
            for (kk, &aik) in a_row.iter().enumerate() {
                let brow = &st.b[kk * c..(kk + 1) * c];
                for (d, &bkj) in row.iter_mut().zip(brow) {
                    *d += aik * bkj;
                }
            }
            st.next_row += 1;
            spent += row_macs;
        }
        if st.next_row < r {
            return false;
        }
        let st = slot.take().expect("check state");
        let err = st.out.iter().zip(&st.direct).map(|(x, &y)| (x - y as i64).abs()).max().unwrap_or(0);
        let _ = self.check.set((st.out, err));
        true
    }

    /// The key figures at cycle `t`, with `max-abs-error` only once the check
    /// has finished (never a number that has not been computed).
    pub fn metrics_checked(&self, t: u64) -> Vec<Metric> {
        let f = self.state_at(t);
        let mut m = vec![
            Metric::count("cycle", f.cycle),
            Metric::count("total-cycles", self.total),
            Metric::percent("utilization", self.utilization()),
            Metric::count("busy-pes", f.busy_pes),
        ];
        if let Some((_, err)) = self.check_result() {
            m.push(Metric::count("max-abs-error", *err as u64));
        }
        m.push(Metric::real("reads-per-operand", self.reads_per_operand()));
        m.push(Metric::real("uses-per-operand", self.uses_per_operand()));
        m
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
pub mod rtl {
    use super::{Dataflow, Systolic};

    /// One PE's registers after a tick.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct Regs {
        pub a: Option<i32>,
        pub b: Option<i32>,
        /// OS: accumulator. WS: the partial sum held in the PE's output register
        /// (with the index of the `A` vector it belongs to).
        pub acc: i64,
        pub psum: Option<(usize, i64)>,
        pub busy: bool,
        /// Multiply-accumulates this PE has done (OS).
        pub macs: usize,
    }

    pub struct Rtl<'s> {
        s: &'s Systolic,
        pub cycle: u64,
        pub pes: Vec<Regs>,
        /// WS output accumulators (rows × cols).
        pub out: Vec<i64>,
        // WS schedule state.
        chunk: usize,
        load_step: usize,
        compute_step: usize,
        chunk_outputs: usize,
        done: bool,
    }

    impl<'s> Rtl<'s> {
        pub fn new(s: &'s Systolic) -> Self {
            let p = s.params();
            Rtl {
                s,
                cycle: 0,
                pes: vec![Regs::default(); p.rows * p.cols],
                out: vec![0; p.rows * p.cols],
                chunk: 0,
                load_step: 0,
                compute_step: 0,
                chunk_outputs: 0,
                done: false,
            }
        }

        pub fn finished(&self) -> bool {
            self.done
        }

        pub fn busy(&self) -> u64 {
            self.pes.iter().filter(|r| r.busy).count() as u64
        }

        /// Advance one clock cycle.
        pub fn tick(&mut self) {
            match self.s.params().dataflow {
                Dataflow::Os => self.tick_os(),
                Dataflow::Ws => self.tick_ws(),
            }
            self.cycle += 1;
        }

        fn tick_os(&mut self) {
            let p = *self.s.params();
            let old = self.pes.clone();
            let t = self.cycle as i64; // inputs injected during this tick
            for i in 0..p.rows {
                for j in 0..p.cols {
                    // Row i of A is delayed by i cycles at the left edge.
                    let a = if j == 0 {
                        let k = t - i as i64;
                        (0..p.k as i64).contains(&k).then(|| self.s.a(i, k as usize))
                    } else {
                        old[i * p.cols + j - 1].a
                    };
                    let b = if i == 0 {
                        let k = t - j as i64;
                        (0..p.k as i64).contains(&k).then(|| self.s.b(k as usize, j))
                    } else {
                        old[(i - 1) * p.cols + j].b
                    };
                    let pe = &mut self.pes[i * p.cols + j];
                    pe.a = a;
                    pe.b = b;
                    pe.busy = false;
                    if let (Some(x), Some(y)) = (a, b) {
                        pe.acc += x as i64 * y as i64;
                        pe.macs += 1;
                        pe.busy = true;
                    }
                }
            }
            // Finished once every PE has done its k multiply-accumulates.
            self.done = self.pes.iter().all(|pe| pe.macs == p.k);
        }

        fn tick_ws(&mut self) {
            let p = *self.s.params();
            let m_count = p.rows;
            let kc = (p.k - self.chunk * p.rows).min(p.rows);
            let base = self.chunk * p.rows;
            let old = self.pes.clone();
            for pe in &mut self.pes {
                pe.busy = false;
            }
            if self.load_step < kc {
                // Shift the weights down one row and push the next chunk row on top.
                self.load_step += 1;
                let pushed = kc - self.load_step;
                // Rows this chunk does not use (a short last chunk) hold nothing.
                for pe in &mut self.pes[kc * p.cols..] {
                    *pe = Regs::default();
                }
                for i in (0..kc).rev() {
                    for j in 0..p.cols {
                        let w = if i == 0 { Some(self.s.b(base + pushed, j)) } else { old[(i - 1) * p.cols + j].b };
                        let pe = &mut self.pes[i * p.cols + j];
                        pe.b = w;
                        pe.a = None;
                        pe.psum = None;
                    }
                }
                return;
            }
            self.compute_step += 1;
            let u = self.compute_step as i64;
            for i in 0..kc {
                for j in 0..p.cols {
                    let a = if j == 0 {
                        // Vector m enters row i at compute step m + i + 1.
                        let m = u - 1 - i as i64;
                        (0..m_count as i64).contains(&m).then(|| (m as usize, self.s.a(m as usize, base + i)))
                    } else {
                        old[i * p.cols + j - 1].a.map(|v| (usize::MAX, v))
                    };
                    let above = if i == 0 { None } else { old[(i - 1) * p.cols + j].psum };
                    let idx = i * p.cols + j;
                    let w = self.pes[idx].b.unwrap_or(0);
                    match a {
                        Some((_, x)) => {
                            // The vector index travels with the partial sum.
                            let m = (u - 1 - (i + j) as i64) as usize;
                            let incoming = above.map(|(mm, s)| {
                                debug_assert_eq!(mm, m);
                                s
                            });
                            let s = incoming.unwrap_or(0) + x as i64 * w as i64;
                            let pe = &mut self.pes[idx];
                            pe.a = Some(x);
                            pe.psum = Some((m, s));
                            pe.busy = true;
                            if i == kc - 1 {
                                self.out[m * p.cols + j] += s;
                                self.chunk_outputs += 1;
                            }
                        }
                        None => {
                            let pe = &mut self.pes[idx];
                            pe.a = None;
                            pe.psum = None;
                        }
                    }
                }
            }
            if self.chunk_outputs == m_count * p.cols {
                // Every partial sum of this chunk has left the bottom: next chunk.
                self.chunk += 1;
                self.load_step = 0;
                self.compute_step = 0;
                self.chunk_outputs = 0;
                if self.chunk * p.rows >= p.k {
                    self.done = true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::rtl::Rtl;
    use super::*;
    use proptest::prelude::*;

    fn sim(rows: usize, cols: usize, k: usize, dataflow: Dataflow, seed: u64) -> Systolic {
        Systolic::new(Params { rows, cols, k, dataflow, seed })
    }

    #[test]
    fn lecture_numbers() {
        // notes §9.2: 4×4, K = 6 → 12 cycles, 50 %; 8×8: K = 8 → 36 %, K = 512 → 97 %.
        let s = sim(4, 4, 6, Dataflow::Os, 1);
        assert_eq!(s.total_cycles(), 12);
        assert!((s.utilization() - 0.5).abs() < 1e-12);
        assert_eq!(s.check().1, 0);
        assert_eq!(format!("{:.0}", 100.0 * sim(8, 8, 8, Dataflow::Os, 1).utilization()), "36");
        assert_eq!(format!("{:.0}", 100.0 * sim(8, 8, 512, Dataflow::Os, 1).utilization()), "97");
        // "each value is read from memory once and used by 8 PEs in turn"
        let s8 = sim(8, 8, 8, Dataflow::Os, 1);
        assert_eq!(s8.reads_per_operand(), 1.0);
        assert_eq!(s8.uses_per_operand(), 8.0);
    }

    #[test]
    fn phases_of_the_lecture_example() {
        let s = sim(4, 4, 6, Dataflow::Os, 1);
        let phases: Vec<_> = (0..=12).map(|c| s.phase_at(c)).collect();
        use Phase::*;
        assert_eq!(phases, [Start, Fill, Fill, Fill, Fill, Fill, Fill, Drain, Drain, Drain, Drain, Drain, Drain]);
        // k = 6 < rows + cols - 1: PE (0,0) is done in the cycle PE (3,3) starts.
        assert_eq!(s.busy_at(7), 15);
        assert_eq!(s.phase_segments(), vec![(1, 6, Fill), (7, 12, Drain)]);
        let long = sim(4, 4, 8, Dataflow::Os, 1);
        assert_eq!(long.phase_at(7), Steady);
        assert_eq!(long.phase_at(8), Steady);
        assert_eq!(long.busy_at(8), 16);
        assert_eq!(long.phase_at(9), Drain);
        // k = 2 on a 4×4 array: never full.
        let short = sim(4, 4, 2, Dataflow::Os, 1);
        assert!((1..=short.total_cycles()).all(|c| short.phase_at(c) != Steady));
        assert!((1..=short.total_cycles()).any(|c| short.phase_at(c) == FillDrain));
    }

    #[test]
    fn operands_depend_only_on_seed() {
        let a = sim(5, 3, 7, Dataflow::Os, 42);
        let b = sim(5, 3, 7, Dataflow::Ws, 42);
        assert_eq!(a.ops, b.ops);
        assert_ne!(a.ops, sim(5, 3, 7, Dataflow::Os, 43).ops);
        let (oa, ob) = a.ops.as_ref().expect("small operands are stored");
        assert!(oa.iter().chain(ob).all(|&x| (0..=OPERAND_MAX).contains(&x)));
    }

    #[test]
    fn weight_stationary_small_example() {
        // 4×4, k = 6: chunks of 4 and 2 rows: (4 + 4+4+4-2) + (2 + 4+2+4-2) = 24 cycles.
        let s = sim(4, 4, 6, Dataflow::Ws, 1);
        assert_eq!(s.total_cycles(), 24);
        assert_eq!(s.check().1, 0);
        assert_eq!(s.phase_at(1), Phase::LoadWeights);
        assert_eq!(s.reads_per_operand(), 1.0);
    }

    #[test]
    fn large_shapes_are_cheap_to_scrub() {
        // The closed forms at 256×256, k = 4096: any cycle's frame without simulating.
        let s = sim(256, 256, 4096, Dataflow::Os, 3);
        assert_eq!(s.total_cycles(), 256 + 256 + 4096 - 2);
        let f = s.state_at(3000);
        assert_eq!(f.busy_pes, 256 * 256);
        assert_eq!(f.phase, Phase::Steady);
        let w = sim(256, 256, 4096, Dataflow::Ws, 3);
        assert_eq!(w.chunks(), 16);
        assert!(w.state_at(w.total_cycles() / 2).cycle > 0);
    }

    #[test]
    fn pair_counts_closed_form_matches_counting() {
        for r in 1..9 {
            for c in 1..9 {
                for s in -2..(r + c + 2) as i64 {
                    let counted = (0..r as i64).map(|i| (s - i + 1).clamp(0, c as i64) as u64).sum::<u64>();
                    assert_eq!(pairs_sum_at_most(r, c, s), counted, "r={r} c={c} s={s}");
                }
            }
        }
        assert_eq!(pairs_sum_at_most(256, 256, 10_000), 256 * 256);
    }

    #[test]
    fn the_check_can_be_sliced_and_says_when_it_is_pending() {
        for df in Dataflow::ALL {
            let whole = sim(37, 23, 300, df, 9);
            let sliced = sim(37, 23, 300, df, 9);
            assert!(sliced.check_result().is_none());
            assert_eq!(sliced.check_progress(), 0.0);
            let names = |m: Vec<Metric>| m.iter().map(|x| x.name).collect::<Vec<_>>();
            assert!(!names(sliced.metrics_checked(5)).contains(&"max-abs-error"), "no number before it is computed");
            let mut slices = 0;
            let mut progress = 0.0;
            // A budget smaller than a unit of work still does one: B, then one row a call.
            while !sliced.check_step(1) {
                slices += 1;
                assert!(sliced.check_progress() > progress && sliced.check_progress() < 1.0);
                progress = sliced.check_progress();
            }
            assert_eq!(slices, 1 + 36);
            assert_eq!(sliced.check_result(), Some(whole.check()));
            assert_eq!(whole.check().1, 0);
            assert_eq!(sliced.metrics_checked(5), whole.metrics(5));
            assert_eq!(names(whole.metrics(5))[4], "max-abs-error", "in its place");
            assert_eq!(sliced.check_progress(), 1.0);
            assert_eq!(whole.check_macs(), 2 * 37 * 23 * 300);
        }
    }

    #[test]
    fn operands_are_the_seeded_stream_stored_or_not() {
        let mut rng = SplitMix64::new(7);
        let stream: Vec<i32> = (0..50).map(|_| rng.range_i32(0, OPERAND_MAX)).collect();
        assert!((0..50).all(|n| operand(7, n as u64) == stream[n]));
        // 256 × 256 × 4096: 2 M operands, not stored, each computed when asked for.
        let big = sim(256, 256, 4096, Dataflow::Os, 7);
        assert!(big.ops.is_none());
        assert_eq!(big.a(0, 3), stream[3]);
        let mut rng = SplitMix64::new(7);
        let all: Vec<i32> = (0..256 * 4096 + 5).map(|_| rng.range_i32(0, OPERAND_MAX)).collect();
        assert_eq!(big.a(255, 4095), all[256 * 4096 - 1]);
        assert_eq!(big.b(0, 4), all[256 * 4096 + 4]);
        // Just over the limit: computed operands, and the check still agrees.
        let lazy = sim(40, 30, 4096, Dataflow::Ws, 3);
        assert!(lazy.ops.is_none());
        let (out, err) = lazy.check();
        assert_eq!(*err, 0);
        let direct: i64 = (0..4096).map(|k| lazy.a(39, k) as i64 * lazy.b(k, 29) as i64).sum();
        assert_eq!(out[39 * 30 + 29], direct);
    }

    #[test]
    fn a_slice_of_the_largest_check_is_small() {
        // 256 × 256 × 4096 (2 × 268 M multiply-adds): a budget of one output row
        // does about that much work, never the whole check.
        let s = sim(256, 256, 4096, Dataflow::Ws, 1);
        let row = 2 * 256 * 4096;
        let mut calls = 0;
        while s.check_result().is_none() && s.check_progress() < 0.1 {
            assert!(!s.check_step(row));
            calls += 1;
        }
        // Generating B (1 M operands) takes a few calls, then one row a call.
        assert!((2..=8).contains(&calls), "{calls}");
        let p = s.check_progress();
        assert!(!s.check_step(row));
        assert!((s.check_progress() - p - 0.9 / 256.0).abs() < 1e-9);
    }

    /// Compare every PE of the closed form with the register-transfer simulation
    /// at every cycle; return the final outputs of both.
    fn compare_with_rtl(s: &Systolic) {
        let p = *s.params();
        let mut r = Rtl::new(s);
        for c in 1..=s.total_cycles() {
            assert!(!r.finished(), "rtl finished early at {c}");
            r.tick();
            assert_eq!(r.busy(), s.busy_at(c), "busy at cycle {c}");
            for i in 0..p.rows {
                for j in 0..p.cols {
                    let reg = r.pes[i * p.cols + j];
                    let pe = s.pe(c, i, j);
                    let (busy, progress, weight) = s.pe_brief(c, i, j);
                    assert_eq!(
                        (busy, progress, weight),
                        (pe.busy, pe.progress, pe.b.is_some() && p.dataflow == Dataflow::Ws)
                    );
                    assert_eq!(reg.busy, pe.busy, "busy ({i},{j}) at {c}");
                    match p.dataflow {
                        Dataflow::Os => {
                            assert_eq!(reg.a, pe.a, "a ({i},{j}) at {c}");
                            assert_eq!(reg.b, pe.b, "b ({i},{j}) at {c}");
                            assert_eq!(Some(reg.acc), pe.acc, "acc ({i},{j}) at {c}");
                        }
                        Dataflow::Ws => {
                            assert_eq!(reg.b, pe.b, "weight ({i},{j}) at {c}");
                            if pe.busy {
                                assert_eq!(reg.a, pe.a, "a ({i},{j}) at {c}");
                                assert_eq!(reg.psum.map(|x| x.1), pe.acc, "psum ({i},{j}) at {c}");
                            }
                        }
                    }
                    if p.dataflow == Dataflow::Ws {
                        assert_eq!(r.out[i * p.cols + j], s.ws_output(c, i, j), "out ({i},{j}) at {c}");
                    }
                }
            }
        }
        assert!(r.finished(), "rtl not finished after total cycles");
        let expect = &s.check().0;
        match p.dataflow {
            Dataflow::Os => {
                let accs: Vec<i64> = r.pes.iter().map(|x| x.acc).collect();
                assert_eq!(&accs, expect);
            }
            Dataflow::Ws => assert_eq!(&r.out, expect),
        }
    }

    fn dataflow() -> impl Strategy<Value = Dataflow> {
        prop_oneof![Just(Dataflow::Os), Just(Dataflow::Ws)]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn closed_form_matches_register_transfer(rows in 1usize..7, cols in 1usize..7, k in 1usize..15,
                                                 df in dataflow(), seed in any::<u64>()) {
            let s = sim(rows, cols, k, df, seed);
            compare_with_rtl(&s);
        }

        #[test]
        fn result_equals_direct_product(rows in 1usize..24, cols in 1usize..24, k in 1usize..40,
                                        df in dataflow(), seed in any::<u64>()) {
            let s = sim(rows, cols, k, df, seed);
            prop_assert_eq!(s.check().1, 0);
            // The output is what the per-cycle view shows after the last cycle.
            let t = s.total_cycles();
            for i in 0..rows { for j in 0..cols {
                let shown = match df {
                    Dataflow::Os => s.pe(t, i, j).acc.unwrap(),
                    Dataflow::Ws => s.ws_output(t, i, j),
                };
                prop_assert_eq!(shown, s.check().0[i * cols + j]);
            }}
        }

        #[test]
        fn cycles_and_utilization_closed_forms(rows in 1usize..=256, cols in 1usize..=256, k in 1usize..=4096) {
            let os = sim(rows, cols, k, Dataflow::Os, 0);
            prop_assert_eq!(os.total_cycles(), (rows + cols + k - 2) as u64);
            let u = os.utilization();
            prop_assert!((u - k as f64 / (rows + cols + k - 2) as f64).abs() < 1e-12);
            prop_assert!(u > 0.0 && u <= 1.0);
            let ws = sim(rows, cols, k, Dataflow::Ws, 0);
            let chunks = k.div_ceil(rows);
            prop_assert_eq!(ws.total_cycles(), (2 * k + chunks * (rows + cols - 2)) as u64);
            prop_assert!(ws.utilization() > 0.0 && ws.utilization() <= 1.0);
            // Busy PE-cycles summed over the timeline = PEs × k (every MAC happens once).
            let series: u64 = os.busy_series().iter().sum();
            prop_assert_eq!(series, (rows * cols * k) as u64);
            let series_ws: u64 = ws.busy_series().iter().sum();
            prop_assert_eq!(series_ws, (rows * cols * k) as u64);
        }

        #[test]
        fn back_then_forward_is_the_same_state(rows in 1usize..9, cols in 1usize..9, k in 1usize..12,
                                               df in dataflow(), t in 0u64..40, back in 0u64..40) {
            let s = sim(rows, cols, k, df, 5);
            let t = t.min(s.steps());
            let back = back.min(t);
            let mut cursor = crate::sim::Cursor::new(s.steps());
            cursor.jump(t);
            for _ in 0..back { cursor.back(); }
            for _ in 0..back { cursor.step(); }
            prop_assert_eq!(cursor.pos(), t);
            prop_assert_eq!(s.state_at(cursor.pos()), s.state_at(t));
            for i in 0..rows { for j in 0..cols {
                prop_assert_eq!(s.pe(cursor.pos(), i, j), s.pe(t, i, j));
            }}
            prop_assert_eq!(s.metrics(cursor.pos()), s.metrics(t));
        }
    }
}
