//! Practice on `#/divergence`: steps a branch costs, how many warps
//! diverge, SIMT efficiency.

use super::{divergence_run, DIVERGENCE};
use crate::params::Values;
use crate::practice::{a, at_end, bank, values, Answer, Made, Rng, Text};

bank!("divergence": "steps" => steps, "diverging" => diverging, "efficiency" => efficiency);

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
        &DIVERGENCE,
        &[
            ("warps", warps.to_string()),
            ("cond", cond),
            ("then", then.to_string()),
            ("else", els.to_string()),
            ("after", after.to_string()),
        ],
    );
    at_end(&DIVERGENCE, v)
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
    Made {
        prompt: Text::new("practice.divergence.steps", &args(&v)),
        answer: Answer::count(d.schedule().len() as u64).with_traps(&[one_path]),
        explain: Text::new("practice.divergence.steps.why", &args(&v)),
        state: v,
    }
}

fn diverging(r: &mut Rng) -> Made {
    let v = case(r);
    let d = divergence_run(&v);
    let n = (0..v.int("warps") as usize).filter(|&i| d.divergent(i)).count();
    Made {
        prompt: Text::new("practice.divergence.diverging", &args(&v)),
        answer: Answer::count(n as u64),
        explain: Text::new("practice.divergence.diverging.why", &args(&v)),
        state: v,
    }
}

fn efficiency(r: &mut Rng) -> Made {
    let v = case(r);
    Made {
        prompt: Text::new("practice.divergence.efficiency", &args(&v)),
        answer: Answer::percent(divergence_run(&v).simt_efficiency(), 2.0).with_traps(&[100.0]),
        explain: Text::new("practice.divergence.efficiency.why", &args(&v)),
        state: v,
    }
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.divergence.steps", "{warps} warps run `if ({cond})` with {then} steps in the then-branch, {else} in the else-branch and {after} after. How many steps are issued in all?", "{warps} 个 warp 执行 `if ({cond})`：then 分支 {then} 步，else 分支 {else} 步，之后 {after} 步。一共要发射多少步？"),
    ("practice.divergence.steps.why", "A warp whose lanes disagree runs both branches one after the other, masked; the others run one. Steps per warp: {lens} = {total}. Diverging warps: {div}.", "lane 意见不一的 warp 要先后执行两个分支（用掩码屏蔽）；其余只执行一个。每个 warp 的步数：{lens} = {total}。发散的 warp：{div}。"),
    ("practice.divergence.diverging", "{warps} warps of 32 threads branch on `{cond}`. How many of the warps diverge (have lanes on both sides)?", "{warps} 个 32 线程的 warp 按 `{cond}` 分支。有多少个 warp 发生发散（两边都有 lane）？"),
    ("practice.divergence.diverging.why", "A warp diverges when some of its 32 lanes take the branch and some don't: here warps {div} ({ndiv} of {warps}). Conditions that split on whole warps (tid ÷ 32) never diverge.", "一个 warp 的 32 个 lane 中有的进分支、有的不进，才发散：这里是 warp {div}（{warps} 个中的 {ndiv} 个）。按整 warp 划分的条件（tid ÷ 32）不会发散。"),
    ("practice.divergence.efficiency", "{warps} warps run `if ({cond})` ({then} steps then, {else} else, {after} after). What share of the issued lane-slots do useful work (SIMT efficiency), in percent?", "{warps} 个 warp 执行 `if ({cond})`（then {then} 步，else {else} 步，之后 {after} 步）。发射的 lane 槽位中有多大比例在做有用功（SIMT 效率，百分比）？"),
    ("practice.divergence.efficiency.why", "{total} steps × 32 lanes = {slots} lane-slots, of which {active} have their lane active: {eff}%.", "{total} 步 × 32 个 lane = {slots} 个槽位，其中 {active} 个 lane 处于活动状态：{eff}%。"),
];
