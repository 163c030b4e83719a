//! The small roofline every byte-and-FLOP panel shows: where its current
//! configuration sits for the chosen GPU, from the one model in
//! `sim::roofline` (no second roofline formula anywhere).

use super::widgets::choice;
use crate::sim::roofline::{attainable_tflops, Work};
use crate::ui::kit::chart::{RoofDot, RooflineChart};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::url_state::Action;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct InsetProps {
    /// The `gpu` URL parameter's value.
    pub gpu: &'static str,
    /// The dtype whose peak is the roof.
    pub dtype: &'static str,
    /// (translation key of the label, work) for each dot; the first is highlighted.
    pub points: Rc<Vec<(&'static str, Work)>>,
    pub dispatch: Callback<Action>,
    /// The panel's `peak` and `bw` where it offers a custom machine.
    #[prop_or_default]
    pub custom: Option<(AttrValue, i64)>,
    /// The chart's size when the inset is the panel's stage (else its natural size).
    #[prop_or_default]
    pub size: Option<(f64, f64)>,
}

#[component]
pub fn RooflineInset(p: &InsetProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    // As wide as the space it has (a phone), at most its natural size.
    let node = use_node_ref();
    let natural = if ctx.present { 520.0 } else { 420.0 };
    // The inset's padding and border take 24 px of its width.
    let fitted = (crate::ui::kit::canvas::use_width(node.clone(), natural + 24.0) - 24.0).min(natural).max(200.0);
    let (width, height) = p.size.unwrap_or((fitted, if ctx.present { 300.0 } else { 240.0 }));
    let machine = match (&p.custom, p.gpu) {
        (Some((peak, bw)), "custom") => {
            crate::sim::hw::custom(crate::sim::hw::parse_peak(peak).unwrap_or(1000.0), *bw as f64)
        }
        _ => *crate::sim::hw::gpu(p.gpu),
    };
    let h = &machine;
    let dots: Vec<RoofDot> = p
        .points
        .iter()
        .enumerate()
        .map(|(i, (key, w))| RoofDot {
            label: ctx.t(key),
            intensity: w.intensity(),
            tflops: attainable_tflops(h, p.dtype, w.intensity()),
            selected: i == 0,
        })
        .collect();
    let metrics: Vec<Html> = dots
        .iter()
        .enumerate()
        .map(|(i, d)| {
            html! {
                <span class="inset-dot" data-inset-intensity={d.intensity.to_string()} data-inset-tflops={d.tflops.to_string()} data-index={i.to_string()}>
                    { ctx.tf("inset.value", &[("label", &d.label), ("i", &format!("{:.3}", d.intensity)), ("t", &format!("{:.2}", d.tflops))]) }
                </span>
            }
        })
        .collect();
    html! {
        <div class="inset" data-testid="roofline-inset" ref={node}>
            <h2 class="chart-title">{ ctx.tf("inset.title", &[("gpu", h.name), ("dtype", p.dtype)]) }</h2>
            { choice(&ctx, "gpu", if p.custom.is_some() { crate::sim::hw::GPU_CHOICES } else { crate::sim::hw::GPU_CODES },
                p.gpu, &p.dispatch) }
            if let (Some((peak, bw)), "custom") = (&p.custom, p.gpu) {
                { crate::ui::kit::custom_gpu::custom_gpu(&ctx, peak, *bw, &p.dispatch) }
            }
            <RooflineChart peak={h.peak_tflops(p.dtype)} bandwidth={h.hbm_tbps} dots={Rc::new(dots)} x_desc={ctx.t("chart.roofline-axis")}
                ridge_label={ctx.tf("chart.ridge-label", &[("r", &format!("{:.0}", h.ridge(p.dtype)))])}
                width={width} height={height} present={ctx.present}
                label={ctx.tf("inset.title", &[("gpu", h.name), ("dtype", p.dtype)])} />
            <p class="inset-values">{ for metrics }</p>
        </div>
    }
}
