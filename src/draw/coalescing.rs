//! One warp's loads → scene: the 32 lanes on top, below them every burst
//! section the warp touches (one transaction each) with its elements, the
//! requested ones coloured, and a line from each lane to its element.

use crate::scene::{Align, Rgba, Scene, Theme};
use crate::sim::coalescing::{Access, LANES};

pub fn lane_color(l: usize) -> Rgba {
    // Hues around the wheel so neighbouring lanes differ.
    let h = (l * 11 % LANES) as f32 / LANES as f32;
    let (r, g, b) = hsv(h, 0.65, 0.85);
    Rgba::rgb(r, g, b)
}

fn hsv(h: f32, s: f32, v: f32) -> (u8, u8, u8) {
    let i = (h * 6.0).floor();
    let f = h * 6.0 - i;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - f * s), v * (1.0 - (1.0 - f) * s));
    let (r, g, b) = match i as i32 % 6 {
        0 => (v, t, p),
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        _ => (v, p, q),
    };
    ((r * 255.0) as u8, (g * 255.0) as u8, (b * 255.0) as u8)
}

/// `lanes` labels the row of lanes; `skipped(n)` the gap of `n` sections not
/// touched (both translated by the caller).
pub fn draw(a: &Access, th: &Theme, width: f64, lanes: &str, skipped: &dyn Fn(u64) -> String) -> Scene {
    let width = width.max(240.0);
    let pad = 10.0;
    let font = 12.0 * th.text_scale;
    let label_w = 86.0 * th.text_scale;
    let avail = width - 2.0 * pad - label_w;
    let lane_w = (avail / LANES as f64).min(30.0 * th.text_scale);
    let mut scene = Scene::new(width, 0.0, th.bg);
    // Lane numbers inside the lanes when they fit at a legible size, else
    // every few lanes above the row (the lines to the bursts leave below).
    let small = th.min_text();
    let in_cell = (lane_w * 0.42).min(13.0 * th.text_scale);
    let every = if in_cell >= small { 0 } else { crate::draw::labels::tick_every(lane_w, small) };
    let lane_y = pad + if every == 0 { 0.0 } else { small * 1.4 };
    let lane_x0 = pad + label_w + (avail - lane_w * LANES as f64) / 2.0;
    scene.text(pad, lane_y + lane_w / 2.0, lanes, font, th.muted, Align::Left, false);
    for l in 0..LANES {
        let x = lane_x0 + l as f64 * lane_w;
        scene.rect(x + 1.0, lane_y, lane_w - 2.0, lane_w, Some(lane_color(l)), None);
        if every == 0 {
            scene.text(x + lane_w / 2.0, lane_y + lane_w / 2.0, l.to_string(), in_cell, th.bg, Align::Center, true);
        } else if l % every == 0 {
            scene.text(x + lane_w / 2.0, lane_y - small * 0.7, l.to_string(), small, th.muted, Align::Center, false);
        }
    }
    let per = (a.p.section / a.p.elem_bytes).max(1);
    let cell = avail / per as f64;
    let row_h = (20.0 * th.text_scale).round();
    let mut y = lane_y + lane_w + 46.0 * th.text_scale;
    let mut targets: Vec<(usize, f64, f64)> = Vec::new();
    let mut prev: Option<u64> = None;
    for &sec in &a.sections {
        if let Some(p) = prev {
            if sec > p + 1 {
                scene.text(
                    pad + label_w + avail / 2.0,
                    y + row_h * 0.3,
                    skipped(sec - p - 1),
                    font,
                    th.muted,
                    Align::Center,
                    false,
                );
                y += row_h * 0.8;
            }
        }
        prev = Some(sec);
        let base = sec * a.p.section;
        scene.text(pad, y + row_h / 2.0, format!("0x{base:x}"), font, th.fg, Align::Left, false);
        scene.rect(pad + label_w, y, avail, row_h, Some(th.waiting), Some((th.grid, 1.0 * th.line_scale)));
        for (l, &addr) in a.addrs.iter().enumerate() {
            if addr / a.p.section == sec {
                let e = (addr - base) / a.p.elem_bytes;
                let x = pad + label_w + e as f64 * cell;
                scene.rect(x, y, cell.max(1.5), row_h, Some(lane_color(l)), None);
                targets.push((l, x + cell.max(1.5) / 2.0, y));
            }
        }
        if cell >= 6.0 {
            for e in 1..per {
                let x = pad + label_w + e as f64 * cell;
                scene.line(x, y, x, y + row_h, th.bg, 0.75);
            }
        }
        y += row_h + 4.0;
    }
    for (l, x, ty) in targets {
        let lx = lane_x0 + l as f64 * lane_w + lane_w / 2.0;
        scene.line(lx, lane_y + lane_w, x, ty, lane_color(l).mix(th.bg, 0.2), 1.0 * th.line_scale);
    }
    scene.height = y + pad;
    scene
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::coalescing::{Params, Pattern};

    #[test]
    fn no_text_under_the_modes_smallest_at_any_width() {
        let a = Access::new(Params {
            elem_bytes: 4,
            pattern: Pattern::Stride,
            stride: 2,
            offset: 0,
            rowlen: 1,
            section: 128,
            seed: 1,
        });
        super::super::each_theme_and_width(|th, width| {
            let s = draw(&a, th, width, "Lanes", &|n| format!("{n} skipped"));
            assert!(s.smallest_text(0.0).unwrap() >= th.min_text(), "{width} {}", th.min_text());
            assert!(s.texts().contains(&"0"), "{width} {}", th.min_text());
        });
    }

    #[test]
    fn one_row_per_transaction() {
        for (stride, rows) in [(1, 1), (2, 2), (32, 32)] {
            let a = Access::new(Params {
                elem_bytes: 4,
                pattern: Pattern::Stride,
                stride,
                offset: 0,
                rowlen: 1,
                section: 128,
                seed: 1,
            });
            let s = draw(&a, &Theme::normal(), 900.0, "Lanes-label", &|n| format!("{n}"));
            let labels = s.texts().iter().filter(|t| t.starts_with("0x")).count();
            assert_eq!(labels as u64, a.transactions());
            assert_eq!(labels, rows);
            assert!(s.texts().contains(&"Lanes-label"), "the label given is drawn");
        }
    }
}
