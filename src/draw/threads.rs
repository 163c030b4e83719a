//! Thread grid → scene: one row per block (the first blocks and the last, if
//! there are many), one pixel column per thread, warps shaded alternately,
//! idle threads marked, the selected thread outlined.

use crate::scene::{Align, Rgba, Scene, Shape, Theme};
use crate::sim::threads::{Grid, WARP};

/// Rows drawn at most; beyond it the middle blocks are summarised.
pub const MAX_ROWS: u64 = 12;

/// The blocks shown, in order (`None` stands for the skipped middle).
pub fn visible_blocks(g: &Grid) -> Vec<Option<u64>> {
    let b = g.blocks();
    if b <= MAX_ROWS {
        return (0..b).map(Some).collect();
    }
    let head = MAX_ROWS - 3;
    let mut v: Vec<Option<u64>> = (0..head).map(Some).collect();
    v.push(None);
    v.extend([b - 2, b - 1].map(Some));
    v
}

/// `more(n)` labels a gap of `n` blocks not drawn, `block(b)` a block's row
/// (both translated by the caller).
pub fn draw(
    g: &Grid,
    selected: u64,
    th: &Theme,
    width: f64,
    more: &dyn Fn(u64) -> String,
    block: &dyn Fn(u64) -> String,
) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let label_w = 74.0 * th.text_scale;
    let row_h = (22.0 * th.text_scale).round();
    let gap = 6.0;
    let rows = visible_blocks(g);
    let avail = width - 2.0 * pad - label_w;
    let cell = avail / g.block as f64;
    let mut scene = Scene::new(width, 0.0, th.bg);
    let warp_a = Rgba::rgb(90, 140, 230);
    let warp_b = Rgba::rgb(150, 185, 245);
    let idle = Rgba::rgb(230, 90, 80);
    let sel = g.thread(selected);
    let font = 12.0 * th.text_scale;
    let mut y = pad + font;
    // Warp numbers above the first row.
    let warps = g.warps_per_block();
    for w in 0..warps {
        let x = pad + label_w + (w * WARP) as f64 * cell;
        let span = ((w + 1) * WARP).min(g.block) - w * WARP;
        if span as f64 * cell >= 22.0 * th.text_scale {
            scene.text(
                x + span as f64 * cell / 2.0,
                y - font * 0.4,
                format!("w{w}"),
                font,
                th.muted,
                Align::Center,
                false,
            );
        }
    }
    y += 4.0;
    for row in rows {
        match row {
            None => {
                let hidden = g.blocks() - (MAX_ROWS - 1);
                scene.text(
                    pad + label_w + avail / 2.0,
                    y + row_h / 2.0,
                    more(hidden),
                    font,
                    th.muted,
                    Align::Center,
                    false,
                );
            }
            Some(b) => {
                scene.text(pad, y + row_h / 2.0, block(b), font, th.fg, Align::Left, b == sel.block_idx);
                let px: Vec<u8> = (0..g.block)
                    .flat_map(|t| {
                        let i = b * g.block + t;
                        let c = if i >= g.n {
                            idle
                        } else if (t / WARP) % 2 == 0 {
                            warp_a
                        } else {
                            warp_b
                        };
                        [c.0, c.1, c.2, c.3]
                    })
                    .collect();
                scene.shapes.push(Shape::Bitmap {
                    x: pad + label_w,
                    y,
                    w: avail,
                    h: row_h,
                    px_w: g.block as u32,
                    px_h: 1,
                    rgba: px,
                });
                if cell >= 3.0 {
                    for w in 1..warps {
                        let x = pad + label_w + (w * WARP) as f64 * cell;
                        scene.line(x, y, x, y + row_h, th.bg, 1.5 * th.line_scale);
                    }
                }
                if b == sel.block_idx {
                    let x = pad + label_w + sel.thread_idx as f64 * cell;
                    let w = cell.max(3.0);
                    scene.rect(x - 1.5, y - 3.0, w + 3.0, row_h + 6.0, None, Some((th.fg, 2.5 * th.line_scale)));
                }
            }
        }
        y += row_h + gap;
    }
    scene.height = y + pad;
    scene
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lecture_grid_shows_every_block_and_idle_threads() {
        let g = Grid::new(1000, 256);
        assert_eq!(visible_blocks(&g).len(), 4);
        let s = draw(&g, 1000, &Theme::normal(), 900.0, &|n| format!("{n} more"), &|b| format!("block {b}"));
        let bitmaps: Vec<&Vec<u8>> = s
            .shapes
            .iter()
            .filter_map(|x| match x {
                Shape::Bitmap { rgba, .. } => Some(rgba),
                _ => None,
            })
            .collect();
        assert_eq!(bitmaps.len(), 4);
        // The last block's last 24 threads are idle (red).
        let last = bitmaps[3];
        let red = (0..256).filter(|t| last[t * 4] == 230 && last[t * 4 + 1] == 90).count();
        assert_eq!(red, 24);
    }

    #[test]
    fn many_blocks_are_summarised() {
        let g = Grid::new(1 << 20, 128);
        let v = visible_blocks(&g);
        assert_eq!(v.len() as u64, MAX_ROWS);
        assert_eq!(v.last(), Some(&Some(g.blocks() - 1)));
        assert!(v.contains(&None));
    }
}
