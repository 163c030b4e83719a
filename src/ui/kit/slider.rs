//! The one slider: a range input (linear or logarithmic) with a number box for
//! exact values, a translated label and a tooltip with the parameter's doc.

use super::ctx::AppCtx;
use crate::i18n::has;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// A slider's parameter, range and where its changes go.
pub struct Slider {
    /// The URL parameter it sets (label key `param.<name>`, doc `param.<name>.doc`).
    pub name: &'static str,
    pub value: i64,
    pub min: i64,
    pub max: i64,
    /// Logarithmic track (for ranges like 1–4096).
    pub log: bool,
    pub on_change: Callback<i64>,
    /// The panel: a label `param.<topic>.<name>` overrides `param.<name>`.
    pub topic: &'static str,
}

const LOG_STEPS: f64 = 1000.0;

/// The track position of `v` on a track from `min` to `max`.
fn to_track(log: bool, min: i64, max: i64, v: i64) -> f64 {
    if log {
        let (lo, hi) = ((min.max(1)) as f64, max as f64);
        ((v.max(1) as f64).ln() - lo.ln()) / (hi.ln() - lo.ln()) * LOG_STEPS
    } else {
        v as f64
    }
}

/// The value at track position `t`, clamped to `min..=max`.
fn from_track(log: bool, min: i64, max: i64, t: f64) -> i64 {
    if log {
        let (lo, hi) = ((min.max(1)) as f64, max as f64);
        (lo.ln() + t / LOG_STEPS * (hi.ln() - lo.ln())).exp().round() as i64
    } else {
        t.round() as i64
    }
    .clamp(min, max)
}

fn input_value(e: &Event) -> Option<f64> {
    e.target()?.dyn_into::<HtmlInputElement>().ok()?.value().trim().parse::<f64>().ok()
}

/// The slider's markup. A function rather than a component: it has no
/// state of its own, and every component costs its own copy of Yew's
/// lifecycle code.
pub fn slider(ctx: &AppCtx, props: &Slider) -> Html {
    let id = format!("param-{}", props.name);
    let label_key = crate::i18n::topic_key("param", props.topic, props.name);
    let doc_key = format!("{label_key}.doc");
    let title = has(&doc_key).then(|| ctx.t(&doc_key));
    let (tmin, tmax) = if props.log { (0.0, LOG_STEPS) } else { (props.min as f64, props.max as f64) };
    let on_range = {
        let cb = props.on_change.clone();
        let (log, min, max) = (props.log, props.min, props.max);
        Callback::from(move |e: InputEvent| {
            if let Some(t) = input_value(&e) {
                cb.emit(from_track(log, min, max, t));
            }
        })
    };
    let on_number = {
        let cb = props.on_change.clone();
        let (min, max) = (props.min, props.max);
        Callback::from(move |e: Event| {
            if let Some(v) = input_value(&e) {
                cb.emit((v.round() as i64).clamp(min, max));
            }
        })
    };
    html! {
        // The number box is as wide as the largest value's digits (a fixed
        // width cut 16777216 to "167772").
        <div class="slider" data-param={props.name} title={title.clone()}
            style={format!("--digits:{}", props.max.max(props.min.abs()).to_string().len())}>
            <label for={id.clone()}>{ ctx.t(&label_key) }</label>
            <input id={id} type="range" name={props.name} min={tmin.to_string()} max={tmax.to_string()} step="1"
                value={to_track(props.log, props.min, props.max, props.value).to_string()} oninput={on_range} />
            <input class="slider-number" type="number" aria-label={ctx.t(&label_key)}
                min={props.min.to_string()} max={props.max.to_string()} value={props.value.to_string()}
                onchange={on_number} />
        </div>
    }
}
