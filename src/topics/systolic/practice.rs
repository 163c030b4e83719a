//! Practice on `#/systolic`: cycles of a run, utilisation of the array, and
//! which PE is busy at a given cycle.

use super::{systolic_params, SYSTOLIC};
use crate::params::{Value, Values};
use crate::practice::{a, bank, values, Answer, Made, Rng, Text};
use crate::sim::systolic::{total_cycles, Systolic};

bank!("systolic": "cycles" => cycles, "utilization" => utilization, "busy" => busy);

fn case(r: &mut Rng, dataflow: &str) -> Values {
    let (rows, cols, k) = (r.int(2, 8), r.int(2, 8), r.pick(&[1, 2, 3, 4, 6, 8, 12, 16, 32, 64]));
    values(
        &SYSTOLIC,
        &[("rows", rows.to_string()), ("cols", cols.to_string()), ("k", k.to_string()), ("dataflow", dataflow.into())],
    )
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let p = systolic_params(v);
    let s = Systolic::new(p);
    vec![
        a("rows", p.rows),
        a("cols", p.cols),
        a("k", p.k),
        a("df", v.choice("dataflow").to_uppercase()),
        a("cycles", total_cycles(&p)),
        a("pes", p.rows * p.cols),
        a("macs", p.rows * p.cols * p.k),
        a("pct", crate::format::percent(s.utilization())),
        a("c", v.int("cycle")),
    ]
}

fn cycles(r: &mut Rng) -> Made {
    let df = r.pick(&["os", "ws"]);
    let v = case(r, df);
    let key = if df == "os" { "practice.systolic.cycles.os" } else { "practice.systolic.cycles.ws" };
    Made {
        prompt: Text::new("practice.systolic.cycles", &args(&v)),
        answer: Answer::count(total_cycles(&systolic_params(&v))),
        explain: Text::new(key, &args(&v)),
        state: crate::practice::at_end(&SYSTOLIC, v),
    }
}

fn utilization(r: &mut Rng) -> Made {
    let v = case(r, "os");
    Made {
        prompt: Text::new("practice.systolic.utilization", &args(&v)),
        answer: Answer::percent(Systolic::new(systolic_params(&v)).utilization(), 2.0),
        explain: Text::new("practice.systolic.utilization.why", &args(&v)),
        state: crate::practice::at_end(&SYSTOLIC, v),
    }
}

/// Three PEs at a cycle, exactly one of them busy (output-stationary: PE
/// (i, j) works on cycles i + j + 1 … i + j + K).
fn busy(r: &mut Rng) -> Made {
    r.until(|r| {
        let v = case(r, "os");
        let p = systolic_params(&v);
        let s = Systolic::new(p);
        let c = r.int(1, total_cycles(&p) as i64) as u64;
        let mut pes: Vec<(usize, usize)> = Vec::new();
        while pes.len() < 3 {
            let pe = (r.below(p.rows as u64) as usize, r.below(p.cols as u64) as usize);
            if !pes.contains(&pe) {
                pes.push(pe);
            }
            if p.rows * p.cols < 3 {
                return None;
            }
        }
        let busy: Vec<bool> = pes.iter().map(|&(i, j)| s.pe_brief(c, i, j).0).collect();
        if busy.iter().filter(|b| **b).count() != 1 {
            return None;
        }
        let v = v.with("cycle", Value::Int(c as i64));
        let (bi, bj) = pes[busy.iter().position(|b| *b)?];
        let mut args = args(&v);
        args.extend([a("i", bi), a("j", bj), a("from", bi + bj + 1), a("to", bi + bj + p.k), a("busy", s.busy_at(c))]);
        Some(Made {
            prompt: Text::new("practice.systolic.busy", &args),
            answer: Answer::choice(
                pes.iter()
                    .zip(&busy)
                    .map(|(&(i, j), &b)| (Text::new("practice.systolic.pe", &[a("i", i), a("j", j)]), b))
                    .collect(),
            ),
            explain: Text::new("practice.systolic.busy.why", &args),
            state: v,
        })
    })
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.systolic.cycles", "A {rows}×{cols} systolic array ({df} dataflow) multiplies with inner dimension K = {k}. How many cycles does the whole run take, fill and drain included?", "一个 {rows}×{cols} 的脉动阵列（{df} 数据流）做内维 K = {k} 的乘法。整个过程（含填充与排空）需要多少个周期？"),
    ("practice.systolic.cycles.os", "Output-stationary: the last PE (bottom right) starts after {rows} + {cols} − 2 cycles of skew and then takes K = {k}: {rows} + {cols} + {k} − 2 = {cycles} cycles.", "输出驻留：最后一个 PE（右下角）要等 {rows} + {cols} − 2 个周期的错位，再算 K = {k} 个：{rows} + {cols} + {k} − 2 = {cycles} 个周期。"),
    ("practice.systolic.cycles.ws", "Weight-stationary: K = {k} is cut into chunks of {rows} rows of weights; each chunk loads its weights, streams the inputs and drains: {cycles} cycles in all.", "权重驻留：K = {k} 按 {rows} 行权重分段；每段装入权重、流入输入、再排空：一共 {cycles} 个周期。"),
    ("practice.systolic.utilization", "A {rows}×{cols} output-stationary array with K = {k}: what share of its PE-cycles do multiply-accumulate work, in percent?", "一个 {rows}×{cols} 的输出驻留阵列，K = {k}：PE 周期中有百分之多少在做乘加？"),
    ("practice.systolic.utilization.why", "{pes} PEs × {k} MACs = {macs} busy PE-cycles out of {pes} × {cycles}: {pct}%. Fill and drain cost {rows} + {cols} − 2 cycles whatever K is, so a long K amortises them.", "{pes} 个 PE × {k} 次乘加 = {macs} 个忙碌的 PE 周期，总共 {pes} × {cycles} 个：{pct}%。填充和排空固定花 {rows} + {cols} − 2 个周期，K 越长越划算。"),
    ("practice.systolic.busy", "A {rows}×{cols} output-stationary array, K = {k}. At cycle {c}, which of these PEs is multiply-accumulating?", "一个 {rows}×{cols} 的输出驻留阵列，K = {k}。在第 {c} 个周期，下面哪个 PE 正在做乘加？"),
    ("practice.systolic.busy.why", "Inputs reach PE (i, j) after i + j cycles of skew, so it is busy on cycles i + j + 1 … i + j + K: PE ({i}, {j}) on cycles {from} … {to}. At cycle {c}, {busy} PEs are busy in all.", "输入要错位 i + j 个周期才到达 PE (i, j)，所以它在第 i + j + 1 … i + j + K 个周期忙碌：PE ({i}, {j}) 在第 {from} … {to} 个周期。第 {c} 个周期共有 {busy} 个 PE 在忙。"),
    ("practice.systolic.pe", "PE ({i}, {j})", "PE ({i}, {j})"),
];
