//! Practice on `#/your-machine`: a measured machine's ridge point, what it
//! attains at an intensity, and whether a matmul is compute-bound on it.

use super::{attainable as roof, metrics, roof_points, YOUR_MACHINE};
use crate::params::Values;
use crate::practice::{a, bank, bound_choice, metric, values, Answer, Made, Rng, Text};
use crate::sim::bench::Results;

bank!("your-machine": "ridge" => ridge, "attainable" => attainable, "matmul" => matmul);

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
    let v = values(&YOUR_MACHINE, &[("r", res.encode())]);
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
        prompt: Text::new("practice.your-machine.ridge", &args(&res)),
        answer: Answer::real(metric(&metrics(&res), "ridge"), 0.03),
        explain: Text::new("practice.your-machine.ridge.why", &args(&res)),
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
        prompt: Text::new("practice.your-machine.attainable", &args),
        answer: Answer::real(att, 0.03),
        explain: Text::new("practice.your-machine.attainable.why", &args),
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
            prompt: Text::new("practice.your-machine.matmul", &args),
            answer: bound_choice(memory),
            explain: Text::new(
                if memory { "practice.your-machine.matmul.memory" } else { "practice.your-machine.matmul.compute" },
                &args,
            ),
            state: v,
        })
    })
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.your-machine.ridge", "A laptop copies memory at {bw} GB/s and its best matmul runs at {peak} GFLOP/s. Where is its ridge point, in FLOP per byte?", "一台笔记本的内存拷贝带宽为 {bw} GB/s，最快的矩阵乘法为 {peak} GFLOP/s。它的平衡点是多少 FLOP/字节？"),
    ("practice.your-machine.ridge.why", "{peak} GFLOP/s ÷ {bw} GB/s = {ridge} FLOP per byte (the lecture's M4 Pro: 5500 ÷ 215 ≈ 26).", "{peak} GFLOP/s ÷ {bw} GB/s = {ridge} FLOP/字节（讲义中的 M4 Pro：5500 ÷ 215 ≈ 26）。"),
    ("practice.your-machine.attainable", "Measured: {bw} GB/s, {peak} GFLOP/s. What can a kernel of {i} FLOP per byte attain at best, in GFLOP/s?", "实测：{bw} GB/s，{peak} GFLOP/s。强度为 {i} FLOP/字节的核函数最多能达到多少 GFLOP/s？"),
    ("practice.your-machine.attainable.why", "min(peak, intensity × bandwidth) = min({peak}, {i} × {bw}) = {att} GFLOP/s.", "min(峰值, 强度 × 带宽) = min({peak}, {i} × {bw}) = {att} GFLOP/s。"),
    ("practice.your-machine.matmul", "Measured: {bw} GB/s, {peak} GFLOP/s. A {n}×{n} fp32 matmul does 2n³ FLOPs on 3n² × 4 bytes. Memory-bound or compute-bound on this machine?", "实测：{bw} GB/s，{peak} GFLOP/s。{n}×{n} 的 fp32 矩阵乘法做 2n³ 次 FLOP，读写 3n² × 4 字节。在这台机器上它是内存受限还是计算受限？"),
    ("practice.your-machine.matmul.memory", "2n³ ÷ 12n² = n ÷ 6 = {i} FLOP per byte, below the ridge of {ridge}: memory-bound.", "2n³ ÷ 12n² = n ÷ 6 = {i} FLOP/字节，低于平衡点 {ridge}：内存受限。"),
    ("practice.your-machine.matmul.compute", "2n³ ÷ 12n² = n ÷ 6 = {i} FLOP per byte, above the ridge of {ridge}: compute-bound.", "2n³ ÷ 12n² = n ÷ 6 = {i} FLOP/字节，高于平衡点 {ridge}：计算受限。"),
];
