//! Scenes for the matmul panels: the tiled product (A, B, C tile grids with
//! the current phase), the padded output grid, the SM-by-wave map, and the
//! TPU's weight blocks.

use crate::scene::{Align, Rgba, Scene, Shape, Theme};
use crate::sim::matmul::{Compare, Quantization, TileState, TileStatus, Tiling, Waves};

/// Thinnest a highlighted row or column of cells is drawn (CSS pixels), so
/// that it stays visible when the cells are smaller than a pixel.
const MIN_STRIP: f64 = 2.0;
/// Smallest the current cell is drawn.
const MIN_CELL: f64 = 4.0;
/// Grid lines between cells are drawn when cells are at least this big.
const LINES_FROM: f64 = 4.0;

/// `[start, start + len)` widened to at least `min`, around its middle, kept
/// inside `[lo, hi)`.
fn widen(start: f64, len: f64, min: f64, lo: f64, hi: f64) -> (f64, f64) {
    if len >= min {
        return (start, len);
    }
    let len2 = min.min(hi - lo);
    let s = (start + len / 2.0 - len2 / 2.0).clamp(lo, hi - len2);
    (s, len2)
}

/// A grid of `rows × cols` cells at (x, y), cell size `cell` (may be a
/// fraction of a pixel): the waiting colour, lines between cells when they are
/// big enough to see, and an outline. What is highlighted is drawn on top by
/// the caller, so the cost depends on the pixels, not on the number of cells.
struct Grid {
    x: f64,
    y: f64,
    rows: u64,
    cols: u64,
    cell: f64,
}

impl Grid {
    fn w(&self) -> f64 {
        self.cols as f64 * self.cell
    }
    fn h(&self) -> f64 {
        self.rows as f64 * self.cell
    }
    fn background(&self, scene: &mut Scene, th: &Theme) {
        scene.rect(self.x, self.y, self.w(), self.h(), Some(th.waiting), None);
    }
    /// Cells `c0..c1` of row `r`, at least [`MIN_STRIP`] thick (and `min_len` long).
    fn row_span(&self, scene: &mut Scene, r: u64, c0: u64, c1: u64, min_len: f64, fill: Rgba) {
        if c1 > c0 && r < self.rows {
            let (y, h) = self.band(self.y, self.h(), r, r + 1, MIN_STRIP);
            let (x, w) = self.band(self.x, self.w(), c0, c1, min_len);
            scene.rect(x, y, w, h, Some(fill), None);
        }
    }
    /// Cells `r0..r1` of column `c`, at least [`MIN_STRIP`] thick (and `min_len` long).
    fn col_span(&self, scene: &mut Scene, c: u64, r0: u64, r1: u64, min_len: f64, fill: Rgba) {
        if r1 > r0 && c < self.cols {
            let (x, w) = self.band(self.x, self.w(), c, c + 1, MIN_STRIP);
            let (y, h) = self.band(self.y, self.h(), r0, r1, min_len);
            scene.rect(x, y, w, h, Some(fill), None);
        }
    }
    /// Cells `i0..i1` along one axis that starts at `start` and is `len`
    /// long: their start and length, at least `min` (kept inside the axis).
    fn band(&self, start: f64, len: f64, i0: u64, i1: u64, min: f64) -> (f64, f64) {
        widen(start + i0 as f64 * self.cell, (i1 - i0) as f64 * self.cell, min, start, start + len)
    }
    /// Cell (r, c), at least `min` pixels each way.
    fn cell_rect(&self, scene: &mut Scene, r: u64, c: u64, min: f64, fill: Rgba) {
        if r >= self.rows || c >= self.cols {
            return;
        }
        let (x, w) = widen(self.x + c as f64 * self.cell, self.cell, min, self.x, self.x + self.w());
        let (y, h) = widen(self.y + r as f64 * self.cell, self.cell, min, self.y, self.y + self.h());
        scene.rect(x, y, w, h, Some(fill), None);
    }
    /// Lines between cells (when they are big enough to see) and the outline.
    fn lines(&self, scene: &mut Scene, th: &Theme) {
        if self.cell >= LINES_FROM {
            let lw = 0.6 * th.line_scale;
            for r in 1..self.rows {
                let y = self.y + r as f64 * self.cell;
                scene.line(self.x, y, self.x + self.w(), y, th.grid, lw);
            }
            for c in 1..self.cols {
                let x = self.x + c as f64 * self.cell;
                scene.line(x, self.y, x, self.y + self.h(), th.grid, lw);
            }
        }
        scene.rect(self.x, self.y, self.w(), self.h(), None, Some((th.fg, 1.0 * th.line_scale)));
    }
}

/// A (m × k), B (k × n) and C (m × n) as tile grids; output tile (ti, tj) is
/// the one being computed, in state `state`: after `state.step` phases, A
/// tiles (ti, 0..step) and B tiles (0..step, tj) have been used, the current
/// pair highlighted.
///
/// The scene has a bounded number of shapes whatever the grid (4096 × 4096
/// tiles at T = 1): each grid is one background rectangle, the followed row,
/// column and tile are a few rectangles on top (never thinner than
/// [`MIN_STRIP`] pixels), and lines between tiles only where tiles are at
/// least [`LINES_FROM`] pixels.
#[allow(clippy::too_many_arguments)]
pub fn draw_tiling(t: &Tiling, ti: u64, tj: u64, state: &TileState, th: &Theme, width: f64, caption: &str) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let font = 13.0 * th.text_scale;
    // In naive mode the "tiles" along k are single columns.
    let kt = if t.tiled { t.t } else { 1 };
    let (mt, nt, ktn) = (t.m.div_ceil(t.t), t.n.div_ceil(t.t), t.k.div_ceil(kt));
    let avail = width - 2.0 * pad;
    // One cell of space between B and C (and A and C), at least a label's.
    // As wide as the width allows, and no taller than it is wide (the stage
    // narrows the width of a drawing taller than its box).
    let mut cell =
        (avail / (ktn + nt + 1) as f64).min(40.0 * th.text_scale).min((avail - 4.0 * font) / (mt + ktn + 1) as f64);
    let gap = cell.max(font * 1.3);
    cell = cell.min((avail - gap) / (ktn + nt) as f64);
    let mut scene = Scene::new(width, 0.0, th.bg);
    scene.text(
        pad,
        pad + font * 0.7,
        caption,
        font.min(avail / crate::scene::text_width(caption, 1.0).max(1.0)),
        th.fg,
        Align::Left,
        true,
    );
    let top = pad + font * 2.2;
    let a = Grid { x: pad, y: top + ktn as f64 * cell + gap, rows: mt, cols: ktn, cell };
    let b = Grid { x: pad + ktn as f64 * cell + gap, y: top, rows: ktn, cols: nt, cell };
    let c = Grid { x: b.x, y: a.y, rows: mt, cols: nt, cell };
    // Phases 0..step-1 used, step-1 current, step.. to come.
    let step = state.step.min(ktn);
    let used = step.saturating_sub(1);
    for g in [&a, &b, &c] {
        g.background(&mut scene, th);
    }
    a.row_span(&mut scene, ti, 0, used, 0.0, th.a_color.mix(th.bg, 0.5));
    a.row_span(&mut scene, ti, step, ktn, 0.0, th.a_color.mix(th.bg, 0.85));
    b.col_span(&mut scene, tj, 0, used, 0.0, th.b_color.mix(th.bg, 0.5));
    b.col_span(&mut scene, tj, step, ktn, 0.0, th.b_color.mix(th.bg, 0.85));
    if step >= 1 {
        a.row_span(&mut scene, ti, used, step, MIN_CELL, th.busy_hot);
        b.col_span(&mut scene, tj, used, step, MIN_CELL, th.busy_hot);
    }
    let out = match state.status {
        TileStatus::Done => th.done,
        TileStatus::Accumulating => th.busy,
        TileStatus::Waiting => th.waiting.mix(th.busy, 0.3),
    };
    c.cell_rect(&mut scene, ti, tj, MIN_CELL, out);
    for g in [&a, &b, &c] {
        g.lines(&mut scene, th);
    }
    scene.text(a.x + a.w() / 2.0, a.y - gap / 2.0, "A", font, th.a_color, Align::Center, true);
    scene.text(b.x - gap / 2.0, b.y + b.h() / 2.0, "B", font, th.b_color, Align::Center, true);
    scene.text(c.x + c.w() + 6.0, c.y + (cell / 2.0).max(font * 0.6), "C", font, th.fg, Align::Left, true);
    scene.height = c.y + c.h() + pad;
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

/// The waves' strip is at most this tall (scene pixels, before the padding):
/// a strip, so that the panel's sawtooth chart sits right under it, beside
/// the key figures, whatever the number of waves.
pub const WAVES_MAX_H: f64 = 150.0;

/// Waves (rows) × SMs (columns): which SM works on which tile in which wave;
/// `wave_label(w)` names row `w` (1-based, translated by the caller). Rows
/// too thin for a label each have the first and the last labelled.
pub fn draw_waves(wv: &Waves, th: &Theme, width: f64, wave_label: &dyn Fn(u64) -> String) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let font = 12.0 * th.text_scale;
    let label = 58.0 * th.text_scale;
    let (waves, sms) = (wv.waves(), wv.sms);
    let cell_w = (width - 2.0 * pad - label) / sms as f64;
    let shown = waves.min(64);
    let row_h = (26.0 * th.text_scale.sqrt()).min(WAVES_MAX_H / shown.max(1) as f64).max(2.0);
    let mut scene = Scene::new(width, 0.0, th.bg);
    let tiles = wv.tiles();
    for wave in 0..shown {
        let y = pad + wave as f64 * row_h;
        if row_h >= 10.0 || wave == 0 || wave + 1 == shown {
            // A thin first (last) row's label hangs below (above) it, inside the strip.
            let y = match (row_h >= 10.0, wave == 0) {
                (true, _) => y + row_h / 2.0,
                (false, true) => y + font * 0.5,
                (false, false) => y + row_h - font * 0.5,
            };
            scene.text(pad, y, wave_label(wave + 1), font, th.fg, Align::Left, false);
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

/// Output tiles drawn one rectangle each up to this many; beyond, a bitmap.
pub const MAX_TILE_RECTS: u64 = 2048;
/// Smallest area of a wave (CSS px²) drawn in its own colour.
const MIN_WAVE_PX: f64 = 24.0;

/// B (k × n) cut into MXU-sized weight blocks (padding shaded) and C (m × n)
/// cut into GPU tiles coloured by wave, side by side.
pub fn draw_compare(c: &Compare, th: &Theme, width: f64, titles: [&str; 2]) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let font = 13.0 * th.text_scale;
    let half = (width - 3.0 * pad) / 2.0;
    let mut scene = Scene::new(width, 0.0, th.bg);
    // Each title over its own half, wrapped there (a phone has room for a few words).
    let title_h = [0, 1].map(|i| {
        scene.text_wrapped(pad + i as f64 * (pad + half), pad + font * 0.6, titles[i], font, half, th.fg, true)
    });
    let top = pad + title_h[0].max(title_h[1]) + font * 0.35;
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
    let palette = [th.busy_hot, th.fill_tint, th.steady_tint, th.load_tint].map(|p| p.mix(th.bg, 0.35));
    // Every colour below is a function of the tile's wave, (i · tn + j) / SMs.
    let wave_of = |i: u64, j: u64| (i * tn + j) / c.sms;
    let alternate = |w: u64| palette[(w % 4) as usize];
    if tm * tn <= MAX_TILE_RECTS {
        for i in 0..tm {
            for j in 0..tn {
                scene.rect(
                    x2 + (j * c.tn) as f64 * s2,
                    top + (i * c.tm) as f64 * s2,
                    c.tn as f64 * s2,
                    c.tm as f64 * s2,
                    Some(alternate(wave_of(i, j))),
                    None,
                );
            }
        }
    } else {
        // Many tiles: a bitmap with at most one pixel per CSS pixel, each pixel
        // the wave of the tile at its centre. When a wave covers less than a
        // few pixels the four alternating colours would only make moiré, so the
        // waves are shaded in order instead, first to last (the order the SMs
        // work through the output).
        let (cw, ch) = (pn2 * s2, pm * s2);
        let wave_px = c.sms as f64 * (c.tm as f64 * s2) * (c.tn as f64 * s2);
        let waves = w.waves().max(2) - 1;
        let (first, last) = (th.fill_tint.mix(th.bg, 0.35), th.busy_hot.mix(th.bg, 0.35));
        let ramp = |w: u64| first.mix(last, w as f32 / waves as f32);
        let wave_color: &dyn Fn(u64) -> Rgba = if wave_px >= MIN_WAVE_PX { &alternate } else { &ramp };
        let px_w = tn.min(cw.ceil().max(1.0) as u64);
        let px_h = tm.min(ch.ceil().max(1.0) as u64);
        // The tile column at each pixel column's centre, once for all rows;
        // neighbouring pixels mostly share a wave, so its colour is kept.
        let cols: Vec<u64> = (0..px_w).map(|x| ((2 * x + 1) * tn) / (2 * px_w)).collect();
        let mut px = Vec::with_capacity((px_w * px_h * 4) as usize);
        let mut last_wave = None;
        let mut color = [0u8; 4];
        for y in 0..px_h {
            let i = ((2 * y + 1) * tm) / (2 * px_h);
            for &j in &cols {
                let wave = wave_of(i, j);
                if last_wave != Some(wave) {
                    let Rgba(r, g, b, a) = wave_color(wave);
                    color = [r, g, b, a];
                    last_wave = Some(wave);
                }
                px.extend_from_slice(&color);
            }
        }
        scene.shapes.push(Shape::Bitmap {
            x: x2,
            y: top,
            w: cw,
            h: ch,
            px_w: px_w as u32,
            px_h: px_h as u32,
            rgba: px,
        });
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

    /// The followed tile's state after `step` steps.
    fn at(t: Tiling, ti: u64, tj: u64, step: u64) -> TileState {
        use crate::sim::Steppable;
        crate::sim::matmul::TileRun { tiling: t, ti, tj, smem: 0 }.state_at(step)
    }

    #[test]
    fn scenes_have_sensible_sizes() {
        let th = Theme::normal();
        let t = Tiling { m: 256, n: 256, k: 256, t: 16, elem_bytes: 4, tiled: true };
        let s = draw_tiling(&t, 1, 2, &at(t, 1, 2, 3), &th, 900.0, "x");
        assert!(s.height > 100.0 && s.height <= 900.0, "{}", s.height);
        // 16 × 16 tiles a grid use the width: B and C side by side span most of it.
        let c_grid = s.shapes.iter().filter_map(|x| match x {
            Shape::Rect { x, w, .. } => Some(x + w),
            _ => None,
        });
        assert!(c_grid.fold(0.0, f64::max) > 0.85 * 900.0, "the grids fill the width");
        let naive = Tiling { tiled: false, ..t };
        let ns = draw_tiling(&naive, 0, 0, &at(naive, 0, 0, 3), &th, 900.0, "x");
        assert!(ns.shapes.iter().any(|x| matches!(x, Shape::Rect { fill: Some(f), .. } if *f == th.busy_hot)));
        let q = Quantization { m: 1025, n: 1025, t: 128, elem_bytes: 4, section: 128 };
        assert!(draw_quantization(&q, &th, 800.0).height > 100.0);
        let w = Waves { m: 1793, n: 1793, k: 1793, tm: 256, tn: 128, sms: 108 };
        let label = |w: u64| format!("波 {w}");
        let ws = draw_waves(&w, &th, 900.0, &label);
        let bitmaps = ws.shapes.iter().filter(|x| matches!(x, Shape::Bitmap { .. })).count();
        assert_eq!(bitmaps, 2, "one row per wave");
        assert!(ws.texts().contains(&"波 2"), "rows labelled by the caller");
        // Many waves: still a strip, the first and last rows labelled.
        let many = Waves { m: 8192, n: 8192, k: 8192, tm: 128, tn: 128, sms: 132 };
        let ms = draw_waves(&many, &th, 900.0, &label);
        assert_eq!(many.waves(), 32);
        assert!(ms.height <= WAVES_MAX_H + 20.0, "height {}", ms.height);
        assert_eq!(ms.texts(), vec!["波 1", "波 32"]);
        let c = Compare { m: 512, k: 4096, n: 4096, mxu: 128, sms: 132, tm: 128, tn: 128, macs_per_sm_cycle: 2048 };
        assert!(draw_compare(&c, &th, 900.0, ["a", "b"]).height > 100.0);
    }

    /// Pixels of all bitmaps and number of shapes of a scene.
    fn cost(s: &Scene) -> (u64, usize) {
        let px = s
            .shapes
            .iter()
            .map(|x| match x {
                Shape::Bitmap { px_w, px_h, rgba, .. } => {
                    assert_eq!(rgba.len() as u64, 4 * *px_w as u64 * *px_h as u64);
                    *px_w as u64 * *px_h as u64
                }
                _ => 0,
            })
            .sum();
        (px, s.shapes.len())
    }

    /// Every rectangle and bitmap lies inside the scene.
    fn inside(s: &Scene) {
        for x in &s.shapes {
            if let Shape::Rect { x, y, w, h, .. } | Shape::Bitmap { x, y, w, h, .. } = x {
                assert!(
                    *x >= 0.0 && *y >= 0.0 && x + w <= s.width + 0.01 && y + h <= s.height + 0.01,
                    "{x} {y} {w} {h}"
                );
            }
        }
    }

    #[test]
    fn tiling_at_the_largest_sizes_is_a_few_shapes() {
        let th = Theme::normal();
        for tiled in [true, false] {
            // n = m = k = 4096, T = 1: 4096 × 4096 tiles in each grid.
            let t = Tiling { m: 4096, n: 4096, k: 4096, t: 1, elem_bytes: 4, tiled };
            for (ti, tj, step) in [(0, 0, 0), (4095, 17, 1), (2000, 4095, 2048), (4095, 4095, 4096)] {
                let s = draw_tiling(&t, ti, tj, &at(t, ti, tj, step), &th, 1000.0, "caption");
                let (px, shapes) = cost(&s);
                assert_eq!(px, 0);
                assert!(shapes <= 40, "{shapes} shapes");
                assert!(s.height <= s.width, "height {} at width {}", s.height, s.width);
                inside(&s);
                // The current pair stays visible: at least MIN_STRIP × MIN_CELL pixels.
                let hot: Vec<(f64, f64)> = s
                    .shapes
                    .iter()
                    .filter_map(|x| match x {
                        Shape::Rect { w, h, fill: Some(f), .. } if *f == th.busy_hot => Some((*w, *h)),
                        _ => None,
                    })
                    .collect();
                assert_eq!(hot.len(), if step >= 1 { 2 } else { 0 });
                assert!(hot.iter().all(|&(w, h)| w.min(h) >= MIN_STRIP && w.max(h) >= MIN_CELL), "{hot:?}");
            }
        }
        // Small grids keep their lines between tiles.
        let t = Tiling { m: 64, n: 64, k: 64, t: 16, elem_bytes: 4, tiled: true };
        let s = draw_tiling(&t, 1, 2, &at(t, 1, 2, 3), &th, 900.0, "x");
        let lines = s.shapes.iter().filter(|x| matches!(x, Shape::Line { .. })).count();
        assert_eq!(lines, 3 * (3 + 3));
        inside(&s);
    }

    #[test]
    fn gpu_tiles_at_the_largest_counts_are_a_bounded_bitmap() {
        let th = Theme::normal();
        // tm = tn = 1 at m = k = n = 16384: 268 M output tiles.
        for (m, n) in [(16384, 16384), (512, 4096), (1, 16384), (16384, 1)] {
            let c = Compare { m, k: 16384, n, mxu: 128, sms: 132, tm: 1, tn: 1, macs_per_sm_cycle: 2048 };
            let s = draw_compare(&c, &th, 1000.0, ["a", "b"]);
            let (px, shapes) = cost(&s);
            // The GPU half is at most 485 × 320 CSS pixels: one bitmap pixel each at most.
            assert!(px <= 485 * 320, "{px} pixels");
            assert!(shapes <= 300, "{shapes} shapes");
            inside(&s);
        }
        // Waves smaller than a few pixels are shaded in order (no moiré).
        let c = Compare { m: 512, k: 4096, n: 4096, mxu: 128, sms: 132, tm: 1, tn: 1, macs_per_sm_cycle: 2048 };
        let s = draw_compare(&c, &th, 1000.0, ["a", "b"]);
        let Some(Shape::Bitmap { rgba, .. }) = s.shapes.iter().find(|x| matches!(x, Shape::Bitmap { .. })) else {
            panic!("a bitmap")
        };
        let px = |n: usize| Rgba(rgba[4 * n], rgba[4 * n + 1], rgba[4 * n + 2], rgba[4 * n + 3]);
        let near = |a: Rgba, b: Rgba| (a.0 as i32 - b.0 as i32).abs() + (a.2 as i32 - b.2 as i32).abs() <= 6;
        assert!(near(px(0), th.fill_tint.mix(th.bg, 0.35)), "first waves at the top left");
        assert!(near(px(rgba.len() / 4 - 1), th.busy_hot.mix(th.bg, 0.35)), "last waves at the bottom right");
        // Few tiles: one rectangle per tile, coloured by wave.
        let c = Compare { m: 512, k: 4096, n: 4096, mxu: 128, sms: 132, tm: 128, tn: 128, macs_per_sm_cycle: 2048 };
        let s = draw_compare(&c, &th, 1000.0, ["a", "b"]);
        assert_eq!(cost(&s).0, 0);
    }
}
