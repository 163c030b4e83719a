//! Recomputation as a run of memory accesses (notes §6.4): L stacked
//! sigmoids, forward then backward, once storing every activation and once
//! recomputing them from x in the fused backward kernel. Each access moves
//! one array of n elements between HBM and the SM; the two versions are
//! stepped side by side, pass by pass (forward steps first, then backward),
//! so that the one with fewer accesses is seen waiting.
//!
//! The counts are [`Recompute::accesses_store`] and
//! [`Recompute::accesses_recompute`]; this model lists the accesses
//! themselves, and its tests check that the lists add up to those counts.

use super::fusion::Recompute;
use super::{Metric, Steppable};

/// Forward or backward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    Forward,
    Backward,
}

/// Which way an access moves an array: a read brings it from HBM to the SM,
/// a write takes it from the SM to HBM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Read,
    Write,
}

/// The arrays of n elements the two versions move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Array {
    /// The input.
    X,
    /// The output of the i-th sigmoid, 1-based (s_L is the forward's output).
    S(u64),
    /// The upstream gradient (the loss's gradient with respect to s_L).
    Dy,
    /// The input gradient, backward's result.
    Dx,
}

impl Array {
    /// Its short name: `x`, `s3`, `dy`, `dx`.
    pub fn name(self) -> String {
        match self {
            Array::X => "x".into(),
            Array::S(i) => format!("s{i}"),
            Array::Dy => "dy".into(),
            Array::Dx => "dx".into(),
        }
    }
}

/// One memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub pass: Pass,
    pub dir: Dir,
    pub array: Array,
}

/// The two versions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// Forward writes every sigmoid's output; backward reads them back.
    Store,
    /// Forward writes only s_L; backward reads x and recomputes s1…s_L in registers.
    Recompute,
}

impl Version {
    pub const BOTH: [Version; 2] = [Version::Store, Version::Recompute];
}

/// The accesses of one version's pass, in order. Storing, forward reads x
/// and writes s1…s_L, backward reads [dy and] s_L…s1 and writes dx;
/// recomputing, forward reads x and writes s_L, backward reads [dy and] x
/// and writes dx.
pub fn pass_accesses(r: &Recompute, v: Version, pass: Pass) -> Vec<Access> {
    let l = r.depth.max(1);
    let acc = |dir, array| Access { pass, dir, array };
    let mut out = Vec::new();
    match pass {
        Pass::Forward => {
            out.push(acc(Dir::Read, Array::X));
            match v {
                Version::Store => out.extend((1..=l).map(|i| acc(Dir::Write, Array::S(i)))),
                Version::Recompute => out.push(acc(Dir::Write, Array::S(l))),
            }
        }
        Pass::Backward => {
            if r.upstream {
                out.push(acc(Dir::Read, Array::Dy));
            }
            match v {
                Version::Store => out.extend((1..=l).rev().map(|i| acc(Dir::Read, Array::S(i)))),
                Version::Recompute => out.push(acc(Dir::Read, Array::X)),
            }
            out.push(acc(Dir::Write, Array::Dx));
        }
    }
    out
}

/// Everything one version has done by a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lane {
    pub version: Version,
    /// Accesses made so far.
    pub done: u64,
    pub reads: u64,
    pub writes: u64,
    /// The access made in this step (None: waiting, or step 0).
    pub current: Option<Access>,
    /// The arrays in HBM (x, and dy when counted, are there from the start).
    pub in_hbm: Vec<Array>,
    /// Sigmoids evaluated so far by this version (forward: L; the
    /// recomputing backward evaluates them again, in registers).
    pub sigmoids: u64,
    /// Has this version finished backward?
    pub finished: bool,
}

/// The state of both versions at a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub t: u64,
    /// The pass of this step (None at step 0).
    pub pass: Option<Pass>,
    pub lanes: [Lane; 2],
}

/// The run: both versions of one [`Recompute`], stepped pass by pass.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub r: Recompute,
}

impl Run {
    pub fn new(r: Recompute) -> Self {
        Run { r: Recompute { depth: r.depth.max(1), ..r } }
    }

    /// Steps of the forward pass: the longer version's forward.
    pub fn forward_steps(&self) -> u64 {
        Version::BOTH.iter().map(|&v| pass_accesses(&self.r, v, Pass::Forward).len() as u64).max().unwrap_or(0)
    }

    /// Steps of the backward pass.
    pub fn backward_steps(&self) -> u64 {
        Version::BOTH.iter().map(|&v| pass_accesses(&self.r, v, Pass::Backward).len() as u64).max().unwrap_or(0)
    }

    /// The pass of step `t` (1-based; None for step 0).
    pub fn pass_of(&self, t: u64) -> Option<Pass> {
        match t {
            0 => None,
            t if t <= self.forward_steps() => Some(Pass::Forward),
            _ => Some(Pass::Backward),
        }
    }

    fn lane(&self, v: Version, t: u64) -> Lane {
        let fwd = pass_accesses(&self.r, v, Pass::Forward);
        let bwd = pass_accesses(&self.r, v, Pass::Backward);
        let f = self.forward_steps();
        // Accesses of each pass made by step t (one per step while the pass lasts).
        let nf = t.min(fwd.len() as u64) as usize;
        let nb = t.saturating_sub(f).min(bwd.len() as u64) as usize;
        let made: Vec<Access> = fwd[..nf].iter().chain(&bwd[..nb]).copied().collect();
        let current = match self.pass_of(t) {
            Some(Pass::Forward) => fwd.get(t as usize - 1).copied(),
            Some(Pass::Backward) => bwd.get((t - f) as usize - 1).copied(),
            None => None,
        };
        let mut in_hbm = vec![Array::X];
        if self.r.upstream {
            in_hbm.push(Array::Dy);
        }
        for a in made.iter().filter(|a| a.dir == Dir::Write) {
            if !in_hbm.contains(&a.array) {
                in_hbm.push(a.array);
            }
        }
        let l = self.r.depth;
        // Forward evaluates the L sigmoids once x is read; recomputing
        // evaluates them again once backward has read x.
        let mut sigmoids = if nf >= 1 { l } else { 0 };
        if v == Version::Recompute && made.iter().any(|a| a.pass == Pass::Backward && a.array == Array::X) {
            sigmoids += l;
        }
        Lane {
            version: v,
            done: made.len() as u64,
            reads: made.iter().filter(|a| a.dir == Dir::Read).count() as u64,
            writes: made.iter().filter(|a| a.dir == Dir::Write).count() as u64,
            current,
            in_hbm,
            sigmoids,
            finished: nb == bwd.len(),
        }
    }
}

impl Steppable for Run {
    type State = State;

    fn steps(&self) -> u64 {
        self.forward_steps() + self.backward_steps()
    }

    fn state_at(&self, t: u64) -> State {
        let t = t.min(self.steps());
        State { t, pass: self.pass_of(t), lanes: Version::BOTH.map(|v| self.lane(v, t)) }
    }

    fn metrics(&self, t: u64) -> Vec<Metric> {
        let s = self.state_at(t);
        vec![Metric::count("done-store", s.lanes[0].done), Metric::count("done-recompute", s.lanes[1].done)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn notes() -> Recompute {
        Recompute { depth: 3, n: 1 << 20, elem_bytes: 4, upstream: true }
    }

    #[test]
    fn the_lecture_runs_nine_against_five() {
        let run = Run::new(notes());
        assert_eq!((run.forward_steps(), run.backward_steps(), run.steps()), (4, 5, 9));
        let end = run.state_at(run.steps());
        assert_eq!((end.lanes[0].done, end.lanes[1].done), (9, 5));
        // Storing: forward 1 R + 3 W, backward 4 R + 1 W; recomputing: 1R + 1W, 2R + 1W.
        assert_eq!((end.lanes[0].reads, end.lanes[0].writes), (5, 4));
        assert_eq!((end.lanes[1].reads, end.lanes[1].writes), (3, 2));
        // Recomputing evaluates the 3 sigmoids twice.
        assert_eq!((end.lanes[0].sigmoids, end.lanes[1].sigmoids), (3, 6));
        assert!(end.lanes.iter().all(|l| l.finished));
        // After forward, storing keeps s1, s2, s3 in HBM; recomputing only s3.
        let fwd = run.state_at(run.forward_steps());
        assert_eq!(fwd.lanes[0].in_hbm, [Array::X, Array::Dy, Array::S(1), Array::S(2), Array::S(3)]);
        assert_eq!(fwd.lanes[1].in_hbm, [Array::X, Array::Dy, Array::S(3)]);
        // Recomputing waits in forward after its two accesses.
        assert_eq!(run.state_at(3).lanes[1].current, None);
        assert_eq!(
            run.state_at(3).lanes[0].current,
            Some(Access { pass: Pass::Forward, dir: Dir::Write, array: Array::S(2) })
        );
        // Backward starts with dy for both.
        let b1 = run.state_at(5);
        assert_eq!(b1.pass, Some(Pass::Backward));
        assert!(b1.lanes.iter().all(|l| l.current.map(|a| a.array) == Some(Array::Dy)));
        // The slides' count: 8 against 4.
        let slides = Run::new(Recompute { upstream: false, ..notes() });
        let end = slides.state_at(slides.steps());
        assert_eq!((end.lanes[0].done, end.lanes[1].done), (8, 4));
        assert_eq!(slides.metrics(slides.steps()).iter().map(|m| m.value).collect::<Vec<_>>(), [8.0, 4.0]);
    }

    #[test]
    fn names() {
        assert_eq!([Array::X, Array::S(12), Array::Dy, Array::Dx].map(Array::name), ["x", "s12", "dy", "dx"]);
    }

    proptest! {
        /// The lists add up to the ledger's counts, every step moves at
        /// most one array per version, and the laws of `Steppable` hold.
        #[test]
        fn accesses_add_up(depth in 1u64..17, up in any::<bool>(), t in 0u64..60) {
            let r = Recompute { depth, n: 1000, elem_bytes: 4, upstream: up };
            let run = Run::new(r);
            let end = run.state_at(run.steps());
            prop_assert_eq!(end.lanes[0].done, r.accesses_store());
            prop_assert_eq!(end.lanes[1].done, r.accesses_recompute());
            prop_assert_eq!(run.steps(), r.accesses_store());
            prop_assert_eq!(end.lanes[0].done - end.lanes[1].done, r.accesses_saved());
            prop_assert_eq!(end.lanes[1].sigmoids - end.lanes[0].sigmoids, r.extra_sigmoids());
            let t = t.min(run.steps().saturating_sub(1));
            let (a, b) = (run.state_at(t), run.state_at(t + 1));
            for i in 0..2 {
                prop_assert!(b.lanes[i].done - a.lanes[i].done <= 1);
                prop_assert_eq!(b.lanes[i].done - a.lanes[i].done, b.lanes[i].current.is_some() as u64);
                prop_assert_eq!(a.lanes[i].reads + a.lanes[i].writes, a.lanes[i].done);
            }
            // Recomputing never has made more accesses than storing, at any step.
            prop_assert!(a.lanes[1].done <= a.lanes[0].done);
            crate::sim::check_steppable_laws(&run);
        }
    }
}
