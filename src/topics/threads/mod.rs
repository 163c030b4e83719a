//! `#/threads`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use crate::params::{ParamSpec, Values};
use crate::sim::threads;
use crate::topic::{Part, Topic, TopicMeta};

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static PARAMS: [ParamSpec; 3] = [
    ParamSpec::int("n", 1, threads::MAX_N as i64, 1000).log(),
    ParamSpec::int("block", 1, threads::MAX_BLOCK as i64, 256).log(),
    ParamSpec::position("thread"),
];

pub static META: TopicMeta = TopicMeta::new("threads", Part::Gpu, &PARAMS)
    .notes(&["3.1"], "02 · 1")
    .metrics(&["blocks", "threads", "idle-threads", "warps"])
    .position(|v| threads_grid(v).threads() - 1);

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic = Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK);

pub fn threads_grid(v: &Values) -> threads::Grid {
    threads::Grid::new(v.int("n") as u64, v.int("block") as u64)
}

/// The static snapshot (`crate::topic::snapshot`): the default grid with
/// its selected thread, drawn as the panel draws it, and its key figures.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: crate::i18n::Lang, width: f64) -> crate::topic::snapshot::Snapshot {
    use crate::i18n::trf;
    use crate::topic::snapshot::{Above, Snapshot, Stage, View};
    let (v, _) = META.parse(&[]);
    let g = threads_grid(&v);
    let sel = v.int("thread") as u64;
    let t = g.thread(sel);
    let more = |n: u64| trf(lang, "threads.more-blocks", &[("n", &n.to_string())]);
    let block = |b: u64| trf(lang, "threads.block", &[("b", &b.to_string())]);
    let scene = crate::draw::threads::draw(&g, sel, &crate::scene::Theme::normal(), width, &more, &block);
    let formula = trf(
        lang,
        "threads.formula",
        &[
            ("b", &t.block_idx.to_string()),
            ("d", &g.block.to_string()),
            ("t", &t.thread_idx.to_string()),
            ("i", &t.i.to_string()),
        ],
    );
    Snapshot::View(View {
        above: Above::Nothing,
        stage: Stage::Scene(scene),
        label: formula,
        figures: g.metrics(),
        pending: (vec![], ""),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topic::q;

    #[test]
    fn the_lecture_grid() {
        // notes §3.1: 1000 elements in blocks of 256 → 4 blocks, 1024 threads, 24 idle.
        let (v, n) = META.parse(&q(&[("n", "1000"), ("block", "256")]));
        assert!(n.is_empty());
        let g = threads_grid(&v);
        assert_eq!((g.blocks(), g.threads(), g.idle_threads()), (4, 1024, 24));
    }
}
