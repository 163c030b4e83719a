//! The `#/tiling` panel: tiled matmul and its reuse (notes §6.6, demo 04).

use crate::draw::matmul::draw_tiling;
use crate::scene::Theme;
use crate::sim::roofline::Work;
use crate::sim::Steppable;
use crate::ui::kit::canvas::{SceneCanvas, SceneRef};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::export::Export;
use crate::ui::kit::inset::RooflineInset;
use crate::ui::kit::lecture_table::lecture_table;
use crate::ui::kit::panel::Panel;
use crate::ui::kit::player::Player;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::widgets::Preset;
use std::rc::Rc;
use yew::prelude::*;

#[hook]
pub fn use_tiling_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    let run = super::tile_run(&p.v);
    let t = run.tiling;
    let step = p.v.int("step") as u64;
    let state = run.state_at(step);
    let caption = super::caption(ctx.lang, &run, &state);
    // Drawn again only when what it shows changes (not on a speed or smem change).
    let scene = use_memo(
        (t, run.ti, run.tj, state, p.width as u32, ctx.present, caption.clone()),
        |(t, ti, tj, state, w, _, cap)| SceneRef(Rc::new(draw_tiling(t, *ti, *tj, state, &theme, *w as f64, cap))),
    );
    let export = use_memo((run, p.width as u32, ctx.present, ctx.lang), |&(run, w, _, lang)| Export {
        name: format!("tiling-n{}-ti{}-tj{}", run.tiling.n, run.ti, run.tj),
        scene_at: Rc::new(move |s| {
            let state = run.state_at(s);
            let cap = super::caption(lang, &run, &state);
            draw_tiling(&run.tiling, run.ti, run.tj, &state, &theme, w as f64, &cap)
        }),
    });
    let (fits, fit) = super::fit_text(ctx.lang, &p.v);
    let presets = super::LECTURE_CASES
        .iter()
        .map(|&(id, mode, tile)| Preset { label: id, id, values: super::lecture_case(mode, tile) })
        .collect::<Vec<_>>();
    let controls = p.controls_with_presets(
        &["mode", "n", "m", "k", "tile", "ti", "tj", "dtype", "smem"],
        "tiling.presets",
        &presets,
    );
    let on_seek = p.seek("step");
    let stage = html! {
        <>
            <SceneCanvas scene={(*scene).clone()} name={format!("tiling-{}-n{}-t{}-s{}", p.v.choice("mode"), t.n, t.t, step)}
                label={caption.clone()} />
            <Player pos={step} len={run.steps()} speed={p.v.int("speed")} unit="param.step" on_seek={on_seek}
                on_speed={p.set("speed")} export={Some((*export).clone())} />
            <p class="formula" data-testid="tile-counters">{ super::counters(ctx.lang, &state) }</p>
            { readouts(ctx, "tiling", &super::readouts(&run, step)) }
            { lecture_table(ctx, "tiling", "lecture.table", &super::lecture_rows(&p.v), &p.dispatch) }
            <p class={classes!("check", if fits { "ok" } else { "bad" })} data-testid="smem-fit">{ fit }</p>
            <RooflineInset gpu={p.v.choice("gpu")} custom={Some((p.v.text("peak").to_string().into(), p.v.int("bw")))} dtype={p.v.choice("dtype")} dispatch={p.dispatch.clone()} points={Rc::new(vec![
                ("inset.this", Work { flops: t.flops() as f64, bytes: t.global_bytes() as f64 }),
            ])} />
        </>
    };
    p.frame(controls, stage, p.explain())
}

crate::ui::kit::panel::panel!(use_tiling_panel);
