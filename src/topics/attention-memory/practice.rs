//! Practice on `#/attention-memory`: GB of S and P at a sequence length,
//! flash's extra memory, and the ratio between them.

use super::{head, META};
use crate::params::Values;
use crate::practice::{a, ask, bank, metric, values, Answer, Made, Rng};
use crate::sim::attention_memory::metrics;
use crate::sim::hw::ML_DTYPES;

bank!("standard" => standard, "flash" => flash, "ratio" => ratio);

fn case(r: &mut Rng) -> Values {
    let n = if r.below(2) == 0 { r.pow2(10, 18) } else { 1000 * r.int(1, 200) };
    values(&META, &[("n", n.to_string()), ("dtype", r.pick(ML_DTYPES).into()), ("stats", r.pick(&["l", "ml"]).into())])
}

fn figures(v: &Values) -> Vec<crate::sim::Metric> {
    let h = head(v);
    metrics(h.n, h.elem_bytes, h.both_stats)
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let h = head(v);
    let m = figures(v);
    vec![
        a("n", crate::format::number(h.n as f64)),
        a("dtype", v.choice("dtype")),
        a("e", h.elem_bytes),
        a("std", crate::format::bytes(metric(&m, "standard-bytes"))),
        a("flash", crate::format::bytes(metric(&m, "flash-extra-bytes"))),
        a("k", if h.both_stats { 2 } else { 1 }),
        a("x", crate::format::number(metric(&m, "ratio").round())),
    ]
}

fn stats_key(v: &Values, l: &'static str, ml: &'static str) -> &'static str {
    match v.choice("stats") {
        "ml" => ml,
        _ => l,
    }
}

fn standard(r: &mut Rng) -> Made {
    let v = case(r);
    let answer = Answer::real(metric(&figures(&v), "standard-bytes") / 1e9, 0.02);
    ask("practice.attention-memory.standard", answer, "practice.attention-memory.why", args, v)
}

fn flash(r: &mut Rng) -> Made {
    let v = case(r);
    let answer = Answer::real(metric(&figures(&v), "flash-extra-bytes") / 1e3, 0.02);
    let prompt = stats_key(&v, "practice.attention-memory.flash.l", "practice.attention-memory.flash.ml");
    ask(prompt, answer, "practice.attention-memory.why", args, v)
}

fn ratio(r: &mut Rng) -> Made {
    let v = case(r);
    let answer = Answer::real(metric(&figures(&v), "ratio"), 0.03);
    let prompt = stats_key(&v, "practice.attention-memory.ratio.l", "practice.attention-memory.ratio.ml");
    ask(prompt, answer, "practice.attention-memory.why", args, v)
}
