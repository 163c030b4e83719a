//! A run: the plan of tasks, the meter that sizes the timed batches, and
//! the session that walks the plan and turns the timings into [`Results`].

use super::results::Results;
use super::work::{Kernel, Task, Work};

/// When a task has been measured long enough, and how many pieces go into
/// the next timed batch: batches grow until one takes about a millisecond
/// (the browser's clock is coarse) and shrink above four (a frame's slice).
#[derive(Clone, Debug, PartialEq)]
pub struct Meter {
    per_rep: u64,
    budget_ms: f64,
    batch: u64,
    /// Pieces run (the first `per_rep` are the untimed warm-up).
    pub(super) run: u64,
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
