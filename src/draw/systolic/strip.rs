//! The fold strip under a folded run's array: which fold is done, which
//! runs, which waits, and where a click lands.

use super::look::PAD;
use crate::scene::{Scene, Theme};
use crate::sim::systolic::Systolic;

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
