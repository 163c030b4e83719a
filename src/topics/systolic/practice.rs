//! Practice on `#/systolic`: cycles of a run, utilisation of the array, and
//! which PE is busy at a given cycle.

use super::{systolic_params, META};
use crate::message::Message;
use crate::params::{Value, Values};
use crate::practice::{a, bank, values, Answer, Made, Rng};
use crate::sim::systolic::{total_cycles, Systolic};

bank!("cycles" => cycles, "utilization" => utilization, "busy" => busy);

fn case(r: &mut Rng, dataflow: &str) -> Values {
    let (rows, cols, k) = (r.int(2, 8), r.int(2, 8), r.pick(&[1, 2, 3, 4, 6, 8, 12, 16, 32, 64]));
    values(
        &META,
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
        prompt: Message::new("practice.systolic.cycles", &args(&v)),
        answer: Answer::count(total_cycles(&systolic_params(&v))),
        explain: Message::new(key, &args(&v)),
        state: crate::practice::at_end(&META, v),
    }
}

fn utilization(r: &mut Rng) -> Made {
    let v = case(r, "os");
    Made {
        prompt: Message::new("practice.systolic.utilization", &args(&v)),
        answer: Answer::percent(Systolic::new(systolic_params(&v)).utilization(), 2.0),
        explain: Message::new("practice.systolic.utilization.why", &args(&v)),
        state: crate::practice::at_end(&META, v),
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
            prompt: Message::new("practice.systolic.busy", &args),
            answer: Answer::choice(
                pes.iter()
                    .zip(&busy)
                    .map(|(&(i, j), &b)| (Message::new("practice.systolic.pe", &[a("i", i), a("j", j)]), b))
                    .collect(),
            ),
            explain: Message::new("practice.systolic.busy.why", &args),
            state: v,
        })
    })
}
