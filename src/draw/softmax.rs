//! Online softmax → scene: the input in rows of cells grouped in blocks
//! (processed, current, still to come), and once every block is processed a
//! bar under each value for its probability.

use crate::scene::{Align, Scene, Theme};
use crate::sim::softmax::OnlineSoftmax;

pub const PER_ROW: usize = 16;

fn short(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    if s == "-0" {
        "0".into()
    } else {
        s
    }
}

pub fn draw(s: &OnlineSoftmax, step: u64, th: &Theme, width: f64) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let n = s.x.len();
    let per_row = PER_ROW.min(n.max(1));
    let cell = ((width - 2.0 * pad) / per_row as f64).min(64.0 * th.text_scale);
    let done_all = step as usize >= s.blocks();
    let probs = done_all.then(|| s.probabilities());
    let bar_h = if probs.is_some() { cell * 0.9 } else { 0.0 };
    let row_h = cell + bar_h + 8.0;
    let rows = n.div_ceil(per_row);
    let current = (step >= 1).then(|| s.block_range(step));
    let mut scene = Scene::new(width, 0.0, th.bg);
    let font = (cell * 0.3).min(15.0 * th.text_scale);
    for (idx, &v) in s.x.iter().enumerate() {
        let (r, c) = (idx / per_row, idx % per_row);
        let x = pad + c as f64 * cell;
        let y = pad + r as f64 * row_h;
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
            scene.text(x + cell / 2.0, y + cell / 2.0, short(v), font, th.fg, Align::Center, true);
        }
        if let Some(p) = &probs {
            let h = bar_h * p[idx];
            scene.rect(x + cell * 0.2, y + cell + 4.0 + bar_h - h, cell * 0.6, h.max(1.0), Some(th.fill_tint), None);
        }
    }
    scene.height = pad + rows as f64 * row_h + pad;
    scene
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
        assert!(end.height > mid.height, "probability bars appear at the end");
        assert_eq!(short(-0.0001), "0");
        assert_eq!(short(2.5), "2.5");
    }
}
