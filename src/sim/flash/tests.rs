//! Tests of the FlashAttention schedule, ledger, drawing inputs and checks.

use super::*;
use proptest::prelude::*;

fn params(n: usize, d: usize, bq: usize, bk: usize, causal: bool, seed: u64) -> Params {
    Params { n, d, bq, bk, causal, skip_masked: true, seed, elem_bytes: 2, sram: 228 * 1024 }
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

/// FlashAttention-1's order computes the masked tiles (the mask inside):
/// none skipped, every tile a step, and the same numbers to the last bit.
#[test]
fn without_skipping_every_tile_is_computed_with_the_same_numbers() {
    let skip = flash(64, 16, 16, 12, true, 1);
    let all = Flash::new(Params { skip_masked: false, ..params(64, 16, 16, 12, true, 1) });
    assert_eq!((all.tiles_computed(), all.tiles_skipped()), (4 * 6, 0));
    assert!(skip.tiles_skipped() > 0);
    assert_eq!(all.steps(), 24);
    assert!((0..4).all(|i| (0..6).all(|j| !all.skipped(i, j))));
    let (a, b) = (skip.numeric.as_ref().unwrap(), all.numeric.as_ref().unwrap());
    assert_eq!((&a.o, &a.grads), (&b.o, &b.grads));
    assert!(b.err < 1e-14 && b.grad_err < 1e-13);
    // Without the mask the flag changes nothing.
    let plain = Flash::new(Params { skip_masked: false, ..params(40, 4, 16, 12, false, 2) });
    assert_eq!(plain.tiles_computed(), flash(40, 4, 16, 12, false, 2).tiles_computed());
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

/// Issue 32: FlashAttention-1's order (`order=kv`) steps key/value blocks in
/// the outer loop forward: down key block 0's column first, then key block
/// 1's; FlashAttention-2's order along query block 0's row first.
#[test]
fn fa1_order_steps_key_value_blocks_outer_forward() {
    use io::Order;
    // The lecture's slide 49 shape: n = 256, 32 × 32 blocks, causal, FA-1
    // computes every tile (the mask inside them).
    let p = Params { skip_masked: false, ..params(256, 64, 32, 32, true, 1) };
    let fa1 = Flash::schedule_only(p).with_order(Order::KvOuter);
    let fa2 = Flash::schedule_only(p);
    assert_eq!((fa1.steps(), fa1.tile_rows()), (64, 8));
    // (query block, key block) at steps 1, 2, 8, 9: K/V outer walks i first.
    let at = |f: &Flash, t| f.tile_at(Pass::Fwd, t).unwrap();
    assert_eq!([at(&fa1, 1), at(&fa1, 2), at(&fa1, 8), at(&fa1, 9)], [(0, 0), (1, 0), (7, 0), (0, 1)]);
    assert_eq!([at(&fa2, 1), at(&fa2, 2), at(&fa2, 8), at(&fa2, 9)], [(0, 0), (0, 1), (0, 7), (1, 0)]);
    // Every step: the key block never goes back, and within one key block the
    // query block rises by one; the inverse and the O(1) next tile agree.
    for f in [&fa1, &Flash::schedule_only(params(100, 4, 16, 24, true, 2)).with_order(Order::KvOuter)] {
        assert!(f.kv_outer(Pass::Fwd) && f.kv_outer(Pass::Bwd));
        let run = FlashRun::new(Flash::schedule_only(f.p).with_order(Order::KvOuter), Pass::Fwd);
        let mut prev: Option<(usize, usize)> = None;
        for t in 1..=f.steps() {
            let (i, j) = f.tile_at(Pass::Fwd, t).unwrap();
            assert_eq!(f.step_of(Pass::Fwd, i, j), Some(t));
            assert_eq!(run.next_tile(prev), Some((i, j)));
            if let Some((pi, pj)) = prev {
                assert!(
                    j == pj && i == pi + 1 || j == pj + 1 && i == f.first_row(j),
                    "step {t}: {prev:?} → {:?}",
                    (i, j)
                );
            }
            prev = Some((i, j));
        }
        assert_eq!(run.next_tile(prev), None);
        // The same forward order as the backward pass; the tiles, numbers and
        // bytes do not depend on the order.
        assert!((1..=f.steps()).all(|t| f.tile_at(Pass::Fwd, t) == f.tile_at(Pass::Bwd, t)));
    }
    assert!(!fa2.kv_outer(Pass::Fwd) && fa2.kv_outer(Pass::Bwd));
    assert_eq!(fa1.hbm_bytes_flash(Pass::Fwd), fa2.hbm_bytes_flash(Pass::Fwd));
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
                                            causal in any::<bool>(), bwd in any::<bool>(), kv in any::<bool>()) {
        let pass = if bwd { Pass::Bwd } else { Pass::Fwd };
        let order = if kv { io::Order::KvOuter } else { io::Order::QOuter };
        let f = Flash::schedule_only(Params { skip_masked: !kv, ..params(n, 2, bq, bk, causal, 0) }).with_order(order);
        crate::sim::check_steppable_laws(&FlashRun::new(f, pass));
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
