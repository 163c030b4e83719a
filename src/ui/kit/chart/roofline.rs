//! The roofline chart's component: [`crate::draw::chart::roofline`] drawn
//! on a canvas, with its table alternative.

use super::backend::CanvasBackend;
use super::{data_table, plot_canvas, use_plot};
use crate::draw::chart::roofline::{draw, RoofDot, Roofline};
use crate::draw::chart::Look;
use plotters::prelude::*;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

#[derive(Properties, PartialEq, Clone)]
pub struct RooflineProps {
    pub peak: f64,
    pub bandwidth: f64,
    pub dots: Rc<Vec<RoofDot>>,
    pub x_desc: AttrValue,
    pub width: f64,
    pub height: f64,
    pub present: bool,
    pub label: AttrValue,
    /// Written beside the ridge point's vertical line (nothing if empty).
    #[prop_or_default]
    pub ridge_label: AttrValue,
}

fn draw_roofline(canvas: &HtmlCanvasElement, p: &RooflineProps, dpr: f64) -> Option<()> {
    let root = CanvasBackend::with_canvas_object(canvas.clone())?.into_drawing_area();
    let chart = Roofline {
        peak: p.peak,
        bandwidth: p.bandwidth,
        dots: &p.dots,
        x_desc: &p.x_desc,
        width: p.width,
        height: p.height,
        present: p.present,
        ridge_label: &p.ridge_label,
    };
    draw(&root, &chart, Look::new(p.present, dpr))
}

#[component]
pub fn RooflineChart(p: &RooflineProps) -> Html {
    let props = p.clone();
    let deps = (p.dots.clone(), p.peak.to_bits(), p.bandwidth.to_bits(), p.present, p.ridge_label.clone());
    let (canvas, pw, ph) = use_plot(p.width, p.height, deps, move |off, dpr| draw_roofline(off, &props, dpr));
    let rows = p
        .dots
        .iter()
        .map(|d| vec![d.label.clone(), crate::format::sig4(d.intensity), crate::format::sig4(d.tflops)])
        .collect();
    let table = data_table(&p.label, &["", p.x_desc.as_str(), "TFLOP/s"], rows);
    plot_canvas(canvas, p.width, p.height, pw, ph, p.present, p.label.clone(), table)
}
