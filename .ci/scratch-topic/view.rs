//! The `#/scratch` panel: one figure and the controls.

use crate::ui::panel::use_panel;
use crate::ui::readouts::readouts;
use yew::prelude::*;

#[hook]
pub fn use_scratch_panel() -> Html {
    let p = use_panel(&super::TOPIC);
    let figures = [crate::sim::Metric::count("scratch-blocks", super::blocks(&p.v))];
    let stage = readouts(&p.ctx, "scratch", &figures);
    p.frame(p.controls(&["n", "block"]), stage, p.explain())
}

crate::ui::panel::panel!(use_scratch_panel);
