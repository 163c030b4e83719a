//! The custom machine's controls (`gpu=custom`): its peak in TFLOP/s (a
//! decimal number), its bandwidth in GB/s, and the notes' Apple M4 Pro as a
//! preset.

use crate::params::Value;
use crate::sim::hw::M4_PRO;
use crate::ui::app::AppCtx;
use crate::ui::url_state::Action;
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

#[derive(Properties, PartialEq)]
pub struct CustomGpuProps {
    /// The `peak` URL value (text) and `bw` (GB/s).
    pub peak: AttrValue,
    pub bw: i64,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn CustomGpu(p: &CustomGpuProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let value = |e: &Event| e.target_dyn_into::<web_sys::HtmlInputElement>().map(|i| i.value());
    let on_peak = {
        let d = p.dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(s) = value(&e) {
                d.emit(Action::Set("peak", Value::Text(s.trim().to_string())));
            }
        })
    };
    let on_bw = {
        let d = p.dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(x) = value(&e).and_then(|s| s.trim().parse::<f64>().ok()) {
                d.emit(Action::Set("bw", Value::Int(x.round() as i64)));
            }
        })
    };
    let m4 = {
        let d = p.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::SetMany(m4_pro())))
    };
    html! {
        <div class="control custom-gpu" data-testid="custom-gpu">
            <label class="control-label">{ ctx.t("custom.peak") }
                <input class="slider-number" type="number" step="any" min="0.001" name="peak" value={p.peak.clone()} onchange={on_peak} />
            </label>
            <label class="control-label">{ ctx.t("custom.bw") }
                <input class="slider-number" type="number" step="1" min="1" name="bw" value={p.bw.to_string()} onchange={on_bw} />
            </label>
            <button class="preset" data-preset="m4-pro" onclick={m4}>{ ctx.t("custom.m4-pro") }</button>
        </div>
    }
}
