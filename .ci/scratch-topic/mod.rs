//! `#/scratch`: the smallest whole topic (the template that `.ci/new-topic.sh`
//! adds to a scratch copy to prove that a topic is one folder and one
//! registry item). A grid of `n` elements in blocks of `block` threads.

use crate::params::{ParamSpec, Values};
use crate::topic::{Part, Topic, TopicMeta};

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static PARAMS: [ParamSpec; 2] =
    [ParamSpec::int("n", 1, 1_000_000, 1000).log(), ParamSpec::int("block", 1, 1024, 256).log()];

pub static META: TopicMeta =
    TopicMeta::new("scratch", Part::Gpu, &PARAMS).notes(&["3.1"], "02 · 1").metrics(&["scratch-blocks"]);

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic = Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK);

/// Blocks for the values (the "simulation" of this template).
pub fn blocks(v: &Values) -> u64 {
    (v.int("n") as u64).div_ceil(v.int("block") as u64)
}

/// No static snapshot (`crate::topic::snapshot`, every topic says): this
/// template's view has no drawing for one to show.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(_: crate::i18n::Lang, _: f64) -> crate::topic::snapshot::Snapshot {
    crate::topic::snapshot::Snapshot::Exempt("the template topic of .ci/new-topic.sh: its view has no drawing to show")
}
