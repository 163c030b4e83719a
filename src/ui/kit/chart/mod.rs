//! Charts with plotters-canvas. A chart is two stacked canvases: the plot
//! (redrawn only when its data, size, language or mode change) and a cursor
//! layer (redrawn every step, a single line), so playback stays cheap.
//!
//! What every chart shares, the roofline and the log–log charts are drawn
//! by pure functions (`crate::draw::chart`, any plotters backend); here
//! their components, `series` (the filled chart over time), the canvas a
//! chart draws on out of the document, and its table alternative.

mod backend;
mod log;
mod roofline;
mod series;

pub use crate::draw::chart::log::LogSeries;
pub(crate) use crate::draw::chart::look::mesh;
pub use crate::draw::chart::look::{legend, line_series, Legend, Look, Mark, MIN_FONT, PRESENT_SCALE};
pub use crate::draw::chart::roofline::RoofDot;
pub use backend::CanvasBackend;
pub use log::{LogChart, LogChartProps};
pub use roofline::{RooflineChart, RooflineProps};
pub use series::{downsample, Band, Chart, ChartProps, SeriesChart};

use crate::ui::kit::paint::context_2d;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// [`Look`] in the page (its pure part is `crate::draw::chart::look`).
impl Look {
    /// The look of a chart in the page: projected, its type grows with the
    /// page's (`dom::type_scale`).
    pub fn new(present: bool, dpr: f64) -> Self {
        Look::scaled(present, dpr, crate::ui::kit::dom::type_scale(true))
    }
}

/// The smallest text of a chart drawn in `present` mode (for `data-min-font`).
pub fn min_font(present: bool) -> String {
    format!("{:.1}", Look::new(present, 1.0).min_font())
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
        let doc = crate::ui::kit::dom::window().document()?;
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

/// A chart's canvas drawn whole by `draw` (given the canvas out of the
/// document and the device's pixel ratio) whenever `deps` or the size
/// change, then marked `data-painted`; with its size in device pixels.
#[hook]
pub fn use_plot<D, F>(width: f64, height: f64, deps: D, draw: F) -> (NodeRef, u32, u32)
where
    D: PartialEq + 'static,
    F: Fn(&HtmlCanvasElement, f64) -> Option<()> + 'static,
{
    let canvas = use_node_ref();
    let detached: Detached = use_mut_ref(|| None);
    let dpr = crate::ui::kit::dom::window().device_pixel_ratio().clamp(1.0, 4.0);
    let (pw, ph) = ((width * dpr).round() as u32, (height * dpr).round() as u32);
    {
        let canvas = canvas.clone();
        use_effect_with((deps, pw, ph), move |_| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                if draw_detached(&c, &detached, |off| draw(off, dpr)).is_some() {
                    let _ = c.set_attribute("data-painted", "1");
                }
            }
        });
    }
    (canvas, pw, ph)
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
