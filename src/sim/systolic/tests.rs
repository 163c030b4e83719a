//! Tests: the closed forms against the register-transfer simulation, cycle
//! by cycle and PE by PE, and the lecture's numbers.

use super::rtl::Rtl;
use super::*;
use proptest::prelude::*;

/// One tile of work, the array's own shape (`m = rows`, `n = cols`).
fn sim(rows: usize, cols: usize, k: usize, dataflow: Dataflow, seed: u64) -> Systolic {
    gemm(rows, cols, rows, k, cols, dataflow, seed)
}

fn gemm(rows: usize, cols: usize, m: usize, k: usize, n: usize, dataflow: Dataflow, seed: u64) -> Systolic {
    Systolic::new(Params { rows, cols, m, k, n, dataflow, seed, ..Params::default() })
}

#[test]
fn lecture_numbers() {
    // notes §9.2: 4×4, K = 6 → 12 cycles, 50 %; 8×8: K = 8 → 36 %, K = 512 → 97 %.
    let s = sim(4, 4, 6, Dataflow::Os, 1);
    assert_eq!(s.total_cycles(), 12);
    assert!((s.utilization() - 0.5).abs() < 1e-12);
    assert_eq!(s.check().1, 0);
    assert_eq!(format!("{:.0}", 100.0 * sim(8, 8, 8, Dataflow::Os, 1).utilization()), "36");
    assert_eq!(format!("{:.0}", 100.0 * sim(8, 8, 512, Dataflow::Os, 1).utilization()), "97");
    // "each value is read from memory once and used by 8 PEs in turn"
    let s8 = sim(8, 8, 8, Dataflow::Os, 1);
    assert_eq!(s8.reads_per_operand(), 1.0);
    assert_eq!(s8.uses_per_operand(), 8.0);
}

#[test]
fn phases_of_the_lecture_example() {
    let s = sim(4, 4, 6, Dataflow::Os, 1);
    let phases: Vec<_> = (0..=12).map(|c| s.phase_at(c)).collect();
    use Phase::*;
    assert_eq!(phases, [Start, Fill, Fill, Fill, Fill, Fill, Fill, Drain, Drain, Drain, Drain, Drain, Drain]);
    // k = 6 < rows + cols - 1: PE (0,0) is done in the cycle PE (3,3) starts.
    assert_eq!(s.busy_at(7), 15);
    assert_eq!(s.phase_segments(1000), vec![(1, 6, Fill), (7, 12, Drain)]);
    let long = sim(4, 4, 8, Dataflow::Os, 1);
    assert_eq!(long.phase_at(7), Steady);
    assert_eq!(long.phase_at(8), Steady);
    assert_eq!(long.busy_at(8), 16);
    assert_eq!(long.phase_at(9), Drain);
    // k = 2 on a 4×4 array: never full.
    let short = sim(4, 4, 2, Dataflow::Os, 1);
    assert!((1..=short.total_cycles()).all(|c| short.phase_at(c) != Steady));
    assert!((1..=short.total_cycles()).any(|c| short.phase_at(c) == FillDrain));
}

#[test]
fn operands_depend_only_on_seed() {
    let a = sim(5, 3, 7, Dataflow::Os, 42);
    let b = sim(5, 3, 7, Dataflow::Ws, 42);
    assert_eq!(a.ops, b.ops);
    assert_ne!(a.ops, sim(5, 3, 7, Dataflow::Os, 43).ops);
    let (oa, ob) = a.ops.as_ref().expect("small operands are stored");
    assert!(oa.iter().chain(ob).all(|&x| (0..=OPERAND_MAX).contains(&x)));
}

#[test]
fn weight_stationary_small_example() {
    // 4×4, k = 6: chunks of 4 and 2 rows: (4 + 4+4+4-2) + (2 + 4+2+4-2) = 24 cycles.
    let s = sim(4, 4, 6, Dataflow::Ws, 1);
    assert_eq!(s.total_cycles(), 24);
    assert_eq!(s.folds(), 2);
    assert_eq!(s.check().1, 0);
    assert_eq!(s.phase_at(1), Phase::LoadWeights);
    assert_eq!(s.reads_per_operand(), 1.0);
}

#[test]
fn large_shapes_are_cheap_to_scrub() {
    // The closed forms at 256×256, k = 4096: any cycle's frame without simulating.
    let s = sim(256, 256, 4096, Dataflow::Os, 3);
    assert_eq!(s.total_cycles(), 256 + 256 + 4096 - 2);
    let f = s.state_at(3000);
    assert_eq!(f.busy_pes, 256 * 256);
    assert_eq!(f.phase, Phase::Steady);
    let w = sim(256, 256, 4096, Dataflow::Ws, 3);
    assert_eq!(w.folds(), 16);
    assert!(w.state_at(w.total_cycles() / 2).cycle > 0);
}

#[test]
fn pair_counts_closed_form_matches_counting() {
    for r in 1..9 {
        for c in 1..9 {
            for s in -2..(r + c + 2) as i64 {
                let counted = (0..r as i64).map(|i| (s - i + 1).clamp(0, c as i64) as u64).sum::<u64>();
                assert_eq!(pairs_sum_at_most(r, c, s), counted, "r={r} c={c} s={s}");
            }
        }
    }
    assert_eq!(pairs_sum_at_most(256, 256, 10_000), 256 * 256);
}

#[test]
fn the_check_can_be_sliced_and_says_when_it_is_pending() {
    for df in Dataflow::ALL {
        let whole = sim(37, 23, 300, df, 9);
        let sliced = sim(37, 23, 300, df, 9);
        assert!(sliced.check_result().is_none());
        assert_eq!(sliced.check_progress(), 0.0);
        let names = |m: Vec<Metric>| m.iter().map(|x| x.name).collect::<Vec<_>>();
        assert!(!names(sliced.metrics_checked(5)).contains(&"max-abs-error"), "no number before it is computed");
        let mut slices = 0;
        let mut progress = 0.0;
        // A budget smaller than a unit of work still does one: B, then one row a call.
        while !sliced.check_step(1) {
            slices += 1;
            assert!(sliced.check_progress() > progress && sliced.check_progress() < 1.0);
            progress = sliced.check_progress();
        }
        assert_eq!(slices, 1 + 36);
        assert_eq!(sliced.check_result(), Some(whole.check()));
        assert_eq!(whole.check().1, 0);
        assert_eq!(sliced.metrics_checked(5), whole.metrics(5));
        assert_eq!(names(whole.metrics(5))[4], "max-abs-error", "in its place");
        assert_eq!(sliced.check_progress(), 1.0);
        assert_eq!(whole.check_macs(), 2 * 37 * 23 * 300);
    }
}

#[test]
fn operands_are_the_seeded_stream_stored_or_not() {
    let mut rng = SplitMix64::new(7);
    let stream: Vec<i32> = (0..50).map(|_| rng.range_i32(0, OPERAND_MAX)).collect();
    assert!((0..50).all(|n| operand(7, n as u64) == stream[n]));
    // 256 × 256 × 4096: 2 M operands, not stored, each computed when asked for.
    let big = sim(256, 256, 4096, Dataflow::Os, 7);
    assert!(big.ops.is_none());
    assert_eq!(big.a(0, 3), stream[3]);
    let mut rng = SplitMix64::new(7);
    let all: Vec<i32> = (0..256 * 4096 + 5).map(|_| rng.range_i32(0, OPERAND_MAX)).collect();
    assert_eq!(big.a(255, 4095), all[256 * 4096 - 1]);
    assert_eq!(big.b(0, 4), all[256 * 4096 + 4]);
    // Just over the limit: computed operands, and the check still agrees.
    let lazy = sim(40, 30, 4096, Dataflow::Ws, 3);
    assert!(lazy.ops.is_none());
    let (out, err) = lazy.check();
    assert_eq!(*err, 0);
    let direct: i64 = (0..4096).map(|k| lazy.a(39, k) as i64 * lazy.b(k, 29) as i64).sum();
    assert_eq!(out[39 * 30 + 29], direct);
}

#[test]
fn a_slice_of_the_largest_check_is_small() {
    // 256 × 256 × 4096 (2 × 268 M multiply-adds): a budget of one output row
    // does about that much work, never the whole check.
    let s = sim(256, 256, 4096, Dataflow::Ws, 1);
    let row = 2 * 256 * 4096;
    let mut calls = 0;
    while s.check_result().is_none() && s.check_progress() < 0.1 {
        assert!(!s.check_step(row));
        calls += 1;
    }
    // Generating B (1 M operands) takes a few calls, then one row a call.
    assert!((2..=8).contains(&calls), "{calls}");
    let p = s.check_progress();
    assert!(!s.check_step(row));
    assert!((s.check_progress() - p - 0.9 / 256.0).abs() < 1e-9);
}

/// Compare every PE of the closed form with the register-transfer simulation
/// at every cycle, and the final outputs of both.
fn compare_with_rtl(s: &Systolic) {
    let p = *s.params();
    let os = p.dataflow == Dataflow::Os;
    let mut r = Rtl::new(s);
    for c in 1..=s.total_cycles() {
        assert!(!r.finished(), "rtl finished early at {c}");
        r.tick();
        assert_eq!(r.busy(), s.busy_at(c), "busy at cycle {c}");
        for i in 0..p.rows {
            for j in 0..p.cols {
                let reg = r.pes[i * p.cols + j];
                let pe = s.pe(c, i, j);
                let (busy, progress, held) = s.pe_brief(c, i, j);
                assert_eq!(
                    (busy, progress, held),
                    (pe.busy, pe.progress, pe.b.is_some() && !os),
                    "brief ({i},{j}) at {c}"
                );
                assert_eq!(reg.busy, pe.busy, "busy ({i},{j}) at {c}");
                let val = |t: Option<(usize, Option<i32>)>| t.and_then(|x| x.1);
                if pe.busy {
                    assert_eq!(val(reg.a), pe.a, "a ({i},{j}) at {c}");
                }
                if os {
                    if pe.busy {
                        assert_eq!(val(reg.b), pe.b, "b ({i},{j}) at {c}");
                    }
                    if i < s.fold_at(c).ur && j < s.fold_at(c).uc {
                        assert_eq!(Some(reg.acc), pe.acc, "acc ({i},{j}) at {c}");
                    }
                } else {
                    assert_eq!(reg.w, pe.b, "held operand ({i},{j}) at {c}");
                    if pe.busy {
                        assert_eq!(reg.psum.map(|x| x.1), pe.acc, "psum ({i},{j}) at {c}");
                    }
                }
            }
        }
        if !os && p.conv == Conv::Warpscope {
            let f = s.fold_at(c);
            for t in 0..s.stream_len() {
                for j in 0..f.uc {
                    let o = match p.dataflow {
                        Dataflow::Is => (f.c0 + j) * p.n + t,
                        _ => t * p.n + f.c0 + j,
                    };
                    assert_eq!(r.out[o], s.output(c, t, j), "out (t {t}, col {j}) at {c}");
                }
            }
        }
    }
    assert!(r.finished(), "rtl not finished after total cycles");
    assert_eq!(&r.out, &s.check().0);
}

fn conv() -> impl Strategy<Value = Conv> {
    prop_oneof![Just(Conv::Warpscope), Just(Conv::ScaleSim)]
}

fn dataflow() -> impl Strategy<Value = Dataflow> {
    prop_oneof![Just(Dataflow::Os), Just(Dataflow::Ws), Just(Dataflow::Is)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn closed_form_matches_register_transfer(rows in 1usize..7, cols in 1usize..7, k in 1usize..15,
                                             df in dataflow(), seed in any::<u64>()) {
        let s = sim(rows, cols, k, df, seed);
        compare_with_rtl(&s);
    }

    /// Folded GEMMs, partial folds, double buffering and both conventions.
    #[test]
    fn folded_closed_form_matches_register_transfer(rows in 1usize..5, cols in 1usize..5, m in 1usize..10,
                                                    k in 1usize..10, n in 1usize..10, df in dataflow(),
                                                    dbuf in any::<bool>(), cv in conv(), seed in any::<u64>()) {
        let s = Systolic::new(Params { rows, cols, m, k, n, dataflow: df, dbuf, conv: cv, seed });
        compare_with_rtl(&s);
    }

    #[test]
    fn result_equals_direct_product(rows in 1usize..24, cols in 1usize..24, m in 1usize..60, k in 1usize..40,
                                    n in 1usize..60, df in dataflow(), seed in any::<u64>()) {
        let s = gemm(rows, cols, m, k, n, df, seed);
        prop_assert_eq!(s.check().1, 0);
        // The last fold's block is what the per-cycle view shows after the last cycle.
        let t = s.total_cycles();
        let f = s.fold_at(t);
        for i in 0..f.ur { for j in 0..f.uc {
            match df {
                Dataflow::Os => prop_assert_eq!(s.pe(t, i, j).acc.unwrap(), s.check().0[(f.r0 + i) * n + f.c0 + j]),
                Dataflow::Ws => prop_assert_eq!(s.output(t, i.min(m - 1), j), s.check().0[i.min(m - 1) * n + f.c0 + j]),
                Dataflow::Is => prop_assert_eq!(s.output(t, i.min(n - 1), j), s.check().0[(f.c0 + j) * n + i.min(n - 1)]),
            }
        }}
    }

    #[test]
    fn cycles_and_utilization_closed_forms(rows in 1usize..=256, cols in 1usize..=256, k in 1usize..=4096) {
        let os = sim(rows, cols, k, Dataflow::Os, 0);
        prop_assert_eq!(os.total_cycles(), (rows + cols + k - 2) as u64);
        let u = os.utilization();
        prop_assert!((u - k as f64 / (rows + cols + k - 2) as f64).abs() < 1e-12);
        prop_assert!(u > 0.0 && u <= 1.0);
        let ws = sim(rows, cols, k, Dataflow::Ws, 0);
        let chunks = k.div_ceil(rows);
        prop_assert_eq!(ws.total_cycles(), (2 * k + chunks * (rows + cols - 2)) as u64);
        prop_assert!(ws.utilization() > 0.0 && ws.utilization() <= 1.0);
        // Busy PE-cycles summed over the timeline = PEs × k (every MAC happens once).
        if os.total_cycles() <= 20_000 {
            let series: u64 = os.busy_series(u64::MAX).iter().sum();
            prop_assert_eq!(series, (rows * cols * k) as u64);
        }
    }

    #[test]
    fn back_then_forward_is_the_same_state(rows in 1usize..9, cols in 1usize..9, k in 1usize..12,
                                           df in dataflow(), t in 0u64..40, back in 0u64..40) {
        let s = gemm(rows, cols, rows + 2, k, cols + 3, df, 5);
        let t = t.min(s.steps());
        let back = back.min(t);
        let mut cursor = crate::sim::Cursor::new(s.steps());
        cursor.jump(t);
        for _ in 0..back { cursor.back(); }
        for _ in 0..back { cursor.step(); }
        prop_assert_eq!(cursor.pos(), t);
        prop_assert_eq!(s.state_at(cursor.pos()), s.state_at(t));
        for i in 0..rows { for j in 0..cols {
            prop_assert_eq!(s.pe(cursor.pos(), i, j), s.pe(t, i, j));
        }}
        prop_assert_eq!(s.metrics(cursor.pos()), s.metrics(t));
    }
}

/// The fold lengths summed one by one, against the schedule's closed-form
/// starts and its inverse.
fn check_schedule(s: &Systolic) {
    let sc = s.schedule();
    let mut start = 0;
    for q in 0..sc.folds() {
        let f = sc.fold(q);
        assert_eq!(sc.start(q), start, "start of fold {q}");
        let len = sc.load_len(&f) + sc.compute_len(&f);
        let cy = sc.cycles(&f);
        assert_eq!(cy.total(), len);
        for c in [start + 1, start + len] {
            assert_eq!(sc.pos(c).fold, f, "fold at cycle {c}");
        }
        start += len;
    }
    assert_eq!(start, s.total_cycles());
    // Phase counts summed over the folds equal the per-cycle phases.
    let split = sc.total_cycles_split();
    if s.total_cycles() <= 50_000 {
        let count = |ph: Phase| (1..=s.total_cycles()).filter(|&c| s.phase_at(c) == ph).count() as u64;
        assert_eq!(
            (split.load, split.fill, split.steady, split.drain, split.fill_drain),
            (
                count(Phase::LoadWeights),
                count(Phase::Fill),
                count(Phase::Steady),
                count(Phase::Drain),
                count(Phase::FillDrain)
            )
        );
        let busy: u64 = s.busy_series(u64::MAX).iter().sum();
        assert_eq!(busy, s.macs(), "every MAC happens once");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn schedule_closed_forms_equal_summing_folds(rows in 1usize..9, cols in 1usize..9, m in 1usize..80,
                                                 k in 1usize..80, n in 1usize..80, df in dataflow(),
                                                 dbuf in any::<bool>(), cv in conv()) {
        let s = Systolic::new(Params { rows, cols, m, k, n, dataflow: df, dbuf, conv: cv, seed: 1 });
        check_schedule(&s);
    }

    /// SCALE-Sim v2's compute model (scalesim-project/scale-sim-v2,
    /// `scalesim/compute/`, read at commits 0b80b279 (os), 11a84139 (ws) and
    /// 1f53104f (is); the statements are quoted, with their functions, so they
    /// can be found in any version), per fold, with R × C the array and T the
    /// stream:
    ///
    /// * OS (`systolic_compute_os.py`, `create_ifmap_demand_mat`): each fold's
    ///   demand is `T` rows of operands plus `inter_fold_gap_suffix = self.arr_col - 1`
    ///   empty rows, then `skew_matrix` adds `arr_row - 1`: `T + R + C − 2` cycles,
    ///   the same for a partial fold (`null_req_mat` pads it to the array).
    ///   `create_ofmap_demand_mat`: `cycles_this_fold = this_fold_demand.shape[0]
    ///   + this_fold_demand.shape[1] - 1` = (T − 1 + R) + C − 1, and
    ///   `compute_util_this_fold = compute_cycles_this_fold / (self.arr_row *
    ///   self.arr_col * cycles_this_fold)` with `compute_cycles_this_fold = mac_used * self.T`.
    /// * WS (`systolic_compute_ws.py`, `create_ifmap_demand_mat`):
    ///   `inter_fold_gap_prefix = self.arr_row` (the weight load) + `T` +
    ///   `inter_fold_gap_suffix = self.arr_col - 1`, skewed (+ R − 1):
    ///   `2R + C + T − 2` per fold. `create_filter_demand_mat`: R filter rows +
    ///   `inter_fold_gap_suffix = self.arr_row + self.arr_col + self.T - 2`
    ///   (the same length), but `cycles_this_fold = this_fold_demand.shape[0] +
    ///   this_fold_demand.shape[1] - 1` adds the width C − 1 again:
    ///   `2R + 2C + T − 3` in its compute utilisation.
    /// * IS (`systolic_compute_is.py`, `create_ifmap_demand_mat`): the same as
    ///   WS with the input held, `inter_fold_gap_suffix = self.arr_row +
    ///   self.arr_col + self.T - 2`.
    /// * Every file: `self.row_fold = math.ceil(self.Sr / self.arr_row)`,
    ///   `self.col_fold = math.ceil(self.Sc / self.arr_col)`;
    ///   `get_avg_mapping_efficiency` and `get_avg_compute_utilization` are
    ///   the plain means over folds (`agg / num`).
    #[test]
    fn scalesim_mode_totals_match_its_formulas(rows in 1usize..=256, cols in 1usize..=256, m in 1usize..=4096,
                                               k in 1usize..=4096, n in 1usize..=4096, df in dataflow(),
                                               dbuf in any::<bool>()) {
        let s = Systolic::new(Params { rows, cols, m, k, n, dataflow: df, dbuf, conv: Conv::ScaleSim, seed: 1 });
        let (r, c) = (rows as u64, cols as u64);
        // (Sr, Sc, T) as each file's set_params reads them off the operand matrices.
        let (sr, sc, t) = match df {
            Dataflow::Os => (m, n, k),
            Dataflow::Ws => (k, n, m),
            Dataflow::Is => (k, m, n),
        };
        let folds = (sr.div_ceil(rows) * sc.div_ceil(cols)) as u64;
        let t = t as u64;
        let (per_fold, util_cycles) = match df {
            Dataflow::Os => (t + r + c - 2, t + r + c - 2),
            _ => (2 * r + c + t - 2, 2 * r + 2 * c + t - 3),
        };
        prop_assert_eq!(s.folds() as u64, folds);
        prop_assert_eq!(s.total_cycles(), folds * per_fold);
        // Mean over folds of row_used · col_used / (R · C).
        let mut map = 0.0;
        let mut util = 0.0;
        for fc in 0..sc.div_ceil(cols) {
            for fr in 0..sr.div_ceil(rows) {
                let used = ((sr - fr * rows).min(rows) * (sc - fc * cols).min(cols)) as f64;
                map += used / (r * c) as f64;
                util += used * t as f64 / ((r * c) as f64 * util_cycles as f64);
            }
            if folds > 4096 { break; }
        }
        if folds <= 4096 {
            prop_assert!((s.mapping_efficiency() - map / folds as f64).abs() < 1e-9);
            prop_assert!((s.compute_utilization() - util / folds as f64).abs() < 1e-9);
        }
        prop_assert!((s.utilization() - (m * k * n) as f64 / ((r * c * s.total_cycles()) as f64)).abs() < 1e-12);
    }

    #[test]
    fn folded_gemm_equals_direct_product_at_scale(m in 1usize..200, k in 1usize..300, n in 1usize..200,
                                                  df in dataflow(), seed in any::<u64>()) {
        let s = gemm(16, 8, m, k, n, df, seed);
        prop_assert_eq!(s.check().1, 0);
    }
}

#[test]
fn warpscope_and_scalesim_agree_on_full_folds() {
    // Full folds cost the same in both conventions; a partial one is padded in SCALE-Sim.
    for df in Dataflow::ALL {
        let own = gemm(4, 4, 8, 8, 8, df, 1);
        let ss = Systolic::new(Params { conv: Conv::ScaleSim, ..*own.params() });
        assert_eq!(own.total_cycles(), ss.total_cycles(), "{df:?}");
        let own = gemm(4, 4, 6, 6, 6, df, 1);
        let ss = Systolic::new(Params { conv: Conv::ScaleSim, ..*own.params() });
        assert!(own.total_cycles() < ss.total_cycles(), "{df:?}");
    }
}

#[test]
fn double_buffering_hides_weight_loads() {
    // WS at 128×128, m = 512: each fold's 128-cycle load hides behind the
    // previous fold's 512 + 254 compute cycles; only the first shows.
    let p = Params { rows: 128, cols: 128, m: 512, k: 1024, n: 256, dataflow: Dataflow::Ws, ..Params::default() };
    let plain = Systolic::new(p);
    let dbuf = Systolic::new(Params { dbuf: true, ..p });
    assert_eq!(plain.folds(), 16);
    assert_eq!(plain.total_cycles(), 16 * (128 + 512 + 254));
    assert_eq!(dbuf.total_cycles(), 128 + 16 * (512 + 254));
    assert_eq!(dbuf.schedule().total_cycles_split().load, 128);
    assert!(dbuf.utilization() > plain.utilization());
    // A stream of one vector cannot hide a load of 8 rows behind 1 + 8 + 1 − 2 cycles? It can: 8 ≤ 8.
    let short = Systolic::new(Params { rows: 8, cols: 1, m: 1, k: 24, n: 1, dataflow: Dataflow::Ws, dbuf: true, ..p });
    assert_eq!(short.total_cycles(), 8 + 3 * 8);
    let shorter =
        Systolic::new(Params { rows: 8, cols: 1, m: 1, k: 20, n: 1, dataflow: Dataflow::Ws, dbuf: true, ..p });
    // Folds of 8, 8, 4 rows: the third's load hides; loads of 8 behind a 4-row fold would not.
    assert_eq!(shorter.total_cycles(), 8 + 8 + 8 + 4);
}

#[test]
fn reads_and_uses_per_operand_in_each_dataflow() {
    // 1024 × 4096 × 1024 on 256 × 256: OS reads A once per column block of C (4×)
    // and B once per row block (4×); WS reads B once and A 4×; IS the reverse.
    let (m, k, n) = (1024u64, 4096u64, 1024u64);
    let os = gemm(256, 256, 1024, 4096, 1024, Dataflow::Os, 1);
    assert_eq!(os.operand_reads(), (4 * m * k, 4 * k * n));
    assert_eq!(os.folds(), 16);
    let ws = gemm(256, 256, 1024, 4096, 1024, Dataflow::Ws, 1);
    assert_eq!(ws.operand_reads(), (4 * m * k, k * n));
    assert_eq!(ws.folds(), 64);
    let is = gemm(256, 256, 1024, 4096, 1024, Dataflow::Is, 1);
    assert_eq!(is.operand_reads(), (m * k, 4 * k * n));
    assert!((os.uses_per_operand() - 1024.0).abs() < 1e-9);
    // Scrubbing anywhere is a handful of divisions.
    for s in [&os, &ws, &is] {
        let c = s.total_cycles() / 3;
        assert!(s.state_at(c).busy_pes <= 256 * 256);
    }
}

#[test]
fn rows_longer_than_a_unit_are_checked_in_pieces() {
    // n = 600, k = 4096: a piece is 256 columns (2 M multiply-adds), so each
    // of the 3 rows takes 3 calls; the result is the whole check's.
    let whole = gemm(4, 4, 3, 4096, 600, Dataflow::Ws, 5);
    let sliced = gemm(4, 4, 3, 4096, 600, Dataflow::Ws, 5);
    while sliced.check_progress() < 0.1 {
        assert!(!sliced.check_step(1));
    }
    let mut calls = 0;
    let mut progress = sliced.check_progress();
    while !sliced.check_step(1) {
        calls += 1;
        assert!(sliced.check_progress() > progress);
        progress = sliced.check_progress();
    }
    assert_eq!(calls + 1, 3 * 3);
    assert_eq!(sliced.check_result(), Some(whole.check()));
    assert_eq!(whole.check().1, 0);
}

#[test]
fn digit_is_the_remainder_by_ten() {
    let mut rng = SplitMix64::new(3);
    let edges = [0, 9, 10, u32::MAX as u64, 1 << 32, (1 << 32) + 5, u64::MAX, u64::MAX - 1, u64::MAX - 6];
    for z in edges.into_iter().chain((0..200_000).map(|_| rng.next_u64())) {
        assert_eq!(digit(z), (z % 10) as i32, "{z}");
    }
    // Stored operands are still SplitMix64::new(seed)'s range_i32 draws.
    let s = Systolic::new(Params { rows: 4, cols: 4, m: 5, k: 7, n: 3, ..Params::default() });
    let mut rng = SplitMix64::new(s.params().seed);
    let a: Vec<i32> = (0..35).map(|_| rng.range_i32(0, OPERAND_MAX)).collect();
    let b: Vec<i32> = (0..21).map(|_| rng.range_i32(0, OPERAND_MAX)).collect();
    assert!((0..5).all(|i| (0..7).all(|kk| s.a(i, kk) == a[i * 7 + kk])));
    assert!((0..7).all(|kk| (0..3).all(|j| s.b(kk, j) == b[kk * 3 + j])));
}
