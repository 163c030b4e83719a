//! One SM's warp slots → scene: 64 slots in 8 rows, each resident block's
//! warps in a colour of their own, free slots grey; under it, one bar per
//! resource with the blocks it allows, the limiting one highlighted.

use crate::scene::{Align, Rgba, Scene, Theme};
use crate::sim::occupancy::{Arch, Occupancy, Resource};

const BLOCK_COLORS: [Rgba; 8] = [
    Rgba::rgb(66, 133, 244),
    Rgba::rgb(245, 150, 40),
    Rgba::rgb(30, 150, 80),
    Rgba::rgb(150, 70, 200),
    Rgba::rgb(200, 60, 90),
    Rgba::rgb(0, 150, 170),
    Rgba::rgb(170, 130, 0),
    Rgba::rgb(90, 90, 110),
];

pub fn block_color(b: u32) -> Rgba {
    BLOCK_COLORS[b as usize % BLOCK_COLORS.len()]
}

/// `limit_labels` name each resource's bar (in [`Resource::ALL`] order);
/// `block_label(b)` marks the slots of resident block `b` (both translated by
/// the caller).
pub fn draw(
    a: &Arch,
    o: &Occupancy,
    th: &Theme,
    width: f64,
    limit_labels: &[String; 4],
    block_label: &dyn Fn(u32) -> String,
) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let font = 13.0 * th.text_scale;
    let mut scene = Scene::new(width, 0.0, th.bg);
    let per_row = 16usize;
    let slots = a.max_warps_per_sm as usize;
    let slot_w = ((width - 2.0 * pad) / per_row as f64).min(44.0 * th.text_scale);
    let slot_h = slot_w * 0.62;
    let x0 = pad;
    for s in 0..slots {
        let (r, c) = (s / per_row, s % per_row);
        let x = x0 + c as f64 * slot_w;
        let y = pad + r as f64 * (slot_h + 4.0);
        let block = (s as u32) / o.warps_per_block.max(1);
        let fill = if (s as u32) < o.active_warps { block_color(block) } else { th.waiting };
        scene.rect(x + 2.0, y, slot_w - 4.0, slot_h, Some(fill), Some((th.grid, 1.0 * th.line_scale)));
        // The block's name in its warp slots, when it fits at a legible size.
        let size = (slot_h * 0.45).min(13.0 * th.text_scale);
        if (s as u32) < o.active_warps && size >= th.min_text() {
            scene.text(x + slot_w / 2.0, y + slot_h / 2.0, block_label(block), size, th.bg, Align::Center, true);
        }
    }
    let mut y = pad + (slots.div_ceil(per_row)) as f64 * (slot_h + 4.0) + 18.0 * th.text_scale;
    // Bars: blocks allowed by each resource, on a common scale.
    let max = *o.limits.iter().max().unwrap_or(&1) as f64;
    let scale_max = max.min(a.max_blocks_per_sm as f64 * 2.0).max(1.0);
    let label_w = 190.0 * th.text_scale;
    let bar_w = width - 2.0 * pad - label_w - 10.0;
    for (i, r) in Resource::ALL.iter().enumerate() {
        let n = o.limits[i];
        let is_lim = *r == o.limiter;
        let h = 18.0 * th.text_scale;
        scene.text(
            pad,
            y + h / 2.0,
            limit_labels[i].clone(),
            font,
            if is_lim { th.fg } else { th.muted },
            Align::Left,
            is_lim,
        );
        let w = bar_w * (n as f64 / scale_max).min(1.0);
        let color = if is_lim { th.busy_hot } else { th.grid };
        scene.rect(pad + label_w, y, bar_w, h, Some(th.waiting), None);
        scene.rect(pad + label_w, y, w, h, Some(color), None);
        y += h + 8.0;
    }
    scene.height = y + pad;
    scene
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::occupancy::{arch, compute, Kernel};

    #[test]
    fn resident_warps_are_coloured() {
        let a = arch("sm90");
        let o = compute(a, Kernel { threads: 128, regs: 160, smem: 0 });
        let labels = ["w".to_string(), "b".to_string(), "r".to_string(), "s".to_string()];
        let s = draw(a, &o, &Theme::normal(), 900.0, &labels, &|b| format!("B{b}"));
        let coloured = s
            .shapes
            .iter()
            .filter(|x| matches!(x, crate::scene::Shape::Rect { fill: Some(f), .. } if (0..3).any(|b| *f == block_color(b))))
            .count();
        assert_eq!(coloured, 12, "3 blocks × 4 warps");
        assert_eq!(s.texts().iter().filter(|t| t.starts_with('B')).count(), 12, "each resident warp names its block");
        assert!(s.texts().contains(&"B2"));
    }
}
