//! A practice round: ten questions across the panels in lecture order (or
//! across one part of the lecture), from one seed.

use super::Rng;
use crate::params::ParamSpec;
use crate::topic::{Part, Topic};

pub const ROUND_LEN: usize = 10;

/// The parameters of the round page (`#/practice`), read like a panel's:
/// the round's seed (absent: the page draws one) and the part of the
/// lecture (`all`, or a [`part_code`]).
pub static ROUND_PARAMS: [ParamSpec; 2] = [
    ParamSpec::int("round", 0, u32::MAX as i64, 0),
    ParamSpec::choice("part", &["all", "gpu", "fast", "flash", "tpu"], "all").optional(),
];

/// The questions of a round: (topic, question seed), in lecture order.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub seed: u64,
    pub part: Option<Part>,
    pub items: Vec<(&'static str, u64)>,
}

/// `part=` in the URL.
pub fn part_code(p: Part) -> &'static str {
    match p {
        Part::Gpu => "gpu",
        Part::Fast => "fast",
        Part::Flash => "flash",
        Part::Tpu => "tpu",
    }
}

pub fn part_from_code(s: &str) -> Option<Part> {
    Part::ALL.into_iter().find(|p| part_code(*p) == s)
}

/// The round `seed` over `topics` (the registry's, in lecture order): ten
/// topics drawn without repeats while there are enough (every topic of a
/// small part, then repeats), each with its own question seed.
pub fn round(seed: u64, part: Option<Part>, topics: &[&'static Topic]) -> Round {
    let mut rng = Rng::new(seed);
    let topics: Vec<&'static str> =
        topics.iter().filter(|t| part.is_none() || Some(t.meta.part) == part).map(|t| t.meta.id).collect();
    let n = topics.len();
    let mut picks: Vec<usize> = Vec::with_capacity(ROUND_LEN);
    if n >= ROUND_LEN {
        let mut order: Vec<usize> = (0..n).collect();
        for i in 0..ROUND_LEN {
            let j = i + rng.below((n - i) as u64) as usize;
            order.swap(i, j);
        }
        picks.extend_from_slice(&order[..ROUND_LEN]);
    } else if n > 0 {
        picks.extend(0..n);
        while picks.len() < ROUND_LEN {
            picks.push(rng.below(n as u64) as usize);
        }
    }
    picks.sort_unstable();
    let items = picks.into_iter().map(|i| (topics[i], rng.0.next_u64() & 0xFFFF_FFFF)).collect();
    Round { seed, part, items }
}

#[cfg(test)]
mod page_tests {
    use super::*;
    use crate::params::{parse, Kind, Problem};

    /// `part=` offers exactly `all` and the lecture's parts; the hostile
    /// values of the issue give a notice each, and a usable value.
    #[test]
    fn round_parameters_are_read_by_their_specs() {
        let Kind::Choice { options, .. } = ROUND_PARAMS[1].kind else { panic!("part is a choice") };
        let codes: Vec<&str> = std::iter::once("all").chain(Part::ALL.into_iter().map(part_code)).collect();
        assert_eq!(options, codes.as_slice());
        let q = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
        };
        let (v, n) = parse(&ROUND_PARAMS, &q(&[("round", "abc"), ("part", "zz"), ("zap", "1"), ("lang", "zh")]));
        let named: Vec<&str> = n.iter().map(|x| x.param.as_str()).collect();
        assert_eq!(named, ["round", "part", "zap"]);
        assert_eq!((v.int("round"), v.choice("part")), (0, "all"));
        for (given, used) in [("4294967296", u32::MAX as i64), ("-1", 0), ("99999999999999999999999", u32::MAX as i64)]
        {
            let (v, n) = parse(&ROUND_PARAMS, &q(&[("round", given)]));
            assert_eq!(v.int("round"), used);
            assert!(matches!(n[0].problem, Problem::OutOfRange { .. }), "{given}: {n:?}");
        }
        // A whole number in scientific notation is read as the URL parser reads it.
        let (v, n) = parse(&ROUND_PARAMS, &q(&[("round", "1e3")]));
        assert!(n.is_empty() && v.int("round") == 1000, "{n:?}");
        let (_, n) = parse(&ROUND_PARAMS, &q(&[("round", "1.5")]));
        assert!(matches!(n[0].problem, Problem::Malformed { .. }));
        let (v, n) = parse(&ROUND_PARAMS, &q(&[("round", "4294967295"), ("part", "tpu")]));
        assert!(n.is_empty());
        assert_eq!((v.int("round"), v.choice("part")), (u32::MAX as i64, "tpu"));
    }
}
