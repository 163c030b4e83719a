//! The built-in lecture deck (`crate::lecture_deck`) against the registry:
//! every view a panel that parses its query with no notice, every note
//! citing its slide in both languages, every lecture number a view names a
//! row of `tests/lecture_numbers.md` at that view's URL, every part's
//! question and summary computed by the panels' own code.

use super::*;
use crate::i18n::{text, Lang};
use crate::lecture_deck::{problems, query_pairs, Sum, PARTS, VIEWS};
use crate::params::Values;

fn parse_view(route: &str, query: &[(String, String)]) -> Option<usize> {
    find(route).map(|t| t.meta.parse(query).1.len())
}

#[test]
fn every_view_is_a_panel_without_notice_and_cites_its_slide() {
    install_texts();
    let t = |lang: Lang, key: &str| text(lang, key).unwrap_or_else(|| panic!("no text {key}")).to_string();
    assert_eq!(problems(&parse_view, &t), Vec::<String>::new());
    for v in VIEWS {
        for lang in [Lang::En, Lang::Zh] {
            assert!(!t(lang, &v.title_key()).is_empty());
        }
        assert!(crate::deck::valid_url(v.url, &|id| find(id).is_some()), "{}", v.url);
    }
}

#[test]
fn a_panel_that_corrects_a_view_is_reported() {
    install_texts();
    let t = |lang: Lang, key: &str| text(lang, key).unwrap_or_default().to_string();
    // The same check, with a parser that finds a problem everywhere.
    let strict = |route: &str, q: &[(String, String)]| parse_view(route, q).map(|n| n + 1);
    assert_eq!(problems(&strict, &t).len(), VIEWS.len());
    let none = |_: &str, _: &[(String, String)]| None;
    assert!(problems(&none, &t).iter().all(|p| p.contains("is not a panel")));
}

/// The rows of `tests/lecture_numbers.md`: id → URL.
fn number_rows() -> Vec<(String, String)> {
    let md = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/lecture_numbers.md")).unwrap();
    md.lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| id ") && !l.starts_with("|---"))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            (cells[0].trim_start_matches("| ").to_string(), cells[3].trim_matches('`').to_string())
        })
        .collect()
}

fn same_view(a: &str, b: &str) -> bool {
    let key = |u: &str| {
        let mut q = query_pairs(u);
        q.sort();
        (u.trim_start_matches('#').split('?').next().unwrap_or("").to_string(), q)
    };
    key(a) == key(b)
}

#[test]
fn the_numbers_a_view_names_are_rows_at_its_url() {
    let rows = number_rows();
    assert!(rows.len() > 60);
    let mut named = 0;
    for v in VIEWS {
        for id in v.numbers {
            let (_, url) = rows.iter().find(|(r, _)| r == id).unwrap_or_else(|| panic!("{}: no row {id}", v.id));
            assert!(same_view(url, v.url), "{}: row {id} is at {url}, the view at {}", v.id, v.url);
            named += 1;
        }
    }
    assert!(named >= 25, "{named}");
}

#[test]
fn each_part_asks_from_its_bank_and_sums_up_through_the_sims() {
    for part in PARTS {
        let topic = find(part.practice).unwrap_or_else(|| panic!("{}: no topic {}", part.id, part.practice));
        let q = crate::practice::question(topic.practice, part.seed());
        assert_eq!(q.topic, part.practice);
        assert!(VIEWS[part.first..=part.last].iter().any(|v| v.route() == part.practice), "{}", part.id);
        assert!(!part.summary.is_empty());
        for s in part.summary {
            match *s {
                Sum::Row { route, row } => {
                    let t = find(route).unwrap();
                    let rows = (t.lecture.unwrap_or_else(|| panic!("{route} has no lecture rows")))(&Values::defaults(
                        t.meta.params,
                    ));
                    let r = rows.get(row).unwrap_or_else(|| panic!("{route} has no row {row}"));
                    // The summary shows figures the simulation agrees with the lecture on.
                    assert!(r.ok(), "{route} row {row}: {:?}", r.cells);
                    assert!(VIEWS[part.first..=part.last].iter().any(|v| v.route() == route), "{} {route}", part.id);
                    // What the study summary shows: figures only, never "SMs —" or "warps —".
                    let (_, shown) = summary_row(route, row).unwrap();
                    assert!(!shown.is_empty(), "{route} row {row}");
                    assert!(
                        shown.iter().all(|(_, v)| !v.contains('—') && !v.trim().is_empty()),
                        "{route} {row}: {shown:?}"
                    );
                    let dashes = r.cells.iter().filter(|c| c.computed == crate::lecture::NOT_PRINTED).count();
                    assert_eq!(shown.len() + dashes, r.cells.len());
                }
                Sum::Attention { n } => {
                    // The panel's own table row, from the same simulation.
                    let row = attention_memory::lecture_row(n);
                    let (standard, flash) = crate::lecture_deck::attention_bytes(n);
                    // Within half a unit of the table's last digit.
                    let near = |x: f64, printed: &str, unit: &str| {
                        let p = printed.trim_end_matches(unit);
                        let decimals = p.split('.').nth(1).map_or(0, str::len) as i32;
                        (x - p.parse::<f64>().unwrap()).abs() <= 0.5 * 10f64.powi(-decimals) + 1e-12
                    };
                    assert!(near(standard as f64 / 1e9, &row.standard, " GB"), "{n}: {}", row.standard);
                    assert!(near(flash as f64 / 1e6, &row.flash, " MB"), "{n}: {}", row.flash);
                }
            }
        }
    }
    // The lecture's own figures, as the summaries compute them.
    assert_eq!(attention_memory::lecture_row(65536).standard, "17.2 GB");
}

/// Part 1's summary: the A100 as the notes give it (a custom GPU: no SM
/// count) shows its peak, bandwidth and ridge, not "SMs —".
#[test]
fn the_a100_summary_names_no_sm_count_it_lacks() {
    let (label, shown) = summary_row("hardware", 1).unwrap();
    assert_eq!(label, "hardware.case.a100-notes");
    let metrics: Vec<&str> = shown.iter().map(|(m, _)| *m).collect();
    assert!(!metrics.contains(&"sms"), "{shown:?}");
    assert!(metrics.contains(&"peak-tflops") && metrics.contains(&"ridge"), "{shown:?}");
}
