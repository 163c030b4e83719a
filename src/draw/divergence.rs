//! Divergence timeline → scene: one row per warp, one column per issue step
//! (binned when there are many), each issued instruction a bar whose height is
//! the fraction of active lanes, coloured by branch; below it, the 32 lanes of
//! the instruction issued in the current step.

use crate::scene::{Align, Rgba, Scene, Shape, Theme};
use crate::sim::divergence::{Divergence, Issue, Part, LANES};

pub const MAX_COLUMNS: usize = 400;

pub fn part_color(p: Part) -> Rgba {
    match p {
        Part::Then => Rgba::rgb(40, 110, 220),
        Part::Else => Rgba::rgb(215, 110, 200),
        Part::After => Rgba::rgb(110, 118, 132),
    }
}

/// One timeline cell showing issue `k`: its slot colour, its bar colour
/// (both paler for a step still to come) and the bar's height, the active
/// lanes' share of `full` pixels (at least one when any lane is active).
fn cell_look(issue: &Issue, k: usize, step: u64, full: usize, th: &Theme) -> (Rgba, Rgba, usize) {
    let active = issue.mask.count_ones() as usize;
    let color = part_color(issue.part);
    let (slot, bar) = if (k as u64) >= step {
        (color.mix(th.bg, 0.9), color.mix(th.bg, 0.7))
    } else {
        (color.mix(th.bg, 0.72), color)
    };
    let h = if active == 0 { 0 } else { ((full * active) as f64 / LANES as f64).round().max(1.0) as usize };
    (slot, bar, h)
}

/// The timeline as pixels: `cols` columns (each a bin of issue steps) by
/// `row_px` rows per warp. In a warp's rows: a transparent row above and below,
/// the waiting colour behind, and for the (last) instruction it issued in a
/// column, the slot tinted and the active lanes' share solid from the bottom,
/// paler for steps still to come. The size is bounded by [`MAX_COLUMNS`] and
/// the warps whatever the run's length, and one pass over the schedule fills it.
pub fn timeline_pixels(d: &Divergence, step: u64, th: &Theme, cols: usize, row_px: usize) -> Vec<u8> {
    let warps = d.params().warps;
    let schedule = d.schedule();
    let total = schedule.len().max(1);
    let stride = cols * 4;
    // The last issue of each warp in each column.
    let mut last: Vec<Option<usize>> = vec![None; warps * cols];
    for (k, issue) in schedule.iter().enumerate() {
        last[issue.warp * cols + k * cols / total] = Some(k);
    }
    let full = row_px - 4;
    let rgba = |c: Rgba| [c.0, c.1, c.2, c.3];
    let waiting = rgba(th.waiting);
    let mut px = vec![0u8; stride * warps * row_px];
    // Written row by row, in memory order (this runs at every step): first
    // each column's slot colour, bar colour and the row its bar starts at.
    type Cell = ([u8; 4], [u8; 4], usize);
    let mut cells: Vec<Option<Cell>> = vec![None; cols];
    for (w, block) in px.chunks_exact_mut(stride * row_px).enumerate() {
        for (cell, k) in cells.iter_mut().zip(&last[w * cols..(w + 1) * cols]) {
            *cell = k.map(|k| {
                let (slot, bar, h) = cell_look(&schedule[k], k, step, full, th);
                (rgba(slot), rgba(bar), 2 + full - h)
            });
        }
        // Rows 0 and row_px − 1 stay transparent; 1 and row_px − 2 are
        // always the waiting colour.
        for (y, row) in block.chunks_exact_mut(stride).enumerate().take(row_px - 1).skip(1) {
            let in_slot = (2..2 + full).contains(&y);
            for (p, cell) in row.chunks_exact_mut(4).zip(&cells) {
                let c = match cell {
                    Some((slot, bar, bar_from)) if in_slot => {
                        if y >= *bar_from {
                            bar
                        } else {
                            slot
                        }
                    }
                    _ => &waiting,
                };
                p.copy_from_slice(c);
            }
        }
    }
    px
}

/// `warp_label(w)` names warp `w`'s row and `lanes` the row of lanes (both
/// translated by the caller).
pub fn draw(
    d: &Divergence,
    step: u64,
    th: &Theme,
    width: f64,
    caption: &str,
    warp_label: &dyn Fn(usize) -> String,
    lanes: &str,
) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let font = 13.0 * th.text_scale;
    let label_w = 86.0 * th.text_scale;
    let warps = d.params().warps;
    let total = d.schedule().len();
    let row_h = if warps <= 8 {
        30.0
    } else if warps <= 16 {
        20.0
    } else {
        13.0
    } * th.text_scale.sqrt();
    // Whole pixel rows per warp: the timeline is a bitmap of them.
    let row_px = row_h.round().max(6.0) as usize;
    let row_h = row_px as f64;
    let avail = width - 2.0 * pad - label_w;
    let cols = total.clamp(1, MAX_COLUMNS);
    let col_w = avail / cols as f64;
    let mut scene = Scene::new(width, 0.0, th.bg);
    // No text under the mode's smallest: a long caption wraps rather than shrinks.
    let small = th.min_text();
    let cap_h = scene.text_wrapped(pad, pad + font * 0.7, caption, font, width - 2.0 * pad, th.fg, true);
    let top = pad + cap_h + font * 0.55;
    let label = (font * 0.9).max(small);
    for w in 0..warps {
        let y = top + w as f64 * row_h;
        scene.text(pad, y + row_h / 2.0, warp_label(w), label, th.fg, Align::Left, d.divergent(w));
        if d.divergent(w) {
            // A divergent warp: a two-colour mark (if / else) after its name.
            let m = 7.0 * th.text_scale;
            let mx = pad + label_w - 2.0 * m - 6.0;
            scene.rect(mx, y + row_h / 2.0 - m / 2.0, m, m, Some(part_color(Part::Then)), None);
            scene.rect(mx + m, y + row_h / 2.0 - m / 2.0, m, m, Some(part_color(Part::Else)), None);
        }
    }
    scene.shapes.push(Shape::Bitmap {
        x: pad + label_w,
        y: top,
        w: avail,
        h: warps as f64 * row_h,
        px_w: cols as u32,
        px_h: (warps * row_px) as u32,
        rgba: timeline_pixels(d, step, th, cols, row_px),
    });
    // Current step marker.
    if step >= 1 && total > 0 {
        let c = (step as usize - 1) * cols / total;
        let x = pad + label_w + c as f64 * col_w;
        scene.rect(
            x - 1.0,
            top - 3.0,
            col_w.max(1.0) + 2.0,
            warps as f64 * row_h + 6.0,
            None,
            Some((th.fg, 2.0 * th.line_scale)),
        );
    }
    // The lanes of the current instruction.
    let ly = top + warps as f64 * row_h + 16.0 * th.text_scale;
    let lane_w = ((width - 2.0 * pad - label_w) / LANES as f64).min(34.0 * th.text_scale);
    scene.text(pad, ly + lane_w / 2.0, lanes, label, th.muted, Align::Left, false);
    let issue = d.issue_at(step);
    // Lane numbers inside the lanes when they fit at a legible size, else
    // every few lanes under the row.
    let in_cell = (lane_w * 0.42).min(14.0 * th.text_scale);
    let every = if in_cell >= small { 0 } else { crate::draw::labels::tick_every(lane_w, small) };
    for l in 0..LANES {
        let x = pad + label_w + l as f64 * lane_w;
        let (fill, text) = match issue {
            Some(i) if i.mask & (1 << l) != 0 => (part_color(i.part), th.bg),
            Some(_) => (th.waiting, th.muted),
            None => (th.bg, th.muted),
        };
        scene.rect(x + 1.0, ly, lane_w - 2.0, lane_w, Some(fill), Some((th.grid, 1.0 * th.line_scale)));
        if every == 0 {
            scene.text(x + lane_w / 2.0, ly + lane_w / 2.0, l.to_string(), in_cell, text, Align::Center, false);
        } else if l % every == 0 {
            scene.text(
                x + lane_w / 2.0,
                ly + lane_w + small * 0.8,
                l.to_string(),
                small,
                th.muted,
                Align::Center,
                false,
            );
        }
    }
    scene.height = ly + lane_w + pad + if every == 0 { 0.0 } else { small * 1.5 };
    scene
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::divergence::Params;

    /// The notes' `tid < 100` over 4 warps, 10 steps in each branch.
    fn lecture_case() -> Divergence {
        Divergence::new(Params { warps: 4, cond: "tid<100".into(), then_steps: 10, else_steps: 10, after_steps: 0 })
    }

    #[test]
    fn no_text_under_the_modes_smallest_at_any_width() {
        // 960 × 540 embed (~630 px), phones (~320 px), projected (18 px).
        let d = lecture_case();
        super::super::each_theme_and_width(|th, width| {
            let cap = "Step 50 of 50: warp 3 runs the else branch with lanes 4 to 31 active";
            let s = draw(&d, 50, th, width, cap, &|w| format!("warp {w}"), "lanes");
            assert!(s.smallest_text(0.0).unwrap() >= th.min_text(), "{width} {}", th.min_text());
            // Lane 0 is always numbered, in its lane or under it.
            assert!(s.texts().contains(&"0"), "{width} {}", th.min_text());
        });
    }

    #[test]
    fn current_lanes_follow_the_mask() {
        let d = lecture_case();
        // The last step is warp 3's last else instruction: lanes 4..31 active.
        let s = draw(&d, 50, &Theme::normal(), 900.0, "x", &|w| format!("warp {w}"), "lanes");
        let lane_rects: Vec<_> = s
            .shapes
            .iter()
            .filter_map(|x| match x {
                crate::scene::Shape::Rect { fill: Some(f), h, w, .. } if (h - w).abs() < 3.0 && *h > 10.0 => Some(*f),
                _ => None,
            })
            .collect();
        let lanes = &lane_rects[lane_rects.len() - LANES..];
        assert!(lanes[..4].iter().all(|c| *c == Theme::normal().waiting));
        assert!(lanes[4..].iter().all(|c| *c == part_color(Part::Else)));
    }

    #[test]
    fn the_largest_run_is_one_bounded_bitmap() {
        let d = Divergence::new(Params {
            warps: 32,
            cond: "tid%2==0".into(),
            then_steps: 100,
            else_steps: 100,
            after_steps: 100,
        });
        assert_eq!(d.schedule().len(), 32 * 300);
        for step in [0, 1, 4800, 9600] {
            let s = draw(&d, step, &Theme::present(), 1100.0, "x", &|w| format!("warp {w}"), "lanes");
            assert!(s.shapes.len() <= 32 * 3 + 2 * LANES + 10, "{} shapes", s.shapes.len());
            let px: usize = s
                .shapes
                .iter()
                .map(|x| match x {
                    crate::scene::Shape::Bitmap { px_w, px_h, rgba, .. } => {
                        assert_eq!(rgba.len(), 4 * *px_w as usize * *px_h as usize);
                        *px_w as usize * *px_h as usize
                    }
                    _ => 0,
                })
                .sum();
            assert!(px <= MAX_COLUMNS * 32 * 16, "{px} pixels");
        }
    }

    /// The timeline painted cell by cell, column-wise (the plain reading of
    /// its description), against which the row-wise fill is checked.
    fn reference_pixels(d: &Divergence, step: u64, th: &Theme, cols: usize, row_px: usize) -> Vec<u8> {
        let warps = d.params().warps;
        let schedule = d.schedule();
        let total = schedule.len().max(1);
        let stride = cols * 4;
        let mut px = vec![0u8; stride * warps * row_px];
        let mut fill = |w: usize, c0: usize, c1: usize, y0: usize, y1: usize, col: Rgba| {
            for y in y0..y1 {
                let row = (w * row_px + y) * stride;
                for c in c0..c1 {
                    px[row + c * 4..row + c * 4 + 4].copy_from_slice(&[col.0, col.1, col.2, col.3]);
                }
            }
        };
        for w in 0..warps {
            fill(w, 0, cols, 1, row_px - 1, th.waiting);
        }
        let mut last: Vec<Option<usize>> = vec![None; warps * cols];
        for (k, issue) in schedule.iter().enumerate() {
            last[issue.warp * cols + k * cols / total] = Some(k);
        }
        let full = row_px - 4;
        for (cell, k) in last.iter().enumerate() {
            let Some(k) = *k else { continue };
            let (w, c) = (cell / cols, cell % cols);
            let (slot, bar, h) = cell_look(&schedule[k], k, step, full, th);
            fill(w, c, c + 1, 2, 2 + full - h, slot);
            fill(w, c, c + 1, 2 + full - h, 2 + full, bar);
        }
        px
    }

    #[test]
    fn timeline_pixels_match_the_cell_by_cell_painting() {
        for (warps, cond, then_steps, else_steps, after_steps) in [
            (1, "tid%2==0", 1, 1, 0),
            (4, "tid<100", 10, 10, 3),
            (32, "tid%3==1", 100, 100, 100),
            (7, "tid<0", 5, 2, 9),
        ] {
            let d = Divergence::new(Params { warps, cond: cond.into(), then_steps, else_steps, after_steps });
            let total = d.schedule().len() as u64;
            for th in [Theme::normal(), Theme::present()] {
                for (cols, row_px) in [(1, 6), (3, 14), (MAX_COLUMNS, 13), (total.max(1) as usize, 20)] {
                    for step in [0, 1, total / 3, total / 2 + 1, total] {
                        assert_eq!(
                            timeline_pixels(&d, step, &th, cols, row_px),
                            reference_pixels(&d, step, &th, cols, row_px),
                            "{warps} warps, {cond}, {cols}×{row_px}, step {step}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn timeline_pixels_show_the_active_share() {
        // One warp, tid%2==0, 1 + 1 steps: then (16 lanes), else (16 lanes).
        let d =
            Divergence::new(Params { warps: 1, cond: "tid%2==0".into(), then_steps: 1, else_steps: 1, after_steps: 0 });
        let th = Theme::normal();
        let (cols, row_px) = (2, 14);
        let px = timeline_pixels(&d, 1, &th, cols, row_px);
        let at = |c: usize, y: usize| {
            let o = (y * cols + c) * 4;
            Rgba(px[o], px[o + 1], px[o + 2], px[o + 3])
        };
        // Rows 0 and 13 transparent; 2..12 the slot (10 rows), its lower half the bar.
        assert_eq!(at(0, 0).3, 0);
        assert_eq!(at(0, 13).3, 0);
        assert_eq!(at(0, 1), th.waiting);
        assert_eq!(at(0, 2), part_color(Part::Then).mix(th.bg, 0.72));
        assert_eq!(at(0, 11), part_color(Part::Then), "step 1 issued: solid");
        assert_eq!(at(0, 6), part_color(Part::Then).mix(th.bg, 0.72));
        assert_eq!(at(0, 7), part_color(Part::Then));
        assert_eq!(at(1, 11), part_color(Part::Else).mix(th.bg, 0.7), "step 2 still to come: pale");
    }
}
