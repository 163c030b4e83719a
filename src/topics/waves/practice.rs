//! Practice on `#/waves`: tiles of a matmul, waves on the SMs, and which
//! size lands just past a wave boundary.

use super::{waves_at, META};
use crate::message::Message;
use crate::params::Values;
use crate::practice::{a, ask, bank, values, Answer, Made, Rng};
use crate::sim::hw::GPU_CODES;

bank!("tiles" => tiles, "waves" => waves, "boundary" => boundary);

fn config(r: &mut Rng) -> [(&'static str, String); 3] {
    [
        ("gpu", r.pick(GPU_CODES).into()),
        ("tm", r.pick(&[64, 128, 256]).to_string()),
        ("tn", r.pick(&[64, 128, 256]).to_string()),
    ]
}

fn case(r: &mut Rng) -> Values {
    let c = config(r);
    let n = r.int(256, 8192);
    values(&META, &[c[0].clone(), ("n", n.to_string()), c[1].clone(), c[2].clone()])
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let w = waves_at(v, v.int("n") as u64);
    vec![
        a("gpu", crate::sim::hw::gpu(v.choice("gpu")).name),
        a("sms", w.sms),
        a("n", w.n),
        a("tm", w.tm),
        a("tn", w.tn),
        a("across", w.tiles_n()),
        a("down", w.tiles_m()),
        a("tiles", w.tiles()),
        a("waves", w.waves()),
        a("last", w.last_wave_tiles()),
        a("pct", crate::format::percent(w.sm_utilization())),
    ]
}

/// The explanation, in the singular for a single wave ("1 wave", not "1 waves").
fn why(w: &crate::sim::matmul::Waves) -> &'static str {
    if w.waves() == 1 {
        "practice.waves.why.one"
    } else {
        "practice.waves.why"
    }
}

fn tiles(r: &mut Rng) -> Made {
    let v = case(r);
    let w = waves_at(&v, v.int("n") as u64);
    let answer = Answer::count(w.tiles()).with_traps(&[((w.m / w.tm) * (w.n / w.tn)) as f64]);
    ask("practice.waves.tiles", answer, why(&w), args, v)
}

fn waves(r: &mut Rng) -> Made {
    let v = case(r);
    let w = waves_at(&v, v.int("n") as u64);
    let answer = Answer::count(w.waves()).with_traps(&[(w.tiles() / w.sms) as f64]);
    ask("practice.waves.waves", answer, why(&w), args, v)
}

/// Three sizes; the one whose last wave is emptiest (lowest SM utilisation)
/// is the answer, by a clear margin.
fn boundary(r: &mut Rng) -> Made {
    r.until(|r| {
        let c = config(r);
        let base = r.int(512, 6144);
        let step = r.int(16, 200);
        let ns: Vec<i64> = (0..3).map(|i| base + i * step).collect();
        let vs: Vec<Values> = ns
            .iter()
            .map(|n| values(&META, &[c[0].clone(), ("n", n.to_string()), c[1].clone(), c[2].clone()]))
            .collect();
        let util: Vec<f64> = vs.iter().map(|v| waves_at(v, v.int("n") as u64).sm_utilization()).collect();
        let worst = (0..3).min_by(|&i, &j| util[i].total_cmp(&util[j]))?;
        if (0..3).any(|i| i != worst && util[i] - util[worst] < 0.05) {
            return None;
        }
        let parts: Vec<String> = vs
            .iter()
            .map(|v| {
                let w = waves_at(v, v.int("n") as u64);
                format!("n = {}: {}%", w.n, crate::format::percent(w.sm_utilization()))
            })
            .collect();
        let mut args = args(&vs[worst]);
        args.push(a("all", parts.join("; ")));
        Some(Made {
            prompt: Message::new("practice.waves.boundary", &args),
            answer: Answer::choice(
                ns.iter()
                    .enumerate()
                    .map(|(i, n)| (Message::new("practice.name", &[a("name", format!("n = {n}"))]), i == worst))
                    .collect(),
            ),
            explain: Message::new(
                if waves_at(&vs[worst], ns[worst] as u64).waves() == 1 {
                    "practice.waves.boundary.why.one"
                } else {
                    "practice.waves.boundary.why"
                },
                &args,
            ),
            state: vs[worst].clone(),
        })
    })
}
