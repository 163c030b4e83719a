//! Measurements shipped as data (`assets/measured/`, written by `measure/`):
//! a small CSV reader. Lines starting with `#` are comments, except
//! `# <key>,<value>` lines, which are metadata (`date`, `device`); the first
//! other line is the header. Parsing never fails: a malformed cell is `None`.

/// One measured table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// `# key,value` comment lines (e.g. `date`, `device`).
    pub meta: Vec<(String, String)>,
}

impl Table {
    pub fn parse(text: &str) -> Table {
        let mut t = Table::default();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if let Some(c) = line.strip_prefix('#') {
                if let Some((k, v)) = c.trim().split_once(',') {
                    if !k.contains(' ') {
                        t.meta.push((k.trim().to_string(), v.trim().to_string()));
                    }
                }
                continue;
            }
            let cells: Vec<String> = line.split(',').map(|c| c.trim().to_string()).collect();
            if t.header.is_empty() {
                t.header = cells;
            } else {
                t.rows.push(cells);
            }
        }
        t
    }

    /// The index of a column.
    pub fn col(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }

    /// A cell as text.
    pub fn text<'a>(&'a self, row: &'a [String], name: &str) -> Option<&'a str> {
        self.col(name).and_then(|i| row.get(i)).map(String::as_str)
    }

    /// A cell as a number.
    pub fn num(&self, row: &[String], name: &str) -> Option<f64> {
        self.col(name).and_then(|i| row.get(i)).and_then(|c| c.parse::<f64>().ok()).filter(|v| v.is_finite())
    }

    /// A metadata value (`# date,2026-11-29`).
    pub fn meta(&self, key: &str) -> Option<&str> {
        self.meta.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// For a `key,value` table: the value of `key`.
    pub fn value(&self, key: &str) -> Option<f64> {
        self.rows.iter().find(|r| r.first().is_some_and(|k| k == key)).and_then(|r| self.num(r, "value"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_shipped_figures() {
        let t = Table::parse(include_str!("../../assets/measured/h200-figures.csv"));
        assert_eq!(t.meta("device"), Some("NVIDIA H200"));
        assert!(t.meta("date").is_some_and(|d| d.len() == 10));
        let copy = t.value("copy_bandwidth.fp32_1GiB.GBps").expect("copy bandwidth");
        // A measurement, not a spec: below NVIDIA's 4.8 TB/s, above half of it.
        assert!(copy > 2400.0 && copy < 4800.0, "{copy}");
        let ratio = t.value("elementwise_eager.x*2+1.ratio").expect("x*2+1");
        assert!((1.5..2.5).contains(&ratio), "{ratio}");
    }

    #[test]
    fn malformed_input_is_not_an_error() {
        let t = Table::parse("# date,x\na,b\n1,zz\n\n2");
        assert_eq!(t.meta("date"), Some("x"));
        assert_eq!(t.num(&t.rows[0], "b"), None);
        assert_eq!(t.num(&t.rows[1], "b"), None);
        assert_eq!(Table::parse("").rows.len(), 0);
    }
}
