//! The `#/coalescing` panel: one warp's loads against DRAM burst sections
//! (notes §6.5, demo 3 of 02).

use crate::draw::coalescing::draw;
use crate::scene::Theme;
use crate::sim::coalescing::Access;
use crate::ui::canvas::{SceneCanvas, SceneRef};
use crate::ui::panel::{controls, use_panel, Control};
use crate::ui::widgets::{Preset, Presets};
use crate::ui::readouts::Readouts;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn CoalescingPanel() -> Html {
    let p = use_panel(&super::COALESCING);
    let ctx = &p.ctx;
    let params = super::coalescing_params(&p.v);
    let access = use_memo(params, |p| Access::new(*p));
    let scene = {
        let access = access.clone();
        let ctx = ctx.clone();
        use_memo((params, p.width as u32, ctx.present, ctx.lang), move |(_, w, present, _)| {
            let skipped = |n: u64| ctx.tf("coalescing.skipped", &[("n", &n.to_string())]);
            let lanes = ctx.t("coalescing.lanes.short");
            SceneRef(Rc::new(draw(&access, &Theme::for_mode(*present), *w as f64, &lanes, &skipped)))
        })
    };
    let presets = Rc::new(
        super::LECTURE_CASES
            .iter()
            .map(|&(id, pattern, stride)| Preset { label: id, id, values: super::lecture_case(pattern, stride) })
            .collect::<Vec<_>>(),
    );
    let shown = |name: &str| super::shown(params.pattern, name);
    let controls = html! {
        <>
            { controls(&["dtype", "pattern"]) }
            if shown("stride") {
                <Control name="stride" />
            }
            if shown("rowlen") {
                <Control name="rowlen" />
            }
            { controls(&["offset", "section"]) }
            if shown("seed") {
                <Control name="seed" />
            }
            <Presets title="coalescing.presets" presets={presets} dispatch={p.dispatch.clone()} />
        </>
    };
    let stage = html! {
        <>
            <h2 class="chart-title">{ ctx.t("coalescing.lanes") }{" → "}{ ctx.t("coalescing.sections") }</h2>
            <SceneCanvas scene={(*scene).clone()} name={format!("coalescing-{}-{}", p.v.choice("pattern"), p.v.int("stride"))}
                label={ctx.t("coalescing.sections")} />
            <Readouts topic="coalescing" metrics={Rc::new(access.metrics())} />
        </>
    };
    let explain = html! {
        <>
            <p class="current">{ ctx.t("coalescing.explain") }</p>
            <p class="lecture-check">{ ctx.t("coalescing.lecture") }</p>
        </>
    };
    p.frame(controls, stage, explain)
}
