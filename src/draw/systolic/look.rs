//! What every drawing of the array shares: its sizes, the colour of a PE
//! and of a phase, the names beside the array and the caption bar.

use crate::scene::{Rgba, Scene, Theme};
use crate::sim::systolic::{Dataflow, Phase, Systolic};

/// Arrays with at most this many rows and columns are drawn with numbers.
pub const DETAIL_MAX: usize = 12;
/// The margin around the drawing.
pub(super) const PAD: f64 = 10.0;

/// The colour of a PE in a cycle.
pub fn pe_color(s: &Systolic, c: u64, i: usize, j: usize, th: &Theme) -> Rgba {
    brief_color(s, s.pe_brief(c, i, j), th)
}

/// The colour of a PE from its [`Systolic::pe_brief`].
pub(super) fn brief_color(s: &Systolic, (busy, progress, weight): (bool, f32, bool), th: &Theme) -> Rgba {
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

pub(super) fn caption_bar(scene: &mut Scene, s: &Systolic, c: u64, th: &Theme, caption: &str) -> f64 {
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
