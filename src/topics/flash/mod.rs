//! `#/flash`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use super::*;
#[allow(unused_imports)]
use crate::params::{Kind, ParamSpec, Value, Values};
#[allow(unused_imports)]
use crate::sim::systolic::{self, Dataflow, MAX_DIM, MAX_K};
#[allow(unused_imports)]
use crate::sim::{coalescing, divergence, expr, flash, fusion, matmul, occupancy, roofline, softmax, threads};

pub static FLASH_PARAMS: [ParamSpec; 12] = [
    ParamSpec::int("n", 1, flash::MAX_N as i64, 256),
    ParamSpec::int("d", 1, flash::MAX_D as i64, 64),
    ParamSpec::int("bq", 1, flash::MAX_N as i64, 32),
    ParamSpec::int("bk", 1, flash::MAX_N as i64, 32),
    ParamSpec::choice("causal", &["0", "1"], "1"),
    ParamSpec::int("seed", 0, u32::MAX as i64, 1),
    ParamSpec::choice("pass", &["fwd", "bwd"], "fwd"),
    ParamSpec::position("step"),
    ParamSpec::choice("dtype", crate::sim::hw::ML_DTYPES, "bf16"),
    ParamSpec::int("sram", 1, 1024, 228),
    ParamSpec::int("speed", 1, 1000, 4).optional(),
    INSET_GPU,
];

pub static FLASH: TopicMeta = TopicMeta {
    id: "flash",
    sections: &["8.3", "8.4"],
    demo: "05 · 2–3",
    part: Part::Flash,
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

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &FLASH,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <crate::ui::panels::flash::FlashPanel /> },
};

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = &[
    ("metric.flash.max-abs-error", "Max |O − naive|", "最大 |O − 朴素|"),
    ("metric.flash.max-abs-error.doc", "Flash output against naive attention (n ≤ 1024)", "Flash 输出与朴素注意力之差（n ≤ 1024）"),
    ("topic.flash.title", "FlashAttention, forward and backward", "FlashAttention 前向与反向"),
    ("topic.flash.summary", "Tiling, online softmax, fusion and recomputation: the n × n matrices S and P never reach HBM, and the result is exact.", "分块、在线 softmax、融合与重计算：n × n 的 S 和 P 从不写回显存，结果是精确的。"),
    ("param.bq", "Query block bq", "query 块大小 bq"),
    ("param.bk", "Key block bk", "key 块大小 bk"),
    ("param.causal", "Mask", "掩码"),
    ("param.pass", "Pass", "阶段"),
    ("param.sram", "SRAM per thread block (KB)", "每线程块 SRAM（KB）"),
    ("param.sram.doc", "Shared memory one thread block may use; H100: 228 KB per SM", "一个线程块可用的共享内存；H100 每 SM 228 KB"),
    ("choice.causal.0", "None", "无"),
    ("choice.causal.1", "Causal", "因果"),
    ("choice.pass.fwd", "Forward", "前向"),
    ("choice.pass.bwd", "Backward", "反向"),
    ("flash.grid", "Tiles of S: query blocks i (rows) × key blocks j (columns)", "S 的分块：query 块 i（行）× key 块 j（列）"),
    ("flash.legend.done", "computed", "已计算"),
    ("flash.legend.current", "this step", "本步"),
    ("flash.legend.pending", "to do", "待计算"),
    ("flash.legend.skipped", "skipped (causal mask)", "跳过（因果掩码）"),
    ("flash.start", "Step 0: no tile computed yet", "第 0 步：尚未计算任何分块"),
    ("flash.current.fwd", "Step {t}: query block {i} × key block {j}: S = QᵢKⱼᵀ/√d in SRAM, update m, ℓ, O", "第 {t} 步：query 块 {i} × key 块 {j}：在 SRAM 中算 S = QᵢKⱼᵀ/√d，更新 m、ℓ、O"),
    ("flash.current.bwd", "Step {t}: key block {j} × query block {i}: recompute P = e^(S − L), add to dVⱼ, dKⱼ and dQᵢ", "第 {t} 步：key 块 {j} × query 块 {i}：重算 P = e^(S − L)，累加到 dVⱼ、dKⱼ 和 dQᵢ"),
    ("flash.rows", "Query block {i}, first rows, after this tile", "query 块 {i} 的前几行（本分块之后）"),
    ("flash.row", "Row", "行"),
    ("flash.final", "At the end: O = O / ℓ, L = m + log ℓ (kept for the backward pass)", "最后：O = O / ℓ，L = m + log ℓ（留给反向）"),
    ("flash.bwd-note", "D = rowsum(dO ∘ O) is computed once per row; P is recomputed from L tile by tile, never stored.", "D = rowsum(dO ∘ O) 每行只算一次；P 由 L 逐块重算，从不存储。"),
    ("flash.ledger", "HBM traffic of this pass", "本阶段的显存（HBM）流量"),
    ("flash.ledger.standard", "Standard attention (S and P written and read)", "标准注意力（写入并读出 S 和 P）"),
    ("flash.ledger.flash", "FlashAttention", "FlashAttention"),
    ("flash.ledger.saving", "{x}× less traffic", "流量减少为 1/{x}"),
    ("flash.sram", "SRAM working set (Qᵢ, Kⱼ, Vⱼ, the S tile, Oᵢ, m, ℓ): {used} of {have}", "SRAM 工作集（Qᵢ、Kⱼ、Vⱼ、S 分块、Oᵢ、m、ℓ）：{used} / {have}"),
    ("flash.sram.fits", "fits", "放得下"),
    ("flash.sram.too-big", "does not fit: use smaller blocks", "放不下：请用更小的块"),
    ("flash.recompute", "Recomputation: {flops} FLOPs to rebuild S and P, instead of storing P ({bytes})", "重计算：用 {flops} 次浮点运算重建 S 和 P，代替存储 P（{bytes}）"),
    ("flash.check.fwd", "Forward: max |O − naive attention| = {e}", "前向：max |O − 朴素注意力| = {e}"),
    ("flash.check.bwd", "Backward: max |gradient − direct gradient| over dQ, dK, dV = {e}", "反向：dQ、dK、dV 与直接求导的最大差 = {e}"),
    ("flash.check.large", "Values and checks are computed for n ≤ {max}; the tiles and the ledger are exact for any n.", "数值与校验只对 n ≤ {max} 计算；分块与流量账对任意 n 都精确。"),
    ("flash.explain", "Each query block is one thread block on the GPU; its Qᵢ, the current Kⱼ and Vⱼ, the score tile and the running O, m and ℓ stay in SRAM. Whenever a new tile raises a row's maximum, the old ℓ and O are rescaled by e^(m − m′), exactly as in online softmax. Nothing n × n is ever written to HBM. The backward pass recomputes P from the saved logsumexp L instead of reading a stored P: more FLOPs, far fewer bytes, and attention is memory-bound.", "每个 query 块对应 GPU 上的一个线程块；它的 Qᵢ、当前的 Kⱼ 和 Vⱼ、分数块以及运行中的 O、m、ℓ 都留在 SRAM 里。新分块使某行最大值变大时，旧的 ℓ 和 O 乘以 e^(m − m′) 换基准，与在线 softmax 完全相同。任何 n × n 的东西都不写回显存。反向时由保存的 logsumexp L 重算 P，而不是读取存下来的 P：计算多一些，字节少得多——而注意力是内存受限的。"),
    ("flash.lecture", "Lecture check (notes §8.3–8.4): FlashAttention is exact: forward differences from standard attention of order 10⁻¹⁶, gradients of order 10⁻¹⁵ (float64 here, as in the demos).", "讲义对照（§8.3–8.4）：FlashAttention 是精确计算：前向与标准注意力的差在 10⁻¹⁶ 量级，梯度差在 10⁻¹⁵ 量级（这里与演示一样用 float64）。"),
    ("metric.tiles-computed", "Tiles computed", "计算的分块数"),
    ("metric.tiles-skipped", "Tiles skipped", "跳过的分块数"),
    ("metric.grad-max-abs-error", "Max gradient error", "最大梯度误差"),
    ("metric.grad-max-abs-error.doc", "Flash gradients against gradients computed directly from the full P", "Flash 梯度与由完整 P 直接求得的梯度之差"),
    ("metric.hbm-bytes-flash", "HBM bytes, flash", "显存流量（flash）"),
    ("metric.hbm-bytes-standard", "HBM bytes, standard", "显存流量（标准）"),
    ("metric.sram-bytes", "SRAM working set", "SRAM 工作集"),
    ("param.flash.n", "Sequence length n", "序列长度 n"),
];
