//! The laws of [`Steppable`](super::Steppable) (`check_steppable_laws`), over
//! every stepping simulation, with proptest's inputs.

use super::*;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The laws of `Steppable`, over every stepping simulation.
    #[test]
    fn steppable_laws(rows in 1usize..9, cols in 1usize..9, k in 1usize..20, ws in any::<bool>(), seed in 0u64..1000,
                      warps in 1usize..6, cond in 0usize..4, then in 0usize..5, els in 0usize..5,
                      x in proptest::collection::vec(-50.0f64..50.0, 1..40), block in 1usize..9,
                      tile in (1u64..40, 1u64..40, 1u64..40, 1u64..12, any::<bool>(), 0u64..8, 0u64..8)) {
        let dataflow = if ws { systolic::Dataflow::Ws } else { systolic::Dataflow::Os };
        check_steppable_laws(&systolic::Systolic::new(systolic::Params { rows, cols, m: rows + 1, k, n: cols, dataflow, seed, ..Default::default() }));
        let cond = ["tid%2==0", "(tid/32)%2==0", "tid<100", "lane<7 || warp==1"][cond].to_string();
        check_steppable_laws(&divergence::Divergence::new(divergence::Params {
            warps, cond, then_steps: then, else_steps: els, after_steps: 1,
        }));
        check_steppable_laws(&softmax::OnlineSoftmax::new(x, block));
        let (m, n, k, t, tiled, ti, tj) = tile;
        let tiling = matmul::Tiling { m, n, k, t, elem_bytes: 4, tiled };
        let (mt, nt) = tiling.tile_grid();
        check_steppable_laws(&matmul::TileRun { tiling, ti: ti.min(mt - 1), tj: tj.min(nt - 1), smem: 48 * 1024 });
    }
}
