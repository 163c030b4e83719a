//! `#/fusion`: its URL parameters, its registry entry, the typed conversion
//! from URL values to the expression, and the numbers its panel shows (the
//! ledger's totals, the roofline inset's two points) as pure data.

use super::{Part, Topic, TopicMeta, INSET_GPU};
use crate::params::{ParamSpec, Values};
use crate::sim::fusion::{self, Ledger, Node};
use crate::sim::roofline::Work;

#[cfg(target_arch = "wasm32")]
mod view;

fn check_fusion(s: &str) -> Result<(), String> {
    fusion::parse(s).map(|_| ()).map_err(|e| e.to_string())
}

pub static FUSION_PARAMS: [ParamSpec; 4] = [
    ParamSpec::text("expr", fusion::MAX_LEN, "sin(x)^2 + cos(x)^2", check_fusion),
    ParamSpec::int("n", 1, 1 << 30, 16_777_216).log(),
    ParamSpec::choice("dtype", crate::sim::hw::ML_DTYPES, "fp32"),
    INSET_GPU,
];

pub static FUSION: TopicMeta = TopicMeta {
    id: "fusion",
    sections: &["6.3"],
    demo: "03",
    part: Part::Fast,
    params: &FUSION_PARAMS,
    metrics: &["kernels-unfused", "bytes-unfused", "bytes-fused", "speedup-bound"],
    position_max: None,
    bounds: None,
};

/// The URL's expression (its spec has checked it parses), or the first
/// preset should it not.
pub fn expression(v: &Values) -> Node {
    fusion::parse(v.text("expr")).unwrap_or_else(|_| fusion::parse(fusion::PRESETS[0].1).expect("preset parses"))
}

/// Bytes per element of the chosen dtype.
pub fn elem_bytes(v: &Values) -> u64 {
    crate::sim::coalescing::dtype_bytes(v.choice("dtype"))
}

/// The arguments of `fusion.total`, in arrays of n elements: unfused reads,
/// writes and their sum, against the fused kernel's.
pub fn total_args(l: &Ledger) -> [(&'static str, String); 4] {
    [
        ("r", l.reads_unfused.to_string()),
        ("w", l.writes_unfused.to_string()),
        ("t", l.arrays_unfused().to_string()),
        ("f", l.arrays_fused().to_string()),
    ]
}

/// The roofline inset's points (label key, work): fused first (highlighted),
/// then unfused; the same FLOPs, different bytes.
pub fn inset_points(l: &Ledger, n: u64, elem_bytes: u64) -> [(&'static str, Work); 2] {
    let flops = l.flops(n) as f64;
    [
        ("inset.fused", Work { flops, bytes: l.bytes_fused(n, elem_bytes) as f64 }),
        ("inset.unfused", Work { flops, bytes: l.bytes_unfused(n, elem_bytes) as f64 }),
    ]
}

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &FUSION,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <view::FusionPanel /> },
};

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = &[
    ("topic.fusion.title", "Operator fusion", "算子融合"),
    ("topic.fusion.summary", "One kernel per operation sends every intermediate result to HBM and back; one fused kernel reads each input once and writes once.", "每个运算一个核函数，每个中间结果都要写回显存再读出来；融合成一个核函数，每个输入只读一次、只写一次。"),
    ("param.expr", "Elementwise expression", "逐元素表达式"),
    ("param.expr.doc", "Names are inputs of n elements; + − * / ^, sin cos tan exp log tanh sqrt abs sigmoid relu, max(a, b) min(a, b)", "名字表示 n 个元素的输入；+ − * / ^，sin cos tan exp log tanh sqrt abs sigmoid relu，max(a, b) min(a, b)"),
    ("param.fusion.n", "Elements n", "元素个数 n"),
    ("fusion.presets", "Presets", "预设"),
    ("fusion.preset.sincos", "sin²x + cos²x", "sin²x + cos²x"),
    ("fusion.preset.gelu", "GELU (tanh form)", "GELU（tanh 形式）"),
    ("fusion.preset.relu-affine", "ReLU(x·w + b)", "ReLU(x·w + b)"),
    ("fusion.preset.silu", "SiLU", "SiLU"),
    ("fusion.error", "Expression error: {msg}", "表达式有误：{msg}"),
    ("fusion.timeline", "Unfused: one kernel per operation", "未融合：每个运算一个核函数"),
    ("fusion.fused", "Fused: one kernel reads {inputs} once and writes the result once", "融合：一个核函数读 {inputs} 各一次，结果写一次"),
    ("fusion.col.kernel", "Kernel", "核函数"),
    ("fusion.col.reads", "Reads", "读"),
    ("fusion.col.writes", "Writes", "写"),
    ("fusion.total", "Total: {r}n reads + {w}n writes = {t}n, against {f}n fused", "合计：读 {r}n + 写 {w}n = {t}n，融合后为 {f}n"),
    ("fusion.explain", "The factory metaphor of the lecture: the warehouse (HBM) is far from the factory (the compute). Running each step as its own kernel ships every half-finished product back to the warehouse and out again. A fused kernel keeps intermediates in registers; elementwise chains like these are what torch.compile fuses automatically.", "讲义中的工厂比喻：仓库（显存）离工厂（计算单元）很远。每一步都单独做成一个核函数，就要把每个半成品运回仓库再运出来。融合的核函数把中间结果留在寄存器里；像这样的逐元素链，torch.compile 可以自动融合。"),
    ("fusion.lecture", "Lecture check (notes §6.3): sin²x + cos²x → 5 kernels, 6n reads + 5n writes = 11n against 2n: at most 5.5× faster (measured 5.4× on an Apple GPU).", "讲义对照（§6.3）：sin²x + cos²x → 5 个核函数，读 6n + 写 5n = 11n，对比 2n：最多快 5.5 倍（在 Apple GPU 上实测 5.4 倍）。"),
    ("metric.kernels-unfused", "Kernels, unfused", "未融合的核函数数"),
    ("metric.bytes-unfused", "HBM bytes, unfused", "显存流量（未融合）"),
    ("metric.bytes-fused", "HBM bytes, fused", "显存流量（融合）"),
    ("metric.speedup-bound", "Speed-up bound", "加速上限"),
    ("metric.speedup-bound.doc", "Unfused bytes ÷ fused bytes: the most fusion can gain on a memory-bound chain", "未融合字节 ÷ 融合字节：内存受限时融合最多能快多少"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(pairs: &[(&str, &str)]) -> (Values, usize) {
        let q: Vec<(String, String)> = pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        let (v, notices) = FUSION.parse(&q);
        (v, notices.len())
    }

    #[test]
    fn lecture_sincos_by_default() {
        // notes §6.3: sin²x + cos²x → 5 kernels, 6n reads + 5n writes = 11n against 2n, 5.5×.
        let (v, notices) = parse(&[]);
        assert_eq!(notices, 0);
        let l = fusion::ledger(&expression(&v));
        assert_eq!(total_args(&l).map(|(_, a)| a), ["6", "5", "11", "2"]);
        let (n, e) = (v.int("n") as u64, elem_bytes(&v));
        assert_eq!((n, e), (16_777_216, 4));
        let m = l.metrics(n, e);
        assert_eq!(m.iter().map(|m| m.name).collect::<Vec<_>>(), FUSION.metrics);
        assert_eq!(
            (m[0].value, m[1].value, m[2].value, m[3].value),
            (5.0, (11 * n * 4) as f64, (2 * n * 4) as f64, 5.5)
        );
    }

    #[test]
    fn inset_points_share_flops() {
        let (v, _) = parse(&[("dtype", "bf16"), ("n", "1000")]);
        let l = fusion::ledger(&expression(&v));
        let [(fk, fused), (uk, unfused)] = inset_points(&l, 1000, elem_bytes(&v));
        assert_eq!((fk, uk), ("inset.fused", "inset.unfused"));
        assert_eq!(fused, Work { flops: 5000.0, bytes: 4000.0 });
        assert_eq!(unfused, Work { flops: 5000.0, bytes: 22_000.0 });
        // Fusing raises the intensity by the speed-up bound.
        assert_eq!(fused.intensity() / unfused.intensity(), 5.5);
    }

    #[test]
    fn a_bad_expression_falls_back_to_the_lecture_one() {
        let (v, notices) = parse(&[("expr", "foo(x)")]);
        assert_eq!(notices, 1);
        assert_eq!(expression(&v), fusion::parse(fusion::PRESETS[0].1).unwrap());
        let (v, notices) = parse(&[("expr", "exp(x) / (exp(x) + exp(y))")]);
        assert_eq!(notices, 0);
        assert_eq!(fusion::ledger(&expression(&v)).kernels, 5);
        // GELU preset: 8 kernels.
        let (v, _) = parse(&[("expr", fusion::PRESETS[1].1)]);
        assert_eq!(fusion::ledger(&expression(&v)).kernels, 8);
    }
}
