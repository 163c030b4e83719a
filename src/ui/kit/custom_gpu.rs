//! The custom machine's controls (`gpu=custom`): its peak in TFLOP/s (a
//! decimal number), its bandwidth in GB/s, and the notes' Apple M4 Pro as a
//! preset.

use crate::params::Value;
use crate::sim::hw::M4_PRO;
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::url_state::Action;
use crate::ui::kit::widgets::emit_on_click;
use yew::prelude::*;

/// The values of the M4 Pro preset (fp32: the notes measured an fp32 matmul).
pub fn m4_pro() -> Vec<(&'static str, Value)> {
    vec![
        ("gpu", Value::Choice("custom")),
        ("dtype", Value::Choice("fp32")),
        ("peak", Value::Text(M4_PRO.0.to_string())),
        ("bw", Value::Int(M4_PRO.1 as i64)),
    ]
}

/// The controls, given the `peak` URL value (text) and `bw` (GB/s). A
/// function rather than a component: it has no state of its own, and every
/// component costs its own copy of Yew's lifecycle code.
pub fn custom_gpu(ctx: &AppCtx, peak: &str, bw: i64, dispatch: &Callback<Action>) -> Html {
    let value = |e: &Event| e.target_dyn_into::<web_sys::HtmlInputElement>().map(|i| i.value());
    let on_peak = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(s) = value(&e) {
                d.emit(Action::Set("peak", Value::Text(s.trim().to_string())));
            }
        })
    };
    let on_bw = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(x) = value(&e).and_then(|s| s.trim().parse::<f64>().ok()) {
                d.emit(Action::Set("bw", Value::Int(x.round() as i64)));
            }
        })
    };
    html! {
        <div class="control custom-gpu" data-testid="custom-gpu">
            <label class="control-label">{ ctx.t("custom.peak") }
                <input class="slider-number" type="number" step="any" min="0.001" name="peak" value={peak.to_string()} onchange={on_peak} />
            </label>
            <label class="control-label">{ ctx.t("custom.bw") }
                <input class="slider-number" type="number" step="1" min="1" name="bw" value={bw.to_string()} onchange={on_bw} />
            </label>
            <button class="preset" data-preset="m4-pro" onclick={emit_on_click(dispatch, Action::SetMany(m4_pro()))}>{ ctx.t("custom.m4-pro") }</button>
        </div>
    }
}
