//! The lecture's tables beside the simulation: each row is one configuration
//! the notes or slides print figures for; the figures are computed live by
//! the panel's own metrics and formatted to the digits the lecture prints, so
//! a row matches (✓) or shows the difference and why.

use crate::params::{Value, Values};
use crate::sim::Metric;

/// One printed row: its label (translation key), the values that load it,
/// the printed figures (metric name, printed text), and the reason the
/// sources differ where they do (translation key).
pub struct Case {
    pub label: &'static str,
    pub values: Vec<(&'static str, Value)>,
    pub printed: Vec<(&'static str, &'static str)>,
    pub reason: Option<&'static str>,
}

/// One figure: what the lecture prints and what the simulation gives, in
/// the same format.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub metric: &'static str,
    pub printed: &'static str,
    pub computed: String,
}

impl Cell {
    /// The same as printed, or not printed at all ("—").
    pub fn ok(&self) -> bool {
        self.printed == self.computed || self.printed == NOT_PRINTED
    }
}

/// A figure the lecture does not print for this row.
pub const NOT_PRINTED: &str = "—";

/// The notes' §5.3 decode sweep (B = 1 … 1024, intensity 1 … 819): each
/// batch with its preset's label key and id, for every panel that offers it.
pub const DECODE_BATCHES: [(i64, &str, &str); 5] = [
    (1, "decode.b1", "b1"),
    (8, "decode.b8", "b8"),
    (64, "decode.b64", "b64"),
    (256, "decode.b256", "b256"),
    (1024, "decode.b1024", "b1024"),
];

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub label: &'static str,
    pub values: Vec<(&'static str, Value)>,
    pub cells: Vec<Cell>,
    pub reason: Option<&'static str>,
}

impl Row {
    pub fn ok(&self) -> bool {
        self.cells.iter().all(Cell::ok)
    }
}

/// `value` written like `printed`: the same unit (`%`, kB, MB, GB, or none)
/// and as many decimals.
pub fn like(printed: &str, value: f64) -> String {
    let (num, unit, scale) = match printed.trim() {
        p if p.ends_with('%') => (p.trim_end_matches('%'), "%", 0.01),
        p if p.ends_with(" GB") => (p.trim_end_matches(" GB"), " GB", 1e9),
        p if p.ends_with(" MB") => (p.trim_end_matches(" MB"), " MB", 1e6),
        p if p.ends_with(" kB") => (p.trim_end_matches(" kB"), " kB", 1e3),
        p => (p, "", 1.0),
    };
    let decimals = num.split('.').nth(1).map_or(0, str::len);
    let grouped = num.contains(',');
    let x = value / scale;
    let s = format!("{x:.decimals$}");
    let s = if grouped { crate::format::grouped(s.parse::<f64>().unwrap_or(0.0) as u64) } else { s };
    format!("{s}{unit}")
}

/// The rows of `cases`, each computed by `metrics` on `base` with the case's
/// values applied.
pub fn rows(base: &Values, cases: Vec<Case>, metrics: impl Fn(&Values) -> Vec<Metric>) -> Vec<Row> {
    cases
        .into_iter()
        .map(|c| {
            let v = c.values.iter().fold(base.clone(), |acc, (k, x)| acc.with(k, x.clone()));
            let m = metrics(&v);
            let cells = c
                .printed
                .iter()
                .map(|&(metric, printed)| {
                    let found = m.iter().find(|x| x.name == metric);
                    let value = found.map_or(f64::NAN, |x| x.value);
                    let computed = match found {
                        // Neither printed nor computed (a custom machine's SMs): a dash, not "NaN".
                        _ if value.is_nan() && printed == NOT_PRINTED => NOT_PRINTED.to_string(),
                        // Not printed: as the panel's key figure shows it (12.6 MB, not 12582912).
                        Some(x) if printed == NOT_PRINTED => crate::i18n::format_metric(x),
                        _ => like(printed, value),
                    };
                    Cell { metric, printed, computed }
                })
                .collect();
            Row { label: c.label, values: c.values, cells, reason: c.reason }
        })
        .collect()
}

/// The rows of a table the lecture prints in columns: each of `cases` (its
/// label key and the values that load it) beside its row of `printed`, the
/// figures under the metrics `names`, computed as [`rows`] does; no reason
/// is given where they differ.
pub fn table<const N: usize>(
    base: &Values,
    cases: impl IntoIterator<Item = (&'static str, Vec<(&'static str, Value)>)>,
    names: [&'static str; N],
    printed: impl IntoIterator<Item = [&'static str; N]>,
    metrics: impl Fn(&Values) -> Vec<Metric>,
) -> Vec<Row> {
    let cases = cases
        .into_iter()
        .zip(printed)
        .map(|((label, values), p)| Case { label, values, printed: names.into_iter().zip(p).collect(), reason: None })
        .collect();
    rows(base, cases, metrics)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_written_like_the_lecture() {
        assert_eq!(like("91%", 0.9074), "91%");
        assert_eq!(like("0.1%", 0.000846), "0.1%");
        assert_eq!(like("1.00", 1.0017), "1.00");
        assert_eq!(like("17.2 GB", 17_179_869_184.0), "17.2 GB");
        assert_eq!(like("33,554,432", 33_554_432.0), "33,554,432");
        assert_eq!(like("1365", 1365.33), "1365");
        let c = Cell { metric: "x", printed: "156", computed: like("156", 153.0) };
        assert!(!c.ok() && c.computed == "153");
        assert!(Cell { metric: "x", printed: NOT_PRINTED, computed: like(NOT_PRINTED, 3.3) }.ok());
    }
}
