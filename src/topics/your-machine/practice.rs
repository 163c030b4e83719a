//! Practice on `#/your-machine`: a measured machine's ridge point, what it
//! attains at an intensity, and whether a matmul is compute-bound on it.

use super::{attainable as roof, metrics, roof_points, META};
use crate::bench::Results;
use crate::message::Message;
use crate::params::Values;
use crate::practice::{a, bank, bound_choice, metric, values, Answer, Made, Rng};

bank!("ridge" => ridge, "attainable" => attainable, "matmul" => matmul);

/// A plausible measured run: copy bandwidth `bw` GB/s, best matmul `peak` GFLOP/s.
fn run(r: &mut Rng) -> (Results, Values) {
    let (bw, peak) = (r.int(20, 900) as f64, r.int(100, 20_000) as f64);
    let res = Results {
        sweep: vec![(14, (bw * 3.0).round()), (28, bw)],
        fusion: [16_777_216.0, 1.0, 2.0, 1.0],
        transpose: [4096.0, 1.0, 3.0],
        halves: [16_777_216.0, 1.0, 0.5],
        matmul: vec![(64, (peak / 8.0).round()), (1024, peak)],
    };
    let v = values(&META, &[("r", res.encode())]);
    (res, v)
}

fn args(res: &Results) -> Vec<(&'static str, String)> {
    let m = metrics(res);
    vec![
        a("bw", crate::format::number(metric(&m, "bandwidth-gbps"))),
        a("peak", crate::format::number(metric(&m, "peak-gflops"))),
        a("ridge", crate::format::number(metric(&m, "ridge"))),
    ]
}

fn ridge(r: &mut Rng) -> Made {
    let (res, v) = run(r);
    Made {
        prompt: Message::new("practice.your-machine.ridge", &args(&res)),
        answer: Answer::real(metric(&metrics(&res), "ridge"), 0.03),
        explain: Message::new("practice.your-machine.ridge.why", &args(&res)),
        state: v,
    }
}

fn attainable(r: &mut Rng) -> Made {
    let (res, v) = run(r);
    let i = r.pick(&[0.125, 0.25, 1.0, 4.0, 16.0, 64.0, 256.0]);
    let m = metrics(&res);
    let att = roof(metric(&m, "peak-gflops"), metric(&m, "bandwidth-gbps"), i);
    let mut args = args(&res);
    args.extend([a("i", i), a("att", crate::format::number(att))]);
    Made {
        prompt: Message::new("practice.your-machine.attainable", &args),
        answer: Answer::real(att, 0.03),
        explain: Message::new("practice.your-machine.attainable.why", &args),
        state: v,
    }
}

fn matmul(r: &mut Rng) -> Made {
    r.until(|r| {
        let (res, v) = run(r);
        let ridge = metric(&metrics(&res), "ridge");
        let n = r.pick(&[64u32, 256, 1024, 4096]);
        let i = roof_points(&res).iter().find(|p| p.1 == n).map_or(n as f64 / 6.0, |p| p.2);
        if (i / ridge - 1.0).abs() < 0.15 {
            return None;
        }
        let mut args = args(&res);
        args.extend([a("n", n), a("i", crate::format::number(i))]);
        let memory = i < ridge;
        Some(Made {
            prompt: Message::new("practice.your-machine.matmul", &args),
            answer: bound_choice(memory),
            explain: Message::new(
                if memory { "practice.your-machine.matmul.memory" } else { "practice.your-machine.matmul.compute" },
                &args,
            ),
            state: v,
        })
    })
}
