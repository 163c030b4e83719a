//! `#/systolic`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters; the caption, the phases shown
//! for a dataflow and the lecture presets.

use crate::i18n::{tr, trf, Lang};
use crate::params::{ParamSpec, Value, Values};
use crate::sim::hw::tpu::{self, TPU_CODES};
use crate::sim::systolic::{self, Conv, Dataflow, Phase, Systolic, MAX_DIM, MAX_K};
use crate::sim::Steppable;
use crate::topic::*;

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

/// The systolic simulation's parameters from validated URL values.
/// `m` and `n` of 0 (their default) mean the array's rows and columns, so
/// that a link without them is one tile of work, as it always was.
pub fn systolic_params(v: &Values) -> systolic::Params {
    let rows = v.int("rows") as usize;
    let cols = v.int("cols") as usize;
    let or = |x: i64, d: usize| if x == 0 { d } else { x as usize };
    systolic::Params {
        rows,
        cols,
        m: or(v.int("m"), rows),
        k: v.int("k") as usize,
        n: or(v.int("n"), cols),
        dataflow: Dataflow::from_code(v.choice("dataflow")).unwrap_or(Dataflow::Os),
        dbuf: v.choice("dbuf") == "on",
        conv: Conv::from_code(v.choice("conv")).unwrap_or(Conv::Warpscope),
        seed: v.int("seed") as u64,
    }
}

/// The TPU whose MXU the array is (none: a free-standing array).
pub fn chip(v: &Values) -> Option<&'static tpu::Tpu> {
    let code = v.choice("tpu");
    TPU_CODES.contains(&code).then(|| tpu::tpu(code))
}

/// The fastest playback (cycles per second): folded GEMMs run to tens of
/// thousands of cycles, and the player offers to play a whole run in seconds.
pub const MAX_SPEED: i64 = 100_000;

pub static SYSTOLIC_PARAMS: [ParamSpec; 15] = [
    ParamSpec::int("rows", 1, MAX_DIM as i64, 4).log(),
    ParamSpec::int("cols", 1, MAX_DIM as i64, 4).log(),
    ParamSpec::int("m", 0, MAX_K as i64, 0).optional(),
    ParamSpec::int("k", 1, MAX_K as i64, 6).log(),
    ParamSpec::int("n", 0, MAX_K as i64, 0).optional(),
    ParamSpec::choice("dataflow", &["os", "ws", "is"], "os"),
    ParamSpec::choice("dbuf", &["off", "on"], "off").optional(),
    ParamSpec::choice("conv", &["warpscope", "scalesim"], "warpscope").optional(),
    ParamSpec::choice("tpu", &["none", "v2", "v3", "v4", "v5e", "v5p", "v6e"], "none").optional(),
    ParamSpec::int("seed", 0, u32::MAX as i64, 1),
    ParamSpec::position("cycle"),
    ParamSpec::int("speed", 1, MAX_SPEED, 4).optional(),
    crate::params::INSET_GPU_CUSTOM,
    crate::params::CUSTOM_PEAK,
    crate::params::CUSTOM_BW,
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
        "fold",
        "folds",
        "mapping-efficiency",
        "compute-utilization",
        "overall-utilization",
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
    if sim.folds() > 1 {
        let fold = sim.fold_at(cycle).index + 1;
        let fold = trf(lang, "systolic.fold", &[("q", &fold.to_string()), ("n", &sim.folds().to_string())]);
        s += &format!(" · {fold}");
    }
    s
}

/// The fold strip's sizes in words: the matrix the folds tile, its size,
/// the blocks along each side, the folds, the array's size, and that a
/// block can be clicked.
pub fn strip_words(lang: Lang, sim: &Systolic) -> String {
    let sc = sim.schedule();
    let p = sim.params();
    let what = tr(
        lang,
        match p.dataflow {
            Dataflow::Os => "systolic.strip.c",
            Dataflow::Ws => "systolic.strip.b",
            Dataflow::Is => "systolic.strip.a",
        },
    );
    let n = |x: usize| crate::format::grouped(x as u64);
    trf(
        lang,
        "systolic.strip.dims",
        &[
            ("what", &what),
            ("er", &n(sc.er)),
            ("ec", &n(sc.ec)),
            ("fi", &n(sc.fi)),
            ("fo", &n(sc.fo)),
            ("n", &n(sc.folds())),
            ("rows", &n(p.rows)),
            ("cols", &n(p.cols)),
        ],
    )
}

/// The phases a run of this dataflow goes through, in the order the chips show them.
pub fn phases(dataflow: Dataflow) -> &'static [Phase] {
    match dataflow {
        Dataflow::Os => &[Phase::Fill, Phase::Steady, Phase::Drain, Phase::FillDrain],
        Dataflow::Ws | Dataflow::Is => {
            &[Phase::LoadWeights, Phase::Fill, Phase::Steady, Phase::Drain, Phase::FillDrain]
        }
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

/// The values a preset sets: one tile of work, output-stationary, from cycle 0.
pub fn preset_values(rows: i64, cols: i64, k: i64) -> Vec<(&'static str, Value)> {
    vec![
        ("rows", Value::Int(rows)),
        ("cols", Value::Int(cols)),
        ("m", Value::Int(0)),
        ("k", Value::Int(k)),
        ("n", Value::Int(0)),
        ("dataflow", Value::Choice("os")),
        ("tpu", Value::Choice("none")),
        ("cycle", Value::Int(0)),
    ]
}

/// A TPU preset: the chip's MXU as the array (the GEMM and dataflow kept),
/// at the start of the run.
pub fn tpu_preset_values(t: &'static tpu::Tpu) -> Vec<(&'static str, Value)> {
    vec![
        ("rows", Value::Int(t.dim as i64)),
        ("cols", Value::Int(t.dim as i64)),
        ("tpu", Value::Choice(t.code)),
        ("cycle", Value::Int(0)),
    ]
}

/// The label key of a TPU preset.
pub fn tpu_label(code: &str) -> &'static str {
    match code {
        "v2" => "choice.tpu.v2",
        "v3" => "choice.tpu.v3",
        "v4" => "choice.tpu.v4",
        "v5e" => "choice.tpu.v5e",
        "v5p" => "choice.tpu.v5p",
        _ => "choice.tpu.v6e",
    }
}

/// The chip line shown when the array is a TPU's MXU: its MXUs and clock,
/// and this GEMM's time on one MXU (cycles ÷ clock).
pub fn chip_line(lang: Lang, v: &Values, sim: &Systolic) -> Option<String> {
    let t = chip(v)?;
    let us = sim.total_cycles() as f64 / (t.ghz * 1e3);
    Some(trf(
        lang,
        "systolic.tpu",
        &[
            ("chip", t.name),
            ("mxus", &t.mxus.to_string()),
            ("dim", &t.dim.to_string()),
            ("clock", &clock_text(lang, t)),
            ("us", &format!("{us:.1}")),
        ],
    ))
}

/// A TPU's clock as the panels say it: published, derived from the published
/// peak (and said so), or, where the derivation is doubtful (v6e: 3.5 GHz,
/// twice any other TPU's), "unpublished": a number that is probably wrong
/// is never shown as a clock. Times still follow from the published peak.
pub fn clock_text(lang: Lang, t: &crate::sim::hw::tpu::Tpu) -> String {
    if t.clock_doubtful() {
        tr(lang, "systolic.tpu.unpublished")
    } else {
        let derived = t.clock_note().map(|k| tr(lang, k)).unwrap_or_default();
        trf(lang, "systolic.tpu.clock", &[("ghz", &format!("{:.2}", t.ghz)), ("derived", &derived)])
    }
}

/// The clock as data (`data-clock`): GHz, or "unpublished".
pub fn clock_value(t: &crate::sim::hw::tpu::Tpu) -> String {
    if t.clock_doubtful() {
        "unpublished".into()
    } else {
        t.ghz.to_string()
    }
}

/// The link to this panel for an `m × k × n` GEMM on a `dim × dim` MXU of
/// `tpu`, in the given dataflow (weight- and input-stationary with
/// double-buffered loads, as a TPU runs them).
pub fn link(tpu: &str, dim: u64, m: u64, k: u64, n: u64, dataflow: &str, lang: &str) -> String {
    let dbuf = if dataflow == "os" { "" } else { "&dbuf=on" };
    format!("#/systolic?rows={dim}&cols={dim}&m={m}&k={k}&n={n}&dataflow={dataflow}{dbuf}&tpu={tpu}&seed=1&cycle=0&lang={lang}")
}

/// FLOPs and bytes of the product (bf16 operands and output), for the roofline inset.
pub fn work(p: &systolic::Params) -> crate::sim::roofline::Work {
    crate::sim::roofline::Work {
        flops: 2.0 * p.m as f64 * p.n as f64 * p.k as f64,
        bytes: 2.0 * (p.m * p.k + p.k * p.n + p.m * p.n) as f64,
    }
}

/// Everything this route owns (the registry lists it).
pub static TOPIC: Topic = Topic::new(&SYSTOLIC, STRINGS, &practice::BANK);

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("topic.systolic.title", "Systolic array (TPU MXU)", "脉动阵列（TPU 的 MXU）"),
    ("topic.systolic.summary", "Operands pulse through a grid of multiply-accumulate units: each value is read once and reused by a whole row or column of PEs.", "数据有节奏地流过乘加单元网格：每个数据只读一次，被一整行或一整列 PE 重复使用。"),
    ("param.rows", "Rows", "行数"),
    ("param.rows.doc", "PE rows of the array (TPU v2–v5: 128, v6e: 256)", "阵列的 PE 行数（TPU v2–v5 为 128，v6e 为 256）"),
    ("param.cols", "Columns", "列数"),
    ("param.cols.doc", "PE columns of the array", "阵列的 PE 列数"),
    ("param.systolic.m", "GEMM m (0 = rows)", "GEMM 的 m（0 表示 = 行数）"),
    ("param.systolic.m.doc", "Rows of A and C; 0 takes the array's rows (one tile of work)", "A 与 C 的行数；0 表示取阵列行数（一块工作）"),
    ("param.systolic.n", "GEMM n (0 = columns)", "GEMM 的 n（0 表示 = 列数）"),
    ("param.systolic.n.doc", "Columns of B and C; 0 takes the array's columns", "B 与 C 的列数；0 表示取阵列列数"),
    ("param.systolic.k", "GEMM k (inner dim)", "GEMM 的 k（内维度）"),
    ("param.systolic.k.doc", "Length of each dot product: A is m×k, B is k×n", "每个点积的长度：A 为 m×k，B 为 k×n"),
    ("param.dbuf", "Double-buffer loads", "双缓冲装载"),
    ("param.dbuf.doc", "Weight-/input-stationary: load the next fold's operands while this fold computes", "权重/输入驻留：在本折计算的同时装入下一折的操作数"),
    ("choice.dbuf.off", "off", "关"),
    ("choice.dbuf.on", "on", "开"),
    ("param.conv", "Cycle counting", "周期计数约定"),
    ("param.conv.doc", "Warpscope's conventions or SCALE-Sim's (the differences are listed below)", "Warpscope 的约定或 SCALE-Sim 的约定（差异见下方列表）"),
    ("choice.conv.warpscope", "Warpscope", "Warpscope"),
    ("choice.conv.scalesim", "SCALE-Sim", "SCALE-Sim"),
    ("choice.dataflow.is", "Input-stationary", "输入驻留"),
    ("param.dataflow", "Dataflow", "数据流"),
    ("param.dataflow.doc", "Which value stays put in each PE", "每个 PE 中驻留不动的是哪个值"),
    ("param.systolic.seed", "Seed", "随机种子"),
    ("param.systolic.seed.doc", "Seed of the operand generator (digits 0–9)", "操作数生成器的种子（0–9 的整数）"),
    ("param.cycle", "Cycle", "周期"),
    ("choice.dataflow.os", "Output-stationary", "输出驻留"),
    ("choice.dataflow.ws", "Weight-stationary", "权重驻留"),
    ("systolic.os.explain", "Output-stationary (the lecture's version): row i of A enters from the left i cycles late and moves one PE right per cycle; column j of B enters from the top j cycles late and moves one PE down. A[i][k] and B[k][j] meet in PE (i, j) in cycle i+j+k+1, which multiplies them and adds the product to its own C[i][j]. Each value is read from memory once and used by a whole row (A) or column (B) of PEs.", "输出驻留（讲义中的版本）：A 的第 i 行晚 i 个周期从左边进入，每周期右移一格；B 的第 j 列晚 j 个周期从上边进入，每周期下移一格。A[i][k] 和 B[k][j] 在第 i+j+k+1 个周期到达 PE (i, j)，PE 把它们相乘并累加到自己的 C[i][j]。每个数据只从内存读一次，被一整行（A）或一整列（B）的 PE 使用。"),
    ("systolic.is.explain", "Input-stationary: the mirror image of weight-stationary. A block of A (k along the rows of the array, m along its columns) is loaded and stays; the n columns of B stream in from the left, and each column of PEs sums one row of C for each of them. It suits a GEMM whose n is large and m small.", "输入驻留：权重驻留的镜像。A 的一块（k 沿阵列的行、m 沿阵列的列）装入后保持不动；B 的 n 列从左边依次流入，每列 PE 为每个向量累加出 C 的一行。适合 n 大而 m 小的 GEMM。"),
    ("systolic.folds.explain", "A GEMM larger than the array is cut into folds: blocks that fit, run one after the other, column block by column block. Each fold pays its own fill and drain (and, stationary dataflows, its load), so the cycle count is not m·k·n ÷ PEs: the fold strip shows which block each fold computes, the table what each one costs.", "比阵列大的 GEMM 被切成若干折（fold）：每折是能放进阵列的一块，按列块依次执行。每一折都要付出自己的填充与排空（驻留型数据流还有装载），所以周期数并不等于 m·k·n ÷ PE 数：折条显示每一折计算哪一块，表格列出每一折的代价。"),
    ("systolic.ws.explain", "Weight-stationary (the lecture's exercise): each fold is a block of B (k along the rows, n along the columns), pushed down into the PEs one row per cycle, where it stays. Then all m rows of A stream in from the left, skewed; each PE multiplies the passing value by its weight, adds the partial sum from above and passes it down; finished sums leave the bottom into the output accumulators. The larger m, the more vectors share one load; with double buffering the next fold's weights load behind this fold's compute, as on a real TPU, and only the first load shows.", "权重驻留（讲义中的练习）：每一折是 B 的一块（k 沿行、n 沿列），逐行下推装入 PE 后固定不动。然后 A 的全部 m 行错位地从左边流入；每个 PE 把经过的值乘以自己的权重，加上从上方传来的部分和，再向下传；算完的和从底部流出，累加到输出缓冲。m 越大，一次装载被越多向量分摊；打开双缓冲后，下一折的权重在本折计算时装入（真实 TPU 即如此），只有第一次装载可见。"),
    ("systolic.lecture", "Lecture check (notes §9.2): 4×4, K=6 → 12 cycles, 50 %; 8×8, K=8 → 36 %; 8×8, K=512 → 97 %; result equal to A·B.", "讲义对照（§9.2）：4×4、K=6 → 12 个周期、利用率 50%；8×8、K=8 → 36%；8×8、K=512 → 97%；结果与 A·B 一致。"),
    ("systolic.preset.4x4", "4×4, K=6", "4×4，K=6"),
    ("systolic.preset.8x8", "8×8, K=8", "8×8，K=8"),
    ("systolic.preset.8x8-512", "8×8, K=512", "8×8，K=512"),
    ("systolic.preset.tpu", "TPU v5 MXU 128×128, K=512", "TPU v5 MXU 128×128，K=512"),
    ("systolic.timeline", "Busy PEs per cycle", "每周期忙碌的 PE 数"),
    ("systolic.fold", "fold {q} of {n}", "第 {q}/{n} 折"),
    ("systolic.strip.dims", "{what} is {er} × {ec}: {fi} × {fo} = {n} folds of up to {rows} × {cols} (the array) · click a block to go to its fold", "{what} 为 {er} × {ec}：{fi} × {fo} = {n} 折，每折至多 {rows} × {cols}（阵列大小）· 点击某一块即跳到该折"),
    ("systolic.fold.prev", "◀ Fold", "◀ 上一折"),
    ("systolic.fold.next", "Fold ▶", "下一折 ▶"),
    ("systolic.fold.prev.title", "The previous fold, from its first cycle", "上一折，从它的第一个周期开始"),
    ("systolic.fold.next.title", "The next fold, from its first cycle", "下一折，从它的第一个周期开始"),
    ("systolic.strip", "Folds: the block of {what} each fold computes", "各折计算的 {what} 块"),
    ("systolic.strip.c", "C", "C"),
    ("systolic.strip.b", "B (weights)", "B（权重）"),
    ("systolic.strip.a", "Aᵀ (inputs)", "Aᵀ（输入）"),
    ("systolic.acct", "Accounting", "账目"),
    ("systolic.acct.this", "This fold", "本折"),
    ("systolic.acct.all", "All folds", "全部折"),
    ("systolic.acct.load", "Load cycles (visible)", "装载周期（可见部分）"),
    ("systolic.acct.fill", "Fill cycles", "填充周期"),
    ("systolic.acct.steady", "Steady cycles", "稳态周期"),
    ("systolic.acct.drain", "Drain cycles", "排空周期"),
    ("systolic.acct.fill-drain", "Fill and drain at once", "填充排空同时"),
    ("systolic.acct.compute", "Compute cycles", "计算周期"),
    ("systolic.acct.macs", "Multiply-accumulates", "乘加次数"),
    ("systolic.acct.mapping", "Mapping efficiency", "映射效率"),
    ("systolic.acct.cutil", "Compute utilisation", "计算利用率"),
    ("systolic.acct.util", "Utilisation (load included)", "利用率（含装载）"),
    ("systolic.acct.reads", "Reads from memory, A / B (× each element)", "从内存读取 A / B（每个元素的次数）"),
    ("systolic.acct.uses", "Uses in the array per element", "阵列中每个元素的使用次数"),
    ("systolic.conv.title", "Where Warpscope's and SCALE-Sim's counts differ", "Warpscope 与 SCALE-Sim 计数的差异"),
    ("systolic.conv.pad", "Partial folds: Warpscope counts fill and drain over the PEs a fold uses (rows + cols + T − 2 with the used rows and columns); SCALE-Sim pads the fold to the whole array with empty requests and counts R + C + T − 2.", "不满的折：Warpscope 按本折实际使用的 PE 计算填充与排空（行、列取实际使用数，rows + cols + T − 2）；SCALE-Sim 用空请求把这一折补满整个阵列，按 R + C + T − 2 计。"),
    ("systolic.conv.load", "Weight loads: Warpscope pushes the used rows (one cycle each) and can double-buffer them behind the previous fold; SCALE-Sim always spends R cycles on a load (its inter-fold gap prefix) and never overlaps it.", "权重装载：Warpscope 只推入用到的行（每行一个周期），并可在上一折计算时双缓冲装入；SCALE-Sim 每次装载固定花 R 个周期（其折间前缀），且从不与计算重叠。"),
    ("systolic.conv.drain", "Output drain: both end an OS fold with its last multiply-accumulate, the accumulators read out behind the next fold (SCALE-Sim counts the outputs' exit within its C − 1 inter-fold gap).", "输出排出：两者都以最后一次乘加结束一个输出驻留的折，累加结果在下一折进行时读出（SCALE-Sim 把输出离开阵列的时间算在它的 C − 1 折间间隔里）。"),
    ("systolic.conv.util", "Compute utilisation: Warpscope divides all MACs by PEs × compute cycles; SCALE-Sim averages each fold's figure without weights and, for WS and IS, divides a fold by 2R + 2C + T − 3 cycles although it lasts 2R + C + T − 2.", "计算利用率：Warpscope 用全部乘加除以 PE 数 × 计算周期；SCALE-Sim 对每折的值做不加权平均，且对 WS 和 IS 每折除以 2R + 2C + T − 3 个周期，而该折实际为 2R + C + T − 2 个周期。"),
    ("systolic.conv.index", "Cycle numbering: Warpscope's cycle c means \"after c cycles\" (0 = empty array, the last cycle = the total); SCALE-Sim numbers demand rows from 0, so its last cycle is the total − 1.", "周期编号：Warpscope 的第 c 周期表示“经过 c 个周期后”（0 为空阵列，最后一个周期等于总数）；SCALE-Sim 的需求行从 0 编号，最后一个周期是总数 − 1。"),
    ("systolic.tpu", "{chip}: {mxus} MXUs of {dim}×{dim}{clock} · this GEMM on one MXU: {us} µs", "{chip}：{mxus} 个 {dim}×{dim} 的 MXU{clock} · 本 GEMM 在一个 MXU 上：{us} µs"),
    ("systolic.tpu.clock", " at {ghz} GHz{derived}", "，{ghz} GHz{derived}"),
    ("systolic.tpu.unpublished", ", clock unpublished (Google gives the peak and the MXUs, never the clock; the clock they imply is twice any other TPU's, so one of those figures is probably counted differently; times here follow from the published peak)", "，时钟未公开（Google 只公布峰值和 MXU，从不公布时钟；由它们推出的时钟是其他 TPU 的两倍，说明其中某个数字的算法可能不同；这里的时间按公开峰值计算）"),
    ("systolic.tpu.derived", " (clock derived from the published peak)", "（时钟由公开峰值推算）"),
    ("systolic.tpu.doubtful", " (clock derived from the published peak and MXUs: twice any other TPU's, so Google probably counts one of those figures differently; four such MXUs would give half)", "（时钟由公开的峰值与 MXU 数推算：是其他任何 TPU 的两倍，谷歌很可能对其中某个数字的算法不同；若有四个这样的 MXU，时钟减半）"),
    ("systolic.tpus", "TPU MXUs", "TPU 的 MXU"),
    ("choice.tpu.none", "none", "无"),
    ("choice.tpu.v2", "v2 (128×128)", "v2（128×128）"),
    ("choice.tpu.v3", "v3 (128×128)", "v3（128×128）"),
    ("choice.tpu.v4", "v4 (128×128)", "v4（128×128）"),
    ("choice.tpu.v5e", "v5e (128×128)", "v5e（128×128）"),
    ("choice.tpu.v5p", "v5p (128×128)", "v5p（128×128）"),
    ("choice.tpu.v6e", "v6e (256×256)", "v6e（256×256）"),
    ("systolic.legend.waiting", "waiting", "等待"),
    ("systolic.legend.busy", "multiply-accumulate this cycle", "本周期做乘加"),
    ("systolic.legend.done", "finished", "已完成"),
    ("systolic.legend.weight", "holds its operand", "存有驻留操作数"),
    ("systolic.a-queue", "A", "A"),
    ("systolic.b-queue", "B", "B"),
    ("systolic.w-queue", "B (W)", "B（权重）"),
    ("systolic.i-queue", "Aᵀ (held)", "Aᵀ（驻留）"),
    ("systolic.out", "C", "C"),
    ("systolic.out-t", "Cᵀ", "Cᵀ"),
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
    ("metric.fold", "Fold now", "当前折"),
    ("metric.folds", "Folds", "折数"),
    ("metric.folds.doc", "Blocks of the GEMM that fit the array, run one after the other", "能放进阵列的 GEMM 块，依次执行"),
    ("metric.mapping-efficiency", "Mapping efficiency", "映射效率"),
    ("metric.mapping-efficiency.doc", "Used PEs ÷ all PEs, averaged over the folds", "用到的 PE ÷ 全部 PE，对各折取平均"),
    ("metric.compute-utilization", "Compute utilisation", "计算利用率"),
    ("metric.compute-utilization.doc", "MACs ÷ (PEs × compute cycles), loads left out (SCALE-Sim: its per-fold mean)", "乘加 ÷（PE 数 × 计算周期），不含装载（SCALE-Sim：各折平均）"),
    ("metric.overall-utilization", "Overall utilisation", "总体利用率"),
    ("metric.overall-utilization.doc", "MACs ÷ (PEs × all cycles)", "乘加 ÷（PE 数 × 全部周期）"),
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
        crate::topics::install_texts();
        let p = |df| systolic::Params { dataflow: df, ..Default::default() };
        let os = Systolic::new(p(Dataflow::Os));
        assert_eq!(caption(Lang::En, &os, 3), "Cycle 3 / 12 · Fill: operands still arriving · 6 / 16 PE");
        assert!(caption(Lang::Zh, &os, 12).starts_with("周期 12 / 12 · 排空"));
        let ws = Systolic::new(p(Dataflow::Ws));
        assert!(caption(Lang::En, &ws, 1).ends_with(" · fold 1 of 2"), "{}", caption(Lang::En, &ws, 1));
        assert!(caption(Lang::Zh, &ws, 24).ends_with(" · 第 2/2 折"), "{}", caption(Lang::Zh, &ws, 24));
        assert!(
            phases(Dataflow::Ws).contains(&Phase::LoadWeights) && !phases(Dataflow::Os).contains(&Phase::LoadWeights)
        );
    }

    #[test]
    fn the_fold_strip_says_its_sizes_in_words() {
        crate::topics::install_texts();
        let p = crate::sim::systolic::Params {
            rows: 32,
            cols: 32,
            m: 64,
            k: 256,
            n: 128,
            dataflow: Dataflow::Ws,
            ..Default::default()
        };
        let sim = Systolic::new(p);
        assert_eq!(
            strip_words(Lang::En, &sim),
            "B (weights) is 256 × 128: 8 × 4 = 32 folds of up to 32 × 32 (the array) · click a block to go to its fold"
        );
        assert!(
            strip_words(Lang::Zh, &sim).starts_with("B（权重） 为 256 × 128：8 × 4 = 32 折"),
            "{}",
            strip_words(Lang::Zh, &sim)
        );
    }

    #[test]
    fn old_links_are_one_tile_and_new_ones_fold() {
        crate::topics::install_texts();
        // A link without m and n is the array's own shape, as before.
        let (v, notices) = SYSTOLIC.parse(
            &[("rows", "4"), ("cols", "4"), ("k", "6"), ("cycle", "12")].map(|(a, b)| (a.to_string(), b.to_string())),
        );
        assert!(notices.is_empty());
        let sim = Systolic::new(systolic_params(&v));
        assert_eq!((sim.params().m, sim.params().n, sim.total_cycles(), sim.folds()), (4, 4, 12, 1));
        assert_eq!(v.to_query().len(), 6, "no m, n, dbuf, conv or tpu in the URL: {:?}", v.to_query());
        // The gpu-vs-tpu link: a 1024 × 4096 × 1024 GEMM on TPU v6e's MXU.
        let link = link("v6e", 256, 1024, 4096, 1024, "ws", "en");
        let query: Vec<(String, String)> = link
            .split_once('?')
            .unwrap()
            .1
            .split('&')
            .map(|kv| {
                let (a, b) = kv.split_once('=').unwrap();
                (a.to_string(), b.to_string())
            })
            .collect();
        let (v, notices) = SYSTOLIC.parse(&query);
        assert!(notices.is_empty(), "{notices:?}");
        let sim = Systolic::new(systolic_params(&v));
        assert_eq!(sim.folds(), 16 * 4);
        assert_eq!(chip(&v).map(|t| t.mxus), Some(2));
        let line = chip_line(Lang::En, &v, &sim).unwrap();
        // Google never publishes v6e's clock: "unpublished", never a derived 3.5 GHz.
        assert!(line.starts_with("TPU v6e (Trillium): 2 MXUs of 256×256, clock unpublished"), "{line}");
        assert!(!line.contains("GHz") && !chip_line(Lang::Zh, &v, &sim).unwrap().contains("GHz"), "{line}");
        assert_eq!(clock_value(chip(&v).unwrap()), "unpublished");
        assert_eq!(clock_value(crate::sim::hw::tpu::tpu("v4")), "1.05");
        assert!(chip_line(Lang::Zh, &v, &sim).unwrap().contains("个 256×256 的 MXU"));
    }

    #[test]
    fn the_inset_point() {
        let w = work(&systolic::Params::default());
        assert_eq!((w.flops, w.bytes), (192.0, 2.0 * (24 + 24 + 16) as f64));
    }
}
