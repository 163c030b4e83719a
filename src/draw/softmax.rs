//! Online softmax → scene: the input in rows of cells grouped in blocks
//! (processed, current, still to come), and once every block is processed a
//! bar under each value for its probability (the largest full height), in
//! room kept for them from the first step (the canvas does not grow at the
//! end of the run, so nothing under or beside it moves).

use crate::scene::{Align, Scene, Theme};
use crate::sim::softmax::OnlineSoftmax;

pub const PER_ROW: usize = 16;

/// Rows of values drawn at most. A longer input shows a window of rows
/// around the current block, under an overview strip of all the values, so
/// the canvas height (and the work per step) is bounded whatever `n`.
pub const MAX_ROWS: usize = 6;
/// Block boundaries are marked on the overview strip when blocks are at least
/// this many pixels wide there.
const TICK_MIN_PX: f64 = 6.0;

/// The rows drawn at `step`: `first..first + shown` of `rows`.
pub fn window(s: &OnlineSoftmax, step: u64, per_row: usize) -> (usize, usize) {
    let rows = s.x.len().div_ceil(per_row.max(1));
    if rows <= MAX_ROWS {
        return (0, rows);
    }
    // The current block's first row, after one row of what came before.
    let anchor = if step == 0 { 0 } else { s.block_range(step).start / per_row };
    (anchor.saturating_sub(1).min(rows - MAX_ROWS), MAX_ROWS)
}

pub fn draw(s: &OnlineSoftmax, step: u64, th: &Theme, width: f64) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let n = s.x.len();
    let per_row = PER_ROW.min(n.max(1));
    let cell = ((width - 2.0 * pad) / per_row as f64).min(64.0 * th.text_scale);
    let done_all = step as usize >= s.blocks();
    let probs = done_all.then(|| s.probabilities());
    let p_max = probs.as_ref().map_or(1.0, |p| p.iter().cloned().fold(f64::MIN_POSITIVE, f64::max));
    let bar_h = cell * 0.9;
    let row_h = cell + bar_h + 8.0;
    let current = (step >= 1).then(|| s.block_range(step));
    let mut scene = Scene::new(width, 0.0, th.bg);
    let font = (cell * 0.3).min(15.0 * th.text_scale);
    let (first, shown) = window(s, step, per_row);
    let lo = first * per_row;
    let hi = ((first + shown) * per_row).min(n);
    let mut top = pad;
    if hi - lo < n {
        top = overview(&mut scene, s, step, th, width, lo..hi) + 10.0;
    }
    for (idx, &v) in s.x.iter().enumerate().take(hi).skip(lo) {
        let (r, c) = (idx / per_row - first, idx % per_row);
        let x = pad + c as f64 * cell;
        let y = top + r as f64 * row_h;
        let block = idx / s.block;
        let fill = match &current {
            Some(cur) if cur.contains(&idx) => th.busy,
            _ if block < step as usize => th.done.mix(th.bg, 0.55),
            _ => th.waiting,
        };
        scene.rect(x + 1.0, y, cell - 2.0, cell, Some(fill), Some((th.grid, 1.0 * th.line_scale)));
        // A heavier left edge where a block starts.
        if idx % s.block == 0 {
            scene.line(x + 1.0, y - 3.0, x + 1.0, y + cell + 3.0, th.fg, 2.5 * th.line_scale);
        }
        if cell >= 22.0 {
            scene.text(x + cell / 2.0, y + cell / 2.0, crate::format::trimmed3(v), font, th.fg, Align::Center, true);
        }
        if let Some(p) = &probs {
            // Heights relative to the largest probability: with thousands of
            // values every probability is tiny, and the shape is what matters.
            let h = bar_h * p[idx] / p_max;
            scene.rect(x + cell * 0.2, y + cell + 4.0 + bar_h - h, cell * 0.6, h.max(1.0), Some(th.fill_tint), None);
        }
    }
    scene.height = top + shown as f64 * row_h + pad;
    scene
}

/// All `n` values as one strip (processed, current block, to come), block
/// boundaries where they are far enough apart, and a frame around the values
/// `shown` below; returns the strip's bottom.
fn overview(
    scene: &mut Scene,
    s: &OnlineSoftmax,
    step: u64,
    th: &Theme,
    width: f64,
    shown: std::ops::Range<usize>,
) -> f64 {
    let pad = 10.0;
    let n = s.x.len() as f64;
    let font = 12.0 * th.text_scale;
    let label_y = pad + font * 0.7;
    scene.text(
        pad,
        label_y,
        format!("x[{} … {}] / {}", shown.start, shown.end - 1, s.x.len()),
        font,
        th.muted,
        Align::Left,
        false,
    );
    let (x0, w) = (pad, width - 2.0 * pad);
    let y = label_y + font * 0.9;
    let h = 16.0 * th.text_scale.sqrt();
    let at = |i: usize| x0 + w * i as f64 / n;
    scene.rect(x0, y, w, h, Some(th.waiting), None);
    if step >= 1 {
        let cur = s.block_range(step);
        if cur.start > 0 {
            scene.rect(x0, y, at(cur.start) - x0, h, Some(th.done.mix(th.bg, 0.55)), None);
        }
        // The current block, at least two pixels wide.
        let cw = (at(cur.end) - at(cur.start)).max(2.0);
        scene.rect(at(cur.start).min(x0 + w - cw), y, cw, h, Some(th.busy), None);
    }
    let block_px = w * s.block as f64 / n;
    if block_px >= TICK_MIN_PX {
        for b in (s.block..s.x.len()).step_by(s.block) {
            scene.line(at(b), y, at(b), y + h, th.fg, 1.0 * th.line_scale);
        }
    }
    scene.rect(x0, y, w, h, None, Some((th.grid, 1.0 * th.line_scale)));
    // The window shown below.
    let (wx, ww) = (at(shown.start), (at(shown.end) - at(shown.start)).max(3.0));
    scene.rect(wx.min(x0 + w - ww), y - 3.0, ww, h + 6.0, None, Some((th.fg, 2.0 * th.line_scale)));
    y + h + 3.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_probabilities() {
        let s = OnlineSoftmax::new(vec![1.0, 3.0, 2.0, 5.0], 2);
        let mid = draw(&s, 1, &Theme::normal(), 600.0);
        assert!(["1", "3", "2", "5"].iter().all(|v| mid.texts().contains(v)));
        let end = draw(&s, 2, &Theme::normal(), 600.0);
        let bars = |sc: &Scene| {
            let tint = Theme::normal().fill_tint;
            sc.shapes
                .iter()
                .filter(|x| matches!(x, crate::scene::Shape::Rect { fill: Some(f), .. } if *f == tint))
                .count()
        };
        assert_eq!((bars(&mid), bars(&end)), (0, 4), "probability bars appear at the end");
        assert_eq!(end.height, mid.height, "in room kept for them: the canvas does not grow");
        assert_eq!(crate::format::trimmed3(-0.0001), "0");
        assert_eq!(crate::format::trimmed3(2.5), "2.5");
    }

    #[test]
    fn long_inputs_draw_a_bounded_window_around_the_current_block() {
        let th = Theme::normal();
        let x: Vec<f64> = (0..4096).map(|i| ((i * 37) % 101) as f64 / 10.0 - 5.0).collect();
        for block in [1, 7, 64, 1000, 4096] {
            let s = OnlineSoftmax::new(x.clone(), block);
            let blocks = s.blocks() as u64;
            for step in [0, 1, blocks / 2, blocks.saturating_sub(1), blocks] {
                let sc = draw(&s, step, &th, 1000.0);
                assert!(sc.height < 900.0, "block {block} step {step}: height {}", sc.height);
                assert!(sc.shapes.len() <= 700, "block {block} step {step}: {} shapes", sc.shapes.len());
                // The current block's first value is in the window.
                if step >= 1 {
                    let (first, shown) = window(&s, step, PER_ROW);
                    let start_row = s.block_range(step).start / PER_ROW;
                    assert!((first..first + shown).contains(&start_row), "block {block} step {step}");
                    let busy = sc
                        .shapes
                        .iter()
                        .filter(|x| matches!(x, crate::scene::Shape::Rect { fill: Some(f), .. } if *f == th.busy))
                        .count();
                    assert!(busy >= 2, "current block in the strip and in the window");
                }
            }
        }
        // Short inputs are drawn whole, as before.
        let s = OnlineSoftmax::new(x[..96].to_vec(), 4);
        assert_eq!(window(&s, 10, PER_ROW), (0, 6));
        assert!(!draw(&s, 10, &th, 1000.0).texts().iter().any(|t| t.starts_with("x[")));
    }
}
