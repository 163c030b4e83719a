//! `#/systolic`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters; the caption, the phases shown
//! for a dataflow and the lecture presets.

use super::*;
use crate::i18n::{tr, trf, Lang};
use crate::params::{ParamSpec, Value, Values};
use crate::sim::systolic::{self, Dataflow, Phase, Systolic, MAX_DIM, MAX_K};
use crate::sim::Steppable;

#[cfg(target_arch = "wasm32")]
mod view;
pub mod practice;

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
    ParamSpec::int("rows", 1, MAX_DIM as i64, 4).log(),
    ParamSpec::int("cols", 1, MAX_DIM as i64, 4).log(),
    ParamSpec::int("k", 1, MAX_K as i64, 6).log(),
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
    part: Part::Tpu,
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

/// The line above the array: cycle, phase, busy PEs (and the weight chunk).
pub fn caption(lang: Lang, sim: &Systolic, cycle: u64) -> String {
    let f = sim.state_at(cycle);
    let p = sim.params();
    let mut s = format!(
        "{} {} / {} · {} · {} / {} PE",
        tr(lang, "param.cycle"),
        f.cycle,
        sim.total_cycles(),
        tr(lang, &format!("phase.{}", f.phase.code())),
        f.busy_pes,
        p.rows * p.cols
    );
    if let Some(ws) = f.ws {
        let chunk =
            trf(lang, "systolic.chunk", &[("q", &(ws.chunk + 1).to_string()), ("n", &sim.chunks().to_string())]);
        s += &format!(" · {chunk}");
    }
    s
}

/// The phases a run of this dataflow goes through, in the order the chips show them.
pub fn phases(dataflow: Dataflow) -> &'static [Phase] {
    match dataflow {
        Dataflow::Os => &[Phase::Fill, Phase::Steady, Phase::Drain, Phase::FillDrain],
        Dataflow::Ws => &[Phase::LoadWeights, Phase::Fill, Phase::Steady, Phase::Drain, Phase::FillDrain],
    }
}

/// The lecture's claims (notes §9.2): label key, `data-preset` id
/// (`<rows>x<cols>x<k>`), rows, columns and K.
pub const PRESETS: [(&str, &str, i64, i64, i64); 4] = [
    ("systolic.preset.4x4", "4x4x6", 4, 4, 6),
    ("systolic.preset.8x8", "8x8x8", 8, 8, 8),
    ("systolic.preset.8x8-512", "8x8x512", 8, 8, 512),
    ("systolic.preset.tpu", "128x128x512", 128, 128, 512),
];

/// The values a preset sets: output-stationary, from cycle 0.
pub fn preset_values(rows: i64, cols: i64, k: i64) -> Vec<(&'static str, Value)> {
    vec![
        ("rows", Value::Int(rows)),
        ("cols", Value::Int(cols)),
        ("k", Value::Int(k)),
        ("dataflow", Value::Choice("os")),
        ("cycle", Value::Int(0)),
    ]
}

/// FLOPs and bytes of the product (bf16 operands and output), for the roofline inset.
pub fn work(p: &systolic::Params) -> crate::sim::roofline::Work {
    crate::sim::roofline::Work {
        flops: 2.0 * (p.rows * p.cols * p.k) as f64,
        bytes: 2.0 * (p.rows * p.k + p.k * p.cols + p.rows * p.cols) as f64,
    }
}

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &SYSTOLIC,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <view::SystolicPanel /> },
};

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = &[
    ("topic.systolic.title", "Systolic array (TPU MXU)", "脉动阵列（TPU 的 MXU）"),
    ("topic.systolic.summary", "Operands pulse through a grid of multiply-accumulate units: each value is read once and reused by a whole row or column of PEs.", "数据有节奏地流过乘加单元网格：每个数据只读一次，被一整行或一整列 PE 重复使用。"),
    ("param.rows", "Rows", "行数"),
    ("param.rows.doc", "PE rows, and rows of A (TPU v2–v5: 128, v6e: 256)", "PE 行数，也是 A 的行数（TPU v2–v5 为 128，v6e 为 256）"),
    ("param.cols", "Columns", "列数"),
    ("param.cols.doc", "PE columns, and columns of B", "PE 列数，也是 B 的列数"),
    ("param.dataflow", "Dataflow", "数据流"),
    ("param.dataflow.doc", "Which value stays put in each PE", "每个 PE 中固定不动的是哪个值"),
    ("param.systolic.seed", "Seed", "随机种子"),
    ("param.systolic.seed.doc", "Seed of the operand generator (digits 0–9)", "操作数生成器的种子（0–9 的整数）"),
    ("param.cycle", "Cycle", "周期"),
    ("choice.dataflow.os", "Output-stationary", "输出固定"),
    ("choice.dataflow.ws", "Weight-stationary", "权重固定"),
    ("systolic.os.explain", "Output-stationary (the lecture's version): row i of A enters from the left i cycles late and moves one PE right per cycle; column j of B enters from the top j cycles late and moves one PE down. A[i][k] and B[k][j] meet in PE (i, j) in cycle i+j+k+1, which multiplies them and adds the product to its own C[i][j]. Each value is read from memory once and used by a whole row (A) or column (B) of PEs.", "输出固定（讲义中的版本）：A 的第 i 行晚 i 个周期从左边进入，每周期右移一格；B 的第 j 列晚 j 个周期从上边进入，每周期下移一格。A[i][k] 和 B[k][j] 在第 i+j+k+1 个周期到达 PE (i, j)，PE 把它们相乘并累加到自己的 C[i][j]。每个数据只从内存读一次，被一整行（A）或一整列（B）的 PE 使用。"),
    ("systolic.ws.explain", "Weight-stationary (the lecture's exercise): B is cut along K into chunks of `rows` rows; each chunk is first pushed down into the PEs, one row per cycle, and stays there. Then the rows of A stream in from the left, skewed; each PE multiplies the passing value by its weight, adds the partial sum from above and passes it down; finished sums leave the bottom into the output accumulators. Real TPUs load the next chunk behind the current one (double buffering) and stream thousands of vectors per load; here the load is a phase of its own so you can watch it, and only `rows` vectors stream, so load, fill and drain weigh heavily.", "权重固定（讲义中的练习）：把 B 沿 K 切成每块 `行数` 行；每块先逐行下推装入 PE，之后固定不动。然后 A 的各行错位地从左边流入；每个 PE 把经过的值乘以自己的权重，加上从上方传来的部分和，再向下传；算完的和从底部流出，累加到输出缓冲。真实的 TPU 会在计算当前块时同时装入下一块（双缓冲），每次装载后流过成千上万个向量；这里把装载单独作为一个阶段便于观察，且只流过 `行数` 个向量，所以装载、填充和排空的占比很大。"),
    ("systolic.lecture", "Lecture check (notes §9.2): 4×4, K=6 → 12 cycles, 50 %; 8×8, K=8 → 36 %; 8×8, K=512 → 97 %; result equal to A·B.", "讲义对照（§9.2）：4×4、K=6 → 12 个周期、利用率 50%；8×8、K=8 → 36%；8×8、K=512 → 97%；结果与 A·B 一致。"),
    ("systolic.presets", "Lecture presets", "讲义示例"),
    ("systolic.preset.4x4", "4×4, K=6", "4×4，K=6"),
    ("systolic.preset.8x8", "8×8, K=8", "8×8，K=8"),
    ("systolic.preset.8x8-512", "8×8, K=512", "8×8，K=512"),
    ("systolic.preset.tpu", "TPU v5 MXU 128×128, K=512", "TPU v5 MXU 128×128，K=512"),
    ("systolic.timeline", "Busy PEs per cycle", "每周期忙碌的 PE 数"),
    ("systolic.chunk", "weight chunk {q} of {n}", "权重块 {q}/{n}"),
    ("systolic.legend.waiting", "waiting", "等待"),
    ("systolic.legend.busy", "multiply-accumulate this cycle", "本周期做乘加"),
    ("systolic.legend.done", "finished", "已完成"),
    ("systolic.legend.weight", "holds a weight", "存有权重"),
    ("systolic.a-queue", "A", "A"),
    ("systolic.b-queue", "B", "B"),
    ("systolic.w-queue", "B (W)", "B（权重）"),
    ("systolic.out", "C", "C"),
    ("systolic.checking", "checking C against A·B computed directly… {pct}%", "正在核对 C 与直接计算的 A·B……{pct}%"),
    ("systolic.checking.short", "checking… {pct}%", "核对中……{pct}%"),
    ("systolic.result", "Result", "结果"),
    ("systolic.result.ok", "C equals A·B computed directly.", "C 与直接计算的 A·B 完全一致。"),
    ("systolic.result.bad", "C differs from A·B!", "C 与 A·B 不一致！"),
    ("systolic.large", "Heat map: each pixel is one PE.", "热力图：每个像素是一个 PE。"),
    ("phase.start", "Start: nothing has entered", "开始：尚无数据进入"),
    ("phase.load", "Loading weights", "装载权重"),
    ("phase.fill", "Fill: operands still arriving", "填充：数据仍在流入"),
    ("phase.steady", "Steady state: every PE busy", "稳态：所有 PE 都在工作"),
    ("phase.drain", "Drain: PEs finishing", "排空：PE 陆续完成"),
    ("phase.fill-drain", "Fill and drain at once (K is short)", "填充与排空同时发生（K 太短）"),
    ("metric.cycle", "Cycle", "周期"),
    ("metric.total-cycles", "Total cycles", "总周期数"),
    ("metric.utilization", "Utilization", "利用率"),
    ("metric.utilization.doc", "Busy PE-cycles ÷ (PEs × total cycles)", "忙碌的 PE·周期 ÷（PE 数 × 总周期数）"),
    ("metric.busy-pes", "Busy PEs now", "当前忙碌 PE"),
    ("metric.systolic.max-abs-error", "Max |C − A·B|", "最大 |C − A·B|"),
    ("metric.systolic.max-abs-error.doc", "Final array output against A·B computed directly", "阵列最终输出与直接计算的 A·B 之差"),
    ("metric.reads-per-operand", "Reads per operand", "每个操作数读取次数"),
    ("metric.reads-per-operand.doc", "Times each element of A and B is fetched from memory", "A、B 中每个元素从内存读取的次数"),
    ("metric.uses-per-operand", "Uses per operand", "每个操作数使用次数"),
    ("metric.uses-per-operand.doc", "PEs that use each element of A and B (the reuse a GPU gets from tiling)", "使用 A、B 中每个元素的 PE 数（GPU 靠分块获得的复用）"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_give_the_lecture_numbers() {
        // notes §9.2: 4×4, K=6 → 12 cycles, 50 %; 8×8, K=8 → 36 %; 8×8, K=512 → 97 %.
        let start =
            Values::defaults(&SYSTOLIC_PARAMS).with("dataflow", Value::Choice("ws")).with("seed", Value::Int(7));
        let expected = [(12, "50"), (22, "36"), (526, "97"), (128 + 128 + 512 - 2, "67")];
        for ((key, id, r, c, k), (cycles, util)) in PRESETS.iter().zip(expected) {
            assert_eq!(*id, format!("{r}x{c}x{k}"), "{key}");
            let v =
                SYSTOLIC.normalize(preset_values(*r, *c, *k).into_iter().fold(start.clone(), |a, (n, x)| a.with(n, x)));
            let sim = Systolic::new(systolic_params(&v));
            assert_eq!(sim.total_cycles(), cycles, "{id}");
            assert_eq!(v.int("cycle"), 0, "{id}: opens at cycle 0");
            assert_eq!(format!("{:.0}", 100.0 * sim.utilization()), util, "{id}");
        }
    }

    #[test]
    fn captions_name_cycle_phase_and_chunk() {
        let p = |df| systolic::Params { rows: 4, cols: 4, k: 6, dataflow: df, seed: 1 };
        let os = Systolic::new(p(Dataflow::Os));
        assert_eq!(caption(Lang::En, &os, 3), "Cycle 3 / 12 · Fill: operands still arriving · 6 / 16 PE");
        assert!(caption(Lang::Zh, &os, 12).starts_with("周期 12 / 12 · 排空"));
        let ws = Systolic::new(p(Dataflow::Ws));
        assert!(caption(Lang::En, &ws, 1).ends_with(" · weight chunk 1 of 2"), "{}", caption(Lang::En, &ws, 1));
        assert!(
            phases(Dataflow::Ws).contains(&Phase::LoadWeights) && !phases(Dataflow::Os).contains(&Phase::LoadWeights)
        );
    }

    #[test]
    fn the_inset_point() {
        let w = work(&systolic::Params { rows: 4, cols: 4, k: 6, dataflow: Dataflow::Os, seed: 1 });
        assert_eq!((w.flops, w.bytes), (192.0, 2.0 * (24 + 24 + 16) as f64));
    }
}
