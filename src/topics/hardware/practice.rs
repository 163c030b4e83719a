//! Practice on `#/hardware`: the ridge point of a preset and of a custom
//! machine, and which of two GPUs needs more FLOPs per byte.

use super::{machine, ridge_args, META};
use crate::message::Message;
use crate::practice::{a, bank, values, Answer, Made, Rng};
use crate::sim::hw::{GPU_CODES, ML_DTYPES};

bank!("ridge" => ridge, "custom" => custom, "higher" => higher);

fn ridge(r: &mut Rng) -> Made {
    let (gpu, dtype) = (r.pick(GPU_CODES), r.pick(ML_DTYPES));
    let v = values(&META, &[("gpu", gpu.into()), ("dtype", dtype.into())]);
    let h = machine(&v);
    let args = ridge_args(&h, dtype);
    Made {
        prompt: Message::new(
            "practice.hardware.ridge",
            &[a("gpu", h.name), a("dtype", dtype), args[0].clone(), args[1].clone()],
        ),
        answer: Answer::real(h.ridge(dtype), 0.03),
        explain: Message::new("practice.hardware.ridge.why", &args),
        state: v,
    }
}

fn custom(r: &mut Rng) -> Made {
    let (peak, bw) = (r.int(20, 2000), r.int(200, 8000));
    let v = values(&META, &[("gpu", "custom".into()), ("peak", peak.to_string()), ("bw", bw.to_string())]);
    let h = machine(&v);
    let dtype = v.choice("dtype");
    Made {
        prompt: Message::new("practice.hardware.custom", &[a("peak", peak), a("bw", bw)]),
        answer: Answer::real(h.ridge(dtype), 0.03).with_traps(&[peak as f64 / bw as f64]),
        explain: Message::new("practice.hardware.ridge.why", &ridge_args(&h, dtype)),
        state: v,
    }
}

fn higher(r: &mut Rng) -> Made {
    r.until(|r| {
        let dtype = r.pick(&["bf16", "fp8"]);
        let (g1, g2) = (r.pick(GPU_CODES), r.pick(GPU_CODES));
        let h = |g: &str| machine(&values(&META, &[("gpu", g.into()), ("dtype", dtype.into())]));
        let (r1, r2) = (h(g1).ridge(dtype), h(g2).ridge(dtype));
        if g1 == g2 || (r1 - r2).abs() < 0.03 * r1.max(r2) {
            return None;
        }
        let best = if r1 > r2 { g1 } else { g2 };
        Some(Made {
            prompt: Message::new(
                "practice.hardware.higher",
                &[a("a", h(g1).name), a("b", h(g2).name), a("dtype", dtype)],
            ),
            answer: Answer::choice(vec![
                (Message::new("practice.name", &[a("name", h(g1).name)]), r1 > r2),
                (Message::new("practice.name", &[a("name", h(g2).name)]), r2 > r1),
            ]),
            explain: Message::new(
                "practice.hardware.higher.why",
                &[
                    a("a", h(g1).name),
                    a("ra", crate::format::sig3(r1)),
                    a("b", h(g2).name),
                    a("rb", crate::format::sig3(r2)),
                ],
            ),
            state: values(&META, &[("gpu", best.into()), ("dtype", dtype.into())]),
        })
    })
}
