//! Measuring this machine (notes §5.4, demo 4 of 01): the kernels, the plan
//! of measurements and the bookkeeping of a run, with no clock. The caller
//! (the `#/your-machine` panel, `src/bin/membench.rs`) times batches of
//! pieces and hands the durations to [`Session::record`].
//!
//! Every task is cut into pieces of at most about a millisecond (a chunk of a
//! buffer, a block of matrix rows), so a browser can run a few, yield a frame
//! and go on. The first full repetition of every task fills its buffers and
//! warms the caches: it is not timed.
//!
//! The kernels use WebAssembly SIMD (`std::arch::wasm32`, four f32 lanes)
//! when compiled with `+simd128` (see `.cargo/config.toml`), plain loops
//! otherwise; the natively tested loops are the fallback, and every task
//! checks its output when it ends ([`Work::check`]), in the browser too.

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use std::arch::wasm32::*;

/// f32 elements in one piece of a streaming kernel (1 MiB).
pub const CHUNK: usize = 1 << 18;
/// Matrix rows in one piece of the matmul (eight 4-row micro tiles).
pub const MM_ROWS: usize = 32;
/// The k block of the matmul.
const MM_KB: usize = 128;

/// `dst = src` (the bandwidth kernel; bytes moved: read + write).
pub fn copy_f32(src: &[f32], dst: &mut [f32]) {
    copy(src, dst)
}

/// `dst = src` for 16-bit values (half the bytes of [`copy_f32`] per element).
pub fn copy_u16(src: &[u16], dst: &mut [u16]) {
    copy(src, dst)
}

/// `dst = src`, four 128-bit vectors a step where the wasm build has SIMD.
fn copy<T: Copy>(src: &[T], dst: &mut [T]) {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        // Elements in one v128 (4 for f32, 8 for u16).
        let lanes = 16 / std::mem::size_of::<T>();
        let body = n - n % (4 * lanes);
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let mut i = 0;
        while i < body {
            // SAFETY: i + 4 × lanes <= body <= n for both slices; v128 loads
            // and stores have no alignment requirement.
            unsafe {
                let a = v128_load(s.add(i) as *const v128);
                let b = v128_load(s.add(i + lanes) as *const v128);
                let c = v128_load(s.add(i + 2 * lanes) as *const v128);
                let e = v128_load(s.add(i + 3 * lanes) as *const v128);
                v128_store(d.add(i) as *mut v128, a);
                v128_store(d.add(i + lanes) as *mut v128, b);
                v128_store(d.add(i + 2 * lanes) as *mut v128, c);
                v128_store(d.add(i + 3 * lanes) as *mut v128, e);
            }
            i += 4 * lanes;
        }
        dst[body..].copy_from_slice(&src[body..]);
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    dst.copy_from_slice(src);
}

/// `y = x × a + b`, elementwise (x*2 is `a = 2, b = 0`; x*2+1 fused is
/// `a = 2, b = 1`; the unfused second pass is `a = 1, b = 1`).
pub fn axpb(x: &[f32], y: &mut [f32], a: f32, b: f32) {
    let n = x.len().min(y.len());
    let (x, y) = (&x[..n], &mut y[..n]);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        let body = n - n % 8;
        let (va, vb) = (f32x4_splat(a), f32x4_splat(b));
        let (s, d) = (x.as_ptr(), y.as_mut_ptr());
        let mut i = 0;
        while i < body {
            // SAFETY: i + 8 <= body <= n; unaligned v128 access.
            unsafe {
                let p = v128_load(s.add(i) as *const v128);
                let q = v128_load(s.add(i + 4) as *const v128);
                v128_store(d.add(i) as *mut v128, f32x4_add(f32x4_mul(p, va), vb));
                v128_store(d.add(i + 4) as *mut v128, f32x4_add(f32x4_mul(q, va), vb));
            }
            i += 8;
        }
        for (d, s) in y[body..].iter_mut().zip(&x[body..]) {
            *d = *s * a + b;
        }
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    for (d, s) in y.iter_mut().zip(x) {
        *d = *s * a + b;
    }
}

/// Rows `r0..r1` of the transpose of the `n × n` matrix `src` (row-major):
/// `dst[j][i] = src[i][j]`. Reads are sequential, writes stride `n` floats.
pub fn transpose_rows(src: &[f32], dst: &mut [f32], n: usize, r0: usize, r1: usize) {
    for i in r0..r1.min(n) {
        let row = &src[i * n..(i + 1) * n];
        for (j, v) in row.iter().enumerate() {
            dst[j * n + i] = *v;
        }
    }
}

/// Rows `r0..r1` of `c = a · b` for `n × n` row-major matrices, `n` a
/// multiple of 8 (the plans use multiples of 32): 4 × 8 register tiles over
/// blocks of k, so a strip of `b` is reused from L1 by every row of the piece.
pub fn matmul_rows(a: &[f32], b: &[f32], c: &mut [f32], n: usize, r0: usize, r1: usize) {
    let r1 = r1.min(n);
    for v in &mut c[r0 * n..r1 * n] {
        *v = 0.0;
    }
    let mut k0 = 0;
    while k0 < n {
        let k1 = (k0 + MM_KB).min(n);
        let mut j = 0;
        while j + 8 <= n {
            let mut i = r0;
            while i < r1 {
                let rows = (r1 - i).min(4);
                tile(a, b, c, n, i, rows, j, k0, k1);
                i += rows;
            }
            j += 8;
        }
        // Columns past the last multiple of 8, plainly.
        for i in r0..r1 {
            for jj in j..n {
                let mut s = c[i * n + jj];
                for k in k0..k1 {
                    s += a[i * n + k] * b[k * n + jj];
                }
                c[i * n + jj] = s;
            }
        }
        k0 = k1;
    }
}

/// `c[i..i+rows][j..j+8] += a[i..i+rows][k0..k1] · b[k0..k1][j..j+8]`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn tile(a: &[f32], b: &[f32], c: &mut [f32], n: usize, i: usize, rows: usize, j: usize, k0: usize, k1: usize) {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        if rows == 4 {
            // SAFETY: i + 4 <= n, j + 8 <= n and k1 <= n, so every index is
            // inside the n × n matrices; unaligned v128 access.
            unsafe {
                let (ap, bp, cp) = (a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
                let ld = |p: *const f32| v128_load(p as *const v128);
                let mut acc = [f32x4_splat(0.0); 8];
                for (r, pair) in acc.chunks_exact_mut(2).enumerate() {
                    pair[0] = ld(cp.add((i + r) * n + j));
                    pair[1] = ld(cp.add((i + r) * n + j + 4));
                }
                for k in k0..k1 {
                    let b0 = ld(bp.add(k * n + j));
                    let b1 = ld(bp.add(k * n + j + 4));
                    for (r, pair) in acc.chunks_exact_mut(2).enumerate() {
                        let x = f32x4_splat(*ap.add((i + r) * n + k));
                        pair[0] = f32x4_add(pair[0], f32x4_mul(x, b0));
                        pair[1] = f32x4_add(pair[1], f32x4_mul(x, b1));
                    }
                }
                for (r, pair) in acc.chunks_exact(2).enumerate() {
                    v128_store(cp.add((i + r) * n + j) as *mut v128, pair[0]);
                    v128_store(cp.add((i + r) * n + j + 4) as *mut v128, pair[1]);
                }
            }
            return;
        }
    }
    let mut acc = [[0f32; 8]; 4];
    for (r, row) in acc.iter_mut().enumerate().take(rows) {
        row.copy_from_slice(&c[(i + r) * n + j..(i + r) * n + j + 8]);
    }
    for k in k0..k1 {
        let bk = &b[k * n + j..k * n + j + 8];
        for (r, row) in acc.iter_mut().enumerate().take(rows) {
            let x = a[(i + r) * n + k];
            for (o, bv) in row.iter_mut().zip(bk) {
                *o += x * bv;
            }
        }
    }
    for (r, row) in acc.iter().enumerate().take(rows) {
        c[(i + r) * n + j..(i + r) * n + j + 8].copy_from_slice(row);
    }
}

/// The value a buffer is filled with at index `i` (exact in f32 and u16).
pub fn pattern(i: usize) -> f32 {
    (i % 1021) as f32 * 0.25
}

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

/// When a task has been measured long enough, and how many pieces go into
/// the next timed batch: batches grow until one takes about a millisecond
/// (the browser's clock is coarse) and shrink above four (a frame's slice).
#[derive(Clone, Debug, PartialEq)]
pub struct Meter {
    per_rep: u64,
    budget_ms: f64,
    batch: u64,
    /// Pieces run (the first `per_rep` are the untimed warm-up).
    run: u64,
    timed_ms: f64,
}

impl Meter {
    pub fn new(per_rep: u64, budget_ms: f64) -> Self {
        Meter { per_rep: per_rep.max(1), budget_ms, batch: 1, run: 0, timed_ms: 0.0 }
    }
    fn warm(&self) -> bool {
        self.run < self.per_rep
    }
    fn timed_pieces(&self) -> u64 {
        self.run.saturating_sub(self.per_rep)
    }
    /// Enough: past the budget, at least one timed repetition, and at the
    /// end of a repetition.
    pub fn done(&self) -> bool {
        !self.warm()
            && self.timed_ms >= self.budget_ms
            && self.timed_pieces() >= self.per_rep
            && self.timed_pieces() % self.per_rep == 0
    }
    /// Pieces in the next batch (never crossing the end of a repetition when
    /// a repetition has several pieces, nor the end of the warm-up).
    pub fn next(&self) -> u64 {
        if self.per_rep == 1 {
            return self.batch;
        }
        let left = self.per_rep - self.run % self.per_rep;
        self.batch.min(left)
    }
    /// `k` pieces took `ms`.
    pub fn record(&mut self, k: u64, ms: f64) {
        if !self.warm() {
            self.timed_ms += ms;
        }
        self.run += k;
        if ms < 1.0 {
            self.batch = self.batch.saturating_mul(2).min(1 << 24);
        } else if ms > 4.0 && self.batch > 1 {
            self.batch /= 2;
        }
    }
    /// Milliseconds per repetition (timed part only).
    pub fn ms_per_rep(&self) -> f64 {
        self.timed_ms / self.timed_pieces().max(1) as f64 * self.per_rep as f64
    }
}

/// A plan of measurements: the copy sweep, x*2 / x*2+1, straight and
/// transposed, f32 and u16, and the matmuls.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Working sets of the copy sweep (src + dst, bytes; powers of two).
    pub sweep: Vec<u64>,
    pub fusion_n: usize,
    pub transpose_n: usize,
    pub halves_n: usize,
    pub matmul: Vec<usize>,
    /// Timed milliseconds per task.
    pub budget_ms: f64,
}

impl Plan {
    /// The full run: 16 KiB to 256 MiB (a few seconds).
    pub fn full() -> Self {
        Plan {
            sweep: (14..=28).step_by(2).map(|e| 1u64 << e).collect(),
            fusion_n: 1 << 23,
            transpose_n: 4096,
            halves_n: 1 << 24,
            matmul: vec![256, 512],
            budget_ms: 250.0,
        }
    }
    /// The short run (about two seconds; the end-to-end tests use it).
    pub fn quick() -> Self {
        Plan {
            sweep: vec![1 << 14, 1 << 18, 1 << 22, 1 << 24],
            fusion_n: 1 << 21,
            transpose_n: 2048,
            halves_n: 1 << 21,
            matmul: vec![128, 256],
            budget_ms: 50.0,
        }
    }
    pub fn tasks(&self) -> Vec<Task> {
        let mut out: Vec<Task> =
            self.sweep.iter().map(|&b| Task { kernel: Kernel::Copy, n: (b / 8) as usize }).collect();
        for kernel in [Kernel::Scale, Kernel::Unfused, Kernel::Fused] {
            out.push(Task { kernel, n: self.fusion_n });
        }
        for kernel in [Kernel::Straight, Kernel::Transposed] {
            out.push(Task { kernel, n: self.transpose_n });
        }
        for kernel in [Kernel::CopyF32, Kernel::CopyU16] {
            out.push(Task { kernel, n: self.halves_n });
        }
        out.extend(self.matmul.iter().map(|&n| Task { kernel: Kernel::Matmul, n }));
        out
    }
}

/// A run in progress: the tasks, the current task's buffers and meter, and
/// milliseconds per repetition of every finished task.
pub struct Session {
    plan: Plan,
    tasks: Vec<Task>,
    work: Option<(Work, Meter)>,
    ms: Vec<f64>,
    /// Tasks whose output check failed.
    pub failed: Vec<Task>,
}

impl Session {
    pub fn new(plan: Plan) -> Self {
        let tasks = plan.tasks();
        Session { plan, tasks, work: None, ms: vec![], failed: vec![] }
    }
    pub fn finished(&self) -> bool {
        self.ms.len() == self.tasks.len()
    }
    /// Share of the tasks done, with the current one's progress.
    pub fn progress(&self) -> f64 {
        let part = self.work.as_ref().map_or(0.0, |(_, m)| {
            let warm = (m.run.min(m.per_rep) as f64 / m.per_rep as f64) * 0.3;
            warm + 0.7 * (m.timed_ms / m.budget_ms).min(1.0)
        });
        ((self.ms.len() as f64 + part) / self.tasks.len() as f64).min(1.0)
    }
    /// Pieces for the next timed batch (allocating the next task's buffers
    /// first, outside the timing); `None` when the run is over.
    pub fn batch(&mut self) -> Option<u64> {
        if self.finished() {
            return None;
        }
        let task = self.tasks[self.ms.len()];
        let (_, m) = self.work.get_or_insert_with(|| (Work::new(task), Meter::new(task.pieces(), self.plan.budget_ms)));
        Some(m.next())
    }
    /// Run `k` pieces of the current task (the timed part).
    pub fn run(&mut self, k: u64) {
        if let Some((w, _)) = self.work.as_mut() {
            w.run(k);
        }
    }
    /// The last batch took `ms`; a task that is done is checked and freed.
    pub fn record(&mut self, k: u64, ms: f64) {
        let Some((w, m)) = self.work.as_mut() else { return };
        m.record(k, ms);
        if m.done() {
            if !w.check() {
                self.failed.push(w.task);
            }
            self.ms.push(m.ms_per_rep());
            self.work = None;
        }
    }
    /// The results (rounded as the URL keeps them), once finished.
    pub fn results(&self) -> Option<Results> {
        if !self.finished() {
            return None;
        }
        let ms = |i: usize| self.ms[i];
        let mut i = 0;
        let mut sweep = vec![];
        for &b in &self.plan.sweep {
            sweep.push((b.trailing_zeros(), b as f64 / (ms(i) * 1e6)));
            i += 1;
        }
        let fusion = [self.plan.fusion_n as f64, ms(i), ms(i + 1), ms(i + 2)];
        let transpose = [self.plan.transpose_n as f64, ms(i + 3), ms(i + 4)];
        let halves = [self.plan.halves_n as f64, ms(i + 5), ms(i + 6)];
        i += 7;
        let matmul = self
            .plan
            .matmul
            .iter()
            .enumerate()
            .map(|(j, &n)| (n as u32, 2.0 * (n as f64).powi(3) / (ms(i + j) * 1e6)))
            .collect();
        Some(Results { sweep, fusion, transpose, halves, matmul }.rounded())
    }
}

/// A finished run, as kept in the URL and exported as JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// (log2 of the working set in bytes, GB/s) of the copy sweep.
    pub sweep: Vec<(u32, f64)>,
    /// [elements, ms of x*2, ms of x*2+1 unfused, ms of x*2+1 fused].
    pub fusion: [f64; 4],
    /// [side, ms straight copy, ms transposed copy].
    pub transpose: [f64; 3],
    /// [elements, ms f32 copy, ms u16 copy].
    pub halves: [f64; 3],
    /// (n, GFLOP/s) of the matmuls.
    pub matmul: Vec<(u32, f64)>,
}

/// Four significant digits, as the URL keeps a number.
pub fn round4(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return 0.0;
    }
    format!("{x:.3e}").parse().unwrap_or(0.0)
}

/// A size (exact) followed by times (four significant digits).
fn keep_size<const N: usize>(v: [f64; N]) -> [f64; N] {
    let mut out = v.map(round4);
    out[0] = v[0];
    out
}

/// The largest text the `r` parameter takes.
pub const MAX_ENCODED: usize = 600;

impl Results {
    pub fn rounded(&self) -> Self {
        Results {
            sweep: self.sweep.iter().map(|&(e, g)| (e, round4(g))).collect(),
            fusion: keep_size(self.fusion),
            transpose: keep_size(self.transpose),
            halves: keep_size(self.halves),
            matmul: self.matmul.iter().map(|&(n, g)| (n, round4(g))).collect(),
        }
    }

    /// Bandwidth at the largest working set (GB/s): the memory roof.
    pub fn bandwidth_gbps(&self) -> f64 {
        self.sweep.iter().max_by_key(|(e, _)| *e).map_or(0.0, |(_, g)| *g)
    }
    /// The fastest matmul (GFLOP/s): the compute roof.
    pub fn peak_gflops(&self) -> f64 {
        self.matmul.iter().map(|(_, g)| *g).fold(0.0, f64::max)
    }
    /// Where the roofs meet (FLOP/byte).
    pub fn ridge(&self) -> f64 {
        self.peak_gflops() / self.bandwidth_gbps().max(1e-12)
    }
    /// Time of x*2+1 unfused ÷ time of x*2 (about 2: twice the bytes).
    pub fn unfused_ratio(&self) -> f64 {
        self.fusion[2] / self.fusion[1].max(1e-12)
    }
    /// Time of x*2+1 fused ÷ time of x*2 (about 1: the same bytes).
    pub fn fused_ratio(&self) -> f64 {
        self.fusion[3] / self.fusion[1].max(1e-12)
    }
    /// Time of the transposed copy ÷ the straight one.
    pub fn transpose_ratio(&self) -> f64 {
        self.transpose[2] / self.transpose[1].max(1e-12)
    }
    /// Time of the f32 copy ÷ the u16 copy (about 2: half the bytes).
    pub fn u16_speedup(&self) -> f64 {
        self.halves[1] / self.halves[2].max(1e-12)
    }
    /// GFLOP/s of x*2, x*2+1 unfused and fused.
    pub fn elementwise_gflops(&self) -> [f64; 3] {
        let n = self.fusion[0];
        [n / (self.fusion[1] * 1e6), 2.0 * n / (self.fusion[2] * 1e6), 2.0 * n / (self.fusion[3] * 1e6)]
    }

    /// The URL form: sections joined by `*`, items by `_`, numbers by `-`
    /// (characters a query keeps as they are): `S<log2 bytes>-<GB/s>_…`,
    /// `F<n>-<ms x*2>-<ms unfused>-<ms fused>`, `T<side>-<ms>-<ms>`,
    /// `H<n>-<ms f32>-<ms u16>`, `M<n>-<GFLOP/s>_…`.
    pub fn encode(&self) -> String {
        let join = |v: &[f64]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("-");
        let pairs = |v: &[(u32, f64)]| v.iter().map(|(k, g)| format!("{k}-{g}")).collect::<Vec<_>>().join("_");
        format!(
            "S{}*F{}*T{}*H{}*M{}",
            pairs(&self.sweep),
            join(&self.fusion),
            join(&self.transpose),
            join(&self.halves),
            pairs(&self.matmul)
        )
    }

    /// The inverse of [`Results::encode`], with the reason a text is unusable.
    pub fn decode(s: &str) -> Result<Results, String> {
        if s.len() > MAX_ENCODED {
            return Err(format!("longer than {MAX_ENCODED} characters"));
        }
        let sections: Vec<&str> = s.split('*').collect();
        let [sw, fu, tr, ha, mm] = sections[..] else {
            return Err("expected five sections S*F*T*H*M".into());
        };
        let num = |t: &str| -> Result<f64, String> {
            if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit() || c == '.') {
                return Err(format!("not a number: {t:?}"));
            }
            t.parse::<f64>().map_err(|_| format!("not a number: {t:?}")).and_then(|x| {
                if x.is_finite() && x <= 1e12 {
                    Ok(x)
                } else {
                    Err(format!("out of range: {t}"))
                }
            })
        };
        let body = |sec: &str, tag: char| -> Result<String, String> {
            sec.strip_prefix(tag).map(str::to_string).ok_or_else(|| format!("section {tag} missing"))
        };
        let pairs = |sec: &str, tag: char, max_key: u32| -> Result<Vec<(u32, f64)>, String> {
            let b = body(sec, tag)?;
            let out = b
                .split('_')
                .map(|item| match item.split('-').collect::<Vec<_>>()[..] {
                    [k, g] => {
                        let k = num(k)?;
                        if k.fract() != 0.0 || k < 1.0 || k > max_key as f64 {
                            return Err(format!("bad size {k} in {tag}"));
                        }
                        Ok((k as u32, num(g)?))
                    }
                    _ => Err(format!("bad item {item:?} in {tag}")),
                })
                .collect::<Result<Vec<_>, _>>()?;
            if out.len() > 16 {
                return Err(format!("too many items in {tag}"));
            }
            Ok(out)
        };
        fn fixed<const N: usize>(
            b: String,
            tag: char,
            num: &dyn Fn(&str) -> Result<f64, String>,
        ) -> Result<[f64; N], String> {
            let v = b.split('-').map(num).collect::<Result<Vec<_>, _>>()?;
            v.try_into().map_err(|_| format!("section {tag} needs {N} numbers"))
        }
        let fusion = fixed::<4>(body(fu, 'F')?, 'F', &num)?;
        let transpose = fixed::<3>(body(tr, 'T')?, 'T', &num)?;
        let halves = fixed::<3>(body(ha, 'H')?, 'H', &num)?;
        for (v, tag) in [(fusion[0], 'F'), (transpose[0], 'T'), (halves[0], 'H')] {
            if v.fract() != 0.0 || v < 1.0 {
                return Err(format!("bad size in {tag}"));
            }
        }
        let r = Results { sweep: pairs(sw, 'S', 40)?, fusion, transpose, halves, matmul: pairs(mm, 'M', 1 << 16)? };
        Ok(r)
    }

    /// Every number in the order both the URL and the JSON write them.
    pub fn numbers(&self) -> Vec<f64> {
        let mut v: Vec<f64> = self.sweep.iter().flat_map(|&(e, g)| [(1u64 << e) as f64, g]).collect();
        v.extend(self.fusion);
        v.extend(self.transpose);
        v.extend(self.halves);
        v.extend(self.matmul.iter().flat_map(|&(n, g)| [n as f64, g]));
        v
    }

    /// The export: the same numbers as the URL (sizes in bytes for the
    /// sweep), then the derived figures.
    pub fn to_json(&self) -> String {
        let sweep: Vec<String> =
            self.sweep.iter().map(|&(e, g)| format!(r#"{{"bytes":{},"gbps":{g}}}"#, 1u64 << e)).collect();
        let mm: Vec<String> = self.matmul.iter().map(|&(n, g)| format!(r#"{{"n":{n},"gflops":{g}}}"#)).collect();
        let [fn_, x2, un, fu] = self.fusion;
        let [tn, st, tt] = self.transpose;
        let [hn, f32ms, u16ms] = self.halves;
        format!(
            concat!(
                r#"{{"sweep":[{}],"fusion":{{"elements":{},"x2_ms":{},"unfused_ms":{},"fused_ms":{}}},"#,
                r#""transpose":{{"side":{},"straight_ms":{},"transposed_ms":{}}},"#,
                r#""halves":{{"elements":{},"f32_ms":{},"u16_ms":{}}},"matmul":[{}],"#,
                r#""derived":{{"bandwidth_gbps":{},"peak_gflops":{},"ridge_flop_per_byte":{},"unfused_over_x2":{},"fused_over_x2":{}}}}}"#
            ),
            sweep.join(","),
            fn_,
            x2,
            un,
            fu,
            tn,
            st,
            tt,
            hn,
            f32ms,
            u16ms,
            mm.join(","),
            self.bandwidth_gbps(),
            self.peak_gflops(),
            self.ridge(),
            self.unfused_ratio(),
            self.fused_ratio()
        )
    }
}

/// The check of the `r` URL parameter: empty (not measured yet) or a
/// [`Results::encode`] text.
pub fn check_results(s: &str) -> Result<(), String> {
    if s.is_empty() {
        return Ok(());
    }
    Results::decode(s).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernels_compute_what_they_say() {
        let x: Vec<f32> = (0..1000).map(pattern).collect();
        let mut y = vec![0.0; 1000];
        copy_f32(&x, &mut y);
        assert_eq!(x, y);
        axpb(&x, &mut y, 2.0, 1.0);
        assert!(y.iter().zip(&x).all(|(y, x)| *y == x * 2.0 + 1.0));
        let h: Vec<u16> = (0..999).map(|i| i as u16 * 3).collect();
        let mut g = vec![0u16; 999];
        copy_u16(&h, &mut g);
        assert_eq!(h, g);
        let n = 37;
        let m: Vec<f32> = (0..n * n).map(pattern).collect();
        let mut t = vec![0.0; n * n];
        transpose_rows(&m, &mut t, n, 0, 20);
        transpose_rows(&m, &mut t, n, 20, n);
        for i in 0..n {
            for j in 0..n {
                assert_eq!(t[j * n + i], m[i * n + j]);
            }
        }
    }

    #[test]
    fn blocked_matmul_equals_the_plain_one() {
        for n in [8, 40, 64, 136] {
            let a: Vec<f32> = (0..n * n).map(|i| pattern(i) / 64.0).collect();
            let b: Vec<f32> = (0..n * n).map(|i| pattern(i * 5 + 1) / 64.0).collect();
            let mut c = vec![7.0; n * n];
            matmul_rows(&a, &b, &mut c, n, 0, 5);
            matmul_rows(&a, &b, &mut c, n, 5, n);
            for i in 0..n {
                for j in 0..n {
                    let want: f32 = (0..n).map(|k| a[i * n + k] * b[k * n + j]).sum();
                    assert!((c[i * n + j] - want).abs() <= 1e-3 * want.abs().max(1.0), "n={n} ({i},{j})");
                }
            }
        }
    }

    #[test]
    fn every_task_checks_out_after_a_repetition() {
        let n = CHUNK + 100;
        for kernel in [Kernel::Copy, Kernel::Scale, Kernel::Unfused, Kernel::Fused, Kernel::CopyF32, Kernel::CopyU16] {
            let mut w = Work::new(Task { kernel, n });
            assert!(!w.check());
            w.run(w.task.pieces() * 2 - 1);
            assert!(w.check(), "{kernel:?}");
        }
        for (kernel, n) in [(Kernel::Straight, 300), (Kernel::Transposed, 1100), (Kernel::Matmul, 96)] {
            let mut w = Work::new(Task { kernel, n });
            w.run(w.task.pieces());
            assert!(w.check(), "{kernel:?}");
        }
    }

    #[test]
    fn intensities_are_the_lectures() {
        // notes §5.4: x*2 is 0.125 FLOP/byte in f32, x*2+1 0.25 when fused; matmul n/6.
        let t = |kernel, n| Task { kernel, n };
        let i = |t: Task| t.flops() / t.bytes();
        assert_eq!(i(t(Kernel::Scale, 1000)), 0.125);
        assert_eq!(i(t(Kernel::Fused, 1000)), 0.25);
        assert_eq!(i(t(Kernel::Unfused, 1000)), 0.125);
        assert!((i(t(Kernel::Matmul, 64)) - 10.67).abs() < 0.01);
        assert!((i(t(Kernel::Matmul, 1024)) - 170.7).abs() < 0.1);
    }

    #[test]
    fn the_meter_warms_up_grows_batches_and_ends_on_a_repetition() {
        // Runs a meter to the end, each repetition taking `ms`: its batches.
        let run = |m: &mut Meter, ms: f64| {
            let mut batches = vec![];
            while !m.done() {
                let k = m.next();
                batches.push(k);
                m.record(k, ms * k as f64);
                assert!(batches.len() < 1000);
            }
            batches
        };
        let mut m = Meter::new(3, 10.0);
        let batches = run(&mut m, 0.3);
        assert_eq!(m.run % 3, 0);
        assert!(batches.iter().all(|&k| k <= 3));
        assert!((m.ms_per_rep() - 0.9).abs() < 1e-9);
        // One piece per repetition: the batch doubles while short.
        let mut m = Meter::new(1, 5.0);
        let ks = run(&mut m, 0.01);
        assert!(ks.windows(2).all(|w| w[1] >= w[0]) && *ks.last().unwrap() >= 64);
        assert!((m.ms_per_rep() - 0.01).abs() < 1e-9);
    }

    fn tiny() -> Plan {
        Plan {
            sweep: vec![1 << 14, 1 << 21],
            fusion_n: CHUNK + 8,
            transpose_n: 128,
            halves_n: 5000,
            matmul: vec![32, 64],
            budget_ms: 1.0,
        }
    }

    #[test]
    fn a_session_with_a_fake_clock_gives_results_that_round_trip() {
        let mut s = Session::new(tiny());
        let mut steps = 0;
        while let Some(k) = s.batch() {
            s.run(k);
            s.record(k, 0.25 * k as f64);
            steps += 1;
            assert!(s.progress() <= 1.0);
            assert!(steps < 100_000);
        }
        assert!(s.failed.is_empty(), "{:?}", s.failed);
        assert_eq!(s.progress(), 1.0);
        let r = s.results().unwrap();
        assert_eq!(r.sweep.len(), 2);
        assert_eq!(r.sweep[0].0, 14);
        let text = r.encode();
        assert!(text.chars().all(|c| c.is_ascii_alphanumeric() || "._*-".contains(c)), "{text}");
        assert_eq!(Results::decode(&text).unwrap(), r);
        assert_eq!(Results::decode(&text).unwrap().encode(), text);
    }

    fn sample() -> Results {
        Results {
            sweep: vec![(14, 61.23), (20, 40.5), (28, 9.876)],
            fusion: [8388608.0, 6.123, 12.87, 6.2],
            transpose: [4096.0, 14.1, 120.5],
            halves: [16777216.0, 12.25, 6.5],
            matmul: vec![(256, 21.5), (512, 24.75)],
        }
    }

    #[test]
    fn the_url_and_the_json_hold_the_same_numbers() {
        let r = sample();
        assert_eq!(r.rounded(), r);
        let text = r.encode();
        assert_eq!(
            text,
            "S14-61.23_20-40.5_28-9.876*F8388608-6.123-12.87-6.2*T4096-14.1-120.5*H16777216-12.25-6.5*M256-21.5_512-24.75"
        );
        let back = Results::decode(&text).unwrap();
        assert_eq!(back, r);
        // The JSON's numbers, in order, before the derived figures, are the URL's.
        let json = r.to_json();
        let head = json.split(r#""derived""#).next().unwrap();
        let nums: Vec<f64> = head
            .split(':')
            .skip(1)
            .map(|t| t.split(|c: char| !(c.is_ascii_digit() || c == '.')).next().unwrap())
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(nums, back.numbers());
        assert!(json.contains(r#""bandwidth_gbps":9.876"#) && json.contains(r#""peak_gflops":24.75"#), "{json}");
        assert!((r.ridge() - 24.75 / 9.876).abs() < 1e-12);
        assert!((r.unfused_ratio() - 12.87 / 6.123).abs() < 1e-12);
    }

    #[test]
    fn bad_texts_are_refused_with_a_reason() {
        assert!(check_results("").is_ok());
        for bad in [
            "abc",
            "-3",
            "100000",
            "1e9",
            "%",
            "S14-1*F1-2-3*T1-2-3*H1-2-3",
            "S14-1*F1-2-3-4*T1-2-3*H1-2-3*M8-1e5",
            "S14-1*F1-2-3-4*T1-2-3*H1-2*M8-1",
            "S99-1*F1-2-3-4*T1-2-3*H1-2-3*M8-1",
            "S14-inf*F1-2-3-4*T1-2-3*H1-2-3*M8-1",
            "S14-1*F0.5-2-3-4*T1-2-3*H1-2-3*M8-1",
        ] {
            assert!(check_results(bad).is_err(), "{bad}");
        }
        assert!(check_results("S14-1*F1-2-3-4*T1-2-3*H1-2-3*M8-1").is_ok());
        assert!(check_results(&"9".repeat(MAX_ENCODED + 1)).is_err());
    }
}
