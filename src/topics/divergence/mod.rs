//! `#/divergence`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use crate::i18n::{tr, trf, Lang};
use crate::message::Message;
use crate::params::{ParamSpec, Value, Values};
use crate::sim::divergence::{self, CondError, Divergence};
use crate::sim::expr::{self, Syntax};
use crate::sim::measured::Table;
use crate::sim::Steppable;
use crate::topic::*;

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

fn check_cond(s: &str) -> Result<(), Message> {
    expr::parse(s).map(|_| ()).map_err(|e| syntax_reason(e.kind))
}

/// An expression error (this panel's condition, fusion's expression) as a
/// URL notice's reason (the notice quotes the text itself).
pub fn syntax_reason(kind: Syntax) -> Message {
    Message::new(kind.key(), &[])
}

/// An expression error in `lang`: the message and the 1-based character.
pub fn syntax_text(lang: Lang, kind: Syntax, pos: usize) -> String {
    trf(lang, "syntax.at", &[("msg", &tr(lang, kind.key())), ("at", &(pos + 1).to_string())])
}

pub static PARAMS: [ParamSpec; 8] = [
    ParamSpec::int("warps", 1, divergence::MAX_WARPS as i64, 4),
    ParamSpec::text("cond", expr::MAX_LEN, "tid%2==0", check_cond),
    ParamSpec::int("then", 0, divergence::MAX_STEPS as i64, 10),
    ParamSpec::int("else", 0, divergence::MAX_STEPS as i64, 10),
    ParamSpec::int("after", 0, divergence::MAX_STEPS as i64, 0),
    ParamSpec::position("step"),
    ParamSpec::int("speed", 1, 1000, 8).optional(),
    MEASURED,
];

pub static META: TopicMeta = TopicMeta::new("divergence", Part::Fast, &PARAMS)
    .notes(&["6.1"], "02 · 2")
    .metrics(&["step", "total-steps", "warp-utilization", "simt-efficiency"])
    .position(|v| divergence_run(v).schedule().len() as u64);

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic =
    Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK).lecture(lecture_rows).measured(&[DIVERGENCE_FILE]);

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

/// What an expression box says about text that can't run: the message (in
/// the reader's language) and the character it points at, if any. The box
/// shows the message wrapped, then the text with that character marked
/// (never a line that scrolls sideways).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxError {
    pub message: String,
    /// The 0-based character the problem is at (the text's length: at its end).
    pub at: Option<usize>,
}

impl BoxError {
    /// The text as `before`, the marked character (empty at the end) and `after`.
    pub fn split<'a>(&self, text: &'a str) -> Option<(&'a str, &'a str, &'a str)> {
        let at = self.at?;
        let start = text.char_indices().nth(at).map_or(text.len(), |(i, _)| i);
        let end = text[start..].chars().next().map_or(start, |c| start + c.len_utf8());
        Some((&text[..start], &text[start..end], &text[end..]))
    }

    /// Plain text: the message, then the text and a caret line under the
    /// problem (for a copy, a log or a test).
    pub fn plain(&self, text: &str) -> String {
        match self.at {
            Some(at) => format!("{}\n{text}\n{}", self.message, expr::caret_line(text, at)),
            None => self.message.clone(),
        }
    }
}

/// What the condition box says about a condition that can't run: the
/// parser's complaint and where; or the thread that divides by zero.
pub fn cond_error(lang: Lang, e: &CondError) -> BoxError {
    match e {
        CondError::Parse(p) => {
            let msg = syntax_text(lang, p.kind, p.pos);
            BoxError { message: trf(lang, "divergence.error", &[("msg", &msg)]), at: Some(p.pos) }
        }
        CondError::DivByZero { tid } => {
            BoxError { message: trf(lang, "divergence.div-zero", &[("tid", &tid.to_string())]), at: None }
        }
    }
}

/// The error of a condition typed for `warps` warps, if it can't run (a valid
/// one is applied at once; an invalid one stays a draft, and the drawing
/// still shows the last one that ran: the panel marks it stale).
pub fn draft_error(lang: Lang, cond: &str, warps: usize) -> Option<BoxError> {
    divergence::evaluate(cond, warps).err().map(|e| cond_error(lang, &e))
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

/// The notes' §6.1 table beside the simulation (4 warps, 10 + 10 steps).
pub fn lecture_rows(v: &Values) -> Vec<crate::lecture::Row> {
    let printed = [["80", "50%"], ["40", "100%"], ["50", "88%"]];
    let labels = ["divergence.case.even", "divergence.case.warp", "divergence.case.lt100"];
    let cases = LECTURE_CONDS.iter().zip(labels).map(|(&cond, label)| (label, lecture_case(cond)));
    crate::lecture::table(v, cases, ["total-steps", "warp-utilization"], printed, |v| {
        let sim = divergence_run(v);
        sim.metrics(sim.steps())
    })
}

/// The values a lecture condition's button sets: the lecture's 4 warps and
/// 10 + 10 steps, from step 0.
pub fn lecture_case(cond: &str) -> Vec<(&'static str, Value)> {
    vec![
        ("warps", Value::Int(4)),
        ("cond", Value::Text(cond.to_string())),
        ("then", Value::Int(10)),
        ("else", Value::Int(10)),
        ("after", Value::Int(0)),
        ("step", Value::Int(0)),
    ]
}

/// The measured configurations of `h200-divergence.csv` with `lane < k`
/// (every warp of the launch diverges alike).
pub const LANE_CONFIGS: [&str; 2] = ["saturated", "one_warp_per_sm"];
/// The lecture's `tid < 100` in 128-thread blocks: a saturated GPU, one block per SM.
pub const TID_CONFIGS: [&str; 2] = ["tid_lt_k_128_saturated", "tid_lt_k_128_one_block_per_sm"];
/// The k of the lecture's condition.
pub const TID_K: u64 = 100;

/// Measured time (µs, median) of one configuration at one k.
pub fn measured_us(t: &Table, config: &str, k: u64) -> Option<f64> {
    t.rows
        .iter()
        .find(|r| t.text(r, "config") == Some(config) && t.num(r, "k") == Some(k as f64))
        .and_then(|r| t.num(r, "time_us"))
}

/// Measured slowdown: time at k ÷ time at k = 0 (a uniform warp).
pub fn measured_slowdown(t: &Table, config: &str, k: u64) -> Option<f64> {
    Some(measured_us(t, config, k)? / measured_us(t, config, 0)?)
}

/// The threads of a measured configuration's block.
pub fn block_threads(t: &Table, config: &str) -> Option<u64> {
    t.rows.iter().find(|r| t.text(r, "config") == Some(config)).and_then(|r| t.num(r, "threads")).map(|x| x as u64)
}

/// The sim for `cond` over `warps` warps with equal if- and else-chains (as
/// measured: both paths are the same number of dependent FMAs).
fn equal_paths(cond: String, warps: usize) -> Divergence {
    Divergence::new(divergence::Params { warps, cond, then_steps: 10, else_steps: 10, after_steps: 0 })
}

/// The model's slowdown when the warps take turns on one scheduler
/// (throughput: every issue counts): steps(cond) ÷ steps(uniform).
pub fn model_issue_slowdown(cond: &str, uniform: &str, warps: usize) -> f64 {
    equal_paths(cond.into(), warps).steps() as f64 / equal_paths(uniform.into(), warps).steps() as f64
}

/// The model's slowdown when each warp has a scheduler to itself (latency:
/// the longest warp decides): max warp length ÷ the same for `uniform`.
pub fn model_critical_slowdown(cond: &str, uniform: &str, warps: usize) -> f64 {
    let longest = |d: &Divergence| (0..warps).map(|w| d.warp_len(w)).max().unwrap_or(0) as f64;
    longest(&equal_paths(cond.into(), warps)) / longest(&equal_paths(uniform.into(), warps))
}

/// The model's slowdown for `lane < k` (one warp; 1 or 2).
pub fn model_lane_slowdown(k: u64) -> f64 {
    model_issue_slowdown(&format!("lane<{k}"), "lane<0", 1)
}

/// Everything the overlay states, derived from the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// lane < k: the lowest and highest measured slowdown over k = 1…31, per
    /// [`LANE_CONFIGS`].
    pub lane_range: [(f64, f64); 2],
    /// lane < 16 measured, per [`LANE_CONFIGS`].
    pub lane_16: [f64; 2],
    /// tid < 100 measured, per [`TID_CONFIGS`].
    pub tid: [f64; 2],
    /// tid < 100 modelled: warps taking turns (issue count) and each warp on
    /// its own scheduler (longest warp).
    pub tid_issue: f64,
    pub tid_critical: f64,
    /// Warps per block in the tid configurations.
    pub tid_warps: usize,
}

pub fn summary(t: &Table) -> Option<Summary> {
    let range = |c: &str| -> Option<(f64, f64)> {
        let xs: Option<Vec<f64>> = (1..32).map(|k| measured_slowdown(t, c, k)).collect();
        let xs = xs?;
        Some((xs.iter().copied().fold(f64::INFINITY, f64::min), xs.iter().copied().fold(0.0, f64::max)))
    };
    let tid_warps = (block_threads(t, TID_CONFIGS[0])? / 32) as usize;
    let cond = format!("tid<{TID_K}");
    Some(Summary {
        lane_range: [range(LANE_CONFIGS[0])?, range(LANE_CONFIGS[1])?],
        lane_16: [measured_slowdown(t, LANE_CONFIGS[0], 16)?, measured_slowdown(t, LANE_CONFIGS[1], 16)?],
        tid: [measured_slowdown(t, TID_CONFIGS[0], TID_K)?, measured_slowdown(t, TID_CONFIGS[1], TID_K)?],
        tid_issue: model_issue_slowdown(&cond, "tid<0", tid_warps),
        tid_critical: model_critical_slowdown(&cond, "tid<0", tid_warps),
        tid_warps,
    })
}

/// The overlay's explanation, with the derived numbers.
pub fn measured_text(lang: Lang, s: &Summary) -> [String; 2] {
    let f = |x: f64| format!("{x:.2}");
    [
        trf(
            lang,
            "divergence.measured.lane",
            &[
                ("lo", &f(s.lane_range[0].0.min(s.lane_range[1].0))),
                ("hi", &f(s.lane_range[0].1.max(s.lane_range[1].1))),
                ("sat16", &f(s.lane_16[0])),
                ("one16", &f(s.lane_16[1])),
            ],
        ),
        trf(
            lang,
            "divergence.measured.tid",
            &[
                ("warps", &s.tid_warps.to_string()),
                ("issue", &f(s.tid_issue)),
                ("critical", &f(s.tid_critical)),
                ("sat", &f(s.tid[0])),
                ("one", &f(s.tid[1])),
            ],
        ),
    ]
}

/// The k shown in the overlay's table (every k is in the data; 1…31 agree).
pub const SHOWN_K: [u64; 9] = [0, 1, 2, 4, 8, 16, 24, 31, 32];

/// The measured table the panel overlays (`assets/measured/`).
pub const DIVERGENCE_FILE: &str = "h200-divergence.csv";

/// The static snapshot (`crate::topic::snapshot`): the default condition
/// at the default step, drawn as the panel draws it, and its key figures.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: Lang, width: f64) -> crate::topic::snapshot::Snapshot {
    use crate::topic::snapshot::{Above, Snapshot, Stage, View};
    let (v, _) = META.parse(&[]);
    let sim = Divergence::new(divergence_params(&v));
    let step = v.int("step") as u64;
    let cap = caption(lang, &sim, step);
    let warp = |w: usize| trf(lang, "divergence.warp", &[("w", &w.to_string())]);
    let lanes = tr(lang, "divergence.lanes");
    let scene = crate::draw::divergence::draw(&sim, step, &crate::scene::Theme::normal(), width, &cap, &warp, &lanes);
    Snapshot::View(View {
        above: Above::Nothing,
        stage: Stage::Scene(scene),
        label: cap,
        figures: sim.metrics(step),
        pending: (vec![], ""),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::topic::q;

    #[test]
    fn lecture_deep_links() {
        let (v, n) = META.parse(&q(&[("cond", "tid<100"), ("step", "999")]));
        assert_eq!(n.len(), 1, "step clamped to the run");
        assert_eq!(v.int("step"), 50);
        let (v, n) = META.parse(&q(&[("cond", "tid % 2 = 0")]));
        assert_eq!(v.text("cond"), "tid%2==0");
        assert!(
            matches!(&n[0].problem, crate::params::Problem::Invalid { reason, .. } if *reason == syntax_reason(Syntax::UseEq))
        );
    }

    #[test]
    fn lecture_conditions_give_the_lecture_table() {
        // notes §6.1 (4 warps, 10 + 10 steps): tid%2==0 → 80 steps, 50 %;
        // (tid/32)%2==0 → 40, 100 %; tid<100 → 50, 88 % (87.5), SIMT 80 %.
        let expected = [(80, 0.5, 0.5), (40, 1.0, 1.0), (50, 0.875, 0.8)];
        let start = Values::defaults(&PARAMS).with("warps", Value::Int(9)).with("after", Value::Int(5));
        for (cond, (steps, util, simt)) in LECTURE_CONDS.iter().zip(expected) {
            let v = META.normalize(lecture_case(cond).into_iter().fold(start.clone(), |acc, (n, x)| acc.with(n, x)));
            assert_eq!(v.text("cond"), *cond);
            let sim = divergence_run(&v);
            assert_eq!(sim.steps(), steps, "{cond}");
            assert_eq!(v.int("step"), 0, "{cond}: opens at step 0");
            assert_eq!((sim.warp_utilization(), sim.simt_efficiency()), (util, simt), "{cond}");
        }
    }

    #[test]
    fn captions_name_the_warp_part_and_lanes() {
        crate::topics::install_texts();
        let v = Values::defaults(&PARAMS).with("cond", Value::Text("tid<100".into()));
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
        crate::topics::install_texts();
        let v = Values::defaults(&PARAMS);
        let sim = divergence_run(&v);
        let warp = |w: usize| trf(Lang::Zh, "divergence.warp", &[("w", &w.to_string())]);
        let lanes = tr(Lang::Zh, "divergence.lanes");
        let s = crate::draw::divergence::draw(&sim, 3, &crate::scene::Theme::normal(), 900.0, "c", &warp, &lanes);
        let texts = s.texts();
        assert!((0..4).all(|w| texts.contains(&warp(w).as_str())));
        assert!(texts.contains(&lanes.as_str()));
        assert!(!texts.contains(&"lanes"));
    }

    fn shipped() -> Table {
        Table::parse(include_str!("../../../assets/measured/h200-divergence.csv"))
    }

    #[test]
    fn the_model_counts_both_paths() {
        assert_eq!(model_lane_slowdown(0), 1.0);
        assert_eq!(model_lane_slowdown(32), 1.0);
        assert!((1..32).all(|k| model_lane_slowdown(k) == 2.0));
        // tid < 100 over 4 warps: 50 issue steps against 40; warp 3 alone 20 against 10.
        assert_eq!(model_issue_slowdown("tid<100", "tid<0", 4), 1.25);
        assert_eq!(model_critical_slowdown("tid<100", "tid<0", 4), 2.0);
    }

    #[test]
    fn measured_slowdowns_beside_the_model() {
        crate::topics::install_texts();
        let t = shipped();
        for c in LANE_CONFIGS {
            assert_eq!(measured_slowdown(&t, c, 0), Some(1.0));
            // Uniform at both ends, divergent in between.
            assert!((measured_slowdown(&t, c, 32).unwrap() - 1.0).abs() < 0.05, "{c}");
            for k in 1..32 {
                let r = model_lane_slowdown(k) / measured_slowdown(&t, c, k).unwrap();
                assert!((1.0..1.1).contains(&r), "{c} k={k}: model ÷ measured {r}");
            }
        }
        let s = summary(&t).expect("a summary");
        assert_eq!(s.tid_warps, 4);
        assert_eq!((s.tid_issue, s.tid_critical), (1.25, 2.0));
        assert!(s.lane_16.iter().all(|x| (1.8..2.0).contains(x)), "{s:?}");
        assert!(s.lane_range.iter().all(|(lo, hi)| hi / lo < 1.05), "{s:?}");
        // Saturated: the issue count (1.25) is right; one block per SM: the
        // longest warp (2) is; each within 10 %, and not the other way round.
        let [sat, one] = s.tid;
        assert!((s.tid_issue / sat - 1.0).abs() < 0.1 && (s.tid_critical / one - 1.0).abs() < 0.1, "{s:?}");
        assert!((s.tid_critical / sat - 1.0).abs() > 0.3 && (s.tid_issue / one - 1.0).abs() > 0.3, "{s:?}");
        // tid < k for the k that leave whole warps uniform costs nothing extra.
        for c in TID_CONFIGS {
            for k in [32, 64, 96, 128] {
                assert!((measured_slowdown(&t, c, k).unwrap() - 1.0).abs() < 0.05, "{c} {k}");
            }
        }
        for lang in [Lang::En, Lang::Zh] {
            let [a, b] = measured_text(lang, &s);
            assert!(a.contains(&format!("{:.2}", s.lane_16[0])), "{a}");
            assert!(b.contains(&format!("{:.2}", sat)) && b.contains("1.25") && b.contains("2.00"), "{b}");
        }
        assert!(SHOWN_K.iter().all(|&k| measured_us(&t, LANE_CONFIGS[0], k).is_some()));
    }

    #[test]
    fn condition_errors_point_at_the_problem() {
        crate::topics::install_texts();
        assert_eq!(draft_error(Lang::En, "lane < 8 || warp == 2", 4), None);
        let e = draft_error(Lang::En, "tid % 2 = 0", 4).expect("an error");
        assert_eq!(e.split("tid % 2 = 0"), Some(("tid % 2 ", "=", " 0")));
        let e = e.plain("tid % 2 = 0");
        let lines: Vec<&str> = e.lines().collect();
        assert!(lines[0].starts_with("Condition error: ") && lines[0].contains("use == to compare"), "{e}");
        assert_eq!(lines[1], "tid % 2 = 0");
        assert_eq!(lines[2], "        ^");
        // Under a wide character, the caret counts its two columns.
        let e = draft_error(Lang::En, "线程", 4).expect("an error");
        assert_eq!(e.plain("线程").lines().nth(2), Some("^"));
        assert_eq!(e.split("线程"), Some(("", "线", "程")));
        // At the end: nothing to mark but the place after the text.
        let e = draft_error(Lang::En, "tid <", 4).expect("an error");
        assert_eq!(e.split("tid <"), Some(("tid <", "", "")));
        let e = draft_error(Lang::Zh, "tid / (lane - 3) == 0", 4).expect("an error");
        assert_eq!(e, BoxError { message: "线程 tid = 3 出现除以零。".into(), at: None });
        assert_eq!(e.split("x"), None);
    }
}
