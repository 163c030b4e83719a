//! `#/divergence`: warp divergence timeline (notes §6.1, demo 2 of 02).

use super::frame::{legend_item, setter, PanelFrame, Preset};
use crate::draw::divergence::{draw, part_color};
use crate::params::Value;
use crate::scene::Theme;
use crate::sim::divergence::{evaluate, CondError, Divergence, Part};
use crate::sim::Steppable;
use crate::topics::{divergence_params, DIVERGENCE};
use crate::ui::app::AppCtx;
use crate::ui::canvas::{use_width, SceneCanvas, SceneRef};
use crate::ui::player::Player;
use crate::ui::readouts::Readouts;
use crate::ui::slider::Slider;
use crate::ui::url_state::{use_url_state, Action};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

fn cond_error(ctx: &AppCtx, cond: &str, e: &CondError) -> String {
    match e {
        CondError::Parse(p) => {
            // The expression with a caret under the problem.
            let caret = crate::sim::expr::caret_line(cond, p.pos);
            format!("{}\n{cond}\n{caret}", ctx.tf("divergence.error", &[("msg", &p.to_string())]))
        }
        CondError::DivByZero { tid } => ctx.tf("divergence.div-zero", &[("tid", &tid.to_string())]),
    }
}

#[component]
pub fn DivergencePanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&DIVERGENCE);
    let v = st.values.clone();
    let params = divergence_params(&v);
    let sim = {
        let params = params.clone();
        use_memo(params, |p| Divergence::new(p.clone()))
    };
    let step = v.int("step") as u64;
    let draft = use_state(|| v.text("cond").to_string());
    {
        // A new condition from the URL (or a preset) replaces the draft.
        let draft = draft.clone();
        use_effect_with(v.text("cond").to_string(), move |c| draft.set(c.clone()));
    }
    let draft_error = evaluate(&draft, params.warps).err().map(|e| cond_error(&ctx, &draft, &e));
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(1100.0);
    let caption = match sim.issue_at(step) {
        None => ctx.t("divergence.start"),
        Some(i) => ctx.tf(
            "divergence.current",
            &[
                ("t", &step.to_string()),
                ("w", &i.warp.to_string()),
                ("part", &ctx.t(&format!("divergence.part.{}", i.part.code()))),
                ("s", &(i.slot + 1).to_string()),
                ("n", &i.mask.count_ones().to_string()),
            ],
        ),
    };
    let scene = {
        let sim = sim.clone();
        use_memo((params.clone(), step, width as u32, ctx.present, caption.clone()), move |(_, s, w, present, cap)| {
            SceneRef(Rc::new(draw(&sim, *s, &Theme::for_mode(*present), *w as f64, cap)))
        })
    };
    let set = |name: &'static str| setter(&st.dispatch, name);
    let on_cond = {
        let draft = draft.clone();
        let d = st.dispatch.clone();
        let warps = params.warps;
        Callback::from(move |e: InputEvent| {
            let Some(text) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).map(|i| i.value())
            else {
                return;
            };
            if evaluate(&text, warps).is_ok() {
                d.emit(Action::Set("cond", Value::Text(text.clone())));
            }
            draft.set(text);
        })
    };
    let on_seek = {
        let d = st.dispatch.clone();
        Callback::from(move |c: u64| d.emit(Action::Set("step", Value::Int(c as i64))))
    };
    let preset = |id: &'static str, cond: &str| Preset {
        label: "divergence.apply",
        id,
        values: vec![
            ("warps", Value::Int(4)),
            ("cond", Value::Text(cond.to_string())),
            ("then", Value::Int(10)),
            ("else", Value::Int(10)),
            ("after", Value::Int(0)),
            ("step", Value::Int(i64::MAX)),
        ],
    };
    let conds = ["tid%2==0", "(tid/32)%2==0", "tid<100"];
    let controls = html! {
        <>
            <Slider name="warps" value={v.int("warps")} min={1} max={32} on_change={set("warps")} />
            <div class="control" data-param="cond" title={ctx.t("param.cond.doc")}>
                <label class="control-label" for="param-cond">{ ctx.t("param.cond") }</label>
                <input id="param-cond" name="cond" class={classes!("cond-input", draft_error.is_some().then_some("bad"))}
                    spellcheck="false" autocomplete="off" value={(*draft).clone()} oninput={on_cond} />
                if let Some(err) = draft_error.clone() {
                    <pre class="cond-error" data-testid="cond-error">{ err }</pre>
                }
            </div>
            <Slider name="then" value={v.int("then")} min={0} max={100} on_change={set("then")} />
            <Slider name="else" value={v.int("else")} min={0} max={100} on_change={set("else")} />
            <Slider name="after" value={v.int("after")} min={0} max={100} on_change={set("after")} />
            <div class="presets">
                <span class="control-label">{ ctx.t("divergence.presets") }</span>
                { for conds.iter().map(|c| {
                    let d = st.dispatch.clone();
                    let values = preset("x", c).values;
                    html! {
                        <button class="preset" data-preset={c.to_string()}
                            onclick={Callback::from(move |_: MouseEvent| d.emit(Action::SetMany(values.clone())))}>
                            <code>{ *c }</code>
                        </button>
                    }
                }) }
            </div>
        </>
    };
    let stage_html = html! {
        <>
            <SceneCanvas scene={(*scene).clone()} name={format!("divergence-step{step}")} label={caption.clone()} />
            <div class="legend">
                { legend_item(&ctx, part_color(Part::Then), "divergence.legend.then") }
                { legend_item(&ctx, part_color(Part::Else), "divergence.legend.else") }
                { legend_item(&ctx, part_color(Part::After), "divergence.legend.after") }
                { legend_item(&ctx, Theme::normal().waiting, "divergence.legend.masked") }
            </div>
            <Player pos={step} len={sim.steps()} speed={v.int("speed")} unit="param.step"
                on_seek={on_seek} on_speed={set("speed")} />
            <Readouts topic="divergence" metrics={Rc::new(sim.metrics(step))} />
        </>
    };
    let explain = html! {
        <>
            <p class="current">{ ctx.t("divergence.explain") }</p>
            <p class="current">{ ctx.t("divergence.why") }</p>
            <p class="lecture-check">{ ctx.t("divergence.lecture") }</p>
        </>
    };
    html! {
        <PanelFrame id="divergence" sections="6.1" demo="02 · 2" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={stage} />
    }
}
