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
//! Tiles, skipping and the byte ledger are closed forms for any `n`; the
//! numbers themselves (and the checks against naive attention and direct
//! gradients) are computed for `n ≤ NUMERIC_MAX_N`.

use super::{Metric, SplitMix64};

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

/// Matrices are row-major `rows × d`.
#[derive(Clone, Debug, PartialEq)]
pub struct Grads {
    pub dq: Vec<f64>,
    pub dk: Vec<f64>,
    pub dv: Vec<f64>,
}

pub struct Numeric {
    pub q: Vec<f64>,
    pub k: Vec<f64>,
    pub v: Vec<f64>,
    pub d_o: Vec<f64>,
    /// Flash output and logsumexp.
    pub o: Vec<f64>,
    pub lse: Vec<f64>,
    /// max |O_flash − O_naive|.
    pub err: f64,
    pub grads: Grads,
    /// max |grad_flash − grad_direct| over dQ, dK, dV.
    pub grad_err: f64,
}

pub struct Flash {
    pub p: Params,
    tr: usize,
    tc: usize,
    /// Forward: computed tiles before query block i (prefix sums, tr + 1).
    fwd_start: Vec<u64>,
    /// Backward: computed tiles before key block j (prefix sums, tc + 1).
    bwd_start: Vec<u64>,
    pub numeric: Option<Numeric>,
}

/// The running state of one query block's rows in the forward pass.
#[derive(Clone, Debug, PartialEq)]
pub struct RowState {
    pub m: Vec<f64>,
    pub l: Vec<f64>,
    /// e^(m_old − m_new) applied in the last tile.
    pub rescale: Vec<f64>,
    /// Unnormalised O rows (bq × d).
    pub o: Vec<f64>,
}

impl Flash {
    pub fn new(p: Params) -> Self {
        Self::build(p, true)
    }

    /// The tile schedule and ledger only (no numbers): cheap for any n.
    pub fn schedule_only(p: Params) -> Self {
        Self::build(p, false)
    }

    fn build(p: Params, numeric: bool) -> Self {
        let n = p.n.clamp(1, MAX_N);
        let p = Params { n, d: p.d.clamp(1, MAX_D), bq: p.bq.clamp(1, n), bk: p.bk.clamp(1, n), ..p };
        let (tr, tc) = (n.div_ceil(p.bq), n.div_ceil(p.bk));
        let mut fwd_start = vec![0u64; tr + 1];
        for i in 0..tr {
            fwd_start[i + 1] = fwd_start[i] + Self::cols_in_row(&p, i, tc) as u64;
        }
        let mut bwd_start = vec![0u64; tc + 1];
        for j in 0..tc {
            bwd_start[j + 1] = bwd_start[j] + (tr - Self::first_row(&p, j, tr)) as u64;
        }
        let mut f = Flash { p, tr, tc, fwd_start, bwd_start, numeric: None };
        if numeric && n <= NUMERIC_MAX_N {
            f.numeric = Some(f.run_numeric());
        }
        f
    }

    fn last_query(p: &Params, i: usize) -> usize {
        ((i + 1) * p.bq).min(p.n) - 1
    }
    /// Key blocks query block `i` computes (all of them, or up to the diagonal).
    fn cols_in_row(p: &Params, i: usize, tc: usize) -> usize {
        if p.causal {
            (Self::last_query(p, i) / p.bk + 1).min(tc)
        } else {
            tc
        }
    }
    /// First query block that key block `j` reaches.
    fn first_row(p: &Params, j: usize, tr: usize) -> usize {
        if p.causal {
            ((j * p.bk) / p.bq).min(tr - 1)
        } else {
            0
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
        self.p.causal && j * self.p.bk > Self::last_query(&self.p, i)
    }
    pub fn tiles_computed(&self) -> u64 {
        self.fwd_start[self.tr]
    }
    pub fn tiles_skipped(&self) -> u64 {
        (self.tr * self.tc) as u64 - self.tiles_computed()
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
        Some(match pass {
            Pass::Fwd => {
                let i = self.fwd_start.partition_point(|&s| s <= k) - 1;
                (i, (k - self.fwd_start[i]) as usize)
            }
            Pass::Bwd => {
                let j = self.bwd_start.partition_point(|&s| s <= k) - 1;
                (Self::first_row(&self.p, j, self.tr) + (k - self.bwd_start[j]) as usize, j)
            }
        })
    }

    /// The step in which tile `(i, j)` is computed (`None` if skipped).
    pub fn step_of(&self, pass: Pass, i: usize, j: usize) -> Option<u64> {
        if self.skipped(i, j) {
            return None;
        }
        Some(match pass {
            Pass::Fwd => self.fwd_start[i] + j as u64 + 1,
            Pass::Bwd => self.bwd_start[j] + (i - Self::first_row(&self.p, j, self.tr)) as u64 + 1,
        })
    }

    fn rows(&self, i: usize) -> std::ops::Range<usize> {
        i * self.p.bq..((i + 1) * self.p.bq).min(self.p.n)
    }
    fn keys(&self, j: usize) -> std::ops::Range<usize> {
        j * self.p.bk..((j + 1) * self.p.bk).min(self.p.n)
    }

    /// Forward state of the first `max_rows` rows of query block `i` after its
    /// key blocks `0..=j_last` (the panel shows a few rows; the full run asks
    /// for all of them).
    pub fn row_state(&self, num: &Numeric, i: usize, j_last: Option<usize>, max_rows: usize) -> RowState {
        let d = self.p.d;
        let full = self.rows(i);
        let rows = full.start..full.end.min(full.start.saturating_add(max_rows));
        let r = rows.len();
        let mut st =
            RowState { m: vec![f64::NEG_INFINITY; r], l: vec![0.0; r], rescale: vec![1.0; r], o: vec![0.0; r * d] };
        let scale = 1.0 / (d as f64).sqrt();
        let Some(j_last) = j_last else { return st };
        for j in 0..=j_last {
            if self.skipped(i, j) {
                break;
            }
            let keys = self.keys(j);
            for (ri, qi) in rows.clone().enumerate() {
                let s: Vec<f64> = keys
                    .clone()
                    .map(|kj| {
                        if self.p.causal && kj > qi {
                            f64::NEG_INFINITY
                        } else {
                            (0..d).map(|x| num.q[qi * d + x] * num.k[kj * d + x]).sum::<f64>() * scale
                        }
                    })
                    .collect();
                let m_new = s.iter().cloned().fold(st.m[ri], f64::max);
                let alpha = if st.m[ri] == f64::NEG_INFINITY { 0.0 } else { (st.m[ri] - m_new).exp() };
                let pv: Vec<f64> =
                    s.iter().map(|x| if m_new == f64::NEG_INFINITY { 0.0 } else { (x - m_new).exp() }).collect();
                st.l[ri] = alpha * st.l[ri] + pv.iter().sum::<f64>();
                for x in 0..d {
                    let acc: f64 = keys.clone().zip(&pv).map(|(kj, p)| p * num.v[kj * d + x]).sum();
                    st.o[ri * d + x] = alpha * st.o[ri * d + x] + acc;
                }
                st.m[ri] = m_new;
                st.rescale[ri] = alpha;
            }
        }
        st
    }

    fn run_numeric(&self) -> Numeric {
        let (n, d) = (self.p.n, self.p.d);
        let mut rng = SplitMix64::new(self.p.seed);
        let mut gen = |len: usize| -> Vec<f64> {
            (0..len).map(|_| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0).collect()
        };
        let (q, k, v, d_o) = (gen(n * d), gen(n * d), gen(n * d), gen(n * d));
        let mut num = Numeric {
            q,
            k,
            v,
            d_o,
            o: vec![0.0; n * d],
            lse: vec![0.0; n],
            err: 0.0,
            grads: empty(n, d),
            grad_err: 0.0,
        };
        // Forward, tile by tile.
        for i in 0..self.tr {
            let last = Self::cols_in_row(&self.p, i, self.tc) - 1;
            let st = self.row_state(&num, i, Some(last), usize::MAX);
            for (ri, qi) in self.rows(i).enumerate() {
                for x in 0..d {
                    num.o[qi * d + x] = st.o[ri * d + x] / st.l[ri];
                }
                num.lse[qi] = st.m[ri] + st.l[ri].ln();
            }
        }
        let (o_ref, p_ref) = naive_forward(&num.q, &num.k, &num.v, n, d, self.p.causal);
        num.err = max_diff(&num.o, &o_ref);
        num.grads = self.backward(&num);
        let direct = direct_backward(&num.q, &num.k, &num.v, &num.d_o, &o_ref, &p_ref, n, d);
        num.grad_err = max_diff(&num.grads.dq, &direct.dq)
            .max(max_diff(&num.grads.dk, &direct.dk))
            .max(max_diff(&num.grads.dv, &direct.dv));
        num
    }

    /// FlashAttention-2 backward over the computed tiles, key blocks outer.
    pub fn backward(&self, num: &Numeric) -> Grads {
        let (n, d) = (self.p.n, self.p.d);
        let scale = 1.0 / (d as f64).sqrt();
        let dd: Vec<f64> = (0..n).map(|r| (0..d).map(|x| num.d_o[r * d + x] * num.o[r * d + x]).sum()).collect();
        let mut g = empty(n, d);
        for j in 0..self.tc {
            for i in Self::first_row(&self.p, j, self.tr)..self.tr {
                for qi in self.rows(i) {
                    for kj in self.keys(j) {
                        if self.p.causal && kj > qi {
                            continue;
                        }
                        let s: f64 = (0..d).map(|x| num.q[qi * d + x] * num.k[kj * d + x]).sum::<f64>() * scale;
                        let p = (s - num.lse[qi]).exp();
                        let dp: f64 = (0..d).map(|x| num.d_o[qi * d + x] * num.v[kj * d + x]).sum();
                        let ds = p * (dp - dd[qi]);
                        for x in 0..d {
                            g.dv[kj * d + x] += p * num.d_o[qi * d + x];
                            g.dq[qi * d + x] += ds * num.k[kj * d + x] * scale;
                            g.dk[kj * d + x] += ds * num.q[qi * d + x] * scale;
                        }
                    }
                }
            }
        }
        g
    }

    // ---- The byte ledger (closed forms, any n). ----

    /// Keys a query block covers, summed over query blocks (for K, V reads).
    fn keys_read(&self) -> u64 {
        (0..self.tr).map(|i| (Self::cols_in_row(&self.p, i, self.tc) * self.p.bk).min(self.p.n) as u64).sum()
    }

    /// HBM bytes of one pass, flash: forward reads Q once, K and V once per
    /// query block (up to the diagonal when causal), writes O and L (fp32).
    /// Backward reads K, V and writes dK, dV once per key block; per tile reads
    /// Q_i, dO_i, L_i, D_i and reads and writes the fp32 dQ_i accumulator.
    pub fn hbm_bytes_flash(&self, pass: Pass) -> u64 {
        let (n, d, e) = (self.p.n as u64, self.p.d as u64, self.p.elem_bytes);
        match pass {
            Pass::Fwd => n * d * e + 2 * self.keys_read() * d * e + n * d * e + 4 * n,
            Pass::Bwd => {
                let per_tile_rows: u64 = (0..self.tc)
                    .map(|j| {
                        (Self::first_row(&self.p, j, self.tr)..self.tr).map(|i| self.rows(i).len() as u64).sum::<u64>()
                    })
                    .sum();
                4 * n * d * e + per_tile_rows * (2 * d * e + 2 * 4 + 2 * d * 4)
            }
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

    /// Attention scores computed (unmasked entries of the computed tiles).
    pub fn scores(&self) -> u64 {
        let scores: u64 = (0..self.tr)
            .map(|i| {
                self.rows(i)
                    .map(|qi| {
                        let keys = (Self::cols_in_row(&self.p, i, self.tc) * self.p.bk).min(self.p.n);
                        if self.p.causal {
                            (qi + 1).min(keys) as u64
                        } else {
                            keys as u64
                        }
                    })
                    .sum::<u64>()
            })
            .sum();
        scores
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
        (self.p.n * self.p.n) as u64 * self.p.elem_bytes
    }

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

fn empty(n: usize, d: usize) -> Grads {
    Grads { dq: vec![0.0; n * d], dk: vec![0.0; n * d], dv: vec![0.0; n * d] }
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

/// Naive attention: S, then softmax rows, then O = PV. Returns (O, P).
pub fn naive_forward(q: &[f64], k: &[f64], v: &[f64], n: usize, d: usize, causal: bool) -> (Vec<f64>, Vec<f64>) {
    let scale = 1.0 / (d as f64).sqrt();
    let mut p = vec![0.0; n * n];
    for r in 0..n {
        let row = &mut p[r * n..(r + 1) * n];
        for c in 0..n {
            row[c] = if causal && c > r {
                f64::NEG_INFINITY
            } else {
                (0..d).map(|x| q[r * d + x] * k[c * d + x]).sum::<f64>() * scale
            };
        }
        let m = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let mut l = 0.0;
        for x in row.iter_mut() {
            *x = (*x - m).exp();
            l += *x;
        }
        for x in row.iter_mut() {
            *x /= l;
        }
    }
    let mut o = vec![0.0; n * d];
    for r in 0..n {
        for c in 0..n {
            let pr = p[r * n + c];
            if pr != 0.0 {
                for x in 0..d {
                    o[r * d + x] += pr * v[c * d + x];
                }
            }
        }
    }
    (o, p)
}

/// Gradients of O = softmax(QKᵀ/√d) V computed directly from the full P.
#[allow(clippy::too_many_arguments)]
pub fn direct_backward(
    q: &[f64],
    k: &[f64],
    v: &[f64],
    d_o: &[f64],
    _o: &[f64],
    p: &[f64],
    n: usize,
    d: usize,
) -> Grads {
    let scale = 1.0 / (d as f64).sqrt();
    let mut g = empty(n, d);
    let mut dp = vec![0.0; n * n];
    for r in 0..n {
        for c in 0..n {
            dp[r * n + c] = (0..d).map(|x| d_o[r * d + x] * v[c * d + x]).sum();
        }
    }
    for r in 0..n {
        // Softmax Jacobian: dS = P ∘ (dP − Σ_c P dP).
        let dot: f64 = (0..n).map(|c| p[r * n + c] * dp[r * n + c]).sum();
        for c in 0..n {
            let pr = p[r * n + c];
            let ds = pr * (dp[r * n + c] - dot);
            for x in 0..d {
                g.dv[c * d + x] += pr * d_o[r * d + x];
                g.dq[r * d + x] += ds * k[c * d + x] * scale;
                g.dk[c * d + x] += ds * q[r * d + x] * scale;
            }
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn flash(n: usize, d: usize, bq: usize, bk: usize, causal: bool, seed: u64) -> Flash {
        Flash::new(Params { n, d, bq, bk, causal, seed, elem_bytes: 2, sram: 228 * 1024 })
    }

    #[test]
    fn exact_forward_and_backward() {
        let f = flash(64, 16, 16, 16, true, 1);
        let num = f.numeric.as_ref().unwrap();
        assert!(num.err < 1e-14, "{}", num.err);
        assert!(num.grad_err < 1e-13, "{}", num.grad_err);
        // Causal: 4 × 4 tiles, the 6 above the diagonal skipped.
        assert_eq!((f.tiles_computed(), f.tiles_skipped()), (10, 6));
    }

    #[test]
    fn a_few_rows_match_the_whole_block() {
        let f = flash(64, 8, 32, 16, true, 4);
        let num = f.numeric.as_ref().unwrap();
        let all = f.row_state(num, 1, Some(2), usize::MAX);
        let few = f.row_state(num, 1, Some(2), 6);
        assert_eq!(few.m, all.m[..6]);
        assert_eq!(few.l, all.l[..6]);
        assert_eq!(few.o, all.o[..6 * 8]);
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]
        #[test]
        fn flash_equals_naive_and_direct(n in 1usize..48, d in 1usize..9, bq in 1usize..20, bk in 1usize..20,
                                         causal in any::<bool>(), seed in any::<u64>()) {
            let f = flash(n, d, bq, bk, causal, seed);
            let num = f.numeric.as_ref().unwrap();
            prop_assert!(num.err < 1e-12, "forward error {}", num.err);
            prop_assert!(num.grad_err < 1e-11, "gradient error {}", num.grad_err);
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
    }
}
