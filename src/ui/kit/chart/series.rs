//! The filled chart of a series over time (`ys[i]` at `x = x0 + i × dx`)
//! with shaded bands and a cursor line that a click moves.

use super::backend::CanvasBackend;
use super::{data_table, draw_detached, Detached, TABLE_ROWS};
use super::{min_font, Look};
use crate::draw::chart::look::rgb;
use crate::scene::Rgba;
use crate::ui::kit::paint::context_2d;
use crate::ui::kit::part::part;
use plotters::prelude::*;
use std::ops::Range;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// A shaded background band `[start, end)` on the x axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    pub start: f64,
    pub end: f64,
    pub color: Rgba,
}

/// The data of a filled chart: `ys[i]` at `x = x0 + i × dx`.
#[derive(Clone, Debug, PartialEq)]
pub struct SeriesChart {
    pub ys: Vec<f64>,
    pub x0: f64,
    pub dx: f64,
    pub y_max: f64,
    pub bands: Vec<Band>,
    pub x_desc: String,
    pub y_desc: String,
    pub color: Rgba,
    pub present: bool,
    /// An optional second series (e.g. measurements), drawn as a line.
    pub overlay: Vec<(f64, f64)>,
}

/// At most `n` points: the maximum of each bucket (peaks must stay visible).
pub fn downsample(ys: &[f64], n: usize) -> Vec<(f64, f64)> {
    if ys.len() <= n {
        return ys.iter().enumerate().map(|(i, y)| (i as f64, *y)).collect();
    }
    let per = ys.len().div_ceil(n);
    ys.chunks(per)
        .enumerate()
        .flat_map(|(b, chunk)| {
            let m = chunk.iter().cloned().fold(f64::MIN, f64::max);
            let x0 = (b * per) as f64;
            [(x0, m), (x0 + chunk.len() as f64 - 1.0, m)]
        })
        .collect()
}

/// Draw the plot; returns the plotting area's pixel ranges (device pixels).
fn draw_plot(canvas: &HtmlCanvasElement, data: &SeriesChart, dpr: f64) -> Option<(Range<i32>, Range<i32>)> {
    let backend = CanvasBackend::with_canvas_object(canvas.clone())?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).ok()?;
    let x_end = data.x0 + (data.ys.len().max(2) - 1) as f64 * data.dx;
    let look = Look::new(data.present, dpr);
    let mut chart = look
        .builder(&root, 8.0, 34.0, 72.0)
        .build_cartesian_2d(data.x0..x_end, 0f64..data.y_max.max(1.0) * 1.05)
        .ok()?;
    let ytop = data.y_max.max(1.0) * 1.05;
    chart
        .draw_series(
            data.bands.iter().map(|b| Rectangle::new([(b.start, 0.0), (b.end, ytop)], rgb(b.color).mix(0.14).filled())),
        )
        .ok()?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(RGBColor(235, 236, 240))
        .max_light_lines(1)
        .x_desc(data.x_desc.as_str())
        .y_desc(data.y_desc.as_str())
        .label_style(look.font(12.0))
        .axis_desc_style(look.font(13.0))
        .x_labels(8)
        .y_labels(5)
        .x_label_formatter(&|x| format!("{:.0}", x))
        .y_label_formatter(&|y| if data.y_max <= 1.0 { format!("{:.0}%", y * 100.0) } else { format!("{:.0}", y) })
        .draw()
        .ok()?;
    let points: Vec<(f64, f64)> =
        downsample(&data.ys, 800).into_iter().map(|(i, y)| (data.x0 + i * data.dx, y)).collect();
    let stroke = (if data.present { 3.0 } else { 1.5 } * dpr) as u32;
    chart
        .draw_series(
            AreaSeries::new(points, 0.0, rgb(data.color).mix(0.35)).border_style(rgb(data.color).stroke_width(stroke)),
        )
        .ok()?;
    if !data.overlay.is_empty() {
        let pts: Vec<(f64, f64)> = data.overlay.iter().copied().filter(|(x, _)| *x >= data.x0 && *x <= x_end).collect();
        chart.draw_series(LineSeries::new(pts, RGBColor(208, 48, 10).stroke_width(stroke))).ok()?;
    }
    let ranges = chart.plotting_area().get_pixel_range();
    root.present().ok()?;
    Some(ranges)
}

#[derive(Properties, PartialEq)]
pub struct ChartProps {
    pub data: Rc<SeriesChart>,
    pub width: f64,
    pub height: f64,
    /// The x of the cursor line.
    pub cursor: f64,
    /// Clicking the chart seeks to that x.
    pub on_seek: Callback<u64>,
    pub label: AttrValue,
}

#[component]
pub fn Chart(props: &ChartProps) -> Html {
    let plot = use_node_ref();
    let overlay = use_node_ref();
    let area = use_mut_ref(|| None::<(Range<i32>, Range<i32>)>);
    let detached: Detached = use_mut_ref(|| None);
    let dpr = crate::ui::kit::dom::window().device_pixel_ratio().clamp(1.0, 4.0);
    let (pw, ph) = ((props.width * dpr).round() as u32, (props.height * dpr).round() as u32);

    let (x0, span) = (props.data.x0, (props.data.ys.len().max(2) - 1) as f64 * props.data.dx);
    let draw_cursor = {
        let overlay = overlay.clone();
        let area = area.clone();
        let present = props.data.present;
        move |cursor: f64| {
            let Some(c) = overlay.cast::<HtmlCanvasElement>() else { return };
            let Some(ctx) = context_2d(&c) else { return };
            ctx.clear_rect(0.0, 0.0, c.width() as f64, c.height() as f64);
            let Some((xr, yr)) = area.borrow().clone() else { return };
            let x = xr.start as f64 + ((cursor - x0) / span).clamp(0.0, 1.0) * (xr.end - xr.start) as f64;
            ctx.set_stroke_style_str("#d0300a");
            ctx.set_line_width(if present { 4.0 } else { 2.0 } * dpr);
            ctx.begin_path();
            ctx.move_to(x, yr.start as f64);
            ctx.line_to(x, yr.end as f64);
            ctx.stroke();
        }
    };
    let draw_cursor = Rc::new(draw_cursor);

    {
        let plot = plot.clone();
        let area = area.clone();
        let draw_cursor = draw_cursor.clone();
        let cursor = props.cursor;
        let detached = detached.clone();
        use_effect_with((props.data.clone(), pw, ph), move |(data, _, _)| {
            if let Some(c) = plot.cast::<HtmlCanvasElement>() {
                *area.borrow_mut() = draw_detached(&c, &detached, |off| draw_plot(off, data, dpr));
                let _ = c.set_attribute("data-painted", "1");
            }
            draw_cursor(cursor);
        });
    }
    {
        let draw_cursor = draw_cursor.clone();
        use_effect_with(props.cursor.to_bits(), move |bits| draw_cursor(f64::from_bits(*bits)));
    }

    let on_click = {
        let area = area.clone();
        let on_seek = props.on_seek.clone();
        Callback::from(move |e: MouseEvent| {
            let Some((xr, _)) = area.borrow().clone() else { return };
            let x = e.offset_x() as f64 * dpr;
            let t = ((x - xr.start as f64) / (xr.end - xr.start) as f64).clamp(0.0, 1.0);
            on_seek.emit((x0 + t * span).round().max(0.0) as u64);
        })
    };
    let style = format!("width:{}px;height:{}px", props.width, props.height);
    // The table alternative, rendered again only with new data (not as the cursor moves).
    let table = part((props.data.clone(), props.label.clone()), {
        let (d, label) = (props.data.clone(), props.label.clone());
        move || {
            let rows = downsample(&d.ys, TABLE_ROWS / 2)
                .into_iter()
                .map(|(i, y)| vec![crate::format::sig4(d.x0 + i * d.dx), crate::format::sig4(y)])
                .collect();
            data_table(&label, &[d.x_desc.as_str(), d.y_desc.as_str()], rows)
        }
    });
    html! {
        <div class="chart" style={style.clone()} data-testid="chart">
            <canvas ref={plot} width={pw.to_string()} height={ph.to_string()} style={style.clone()}
                role="img" aria-label={props.label.clone()} data-min-font={min_font(props.data.present)} />
            <canvas ref={overlay} class="chart-cursor" width={pw.to_string()} height={ph.to_string()} style={style}
                onclick={on_click} aria-hidden="true" />
            { table }
        </div>
    }
}
