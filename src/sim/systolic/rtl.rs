//! A register-transfer simulation, written independently of the closed forms:
//! registers shift one PE per tick and PEs multiply what they hold. Used by the
//! tests as the ground truth for [`Systolic::pe`], [`Systolic::busy_at`] and
//! [`Systolic::total_cycles`].

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
