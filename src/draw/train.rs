//! A training step's memory timeline → scene: one bar a point of the step
//! (start, each block's forward, the loss, each block's backward, the
//! embedding's gradient, the optimizer, zero_grad), stacked by what holds the
//! memory (parameters, AdamW's state, gradients, saved activations with the
//! T×T scores apart, the operator's transient); the GPU's capacity as a line,
//! the peak marked, the player's position as a cursor (later points faded).

use crate::scene::{text_width, Align, Rgba, Scene, Theme};
use crate::sim::train::memory::{Alloc, Point};

/// Every text is at least this size × the theme's text scale.
pub const MIN_TEXT: f64 = 12.0;

/// The words drawn (translated by the caller).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labels<'a> {
    /// The three phases' names: forward, backward, optimizer.
    pub phases: [&'a str; 3],
    /// "peak {gb} GB" already filled in.
    pub peak: &'a str,
    /// "{gpu}: {gb} GB" already filled in ("" for no line).
    pub capacity: &'a str,
    /// The y axis's name ("GB allocated").
    pub axis: &'a str,
}

impl Labels<'static> {
    pub const PLAIN: Labels<'static> = Labels {
        phases: ["forward", "backward", "optimizer"],
        peak: "peak",
        capacity: "H100: 80 GB",
        axis: "GB allocated",
    };
}

/// The colours of the parts, bottom to top (the legend reads the same).
pub fn part_colors(th: &Theme) -> [Rgba; 6] {
    [th.muted.mix(th.bg, 0.45), th.weight, th.a_color, th.done, th.busy_hot, th.busy]
}

fn parts(a: &Alloc) -> [f64; 6] {
    [a.params, a.optimizer, a.grads, a.activations, a.scores, a.transient]
}

/// The scene: `points` of the timeline, the cursor at `t`, the GPU's
/// capacity in bytes (0: none drawn).
pub fn draw(points: &[(Point, Alloc)], t: usize, capacity: f64, th: &Theme, width: f64, l: &Labels) -> Scene {
    let k = th.text_scale;
    let font = MIN_TEXT * k;
    let height = (width * 0.5).clamp(220.0 * k.min(1.3), 380.0 * k);
    let mut s = Scene::new(width, height, th.bg);
    let left = text_width("000", font) + font * 2.2;
    // A row over the plot for the axis's name (left) and the GPU's capacity
    // (right), then the peak's label just over the bars.
    let (row, top, bottom, right) = (font * 0.9, font * 3.3, font * 2.6, 8.0);
    let (pw, ph) = ((width - left - right).max(10.0), (height - top - bottom).max(10.0));
    let peak_i = (0..points.len()).max_by(|&a, &b| points[a].1.total().total_cmp(&points[b].1.total())).unwrap_or(0);
    let peak = points.get(peak_i).map_or(0.0, |p| p.1.total());
    // The GPU's capacity sets the scale only when it is near the peak; far
    // above it (a small model on a large GPU), it is named at the top instead
    // of squashing the bars flat.
    let cap_on_scale = capacity > 0.0 && capacity <= 2.5 * peak;
    let y_max = (if cap_on_scale { peak.max(capacity) * 1.12 } else { peak * 1.18 }).max(1.0);
    let y_of = |b: f64| top + ph - ph * (b / y_max);
    // Axis and its ticks (GB, decimal).
    let step_gb = nice_step(y_max / 1e9 / 4.0);
    let mut gb = 0.0;
    while gb * 1e9 <= y_max {
        let y = y_of(gb * 1e9);
        s.line(left, y, left + pw, y, th.grid, 1.0);
        s.text(left - 6.0, y, format_gb(gb), font, th.muted, Align::Right, false);
        gb += step_gb;
    }
    s.text(4.0, row, l.axis, font, th.muted, Align::Left, false);
    // Bars.
    let n = points.len().max(1) as f64;
    let bw = pw / n;
    let colors = part_colors(th);
    for (i, (_, a)) in points.iter().enumerate() {
        let x = left + i as f64 * bw;
        // Step 0 (nothing run yet) previews the whole step unfaded.
        let faded = t > 0 && i > t;
        let mut acc = 0.0;
        for (j, v) in parts(a).iter().enumerate() {
            if *v <= 0.0 {
                continue;
            }
            let (y0, y1) = (y_of(acc), y_of(acc + v));
            let c = if faded { colors[j].mix(th.bg, 0.55) } else { colors[j] };
            s.rect(x + bw * 0.08, y1, (bw * 0.84).max(1.0), y0 - y1, Some(c), None);
            acc += v;
        }
    }
    // Phases under the bars.
    let phase_of = |p: &Point| match p {
        Point::Embedding | Point::Forward(_) | Point::Head => 0,
        Point::HeadBackward | Point::Backward(_) | Point::EmbeddingBackward => 1,
        Point::Optimizer => 2,
        Point::Start | Point::End => 3,
    };
    // Each phase's name under its bracket, centred; one too long for its
    // bracket (the optimizer's, a bar or two) ends at the bracket's right
    // end, and the name before it moves left within its own bracket to
    // make room; where there is none, it goes unsaid.
    let y = top + ph + font * 0.8;
    let gap = font * 1.5;
    // (left end of the name, its width, the bracket's left end, the name).
    let mut names: Vec<(f64, f64, f64, &str)> = Vec::new();
    for (ph_i, name) in l.phases.iter().enumerate() {
        let idx: Vec<usize> = (0..points.len()).filter(|&i| phase_of(&points[i].0) == ph_i).collect();
        if let (Some(&a), Some(&b)) = (idx.first(), idx.last()) {
            let (x0, x1) = (left + a as f64 * bw, left + (b + 1) as f64 * bw);
            s.line(x0 + 2.0, y - font * 0.5, x1 - 2.0, y - font * 0.5, th.muted, 1.5);
            let w = text_width(name, font);
            let from = if w <= x1 - x0 { (x0 + x1 - w) / 2.0 } else { x1 - w };
            names.push((from, w, x0, name));
        }
    }
    for i in 1..names.len() {
        let (from, _, _, _) = names[i];
        let (prev_from, prev_w, prev_x0, _) = names[i - 1];
        if prev_from + prev_w + gap > from {
            names[i - 1].0 = (from - gap - prev_w).max(prev_x0);
        }
    }
    let mut said_to = f64::NEG_INFINITY;
    for &(from, w, _, name) in &names {
        let label = if from >= said_to + gap {
            said_to = from + w;
            name.to_string()
        } else {
            String::new()
        };
        s.text(from, y + font * 0.45, label, font, th.fg, Align::Left, false);
    }
    // The GPU's capacity: a line across the bars, named in the top row with
    // a sample of it (never over the bars); far above the peak, only named.
    let red = Rgba::rgb(200, 30, 30);
    if cap_on_scale {
        let y = y_of(capacity);
        s.line(left, y, left + pw, y, red, 2.0 * th.line_scale);
        let x = width - right - 4.0 - text_width(l.capacity, font) * 1.2;
        s.line(x - font * 2.2, row, x - font * 0.5, row, red, 2.0 * th.line_scale);
        s.text(width - right - 4.0, row, l.capacity, font, red, Align::Right, true);
    } else if capacity > 0.0 {
        s.text(width - right - 4.0, row, format!("{} ↑", l.capacity), font, red, Align::Right, true);
    }
    // The peak.
    let px = left + (peak_i as f64 + 0.5) * bw;
    let py = y_of(peak);
    s.line(px, py - font * 0.3, px, top - font * 0.2, th.fg, 1.5 * th.line_scale);
    let align = if px > left + pw * 0.6 { Align::Right } else { Align::Left };
    let tx = if align == Align::Right { px - 4.0 } else { px + 4.0 };
    s.text(tx, top - font * 0.4, l.peak, font, th.fg, align, true);
    // The cursor (from step 1 on).
    if t > 0 {
        let cx = left + (t.min(points.len().saturating_sub(1)) as f64 + 0.5) * bw;
        s.line(cx, top, cx, top + ph, th.fg.mix(th.bg, 0.3), 2.0 * th.line_scale);
    }
    s
}

fn nice_step(x: f64) -> f64 {
    let x = x.max(1e-6);
    let p = 10f64.powf(x.log10().floor());
    let m = x / p;
    p * if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    }
}

fn format_gb(gb: f64) -> String {
    if gb >= 10.0 || gb == 0.0 || (gb - gb.round()).abs() < 1e-9 {
        format!("{gb:.0}")
    } else {
        format!("{gb:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::train::memory::Timeline;
    use crate::sim::train::{preset, Config};
    use crate::sim::Steppable;

    /// The highest point any bar reaches.
    fn bars_top(s: &Scene) -> f64 {
        s.shapes
            .iter()
            .filter_map(|sh| match sh {
                crate::scene::Shape::Rect { y, .. } => Some(*y),
                _ => None,
            })
            .fold(f64::MAX, f64::min)
    }

    fn points(size: &str) -> (Timeline, Vec<(Point, Alloc)>) {
        let tl = Timeline::new(Config::assignment(preset(size).unwrap().shape, 512));
        let pts = (0..=tl.steps()).map(|t| (tl.point(t), tl.alloc(t))).collect();
        (tl, pts)
    }

    #[test]
    fn the_tallest_bar_is_the_peak_and_text_stays_readable() {
        for (size, present) in [("small", false), ("2.7b", true)] {
            let (tl, pts) = points(size);
            let th = if present { Theme::present() } else { Theme::normal() };
            let s = draw(&pts, pts.len() - 1, 80e9, &th, 900.0, &Labels::PLAIN);
            assert!(s.smallest_text(0.1).unwrap() >= MIN_TEXT * th.text_scale - 1e-9);
            // The highest bar top is the peak's height on the axis.
            let top = bars_top(&s);
            assert!(top.is_finite() && top >= 0.0);
            assert!(tl.peak().0 > 0.0);
            assert!(s.texts().contains(&"forward") && s.texts().contains(&"backward"));
        }
    }

    #[test]
    fn a_small_model_on_a_large_gpu_is_not_squashed() {
        let (tl, pts) = points("small");
        let s = draw(&pts, 0, 141e9, &Theme::normal(), 900.0, &Labels::PLAIN);
        // The tallest bar spans most of the plot; the capacity is named, not drawn.
        let top = bars_top(&s);
        assert!(top < s.height * 0.3, "{top} of {}", s.height);
        assert!(s.texts().iter().any(|t| t.ends_with('↑')));
        assert!(tl.peak().0 < 10e9);
    }

    /// The capacity's name, the axis's and the peak's never run into each
    /// other or into the bars, on a screen, projected and on a phone, the
    /// capacity on the scale (fits or not) or far above it.
    #[test]
    fn labels_never_overlap_each_other_or_the_bars() {
        let labels = Labels { capacity: "H200: 141 GB", peak: "peak 123.4 GB", ..Labels::PLAIN };
        for size in ["small", "xl", "2.7b"] {
            let (_, pts) = points(size);
            for (th, width) in [(Theme::normal(), 900.0), (Theme::present(), 1000.0), (Theme::normal(), 340.0)] {
                for cap in [141e9, 80e9, 24e9, 0.0] {
                    let s = draw(&pts, pts.len() / 2, cap, &th, width, &labels);
                    let boxes = s.text_boxes();
                    for (i, a) in boxes.iter().enumerate() {
                        assert!(a.1 >= -0.5 && a.3 <= s.width + 0.5, "{size} {width} {cap}: {a:?} outside");
                        for b in &boxes[i + 1..] {
                            let apart = a.3 <= b.1 || b.3 <= a.1 || a.4 <= b.2 || b.4 <= a.2;
                            assert!(apart, "{size} {width} {cap}: {a:?} over {b:?}");
                        }
                    }
                    // Nothing written over the plot but the phases under it.
                    let plot_top = bars_top(&s);
                    for b in boxes.iter().filter(|b| b.0 == labels.capacity || b.0.ends_with('↑') || b.0 == labels.axis)
                    {
                        assert!(b.4 <= plot_top + 0.5, "{size} {width} {cap}: {b:?} below the bars' top {plot_top}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_phone_keeps_the_whole_drawing() {
        let (_, pts) = points("small");
        let th = Theme::normal();
        let s = draw(&pts, 3, 80e9, &th, 340.0, &Labels::PLAIN);
        assert!(s.width <= 340.0);
        assert!(s.smallest_text(0.1).unwrap() >= 10.0);
    }
}
