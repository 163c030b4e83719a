//! `#/llm`: the LLM lens (issue 23). Its URL parameters, its registry entry,
//! the conversion from URL values to a `sim::llm::Case`, and everything the
//! panel shows as pure data: the key figures, the per-operator table, the
//! effects waterfall, the batch and context sweeps, the measured step, the
//! notes' §5.3 decode sweep.

use crate::params::{ParamSpec, Value, Values};
use crate::sim::hw::Gpu;
use crate::sim::llm::{self, Arch, Calibration, Case, On, Phase, Shape, EFFECTS};
use crate::sim::Metric;
use crate::topic::{Part, Topic, TopicMeta, MEASURED};

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

/// The `model` choices: the presets, then `custom`.
pub const MODELS: &[&str] = &[
    "gpt2",
    "gpt2-medium",
    "gpt2-large",
    "gpt2-xl",
    "llama-7b",
    "llama-13b",
    "llama3-8b",
    "llama3-70b",
    "mistral-7b",
    "custom",
];

fn check_effects(s: &str) -> Result<(), crate::params::Reason> {
    if s == "all" || s == "none" || (!s.is_empty() && s.split(',').all(|p| EFFECTS.contains(&p.trim()))) {
        Ok(())
    } else {
        Err(crate::params::Reason::new("llm.reason.effects", &[("list", EFFECTS.join(", "))]))
    }
}

pub static LLM_PARAMS: [ParamSpec; 19] = [
    ParamSpec::choice("model", MODELS, "llama3-8b"),
    ParamSpec::int("layers", 1, 200, 80).optional(),
    ParamSpec::int("dmodel", 64, 32768, 8192).optional().log(),
    ParamSpec::int("heads", 1, 256, 64).optional(),
    ParamSpec::int("kvheads", 1, 256, 8).optional(),
    ParamSpec::int("ffn", 64, 131072, 28672).optional().log(),
    ParamSpec::int("vocab", 256, 1_000_000, 128256).optional().log(),
    ParamSpec::choice("phase", &["decode", "prefill"], "decode"),
    ParamSpec::int("batch", 1, 1024, 16).log(),
    ParamSpec::int("ctx", 1, 131072, 4096).log(),
    ParamSpec::int("seq", 1, 32768, 1024).log(),
    ParamSpec::choice("dtype", llm::DTYPES, "bf16"),
    ParamSpec::choice("kvdtype", llm::KV_DTYPES, "bf16"),
    ParamSpec::choice("gpu", crate::sim::hw::GPU_CHOICES, "h200"),
    crate::params::CUSTOM_PEAK,
    crate::params::CUSTOM_BW,
    ParamSpec::choice("graphs", &["1", "0"], "1"),
    ParamSpec::text("effects", 80, "all", check_effects).optional(),
    MEASURED,
];

pub static LLM: TopicMeta = TopicMeta {
    id: "llm",
    sections: &["5.3"],
    demo: "—",
    part: Part::Fast,
    params: &LLM_PARAMS,
    metrics: &[
        "step-ms",
        "ideal-ms",
        "tokens-per-s",
        "ttft-ms",
        "weight-bytes",
        "kv-bytes",
        "max-batch",
        "mbu",
        "mfu",
        "bound",
    ],
    position_max: None,
    bounds: None,
};

/// The model's shape: a preset's, or the custom one from the URL.
pub fn shape(v: &Values) -> Shape {
    match llm::preset(v.choice("model")) {
        Some(p) => p.shape,
        None => Shape {
            arch: Arch::Llama,
            layers: v.int("layers") as u64,
            d: v.int("dmodel") as u64,
            heads: v.int("heads") as u64,
            kvheads: (v.int("kvheads").min(v.int("heads"))) as u64,
            ffn: v.int("ffn") as u64,
            vocab: v.int("vocab") as u64,
        },
    }
}

pub fn phase(v: &Values) -> Phase {
    if v.choice("phase") == "prefill" {
        Phase::Prefill
    } else {
        Phase::Decode
    }
}

pub fn case(v: &Values) -> Case {
    Case {
        shape: shape(v),
        phase: phase(v),
        batch: v.int("batch") as u64,
        ctx: v.int("ctx") as u64,
        seq: v.int("seq") as u64,
        dt: llm::dtypes(v.choice("dtype"), v.choice("kvdtype")),
        graphs: v.choice("graphs") == "1",
    }
}

pub fn gpu(v: &Values) -> Gpu {
    crate::params::machine(v)
}

pub fn effects(v: &Values) -> On {
    On::parse(v.text("effects"))
}

/// The prediction (seconds) of this case with the URL's effects.
pub fn predict(v: &Values, c: &Case) -> f64 {
    llm::step_time(c, &gpu(v), Calibration::shipped(), effects(v))
}

/// The key figures.
pub fn metrics(v: &Values) -> Vec<Metric> {
    let c = case(v);
    let g = gpu(v);
    let cal = Calibration::shipped();
    let step = predict(v, &c);
    let ideal = llm::ideal_time(&c, &g, cal);
    let t = llm::totals(&c);
    let tokens = match c.phase {
        Phase::Decode => c.batch as f64,
        Phase::Prefill => (c.batch * c.seq) as f64,
    };
    let prefill = Case { phase: Phase::Prefill, ..c };
    let ttft = predict(v, &prefill);
    let peak = g.peak_tflops(c.dt.rate) * 1e12;
    let bw = g.hbm_tbps * 1e12;
    let bound = if t.flops / peak > t.bytes / bw { "compute" } else { "memory" };
    vec![
        Metric::real("step-ms", step * 1e3),
        Metric::real("ideal-ms", ideal * 1e3),
        Metric::real("tokens-per-s", tokens / step),
        Metric::real("ttft-ms", ttft * 1e3),
        Metric::bytes("weight-bytes", t.weight_bytes as u64),
        Metric::bytes("kv-bytes", t.kv_bytes as u64),
        Metric::count("max-batch", llm::max_batch(&c, &g)),
        Metric::percent("mbu", t.bytes / (step * bw)),
        Metric::percent("mfu", t.flops / (step * peak)),
        Metric::word("bound", bound),
    ]
}

/// One row of the per-operator table (the whole step: `count` instances).
#[derive(Clone, Debug, PartialEq)]
pub struct OpRow {
    pub key: &'static str,
    pub count: u64,
    pub flops: f64,
    pub weight_bytes: f64,
    pub act_bytes: f64,
    pub kv_bytes: f64,
    pub intensity: f64,
    pub compute_bound: bool,
    /// Predicted seconds for all `count` instances, with the URL's effects.
    pub seconds: f64,
    /// Achieved TFLOP/s at that time.
    pub tflops: f64,
}

pub fn op_rows(v: &Values) -> Vec<OpRow> {
    let c = case(v);
    let g = gpu(v);
    let cal = Calibration::shipped();
    let on = effects(v);
    let ridge = g.peak_tflops(c.dt.rate) / g.hbm_tbps;
    llm::ops(&c)
        .into_iter()
        .map(|o| {
            let n = o.count as f64;
            let seconds = n * llm::op_time(&o, &c, &g, cal, on);
            OpRow {
                key: o.key,
                count: o.count,
                flops: n * o.flops,
                weight_bytes: n * o.weight_bytes,
                act_bytes: n * o.act_bytes,
                kv_bytes: n * (o.kv_read + o.kv_write),
                intensity: o.intensity(),
                compute_bound: o.intensity() > ridge,
                seconds,
                tflops: n * o.flops / seconds.max(1e-15) / 1e12,
            }
        })
        .collect()
}

/// Where each effect's number comes from (translation key `llm.source.<effect>`).
pub fn source_key(effect: &str) -> String {
    format!("llm.source.{effect}")
}

/// The waterfall: ideal, then each effect's term (ms), then the prediction.
pub fn waterfall(v: &Values) -> (f64, Vec<llm::Term>) {
    let (ideal, terms) = llm::waterfall(&case(v), &gpu(v), Calibration::shipped(), effects(v));
    (ideal * 1e3, terms.into_iter().map(|t| llm::Term { seconds: t.seconds * 1e3, ..t }).collect())
}

/// The URL value of `effects` with one effect switched.
pub fn toggled(v: &Values, effect: &str) -> String {
    let mut on = effects(v);
    if let Some(i) = EFFECTS.iter().position(|&e| e == effect) {
        on.0[i] = !on.0[i];
    }
    on.code()
}

/// Batches of the decode sweep.
pub fn sweep_batches() -> Vec<u64> {
    let mut b = Vec::new();
    let mut x = 1.0f64;
    while x <= 1024.0 {
        let n = x.round() as u64;
        if b.last() != Some(&n) {
            b.push(n);
        }
        x *= 2f64.sqrt();
    }
    if b.last() != Some(&1024) {
        b.push(1024);
    }
    b
}

/// The batch sweep (decode at this context): (batch, step ms, ideal ms,
/// tokens/s, intensity of the d × d projection, notes §5.3).
pub fn batch_sweep(v: &Values) -> Vec<(f64, f64, f64, f64, f64)> {
    let base = Case { phase: Phase::Decode, ..case(v) };
    let g = gpu(v);
    let cal = Calibration::shipped();
    sweep_batches()
        .into_iter()
        .map(|b| {
            let c = Case { batch: b, ..base };
            let step = predict(v, &c);
            let ideal = llm::ideal_time(&c, &g, cal);
            let o = llm::ops(&c).into_iter().find(|o| o.key == "o-proj").expect("o-proj");
            (b as f64, step * 1e3, ideal * 1e3, b as f64 / step, o.intensity())
        })
        .collect()
}

/// The knee: the smallest batch at which the weight matmuls (QKV, O,
/// MLP) reach the ridge, i.e. turn compute-bound on the plain roofline.
pub fn knee(v: &Values) -> Option<u64> {
    let g = gpu(v);
    let base = Case { phase: Phase::Decode, ..case(v) };
    let ridge = g.peak_tflops(base.dt.rate) / g.hbm_tbps;
    let past = |b: u64| {
        let c = Case { batch: b, ..base };
        llm::ops(&c).iter().filter(|o| o.key == "gate-up" || o.key == "up").all(|o| o.intensity() >= ridge)
    };
    // The intensity grows with the batch: bisect.
    if !past(1024) {
        return None;
    }
    let (mut lo, mut hi) = (0u64, 1024u64);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if past(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// The context sweep (decode at this batch): (ctx, weight bytes, KV bytes read per step).
pub fn context_sweep(v: &Values) -> Vec<(f64, f64, f64)> {
    let base = Case { phase: Phase::Decode, ..case(v) };
    (7..=17)
        .map(|p| {
            let ctx = 1u64 << p;
            let c = Case { ctx, ..base };
            let t = llm::totals(&c);
            (ctx as f64, t.weight_bytes, t.kv_bytes)
        })
        .collect()
}

/// The context at which the KV cache read per step equals the weights.
pub fn kv_crossover(v: &Values) -> u64 {
    let c = Case { phase: Phase::Decode, ctx: 0, ..case(v) };
    let t = llm::totals(&c);
    let per_token = (c.shape.kv_per_token() * c.batch) as f64 * c.dt.kv;
    (t.weight_bytes / per_token.max(1e-9)).ceil() as u64
}

/// The measured step beside the prediction: (measured ms, predicted ms with all effects).
pub fn measured(v: &Values) -> Option<(f64, f64)> {
    if v.choice("measured") != "1" {
        return None;
    }
    let c = case(v);
    let m = llm::measured_for(v.choice("model"), &c, v.choice("gpu"))?;
    Some((m.ms, predict(v, &c) * 1e3))
}

/// Measured decode steps of this model at this context and launch mode on
/// the H200 (batch, ms): the dots beside the batch sweep.
pub fn measured_batches(v: &Values) -> Vec<(f64, f64)> {
    let c = case(v);
    if v.choice("measured") != "1" || v.choice("gpu") != "h200" || c.dt != llm::dtypes("bf16", "bf16") {
        return Vec::new();
    }
    llm::measured()
        .iter()
        .filter(|m| m.model == v.choice("model") && m.phase == Phase::Decode && m.n == c.ctx && m.graphs == c.graphs)
        .map(|m| (m.batch as f64, m.ms))
        .collect()
}

/// The lecture's §5.3 decode batches (custom model with d = 8192).
pub const DECODE_PRESETS: [(i64, &str, &str); 5] = [
    (1, "llm.b1", "b1"),
    (8, "llm.b8", "b8"),
    (64, "llm.b64", "b64"),
    (256, "llm.b256", "b256"),
    (1024, "llm.b1024", "b1024"),
];

/// What a §5.3 row sets: a custom model of d = 8192 (Llama-3-70B's other
/// sizes), decode at batch B on the H100 as the notes.
pub fn decode_preset(batch: i64) -> Vec<(&'static str, Value)> {
    vec![
        ("model", Value::Choice("custom")),
        ("layers", Value::Int(80)),
        ("dmodel", Value::Int(8192)),
        ("heads", Value::Int(64)),
        ("kvheads", Value::Int(8)),
        ("ffn", Value::Int(28672)),
        ("vocab", Value::Int(128256)),
        ("phase", Value::Choice("decode")),
        ("batch", Value::Int(batch)),
        ("dtype", Value::Choice("bf16")),
        ("gpu", Value::Choice("h100")),
    ]
}

/// The intensity of the output projection (W: d × d, X: d × B) as a metric
/// for the lecture table.
pub fn oproj_intensity(v: &Values) -> Vec<Metric> {
    let o = llm::ops(&case(v)).into_iter().find(|o| o.key == "o-proj").expect("o-proj");
    vec![Metric::real("intensity", o.intensity())]
}

/// The notes' §5.3 table beside the model.
pub fn lecture_rows(v: &Values) -> Vec<crate::lecture::Row> {
    let printed = ["1.0", "8.0", "63", "241", "819"];
    let cases = DECODE_PRESETS
        .iter()
        .zip(printed)
        .map(|(&(b, label, _), p)| crate::lecture::Case {
            label,
            values: decode_preset(b),
            printed: vec![("intensity", p)],
            reason: None,
        })
        .collect();
    crate::lecture::rows(v, cases, oproj_intensity)
}

/// Everything this route owns (the registry lists it).
pub static TOPIC: Topic = Topic::new(&LLM, STRINGS, &practice::BANK).lecture(lecture_rows);

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("llm.reason.effects", "all, none, or a comma-separated list of {list}", "all、none，或用逗号分隔的以下名称：{list}"),
    ("topic.llm.title", "The LLM lens: prefill and decode, predicted", "LLM 透镜：预测预填充与解码"),
    ("topic.llm.summary", "How many milliseconds a real model's decode step or prefill takes on a GPU, and why not less: the plain roofline, then one named effect at a time, each from a measurement, beside H200 measurements.", "真实模型在 GPU 上解码一步或预填充要多少毫秒、为什么不能更快：先看朴素屋顶线，再逐个加上有名字的效应（每个都来自实测），并与 H200 实测对照。"),
    ("param.model", "Model", "模型"),
    ("choice.model.gpt2", "GPT-2", "GPT-2"),
    ("choice.model.gpt2-medium", "GPT-2 M", "GPT-2 M"),
    ("choice.model.gpt2-large", "GPT-2 L", "GPT-2 L"),
    ("choice.model.gpt2-xl", "GPT-2 XL", "GPT-2 XL"),
    ("choice.model.llama-7b", "LLaMA-7B", "LLaMA-7B"),
    ("choice.model.llama-13b", "LLaMA-13B", "LLaMA-13B"),
    ("choice.model.llama3-8b", "Llama-3-8B", "Llama-3-8B"),
    ("choice.model.llama3-70b", "Llama-3-70B", "Llama-3-70B"),
    ("choice.model.mistral-7b", "Mistral-7B", "Mistral-7B"),
    ("choice.model.custom", "custom", "自定义"),
    ("param.layers", "Layers", "层数"),
    ("param.dmodel", "Model width d", "模型宽度 d"),
    ("param.kvheads", "KV heads", "KV 头数"),
    ("param.ffn", "FFN width", "FFN 宽度"),
    ("param.vocab", "Vocabulary", "词表大小"),
    ("param.phase", "Phase", "阶段"),
    ("choice.phase.decode", "decode", "解码"),
    ("choice.phase.prefill", "prefill", "预填充"),
    ("param.ctx", "Tokens in the KV cache", "KV 缓存中的 token 数"),
    ("param.seq", "Prompt tokens", "提示词 token 数"),
    ("choice.dtype.int8", "int8", "int8"),
    ("choice.dtype.int4", "int4 (weights)", "int4（仅权重）"),
    ("param.kvdtype", "KV-cache type", "KV 缓存类型"),
    ("choice.kvdtype.bf16", "bf16", "bf16"),
    ("choice.kvdtype.fp8", "fp8", "fp8"),
    ("choice.kvdtype.int8", "int8", "int8"),
    ("param.graphs", "Launch", "启动方式"),
    ("choice.graphs.1", "CUDA graph", "CUDA 图"),
    ("choice.graphs.0", "eager", "逐个启动"),
    ("param.effects", "Effects applied", "启用的效应"),
    ("metric.step-ms", "Step (ms)", "每步（毫秒）"),
    ("metric.step-ms.doc", "One decode step for the whole batch, or the whole prefill, with the effects on", "整个批次的一步解码，或整个预填充，计入所启用的效应"),
    ("metric.ideal-ms", "Plain roofline (ms)", "朴素屋顶线（毫秒）"),
    ("metric.ideal-ms.doc", "Every operator at max(FLOPs ÷ spec peak, bytes ÷ spec bandwidth)", "每个算子取 max(FLOP ÷ 标称峰值, 字节 ÷ 标称带宽)"),
    ("metric.tokens-per-s", "Tokens per second", "每秒 token 数"),
    ("metric.ttft-ms", "Time to first token (ms)", "首 token 时间（毫秒）"),
    ("metric.ttft-ms.doc", "The prefill of the prompt (seq tokens) for the batch", "整个批次预填充 seq 个提示词 token 的时间"),
    ("metric.weight-bytes", "Weights", "权重"),
    ("metric.kv-bytes", "KV cache", "KV 缓存"),
    ("metric.max-batch", "Largest batch that fits", "能放下的最大批次"),
    ("metric.max-batch.doc", "Weights + KV cache at this context within the GPU's memory (no room kept for activations)", "权重 + 此上下文长度的 KV 缓存不超过显存（未给激活留空间）"),
    ("metric.mbu", "MBU", "MBU"),
    ("metric.mbu.doc", "Bytes moved ÷ (time × spec bandwidth)", "搬运字节数 ÷（时间 × 标称带宽）"),
    ("metric.mfu", "MFU", "MFU"),
    ("metric.mfu.doc", "FLOPs ÷ (time × spec peak)", "FLOP ÷（时间 × 标称峰值）"),
    ("llm.explain", "The plain roofline takes each operator of one layer and the head at max(FLOPs ÷ peak, bytes ÷ bandwidth) with the datasheet's numbers. Real kernels fall short of it for named reasons: HBM and Tensor Cores never reach their datasheet rates; a GEMM with few rows runs below both roofs; tiles and waves leave SMs idle; attention kernels underfill the GPU at small batch; every unfused elementwise op reads and writes its whole tensor; and every kernel costs a launch, which eager Python pays on the host. Each bar of the waterfall is one of them, taken from an H200 measurement or a Warpscope simulation; switch any of them off.", "朴素屋顶线把一层和输出头的每个算子都按数据手册的数字取 max(FLOP ÷ 峰值, 字节 ÷ 带宽)。真实内核达不到它，原因都有名字：HBM 和 Tensor Core 达不到标称速率；行数很少的 GEMM 两个屋顶都够不着；分块和波次让 SM 空闲；小批次时注意力内核填不满 GPU；每个未融合的逐元素算子都要读写整个张量；每个内核都有启动开销，逐个从 Python 启动时由主机承担。瀑布图的每一条就是其中一个效应，取自 H200 实测或 Warpscope 的模拟；每一个都可以关掉。"),
    ("llm.lecture", "Lecture check (notes §5.3): the output projection W X (W: 8192 × 8192, X: 8192 × B, bf16) has intensity 1.0, 8.0, 63, 241 and 819 FLOP/byte at B = 1, 8, 64, 256 and 1024: the rows below load a custom model with d = 8192 and read it from the operator table.", "讲义对照（§5.3）：输出投影 W X（W：8192 × 8192，X：8192 × B，bf16）在 B = 1、8、64、256、1024 时强度为 1.0、8.0、63、241、819 FLOP/字节：下面各行载入 d = 8192 的自定义模型，从算子表中读出。"),
    ("llm.b1", "B = 1", "B = 1"),
    ("llm.b8", "B = 8", "B = 8"),
    ("llm.b64", "B = 64", "B = 64"),
    ("llm.b256", "B = 256", "B = 256"),
    ("llm.b1024", "B = 1024", "B = 1024"),
    ("llm.presets", "Notes §5.3: d = 8192 decode", "讲义 §5.3：d = 8192 解码"),
    ("llm.waterfall", "From the plain roofline to the prediction: one bar per named effect (ms)", "从朴素屋顶线到预测：每个效应一条（毫秒）"),
    ("llm.waterfall.ideal", "plain roofline (datasheet)", "朴素屋顶线（数据手册）"),
    ("llm.waterfall.total", "prediction", "预测"),
    ("llm.waterfall.off", "off", "已关闭"),
    ("llm.waterfall.all", "all on", "全部启用"),
    ("llm.waterfall.none", "all off", "全部关闭"),
    ("llm.effect.bandwidth", "achievable bandwidth and matmul rate", "可达带宽与矩阵乘速率"),
    ("llm.effect.waves", "wave and tile quantization", "波次与分块量化"),
    ("llm.effect.gemm", "skinny-GEMM efficiency at these shapes", "此形状下瘦长 GEMM 的效率"),
    ("llm.effect.attention", "attention kernel at this context", "此上下文长度下的注意力内核"),
    ("llm.effect.elementwise", "unfused elementwise traffic", "未融合的逐元素读写"),
    ("llm.effect.launch", "kernel launch and tail", "内核启动与尾部开销"),
    ("llm.source.bandwidth", "measured: best GEMV bandwidth and best GEMM rate on the H200 (h200-llm-gemm.csv), as fractions of the datasheet", "实测：H200 上最好的 GEMV 带宽和 GEMM 速率（h200-llm-gemm.csv），按占数据手册的比例"),
    ("llm.source.waves", "simulated: sim::matmul's waves of output tiles (up to 128 × 128) over the SMs", "模拟：sim::matmul 把输出块（至多 128 × 128）按波次分给各 SM"),
    ("llm.source.gemm", "measured: torch.mm time ÷ the waves model by rows m and weight size n·k (h200-llm-gemm.csv, 364 shapes)", "实测：torch.mm 时间 ÷ 波次模型，按行数 m 与权重大小 n·k（h200-llm-gemm.csv，364 个形状）"),
    ("llm.source.attention", "measured: scaled_dot_product_attention, decode over the KV cache and causal prefill (h200-llm-sdpa.csv)", "实测：scaled_dot_product_attention，解码读 KV 缓存与因果预填充（h200-llm-sdpa.csv）"),
    ("llm.source.elementwise", "simulated + measured: sim::fusion's ledger of each op's kernels, at the measured streaming rate of each op (h200-llm-elementwise.csv)", "模拟 + 实测：sim::fusion 对每个算子内核的读写账本，按每个算子实测的流式速率（h200-llm-elementwise.csv）"),
    ("llm.source.launch", "measured: fixed cost per elementwise call; {gap} µs per kernel in a graph, plus a gap per kernel launched one by one (both fitted on the fitted models' steps); eager, the host's time of each stage measured alone at a fitted model's shapes × one in-situ factor, about {host} µs per kernel, queued against the GPU (h200-llm-host.csv; tiny-layer launch test: {tiny} µs, h200-llm-launch.csv)", "实测：每次逐元素调用的固定开销；图内每个内核 {gap} 微秒，逐个启动时每个内核另加一段间隔（均由拟合组模型的实测步拟合）；逐个启动时，主机执行每个阶段的时间在拟合组模型的形状上单独测得，乘以一个整步系数，约每个内核 {host} 微秒，与 GPU 排队（h200-llm-host.csv；微型层启动测试：{tiny} 微秒，h200-llm-launch.csv）"),
    ("llm.ops", "One layer (× layers) and the head", "一层（× 层数）与输出头"),
    ("llm.col.op", "operator", "算子"),
    ("llm.col.count", "×", "×"),
    ("llm.col.flops", "FLOPs", "FLOP"),
    ("llm.col.weights", "weights", "权重"),
    ("llm.col.act", "activations", "激活"),
    ("llm.col.kv", "KV", "KV"),
    ("llm.col.intensity", "FLOP/byte", "FLOP/字节"),
    ("llm.col.bound", "bound", "受限于"),
    ("llm.col.ms", "ms", "毫秒"),
    ("llm.op.norm1", "norm (attention)", "归一化（注意力前）"),
    ("llm.op.qkv", "QKV projection", "QKV 投影"),
    ("llm.op.rope", "RoPE on q, k", "q、k 的 RoPE"),
    ("llm.op.kv-write", "KV-cache write", "写 KV 缓存"),
    ("llm.op.attention", "attention", "注意力"),
    ("llm.op.o-proj", "output projection", "输出投影"),
    ("llm.op.residual1", "residual add", "残差相加"),
    ("llm.op.norm2", "norm (MLP)", "归一化（MLP 前）"),
    ("llm.op.gate-up", "gate/up projection", "gate/up 投影"),
    ("llm.op.up", "MLP up projection", "MLP 上投影"),
    ("llm.op.act", "activation (SiLU·up or GELU)", "激活（SiLU·up 或 GELU）"),
    ("llm.op.down", "down projection", "down 投影"),
    ("llm.op.residual2", "residual add", "残差相加"),
    ("llm.op.final-norm", "final norm", "最终归一化"),
    ("llm.op.lm-head", "LM head", "输出头"),
    ("llm.roofline", "Each operator on the roofline (red: compute-bound, blue: memory-bound); TFLOP/s at the predicted time", "每个算子在屋顶线上的位置（红：计算受限，蓝：内存受限）；按预测时间的 TFLOP/s"),
    ("llm.roofline.axis", "FLOP per byte", "FLOP/字节"),
    ("llm.ridge", "ridge {r}", "平衡点 {r}"),
    ("llm.batch-sweep", "Decode against batch at this context: the knee where the weight matmuls turn compute-bound", "此上下文下解码随批次的变化：权重矩阵乘转为计算受限的拐点"),
    ("llm.series.step", "step (ms)", "每步（毫秒）"),
    ("llm.series.ideal", "plain roofline (ms)", "朴素屋顶线（毫秒）"),
    ("llm.series.tokens", "tokens/s ÷ 1000", "每秒 token 数 ÷ 1000"),
    ("llm.series.intensity", "intensity of W X (§5.3)", "W X 的强度（§5.3）"),
    ("llm.series.measured", "measured step on the H200 (ms)", "H200 实测每步（毫秒）"),
    ("llm.axis.batch", "batch", "批次"),
    ("llm.axis.value", "value", "数值"),
    ("llm.knee", "knee at B = {b}: from there the MLP matmuls are compute-bound on the plain roofline", "拐点 B = {b}：从此 MLP 的矩阵乘在朴素屋顶线上变为计算受限"),
    ("llm.no-knee", "No knee up to B = 1024: the MLP matmuls stay memory-bound.", "直到 B = 1024 都没有拐点：MLP 的矩阵乘始终内存受限。"),
    ("llm.context-sweep", "Bytes read per decode step against context: KV cache against weights", "每步解码读取的字节随上下文长度的变化：KV 缓存与权重"),
    ("llm.series.weights", "weights", "权重"),
    ("llm.series.kv", "KV cache (batch)", "KV 缓存（整个批次）"),
    ("llm.axis.ctx", "tokens in the KV cache", "KV 缓存中的 token 数"),
    ("llm.axis.bytes", "bytes per step", "每步字节数"),
    ("llm.crossover", "At batch {b} the KV cache read per step overtakes the weights from {ctx} tokens of context.", "批次为 {b} 时，上下文超过 {ctx} 个 token 后每步读取的 KV 缓存就超过权重。"),
    ("llm.measured.title", "Measured on the H200", "H200 实测"),
    ("llm.measured.point", "Measured {meas} ms, predicted {pred} ms: prediction ÷ measured = {ratio}.", "实测 {meas} 毫秒，预测 {pred} 毫秒：预测 ÷ 实测 = {ratio}。"),
    ("llm.measured.none", "No measurement for this case: the H200 grid covers the presets (not Llama-3-70B, whose bf16 weights do not fit one H200) at bf16, some batches and contexts; choose gpu = H200 and one of them.", "此情形没有实测：H200 网格覆盖各预设模型（Llama-3-70B 除外，其 bf16 权重放不进一块 H200）在 bf16 下的部分批次和上下文长度；请选 gpu = H200 和其中之一。"),
    ("llm.accuracy", "Prediction against every measured step (H200, bf16): median and worst |prediction ÷ measured − 1|", "所有实测步上的预测对照（H200，bf16）：|预测 ÷ 实测 − 1| 的中位数与最大值"),
    ("llm.acc.col.case", "steps", "步骤"),
    ("llm.acc.col.fit", "models", "模型"),
    ("llm.acc.col.n", "n", "个数"),
    ("llm.acc.col.median", "median", "中位数"),
    ("llm.acc.col.worst", "worst", "最大"),
    ("llm.acc.fitted", "fitted", "拟合组"),
    ("llm.acc.held-out", "held out", "留出组"),
    ("llm.acc.decode", "decode", "解码"),
    ("llm.acc.prefill", "prefill", "预填充"),
    ("llm.acc.graph", "graph", "CUDA 图"),
    ("llm.acc.eager", "eager", "逐个启动"),
    ("llm.measured.why", "Fitted models: Llama-3-8B, LLaMA-7B, GPT-2 small (their graph steps set the per-kernel gaps, their stages the host's costs); held out: LLaMA-13B, Mistral-7B, GPT-2 medium, large and XL. The host switched between a fast and a slower state during the run (h200-llm-host_probe.csv), so an eager step is held against its fastest call (the host at full speed); its median call is slower by up to half again.", "拟合组：Llama-3-8B、LLaMA-7B、GPT-2 small（其 CUDA 图步骤确定每个内核的间隔，其各阶段确定主机开销）；留出组：LLaMA-13B、Mistral-7B、GPT-2 medium、large 和 XL。测量期间主机在较快与较慢两种状态之间切换（h200-llm-host_probe.csv），所以逐个启动的步骤以其最快一次调用（主机全速）为准；其中位数调用最多再慢一半。"),
    ("llm.measured.label", "Measured on an NVIDIA H200, {date}, by measure/llm/run_llm.py (one run; method and provenance in assets/measured/h200-llm.json).", "{date} 在 NVIDIA H200 上由 measure/llm/run_llm.py 测得（一次运行；方法与来源见 assets/measured/h200-llm.json）。"),
    ("llm.model-source", "Shape: {source}", "形状来源：{source}"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topic::q;

    #[test]
    fn the_issue_deep_link_parses_cleanly_and_shows_a_measured_dot() {
        let (v, notices) = LLM.parse(&q(&[
            ("model", "llama3-8b"),
            ("phase", "decode"),
            ("batch", "16"),
            ("ctx", "4096"),
            ("gpu", "h200"),
        ]));
        assert!(notices.is_empty(), "{notices:?}");
        let m = metrics(&v);
        let names: Vec<&str> = m.iter().map(|m| m.name).collect();
        assert_eq!(names, LLM.metrics);
        let (meas, pred) = measured(&v).expect("measured");
        assert!((pred / meas - 1.0).abs() < 0.1, "{pred} {meas}");
        // step > ideal; tokens/s = batch ÷ step.
        assert!(m[0].value > m[1].value);
        assert!((m[2].value - 16.0 / (m[0].value / 1e3)).abs() < 1e-6);
        // The waterfall adds up to the step.
        let (ideal, terms) = waterfall(&v);
        assert!((ideal + terms.iter().map(|t| t.seconds).sum::<f64>() - m[0].value).abs() < 1e-9);
        assert!((ideal - m[1].value).abs() < 1e-12);
    }

    #[test]
    fn switching_an_effect_moves_the_prediction() {
        // (Prefill: in decode the waves effect is nil, the GEMVs being memory-bound.)
        let v = Values::defaults(&LLM_PARAMS).with("phase", Value::Choice("prefill"));
        let all = metrics(&v)[0].value;
        for e in EFFECTS {
            let off = v.with("effects", Value::Text(toggled(&v, e)));
            assert!(!effects(&off).has(e));
            let t = metrics(&off)[0].value;
            assert!(t != all, "{e}");
        }
        let none = v.with("effects", Value::Text("none".into()));
        assert!((metrics(&none)[0].value - metrics(&none)[1].value).abs() < 1e-12);
        // A hostile list is refused with a notice.
        let (v2, n) = LLM.parse(&q(&[("effects", "gemm,bogus")]));
        assert!(!n.is_empty() && v2.text("effects") == "all");
    }

    #[test]
    fn the_lecture_table_matches() {
        let rows = lecture_rows(&Values::defaults(&LLM_PARAMS));
        assert_eq!(rows.len(), 5);
        assert!(rows.iter().all(|r| r.ok()), "{rows:?}");
    }

    #[test]
    fn sweeps_and_knee() {
        let (v, _) = LLM.parse(&q(&[("model", "llama3-8b"), ("ctx", "4096"), ("gpu", "h200")]));
        let s = batch_sweep(&v);
        assert_eq!(s.first().map(|p| p.0), Some(1.0));
        assert_eq!(s.last().map(|p| p.0), Some(1024.0));
        // Tokens/s grows with batch; the step grows too.
        assert!(s.windows(2).all(|w| w[1].3 >= w[0].3 * 0.95), "{s:?}");
        assert!(s.last().unwrap().1 > 2.0 * s[0].1 && s.last().unwrap().3 > 40.0 * s[0].3, "{s:?}");
        // The knee: the batch whose gate/up intensity reaches the H200's ridge (206 FLOP/B).
        let k = knee(&v).expect("a knee");
        let ridge = 989.5 / 4.8;
        assert!((k as f64) > ridge * 0.9 && (k as f64) < ridge * 1.5, "{k}");
        // KV overtakes weights: 16 GB of weights ÷ (128 KiB per token × 16) ≈ 7.7K tokens.
        let x = kv_crossover(&v.with("batch", Value::Int(16)));
        assert!((7000..8500).contains(&x), "{x}");
        let dots = measured_batches(&v);
        assert_eq!(dots.iter().map(|d| d.0).collect::<Vec<_>>(), [1.0, 4.0, 16.0, 64.0]);
        let c = context_sweep(&v);
        assert!(c.first().unwrap().2 < c.first().unwrap().1 && c.last().unwrap().2 > c.last().unwrap().1);
    }

    #[test]
    fn max_batch_and_custom_models() {
        let (v, _) = LLM.parse(&q(&[("model", "llama3-8b"), ("ctx", "4096"), ("gpu", "h200"), ("batch", "1")]));
        let m = metrics(&v);
        let mb = m.iter().find(|m| m.name == "max-batch").unwrap().value;
        // (141 GB − 16.06 GB) ÷ (4097 × 128 KiB) ≈ 232.
        assert!((225.0..240.0).contains(&mb), "{mb}");
        // More KV heads than heads: the shape uses as many as there are heads.
        let (c, _) = LLM.parse(&q(&[("model", "custom"), ("heads", "8"), ("kvheads", "64")]));
        assert_eq!(shape(&c).kvheads, 8);
        assert!(metrics(&c).iter().all(|m| m.unit == crate::sim::Unit::Word || m.value.is_finite()));
        // A custom GPU with no memory size: max batch 0, everything finite.
        let (g, _) = LLM.parse(&q(&[("gpu", "custom"), ("peak", "100"), ("bw", "500")]));
        assert!(metrics(&g).iter().all(|m| m.unit == crate::sim::Unit::Word || m.value.is_finite()));
    }
}
