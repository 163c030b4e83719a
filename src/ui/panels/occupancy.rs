//! `#/occupancy`: resident warps per SM and the limiting resource (notes §6.7,
//! demo 4 of 02), with three sweeps.

use super::frame::{setter, Choice, PanelFrame, Preset, Presets};
use crate::draw::occupancy::draw;
use crate::params::Value;
use crate::scene::Theme;
use crate::sim::occupancy::{compute, Kernel, Resource};
use crate::topics::{occupancy_kernel, OCCUPANCY};
use crate::ui::app::AppCtx;
use crate::ui::canvas::{use_width, SceneCanvas, SceneRef};
use crate::ui::chart::{Chart, SeriesChart};
use crate::ui::readouts::Readouts;
use crate::ui::slider::Slider;
use crate::ui::url_state::{use_url_state, Action};
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn OccupancyPanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&OCCUPANCY);
    let v = st.values.clone();
    let (arch, k) = occupancy_kernel(&v);
    let o = compute(arch, k);
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(1100.0);
    let labels: [String; 4] = Resource::ALL
        .map(|r| ctx.tf(&format!("occupancy.limit.{}", r.code()), &[("n", &o.limits[r as usize].to_string())]));
    let scene = SceneRef(Rc::new(draw(arch, &o, &Theme::for_mode(ctx.present), width, &labels)));
    let theme = Theme::for_mode(ctx.present);
    let sweep = |key: &str, x0: f64, dx: f64, ys: Vec<f64>| {
        Rc::new(SeriesChart {
            ys,
            x0,
            dx,
            y_max: 1.0,
            bands: vec![],
            x_desc: ctx.t(key),
            y_desc: ctx.t("metric.occupancy"),
            color: theme.fill_tint,
            present: ctx.present,
            overlay: vec![],
        })
    };
    let occ = |k: Kernel| compute(arch, k).occupancy;
    let by_threads =
        sweep("param.threads", 32.0, 32.0, (1..=32).map(|i| occ(Kernel { threads: i * 32, ..k })).collect());
    let by_regs = sweep("param.regs", 1.0, 1.0, (1..=255).map(|r| occ(Kernel { regs: r, ..k })).collect());
    let smem_max_kb = arch.max_smem_per_block / 1024;
    let by_smem = sweep(
        "occupancy.axis.smem-kb",
        0.0,
        1.0,
        (0..=smem_max_kb).map(|kb| occ(Kernel { smem: kb * 1024, ..k })).collect(),
    );
    let set = |name: &'static str| setter(&st.dispatch, name);
    let case = |id: &'static str, threads: i64, regs: i64| Preset {
        label: id,
        id,
        values: vec![
            ("arch", Value::Choice("sm90")),
            ("threads", Value::Int(threads)),
            ("regs", Value::Int(regs)),
            ("smem", Value::Int(0)),
        ],
    };
    let presets = Rc::new(vec![
        case("occupancy.preset.256x32", 256, 32),
        case("occupancy.preset.256x64", 256, 64),
        case("occupancy.preset.128x160", 128, 160),
    ]);
    let chart_w = (width - 4.0).max(240.0);
    let chart_h = if ctx.present { 200.0 } else { 150.0 };
    let chart = |title: &str, data: Rc<SeriesChart>, cursor: f64, name: &'static str, scale: f64| {
        let d = st.dispatch.clone();
        html! {
            <div>
                <h2 class="chart-title">{ ctx.t(title) }</h2>
                <Chart data={data} width={chart_w} height={chart_h} cursor={cursor} label={ctx.t(title)}
                    on_seek={Callback::from(move |x: u64| d.emit(Action::Set(name, Value::Int((x as f64 * scale) as i64))))} />
            </div>
        }
    };
    let controls = html! {
        <>
            <Choice name="arch" options={&["sm80", "sm90", "sm100"][..]} value={v.choice("arch")} dispatch={st.dispatch.clone()} />
            <Slider name="threads" value={v.int("threads")} min={1} max={1024} on_change={set("threads")} />
            <Slider name="regs" value={v.int("regs")} min={1} max={255} on_change={set("regs")} />
            <Slider name="smem" value={v.int("smem")} min={0} max={(227 * 1024) as i64} on_change={set("smem")} />
            <Presets title="occupancy.presets" presets={presets} dispatch={st.dispatch.clone()} />
        </>
    };
    let detail = ctx.tf(
        "occupancy.detail",
        &[
            ("w", &o.warps_per_block.to_string()),
            ("r", &o.regs_per_warp.to_string()),
            ("s", &o.smem_per_block.to_string()),
        ],
    );
    let stage_html = html! {
        <>
            <h2 class="chart-title">{ ctx.t("occupancy.sm") }</h2>
            <SceneCanvas scene={scene} name={format!("occupancy-{}-{}x{}-{}", arch.code, k.threads, k.regs, k.smem)}
                label={ctx.t("occupancy.sm")} />
            <p class="formula" data-testid="occupancy-detail">{ detail }</p>
            <Readouts topic="occupancy" metrics={Rc::new(o.metrics())} />
            <div class="charts">
                { chart("occupancy.chart.threads", by_threads, k.threads as f64, "threads", 1.0) }
                { chart("occupancy.chart.regs", by_regs, k.regs as f64, "regs", 1.0) }
                { chart("occupancy.chart.smem", by_smem, k.smem as f64 / 1024.0, "smem", 1024.0) }
            </div>
        </>
    };
    let explain = html! {
        <>
            <p class="current">{ ctx.t("occupancy.explain") }</p>
            <p class="lecture-check">{ ctx.t("occupancy.lecture") }</p>
        </>
    };
    html! {
        <PanelFrame id="occupancy" sections="6.7" demo="02 · 4" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={stage} />
    }
}
