//! The log–log chart (and the growth chart: years against a logarithmic
//! "N×" axis) of a few lines, with a vertical marker (pure: any plotters
//! backend).

use super::look::{legend, line_series, mesh, rgb, Legend, Look};
use crate::scene::Rgba;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One line of a log–log chart.
#[derive(Clone, Debug, PartialEq)]
pub struct LogSeries {
    pub label: String,
    pub color: Rgba,
    pub points: Vec<(f64, f64)>,
}

/// What a log–log (or growth) chart shows.
#[derive(Clone, Debug, PartialEq)]
pub struct LogPlot<'a> {
    pub series: &'a [LogSeries],
    /// A vertical marker at this x (the current n).
    pub marker: f64,
    pub x_desc: &'a str,
    pub y_desc: &'a str,
    pub present: bool,
    /// A linear x axis (years), y still logarithmic and labelled "N×".
    pub growth: bool,
}

fn draw_growth<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, p: &LogPlot, look: Look) -> Option<()> {
    let dpr = look.dpr;
    root.fill(&WHITE).ok()?;
    let x1 = p.series.iter().flat_map(|s| s.points.iter().map(|q| q.0)).fold(1.0, f64::max);
    let y1 = p.series.iter().flat_map(|s| s.points.iter().map(|q| q.1)).fold(1.0, f64::max);
    // Room on the right for the last year's tick to be drawn whole.
    let mut builder = look.builder(root, 10.0, 44.0, 78.0);
    builder.margin_right((22.0 * dpr * look.k) as u32);
    let mut chart = builder.build_cartesian_2d(0f64..x1, (1f64..y1 * 1.5).log_scale()).ok()?;
    mesh!(chart, look)
        .x_desc(p.x_desc)
        .y_desc(p.y_desc)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}×"))
        .draw()
        .ok()?;
    let labels = lines(&mut chart, p, dpr)?;
    legend(&chart, &look, &labels)?;
    root.present().ok()
}

/// The plot's lines, each in its colour (thicker projected), and their legend.
fn lines<DB: DrawingBackend, CT: plotters::coord::CoordTranslate<From = (f64, f64)>>(
    chart: &mut ChartContext<'_, DB, CT>,
    p: &LogPlot,
    dpr: f64,
) -> Option<Legend> {
    let stroke = (if p.present { 4.0 } else { 2.0 } * dpr) as u32;
    let mut labels = Legend::new();
    for s in p.series {
        line_series(chart, s.points.clone(), rgb(s.color), stroke, &s.label, &mut labels)?;
    }
    Some(labels)
}

/// The chart drawn on `root` (its size in device pixels, `look.dpr` per CSS
/// pixel); `None` when a log axis has no range (no points, or a y ≤ 0).
pub fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, p: &LogPlot, look: Look) -> Option<()> {
    if p.growth {
        return draw_growth(root, p, look);
    }
    let dpr = look.dpr;
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
    let k = look.k;
    // Room on the left for "1000 GB" and the axis's name beside it (at 70
    // the name ran into the ticks).
    let mut builder = look.builder(root, 10.0, 36.0, 88.0);
    // The last tick's label ("1M") is centred on the right edge: room for its half.
    builder.margin_right((18.0 * look.dpr * k) as u32);
    let mut chart = builder.build_cartesian_2d((x0..x1).log_scale(), (y0 / 2.0..y1 * 2.0).log_scale()).ok()?;
    mesh!(chart, look)
        .x_desc(p.x_desc)
        .y_desc(p.y_desc)
        .x_label_formatter(&|x| crate::format::count_tick(*x))
        .y_label_formatter(&|y| crate::format::bytes(*y))
        .draw()
        .ok()?;
    let mut labels = lines(&mut chart, p, dpr)?;
    labels.drawn_path(&[chart.backend_coord(&(p.marker, y0 / 2.0)), chart.backend_coord(&(p.marker, y1 * 2.0))]);
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(p.marker, y0 / 2.0), (p.marker, y1 * 2.0)],
            RGBColor(208, 48, 10).stroke_width((2.0 * dpr * k) as u32),
        )))
        .ok()?;
    legend(&chart, &look, &labels)?;
    root.present().ok()
}
