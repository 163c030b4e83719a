//! Recomputation → scene: the two versions one above the other, each with
//! HBM on the left, the SM on the right and the access of this step as an
//! arrow between them (a read from HBM to the SM, a write back), the arrays
//! HBM holds, the sigmoids evaluated, and below them every access made so
//! far as a square (R or W), forward then backward: nine squares against
//! five at the lecture's three sigmoids.

use crate::scene::{text_width, Align, Rgba, Scene, Theme};
use crate::sim::recompute::{Access, Array, Dir, Lane, Pass, Run, Version};
use crate::sim::Steppable;

const PAD: f64 = 10.0;
/// Every text is at least this size × the theme's text scale.
pub const MIN_TEXT: f64 = 12.0;

/// The words drawn (translated by the caller).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labels<'a> {
    pub store: &'a str,
    pub recompute: &'a str,
    pub hbm: &'a str,
    pub sm: &'a str,
    /// "accesses"
    pub accesses: &'a str,
    /// "waits"
    pub waits: &'a str,
    /// "done"
    pub done: &'a str,
    /// "sigmoids evaluated"
    pub sigmoids: &'a str,
    /// "recomputed in registers"
    pub in_registers: &'a str,
    pub forward: &'a str,
    pub backward: &'a str,
    /// Inside a version's empty track of accesses, before its first one.
    pub track: &'a str,
}

impl Labels<'static> {
    /// English words, for tests.
    pub const PLAIN: Labels<'static> = Labels {
        store: "Store activations",
        recompute: "Recompute",
        hbm: "HBM",
        sm: "SM",
        accesses: "accesses",
        waits: "waits",
        done: "done",
        sigmoids: "sigmoids",
        in_registers: "recomputed in registers",
        forward: "forward",
        backward: "backward",
        track: "HBM accesses, in order",
    };
}

/// The colour of an access: reads in the A colour (blue), writes hot.
fn dir_color(d: Dir, th: &Theme) -> Rgba {
    match d {
        Dir::Read => th.a_color,
        Dir::Write => th.busy_hot,
    }
}

/// The letter of an access.
fn dir_letter(d: Dir) -> &'static str {
    match d {
        Dir::Read => "R",
        Dir::Write => "W",
    }
}

/// Draw the run at step `t`, `width` CSS pixels wide; `caption` is the
/// (translated) line above.
pub fn draw(run: &Run, t: u64, th: &Theme, width: f64, caption: &str, labels: &Labels) -> Scene {
    let width = width.max(240.0);
    let ts = th.text_scale;
    let s = run.state_at(t);
    let mut scene = Scene::new(width, 0.0, th.bg);
    // Caption, wrapped, never smaller than the other text.
    let cap = 15.0 * ts;
    let h = scene.text_wrapped(PAD, PAD + cap / 2.0, caption, cap, width - 2.0 * PAD, th.fg, true);
    let mut y = PAD + h + 4.0 * ts;
    // The accesses of the longer version size the squares of both.
    let slots = run.steps().max(1) as f64;
    if width >= two_columns(th) {
        // Wide: the two versions side by side, as tall as one (on a short
        // projected screen the stacked pair was shrunk below 18 px).
        let half = (width / 2.0).floor();
        let bottom = s
            .lanes
            .iter()
            .enumerate()
            .map(|(i, lane)| draw_lane(&mut scene, run, lane, th, (i as f64 * half, half), y, labels, slots))
            .fold(y, f64::max);
        scene.line(half, y, half, bottom, th.grid, th.line_scale);
        scene.height = bottom + PAD;
        return scene;
    }
    for lane in &s.lanes {
        y = draw_lane(&mut scene, run, lane, th, (0.0, width), y, labels, slots);
        y += 10.0 * ts;
    }
    scene.height = y + PAD - 10.0 * ts;
    scene
}

/// From this width (CSS pixels) the two versions are drawn side by side:
/// projected only (300 px a version at 18 px text), where the screen's
/// height is short; on a monitor one above the other compare best.
pub fn two_columns(th: &Theme) -> f64 {
    if th.present {
        400.0 * th.text_scale
    } else {
        f64::INFINITY
    }
}

/// One version in the columns `x0..x0 + w`, from `top`; returns its bottom.
#[allow(clippy::too_many_arguments)] // the lane, where, and its words
fn draw_lane(
    scene: &mut Scene,
    run: &Run,
    lane: &Lane,
    th: &Theme,
    (x0, w): (f64, f64),
    top: f64,
    labels: &Labels,
    slots: f64,
) -> f64 {
    let ts = th.text_scale;
    let lw = th.line_scale;
    let f = MIN_TEXT * ts;
    let head = 16.0 * ts;
    let name = match lane.version {
        Version::Store => labels.store,
        Version::Recompute => labels.recompute,
    };
    let total = match lane.version {
        Version::Store => run.r.accesses_store(),
        Version::Recompute => run.r.accesses_recompute(),
    };
    // Header: the version, and its count so far against its total; on a
    // line of its own under the name when the two don't fit side by side
    // (bold type runs wider than `text_width`'s estimate: a fifth of room).
    scene.text(x0 + PAD, top + head / 2.0, name, head, th.fg, Align::Left, true);
    let count = format!("{} / {} {}", lane.done, total, labels.accesses);
    let one_line = (text_width(name, head) + text_width(&count, head)) * 1.2 + head <= w - 2.0 * PAD;
    let count_y = if one_line { top + head / 2.0 } else { top + head * 1.75 };
    scene.text(x0 + w - PAD, count_y, count, head, th.fg, Align::Right, true);
    let y = if one_line { top } else { top + head * 1.25 } + head + 8.0 * ts;

    // HBM (left) and the SM (right), the current access between them.
    // On a phone the SM is wider (its words wrap less), the arrow shorter.
    let (hbm_frac, sm_frac) = if w < 440.0 { (0.38, 0.36) } else { (0.4, 0.3) };
    let box_w = ((w - 2.0 * PAD) * hbm_frac).floor();
    let sm_w = ((w - 2.0 * PAD) * sm_frac).floor();
    let hbm_x = x0 + PAD;
    let sm_x = x0 + w - PAD - sm_w;
    // The arrays in HBM as chips, wrapped inside the box.
    let chip_h = f * 1.6;
    let gap = 4.0 * ts;
    let mut chips: Vec<(f64, f64, Array)> = Vec::new();
    let (mut cx, mut cy) = (hbm_x + 6.0, y + f * 1.4 + 6.0);
    for &a in &lane.in_hbm {
        let cw = text_width(&a.name(), f) + 10.0 * ts;
        if cx + cw > hbm_x + box_w - 6.0 && cx > hbm_x + 6.0 {
            cx = hbm_x + 6.0;
            cy += chip_h + gap;
        }
        chips.push((cx, cy, a));
        cx += cw + gap;
    }
    // The SM's lines: its name, the sigmoids evaluated, what they are.
    let recomputing = lane.version == Version::Recompute
        && lane.current == Some(Access { pass: Pass::Backward, dir: Dir::Read, array: Array::X });
    let sub = if recomputing { labels.in_registers } else { labels.sigmoids };
    let sub_lines = crate::scene::wrap(sub, f, sm_w - 10.0);
    let sub_lines = &sub_lines[..sub_lines.len().min(3)];
    let big = 18.0 * ts;
    let sig_y = y + f * 1.4 + 4.0 + big * 0.6;
    let sub_y = sig_y + big * 0.6 + f * 0.8;
    let sm_h = sub_y - y + (sub_lines.len() as f64 - 0.5) * f * 1.25 + 6.0;
    let box_h = (cy + chip_h + 6.0 - y).max(f * 1.4 + 12.0 + chip_h * 2.0 + gap).max(sm_h);
    scene.rect(hbm_x, y, box_w, box_h, Some(th.waiting), Some((th.grid, lw)));
    scene.text(hbm_x + 6.0, y + f * 0.8, labels.hbm, f, th.muted, Align::Left, true);
    let moving = lane.current.map(|a| a.array);
    for (x, cy, a) in chips {
        let cw = text_width(&a.name(), f) + 10.0 * ts;
        let hot = moving == Some(a);
        let (fill, stroke) = match lane.current {
            Some(acc) if hot => (th.bg, (dir_color(acc.dir, th), 2.5 * lw)),
            _ => (th.bg, (th.grid, lw)),
        };
        scene.rect(x, cy, cw, chip_h, Some(fill), Some(stroke));
        scene.text(x + cw / 2.0, cy + chip_h / 2.0, a.name(), f, th.fg, Align::Center, hot);
    }
    // The SM: the sigmoids evaluated so far.
    scene.rect(sm_x, y, sm_w, box_h, Some(th.bg), Some((th.fg, 1.5 * lw)));
    scene.text(sm_x + 6.0, y + f * 0.8, labels.sm, f, th.muted, Align::Left, true);
    let sig = format!("σ × {}", lane.sigmoids);
    scene.text(sm_x + sm_w / 2.0, sig_y, sig, big, th.fg, Align::Center, true);
    let sub_color = if recomputing { th.steady_tint } else { th.muted };
    scene.text_lines(sm_x + 6.0, sub_y, sub_lines, f, sub_color, recomputing);
    // The arrow of this step's access.
    let (ax0, ax1) = (hbm_x + box_w + 6.0, sm_x - 6.0);
    let ay = y + box_h / 2.0;
    match lane.current {
        Some(acc) => {
            let c = dir_color(acc.dir, th);
            scene.line(ax0, ay, ax1, ay, c, 3.0 * lw);
            let (tip, back) = match acc.dir {
                Dir::Read => (ax1, -1.0),
                Dir::Write => (ax0, 1.0),
            };
            let head_len = 10.0 * lw.sqrt();
            scene.line(tip, ay, tip + back * head_len, ay - head_len * 0.7, c, 3.0 * lw);
            scene.line(tip, ay, tip + back * head_len, ay + head_len * 0.7, c, 3.0 * lw);
            let label = format!("{} {}", dir_letter(acc.dir), acc.array.name());
            scene.text((ax0 + ax1) / 2.0, ay - f * 0.9, label, f, c, Align::Center, true);
        }
        None => {
            scene.line(ax0, ay, ax1, ay, th.grid, lw);
            let word = if lane.finished {
                labels.done
            } else if lane.done > 0 {
                labels.waits
            } else {
                ""
            };
            if !word.is_empty() {
                scene.text((ax0 + ax1) / 2.0, ay - f * 0.9, word, f, th.muted, Align::Center, false);
            }
        }
    }
    let mut y = y + box_h + 8.0 * ts;

    // Every access so far as a square, forward then backward.
    let pass_gap = 10.0 * ts;
    let side = ((w - 2.0 * PAD - pass_gap) / slots).min(34.0 * ts).floor();
    let letter = f;
    let show_letters = side >= letter * 1.2;
    let show_names = side >= letter * 1.6;
    let made = made_accesses(run, lane);
    let mut x = x0 + PAD;
    let mut last_pass = Pass::Forward;
    for acc in &made {
        if acc.pass != last_pass {
            x += pass_gap;
            last_pass = acc.pass;
        }
        let c = dir_color(acc.dir, th);
        scene.rect(x + 1.0, y, side - 2.0, side, Some(c), None);
        if show_letters {
            scene.text(x + side / 2.0, y + side / 2.0, dir_letter(acc.dir), letter, th.bg, Align::Center, true);
        }
        if show_names && text_width(&acc.array.name(), letter) <= side + 2.0 {
            scene.text(
                x + side / 2.0,
                y + side + letter * 0.7,
                acc.array.name(),
                letter,
                th.muted,
                Align::Center,
                false,
            );
        }
        x += side;
    }
    // The outline of the version's whole run, so that what is left shows.
    let own = pass_slots(run, lane.version);
    let full = own.0 as f64 * side + pass_gap + own.1 as f64 * side;
    scene.rect(x0 + PAD, y - 2.0, full.max(side), side + 4.0, None, Some((th.grid, lw)));
    // Before the first access the outline is empty: say what fills it.
    if made.is_empty() && text_width(labels.track, f) + 12.0 <= full && f <= side + 2.0 {
        scene.text(x0 + PAD + 6.0, y + side / 2.0, labels.track, f, th.muted, Align::Left, false);
    }
    y += side + if show_names { letter * 1.4 } else { 4.0 };
    y
}

/// The accesses a version has made by its lane's step, in order.
fn made_accesses(run: &Run, lane: &Lane) -> Vec<Access> {
    use crate::sim::recompute::pass_accesses;
    let mut all = pass_accesses(&run.r, lane.version, Pass::Forward);
    all.extend(pass_accesses(&run.r, lane.version, Pass::Backward));
    all.truncate(lane.done as usize);
    all
}

/// A version's accesses in forward and in backward.
fn pass_slots(run: &Run, v: Version) -> (usize, usize) {
    use crate::sim::recompute::pass_accesses;
    (pass_accesses(&run.r, v, Pass::Forward).len(), pass_accesses(&run.r, v, Pass::Backward).len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Shape;
    use crate::sim::fusion::Recompute;
    use proptest::prelude::*;

    fn run(depth: u64, upstream: bool) -> Run {
        Run::new(Recompute { depth, n: 1 << 20, elem_bytes: 4, upstream })
    }

    /// The squares of accesses, by colour: (reads, writes).
    fn squares(scene: &Scene, th: &Theme) -> (usize, usize) {
        let count = |c: Rgba| {
            scene
                .shapes
                .iter()
                .filter(|s| matches!(s, Shape::Rect { fill: Some(f), stroke: None, .. } if *f == c))
                .count()
        };
        (count(th.a_color), count(th.busy_hot))
    }

    #[test]
    fn the_end_shows_nine_squares_against_five() {
        let th = Theme::normal();
        let r = run(3, true);
        let s = draw(&r, r.steps(), &th, 800.0, "Step 9 of 9", &Labels::PLAIN);
        // Storing: 5 reads + 4 writes; recomputing: 3 reads + 2 writes.
        assert_eq!(squares(&s, &th), (5 + 3, 4 + 2));
        let texts = s.texts();
        assert!(texts.contains(&"9 / 9 accesses") && texts.contains(&"5 / 5 accesses"), "{texts:?}");
        assert!(texts.contains(&"σ × 3") && texts.contains(&"σ × 6"), "{texts:?}");
        // The slides' count: 8 against 4.
        let r = run(3, false);
        let s = draw(&r, r.steps(), &th, 800.0, "", &Labels::PLAIN);
        assert!(s.texts().contains(&"8 / 8 accesses") && s.texts().contains(&"4 / 4 accesses"));
        assert_eq!(squares(&s, &th), (4 + 2, 4 + 2));
    }

    #[test]
    fn an_empty_track_says_what_fills_it() {
        let th = Theme::normal();
        let r = run(3, true);
        let count = |t: u64| {
            draw(&r, t, &th, 800.0, "", &Labels::PLAIN).texts().iter().filter(|x| **x == Labels::PLAIN.track).count()
        };
        assert_eq!(count(0), 2, "both versions' tracks before any access");
        assert_eq!(count(r.steps()), 0);
    }

    #[test]
    fn a_step_draws_its_access_and_the_waiting_version() {
        let th = Theme::normal();
        let r = run(3, true);
        // Step 3: storing writes s2, recomputing has finished its forward and waits.
        let s = draw(&r, 3, &th, 800.0, "", &Labels::PLAIN);
        let texts = s.texts();
        assert!(texts.contains(&"W s2") && texts.contains(&"waits"), "{texts:?}");
        // Step 6 (backward): recomputing reads x and recomputes in registers.
        let s = draw(&r, 6, &th, 800.0, "", &Labels::PLAIN);
        assert!(s.texts().contains(&"R x") && s.texts().contains(&"recomputed in registers"));
        assert!(s.texts().contains(&"R s3"));
        // Step 0: nothing moved.
        let s = draw(&r, 0, &th, 800.0, "", &Labels::PLAIN);
        assert_eq!(squares(&s, &th), (0, 0));
    }

    fn text_boxes(s: &Scene) -> Vec<(String, f64, f64, f64, f64)> {
        s.text_boxes()
    }

    #[test]
    fn projected_in_the_decks_column_both_versions_fit_at_18_px_without_overlap() {
        // Deck views 18 and 19 at 1024 × 768 projected: a column about 640 px
        // wide and 500 tall. Stacked, the pair was 570 px tall at its
        // narrowest and shown at 12.2–16.6 px, "Store activations" running
        // into "8 / 8 accesses".
        let th = Theme::present();
        for up in [false, true] {
            let r = run(3, up);
            for t in 0..=r.steps() {
                for width in [620.0, 640.0, 700.0, 900.0] {
                    let s =
                        draw(&r, t, &th, width, "Step 0 of 8: x is in HBM; forward has not started", &Labels::PLAIN);
                    assert!(s.height <= 480.0, "{width} step {t}: {} tall", s.height);
                    assert!(s.smallest_text(0.0).unwrap() >= 18.0);
                    let boxes = text_boxes(&s);
                    for (i, a) in boxes.iter().enumerate() {
                        for b in &boxes[i + 1..] {
                            let overlap = a.1 < b.3 - 0.5 && b.1 < a.3 - 0.5 && a.2 < b.4 - 0.5 && b.2 < a.4 - 0.5;
                            let header =
                                |t: &str| t == "Store activations" || t == "Recompute" || t.contains("accesses");
                            if header(&a.0) || header(&b.0) {
                                assert!(!overlap, "{width} step {t}: {:?} over {:?}", a, b);
                            }
                        }
                    }
                }
            }
        }
        // Narrow (a phone, projected or not), one above the other as before;
        // the header's count under the name when both don't fit on a line.
        let r = run(3, false);
        let s = draw(&r, 8, &th, 420.0, "", &Labels::PLAIN);
        let store = text_boxes(&s).into_iter().find(|b| b.0 == "Store activations").unwrap();
        let count = text_boxes(&s).into_iter().find(|b| b.0 == "8 / 8 accesses").unwrap();
        assert!(count.2 >= store.4 - 0.5, "{store:?} {count:?}");
        let recompute = text_boxes(&s).into_iter().find(|b| b.0 == "Recompute").unwrap();
        assert!(recompute.2 > count.4);
    }

    proptest! {
        /// Whatever the depth, width and mode: everything inside the scene,
        /// no text under 12 px (× the theme's scale), and one square per access made.
        #[test]
        fn fits_and_stays_legible(depth in 1u64..17, up in any::<bool>(), t in 0u64..40,
                                  width in 240.0f64..1800.0, present in any::<bool>()) {
            let th = Theme::for_mode(present);
            let r = run(depth, up);
            let s = draw(&r, t, &th, width, "Step", &Labels::PLAIN);
            prop_assert!(s.smallest_text(0.0).unwrap() >= MIN_TEXT * th.text_scale - 1e-9);
            for sh in &s.shapes {
                if let Shape::Rect { x, y, w, h, .. } = sh {
                    prop_assert!(*x >= 0.0 && *x + *w <= s.width + 0.5 && *y >= 0.0 && *y + *h <= s.height + 0.5, "{sh:?}");
                }
            }
            let st = r.state_at(t);
            let (reads, writes) = squares(&s, &th);
            prop_assert_eq!(reads as u64, st.lanes[0].reads + st.lanes[1].reads);
            prop_assert_eq!(writes as u64, st.lanes[0].writes + st.lanes[1].writes);
        }
    }
}
