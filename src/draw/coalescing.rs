//! One warp's loads → scene: the 32 lanes on top, below them every burst
//! section the warp touches (one transaction each) with its elements, the
//! requested ones coloured, and a line from each lane to its element.

use crate::scene::{Align, Rgba, Scene, Theme};
use crate::sim::coalescing::{Access, LANES};

pub fn lane_color(l: usize) -> Rgba {
    // Hues around the wheel so neighbouring lanes differ.
    let h = (l * 11 % LANES) as f32 / LANES as f32;
    let (r, g, b) = hsv(h, 0.65, 0.85);
    Rgba::rgb(r, g, b)
}

fn hsv(h: f32, s: f32, v: f32) -> (u8, u8, u8) {
    let i = (h * 6.0).floor();
    let f = h * 6.0 - i;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - f * s), v * (1.0 - (1.0 - f) * s));
    let (r, g, b) = match i as i32 % 6 {
        0 => (v, t, p),
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        _ => (v, p, q),
    };
    ((r * 255.0) as u8, (g * 255.0) as u8, (b * 255.0) as u8)
}

/// The texts a drawing needs, translated by the caller: `lanes` labels the
/// row of lanes, `skipped(n)` a gap of `n` sections not touched between two
/// rows, `more(n)` the row standing for `n` touched sections not drawn.
pub struct Labels<'a> {
    pub lanes: &'a str,
    pub skipped: &'a dyn Fn(u64) -> String,
    pub more: &'a dyn Fn(u64) -> String,
}

/// How tall the drawing may get (CSS pixels, × the theme's text scale):
/// below the smallest box a stage gets at 1024 × 768 (45 % of the screen's
/// height, `ui::kit::panel::fit`), so it is never scaled down and its text
/// keeps its size, projected too.
pub const MAX_HEIGHT: f64 = 225.0;

/// One row under the lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Row {
    /// A touched section (its index), one transaction.
    Section(u64),
    /// A gap of sections not touched.
    Skipped(u64),
    /// Touched sections not drawn (how many), the rows that don't fit.
    More(u64),
}

/// The rows for `sections` (sorted, distinct): each with its gap before it,
/// or, when they don't fit in `room` (row heights from `height`), the first
/// ones that do, a [`Row::More`] row, and the last section.
fn rows(sections: &[u64], room: f64, height: impl Fn(Row) -> f64) -> Vec<Row> {
    let with_gaps = |secs: &[u64]| {
        let mut out = Vec::new();
        for (i, &s) in secs.iter().enumerate() {
            if i > 0 && s > secs[i - 1] + 1 {
                out.push(Row::Skipped(s - secs[i - 1] - 1));
            }
            out.push(Row::Section(s));
        }
        out
    };
    let total = |rows: &[Row]| rows.iter().map(|&r| height(r)).sum::<f64>();
    let all = with_gaps(sections);
    if total(&all) <= room || sections.len() < 3 {
        return all;
    }
    let last = sections[sections.len() - 1];
    let mut best = vec![Row::Section(sections[0]), Row::More(sections.len() as u64 - 2), Row::Section(last)];
    for k in 2..sections.len() - 1 {
        let mut rows = with_gaps(&sections[..k]);
        rows.push(Row::More((sections.len() - 1 - k) as u64));
        rows.push(Row::Section(last));
        if total(&rows) > room {
            break;
        }
        best = rows;
    }
    best
}

pub fn draw(a: &Access, th: &Theme, width: f64, labels: &Labels) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let font = 12.0 * th.text_scale;
    let label_w = 86.0 * th.text_scale;
    let avail = width - 2.0 * pad - label_w;
    let lane_w = (avail / LANES as f64).min(30.0 * th.text_scale);
    let mut scene = Scene::new(width, 0.0, th.bg);
    // Lane numbers inside the lanes when they fit at a legible size, else
    // every few lanes above the row (the lines to the bursts leave below).
    let small = th.min_text();
    let in_cell = (lane_w * 0.42).min(13.0 * th.text_scale);
    let every = if in_cell >= small { 0 } else { crate::draw::labels::tick_every(lane_w, small) };
    let lane_y = pad + if every == 0 { 0.0 } else { small * 1.4 };
    let lane_x0 = pad + label_w + (avail - lane_w * LANES as f64) / 2.0;
    scene.text(pad, lane_y + lane_w / 2.0, labels.lanes, font, th.muted, Align::Left, false);
    for l in 0..LANES {
        let x = lane_x0 + l as f64 * lane_w;
        scene.rect(x + 1.0, lane_y, lane_w - 2.0, lane_w, Some(lane_color(l)), None);
        if every == 0 {
            scene.text(x + lane_w / 2.0, lane_y + lane_w / 2.0, l.to_string(), in_cell, th.bg, Align::Center, true);
        } else if l % every == 0 {
            scene.text(x + lane_w / 2.0, lane_y - small * 0.7, l.to_string(), small, th.muted, Align::Center, false);
        }
    }
    let per = (a.p.section / a.p.elem_bytes).max(1);
    let cell = avail / per as f64;
    let row_h = (20.0 * th.text_scale).round();
    let mut y = lane_y + lane_w + 46.0 * th.text_scale;
    let height = |r: Row| match r {
        Row::Section(_) | Row::More(_) => row_h + 4.0,
        Row::Skipped(_) => row_h * 0.8,
    };
    let plan = rows(&a.sections, MAX_HEIGHT * th.text_scale - y - pad, height);
    let shown: Vec<u64> = plan.iter().filter_map(|r| if let Row::Section(s) = r { Some(*s) } else { None }).collect();
    let mut targets: Vec<(usize, f64, f64)> = Vec::new();
    let mut more_y = None;
    for &row in &plan {
        match row {
            Row::Skipped(n) => {
                let text = (labels.skipped)(n);
                scene.text(pad + label_w + avail / 2.0, y + row_h * 0.3, text, font, th.muted, Align::Center, false);
            }
            Row::More(n) => {
                more_y = Some(y);
                scene.rect(pad + label_w, y, avail, row_h, None, Some((th.grid, 1.0 * th.line_scale)));
                let text = (labels.more)(n);
                scene.text(pad + label_w + avail / 2.0, y + row_h / 2.0, text, font, th.fg, Align::Center, false);
            }
            Row::Section(sec) => {
                let base = sec * a.p.section;
                scene.text(pad, y + row_h / 2.0, format!("0x{base:x}"), font, th.fg, Align::Left, false);
                scene.rect(pad + label_w, y, avail, row_h, Some(th.waiting), Some((th.grid, 1.0 * th.line_scale)));
                for (l, &addr) in a.addrs.iter().enumerate() {
                    if addr / a.p.section == sec {
                        let e = (addr - base) / a.p.elem_bytes;
                        let x = pad + label_w + e as f64 * cell;
                        scene.rect(x, y, cell.max(1.5), row_h, Some(lane_color(l)), None);
                        targets.push((l, x + cell.max(1.5) / 2.0, y));
                    }
                }
                if cell >= 6.0 {
                    for e in 1..per {
                        let x = pad + label_w + e as f64 * cell;
                        scene.line(x, y, x, y + row_h, th.bg, 0.75);
                    }
                }
            }
        }
        y += height(row);
    }
    // A lane whose section isn't drawn points at the row standing for it,
    // where its element sits in its own section.
    if let Some(my) = more_y {
        for (l, &addr) in a.addrs.iter().enumerate() {
            if !shown.contains(&(addr / a.p.section)) {
                let e = (addr % a.p.section) / a.p.elem_bytes;
                targets.push((l, pad + label_w + (e as f64 + 0.5) * cell, my));
            }
        }
    }
    for (l, x, ty) in targets {
        let lx = lane_x0 + l as f64 * lane_w + lane_w / 2.0;
        scene.line(lx, lane_y + lane_w, x, ty, lane_color(l).mix(th.bg, 0.2), 1.0 * th.line_scale);
    }
    scene.height = y + pad;
    scene
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::coalescing::{Params, Pattern};

    fn access(pattern: Pattern, stride: u64) -> Access {
        Access::new(Params { elem_bytes: 4, pattern, stride, offset: 0, rowlen: 1024, section: 128, seed: 1 })
    }

    fn scene(a: &Access, th: &Theme, width: f64) -> Scene {
        let labels = Labels { lanes: "Lanes-label", skipped: &|n| format!("{n} skipped"), more: &|n| format!("+{n}") };
        draw(a, th, width, &labels)
    }

    #[test]
    fn no_text_under_the_modes_smallest_at_any_width() {
        let a = access(Pattern::Stride, 2);
        super::super::each_theme_and_width(|th, width| {
            let s = scene(&a, th, width);
            assert!(s.smallest_text(0.0).unwrap() >= th.min_text(), "{width} {}", th.min_text());
            assert!(s.texts().contains(&"0"), "{width} {}", th.min_text());
        });
    }

    /// Slide 36 (a column, random positions: 32 sections): the drawing fits
    /// the smallest stage box of a 1024 × 768 screen (45 % of its height, see
    /// `measure_box` in `ui::kit::panel::fit`), so it is shown unscaled and
    /// its smallest text, as seen, is the mode's smallest: 18 px projected,
    /// 12 px on a screen. (It was 32 rows, ~1,200 px tall projected, scaled
    /// down to 3.2 px text.)
    #[test]
    fn slide_36_is_readable_projected_and_on_a_screen() {
        let smallest_box = (0.45 * 768.0_f64).floor();
        for a in [access(Pattern::Column, 1), access(Pattern::Random, 1), access(Pattern::Stride, 32)] {
            assert_eq!(a.transactions(), 32);
            super::super::each_theme_and_width(|th, width| {
                let s = scene(&a, th, width);
                let shown = s.smallest_text(0.0).unwrap() * (smallest_box / s.height).min(1.0);
                assert!(shown >= th.min_text(), "{:?} at {width}: {shown:.1} px, {:.0} px tall", a.p.pattern, s.height);
                assert!(s.height <= MAX_HEIGHT * th.text_scale + 0.5, "{width}: {}", s.height);
            });
        }
    }

    #[test]
    fn one_row_per_transaction_or_a_row_standing_for_the_rest() {
        for (stride, rows) in [(1, 1), (2, 2), (32, 32)] {
            let a = access(Pattern::Stride, stride);
            for th in [Theme::normal(), Theme::present()] {
                let s = scene(&a, &th, 900.0);
                let labels = s.texts().iter().filter(|t| t.starts_with("0x")).count() as u64;
                let more: u64 = s.texts().iter().filter_map(|t| t.strip_prefix('+')?.parse::<u64>().ok()).sum();
                assert_eq!(labels + more, a.transactions());
                assert_eq!(labels + more, rows);
                assert_eq!(more > 0, rows == 32, "only the long case is cut");
                assert!(labels >= 3.min(rows), "the first sections and the last are drawn");
                assert!(s.texts().contains(&"Lanes-label"), "the label given is drawn");
                // The last section is always drawn, whatever is left out.
                let last = format!("0x{:x}", a.sections.last().unwrap() * a.p.section);
                assert!(s.texts().contains(&last.as_str()));
            }
        }
    }

    /// Every lane keeps its line: to its element, or to the row standing for
    /// its section when the section isn't drawn.
    #[test]
    fn every_lane_has_its_line() {
        for a in [access(Pattern::Column, 1), access(Pattern::Random, 1), access(Pattern::Stride, 1)] {
            let s = scene(&a, &Theme::present(), 900.0);
            let lines = s
                .shapes
                .iter()
                .filter(|sh| matches!(sh, crate::scene::Shape::Line { width, .. } if *width == 2.0))
                .count();
            assert_eq!(lines, LANES, "{:?}", a.p.pattern);
        }
    }
}
