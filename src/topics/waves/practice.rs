//! Practice on `#/waves`: tiles of a matmul, waves on the SMs, and which
//! size lands just past a wave boundary.

use super::{waves_at, WAVES};
use crate::params::Values;
use crate::practice::{a, bank, values, Answer, Made, Rng, Text};
use crate::sim::hw::GPU_CODES;

bank!("waves": "tiles" => tiles, "waves" => waves, "boundary" => boundary);

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
    values(&WAVES, &[c[0].clone(), ("n", n.to_string()), c[1].clone(), c[2].clone()])
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

fn tiles(r: &mut Rng) -> Made {
    let v = case(r);
    let w = waves_at(&v, v.int("n") as u64);
    Made {
        prompt: Text::new("practice.waves.tiles", &args(&v)),
        answer: Answer::count(w.tiles()).with_traps(&[((w.m / w.tm) * (w.n / w.tn)) as f64]),
        explain: Text::new("practice.waves.why", &args(&v)),
        state: v,
    }
}

fn waves(r: &mut Rng) -> Made {
    let v = case(r);
    let w = waves_at(&v, v.int("n") as u64);
    Made {
        prompt: Text::new("practice.waves.waves", &args(&v)),
        answer: Answer::count(w.waves()).with_traps(&[(w.tiles() / w.sms) as f64]),
        explain: Text::new("practice.waves.why", &args(&v)),
        state: v,
    }
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
            .map(|n| values(&WAVES, &[c[0].clone(), ("n", n.to_string()), c[1].clone(), c[2].clone()]))
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
            prompt: Text::new("practice.waves.boundary", &args),
            answer: Answer::choice(
                ns.iter()
                    .enumerate()
                    .map(|(i, n)| (Text::new("practice.name", &[a("name", format!("n = {n}"))]), i == worst))
                    .collect(),
            ),
            explain: Text::new("practice.waves.boundary.why", &args),
            state: vs[worst].clone(),
        })
    })
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.waves.tiles", "An n×n×n matmul with n = {n} on the {gpu} ({sms} SMs) uses output tiles of {tm}×{tn}. How many tiles are there?", "在 {gpu}（{sms} 个 SM）上做 n = {n} 的 n×n×n 矩阵乘法，输出分块为 {tm}×{tn}。一共有多少个分块？"),
    ("practice.waves.waves", "n = {n}, tiles of {tm}×{tn}, on the {gpu} with {sms} SMs, one tile per SM at a time. How many waves does it take?", "n = {n}，分块 {tm}×{tn}，在有 {sms} 个 SM 的 {gpu} 上，每个 SM 一次算一个分块。需要多少个波次？"),
    ("practice.waves.why", "{across} tiles across × {down} down = {tiles} tiles on {sms} SMs → {waves} waves; the last wave uses {last} of {sms} SMs ({pct}% busy over the run).", "横向 {across} 个 × 纵向 {down} 个 = {tiles} 个分块，分给 {sms} 个 SM → {waves} 个波次；最后一波只用了 {sms} 个 SM 中的 {last} 个（全程 SM 利用率 {pct}%）。"),
    ("practice.waves.boundary", "On the {gpu} ({sms} SMs) with {tm}×{tn} tiles, which size lands just past a wave boundary (its SMs are idlest over the run)?", "在 {gpu}（{sms} 个 SM）上用 {tm}×{tn} 分块，哪个尺寸刚好越过波次边界（全程 SM 最空闲）？"),
    ("practice.waves.boundary.why", "SM utilisation over the run: {all}. n = {n} has {tiles} tiles, {waves} waves on {sms} SMs; its last wave uses only {last} of them.", "全程 SM 利用率：{all}。n = {n} 有 {tiles} 个分块，在 {sms} 个 SM 上跑 {waves} 波；最后一波只用了其中 {last} 个。"),
];
