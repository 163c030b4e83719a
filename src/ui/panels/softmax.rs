//! `#/online-softmax`: the online softmax stepper (notes §8.2, demo 1 of 05).

use super::frame::setter;
use super::frame::PanelFrame;
use crate::draw::softmax::draw;
use crate::params::Value;
use crate::scene::Theme;
use crate::sim::softmax::{parse_vector, softmax_three_pass, OnlineSoftmax};
use crate::sim::{SplitMix64, Steppable};
use crate::topics::{softmax_run, ONLINE_SOFTMAX};
use crate::ui::app::AppCtx;
use crate::ui::canvas::{use_width, SceneCanvas, SceneRef};
use crate::ui::player::Player;
use crate::ui::readouts::Readouts;
use crate::ui::slider::Slider;
use crate::ui::url_state::{use_url_state, Action};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Numbers as the table shows them (enough digits to see the rescaling).
fn num(v: f64) -> String {
    if v == f64::NEG_INFINITY {
        "−∞".into()
    } else if v.abs() >= 1e5 || (v != 0.0 && v.abs() < 1e-3) {
        format!("{v:.4e}")
    } else {
        format!("{v:.6}").trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Table rows shown at most (the latest blocks; earlier ones in one row).
const TABLE_ROWS: u64 = 12;
/// Probabilities listed open up to this many; more start folded.
const INLINE_PROBS: usize = 256;
/// Probabilities put in the page per task.
const PROBS_CHUNK: usize = 256;

#[derive(Properties, PartialEq)]
struct ProbabilitiesProps {
    /// (online probabilities, three-pass reference).
    values: Rc<(Vec<f64>, Vec<f64>)>,
}

/// The spans of probabilities `range`, as markup (numbers only: nothing to escape).
fn probs_markup(p: &[f64], reference: &[f64], range: std::ops::Range<usize>) -> String {
    use std::fmt::Write;
    let mut markup = String::with_capacity(range.len() * 96);
    for i in range {
        let _ = write!(
            markup,
            "<span class=\"prob\" data-metric=\"p-{i}\" data-value=\"{}\" title=\"three-pass: {}\">p{i} = {}</span>",
            p[i],
            reference[i],
            num(p[i])
        );
    }
    markup
}

/// Resolve on a later task (a zero timeout): input and painting run between.
async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = crate::ui::window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
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
        use_effect_with(props.values.clone(), move |values| {
            let cancel = Rc::new(Cell::new(false));
            if let Some(el) = list.cast::<web_sys::Element>() {
                let (p, reference) = &**values;
                let n = p.len();
                el.set_inner_html(&probs_markup(p, reference, 0..n.min(PROBS_CHUNK)));
                if n > PROBS_CHUNK {
                    let values = values.clone();
                    let cancel = cancel.clone();
                    yew::platform::spawn_local(async move {
                        let mut i = PROBS_CHUNK;
                        while i < n {
                            next_task().await;
                            if cancel.get() {
                                return;
                            }
                            let end = (i + PROBS_CHUNK).min(n);
                            let _ = el.insert_adjacent_html("beforeend", &probs_markup(&values.0, &values.1, i..end));
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

#[component]
pub fn SoftmaxPanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&ONLINE_SOFTMAX);
    let v = st.values.clone();
    let key = (v.text("x").to_string(), v.int("block"));
    let key_probs = key.clone();
    let sim: Rc<OnlineSoftmax> = {
        let v = v.clone();
        use_memo(key.clone(), move |_| softmax_run(&v))
    };
    let step = v.int("step") as u64;
    let draft = use_state(|| v.text("x").to_string());
    {
        let draft = draft.clone();
        use_effect_with(v.text("x").to_string(), move |x| draft.set(x.clone()));
    }
    // Parsed again only when the text changes (up to 4096 numbers).
    let draft_error = use_memo((*draft).clone(), |d| parse_vector(d).err());
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(1000.0);
    let scene = {
        let sim = sim.clone();
        use_memo((key, step, width as u32, ctx.present), move |(_, s, w, present)| {
            SceneRef(Rc::new(draw(&sim, *s, &Theme::for_mode(*present), *w as f64)))
        })
    };
    let set = |name: &'static str| setter(&st.dispatch, name);
    let on_x = {
        let draft = draft.clone();
        let d = st.dispatch.clone();
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
    let random = {
        let d = st.dispatch.clone();
        let seed = v.text("x").bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
        Callback::from(move |_: MouseEvent| {
            let mut rng = SplitMix64::new(seed);
            let xs: Vec<String> = (0..16).map(|_| format!("{:.1}", rng.range_i32(-40, 60) as f64 / 10.0)).collect();
            d.emit(Action::SetMany(vec![
                ("x", Value::Text(xs.join(","))),
                ("block", Value::Int(4)),
                ("step", Value::Int(0)),
            ]));
        })
    };
    let on_seek = {
        let d = st.dispatch.clone();
        Callback::from(move |c: u64| d.emit(Action::Set("step", Value::Int(c as i64))))
    };
    let blocks = sim.blocks() as u64;
    let done = step >= blocks;
    // The probabilities (and the three-pass reference in their tooltips), once
    // per input; the list of up to 4096 is its own component, rendered again
    // only when they change.
    let probs = {
        let sim = sim.clone();
        use_memo((key_probs, done), move |(_, done)| {
            done.then(|| Rc::new((sim.probabilities(), softmax_three_pass(&sim.x))))
        })
    };
    let controls = html! {
        <>
            <div class="control" data-param="x" title={ctx.t("param.x.doc")}>
                <label class="control-label" for="param-x">{ ctx.t("param.x") }</label>
                <input id="param-x" name="x" class={classes!("cond-input", draft_error.is_some().then_some("bad"))}
                    spellcheck="false" autocomplete="off" value={(*draft).clone()} oninput={on_x} />
                if let Some(err) = (*draft_error).clone() {
                    <pre class="cond-error" data-testid="x-error">{ ctx.tf("softmax.vector-error", &[("msg", &err)]) }</pre>
                }
                <button class="preset" data-testid="random-vector" onclick={random}>{ ctx.t("softmax.random") }</button>
            </div>
            <Slider topic="online-softmax" name="block" value={v.int("block")} min={1} max={4096} log={true} on_change={set("block")} />
        </>
    };
    // The last TABLE_ROWS processed blocks (the current one last); earlier ones
    // are summarised in one row, so a step costs the same at block 4096 as at 2.
    let last = step.min(blocks);
    let first = last.saturating_sub(TABLE_ROWS - 1).max(1);
    let rows: Vec<Html> = (first..=last)
        .map(|s| {
            let r = sim.running(s);
            let prev = sim.running(s - 1);
            let range = sim.block_range(s);
            let vals: Vec<String> = sim.x[range.clone()].iter().take(8).map(|x| num(*x)).collect();
            let more = if range.len() > 8 { " …" } else { "" };
            let bmax = sim.x[range].iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let grew = r.m > prev.m && prev.m != f64::NEG_INFINITY;
            html! {
                <tr key={s} class={classes!((s == step).then_some("current"))}>
                    <td>{ s }</td>
                    <td class="mono">{ vals.join(", ") }{ more }</td>
                    <td class="mono">{ num(bmax) }</td>
                    <td class="mono">{ num(prev.m) }{" → "}<strong>{ num(r.m) }</strong></td>
                    <td class={classes!("mono", grew.then_some("hot"))}>
                        { if prev.m == f64::NEG_INFINITY { "—".to_string() } else { format!("e^({} − {}) = {}", num(prev.m), num(r.m), num(r.rescale)) } }
                    </td>
                    <td class="mono">{ num(r.l) }</td>
                </tr>
            }
        })
        .collect();
    let earlier = (first > 1).then(|| {
        html! {
            <tr key="earlier" class="muted" data-testid="softmax-earlier">
                <td>{ format!("1 – {}", first - 1) }</td><td class="mono">{ "⋯" }</td><td class="mono">{ "⋯" }</td>
                <td class="mono">{ "⋯" }</td><td class="mono">{ "⋯" }</td><td class="mono">{ "⋯" }</td>
            </tr>
        }
    });
    let stage_html = html! {
        <>
            <SceneCanvas scene={(*scene).clone()} name={format!("online-softmax-step{step}")} label={ctx.t("param.x")} />
            <Player pos={step} len={blocks} speed={v.int("speed")} unit="param.step" on_seek={on_seek} on_speed={set("speed")} />
            <Readouts topic="online-softmax" metrics={Rc::new(sim.metrics(step))} />
            <table class="ledger" data-testid="softmax-table">
                <thead><tr>
                    <th>{ ctx.t("softmax.table.block") }</th><th>{ ctx.t("softmax.table.values") }</th>
                    <th>{ ctx.t("softmax.table.bmax") }</th><th>{ ctx.t("softmax.table.m") }</th>
                    <th>{ ctx.t("softmax.table.rescale") }</th><th>{ ctx.t("softmax.table.l") }</th>
                </tr></thead>
                <tbody>{ for earlier }{ for rows }</tbody>
            </table>
            <h2 class="chart-title">{ ctx.t("softmax.probs") }</h2>
            if let Some(p) = (*probs).clone() {
                <Probabilities values={p} />
            } else {
                <p class="muted">{ ctx.t("softmax.probs-wait") }</p>
            }
            <div class="passes">
                <h2 class="chart-title">{ ctx.t("softmax.passes") }</h2>
                <p>{ ctx.t("softmax.passes.three") }</p>
                <p>{ ctx.t("softmax.passes.online") }</p>
            </div>
        </>
    };
    let explain = html! {
        <>
            <p class="current">{ ctx.t("softmax.explain") }</p>
            <p class="lecture-check">{ ctx.t("softmax.lecture") }</p>
        </>
    };
    html! {
        <PanelFrame id="online-softmax" sections="8.2" demo="05 · 1" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={stage} />
    }
}
