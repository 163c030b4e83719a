//! Systolic array → scene. Small arrays are drawn PE by PE with the values in
//! flight and each accumulator; larger ones as a heat map (one pixel per PE)
//! with the operand queues as bands along the edges.

use crate::scene::{Align, Rgba, Scene, Shape, Theme};
use crate::sim::systolic::{Dataflow, Phase, Pos, Systolic};

/// Arrays with at most this many rows and columns are drawn with numbers.
pub const DETAIL_MAX: usize = 12;
/// Queue slots drawn before "…".
const MAX_SLOTS: usize = 8;
const PAD: f64 = 10.0;

/// The colour of a PE in a cycle.
pub fn pe_color(s: &Systolic, c: u64, i: usize, j: usize, th: &Theme) -> Rgba {
    brief_color(s, s.pe_brief(c, i, j), th)
}

/// The colour of a PE from its [`Systolic::pe_brief`].
fn brief_color(s: &Systolic, (busy, progress, weight): (bool, f32, bool), th: &Theme) -> Rgba {
    match s.params().dataflow {
        Dataflow::Os => {
            if busy {
                th.busy.mix(th.busy_hot, progress)
            } else if progress >= 1.0 {
                th.done
            } else {
                th.waiting
            }
        }
        Dataflow::Ws | Dataflow::Is => {
            if busy {
                th.busy.mix(th.busy_hot, progress)
            } else if weight {
                th.weight
            } else {
                th.waiting
            }
        }
    }
}

pub fn phase_tint(phase: Phase, th: &Theme) -> Rgba {
    match phase {
        Phase::Start => th.muted,
        Phase::LoadWeights => th.load_tint,
        Phase::Fill => th.fill_tint,
        Phase::Steady => th.steady_tint,
        Phase::Drain => th.drain_tint,
        Phase::FillDrain => th.fill_tint.mix(th.drain_tint, 0.5),
    }
}

/// The names drawn beside the array (translated by the caller).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labels<'a> {
    /// The left operand, beside its queues.
    pub a: &'a str,
    /// The top operand (output-stationary).
    pub b: &'a str,
    /// The top operand as weights (weight-stationary).
    pub weights: &'a str,
    /// The output accumulators (weight-/input-stationary).
    pub c: &'a str,
    /// The title of the fold strip.
    pub strip: &'a str,
    /// What the strip's sizes mean, in words (under the strip).
    pub dims: &'a str,
}

impl Labels<'static> {
    /// The bare matrix names, for tests.
    pub const PLAIN: Labels<'static> = Labels { a: "A", b: "B", weights: "B (W)", c: "C", strip: "Folds", dims: "" };
}

/// Draw the array at cycle `c` into a scene `width` CSS pixels wide; `caption`
/// is the (already translated) line shown above the array.
pub fn draw(s: &Systolic, c: u64, th: &Theme, width: f64, caption: &str, labels: &Labels) -> Scene {
    draw_with_strip(s, c, th, width, caption, labels).0
}

/// Where the fold strip was drawn (scene coordinates), to find the fold
/// under a click.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StripBox {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// Fold blocks along the strip's rows (inner) and columns (outer).
    pub fi: usize,
    pub fo: usize,
    /// Size of one full block (the array's rows × columns), in pixels.
    pub block_w: f64,
    pub block_h: f64,
}

impl StripBox {
    /// The fold whose block is at `(x, y)` (a few pixels of slack around the
    /// strip), in schedule order (column block by column block).
    pub fn fold_at(&self, x: f64, y: f64) -> Option<usize> {
        const SLACK: f64 = 4.0;
        let inside =
            x >= self.x - SLACK && x <= self.x + self.w + SLACK && y >= self.y - SLACK && y <= self.y + self.h + SLACK;
        if !inside {
            return None;
        }
        let block = |d: f64, size: f64, n: usize| ((d / size.max(1e-9)).floor().max(0.0) as usize).min(n - 1);
        let qo = block(x - self.x, self.block_w, self.fo);
        let qi = block(y - self.y, self.block_h, self.fi);
        Some(qo * self.fi + qi)
    }
}

/// [`draw`], and where the fold strip is (`None`: one fold, no strip).
pub fn draw_with_strip(
    s: &Systolic,
    c: u64,
    th: &Theme,
    width: f64,
    caption: &str,
    labels: &Labels,
) -> (Scene, Option<StripBox>) {
    let p = s.params();
    let width = width.max(240.0);
    let mut scene = if p.rows <= DETAIL_MAX && p.cols <= DETAIL_MAX {
        draw_detail(s, c, th, width, caption, labels)
    } else {
        draw_heat(s, c, th, width, caption)
    };
    // One tile of work has nothing to show in a strip of folds.
    let strip = (s.folds() > 1).then(|| fold_strip(&mut scene, s, c, th, labels.strip, labels.dims));
    (scene, strip)
}

/// The fold strip below the array: the matrix the folds tile (OS: `C`; WS:
/// `B`; IS: `Aᵀ`), the folds done, the current one highlighted, the rest
/// waiting. Drawn from the current fold alone (folds go column block by
/// column block), so a million folds cost what four do; fold borders only
/// when they are at least 4 px apart. Under it, `dims`: its sizes in words.
pub fn fold_strip(scene: &mut Scene, s: &Systolic, c: u64, th: &Theme, title: &str, dims: &str) -> StripBox {
    let sc = s.schedule();
    let f = s.fold_at(c);
    let y0 = scene.height - PAD + 8.0 * th.text_scale;
    let lab = 13.0 * th.text_scale;
    // The title on as many lines as the drawing's width needs.
    let title_lines = crate::scene::wrap(title, lab, scene.width - 2.0 * PAD);
    scene.text_lines(PAD, y0 + lab / 2.0, &title_lines, lab, th.fg, true);
    let top = y0 + lab + (title_lines.len().max(1) - 1) as f64 * lab * 1.25 + 6.0;
    let max_w = (scene.width - 2.0 * PAD).min(420.0 * th.text_scale);
    let (er, ec) = (sc.er as f64, sc.ec as f64);
    let max_h = 120.0 * th.text_scale;
    let k = (max_w / ec).min(max_h / er);
    let (w, h) = ((ec * k).max(24.0), (er * k).max(12.0));
    let (sx, sy) = (w / ec, h / er);
    let x0 = PAD;
    let (rows, cols) = (s.params().rows as f64, s.params().cols as f64);
    scene.rect(x0, top, w, h, Some(th.waiting), Some((th.grid, th.line_scale)));
    let started = c > 0;
    // Column blocks before the current one are done; in the current one, the row blocks above.
    let done_cols = f.c0 as f64 * sx;
    if started && done_cols > 0.0 {
        scene.rect(x0, top, done_cols, h, Some(th.done), None);
    }
    if started && f.r0 > 0 {
        scene.rect(x0 + done_cols, top, f.uc as f64 * sx, f.r0 as f64 * sy, Some(th.done), None);
    }
    let (cx, cy) = (x0 + f.c0 as f64 * sx, top + f.r0 as f64 * sy);
    let (cw, ch) = ((f.uc as f64 * sx).max(3.0), (f.ur as f64 * sy).max(3.0));
    scene.rect(cx, cy, cw, ch, Some(th.busy_hot), Some((th.fg, 1.5 * th.line_scale)));
    if cols * sx >= 4.0 && sc.fo > 1 {
        for q in 1..sc.fo {
            let x = x0 + q as f64 * cols * sx;
            scene.line(x, top, x, top + h, th.bg, 1.0);
        }
    }
    if rows * sy >= 4.0 && sc.fi > 1 {
        for q in 1..sc.fi {
            let y = top + q as f64 * rows * sy;
            scene.line(x0, y, x0 + w, y, th.bg, 1.0);
        }
    }
    // The sizes, said in words by the caller ("C is 256 × 128: 8 × 4 = 32
    // folds of up to 32 × 32 …"), wrapped under the strip.
    let size = 12.0 * th.text_scale;
    let lines = crate::scene::wrap(dims, size, scene.width - 2.0 * PAD);
    let text_top = top + h + 6.0 + size / 2.0;
    scene.text_lines(x0, text_top, &lines, size, th.muted, false);
    let n_lines = lines.iter().filter(|l| !l.is_empty()).count() as f64;
    scene.height = top + h + if n_lines > 0.0 { 6.0 + n_lines * size * 1.25 } else { 0.0 } + PAD;
    StripBox { x: x0, y: top, w, h, fi: sc.fi, fo: sc.fo, block_w: cols * sx, block_h: rows * sy }
}

fn caption_bar(scene: &mut Scene, s: &Systolic, c: u64, th: &Theme, caption: &str) -> f64 {
    // The caption at full size on one or two lines; only a caption that
    // needs more than two is made smaller (never below the mode's smallest text).
    let avail = scene.width - 2.0 * PAD - 10.0;
    let full = 15.0 * th.text_scale;
    let mut size = full;
    let mut wrapped = crate::scene::wrap(caption, size, avail);
    let floor = th.min_text();
    while size > floor && wrapped.len() > 2 {
        size = (size * 0.92).max(floor);
        wrapped = crate::scene::wrap(caption, size, avail);
    }
    let lines = wrapped.len() as f64;
    let h = (full * 2.0).max(lines * size * 1.25 + size * 0.75);
    let tint = phase_tint(s.phase_at(c), th);
    scene.rect(0.0, 0.0, 6.0 * th.line_scale, h, Some(tint), None);
    scene.text_lines(PAD + 4.0, h / 2.0 - (lines - 1.0) * size * 0.625, &wrapped, size, th.fg, true);
    h + 6.0
}

fn queue_slots(s: &Systolic) -> (usize, usize) {
    let p = s.params();
    let t = s.stream_len();
    let (left, top) = match p.dataflow {
        Dataflow::Os => (p.rows - 1 + t, p.cols - 1 + t),
        Dataflow::Ws | Dataflow::Is => (p.rows - 1 + t, p.rows),
    };
    (left.min(MAX_SLOTS), top.min(MAX_SLOTS))
}

/// Narrower than this (CSS pixels), the array is drawn for a phone: two
/// queue slots a side (the rest is "…") and the left operand's name above its
/// queue, so that every column keeps a cell its numbers fit in.
pub const NARROW: f64 = 560.0;

fn draw_detail(s: &Systolic, c: u64, th: &Theme, width: f64, caption: &str, labels: &Labels) -> Scene {
    let p = *s.params();
    let ws = p.dataflow != Dataflow::Os;
    let (mut ql, mut qt) = queue_slots(s);
    let narrow = width < NARROW;
    if narrow {
        (ql, qt) = (ql.min(2), qt.min(2));
    }
    // "…" where any operand waits past the slots drawn, not only in the next
    // one: a row skewed by more than the slots shown has its first operand
    // further out, at most rows + cols slots (the skew) past them.
    let (all_l, all_t) = (ql + p.rows + p.cols, qt + p.rows + p.cols);
    let q_ratio = 0.72;
    let label_w = if narrow { 14.0 } else { 26.0 } * th.text_scale;
    let avail = width - 2.0 * PAD - label_w;
    let fit = avail / (ql as f64 * q_ratio + p.cols as f64 + 0.5);
    let cs = if narrow { fit.min(86.0) } else { fit.clamp(26.0, 86.0) };
    let qs = cs * q_ratio;
    let out_h = (cs * 0.62).max(th.min_text() * 1.3);
    let lw = th.line_scale;

    let mut scene = Scene::new(width, 0.0, th.bg);
    let top = caption_bar(&mut scene, s, c, th, caption);
    let gx = PAD + label_w + ql as f64 * qs + cs * 0.3;
    let gy = top + 18.0 * th.text_scale + qt as f64 * qs + cs * 0.3;

    // Edge labels.
    let lab = 17.0 * th.text_scale;
    if narrow {
        // Above the left queue, beside the top operand's name.
        scene.text(PAD, top + 8.0 * th.text_scale, labels.a, lab, th.a_color, Align::Left, true);
    } else {
        scene.text(PAD, gy + p.rows as f64 * cs / 2.0, labels.a, lab, th.a_color, Align::Left, true);
    }
    scene.text(
        gx + p.cols as f64 * cs / 2.0,
        top + 8.0 * th.text_scale,
        if ws { labels.weights } else { labels.b },
        lab,
        th.b_color,
        Align::Center,
        true,
    );

    // Queues: slot 0 is next to the array.
    // Operands are single digits: projected, they may fill more of their box.
    let vsize = if th.present { (qs * 0.62).min(26.0) } else { (qs * 0.42).min(22.0) }.max(th.min_text());
    for i in 0..p.rows {
        let cy = gy + i as f64 * cs + cs / 2.0;
        scene.line(gx - ql as f64 * qs - cs * 0.15, cy, gx, cy, th.grid, 1.0 * lw);
        for slot in 0..ql {
            let x = gx - cs * 0.3 - (slot as f64 + 1.0) * qs;
            if let Some(v) = s.left_queue(c, i, slot) {
                scene.rect(
                    x + qs * 0.08,
                    cy - qs * 0.42,
                    qs * 0.84,
                    qs * 0.84,
                    Some(th.bg),
                    Some((th.a_color, 1.5 * lw)),
                );
                scene.text(x + qs / 2.0, cy, v.to_string(), vsize, th.a_color, Align::Center, true);
            }
        }
        if (ql..all_l).any(|slot| s.left_queue(c, i, slot).is_some()) {
            scene.text(gx - cs * 0.3 - ql as f64 * qs - 4.0, cy, "…", vsize, th.a_color, Align::Right, true);
        }
    }
    for j in 0..p.cols {
        let cx = gx + j as f64 * cs + cs / 2.0;
        scene.line(cx, gy - qt as f64 * qs - cs * 0.15, cx, gy, th.grid, 1.0 * lw);
        for slot in 0..qt {
            let y = gy - cs * 0.3 - (slot as f64 + 1.0) * qs;
            if let Some(v) = s.top_queue(c, j, slot) {
                scene.rect(
                    cx - qs * 0.42,
                    y + qs * 0.08,
                    qs * 0.84,
                    qs * 0.84,
                    Some(th.bg),
                    Some((th.b_color, 1.5 * lw)),
                );
                scene.text(cx, y + qs / 2.0, v.to_string(), vsize, th.b_color, Align::Center, true);
            }
        }
        if (qt..all_t).any(|slot| s.top_queue(c, j, slot).is_some()) {
            scene.text(cx, gy - cs * 0.3 - qt as f64 * qs - 6.0, "⋮", vsize, th.b_color, Align::Center, true);
        }
    }

    // The PEs.
    // Projected, the figure in the middle of a PE fills more of it (the
    // lecture hall reads it from afar); a long one is narrowed to its box.
    let big_em = if th.text_scale > 1.0 { 0.40 } else { 0.30 };
    // Never under the mode's smallest text (12 px, projected 18).
    let min = th.min_text();
    let big_for = |digits: usize| {
        ((cs * big_em).min(26.0) * th.text_scale.sqrt()).min(cs * 0.88 / (0.56 * digits.max(1) as f64)).max(min)
    };
    let small = ((cs * 0.2).min(16.0) * th.text_scale.sqrt()).max(min);
    // A cell too small for the operands in its corners and the figure in
    // its middle at a legible size shows the figure alone (the operands are
    // in the queues); a little larger, the figure sits low enough to clear them.
    let corners = cs >= small * 2.6;
    let mid = |y: f64| {
        if !corners {
            cs * 0.55
        } else if small > cs * 0.24 {
            cs * 0.68
        } else {
            y
        }
    };
    for i in 0..p.rows {
        for j in 0..p.cols {
            let x = gx + j as f64 * cs;
            let y = gy + i as f64 * cs;
            let m = cs * 0.06;
            let pe = s.pe(c, i, j);
            let fill = pe_color(s, c, i, j, th);
            let stroke = if pe.busy { (th.busy_hot, 2.5 * lw) } else { (th.grid, 1.0 * lw) };
            scene.rect(x + m, y + m, cs - 2.0 * m, cs - 2.0 * m, Some(fill), Some(stroke));
            if let (Some(a), true) = (pe.a, corners) {
                scene.text(x + m + 3.0, y + m + small * 0.75, a.to_string(), small, th.a_color, Align::Left, true);
            }
            // The top operand (or the weight held) in the upper right corner.
            let corner_b = |scene: &mut Scene, b: Option<i32>| {
                if let (Some(b), true) = (b, corners) {
                    scene.text(
                        x + cs - m - 3.0,
                        y + m + small * 0.75,
                        b.to_string(),
                        small,
                        th.b_color,
                        Align::Right,
                        true,
                    );
                }
            };
            match p.dataflow {
                Dataflow::Os => {
                    corner_b(&mut scene, pe.b);
                    if let Some(acc) = pe.acc {
                        let acc = acc.to_string();
                        scene.text(
                            x + cs / 2.0,
                            y + mid(cs * 0.58),
                            &acc,
                            big_for(acc.len()),
                            th.fg,
                            Align::Center,
                            true,
                        );
                    }
                }
                Dataflow::Ws | Dataflow::Is => match (pe.acc, pe.b) {
                    // Busy: the partial sum it passes down, its weight in the corner.
                    (Some(ps), w) => {
                        corner_b(&mut scene, w);
                        let ps = ps.to_string();
                        scene.text(x + cs / 2.0, y + mid(cs * 0.6), &ps, big_for(ps.len()), th.fg, Align::Center, true);
                    }
                    // Idle: the weight it holds is what matters.
                    (None, Some(w)) => {
                        let w = w.to_string();
                        scene.text(x + cs / 2.0, y + cs * 0.55, &w, big_for(w.len()), th.b_color, Align::Center, true);
                    }
                    (None, None) => {}
                },
            }
        }
    }
    let mut bottom = gy + p.rows as f64 * cs;

    // Weight-/input-stationary: the fold's output accumulators below the
    // array, one row per streamed vector (when the stream is short enough to show).
    let t_len = s.stream_len();
    if ws && t_len <= DETAIL_MAX {
        let oy = bottom + 22.0 * th.text_scale;
        scene.text(PAD, oy + t_len as f64 * out_h / 2.0, labels.c, lab, th.fg, Align::Left, true);
        let pos = s.pos(c);
        let f = s.fold_at(c);
        for t in 0..t_len {
            for j in 0..f.uc {
                let x = gx + j as f64 * cs;
                let y = oy + t as f64 * out_h;
                let fresh = pos.and_then(|q| q.compute_step()).is_some_and(|u| (t + f.ur + j) as u64 == u);
                let fill = if fresh { th.busy } else { th.bg };
                scene.rect(x + 2.0, y + 1.0, cs - 4.0, out_h - 2.0, Some(fill), Some((th.grid, 1.0 * lw)));
                let v = s.output(c, t, j);
                scene.text(
                    x + cs / 2.0,
                    y + out_h / 2.0,
                    v.to_string(),
                    (small * 1.15).min(out_h * 0.8).max(min),
                    th.fg,
                    Align::Center,
                    fresh,
                );
            }
        }
        bottom = oy + t_len as f64 * out_h;
    }
    scene.height = bottom + PAD;
    scene
}

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

fn draw_heat(s: &Systolic, c: u64, th: &Theme, width: f64, caption: &str) -> Scene {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::systolic::Params;

    fn sim(rows: usize, cols: usize, k: usize, df: Dataflow) -> Systolic {
        Systolic::new(Params { rows, cols, m: rows, k, n: cols, dataflow: df, ..Params::default() })
    }

    /// The heat map and the operand bands, pixel by pixel as they were
    /// first written, against the row copies that replaced them (same bytes).
    #[test]
    fn heat_map_and_bands_are_the_pixel_by_pixel_ones() {
        let rgba = |x: Rgba| [x.0, x.1, x.2, x.3];
        let th = Theme::normal();
        let shapes = [(16, 16, 8, 8, 8), (40, 24, 70, 9, 50), (7, 5, 3, 20, 2), (64, 64, 64, 64, 64)];
        for (rows, cols, m, k, n) in shapes {
            for df in [Dataflow::Os, Dataflow::Ws, Dataflow::Is] {
                let s = Systolic::new(Params { rows, cols, m, k, n, dataflow: df, ..Params::default() });
                let total = s.total_cycles();
                for c in (0..=total).step_by((total as usize / 37).max(1)).chain([total]) {
                    let p = s.params();
                    let pos = s.pos(c);
                    let f = s.fold_at(c);
                    let mut want = vec![0u8; p.rows * p.cols * 4];
                    if pos.is_none_or(|q| q.load_step().is_some()) {
                        let prev_uc = if f.index > 0 { s.schedule().fold(f.index - 1).uc } else { f.uc };
                        let mut cuts = vec![0, f.uc.min(p.cols), prev_uc.min(p.cols), p.cols];
                        cuts.sort_unstable();
                        cuts.dedup();
                        for i in 0..p.rows {
                            for w in cuts.windows(2) {
                                let colour = rgba(brief_color(&s, s.pe_brief_in(pos.as_ref(), i, w[0]), &th));
                                for j in w[0]..w[1] {
                                    want[(i * p.cols + j) * 4..(i * p.cols + j + 1) * 4].copy_from_slice(&colour);
                                }
                            }
                        }
                    } else {
                        for i in 0..p.rows {
                            for j in 0..p.cols {
                                let b = if i < f.ur && j < f.uc {
                                    s.pe_brief_in(pos.as_ref(), i, j)
                                } else {
                                    (false, 0.0, false)
                                };
                                // The diagonal's colour: every PE of one diagonal is its first's.
                                let b = if i < f.ur && j < f.uc {
                                    let d = i + j;
                                    let (i0, j0) = if d < f.uc { (0, d) } else { (d - f.uc + 1, f.uc - 1) };
                                    s.pe_brief_in(pos.as_ref(), i0, j0)
                                } else {
                                    b
                                };
                                want[(i * p.cols + j) * 4..(i * p.cols + j + 1) * 4]
                                    .copy_from_slice(&rgba(brief_color(&s, b, &th)));
                            }
                        }
                    }
                    assert_eq!(heat_pixels(&s, c, &th), want, "{rows}x{cols} m{m} k{k} n{n} {df:?} cycle {c}");
                    // The bands of the heat drawing.
                    let scene = draw_heat(&s, c, &th, 800.0, "");
                    let (left, top) = queue_bands(&s, c);
                    let bw = 26usize;
                    let bitmaps: Vec<&Vec<u8>> = scene
                        .shapes
                        .iter()
                        .filter_map(|sh| if let Shape::Bitmap { rgba, .. } = sh { Some(rgba) } else { None })
                        .collect();
                    let mut lp = vec![0u8; bw * p.rows * 4];
                    for (i, frac) in left.iter().enumerate() {
                        let filled = (frac * 26.0).round() as usize;
                        for x in 0..bw {
                            let col = if x >= bw - filled { th.a_color } else { th.waiting };
                            lp[(i * bw + x) * 4..(i * bw + x) * 4 + 4].copy_from_slice(&rgba(col));
                        }
                    }
                    let mut tp = vec![0u8; bw * p.cols * 4];
                    for (j, frac) in top.iter().enumerate() {
                        let filled = (frac * 26.0).round() as usize;
                        for y in 0..bw {
                            let col = if y >= bw - filled { th.b_color } else { th.waiting };
                            tp[(y * p.cols + j) * 4..(y * p.cols + j) * 4 + 4].copy_from_slice(&rgba(col));
                        }
                    }
                    assert_eq!(bitmaps[0], &lp, "left band, {df:?} cycle {c}");
                    assert_eq!(bitmaps[1], &tp, "top band, {df:?} cycle {c}");
                }
            }
        }
    }

    #[test]
    fn fill_rgba_fills_every_pixel() {
        for n in 0..40 {
            let mut v = vec![9u8; n * 4];
            fill_rgba(&mut v, [1, 2, 3, 4]);
            assert_eq!(v, [1u8, 2, 3, 4].repeat(n));
        }
    }

    #[test]
    fn on_a_phone_all_eight_columns_are_drawn_legibly() {
        // The lecture's 8 × 8, K = 8 output-stationary preset at cycle 12, in
        // the 302–352 px a 360–390 px phone gives the canvas (and in a 960 × 540 embed).
        let s = sim(8, 8, 8, Dataflow::Os);
        for width in [300.0, 322.0, 352.0, 420.0, 631.0] {
            let th = Theme::normal();
            let scene =
                draw(&s, 12, &th, width, "Cycle 12 of 22: output-stationary, A enters from the left", &Labels::PLAIN);
            assert!(scene.smallest_text(0.0).unwrap() >= th.min_text(), "{width}: {:?}", scene.smallest_text(0.0));
            // 64 PEs, each inside the drawing's width.
            let pes = scene
                .shapes
                .iter()
                .filter(|sh| matches!(sh, Shape::Rect { fill: Some(_), stroke: Some(_), w, h, .. } if (w - h).abs() < 1e-9 && *w > 20.0))
                .filter(|sh| matches!(sh, Shape::Rect { x, w, .. } if *x >= 0.0 && x + w <= width))
                .count();
            assert!(pes >= 64, "{width}: {pes} PEs inside");
            for sh in &scene.shapes {
                if let Shape::Text { x, text, size, align, .. } = sh {
                    let w = crate::scene::text_width(text, *size);
                    let left = match align {
                        Align::Left => *x,
                        Align::Center => x - w / 2.0,
                        Align::Right => x - w,
                    };
                    assert!(left >= -0.5, "{width}: {text:?} starts at {left}");
                }
            }
        }
        // Projected, 18 px at least.
        let th = Theme::present();
        let scene = draw(&s, 12, &th, 640.0, "Cycle 12", &Labels::PLAIN);
        assert!(scene.smallest_text(0.0).unwrap() >= 18.0);
    }

    #[test]
    fn every_queue_with_operands_still_to_come_says_so() {
        // The lecture's 4 × 4, K = 6 at cycle 0 on a phone (two slots a
        // side): rows 2 and 3 are skewed past the slots drawn, yet each of
        // the four rows and columns has operands to come.
        let s = sim(4, 4, 6, Dataflow::Os);
        let scene = draw(&s, 0, &Theme::normal(), 320.0, "cycle 0", &Labels::PLAIN);
        let count = |t: &str| scene.texts().iter().filter(|x| **x == t).count();
        assert_eq!((count("…"), count("⋮")), (4, 4));
        // At the end no operand waits: none.
        let end = draw(&s, s.total_cycles(), &Theme::normal(), 320.0, "end", &Labels::PLAIN);
        assert!(!end.texts().iter().any(|x| *x == "…" || *x == "⋮"));
    }

    #[test]
    fn small_arrays_show_every_accumulator() {
        let s = sim(4, 4, 6, Dataflow::Os);
        let scene = draw(&s, 12, &Theme::normal(), 800.0, "cycle 12", &Labels::PLAIN);
        let texts = scene.texts();
        let (out, _) = s.check();
        for v in out {
            assert!(texts.contains(&v.to_string().as_str()), "missing {v}");
        }
        assert!(scene.height > 100.0 && scene.width == 800.0);
        assert!(!scene.shapes.iter().any(|x| matches!(x, Shape::Bitmap { .. })));
    }

    #[test]
    fn queues_are_skewed_at_cycle_zero() {
        let s = sim(4, 4, 6, Dataflow::Os);
        // Row 0's first value is next; row 3 has three empty slots first.
        assert_eq!(s.left_queue(0, 0, 0), Some(s.a(0, 0)));
        assert_eq!(s.left_queue(0, 3, 2), None);
        assert_eq!(s.left_queue(0, 3, 3), Some(s.a(3, 0)));
        let (l, t) = queue_bands(&s, 0);
        assert!(l.iter().chain(&t).all(|&f| f == 1.0));
    }

    #[test]
    fn heat_map_has_one_pixel_per_pe_and_busy_count_matches() {
        let th = Theme::normal();
        for df in Dataflow::ALL {
            let s = sim(128, 128, 512, df);
            for c in [0, 1, 100, s.total_cycles() / 2, s.total_cycles()] {
                let px = heat_pixels(&s, c, &th);
                assert_eq!(px.len(), 128 * 128 * 4);
                // The palette shortcut gives every PE its own colour.
                for n in (0..128 * 128).step_by(37) {
                    let Rgba(r, g, b, a) = pe_color(&s, c, n / 128, n % 128, &th);
                    assert_eq!(&px[n * 4..n * 4 + 4], &[r, g, b, a], "PE {n} at cycle {c}");
                }
                let busy = (0..128 * 128).filter(|&n| s.pe_brief(c, n / 128, n % 128).0).count() as u64;
                assert_eq!(busy, s.busy_at(c));
                let scene = draw(&s, c, &th, 900.0, "", &Labels::PLAIN);
                assert!(scene.shapes.iter().any(|x| matches!(x, Shape::Bitmap { px_w: 128, px_h: 128, .. })));
            }
        }
    }

    #[test]
    fn heat_map_of_folded_runs_matches_every_pe() {
        let th = Theme::normal();
        for df in Dataflow::ALL {
            for dbuf in [false, true] {
                let s = Systolic::new(Params {
                    rows: 20,
                    cols: 16,
                    m: 50,
                    k: 45,
                    n: 37,
                    dataflow: df,
                    dbuf,
                    ..Params::default()
                });
                for c in (0..=s.total_cycles()).step_by(7) {
                    let px = heat_pixels(&s, c, &th);
                    for n in 0..20 * 16 {
                        let Rgba(r, g, b, a) = pe_color(&s, c, n / 16, n % 16, &th);
                        assert_eq!(&px[n * 4..n * 4 + 4], &[r, g, b, a], "{df:?} PE {n} at cycle {c}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_fold_strip_is_drawn_for_folded_runs_only() {
        let one = sim(4, 4, 6, Dataflow::Os);
        let folded = Systolic::new(Params { rows: 4, cols: 4, m: 9, k: 6, n: 5, ..Params::default() });
        let has_strip =
            |s: &Systolic| draw(s, 3, &Theme::normal(), 800.0, "", &Labels::PLAIN).texts().contains(&"Folds");
        assert!(!has_strip(&one));
        assert!(has_strip(&folded));
    }

    /// The strip says its sizes in the caller's words, and a click on a
    /// block finds that block's fold (column block by column block).
    #[test]
    fn the_fold_strip_is_labelled_and_clickable() {
        // OS: C is 9 × 5 on a 4 × 4 array: 3 row blocks × 2 column blocks.
        let s = Systolic::new(Params { rows: 4, cols: 4, m: 9, k: 6, n: 5, ..Params::default() });
        let labels = Labels { dims: "C is 9 × 5: 3 × 2 = 6 folds", ..Labels::PLAIN };
        let (scene, strip) = draw_with_strip(&s, 3, &Theme::normal(), 800.0, "", &labels);
        assert!(scene.texts().contains(&"C is 9 × 5: 3 × 2 = 6 folds"));
        let b = strip.expect("a folded run has a strip");
        assert_eq!((b.fi, b.fo), (3, 2));
        assert!(b.y + b.h < scene.height);
        let centre = |qo: f64, qi: f64| (b.x + (qo + 0.5) * b.block_w, b.y + (qi + 0.5) * b.block_h);
        for qo in 0..2 {
            for qi in 0..3 {
                let (x, y) = centre(qo as f64, qi as f64);
                let index = b.fold_at(x.min(b.x + b.w - 1.0), y.min(b.y + b.h - 1.0)).unwrap();
                let f = s.schedule().fold(index);
                assert_eq!((f.qo, f.qi), (qo, qi));
            }
        }
        assert_eq!(b.fold_at(b.x - 20.0, b.y), None);
        assert_eq!(b.fold_at(b.x, b.y + b.h + 20.0), None);
        // A narrow drawing wraps the strip's title rather than cut it.
        let long = Labels { strip: "Folds: the block of C each fold computes, in schedule order", ..labels };
        let narrow = draw_with_strip(&s, 3, &Theme::present(), 300.0, "", &long).0;
        let pieces = narrow.texts().iter().filter(|t| long.strip.contains(**t) && !t.is_empty()).count();
        assert!(pieces >= 2, "{:?}", narrow.texts());
        // One fold: no strip.
        assert_eq!(draw_with_strip(&sim(4, 4, 6, Dataflow::Os), 3, &Theme::normal(), 800.0, "", &labels).1, None);
    }

    #[test]
    fn weight_stationary_draws_outputs() {
        let s = sim(3, 3, 5, Dataflow::Ws);
        let scene = draw(&s, s.total_cycles(), &Theme::present(), 700.0, "", &Labels::PLAIN);
        let texts = scene.texts();
        for v in &s.check().0 {
            assert!(texts.contains(&v.to_string().as_str()));
        }
    }
}
