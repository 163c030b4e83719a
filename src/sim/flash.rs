//! FlashAttention forward and backward (notes §8.3–8.4, demos 2–3 of 05), one
//! head, tile by tile, in f64.
//!
//! Forward (§8.3): for each query block `Q_i` (one thread block, in SRAM) and
//! each key/value block `(K_j, V_j)`: `S = Q_i K_jᵀ/√d`, new row maxima, `P =
//! e^(S − m_new)`, `ℓ ← e^(m − m_new) ℓ + rowsum P`, `O ← e^(m − m_new) O + P V_j`;
//! at the end `O /= ℓ` and `L = m + log ℓ`. With the causal mask, tiles wholly
//! above the diagonal are skipped.
//!
//! Backward (§8.4, FlashAttention-2 form): `D_i = rowsum(dO_i ∘ O_i)`; for each
//! key block `j` and query block `i`: `P = e^(S − L_i)` recomputed, `dV_j +=
//! Pᵀ dO_i`, `dP = dO_i V_jᵀ`, `dS = P ∘ (dP − D_i)`, `dQ_i += dS K_j/√d`,
//! `dK_j += dSᵀ Q_i/√d`.
//!
//! Tiles, skipping, the step order (both ways) and the byte ledger are closed
//! forms for any `n`: nothing here allocates in proportion to the number of
//! tiles, and every query costs O(log n) at most. The numbers themselves (and
//! the checks against naive attention and direct gradients) are computed for
//! `n ≤ NUMERIC_MAX_N`, by [`Check`]: an incremental job that does a bounded
//! amount of work per call, so a page can run it in slices without freezing.

use super::{Metric, SplitMix64, Steppable};
use std::ops::Range;

pub const MAX_N: usize = 65536;
pub const MAX_D: usize = 256;
pub const NUMERIC_MAX_N: usize = 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    Fwd,
    Bwd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    pub n: usize,
    pub d: usize,
    pub bq: usize,
    pub bk: usize,
    pub causal: bool,
    pub seed: u64,
    /// Bytes per element of Q, K, V, O, dO in HBM (statistics are fp32).
    pub elem_bytes: u64,
    /// Shared memory available to one thread block, bytes.
    pub sram: u64,
}

impl Params {
    /// The parameters as the simulation uses them (sizes clamped to range).
    pub fn normalised(self) -> Params {
        let n = self.n.clamp(1, MAX_N);
        Params { n, d: self.d.clamp(1, MAX_D), bq: self.bq.clamp(1, n), bk: self.bk.clamp(1, n), ..self }
    }
    /// What the numbers depend on (not the dtype or the SRAM size): the key
    /// under which a page may cache the checks.
    pub fn numeric_key(self) -> (usize, usize, usize, usize, bool, u64) {
        let p = self.normalised();
        (p.n, p.d, p.bq, p.bk, p.causal, p.seed)
    }
}

/// Matrices are row-major `rows × d`.
#[derive(Clone, Debug, PartialEq)]
pub struct Grads {
    pub dq: Vec<f64>,
    pub dk: Vec<f64>,
    pub dv: Vec<f64>,
}

/// The seeded inputs: Q, K, V and dO, each `n × d` row-major, uniform in
/// [−1, 1), drawn in that order from one SplitMix64 stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    pub q: Vec<f64>,
    pub k: Vec<f64>,
    pub v: Vec<f64>,
    pub d_o: Vec<f64>,
}

fn unit_f64(x: u64) -> f64 {
    (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
}

/// Element `e` of the input stream of `seed` (Q is elements `0..nd`, K the
/// next `nd`, then V and dO). SplitMix64 is a counter passed through a mixer,
/// so any element can be drawn without the ones before it: a page can show a
/// few rows without generating the whole inputs.
pub fn input_at(seed: u64, e: u64) -> f64 {
    let mut z = seed.wrapping_add(e.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    unit_f64(z ^ (z >> 31))
}

impl Inputs {
    /// The whole inputs, in stream order.
    pub fn generate(n: usize, d: usize, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut gen = |len: usize| -> Vec<f64> { (0..len).map(|_| unit_f64(rng.next_u64())).collect() };
        let (q, k, v, d_o) = (gen(n * d), gen(n * d), gen(n * d), gen(n * d));
        Inputs { q, k, v, d_o }
    }
}

pub struct Numeric {
    pub inputs: Inputs,
    /// Flash output and logsumexp.
    pub o: Vec<f64>,
    pub lse: Vec<f64>,
    /// max |O_flash − O_naive|.
    pub err: f64,
    pub grads: Grads,
    /// max |grad_flash − grad_direct| over dQ, dK, dV.
    pub grad_err: f64,
}

/// The tile schedule of one configuration, and (from [`Flash::new`]) its
/// numbers. The schedule is a handful of integers: building one is O(1).
pub struct Flash {
    pub p: Params,
    tr: usize,
    tc: usize,
    pub numeric: Option<Numeric>,
}

/// The running state of one query block's rows in the forward pass.
#[derive(Clone, Debug, PartialEq)]
pub struct RowState {
    pub m: Vec<f64>,
    pub l: Vec<f64>,
    /// e^(m_old − m_new) applied in the last tile.
    pub rescale: Vec<f64>,
    /// Unnormalised O rows (rows × the columns kept, `d` unless asked for fewer).
    pub o: Vec<f64>,
}

/// `Σ_{i < n} ⌊(a·i + b) / m⌋` in O(log) (the Euclid-like reduction).
pub fn floor_sum(n: u64, m: u64, a: u64, b: u64) -> u64 {
    let (mut n, mut m, mut a, mut b) = (n as u128, m as u128, a as u128, b as u128);
    let mut ans: u128 = 0;
    if n == 0 {
        return 0;
    }
    loop {
        if a >= m {
            ans += n * (n - 1) / 2 * (a / m);
            a %= m;
        }
        if b >= m {
            ans += n * (b / m);
            b %= m;
        }
        let y_max = a * n + b;
        if y_max < m {
            break;
        }
        n = y_max / m;
        b = y_max % m;
        std::mem::swap(&mut m, &mut a);
    }
    ans as u64
}

/// A matrix slice: rows `first..` of a row-major matrix `cols` wide.
#[derive(Clone, Copy)]
struct Mat<'a> {
    data: &'a [f64],
    first: usize,
    cols: usize,
}

impl<'a> Mat<'a> {
    fn row(&self, r: usize) -> &'a [f64] {
        let s = (r - self.first) * self.cols;
        &self.data[s..s + self.cols]
    }
}

/// Σ a·b, in four interleaved partial sums (one long chain of dependent adds
/// is several times slower); every product here goes through this one order.
/// Plain indexed loops: the release build optimises for size and would leave
/// iterator adaptors as calls.
#[inline(always)]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut s = [0.0f64; 4];
    let mut i = 0;
    while i + 4 <= n {
        s[0] += a[i] * b[i];
        s[1] += a[i + 1] * b[i + 1];
        s[2] += a[i + 2] * b[i + 2];
        s[3] += a[i + 3] * b[i + 3];
        i += 4;
    }
    let mut t = (s[0] + s[1]) + (s[2] + s[3]);
    while i < n {
        t += a[i] * b[i];
        i += 1;
    }
    t
}

impl Flash {
    /// The schedule and the numbers, computed to the end (for tests and small
    /// runs; a page runs a [`Check`] in slices instead).
    pub fn new(p: Params) -> Self {
        let mut f = Self::schedule_only(p);
        if let Some(mut c) = Check::new(&f) {
            while !c.run(u64::MAX) {}
            f.numeric = Some(c.into_numeric());
        }
        f
    }

    /// The tile schedule and ledger only (no numbers): O(1) for any n.
    pub fn schedule_only(p: Params) -> Self {
        let p = p.normalised();
        Flash { p, tr: p.n.div_ceil(p.bq), tc: p.n.div_ceil(p.bk), numeric: None }
    }

    fn last_query(&self, i: usize) -> usize {
        ((i + 1) * self.p.bq).min(self.p.n) - 1
    }
    /// Key blocks query block `i` computes (all of them, or up to the
    /// diagonal); non-decreasing in `i`.
    pub fn cols_in_row(&self, i: usize) -> usize {
        if self.p.causal {
            (self.last_query(i) / self.p.bk + 1).min(self.tc)
        } else {
            self.tc
        }
    }
    /// First query block that key block `j` reaches; non-decreasing in `j`.
    pub fn first_row(&self, j: usize) -> usize {
        if self.p.causal {
            ((j * self.p.bk) / self.p.bq).min(self.tr - 1)
        } else {
            0
        }
    }

    /// Forward: computed tiles before query block `i` (`0 ≤ i ≤ tr`). For
    /// `i < tr − 1` block `i` computes `⌊((i+1)·bq − 1)/bk⌋ + 1` key blocks
    /// (never more than tc), the last block all tc: a floor sum.
    fn fwd_start(&self, i: usize) -> u64 {
        let (bq, bk) = (self.p.bq as u64, self.p.bk as u64);
        if !self.p.causal {
            i as u64 * self.tc as u64
        } else if i < self.tr {
            i as u64 + floor_sum(i as u64, bk, bq, bq - 1)
        } else {
            self.fwd_start(self.tr - 1) + self.tc as u64
        }
    }
    /// Backward: computed tiles before key block `j` (`0 ≤ j ≤ tc`): each key
    /// block computes query blocks `⌊j·bk/bq⌋..tr`.
    fn bwd_start(&self, j: usize) -> u64 {
        let (bq, bk) = (self.p.bq as u64, self.p.bk as u64);
        let all = j as u64 * self.tr as u64;
        if self.p.causal {
            all - floor_sum(j as u64, bq, bk, 0)
        } else {
            all
        }
    }

    pub fn tile_rows(&self) -> usize {
        self.tr
    }
    pub fn tile_cols(&self) -> usize {
        self.tc
    }
    /// Is tile `(i, j)` wholly above the diagonal (skipped)?
    pub fn skipped(&self, i: usize, j: usize) -> bool {
        self.p.causal && j * self.p.bk > self.last_query(i)
    }
    pub fn tiles_computed(&self) -> u64 {
        self.fwd_start(self.tr)
    }
    pub fn tiles_skipped(&self) -> u64 {
        self.tr as u64 * self.tc as u64 - self.tiles_computed()
    }
    pub fn steps(&self) -> u64 {
        self.tiles_computed()
    }

    /// The tile `(i, j)` computed in step `t` (1-based) of a pass.
    pub fn tile_at(&self, pass: Pass, t: u64) -> Option<(usize, usize)> {
        if t == 0 || t > self.steps() {
            return None;
        }
        let k = t - 1;
        // The last block whose first step is ≤ k (starts are non-decreasing).
        let last_start_le = |len: usize, start: &dyn Fn(usize) -> u64| {
            let (mut lo, mut hi) = (0usize, len); // start(lo) ≤ k < start(hi)
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if start(mid) <= k {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        Some(match pass {
            Pass::Fwd => {
                let i = last_start_le(self.tr, &|i| self.fwd_start(i));
                (i, (k - self.fwd_start(i)) as usize)
            }
            Pass::Bwd => {
                let j = last_start_le(self.tc, &|j| self.bwd_start(j));
                (self.first_row(j) + (k - self.bwd_start(j)) as usize, j)
            }
        })
    }

    /// The step in which tile `(i, j)` is computed (`None` if skipped).
    pub fn step_of(&self, pass: Pass, i: usize, j: usize) -> Option<u64> {
        if self.skipped(i, j) {
            return None;
        }
        Some(match pass {
            Pass::Fwd => self.fwd_start(i) + j as u64 + 1,
            Pass::Bwd => self.bwd_start(j) + (i - self.first_row(j)) as u64 + 1,
        })
    }

    fn rows(&self, i: usize) -> Range<usize> {
        i * self.p.bq..((i + 1) * self.p.bq).min(self.p.n)
    }
    fn keys(&self, j: usize) -> Range<usize> {
        j * self.p.bk..((j + 1) * self.p.bk).min(self.p.n)
    }
    /// Keys query block `i` reads (its computed key blocks).
    fn keys_of_row(&self, i: usize) -> usize {
        (self.cols_in_row(i) * self.p.bk).min(self.p.n)
    }

    /// The online softmax of query rows `rows` (inside block `i`) over key
    /// blocks `0..=j_last`, calling `each(j, state)` after each block; returns
    /// the final state. O is kept for `v.cols` columns.
    fn replay(
        &self,
        i: usize,
        rows: Range<usize>,
        j_last: Option<usize>,
        (q, k, v): (Mat, Mat, Mat),
        mut each: impl FnMut(usize, &RowState),
    ) -> RowState {
        let (d, dv) = (self.p.d, v.cols);
        let r = rows.len();
        let mut st =
            RowState { m: vec![f64::NEG_INFINITY; r], l: vec![0.0; r], rescale: vec![1.0; r], o: vec![0.0; r * dv] };
        let scale = 1.0 / (d as f64).sqrt();
        let Some(j_last) = j_last else { return st };
        let mut s: Vec<f64> = Vec::with_capacity(self.p.bk);
        let mut acc = vec![0.0; dv];
        for j in 0..=j_last {
            if self.skipped(i, j) {
                break;
            }
            let keys = self.keys(j);
            for (ri, qi) in rows.clone().enumerate() {
                let qr = q.row(qi);
                s.clear();
                s.extend(keys.clone().map(|kj| {
                    if self.p.causal && kj > qi {
                        f64::NEG_INFINITY
                    } else {
                        dot(qr, k.row(kj)) * scale
                    }
                }));
                let m_new = s.iter().cloned().fold(st.m[ri], f64::max);
                let alpha = if st.m[ri] == f64::NEG_INFINITY { 0.0 } else { (st.m[ri] - m_new).exp() };
                for x in s.iter_mut() {
                    *x = if m_new == f64::NEG_INFINITY { 0.0 } else { (*x - m_new).exp() };
                }
                st.l[ri] = alpha * st.l[ri] + s.iter().sum::<f64>();
                acc.iter_mut().for_each(|a| *a = 0.0);
                for (kj, &p) in keys.clone().zip(&s) {
                    for (a, &vx) in acc.iter_mut().zip(v.row(kj)) {
                        *a += p * vx;
                    }
                }
                for (ox, a) in st.o[ri * dv..(ri + 1) * dv].iter_mut().zip(&acc) {
                    *ox = alpha * *ox + a;
                }
                st.m[ri] = m_new;
                st.rescale[ri] = alpha;
            }
            each(j, &st);
        }
        st
    }

    /// The first `max_rows` rows of query block `i`.
    fn shown_rows(&self, i: usize, max_rows: usize) -> Range<usize> {
        let full = self.rows(i);
        full.start..full.end.min(full.start.saturating_add(max_rows))
    }

    /// Forward state of the first `max_rows` rows of query block `i` after its
    /// key blocks `0..=j_last`, from whole inputs.
    pub fn row_state(&self, inp: &Inputs, i: usize, j_last: Option<usize>, max_rows: usize) -> RowState {
        let d = self.p.d;
        let m = |data| Mat { data, first: 0, cols: d };
        self.replay(i, self.shown_rows(i, max_rows), j_last, (m(&inp.q), m(&inp.k), m(&inp.v)), |_, _| {})
    }

    /// The forward states of the first `max_rows` rows of query block `i`
    /// after each of its computed key blocks (entry `j`: after block `j`),
    /// with O's first `cols` columns. Draws only the inputs it reads (those
    /// rows of Q, the keys the block reaches, `cols` columns of V): one call
    /// costs O(rows · keys · d) whichever step is shown, and a page can keep
    /// it for every step inside the block.
    pub fn row_trace(&self, i: usize, max_rows: usize, cols: usize) -> Vec<RowState> {
        let (n, d, seed) = (self.p.n as u64, self.p.d, self.p.seed);
        let cols = cols.min(d);
        let rows = self.shown_rows(i, max_rows);
        let keys = self.keys_of_row(i);
        // Rows `rows` of matrix `m` (0 Q, 1 K, 2 V), their first `width` columns.
        let draw = |m: u64, rows: Range<usize>, width: usize| {
            let mut out = Vec::with_capacity(rows.len() * width);
            for r in rows {
                let base = m * n * d as u64 + (r * d) as u64;
                for x in 0..width as u64 {
                    out.push(input_at(seed, base + x));
                }
            }
            out
        };
        let (q, k, v) = (draw(0, rows.clone(), d), draw(1, 0..keys, d), draw(2, 0..keys, cols));
        let mut out = Vec::with_capacity(self.cols_in_row(i));
        self.replay(
            i,
            rows.clone(),
            Some(self.cols_in_row(i) - 1),
            (
                Mat { data: &q, first: rows.start, cols: d },
                Mat { data: &k, first: 0, cols: d },
                Mat { data: &v, first: 0, cols },
            ),
            |_, st| out.push(st.clone()),
        );
        out
    }

    // ---- The byte ledger (closed forms, any n). ----

    /// Keys a query block covers, summed over query blocks (for K, V reads):
    /// `Σ_i min(cols_i·bk, n)`. Only blocks computing all tc key blocks can
    /// exceed n (by tc·bk − n each); they are the last ones.
    fn keys_read(&self) -> u64 {
        let (n, bq, bk, tr, tc) = (self.p.n as u64, self.p.bq as u64, self.p.bk as u64, self.tr as u64, self.tc as u64);
        let full = if self.p.causal {
            // c(i) = tc for i < tr − 1 iff (i+1)·bq − 1 ≥ (tc − 1)·bk; and always for i = tr − 1.
            let i_min = ((tc - 1) * bk + 1).div_ceil(bq) - 1;
            tr - i_min.min(tr - 1)
        } else {
            tr
        };
        bk * self.tiles_computed() - full * (tc * bk - n)
    }

    /// Backward: query rows read per computed tile, summed over tiles:
    /// `Σ_j (n − first_row(j)·bq)`.
    fn bwd_tile_rows(&self) -> u64 {
        let (n, bq, bk, tc) = (self.p.n as u64, self.p.bq as u64, self.p.bk as u64, self.tc as u64);
        let skipped_rows = if self.p.causal { bq * floor_sum(tc, bq, bk, 0) } else { 0 };
        tc * n - skipped_rows
    }

    /// HBM bytes of one pass, flash: forward reads Q once, K and V once per
    /// query block (up to the diagonal when causal), writes O and L (fp32).
    /// Backward reads K, V and writes dK, dV once per key block; per tile reads
    /// Q_i, dO_i, L_i, D_i and reads and writes the fp32 dQ_i accumulator.
    pub fn hbm_bytes_flash(&self, pass: Pass) -> u64 {
        let (n, d, e) = (self.p.n as u64, self.p.d as u64, self.p.elem_bytes);
        match pass {
            Pass::Fwd => n * d * e + 2 * self.keys_read() * d * e + n * d * e + 4 * n,
            Pass::Bwd => 4 * n * d * e + self.bwd_tile_rows() * (2 * d * e + 2 * 4 + 2 * d * 4),
        }
    }

    /// HBM bytes of one pass, standard attention: forward writes S, reads it,
    /// writes P, reads it (n² each), besides reading Q, K, V and writing O.
    /// Backward reads the stored P, writes and reads dP and dS, reads Q, K, V,
    /// dO and writes dQ, dK, dV.
    pub fn hbm_bytes_standard(&self, pass: Pass) -> u64 {
        let (n, d, e) = (self.p.n as u64, self.p.d as u64, self.p.elem_bytes);
        match pass {
            Pass::Fwd => 4 * n * n * e + 4 * n * d * e,
            Pass::Bwd => 5 * n * n * e + 7 * n * d * e,
        }
    }

    /// One thread block's SRAM working set: Q_i, K_j, V_j tiles (dtype), the
    /// S/P tile, the O_i accumulator and m, ℓ (fp32).
    pub fn sram_bytes(&self) -> u64 {
        let (bq, bk, d, e) = (self.p.bq as u64, self.p.bk as u64, self.p.d as u64, self.p.elem_bytes);
        bq * d * e + 2 * bk * d * e + bq * bk * 4 + bq * d * 4 + 2 * bq * 4
    }
    pub fn fits_sram(&self) -> bool {
        self.sram_bytes() <= self.p.sram
    }

    /// Backward: FLOPs spent recomputing S = QKᵀ and P = e^(S − L) (2d + 1 per
    /// computed score), against the P matrix (n², dtype) not stored.
    pub fn recompute_flops(&self) -> u64 {
        self.scores() * (2 * self.p.d as u64 + 1)
    }

    /// Attention scores computed (unmasked entries of the computed tiles):
    /// every key up to the diagonal when causal (a computed block always
    /// reaches past its rows' diagonal), all n² without the mask.
    pub fn scores(&self) -> u64 {
        let n = self.p.n as u64;
        if self.p.causal {
            n * (n + 1) / 2
        } else {
            n * n
        }
    }

    /// FLOPs of a pass: forward QKᵀ and PV (4d per score); backward recomputes
    /// S (2d) and computes dV, dP, dQ, dK (8d).
    pub fn flops(&self, pass: Pass) -> u64 {
        let d = self.p.d as u64;
        self.scores() * if pass == Pass::Fwd { 4 * d } else { 10 * d }
    }

    /// FLOPs standard attention spends on the same pass (no recomputation).
    pub fn flops_standard(&self, pass: Pass) -> u64 {
        let d = self.p.d as u64;
        self.scores() * if pass == Pass::Fwd { 4 * d } else { 8 * d }
    }
    pub fn bytes_not_stored(&self) -> u64 {
        self.p.n as u64 * self.p.n as u64 * self.p.elem_bytes
    }

    /// The key figures; the two checks only when the numbers are here (a page
    /// running a [`Check`] puts them in itself, as they arrive).
    pub fn metrics(&self, pass: Pass, step: u64) -> Vec<Metric> {
        let mut m = vec![
            Metric::count("step", step.min(self.steps())),
            Metric::count("tiles-computed", self.tiles_computed()),
            Metric::count("tiles-skipped", self.tiles_skipped()),
        ];
        if let Some(num) = &self.numeric {
            m.push(Metric::real("max-abs-error", num.err));
            m.push(Metric::real("grad-max-abs-error", num.grad_err));
        }
        m.extend([
            Metric::count("hbm-bytes-flash", self.hbm_bytes_flash(pass)),
            Metric::count("hbm-bytes-standard", self.hbm_bytes_standard(pass)),
            Metric::count("sram-bytes", self.sram_bytes()),
        ]);
        m
    }
}

// ---- One pass as a stepping simulation. ----

/// One pass of one configuration, step by step: step `t` (1-based) computes
/// one tile, in the pass's order (query blocks outer forward, key blocks
/// outer backward).
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
        match (self.pass, cur) {
            (Pass::Fwd, None) => Some((0, 0)),
            (Pass::Bwd, None) => Some((f.first_row(0), 0)),
            (Pass::Fwd, Some((i, j))) if j + 1 < f.cols_in_row(i) => Some((i, j + 1)),
            (Pass::Fwd, Some((i, _))) => (i + 1 < tr).then_some((i + 1, 0)),
            (Pass::Bwd, Some((i, j))) if i + 1 < tr => Some((i + 1, j)),
            (Pass::Bwd, Some((_, j))) => (j + 1 < tc).then(|| (f.first_row(j + 1), j + 1)),
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

// ---- The checks, incrementally. ----

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    /// Draw Q, K, V, dO (a row of each per unit).
    Gen,
    /// Flash forward, one query row per unit (its key blocks in order).
    FlashFwd,
    /// Naive attention, one row per unit; compares O as it goes.
    NaiveFwd,
    /// D = rowsum(dO ∘ O), one row per unit.
    Dd,
    /// Flash backward, key blocks outer, one query row of one tile per unit.
    FlashBwd,
    /// Direct gradients from the full P, one row per unit.
    DirectBwd,
    Done,
}

/// The numbers and both checks of one configuration (`n ≤ NUMERIC_MAX_N`),
/// computed a bounded unit at a time: [`Check::run`] does about as many
/// multiply-adds as it is given (at least one unit, at most about 5·n·d more),
/// so a page can spread the O(n²d) work over many short slices. The forward
/// error is known (`err`) once naive attention is done, the gradient error
/// (`grad_err`) at the end. The results are the same, bit for bit, as
/// computing everything at once in the same order.
pub struct Check {
    f: Flash,
    phase: Phase,
    /// Row cursor of the row-wise phases.
    r: usize,
    /// Backward cursor: key block, query block, query row.
    bwd: (usize, usize, usize),
    inp: Inputs,
    o: Vec<f64>,
    lse: Vec<f64>,
    p_ref: Vec<f64>,
    dd: Vec<f64>,
    grads: Grads,
    direct: Grads,
    err: f64,
    grad_err: f64,
    scratch: Vec<f64>,
    done_ops: u64,
    total_ops: u64,
}

impl Check {
    /// `None` when `n > NUMERIC_MAX_N` (the numbers are not computed there).
    pub fn new(f: &Flash) -> Option<Check> {
        let p = f.p;
        if p.n > NUMERIC_MAX_N {
            return None;
        }
        let f = Flash::schedule_only(p);
        let (n, d) = (p.n as u64, p.d as u64);
        let fwd: u64 = (0..f.tr).map(|i| f.rows(i).len() as u64 * f.keys_of_row(i) as u64).sum();
        let bwd: u64 = (0..f.tc).map(|j| f.keys(j).len() as u64 * (n - (f.first_row(j) * p.bq) as u64)).sum();
        let total_ops = 4 * n * d + 2 * d * fwd + 2 * n * n * d + n * d + 5 * d * bwd + 4 * n * n * d;
        let none = || Vec::new();
        Some(Check {
            f,
            phase: Phase::Gen,
            r: 0,
            bwd: (0, 0, 0),
            inp: Inputs { q: none(), k: none(), v: none(), d_o: none() },
            o: none(),
            lse: none(),
            p_ref: none(),
            dd: none(),
            grads: Grads { dq: none(), dk: none(), dv: none() },
            direct: Grads { dq: none(), dk: none(), dv: none() },
            err: 0.0,
            grad_err: 0.0,
            scratch: none(),
            done_ops: 0,
            total_ops,
        })
    }

    /// Do about `ops` multiply-adds of work (at least one unit); true once
    /// everything is computed.
    pub fn run(&mut self, ops: u64) -> bool {
        let mut spent = 0u64;
        while self.phase != Phase::Done && spent < ops {
            let u = self.unit().max(1);
            spent = spent.saturating_add(u);
            self.done_ops += u;
        }
        self.phase == Phase::Done
    }

    /// The nominal work of the whole check, in multiply-adds (about 13·n²·d).
    pub fn total_ops(&self) -> u64 {
        self.total_ops
    }
    pub fn done(&self) -> bool {
        self.phase == Phase::Done
    }
    /// max |O_flash − O_naive|, once the forward check is done.
    pub fn err(&self) -> Option<f64> {
        (self.phase > Phase::NaiveFwd).then_some(self.err)
    }
    /// max |grad_flash − grad_direct| over dQ, dK, dV, once done.
    pub fn grad_err(&self) -> Option<f64> {
        (self.phase == Phase::Done).then_some(self.grad_err)
    }
    /// The share of the work done, 0 to 1.
    pub fn progress(&self) -> f64 {
        if self.phase == Phase::Done {
            1.0
        } else {
            (self.done_ops as f64 / self.total_ops.max(1) as f64).min(0.99)
        }
    }

    /// The numbers (run to the end first).
    pub fn into_numeric(mut self) -> Numeric {
        while !self.run(u64::MAX) {}
        Numeric {
            inputs: self.inp,
            o: self.o,
            lse: self.lse,
            err: self.err,
            grads: self.grads,
            grad_err: self.grad_err,
        }
    }

    /// One unit of work; returns its nominal cost in multiply-adds.
    fn unit(&mut self) -> u64 {
        let f = &self.f;
        let (n, d, causal) = (f.p.n, f.p.d, f.p.causal);
        let scale = 1.0 / (d as f64).sqrt();
        let r = self.r;
        let next_row = |this: &mut Check, next: Phase| {
            this.r += 1;
            if this.r == n {
                this.r = 0;
                this.phase = next;
            }
        };
        match self.phase {
            Phase::Gen => {
                if r == 0 {
                    let z = || vec![0.0; n * d];
                    self.inp = Inputs { q: z(), k: z(), v: z(), d_o: z() };
                }
                let seed = f.p.seed;
                for (m, mat) in
                    [&mut self.inp.q, &mut self.inp.k, &mut self.inp.v, &mut self.inp.d_o].into_iter().enumerate()
                {
                    let base = (m * n * d + r * d) as u64;
                    for (x, e) in mat[r * d..(r + 1) * d].iter_mut().enumerate() {
                        *e = input_at(seed, base + x as u64);
                    }
                }
                next_row(self, Phase::FlashFwd);
                4 * d as u64
            }
            Phase::FlashFwd => {
                if r == 0 {
                    self.o = vec![0.0; n * d];
                    self.lse = vec![0.0; n];
                }
                let i = r / f.p.bq;
                let m = |data| Mat { data, first: 0, cols: d };
                let st = f.replay(
                    i,
                    r..r + 1,
                    Some(f.cols_in_row(i) - 1),
                    (m(&self.inp.q), m(&self.inp.k), m(&self.inp.v)),
                    |_, _| {},
                );
                for x in 0..d {
                    self.o[r * d + x] = st.o[x] / st.l[0];
                }
                self.lse[r] = st.m[0] + st.l[0].ln();
                let cost = 2 * d as u64 * f.keys_of_row(i) as u64;
                next_row(self, Phase::NaiveFwd);
                cost
            }
            Phase::NaiveFwd => {
                if r == 0 {
                    self.p_ref = vec![0.0; n * n];
                    self.scratch = vec![0.0; d.max(n)];
                }
                let (q, k, v) = (&self.inp.q, &self.inp.k, &self.inp.v);
                let row = &mut self.p_ref[r * n..(r + 1) * n];
                let qr = &q[r * d..(r + 1) * d];
                for (c, x) in row.iter_mut().enumerate() {
                    *x = if causal && c > r { f64::NEG_INFINITY } else { dot(qr, &k[c * d..(c + 1) * d]) * scale };
                }
                let mx = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let mut l = 0.0;
                for x in row.iter_mut() {
                    *x = (*x - mx).exp();
                    l += *x;
                }
                for x in row.iter_mut() {
                    *x /= l;
                }
                let o_ref = &mut self.scratch[..d];
                o_ref.iter_mut().for_each(|x| *x = 0.0);
                for (c, &pr) in row.iter().enumerate() {
                    if pr != 0.0 {
                        for (ox, &vx) in o_ref.iter_mut().zip(&v[c * d..(c + 1) * d]) {
                            *ox += pr * vx;
                        }
                    }
                }
                for (a, b) in self.o[r * d..(r + 1) * d].iter().zip(o_ref.iter()) {
                    self.err = self.err.max((a - b).abs());
                }
                next_row(self, Phase::Dd);
                2 * (n * d) as u64
            }
            Phase::Dd => {
                if r == 0 {
                    self.dd = vec![0.0; n];
                    let z = || vec![0.0; n * d];
                    self.grads = Grads { dq: z(), dk: z(), dv: z() };
                    self.bwd = (0, 0, 0);
                }
                self.dd[r] = dot(&self.inp.d_o[r * d..(r + 1) * d], &self.o[r * d..(r + 1) * d]);
                next_row(self, Phase::FlashBwd);
                d as u64
            }
            Phase::FlashBwd => {
                let (j, i, qi) = self.bwd;
                let keys = f.keys(j);
                let cost = 5 * (d * keys.len()) as u64;
                let (q, k, v, d_o) = (&self.inp.q, &self.inp.k, &self.inp.v, &self.inp.d_o);
                let g = &mut self.grads;
                let (qr, dor) = (&q[qi * d..(qi + 1) * d], &d_o[qi * d..(qi + 1) * d]);
                for kj in keys {
                    if causal && kj > qi {
                        break;
                    }
                    let kr = &k[kj * d..(kj + 1) * d];
                    let s = dot(qr, kr) * scale;
                    let p = (s - self.lse[qi]).exp();
                    let dp = dot(dor, &v[kj * d..(kj + 1) * d]);
                    let ds = p * (dp - self.dd[qi]);
                    axpy3(
                        (
                            &mut g.dq[qi * d..(qi + 1) * d],
                            &mut g.dk[kj * d..(kj + 1) * d],
                            &mut g.dv[kj * d..(kj + 1) * d],
                        ),
                        (ds, kr, qr, scale),
                        (p, dor),
                    );
                }
                // Next row of the tile, next query block, next key block.
                let (mut j, mut i, mut qi) = (j, i, qi + 1);
                if qi == f.rows(i).end {
                    i += 1;
                    if i == f.tr {
                        j += 1;
                        if j == f.tc {
                            self.phase = Phase::DirectBwd;
                            self.r = 0;
                            return cost;
                        }
                        i = f.first_row(j);
                    }
                    qi = f.rows(i).start;
                }
                self.bwd = (j, i, qi);
                cost
            }
            Phase::DirectBwd => {
                if r == 0 {
                    let z = || vec![0.0; n * d];
                    self.direct = Grads { dq: z(), dk: z(), dv: z() };
                }
                let (q, k, v, d_o) = (&self.inp.q, &self.inp.k, &self.inp.v, &self.inp.d_o);
                let prow = &self.p_ref[r * n..(r + 1) * n];
                let dor = &d_o[r * d..(r + 1) * d];
                let qr = &q[r * d..(r + 1) * d];
                // dP's row (only where P is not zero: a zero of P contributes nothing).
                let dp = &mut self.scratch[..n];
                for (c, x) in dp.iter_mut().enumerate() {
                    *x = if prow[c] != 0.0 { dot(dor, &v[c * d..(c + 1) * d]) } else { 0.0 };
                }
                // Softmax Jacobian: dS = P ∘ (dP − Σ_c P dP).
                let sum: f64 = prow.iter().zip(dp.iter()).map(|(p, x)| p * x).sum();
                let g = &mut self.direct;
                for c in 0..n {
                    let pr = prow[c];
                    if pr == 0.0 {
                        continue;
                    }
                    let ds = pr * (dp[c] - sum);
                    let kr = &k[c * d..(c + 1) * d];
                    axpy3(
                        (&mut g.dq[r * d..(r + 1) * d], &mut g.dk[c * d..(c + 1) * d], &mut g.dv[c * d..(c + 1) * d]),
                        (ds, kr, qr, scale),
                        (pr, dor),
                    );
                }
                next_row(self, Phase::Done);
                if self.phase == Phase::Done {
                    let (a, b) = (&self.grads, &self.direct);
                    self.grad_err = max_diff(&a.dq, &b.dq).max(max_diff(&a.dk, &b.dk)).max(max_diff(&a.dv, &b.dv));
                    self.p_ref = Vec::new();
                    self.direct = Grads { dq: Vec::new(), dk: Vec::new(), dv: Vec::new() };
                    self.scratch = Vec::new();
                }
                4 * (n * d) as u64
            }
            Phase::Done => 0,
        }
    }
}

/// The three gradient updates of one score: `dQ_q += dS·K_k·scale`, `dK_k +=
/// dS·Q_q·scale`, `dV_k += P·dO_q` (each in this order of operations).
#[inline(always)]
fn axpy3(
    (dq, dk, dv): (&mut [f64], &mut [f64], &mut [f64]),
    (ds, kr, qr, scale): (f64, &[f64], &[f64], f64),
    (p, dor): (f64, &[f64]),
) {
    let d = dq.len();
    let (dk, dv, kr, qr, dor) = (&mut dk[..d], &mut dv[..d], &kr[..d], &qr[..d], &dor[..d]);
    for x in 0..d {
        dv[x] += p * dor[x];
        dq[x] += ds * kr[x] * scale;
        dk[x] += ds * qr[x] * scale;
    }
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn params(n: usize, d: usize, bq: usize, bk: usize, causal: bool, seed: u64) -> Params {
        Params { n, d, bq, bk, causal, seed, elem_bytes: 2, sram: 228 * 1024 }
    }
    fn flash(n: usize, d: usize, bq: usize, bk: usize, causal: bool, seed: u64) -> Flash {
        Flash::new(params(n, d, bq, bk, causal, seed))
    }

    /// The schedule as the first version built it: prefix sums over blocks.
    struct Brute {
        fwd: Vec<u64>,
        bwd: Vec<u64>,
        keys_read: u64,
        bwd_rows: u64,
        scores: u64,
    }
    fn brute(f: &Flash) -> Brute {
        let (tr, tc, p) = (f.tile_rows(), f.tile_cols(), f.p);
        let last = |i: usize| ((i + 1) * p.bq).min(p.n) - 1;
        let cols = |i: usize| if p.causal { (last(i) / p.bk + 1).min(tc) } else { tc };
        let first = |j: usize| if p.causal { ((j * p.bk) / p.bq).min(tr - 1) } else { 0 };
        let rows = |i: usize| i * p.bq..((i + 1) * p.bq).min(p.n);
        let mut fwd = vec![0u64; tr + 1];
        for i in 0..tr {
            fwd[i + 1] = fwd[i] + cols(i) as u64;
        }
        let mut bwd = vec![0u64; tc + 1];
        for j in 0..tc {
            bwd[j + 1] = bwd[j] + (tr - first(j)) as u64;
        }
        let keys_read = (0..tr).map(|i| (cols(i) * p.bk).min(p.n) as u64).sum();
        let bwd_rows = (0..tc).map(|j| (first(j)..tr).map(|i| rows(i).len() as u64).sum::<u64>()).sum();
        let scores = (0..tr)
            .map(|i| {
                rows(i)
                    .map(|qi| {
                        let keys = (cols(i) * p.bk).min(p.n);
                        if p.causal {
                            (qi + 1).min(keys) as u64
                        } else {
                            keys as u64
                        }
                    })
                    .sum::<u64>()
            })
            .sum();
        Brute { fwd, bwd, keys_read, bwd_rows, scores }
    }

    /// The one-shot FlashAttention-2 backward of the first version.
    #[allow(clippy::needless_range_loop)]
    fn backward_reference(f: &Flash, num: &Numeric) -> Grads {
        let (n, d, p) = (f.p.n, f.p.d, f.p);
        let scale = 1.0 / (d as f64).sqrt();
        let inp = &num.inputs;
        let dd: Vec<f64> = (0..n).map(|r| dot(&inp.d_o[r * d..(r + 1) * d], &num.o[r * d..(r + 1) * d])).collect();
        let mut g = Grads { dq: vec![0.0; n * d], dk: vec![0.0; n * d], dv: vec![0.0; n * d] };
        for j in 0..f.tile_cols() {
            for i in f.first_row(j)..f.tile_rows() {
                for qi in i * p.bq..((i + 1) * p.bq).min(n) {
                    for kj in j * p.bk..((j + 1) * p.bk).min(n) {
                        if p.causal && kj > qi {
                            continue;
                        }
                        let row = |m: &[f64], r: usize| m[r * d..(r + 1) * d].to_vec();
                        let s = dot(&row(&inp.q, qi), &row(&inp.k, kj)) * scale;
                        let pr = (s - num.lse[qi]).exp();
                        let dp = dot(&row(&inp.d_o, qi), &row(&inp.v, kj));
                        let ds = pr * (dp - dd[qi]);
                        for x in 0..d {
                            g.dv[kj * d + x] += pr * inp.d_o[qi * d + x];
                            g.dq[qi * d + x] += ds * inp.k[kj * d + x] * scale;
                            g.dk[kj * d + x] += ds * inp.q[qi * d + x] * scale;
                        }
                    }
                }
            }
        }
        g
    }

    #[test]
    fn exact_forward_and_backward() {
        let f = flash(64, 16, 16, 16, true, 1);
        let num = f.numeric.as_ref().unwrap();
        assert!(num.err < 1e-14, "{}", num.err);
        assert!(num.grad_err < 1e-13, "{}", num.grad_err);
        // Causal: 4 × 4 tiles, the 6 above the diagonal skipped.
        assert_eq!((f.tiles_computed(), f.tiles_skipped()), (10, 6));
        assert_eq!(backward_reference(&f, num), num.grads);
    }

    #[test]
    fn inputs_can_be_drawn_anywhere_in_the_stream() {
        let (n, d, seed) = (7, 3, 42);
        let inp = Inputs::generate(n, d, seed);
        let all: Vec<f64> = [&inp.q, &inp.k, &inp.v, &inp.d_o].into_iter().flatten().cloned().collect();
        for (e, x) in all.iter().enumerate() {
            assert_eq!(input_at(seed, e as u64), *x);
        }
        let f = flash(n, d, 2, 3, true, seed);
        assert_eq!(f.numeric.as_ref().unwrap().inputs, inp);
    }

    #[test]
    fn a_few_rows_match_the_whole_block() {
        let f = flash(64, 8, 32, 16, true, 4);
        let inp = &f.numeric.as_ref().unwrap().inputs;
        let all = f.row_state(inp, 1, Some(2), usize::MAX);
        let few = f.row_state(inp, 1, Some(2), 6);
        assert_eq!(few.m, all.m[..6]);
        assert_eq!(few.l, all.l[..6]);
        assert_eq!(few.o, all.o[..6 * 8]);
    }

    #[test]
    fn the_trace_is_every_step_of_the_block() {
        for causal in [false, true] {
            let f = flash(90, 8, 24, 7, causal, 9);
            let inp = &f.numeric.as_ref().unwrap().inputs;
            for i in 0..f.tile_rows() {
                let trace = f.row_trace(i, 6, 3);
                assert_eq!(trace.len(), f.cols_in_row(i));
                for (j, st) in trace.iter().enumerate() {
                    let full = f.row_state(inp, i, Some(j), 6);
                    assert_eq!(st.m, full.m);
                    assert_eq!(st.l, full.l);
                    assert_eq!(st.rescale, full.rescale);
                    let rows = full.m.len();
                    let cut: Vec<f64> = (0..rows).flat_map(|r| full.o[r * 8..r * 8 + 3].to_vec()).collect();
                    assert_eq!(st.o, cut);
                }
                // The last state of the block is the flash output.
                let last = trace.last().unwrap();
                let num = f.numeric.as_ref().unwrap();
                let r0 = i * f.p.bq;
                assert!((last.o[0] / last.l[0] - num.o[r0 * 8]).abs() < 1e-15);
            }
        }
    }

    #[test]
    fn the_check_runs_in_bounded_slices_and_agrees_with_one_shot() {
        let f = Flash::schedule_only(params(40, 5, 7, 6, true, 3));
        let mut c = Check::new(&f).unwrap();
        let mut slices = 0;
        let mut last_progress = 0.0;
        let mut err_seen_at = None;
        while !c.run(500) {
            slices += 1;
            assert!(c.progress() >= last_progress && c.progress() < 1.0);
            last_progress = c.progress();
            if err_seen_at.is_none() && c.err().is_some() {
                err_seen_at = Some(slices);
                assert!(c.grad_err().is_none());
            }
        }
        assert!(slices > 20, "{slices}");
        assert!(err_seen_at.is_some());
        assert_eq!(c.progress(), 1.0);
        let whole = Flash::new(f.p);
        let num = whole.numeric.as_ref().unwrap();
        assert_eq!((c.err(), c.grad_err()), (Some(num.err), Some(num.grad_err)));
        assert!(Check::new(&Flash::schedule_only(params(1025, 1, 1, 1, false, 0))).is_none());
    }

    #[test]
    fn step_order_and_inverse() {
        for causal in [false, true] {
            let f = flash(100, 4, 16, 24, causal, 2);
            for pass in [Pass::Fwd, Pass::Bwd] {
                let mut seen = std::collections::HashSet::new();
                for t in 1..=f.steps() {
                    let (i, j) = f.tile_at(pass, t).unwrap();
                    assert!(!f.skipped(i, j));
                    assert_eq!(f.step_of(pass, i, j), Some(t));
                    assert!(seen.insert((i, j)));
                }
                assert_eq!(f.tile_at(pass, 0), None);
                assert_eq!(f.tile_at(pass, f.steps() + 1), None);
            }
        }
    }

    #[test]
    fn the_largest_grids_cost_nothing_to_schedule() {
        // 65536² one-element tiles: 2³² steps, with no table of any size.
        let f = Flash::schedule_only(params(65536, 64, 1, 1, false, 0));
        assert_eq!(f.steps(), 1 << 32);
        assert_eq!(f.tiles_skipped(), 0);
        assert_eq!(f.tile_at(Pass::Fwd, 1 << 32), Some((65535, 65535)));
        assert_eq!(f.tile_at(Pass::Bwd, (1 << 32) - 1), Some((65534, 65535)));
        assert_eq!(f.bytes_not_stored(), 65536 * 65536 * 2);
        let c = Flash::schedule_only(params(65536, 64, 1, 1, true, 0));
        assert_eq!(c.steps(), 65536 * 65537 / 2);
        assert_eq!(c.tiles_skipped(), 65536 * 65535 / 2);
        assert_eq!(c.tile_at(Pass::Fwd, 3), Some((1, 1)));
        assert_eq!(c.tile_at(Pass::Bwd, 65537), Some((1, 1)));
        assert_eq!(c.step_of(Pass::Bwd, 65535, 65535), Some(c.steps()));
        assert_eq!(c.hbm_bytes_flash(Pass::Bwd), 4 * 65536 * 64 * 2 + (65536 * 65537 / 2) * (2 * 64 * 2 + 8 + 8 * 64));
    }

    #[test]
    fn ledger_favours_flash_and_scales() {
        let f = flash(4096, 128, 128, 128, false, 0);
        assert!(f.numeric.is_none());
        assert!(f.hbm_bytes_flash(Pass::Fwd) < f.hbm_bytes_standard(Pass::Fwd));
        assert_eq!(f.hbm_bytes_standard(Pass::Fwd), 4 * 4096 * 4096 * 2 + 4 * 4096 * 128 * 2);
        // 128×128 tiles of bf16 at d = 128 fit in 228 KB.
        assert!(f.fits_sram());
        assert_eq!(f.bytes_not_stored(), 4096 * 4096 * 2);
        // Every score computed once without a mask; the lower triangle with one.
        assert_eq!(f.scores(), 4096 * 4096);
        assert_eq!(f.flops(Pass::Fwd), 4096 * 4096 * 4 * 128);
        let c = flash(4096, 128, 128, 128, true, 0);
        assert_eq!(c.scores(), 4096 * 4097 / 2);
    }

    #[test]
    fn a_pass_is_a_steppable_run() {
        for causal in [false, true] {
            for pass in [Pass::Fwd, Pass::Bwd] {
                // Blocks that do not divide n; one-element blocks; one block.
                for (n, bq, bk) in [(100, 16, 24), (37, 5, 3), (9, 1, 1), (12, 12, 12), (1, 1, 1)] {
                    let run = FlashRun::new(Flash::schedule_only(params(n, 4, bq, bk, causal, 2)), pass);
                    crate::sim::check_steppable_laws(&run);
                    // Walked to the end, the steps visit every computed tile once, then stop.
                    let mut st = run.state_at(0);
                    for t in 0..run.steps() {
                        st = run.step_from(&st, t);
                        let (i, j) = st.tile.unwrap();
                        assert_eq!(run.flash.step_of(pass, i, j), Some(t + 1));
                    }
                    assert_eq!(run.next_tile(st.tile), None);
                    assert_eq!(run.step_from(&st, run.steps()), st);
                }
            }
        }
        // The lecture's run, with its numbers: the checks are among the metrics at every step.
        let run = FlashRun::new(flash(64, 16, 16, 16, true, 1), Pass::Bwd);
        crate::sim::check_steppable_laws(&run);
        assert!(run.metrics(3).iter().any(|m| m.name == "grad-max-abs-error"));
        assert_eq!(run.state_at(u64::MAX), TileStep { step: 10, tile: Some((3, 3)) });
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]
        #[test]
        fn flash_equals_naive_and_direct(n in 1usize..48, d in 1usize..9, bq in 1usize..20, bk in 1usize..20,
                                         causal in any::<bool>(), seed in any::<u64>()) {
            let f = flash(n, d, bq, bk, causal, seed);
            let num = f.numeric.as_ref().unwrap();
            prop_assert!(num.err < 1e-12, "forward error {}", num.err);
            prop_assert!(num.grad_err < 1e-11, "gradient error {}", num.grad_err);
            prop_assert_eq!(&backward_reference(&f, num), &num.grads);
        }

        #[test]
        fn causal_skips_exactly_the_tiles_above_the_diagonal(n in 1usize..300, bq in 1usize..40, bk in 1usize..40) {
            let f = flash(n, 1, bq, bk, true, 0);
            let mut skipped = 0;
            for i in 0..f.tile_rows() {
                for j in 0..f.tile_cols() {
                    // Wholly above the diagonal: every key index > every query index.
                    let above = (j * f.p.bk) > ((i + 1) * f.p.bq).min(n) - 1;
                    prop_assert_eq!(f.skipped(i, j), above);
                    skipped += above as u64;
                }
            }
            prop_assert_eq!(f.tiles_skipped(), skipped);
            prop_assert_eq!(f.tiles_computed() + skipped, (f.tile_rows() * f.tile_cols()) as u64);
        }

        #[test]
        fn every_pass_obeys_the_steppable_laws(n in 1usize..200, bq in 1usize..40, bk in 1usize..40,
                                                causal in any::<bool>(), bwd in any::<bool>()) {
            let pass = if bwd { Pass::Bwd } else { Pass::Fwd };
            crate::sim::check_steppable_laws(&FlashRun::new(Flash::schedule_only(params(n, 2, bq, bk, causal, 0)), pass));
        }

        #[test]
        fn floor_sum_is_the_sum(n in 0u64..200, m in 1u64..50, a in 0u64..100, b in 0u64..100) {
            prop_assert_eq!(floor_sum(n, m, a, b), (0..n).map(|i| (a * i + b) / m).sum::<u64>());
        }

        #[test]
        fn closed_forms_equal_the_tables(n in 1usize..400, bq in 1usize..70, bk in 1usize..70, causal in any::<bool>()) {
            let f = Flash::schedule_only(params(n, 3, bq, bk, causal, 0));
            let b = brute(&f);
            for i in 0..=f.tile_rows() {
                prop_assert_eq!(f.fwd_start(i), b.fwd[i]);
            }
            for j in 0..=f.tile_cols() {
                prop_assert_eq!(f.bwd_start(j), b.bwd[j]);
            }
            prop_assert_eq!(f.keys_read(), b.keys_read);
            prop_assert_eq!(f.bwd_tile_rows(), b.bwd_rows);
            prop_assert_eq!(f.scores(), b.scores);
            for pass in [Pass::Fwd, Pass::Bwd] {
                for t in [1, f.steps() / 3 + 1, f.steps() / 2 + 1, f.steps()] {
                    let (i, j) = f.tile_at(pass, t).unwrap();
                    prop_assert_eq!(f.step_of(pass, i, j), Some(t));
                }
            }
        }
    }
}
