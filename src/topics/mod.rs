//! The one registry of lecture topics. Each topic is a folder named by its
//! route (`topics/<id>/`) that owns everything the route is: `mod.rs` (pure:
//! parameters, meta, conversion to simulation parameters, texts, practice
//! bank, lecture rows, measured files, declared as its `TOPIC`) and `view.rs`
//! (its panel, wasm32). The landing page, the router, the panel-table generator,
//! the text files and every registry-wide test read [`ALL`]. Adding a panel:
//! one folder and one item below.

pub use crate::topic::Topic;

// The registry: one `#[path] pub mod` item per topic, in lecture order. They
// are plain items (not inside a macro) so that `cargo fmt` reads every topic
// file; `build.rs` reads these items, in this order, and writes `ALL` (the one
// list of topics that the landing page, router, panel-table generator and tests
// read). Adding a panel: one folder and one item here.
#[path = "hardware/mod.rs"]
pub mod hardware;
#[path = "threads/mod.rs"]
pub mod threads;
#[path = "roofline/mod.rs"]
pub mod roofline;
#[path = "your-machine/mod.rs"]
pub mod your_machine;
#[path = "divergence/mod.rs"]
pub mod divergence;
#[path = "fusion/mod.rs"]
pub mod fusion;
#[path = "recompute/mod.rs"]
pub mod recompute;
#[path = "coalescing/mod.rs"]
pub mod coalescing;
#[path = "tiling/mod.rs"]
pub mod tiling;
#[path = "quantization/mod.rs"]
pub mod quantization;
#[path = "occupancy/mod.rs"]
pub mod occupancy;
#[path = "waves/mod.rs"]
pub mod waves;
#[path = "llm/mod.rs"]
pub mod llm;
#[path = "online-softmax/mod.rs"]
pub mod online_softmax;
#[path = "flash/mod.rs"]
pub mod flash;
#[path = "attention-memory/mod.rs"]
pub mod attention_memory;
#[path = "gpu-vs-tpu/mod.rs"]
pub mod gpu_vs_tpu;
#[path = "systolic/mod.rs"]
pub mod systolic;

include!(concat!(env!("OUT_DIR"), "/topics_all.rs"));

/// The loader of the panel of route `id` (its folder's `view::VIEW` and
/// `TOPIC`, in its own chunk).
#[cfg(target_arch = "wasm32")]
pub fn view(id: &str) -> Option<crate::ui::kit::panel::LoadView> {
    METAS.iter().position(|m| m.id == id).map(|i| VIEWS[i])
}

/// Every text table of the app: the deck's, practice's, the lecture's, then
/// each topic's own and its practice bank's (i18n's own two come first in
/// [`crate::i18n::tables`]).
pub fn texts() -> Vec<crate::i18n::Texts> {
    let mut tables = vec![
        crate::deck::STRINGS,
        crate::practice::STRINGS,
        crate::lecture_deck::STRINGS,
        crate::lecture_deck::VIEW_STRINGS,
    ];
    for t in ALL {
        tables.push(t.strings);
        tables.push(t.practice.strings);
    }
    tables
}

/// Every file of `assets/measured/` a panel fetches (the topics' `measured`
/// lists), once each, sorted: what the service worker caches on a first
/// visit so that the H200 overlays work offline (`warpscope strings` writes
/// it for `tools/split`; the rest of the folder is provenance and the
/// tables compiled into the app, which no page fetches).
pub fn measured_files() -> Vec<&'static str> {
    let mut files: Vec<&'static str> = ALL.iter().flat_map(|t| t.measured.iter().copied()).collect();
    files.sort_unstable();
    files.dedup();
    files
}

/// Each topic's id and its tables (its own and its practice bank's), whose
/// own texts ([`crate::i18n::own_key`]) go into a file of their own; then
/// the built-in lecture's views (`lecture.view.*`, shown by the pages only).
pub fn text_parts() -> Vec<(&'static str, Vec<crate::i18n::Texts>)> {
    let mut parts: Vec<_> = ALL.iter().map(|t| (t.meta.id, vec![t.strings, t.practice.strings])).collect();
    parts.push((crate::lecture_deck::TEXTS_PART, vec![crate::lecture_deck::VIEW_STRINGS]));
    parts
}

/// Hands [`texts`] to [`crate::i18n`] (natively: the text-file writer and the
/// tests; the wasm build reads the text files instead).
pub fn install_texts() {
    crate::i18n::install_tables(texts());
}

pub fn find(id: &str) -> Option<&'static Topic> {
    ALL.iter().copied().find(|t| t.meta.id == id)
}

/// A lecture table's row as a study summary shows it: its label and the
/// figures (metric, value) the panel computes at its defaults, without those
/// the machine doesn't have ("—": a custom GPU's SMs, a warp count no row
/// names), so no summary line reads "SMs —".
pub fn summary_row(route: &str, row: usize) -> Option<(&'static str, Vec<(&'static str, String)>)> {
    let topic = find(route)?;
    let rows = (topic.lecture?)(&crate::params::Values::defaults(topic.meta.params));
    let r = rows.into_iter().nth(row)?;
    let cells =
        r.cells.into_iter().filter(|c| c.computed != crate::lecture::NOT_PRINTED).map(|c| (c.metric, c.computed));
    Some((r.label, cells.collect()))
}

/// A markdown table of every panel's URL parameters and metrics (the table in
/// docs/panels.md is checked against it by a test).
pub fn readme_table() -> String {
    let mut out =
        String::from("| route | notes § | demo | URL parameters | metrics (`data-metric`) |\n|---|---|---|---|---|\n");
    for t in ALL.iter().map(|t| t.meta) {
        let params: Vec<String> = t.params.iter().map(|p| format!("`{}`", p.name)).collect();
        let metrics: Vec<String> = t.metrics.iter().map(|m| format!("`{m}`")).collect();
        out += &format!(
            "| `#/{}` | {} | {} | {} | {} |\n",
            t.id,
            t.sections.join(", "),
            t.demo,
            params.join(" "),
            metrics.join(" ")
        );
    }
    out
}

#[cfg(test)]
mod hostile;
#[cfg(test)]
mod lecture_tests;
#[cfg(test)]
mod tests;
