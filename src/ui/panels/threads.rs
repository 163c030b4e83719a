//! `#/threads`: thread indexing (notes §3.1, demo 1 of 02).

use super::frame::{legend_item, setter, PanelFrame, Preset, Presets};
use crate::draw::threads::draw;
use crate::params::Value;
use crate::scene::{Rgba, Theme};
use crate::topics::{threads_grid, THREADS};
use crate::ui::app::AppCtx;
use crate::ui::canvas::{use_width, SceneCanvas, SceneRef};
use crate::ui::readouts::Readouts;
use crate::ui::slider::Slider;
use crate::ui::url_state::use_url_state;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn ThreadsPanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&THREADS);
    let v = st.values.clone();
    let g = threads_grid(&v);
    let sel = v.int("thread") as u64;
    let t = g.thread(sel);
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(1100.0);
    let scene = {
        let ctx = ctx.clone();
        use_memo((g, sel, width as u32, ctx.present, ctx.lang), move |(g, sel, w, present, _)| {
            let more = |n: u64| ctx.tf("threads.more-blocks", &[("n", &n.to_string())]);
            SceneRef(Rc::new(draw(g, *sel, &Theme::for_mode(*present), *w as f64, &more)))
        })
    };
    let set = |name: &'static str| setter(&st.dispatch, name);
    let presets = Rc::new(vec![Preset {
        label: "threads.preset",
        id: "n1000-b256",
        values: vec![("n", Value::Int(1000)), ("block", Value::Int(256)), ("thread", Value::Int(1000))],
    }]);
    let formula = ctx.tf(
        "threads.formula",
        &[
            ("b", &t.block_idx.to_string()),
            ("d", &g.block.to_string()),
            ("t", &t.thread_idx.to_string()),
            ("i", &t.i.to_string()),
        ],
    );
    let verdict = ctx.tf(
        if t.active { "threads.active" } else { "threads.idle" },
        &[("i", &t.i.to_string()), ("n", &g.n.to_string())],
    );
    let place = ctx.tf(
        "threads.where",
        &[("b", &t.block_idx.to_string()), ("w", &t.warp_in_block.to_string()), ("l", &t.lane.to_string())],
    );
    let controls = html! {
        <>
            <Slider name="n" value={v.int("n")} min={1} max={1 << 24} log={true} on_change={set("n")} />
            <Slider name="block" value={v.int("block")} min={1} max={1024} log={true} on_change={set("block")} />
            <Slider name="thread" value={v.int("thread")} min={0} max={(g.threads() - 1) as i64} on_change={set("thread")} />
            <Presets title="systolic.presets" presets={presets} dispatch={st.dispatch.clone()} />
        </>
    };
    let stage_html = html! {
        <>
            <SceneCanvas scene={(*scene).clone()} name={format!("threads-n{}-b{}", g.n, g.block)} label={formula.clone()} />
            <div class="legend">
                { legend_item(&ctx, Rgba::rgb(90, 140, 230), "threads.legend.active") }
                { legend_item(&ctx, Rgba::rgb(230, 90, 80), "threads.legend.idle") }
                { legend_item(&ctx, Theme::normal().fg, "threads.legend.selected") }
            </div>
            <p class="formula" data-testid="formula">
                { formula }{" · "}{ place }
                <span class={classes!("verdict", if t.active { "ok" } else { "bad" })}>{ verdict }</span>
            </p>
            <Readouts topic="threads" metrics={Rc::new(g.metrics())} />
        </>
    };
    let explain = html! {
        <>
            <p class="current">{ ctx.t("threads.explain") }</p>
            <p class="lecture-check">{ ctx.t("threads.lecture") }</p>
        </>
    };
    html! {
        <PanelFrame id="threads" sections="3.1" demo="02 · 1" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={stage} />
    }
}
