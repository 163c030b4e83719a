//! Practice on `#/divergence`: steps a branch costs, how many warps
//! diverge, SIMT efficiency.

use super::{divergence_run, META};
use crate::params::Values;
use crate::practice::{a, ask, at_end, bank, values, Answer, Made, Rng};

bank!("steps" => steps, "diverging" => diverging, "efficiency" => efficiency);

/// A branch on a condition of the lecture's kinds (parity, a threshold, a
/// warp-aligned pattern), with its steps run to the end.
fn case(r: &mut Rng) -> Values {
    let warps = r.int(1, 8);
    let cond = match r.below(5) {
        0 => format!("tid%{}==0", r.pick(&[2, 3, 4, 8])),
        1 => format!("tid<{}", r.int(1, 32 * warps - 1)),
        2 => format!("(tid/32)%{}==0", r.pick(&[2, 3])),
        3 => format!("lane<{}", r.int(1, 31)),
        _ => format!("warp=={}", r.int(0, warps - 1)),
    };
    let (then, els, after) = (r.int(1, 12), r.int(1, 12), r.int(0, 4));
    let v = values(
        &META,
        &[
            ("warps", warps.to_string()),
            ("cond", cond),
            ("then", then.to_string()),
            ("else", els.to_string()),
            ("after", after.to_string()),
        ],
    );
    at_end(&META, v)
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let d = divergence_run(v);
    let w = v.int("warps") as usize;
    let lens: Vec<String> = (0..w).map(|i| d.warp_len(i).to_string()).collect();
    let div: Vec<String> = (0..w).filter(|&i| d.divergent(i)).map(|i| i.to_string()).collect();
    let active: u64 = d.schedule().iter().map(|i| i.mask.count_ones() as u64).sum();
    vec![
        a("warps", w),
        a("cond", v.text("cond")),
        a("then", v.int("then")),
        a("else", v.int("else")),
        a("after", v.int("after")),
        a("lens", lens.join(" + ")),
        a("total", d.schedule().len()),
        a("ndiv", div.len()),
        a("div", if div.is_empty() { "—".to_string() } else { div.join(", ") }),
        a("active", active),
        a("slots", d.schedule().len() * 32),
        a("eff", crate::format::percent(d.simt_efficiency())),
    ]
}

fn steps(r: &mut Rng) -> Made {
    let v = case(r);
    let d = divergence_run(&v);
    let w = v.int("warps") as f64;
    let one_path = w * (v.int("then").max(v.int("else")) + v.int("after")) as f64;
    let answer = Answer::count(d.schedule().len() as u64).with_traps(&[one_path]);
    let none = (0..v.int("warps") as usize).all(|i| !d.divergent(i));
    let why = if none { "practice.divergence.steps.why.none" } else { "practice.divergence.steps.why" };
    ask("practice.divergence.steps", answer, why, args, v)
}

fn diverging(r: &mut Rng) -> Made {
    let v = case(r);
    let d = divergence_run(&v);
    let n = (0..v.int("warps") as usize).filter(|&i| d.divergent(i)).count();
    let why = if n == 0 { "practice.divergence.diverging.why.none" } else { "practice.divergence.diverging.why" };
    ask("practice.divergence.diverging", Answer::count(n as u64), why, args, v)
}

fn efficiency(r: &mut Rng) -> Made {
    let v = case(r);
    let answer = Answer::percent(divergence_run(&v).simt_efficiency(), 2.0).with_traps(&[100.0]);
    ask("practice.divergence.efficiency", answer, "practice.divergence.efficiency.why", args, v)
}
