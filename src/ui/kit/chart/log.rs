//! The log–log chart's component: [`crate::draw::chart::log`] drawn on a
//! canvas, with its table alternative.

use super::backend::CanvasBackend;
use super::{data_table, plot_canvas, use_plot, TABLE_ROWS};
use crate::draw::chart::log::{draw, LogPlot, LogSeries};
use crate::draw::chart::Look;
use plotters::prelude::*;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

#[derive(Properties, PartialEq, Clone)]
pub struct LogChartProps {
    pub series: Rc<Vec<LogSeries>>,
    /// A vertical marker at this x (the current n).
    pub marker: f64,
    pub x_desc: AttrValue,
    pub y_desc: AttrValue,
    pub width: f64,
    pub height: f64,
    pub present: bool,
    pub label: AttrValue,
    /// A linear x axis (years), y still logarithmic and labelled "N×".
    #[prop_or_default]
    pub growth: bool,
}

fn draw_log(canvas: &HtmlCanvasElement, p: &LogChartProps, dpr: f64) -> Option<()> {
    let root = CanvasBackend::with_canvas_object(canvas.clone())?.into_drawing_area();
    let plot = LogPlot {
        series: &p.series,
        marker: p.marker,
        x_desc: &p.x_desc,
        y_desc: &p.y_desc,
        present: p.present,
        growth: p.growth,
    };
    draw(&root, &plot, Look::new(p.present, dpr))
}

#[component]
pub fn LogChart(p: &LogChartProps) -> Html {
    let props = p.clone();
    let deps = (p.series.clone(), p.marker.to_bits(), p.present);
    let (canvas, pw, ph) = use_plot(p.width, p.height, deps, move |off, dpr| draw_log(off, &props, dpr));
    let rows = p
        .series
        .iter()
        .flat_map(|s| {
            let every = s.points.len().div_ceil(TABLE_ROWS).max(1);
            s.points
                .iter()
                .step_by(every)
                .map(|(x, y)| vec![s.label.clone(), crate::format::sig4(*x), crate::format::sig4(*y)])
        })
        .collect();
    let table = data_table(&p.label, &["", p.x_desc.as_str(), p.y_desc.as_str()], rows);
    plot_canvas(canvas, p.width, p.height, pw, ph, p.present, p.label.clone(), table)
}
