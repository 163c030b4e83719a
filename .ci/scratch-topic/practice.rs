//! Practice on `#/scratch`: three kinds, each answered by `blocks`.

use super::{blocks, SCRATCH};
use crate::practice::{a, bank, values, yes_no, Answer, Made, Rng, Text};

bank!("scratch": "blocks" => count, "more" => more, "exact" => exact);

fn pick(r: &mut Rng) -> crate::params::Values {
    values(&SCRATCH, &[("n", r.int(100, 9999).to_string()), ("block", r.pick(&[32, 64, 128, 256]).to_string())])
}

fn made(r: &mut Rng, answer: impl Fn(u64, &crate::params::Values) -> Answer) -> Made {
    let v = pick(r);
    let b = blocks(&v);
    let args = [a("n", v.int("n")), a("block", v.int("block")), a("b", b)];
    Made {
        prompt: Text::new("practice.scratch.q", &args[..2]),
        answer: answer(b, &v),
        explain: Text::new("practice.scratch.why", &args),
        state: v,
    }
}

fn count(r: &mut Rng) -> Made {
    made(r, |b, _| Answer::count(b))
}

fn more(r: &mut Rng) -> Made {
    made(r, |b, _| yes_no(b > 10))
}

fn exact(r: &mut Rng) -> Made {
    made(r, |_, v| yes_no(v.int("n") % v.int("block") == 0))
}

static STRINGS: crate::i18n::Texts = crate::texts!("practice.tsv");
