//! A practice round: ten questions across the panels in lecture order (or
//! across one part of the lecture), from one seed.

use super::Rng;
use crate::topic::{Part, Topic};

pub const ROUND_LEN: usize = 10;

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
