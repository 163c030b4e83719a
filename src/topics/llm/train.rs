//! `#/llm?phase=train`: the training lens (assignment 2's benchmarks). What
//! the panel shows of one training step as pure data: the configuration from
//! the URL, the key figures, the waterfall of effects, the memory timeline,
//! the measured step beside the prediction.

use crate::params::Values;
use crate::sim::hw::Gpu;
use crate::sim::train::measured::{self, Fit, Step};
use crate::sim::train::memory::{Alloc, Point, Timeline};
use crate::sim::train::time::{self, Effect, On, Phases, Term};
use crate::sim::train::{self as tr, Attention, Checkpoint, Config, Ops, Optimizer, Precision, Shape};
use crate::sim::{Metric, Steppable};

/// The training lens's own parameters (beside `model`, `batch`, `seq`, `gpu`).
pub const PRECISIONS: &[&str] = Precision::CODES;
pub const ATTENTIONS: &[&str] = Attention::CODES;
pub const OPTIMIZERS: &[&str] = Optimizer::CODES;
pub const CHECKPOINTS: &[&str] = Checkpoint::CODES;
pub const OPS: &[&str] = Ops::CODES;

/// The model trained: an assignment-2 size, or an inference preset's (or the
/// custom) layout with its vocabulary, every head its own K and V.
pub fn shape(v: &Values) -> Shape {
    if let Some(p) = tr::preset(v.choice("model")) {
        return p.shape;
    }
    let s = super::shape(v);
    Shape { d: s.d, dff: s.ffn, layers: s.layers, heads: s.heads, vocab: s.vocab }
}

pub fn config(v: &Values) -> Config {
    let pick = |name: &str| v.choice(name);
    Config {
        shape: shape(v),
        batch: v.int("batch") as u64,
        seq: v.int("seq") as u64,
        precision: Precision::parse(pick("precision")).unwrap_or(Precision::Fp32),
        attention: Attention::parse(pick("attention")).unwrap_or(Attention::Written),
        optimizer: Optimizer::parse(pick("optimizer")).unwrap_or(Optimizer::Loop),
        checkpoint: Checkpoint::parse(pick("checkpoint")).unwrap_or(Checkpoint::None),
        ops: Ops::parse(pick("ops")).unwrap_or(Ops::Written),
    }
}

/// The effects switched on (`effects=all`, `none`, or a list; the inference
/// lens's names are ignored here).
pub fn effects(v: &Values) -> On {
    match v.text("effects") {
        "all" => On::ALL,
        "none" => On::NONE,
        s => On::parse(s),
    }
}

/// The URL value of `effects` with one training effect switched.
pub fn toggled(v: &Values, e: Effect) -> String {
    let on = effects(v);
    let next = if on.has(e) { on.without(e) } else { on.with(e) };
    if next == On::ALL {
        "all".into()
    } else if next == On::NONE {
        "none".into()
    } else {
        next.code()
    }
}

pub fn rates() -> &'static time::Rates {
    &Fit::shipped().rates
}

pub fn phases(v: &Values) -> Phases {
    time::phases(&config(v), &super::gpu(v), rates(), effects(v))
}

/// Whether the step fits the GPU's memory (a GPU of unknown memory: yes).
pub fn fits(c: &Config, g: &Gpu) -> bool {
    g.hbm_gb <= 0.0 || Timeline::new(*c).peak().0 <= g.hbm_gb * 1e9
}

/// The key figures of a training step (their names are in the topic's `META`).
pub fn metrics(v: &Values) -> Vec<Metric> {
    let c = config(v);
    let g = super::gpu(v);
    let p = phases(v);
    let tl = Timeline::new(c);
    let step = p.step();
    vec![
        Metric::real("fwd-ms", p.time[0] * 1e3),
        Metric::real("bwd-ms", p.time[1] * 1e3),
        Metric::real("opt-ms", p.time[2] * 1e3),
        Metric::real("train-step-ms", step * 1e3),
        Metric::real("peak-gb", tl.peak().0 / 1e9),
        Metric::real("fwd-peak-gb", tl.forward_peak() / 1e9),
        Metric::real("resident-gb", tl.resident() / 1e9),
        Metric::real("activation-gb", tl.activations() / 1e9),
        Metric::real("tokens-per-s", c.tokens() as f64 / step),
        Metric::percent("mfu", time::mfu(&c, &g, step)),
        Metric::word("fits", if fits(&c, &g) { "yes" } else { "no" }),
    ]
}

/// The waterfall in ms: the plain roofline, then each effect that applies
/// (on or off), each with what it adds when on.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub effect: Effect,
    pub on: bool,
    /// What it adds (ms) when on; what it would add (ms) when off.
    pub ms: f64,
}

pub fn waterfall(v: &Values) -> (f64, Vec<Row>, f64) {
    let c = config(v);
    let g = super::gpu(v);
    let on = effects(v);
    let terms: Vec<Term> = time::waterfall(&c, &g, rates(), on);
    let plain = terms[0].seconds * 1e3;
    let total = terms.last().map_or(0.0, |t| t.total) * 1e3;
    let rows = Effect::ALL
        .iter()
        .filter(|e| time::applies(**e, &c))
        .map(|&e| {
            let ms = if on.has(e) {
                terms.iter().find(|t| t.effect == Some(e)).map_or(0.0, |t| t.seconds * 1e3)
            } else {
                (time::phases(&c, &g, rates(), on.with(e)).step() - time::phases(&c, &g, rates(), on).step()) * 1e3
            };
            Row { effect: e, on: on.has(e), ms }
        })
        .collect();
    (plain, rows, total)
}

/// The memory timeline: each point's label key and its memory.
pub fn timeline(v: &Values) -> Vec<(Point, Alloc)> {
    let tl = Timeline::new(config(v));
    (0..=tl.steps()).map(|t| (tl.point(t), tl.alloc(t))).collect()
}

/// The measured step of this configuration on the H200, when `measured=1`.
pub fn measured(v: &Values) -> Option<&'static Step> {
    if v.choice("measured") != "1" || v.choice("gpu") != "h200" {
        return None;
    }
    measured::step_for(&config(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topic::q;

    fn parse(pairs: &[(&str, &str)]) -> Values {
        let (v, n) = super::super::TOPIC.meta.parse(&q(pairs));
        assert!(n.is_empty(), "{n:?}");
        v
    }

    #[test]
    fn the_issue_deep_link_gives_every_public_metric() {
        let v = parse(&[
            ("phase", "train"),
            ("model", "cs336-small"),
            ("batch", "4"),
            ("seq", "512"),
            ("precision", "bf16-autocast"),
        ]);
        let m = metrics(&v);
        assert_eq!(m.len(), 11);
        assert!(m.iter().all(|m| super::super::META.metrics.contains(&m.name)));
        assert_eq!(m.iter().map(|m| m.name).filter(|n| n.ends_with("-ms")).count(), 4);
        let get = |n: &str| m.iter().find(|m| m.name == n).unwrap().value;
        assert!((get("fwd-ms") + get("bwd-ms") + get("opt-ms") - get("train-step-ms")).abs() < 1e-9);
        assert!(get("peak-gb") >= get("resident-gb") && get("peak-gb") >= get("fwd-peak-gb"));
        // The waterfall adds up to the step.
        let (plain, rows, total) = waterfall(&v);
        let sum: f64 = plain + rows.iter().filter(|r| r.on).map(|r| r.ms).sum::<f64>();
        assert!((sum - total).abs() < 1e-9 && (total - get("train-step-ms")).abs() < 1e-9);
        // The timeline's peak is peak-gb.
        let peak = timeline(&v).iter().map(|(_, a)| a.total()).fold(0.0, f64::max);
        assert!((peak / 1e9 - get("peak-gb")).abs() < 1e-12);
    }

    #[test]
    fn the_2_7b_model_stops_fitting_an_h100_and_flash_with_checkpointing_buys_it_back() {
        let base = [("phase", "train"), ("model", "cs336-2.7b"), ("batch", "4"), ("seq", "1024"), ("gpu", "h100")];
        let fits_of = |extra: &[(&str, &str)]| {
            let mut pairs = base.to_vec();
            pairs.extend_from_slice(extra);
            metrics(&parse(&pairs)).iter().find(|m| m.name == "fits").unwrap().word
        };
        assert_eq!(fits_of(&[]), Some("no"));
        assert_eq!(fits_of(&[("attention", "flash"), ("checkpoint", "blocks")]), Some("yes"));
    }

    #[test]
    fn effects_toggle_one_at_a_time() {
        let v = parse(&[
            ("phase", "train"),
            ("model", "cs336-small"),
            ("precision", "bf16-autocast"),
            ("seq", "256"),
            ("batch", "4"),
        ]);
        for e in Effect::ALL {
            let off = v.with("effects", crate::params::Value::Text(toggled(&v, e)));
            assert!(!effects(&off).has(e));
            assert_eq!(toggled(&off, e), "all");
        }
    }
}
