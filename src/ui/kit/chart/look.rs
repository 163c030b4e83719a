//! The look every plotters chart shares: type and marks scaled by the
//! device pixel ratio and projector mode, the grid, line series and legend.

use super::backend::CanvasBackend;
use crate::scene::Rgba;
use crate::ui::kit::paint::FONT_STACK;
use plotters::prelude::*;

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
        Look { dpr, k: if present { PRESENT_SCALE * crate::ui::kit::dom::type_scale(true) } else { 1.0 } }
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

/// A scene colour as plotters' colour.
pub fn rgb(c: Rgba) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}
