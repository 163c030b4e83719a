//! The matmul mystery (notes §6.6 and §7; demo 04 and demo 5 of 02): tiling
//! and its reuse, tile (block) quantization and alignment, wave quantization,
//! and a modelled throughput curve with its sawtooth.

use super::hw::Gpu;
use super::{Metric, Steppable};

/// An m × k by k × n product cut into tm × tn output tiles, on `sms` SMs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Waves {
    pub m: u64,
    pub n: u64,
    pub k: u64,
    pub tm: u64,
    pub tn: u64,
    pub sms: u64,
}

impl Waves {
    pub fn tiles_m(&self) -> u64 {
        self.m.div_ceil(self.tm)
    }
    pub fn tiles_n(&self) -> u64 {
        self.n.div_ceil(self.tn)
    }
    pub fn tiles(&self) -> u64 {
        self.tiles_m() * self.tiles_n()
    }
    pub fn waves(&self) -> u64 {
        self.tiles().div_ceil(self.sms)
    }
    /// Tiles ÷ (waves × SMs): how busy the SMs are over the run.
    pub fn sm_utilization(&self) -> f64 {
        self.tiles() as f64 / (self.waves() * self.sms) as f64
    }
    /// Useful output area ÷ padded tile area (tile quantization).
    pub fn tile_efficiency(&self) -> f64 {
        (self.m * self.n) as f64 / (self.tiles() * self.tm * self.tn) as f64
    }
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }
    /// The SM that computes tile `t` (row-major over the output) and its wave.
    pub fn placement(&self, t: u64) -> (u64, u64) {
        (t % self.sms, t / self.sms)
    }
    /// The notes' time model: every wave takes the same time, so time ∝ waves.
    pub fn time_waves(&self) -> f64 {
        self.waves() as f64
    }
    /// The same with a wave's length proportional to k (each tile's K loop).
    pub fn time_waves_k(&self) -> f64 {
        (self.waves() * self.k) as f64
    }
    /// Tiles in the last wave (all of `sms` when the tiles fill it).
    pub fn last_wave_tiles(&self) -> u64 {
        self.tiles() - (self.waves().max(1) - 1) * self.sms
    }
    /// The panel's figures, FLOPs and time relative to `reference` (the
    /// notes' 1792).
    pub fn metrics_against(&self, reference: &Waves) -> Vec<Metric> {
        vec![
            Metric::count("tiles", self.tiles()),
            Metric::count("waves", self.waves()),
            Metric::percent("sm-utilization", self.sm_utilization()),
            Metric::real("relative-flops", self.flops() / reference.flops()),
            Metric::real("relative-time", self.time_waves() / reference.time_waves()),
        ]
    }
}

/// Modelled throughput (TFLOP/s) of an m × k × n bf16 product: each wave runs
/// its tiles at the SMs' share of peak, padded tiles cost full price, and the
/// run cannot beat moving A, B and C through HBM once.
pub fn modelled_tflops(w: &Waves, g: &Gpu) -> f64 {
    let per_sm = g.bf16_tflops * 1e12 / g.sms as f64;
    let tile_flops = 2.0 * (w.tm * w.tn * w.k) as f64;
    let compute = w.waves() as f64 * tile_flops / per_sm;
    let bytes = 2.0 * (w.m * w.k + w.k * w.n + w.m * w.n) as f64;
    let memory = bytes / (g.hbm_tbps * 1e12);
    w.flops() / compute.max(memory) / 1e12
}

/// Parse a measured throughput series: lines `n,tflops`; blank lines, `#`
/// comments and a header are skipped, and so is anything unparsable.
pub fn parse_measured(text: &str) -> Vec<(f64, f64)> {
    let mut v: Vec<(f64, f64)> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (a, b) = l.split_once(',')?;
            let (n, t) = (a.trim().parse::<f64>().ok()?, b.trim().parse::<f64>().ok()?);
            (n.is_finite() && t.is_finite() && n > 0.0 && t >= 0.0).then_some((n, t))
        })
        .collect();
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    v
}

/// Tiled matmul (notes §6.6, demo 04): C = A·B with A m × k, B k × n, T × T
/// tiles through shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tiling {
    pub m: u64,
    pub n: u64,
    pub k: u64,
    pub t: u64,
    pub elem_bytes: u64,
    pub tiled: bool,
}

impl Tiling {
    /// Elements read from global memory for the whole product. Naive: every
    /// output element reads its row of A and column of B (2mnk). Tiled: each
    /// output tile loads, per phase along k, one tile of A and one of B (edge
    /// tiles only what exists), so each input element is read once per tile
    /// of the other side: m·k·⌈n/T⌉ + k·n·⌈m/T⌉.
    pub fn global_reads(&self) -> u64 {
        if self.tiled {
            self.m * self.k * self.n.div_ceil(self.t) + self.k * self.n * self.m.div_ceil(self.t)
        } else {
            2 * self.m * self.n * self.k
        }
    }
    pub fn global_bytes(&self) -> u64 {
        self.global_reads() * self.elem_bytes
    }
    pub fn flops(&self) -> u64 {
        2 * self.m * self.n * self.k
    }
    /// FLOPs per byte read from global memory.
    pub fn intensity(&self) -> f64 {
        self.flops() as f64 / self.global_bytes() as f64
    }
    /// Shared memory for one A tile and one B tile.
    pub fn smem_bytes(&self) -> u64 {
        if self.tiled {
            2 * self.t * self.t * self.elem_bytes
        } else {
            0
        }
    }
    /// Phases (tile pairs loaded) for one output tile.
    pub fn phases(&self) -> u64 {
        self.k.div_ceil(self.t)
    }
    /// Steps of a run: tiled, one per phase (a pair of tiles); naive, one per k.
    pub fn steps(&self) -> u64 {
        if self.tiled {
            self.phases()
        } else {
            self.k
        }
    }
    /// Output tiles down (over m) and across (over n).
    pub fn tile_grid(&self) -> (u64, u64) {
        (self.m.div_ceil(self.t), self.n.div_ceil(self.t))
    }
    /// Rows and columns of output tile (ti, tj) inside the product (edge
    /// tiles are cut by m and n; a tile outside the grid has none).
    pub fn tile_extent(&self, ti: u64, tj: u64) -> (u64, u64) {
        let rows = (self.m - (ti * self.t).min(self.m)).min(self.t);
        let cols = (self.n - (tj * self.t).min(self.n)).min(self.t);
        (rows, cols)
    }
    /// The k indices step `s` (1-based) brings in: tiled, the `s`-th tile
    /// along k; naive, the single index `s − 1`.
    pub fn step_k(&self, s: u64) -> KSpan {
        let s = s.clamp(1, self.steps().max(1));
        let kt = if self.tiled { self.t } else { 1 };
        KSpan { start: ((s - 1) * kt).min(self.k), end: (s * kt).min(self.k) }
    }
    /// For the output tile (ti, tj) after `s` steps: (elements loaded from
    /// global, multiply-adds done). Tiled: per phase, its rows of the A tile
    /// and columns of the B tile; naive: each output element reads one
    /// element of A and one of B per k.
    pub fn tile_progress(&self, ti: u64, tj: u64, s: u64) -> (u64, u64) {
        let (rows, cols) = self.tile_extent(ti, tj);
        if self.tiled {
            let kk = (s * self.t).min(self.k);
            (rows * kk + kk * cols, rows * cols * kk)
        } else {
            let kk = s.min(self.k);
            (2 * rows * cols * kk, rows * cols * kk)
        }
    }
    /// Shared memory that two T × T tiles of this dtype need (what has to
    /// fit, whichever mode is shown).
    pub fn pair_bytes(&self) -> u64 {
        2 * self.t * self.t * self.elem_bytes
    }
    /// Whether two T × T tiles fit in `smem` bytes, and the largest T that does.
    pub fn fit(&self, smem: u64) -> SmemFit {
        let bytes = self.pair_bytes();
        SmemFit { bytes, fits: bytes <= smem, max_tile: max_tile(smem, self.elem_bytes) }
    }
    pub fn metrics(&self, smem: u64) -> Vec<Metric> {
        vec![
            Metric::count("global-reads", self.global_reads()),
            Metric::count("global-bytes", self.global_bytes()),
            Metric::real("intensity", self.intensity()),
            Metric::count("smem-bytes", self.smem_bytes()),
            Metric::count("max-tile", max_tile(smem, self.elem_bytes)),
        ]
    }
}

/// A range `start..end` of the inner dimension k.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KSpan {
    pub start: u64,
    pub end: u64,
}

impl KSpan {
    pub fn len(&self) -> u64 {
        self.end - self.start
    }
    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }
}

/// Two T × T tiles against the shared memory budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmemFit {
    /// Bytes the two tiles need.
    pub bytes: u64,
    pub fits: bool,
    /// The largest T whose two tiles fit.
    pub max_tile: u64,
}

/// The tiled (or naive) product as the panel plays it: one output tile
/// (ti, tj) followed through its steps, with the shared memory budget in
/// bytes (for the fit metric).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileRun {
    pub tiling: Tiling,
    pub ti: u64,
    pub tj: u64,
    pub smem: u64,
}

/// Where the followed output tile is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileStatus {
    /// Step 0: nothing loaded yet.
    Waiting,
    /// Some of its k range is accumulated.
    Accumulating,
    /// Every step done: the tile is final.
    Done,
}

/// The followed output tile after `step` steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileState {
    pub step: u64,
    /// The k range the latest step brought in (`None` at step 0).
    pub current: Option<KSpan>,
    /// Elements this tile has read from global memory so far.
    pub loads: u64,
    /// Multiply-adds it has done so far.
    pub macs: u64,
    pub status: TileStatus,
}

impl TileRun {
    fn status(&self, step: u64) -> TileStatus {
        if step == 0 {
            TileStatus::Waiting
        } else if step >= self.tiling.steps() {
            TileStatus::Done
        } else {
            TileStatus::Accumulating
        }
    }
}

impl Steppable for TileRun {
    type State = TileState;
    fn steps(&self) -> u64 {
        self.tiling.steps()
    }
    fn state_at(&self, t: u64) -> TileState {
        let step = t.min(self.steps());
        let (loads, macs) = self.tiling.tile_progress(self.ti, self.tj, step);
        TileState {
            step,
            current: (step > 0).then(|| self.tiling.step_k(step)),
            loads,
            macs,
            status: self.status(step),
        }
    }
    /// One step more: the next k range's loads and multiply-adds added to the
    /// tile's counters.
    fn step_from(&self, prev: &TileState, t: u64) -> TileState {
        if t >= self.steps() {
            return *prev;
        }
        let step = prev.step + 1;
        let span = self.tiling.step_k(step);
        let (rows, cols) = self.tiling.tile_extent(self.ti, self.tj);
        let loads = if self.tiling.tiled { (rows + cols) * span.len() } else { 2 * rows * cols };
        TileState {
            step,
            current: Some(span),
            loads: prev.loads + loads,
            macs: prev.macs + rows * cols * span.len(),
            status: self.status(step),
        }
    }
    fn metrics(&self, t: u64) -> Vec<Metric> {
        [vec![Metric::count("step", t.min(self.steps()))], self.tiling.metrics(self.smem)].concat()
    }
}

/// The largest T with two T × T tiles in `smem` bytes.
pub fn max_tile(smem: u64, elem_bytes: u64) -> u64 {
    let mut t = ((smem / (2 * elem_bytes)) as f64).sqrt() as u64;
    while 2 * (t + 1) * (t + 1) * elem_bytes <= smem {
        t += 1;
    }
    while t > 0 && 2 * t * t * elem_bytes > smem {
        t -= 1;
    }
    t
}

/// Tile quantization and alignment of an m × n output with T × T tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Quantization {
    pub m: u64,
    pub n: u64,
    pub t: u64,
    pub elem_bytes: u64,
    pub section: u64,
}

impl Quantization {
    pub fn tiles(&self) -> u64 {
        self.m.div_ceil(self.t) * self.n.div_ceil(self.t)
    }
    pub fn useful_fraction(&self) -> f64 {
        (self.m * self.n) as f64 / (self.tiles() * self.t * self.t) as f64
    }
    /// Is every row of the row-major matrix a whole number of sections?
    pub fn aligned(&self) -> bool {
        (self.n * self.elem_bytes) % self.section == 0
    }
    /// Transactions to load one T-wide row segment of a tile, aligned.
    pub fn transactions_aligned(&self) -> u64 {
        (self.t * self.elem_bytes).div_ceil(self.section)
    }
    /// Extra transactions per tile load when rows start off a section
    /// boundary: each of the tile's rows whose start is misaligned straddles
    /// one more section. Counted over the T rows of the first tile column.
    pub fn extra_transactions(&self) -> u64 {
        let row_bytes = self.n * self.elem_bytes;
        let seg = self.t * self.elem_bytes;
        (0..self.t.min(self.m))
            .map(|r| {
                let start = r * row_bytes;
                let sections = (start + seg).div_ceil(self.section) - start / self.section;
                sections - self.transactions_aligned()
            })
            .sum()
    }
    /// Bytes per row of the row-major output.
    pub fn row_bytes(&self) -> u64 {
        self.n * self.elem_bytes
    }
    /// The row length, in elements, padded up to whole sections (what fixes
    /// the alignment).
    pub fn padded_n(&self) -> u64 {
        let per_section = (self.section / self.elem_bytes).max(1);
        self.n.div_ceil(per_section) * per_section
    }
    pub fn metrics(&self) -> Vec<Metric> {
        vec![
            Metric::percent("useful-fraction", self.useful_fraction()),
            Metric::count("tiles", self.tiles()),
            Metric::count("aligned", self.aligned() as u64),
            Metric::count("extra-transactions", self.extra_transactions()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn a100(n: u64) -> Waves {
        Waves { m: n, n, k: n, tm: 256, tn: 128, sms: 108 }
    }

    #[test]
    fn lecture_waves() {
        // notes §7 (A100, 108 SMs, 256 × 128 tiles).
        let w = a100(1792);
        assert_eq!((w.tiles_m(), w.tiles_n(), w.tiles(), w.waves()), (7, 14, 98, 1));
        assert_eq!(format!("{:.0}", 100.0 * w.sm_utilization()), "91");
        let x = a100(1793);
        assert_eq!((x.tiles_m(), x.tiles_n(), x.tiles(), x.waves()), (8, 15, 120, 2));
        assert_eq!(format!("{:.0}", 100.0 * x.sm_utilization()), "56");
        let y = a100(2560);
        assert_eq!((y.tiles(), y.waves()), (200, 2));
        assert_eq!(format!("{:.0}", 100.0 * y.sm_utilization()), "93");
        assert_eq!(format!("{:.2}", y.flops() / w.flops()), "2.92");
        assert_eq!(y.time_waves() / w.time_waves(), 2.0);
        assert_eq!(x.time_waves() / w.time_waves(), 2.0);
    }

    #[test]
    fn lecture_waves_metrics() {
        let m = |n| a100(n).metrics_against(&a100(1792)).iter().map(|m| m.value).collect::<Vec<_>>();
        let x = m(2560);
        assert_eq!(
            (x[0], x[1], format!("{:.2}", x[2]), format!("{:.2}", x[3]), x[4]),
            (200.0, 2.0, "0.93".into(), "2.92".into(), 2.0)
        );
        assert_eq!(a100(1793).last_wave_tiles(), 12);
        assert_eq!(a100(1792).last_wave_tiles(), 98);
    }

    #[test]
    fn followed_tiles_count_their_loads() {
        // The e2e cases: n = 256, T = 64, tile (0, 0) after 2 phases; n = 100,
        // T = 32, edge tile (3, 1) (4 rows × 32 columns) after all 4 phases.
        let t = Tiling { m: 256, n: 256, k: 256, t: 64, elem_bytes: 4, tiled: true };
        let run = TileRun { tiling: t, ti: 0, tj: 0, smem: 228 * 1024 };
        let s = run.state_at(2);
        assert_eq!((s.loads, s.macs, s.status), (16_384, 524_288, TileStatus::Accumulating));
        assert_eq!(s.current, Some(KSpan { start: 64, end: 128 }));
        let edge = TileRun { tiling: Tiling { m: 100, n: 100, k: 100, t: 32, ..t }, ti: 3, tj: 1, smem: 0 };
        assert_eq!(edge.tiling.tile_extent(3, 1), (4, 32));
        let s = edge.state_at(4);
        assert_eq!((s.loads, s.macs, s.status), (4 * 100 + 100 * 32, 12_800, TileStatus::Done));
        assert_eq!(s.current, Some(KSpan { start: 96, end: 100 }), "the last phase is cut by k");
        assert_eq!(edge.state_at(0).status, TileStatus::Waiting);
        // Naive: one k per step, two reads per output element.
        let naive = TileRun { tiling: Tiling { tiled: false, ..t }, ..run };
        assert_eq!(naive.steps(), 256);
        let s = naive.state_at(3);
        assert_eq!((s.loads, s.macs, s.current), (2 * 64 * 64 * 3, 64 * 64 * 3, Some(KSpan { start: 2, end: 3 })));
        let names: Vec<&str> = run.metrics(0).iter().map(|m| m.name).collect();
        assert_eq!(names, ["step", "global-reads", "global-bytes", "intensity", "smem-bytes", "max-tile"]);
    }

    #[test]
    fn shared_memory_fit() {
        let t = |t| Tiling { m: 256, n: 256, k: 256, t, elem_bytes: 4, tiled: true };
        assert_eq!(t(64).fit(228 * 1024), SmemFit { bytes: 32_768, fits: true, max_tile: 170 });
        // T = 200 in fp32: 320,000 bytes, more than 228 KB.
        assert_eq!(t(200).fit(228 * 1024), SmemFit { bytes: 320_000, fits: false, max_tile: 170 });
        assert!(t(170).fit(228 * 1024).fits && !t(171).fit(228 * 1024).fits);
    }

    #[test]
    fn measured_series_parse() {
        let v = parse_measured("n,tflops\n# A100\n2048, 250.5\n1024,200\nbad,line\n\n4096,nan\n");
        assert_eq!(v, vec![(1024.0, 200.0), (2048.0, 250.5)]);
    }

    #[test]
    fn lecture_tiling() {
        // notes §6.6 (n = 256, fp32).
        let naive = Tiling { m: 256, n: 256, k: 256, t: 1, elem_bytes: 4, tiled: false };
        assert_eq!(naive.global_reads(), 33_554_432);
        assert_eq!(naive.intensity(), 0.25);
        for (t, reads, ai) in [(4, 8_388_608, 1.0), (16, 2_097_152, 4.0), (64, 524_288, 16.0)] {
            let x = Tiling { t, tiled: true, ..naive };
            assert_eq!((x.global_reads(), x.intensity()), (reads, ai));
        }
        assert_eq!(max_tile(228 * 1024, 4), 170); // "T at most about 170 for FP32"
        assert_eq!(max_tile(228 * 1000, 4), 168);
    }

    #[test]
    fn lecture_quantization() {
        let q = |n| Quantization { m: n, n, t: 128, elem_bytes: 4, section: 128 };
        assert_eq!(q(1024).useful_fraction(), 1.0);
        assert_eq!(format!("{:.0}", 100.0 * q(1025).useful_fraction()), "79");
        assert!(q(1024).aligned() && !q(1025).aligned());
        assert_eq!(q(1024).extra_transactions(), 0);
        assert!(q(1025).extra_transactions() > 0);
        // 1025 fp32 elements are 4100 bytes; padding to whole 128-byte sections gives 1056.
        assert_eq!((q(1025).row_bytes(), q(1025).padded_n(), q(1024).padded_n()), (4100, 1056, 1024));
    }

    proptest! {
        #[test]
        fn tiled_counts(n in 1u64..300, t in 1u64..70) {
            let x = Tiling { m: n, n, k: n, t, elem_bytes: 2, tiled: true };
            if n % t == 0 {
                prop_assert_eq!(x.global_reads(), 2 * n * n * n / t);
            }
            // Never more than naive; ceil-quantized otherwise.
            prop_assert!(x.global_reads() <= 2 * n * n * n);
            prop_assert_eq!(x.global_reads(), 2 * n * n * n.div_ceil(t));
            // Summed over output tiles, the per-tile loads give the total.
            let tiles = n.div_ceil(t);
            for x in [x, Tiling { tiled: false, ..x }] {
                let total: u64 = (0..tiles).flat_map(|i| (0..tiles).map(move |j| (i, j)))
                    .map(|(i, j)| x.tile_progress(i, j, x.steps()).0).sum();
                prop_assert_eq!(total, x.global_reads());
            }
        }

        #[test]
        fn waves_invariants(m in 1u64..5000, n in 1u64..5000, tm in prop::sample::select(vec![64u64, 128, 256]),
                            tn in prop::sample::select(vec![64u64, 128, 256]), sms in 1u64..200) {
            let w = Waves { m, n, k: 512, tm, tn, sms };
            prop_assert_eq!(w.waves(), w.tiles().div_ceil(sms));
            prop_assert!(w.sm_utilization() > 0.0 && w.sm_utilization() <= 1.0);
            prop_assert!(w.tile_efficiency() > 0.0 && w.tile_efficiency() <= 1.0);
            // Never above the peak of the SMs it has.
            let g = &crate::sim::hw::GPUS[0];
            let peak = g.bf16_tflops * sms as f64 / g.sms as f64;
            prop_assert!(modelled_tflops(&w, g) <= peak * (1.0 + 1e-9));
        }
    }
}

/// The same matmul on a TPU MXU and on a GPU (notes §9.1).
///
/// TPU: one `s × s` systolic MXU, weight-stationary: B (k × n) is cut into
/// `⌈k/s⌉ × ⌈n/s⌉` weight blocks ("passes"); each pass streams the m rows of
/// A through the array, taking `m + 2s − 2` cycles (fill and drain; the next
/// weights load behind the current pass). Only the first block's load (one
/// row a cycle) has no pass to hide behind: it comes first. Fill and drain
/// are counted over the PEs a pass uses (a last block of k or n narrower than
/// the array fills and drains faster), exactly as the systolic panel's
/// weight-stationary schedule with double-buffered loads counts them.
/// GPU: `tm × tn` output tiles over the SMs in waves; each tile's `tm·tn·k`
/// multiply-adds run at the SM's Tensor Core rate (`macs_per_sm_cycle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Compare {
    pub m: u64,
    pub k: u64,
    pub n: u64,
    pub mxu: u64,
    pub sms: u64,
    pub tm: u64,
    pub tn: u64,
    pub macs_per_sm_cycle: u64,
}

impl Compare {
    pub fn mxu_passes(&self) -> u64 {
        self.k.div_ceil(self.mxu) * self.n.div_ceil(self.mxu)
    }
    /// The first weight block's load, one row a cycle, before the first pass.
    pub fn first_load(&self) -> u64 {
        self.mxu.min(self.k)
    }
    /// A full pass: the m rows of A through the whole array, fill and drain.
    pub fn pass_cycles(&self) -> u64 {
        self.m + 2 * self.mxu - 2
    }
    /// Whether k and n are whole multiples of the array (every pass full).
    pub fn aligned(&self) -> bool {
        self.k % self.mxu == 0 && self.n % self.mxu == 0
    }
    /// The first load, then every pass (each next load behind the pass
    /// before): a pass with `r` rows and `c` columns of weights takes
    /// `m + r + c − 2` cycles; over all passes the rows sum to `k` once per
    /// column block and the columns to `n` once per row block. Aligned:
    /// `s + passes × (m + 2s − 2)`.
    pub fn mxu_cycles(&self) -> u64 {
        let (kb, nb) = (self.k.div_ceil(self.mxu), self.n.div_ceil(self.mxu));
        self.first_load() + kb * nb * self.m + nb * self.k + kb * self.n - 2 * kb * nb
    }
    /// Useful MACs ÷ (PEs × cycles): padding of k and n to the array, and
    /// fill/drain of every pass.
    pub fn mxu_utilization(&self) -> f64 {
        (self.m * self.k * self.n) as f64 / (self.mxu * self.mxu * self.mxu_cycles()) as f64
    }
    pub fn waves(&self) -> Waves {
        Waves { m: self.m, n: self.n, k: self.k, tm: self.tm, tn: self.tn, sms: self.sms }
    }
    pub fn gpu_cycles(&self) -> u64 {
        self.waves().waves() * (self.tm * self.tn * self.k).div_ceil(self.macs_per_sm_cycle)
    }
    /// Useful output ÷ (waves × SMs × tile area): tile and wave quantization.
    pub fn gpu_utilization(&self) -> f64 {
        let w = self.waves();
        (self.m * self.n) as f64 / (w.waves() * self.sms * self.tm * self.tn) as f64
    }
    pub fn metrics(&self) -> Vec<Metric> {
        vec![
            Metric::count("mxu-passes", self.mxu_passes()),
            Metric::percent("mxu-utilization", self.mxu_utilization()),
            Metric::count("gpu-waves", self.waves().waves()),
            Metric::percent("gpu-utilization", self.gpu_utilization()),
        ]
    }
}

/// The same comparison whole chip against whole chip: the TPU's passes
/// spread over all its MXUs (`⌈passes / mxus⌉` rounds of one pass each), the
/// GPU's waves over all its SMs (as [`Compare`] already counts them), each at
/// its own clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chips {
    pub c: Compare,
    /// MXUs per TPU chip.
    pub mxus: u64,
    pub tpu_ghz: f64,
    /// The GPU's Tensor Core clock.
    pub gpu_ghz: f64,
}

impl Chips {
    /// Rounds of passes when every MXU of the chip takes one pass at a time.
    pub fn tpu_rounds(&self) -> u64 {
        self.c.mxu_passes().div_ceil(self.mxus)
    }
    /// Cycles of the whole TPU chip: every MXU loads its first block at
    /// once, then the rounds of passes, each as long as a full pass (an
    /// upper bound where k or n is not a multiple of the array).
    pub fn tpu_cycles(&self) -> u64 {
        self.c.first_load() + self.tpu_rounds() * self.c.pass_cycles()
    }
    pub fn tpu_us(&self) -> f64 {
        self.tpu_cycles() as f64 / (self.tpu_ghz * 1e3)
    }
    pub fn gpu_us(&self) -> f64 {
        self.c.gpu_cycles() as f64 / (self.gpu_ghz * 1e3)
    }
    /// Achieved TFLOP/s at a time in µs: 2·m·k·n FLOPs.
    pub fn tflops(&self, us: f64) -> f64 {
        2.0 * (self.c.m * self.c.k * self.c.n) as f64 / (us * 1e6)
    }
    pub fn metrics(&self) -> Vec<Metric> {
        vec![
            Metric::count("tpu-mxus", self.mxus),
            Metric::count("tpu-chip-cycles", self.tpu_cycles()),
            Metric::real("tpu-time-us", self.tpu_us()),
            Metric::real("gpu-time-us", self.gpu_us()),
            Metric::real("tpu-tflops", self.tflops(self.tpu_us())),
            Metric::real("gpu-tflops", self.tflops(self.gpu_us())),
        ]
    }
}

#[cfg(test)]
mod compare_tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn small_dimensions_waste_the_mxu() {
        let c = Compare { m: 8, k: 128, n: 128, mxu: 128, sms: 132, tm: 128, tn: 128, macs_per_sm_cycle: 2048 };
        assert_eq!(c.mxu_passes(), 1);
        // 8 rows stream through a 128-deep array: mostly fill and drain.
        assert!(c.mxu_utilization() < 0.05);
        let big = Compare { m: 4096, k: 4096, n: 4096, ..c };
        assert!(big.mxu_utilization() > 0.9);
        assert_eq!(big.mxu_passes(), 32 * 32);
    }

    #[test]
    fn whole_chips_at_full_use_reach_their_peaks() {
        // 8192³ on a v4-like chip (8 MXUs of 128² at 1.05 GHz) and an H100-like GPU
        // (132 SMs × 1024 MAC/cycle at 1.83 GHz): both close to peak, same order.
        let c = Compare { m: 8192, k: 8192, n: 8192, mxu: 128, sms: 132, tm: 128, tn: 256, macs_per_sm_cycle: 1024 };
        let ch = Chips { c, mxus: 8, tpu_ghz: 1.05, gpu_ghz: 1.83 };
        assert_eq!(ch.tpu_rounds(), (64 * 64) / 8);
        let tpu_peak = 2.0 * 8.0 * 16384.0 * 1.05e9 / 1e12;
        assert!(ch.tflops(ch.tpu_us()) <= tpu_peak && ch.tflops(ch.tpu_us()) > 0.95 * tpu_peak);
        let gpu_peak = 2.0 * 132.0 * 1024.0 * 1.83e9 / 1e12;
        assert!(ch.tflops(ch.gpu_us()) <= gpu_peak && ch.tflops(ch.gpu_us()) > 0.9 * gpu_peak);
    }

    proptest! {
        #[test]
        fn utilizations_are_fractions(m in 1u64..5000, k in 1u64..5000, n in 1u64..5000, mxu in prop::sample::select(vec![128u64, 256])) {
            let c = Compare { m, k, n, mxu, sms: 132, tm: 128, tn: 128, macs_per_sm_cycle: 2048 };
            prop_assert!(c.mxu_utilization() > 0.0 && c.mxu_utilization() <= 1.0);
            prop_assert!(c.gpu_utilization() > 0.0 && c.gpu_utilization() <= 1.0);
            prop_assert_eq!(c.waves().waves(), c.waves().tiles().div_ceil(132));
        }
    }
}
