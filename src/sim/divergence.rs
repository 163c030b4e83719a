//! Warp divergence (notes §6.1, demo 2 of 02): `warps` warps of 32 lanes run
//!
//! ```text
//! if (cond) { then: `then` steps } else { else: `else` steps }
//! common code: `after` steps
//! ```
//!
//! A warp executes one instruction for all its lanes at a time. If its lanes
//! disagree on `cond`, it runs the `then` path with the other lanes masked off,
//! then the `else` path likewise (serialised); if they agree, only one path.
//! One scheduler issues one warp-instruction per step, warps in turn
//! (round-robin), so the run takes the sum of the warps' lengths.

use super::expr::{self, Expr};
use super::{Metric, Steppable};

pub const LANES: usize = 32;
pub const MAX_WARPS: usize = 32;
pub const MAX_STEPS: usize = 100;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    pub warps: usize,
    pub cond: String,
    pub then_steps: usize,
    pub else_steps: usize,
    pub after_steps: usize,
}

/// Which code an issued instruction belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Then,
    Else,
    After,
}

impl Part {
    pub fn code(self) -> &'static str {
        match self {
            Part::Then => "then",
            Part::Else => "else",
            Part::After => "after",
        }
    }
}

/// One issued warp-instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Issue {
    pub warp: usize,
    /// Index of this instruction within its warp's own run.
    pub slot: usize,
    pub part: Part,
    /// Bit `l` set: lane `l` is active (not masked).
    pub mask: u32,
}

pub struct Divergence {
    p: Params,
    /// Per warp: lanes whose condition is true.
    taken: Vec<u32>,
    /// The global schedule, one entry per step.
    schedule: Vec<Issue>,
    /// Per warp: its length in instructions.
    lens: Vec<usize>,
}

/// Why a condition can't be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CondError {
    Parse(expr::ParseError),
    DivByZero { tid: usize },
}

/// Check a condition over every thread of `warps` warps.
pub fn evaluate(cond: &str, warps: usize) -> Result<Vec<u32>, CondError> {
    let e: Expr = expr::parse(cond).map_err(CondError::Parse)?;
    (0..warps.clamp(1, MAX_WARPS))
        .map(|w| {
            let mut m = 0u32;
            for l in 0..LANES {
                let tid = w * LANES + l;
                let v = expr::eval(&e, tid as i64, w as i64, l as i64).map_err(|_| CondError::DivByZero { tid })?;
                if v != 0 {
                    m |= 1 << l;
                }
            }
            Ok(m)
        })
        .collect()
}

impl Divergence {
    /// `cond` must be valid (see [`evaluate`]); an invalid one takes no branch.
    pub fn new(p: Params) -> Self {
        let warps = p.warps.clamp(1, MAX_WARPS);
        let taken = evaluate(&p.cond, warps).unwrap_or_else(|_| vec![0; warps]);
        let mut programs: Vec<Vec<(Part, u32)>> = Vec::with_capacity(warps);
        for &t in &taken {
            let mut prog = Vec::new();
            if t != 0 {
                prog.extend(std::iter::repeat_n((Part::Then, t), p.then_steps));
            }
            if t != u32::MAX {
                prog.extend(std::iter::repeat_n((Part::Else, !t), p.else_steps));
            }
            prog.extend(std::iter::repeat_n((Part::After, u32::MAX), p.after_steps));
            programs.push(prog);
        }
        let lens: Vec<usize> = programs.iter().map(Vec::len).collect();
        let rounds = lens.iter().copied().max().unwrap_or(0);
        let mut schedule = Vec::with_capacity(lens.iter().sum());
        for slot in 0..rounds {
            for (warp, prog) in programs.iter().enumerate() {
                if let Some(&(part, mask)) = prog.get(slot) {
                    schedule.push(Issue { warp, slot, part, mask });
                }
            }
        }
        Divergence { p: Params { warps, ..p }, taken, schedule, lens }
    }

    pub fn params(&self) -> &Params {
        &self.p
    }
    pub fn taken(&self, warp: usize) -> u32 {
        self.taken[warp]
    }
    pub fn schedule(&self) -> &[Issue] {
        &self.schedule
    }
    pub fn warp_len(&self, warp: usize) -> usize {
        self.lens[warp]
    }
    /// Does the warp take both paths?
    pub fn divergent(&self, warp: usize) -> bool {
        let t = self.taken[warp];
        t != 0 && t != u32::MAX && self.p.then_steps + self.p.else_steps > 0
    }

    /// Steps the warp would need if its lanes could run their own paths
    /// independently: the longest single lane's path.
    pub fn ideal_len(&self, warp: usize) -> usize {
        let t = self.taken[warp];
        let then = if t != 0 { self.p.then_steps } else { 0 };
        let els = if t != u32::MAX { self.p.else_steps } else { 0 };
        then.max(els) + self.p.after_steps
    }

    /// Mean over warps of ideal ÷ actual steps (the notes' "利用率").
    pub fn warp_utilization(&self) -> f64 {
        let w = self.taken.len();
        (0..w)
            .map(|i| if self.lens[i] == 0 { 1.0 } else { self.ideal_len(i) as f64 / self.lens[i] as f64 })
            .sum::<f64>()
            / w as f64
    }

    /// Active lane-slots ÷ all lane-slots issued (Nsight Compute's warp
    /// execution efficiency).
    pub fn simt_efficiency(&self) -> f64 {
        if self.schedule.is_empty() {
            return 1.0;
        }
        let active: u64 = self.schedule.iter().map(|i| i.mask.count_ones() as u64).sum();
        active as f64 / (self.schedule.len() * LANES) as f64
    }

    /// The instruction issued in step `t` (1-based; `None` at 0).
    pub fn issue_at(&self, t: u64) -> Option<Issue> {
        (t >= 1).then(|| self.schedule.get(t as usize - 1).copied()).flatten()
    }
}

impl Steppable for Divergence {
    type State = Option<Issue>;
    fn steps(&self) -> u64 {
        self.schedule.len() as u64
    }
    fn state_at(&self, t: u64) -> Option<Issue> {
        self.issue_at(t.min(self.steps()))
    }
    fn metrics(&self, t: u64) -> Vec<Metric> {
        vec![
            Metric::count("step", t.min(self.steps())),
            Metric::count("total-steps", self.steps()),
            Metric::percent("warp-utilization", self.warp_utilization()),
            Metric::percent("simt-efficiency", self.simt_efficiency()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn run(cond: &str) -> Divergence {
        Divergence::new(Params { warps: 4, cond: cond.into(), then_steps: 10, else_steps: 10, after_steps: 0 })
    }

    #[test]
    fn lecture_table() {
        // notes §6.1: 4 warps, both branches 10 steps.
        let a = run("tid%2==0");
        assert_eq!((a.steps(), a.warp_utilization()), (80, 0.5));
        let b = run("(tid/32)%2==0");
        assert_eq!((b.steps(), b.warp_utilization()), (40, 1.0));
        let c = run("tid<100");
        assert_eq!((c.steps(), c.warp_utilization()), (50, 0.875));
        assert_eq!(format!("{:.0}", 100.0 * c.warp_utilization()), "88");
        // SIMT efficiency counts lanes, not warps: only 4 of warp 3's lanes take `then`.
        assert_eq!(c.simt_efficiency(), (3.0 * 320.0 + 320.0) / (3.0 * 320.0 + 640.0));
        assert_eq!(a.simt_efficiency(), 0.5);
    }

    #[test]
    fn divergent_warps_serialise_then_before_else() {
        let c = run("tid<100");
        let w3: Vec<&Issue> = c.schedule().iter().filter(|i| i.warp == 3).collect();
        assert_eq!(w3.len(), 20);
        assert!(w3[..10].iter().all(|i| i.part == Part::Then && i.mask == 0xF));
        assert!(w3[10..].iter().all(|i| i.part == Part::Else && i.mask == !0xF));
        assert!(c.divergent(3) && !c.divergent(0));
        // Round-robin: the first four steps are warps 0, 1, 2, 3.
        let first: Vec<usize> = c.schedule()[..4].iter().map(|i| i.warp).collect();
        assert_eq!(first, [0, 1, 2, 3]);
    }

    #[test]
    fn bad_conditions_are_reported() {
        assert!(matches!(evaluate("tid %", 1), Err(CondError::Parse(_))));
        assert_eq!(evaluate("1 / (tid - 5)", 1), Err(CondError::DivByZero { tid: 5 }));
    }

    proptest! {
        #[test]
        fn invariants(warps in 1usize..=8, m in 0i64..70, then in 0usize..20, els in 0usize..20, after in 0usize..10) {
            let d = Divergence::new(Params { warps, cond: format!("tid % {} < {}", 70, m), then_steps: then, else_steps: els, after_steps: after });
            // Total steps is the sum of per-warp lengths; each warp at least its ideal.
            prop_assert_eq!(d.steps() as usize, (0..warps).map(|w| d.warp_len(w)).sum::<usize>());
            for w in 0..warps {
                prop_assert!(d.ideal_len(w) <= d.warp_len(w));
                prop_assert!(d.warp_len(w) <= then + els + after);
            }
            let u = d.warp_utilization();
            let s = d.simt_efficiency();
            prop_assert!(u > 0.0 && u <= 1.0 && (0.0..=1.0).contains(&s));
            // Every lane is active exactly its own path's length.
            for w in 0..warps {
                for l in 0..LANES {
                    let active = d.schedule().iter().filter(|i| i.warp == w && i.mask & (1 << l) != 0).count();
                    let own = if d.taken(w) & (1 << l) != 0 { then } else { els } + after;
                    prop_assert_eq!(active, own);
                }
            }
        }
    }
}
