//! `#/quantization`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters; the alignment sentence and the
//! lecture cases.

use crate::i18n::{trf, Lang};
use crate::params::{ParamSpec, Value, Values};
use crate::sim::hw;
use crate::sim::matmul::{self, Quantization};
use crate::topic::*;

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static PARAMS: [ParamSpec; 5] = [
    ParamSpec::int("n", 1, 8192, 1025).log(),
    ParamSpec::int("m", 0, 8192, 0).optional(),
    ParamSpec::int("tile", 1, 512, 128).log(),
    ParamSpec::choice("dtype", hw::ML_DTYPES, "fp32"),
    ParamSpec::choice("section", &["32", "64", "128"], "128"),
];

pub static META: TopicMeta = TopicMeta::new("quantization", Part::Fast, &PARAMS).notes(&["6.6", "7"], "04").metrics(&[
    "useful-fraction",
    "tiles",
    "aligned",
    "extra-transactions",
]);

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic = Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK).lecture(lecture_rows);

pub fn quantization(v: &Values) -> matmul::Quantization {
    matmul::Quantization {
        m: or_n(v, "m"),
        n: v.int("n") as u64,
        t: v.int("tile") as u64,
        elem_bytes: hw::dtype_bytes(v.choice("dtype")),
        section: v.choice("section").parse().unwrap_or(128),
    }
}

/// The key figures; `aligned` shown as yes / no (`data-value` 1 / 0).
pub fn readouts(q: &Quantization) -> Vec<crate::sim::Metric> {
    q.metrics()
        .into_iter()
        .map(|m| if m.name == "aligned" { crate::sim::Metric::flag(m.name, m.value != 0.0) } else { m })
        .collect()
}

/// Whether the rows are aligned to the memory sections, and what that costs.
pub fn alignment(lang: Lang, q: &Quantization) -> String {
    let (row, section) = (q.row_bytes().to_string(), q.section.to_string());
    if q.aligned() {
        trf(lang, "quantization.align.yes", &[("row", &row), ("section", &section)])
    } else {
        trf(
            lang,
            "quantization.align.no",
            &[
                ("row", &row),
                ("section", &section),
                ("extra", &q.extra_transactions().to_string()),
                ("t", &q.t.min(q.m).to_string()),
                ("padded", &q.padded_n().to_string()),
            ],
        )
    }
}

/// The lecture's cases (notes §6.6, tile 128, fp32): label key (also the
/// `data-preset` id) and n.
pub const LECTURE_CASES: [(&str, i64); 2] = [("quantization.preset.1024", 1024), ("quantization.preset.1025", 1025)];

/// The notes' §6.6 quantization figures beside the model (tile 128).
pub fn lecture_rows(v: &Values) -> Vec<crate::lecture::Row> {
    let cases = LECTURE_CASES.iter().map(|&(label, n)| (label, lecture_case(n)));
    crate::lecture::table(v, cases, ["useful-fraction"], [["100%"], ["79%"]], |v| readouts(&quantization(v)))
}

/// The values a lecture case sets.
pub fn lecture_case(n: i64) -> Vec<(&'static str, Value)> {
    vec![("n", Value::Int(n)), ("m", Value::Int(0)), ("tile", Value::Int(128)), ("dtype", Value::Choice("fp32"))]
}

/// The static snapshot (`crate::topic::snapshot`): the default matrix's
/// tile grid, drawn as the panel draws it, and its key figures.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: Lang, width: f64) -> crate::topic::snapshot::Snapshot {
    use crate::i18n::tr;
    use crate::topic::snapshot::{Above, Snapshot, Stage, View};
    let (v, _) = META.parse(&[]);
    let q = quantization(&v);
    let scene = crate::draw::matmul::draw_quantization(&q, &crate::scene::Theme::normal(), width.min(900.0));
    Snapshot::View(View {
        above: Above::Title(tr(lang, "quantization.grid")),
        stage: Stage::Scene(scene),
        label: format!("{}: {}", tr(lang, "quantization.grid"), alignment(lang, &q)),
        figures: readouts(&q),
        pending: (vec![], ""),
    })
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn lecture_cases_give_the_lecture_numbers() {
        // notes §6.6, tile 128: n = 1024 → 100 % useful; n = 1025 → 79 %.
        let start = Values::defaults(&PARAMS).with("tile", Value::Int(64)).with("m", Value::Int(7));
        let at = |n| quantization(&lecture_case(n).into_iter().fold(start.clone(), |acc, (k, x)| acc.with(k, x)));
        assert_eq!(LECTURE_CASES.map(|(_, n)| n), [1024, 1025]);
        assert_eq!(at(1024).useful_fraction(), 1.0);
        assert_eq!(format!("{:.0}", 100.0 * at(1025).useful_fraction()), "79");
    }

    #[test]
    fn the_alignment_sentence() {
        crate::topics::install_texts();
        let v = Values::defaults(&PARAMS);
        let q = quantization(&v);
        let text = alignment(Lang::En, &q);
        assert!(text.starts_with("Each row is 4100 bytes, not a multiple of the 128-byte section"), "{text}");
        assert!(text.contains(&format!("costing {} extra transactions per 128-row tile load", q.extra_transactions())));
        assert!(text.contains("pad the row to 1056 elements"), "{text}");
        let aligned = quantization(&v.with("n", Value::Int(1024)));
        assert_eq!(
            alignment(Lang::En, &aligned),
            "Each row is 4096 bytes, a multiple of the 128-byte section: tile rows start on section boundaries."
        );
        assert!(alignment(Lang::Zh, &aligned).contains("4096 字节"));
        let shown = |q: &Quantization| readouts(q).into_iter().find(|m| m.name == "aligned").unwrap();
        assert_eq!((shown(&aligned).raw(), shown(&aligned).word_key().unwrap()), ("1".into(), "word.yes".into()));
        assert_eq!((shown(&q).raw(), shown(&q).word_key().unwrap()), ("0".into(), "word.no".into()));
    }
}
