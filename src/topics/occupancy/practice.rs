//! Practice on `#/occupancy`: blocks resident on an SM, the resource that
//! limits them, the occupancy that results.

use super::{occupancy_kernel, META};
use crate::message::Message;
use crate::params::Values;
use crate::practice::{a, ask, bank, values, Answer, Made, Rng};
use crate::sim::occupancy::{compute, Occupancy, Resource};

bank!("blocks" => blocks, "limiter" => limiter, "occupancy" => occ);

fn run(v: &Values) -> Occupancy {
    let (arch, k) = occupancy_kernel(v);
    compute(arch, k)
}

/// A kernel that runs (at least one block fits) with one resource alone
/// limiting it, so the limiter has one answer.
fn case(r: &mut Rng) -> Values {
    r.until(|r| {
        let arch = r.pick(&["sm80", "sm90", "sm100"]);
        let threads = 32 * r.int(2, 32);
        let regs = r.int(16, 255);
        let smem = if r.below(2) == 0 { 0 } else { 1024 * r.int(1, 120) };
        let v = values(
            &META,
            &[
                ("arch", arch.into()),
                ("threads", threads.to_string()),
                ("regs", regs.to_string()),
                ("smem", smem.to_string()),
            ],
        );
        let o = run(&v);
        let tied = o.limits.iter().filter(|&&l| l == o.blocks).count() > 1;
        (o.blocks > 0 && !tied).then_some(v)
    })
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let o = run(v);
    let (arch, _) = occupancy_kernel(v);
    let [w, b, r, s] = o.limits;
    vec![
        a("arch", arch.name),
        a("threads", v.int("threads")),
        a("regs", v.int("regs")),
        a("smem", crate::format::number(v.int("smem") as f64)),
        a("lw", w),
        a("lb", b),
        a("lr", r),
        a("ls", s),
        a("blocks", o.blocks),
        a("wpb", o.warps_per_block),
        a("active", o.active_warps),
        a("max", arch.max_warps_per_sm),
        a("pct", crate::format::percent(o.occupancy)),
    ]
}

fn blocks(r: &mut Rng) -> Made {
    let v = case(r);
    ask("practice.occupancy.blocks", Answer::count(run(&v).blocks as u64), "practice.occupancy.why", args, v)
}

const WORDS: [(Resource, &str); 4] = [
    (Resource::Warps, "word.warps"),
    (Resource::Blocks, "word.blocks"),
    (Resource::Registers, "word.registers"),
    (Resource::SharedMemory, "word.shared-memory"),
];

fn limiter(r: &mut Rng) -> Made {
    let v = case(r);
    let o = run(&v);
    let answer = Answer::choice(WORDS.iter().map(|(res, key)| (Message::key(key), *res == o.limiter)).collect());
    ask("practice.occupancy.limiter", answer, "practice.occupancy.why", args, v)
}

fn occ(r: &mut Rng) -> Made {
    let v = case(r);
    ask("practice.occupancy.occupancy", Answer::percent(run(&v).occupancy, 2.0), "practice.occupancy.why", args, v)
}
