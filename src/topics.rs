//! The one registry of lecture topics (pure part: what the landing page, the
//! URL validation, the README and the tests need). The UI adds one view
//! function per entry in `ui::registry`; adding a panel is one entry here, one
//! there, plus its files.

use crate::params::{clamp_position, parse, Kind, Notice, ParamSpec, Value, Values};
use crate::sim::systolic::{self, Dataflow, MAX_DIM, MAX_K};
use crate::sim::{coalescing, divergence, expr, flash, fusion, matmul, occupancy, roofline, softmax, threads};

pub struct TopicMeta {
    /// The route (`#/<id>`) and the stem of its translation keys
    /// (`topic.<id>.title`, `topic.<id>.summary`).
    pub id: &'static str,
    /// Lecture notes sections it covers (`../shared/lecture/notes.txt`).
    pub sections: &'static [&'static str],
    /// Companion demo in the notes (script number, and demo within it).
    pub demo: &'static str,
    /// Translation key of the lecture part the landing page files it under.
    pub part: &'static str,
    /// URL parameters, in the order they are written.
    pub params: &'static [ParamSpec],
    /// `data-metric` names the panel always shows.
    pub metrics: &'static [&'static str],
    /// The largest value of the position parameter (`cycle`, `step`) for
    /// these values, if the panel steps.
    pub position_max: Option<fn(&Values) -> u64>,
    /// Upper bounds of integer parameters that depend on the others (e.g. a
    /// tile index below the tile count): clamped with a notice when read from
    /// a URL, silently when another parameter changes.
    pub bounds: Option<Bounds>,
}

/// Dependent upper bounds: `(parameter, largest value)` for given values.
pub type Bounds = fn(&Values) -> Vec<(&'static str, i64)>;

impl TopicMeta {
    /// The position parameter's name, if the panel steps.
    pub fn position_param(&self) -> Option<&'static str> {
        self.params.iter().find(|p| p.kind == Kind::Position).map(|p| p.name)
    }

    /// Parse a URL query for this topic: validated values, with the position
    /// clamped to the run, and a notice for everything that was changed.
    pub fn parse(&'static self, query: &[(String, String)]) -> (Values, Vec<Notice>) {
        let (values, mut notices) = parse(self.params, query);
        let values = match (self.position_param(), self.position_max) {
            (Some(name), Some(max)) => {
                let (pos, notice) = clamp_position(name, values.int(name), max(&values));
                notices.extend(notice);
                values.with(name, Value::Int(pos as i64))
            }
            _ => values,
        };
        let mut values = values;
        if let Some(bounds) = self.bounds {
            for (name, max) in bounds(&values) {
                let given = values.int(name);
                if given > max {
                    let problem = crate::params::Problem::OutOfRange { min: 0, max, used: max };
                    // One notice per parameter: refine the static range's notice if there is one.
                    let same = |n: &&mut Notice| n.param == name && matches!(n.problem, crate::params::Problem::OutOfRange { .. });
                    match notices.iter_mut().find(same) {
                        Some(n) => n.problem = problem,
                        None => notices.push(Notice { param: name.to_string(), given: given.to_string(), problem }),
                    }
                    values = values.with(name, Value::Int(max));
                }
            }
        }
        (values, notices)
    }

    /// The parameters as JSON (`[{"name":…,"kind":"int","min":…,"max":…}, …]`),
    /// published on the landing page's cards for the browser tests.
    pub fn params_json(&self) -> String {
        let items: Vec<String> = self
            .params
            .iter()
            .map(|p| match p.kind {
                Kind::Int { min, max, .. } => format!(
                    r#"{{"name":"{}","kind":"int","min":{min},"max":{max}{}}}"#,
                    p.name,
                    if p.always { "" } else { r#","optional":true"# }
                ),
                Kind::Choice { options, .. } => format!(
                    r#"{{"name":"{}","kind":"choice","options":[{}]}}"#,
                    p.name,
                    options.iter().map(|o| format!("\"{o}\"")).collect::<Vec<_>>().join(",")
                ),
                Kind::Position => format!(r#"{{"name":"{}","kind":"position"}}"#, p.name),
                Kind::Text { max_len, .. } => format!(r#"{{"name":"{}","kind":"text","maxLen":{max_len}}}"#, p.name),
            })
            .collect();
        format!("[{}]", items.join(","))
    }

    /// Keep the position inside the run after another parameter changed.
    pub fn normalize(&self, values: Values) -> Values {
        let mut values = values;
        if let Some(bounds) = self.bounds {
            for (name, max) in bounds(&values) {
                let v = values.int(name).min(max);
                values = values.with(name, Value::Int(v));
            }
        }
        match (self.position_param(), self.position_max) {
            (Some(name), Some(max)) => {
                let m = max(&values);
                let pos = values.int(name).clamp(0, m as i64);
                values.with(name, Value::Int(pos))
            }
            _ => values,
        }
    }
}

/// The systolic simulation's parameters from validated URL values.
pub fn systolic_params(v: &Values) -> systolic::Params {
    systolic::Params {
        rows: v.int("rows") as usize,
        cols: v.int("cols") as usize,
        k: v.int("k") as usize,
        dataflow: Dataflow::from_code(v.choice("dataflow")).unwrap_or(Dataflow::Os),
        seed: v.int("seed") as u64,
    }
}

pub static SYSTOLIC_PARAMS: [ParamSpec; 8] = [
    ParamSpec::int("rows", 1, MAX_DIM as i64, 4),
    ParamSpec::int("cols", 1, MAX_DIM as i64, 4),
    ParamSpec::int("k", 1, MAX_K as i64, 6),
    ParamSpec::choice("dataflow", &["os", "ws"], "os"),
    ParamSpec::int("seed", 0, u32::MAX as i64, 1),
    ParamSpec::position("cycle"),
    ParamSpec::int("speed", 1, 1000, 4).optional(),
    INSET_GPU,
];

pub static SYSTOLIC: TopicMeta = TopicMeta {
    id: "systolic",
    sections: &["9.2"],
    demo: "06",
    part: "landing.part.tpu",
    params: &SYSTOLIC_PARAMS,
    metrics: &[
        "cycle",
        "total-cycles",
        "utilization",
        "busy-pes",
        "max-abs-error",
        "reads-per-operand",
        "uses-per-operand",
    ],
    position_max: Some(|v| systolic::total_cycles(&systolic_params(v))),
    bounds: None,
};

pub static THREADS_PARAMS: [ParamSpec; 3] = [
    ParamSpec::int("n", 1, threads::MAX_N as i64, 1000),
    ParamSpec::int("block", 1, threads::MAX_BLOCK as i64, 256),
    ParamSpec::position("thread"),
];

pub static THREADS: TopicMeta = TopicMeta {
    id: "threads",
    sections: &["3"],
    demo: "02 · 1",
    part: "landing.part.gpu",
    params: &THREADS_PARAMS,
    metrics: &["blocks", "threads", "idle-threads", "warps"],
    position_max: Some(|v| threads_grid(v).threads() - 1),
    bounds: None,
};

pub fn threads_grid(v: &Values) -> threads::Grid {
    threads::Grid::new(v.int("n") as u64, v.int("block") as u64)
}

fn check_cond(s: &str) -> Result<(), String> {
    expr::parse(s).map(|_| ()).map_err(|e| e.to_string())
}

pub static DIVERGENCE_PARAMS: [ParamSpec; 7] = [
    ParamSpec::int("warps", 1, divergence::MAX_WARPS as i64, 4),
    ParamSpec::text("cond", expr::MAX_LEN, "tid%2==0", check_cond),
    ParamSpec::int("then", 0, divergence::MAX_STEPS as i64, 10),
    ParamSpec::int("else", 0, divergence::MAX_STEPS as i64, 10),
    ParamSpec::int("after", 0, divergence::MAX_STEPS as i64, 0),
    ParamSpec::position("step"),
    ParamSpec::int("speed", 1, 1000, 8).optional(),
];

pub static DIVERGENCE: TopicMeta = TopicMeta {
    id: "divergence",
    sections: &["6.1"],
    demo: "02 · 2",
    part: "landing.part.fast",
    params: &DIVERGENCE_PARAMS,
    metrics: &["step", "total-steps", "warp-utilization", "simt-efficiency"],
    position_max: Some(|v| divergence_run(v).schedule().len() as u64),
    bounds: None,
};

pub fn divergence_params(v: &Values) -> divergence::Params {
    divergence::Params {
        warps: v.int("warps") as usize,
        cond: v.text("cond").to_string(),
        then_steps: v.int("then") as usize,
        else_steps: v.int("else") as usize,
        after_steps: v.int("after") as usize,
    }
}

pub fn divergence_run(v: &Values) -> divergence::Divergence {
    divergence::Divergence::new(divergence_params(v))
}

pub static COALESCING_PARAMS: [ParamSpec; 7] = [
    ParamSpec::choice("dtype", &["fp64", "fp32", "bf16", "fp16", "fp8"], "fp32"),
    ParamSpec::choice("pattern", &["stride", "row", "column", "random"], "stride"),
    ParamSpec::int("stride", 1, 1024, 1),
    ParamSpec::int("offset", 0, 4096, 0),
    ParamSpec::int("rowlen", 1, 65536, 1024),
    ParamSpec::choice("section", &["32", "64", "128"], "128"),
    ParamSpec::int("seed", 0, u32::MAX as i64, 1),
];

pub static COALESCING: TopicMeta = TopicMeta {
    id: "coalescing",
    sections: &["6.5"],
    demo: "02 · 3",
    part: "landing.part.fast",
    params: &COALESCING_PARAMS,
    metrics: &["transactions", "useful-fraction", "bytes-moved"],
    position_max: None,
    bounds: None,
};

pub fn coalescing_params(v: &Values) -> coalescing::Params {
    coalescing::Params {
        elem_bytes: coalescing::dtype_bytes(v.choice("dtype")),
        pattern: coalescing::Pattern::from_code(v.choice("pattern")).unwrap_or(coalescing::Pattern::Stride),
        stride: v.int("stride") as u64,
        offset: v.int("offset") as u64,
        rowlen: v.int("rowlen") as u64,
        section: v.choice("section").parse().unwrap_or(128),
        seed: v.int("seed") as u64,
    }
}

pub static OCCUPANCY_PARAMS: [ParamSpec; 4] = [
    ParamSpec::choice("arch", &["sm80", "sm90", "sm100"], "sm90"),
    ParamSpec::int("threads", 1, 1024, 256),
    ParamSpec::int("regs", 1, 255, 32),
    ParamSpec::int("smem", 0, 227 * 1024, 0),
];

pub static OCCUPANCY: TopicMeta = TopicMeta {
    id: "occupancy",
    sections: &["6.7"],
    demo: "02 · 4",
    part: "landing.part.fast",
    params: &OCCUPANCY_PARAMS,
    metrics: &["occupancy", "blocks-per-sm", "active-warps", "limiter"],
    position_max: None,
    bounds: None,
};

pub fn occupancy_kernel(v: &Values) -> (&'static occupancy::Arch, occupancy::Kernel) {
    (
        occupancy::arch(v.choice("arch")),
        occupancy::Kernel { threads: v.int("threads") as u32, regs: v.int("regs") as u32, smem: v.int("smem") as u32 },
    )
}

fn check_vector(s: &str) -> Result<(), String> {
    softmax::parse_vector(s).map(|_| ())
}

pub static SOFTMAX_PARAMS: [ParamSpec; 4] = [
    ParamSpec::text("x", 65536, "1,3,2,5", check_vector),
    ParamSpec::int("block", 1, softmax::MAX_VALUES as i64, 2),
    ParamSpec::position("step"),
    ParamSpec::int("speed", 1, 1000, 2).optional(),
];

pub static ONLINE_SOFTMAX: TopicMeta = TopicMeta {
    id: "online-softmax",
    sections: &["8.2"],
    demo: "05 · 1",
    part: "landing.part.flash",
    params: &SOFTMAX_PARAMS,
    metrics: &["step", "m", "l", "max-abs-error"],
    position_max: Some(|v| softmax_run(v).blocks() as u64),
    bounds: None,
};

pub fn softmax_run(v: &Values) -> softmax::OnlineSoftmax {
    let x = softmax::parse_vector(v.text("x")).unwrap_or_else(|_| vec![1.0, 3.0, 2.0, 5.0]);
    softmax::OnlineSoftmax::new(x, v.int("block") as usize)
}

pub static FLASH_PARAMS: [ParamSpec; 12] = [
    ParamSpec::int("n", 1, flash::MAX_N as i64, 256),
    ParamSpec::int("d", 1, flash::MAX_D as i64, 64),
    ParamSpec::int("bq", 1, flash::MAX_N as i64, 32),
    ParamSpec::int("bk", 1, flash::MAX_N as i64, 32),
    ParamSpec::choice("causal", &["0", "1"], "1"),
    ParamSpec::int("seed", 0, u32::MAX as i64, 1),
    ParamSpec::choice("pass", &["fwd", "bwd"], "fwd"),
    ParamSpec::position("step"),
    ParamSpec::choice("dtype", &["fp32", "bf16", "fp16", "fp8"], "bf16"),
    ParamSpec::int("sram", 1, 1024, 228),
    ParamSpec::int("speed", 1, 1000, 4).optional(),
    INSET_GPU,
];

pub static FLASH: TopicMeta = TopicMeta {
    id: "flash",
    sections: &["8.3", "8.4"],
    demo: "05 · 2–3",
    part: "landing.part.flash",
    params: &FLASH_PARAMS,
    metrics: &[
        "step",
        "tiles-computed",
        "tiles-skipped",
        "max-abs-error",
        "grad-max-abs-error",
        "hbm-bytes-flash",
        "hbm-bytes-standard",
        "sram-bytes",
    ],
    position_max: Some(|v| flash::Flash::schedule_only(flash_params(v)).steps()),
    bounds: None,
};

pub fn flash_params(v: &Values) -> flash::Params {
    flash::Params {
        n: v.int("n") as usize,
        d: v.int("d") as usize,
        bq: v.int("bq") as usize,
        bk: v.int("bk") as usize,
        causal: v.choice("causal") == "1",
        seed: v.int("seed") as u64,
        elem_bytes: coalescing::dtype_bytes(v.choice("dtype")),
        sram: v.int("sram") as u64 * 1024,
    }
}

pub fn flash_pass(v: &Values) -> flash::Pass {
    if v.choice("pass") == "bwd" {
        flash::Pass::Bwd
    } else {
        flash::Pass::Fwd
    }
}

pub static MEMORY_PARAMS: [ParamSpec; 4] = [
    ParamSpec::int("n", 1, 1 << 20, 4096),
    ParamSpec::int("d", 1, 256, 128),
    ParamSpec::choice("dtype", &["fp32", "bf16", "fp16", "fp8"], "bf16"),
    ParamSpec::choice("stats", &["l", "ml"], "l"),
];

pub static ATTENTION_MEMORY: TopicMeta = TopicMeta {
    id: "attention-memory",
    sections: &["8.5"],
    demo: "05 · 4",
    part: "landing.part.flash",
    params: &MEMORY_PARAMS,
    metrics: &["standard-bytes", "flash-extra-bytes", "ratio"],
    position_max: None,
    bounds: None,
};

/// `m` or `k` given as 0 means "the same as n" (square by default).
fn or_n(v: &Values, name: &str) -> u64 {
    match v.int(name) {
        0 => v.int("n") as u64,
        x => x as u64,
    }
}

pub static TILING_PARAMS: [ParamSpec; 12] = [
    ParamSpec::int("n", 1, 4096, 256),
    ParamSpec::int("m", 0, 4096, 0).optional(),
    ParamSpec::int("k", 0, 4096, 0).optional(),
    ParamSpec::int("tile", 1, 256, 16),
    ParamSpec::choice("dtype", &["fp32", "bf16", "fp16", "fp8"], "fp32"),
    ParamSpec::choice("mode", &["naive", "tiled"], "tiled"),
    ParamSpec::position("step"),
    ParamSpec::int("smem", 1, 1024, 228),
    ParamSpec::int("speed", 1, 1000, 2).optional(),
    INSET_GPU,
    ParamSpec::int("ti", 0, 4095, 0),
    ParamSpec::int("tj", 0, 4095, 0),
];

pub static TILING: TopicMeta = TopicMeta {
    id: "tiling",
    sections: &["6.6"],
    demo: "04",
    part: "landing.part.fast",
    params: &TILING_PARAMS,
    metrics: &["step", "global-reads", "global-bytes", "intensity", "smem-bytes", "max-tile"],
    position_max: Some(|v| tiling_steps(&tiling(v))),
    bounds: Some(|v| {
        let t = tiling(v);
        vec![("ti", (t.m.div_ceil(t.t) - 1) as i64), ("tj", (t.n.div_ceil(t.t) - 1) as i64)]
    }),
};

pub fn tiling(v: &Values) -> matmul::Tiling {
    matmul::Tiling {
        m: or_n(v, "m"),
        n: v.int("n") as u64,
        k: or_n(v, "k"),
        t: v.int("tile") as u64,
        elem_bytes: coalescing::dtype_bytes(v.choice("dtype")),
        tiled: v.choice("mode") == "tiled",
    }
}

/// Tiled: one step per phase (a pair of tiles); naive: one step per k.
pub fn tiling_steps(t: &matmul::Tiling) -> u64 {
    if t.tiled {
        t.phases()
    } else {
        t.k
    }
}

pub static QUANTIZATION_PARAMS: [ParamSpec; 5] = [
    ParamSpec::int("n", 1, 8192, 1025),
    ParamSpec::int("m", 0, 8192, 0).optional(),
    ParamSpec::int("tile", 1, 512, 128),
    ParamSpec::choice("dtype", &["fp32", "bf16", "fp16", "fp8"], "fp32"),
    ParamSpec::choice("section", &["32", "64", "128"], "128"),
];

pub static QUANTIZATION: TopicMeta = TopicMeta {
    id: "quantization",
    sections: &["6.6", "7"],
    demo: "04",
    part: "landing.part.fast",
    params: &QUANTIZATION_PARAMS,
    metrics: &["useful-fraction", "tiles", "aligned", "extra-transactions"],
    position_max: None,
    bounds: None,
};

pub fn quantization(v: &Values) -> matmul::Quantization {
    matmul::Quantization {
        m: or_n(v, "m"),
        n: v.int("n") as u64,
        t: v.int("tile") as u64,
        elem_bytes: coalescing::dtype_bytes(v.choice("dtype")),
        section: v.choice("section").parse().unwrap_or(128),
    }
}

pub static WAVES_PARAMS: [ParamSpec; 8] = [
    ParamSpec::choice("gpu", &["a100", "h100", "h200", "b200"], "a100"),
    ParamSpec::int("sms", 0, 1024, 0).optional(),
    ParamSpec::int("n", 1, 16384, 1792),
    ParamSpec::int("m", 0, 16384, 0).optional(),
    ParamSpec::int("k", 0, 16384, 0).optional(),
    ParamSpec::int("tm", 1, 1024, 256),
    ParamSpec::int("tn", 1, 1024, 128),
    ParamSpec::int("ref", 1, 16384, 1792),
];

pub static WAVES: TopicMeta = TopicMeta {
    id: "waves",
    sections: &["7"],
    demo: "02 · 5",
    part: "landing.part.fast",
    params: &WAVES_PARAMS,
    metrics: &["tiles", "waves", "sm-utilization", "relative-flops", "relative-time"],
    position_max: None,
    bounds: None,
};

/// The waves model for side `n` (with the panel's m, k ratios and tiles).
pub fn waves_at(v: &Values, n: u64) -> matmul::Waves {
    let g = matmul::gpu(v.choice("gpu"));
    let sms = match v.int("sms") {
        0 => g.sms as u64,
        x => x as u64,
    };
    let scale = |name: &str| match v.int(name) {
        0 => n,
        x => x as u64,
    };
    matmul::Waves { m: scale("m"), n, k: scale("k"), tm: v.int("tm") as u64, tn: v.int("tn") as u64, sms }
}

pub static GPU_TPU_PARAMS: [ParamSpec; 7] = [
    ParamSpec::int("m", 1, 16384, 512),
    ParamSpec::int("k", 1, 16384, 4096),
    ParamSpec::int("n", 1, 16384, 4096),
    ParamSpec::choice("mxu", &["128", "256"], "128"),
    ParamSpec::choice("gpu", &["a100", "h100", "h200", "b200"], "h100"),
    ParamSpec::int("tm", 1, 1024, 128),
    ParamSpec::int("tn", 1, 1024, 128),
];

pub static GPU_TPU: TopicMeta = TopicMeta {
    id: "gpu-vs-tpu",
    sections: &["9.1"],
    demo: "06",
    part: "landing.part.tpu",
    params: &GPU_TPU_PARAMS,
    metrics: &["mxu-passes", "mxu-utilization", "gpu-waves", "gpu-utilization"],
    position_max: None,
    bounds: None,
};

pub fn gpu_tpu(v: &Values) -> matmul::Compare {
    let code = v.choice("gpu");
    matmul::Compare {
        m: v.int("m") as u64,
        k: v.int("k") as u64,
        n: v.int("n") as u64,
        mxu: v.choice("mxu").parse().unwrap_or(128),
        sms: matmul::gpu(code).sms as u64,
        tm: v.int("tm") as u64,
        tn: v.int("tn") as u64,
        macs_per_sm_cycle: matmul::macs_per_sm_cycle(code),
    }
}

pub static HARDWARE_PARAMS: [ParamSpec; 4] = [
    ParamSpec::choice("gpu", &["a100", "h100", "h200", "b200", "custom"], "h100"),
    ParamSpec::choice("dtype", &["fp32", "bf16", "fp16", "fp8"], "bf16"),
    ParamSpec::int("peak", 1, 100_000, 1000).optional(),
    ParamSpec::int("bw", 1, 100_000, 3350).optional(),
];

pub static HARDWARE: TopicMeta = TopicMeta {
    id: "hardware",
    sections: &["1", "2", "4"],
    demo: "01 · 1",
    part: "landing.part.gpu",
    params: &HARDWARE_PARAMS,
    metrics: &["ridge", "peak-tflops", "bandwidth-tbps"],
    position_max: None,
    bounds: None,
};

/// The chosen machine: a preset, or the custom one (`peak` TFLOP/s for every
/// dtype, `bw` GB/s) whose memory sizes are unknown (zero).
pub fn machine(v: &Values) -> roofline::Hardware {
    match v.choice("gpu") {
        "custom" => {
            let peak = v.int("peak") as f64;
            roofline::Hardware {
                code: "custom",
                name: "custom",
                sms: 0,
                bf16_tflops: peak,
                fp8_tflops: Some(peak),
                fp32_tflops: peak,
                hbm_tbps: v.int("bw") as f64 / 1000.0,
                hbm_gb: 0.0,
                l2_mb: 0.0,
                smem_kb_per_sm: 0.0,
                regs_kb_per_sm: 0.0,
                source: "given in the URL (peak, bw)",
            }
        }
        code => *roofline::hardware(code),
    }
}

pub static ROOFLINE_PARAMS: [ParamSpec; 8] = [
    ParamSpec::choice("gpu", &["a100", "h100", "h200", "b200"], "h100"),
    ParamSpec::choice("dtype", &["fp32", "bf16", "fp16", "fp8"], "bf16"),
    ParamSpec::choice("op", &["relu", "dot", "matvec", "matmul", "decode", "custom"], "matmul"),
    ParamSpec::int("n", 1, 65536, 4096),
    ParamSpec::int("d", 1, 65536, 8192),
    ParamSpec::int("batch", 1, 65536, 1),
    ParamSpec::int("flops", 1, 1_000_000_000_000_000, 1_000_000).optional(),
    ParamSpec::int("bytes", 1, 1_000_000_000_000_000, 1_000_000).optional(),
];

pub static ROOFLINE: TopicMeta = TopicMeta {
    id: "roofline",
    sections: &["5", "6.2"],
    demo: "01 · 2–3",
    part: "landing.part.fast",
    params: &ROOFLINE_PARAMS,
    metrics: &["intensity", "attainable-tflops", "percent-of-peak", "bound"],
    position_max: None,
    bounds: None,
};

/// FLOPs and bytes of the chosen operation.
pub fn roofline_work(v: &Values, op: &str) -> roofline::Work {
    let e = roofline::dtype_bytes(v.choice("dtype"));
    if op == "custom" {
        return roofline::Work { flops: v.int("flops") as f64, bytes: v.int("bytes") as f64 };
    }
    roofline::op_work(op, v.int("n") as f64, v.int("d") as f64, v.int("batch") as f64, e)
}

fn check_fusion(s: &str) -> Result<(), String> {
    fusion::parse(s).map(|_| ()).map_err(|e| e.to_string())
}

/// The GPU a panel's roofline inset is drawn for.
pub const INSET_GPU: ParamSpec = ParamSpec::choice("gpu", &["a100", "h100", "h200", "b200"], "h100").optional();

pub static FUSION_PARAMS: [ParamSpec; 4] = [
    ParamSpec::text("expr", fusion::MAX_LEN, "sin(x)^2 + cos(x)^2", check_fusion),
    ParamSpec::int("n", 1, 1 << 30, 16_777_216),
    ParamSpec::choice("dtype", &["fp32", "bf16", "fp16", "fp8"], "fp32"),
    INSET_GPU,
];

pub static FUSION: TopicMeta = TopicMeta {
    id: "fusion",
    sections: &["6.3"],
    demo: "03",
    part: "landing.part.fast",
    params: &FUSION_PARAMS,
    metrics: &["kernels-unfused", "bytes-unfused", "bytes-fused", "speedup-bound"],
    position_max: None,
    bounds: None,
};

pub static RECOMPUTE_PARAMS: [ParamSpec; 4] = [
    ParamSpec::int("depth", 1, 16, 3),
    ParamSpec::int("n", 1, 1 << 28, 1 << 20),
    ParamSpec::choice("dtype", &["fp32", "bf16", "fp16", "fp8"], "fp32"),
    ParamSpec::choice("upstream", &["1", "0"], "1"),
];

pub static RECOMPUTE: TopicMeta = TopicMeta {
    id: "recompute",
    sections: &["6.4"],
    demo: "03",
    part: "landing.part.fast",
    params: &RECOMPUTE_PARAMS,
    metrics: &["accesses-store", "accesses-recompute", "saved-bytes-store", "saved-bytes-recompute"],
    position_max: None,
    bounds: None,
};

pub fn recompute(v: &Values) -> fusion::Recompute {
    fusion::Recompute {
        depth: v.int("depth") as u64,
        n: v.int("n") as u64,
        elem_bytes: coalescing::dtype_bytes(v.choice("dtype")),
        upstream: v.choice("upstream") == "1",
    }
}

/// Every topic, in lecture order.
pub static ALL: [&TopicMeta; 16] = [
    &HARDWARE,
    &THREADS,
    &ROOFLINE,
    &DIVERGENCE,
    &FUSION,
    &RECOMPUTE,
    &COALESCING,
    &TILING,
    &QUANTIZATION,
    &OCCUPANCY,
    &WAVES,
    &ONLINE_SOFTMAX,
    &FLASH,
    &ATTENTION_MEMORY,
    &GPU_TPU,
    &SYSTOLIC,
];

pub fn find(id: &str) -> Option<&'static TopicMeta> {
    ALL.iter().copied().find(|t| t.id == id)
}

/// A markdown table of every panel's URL parameters and metrics (the README's
/// panel table is checked against it by a test).
pub fn readme_table() -> String {
    let mut out =
        String::from("| route | notes § | demo | URL parameters | metrics (`data-metric`) |\n|---|---|---|---|---|\n");
    for t in ALL {
        let params: Vec<String> = t.params.iter().map(|p| format!("`{}`", p.name)).collect();
        let metrics: Vec<String> = t.metrics.iter().map(|m| format!("`{m}`")).collect();
        out += &format!(
            "| `#/{}` | {} | {} | {} | {} |\n",
            t.id,
            t.sections.join(", "),
            t.demo,
            params.join(" "),
            metrics.join(" ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{parse, Kind};

    fn q(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn ids_and_names_are_unique() {
        for (i, t) in ALL.iter().enumerate() {
            assert!(ALL[..i].iter().all(|u| u.id != t.id));
            for (j, p) in t.params.iter().enumerate() {
                assert!(t.params[..j].iter().all(|o| o.name != p.name), "{} repeats {}", t.id, p.name);
                assert!(!crate::params::GLOBAL_PARAMS.contains(&p.name));
            }
        }
    }

    /// The hostile-URL test of the pure layer, over the whole registry: every
    /// parameter of every topic, given garbage, gives a notice naming it and a
    /// value inside its range.
    #[test]
    fn hostile_values_for_every_parameter_of_every_topic() {
        for t in ALL {
            for p in t.params {
                for bad in ["-3", "abc", "100000", "", "1e9", "99999999999999999999999", "%"] {
                    let (v, notices) = parse(t.params, &q(&[(p.name, bad)]));
                    match p.kind {
                        Kind::Int { min, max, .. } => {
                            let x = v.int(p.name);
                            assert!((min..=max).contains(&x), "{}.{}={bad} → {x}", t.id, p.name);
                            if !(min..=max).contains(&bad.parse::<i64>().unwrap_or(i64::MIN)) {
                                assert!(notices.iter().any(|n| n.param == p.name), "{}.{}={bad}", t.id, p.name);
                            }
                        }
                        Kind::Choice { options, .. } => {
                            assert!(options.contains(&v.choice(p.name)));
                            assert!(notices.iter().any(|n| n.param == p.name));
                        }
                        Kind::Position => {
                            if bad.parse::<i64>().is_err() && !bad.chars().all(|c| c.is_ascii_digit()) {
                                assert!(notices.iter().any(|n| n.param == p.name), "{}.{}={bad}", t.id, p.name);
                            }
                        }
                        Kind::Text { check, .. } => {
                            // Either accepted as given, or replaced (valid) with a notice.
                            let used = v.text(p.name);
                            assert!((check.0)(used).is_ok());
                            assert!(
                                used == bad || notices.iter().any(|n| n.param == p.name),
                                "{}.{}={bad}",
                                t.id,
                                p.name
                            );
                        }
                    }
                }
            }
            let (_, notices) = parse(t.params, &q(&[("no-such-param", "1")]));
            assert_eq!(notices.len(), 1);
            if let Some(pos) = t.position_param() {
                let (v, notices) = t.parse(&q(&[(pos, "99999999999")]));
                assert!(notices.iter().any(|n| n.param == pos));
                assert_eq!(v.int(pos) as u64, (t.position_max.unwrap())(&v));
            }
        }
    }

    #[test]
    fn the_issue_deep_link_parses_cleanly() {
        let (v, notices) = SYSTOLIC.parse(&q(&[
            ("rows", "4"),
            ("cols", "4"),
            ("k", "6"),
            ("dataflow", "os"),
            ("seed", "1"),
            ("cycle", "3"),
        ]));
        assert!(notices.is_empty());
        assert_eq!(v.int("cycle"), 3);
        assert_eq!(
            v.to_query(),
            q(&[("rows", "4"), ("cols", "4"), ("k", "6"), ("dataflow", "os"), ("seed", "1"), ("cycle", "3")])
        );
        // Shrinking k pulls the cycle back inside the run.
        let shrunk = SYSTOLIC.normalize(v.with("cycle", Value::Int(12)).with("k", Value::Int(1)));
        assert_eq!(shrunk.int("cycle"), 7);
    }

    #[test]
    fn params_json_names_every_parameter() {
        let j = SYSTOLIC.params_json();
        assert!(j.starts_with(r#"[{"name":"rows","kind":"int","min":1,"max":256}"#), "{j}");
        assert!(j.contains(r#"{"name":"dataflow","kind":"choice","options":["os","ws"]}"#));
        assert!(j.contains(r#"{"name":"cycle","kind":"position"}"#));
        assert!(j.contains(r#"{"name":"speed","kind":"int","min":1,"max":1000,"optional":true}"#));
    }

    #[test]
    fn lecture_deep_links() {
        let (v, n) = THREADS.parse(&q(&[("n", "1000"), ("block", "256")]));
        assert!(n.is_empty());
        assert_eq!(threads_grid(&v).idle_threads(), 24);
        let (v, n) = DIVERGENCE.parse(&q(&[("cond", "tid<100"), ("step", "999")]));
        assert_eq!(n.len(), 1, "step clamped to the run");
        assert_eq!(v.int("step"), 50);
        let (v, n) = DIVERGENCE.parse(&q(&[("cond", "tid % 2 = 0")]));
        assert_eq!(v.text("cond"), "tid%2==0");
        assert!(matches!(&n[0].problem, crate::params::Problem::Invalid { reason, .. } if reason.contains("==")));
        let (v, _) = COALESCING.parse(&q(&[("stride", "32")]));
        assert_eq!(coalescing::Access::new(coalescing_params(&v)).transactions(), 32);
        let (v, _) = OCCUPANCY.parse(&q(&[("threads", "128"), ("regs", "160")]));
        let (a, k) = occupancy_kernel(&v);
        assert_eq!(occupancy::compute(a, k).active_warps, 12);
    }

    #[test]
    fn matmul_deep_links() {
        let (v, n) = TILING.parse(&q(&[("n", "256"), ("tile", "64"), ("dtype", "fp32")]));
        assert!(n.is_empty());
        assert_eq!(tiling(&v).global_reads(), 524_288);
        assert_eq!(tiling_steps(&tiling(&v)), 4);
        // The chosen output tile is kept inside the grid, with a notice.
        let (v, n) = TILING.parse(&q(&[("n", "256"), ("tile", "64"), ("ti", "9"), ("tj", "3")]));
        assert_eq!((v.int("ti"), v.int("tj")), (3, 3));
        assert_eq!(n.len(), 1);
        assert_eq!(TILING.normalize(v.with("tile", Value::Int(128))).int("ti"), 1);
        let (_, n) = TILING.parse(&q(&[("n", "256"), ("tile", "64"), ("ti", "100000")]));
        assert_eq!(n.len(), 1, "one notice per parameter");
        assert_eq!(n[0].problem, crate::params::Problem::OutOfRange { min: 0, max: 3, used: 3 });
        let (v, _) = WAVES.parse(&q(&[("gpu", "a100"), ("n", "1793")]));
        assert_eq!(waves_at(&v, 1793).waves(), 2);
        let (v, _) = QUANTIZATION.parse(&q(&[("n", "1024")]));
        assert_eq!(quantization(&v).useful_fraction(), 1.0);
    }

    #[test]
    fn readme_lists_every_panel() {
        let readme = include_str!("../README.md");
        assert!(readme.contains(&readme_table()), "README's panel table is stale; expected:\n{}", readme_table());
    }
}
