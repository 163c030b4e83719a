//! The `#/gpu-vs-tpu` panel: the same matmul on a TPU MXU and on a GPU's SMs
//! (notes §9.1, demo 06).

use crate::draw::matmul::draw_compare;
use crate::scene::Theme;
use crate::ui::kit::canvas::{SceneCanvas, SceneRef};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::panel::Panel;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::widgets::{chart_title, table_head};
use std::rc::Rc;
use yew::prelude::*;

#[hook]
pub fn use_gpu_tpu_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    let c = super::gpu_tpu(&p.v);
    let titles = [ctx.t("gpu-vs-tpu.tpu"), ctx.t("gpu-vs-tpu.gpu")];
    let [chip_tpu, chip_gpu] = super::chip_detail(ctx.lang, &p.v);
    let scene = use_memo((c, p.width as u32, ctx.present, titles), |(c, w, _, titles)| {
        SceneRef(Rc::new(draw_compare(c, &theme, *w as f64, [&titles[0], &titles[1]])))
    });
    let controls = html! {
        <>
            { p.controls(&["m", "k", "n", "tpu"]) }
            // The MXU size picks the chip only when no chip is named.
            if p.v.choice("tpu") == "auto" {
                { p.controls(&["mxu"]) }
            }
            { p.controls(&["gpu", "tm", "tn"]) }
        </>
    };
    let term = |i: u32| {
        html! {
            <tr>
                <td>{ ctx.t(&format!("gpu-vs-tpu.term.{i}")) }</td>
                <td>{ ctx.t(&format!("gpu-vs-tpu.term.{i}t")) }</td>
            </tr>
        }
    };
    let stage = html! {
        <>
            <SceneCanvas scene={(*scene).clone()} name={format!("gpu-vs-tpu-{}x{}x{}", c.m, c.k, c.n)}
                label={format!("{}: {} {}", ctx.t("topic.gpu-vs-tpu.title"), super::tpu_detail(ctx.lang, &c), super::gpu_detail(ctx.lang, &c))} />
            { readouts(ctx, "gpu-vs-tpu", &super::metrics(&p.v)) }
            <p class="formula" data-testid="tpu-detail" data-value={c.mxu_cycles().to_string()}>{ super::tpu_detail(ctx.lang, &c) }</p>
            <p class="formula" data-testid="gpu-detail">{ super::gpu_detail(ctx.lang, &c) }</p>
            { chart_title(ctx, "gpu-vs-tpu.chips") }
            <p>{ ctx.t("gpu-vs-tpu.chips.note") }</p>
            <p class="formula" data-testid="tpu-chip" data-clock={super::super::systolic::clock_value(super::chip(&p.v))}>{ chip_tpu }</p>
            <p class="formula" data-testid="gpu-chip">{ chip_gpu }</p>
            <p>
                <a href={super::systolic_link(ctx.asked_lang, &p.v)} data-testid="systolic-link">
                    { super::systolic_link_text(ctx.lang, &p.v) }{" →"}
                </a>
            </p>
            { chart_title(ctx, "gpu-vs-tpu.terms") }
            <table class="ledger" data-testid="terms">
                { table_head(ctx, &["gpu-vs-tpu.term.gpu", "gpu-vs-tpu.term.tpu"]) }
                <tbody>{ for (1..=super::TERMS).map(term) }</tbody>
            </table>
        </>
    };
    let explain = html! { <p class="current">{ ctx.t("gpu-vs-tpu.explain") }</p> };
    p.frame(controls, stage, explain)
}

crate::ui::kit::panel::panel!(use_gpu_tpu_panel);
