//! Divergence timeline → scene: one row per warp, one column per issue step
//! (binned when there are many), each issued instruction a bar whose height is
//! the fraction of active lanes, coloured by branch; below it, the 32 lanes of
//! the instruction issued in the current step.

use crate::scene::{Align, Rgba, Scene, Theme};
use crate::sim::divergence::{Divergence, Part, LANES};

pub const MAX_COLUMNS: usize = 400;

pub fn part_color(p: Part) -> Rgba {
    match p {
        Part::Then => Rgba::rgb(40, 110, 220),
        Part::Else => Rgba::rgb(150, 70, 200),
        Part::After => Rgba::rgb(110, 118, 132),
    }
}

pub fn draw(d: &Divergence, step: u64, th: &Theme, width: f64, caption: &str) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let font = 13.0 * th.text_scale;
    let label_w = 86.0 * th.text_scale;
    let warps = d.params().warps;
    let total = d.schedule().len();
    let row_h = if warps <= 8 {
        30.0
    } else if warps <= 16 {
        20.0
    } else {
        13.0
    } * th.text_scale.sqrt();
    let avail = width - 2.0 * pad - label_w;
    let cols = total.clamp(1, MAX_COLUMNS);
    let col_w = avail / cols as f64;
    let mut scene = Scene::new(width, 0.0, th.bg);
    let chars = caption.chars().count().max(1) as f64;
    let cap = font.min((width - 2.0 * pad) / (chars * 0.56));
    scene.text(pad, pad + font * 0.7, caption, cap, th.fg, Align::Left, true);
    let top = pad + font * 1.8;
    for w in 0..warps {
        let y = top + w as f64 * row_h;
        scene.text(pad, y + row_h / 2.0, format!("warp {w}"), font * 0.9, th.fg, Align::Left, d.divergent(w));
        if d.divergent(w) {
            // A divergent warp: a two-colour mark (if / else) after its name.
            let m = 7.0 * th.text_scale;
            let mx = pad + label_w - 2.0 * m - 6.0;
            scene.rect(mx, y + row_h / 2.0 - m / 2.0, m, m, Some(part_color(Part::Then)), None);
            scene.rect(mx + m, y + row_h / 2.0 - m / 2.0, m, m, Some(part_color(Part::Else)), None);
        }
        scene.rect(pad + label_w, y + 1.0, avail, row_h - 2.0, Some(th.waiting), None);
    }
    // Each issue into its column (several steps share a column when binned).
    for (k, issue) in d.schedule().iter().enumerate() {
        let c = k * cols / total.max(1);
        let x = pad + label_w + c as f64 * col_w;
        let y = top + issue.warp as f64 * row_h;
        let frac = issue.mask.count_ones() as f64 / LANES as f64;
        let future = (k as u64) >= step;
        let color = part_color(issue.part);
        let (slot, bar) =
            if future { (color.mix(th.bg, 0.9), color.mix(th.bg, 0.7)) } else { (color.mix(th.bg, 0.72), color) };
        // The whole slot tinted (the warp was busy), the active lanes' share solid.
        let full = row_h - 4.0;
        scene.rect(x, y + 2.0, col_w.max(1.0), full, Some(slot), None);
        let h = full * frac;
        scene.rect(x, y + 2.0 + full - h, col_w.max(1.0), h, Some(bar), None);
    }
    // Current step marker.
    if step >= 1 && total > 0 {
        let c = (step as usize - 1) * cols / total;
        let x = pad + label_w + c as f64 * col_w;
        scene.rect(
            x - 1.0,
            top - 3.0,
            col_w.max(1.0) + 2.0,
            warps as f64 * row_h + 6.0,
            None,
            Some((th.fg, 2.0 * th.line_scale)),
        );
    }
    // The lanes of the current instruction.
    let ly = top + warps as f64 * row_h + 16.0 * th.text_scale;
    let lane_w = ((width - 2.0 * pad - label_w) / LANES as f64).min(34.0 * th.text_scale);
    scene.text(pad, ly + lane_w / 2.0, "lanes", font * 0.9, th.muted, Align::Left, false);
    let issue = d.issue_at(step);
    for l in 0..LANES {
        let x = pad + label_w + l as f64 * lane_w;
        let (fill, text) = match issue {
            Some(i) if i.mask & (1 << l) != 0 => (part_color(i.part), th.bg),
            Some(_) => (th.waiting, th.muted),
            None => (th.bg, th.muted),
        };
        scene.rect(x + 1.0, ly, lane_w - 2.0, lane_w, Some(fill), Some((th.grid, 1.0 * th.line_scale)));
        if lane_w >= 16.0 {
            scene.text(
                x + lane_w / 2.0,
                ly + lane_w / 2.0,
                l.to_string(),
                (lane_w * 0.42).min(14.0 * th.text_scale),
                text,
                Align::Center,
                false,
            );
        }
    }
    scene.height = ly + lane_w + pad;
    scene
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::divergence::Params;

    #[test]
    fn current_lanes_follow_the_mask() {
        let d = Divergence::new(Params {
            warps: 4,
            cond: "tid<100".into(),
            then_steps: 10,
            else_steps: 10,
            after_steps: 0,
        });
        // The last step is warp 3's last else instruction: lanes 4..31 active.
        let s = draw(&d, 50, &Theme::normal(), 900.0, "x");
        let lane_rects: Vec<_> = s
            .shapes
            .iter()
            .filter_map(|x| match x {
                crate::scene::Shape::Rect { fill: Some(f), h, w, .. } if (h - w).abs() < 3.0 && *h > 10.0 => Some(*f),
                _ => None,
            })
            .collect();
        let lanes = &lane_rects[lane_rects.len() - LANES..];
        assert!(lanes[..4].iter().all(|c| *c == Theme::normal().waiting));
        assert!(lanes[4..].iter().all(|c| *c == part_color(Part::Else)));
    }
}
