//! FlashAttention tiles → scene: the grid of S tiles (query blocks down, key
//! blocks across), each computed, current, to do or skipped by the causal
//! mask, in the order of the chosen pass.
//!
//! Nothing here is proportional to the number of tiles (up to 2³² at n =
//! 65536 with one-element blocks). Where a tile is at least a few pixels, the
//! grid is drawn as rectangles, one per run of equal tiles in a row. Below
//! that it is a bitmap of at most [`MAX_BITMAP`]² pixels, each pixel the mix
//! of the states of the block of tiles it covers, counted in closed form
//! ([`pixel_counts`]): the schedule's tiles per query block are
//! non-decreasing, so two pointers sweep each pixel row.

use crate::scene::{text_width, Align, Rgba, Scene, Shape, Theme};
use crate::sim::flash::{Flash, Pass};

/// The largest side of the bitmap, in pixels.
pub const MAX_BITMAP: usize = 512;
/// Pixels between two hatch lines of the skipped region of the bitmap.
const HATCH: usize = 8;

pub fn colors(th: &Theme) -> [Rgba; 4] {
    // done, current, pending, skipped
    [th.done, th.busy_hot, th.waiting, Rgba::rgb(255, 255, 255)]
}

/// How far a pass has got at a step: the current tile, and whether a tile
/// comes before it in the pass's order (query blocks outer forward in
/// FlashAttention-2's order; key blocks outer backward and forward in
/// FlashAttention-1's). O(1) per tile after one O(log n) look-up.
#[derive(Clone, Copy, Debug)]
pub struct Front {
    /// Key/value blocks in the outer loop.
    kv_outer: bool,
    /// The tile computed in this step; `None` before the first step or after the last.
    cur: Option<(usize, usize)>,
    all_done: bool,
}

impl Front {
    pub fn new(f: &Flash, pass: Pass, step: u64) -> Self {
        Front { kv_outer: f.kv_outer(pass), cur: f.tile_at(pass, step), all_done: step > f.steps() }
    }
    pub fn current(&self) -> Option<(usize, usize)> {
        self.cur
    }
    /// The state of a computed (not skipped) tile: 0 done, 1 current, 2 to do.
    pub fn state(&self, i: usize, j: usize) -> usize {
        let Some((ci, cj)) = self.cur else { return if self.all_done { 0 } else { 2 } };
        let (a, b) = if self.kv_outer { ((j, i), (cj, ci)) } else { ((i, j), (ci, cj)) };
        match a.cmp(&b) {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Greater => 2,
        }
    }
}

/// 0 done, 1 current, 2 to do, 3 skipped.
pub fn tile_state(f: &Flash, pass: Pass, step: u64, i: usize, j: usize) -> usize {
    if f.skipped(i, j) {
        3
    } else {
        Front::new(f, pass, step).state(i, j)
    }
}

/// Pixel `k` of `px` covers tiles `edge(k)..edge(k + 1)` of `tiles`.
fn edge(k: usize, tiles: usize, px: usize) -> usize {
    (k as u64 * tiles as u64 / px as u64) as usize
}

/// What a span of pixels in one pixel row shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Span {
    /// Every tile of every pixel of the span is in this state (0 done, 2 to
    /// do, 3 skipped).
    All(usize),
    /// One pixel with tiles in several states: how many done, current, to
    /// do, skipped.
    Mixed([u64; 4]),
}

/// The pixels of a `pw × ph` grid laid over the tiles (`pw ≤ tile_cols`,
/// `ph ≤ tile_rows`; pixel `b` covers tile columns `edge(b)..edge(b + 1)`),
/// row by row, as spans `(a, b0..b1, span)` covering each row in order.
/// The schedule's tiles per query block are non-decreasing, so a pixel row
/// is wholly computed up to the diagonal band and wholly skipped after it,
/// and the pass's progress splits it at most at the current tile: a row is a
/// few uniform spans and a few mixed pixels (the diagonal band, the current
/// tile's row or column), each counted over its rows. O(pw + ph · (rows per
/// pixel)) in all, whatever the number of tiles.
pub fn pixel_spans(
    f: &Flash,
    pass: Pass,
    step: u64,
    pw: usize,
    ph: usize,
    mut out: impl FnMut(usize, usize, usize, Span),
) {
    let (tr, tc) = (f.tile_rows(), f.tile_cols());
    let (pw, ph) = (pw.clamp(1, tc), ph.clamp(1, tr));
    let front = Front::new(f, pass, step);
    let c = |i: usize| f.cols_in_row(i);
    let cols: Vec<usize> = (0..=pw).map(|b| edge(b, tc, pw)).collect();
    // Computed tiles of rows i0..i1 in columns j0..j1 (j1 ≥ j0), row by row.
    let computed = |i0: usize, i1: usize, j0: usize, j1: usize| -> u64 {
        (i0..i1).map(|i| (c(i).clamp(j0, j1) - j0) as u64).sum()
    };
    // The counts of one pixel, from its rows.
    let mixed = |i0: usize, i1: usize, b: usize| -> [u64; 4] {
        let (j0, j1) = (cols[b], cols[b + 1]);
        let all = computed(i0, i1, j0, j1);
        let (done, cur) = match (front.cur, front.kv_outer) {
            (None, _) => (if front.all_done { all } else { 0 }, 0),
            (Some((ci, _)), false) if i1 <= ci => (all, 0),
            (Some((ci, _)), false) if i0 > ci => (0, 0),
            (Some((ci, cj)), false) => {
                // Rows above the current one, then the current row left of it.
                let row = j1.min(cj).saturating_sub(j0) as u64;
                (computed(i0, ci, j0, j1) + row, (j0..j1).contains(&cj) as u64)
            }
            (Some((_, cj)), true) if j1 <= cj => (all, 0),
            (Some((_, cj)), true) if j0 > cj => (0, 0),
            (Some((ci, cj)), true) => {
                // Columns left of the current one, then the current column above it.
                let col = (f.first_row(cj).max(i0)..ci.min(i1)).len() as u64;
                (computed(i0, i1, j0, cj) + col, (i0..i1).contains(&ci) as u64)
            }
        };
        [done, cur, all - done - cur, ((i1 - i0) * (j1 - j0)) as u64 - all]
    };
    for a in 0..ph {
        let (i0, i1) = (edge(a, tr, ph), edge(a + 1, tr, ph));
        // Columns 0..b_all are computed in every row of the pixel row (c is
        // smallest in its first row), columns b_none.. in none (largest in its last).
        let b_all = cols[1..].partition_point(|&j1| j1 <= c(i0));
        let b_none = cols[..pw].partition_point(|&j0| j0 < c(i1 - 1));
        // The computed part: uniform, or cut where the pass stands.
        let (lo, hi) = match (front.cur, front.kv_outer) {
            (None, _) if front.all_done => (b_all, b_all),
            (None, _) => (0, 0),
            (Some((ci, _)), false) if i1 <= ci => (b_all, b_all),
            (Some((ci, _)), false) if i0 > ci => (0, 0),
            (Some(_), false) => (0, b_all),
            // Columns left of the pixel column holding cj are done, right of it to do.
            (Some((_, cj)), true) => {
                let b = cols[1..].partition_point(|&j1| j1 <= cj).min(b_all);
                (b, (b + 1).min(b_all))
            }
        };
        if lo > 0 {
            out(a, 0, lo, Span::All(0));
        }
        for b in lo..hi {
            out(a, b, b + 1, Span::Mixed(mixed(i0, i1, b)));
        }
        if hi < b_all {
            out(a, hi, b_all, Span::All(2));
        }
        for b in b_all..b_none {
            out(a, b, b + 1, Span::Mixed(mixed(i0, i1, b)));
        }
        if b_none.max(b_all) < pw {
            out(a, b_none.max(b_all), pw, Span::All(3));
        }
    }
}

/// For every pixel `(a, b)` (as [`pixel_spans`]), the number of its tiles
/// done, current, to do and skipped at `step`.
pub fn pixel_counts(
    f: &Flash,
    pass: Pass,
    step: u64,
    pw: usize,
    ph: usize,
    mut out: impl FnMut(usize, usize, [u64; 4]),
) {
    let (tr, tc) = (f.tile_rows(), f.tile_cols());
    let (pw, ph) = (pw.clamp(1, tc), ph.clamp(1, tr));
    pixel_spans(f, pass, step, pw, ph, |a, b0, b1, span| {
        for b in b0..b1 {
            out(
                a,
                b,
                match span {
                    Span::Mixed(n) => n,
                    Span::All(k) => {
                        let area =
                            ((edge(a + 1, tr, ph) - edge(a, tr, ph)) * (edge(b + 1, tc, pw) - edge(b, tc, pw))) as u64;
                        std::array::from_fn(|x| if x == k { area } else { 0 })
                    }
                },
            );
        }
    });
}

/// The colour of a pixel from its counts: the current tile's if it holds
/// it, else its states' colours mixed in proportion.
fn pixel_color(n: [u64; 4], palette: &[Rgba; 4]) -> [u8; 4] {
    if n[1] > 0 {
        let c = palette[1];
        return [c.0, c.1, c.2, 255];
    }
    let total = n[0] + n[2] + n[3];
    for k in [0, 2, 3] {
        if n[k] == total {
            let c = palette[k];
            return [c.0, c.1, c.2, 255];
        }
    }
    let t = total as f64;
    let (w0, w2, w3) = (n[0] as f64 / t, n[2] as f64 / t, n[3] as f64 / t);
    let (p0, p2, p3) = (palette[0], palette[2], palette[3]);
    let mix = |a: u8, b: u8, c: u8| (w0 * a as f64 + w2 * b as f64 + w3 * c as f64).round() as u8;
    [mix(p0.0, p2.0, p3.0), mix(p0.1, p2.1, p3.1), mix(p0.2, p2.2, p3.2), 255]
}

/// The legend's words, in the order of [`colors`]: done, current, to do,
/// skipped (already translated).
pub type Legend<'a> = [&'a str; 4];

/// The legend under the grid, part of the drawing: a row (or two) of swatches
/// and words, each row centred on `cx` inside `x0..x1`, the first row's middle
/// at `y`; returns the height it takes. The skipped entry only where the
/// mask skips tiles (FlashAttention-1's order computes them). Drawn in the
/// scene, the legend is sized with it: the page's fit to the screen counts
/// it, and a saved PNG or GIF carries it.
#[allow(clippy::too_many_arguments)] // a place, a size and what to say
fn draw_legend(
    scene: &mut Scene,
    f: &Flash,
    th: &Theme,
    legend: &Legend,
    size: f64,
    (x0, x1): (f64, f64),
    cx: f64,
    y: f64,
) -> f64 {
    let cols = colors(th);
    let shown = if f.tiles_skipped() > 0 { 4 } else { 3 };
    let (sw, gap, space) = (size * 0.85, size * 0.35, size * 1.1);
    let item_w = |k: usize| sw + gap + text_width(legend[k], size);
    // Entries into rows no wider than x1 − x0.
    let mut rows: Vec<Vec<usize>> = vec![vec![]];
    let mut used = 0.0;
    for k in 0..shown {
        let w = item_w(k);
        let row = rows.last_mut().expect("a row");
        if !row.is_empty() && used + space + w > x1 - x0 {
            rows.push(vec![k]);
            used = w;
        } else {
            used += if row.is_empty() { w } else { space + w };
            row.push(k);
        }
    }
    let line = size * 1.5;
    for (r, row) in rows.iter().enumerate() {
        let total: f64 = row.iter().map(|&k| item_w(k)).sum::<f64>() + space * (row.len() - 1) as f64;
        let mut x = (cx - total / 2.0).clamp(x0, (x1 - total).max(x0));
        let cy = y + r as f64 * line;
        for &k in row {
            let (sx, sy) = (x, cy - sw / 2.0);
            // The current tile is outlined in the grid: so is its swatch.
            let stroke = if k == 1 { (th.fg, 2.0 * th.line_scale) } else { (th.grid, th.line_scale) };
            scene.rect(sx, sy, sw, sw, Some(cols[k]), Some(stroke));
            if k == 3 {
                scene.line(sx + 2.0, sy + 2.0, sx + sw - 2.0, sy + sw - 2.0, th.grid, 1.0);
            }
            scene.text(sx + sw + gap, cy, legend[k], size, th.fg, Align::Left, false);
            x += item_w(k) + space;
        }
    }
    rows.len() as f64 * line
}

pub fn draw(f: &Flash, pass: Pass, step: u64, th: &Theme, width: f64, caption: &str, legend: &Legend) -> Scene {
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
    // No text under the mode's smallest: a long caption wraps rather than shrinks.
    let cap_h = scene.text_wrapped(pad, pad + font * 0.7, caption, font, width - 2.0 * pad, th.fg, true);
    let gx = pad + label + (avail - w).max(0.0) / 2.0;
    let gy = pad + cap_h + font * 0.55 + label;
    let axis = (font * 0.9).max(th.min_text());
    scene.text(gx + w / 2.0, gy - label * 0.55, "j →", axis, th.muted, Align::Center, false);
    scene.text(gx - 6.0, gy + h / 2.0, "i ↓", axis, th.muted, Align::Right, false);
    let cols = colors(th);
    let front = Front::new(f, pass, step);
    if cell >= 6.0 {
        // At most ~160 × 90 tiles here: one rectangle per run of equal tiles
        // in a row, then the grid lines over them.
        for i in 0..tr {
            let y = gy + i as f64 * cell;
            let state = |j: usize| if f.skipped(i, j) { 3 } else { front.state(i, j) };
            let mut j0 = 0;
            while j0 < tc {
                let st = state(j0);
                let mut j1 = j0 + 1;
                while j1 < tc && state(j1) == st {
                    j1 += 1;
                }
                scene.rect(gx + j0 as f64 * cell, y, (j1 - j0) as f64 * cell, cell, Some(cols[st]), None);
                if st == 3 && cell >= 10.0 {
                    for j in j0..j1 {
                        let x = gx + j as f64 * cell;
                        scene.line(x + 2.0, y + 2.0, x + cell - 2.0, y + cell - 2.0, th.grid, 1.0);
                    }
                }
                j0 = j1;
            }
        }
        let lw = 0.75 * th.line_scale;
        for i in 1..tr {
            let y = gy + i as f64 * cell;
            scene.line(gx, y, gx + w, y, th.grid, lw);
        }
        for j in 1..tc {
            let x = gx + j as f64 * cell;
            scene.line(x, gy, x, gy + h, th.grid, lw);
        }
    } else {
        let (pw, ph) = (tc.min(MAX_BITMAP), tr.min(MAX_BITMAP));
        // Skipped tiles white as in the legend, hatched like the slashes of
        // the rectangles where a pixel is wholly skipped.
        let hatch = th.grid.mix(th.bg, 0.35);
        let hatch = [hatch.0, hatch.1, hatch.2, 255];
        let mut px = vec![0u8; pw * ph * 4];
        let solid = cols.map(|c| [c.0, c.1, c.2, 255]);
        pixel_spans(f, pass, step, pw, ph, |a, b0, b1, span| {
            let row = &mut px[(a * pw + b0) * 4..(a * pw + b1) * 4];
            match span {
                Span::All(3) => {
                    for (b, p) in (b0..b1).zip(row.chunks_exact_mut(4)) {
                        p.copy_from_slice(if (b + ph - a) % HATCH == 0 { &hatch } else { &solid[3] });
                    }
                }
                Span::All(k) => row.chunks_exact_mut(4).for_each(|p| p.copy_from_slice(&solid[k])),
                Span::Mixed(n) => row.copy_from_slice(&pixel_color(n, &cols)),
            }
        });
        scene.shapes.push(Shape::Bitmap { x: gx, y: gy, w, h, px_w: pw as u32, px_h: ph as u32, rgba: px });
    }
    // The current tile, outlined even when it is less than a pixel.
    if let Some((i, j)) = front.current() {
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
    let key_y = gy + h + axis * 1.2;
    let key_h = draw_legend(&mut scene, f, th, legend, axis, (pad, width - pad), gx + w / 2.0, key_y);
    scene.height = key_y - axis * 0.75 + key_h + pad;
    scene
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::flash::io::Order;
    use crate::sim::flash::Params;
    use proptest::prelude::*;

    fn sched(n: usize, bq: usize, bk: usize, causal: bool) -> Flash {
        Flash::schedule_only(Params {
            n,
            d: 8,
            bq,
            bk,
            causal,
            skip_masked: true,
            seed: 0,
            elem_bytes: 2,
            sram: 1 << 20,
        })
    }

    /// The English legend (src/topics/flash/texts.tsv).
    const LEGEND: Legend = ["computed", "this step", "to do", "skipped (causal mask)"];

    /// The step of every tile against the step shown, as the first version did.
    fn brute_state(f: &Flash, pass: Pass, step: u64, i: usize, j: usize) -> usize {
        match f.step_of(pass, i, j) {
            None => 3,
            Some(s) if s == step => 1,
            Some(s) if s < step => 0,
            Some(_) => 2,
        }
    }

    #[test]
    fn projected_in_the_decks_column_the_grid_fits_at_18_px() {
        // The deck's FlashAttention views (n = 1024, 256, 64; 32- and 64-row
        // query blocks) at 1024 × 768 projected: a column about 640 px wide
        // and 470 tall under the deck's bar. Taller, the page shrank the canvas and its text
        // showed at 16.9–17.9 px.
        let th = Theme::present();
        for (n, bq, bk, causal) in [(1024, 32, 32, true), (256, 32, 32, true), (64, 64, 32, false)] {
            let f = sched(n, bq, bk, causal);
            for pass in [Pass::Fwd, Pass::Bwd] {
                for column in [620.0, 640.0, 700.0] {
                    let caption = "Step 20 of 528: query block 4 × key block 2";
                    // Narrowed as the page's fit does (ui::kit::panel::fit::refit), not under 420 px.
                    let mut width: f64 = column;
                    let mut s = draw(&f, pass, 20, &th, width, caption, &LEGEND);
                    while s.height > 472.0 && width > 421.0 {
                        width = (width * 470.0 / s.height).floor().max(420.0);
                        s = draw(&f, pass, 20, &th, width, caption, &LEGEND);
                    }
                    assert!(s.height <= 472.0, "n = {n} in {column}: {} tall at {width}", s.height);
                    assert!(s.smallest_text(0.0).unwrap() >= 18.0, "n = {n}: {:?}", s.smallest_text(0.0));
                }
            }
        }
    }

    #[test]
    fn the_legend_is_under_the_grid_inside_the_drawing() {
        // Its words inside the drawing's width (a row that doesn't fit wraps),
        // under the grid, in the drawing's height, at the mode's smallest text
        // or larger; "skipped" only where the mask skips tiles.
        for th in [Theme::normal(), Theme::present()] {
            for (causal, bq) in [(true, 32), (false, 32), (true, 1)] {
                let f = sched(256, bq, 32, causal);
                for width in [300.0, 330.0, 420.0, 640.0, 1200.0] {
                    let s = draw(&f, Pass::Fwd, 3, &th, width, "Step 3", &LEGEND);
                    let texts = s.texts();
                    assert_eq!(texts.contains(&LEGEND[3]), f.tiles_skipped() > 0);
                    assert!(LEGEND[..3].iter().all(|w| texts.contains(w)), "{texts:?}");
                    // The grid's outline: the largest unfilled rectangle.
                    let grid_bottom = s
                        .shapes
                        .iter()
                        .filter_map(|x| match x {
                            Shape::Rect { y, w, h, fill: None, .. } => Some((w * h, y + h)),
                            _ => None,
                        })
                        .fold((0.0, 0.0), |a, b| if b.0 > a.0 { b } else { a })
                        .1;
                    let mut rows = vec![];
                    for shape in &s.shapes {
                        if let Shape::Text { x, y, text, size, .. } = shape {
                            if LEGEND.contains(&text.as_str()) {
                                assert!(x + text_width(text, *size) <= width, "{text} at {width}");
                                assert!(y - size / 2.0 > grid_bottom && y + size / 2.0 <= s.height, "{text} at {y}");
                                assert!(*size >= th.min_text());
                                rows.push(*y as i64);
                            }
                        }
                    }
                    rows.dedup();
                    // One row where the width holds it, two in a projected
                    // column, three on a projected phone.
                    let most = if width >= 640.0 {
                        1
                    } else if width >= 420.0 {
                        2
                    } else {
                        3
                    };
                    assert!(rows.len() <= most, "{rows:?} at {width}");
                }
            }
        }
    }

    #[test]
    fn states_partition_the_grid() {
        let f = sched(100, 16, 16, true);
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
        let big = sched(65536, 64, 64, true);
        let s = draw(&big, Pass::Fwd, 1000, &Theme::normal(), 900.0, "", &LEGEND);
        assert!(s.shapes.iter().any(|x| matches!(x, Shape::Bitmap { px_w: 512, px_h: 512, .. })));
    }

    #[test]
    fn one_element_tiles_at_the_largest_n_draw_a_bounded_bitmap() {
        // 2³² tiles (the first version allocated 16 GiB here and panicked).
        for causal in [false, true] {
            let f = sched(65536, 1, 1, causal);
            for pass in [Pass::Fwd, Pass::Bwd] {
                for step in [0, 1, f.steps() / 3, f.steps(), f.steps() + 1] {
                    let s = draw(&f, pass, step, &Theme::normal(), 900.0, "x", &LEGEND);
                    let bitmaps: Vec<_> = s
                        .shapes
                        .iter()
                        .filter_map(|x| match x {
                            Shape::Bitmap { px_w, px_h, rgba, .. } => Some((*px_w, *px_h, rgba.len())),
                            _ => None,
                        })
                        .collect();
                    assert_eq!(bitmaps, vec![(512, 512, 512 * 512 * 4)]);
                    // The grid's few shapes and the legend's (a swatch and a word an entry).
                    assert!(s.shapes.len() < 20, "{}", s.shapes.len());
                }
            }
        }
    }

    #[test]
    fn the_bitmap_shows_progress_and_the_mask() {
        let f = sched(65536, 1, 1, true);
        let mut counts = vec![[0u64; 4]; 512 * 512];
        // Forward, halfway through the tiles: the top rows done, the upper
        // triangle skipped, the bottom rows to do.
        let half = f.steps() / 2;
        pixel_counts(&f, Pass::Fwd, half, 512, 512, |a, b, n| counts[a * 512 + b] = n);
        let total: [u64; 4] = counts.iter().fold([0; 4], |acc, n| std::array::from_fn(|k| acc[k] + n[k]));
        assert_eq!(total, [half - 1, 1, f.steps() - half, f.tiles_skipped()]);
        assert_eq!(counts[10 * 512 + 5][0], 128 * 128);
        assert_eq!(counts[5 * 512 + 10][3], 128 * 128);
        assert_eq!(counts[500 * 512 + 5][2], 128 * 128);
        // A few spans a row: uniform runs, the diagonal's pixels, the current row's.
        for (pass, step) in [(Pass::Fwd, 0), (Pass::Fwd, half), (Pass::Bwd, half), (Pass::Bwd, f.steps() + 1)] {
            let (mut next, mut mixed) = ((0, 0), 0);
            pixel_spans(&f, pass, step, 512, 512, |a, b0, b1, span| {
                assert_eq!((a, b0), if next.1 == 512 { (next.0 + 1, 0) } else { next });
                assert!(b1 > b0);
                next = (a, b1);
                mixed += matches!(span, Span::Mixed(_)) as usize;
            });
            assert_eq!(next, (511, 512));
            assert!(mixed <= 4 * 512 + 512, "{mixed}");
        }
        // And so the bitmap: done, skipped (white or hatched), to do.
        let th = Theme::normal();
        let s = draw(&f, Pass::Fwd, half, &th, 900.0, "", &LEGEND);
        let Some(Shape::Bitmap { rgba, .. }) = s.shapes.iter().find(|x| matches!(x, Shape::Bitmap { .. })) else {
            panic!("no bitmap")
        };
        let px = |a: usize, b: usize| {
            Rgba::rgb(rgba[(a * 512 + b) * 4], rgba[(a * 512 + b) * 4 + 1], rgba[(a * 512 + b) * 4 + 2])
        };
        let cols = colors(&th);
        assert_eq!(px(10, 5), cols[0]);
        assert_eq!(px(500, 5), cols[2]);
        assert_eq!(px(5, 10), cols[3]);
        assert_ne!(px(5, 5 + HATCH), cols[3]);
        // A pixel on the diagonal mixes done and skipped.
        let diag = px(10, 10);
        assert!(diag != cols[0] && diag != cols[3]);
    }

    #[test]
    fn runs_of_rectangles_show_each_tile_as_before() {
        for (n, bq, bk, causal, pass, step) in
            [(100, 16, 16, true, Pass::Fwd, 9), (100, 7, 9, true, Pass::Bwd, 40), (300, 5, 12, false, Pass::Bwd, 333)]
        {
            let f = sched(n, bq, bk, causal);
            let th = Theme::normal();
            let s = draw(&f, pass, step, &th, 900.0, "", &LEGEND);
            let fills: Vec<(f64, f64, f64, f64, Rgba)> = s
                .shapes
                .iter()
                .filter_map(|x| match x {
                    // The tiles' runs (the legend's swatches are outlined).
                    Shape::Rect { x, y, w, h, fill: Some(c), stroke: None } => Some((*x, *y, *w, *h, *c)),
                    _ => None,
                })
                .collect();
            assert!(fills.len() <= 5 * f.tile_rows());
            // Recover the layout from the fills: the grid's corner and cell size.
            let gx = fills.iter().map(|r| r.0).fold(f64::INFINITY, f64::min);
            let gy = fills.iter().map(|r| r.1).fold(f64::INFINITY, f64::min);
            let cell = fills[0].3;
            assert!(cell >= 6.0);
            for i in 0..f.tile_rows() {
                for j in 0..f.tile_cols() {
                    let (cx, cy) = (gx + (j as f64 + 0.5) * cell, gy + (i as f64 + 0.5) * cell);
                    let hit: Vec<_> =
                        fills.iter().filter(|r| cx > r.0 && cx < r.0 + r.2 && cy > r.1 && cy < r.1 + r.3).collect();
                    assert_eq!(hit.len(), 1);
                    assert_eq!(hit[0].4, colors(&th)[brute_state(&f, pass, step, i, j)], "tile {i},{j}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]
        #[test]
        fn pixel_counts_are_the_tiles_they_cover(n in 1usize..200, bq in 1usize..30, bk in 1usize..30,
                                                 causal in any::<bool>(), bwd in any::<bool>(), kv in any::<bool>(),
                                                 pw in 1usize..12, ph in 1usize..12, frac in 0.0f64..1.05) {
            // FlashAttention-1's order steps the forward pass K/V outer too.
            let order = if kv { Order::KvOuter } else { Order::QOuter };
            let f = sched(n, bq, bk, causal).with_order(order);
            let pass = if bwd { Pass::Bwd } else { Pass::Fwd };
            let step = ((f.steps() + 1) as f64 * frac) as u64;
            let (tr, tc) = (f.tile_rows(), f.tile_cols());
            let (pw, ph) = (pw.min(tc), ph.min(tr));
            let mut seen = 0;
            pixel_counts(&f, pass, step, pw, ph, |a, b, got| {
                let mut want = [0u64; 4];
                for i in edge(a, tr, ph)..edge(a + 1, tr, ph) {
                    for j in edge(b, tc, pw)..edge(b + 1, tc, pw) {
                        want[brute_state(&f, pass, step, i, j)] += 1;
                        assert_eq!(tile_state(&f, pass, step, i, j), brute_state(&f, pass, step, i, j));
                    }
                }
                assert_eq!(got, want, "pixel {},{}", a, b);
                seen += 1;
            });
            prop_assert_eq!(seen, pw * ph);
        }
    }
}
