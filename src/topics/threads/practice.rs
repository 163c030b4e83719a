//! Practice on `#/threads`: blocks for n elements, idle threads of the last
//! block, warps of the launch.

use super::{threads_grid, META};
use crate::params::Values;
use crate::practice::{a, ask, bank, values, Answer, Made, Rng};

bank!("blocks" => blocks, "idle" => idle, "warps" => warps);

/// A launch whose last block is partly idle (n not a multiple of the block).
fn launch(r: &mut Rng) -> Values {
    r.until(|r| {
        let block = r.pick(&[32, 64, 96, 128, 192, 256, 512, 1024]);
        let n = r.int(100, 100_000);
        (n % block != 0).then(|| values(&META, &[("n", n.to_string()), ("block", block.to_string())]))
    })
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let g = threads_grid(v);
    vec![
        a("n", g.n),
        a("block", g.block),
        a("blocks", g.blocks()),
        a("threads", g.threads()),
        a("idle", g.idle_threads()),
        a("wpb", g.warps_per_block()),
        a("warps", g.warps()),
    ]
}

fn blocks(r: &mut Rng) -> Made {
    let v = launch(r);
    let g = threads_grid(&v);
    let answer = Answer::count(g.blocks()).with_traps(&[(g.n / g.block) as f64]);
    ask("practice.threads.blocks", answer, "practice.threads.blocks.why", args, v)
}

fn idle(r: &mut Rng) -> Made {
    let v = launch(r);
    let g = threads_grid(&v);
    let answer = Answer::count(g.idle_threads()).with_traps(&[0.0]);
    ask("practice.threads.idle", answer, "practice.threads.blocks.why", args, v)
}

fn warps(r: &mut Rng) -> Made {
    let v = launch(r);
    let g = threads_grid(&v);
    let answer = Answer::count(g.warps()).with_traps(&[g.n.div_ceil(32) as f64]);
    ask("practice.threads.warps", answer, "practice.threads.warps.why", args, v)
}
