//! The `#/quantization` panel: tile quantization and alignment (notes §6.6,
//! §7, demo 04).

use crate::draw::matmul::draw_quantization;
use crate::scene::Theme;
use crate::ui::kit::canvas::{SceneCanvas, SceneRef};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::lecture_table::lecture_table;
use crate::ui::kit::panel::Panel;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::widgets::{chart_title, Preset};
use std::rc::Rc;
use yew::prelude::*;

#[hook]
pub fn use_quantization_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    let q = super::quantization(&p.v);
    let scene = SceneRef(Rc::new(draw_quantization(&q, &theme, p.width.min(900.0))));
    let presets = super::LECTURE_CASES
        .iter()
        .map(|&(id, n)| Preset { label: id, id, values: super::lecture_case(n) })
        .collect::<Vec<_>>();
    let controls = p.controls_with_presets(&["n", "m", "tile", "dtype", "section"], "quantization.presets", &presets);
    let stage = html! {
        <>
            { chart_title(ctx, "quantization.grid") }
            <SceneCanvas scene={scene} name={format!("quantization-n{}-t{}", q.n, q.t)} label={format!("{}: {}", ctx.t("quantization.grid"), super::alignment(ctx.lang, &q))} />
            { readouts(ctx, "quantization", &super::readouts(&q)) }
            { lecture_table(ctx, "quantization", "lecture.table", &super::lecture_rows(&p.v), &p.dispatch) }
            <p class={classes!("check", if q.aligned() { "ok" } else { "bad" })} data-testid="alignment">
                { super::alignment(ctx.lang, &q) }
            </p>
        </>
    };
    p.frame(controls, stage, p.explain())
}

crate::ui::kit::panel::panel!(use_quantization_panel);
