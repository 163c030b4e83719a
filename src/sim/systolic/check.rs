//! The check of a run's product against A·B computed directly, whole or in
//! slices (so the page never freezes at 256 × 256 × 4096).

use super::*;

/// A check part-way through: rows `0..b_rows` of `B` are generated, then
/// output rows `0..next_row` are done.
pub(super) struct Checking {
    /// `B`, row-major.
    b: Vec<i32>,
    /// `B` transposed (columns contiguous).
    bt: Vec<i32>,
    b_rows: usize,
    out: Vec<i64>,
    direct: Vec<i32>,
    next_row: usize,
    /// Columns `0..next_col` of row `next_row` are done.
    next_col: usize,
}

/// Multiply-adds of one unit of the check (a piece of an output row): a
/// millisecond or two, so that a slice of the UI's check stays short even
/// when a whole row (2 · n · k, up to 33 M) would not.
const UNIT_MACS: usize = 1 << 21;

impl Systolic {
    /// The array's final `C` (row-major), and its largest absolute difference
    /// from `A·B` computed directly (a plain i-k-j loop over rows of `B`).
    ///
    /// The array's output is read off the schedule: OS, each PE's accumulator
    /// at the end of its fold (the dot product in the order its operands
    /// arrive, κ = 0, 1, …); WS and IS, the sums that left the bottom of the
    /// array, one row block of `k` after the other. (The tests check these
    /// against the register-transfer run.) Operands are digits and k ≤ 4096,
    /// so every sum fits an i32 exactly.
    ///
    /// At m = n = 1024, k = 4096 this is 2 × 4.3 G multiply-adds: the UI runs
    /// it in slices with [`Systolic::check_step`] instead; this finishes
    /// whatever is left at once.
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
        2 * self.macs()
    }

    /// Fraction of the check done, in 0..=1.
    pub fn check_progress(&self) -> f64 {
        if self.check.get().is_some() {
            return 1.0;
        }
        match &*self.checking.borrow() {
            // Generating B counts as a tenth of the work.
            Some(st) => {
                let rows = st.next_row as f64 + st.next_col as f64 / self.p.n as f64;
                0.1 * st.b_rows as f64 / self.p.k as f64 + 0.9 * rows / self.p.m as f64
            }
            None => 0.0,
        }
    }

    /// Advance the check by pieces of output rows (at most [`UNIT_MACS`]
    /// multiply-adds each), about `macs` multiply-adds' worth (at least one
    /// piece); `true` once it has finished. The result does not depend on how
    /// the work was sliced.
    pub fn check_step(&self, macs: u64) -> bool {
        if self.check.get().is_some() {
            return true;
        }
        let (r, c, k) = (self.p.m, self.p.n, self.p.k);
        let block = self.p.rows;
        let mut slot = self.checking.borrow_mut();
        let st = slot.get_or_insert_with(|| Checking {
            b: vec![0; k * c],
            bt: vec![0; c * k],
            b_rows: 0,
            out: vec![0; r * c],
            direct: vec![0; r * c],
            next_row: 0,
            next_col: 0,
        });
        let mut spent = 0u64;
        // First B, in blocks of about 64 K operands, row-major and transposed
        // (columns contiguous: what flows down column j (OS), sits in a
        // column of PEs (WS) or streams in as vector j (IS)).
        let gen = (65_536 / c).max(1);
        while st.b_rows < k && (spent == 0 || spent < macs) {
            let end = (st.b_rows + gen).min(k);
            let rows = &mut st.b[st.b_rows * c..end * c];
            match &self.ops {
                Some((_, b)) => rows.copy_from_slice(&b[st.b_rows * c..end * c]),
                None => {
                    let first = (self.p.m * k + st.b_rows * c) as u64;
                    for (n, x) in (first..).zip(rows.iter_mut()) {
                        *x = operand(self.p.seed, n);
                    }
                }
            }
            // Transposed a column at a time, 16 rows of B per pass: written
            // straight, a column's stride of k operands (16 KB at k = 4096)
            // made every store a cache miss.
            for k0 in (st.b_rows..end).step_by(16) {
                let k1 = (k0 + 16).min(end);
                for (j, col) in st.bt.chunks_exact_mut(k).enumerate() {
                    for (x, &v) in col[k0..k1].iter_mut().zip(st.b[k0 * c + j..].iter().step_by(c)) {
                        *x = v;
                    }
                }
            }
            spent += ((end - st.b_rows) * c) as u64 * GEN_COST;
            st.b_rows = end;
        }
        // Then the output, row by row, a piece of columns at a time: the
        // array's and the direct product's.
        let piece = (UNIT_MACS / (2 * k)).clamp(1, c);
        while st.b_rows == k && st.next_row < r && (spent == 0 || spent + (2 * piece * k) as u64 <= macs) {
            let (i, j0) = (st.next_row, st.next_col);
            let j1 = (j0 + piece).min(c);
            let a_row: Vec<i32> = (0..k).map(|kk| self.a(i, kk)).collect();
            let dot = |j: usize, k0: usize, k1: usize| -> i32 { dot(&a_row[k0..k1], &st.bt[j * k + k0..j * k + k1]) };
            for j in j0..j1 {
                st.out[i * c + j] = match self.p.dataflow {
                    Dataflow::Os => dot(j, 0, k) as i64,
                    // One partial sum per row block of k, added as they leave the array.
                    Dataflow::Ws | Dataflow::Is => {
                        (0..k.div_ceil(block)).map(|q| dot(j, q * block, ((q + 1) * block).min(k)) as i64).sum()
                    }
                };
            }
            let row = &mut st.direct[i * c + j0..i * c + j1];
            for (kk, &aik) in a_row.iter().enumerate() {
                add_scaled(row, aik, &st.b[kk * c + j0..kk * c + j1]);
            }
            spent += (2 * (j1 - j0) * k) as u64;
            if j1 == c {
                st.next_row += 1;
                st.next_col = 0;
            } else {
                st.next_col = j1;
            }
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
        let fold = f.pos.map(|p| p.fold).unwrap_or_else(|| self.sched.fold(0));
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
        m.push(Metric::count("fold", fold.index as u64 + 1));
        m.push(Metric::count("folds", self.folds() as u64));
        m.push(Metric::percent("mapping-efficiency", self.mapping_efficiency()));
        m.push(Metric::percent("compute-utilization", self.compute_utilization()));
        m.push(Metric::percent("overall-utilization", self.utilization()));
        m
    }
}

// The check's two loops, four lanes at a time where the build has SIMD (the
// release build optimises for size, which leaves loops scalar). Sums of
// digits' products (≤ 81 · 4096) fit an i32: the same numbers either way.

/// Σ a[i] · b[i].
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn dot(a: &[i32], b: &[i32]) -> i32 {
    use core::arch::wasm32::*;
    let n = a.len().min(b.len());
    let (a, b) = (a[..n].chunks_exact(4), b[..n].chunks_exact(4));
    let tail: i32 = a.remainder().iter().zip(b.remainder()).map(|(x, y)| x * y).sum();
    let mut acc = i32x4_splat(0);
    for (x, y) in a.zip(b) {
        // SAFETY: each chunk is four i32s; v128 loads need no alignment.
        let (x, y) = unsafe { (v128_load(x.as_ptr() as *const v128), v128_load(y.as_ptr() as *const v128)) };
        acc = i32x4_add(acc, i32x4_mul(x, y));
    }
    i32x4_extract_lane::<0>(acc)
        + i32x4_extract_lane::<1>(acc)
        + i32x4_extract_lane::<2>(acc)
        + i32x4_extract_lane::<3>(acc)
        + tail
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn dot(a: &[i32], b: &[i32]) -> i32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// d[j] += s · b[j].
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn add_scaled(d: &mut [i32], s: i32, b: &[i32]) {
    use core::arch::wasm32::*;
    let n = d.len().min(b.len());
    let body = n - n % 4;
    let (d, d_tail) = d[..n].split_at_mut(body);
    let (b, b_tail) = b[..n].split_at(body);
    for (x, &y) in d_tail.iter_mut().zip(b_tail) {
        *x += s * y;
    }
    let sv = i32x4_splat(s);
    for (x, y) in d.chunks_exact_mut(4).zip(b.chunks_exact(4)) {
        // SAFETY: each chunk is four i32s; v128 loads and stores need no alignment.
        unsafe {
            let p = x.as_mut_ptr() as *mut v128;
            v128_store(p, i32x4_add(v128_load(p), i32x4_mul(sv, v128_load(y.as_ptr() as *const v128))));
        }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn add_scaled(d: &mut [i32], s: i32, b: &[i32]) {
    for (x, &y) in d.iter_mut().zip(b) {
        *x += s * y;
    }
}
