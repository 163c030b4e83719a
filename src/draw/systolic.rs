//! Systolic array → scene. Small arrays are drawn PE by PE with the values in
//! flight and each accumulator; larger ones as a heat map (one pixel per PE)
//! with the operand queues as bands along the edges.

use crate::scene::{Align, Rgba, Scene, Shape, Theme};
use crate::sim::systolic::{Dataflow, Phase, Systolic};

/// Arrays with at most this many rows and columns are drawn with numbers.
pub const DETAIL_MAX: usize = 12;
/// Queue slots drawn before "…".
const MAX_SLOTS: usize = 8;
const PAD: f64 = 10.0;

/// The colour of a PE in a cycle.
pub fn pe_color(s: &Systolic, c: u64, i: usize, j: usize, th: &Theme) -> Rgba {
    let (busy, progress, weight) = s.pe_brief(c, i, j);
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
        Dataflow::Ws => {
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
    /// The output accumulators (weight-stationary).
    pub c: &'a str,
}

impl Labels<'static> {
    /// The bare matrix names, for tests.
    pub const PLAIN: Labels<'static> = Labels { a: "A", b: "B", weights: "B (W)", c: "C" };
}

/// Draw the array at cycle `c` into a scene `width` CSS pixels wide; `caption`
/// is the (already translated) line shown above the array.
pub fn draw(s: &Systolic, c: u64, th: &Theme, width: f64, caption: &str, labels: &Labels) -> Scene {
    let p = s.params();
    let width = width.max(240.0);
    if p.rows <= DETAIL_MAX && p.cols <= DETAIL_MAX {
        draw_detail(s, c, th, width, caption, labels)
    } else {
        draw_heat(s, c, th, width, caption)
    }
}

fn caption_bar(scene: &mut Scene, s: &Systolic, c: u64, th: &Theme, caption: &str) -> f64 {
    // Shrink the caption to fit the width (about 0.56 em per character).
    let chars = caption.chars().count().max(1) as f64;
    let size = (15.0 * th.text_scale).min((scene.width - 2.0 * PAD - 10.0) / (chars * 0.56)).max(9.0);
    let h = 15.0 * th.text_scale * 2.0;
    let tint = phase_tint(s.phase_at(c), th);
    scene.rect(0.0, 0.0, 6.0 * th.line_scale, h, Some(tint), None);
    scene.text(PAD + 4.0, h / 2.0, caption, size, th.fg, Align::Left, true);
    h + 6.0
}

fn queue_slots(s: &Systolic) -> (usize, usize) {
    let p = s.params();
    let (left, top) = match p.dataflow {
        Dataflow::Os => (p.rows - 1 + p.k, p.cols - 1 + p.k),
        Dataflow::Ws => (2 * p.rows - 1, p.rows.min(p.k)),
    };
    (left.min(MAX_SLOTS), top.min(MAX_SLOTS))
}

fn draw_detail(s: &Systolic, c: u64, th: &Theme, width: f64, caption: &str, labels: &Labels) -> Scene {
    let p = *s.params();
    let ws = p.dataflow == Dataflow::Ws;
    let (ql, qt) = queue_slots(s);
    let q_ratio = 0.72;
    let label_w = 26.0 * th.text_scale;
    let avail = width - 2.0 * PAD - label_w;
    let cs = (avail / (ql as f64 * q_ratio + p.cols as f64 + 0.5)).clamp(26.0, 86.0);
    let qs = cs * q_ratio;
    let out_h = cs * 0.62;
    let lw = th.line_scale;

    let mut scene = Scene::new(width, 0.0, th.bg);
    let top = caption_bar(&mut scene, s, c, th, caption);
    let gx = PAD + label_w + ql as f64 * qs + cs * 0.3;
    let gy = top + 18.0 * th.text_scale + qt as f64 * qs + cs * 0.3;

    // Edge labels.
    let lab = 17.0 * th.text_scale;
    scene.text(PAD, gy + p.rows as f64 * cs / 2.0, labels.a, lab, th.a_color, Align::Left, true);
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
    let vsize = (qs * 0.42).min(22.0) * th.text_scale.sqrt();
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
        if s.left_queue(c, i, ql).is_some() {
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
        if s.top_queue(c, j, qt).is_some() {
            scene.text(cx, gy - cs * 0.3 - qt as f64 * qs - 6.0, "⋮", vsize, th.b_color, Align::Center, true);
        }
    }

    // The PEs.
    let big = (cs * 0.30).min(26.0) * th.text_scale.sqrt();
    let small = (cs * 0.2).min(16.0) * th.text_scale.sqrt();
    for i in 0..p.rows {
        for j in 0..p.cols {
            let x = gx + j as f64 * cs;
            let y = gy + i as f64 * cs;
            let m = cs * 0.06;
            let pe = s.pe(c, i, j);
            let fill = pe_color(s, c, i, j, th);
            let stroke = if pe.busy { (th.busy_hot, 2.5 * lw) } else { (th.grid, 1.0 * lw) };
            scene.rect(x + m, y + m, cs - 2.0 * m, cs - 2.0 * m, Some(fill), Some(stroke));
            if let Some(a) = pe.a {
                scene.text(x + m + 3.0, y + m + small * 0.75, a.to_string(), small, th.a_color, Align::Left, true);
            }
            match p.dataflow {
                Dataflow::Os => {
                    if let Some(b) = pe.b {
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
                    if let Some(acc) = pe.acc {
                        scene.text(x + cs / 2.0, y + cs * 0.58, acc.to_string(), big, th.fg, Align::Center, true);
                    }
                }
                Dataflow::Ws => match (pe.acc, pe.b) {
                    // Busy: the partial sum it passes down, its weight in the corner.
                    (Some(ps), w) => {
                        if let Some(w) = w {
                            scene.text(
                                x + cs - m - 3.0,
                                y + m + small * 0.75,
                                w.to_string(),
                                small,
                                th.b_color,
                                Align::Right,
                                true,
                            );
                        }
                        scene.text(x + cs / 2.0, y + cs * 0.6, ps.to_string(), big, th.fg, Align::Center, true);
                    }
                    // Idle: the weight it holds is what matters.
                    (None, Some(w)) => {
                        scene.text(x + cs / 2.0, y + cs * 0.55, w.to_string(), big, th.b_color, Align::Center, true);
                    }
                    (None, None) => {}
                },
            }
        }
    }
    let mut bottom = gy + p.rows as f64 * cs;

    // Weight-stationary: the output accumulators below the array.
    if ws {
        let oy = bottom + 22.0 * th.text_scale;
        scene.text(PAD, oy + p.rows as f64 * out_h / 2.0, labels.c, lab, th.fg, Align::Left, true);
        let pos = (c > 0).then(|| s.ws_pos(c));
        for m_ in 0..p.rows {
            for j in 0..p.cols {
                let x = gx + j as f64 * cs;
                let y = oy + m_ as f64 * out_h;
                let fresh = pos.and_then(|q| q.compute.map(|u| m_ + q.kc + j == u)).unwrap_or(false);
                let fill = if fresh { th.busy } else { th.bg };
                scene.rect(x + 2.0, y + 1.0, cs - 4.0, out_h - 2.0, Some(fill), Some((th.grid, 1.0 * lw)));
                let v = s.ws_output(c, m_, j);
                scene.text(x + cs / 2.0, y + out_h / 2.0, v.to_string(), small * 1.15, th.fg, Align::Center, fresh);
            }
        }
        bottom = oy + p.rows as f64 * out_h;
    }
    scene.height = bottom + PAD;
    scene
}

/// Pixels of the heat map, one per PE, row-major RGBA.
///
/// A PE's colour depends only on its anti-diagonal `i + j` (and, for
/// weight-stationary, on whether its row takes part in the current chunk), so
/// the colours are computed once per diagonal and the pixels filled from that
/// palette: about a microsecond per thousand PEs.
pub fn heat_pixels(s: &Systolic, c: u64, th: &Theme) -> Vec<u8> {
    let p = s.params();
    let mut px = vec![0u8; p.rows * p.cols * 4];
    // Colour of diagonal d, computed at the PE (i, d - i) of any active row i.
    let palette_row = |i: usize| -> Vec<[u8; 4]> {
        (0..p.cols).map(|j| pe_color(s, c, i, j, th)).map(|Rgba(r, g, b, a)| [r, g, b, a]).collect()
    };
    // Rows differ only by a shift along the diagonal, except rows a WS chunk
    // does not use and rows still waiting for their weight during a load.
    let diag: Vec<[u8; 4]> = {
        let i_ref = 0;
        let mut v: Vec<[u8; 4]> = (0..p.rows + p.cols - 1)
            .map(|d| {
                let (i, j) = if d < p.cols { (i_ref, d) } else { (d - p.cols + 1, p.cols - 1) };
                let Rgba(r, g, b, a) = pe_color(s, c, i, j, th);
                [r, g, b, a]
            })
            .collect();
        v.shrink_to_fit();
        v
    };
    let ws_rows = (p.dataflow == Dataflow::Ws && c > 0).then(|| s.ws_pos(c));
    for i in 0..p.rows {
        let row = &mut px[i * p.cols * 4..(i + 1) * p.cols * 4];
        let special = match ws_rows {
            Some(pos) => i >= pos.kc || pos.load.is_some(),
            None => false,
        };
        if special {
            for (j, colour) in palette_row(i).iter().enumerate() {
                row[j * 4..j * 4 + 4].copy_from_slice(colour);
            }
        } else {
            for (j, out) in row.chunks_exact_mut(4).enumerate() {
                out.copy_from_slice(&diag[i + j]);
            }
        }
    }
    px
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
    for (i, frac) in left.iter().enumerate() {
        let filled = (frac * band).round() as usize;
        for x in 0..bw as usize {
            let col = if x >= bw as usize - filled { th.a_color } else { th.waiting };
            let o = (i * bw as usize + x) * 4;
            lp[o..o + 4].copy_from_slice(&[col.0, col.1, col.2, col.3]);
        }
    }
    scene.shapes.push(Shape::Bitmap { x: x0, y: gy, w: band, h, px_w: bw, px_h: p.rows as u32, rgba: lp });
    let mut tp = vec![0u8; (bw as usize) * p.cols * 4];
    for (j, frac) in topb.iter().enumerate() {
        let filled = (frac * band).round() as usize;
        for y in 0..bw as usize {
            let col = if y >= bw as usize - filled { th.b_color } else { th.waiting };
            let o = (y * p.cols + j) * 4;
            tp[o..o + 4].copy_from_slice(&[col.0, col.1, col.2, col.3]);
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
/// waiting to enter at cycle `c`.
pub fn queue_bands(s: &Systolic, c: u64) -> (Vec<f64>, Vec<f64>) {
    let p = s.params();
    match p.dataflow {
        Dataflow::Os => {
            let k = p.k as i64;
            let rem = |lag: usize| (k - (c as i64 - lag as i64).clamp(0, k)) as f64 / k as f64;
            ((0..p.rows).map(rem).collect(), (0..p.cols).map(rem).collect())
        }
        Dataflow::Ws => {
            if c == 0 {
                return (vec![1.0; p.rows], vec![1.0; p.cols]);
            }
            let pos = s.ws_pos(c);
            let m = p.rows as i64;
            let left = (0..p.rows)
                .map(|i| {
                    if i >= pos.kc {
                        return 0.0;
                    }
                    let entered = match pos.compute {
                        None => 0,
                        Some(u) => (u as i64 - i as i64).clamp(0, m),
                    };
                    (m - entered) as f64 / m as f64
                })
                .collect();
            let w = match pos.load {
                Some(l) => (pos.kc - l) as f64 / pos.kc as f64,
                None => 0.0,
            };
            (left, vec![w; p.cols])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::systolic::Params;

    fn sim(rows: usize, cols: usize, k: usize, df: Dataflow) -> Systolic {
        Systolic::new(Params { rows, cols, k, dataflow: df, seed: 1 })
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
    fn weight_stationary_draws_outputs() {
        let s = sim(3, 3, 5, Dataflow::Ws);
        let scene = draw(&s, s.total_cycles(), &Theme::present(), 700.0, "", &Labels::PLAIN);
        let texts = scene.texts();
        for v in &s.check().0 {
            assert!(texts.contains(&v.to_string().as_str()));
        }
    }
}
