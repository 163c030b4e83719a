//! Tests: the closed forms against the register-transfer simulation, cycle
//! by cycle and PE by PE, and the lecture's numbers.

use super::rtl::Rtl;
use super::*;
use proptest::prelude::*;

fn sim(rows: usize, cols: usize, k: usize, dataflow: Dataflow, seed: u64) -> Systolic {
    Systolic::new(Params { rows, cols, k, dataflow, seed })
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
    assert_eq!(s.phase_segments(), vec![(1, 6, Fill), (7, 12, Drain)]);
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
    assert_eq!(w.chunks(), 16);
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
/// at every cycle; return the final outputs of both.
fn compare_with_rtl(s: &Systolic) {
    let p = *s.params();
    let mut r = Rtl::new(s);
    for c in 1..=s.total_cycles() {
        assert!(!r.finished(), "rtl finished early at {c}");
        r.tick();
        assert_eq!(r.busy(), s.busy_at(c), "busy at cycle {c}");
        for i in 0..p.rows {
            for j in 0..p.cols {
                let reg = r.pes[i * p.cols + j];
                let pe = s.pe(c, i, j);
                let (busy, progress, weight) = s.pe_brief(c, i, j);
                assert_eq!(
                    (busy, progress, weight),
                    (pe.busy, pe.progress, pe.b.is_some() && p.dataflow == Dataflow::Ws)
                );
                assert_eq!(reg.busy, pe.busy, "busy ({i},{j}) at {c}");
                match p.dataflow {
                    Dataflow::Os => {
                        assert_eq!(reg.a, pe.a, "a ({i},{j}) at {c}");
                        assert_eq!(reg.b, pe.b, "b ({i},{j}) at {c}");
                        assert_eq!(Some(reg.acc), pe.acc, "acc ({i},{j}) at {c}");
                    }
                    Dataflow::Ws => {
                        assert_eq!(reg.b, pe.b, "weight ({i},{j}) at {c}");
                        if pe.busy {
                            assert_eq!(reg.a, pe.a, "a ({i},{j}) at {c}");
                            assert_eq!(reg.psum.map(|x| x.1), pe.acc, "psum ({i},{j}) at {c}");
                        }
                    }
                }
                if p.dataflow == Dataflow::Ws {
                    assert_eq!(r.out[i * p.cols + j], s.ws_output(c, i, j), "out ({i},{j}) at {c}");
                }
            }
        }
    }
    assert!(r.finished(), "rtl not finished after total cycles");
    let expect = &s.check().0;
    match p.dataflow {
        Dataflow::Os => {
            let accs: Vec<i64> = r.pes.iter().map(|x| x.acc).collect();
            assert_eq!(&accs, expect);
        }
        Dataflow::Ws => assert_eq!(&r.out, expect),
    }
}

fn dataflow() -> impl Strategy<Value = Dataflow> {
    prop_oneof![Just(Dataflow::Os), Just(Dataflow::Ws)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn closed_form_matches_register_transfer(rows in 1usize..7, cols in 1usize..7, k in 1usize..15,
                                             df in dataflow(), seed in any::<u64>()) {
        let s = sim(rows, cols, k, df, seed);
        compare_with_rtl(&s);
    }

    #[test]
    fn result_equals_direct_product(rows in 1usize..24, cols in 1usize..24, k in 1usize..40,
                                    df in dataflow(), seed in any::<u64>()) {
        let s = sim(rows, cols, k, df, seed);
        prop_assert_eq!(s.check().1, 0);
        // The output is what the per-cycle view shows after the last cycle.
        let t = s.total_cycles();
        for i in 0..rows { for j in 0..cols {
            let shown = match df {
                Dataflow::Os => s.pe(t, i, j).acc.unwrap(),
                Dataflow::Ws => s.ws_output(t, i, j),
            };
            prop_assert_eq!(shown, s.check().0[i * cols + j]);
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
        let series: u64 = os.busy_series().iter().sum();
        prop_assert_eq!(series, (rows * cols * k) as u64);
        let series_ws: u64 = ws.busy_series().iter().sum();
        prop_assert_eq!(series_ws, (rows * cols * k) as u64);
    }

    #[test]
    fn back_then_forward_is_the_same_state(rows in 1usize..9, cols in 1usize..9, k in 1usize..12,
                                           df in dataflow(), t in 0u64..40, back in 0u64..40) {
        let s = sim(rows, cols, k, df, 5);
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
