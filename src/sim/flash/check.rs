//! The numbers of one configuration and both checks, as an incremental job.

use super::*;

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
pub(super) fn axpy3(
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

pub(super) fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}
