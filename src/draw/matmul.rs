//! Scenes for the matmul panels: the tiled product (A, B, C tile grids with
//! the current phase), the padded output grid, the SM-by-wave map, and the
//! TPU's weight blocks.

use crate::scene::{Align, Rgba, Scene, Shape, Theme};
use crate::sim::matmul::{Compare, Quantization, Tiling, Waves};

/// A grid of `rows × cols` cells drawn at (x, y) with cell size `c`, coloured
/// by `f(r, c)`; as a bitmap when cells are small.
#[allow(clippy::too_many_arguments)]
fn grid(scene: &mut Scene, x: f64, y: f64, rows: u64, cols: u64, cell: f64, th: &Theme, f: &dyn Fn(u64, u64) -> Rgba) {
    if cell >= 5.0 && rows * cols <= 20_000 {
        for r in 0..rows {
            for c in 0..cols {
                scene.rect(
                    x + c as f64 * cell,
                    y + r as f64 * cell,
                    cell,
                    cell,
                    Some(f(r, c)),
                    Some((th.grid, 0.6 * th.line_scale)),
                );
            }
        }
    } else {
        let mut px = Vec::with_capacity((rows * cols * 4) as usize);
        for r in 0..rows {
            for c in 0..cols {
                let Rgba(a, b, cc, d) = f(r, c);
                px.extend_from_slice(&[a, b, cc, d]);
            }
        }
        scene.shapes.push(Shape::Bitmap {
            x,
            y,
            w: cols as f64 * cell,
            h: rows as f64 * cell,
            px_w: cols as u32,
            px_h: rows as u32,
            rgba: px,
        });
    }
    scene.rect(x, y, cols as f64 * cell, rows as f64 * cell, None, Some((th.fg, 1.0 * th.line_scale)));
}

/// A (m × k), B (k × n) and C (m × n) as tile grids; output tile (ti, tj) is
/// the one being computed; after `step` phases, A tiles (ti, 0..step) and B
/// tiles (0..step, tj) have been used, the current pair highlighted.
#[allow(clippy::too_many_arguments)]
pub fn draw_tiling(t: &Tiling, ti: u64, tj: u64, step: u64, th: &Theme, width: f64, caption: &str) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let font = 13.0 * th.text_scale;
    // In naive mode the "tiles" along k are single columns.
    let kt = if t.tiled { t.t } else { 1 };
    let (mt, nt, ktn) = (t.m.div_ceil(t.t), t.n.div_ceil(t.t), t.k.div_ceil(kt));
    let cols_units = (ktn + nt) as f64 + 1.0;
    let cell_w = (width - 2.0 * pad) / cols_units;
    let cell = cell_w.min(40.0).min(300.0 / (mt + ktn) as f64).max(0.5);
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
    let top = pad + font * 2.2;
    let ax = pad;
    let ay = top + ktn as f64 * cell + cell;
    let bx = pad + ktn as f64 * cell + cell;
    let by = top;
    let (cx, cy) = (bx, ay);
    let cur = step.checked_sub(1);
    let a_color = |r: u64, c: u64| {
        if r != ti {
            th.waiting
        } else if Some(c) == cur {
            th.busy_hot
        } else if c < step {
            th.a_color.mix(th.bg, 0.5)
        } else {
            th.a_color.mix(th.bg, 0.85)
        }
    };
    let b_color = |r: u64, c: u64| {
        if c != tj {
            th.waiting
        } else if Some(r) == cur {
            th.busy_hot
        } else if r < step {
            th.b_color.mix(th.bg, 0.5)
        } else {
            th.b_color.mix(th.bg, 0.85)
        }
    };
    let done = step >= ktn;
    let c_color = |r: u64, c: u64| {
        if r == ti && c == tj {
            if done {
                th.done
            } else if step > 0 {
                th.busy
            } else {
                th.waiting.mix(th.busy, 0.3)
            }
        } else {
            th.waiting
        }
    };
    scene.text(ax + ktn as f64 * cell / 2.0, ay - cell * 0.5, "A", font, th.a_color, Align::Center, true);
    scene.text(bx - cell * 0.5, by + ktn as f64 * cell / 2.0, "B", font, th.b_color, Align::Center, true);
    grid(&mut scene, ax, ay, mt, ktn, cell, th, &a_color);
    grid(&mut scene, bx, by, ktn, nt, cell, th, &b_color);
    grid(&mut scene, cx, cy, mt, nt, cell, th, &c_color);
    scene.text(cx + nt as f64 * cell + 6.0, cy + cell / 2.0, "C", font, th.fg, Align::Left, true);
    scene.height = cy + mt as f64 * cell + pad;
    scene
}

/// The padded output grid: useful area, padding, tile boundaries.
pub fn draw_quantization(q: &Quantization, th: &Theme, width: f64) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let (mt, nt) = (q.m.div_ceil(q.t), q.n.div_ceil(q.t));
    let (pm, pn) = (mt * q.t, nt * q.t);
    let scale = ((width - 2.0 * pad) / pn as f64).min(420.0 / pm as f64);
    let (w, h) = (pn as f64 * scale, pm as f64 * scale);
    let mut scene = Scene::new(width, 0.0, th.bg);
    let x0 = pad + ((width - 2.0 * pad) - w) / 2.0;
    let y0 = pad;
    let waste = Rgba::rgb(230, 90, 80).mix(th.bg, 0.35);
    scene.rect(x0, y0, w, h, Some(waste), None);
    scene.rect(x0, y0, q.n as f64 * scale, q.m as f64 * scale, Some(th.done.mix(th.bg, 0.4)), None);
    let lw = 1.2 * th.line_scale;
    if mt + nt <= 400 {
        for i in 0..=mt {
            let y = y0 + (i * q.t) as f64 * scale;
            scene.line(x0, y, x0 + w, y, th.fg, lw);
        }
        for j in 0..=nt {
            let x = x0 + (j * q.t) as f64 * scale;
            scene.line(x, y0, x, y0 + h, th.fg, lw);
        }
    }
    scene.rect(x0, y0, w, h, None, Some((th.fg, 2.0 * th.line_scale)));
    scene.height = y0 + h + pad;
    scene
}

/// Waves (rows) × SMs (columns): which SM works on which tile in which wave.
pub fn draw_waves(wv: &Waves, th: &Theme, width: f64) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let font = 12.0 * th.text_scale;
    let label = 58.0 * th.text_scale;
    let (waves, sms) = (wv.waves(), wv.sms);
    let cell_w = (width - 2.0 * pad - label) / sms as f64;
    let row_h = (26.0 * th.text_scale.sqrt()).min(360.0 / waves.max(1) as f64).max(2.0);
    let mut scene = Scene::new(width, 0.0, th.bg);
    let tiles = wv.tiles();
    let shown = waves.min(64);
    for wave in 0..shown {
        let y = pad + wave as f64 * row_h;
        if row_h >= 10.0 {
            scene.text(pad, y + row_h / 2.0, format!("wave {}", wave + 1), font, th.fg, Align::Left, false);
        }
        let px: Vec<u8> = (0..sms)
            .flat_map(|sm| {
                let t = wave * sms + sm;
                let c =
                    if t < tiles { th.busy_hot.mix(th.bg, if wave % 2 == 0 { 0.0 } else { 0.3 }) } else { th.waiting };
                [c.0, c.1, c.2, c.3]
            })
            .collect();
        scene.shapes.push(Shape::Bitmap {
            x: pad + label,
            y,
            w: cell_w * sms as f64,
            h: row_h - 2.0,
            px_w: sms as u32,
            px_h: 1,
            rgba: px,
        });
    }
    if cell_w >= 4.0 {
        for sm in 1..sms {
            let x = pad + label + sm as f64 * cell_w;
            scene.line(x, pad, x, pad + shown as f64 * row_h - 2.0, th.bg, 1.0);
        }
    }
    scene.height = pad + shown as f64 * row_h + pad;
    scene
}

/// B (k × n) cut into MXU-sized weight blocks (padding shaded) and C (m × n)
/// cut into GPU tiles coloured by wave, side by side.
pub fn draw_compare(c: &Compare, th: &Theme, width: f64, titles: [&str; 2]) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let font = 13.0 * th.text_scale;
    let half = (width - 3.0 * pad) / 2.0;
    let mut scene = Scene::new(width, 0.0, th.bg);
    let top = pad + font * 1.6;
    scene.text(pad, pad + font * 0.6, titles[0], font, th.fg, Align::Left, true);
    scene.text(2.0 * pad + half, pad + font * 0.6, titles[1], font, th.fg, Align::Left, true);
    // TPU: weight blocks.
    let (kb, nb) = (c.k.div_ceil(c.mxu), c.n.div_ceil(c.mxu));
    let (pk, pn) = ((kb * c.mxu) as f64, (nb * c.mxu) as f64);
    let s1 = (half / pn).min(320.0 / pk);
    scene.rect(pad, top, pn * s1, pk * s1, Some(Rgba::rgb(230, 90, 80).mix(th.bg, 0.35)), None);
    scene.rect(pad, top, c.n as f64 * s1, c.k as f64 * s1, Some(th.weight), None);
    if kb + nb <= 200 {
        for i in 0..=kb {
            scene.line(pad, top + (i * c.mxu) as f64 * s1, pad + pn * s1, top + (i * c.mxu) as f64 * s1, th.fg, 1.0);
        }
        for j in 0..=nb {
            scene.line(pad + (j * c.mxu) as f64 * s1, top, pad + (j * c.mxu) as f64 * s1, top + pk * s1, th.fg, 1.0);
        }
    }
    // GPU: output tiles by wave.
    let w = c.waves();
    let (tm, tn) = (w.tiles_m(), w.tiles_n());
    let (pm, pn2) = ((tm * c.tm) as f64, (tn * c.tn) as f64);
    let s2 = (half / pn2).min(320.0 / pm);
    let x2 = 2.0 * pad + half;
    let palette = [th.busy_hot, th.fill_tint, th.steady_tint, th.load_tint];
    for i in 0..tm.min(300) {
        for j in 0..tn.min(300) {
            let t = i * tn + j;
            let wave = t / c.sms;
            let color = palette[(wave % 4) as usize].mix(th.bg, 0.35);
            scene.rect(
                x2 + (j * c.tn) as f64 * s2,
                top + (i * c.tm) as f64 * s2,
                c.tn as f64 * s2,
                c.tm as f64 * s2,
                Some(color),
                None,
            );
        }
    }
    // Padding beyond m × n shaded over the tiles.
    scene.rect(x2 + c.n as f64 * s2, top, (pn2 - c.n as f64) * s2, pm * s2, Some(Rgba(255, 255, 255, 150)), None);
    scene.rect(
        x2,
        top + c.m as f64 * s2,
        c.n as f64 * s2,
        (pm - c.m as f64) * s2,
        Some(Rgba(255, 255, 255, 150)),
        None,
    );
    scene.rect(x2, top, pn2 * s2, pm * s2, None, Some((th.fg, 1.0 * th.line_scale)));
    scene.height = top + (pk * s1).max(pm * s2) + pad;
    scene
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenes_have_sensible_sizes() {
        let th = Theme::normal();
        let t = Tiling { m: 256, n: 256, k: 256, t: 16, elem_bytes: 4, tiled: true };
        let s = draw_tiling(&t, 1, 2, 3, &th, 900.0, "x");
        assert!(s.height > 100.0 && s.height < 900.0);
        let naive = Tiling { tiled: false, ..t };
        assert!(draw_tiling(&naive, 0, 0, 3, &th, 900.0, "x").shapes.iter().any(|x| matches!(x, Shape::Bitmap { .. })));
        let q = Quantization { m: 1025, n: 1025, t: 128, elem_bytes: 4, section: 128 };
        assert!(draw_quantization(&q, &th, 800.0).height > 100.0);
        let w = Waves { m: 1793, n: 1793, k: 1793, tm: 256, tn: 128, sms: 108 };
        let ws = draw_waves(&w, &th, 900.0);
        let bitmaps = ws.shapes.iter().filter(|x| matches!(x, Shape::Bitmap { .. })).count();
        assert_eq!(bitmaps, 2, "one row per wave");
        let c = Compare { m: 512, k: 4096, n: 4096, mxu: 128, sms: 132, tm: 128, tn: 128, macs_per_sm_cycle: 2048 };
        assert!(draw_compare(&c, &th, 900.0, ["a", "b"]).height > 100.0);
    }
}
