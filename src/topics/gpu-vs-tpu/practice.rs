//! Practice on `#/gpu-vs-tpu`: passes through the MXU, waves on the GPU,
//! and which of the two leaves less of its hardware idle.

use super::{gpu_tpu, META};
use crate::message::Message;
use crate::params::Values;
use crate::practice::{a, ask, bank, values, Answer, Made, Rng};
use crate::sim::hw::GPU_CODES;

bank!("passes" => passes, "waves" => waves, "busier" => busier);

fn case(r: &mut Rng) -> Values {
    let dim = |r: &mut Rng| if r.below(2) == 0 { r.pow2(6, 13) } else { r.int(50, 8000) };
    let (m, k, n) = (dim(r), dim(r), dim(r));
    values(
        &META,
        &[
            ("m", m.to_string()),
            ("k", k.to_string()),
            ("n", n.to_string()),
            ("mxu", r.pick(&["128", "256"]).into()),
            ("gpu", r.pick(GPU_CODES).into()),
            ("tm", r.pick(&[64, 128, 256]).to_string()),
            ("tn", r.pick(&[64, 128, 256]).to_string()),
        ],
    )
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let c = gpu_tpu(v);
    let w = c.waves();
    vec![
        a("m", c.m),
        a("k", c.k),
        a("n", c.n),
        a("s", c.mxu),
        a("kp", c.k.div_ceil(c.mxu)),
        a("np", c.n.div_ceil(c.mxu)),
        a("passes", c.mxu_passes()),
        a("gpu", crate::sim::hw::gpu(v.choice("gpu")).name),
        a("sms", c.sms),
        a("tm", c.tm),
        a("tn", c.tn),
        a("tiles", w.tiles()),
        a("waves", w.waves()),
        a("tpu_u", crate::format::percent(c.mxu_utilization())),
        a("gpu_u", crate::format::percent(c.gpu_utilization())),
    ]
}

fn passes(r: &mut Rng) -> Made {
    let v = case(r);
    let answer = Answer::count(gpu_tpu(&v).mxu_passes());
    ask("practice.gpu-vs-tpu.passes", answer, "practice.gpu-vs-tpu.passes.why", args, v)
}

fn waves(r: &mut Rng) -> Made {
    let v = case(r);
    let w = gpu_tpu(&v).waves();
    let answer = Answer::count(w.waves()).with_traps(&[(w.tiles() / w.sms) as f64]);
    let why = if w.waves() == 1 { "practice.gpu-vs-tpu.waves.why.one" } else { "practice.gpu-vs-tpu.waves.why" };
    ask("practice.gpu-vs-tpu.waves", answer, why, args, v)
}

fn busier(r: &mut Rng) -> Made {
    r.until(|r| {
        let v = case(r);
        let c = gpu_tpu(&v);
        let (t, g) = (c.mxu_utilization(), c.gpu_utilization());
        ((t - g).abs() >= 0.03).then(|| {
            let answer = Answer::choice(vec![
                (Message::key("practice.gpu-vs-tpu.tpu"), t > g),
                (Message::key("practice.gpu-vs-tpu.gpu"), g > t),
            ]);
            let why = if c.waves().waves() == 1 {
                "practice.gpu-vs-tpu.busier.why.one"
            } else {
                "practice.gpu-vs-tpu.busier.why"
            };
            ask("practice.gpu-vs-tpu.busier", answer, why, args, v)
        })
    })
}
