//! `#/recompute`: its URL parameters, its registry entry, the typed conversion
//! from URL values to the simulation, and its ledger's rows as pure data.

use crate::i18n::{tr, trf, Lang};
use crate::params::{ParamSpec, Value, Values};
use crate::sim::fusion;
use crate::sim::recompute::{Dir, Pass, Run};
use crate::sim::Steppable;
use crate::topic::{Part, Topic, TopicMeta};

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static RECOMPUTE_PARAMS: [ParamSpec; 6] = [
    ParamSpec::int("depth", 1, 16, 3),
    ParamSpec::int("n", 1, 1 << 28, 1 << 20).log(),
    ParamSpec::choice("dtype", crate::sim::hw::ML_DTYPES, "fp32"),
    ParamSpec::choice("upstream", &["1", "0"], "1"),
    ParamSpec::position("step"),
    ParamSpec::int("speed", 1, 1000, 2).optional(),
];

pub static RECOMPUTE: TopicMeta = TopicMeta {
    id: "recompute",
    sections: &["6.4"],
    demo: "03",
    part: Part::Fast,
    params: &RECOMPUTE_PARAMS,
    metrics: &[
        "accesses-store",
        "accesses-recompute",
        "saved-bytes-store",
        "saved-bytes-recompute",
        "done-store",
        "done-recompute",
    ],
    position_max: Some(|v| run(v).steps()),
    bounds: None,
};

/// The notes' §6.4 table (the upstream gradient counted) and the slides'
/// count (not counted), beside the ledger.
pub fn lecture_rows(v: &Values) -> Vec<crate::lecture::Row> {
    use crate::lecture::Case;
    let case = |upstream: &'static str| {
        vec![
            ("depth", Value::Int(3)),
            ("n", Value::Int(1 << 20)),
            ("dtype", Value::Choice("fp32")),
            ("upstream", Value::Choice(upstream)),
        ]
    };
    let cases = vec![
        Case {
            label: "recompute.case.notes",
            values: case("1"),
            printed: vec![
                ("accesses-store", "9"),
                ("accesses-recompute", "5"),
                ("saved-bytes-store", "12.6 MB"),
                ("saved-bytes-recompute", "4.2 MB"),
            ],
            reason: None,
        },
        Case {
            label: "recompute.case.slides",
            values: case("0"),
            printed: vec![
                ("accesses-store", "8"),
                ("accesses-recompute", "4"),
                ("saved-bytes-store", crate::lecture::NOT_PRINTED),
                ("saved-bytes-recompute", crate::lecture::NOT_PRINTED),
            ],
            reason: None,
        },
    ];
    crate::lecture::rows(v, cases, |v| recompute(v).metrics())
}

/// The slides' "5/8" (slides 32–33): their recompute breakdown (forward 1
/// read + 1 write, backward 2 reads + 1 write) sums to 5 because it counts
/// the upstream gradient, which their naive 8 leaves out; 5 ÷ 8 is then the
/// share of accesses left, not the share saved. Like for like the panel
/// gives 4 ÷ 8 (without it) and 5 ÷ 9 (with it). Returns (mixed 5 ÷ 8,
/// like-for-like without, like-for-like with) for the values' depth.
pub fn slides_fractions(v: &Values) -> (f64, f64, f64) {
    let with = fusion::Recompute { upstream: true, ..recompute(v) };
    let without = fusion::Recompute { upstream: false, ..recompute(v) };
    let f = |a: u64, b: u64| a as f64 / b as f64;
    (
        f(with.accesses_recompute(), without.accesses_store()),
        f(without.accesses_recompute(), without.accesses_store()),
        f(with.accesses_recompute(), with.accesses_store()),
    )
}

pub fn recompute(v: &Values) -> fusion::Recompute {
    fusion::Recompute {
        depth: v.int("depth") as u64,
        n: v.int("n") as u64,
        elem_bytes: crate::sim::hw::dtype_bytes(v.choice("dtype")),
        upstream: v.choice("upstream") == "1",
    }
}

/// Both versions stepped side by side, forward then backward (the drawing).
pub fn run(v: &Values) -> Run {
    Run::new(recompute(v))
}

/// The line above the drawing at step `t`: the step, the pass, and what
/// each version does in it.
pub fn caption(lang: Lang, run: &Run, t: u64) -> String {
    let s = run.state_at(t);
    let Some(pass) = s.pass else {
        return trf(lang, "recompute.caption.start", &[("n", &run.steps().to_string())]);
    };
    let what = |i: usize| match s.lanes[i].current {
        Some(a) => trf(
            lang,
            match a.dir {
                Dir::Read => "recompute.caption.reads",
                Dir::Write => "recompute.caption.writes",
            },
            &[("a", &a.array.name())],
        ),
        None => tr(lang, "recompute.caption.waits").to_string(),
    };
    let pass = tr(lang, if pass == Pass::Forward { "recompute.forward" } else { "recompute.backward" });
    trf(
        lang,
        "recompute.caption",
        &[
            ("t", &t.to_string()),
            ("n", &run.steps().to_string()),
            ("pass", &pass),
            ("store", &what(0)),
            ("recompute", &what(1)),
        ],
    )
}

/// One row of the access ledger: its label key, what forward and backward
/// read (R) and write (W), and the total number of array accesses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerRow {
    pub key: &'static str,
    pub forward: String,
    pub backward: String,
    pub total: u64,
}

/// Storing every activation against recomputing from x (notes §6.4): `dy`
/// is the upstream gradient (when counted), `s1…sL` the sigmoids' outputs,
/// `dx` the input gradient.
pub fn ledger_rows(r: &fusion::Recompute) -> [LedgerRow; 2] {
    let l = r.depth;
    let s_list =
        if l <= 4 { (1..=l).map(|i| format!("s{i}")).collect::<Vec<_>>().join(", ") } else { format!("s1…s{l}") };
    let dy = if r.upstream { "dy, " } else { "" };
    [
        LedgerRow {
            key: "recompute.store",
            forward: format!("R x · W {s_list}"),
            backward: format!("R {dy}{s_list} · W dx"),
            total: r.accesses_store(),
        },
        LedgerRow {
            key: "recompute.recompute",
            forward: format!("R x · W s{l}"),
            backward: format!("R {dy}x · W dx"),
            total: r.accesses_recompute(),
        },
    ]
}

/// Everything this route owns (the registry lists it).
pub static TOPIC: Topic = Topic::new(&RECOMPUTE, STRINGS, &practice::BANK).lecture(lecture_rows);

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("recompute.case.notes", "Notes §6.4 (upstream gradient counted)", "讲义 §6.4（计入上游梯度）"),
    ("recompute.case.slides", "Slides (upstream gradient not counted)", "幻灯片（不计上游梯度）"),
    ("topic.recompute.title", "Recomputation", "重计算"),
    ("topic.recompute.summary", "Throw activations away and recompute them in backward: more FLOPs, fewer bytes, and bytes are what cost.", "把激活扔掉、反向时重算：多算一些，少搬一些，而搬数据才是贵的。"),
    ("param.depth", "Stacked sigmoids", "叠加的 sigmoid 个数"),
    ("param.recompute.n", "Elements n", "元素个数 n"),
    ("param.upstream", "Count the upstream-gradient read", "是否计入读取上游梯度"),
    ("choice.upstream.1", "Yes (notes: 9 vs 5)", "计入（讲义：9 对 5）"),
    ("choice.upstream.0", "No (slides: 8 vs 4)", "不计入（课件：8 对 4）"),
    ("recompute.ledger", "Memory accesses (arrays of n elements)", "显存访问（以 n 个元素的数组计）"),
    ("recompute.store", "Store activations", "保存中间结果"),
    ("recompute.recompute", "Recompute", "重计算"),
    ("recompute.forward", "Forward", "前向"),
    ("recompute.backward", "Backward", "反向"),
    ("recompute.total", "Total", "合计"),
    ("recompute.why-differ", "Why two counts: the notes count reading the upstream gradient in backward (9 against 5); the slides leave it out because both versions must read it (8 against 4). The difference between the versions is the same: {d} accesses.", "为什么有两种计数：讲义把反向时读取上游梯度算进去（9 对 5）；课件不算，因为两个版本都要读它（8 对 4）。两个版本之差不变：{d} 次访问。"),
    ("recompute.slides-58", "The slides' “5/8”: their recompute count, forward 1 read + 1 write and backward 2 reads + 1 write, sums to {r} (the upstream gradient counted) against a naive {s} that leaves it out: {r} ÷ {s} = {mixed} is the share of accesses left, not the share saved. This panel counts both versions alike: {s2} against {r2} without the upstream gradient ({without} left, the slides' rows), {s1} against {r1} with it ({with} left, the notes').", "课件的“5/8”：它对重计算的计数（前向 1 读 + 1 写，反向 2 读 + 1 写）合计 {r}（计入了上游梯度），而朴素实现的 {s} 没有计入：{r} ÷ {s} = {mixed} 是剩下的访问比例，而不是省下的比例。本面板对两种实现按同一口径计数：不计上游梯度时 {s2} 对 {r2}（剩 {without}，即课件的行），计入时 {s1} 对 {r1}（剩 {with}，即讲义的）。"),
    ("recompute.extra", "Recomputing costs {k} extra sigmoid evaluations per element in backward, done in registers.", "重计算在反向时每个元素多算 {k} 次 sigmoid，都在寄存器里完成。"),
    ("recompute.explain", "Backward needs the forward's intermediate values. Storing them costs writes in forward and reads in backward; recomputing them from x inside the fused backward kernel costs only arithmetic, which is cheap when the operation is memory-bound. Activation checkpointing (lecture 2) is the same idea at the granularity of whole layers.", "反向需要前向的中间值。把它们存下来，前向要写、反向要读；在融合的反向核函数里从 x 重算，只花计算——当运算内存受限时这很便宜。激活检查点（第 2 讲）是同样的思想，粒度是整层。"),
    ("recompute.lecture", "Lecture check (notes §6.4): three sigmoids: 9 against 5 accesses (slides: 8 against 4); saved for backward 12.6 MB against 4.2 MB.", "讲义对照（§6.4）：三个 sigmoid：9 对 5 次访问（课件：8 对 4）；为反向保存 12.6 MB 对 4.2 MB。"),
    ("recompute.drawing", "Reads and writes between HBM and the SM", "HBM 与 SM 之间的读写"),
    ("recompute.caption.start", "Step 0 of {n}: x is in HBM; forward has not started", "第 0 步（共 {n} 步）：x 在 HBM 中，前向尚未开始"),
    ("recompute.caption", "Step {t} of {n} · {pass}: storing {store}; recomputing {recompute}", "第 {t} 步（共 {n} 步）· {pass}：保存版{store}；重计算版{recompute}"),
    ("recompute.caption.reads", "reads {a}", "读 {a}"),
    ("recompute.caption.writes", "writes {a}", "写 {a}"),
    ("recompute.caption.waits", "waits", "等待"),
    ("recompute.d.accesses", "accesses", "次访问"),
    ("recompute.d.waits", "waits", "等待"),
    ("recompute.d.done", "done", "完成"),
    ("recompute.d.sigmoids", "sigmoids evaluated", "已计算的 sigmoid"),
    ("recompute.d.registers", "recomputed in registers", "在寄存器中重算"),
    ("recompute.legend.read", "R: read, HBM → SM", "R：读，HBM → SM"),
    ("recompute.legend.write", "W: write, SM → HBM", "W：写，SM → HBM"),
    ("metric.done-store", "Accesses so far, storing", "已访问次数（保存）"),
    ("metric.done-recompute", "Accesses so far, recomputing", "已访问次数（重计算）"),
    ("metric.accesses-store", "Accesses, storing", "访问次数（保存）"),
    ("metric.accesses-recompute", "Accesses, recomputing", "访问次数（重计算）"),
    ("metric.saved-bytes-store", "Saved for backward, storing", "为反向保存（保存）"),
    ("metric.saved-bytes-recompute", "Saved for backward, recomputing", "为反向保存（重计算）"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(pairs: &[(&str, &str)]) -> fusion::Recompute {
        let q: Vec<(String, String)> = pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        let (v, notices) = RECOMPUTE.parse(&q);
        assert!(notices.is_empty(), "{notices:?}");
        recompute(&v)
    }

    #[test]
    fn the_slides_five_eighths_read_both_ways() {
        let (v, _) = RECOMPUTE.parse(&crate::topic::q(&[("depth", "3")]));
        let (mixed, without, with) = slides_fractions(&v);
        assert_eq!((mixed, without), (5.0 / 8.0, 0.5));
        assert_eq!(with, 5.0 / 9.0);
    }

    #[test]
    fn lecture_three_sigmoids() {
        // notes §6.4: 9 against 5 accesses (slides: 8 against 4); 12.6 MB against 4.2 MB.
        let r = parse(&[]);
        assert_eq!(r, fusion::Recompute { depth: 3, n: 1 << 20, elem_bytes: 4, upstream: true });
        let m = r.metrics();
        assert_eq!(m.iter().map(|m| m.name).collect::<Vec<_>>(), RECOMPUTE.metrics[..4]);
        assert_eq!((m[0].value, m[1].value), (9.0, 5.0));
        assert_eq!(format!("{:.1} {:.1}", m[2].value / 1e6, m[3].value / 1e6), "12.6 4.2");
        let [store, recomp] = ledger_rows(&r);
        assert_eq!(
            (store.forward.as_str(), store.backward.as_str(), store.total),
            ("R x · W s1, s2, s3", "R dy, s1, s2, s3 · W dx", 9)
        );
        assert_eq!(
            (recomp.forward.as_str(), recomp.backward.as_str(), recomp.total),
            ("R x · W s3", "R dy, x · W dx", 5)
        );
        let slides = parse(&[("upstream", "0")]);
        let [store, recomp] = ledger_rows(&slides);
        assert_eq!(
            (store.backward.as_str(), store.total, recomp.backward.as_str(), recomp.total),
            ("R s1, s2, s3 · W dx", 8, "R x · W dx", 4)
        );
        assert_eq!(slides.accesses_saved(), r.accesses_saved());
    }

    #[test]
    fn deep_stacks_are_abbreviated() {
        let r = parse(&[("depth", "6"), ("dtype", "bf16")]);
        assert_eq!(r.elem_bytes, 2);
        let [store, recomp] = ledger_rows(&r);
        assert_eq!(store.forward, "R x · W s1…s6");
        assert_eq!(recomp.forward, "R x · W s6");
        assert_eq!((store.total, recomp.total), (15, 5));
    }
}
