//! One task of the plan (a kernel at a size), its buffers and its pieces,
//! and the check of its output.

use super::kernels::{axpb, copy_f32, copy_u16, matmul_rows, pattern, transpose_rows, CHUNK, MM_ROWS};

/// What one task measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// `dst = src`, `n` floats each (working set 8n bytes).
    Copy,
    /// `y = x*2`.
    Scale,
    /// `t = x*2`, then `y = t+1`: two passes over memory.
    Unfused,
    /// `y = x*2+1` in one pass.
    Fused,
    /// An `n × n` matrix copied row by row.
    Straight,
    /// The same matrix transposed (strided writes).
    Transposed,
    /// `n` floats copied (the f32 side of the 16-bit comparison).
    CopyF32,
    /// `n` u16 copied.
    CopyU16,
    /// `c = a · b`, `n × n`.
    Matmul,
}

/// One measurement: a kernel at a size (`n`: elements, or the side of a
/// square matrix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    pub kernel: Kernel,
    pub n: usize,
}

impl Task {
    /// Pieces in one repetition.
    pub fn pieces(&self) -> u64 {
        let chunks = |n: usize| n.div_ceil(CHUNK).max(1) as u64;
        match self.kernel {
            Kernel::Copy | Kernel::Scale | Kernel::Fused | Kernel::CopyF32 | Kernel::CopyU16 => chunks(self.n),
            Kernel::Unfused => 2 * chunks(self.n),
            Kernel::Straight | Kernel::Transposed => self.n.div_ceil(self.rows_per_piece()) as u64,
            Kernel::Matmul => self.n.div_ceil(MM_ROWS) as u64,
        }
    }
    fn rows_per_piece(&self) -> usize {
        // A quarter chunk of elements per piece: the transpose is slow.
        (CHUNK / 4 / self.n.max(1)).max(1)
    }
    /// Bytes one repetition moves to and from memory (reads + writes).
    pub fn bytes(&self) -> f64 {
        let n = self.n as f64;
        match self.kernel {
            Kernel::Copy | Kernel::Scale | Kernel::Fused | Kernel::CopyF32 => 8.0 * n,
            Kernel::Unfused => 16.0 * n,
            Kernel::CopyU16 => 4.0 * n,
            Kernel::Straight | Kernel::Transposed => 8.0 * n * n,
            // The lecture's count: read a and b, write c, once.
            Kernel::Matmul => 12.0 * n * n,
        }
    }
    /// Floating-point operations in one repetition.
    pub fn flops(&self) -> f64 {
        let n = self.n as f64;
        match self.kernel {
            Kernel::Scale => n,
            Kernel::Unfused | Kernel::Fused => 2.0 * n,
            Kernel::Matmul => 2.0 * n * n * n,
            _ => 0.0,
        }
    }
}

/// The buffers of one task and its pieces.
pub struct Work {
    pub task: Task,
    x: Vec<f32>,
    t: Vec<f32>,
    y: Vec<f32>,
    hx: Vec<u16>,
    hy: Vec<u16>,
    /// Pieces run so far (the first repetition also fills the input).
    done: u64,
}

impl Work {
    /// Zeroed buffers (fresh pages, cheap); the first repetition fills them.
    pub fn new(task: Task) -> Self {
        let n = task.n;
        let (mut x, mut t, mut y, mut hx, mut hy) = (vec![], vec![], vec![], vec![], vec![]);
        match task.kernel {
            Kernel::Copy | Kernel::Scale | Kernel::Fused | Kernel::CopyF32 => {
                x = vec![0.0; n];
                y = vec![0.0; n];
            }
            Kernel::Unfused => {
                x = vec![0.0; n];
                t = vec![0.0; n];
                y = vec![0.0; n];
            }
            Kernel::CopyU16 => {
                hx = vec![0; n];
                hy = vec![0; n];
            }
            Kernel::Straight | Kernel::Transposed => {
                x = vec![0.0; n * n];
                y = vec![0.0; n * n];
            }
            Kernel::Matmul => {
                // Small (≤ 1 MiB each at 512²): filled at once.
                x = (0..n * n).map(|i| pattern(i) / 256.0).collect();
                t = (0..n * n).map(|i| pattern(i * 7 + 3) / 256.0).collect();
                y = vec![0.0; n * n];
            }
        }
        Work { task, x, t, y, hx, hy, done: 0 }
    }

    /// Run `k` pieces, continuing where the last call stopped.
    pub fn run(&mut self, k: u64) {
        let per = self.task.pieces();
        for _ in 0..k {
            let first = self.done < per;
            self.piece((self.done % per) as usize, first);
            self.done += 1;
        }
    }

    fn piece(&mut self, p: usize, fill: bool) {
        let n = self.task.n;
        let chunk = |len: usize, p: usize| (p * CHUNK).min(len)..((p + 1) * CHUNK).min(len);
        match self.task.kernel {
            Kernel::Copy | Kernel::Scale | Kernel::Fused | Kernel::CopyF32 | Kernel::Unfused => {
                let half = n.div_ceil(CHUNK).max(1);
                let second = self.task.kernel == Kernel::Unfused && p >= half;
                let r = chunk(n, if second { p - half } else { p });
                if fill && !second {
                    for (i, v) in self.x[r.clone()].iter_mut().enumerate() {
                        *v = pattern(r.start + i);
                    }
                }
                let (x, y) = (&self.x[r.clone()], &mut self.y[r.clone()]);
                match self.task.kernel {
                    Kernel::Scale => axpb(x, y, 2.0, 0.0),
                    Kernel::Fused => axpb(x, y, 2.0, 1.0),
                    Kernel::Unfused if !second => axpb(x, &mut self.t[r], 2.0, 0.0),
                    Kernel::Unfused => axpb(&self.t[r.clone()], y, 1.0, 1.0),
                    _ => copy_f32(x, y),
                }
            }
            Kernel::CopyU16 => {
                let r = chunk(n, p);
                if fill {
                    for (i, v) in self.hx[r.clone()].iter_mut().enumerate() {
                        *v = pattern(r.start + i) as u16;
                    }
                }
                copy_u16(&self.hx[r.clone()], &mut self.hy[r]);
            }
            Kernel::Straight | Kernel::Transposed => {
                let rows = self.task.rows_per_piece();
                let (r0, r1) = ((p * rows).min(n), ((p + 1) * rows).min(n));
                if fill {
                    for (i, v) in self.x[r0 * n..r1 * n].iter_mut().enumerate() {
                        *v = pattern(r0 * n + i);
                    }
                }
                if self.task.kernel == Kernel::Straight {
                    copy_f32(&self.x[r0 * n..r1 * n], &mut self.y[r0 * n..r1 * n]);
                } else {
                    transpose_rows(&self.x, &mut self.y, n, r0, r1);
                }
            }
            Kernel::Matmul => {
                let (r0, r1) = ((p * MM_ROWS).min(n), ((p + 1) * MM_ROWS).min(n));
                matmul_rows(&self.x, &self.t, &mut self.y, n, r0, r1);
            }
        }
    }

    /// Is the output right (after at least one full repetition)? Sampled
    /// entries against a plain computation.
    pub fn check(&self) -> bool {
        if self.done < self.task.pieces() {
            return false;
        }
        let n = self.task.n;
        let len = match self.task.kernel {
            Kernel::Straight | Kernel::Transposed | Kernel::Matmul => n * n,
            _ => n,
        };
        let samples = (0..64).map(|s| (s * 7919 + s * s * 104_729) % len.max(1)).chain([0, len.saturating_sub(1)]);
        let close = |a: f32, b: f32| (a - b).abs() <= 1e-3 * b.abs().max(1.0);
        samples.into_iter().all(|i| match self.task.kernel {
            Kernel::Copy | Kernel::CopyF32 | Kernel::Straight => self.y[i] == pattern(i),
            Kernel::Scale => self.y[i] == pattern(i) * 2.0,
            Kernel::Fused | Kernel::Unfused => self.y[i] == pattern(i) * 2.0 + 1.0,
            Kernel::CopyU16 => self.hy[i] == pattern(i) as u16,
            Kernel::Transposed => {
                let (r, c) = (i / n, i % n);
                self.y[c * n + r] == pattern(i)
            }
            Kernel::Matmul => {
                let (r, c) = (i / n, i % n);
                let want: f32 = (0..n).map(|k| self.x[r * n + k] * self.t[k * n + c]).sum();
                close(self.y[i], want)
            }
        })
    }
}
