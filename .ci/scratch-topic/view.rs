//! The `#/scratch` panel: one figure and the controls.

use crate::scene::Theme;
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::panel::Panel;
use crate::ui::kit::readouts::readouts;
use yew::prelude::*;

#[hook]
pub fn use_scratch_panel(p: &Panel, ctx: &AppCtx, _theme: Theme) -> Html {
    let figures = [crate::sim::Metric::count("scratch-blocks", super::blocks(&p.v))];
    let stage = readouts(ctx, "scratch", &figures);
    p.frame(p.controls(&["n", "block"]), stage, p.explain())
}

crate::ui::kit::panel::panel!(use_scratch_panel);
