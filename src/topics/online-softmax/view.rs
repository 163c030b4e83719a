//! The `#/online-softmax` panel: the online softmax stepper (notes §8.2, demo
//! 1 of 05).

use crate::draw::softmax::draw;
use crate::params::Value;
use crate::scene::Theme;
use crate::sim::softmax::{parse_vector, softmax_three_pass, OnlineSoftmax};
use crate::sim::Steppable;
use crate::ui::kit::canvas::{SceneCanvas, SceneRef};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::export::Export;
use crate::ui::kit::panel::Panel;
use crate::ui::kit::player::Player;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::url_state::Action;
use crate::ui::kit::widgets::{beside_scene, chart_title, emit_on_click, table_head};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Probabilities listed open up to this many; more start folded.
const INLINE_PROBS: usize = 256;
/// Probabilities put in the page per task.
const PROBS_CHUNK: usize = 256;

#[derive(Properties, PartialEq)]
struct ProbabilitiesProps {
    /// (online probabilities, three-pass reference).
    values: Rc<(Vec<f64>, Vec<f64>)>,
    /// The reference's label in the tooltips.
    three_pass: String,
}

/// Resolve on a later task (a zero timeout): input and painting run between.
async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = crate::ui::kit::dom::window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Every probability as a metric `p-<i>` (up to 4096 of them). A component of
/// its own, so that a render of the panel does not touch the list; the first
/// [`PROBS_CHUNK`] are put in at once, the rest a chunk per task, so that the
/// step that finishes the run stays short; a long list starts folded (in the
/// page, every metric readable, but not laid out until opened).
#[component]
fn Probabilities(props: &ProbabilitiesProps) -> Html {
    let list = use_node_ref();
    {
        let list = list.clone();
        use_effect_with((props.values.clone(), props.three_pass.clone()), move |(values, label)| {
            let cancel = Rc::new(Cell::new(false));
            if let Some(el) = list.cast::<web_sys::Element>() {
                let (p, reference) = &**values;
                let n = p.len();
                el.set_inner_html(&super::probs_markup(p, reference, 0..n.min(PROBS_CHUNK), label));
                if n > PROBS_CHUNK {
                    let values = values.clone();
                    let label = label.clone();
                    let cancel = cancel.clone();
                    yew::platform::spawn_local(async move {
                        let mut i = PROBS_CHUNK;
                        while i < n {
                            next_task().await;
                            if cancel.get() {
                                return;
                            }
                            let end = (i + PROBS_CHUNK).min(n);
                            let markup = super::probs_markup(&values.0, &values.1, i..end, &label);
                            let _ = el.insert_adjacent_html("beforeend", &markup);
                            i = end;
                        }
                    });
                }
            }
            move || cancel.set(true)
        });
    }
    let n = props.values.0.len();
    if n > INLINE_PROBS {
        html! {
            <details class="probs-all">
                <summary>{ format!("p0 … p{} ({n})", n - 1) }</summary>
                <div class="probs" ref={list}></div>
            </details>
        }
    } else {
        html! { <div class="probs" ref={list}></div> }
    }
}

#[hook]
pub fn use_softmax_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    let v = &p.v;
    let key = (v.text("x").to_string(), v.int("block"));
    let sim: Rc<OnlineSoftmax> = {
        let v = v.clone();
        use_memo(key.clone(), move |_| super::softmax_run(&v))
    };
    let step = v.int("step") as u64;
    let draft = {
        let x = v.text("x").to_string();
        use_state(move || x)
    };
    {
        // A new vector from the URL (or the random button) replaces the draft.
        let draft = draft.clone();
        use_effect_with(v.text("x").to_string(), move |x| draft.set(x.clone()));
    }
    // Parsed again only when the text changes (up to 4096 numbers).
    let draft_error = use_memo((*draft).clone(), |d| parse_vector(d).err());
    let scene = {
        let sim = sim.clone();
        use_memo((key.clone(), step, p.width as u32, ctx.present), move |(_, s, w, _)| {
            SceneRef(Rc::new(draw(&sim, *s, &theme, *w as f64)))
        })
    };
    let export = {
        let sim = sim.clone();
        let width = p.width;
        use_memo((key.clone(), p.width as u32, ctx.present), move |_| Export {
            name: "online-softmax".into(),
            scene_at: Rc::new(move |s| draw(&sim, s, &theme, width)),
        })
    };
    let on_x = {
        let draft = draft.clone();
        let d = p.dispatch.clone();
        Callback::from(move |e: InputEvent| {
            let Some(text) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).map(|i| i.value())
            else {
                return;
            };
            if parse_vector(&text).is_ok() {
                d.emit(Action::Set("x", Value::Text(text.clone())));
            }
            draft.set(text);
        })
    };
    let random = emit_on_click(&p.dispatch, Action::SetMany(super::random_vector(v.text("x"))));
    let on_seek = p.seek("step");
    let blocks = sim.blocks() as u64;
    let done = step >= blocks;
    // The probabilities (and the three-pass reference in their tooltips), once
    // per input; the list of up to 4096 is its own component, rendered again
    // only when they change.
    let probs = {
        let sim = sim.clone();
        use_memo((key, done), move |(_, done)| done.then(|| Rc::new((sim.probabilities(), softmax_three_pass(&sim.x)))))
    };
    let controls = html! {
        <>
            <div class="control" data-param="x" title={ctx.t("param.x.doc")}>
                <label class="control-label" for="param-x">{ ctx.t("param.x") }</label>
                <input id="param-x" name="x" class={classes!("cond-input", draft_error.is_some().then_some("bad"))}
                    spellcheck="false" autocomplete="off" value={(*draft).clone()} oninput={on_x} />
                if let Some(err) = (*draft_error).clone() {
                    <p class="cond-error cond-error-msg" data-testid="x-error" role="alert">{ super::vector_error(ctx.lang, &err) }</p>
                }
                <button class="preset" data-testid="random-vector" onclick={random}>{ ctx.t("online-softmax.random") }</button>
            </div>
            { p.control("block") }
        </>
    };
    let (earlier, rows) = super::table(&sim, step);
    let rows = rows.into_iter().map(|r| {
        html! {
            <tr key={r.step} class={classes!((r.step == step).then_some("current"))}>
                <td>{ r.step }</td>
                <td class="mono">{ r.values }</td>
                <td class="mono">{ r.block_max }</td>
                <td class="mono">{ r.m_before }{" → "}<strong>{ r.m_after }</strong></td>
                <td class={classes!("mono", r.grew.then_some("hot"))}>{ r.rescale }</td>
                <td class="mono">{ r.l }</td>
            </tr>
        }
    });
    let earlier = earlier.map(|(a, b)| {
        html! {
            <tr key="earlier" class="muted" data-testid="softmax-earlier">
                <td>{ format!("{a} – {b}") }</td><td class="mono">{ "⋯" }</td><td class="mono">{ "⋯" }</td>
                <td class="mono">{ "⋯" }</td><td class="mono">{ "⋯" }</td><td class="mono">{ "⋯" }</td>
            </tr>
        }
    });
    let stage = html! {
        <>
            <SceneCanvas scene={(*scene).clone()} name={format!("online-softmax-step{step}")} label={ctx.t("param.x")} />
            <Player pos={step} len={blocks} speed={v.int("speed")} unit="param.step" on_seek={on_seek}
                on_speed={p.set("speed")} export={Some((*export).clone())} />
            { readouts(ctx, "online-softmax", &sim.metrics(step)) }
            // The running table and the probabilities right under the strip,
            // beside the key figures, while the canvas (as tall at every step)
            // is about as short as the player beside it.
            { beside_scene(html! {
                <>
                <table class="ledger" data-testid="softmax-table">
                    { table_head(ctx, &["online-softmax.table.block", "online-softmax.table.values", "online-softmax.table.bmax", "online-softmax.table.m", "online-softmax.table.rescale", "online-softmax.table.l"]) }
                    <tbody>{ for earlier }{ for rows }</tbody>
                </table>
                { chart_title(ctx, "online-softmax.probs") }
                if let Some(values) = (*probs).clone() {
                    <Probabilities values={values} three_pass={ctx.t("online-softmax.three-pass")} />
                } else {
                    <p class="muted">{ ctx.t("online-softmax.probs-wait") }</p>
                }
                </>
            }, scene.0.height <= 220.0) }
            <div class="passes">
                { chart_title(ctx, "online-softmax.passes") }
                <p>{ ctx.t("online-softmax.passes.three") }</p>
                <p>{ ctx.t("online-softmax.passes.online") }</p>
            </div>
        </>
    };
    p.frame(controls, stage, p.explain())
}

crate::ui::kit::panel::panel!(use_softmax_panel);
