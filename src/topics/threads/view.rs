//! The `#/threads` panel: thread indexing (notes §3.1, demo 1 of 02).

use crate::draw::threads::draw;
use crate::params::Value;
use crate::scene::{Rgba, Theme};
use crate::ui::kit::canvas::{SceneCanvas, SceneRef};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::panel::Panel;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::widgets::{legend_item, Preset};
use std::rc::Rc;
use yew::prelude::*;

#[hook]
pub fn use_threads_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    let g = super::threads_grid(&p.v);
    let sel = p.v.int("thread") as u64;
    let t = g.thread(sel);
    let scene = {
        let ctx = ctx.clone();
        use_memo((g, sel, p.width as u32, ctx.present, ctx.lang), move |(g, sel, w, _, _)| {
            let more = |n: u64| ctx.tf("threads.more-blocks", &[("n", &n.to_string())]);
            let block = |b: u64| ctx.tf("threads.block", &[("b", &b.to_string())]);
            SceneRef(Rc::new(draw(g, *sel, &theme, *w as f64, &more, &block)))
        })
    };
    let presets = vec![Preset {
        label: "threads.preset",
        id: "n1000-b256",
        values: vec![("n", Value::Int(1000)), ("block", Value::Int(256)), ("thread", Value::Int(1000))],
    }];
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
    let controls = p.controls_with_presets(&["n", "block", "thread"], "panel.presets", &presets);
    let stage = html! {
        <>
            <SceneCanvas scene={(*scene).clone()} name={format!("threads-n{}-b{}", g.n, g.block)} label={formula.clone()} />
            <div class="legend">
                { legend_item(ctx, Rgba::rgb(90, 140, 230), "threads.legend.active") }
                { legend_item(ctx, Rgba::rgb(230, 90, 80), "threads.legend.idle") }
                { legend_item(ctx, theme.fg, "threads.legend.selected") }
            </div>
            <p class="formula" data-testid="formula">
                { formula }{" · "}{ place }
                <span class={classes!("verdict", if t.active { "ok" } else { "bad" })}>{ verdict }</span>
            </p>
            { readouts(ctx, "threads", &g.metrics()) }
        </>
    };
    p.frame(controls, stage, p.explain())
}

crate::ui::kit::panel::panel!(use_threads_panel);
