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
/// Elements of K that [`Flash::row_trace`] keeps between calls (2 MiB: a
/// page's largest, n = [`NUMERIC_MAX_N`] at d = [`MAX_D`]).
const KEYS_KEPT: usize = NUMERIC_MAX_N * MAX_D;
/// Which K [`Flash::row_trace`] keeps: (seed, n, d).
type KeysOf = (u64, u64, usize);

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
    /// With the causal mask, skip the tiles wholly above the diagonal
    /// (FlashAttention-2). FlashAttention-1 computes them, the mask applied
    /// inside (every score −∞, adding nothing): the same numbers, more tiles.
    pub skip_masked: bool,
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
    /// Which loop is outside in the forward pass (the backward pass always
    /// steps key blocks outer).
    order: io::Order,
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
        Flash { p, tr: p.n.div_ceil(p.bq), tc: p.n.div_ceil(p.bk), order: io::Order::QOuter, numeric: None }
    }

    /// The same schedule stepped in `order` forward: FlashAttention-1 steps
    /// key/value blocks outer (`(0, 0), (1, 0), …` down key block 0's
    /// column first), FlashAttention-2 query blocks outer. The tiles, the
    /// numbers and the ledger do not depend on it; the step order does.
    pub fn with_order(mut self, order: io::Order) -> Self {
        self.order = order;
        self
    }

    pub fn order(&self) -> io::Order {
        self.order
    }

    /// Does `pass` step key/value blocks in its outer loop? The backward
    /// pass always does; the forward pass with FlashAttention-1's order.
    pub fn kv_outer(&self, pass: Pass) -> bool {
        pass == Pass::Bwd || self.order == io::Order::KvOuter
    }

    /// Are masked tiles skipped (causal, FlashAttention-2)?
    pub fn skips(&self) -> bool {
        self.p.causal && self.p.skip_masked
    }

    fn last_query(&self, i: usize) -> usize {
        ((i + 1) * self.p.bq).min(self.p.n) - 1
    }
    /// Key blocks query block `i` computes (all of them, or up to the
    /// diagonal); non-decreasing in `i`.
    pub fn cols_in_row(&self, i: usize) -> usize {
        if self.skips() {
            (self.last_query(i) / self.p.bk + 1).min(self.tc)
        } else {
            self.tc
        }
    }
    /// First query block that key block `j` reaches; non-decreasing in `j`.
    pub fn first_row(&self, j: usize) -> usize {
        if self.skips() {
            ((j * self.p.bk) / self.p.bq).min(self.tr - 1)
        } else {
            0
        }
    }

    /// Query blocks outer (forward, FlashAttention-2's order): computed tiles
    /// before query block `i` (`0 ≤ i ≤ tr`). For
    /// `i < tr − 1` block `i` computes `⌊((i+1)·bq − 1)/bk⌋ + 1` key blocks
    /// (never more than tc), the last block all tc: a floor sum.
    fn fwd_start(&self, i: usize) -> u64 {
        let (bq, bk) = (self.p.bq as u64, self.p.bk as u64);
        if !self.skips() {
            i as u64 * self.tc as u64
        } else if i < self.tr {
            i as u64 + floor_sum(i as u64, bk, bq, bq - 1)
        } else {
            self.fwd_start(self.tr - 1) + self.tc as u64
        }
    }
    /// Key/value blocks outer (backward, and forward in FlashAttention-1's
    /// order): computed tiles before key block `j` (`0 ≤ j ≤ tc`): each key
    /// block computes query blocks `⌊j·bk/bq⌋..tr`.
    fn bwd_start(&self, j: usize) -> u64 {
        let (bq, bk) = (self.p.bq as u64, self.p.bk as u64);
        let all = j as u64 * self.tr as u64;
        if self.skips() {
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
        self.skips() && j * self.p.bk > self.last_query(i)
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
        Some(if self.kv_outer(pass) {
            let j = last_start_le(self.tc, &|j| self.bwd_start(j));
            (self.first_row(j) + (k - self.bwd_start(j)) as usize, j)
        } else {
            let i = last_start_le(self.tr, &|i| self.fwd_start(i));
            (i, (k - self.fwd_start(i)) as usize)
        })
    }

    /// The step in which tile `(i, j)` is computed (`None` if skipped).
    pub fn step_of(&self, pass: Pass, i: usize, j: usize) -> Option<u64> {
        if self.skipped(i, j) {
            return None;
        }
        Some(if self.kv_outer(pass) {
            self.bwd_start(j) + (i - self.first_row(j)) as u64 + 1
        } else {
            self.fwd_start(i) + j as u64 + 1
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
        thread_local! {
            /// K of the last (seed, n, d) traced.
            static KEYS: std::cell::RefCell<Option<(KeysOf, std::rc::Rc<Vec<f64>>)>> =
                const { std::cell::RefCell::new(None) };
        }
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
        // K whole, drawn once per (seed, n, d) and kept (up to a page's
        // sizes): a jump to another query block (a scrub) then costs the
        // block's dot products alone.
        let k = if n as usize * d <= KEYS_KEPT {
            KEYS.with(|c| {
                let mut c = c.borrow_mut();
                match &*c {
                    Some((at, k)) if *at == (seed, n, d) => k.clone(),
                    _ => {
                        let k = std::rc::Rc::new(draw(1, 0..n as usize, d));
                        *c = Some(((seed, n, d), k.clone()));
                        k
                    }
                }
            })
        } else {
            std::rc::Rc::new(draw(1, 0..keys, d))
        };
        let (q, v) = (draw(0, rows.clone(), d), draw(2, 0..keys, cols));
        let mut out = Vec::with_capacity(self.cols_in_row(i));
        self.replay(
            i,
            rows.clone(),
            Some(self.cols_in_row(i) - 1),
            (
                Mat { data: &q, first: rows.start, cols: d },
                Mat { data: &k[..], first: 0, cols: d },
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
        let full = if self.skips() {
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
        let skipped_rows = if self.skips() { bq * floor_sum(tc, bq, bk, 0) } else { 0 };
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

    /// HBM bytes of one pass, standard attention as the FlashAttention
    /// paper's Algorithms 0 and 3 (`io::Standard::Fused`): forward writes S,
    /// reads it, writes P, reads it (n² each), besides reading Q, K, V and
    /// writing O; backward reads P for dV, writes dP, reads P and dP and
    /// writes dS, reads dS twice (dQ, dK).
    pub fn hbm_bytes_standard(&self, pass: Pass) -> u64 {
        self.standard_bytes(pass, io::Standard::Fused)
    }

    /// One thread block's SRAM working set: Q_i, K_j, V_j tiles (dtype), the
    /// S/P tile, the O_i accumulator and m, ℓ (fp32).
    pub fn sram_bytes(&self) -> u64 {
        let (bq, bk, d, e) = (self.p.bq as u64, self.p.bk as u64, self.p.d as u64, self.p.elem_bytes);
        bq * d * e + 2 * bk * d * e + bq * bk * 4 + bq * d * 4 + 2 * bq * 4
    }
    /// The same working set counted as the paper's Algorithm 1 counts its
    /// SRAM size M, in elements (every value one element, scores and
    /// accumulator included): Qᵢ, Kⱼ, Vⱼ, the S tile, Oᵢ, ℓ, m.
    pub fn sram_elements_paper(&self) -> u64 {
        let (bq, bk, d) = (self.p.bq as u64, self.p.bk as u64, self.p.d as u64);
        bq * d + 2 * bk * d + bq * bk + bq * d + 2 * bq
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
            Metric::bytes("hbm-bytes-flash", self.hbm_bytes_flash(pass)),
            Metric::bytes("hbm-bytes-standard", self.hbm_bytes_standard(pass)),
            Metric::kib("sram-bytes", self.sram_bytes()),
        ]);
        m
    }
}

// ---- One pass as a stepping simulation. ----

mod run;
pub use run::{FlashRun, TileStep};

mod check;
pub use check::Check;

pub mod io;

#[cfg(test)]
mod tests;
