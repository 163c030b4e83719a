//! `#/divergence`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use super::*;
use crate::i18n::{tr, trf, Lang};
use crate::params::{ParamSpec, Value, Values};
use crate::sim::divergence::{self, CondError, Divergence};
use crate::sim::expr;

#[cfg(target_arch = "wasm32")]
mod view;

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
    part: Part::Fast,
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

/// What the condition box says about a condition that can't run: the
/// parser's complaint, then the condition with a caret under the problem; or
/// the thread that divides by zero.
pub fn cond_error(lang: Lang, cond: &str, e: &CondError) -> String {
    match e {
        CondError::Parse(p) => {
            let caret = expr::caret_line(cond, p.pos);
            format!("{}\n{cond}\n{caret}", trf(lang, "divergence.error", &[("msg", &p.to_string())]))
        }
        CondError::DivByZero { tid } => trf(lang, "divergence.div-zero", &[("tid", &tid.to_string())]),
    }
}

/// The error of a condition typed for `warps` warps, if it can't run (a valid
/// one is applied at once; an invalid one stays a draft).
pub fn draft_error(lang: Lang, cond: &str, warps: usize) -> Option<String> {
    divergence::evaluate(cond, warps).err().map(|e| cond_error(lang, cond, &e))
}

/// What happens at step `step`: the warp issuing, which part, which of its
/// instructions, and how many lanes take part.
pub fn caption(lang: Lang, sim: &Divergence, step: u64) -> String {
    match sim.issue_at(step) {
        None => tr(lang, "divergence.start"),
        Some(i) => trf(
            lang,
            "divergence.current",
            &[
                ("t", &step.to_string()),
                ("w", &i.warp.to_string()),
                ("part", &tr(lang, &format!("divergence.part.{}", i.part.code()))),
                ("s", &(i.slot + 1).to_string()),
                ("n", &i.mask.count_ones().to_string()),
            ],
        ),
    }
}

/// The lecture's conditions (notes §6.1); each is also its button's
/// `data-preset`.
pub const LECTURE_CONDS: [&str; 3] = ["tid%2==0", "(tid/32)%2==0", "tid<100"];

/// The values a lecture condition's button sets: the lecture's 4 warps and
/// 10 + 10 steps, played to the end.
pub fn lecture_case(cond: &str) -> Vec<(&'static str, Value)> {
    vec![
        ("warps", Value::Int(4)),
        ("cond", Value::Text(cond.to_string())),
        ("then", Value::Int(10)),
        ("else", Value::Int(10)),
        ("after", Value::Int(0)),
        ("step", Value::Int(i64::MAX)),
    ]
}

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &DIVERGENCE,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <view::DivergencePanel /> },
};

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = &[
    ("topic.divergence.title", "Warp divergence", "分支发散"),
    ("topic.divergence.summary", "The 32 lanes of a warp share one instruction stream: when they disagree on a branch, the warp runs both sides, one after the other.", "一个 warp 的 32 个线程共用一条指令流：它们在分支上意见不一时，warp 只能先后执行两边。"),
    ("param.warps", "Warps", "warp 数"),
    ("param.warps.doc", "Warps of 32 threads (tid = 32 × warp + lane)", "每个 warp 32 个线程（tid = 32 × warp + lane）"),
    ("param.cond", "Branch condition", "分支条件"),
    ("param.cond.doc", "Over tid, warp, lane: integers, + − * / %, == != < <= > >=, && || !, parentheses", "变量 tid、warp、lane；整数、+ − * / %、== != < <= > >=、&& || !、括号"),
    ("param.then", "if-branch steps", "if 分支步数"),
    ("param.else", "else-branch steps", "else 分支步数"),
    ("param.after", "Common steps after", "之后的公共步数"),
    ("divergence.presets", "Lecture conditions", "讲义中的条件"),
    ("divergence.apply", "Apply", "应用"),
    ("divergence.error", "Condition error: {msg}", "条件有误：{msg}"),
    ("divergence.div-zero", "Division by zero for thread tid = {tid}.", "线程 tid = {tid} 出现除以零。"),
    ("divergence.current", "Step {t}: warp {w} runs its {part} instruction {s}: {n} of 32 lanes active", "第 {t} 步：warp {w} 执行 {part} 的第 {s} 条指令：32 个 lane 中 {n} 个活跃"),
    ("divergence.part.then", "if-branch", "if 分支"),
    ("divergence.part.else", "else-branch", "else 分支"),
    ("divergence.part.after", "common code", "公共代码"),
    ("divergence.start", "Step 0: nothing issued yet", "第 0 步：尚未发射指令"),
    ("divergence.explain", "One scheduler issues one warp-instruction per step, the warps taking turns. A warp whose lanes all agree runs only the branch they take; a divergent warp runs the if-branch with the else-lanes masked off, then the else-branch with the if-lanes masked off.", "一个调度器每步发射一条 warp 指令，各 warp 轮流。lane 意见一致的 warp 只执行它们走的分支；发散的 warp 先执行 if 分支（else 的 lane 被屏蔽），再执行 else 分支（if 的 lane 被屏蔽）。"),
    ("divergence.why", "Why two utilizations? The notes' figure averages, over warps, the steps a warp would need if its lanes were independent ÷ the steps it takes (a warp counts the same whether 4 or 16 of its lanes wait). SIMT efficiency, as Nsight Compute reports it, counts lane-slots: active lanes ÷ 32 × instructions issued. With tid < 100 only warp 3 diverges, and only 4 of its lanes take the if-branch: 88 % by warps, 80 % by lanes.", "为什么有两个利用率？讲义的数字按 warp 平均：lane 各自独立时所需步数 ÷ 实际步数（不论 warp 里是 4 个还是 16 个 lane 在等，都按一个 warp 算）。Nsight Compute 报告的 SIMT 效率按 lane 计：活跃 lane 数 ÷（32 × 发射的指令数）。tid < 100 时只有 warp 3 发散，其中只有 4 个 lane 走 if 分支：按 warp 算 88%，按 lane 算 80%。"),
    ("divergence.lecture", "Lecture check (notes §6.1, 4 warps, 10 + 10 steps): tid%2==0 → 80 steps, 50 %; (tid/32)%2==0 → 40, 100 %; tid<100 → 50, 88 %.", "讲义对照（§6.1，4 个 warp，两个分支各 10 步）：tid%2==0 → 80 步、50%；(tid/32)%2==0 → 40 步、100%；tid<100 → 50 步、88%。"),
    ("divergence.warp", "warp {w}", "warp {w}"),
    ("divergence.lanes", "lanes", "lane"),
    ("divergence.legend.then", "if-branch", "if 分支"),
    ("divergence.legend.else", "else-branch", "else 分支"),
    ("divergence.legend.after", "common code", "公共代码"),
    ("divergence.legend.masked", "masked lane", "被屏蔽的 lane"),
    ("metric.total-steps", "Total steps", "总步数"),
    ("metric.warp-utilization", "Utilization (by warp)", "利用率（按 warp）"),
    ("metric.warp-utilization.doc", "Mean over warps of ideal ÷ actual steps (the notes' table)", "各 warp 的 理想步数 ÷ 实际步数 的平均（讲义中的表）"),
    ("metric.simt-efficiency", "SIMT efficiency (by lane)", "SIMT 效率（按 lane）"),
    ("metric.simt-efficiency.doc", "Active lane-slots ÷ all lane-slots issued (Nsight Compute's warp execution efficiency)", "活跃 lane·步 ÷ 全部 lane·步（Nsight Compute 的 warp 执行效率）"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Steppable;

    use crate::topics::q;

    #[test]
    fn lecture_deep_links() {
        let (v, n) = DIVERGENCE.parse(&q(&[("cond", "tid<100"), ("step", "999")]));
        assert_eq!(n.len(), 1, "step clamped to the run");
        assert_eq!(v.int("step"), 50);
        let (v, n) = DIVERGENCE.parse(&q(&[("cond", "tid % 2 = 0")]));
        assert_eq!(v.text("cond"), "tid%2==0");
        assert!(matches!(&n[0].problem, crate::params::Problem::Invalid { reason, .. } if reason.contains("==")));
    }

    #[test]
    fn lecture_conditions_give_the_lecture_table() {
        // notes §6.1 (4 warps, 10 + 10 steps): tid%2==0 → 80 steps, 50 %;
        // (tid/32)%2==0 → 40, 100 %; tid<100 → 50, 88 % (87.5), SIMT 80 %.
        let expected = [(80, 0.5, 0.5), (40, 1.0, 1.0), (50, 0.875, 0.8)];
        let start = Values::defaults(&DIVERGENCE_PARAMS).with("warps", Value::Int(9)).with("after", Value::Int(5));
        for (cond, (steps, util, simt)) in LECTURE_CONDS.iter().zip(expected) {
            let v =
                DIVERGENCE.normalize(lecture_case(cond).into_iter().fold(start.clone(), |acc, (n, x)| acc.with(n, x)));
            assert_eq!(v.text("cond"), *cond);
            let sim = divergence_run(&v);
            assert_eq!(sim.steps(), steps, "{cond}");
            assert_eq!(v.int("step"), steps as i64, "{cond}: played to the end");
            assert_eq!((sim.warp_utilization(), sim.simt_efficiency()), (util, simt), "{cond}");
        }
    }

    #[test]
    fn captions_name_the_warp_part_and_lanes() {
        let v = Values::defaults(&DIVERGENCE_PARAMS).with("cond", Value::Text("tid<100".into()));
        let sim = divergence_run(&v);
        assert_eq!(caption(Lang::En, &sim, 0), "Step 0: nothing issued yet");
        assert_eq!(
            caption(Lang::En, &sim, 1),
            "Step 1: warp 0 runs its if-branch instruction 1: 32 of 32 lanes active"
        );
        // The last step: warp 3's twentieth instruction (its tenth else one), lanes 4..31.
        assert_eq!(
            caption(Lang::En, &sim, 50),
            "Step 50: warp 3 runs its else-branch instruction 20: 28 of 32 lanes active"
        );
        assert!(caption(Lang::Zh, &sim, 50).contains("else 分支"));
    }

    #[test]
    fn the_drawing_is_labelled_in_the_language_given() {
        let v = Values::defaults(&DIVERGENCE_PARAMS);
        let sim = divergence_run(&v);
        let warp = |w: usize| trf(Lang::Zh, "divergence.warp", &[("w", &w.to_string())]);
        let lanes = tr(Lang::Zh, "divergence.lanes");
        let s = crate::draw::divergence::draw(&sim, 3, &crate::scene::Theme::normal(), 900.0, "c", &warp, &lanes);
        let texts = s.texts();
        assert!((0..4).all(|w| texts.contains(&warp(w).as_str())));
        assert!(texts.contains(&lanes.as_str()));
        assert!(!texts.contains(&"lanes"));
    }

    #[test]
    fn condition_errors_point_at_the_problem() {
        assert_eq!(draft_error(Lang::En, "lane < 8 || warp == 2", 4), None);
        let e = draft_error(Lang::En, "tid % 2 = 0", 4).expect("an error");
        let lines: Vec<&str> = e.lines().collect();
        assert!(lines[0].starts_with("Condition error: ") && lines[0].contains("use == to compare"), "{e}");
        assert_eq!(lines[1], "tid % 2 = 0");
        assert_eq!(lines[2], "        ^");
        // Under a wide character, the caret counts its two columns.
        let e = draft_error(Lang::En, "线程", 4).expect("an error");
        assert_eq!(e.lines().nth(2), Some("^"));
        let e = draft_error(Lang::Zh, "tid / (lane - 3) == 0", 4).expect("an error");
        assert_eq!(e, "线程 tid = 3 出现除以零。");
    }
}
