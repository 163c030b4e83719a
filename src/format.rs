//! Numbers for people, in one place: counts with thousands separators,
//! bytes in decimal units, significant digits, percentages, log-axis ticks
//! and the few fixed formats the tables use. Pure; no language (the same
//! in English and 中文).

/// Thousands separators for counts (`1,234,567`).
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// On-chip bytes in KiB, one decimal where it isn't whole (`216.5 KiB`,
/// `192 KiB`): the one unit of SRAM, shared memory and registers.
pub fn kib(b: f64) -> String {
    let k = b / 1024.0;
    if (k - k.round()).abs() < 0.05 {
        format!("{k:.0} KiB")
    } else {
        format!("{k:.1} KiB")
    }
}

/// Bytes with decimal units and three significant digits (`67.1 MB`, `17.2 GB`).
pub fn bytes(b: f64) -> String {
    let units = [("GB", 1e9), ("MB", 1e6), ("kB", 1e3)];
    for (u, scale) in units {
        if b >= scale {
            let v = b / scale;
            let digits = if v >= 100.0 {
                0
            } else if v >= 10.0 {
                1
            } else {
                2
            };
            return format!("{v:.digits$} {u}");
        }
    }
    format!("{b:.0} B")
}

/// A number with about three significant digits (990, 67.0, 0.84).
pub fn sig3(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// Four significant digits.
pub fn sig4(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return x.to_string();
    }
    let decimals = (3 - x.abs().log10().floor() as i32).clamp(0, 6) as usize;
    format!("{x:.decimals$}")
}

/// A number for a person: integers grouped, others to about three
/// significant digits (0.0312, 4.17, 39.6, 989).
pub fn number(x: f64) -> String {
    let a = x.abs();
    if x.fract() == 0.0 && a < 1e15 {
        return if x < 0.0 { format!("-{}", grouped(a as u64)) } else { grouped(a as u64) };
    }
    let s = if a >= 100.0 {
        format!("{x:.0}")
    } else if a >= 10.0 {
        format!("{x:.1}")
    } else if a >= 1.0 {
        format!("{x:.2}")
    } else if a >= 1e-4 {
        // Three significant digits: 0.312, 0.0498.
        let d = (2 - a.log10().floor() as i32) as usize;
        format!("{x:.d$}")
    } else {
        format!("{x:.2e}")
    };
    s
}

/// A fraction as a percentage with one decimal at most (6.3, 97.3, 50).
pub fn percent(fraction: f64) -> String {
    let s = format!("{:.1}", 100.0 * fraction);
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}
/// Up to three decimals, trailing zeros cut, never "-0" (softmax cells).
pub fn trimmed3(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    if s == "-0" {
        "0".into()
    } else {
        s
    }
}

/// Numbers as the table shows them (enough digits to see the rescaling).
pub fn running(v: f64) -> String {
    if v == f64::NEG_INFINITY {
        "−∞".into()
    } else if v.abs() >= 1e5 || (v != 0.0 && v.abs() < 1e-3) {
        format!("{v:.4e}")
    } else {
        format!("{v:.6}").trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A running statistic, five decimals (−∞ before the first tile).
pub fn stat5(v: f64) -> String {
    if v == f64::NEG_INFINITY {
        "−∞".into()
    } else {
        format!("{v:.5}")
    }
}

/// A log-axis tick: whole numbers from 1 up, else the first significant
/// digit (0.1, 0.01, 0.001; never "0.00").
pub fn log_tick(y: f64) -> String {
    if y >= 1.0 || y <= 0.0 {
        format!("{y:.0}")
    } else {
        let decimals = (-y.log10()).ceil().max(1.0) as usize;
        format!("{y:.decimals$}")
    }
}

/// A count on a log axis whose ticks fall on powers of ten (sequence
/// lengths, contexts): decimal K and M (10K = 10,000), so that a tick at
/// 10⁵ reads 100K, not the binary 98K.
pub fn count_tick(x: f64) -> String {
    let short = |v: f64, unit: &str| format!("{}{unit}", trimmed3(v));
    if x >= 1e6 {
        short(x / 1e6, "M")
    } else if x >= 1e4 {
        short(x / 1e3, "K")
    } else {
        format!("{x:.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_ticks_are_decimal() {
        assert_eq!([100.0, 1000.0, 1e4, 1e5, 1e6, 2.5e6].map(count_tick), ["100", "1000", "10K", "100K", "1M", "2.5M"]);
    }

    #[test]
    fn log_ticks_never_read_zero() {
        assert_eq!(
            [1000.0, 1.0, 0.1, 0.01, 0.001, 0.0025].map(log_tick),
            ["1000", "1", "0.1", "0.01", "0.001", "0.003"]
        );
    }

    #[test]
    fn formats() {
        assert_eq!(grouped(33554432), "33,554,432");
        assert_eq!(grouped(12), "12");
        assert_eq!(bytes(67.1e6), "67.1 MB");
        assert_eq!((kib(216.5 * 1024.0), kib(192.0 * 1024.0)), ("216.5 KiB".to_string(), "192 KiB".to_string()));
        assert_eq!(sig3(989.7), "990");
        assert_eq!(sig4(0.012345), "0.01235");
        assert_eq!(number(4.1666), "4.17");
        assert_eq!(percent(0.973), "97.3");
        assert_eq!(trimmed3(-0.0001), "0");
        assert_eq!(stat5(f64::NEG_INFINITY), "−∞");
        assert_eq!(running(1e6), "1.0000e6");
    }
}
