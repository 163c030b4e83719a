//! The `#/fusion` panel: operator fusion (notes §6.3, demo 03).

use crate::params::Value;
use crate::scene::Theme;
use crate::sim::fusion::{inputs, kernels, ledger, parse, PRESETS};
use crate::sim::measured::Table;
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::inset::RooflineInset;
use crate::ui::kit::measured::{measured_cell, measured_note, measured_table, ratio_cell, use_measured};
use crate::ui::kit::panel::Panel;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::url_state::Action;
use crate::ui::kit::widgets::{chart_title, emit_on_click, table_head};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[hook]
pub fn use_fusion_panel(p: &Panel, ctx: &AppCtx, _theme: Theme) -> Html {
    let d = p.dispatch.clone();
    let expr = super::expression(&p.v);
    let ks = kernels(&expr);
    let l = ledger(&expr);
    let n = p.v.int("n") as u64;
    let dtype = p.v.choice("dtype");
    let e = super::elem_bytes(&p.v);
    // What the user is typing: the URL follows only once it parses.
    let draft = use_state(|| p.v.text("expr").to_string());
    {
        let draft = draft.clone();
        use_effect_with(p.v.text("expr").to_string(), move |x| draft.set(x.clone()));
    }
    let draft_error = parse(&draft).err();
    let figures = use_measured(super::FIGURES_FILE, p.v.choice("measured") == "1");
    let on_expr = {
        let draft = draft.clone();
        let d = d.clone();
        Callback::from(move |ev: InputEvent| {
            let Some(text) =
                ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).map(|i| i.value())
            else {
                return;
            };
            if parse(&text).is_ok() {
                d.emit(Action::Set("expr", Value::Text(text.clone())));
            }
            draft.set(text);
        })
    };
    let points = Rc::new(super::inset_points(&l, n, e).to_vec());
    let total_args = super::total_args(&l);
    let total = ctx.tf("fusion.total", &total_args.each_ref().map(|(k, v)| (*k, v.as_str())));
    let controls = html! {
        <>
            <div class="control" data-param="expr" title={ctx.t("param.expr.doc")}>
                <label class="control-label" for="param-expr">{ ctx.t("param.expr") }</label>
                <input id="param-expr" name="expr" class={classes!("cond-input", draft_error.is_some().then_some("bad"))}
                    spellcheck="false" autocomplete="off" value={(*draft).clone()} oninput={on_expr} />
                if let Some(err) = draft_error {
                    { crate::topics::divergence::view::error_box(&super::expr_error(ctx.lang, &err), &draft, "expr-error") }
                }
            </div>
            <div class="presets">
                <span class="control-label">{ ctx.t("fusion.presets") }</span>
                { for PRESETS.iter().map(|(id, ex)| {
                    html! { <button class="preset" data-preset={*id}
                        onclick={emit_on_click(&d, Action::Set("expr", Value::Text(ex.to_string())))}>
                        { ctx.t(&format!("fusion.preset.{id}")) }</button> }
                }) }
            </div>
            { p.controls(&["n", "dtype", "measured"]) }
        </>
    };
    // The roofline is the stage: as tall as the screen leaves, less its
    // title, machine choice and values (and the inset's padding).
    let (chart_w, chart_h) = p.chart_size(1100.0, if ctx.present { 260.0 } else { 230.0 });
    let stage = html! {
        <>
            <figure class="scene chart-scene" data-testid="stage-chart">
                <RooflineInset gpu={p.v.choice("gpu")} custom={Some((p.v.text("peak").to_string().into(), p.v.int("bw")))} dtype={dtype}
                    points={points} dispatch={d.clone()} size={Some((chart_w - 26.0, chart_h))} />
            </figure>
            { readouts(ctx, "fusion", &l.metrics(n, e)) }
            { chart_title(ctx, "fusion.timeline") }
            <div class="kernel-timeline" data-testid="kernels">
                { for ks.iter().enumerate().map(|(i, k)| html! {
                    <div class="kernel" title={format!("{} = {}", k.out, k.call())}>
                        <span class="kernel-name">{ format!("#{} {}", i + 1, k.op) }</span>
                        <span class="kernel-io mono">{ format!("{} → {}", k.call(), k.out) }</span>
                        <span class="kernel-bar">
                            { for (0..k.reads).map(|_| html! { <span class="io read">{"R"}</span> }) }
                            <span class="io write">{"W"}</span>
                        </span>
                    </div>
                }) }
            </div>
            <p class="formula" data-testid="fusion-total">{ total }</p>
            <p class="check ok">{ ctx.tf("fusion.fused", &[("inputs", &inputs(&expr).join(", "))]) }</p>
            if let Some(t) = figures {
                { measured(ctx, t) }
            }
        </>
    };
    p.frame(controls, stage, p.explain())
}

/// The H200 overlay: measured time ratios beside the ledger's byte ratios.
fn measured(ctx: &crate::ui::kit::ctx::AppCtx, t: Rc<Table>) -> Html {
    let rows = super::measured_rows(&t);
    let exprs = super::MEASURED_EXPRS.iter().map(|(_, e)| e.to_string()).collect::<Vec<_>>().join(" · ");
    html! {
        <section class="measured measured-beside" data-testid="measured-fusion">
            { chart_title(ctx, "fusion.measured.title") }
            { measured_table(
                table_head(ctx, &["fusion.measured.col.case", "fusion.measured.col.model", "fusion.measured.col.ms", "fusion.measured.col.measured", "fusion.measured.col.ratio"]),
                rows.iter().map(|r| html! {
                    <tr data-case={r.id}>
                        <td>{ ctx.t(&format!("fusion.measured.{}", r.id)) }</td>
                        <td class="num" data-measured={format!("{}.model", r.id)} data-value={r.model.to_string()}>
                            { format!("{:.2}×", r.model) }
                            <span class="notes-value">{ ctx.tf("fusion.measured.arrays", &[
                                ("slow", &r.arrays.0.to_string()), ("fast", &r.arrays.1.to_string()), ("k", &r.kernels.to_string())]) }</span>
                        </td>
                        <td class="num">{ format!("{:.3} ÷ {:.3}", r.ms.0, r.ms.1) }</td>
                        { measured_cell(format!("{}.measured", r.id), r.measured, format!("{:.2}×", r.measured)) }
                        { ratio_cell(r.id, r.model_over_measured(), 3) }
                    </tr>
                }).collect::<Html>(),
            ) }
            <p class="muted">{ ctx.t("fusion.measured.setup") }</p>
            <p class="muted mono-exprs">{ ctx.tf("fusion.measured.exprs", &[("exprs", &exprs)]) }</p>
            <p class="measured-why">{ ctx.t("fusion.measured.why") }</p>
            { measured_note(ctx, &t) }
        </section>
    }
}

crate::ui::kit::panel::panel!(use_fusion_panel);
