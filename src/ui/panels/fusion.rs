//! `#/fusion` and `#/recompute` (notes §6.3–6.4, demo 03).

use super::frame::{setter, Choice, PanelFrame};
use super::inset::RooflineInset;
use crate::i18n::format_bytes;
use crate::params::Value;
use crate::sim::fusion::{inputs, kernels, ledger, parse, PRESETS};
use crate::sim::roofline::Work;
use crate::topics::{recompute, FUSION, RECOMPUTE};
use crate::ui::app::AppCtx;
use crate::ui::readouts::Readouts;
use crate::ui::slider::Slider;
use crate::ui::url_state::{use_url_state, Action};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[component]
pub fn FusionPanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&FUSION);
    let v = st.values.clone();
    let d = st.dispatch.clone();
    let expr = parse(v.text("expr")).unwrap_or_else(|_| parse(PRESETS[0].1).expect("preset parses"));
    let ks = kernels(&expr);
    let l = ledger(&expr);
    let n = v.int("n") as u64;
    let dtype = v.choice("dtype");
    let e = crate::sim::coalescing::dtype_bytes(dtype);
    let draft = use_state(|| v.text("expr").to_string());
    {
        let draft = draft.clone();
        use_effect_with(v.text("expr").to_string(), move |x| draft.set(x.clone()));
    }
    let draft_error = parse(&draft).err();
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
    let flops = (l.kernels as u64 * n) as f64;
    let unfused = ((l.reads_unfused + l.writes_unfused) as u64 * n * e) as f64;
    let fused = ((l.reads_fused + l.writes_fused) as u64 * n * e) as f64;
    let points =
        Rc::new(vec![("inset.fused", Work { flops, bytes: fused }), ("inset.unfused", Work { flops, bytes: unfused })]);
    let controls = html! {
        <>
            <div class="control" data-param="expr" title={ctx.t("param.expr.doc")}>
                <label class="control-label" for="param-expr">{ ctx.t("param.expr") }</label>
                <input id="param-expr" name="expr" class={classes!("cond-input", draft_error.is_some().then_some("bad"))}
                    spellcheck="false" autocomplete="off" value={(*draft).clone()} oninput={on_expr} />
                if let Some(err) = draft_error.clone() {
                    <pre class="cond-error" data-testid="expr-error">{
                        format!("{}\n{}\n{}", ctx.tf("fusion.error", &[("msg", &err.to_string())]), *draft, crate::sim::expr::caret_line(&draft, err.pos))
                    }</pre>
                }
            </div>
            <div class="presets">
                <span class="control-label">{ ctx.t("fusion.presets") }</span>
                { for PRESETS.iter().map(|(id, ex)| {
                    let d = d.clone();
                    let ex = ex.to_string();
                    html! { <button class="preset" data-preset={*id}
                        onclick={Callback::from(move |_: MouseEvent| d.emit(Action::Set("expr", Value::Text(ex.clone()))))}>
                        { ctx.t(&format!("fusion.preset.{id}")) }</button> }
                }) }
            </div>
            <Slider topic="fusion" name="n" value={v.int("n")} min={1} max={1 << 30} log={true} on_change={setter(&d, "n")} />
            <Choice name="dtype" options={&["fp32", "bf16", "fp16", "fp8"][..]} value={dtype} dispatch={d.clone()} />
        </>
    };
    let stage_html = html! {
        <>
            <Readouts topic="fusion" metrics={Rc::new(l.metrics(n, e))} />
            <h2 class="chart-title">{ ctx.t("fusion.timeline") }</h2>
            <div class="kernel-timeline" data-testid="kernels">
                { for ks.iter().enumerate().map(|(i, k)| html! {
                    <div class="kernel" title={format!("{} = {}({})", k.out, k.op, k.operands.join(", "))}>
                        <span class="kernel-name">{ format!("#{} {}", i + 1, k.op) }</span>
                        <span class="kernel-io mono">{ format!("{}({}) → {}", k.op, k.operands.join(", "), k.out) }</span>
                        <span class="kernel-bar">
                            { for (0..k.reads).map(|_| html! { <span class="io read">{"R"}</span> }) }
                            <span class="io write">{"W"}</span>
                        </span>
                    </div>
                }) }
            </div>
            <p class="formula" data-testid="fusion-total">{ ctx.tf("fusion.total", &[
                ("r", &l.reads_unfused.to_string()), ("w", &l.writes_unfused.to_string()),
                ("t", &(l.reads_unfused + l.writes_unfused).to_string()), ("f", &(l.reads_fused + l.writes_fused).to_string()),
            ]) }</p>
            <p class="check ok">{ ctx.tf("fusion.fused", &[("inputs", &inputs(&expr).join(", "))]) }</p>
            <RooflineInset gpu={v.choice("gpu")} dtype={dtype} points={points} dispatch={d.clone()} />
        </>
    };
    let explain = html! { <><p class="current">{ ctx.t("fusion.explain") }</p><p class="lecture-check">{ ctx.t("fusion.lecture") }</p></> };
    html! {
        <PanelFrame id="fusion" sections="6.3" demo="03" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={NodeRef::default()} />
    }
}

#[component]
pub fn RecomputePanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&RECOMPUTE);
    let v = st.values.clone();
    let d = st.dispatch.clone();
    let r = recompute(&v);
    let l = r.depth;
    let row = |label: &str, fwd: String, bwd: String, total: u64| {
        html! { <tr><td>{ ctx.t(label) }</td><td>{ fwd }</td><td>{ bwd }</td><td class="num"><strong>{ total }</strong></td></tr> }
    };
    let s_list =
        if l <= 4 { (1..=l).map(|i| format!("s{i}")).collect::<Vec<_>>().join(", ") } else { format!("s1…s{l}") };
    let upstream_txt = if r.upstream { "dy, " } else { "" };
    let controls = html! {
        <>
            <Slider name="depth" value={v.int("depth")} min={1} max={16} on_change={setter(&d, "depth")} />
            <Slider topic="recompute" name="n" value={v.int("n")} min={1} max={1 << 28} log={true} on_change={setter(&d, "n")} />
            <Choice name="dtype" options={&["fp32", "bf16", "fp16", "fp8"][..]} value={v.choice("dtype")} dispatch={d.clone()} />
            <Choice name="upstream" options={&["1", "0"][..]} value={v.choice("upstream")} dispatch={d.clone()} />
        </>
    };
    let stage_html = html! {
        <>
            <Readouts topic="recompute" metrics={Rc::new(r.metrics())} />
            <h2 class="chart-title">{ ctx.t("recompute.ledger") }</h2>
            <table class="ledger" data-testid="recompute-ledger">
                <thead><tr><th></th><th>{ ctx.t("recompute.forward") }</th><th>{ ctx.t("recompute.backward") }</th><th>{ ctx.t("recompute.total") }</th></tr></thead>
                <tbody>
                    { row("recompute.store", format!("R x · W {s_list}"), format!("R {upstream_txt}{s_list} · W dx"), r.accesses_store()) }
                    { row("recompute.recompute", format!("R x · W s{l}"), format!("R {upstream_txt}x · W dx"), r.accesses_recompute()) }
                </tbody>
            </table>
            <p class="formula">{ format!("{}: {} · {}: {}",
                ctx.t("metric.saved-bytes-store"), format_bytes(r.saved_bytes_store() as f64),
                ctx.t("metric.saved-bytes-recompute"), format_bytes(r.saved_bytes_recompute() as f64)) }</p>
            <p class="muted">{ ctx.tf("recompute.why-differ", &[("d", &(r.accesses_store() - r.accesses_recompute()).to_string())]) }</p>
            <p class="muted">{ ctx.tf("recompute.extra", &[("k", &r.extra_sigmoids().to_string())]) }</p>
        </>
    };
    let explain = html! { <><p class="current">{ ctx.t("recompute.explain") }</p><p class="lecture-check">{ ctx.t("recompute.lecture") }</p></> };
    html! {
        <PanelFrame id="recompute" sections="6.4" demo="03" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={NodeRef::default()} />
    }
}
