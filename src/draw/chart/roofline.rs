//! The roofline chart: the memory roof, the compute roof, the ridge point,
//! and the kernels as labelled dots (pure: any plotters backend).

use super::look::{mesh, Look, MIN_FONT};
use crate::draw::labels::{clear_of_dots, clear_of_roof, group_spots, place_labels_below, right_of_dots, Block};
use plotters::coord::Shift;
use plotters::prelude::*;

/// A dot on the roofline chart.
#[derive(Clone, Debug, PartialEq)]
pub struct RoofDot {
    pub label: String,
    pub intensity: f64,
    pub tflops: f64,
    pub selected: bool,
}

/// A roofline's contents, in the page's language: what a topic computes once
/// for its panel's chart and its static snapshot.
#[derive(Clone, Debug, PartialEq)]
pub struct RooflineSpec {
    /// The compute roof (TFLOP/s) and the memory roof's slope (TB/s).
    pub peak: f64,
    pub bandwidth: f64,
    pub dots: Vec<RoofDot>,
    pub x_desc: String,
    pub ridge_label: String,
}

/// What a roofline chart shows, at its size in CSS pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct Roofline<'a> {
    /// The compute roof (TFLOP/s) and the memory roof's slope (TB/s).
    pub peak: f64,
    pub bandwidth: f64,
    pub dots: &'a [RoofDot],
    pub x_desc: &'a str,
    pub width: f64,
    pub height: f64,
    pub present: bool,
    /// Written beside the ridge point's vertical line (nothing if empty).
    pub ridge_label: &'a str,
}

/// A dot's (or a spot's dots') label: its lines, colour and the dot.
type GroupLabel = (Vec<String>, RGBColor, (i32, i32));

/// The chart drawn on `root` (the canvas's size in device pixels, `look.dpr`
/// per CSS pixel).
pub fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, p: &Roofline, look: Look) -> Option<()> {
    let dpr = look.dpr;
    root.fill(&WHITE).ok()?;
    let k = look.k;
    let (x0, x1) = (0.05, 1e5);
    let (y0, y1) = ((x0 * p.bandwidth).min(p.peak / 1e4), p.peak * 3.0);
    // A short chart (a phone) gets a decade more below the roof: room for
    // the labels stacked under the low-intensity dots, clear of the x axis.
    // Projected, the larger type needs the same room.
    let y0 = if p.height < 300.0 || p.present { y0 / 10.0 } else { y0 };
    // Room on the right for the last tick ("10000") to be drawn whole.
    let mut builder = look.builder(root, 12.0, 36.0, 60.0);
    builder.margin_right((30.0 * dpr * k) as u32);
    let mut chart = builder.build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale()).ok()?;
    mesh!(chart, look)
        .x_desc(p.x_desc)
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
    let ridge_w = text_w(p.ridge_label);
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
    // How far a label may move right past dots in its way on its row.
    let reach = (60.0 * dpr * k) as i32;
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
        // (less the room a label may move right past dots in its way).
        let room = (right - x - r as i32 - reach).max((160.0 * dpr * k) as i32) as f64;
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
    // And off every dot (the largest's radius, and a pixel).
    let dot_r = (7.0 * dpr * k) as i32 + 1;
    let clear = |b: Block| clear_of_roof(roof, b) && clear_of_dots(&spots, dot_r, b);
    // A label with a dot in the way on its row may move right past it
    // (memory-bound dots crowd the slope's foot), up to a few dots' width.
    let nudge = |b: Block| right_of_dots(&spots, dot_r, b, reach, right);
    let placed = place_labels_below(&boxes, row, (top, floor), &clear, &nudge);
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
        if (ey - dy).abs() > 2 * row || ex - dx > (20.0 * dpr * k) as i32 {
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
