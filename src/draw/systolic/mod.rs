//! Systolic array → scene. Small arrays are drawn PE by PE with the values in
//! flight and each accumulator; larger ones as a heat map (one pixel per PE)
//! with the operand queues as bands along the edges.
//!
//! In four parts, by what they draw: `look` (sizes, colours, names, the
//! caption bar), `detail` (a small array PE by PE, with its queues),
//! `heat` (a large one as a heat map with queue bands) and `strip` (the fold
//! strip of a folded run).

mod detail;
mod heat;
mod look;
mod strip;

pub use detail::{DIGIT_EM, NARROW};
pub use heat::{fill_rgba, heat_pixels, queue_bands};
pub use look::{pe_color, phase_tint, Labels, DETAIL_MAX};
pub use strip::{fold_strip, StripBox};

use crate::scene::{Scene, Theme};
use crate::sim::systolic::Systolic;
use detail::draw_detail;
use heat::draw_heat;

/// Draw the array at cycle `c` into a scene `width` CSS pixels wide; `caption`
/// is the (already translated) line shown above the array.
pub fn draw(s: &Systolic, c: u64, th: &Theme, width: f64, caption: &str, labels: &Labels) -> Scene {
    draw_with_strip(s, c, th, width, caption, labels).0
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
    draw_fit(s, c, th, width, f64::INFINITY, caption, labels)
}

/// [`draw_with_strip`] in a box `max_h` CSS pixels tall (projected, the
/// height the screen leaves): a small array sizes its cells to the height
/// when the width would make it taller (see `detail::draw_detail`).
pub fn draw_fit(
    s: &Systolic,
    c: u64,
    th: &Theme,
    width: f64,
    max_h: f64,
    caption: &str,
    labels: &Labels,
) -> (Scene, Option<StripBox>) {
    let p = s.params();
    let width = width.max(240.0);
    let mut scene = if p.rows <= DETAIL_MAX && p.cols <= DETAIL_MAX {
        draw_detail(s, c, th, width, max_h, caption, labels)
    } else {
        draw_heat(s, c, th, width, caption)
    };
    // One tile of work has nothing to show in a strip of folds.
    let strip = (s.folds() > 1).then(|| fold_strip(&mut scene, s, c, th, labels.strip, labels.dims));
    (scene, strip)
}

#[cfg(test)]
mod tests;
