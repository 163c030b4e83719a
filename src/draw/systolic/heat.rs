//! A large array drawn as a heat map, one pixel per PE, with the operand
//! queues as bands along the edges.

use super::look::{brief_color, caption_bar, phase_tint, PAD};
use crate::scene::{Rgba, Scene, Shape, Theme};
use crate::sim::systolic::{Dataflow, Pos, Systolic};

/// Pixels of the heat map, one per PE, row-major RGBA.
///
/// Inside the fold's block a PE's colour depends only on its anti-diagonal
/// `i + j` while the stream runs, so the colours are computed once per
/// diagonal and the pixels filled from that palette; outside it every PE
/// waits. During a load a PE's colour depends on its row and on which side of
/// the fold's (and the previous fold's) last used column it is, so each row
/// is filled in at most three runs. About a microsecond per thousand PEs.
pub fn heat_pixels(s: &Systolic, c: u64, th: &Theme) -> Vec<u8> {
    let p = s.params();
    let pos: Option<Pos> = s.pos(c);
    let rgba = |x: Rgba| [x.0, x.1, x.2, x.3];
    let mut px = vec![0u8; p.rows * p.cols * 4];
    if pos.is_none_or(|q| q.load_step().is_some()) {
        let f = s.fold_at(c);
        let prev_uc = if f.index > 0 { s.schedule().fold(f.index - 1).uc } else { f.uc };
        let mut cuts = vec![0, f.uc.min(p.cols), prev_uc.min(p.cols), p.cols];
        cuts.sort_unstable();
        cuts.dedup();
        for i in 0..p.rows {
            let row = &mut px[i * p.cols * 4..(i + 1) * p.cols * 4];
            for w in cuts.windows(2) {
                fill_rgba(&mut row[w[0] * 4..w[1] * 4], rgba(brief_color(s, s.pe_brief_in(pos.as_ref(), i, w[0]), th)));
            }
        }
        return px;
    }
    let f = s.fold_at(c);
    let outside = rgba(brief_color(s, (false, 0.0, false), th));
    // PE (i, j) of the fold shows diagonal i + j: row i is diagonals
    // i .. i + uc, then the PEs outside the fold (whole rows copied, not
    // pixel by pixel: 65,536 PEs at 256 × 256, at every cycle).
    let mut diag = vec![0u8; (f.ur + f.uc).saturating_sub(1) * 4];
    for (d, out) in diag.chunks_exact_mut(4).enumerate() {
        let (i, j) = if d < f.uc { (0, d) } else { (d - f.uc + 1, f.uc - 1) };
        out.copy_from_slice(&rgba(brief_color(s, s.pe_brief_in(pos.as_ref(), i, j), th)));
    }
    let (ur, uc) = (f.ur.min(p.rows), f.uc.min(p.cols));
    fill_rgba(&mut px, outside);
    for i in 0..ur {
        px[i * p.cols * 4..(i * p.cols + uc) * 4].copy_from_slice(&diag[i * 4..(i + uc) * 4]);
    }
    px
}

/// Fill `dst` (whole RGBA pixels) with `colour`: one pixel written, then
/// copied onto itself in doubling runs (a pixel-by-pixel loop is slow in a
/// build optimised for size).
pub fn fill_rgba(dst: &mut [u8], colour: [u8; 4]) {
    if dst.len() < 4 {
        return;
    }
    dst[..4].copy_from_slice(&colour);
    let mut n = 4;
    while n < dst.len() {
        let m = n.min(dst.len() - n);
        dst.copy_within(..m, n);
        n += m;
    }
}

pub(super) fn draw_heat(s: &Systolic, c: u64, th: &Theme, width: f64, caption: &str) -> Scene {
    let p = *s.params();
    let mut scene = Scene::new(width, 0.0, th.bg);
    let top = caption_bar(&mut scene, s, c, th, caption);
    let band = 26.0;
    let gap = 4.0;
    let avail_w = width - 2.0 * PAD - band - gap;
    let max_h = (width * 0.62).clamp(220.0, 620.0);
    let scale = (avail_w / p.cols as f64).min(max_h / p.rows as f64).max(0.5);
    let (w, h) = (p.cols as f64 * scale, p.rows as f64 * scale);
    // Centre the array (and its bands) horizontally.
    let x0 = PAD + ((avail_w - w) / 2.0).max(0.0);
    let gx = x0 + band + gap;
    let gy = top + band + gap;

    // Operand bands: how much of each row's / column's queue is still waiting.
    let (left, topb) = queue_bands(s, c);
    let bw = band as u32;
    let mut lp = vec![0u8; (bw as usize) * p.rows * 4];
    let rgba = |x: Rgba| [x.0, x.1, x.2, x.3];
    for (i, frac) in left.iter().enumerate() {
        let filled = ((frac * band).round() as usize).min(bw as usize);
        let row = &mut lp[i * bw as usize * 4..(i + 1) * bw as usize * 4];
        let (waiting, entered) = row.split_at_mut((bw as usize - filled) * 4);
        fill_rgba(waiting, rgba(th.waiting));
        fill_rgba(entered, rgba(th.a_color));
    }
    scene.shapes.push(Shape::Bitmap { x: x0, y: gy, w: band, h, px_w: bw, px_h: p.rows as u32, rgba: lp });
    let mut tp = vec![0u8; (bw as usize) * p.cols * 4];
    // Row y of the top band: column j is B's colour from its filled depth
    // down. Runs of columns with the same depth are filled at once.
    let depth: Vec<usize> =
        topb.iter().map(|frac| bw as usize - ((frac * band).round() as usize).min(bw as usize)).collect();
    for y in 0..bw as usize {
        let row = &mut tp[y * p.cols * 4..(y + 1) * p.cols * 4];
        let mut j = 0;
        while j < p.cols {
            let on = y >= depth[j];
            let end = (j..p.cols).find(|&k| (y >= depth[k]) != on).unwrap_or(p.cols);
            fill_rgba(&mut row[j * 4..end * 4], rgba(if on { th.b_color } else { th.waiting }));
            j = end;
        }
    }
    scene.shapes.push(Shape::Bitmap { x: gx, y: top, w, h: band, px_w: p.cols as u32, px_h: bw, rgba: tp });

    scene.shapes.push(Shape::Bitmap {
        x: gx,
        y: gy,
        w,
        h,
        px_w: p.cols as u32,
        px_h: p.rows as u32,
        rgba: heat_pixels(s, c, th),
    });
    if scale >= 8.0 {
        for i in 0..=p.rows {
            let y = gy + i as f64 * scale;
            scene.line(gx, y, gx + w, y, th.bg, 1.0);
        }
        for j in 0..=p.cols {
            let x = gx + j as f64 * scale;
            scene.line(x, gy, x, gy + h, th.bg, 1.0);
        }
    }
    scene.rect(gx, gy, w, h, None, Some((phase_tint(s.phase_at(c), th), 2.0 * th.line_scale)));
    scene.height = gy + h + PAD;
    scene
}

/// For each row (left) and column (top), the fraction of its queue still
/// waiting to enter at cycle `c` (rows and columns the fold does not use: 0).
pub fn queue_bands(s: &Systolic, c: u64) -> (Vec<f64>, Vec<f64>) {
    let p = s.params();
    let f = s.fold_at(c);
    let pos = s.pos(c);
    let t = s.stream_len() as i64;
    let step = pos.and_then(|q| q.compute_step()).unwrap_or(0) as i64;
    let rem = |lag: usize, used: usize| {
        if lag >= used {
            return 0.0;
        }
        (t - (step - lag as i64).clamp(0, t)) as f64 / t as f64
    };
    let left = (0..p.rows).map(|i| rem(i, f.ur)).collect();
    let top = match p.dataflow {
        Dataflow::Os => (0..p.cols).map(|j| rem(j, f.uc)).collect(),
        Dataflow::Ws | Dataflow::Is => {
            let load = pos.map_or(s.schedule().load_len(&f), |q| q.load);
            let w = match pos.map_or(Some(0), |q| q.load_step()) {
                Some(l) if load > 0 => (load - l) as f64 / load as f64,
                _ => 0.0,
            };
            (0..p.cols).map(|j| if j < f.uc { w } else { 0.0 }).collect()
        }
    };
    (left, top)
}
