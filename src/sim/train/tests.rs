//! sim::train: the ledger, the waterfall, the memory timeline, the fit.

use super::attention::Bench;
use super::ledger::{self, Phase};
use super::measured::{self, Fit};
use super::memory::Timeline;
use super::time::{self, waterfall, Effect, On};
use super::*;
use crate::sim::hw::gpu;
use proptest::prelude::*;

fn cfg(size: &str, seq: u64) -> Config {
    Config::assignment(preset(size).expect("a preset").shape, seq)
}

#[test]
fn the_assignment_sizes_have_their_parameter_counts() {
    // The 2.7B model has 3.41 B parameters with SwiGLU and an untied head.
    assert_eq!(preset("cs336-2.7b").unwrap().shape.params(), 3_406_809_600);
    let small = preset("small").unwrap().shape.params() as f64;
    assert!((small / 1e6 - 128.6).abs() < 1.0, "{small}");
}

#[test]
fn every_choice_round_trips_its_code() {
    for p in Precision::ALL {
        assert_eq!(Precision::parse(p.code()), Some(*p));
    }
    for c in Optimizer::CODES {
        assert_eq!(Optimizer::parse(c).map(|o| o.code()), Some(*c));
    }
    assert_eq!(On::parse(&On::ALL.code()), On::ALL);
    assert_eq!(On::parse("rates,host"), On::NONE.with(Effect::Rates).with(Effect::Host));
}

#[test]
fn backward_matmuls_are_twice_the_forward() {
    let ks = ledger::kernels(&cfg("small", 512));
    let f = |ph: Phase| {
        ks.iter()
            .filter(|k| k.phase == ph && matches!(k.class, ledger::Class::Matmul { .. }))
            .map(|k| k.flops)
            .sum::<f64>()
    };
    assert!((f(Phase::Backward) / f(Phase::Forward) - 2.0).abs() < 1e-12);
    // The forward's matmul FLOPs: 2 per parameter per token plus the scores.
    let c = cfg("small", 512);
    let expect = c.model_flops() / 3.0;
    assert!((f(Phase::Forward) / expect - 1.0).abs() < 1e-9, "{} {}", f(Phase::Forward), expect);
}

proptest! {
    #[test]
    fn the_waterfall_adds_up_exactly(size in 0usize..5, seq in prop::sample::select(vec![128u64, 256, 512, 1024, 2048]),
        p in 0usize..3, a in 0usize..2, o in 0usize..3, ck in 0usize..2, ops in 0usize..2, on in 0u8..32, g in 0usize..4) {
        let c = Config { precision: Precision::ALL[p], attention: Attention::ALL[a], optimizer: Optimizer::ALL[o],
            checkpoint: Checkpoint::ALL[ck], ops: Ops::ALL[ops], ..cfg(PRESETS[size].code, seq) };
        let g = gpu(crate::sim::hw::GPU_CODES[g]);
        let r = Fit::shipped().rates;
        let w = waterfall(&c, g, &r, On(on));
        let sum: f64 = w.iter().map(|t| t.seconds).sum();
        let pred = time::phases(&c, g, &r, On(on)).step();
        prop_assert!((sum - pred).abs() <= 1e-12 * pred.max(1e-9), "{sum} {pred}");
        prop_assert!(w.iter().all(|t| t.total > 0.0 && t.total.is_finite()));
        // The memory timeline: its peak is its largest point, above the resident floor.
        let tl = Timeline::new(c);
        let (peak, at) = tl.peak();
        prop_assert!(peak >= tl.resident() && (tl.alloc(at).total() - peak).abs() < 1e-6);
        prop_assert!(tl.forward_peak() <= peak);
    }

    #[test]
    fn longer_contexts_cost_more_and_flash_and_checkpointing_save_memory(size in 0usize..5, p in 0usize..3) {
        let base = Config { precision: Precision::ALL[p], ..cfg(PRESETS[size].code, 512) };
        let g = gpu("h100");
        let r = Fit::shipped().rates;
        let longer = Config { seq: 1024, ..base };
        // Not less (a host-bound step launches as many kernels at either context).
        prop_assert!(time::phases(&longer, g, &r, On::ALL).step() >= time::phases(&base, g, &r, On::ALL).step());
        prop_assert!(Timeline::new(longer).peak().0 > Timeline::new(base).peak().0);
        let flash = Config { attention: Attention::Flash, ..base };
        prop_assert!(Timeline::new(flash).activations() < Timeline::new(base).activations());
        let ck = Config { checkpoint: Checkpoint::Blocks, ..base };
        prop_assert!(Timeline::new(ck).activations() < Timeline::new(base).activations());
        prop_assert!(time::phases(&ck, g, &r, On::ALL).gpu[1] > time::phases(&base, g, &r, On::ALL).gpu[1]);
    }
}

#[test]
fn the_timeline_obeys_the_steppable_laws() {
    for size in ["small", "2.7b"] {
        crate::sim::check_steppable_laws(&Timeline::new(cfg(size, 256)));
    }
}

#[test]
fn the_2_7b_model_in_fp32_with_adamw_does_not_fit_an_h100_at_1024() {
    // 16 B a parameter before any activation: 54.5 GB.
    let c = cfg("2.7b", 1024);
    let tl = Timeline::new(c);
    assert!((tl.resident() / 1e9 - 40.9).abs() < 0.1, "{}", tl.resident());
    assert!(tl.peak().0 > 80e9, "{}", tl.peak().0);
    // Flash attention and checkpointed blocks bring it back under 80 GB.
    let both = Config { attention: Attention::Flash, checkpoint: Checkpoint::Blocks, ..c };
    assert!(Timeline::new(both).peak().0 < 80e9, "{}", Timeline::new(both).peak().0);
}

#[test]
fn the_attention_benchmark_saves_two_score_matrices_written_out() {
    let b = Bench { batch: 8, heads: 1, d: 64, seq: 16384, causal: true, elem: 4, fused: false, four_d: false };
    let tt = 8.0 * 16384.0 * 16384.0 * 4.0;
    assert!((b.saved_bytes() / tt - 2.0).abs() < 0.1, "{}", b.saved_bytes() / tt);
    // The fused bf16 kernel keeps q, k, v, the output and its log-sum-exp.
    let f = Bench { fused: true, elem: 2, four_d: true, ..b };
    assert!(f.saved_bytes() < tt / 40.0);
    assert!(f.max_seq(gpu("h100")) > Bench { elem: 2, ..b }.max_seq(gpu("h100")));
    // fp32 SDPA on [B, T, d] takes the math path and keeps the probabilities.
    let math = Bench { fused: true, ..b };
    assert!((math.saved_bytes() / tt - 1.0).abs() < 0.05);
}

#[test]
fn the_fit_stays_physical() {
    let r = Fit::shipped().rates;
    for x in r.mm.iter().chain([r.bw].iter()) {
        assert!(*x > 0.0 && *x <= 1.0, "{r:?}");
    }
    // The fused kernels: positive costs, two blocks on an SM never faster
    // than twice one (nor slower than taking turns).
    let f = r.fused;
    assert!(f.score.iter().chain(f.mac.iter()).flatten().all(|x| *x > 0.0), "{f:?}");
    assert!(f.share.iter().flatten().all(|s| (1.0..=2.0).contains(s)), "{f:?}");
    assert!(r.host.iter().all(|h| *h >= 0.0 && *h < 1e-3), "{r:?}");
    let _ = measured::accuracy();
}

#[test]
fn the_measurement_file_prints_the_accuracy_table() {
    let doc = include_str!("../../../docs/measurements/2026-12-02-train-accuracy.md");
    let t = measured::accuracy_markdown();
    assert!(doc.contains(&t), "docs/measurements/2026-12-02-train-accuracy.md's table is stale; expected:\n{t}");
}

#[test]
fn the_ledger_launches_about_as_many_kernels_as_torch_profiler_counted() {
    // Forward and backward launches of the written-out and library models,
    // against the H200's counts (within 40 %).
    let (mut n, mut lo, mut hi) = (0, f64::MAX, 0.0f64);
    for s in measured::steps().iter().filter(|s| s.kernels[0] > 0.0 && s.config.optimizer == Optimizer::Loop) {
        let ks = ledger::kernels(&s.config);
        for (i, ph) in [Phase::Forward, Phase::Backward].iter().enumerate() {
            let r = ledger::launches(&ks, *ph) / s.kernels[i];
            lo = lo.min(r);
            hi = hi.max(r);
        }
        n += 1;
    }
    assert!(n >= 30, "{n}");
    println!("ledger / profiler launches: {lo:.2} … {hi:.2}");
    assert!(lo > 0.6 && hi < 1.4, "{lo} {hi}");
}

#[test]
fn the_fused_kernels_blocks_follow_the_causal_diagonal() {
    use super::time::{FusedKernel, Grid};
    let g = Grid { kernel: FusedKernel::Flash, backward: false, copies: 1, seq: 1024, d: 64, causal: true };
    let tile = 128.0 * 128.0;
    // Forward: block i walks i + 1 key tiles; backward: block j walks 8 − j.
    assert_eq!(g.block_scores(), (1..=8).map(|i| i as f64 * tile).collect::<Vec<_>>());
    let b = Grid { backward: true, ..g };
    assert_eq!(b.block_scores(), (1..=8).rev().map(|i| i as f64 * tile).collect::<Vec<_>>());
    // Few blocks: the longest chain sets the time; twice the sequence on
    // 132 SMs with 64 and 128 blocks, twice the time (not four times).
    let r = super::time::FusedRates {
        score: [[1e-12; 2]; 2],
        mac: [[0.0; 2]; 2],
        resident: [[1; 2]; 2],
        share: [[1.0; 2]; 2],
        latency: 0.0,
        host: [0.0; 2],
    };
    let t = |seq| Grid { seq, ..g }.seconds(132, &r);
    assert!((t(16384) / t(8192) - 2.0).abs() < 0.01, "{}", t(16384) / t(8192));
    // Many blocks: the work over the SMs (four times the scores, about four times the time).
    let big = t(131072) / t(65536);
    assert!(big > 3.5 && big < 4.2, "{big}");
}

/// The constants the browser uses are the fit to the shipped data, computed
/// ahead (`fitted.rs`), not on the training lens's first render.
#[test]
fn fitted_rs_is_a_fresh_fit_to_the_shipped_data() {
    let fresh = super::measured::Fit::fresh();
    let regenerate = "regenerate: cargo run --bin warpscope -- train-fit > src/sim/train/fitted.rs";
    assert_eq!(&fresh, super::measured::Fit::shipped(), "{regenerate}");
    assert_eq!(super::measured::fitted_source(&fresh), include_str!("fitted.rs"), "{regenerate}");
}
