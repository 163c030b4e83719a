//! A small array (at most [`DETAIL_MAX`] a side) drawn PE by PE: the operand
//! queues along the edges, each PE's operands and accumulator, and (weight-
//! or input-stationary) the fold's outputs under the array.

use super::look::{caption_bar, pe_color, Labels, DETAIL_MAX, PAD};
use crate::scene::{Align, Scene, Theme};
use crate::sim::systolic::{Dataflow, Systolic};

/// Queue slots drawn before "…".
const MAX_SLOTS: usize = 8;
/// A bold digit's width over the type size: DejaVu Sans Bold (Chromium's
/// sans-serif on Linux) draws its digits 0.7 em wide, more than
/// [`crate::scene::text_width`]'s 0.56; an accumulator sized with the
/// smaller figure ("105" at 18 px) ran over its PE's border.
pub const DIGIT_EM: f64 = 0.68;
/// The PE's box within its cell (a margin of 6 % a side).
const PE_BOX: f64 = 0.88;

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

/// `max_h`: the height the drawing may take (projected, the screen's; else
/// infinite). A drawing that would be taller sizes its cells to the height
/// instead of the width, shows fewer queue slots and centres the array in
/// the width: on a short projected screen the array fills the height at 18 px
/// rather than being drawn narrow and shrunk below it.
pub(super) fn draw_detail(s: &Systolic, c: u64, th: &Theme, width: f64, max_h: f64, cap: &str, l: &Labels) -> Scene {
    let (caption, labels) = (cap, l);
    let p = *s.params();
    let ws = p.dataflow != Dataflow::Os;
    let (mut ql, mut qt) = queue_slots(s);
    let narrow = width < NARROW;
    if narrow {
        (ql, qt) = (ql.min(2), qt.min(2));
    }
    // The smallest text: the mode's (12 px, projected 18), but 12 in a
    // phone's column projected too (eight cells of 18 px figures are wider
    // than a 360 px phone: the array ran past the drawing's right edge).
    let min = if narrow { th.min_text().min(12.0) } else { th.min_text() };
    // "…" where any operand waits past the slots drawn, not only in the next
    // one: a row skewed by more than the slots shown has its first operand
    // further out, at most rows + cols slots (the skew) past them.
    let (all_l, all_t) = (ql + p.rows + p.cols, qt + p.rows + p.cols);
    let q_ratio = 0.72;
    let label_w = if narrow { 14.0 } else { 26.0 } * th.text_scale;
    let avail = width - 2.0 * PAD - label_w;
    let fit = avail / (ql as f64 * q_ratio + p.cols as f64 + 0.5);
    let mut cs = if narrow { fit.min(86.0) } else { fit.clamp(26.0, 86.0) };
    // A phone is held close: lines as on a screen (projected ones, 5 px
    // round a busy 28 px PE, ran the array into one orange block).
    let lw = if narrow { th.line_scale.min(1.0) } else { th.line_scale };

    let mut scene = Scene::new(width, 0.0, th.bg);
    let top = caption_bar(&mut scene, s, c, th, caption);
    // Too tall for `max_h`: the cells from the height (one or two queue slots
    // on top, as many on the left as the width holds), never smaller than a
    // three-digit accumulator at the smallest text needs.
    let t_len = s.stream_len();
    let out_rows = if ws && t_len <= DETAIL_MAX { t_len as f64 } else { 0.0 };
    let fixed = top + 18.0 * th.text_scale + PAD + if out_rows > 0.0 { 22.0 * th.text_scale } else { 0.0 };
    let rows_h = |qt: usize| p.rows as f64 + qt as f64 * q_ratio + 0.3 + out_rows * 0.62;
    let mut x0 = PAD;
    if max_h.is_finite() && fixed + rows_h(qt) * cs > max_h {
        let min_cell = min * DIGIT_EM * 3.0 / PE_BOX;
        // Two slots on top, one if two leave the cells too small.
        qt = qt.min(2);
        if (max_h - fixed) / rows_h(qt) < min_cell {
            qt = qt.min(1);
        }
        // The width holds cells this large with two left slots (fewer slots
        // than the width-sized drawing's eight: the cells grow to the height).
        let widest = avail / (ql.min(2) as f64 * q_ratio + p.cols as f64 + 0.5);
        // The width wins over the figures' size: the whole array is drawn.
        cs = ((max_h - fixed) / rows_h(qt)).min(widest).min(86.0).max(min_cell.min(widest));
        let room = ((avail / cs - p.cols as f64 - 0.5) / q_ratio).floor().max(1.0) as usize;
        ql = ql.min(room);
        // What the array leaves of the width, on both sides.
        x0 += ((avail - (ql as f64 * q_ratio + p.cols as f64 + 0.5) * cs) / 2.0).max(0.0);
    }
    let qs = cs * q_ratio;
    let out_h = (cs * 0.62).max(min * 1.3);
    let gx = x0 + label_w + ql as f64 * qs + cs * 0.3;
    let gy = top + 18.0 * th.text_scale + qt as f64 * qs + cs * 0.3;

    // Edge labels.
    let lab = 17.0 * th.text_scale;
    if narrow {
        // Above the left queue, beside the top operand's name.
        scene.text(x0, top + 8.0 * th.text_scale, labels.a, lab, th.a_color, Align::Left, true);
    } else {
        scene.text(x0, gy + p.rows as f64 * cs / 2.0, labels.a, lab, th.a_color, Align::Left, true);
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
    let vsize = if th.present { (qs * 0.62).min(26.0) } else { (qs * 0.42).min(22.0) }.max(min);
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
    // Never under the smallest text (`min` above).
    let big_for = |digits: usize| {
        ((cs * big_em).min(26.0) * th.text_scale.sqrt()).min(cs * PE_BOX / (DIGIT_EM * digits.max(1) as f64)).max(min)
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
    if ws && t_len <= DETAIL_MAX {
        let oy = bottom + 22.0 * th.text_scale;
        scene.text(x0, oy + t_len as f64 * out_h / 2.0, labels.c, lab, th.fg, Align::Left, true);
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
