//! FlashAttention tiles → scene: the grid of S tiles (query blocks down, key
//! blocks across), each computed, current, to do or skipped by the causal
//! mask, in the order of the chosen pass. Large grids are a bitmap.

use crate::scene::{Align, Rgba, Scene, Shape, Theme};
use crate::sim::flash::{Flash, Pass};

pub fn colors(th: &Theme) -> [Rgba; 4] {
    // done, current, pending, skipped
    [th.done, th.busy_hot, th.waiting, Rgba::rgb(255, 255, 255)]
}

/// 0 done, 1 current, 2 to do, 3 skipped.
pub fn tile_state(f: &Flash, pass: Pass, step: u64, i: usize, j: usize) -> usize {
    match f.step_of(pass, i, j) {
        None => 3,
        Some(s) if s == step => 1,
        Some(s) if s < step => 0,
        Some(_) => 2,
    }
}

pub fn draw(f: &Flash, pass: Pass, step: u64, th: &Theme, width: f64, caption: &str) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let font = 13.0 * th.text_scale;
    let (tr, tc) = (f.tile_rows(), f.tile_cols());
    let label = 26.0 * th.text_scale;
    let avail = width - 2.0 * pad - label;
    let max_h = (width * 0.6).clamp(200.0, 560.0);
    let cell = (avail / tc as f64).min(max_h / tr as f64).min(48.0);
    let (w, h) = (cell * tc as f64, cell * tr as f64);
    let mut scene = Scene::new(width, 0.0, th.bg);
    let chars = caption.chars().count().max(1) as f64;
    scene.text(
        pad,
        pad + font * 0.7,
        caption,
        font.min((width - 2.0 * pad) / (chars * 0.56)),
        th.fg,
        Align::Left,
        true,
    );
    let gx = pad + label + (avail - w).max(0.0) / 2.0;
    let gy = pad + font * 1.8 + label;
    scene.text(gx + w / 2.0, gy - label * 0.55, "j →", font * 0.9, th.muted, Align::Center, false);
    scene.text(gx - 6.0, gy + h / 2.0, "i ↓", font * 0.9, th.muted, Align::Right, false);
    let cols = colors(th);
    if cell >= 6.0 {
        for i in 0..tr {
            for j in 0..tc {
                let st = tile_state(f, pass, step, i, j);
                let (x, y) = (gx + j as f64 * cell, gy + i as f64 * cell);
                scene.rect(x, y, cell, cell, Some(cols[st]), Some((th.grid, 0.75 * th.line_scale)));
                if st == 3 && cell >= 10.0 {
                    scene.line(x + 2.0, y + 2.0, x + cell - 2.0, y + cell - 2.0, th.grid, 1.0);
                }
            }
        }
    } else {
        let mut px = Vec::with_capacity(tr * tc * 4);
        for i in 0..tr {
            for j in 0..tc {
                let c = cols[tile_state(f, pass, step, i, j)];
                let c = if c == Rgba::rgb(255, 255, 255) { th.grid.mix(th.bg, 0.7) } else { c };
                px.extend_from_slice(&[c.0, c.1, c.2, c.3]);
            }
        }
        scene.shapes.push(Shape::Bitmap { x: gx, y: gy, w, h, px_w: tc as u32, px_h: tr as u32, rgba: px });
    }
    // The current tile, outlined even when it is one pixel.
    if let Some((i, j)) = f.tile_at(pass, step) {
        let (x, y) = (gx + j as f64 * cell, gy + i as f64 * cell);
        scene.rect(
            x - 2.0,
            y - 2.0,
            cell.max(2.0) + 4.0,
            cell.max(2.0) + 4.0,
            None,
            Some((th.fg, 2.5 * th.line_scale)),
        );
    }
    scene.rect(gx, gy, w, h, None, Some((th.fg, 1.0 * th.line_scale)));
    scene.height = gy + h + pad;
    scene
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::flash::Params;

    #[test]
    fn states_partition_the_grid() {
        let f = Flash::schedule_only(Params {
            n: 100,
            d: 8,
            bq: 16,
            bk: 16,
            causal: true,
            seed: 0,
            elem_bytes: 2,
            sram: 1 << 20,
        });
        for pass in [Pass::Fwd, Pass::Bwd] {
            let step = 9;
            let mut counts = [0u64; 4];
            for i in 0..f.tile_rows() {
                for j in 0..f.tile_cols() {
                    counts[tile_state(&f, pass, step, i, j)] += 1;
                }
            }
            assert_eq!(counts, [8, 1, f.tiles_computed() - 9, f.tiles_skipped()]);
        }
        let big = Flash::schedule_only(Params {
            n: 65536,
            d: 64,
            bq: 64,
            bk: 64,
            causal: true,
            seed: 0,
            elem_bytes: 2,
            sram: 1 << 20,
        });
        let s = draw(&big, Pass::Fwd, 1000, &Theme::normal(), 900.0, "");
        assert!(s.shapes.iter().any(|x| matches!(x, Shape::Bitmap { px_w: 1024, px_h: 1024, .. })));
    }
}
