//! The `#/divergence` panel: warp divergence timeline (notes §6.1, demo 2 of
//! 02).

use crate::draw::divergence::{draw, part_color};
use crate::params::Value;
use crate::scene::Theme;
use crate::sim::divergence::{evaluate, Divergence, Part};
use crate::sim::measured::Table;
use crate::sim::Steppable;
use crate::ui::kit::canvas::{SceneCanvas, SceneRef};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::export::Export;
use crate::ui::kit::lecture_table::lecture_table;
use crate::ui::kit::measured::{measured_grid, measured_note, use_measured};
use crate::ui::kit::panel::Panel;
use crate::ui::kit::player::Player;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::url_state::Action;
use crate::ui::kit::widgets::{chart_title, emit_on_click, legend_item};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// An expression box's error (the condition here, fusion's expression): the
/// message wrapped to the box, then the text with the character at fault
/// marked (at the end, an empty mark the stylesheet draws as a gap), so
/// nothing scrolls sideways and the mark is always in view.
pub(crate) fn error_box(err: &super::BoxError, text: &str, testid: &'static str) -> Html {
    html! {
        <div class="cond-error" data-testid={testid} role="alert">
            <div class="cond-error-msg">{ err.message.clone() }</div>
            if let Some((before, at, after)) = err.split(text) {
                <div class="cond-error-src">
                    { before }<mark class={classes!("cond-error-at", at.is_empty().then_some("end"))}>{ at }</mark>{ after }
                </div>
            }
        </div>
    }
}

#[hook]
pub fn use_divergence_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    let params = super::divergence_params(&p.v);
    let sim = {
        let params = params.clone();
        use_memo(params, |p| Divergence::new(p.clone()))
    };
    let step = p.v.int("step") as u64;
    let cond = p.v.text("cond").to_string();
    let draft = {
        let cond = cond.clone();
        use_state(move || cond)
    };
    {
        // A new condition from the URL (or a preset) replaces the draft.
        let draft = draft.clone();
        use_effect_with(cond, move |c| draft.set(c.clone()));
    }
    let draft_error = super::draft_error(ctx.lang, &draft, params.warps);
    let caption = super::caption(ctx.lang, &sim, step);
    let scene = {
        let sim = sim.clone();
        let ctx = ctx.clone();
        use_memo(
            (params.clone(), step, p.width as u32, ctx.present, ctx.lang, caption.clone()),
            move |(_, s, w, _, _, cap)| {
                let warp = |w: usize| ctx.tf("divergence.warp", &[("w", &w.to_string())]);
                let lanes = ctx.t("divergence.lanes");
                SceneRef(Rc::new(draw(&sim, *s, &theme, *w as f64, cap, &warp, &lanes)))
            },
        )
    };
    let export = {
        let sim = sim.clone();
        let ctx = ctx.clone();
        let width = p.width;
        use_memo((params.clone(), p.width as u32, ctx.present, ctx.lang), move |_| Export {
            name: "divergence".into(),
            scene_at: Rc::new(move |s| {
                let warp = |w: usize| ctx.tf("divergence.warp", &[("w", &w.to_string())]);
                let cap = super::caption(ctx.lang, &sim, s);
                draw(&sim, s, &theme, width, &cap, &warp, &ctx.t("divergence.lanes"))
            }),
        })
    };
    let on_cond = {
        let draft = draft.clone();
        let d = p.dispatch.clone();
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
    let on_seek = p.seek("step");
    let controls = html! {
        <>
            { p.control("warps") }
            <div class="control" data-param="cond" title={ctx.t("param.cond.doc")}>
                <label class="control-label" for="param-cond">{ ctx.t("param.cond") }</label>
                <input id="param-cond" name="cond" class={classes!("cond-input", draft_error.is_some().then_some("bad"))}
                    spellcheck="false" autocomplete="off" value={(*draft).clone()} oninput={on_cond} />
                if let Some(err) = draft_error.as_ref() {
                    { error_box(err, &draft, "cond-error") }
                }
            </div>
            { p.controls(&["then", "else", "after"]) }
            <div class="presets">
                <span class="control-label">{ ctx.t("divergence.presets") }</span>
                { for super::LECTURE_CONDS.iter().map(|c| {
                    html! {
                        <button class="preset" data-preset={c.to_string()}
                            onclick={emit_on_click(&p.dispatch, Action::SetMany(super::lecture_case(c)))}>
                            <code>{ *c }</code>
                        </button>
                    }
                }) }
            </div>
            { p.control("measured") }
        </>
    };
    let table = use_measured(super::DIVERGENCE_FILE, p.v.choice("measured") == "1");
    // The overlay reads the whole table: once per table, condition and
    // language, not at every step.
    let measured = {
        let tid_current = p.v.text("cond").replace(' ', "") == "tid<100";
        let key = (table.as_ref().map(|t| Rc::as_ptr(t) as usize), tid_current, ctx.lang);
        let ctx = ctx.clone();
        use_memo(key, move |_| table.map(|t| measured_overlay(&ctx, &t, tid_current)))
    };
    // While the typed condition can't run, the drawing is the last one that
    // did: say so above it (and the stylesheet greys it out).
    let stale = draft_error.as_ref().map(|_| {
        html! {
            <p class="stale-note" role="status" data-testid="stale">
                { ctx.tf("divergence.stale", &[("cond", p.v.text("cond"))]) }
            </p>
        }
    });
    let stage = html! {
        <>
            { stale.unwrap_or_default() }
            <SceneCanvas scene={(*scene).clone()} name={format!("divergence-step{step}")} label={caption.clone()} />
            <div class="legend">
                { legend_item(ctx, part_color(Part::Then), "divergence.legend.then") }
                { legend_item(ctx, part_color(Part::Else), "divergence.legend.else") }
                { legend_item(ctx, part_color(Part::After), "divergence.legend.after") }
                { legend_item(ctx, theme.waiting, "divergence.legend.masked") }
            </div>
            <Player pos={step} len={sim.steps()} speed={p.v.int("speed")} unit="param.step"
                on_seek={on_seek} on_speed={p.set("speed")} export={Some((*export).clone())} />
            { readouts(ctx, "divergence", &sim.metrics(step)) }
            { lecture_table(ctx, "divergence", "lecture.table", &super::lecture_rows(&p.v), &p.dispatch) }
            { (*measured).clone().unwrap_or_default() }
        </>
    };
    let explain = p.explain_with(html! { <p class="current">{ ctx.t("divergence.why") }</p> });
    p.frame(controls, stage, explain)
}

/// The overlay: measured slowdown against k beside the modelled steps, and
/// the lecture's tid < 100 on a saturated GPU and with one block per SM.
fn measured_overlay(ctx: &AppCtx, t: &Rc<Table>, tid_current: bool) -> Html {
    let num = |x: Option<f64>, name: String| match x {
        Some(x) => html! { <td data-measured={name} data-value={x.to_string()}>{ format!("{x:.2}") }</td> },
        None => html! { <td>{ "—" }</td> },
    };
    let rows = super::SHOWN_K.iter().map(|&k| {
        html! {
            <tr data-k={k.to_string()}>
                <th scope="row">{ k }</th>
                <td>{ format!("{:.2}", super::model_lane_slowdown(k)) }</td>
                { num(super::measured_slowdown(t, super::LANE_CONFIGS[0], k), format!("slowdown-saturated-k{k}")) }
                { num(super::measured_slowdown(t, super::LANE_CONFIGS[1], k), format!("slowdown-one-warp-k{k}")) }
            </tr>
        }
    });
    let summary = super::summary(t);
    let tid = summary.as_ref().map(|s| {
        let f = |x: f64| format!("{x:.2}");
        html! {
            <>
                { chart_title(ctx, "divergence.measured.tid-title") }
                <table class="ledger measured-table">
                    <tbody>
                        <tr class={classes!(tid_current.then_some("current"))}>
                            <th scope="row">{ ctx.t("divergence.measured.model-issue") }</th>
                            <td data-measured="model-tid100-issue" data-value={s.tid_issue.to_string()}>{ f(s.tid_issue) }</td>
                        </tr>
                        <tr class={classes!(tid_current.then_some("current"))}>
                            <th scope="row">{ ctx.t("divergence.measured.model-critical") }</th>
                            <td data-measured="model-tid100-critical" data-value={s.tid_critical.to_string()}>{ f(s.tid_critical) }</td>
                        </tr>
                        <tr class={classes!(tid_current.then_some("current"))}>
                            <th scope="row">{ ctx.t("divergence.measured.saturated") }</th>
                            <td data-measured="tid100-saturated" data-value={s.tid[0].to_string()}>{ f(s.tid[0]) }</td>
                        </tr>
                        <tr class={classes!(tid_current.then_some("current"))}>
                            <th scope="row">{ ctx.t("divergence.measured.one-block") }</th>
                            <td data-measured="tid100-one-block" data-value={s.tid[1].to_string()}>{ f(s.tid[1]) }</td>
                        </tr>
                    </tbody>
                </table>
            </>
        }
    });
    let texts = summary.as_ref().map(|s| super::measured_text(ctx.lang, s));
    html! {
        <section class="measured" data-testid="measured-divergence">
            { chart_title(ctx, "divergence.measured.title") }
            { measured_grid(ctx, &["divergence.measured.k", "divergence.measured.model", "divergence.measured.saturated",
                "divergence.measured.one-warp"], rows.collect()) }
            { tid.unwrap_or_default() }
            if let Some([a, b]) = texts {
                <p class="current">{ a }</p>
                <p class="current">{ b }</p>
            }
            { measured_note(ctx, t) }
        </section>
    }
}

crate::ui::kit::panel::panel!(use_divergence_panel);
