//! Charts with plotters-canvas. A chart is two stacked canvases: the plot
//! (redrawn only when its data, size, language or mode change) and a cursor
//! layer (redrawn every step, a single line), so playback stays cheap.

use super::paint::{context_2d, FONT_STACK};
use super::part::part;
use crate::draw::labels::{clear_of_roof, group_spots, place_labels_below, Block};
use crate::scene::Rgba;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use std::ops::Range;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// The smallest font of a chart (CSS pixels, before projector mode's scale):
/// legible in a 960 × 540 embed.
pub const MIN_FONT: f64 = 12.0;
/// Projector mode's scale of a chart's type and marks: 12 px becomes 18 px,
/// legible from the back of a lecture hall.
pub const PRESENT_SCALE: f64 = 1.5;

/// The smallest text of a chart drawn in `present` mode (for `data-min-font`).
pub fn min_font(present: bool) -> String {
    format!("{:.1}", Look::new(present, 1.0).min_font())
}

/// The look every plotters chart shares: type, margins and label areas
/// scaled by the device pixel ratio and by projector mode (no text under
/// [`MIN_FONT`] × its scale).
#[derive(Clone, Copy)]
pub struct Look {
    pub dpr: f64,
    /// [`PRESENT_SCALE`] in projector mode (more on a wide screen).
    pub k: f64,
}

impl Look {
    pub fn new(present: bool, dpr: f64) -> Self {
        // A wide projected screen is seen from as far as a 1024 × 768 one:
        // the charts' text grows with the page's type.
        Look { dpr, k: if present { PRESENT_SCALE * super::dom::type_scale(true) } else { 1.0 } }
    }
    /// The smallest text a chart draws, in CSS pixels (what `data-min-font` says).
    pub fn min_font(&self) -> f64 {
        MIN_FONT * self.k
    }
    /// A font of `px` CSS pixels.
    pub fn font(&self, px: f64) -> (&'static str, f64) {
        (FONT_STACK, px * self.dpr * self.k)
    }
    /// A chart builder: `margin`, the x-label height and the y-label width in
    /// CSS pixels.
    pub fn builder<'a, 'b>(
        &self,
        root: &'a DrawingArea<CanvasBackend, plotters::coord::Shift>,
        margin: f64,
        x_labels: f64,
        y_labels: f64,
    ) -> ChartBuilder<'a, 'b, CanvasBackend> {
        let mut b = ChartBuilder::on(root);
        b.margin((margin * self.dpr) as u32)
            .x_label_area_size((x_labels * self.dpr * self.k) as u32)
            .y_label_area_size((y_labels * self.dpr * self.k) as u32);
        b
    }
}

/// A line series with its legend entry (a short stroke in the same style).
pub fn line_series<CT: plotters::coord::CoordTranslate<From = (f64, f64)>>(
    chart: &mut ChartContext<'_, CanvasBackend, CT>,
    points: Vec<(f64, f64)>,
    color: RGBColor,
    stroke: u32,
    label: &str,
) -> Option<()> {
    chart
        .draw_series(LineSeries::new(points, color.stroke_width(stroke)))
        .ok()?
        .label(label)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(stroke)));
    Some(())
}

/// Every chart's legend: upper left, on a pale box, in the chart's type.
pub fn legend<CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'_, CanvasBackend, CT>,
    look: &Look,
) -> Option<()> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(look.font(12.0))
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(200, 200, 200))
        .draw()
        .ok()
}

/// `chart.configure_mesh()` with the shared light grid and label fonts; the
/// caller adds axis descriptions and formatters.
macro_rules! mesh {
    ($chart:expr, $look:expr) => {
        $chart
            .configure_mesh()
            .light_line_style(RGBColor(238, 239, 243))
            .max_light_lines(1)
            .label_style($look.font(12.0))
            .axis_desc_style($look.font(13.0))
    };
}
pub(crate) use mesh;

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

fn rgb(c: Rgba) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
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

/// The canvas a chart draws on, out of the document (see [`draw_detached`]);
/// one per chart, kept between draws at the chart's size.
type Detached = Rc<std::cell::RefCell<Option<HtmlCanvasElement>>>;

/// Draw with `draw` on the chart's canvas out of the document (`detached`,
/// made the size of `canvas` the first time and when the size changes),
/// then copy the result onto `canvas` in one `drawImage`. A font set on a
/// canvas in the document makes the browser bring the page's style up to
/// date first (a canvas font may be relative to it): after a render that
/// changed the page, that was ~2 ms of every chart redrawn, at plotters'
/// first label. Out of the document, a font costs nothing more.
fn draw_detached<R>(
    canvas: &HtmlCanvasElement,
    detached: &Detached,
    draw: impl FnOnce(&HtmlCanvasElement) -> Option<R>,
) -> Option<R> {
    use wasm_bindgen::JsCast;
    let (w, h) = (canvas.width(), canvas.height());
    let mut slot = detached.borrow_mut();
    if slot.as_ref().is_none_or(|c| c.width() != w || c.height() != h) {
        let doc = super::dom::window().document()?;
        let c = doc.create_element("canvas").ok()?.dyn_into::<HtmlCanvasElement>().ok()?;
        c.set_width(w);
        c.set_height(h);
        *slot = Some(c);
    }
    let off = slot.as_ref()?;
    // Text in the page's language (the glyphs a font picks for Han characters).
    let lang = canvas.closest("[lang]").ok().flatten().and_then(|e| e.get_attribute("lang"));
    if off.get_attribute("lang") != lang {
        let _ = match lang {
            Some(l) => off.set_attribute("lang", &l),
            None => off.remove_attribute("lang"),
        };
    }
    let out = draw(off);
    let ctx = context_2d(canvas)?;
    ctx.clear_rect(0.0, 0.0, w as f64, h as f64);
    let _ = ctx.draw_image_with_html_canvas_element(off, 0.0, 0.0);
    out
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
    let dpr = super::dom::window().device_pixel_ratio().clamp(1.0, 4.0);
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

/// Rows at most in a chart's table alternative.
const TABLE_ROWS: usize = 40;

/// A chart's data as a table that screen readers read (visually hidden).
fn data_table(caption: &str, head: &[&str], rows: Vec<Vec<String>>) -> Html {
    html! {
        <table class="sr-only" data-testid="chart-table">
            <caption>{ caption }</caption>
            <thead><tr>{ for head.iter().map(|h| html! { <th scope="col">{ *h }</th> }) }</tr></thead>
            <tbody>{ for rows.into_iter().map(|r| html! { <tr>{ for r.into_iter().map(|c| html! { <td>{ c }</td> }) }</tr> }) }</tbody>
        </table>
    }
}

/// A plotters canvas sized in CSS pixels at the device's pixel ratio, with
/// its table alternative.
#[allow(clippy::too_many_arguments)] // the canvas, its two sizes, its mode and its alternatives
fn plot_canvas(
    canvas: NodeRef,
    width: f64,
    height: f64,
    pw: u32,
    ph: u32,
    present: bool,
    label: AttrValue,
    table: Html,
) -> Html {
    let style = format!("width:{width}px;height:{height}px");
    html! {
        <div class="chart" style={style.clone()} data-testid="chart">
            <canvas ref={canvas} width={pw.to_string()} height={ph.to_string()} style={style} role="img" aria-label={label}
                data-min-font={min_font(present)} />
            { table }
        </div>
    }
}

/// One line of a log–log chart.
#[derive(Clone, Debug, PartialEq)]
pub struct LogSeries {
    pub label: String,
    pub color: Rgba,
    pub points: Vec<(f64, f64)>,
}

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

fn draw_growth(canvas: &HtmlCanvasElement, p: &LogChartProps, dpr: f64) -> Option<()> {
    let backend = CanvasBackend::with_canvas_object(canvas.clone())?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).ok()?;
    let x1 = p.series.iter().flat_map(|s| s.points.iter().map(|q| q.0)).fold(1.0, f64::max);
    let y1 = p.series.iter().flat_map(|s| s.points.iter().map(|q| q.1)).fold(1.0, f64::max);
    let look = Look::new(p.present, dpr);
    // Room on the right for the last year's tick to be drawn whole.
    let mut builder = look.builder(&root, 10.0, 44.0, 78.0);
    builder.margin_right((22.0 * dpr * look.k) as u32);
    let mut chart = builder.build_cartesian_2d(0f64..x1, (1f64..y1 * 1.5).log_scale()).ok()?;
    mesh!(chart, look)
        .x_desc(p.x_desc.as_str())
        .y_desc(p.y_desc.as_str())
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}×"))
        .draw()
        .ok()?;
    let stroke = (if p.present { 4.0 } else { 2.0 } * dpr) as u32;
    for s in p.series.iter() {
        line_series(&mut chart, s.points.clone(), rgb(s.color), stroke, &s.label)?;
    }
    legend(&mut chart, &look)?;
    root.present().ok()
}

fn draw_log(canvas: &HtmlCanvasElement, p: &LogChartProps, dpr: f64) -> Option<()> {
    if p.growth {
        return draw_growth(canvas, p, dpr);
    }
    let backend = CanvasBackend::with_canvas_object(canvas.clone())?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).ok()?;
    let all = p.series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in all {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x0 >= x1 || y0 >= y1 || y0 <= 0.0 {
        return None;
    }
    let look = Look::new(p.present, dpr);
    let k = look.k;
    // Room on the left for "1000 GB" and the axis's name beside it (at 70
    // the name ran into the ticks).
    let mut builder = look.builder(&root, 10.0, 36.0, 88.0);
    // The last tick's label ("1M") is centred on the right edge: room for its half.
    builder.margin_right((18.0 * look.dpr * k) as u32);
    let mut chart = builder.build_cartesian_2d((x0..x1).log_scale(), (y0 / 2.0..y1 * 2.0).log_scale()).ok()?;
    mesh!(chart, look)
        .x_desc(p.x_desc.as_str())
        .y_desc(p.y_desc.as_str())
        .x_label_formatter(&|x| crate::format::count_tick(*x))
        .y_label_formatter(&|y| crate::format::bytes(*y))
        .draw()
        .ok()?;
    let stroke = (if p.present { 4.0 } else { 2.0 } * dpr) as u32;
    for s in p.series.iter() {
        line_series(&mut chart, s.points.clone(), rgb(s.color), stroke, &s.label)?;
    }
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(p.marker, y0 / 2.0), (p.marker, y1 * 2.0)],
            RGBColor(208, 48, 10).stroke_width((2.0 * dpr * k) as u32),
        )))
        .ok()?;
    legend(&mut chart, &look)?;
    root.present().ok()
}

#[component]
pub fn LogChart(p: &LogChartProps) -> Html {
    let canvas = use_node_ref();
    let detached: Detached = use_mut_ref(|| None);
    let dpr = super::dom::window().device_pixel_ratio().clamp(1.0, 4.0);
    let (pw, ph) = ((p.width * dpr).round() as u32, (p.height * dpr).round() as u32);
    {
        let canvas = canvas.clone();
        let props = p.clone();
        use_effect_with((p.series.clone(), p.marker.to_bits(), pw, ph, p.present), move |_| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                if draw_detached(&c, &detached, |off| draw_log(off, &props, dpr)).is_some() {
                    let _ = c.set_attribute("data-painted", "1");
                }
            }
        });
    }
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

/// A dot on the roofline chart.
#[derive(Clone, Debug, PartialEq)]
pub struct RoofDot {
    pub label: String,
    pub intensity: f64,
    pub tflops: f64,
    pub selected: bool,
}

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

/// A dot's (or a spot's dots') label: its lines, colour and the dot.
type GroupLabel = (Vec<String>, RGBColor, (i32, i32));

fn draw_roofline(canvas: &HtmlCanvasElement, p: &RooflineProps, dpr: f64) -> Option<()> {
    let backend = CanvasBackend::with_canvas_object(canvas.clone())?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).ok()?;
    let look = Look::new(p.present, dpr);
    let k = look.k;
    let (x0, x1) = (0.05, 1e5);
    let (y0, y1) = ((x0 * p.bandwidth).min(p.peak / 1e4), p.peak * 3.0);
    // A short chart (a phone) gets a decade more below the roof: room for
    // the labels stacked under the low-intensity dots, clear of the x axis.
    // Projected, the larger type needs the same room.
    let y0 = if p.height < 300.0 || p.present { y0 / 10.0 } else { y0 };
    // Room on the right for the last tick ("10000") to be drawn whole.
    let mut builder = look.builder(&root, 12.0, 36.0, 60.0);
    builder.margin_right((30.0 * dpr * k) as u32);
    let mut chart = builder.build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale()).ok()?;
    mesh!(chart, look)
        .x_desc(p.x_desc.as_str())
        .y_desc("TFLOP/s")
        // Short ticks (1k, 100k) so that a phone's narrow axis does not run them together.
        .x_labels(if p.width < 480.0 { 5 } else { 10 })
        .x_label_formatter(&|x| match *x {
            x if x >= 1000.0 => format!("{:.0}k", x / 1000.0),
            x if x >= 1.0 => format!("{x:.0}"),
            x => format!("{x}"),
        })
        .y_label_formatter(&|y| crate::format::log_tick(*y))
        .draw()
        .ok()?;
    let ridge = p.peak / p.bandwidth;
    let stroke = (if p.present { 4.0 } else { 2.5 } * dpr) as u32;
    chart
        .draw_series(LineSeries::new(
            vec![(x0, x0 * p.bandwidth), (ridge, p.peak), (x1, p.peak)],
            RGBColor(28, 32, 40).stroke_width(stroke),
        ))
        .ok()?;
    let grey = RGBColor(110, 110, 120);
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(ridge, y0), (ridge, p.peak)],
            RGBColor(150, 150, 160).stroke_width((1.0 * dpr) as u32),
        )))
        .ok()?;
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    // Labels go below their dots:
    // the roof only rises to the right, so a label below and to the right
    // of a dot on it never crosses the line. Placed together, none
    // overprints another.
    let font_px = MIN_FONT * dpr * k;
    let text_w = |s: &str| crate::scene::text_width(s, font_px) as i32;
    let (rx, _) = chart.backend_coord(&(ridge, p.peak));
    let ridge_w = text_w(&p.ridge_label);
    let floor = chart.plotting_area().get_pixel_range().1.end;
    let row = (font_px * 1.2) as i32;
    // The ridge's label at the foot of its line, right of it: below the roof
    // and right of the slope, where no operation's dot lands (at the top,
    // the labels of the dots on the roof ran into it). Placed first, the
    // others keep clear of it.
    let mut boxes: Vec<Block> = vec![(
        (rx + (4.0 * dpr) as i32).min((p.width * dpr) as i32 - 2 - ridge_w),
        floor - (font_px * 1.4) as i32,
        ridge_w,
        row,
    )];
    // A label that would run past the canvas's right edge ends at it.
    let right = (p.width * dpr) as i32 - 2;
    let (selected, plain) = (RGBColor(208, 48, 10), RGBColor(21, 89, 201));
    let at: Vec<(f64, f64)> = p.dots.iter().map(|d| (d.intensity.clamp(x0, x1), d.tflops.clamp(y0, y1))).collect();
    let spots: Vec<(i32, i32)> = at.iter().map(|q| chart.backend_coord(q)).collect();
    // Dots on one spot (a decode step's weight matmuls all sit at intensity
    // B) share one label, their names joined, wrapped to the room on the
    // right: stacked one under another they ran off the plot.
    let groups = group_spots(&spots, (6.0 * dpr * k) as i32);
    let mut labels: Vec<GroupLabel> = Vec::new();
    for g in &groups {
        let (x, y) = spots[g[0]];
        let r = 7.0 * dpr * k;
        let mut names: Vec<&str> = Vec::new();
        for &i in g {
            if !names.contains(&p.dots[i].label.as_str()) {
                names.push(&p.dots[i].label);
            }
        }
        let color = if g.iter().any(|&i| p.dots[i].selected) { selected } else { plain };
        // Its lines are one box, placed together.
        let room = (right - x - r as i32).max((160.0 * dpr * k) as i32) as f64;
        let lines = crate::scene::wrap(&names.join(" · "), font_px, room);
        let w = lines.iter().map(|l| text_w(l)).max().unwrap_or(0);
        boxes.push(((x + r as i32).min(right - w), y + (r * 0.8) as i32, w, row * lines.len() as i32));
        labels.push((lines, color, (x, y)));
    }
    // The roof in pixels (straight on log axes up to the ridge, then flat):
    // labels keep off it where a row allows, and inside the plot.
    let (foot, (ridge_x, roof_y)) =
        (chart.backend_coord(&(x0, x0 * p.bandwidth)), chart.backend_coord(&(ridge, p.peak)));
    let roof = move |x: i32| {
        if x >= ridge_x || ridge_x == foot.0 {
            roof_y
        } else {
            foot.1 + ((x - foot.0) as f64 * (roof_y - foot.1) as f64 / (ridge_x - foot.0) as f64) as i32
        }
    };
    let top = chart.plotting_area().get_pixel_range().1.start;
    let clear = |b: Block| clear_of_roof(roof, b);
    let placed = place_labels_below(&boxes, row, (top, floor), &clear);
    if !p.ridge_label.is_empty() {
        root.draw(&Text::new(
            p.ridge_label.to_string(),
            placed[0],
            look.font(MIN_FONT).into_font().color(&grey).pos(Pos::new(HPos::Left, VPos::Top)),
        ))
        .ok()?;
    }
    for (d, &pos) in p.dots.iter().zip(&at) {
        let (color, r) = if d.selected { (selected, 7.0) } else { (plain, 5.0) };
        chart.draw_series(std::iter::once(Circle::new(pos, (r * dpr * k) as u32, color.filled()))).ok()?;
    }
    for ((lines, color, (dx, dy)), &(lx, ly)) in labels.iter().zip(&placed[1..]) {
        // A label moved away from its dot (others were in the way) is tied
        // to it by a thin leader, to its first line.
        let (ex, ey) = (lx - (2.0 * dpr) as i32, ly + row / 2);
        if (ey - dy).abs() > 2 * row {
            let leader = color.mix(0.55).stroke_width((1.0 * dpr * k).max(1.0) as u32);
            root.draw(&PathElement::new(vec![(*dx, *dy), (ex, ey)], leader)).ok()?;
        }
        let style = look.font(MIN_FONT).into_font().color(color).pos(Pos::new(HPos::Left, VPos::Top));
        for (n, line) in lines.iter().enumerate() {
            root.draw(&Text::new(line.clone(), (lx, ly + n as i32 * row), style.clone())).ok()?;
        }
    }
    root.present().ok()
}

#[component]
pub fn RooflineChart(p: &RooflineProps) -> Html {
    let canvas = use_node_ref();
    let detached: Detached = use_mut_ref(|| None);
    let dpr = super::dom::window().device_pixel_ratio().clamp(1.0, 4.0);
    let (pw, ph) = ((p.width * dpr).round() as u32, (p.height * dpr).round() as u32);
    {
        let canvas = canvas.clone();
        let props = p.clone();
        use_effect_with(
            (p.dots.clone(), p.peak.to_bits(), p.bandwidth.to_bits(), pw, ph, p.present, p.ridge_label.clone()),
            move |_| {
                if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                    if draw_detached(&c, &detached, |off| draw_roofline(off, &props, dpr)).is_some() {
                        let _ = c.set_attribute("data-painted", "1");
                    }
                }
            },
        );
    }
    let rows = p
        .dots
        .iter()
        .map(|d| vec![d.label.clone(), crate::format::sig4(d.intensity), crate::format::sig4(d.tflops)])
        .collect();
    let table = data_table(&p.label, &["", p.x_desc.as_str(), "TFLOP/s"], rows);
    plot_canvas(canvas, p.width, p.height, pw, ph, p.present, p.label.clone(), table)
}
