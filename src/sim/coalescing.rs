//! Memory coalescing (notes §6.5, demo 3 of 02): the 32 lanes of one warp each
//! load one element; DRAM is read in aligned burst sections, so the warp costs
//! one transaction per distinct section its addresses touch.

use super::{Metric, SplitMix64};

pub const LANES: usize = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// Lane `t` reads `x[offset + t × stride]`.
    Stride,
    /// Lane `t` reads element `t` of a row of a row-major matrix: `x[offset + t]`.
    Row,
    /// Lane `t` reads row `t` of a column: `x[offset + t × rowlen]`.
    Column,
    /// Lane `t` reads a random element of a 2^22-element array (seeded).
    Random,
}

impl Pattern {
    pub const ALL: [Pattern; 4] = [Pattern::Stride, Pattern::Row, Pattern::Column, Pattern::Random];
    pub fn code(self) -> &'static str {
        match self {
            Pattern::Stride => "stride",
            Pattern::Row => "row",
            Pattern::Column => "column",
            Pattern::Random => "random",
        }
    }
    pub fn from_code(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.code() == s)
    }
}

pub const RANDOM_SPAN: u64 = 1 << 22;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    pub elem_bytes: u64,
    pub pattern: Pattern,
    pub stride: u64,
    pub offset: u64,
    pub rowlen: u64,
    pub section: u64,
    pub seed: u64,
}

pub struct Access {
    pub p: Params,
    /// Byte address of each lane's element.
    pub addrs: [u64; LANES],
    /// The distinct sections touched (section index), ascending.
    pub sections: Vec<u64>,
}

impl Access {
    pub fn new(p: Params) -> Self {
        let mut rng = SplitMix64::new(p.seed);
        let mut addrs = [0u64; LANES];
        for (t, a) in addrs.iter_mut().enumerate() {
            let t = t as u64;
            let elem = match p.pattern {
                Pattern::Stride => p.offset + t * p.stride,
                Pattern::Row => p.offset + t,
                Pattern::Column => p.offset + t * p.rowlen,
                Pattern::Random => p.offset + rng.next_u64() % RANDOM_SPAN,
            };
            *a = elem * p.elem_bytes;
        }
        let mut sections: Vec<u64> = addrs.iter().map(|a| a / p.section).collect();
        sections.sort_unstable();
        sections.dedup();
        Access { p, addrs, sections }
    }
    pub fn transactions(&self) -> u64 {
        self.sections.len() as u64
    }
    pub fn bytes_moved(&self) -> u64 {
        self.transactions() * self.p.section
    }
    /// Distinct bytes the lanes asked for.
    pub fn useful_bytes(&self) -> u64 {
        let mut a = self.addrs.to_vec();
        a.sort_unstable();
        a.dedup();
        a.len() as u64 * self.p.elem_bytes
    }
    pub fn useful_fraction(&self) -> f64 {
        self.useful_bytes() as f64 / self.bytes_moved() as f64
    }
    pub fn metrics(&self) -> Vec<Metric> {
        vec![
            Metric::count("transactions", self.transactions()),
            Metric::percent("useful-fraction", self.useful_fraction()),
            Metric::bytes("bytes-moved", self.bytes_moved()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn fp32(pattern: Pattern, stride: u64) -> Access {
        Access::new(Params { elem_bytes: 4, pattern, stride, offset: 0, rowlen: 1024, section: 128, seed: 1 })
    }

    #[test]
    fn lecture_table() {
        // fp32, 128-byte sections: stride 1 → 1, 100 %; 2 → 2, 50 %; 32 → 32, 3 %; random → 32, 3 %.
        let cases = [
            (Pattern::Stride, 1, 1, "100"),
            (Pattern::Stride, 2, 2, "50"),
            (Pattern::Stride, 32, 32, "3"),
            (Pattern::Random, 1, 32, "3"),
        ];
        for (pat, stride, tx, pct) in cases {
            let a = fp32(pat, stride);
            assert_eq!(a.transactions(), tx, "{pat:?} {stride}");
            assert_eq!(format!("{:.0}", 100.0 * a.useful_fraction()), pct);
        }
        assert_eq!(fp32(Pattern::Row, 1).transactions(), 1);
        assert_eq!(fp32(Pattern::Column, 1).transactions(), 32);
    }

    #[test]
    fn misalignment_costs_a_transaction() {
        let a = Access::new(Params {
            elem_bytes: 4,
            pattern: Pattern::Stride,
            stride: 1,
            offset: 1,
            rowlen: 1,
            section: 128,
            seed: 0,
        });
        assert_eq!(a.transactions(), 2);
    }

    proptest! {
        #[test]
        fn invariants(bytes in prop::sample::select(vec![1u64, 2, 4, 8]), stride in 1u64..300, offset in 0u64..5000,
                      section in prop::sample::select(vec![32u64, 64, 128]), pat in 0usize..4, seed in any::<u64>()) {
            let a = Access::new(Params { elem_bytes: bytes, pattern: Pattern::ALL[pat], stride, offset, rowlen: stride, section, seed });
            prop_assert!(a.transactions() >= 1 && a.transactions() <= LANES as u64);
            prop_assert!(a.useful_fraction() > 0.0 && a.useful_fraction() <= 1.0);
            // Aligned, contiguous, and no more than a section: one transaction.
            if Pattern::ALL[pat] == Pattern::Stride && stride == 1 && 32 * bytes <= section && (offset * bytes) % (32 * bytes) == 0 {
                prop_assert_eq!(a.transactions(), 1);
            }
        }
    }
}
