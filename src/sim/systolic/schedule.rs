//! Folds and their timing: which block of the GEMM each fold maps onto the
//! array, how many cycles it takes under each convention, and where any
//! cycle falls — all closed forms, so a jump costs a handful of divisions.
//!
//! Folds are visited column block by column block (outer), and within one,
//! row block by row block (inner), in SCALE-Sim's order (`for fc …: for fr …`
//! in `scalesim/compute/systolic_compute_{os,ws,is}.py`). A fold's length
//! depends only on whether its row block and its column block are the first,
//! a middle or the last one (a double-buffered load also looks at the fold
//! before, which is a middle or last one of the same kind), so the prefix sums
//! take three distinct row lengths and, within a row, three fold lengths.

use super::{Conv, Dataflow, Params};

/// One fold: the block of the GEMM it maps onto the array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fold {
    /// Position in the schedule, 0-based.
    pub index: usize,
    /// Column block (outer loop) and row block (inner loop).
    pub qo: usize,
    pub qi: usize,
    /// First index of the block along the array's rows (OS: `m`; WS, IS: `k`)
    /// and along its columns (OS, WS: `n`; IS: `m`).
    pub r0: usize,
    pub c0: usize,
    /// Rows and columns of PEs the fold uses.
    pub ur: usize,
    pub uc: usize,
}

/// Where a cycle `c ≥ 1` falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub fold: Fold,
    /// Cycles before this fold starts.
    pub start: u64,
    /// Visible weight-load cycles at the start of this fold (0 for OS).
    pub load: u64,
    /// Step within the fold, 1-based.
    pub step: u64,
}

impl Pos {
    /// `Some(l)`: visible load step `l` (1-based).
    pub fn load_step(&self) -> Option<u64> {
        (self.step <= self.load).then_some(self.step)
    }
    /// `Some(s)`: compute step `s` (1-based): the first operand enters in step 1.
    pub fn compute_step(&self) -> Option<u64> {
        (self.step > self.load).then(|| self.step - self.load)
    }
}

/// Fill, steady and drain cycles of one fold's compute (plus the visible load).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cycles {
    pub load: u64,
    pub fill: u64,
    pub steady: u64,
    pub drain: u64,
    /// Cycles that are fill and drain at once (a short stream).
    pub fill_drain: u64,
}

impl Cycles {
    /// Fill + steady + drain (+ both at once): the cycles the stream is in the array.
    pub fn compute(&self) -> u64 {
        self.fill + self.steady + self.drain + self.fill_drain
    }
    pub fn total(&self) -> u64 {
        self.load + self.compute()
    }
    fn add(self, o: Cycles, w: u64) -> Cycles {
        Cycles {
            load: self.load + w * o.load,
            fill: self.fill + w * o.fill,
            steady: self.steady + w * o.steady,
            drain: self.drain + w * o.drain,
            fill_drain: self.fill_drain + w * o.fill_drain,
        }
    }
}

/// The GEMM's extents as the array sees them: (along the rows, along the
/// columns, streamed through).
pub fn extents(p: &Params) -> (usize, usize, usize) {
    match p.dataflow {
        Dataflow::Os => (p.m, p.n, p.k),
        Dataflow::Ws => (p.k, p.n, p.m),
        Dataflow::Is => (p.k, p.m, p.n),
    }
}

/// The fold grid and its timing (cheap to make: a few integers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub p: Params,
    /// Extent along the array's rows and columns, and the stream length `T`.
    pub er: usize,
    pub ec: usize,
    pub t: usize,
    /// Row blocks (inner) and column blocks (outer).
    pub fi: usize,
    pub fo: usize,
}

impl Schedule {
    pub fn new(p: Params) -> Self {
        let (er, ec, t) = extents(&p);
        Schedule { p, er, ec, t, fi: er.div_ceil(p.rows), fo: ec.div_ceil(p.cols) }
    }

    pub fn folds(&self) -> usize {
        self.fi * self.fo
    }

    fn ur(&self, qi: usize) -> usize {
        (self.er - qi * self.p.rows).min(self.p.rows)
    }
    fn uc(&self, qo: usize) -> usize {
        (self.ec - qo * self.p.cols).min(self.p.cols)
    }

    pub fn fold(&self, index: usize) -> Fold {
        let (qo, qi) = (index / self.fi, index % self.fi);
        self.fold_at(qo, qi)
    }

    fn fold_at(&self, qo: usize, qi: usize) -> Fold {
        Fold {
            index: qo * self.fi + qi,
            qo,
            qi,
            r0: qi * self.p.rows,
            c0: qo * self.p.cols,
            ur: self.ur(qi),
            uc: self.uc(qo),
        }
    }

    /// The rows and columns the fill and drain are counted over: the used PEs
    /// (Warpscope) or the whole array (SCALE-Sim pads a partial fold).
    pub fn phase_dims(&self, f: &Fold) -> (usize, usize) {
        match self.p.conv {
            Conv::Warpscope => (f.ur, f.uc),
            Conv::ScaleSim => (self.p.rows, self.p.cols),
        }
    }

    /// Compute cycles of a fold: `T + rows + cols − 2` over its phase dims.
    pub fn compute_len(&self, f: &Fold) -> u64 {
        let (r, c) = self.phase_dims(f);
        (self.t + r + c - 2) as u64
    }

    /// Weight-load cycles of a fold if it has its own load phase.
    fn full_load(&self, f: &Fold) -> u64 {
        match (self.p.dataflow, self.p.conv) {
            (Dataflow::Os, _) => 0,
            (_, Conv::ScaleSim) => self.p.rows as u64,
            (_, Conv::Warpscope) => f.ur as u64,
        }
    }

    /// Whether loads hide behind the previous fold's compute.
    pub fn double_buffered(&self) -> bool {
        self.p.dbuf && self.p.dataflow != Dataflow::Os && self.p.conv == Conv::Warpscope
    }

    /// Visible load cycles of a fold: all of them, or with double buffering
    /// what is left after the previous fold's compute.
    pub fn load_len(&self, f: &Fold) -> u64 {
        let full = self.full_load(f);
        if !self.double_buffered() || f.index == 0 {
            return full;
        }
        let prev = self.fold(f.index - 1);
        full.saturating_sub(self.compute_len(&prev))
    }

    fn len(&self, qo: usize, qi: usize) -> u64 {
        let f = self.fold_at(qo, qi);
        self.load_len(&f) + self.compute_len(&f)
    }

    /// Cycles of every fold of column block `qo` together.
    fn row_len(&self, qo: usize) -> u64 {
        match self.fi {
            1 => self.len(qo, 0),
            2 => self.len(qo, 0) + self.len(qo, 1),
            n => self.len(qo, 0) + (n as u64 - 2) * self.len(qo, 1) + self.len(qo, n - 1),
        }
    }

    fn row_start(&self, qo: usize) -> u64 {
        match qo {
            0 => 0,
            _ => self.row_len(0) + (qo as u64 - 1) * self.row_len(1),
        }
    }

    fn in_row_start(&self, qo: usize, qi: usize) -> u64 {
        match qi {
            0 => 0,
            _ => self.len(qo, 0) + (qi as u64 - 1) * self.len(qo, 1),
        }
    }

    /// Cycles before fold `index` starts.
    pub fn start(&self, index: usize) -> u64 {
        let (qo, qi) = (index / self.fi, index % self.fi);
        self.row_start(qo) + self.in_row_start(qo, qi)
    }

    pub fn total(&self) -> u64 {
        self.row_start(self.fo - 1) + self.row_len(self.fo - 1)
    }

    /// Where cycle `c` (clamped to `1..=total`) falls.
    pub fn pos(&self, c: u64) -> Pos {
        let t = c.clamp(1, self.total()) - 1;
        // Which column block: the first, then equal middle ones, then the last.
        let r0 = self.row_len(0);
        let qo = if self.fo == 1 || t < r0 { 0 } else { (1 + ((t - r0) / self.row_len(1)) as usize).min(self.fo - 1) };
        let t = t - self.row_start(qo);
        let l0 = self.len(qo, 0);
        let qi = if self.fi == 1 || t < l0 { 0 } else { (1 + ((t - l0) / self.len(qo, 1)) as usize).min(self.fi - 1) };
        let fold = self.fold_at(qo, qi);
        let start = self.start(fold.index);
        Pos { fold, start, load: self.load_len(&fold), step: c.clamp(1, self.total()) - start }
    }

    /// Fill / steady / drain of a fold's compute with these phase dims and
    /// stream: PE `(i, j)` works in steps `i + j + 1 ..= i + j + T`; the array is
    /// filling while the last used PE has not started (steps before
    /// `ur + uc − 1`) and draining once the first has finished (after `T`).
    pub fn cycles(&self, f: &Fold) -> Cycles {
        let (r, c) = self.phase_dims(f);
        let fill_steps = (r + c - 2) as u64;
        let len = self.compute_len(f);
        let t = self.t as u64;
        let both = fill_steps.saturating_sub(t);
        Cycles {
            load: self.load_len(f),
            fill: fill_steps - both,
            steady: t + both - fill_steps,
            drain: len - t - both,
            fill_drain: both,
        }
    }

    /// The sum of [`Schedule::cycles`] over every fold, from the four kinds of
    /// fold (full or last along each side), the loads from the total.
    pub fn total_cycles_split(&self) -> Cycles {
        let reps = |n: usize| -> Vec<(usize, u64)> {
            if n == 1 {
                vec![(0, 1)]
            } else {
                vec![(0, n as u64 - 1), (n - 1, 1)]
            }
        };
        let mut sum = Cycles::default();
        for &(qo, wo) in &reps(self.fo) {
            for &(qi, wi) in &reps(self.fi) {
                let f = self.fold_at(qo, qi);
                sum = sum.add(Cycles { load: 0, ..self.cycles(&f) }, wo * wi);
            }
        }
        sum.load = self.total() - sum.compute();
        sum
    }

    /// Used PEs summed over the folds: `er · ec` (every block counted once).
    pub fn used_pe_sum(&self) -> u64 {
        (self.er * self.ec) as u64
    }
}
