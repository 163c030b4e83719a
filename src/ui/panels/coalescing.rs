//! `#/coalescing`: one warp's loads against DRAM burst sections (notes §6.5,
//! demo 3 of 02).

use super::frame::{setter, Choice, PanelFrame, Preset, Presets};
use crate::draw::coalescing::draw;
use crate::params::Value;
use crate::scene::Theme;
use crate::sim::coalescing::Access;
use crate::topics::{coalescing_params, COALESCING};
use crate::ui::app::AppCtx;
use crate::ui::canvas::{use_width, SceneCanvas, SceneRef};
use crate::ui::readouts::Readouts;
use crate::ui::slider::Slider;
use crate::ui::url_state::use_url_state;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn CoalescingPanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&COALESCING);
    let v = st.values.clone();
    let params = coalescing_params(&v);
    let access = use_memo(params, |p| Access::new(*p));
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(1100.0);
    let scene = {
        let access = access.clone();
        let ctx = ctx.clone();
        use_memo((params, width as u32, ctx.present, ctx.lang), move |(_, w, present, _)| {
            let skipped = |n: u64| ctx.tf("coalescing.skipped", &[("n", &n.to_string())]);
            SceneRef(Rc::new(draw(&access, &Theme::for_mode(*present), *w as f64, &skipped)))
        })
    };
    let set = |name: &'static str| setter(&st.dispatch, name);
    let case = |id: &'static str, pattern: &'static str, stride: i64| Preset {
        label: id,
        id,
        values: vec![
            ("dtype", Value::Choice("fp32")),
            ("pattern", Value::Choice(pattern)),
            ("stride", Value::Int(stride)),
            ("offset", Value::Int(0)),
            ("section", Value::Choice("128")),
        ],
    };
    let presets = Rc::new(vec![
        case("coalescing.preset.x-t", "stride", 1),
        case("coalescing.preset.x-2t", "stride", 2),
        case("coalescing.preset.x-32t", "stride", 32),
        case("coalescing.preset.random", "random", 1),
    ]);
    let pattern = v.choice("pattern");
    let controls = html! {
        <>
            <Choice name="dtype" options={&["fp64", "fp32", "bf16", "fp16", "fp8"][..]} value={v.choice("dtype")} dispatch={st.dispatch.clone()} />
            <Choice name="pattern" options={&["stride", "row", "column", "random"][..]} value={pattern} dispatch={st.dispatch.clone()} />
            if pattern == "stride" {
                <Slider name="stride" value={v.int("stride")} min={1} max={1024} log={true} on_change={set("stride")} />
            }
            if pattern == "row" || pattern == "column" {
                <Slider name="rowlen" value={v.int("rowlen")} min={1} max={65536} log={true} on_change={set("rowlen")} />
            }
            <Slider name="offset" value={v.int("offset")} min={0} max={4096} on_change={set("offset")} />
            <Choice name="section" options={&["32", "64", "128"][..]} value={v.choice("section")} dispatch={st.dispatch.clone()} />
            if pattern == "random" {
                <Slider name="seed" value={v.int("seed")} min={0} max={1000} on_change={set("seed")} />
            }
            <Presets title="coalescing.presets" presets={presets} dispatch={st.dispatch.clone()} />
        </>
    };
    let stage_html = html! {
        <>
            <h2 class="chart-title">{ ctx.t("coalescing.lanes") }{" → "}{ ctx.t("coalescing.sections") }</h2>
            <SceneCanvas scene={(*scene).clone()} name={format!("coalescing-{}-{}", pattern, v.int("stride"))}
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
    html! {
        <PanelFrame id="coalescing" sections="6.5" demo="02 · 3" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={stage} />
    }
}
