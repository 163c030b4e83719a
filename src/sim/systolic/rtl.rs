//! A register-transfer simulation, written independently of the closed forms:
//! registers shift one PE per tick, PEs multiply what they hold, and a fold
//! ends when its last token has left the array's far corner. Used by the tests
//! as the ground truth for [`Systolic::pe`], [`Systolic::busy_at`],
//! [`Systolic::output`] and [`Systolic::total_cycles`], folds and double
//! buffering included.
//!
//! Every stream token carries its index; a padded fold (SCALE-Sim's
//! convention) sends empty tokens through the rows and columns it does not use.

use super::{Conv, Dataflow, Systolic};

/// A token in flight: its index in the stream and its value (`None`: padding).
type Token = Option<(usize, Option<i32>)>;

/// One PE's registers after a tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Regs {
    /// The token moving right (OS: `A`; WS: `A`; IS: `B`).
    pub a: Token,
    /// OS: the `B` token moving down. WS / IS: unused (see `w`).
    pub b: Token,
    /// WS / IS: the stationary operand.
    pub w: Option<i32>,
    /// OS: the accumulator of this fold.
    pub acc: i64,
    /// WS / IS: the partial sum passed down, with its stream index.
    pub psum: Option<(usize, i64)>,
    pub busy: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Pushing rows into the PEs (or, double-buffered, waiting for the shadow).
    Load,
    Compute,
}

pub struct Rtl<'s> {
    s: &'s Systolic,
    pub cycle: u64,
    pub pes: Vec<Regs>,
    /// Double buffering: the next fold's operands, loading behind the compute.
    shadow: Vec<Option<i32>>,
    shadow_pushes: usize,
    /// The shadow registers become the PEs' operands at the next compute tick.
    swap_pending: bool,
    /// `C` as the array wrote it (m × n).
    pub out: Vec<i64>,
    fold: usize,
    stage: Stage,
    /// Ticks spent in the current stage.
    ticks: usize,
    /// Tokens that have left the far corner in this fold.
    corner: usize,
    done: bool,
}

/// A fold's block: (first row index, first column index, used rows, used columns).
fn block(s: &Systolic, fold: usize) -> (usize, usize, usize, usize) {
    let p = s.params();
    let (er, ec) = match p.dataflow {
        Dataflow::Os => (p.m, p.n),
        Dataflow::Ws => (p.k, p.n),
        Dataflow::Is => (p.k, p.m),
    };
    let fi = er.div_ceil(p.rows);
    let (qo, qi) = (fold / fi, fold % fi);
    let (r0, c0) = (qi * p.rows, qo * p.cols);
    (r0, c0, (er - r0).min(p.rows), (ec - c0).min(p.cols))
}

impl<'s> Rtl<'s> {
    pub fn new(s: &'s Systolic) -> Self {
        let p = s.params();
        let mut r = Rtl {
            s,
            cycle: 0,
            pes: vec![Regs::default(); p.rows * p.cols],
            shadow: vec![None; p.rows * p.cols],
            shadow_pushes: 0,
            swap_pending: false,
            out: vec![0; p.m * p.n],
            fold: 0,
            stage: Stage::Load,
            ticks: 0,
            corner: 0,
            done: false,
        };
        if p.dataflow == Dataflow::Os {
            r.stage = Stage::Compute;
        }
        r
    }

    pub fn finished(&self) -> bool {
        self.done
    }

    pub fn busy(&self) -> u64 {
        self.pes.iter().filter(|r| r.busy).count() as u64
    }

    fn folds(&self) -> usize {
        let p = self.s.params();
        let (er, ec) = match p.dataflow {
            Dataflow::Os => (p.m, p.n),
            Dataflow::Ws => (p.k, p.n),
            Dataflow::Is => (p.k, p.m),
        };
        er.div_ceil(p.rows) * ec.div_ceil(p.cols)
    }

    fn padded(&self) -> bool {
        self.s.params().conv == Conv::ScaleSim
    }

    fn dbuf(&self) -> bool {
        let p = self.s.params();
        p.dbuf && p.dataflow != Dataflow::Os && !self.padded()
    }

    /// Stream length.
    fn t(&self) -> usize {
        let p = self.s.params();
        match p.dataflow {
            Dataflow::Os => p.k,
            Dataflow::Ws => p.m,
            Dataflow::Is => p.n,
        }
    }

    /// The stationary operand of `fold` at block position (row, col).
    fn weight(&self, fold: usize, row: usize, col: usize) -> i32 {
        let (r0, c0, _, _) = block(self.s, fold);
        match self.s.params().dataflow {
            Dataflow::Is => self.s.a(c0 + col, r0 + row),
            _ => self.s.b(r0 + row, c0 + col),
        }
    }

    /// Rows pushed by a load of `fold`, and how many of them are padding.
    fn load_rows(&self, fold: usize) -> (usize, usize) {
        let ur = block(self.s, fold).2;
        if self.padded() {
            (self.s.params().rows, self.s.params().rows - ur)
        } else {
            (ur, 0)
        }
    }

    /// Push one row of `fold` into `regs` (after `pushed` earlier pushes):
    /// rows shift down inside the block's columns; the rest is cleared.
    fn push(&self, regs: &mut [Option<i32>], fold: usize, pushed: usize) {
        let p = self.s.params();
        let uc = block(self.s, fold).3;
        let (len, pad) = self.load_rows(fold);
        // Bottom-most block row first: push number q (1-based) carries row len − q.
        let row = len - (pushed + 1);
        let old = regs.to_vec();
        for i in 0..p.rows {
            for j in 0..p.cols {
                regs[i * p.cols + j] = if i >= len || j >= uc {
                    None
                } else if i == 0 {
                    (row < len - pad).then(|| self.weight(fold, row, j))
                } else {
                    old[(i - 1) * p.cols + j]
                };
            }
        }
    }

    /// Advance one clock cycle.
    pub fn tick(&mut self) {
        for pe in &mut self.pes {
            pe.busy = false;
        }
        let p = *self.s.params();
        if self.stage == Stage::Load {
            self.ticks += 1;
            let (len, _) = self.load_rows(self.fold);
            if self.dbuf() && self.fold > 0 {
                // Waiting for the shadow registers to fill.
                self.shadow_step();
            } else {
                let mut w: Vec<Option<i32>> = self.pes.iter().map(|r| r.w).collect();
                self.push(&mut w, self.fold, self.ticks - 1);
                for (r, v) in self.pes.iter_mut().zip(w) {
                    *r = Regs { w: v, ..Regs::default() };
                }
            }
            let ready = if self.dbuf() && self.fold > 0 { self.shadow_pushes == len } else { self.ticks == len };
            if ready {
                self.swap_pending = self.dbuf() && self.fold > 0;
                self.stage = Stage::Compute;
                self.ticks = 0;
            }
            self.cycle += 1;
            return;
        }
        // Compute.
        if self.swap_pending {
            self.swap();
            self.swap_pending = false;
        }
        if self.dbuf() && self.fold + 1 < self.folds() {
            self.shadow_step();
        }
        self.ticks += 1;
        match p.dataflow {
            Dataflow::Os => self.tick_os(),
            _ => self.tick_stationary(),
        }
        self.cycle += 1;
        if self.corner == self.t() {
            self.end_fold();
        }
    }

    fn shadow_step(&mut self) {
        let next = if self.stage == Stage::Load { self.fold } else { self.fold + 1 };
        let (len, _) = self.load_rows(next);
        if self.shadow_pushes < len {
            let mut sh = std::mem::take(&mut self.shadow);
            self.push(&mut sh, next, self.shadow_pushes);
            self.shadow = sh;
            self.shadow_pushes += 1;
        }
    }

    fn swap(&mut self) {
        for (r, v) in self.pes.iter_mut().zip(&self.shadow) {
            *r = Regs { w: *v, ..Regs::default() };
        }
        self.shadow_pushes = 0;
    }

    fn end_fold(&mut self) {
        let p = *self.s.params();
        let (r0, c0, ur, uc) = block(self.s, self.fold);
        if p.dataflow == Dataflow::Os {
            for i in 0..ur {
                for j in 0..uc {
                    self.out[(r0 + i) * p.n + c0 + j] = self.pes[i * p.cols + j].acc;
                }
            }
        }
        self.fold += 1;
        self.corner = 0;
        self.ticks = 0;
        if self.fold == self.folds() {
            self.done = true;
            return;
        }
        match p.dataflow {
            Dataflow::Os => {}
            _ if self.dbuf() && self.shadow_pushes == self.load_rows(self.fold).0 => {
                // The next fold's operands are already in the shadow: swap, no stall.
                self.swap_pending = true;
            }
            _ => self.stage = Stage::Load,
        }
    }

    /// The phase region: used PEs, or the whole array when padded.
    fn region(&self, ur: usize, uc: usize) -> (usize, usize) {
        let p = self.s.params();
        if self.padded() {
            (p.rows, p.cols)
        } else {
            (ur, uc)
        }
    }

    fn tick_os(&mut self) {
        let p = *self.s.params();
        let (r0, c0, ur, uc) = block(self.s, self.fold);
        let (pr, pc) = self.region(ur, uc);
        let (t_len, u) = (self.t() as i64, self.ticks as i64);
        if self.ticks == 1 {
            for pe in &mut self.pes {
                *pe = Regs::default();
            }
        }
        let old = self.pes.clone();
        for i in 0..pr {
            for j in 0..pc {
                // Row i of the block enters i ticks late, column j, j ticks late.
                let a = if j == 0 {
                    let t = u - 1 - i as i64;
                    (0..t_len).contains(&t).then(|| (t as usize, (i < ur).then(|| self.s.a(r0 + i, t as usize))))
                } else {
                    old[i * p.cols + j - 1].a
                };
                let b = if i == 0 {
                    let t = u - 1 - j as i64;
                    (0..t_len).contains(&t).then(|| (t as usize, (j < uc).then(|| self.s.b(t as usize, c0 + j))))
                } else {
                    old[(i - 1) * p.cols + j].b
                };
                let pe = &mut self.pes[i * p.cols + j];
                pe.a = a;
                pe.b = b;
                if let (Some((ta, Some(x))), Some((tb, Some(y)))) = (a, b) {
                    assert_eq!(ta, tb, "operands meet in step");
                    pe.acc += x as i64 * y as i64;
                    pe.busy = true;
                }
                if i == pr - 1 && j == pc - 1 && a.is_some() {
                    self.corner += 1;
                }
            }
        }
    }

    fn tick_stationary(&mut self) {
        let p = *self.s.params();
        let (r0, c0, ur, uc) = block(self.s, self.fold);
        let (pr, pc) = self.region(ur, uc);
        let u = self.ticks as i64;
        if self.ticks == 1 {
            // Tokens of the previous fold have all left; clear what they left behind.
            for pe in &mut self.pes {
                *pe = Regs { w: pe.w, ..Regs::default() };
            }
        }
        let old = self.pes.clone();
        for i in 0..pr {
            for j in 0..pc {
                let a: Token = if j == 0 {
                    // Vector t enters row i at step t + i + 1.
                    let t = u - 1 - i as i64;
                    (0..self.t() as i64).contains(&t).then(|| {
                        let t = t as usize;
                        let v = (i < ur).then(|| match p.dataflow {
                            Dataflow::Is => self.s.b(r0 + i, t),
                            _ => self.s.a(t, r0 + i),
                        });
                        (t, v)
                    })
                } else {
                    old[i * p.cols + j - 1].a
                };
                let above = if i == 0 { None } else { old[(i - 1) * p.cols + j].psum };
                let idx = i * p.cols + j;
                let w = self.pes[idx].w;
                let pe = &mut self.pes[idx];
                pe.a = a;
                pe.psum = None;
                if let Some((t, x)) = a {
                    let incoming = match above {
                        Some((ta, v)) => {
                            assert_eq!(ta, t, "partial sum and input belong together");
                            v
                        }
                        None => 0,
                    };
                    let sum = match (x, w) {
                        (Some(x), Some(w)) => {
                            pe.busy = true;
                            incoming + x as i64 * w as i64
                        }
                        _ => incoming,
                    };
                    pe.psum = Some((t, sum));
                    if i == pr - 1 {
                        if j < uc {
                            let o = match p.dataflow {
                                Dataflow::Is => (c0 + j) * p.n + t,
                                _ => t * p.n + c0 + j,
                            };
                            self.out[o] += sum;
                        }
                        if j == pc - 1 {
                            self.corner += 1;
                        }
                    }
                }
            }
        }
    }
}
