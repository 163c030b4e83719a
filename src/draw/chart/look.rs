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

/// A chart's legend entries (label, mark), in the order their series are
/// drawn, and the pixels (the backend's) of what they drew, which the legend
/// keeps off where it can (see [`legend_corner`]).
#[derive(Default)]
pub struct Legend {
    entries: Vec<(String, Mark)>,
    drawn: Vec<(i32, i32)>,
}

impl Legend {
    pub fn new() -> Self {
        Legend::default()
    }
    /// An entry for a series labelled `label`.
    pub fn add(&mut self, label: &str, mark: Mark) {
        self.entries.push((label.to_string(), mark));
    }
    /// Points drawn on the plot (backend pixels): dots, a note's corners.
    pub fn drawn(&mut self, points: impl IntoIterator<Item = (i32, i32)>) {
        self.drawn.extend(points);
    }
    /// A dot of radius `r` drawn at `at` (backend pixels), as points 2
    /// pixels apart over its disc: a dot counts as much as the line it
    /// would take to draw it.
    pub fn drawn_dot(&mut self, (x, y): (i32, i32), r: i32) {
        let r = r.max(1);
        for dy in (-r..=r).step_by(2) {
            for dx in (-r..=r).step_by(2) {
                if dx * dx + dy * dy <= r * r {
                    self.drawn.push((x + dx, y + dy));
                }
            }
        }
    }
    /// A line drawn on the plot through `path` (backend pixels), as points
    /// at most 4 pixels apart.
    ///
    /// In 64-bit arithmetic: plotters may map a point off a log axis (a
    /// value ≤ 0) to a coordinate near `i32::MIN`, which a 32-bit difference
    /// overflows (a panic in the build's native, debug-built snapshot pass).
    /// Points far outside any plot are left out: no legend covers them.
    pub fn drawn_path(&mut self, path: &[(i32, i32)]) {
        const FAR: i64 = 1 << 20;
        for pair in path.windows(2) {
            let [(x0, y0), (x1, y1)] = [pair[0], pair[1]].map(|(x, y)| (i64::from(x), i64::from(y)));
            let steps = (((x1 - x0).abs().max((y1 - y0).abs()) + 3) / 4).clamp(1, 4096);
            self.drawn.extend(
                (0..=steps)
                    .map(|i| (x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps))
                    .filter(|&(x, y)| x.abs() < FAR && y.abs() < FAR)
                    .map(|(x, y)| (x as i32, y as i32)),
            );
        }
    }
}

/// Where a legend box of `size` goes in a plot of `plot` pixels (both
/// relative to the plot's corner): the corner, 5 px in, that covers the
/// fewest of `drawn`, in the order upper left, upper right, lower right,
/// lower left on a tie (upper left is where plotters puts it; on a phone a
/// legend there hid a roofline's whole flat roof).
pub fn legend_corner(plot: (i32, i32), size: (i32, i32), drawn: &[(i32, i32)]) -> (i32, i32) {
    let (right, bottom) = ((plot.0 - 5 - size.0).max(5), (plot.1 - 5 - size.1).max(5));
    [(5, 5), (right, 5), (right, bottom), (5, bottom)]
        .into_iter()
        .min_by_key(|&c| covered(c, size, drawn))
        .unwrap_or((5, 5))
}

/// How many of `drawn` a box of `size` at `at` covers.
pub fn covered((x, y): (i32, i32), (w, h): (i32, i32), drawn: &[(i32, i32)]) -> usize {
    drawn.iter().filter(|&&(px, py)| (x..=x + w).contains(&px) && (y..=y + h).contains(&py)).count()
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
    let path: Vec<(i32, i32)> = points.iter().map(|p| chart.plotting_area().map_coordinate(p)).collect();
    legend.drawn_path(&path);
    chart.draw_series(LineSeries::new(points, color.stroke_width(stroke))).ok()?;
    legend.add(label, Mark::Line(color, stroke));
    Some(())
}

/// Every chart's legend: in the plot's corner where it covers least of
/// what was drawn ([`legend_corner`]), on a pale box, in the chart's type.
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
    const MARGIN: i32 = 10;
    const MARKS: i32 = 30;
    let (pw, ph) = area.dim_in_pixel();
    // The rows: each entry's lines, the entry's mark at its first; a label
    // wider than 60 % of the plot wrapped to that (on a phone one line made
    // the box as wide as the plot) where `wrap`. Their heights, the box's size.
    let room = (f64::from(pw) * 0.6 - f64::from(MARKS + 2 * MARGIN)).max(style.font.get_size() * 8.0);
    type Rows = Vec<(String, Option<Mark>, i32)>;
    let layout = |wrap: bool| -> Option<(Rows, (i32, i32))> {
        let mut rows: Rows = Vec::new();
        let (mut w, mut h) = (0, 0);
        for (label, mark) in &legend.entries {
            let (dx, _) = area.estimate_text_size(label, &style).ok()?;
            let lines = if wrap && f64::from(dx) > room {
                crate::scene::wrap(label, style.font.get_size(), room)
            } else {
                vec![label.clone()]
            };
            for (n, line) in lines.into_iter().enumerate() {
                let (dx, dy) = area.estimate_text_size(&line, &style).ok()?;
                w = w.max(dx as i32);
                h = h.max(top(rows.len()) + dy as i32);
                rows.push((line, (n == 0).then_some(*mark), dy as i32));
            }
        }
        Some((rows, (w + MARKS + 2 * MARGIN, h + 2 * MARGIN)))
    };
    let (ox, oy) = chart.plotting_area().get_base_pixel();
    let drawn: Vec<(i32, i32)> = legend.drawn.iter().map(|&(x, y)| (x - ox, y - oy)).collect();
    let plot = (pw as i32, ph as i32);
    // One line a label, or wrapped, whichever hides less of what was drawn
    // (one line on a tie).
    let (rows, (w, h), (x0, y0)) = [false, true]
        .into_iter()
        .filter_map(|wrap| {
            let (rows, size) = layout(wrap)?;
            let at = legend_corner(plot, size, &drawn);
            Some((rows, size, at))
        })
        .min_by_key(|(_, size, at)| covered(*at, *size, &drawn))?;
    let corners = [(x0, y0), (x0 + w, y0 + h)];
    area.draw(&Rectangle::new(corners, WHITE.mix(0.85).filled())).ok()?;
    area.draw(&Rectangle::new(corners, ShapeStyle::from(RGBColor(200, 200, 200)))).ok()?;
    let text_x = x0 + MARKS + MARGIN;
    for (i, (text, _, _)) in rows.iter().enumerate() {
        area.draw(&Text::new(text.as_str(), (text_x, y0 + MARGIN + top(i)), style.clone())).ok()?;
    }
    for (i, &(_, mark, dy)) in rows.iter().enumerate() {
        let Some(mark) = mark else { continue };
        let line_top = y0 + MARGIN + top(i);
        let (x, y) = (x0 + MARGIN, (2 * line_top + dy) / 2);
        match mark {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_legend_takes_the_corner_that_covers_least() {
        let (plot, size) = ((300, 200), (200, 40));
        // Nothing drawn: upper left, as plotters puts it.
        assert_eq!(legend_corner(plot, size, &[]), (5, 5));
        // A roofline on a phone, its legend two thirds of the plot's width: a
        // slope from the lower left up to a flat roof along the top.
        let mut l = Legend::new();
        l.drawn_path(&[(0, 200), (150, 10), (300, 10)]);
        assert!(l.drawn.windows(2).all(|w| (w[0].0 - w[1].0).abs() <= 4 && (w[0].1 - w[1].1).abs() <= 4));
        assert_eq!(legend_corner(plot, size, &l.drawn), (95, 155), "the empty lower right, under the roof");
        // A line along the bottom too: the corner covering least of it all.
        l.drawn_path(&[(100, 175), (290, 175)]);
        let at = legend_corner(plot, size, &l.drawn);
        let hides = |c| covered(c, size, &l.drawn);
        assert!([(5, 5), (95, 5), (95, 155), (5, 155)].iter().all(|&c| hides(at) <= hides(c)), "{at:?}");
        assert_ne!(at, (95, 155));
        // A plot smaller than the box: still inside its corner.
        assert_eq!(legend_corner((50, 20), size, &[]), (5, 5));
        // A point mapped off the plot (a log axis's 0): no overflow, and only
        // the points near the plot are kept.
        let mut far = Legend::new();
        far.drawn_path(&[(i32::MIN, 100), (100, 100), (i32::MAX, i32::MIN)]);
        assert!(!far.drawn.is_empty() && far.drawn.iter().all(|&(x, y)| x.abs() < 1 << 20 && y.abs() < 1 << 20));
    }
}
