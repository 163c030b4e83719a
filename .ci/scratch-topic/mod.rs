//! `#/scratch`: the smallest whole topic (the template that `.ci/new-topic.sh`
//! adds to a scratch copy to prove that a topic is one folder and one
//! registry item). A grid of `n` elements in blocks of `block` threads.

use crate::params::{ParamSpec, Values};
use crate::topic::{Part, Topic, TopicMeta};

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static SCRATCH_PARAMS: [ParamSpec; 2] =
    [ParamSpec::int("n", 1, 1_000_000, 1000).log(), ParamSpec::int("block", 1, 1024, 256).log()];

pub static SCRATCH: TopicMeta = TopicMeta {
    id: "scratch",
    sections: &["3.1"],
    demo: "02 · 1",
    part: Part::Gpu,
    params: &SCRATCH_PARAMS,
    metrics: &["scratch-blocks"],
    position_max: None,
    bounds: None,
};

/// Blocks for the values (the "simulation" of this template).
pub fn blocks(v: &Values) -> u64 {
    (v.int("n") as u64).div_ceil(v.int("block") as u64)
}

/// Everything this route owns (the registry lists it).
pub static TOPIC: Topic = Topic::new(&SCRATCH, STRINGS, &practice::BANK);

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("topic.scratch.title", "Scratch", "草稿"),
    ("topic.scratch.summary", "The smallest topic.", "最小的主题。"),
    ("metric.scratch-blocks", "Blocks", "块数"),
    ("scratch.explain", "ceil(n / block) blocks.", "ceil(n / block) 个块。"),
    ("scratch.lecture", "Notes §3.1.", "讲义 §3.1。"),
];
