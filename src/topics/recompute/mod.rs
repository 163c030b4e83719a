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

pub static PARAMS: [ParamSpec; 6] = [
    ParamSpec::int("depth", 1, 16, 3),
    ParamSpec::int("n", 1, 1 << 28, 1 << 20).log(),
    ParamSpec::choice("dtype", crate::sim::hw::ML_DTYPES, "fp32"),
    ParamSpec::choice("upstream", &["1", "0"], "1"),
    ParamSpec::position("step"),
    ParamSpec::int("speed", 1, 1000, 2).optional(),
];

pub static META: TopicMeta = TopicMeta::new("recompute", Part::Fast, &PARAMS)
    .notes(&["6.4"], "03")
    .metrics(&[
        "accesses-store",
        "accesses-recompute",
        "saved-bytes-store",
        "saved-bytes-recompute",
        "done-store",
        "done-recompute",
    ])
    .position(|v| run(v).steps());

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic = Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK).lecture(lecture_rows);

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

/// The drawing of `run` at step `t` in `lang` (the panel's and the
/// snapshot's).
pub fn drawing(lang: Lang, th: &crate::scene::Theme, run: &Run, t: u64, width: f64) -> crate::scene::Scene {
    let w = |k: &str| tr(lang, k);
    let (store, recompute, accesses, waits, done, sigmoids, registers, forward, backward, track) = (
        w("recompute.store"),
        w("recompute.recompute"),
        w("recompute.d.accesses"),
        w("recompute.d.waits"),
        w("recompute.d.done"),
        w("recompute.d.sigmoids"),
        w("recompute.d.registers"),
        w("recompute.forward"),
        w("recompute.backward"),
        w("recompute.d.track"),
    );
    let labels = crate::draw::recompute::Labels {
        store: &store,
        recompute: &recompute,
        hbm: "HBM",
        sm: "SM",
        accesses: &accesses,
        waits: &waits,
        done: &done,
        sigmoids: &sigmoids,
        in_registers: &registers,
        forward: &forward,
        backward: &backward,
        track: &track,
    };
    let cap = caption(lang, run, t);
    crate::draw::recompute::draw(run, t, th, width, &cap, &labels)
}

/// The static snapshot (`crate::topic::snapshot`): both versions at the
/// default step, drawn as the panel draws them, and its key figures.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: Lang, width: f64) -> crate::topic::snapshot::Snapshot {
    use crate::topic::snapshot::{Above, Snapshot, Stage, View};
    let (v, _) = META.parse(&[]);
    let r = recompute(&v);
    let run = Run::new(r);
    let step = (v.int("step") as u64).min(run.steps());
    let scene = drawing(lang, &crate::scene::Theme::normal(), &run, step, width);
    let mut figures = r.metrics();
    figures.extend(run.metrics(step));
    Snapshot::View(View {
        above: Above::Nothing,
        stage: Stage::Scene(scene),
        label: tr(lang, "recompute.drawing"),
        figures,
        pending: (vec![], ""),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(pairs: &[(&str, &str)]) -> fusion::Recompute {
        let q: Vec<(String, String)> = pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        let (v, notices) = META.parse(&q);
        assert!(notices.is_empty(), "{notices:?}");
        recompute(&v)
    }

    #[test]
    fn the_slides_five_eighths_read_both_ways() {
        let (v, _) = META.parse(&crate::topic::q(&[("depth", "3")]));
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
        assert_eq!(m.iter().map(|m| m.name).collect::<Vec<_>>(), META.metrics[..4]);
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
    fn a_figure_the_slides_do_not_print_reads_as_the_panel_shows_it() {
        let (values, _) = META.parse(&[]);
        let rows = lecture_rows(&values);
        let slides = rows.iter().find(|r| r.label == "recompute.case.slides").expect("the slides' row");
        let cell = |m: &str| slides.cells.iter().find(|c| c.metric == m).expect("a cell").computed.clone();
        assert_eq!((cell("saved-bytes-store"), cell("saved-bytes-recompute")), ("12.6 MB".into(), "4.19 MB".into()));
        assert_eq!(cell("accesses-store"), "8");
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
