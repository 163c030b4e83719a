//! The look every plotters chart shares: type and marks scaled by the
//! device pixel ratio and projector mode, the grid, line series and legend.
//! Generic over plotters' backend: the browser's canvas
//! (`ui::kit::chart::CanvasBackend`) and the static snapshots' SVG
//! ([`super::svg::SvgBackend`]) draw the same chart.

use crate::scene::{Rgba, FONT_STACK};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The smallest font of a chart (CSS pixels, before projector mode's scale):
/// legible in a 960 × 540 embed.
pub const MIN_FONT: f64 = 12.0;
/// Projector mode's scale of a chart's type and marks: 12 px becomes 18 px,
/// legible from the back of a lecture hall.
pub const PRESENT_SCALE: f64 = 1.5;

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
    /// The look at pixel ratio `dpr`; projected (`present`), its type
    /// [`PRESENT_SCALE`] × `type_scale` (the page's type scale: a wide
    /// projected screen is seen from as far as a 1024 × 768 one, so the
    /// charts' text grows with the page's type).
    pub fn scaled(present: bool, dpr: f64, type_scale: f64) -> Self {
        Look { dpr, k: if present { PRESENT_SCALE * type_scale } else { 1.0 } }
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
    pub fn builder<'a, 'b, DB: DrawingBackend>(
        &self,
        root: &'a DrawingArea<DB, Shift>,
        margin: f64,
        x_labels: f64,
        y_labels: f64,
    ) -> ChartBuilder<'a, 'b, DB> {
        let mut b = ChartBuilder::on(root);
        b.margin((margin * self.dpr) as u32)
            .x_label_area_size((x_labels * self.dpr * self.k) as u32)
            .y_label_area_size((y_labels * self.dpr * self.k) as u32);
        b
    }
}

/// A legend entry's mark, drawn left of its label.
#[derive(Clone, Copy)]
pub enum Mark {
    /// A short stroke (20 device pixels) in a line series's colour and width.
    Line(RGBColor, u32),
    /// A circle of this radius and style, as a dot series draws it.
    Dot(u32, ShapeStyle),
}

/// A chart's legend entries (label, mark), in the order their series are drawn.
#[derive(Default)]
pub struct Legend(Vec<(String, Mark)>);

impl Legend {
    pub fn new() -> Self {
        Legend(Vec::new())
    }
    /// An entry for a series labelled `label`.
    pub fn add(&mut self, label: &str, mark: Mark) {
        self.0.push((label.to_string(), mark));
    }
}

/// A line series, its entry added to `legend` (a short stroke in the same style).
pub fn line_series<DB: DrawingBackend, CT: plotters::coord::CoordTranslate<From = (f64, f64)>>(
    chart: &mut ChartContext<'_, DB, CT>,
    points: Vec<(f64, f64)>,
    color: RGBColor,
    stroke: u32,
    label: &str,
    legend: &mut Legend,
) -> Option<()> {
    chart.draw_series(LineSeries::new(points, color.stroke_width(stroke))).ok()?;
    legend.add(label, Mark::Line(color, stroke));
    Some(())
}

/// Every chart's legend: upper left, on a pale box, in the chart's type.
///
/// Laid out and drawn as plotters' series labels are (`configure_series_labels`
/// at the upper left: 5 px from the plot's corner, a margin of 10, 30 for the
/// marks, lines 1.25 font sizes apart), the same pixels, but each label sized
/// by the chart's backend, which remembers the sizes: plotters' legend sizes
/// its lines through the font, a `<span>` added to the page and a forced
/// layout of the page each, twice per line.
pub fn legend<DB: DrawingBackend, CT: plotters::coord::CoordTranslate>(
    chart: &ChartContext<'_, DB, CT>,
    look: &Look,
    legend: &Legend,
) -> Option<()> {
    let area = chart.plotting_area().strip_coord_spec();
    let style: TextStyle = look.font(12.0).into_text_style(&area);
    let line_h = style.font.get_size() * 1.25;
    // Each line's top, relative to the first (as plotters rounds it).
    let top = |i: usize| (i as f64 * line_h).round() as i32;
    let mut sizes = Vec::with_capacity(legend.0.len());
    let (mut w, mut h) = (0, 0);
    for (i, (label, _)) in legend.0.iter().enumerate() {
        let (dx, dy) = area.estimate_text_size(label, &style).ok()?;
        w = w.max(dx as i32);
        h = h.max(top(i) + dy as i32);
        sizes.push(dy as i32);
    }
    const MARGIN: i32 = 10;
    const MARKS: i32 = 30;
    let (w, h) = (w + MARKS + 2 * MARGIN, h + 2 * MARGIN);
    let (x0, y0) = (5, 5);
    let corners = [(x0, y0), (x0 + w, y0 + h)];
    area.draw(&Rectangle::new(corners, WHITE.mix(0.85).filled())).ok()?;
    area.draw(&Rectangle::new(corners, ShapeStyle::from(RGBColor(200, 200, 200)))).ok()?;
    let text_x = x0 + MARKS + MARGIN;
    for (i, (label, _)) in legend.0.iter().enumerate() {
        area.draw(&Text::new(label.as_str(), (text_x, y0 + MARGIN + top(i)), style.clone())).ok()?;
    }
    for (i, ((_, mark), dy)) in legend.0.iter().zip(sizes).enumerate() {
        let line_top = y0 + MARGIN + top(i);
        let (x, y) = (x0 + MARGIN, (2 * line_top + dy) / 2);
        match *mark {
            Mark::Line(color, stroke) => {
                area.draw(&PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(stroke))).ok()?
            }
            Mark::Dot(r, style) => area.draw(&Circle::new((x + 10, y), r, style)).ok()?,
        }
    }
    Some(())
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

/// A scene colour as plotters' colour.
pub fn rgb(c: Rgba) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}
