//! The `#/occupancy` panel: resident warps per SM and the limiting resource
//! (notes §6.7, demo 4 of 02), with three sweeps.

use super::Sweep;
use crate::draw::occupancy::draw;
use crate::params::Value;
use crate::scene::Theme;
use crate::sim::occupancy::{compute, Resource};
use crate::ui::kit::canvas::{SceneCanvas, SceneRef};
use crate::ui::kit::chart::{Chart, SeriesChart};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::lecture_table::lecture_table;
use crate::ui::kit::panel::Panel;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::url_state::Action;
use crate::ui::kit::widgets::{chart_title, Preset};
use std::rc::Rc;
use yew::prelude::*;

#[hook]
pub fn use_occupancy_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    let (arch, k) = super::occupancy_kernel(&p.v);
    let o = compute(arch, k);
    let labels: [String; 4] = Resource::ALL
        .map(|r| ctx.tf(&format!("occupancy.limit.{}", r.code()), &[("n", &o.limits[r as usize].to_string())]));
    let block_label = |b: u32| ctx.tf("occupancy.block.short", &[("b", &b.to_string())]);
    let scene = SceneRef(Rc::new(draw(arch, &o, &theme, p.width, &labels, &block_label)));
    let presets = super::LECTURE_CASES
        .iter()
        .map(|&(id, threads, regs)| Preset { label: id, id, values: super::lecture_case(threads, regs) })
        .collect::<Vec<_>>();
    let chart_w = (p.width - 4.0).max(240.0);
    let chart_h = if ctx.present { 200.0 } else { 150.0 };
    let chart = |s: Sweep| {
        let c = s.curve(arch, k);
        let data = Rc::new(SeriesChart {
            ys: c.ys,
            x0: c.x0,
            dx: c.dx,
            y_max: 1.0,
            bands: vec![],
            x_desc: ctx.t(s.axis_key()),
            y_desc: ctx.t("metric.occupancy"),
            color: theme.fill_tint,
            present: ctx.present,
            overlay: vec![],
        });
        let d = p.dispatch.clone();
        let on_seek = Callback::from(move |x: u64| d.emit(Action::Set(s.param(), Value::Int(s.value_at(x)))));
        html! {
            <div>
                <h2 class="chart-title">{ ctx.t(s.title_key()) }</h2>
                <Chart data={data} width={chart_w} height={chart_h} cursor={s.cursor(k)} label={ctx.t(s.title_key())}
                    on_seek={on_seek} />
            </div>
        }
    };
    let controls = p.controls_with_presets(&["arch", "threads", "regs", "smem"], "occupancy.presets", &presets);
    let detail = ctx.tf(
        "occupancy.detail",
        &[
            ("w", &o.warps_per_block.to_string()),
            ("r", &o.regs_per_warp.to_string()),
            ("s", &o.smem_per_block.to_string()),
        ],
    );
    let stage = html! {
        <>
            { chart_title(ctx, "occupancy.sm") }
            <SceneCanvas scene={scene} name={format!("occupancy-{}-{}x{}-{}", arch.code, k.threads, k.regs, k.smem)}
                label={ctx.t("occupancy.sm")} />
            <p class="formula" data-testid="occupancy-detail">{ detail }</p>
            { readouts(ctx, "occupancy", &o.metrics()) }
            { lecture_table(ctx, "occupancy", "lecture.table", &super::lecture_rows(&p.v), &p.dispatch) }
            <div class="charts">
                { for Sweep::ALL.map(chart) }
            </div>
        </>
    };
    p.frame(controls, stage, p.explain())
}

crate::ui::kit::panel::panel!(use_occupancy_panel);
