//! Online softmax (notes §8.2, demo 1 of 05; Milakov & Gimelshein 2018).
//!
//! The standard softmax reads its input three times: for the maximum `m`, for
//! `ℓ = Σ e^(x−m)`, and to normalise. The online algorithm keeps a running
//! maximum and a running sum based on it, block by block:
//!
//! ```text
//! m' = max(m, max(block)),   ℓ' = ℓ · e^(m − m') + Σ_block e^(x − m')
//! ```
//!
//! Every old term `e^(x−m)` times `e^(m−m')` is `e^(x−m')`: the sum
//! "telescopes" onto the new base. Step `s` = blocks processed. All in f64.

use super::{Metric, Steppable};

pub const MAX_VALUES: usize = 4096;

/// Why a vector can't be read: typed, so the panel says it in the reader's
/// language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VectorError {
    /// More than [`MAX_VALUES`] entries.
    TooMany,
    /// The entries that are not finite numbers: up to five of them as
    /// (1-based position, the entry shortened), and how many more there are.
    NotNumbers { shown: Vec<(usize, String)>, more: usize },
}

/// Parse a comma-separated vector; the error names the bad entries.
pub fn parse_vector(s: &str) -> Result<Vec<f64>, VectorError> {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    // A Chinese input method types the full-width comma; accept it too.
    for (i, part) in s.split([',', '，']).enumerate() {
        match part.trim().parse::<f64>() {
            Ok(v) if v.is_finite() => out.push(v),
            _ => bad.push((i + 1, shorten(part.trim(), 16))),
        }
        if out.len() > MAX_VALUES {
            return Err(VectorError::TooMany);
        }
    }
    if !bad.is_empty() {
        let more = bad.len().saturating_sub(5);
        bad.truncate(5);
        return Err(VectorError::NotNumbers { shown: bad, more });
    }
    Ok(out)
}

/// At most `n` characters of `s`, with an ellipsis if cut (never splits a
/// character).
fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

/// The running state after some blocks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Running {
    /// Running maximum (−∞ before the first block).
    pub m: f64,
    /// Running sum of e^(x − m).
    pub l: f64,
    /// The factor e^(m_old − m_new) the last block applied to the old sum.
    pub rescale: f64,
}

pub struct OnlineSoftmax {
    pub x: Vec<f64>,
    pub block: usize,
    /// State after 0, 1, …, B blocks.
    states: Vec<Running>,
    /// [`OnlineSoftmax::max_abs_error`], once asked (every render's figures
    /// ask; up to 4096 values, three passes of `exp`).
    error: std::cell::OnceCell<f64>,
}

/// The online update: the running maximum and sum after one more block.
pub fn update(prev: Running, chunk: &[f64]) -> Running {
    let m_new = chunk.iter().cloned().fold(prev.m, f64::max);
    let rescale = if prev.m == f64::NEG_INFINITY { 0.0 } else { (prev.m - m_new).exp() };
    let l = prev.l * rescale + chunk.iter().map(|v| (v - m_new).exp()).sum::<f64>();
    Running { m: m_new, l, rescale }
}

/// The standard three-pass softmax.
pub fn softmax_three_pass(x: &[f64]) -> Vec<f64> {
    let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let l: f64 = x.iter().map(|v| (v - m).exp()).sum();
    x.iter().map(|v| (v - m).exp() / l).collect()
}

impl OnlineSoftmax {
    pub fn new(x: Vec<f64>, block: usize) -> Self {
        let block = block.max(1);
        let mut states = vec![Running { m: f64::NEG_INFINITY, l: 0.0, rescale: 1.0 }];
        for chunk in x.chunks(block) {
            let prev = *states.last().expect("one state");
            states.push(update(prev, chunk));
        }
        OnlineSoftmax { x, block, states, error: std::cell::OnceCell::new() }
    }
    pub fn blocks(&self) -> usize {
        self.states.len() - 1
    }
    pub fn running(&self, step: u64) -> Running {
        self.states[(step as usize).min(self.blocks())]
    }
    /// The block processed in step `s` (1-based) as an index range.
    pub fn block_range(&self, s: u64) -> std::ops::Range<usize> {
        let s = (s as usize).clamp(1, self.blocks().max(1));
        let a = (s - 1) * self.block;
        a..(a + self.block).min(self.x.len())
    }
    /// Probabilities from the final state (one more pass over x to normalise).
    pub fn probabilities(&self) -> Vec<f64> {
        let r = self.running(self.blocks() as u64);
        self.x.iter().map(|v| (v - r.m).exp() / r.l).collect()
    }
    pub fn max_abs_error(&self) -> f64 {
        *self.error.get_or_init(|| self.measure_error())
    }
    fn measure_error(&self) -> f64 {
        self.probabilities().iter().zip(softmax_three_pass(&self.x)).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max)
    }
}

impl Steppable for OnlineSoftmax {
    type State = Running;
    fn steps(&self) -> u64 {
        self.blocks() as u64
    }
    fn state_at(&self, t: u64) -> Running {
        self.running(t)
    }
    /// One online update from the previous state (the stored states must
    /// agree with it: a law of `Steppable`).
    fn step_from(&self, prev: &Running, t: u64) -> Running {
        if t >= self.steps() {
            return *prev;
        }
        update(*prev, &self.x[self.block_range(t + 1)])
    }
    fn metrics(&self, t: u64) -> Vec<Metric> {
        let r = self.running(t);
        vec![
            Metric::count("step", t.min(self.steps())),
            Metric::real("m", r.m),
            Metric::real("l", r.l),
            Metric::real("max-abs-error", self.max_abs_error()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn issue_example() {
        let s = OnlineSoftmax::new(vec![1.0, 3.0, 2.0, 5.0], 2);
        assert_eq!(s.blocks(), 2);
        let r1 = s.running(1);
        assert_eq!(r1.m, 3.0);
        assert!((r1.l - ((-2f64).exp() + 1.0)).abs() < 1e-15);
        let r2 = s.running(2);
        assert_eq!(r2.m, 5.0);
        assert!((r2.rescale - (-2f64).exp()).abs() < 1e-15);
        assert!(s.max_abs_error() < 1e-15);
        assert!((s.probabilities().iter().sum::<f64>() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn vectors_are_parsed_with_named_errors() {
        assert_eq!(parse_vector("1, 3,2 ,5").unwrap(), vec![1.0, 3.0, 2.0, 5.0]);
        let e = parse_vector("1,abc,3,,nan").unwrap_err();
        let shown = vec![(2, "abc".to_string()), (4, String::new()), (5, "nan".to_string())];
        assert_eq!(e, VectorError::NotNumbers { shown, more: 0 });
        let e = parse_vector("a,b,c,d,e,f,g").unwrap_err();
        assert!(matches!(e, VectorError::NotNumbers { ref shown, more: 2 } if shown.len() == 5));
        assert_eq!(parse_vector(&"1,".repeat(MAX_VALUES + 2)).unwrap_err(), VectorError::TooMany);
    }

    #[test]
    fn vectors_from_a_chinese_keyboard() {
        assert_eq!(parse_vector("1，3, 2").unwrap(), vec![1.0, 3.0, 2.0]);
        let e = parse_vector("1,线程,🚀").unwrap_err();
        assert_eq!(e, VectorError::NotNumbers { shown: vec![(2, "线程".into()), (3, "🚀".into())], more: 0 });
        let long = format!("1,{}", "线".repeat(100));
        let VectorError::NotNumbers { shown, .. } = parse_vector(&long).unwrap_err() else { panic!("not numbers") };
        assert!(shown[0].1.ends_with('…') && shown[0].1.chars().count() == 17);
    }

    proptest! {
        #[test]
        fn parse_vector_never_panics_on_unicode(s in "\\PC{0,80}") {
            let _ = parse_vector(&s);
        }

        #[test]
        fn online_equals_softmax(x in prop::collection::vec(-50.0f64..50.0, 1..300), block in 1usize..64) {
            let s = OnlineSoftmax::new(x.clone(), block);
            prop_assert_eq!(s.blocks(), x.len().div_ceil(block));
            prop_assert!(s.max_abs_error() < 1e-12);
            // The running max is the max of the prefix, and ℓ its sum.
            for t in 0..=s.steps() {
                let end = (t as usize * block).min(x.len());
                let m = x[..end].iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                prop_assert_eq!(s.running(t).m, m);
                if end > 0 {
                    let l: f64 = x[..end].iter().map(|v| (v - m).exp()).sum();
                    prop_assert!((s.running(t).l - l).abs() <= 1e-12 * l);
                }
            }
        }
    }
}
