use super::heat::draw_heat;
use super::look::brief_color;
use super::*;
use crate::scene::{Align, Rgba, Shape, Theme};
use crate::sim::systolic::{Dataflow, Params, Systolic};

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
    let has_strip = |s: &Systolic| draw(s, 3, &Theme::normal(), 800.0, "", &Labels::PLAIN).texts().contains(&"Folds");
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

#[test]
fn projected_on_a_short_screen_the_8x8_fills_the_height_at_18_px_every_figure_inside_its_pe() {
    // The lecture's 8 × 8, K = 8 output-stationary view (deck view 9) at
    // 1024 × 768 projected with the deck's bar: a column about 640 px wide,
    // 500–520 px tall. Before, drawn narrow to fit the height and shrunk by
    // the page, its text showed at 12.7 px and "105" ran out of its PE.
    let s = sim(8, 8, 8, Dataflow::Os);
    let th = Theme::present();
    let caption = "Cycle 12 / 22 · Steady state: every PE busy · 64 / 64 PE";
    for (width, max_h) in [(640.0, 500.0), (640.0, 520.0), (700.0, 560.0), (900.0, 640.0)] {
        for c in 0..=s.total_cycles() {
            let (scene, _) = draw_fit(&s, c, &th, width, max_h, caption, &Labels::PLAIN);
            assert!(scene.height <= max_h + 0.5, "{width}×{max_h} cycle {c}: {} tall", scene.height);
            assert!(scene.smallest_text(0.0).unwrap() >= 18.0, "cycle {c}: {:?}", scene.smallest_text(0.0));
            // Every PE (a square box) holds the figure drawn at its middle,
            // at a bold digit's real width.
            let pes: Vec<(f64, f64, f64)> = scene
                .shapes
                .iter()
                .filter_map(|sh| match sh {
                    Shape::Rect { x, y, w, h, fill: Some(_), stroke: Some(_) } if (w - h).abs() < 1e-9 && *w > 30.0 => {
                        Some((*x, *y, *w))
                    }
                    _ => None,
                })
                .collect();
            assert!(pes.len() >= 64, "{} PEs", pes.len());
            for sh in &scene.shapes {
                let Shape::Text { x, y, text, size, align: Align::Center, .. } = sh else { continue };
                let Some(&(px, _, pw)) =
                    pes.iter().find(|(px, py, pw)| *x > *px && *x < px + pw && *y > *py && *y < py + pw)
                else {
                    continue;
                };
                let half = text.chars().count() as f64 * DIGIT_EM * size / 2.0;
                assert!(
                    x - half >= px - 0.5 && x + half <= px + pw + 0.5,
                    "cycle {c}: {text:?} at {size} px in a {pw} px PE"
                );
            }
            for sh in &scene.shapes {
                if let Shape::Rect { x, w, .. } = sh {
                    assert!(*x >= -0.5 && x + w <= width + 0.5, "{sh:?}");
                }
            }
        }
    }
    // Without a height the drawing is as before: sized by its width.
    let tall = draw(&s, 12, &th, 640.0, caption, &Labels::PLAIN);
    assert_eq!(tall, draw_fit(&s, 12, &th, 640.0, f64::INFINITY, caption, &Labels::PLAIN).0);
    assert!(tall.height > 520.0);
}

#[test]
fn projected_on_a_phone_the_8x8_is_drawn_whole_in_the_width() {
    // Deck view 9 presented on a 360 or 390 px phone: a column 326–356 px
    // wide and the 333–420 px of height the deck's bar leaves. The cells
    // were sized to 18 px figures (42 px each): the array ran 60 px past the
    // drawing's right edge and the page shrank it to 12.5 px text. In a
    // phone's column the figures are 12 px (text the page may scale to
    // 10 px, ui::kit::canvas::FIT_MIN_TEXT), every PE inside the width and
    // every figure inside its PE.
    let s = sim(8, 8, 8, Dataflow::Os);
    let th = Theme::present();
    let caption = "Cycle 12 / 22 · Steady state: every PE busy · 64 / 64 PE";
    for (width, max_h) in [(326.0, 333.0), (356.0, 420.0), (326.0, f64::INFINITY)] {
        for c in 0..=s.total_cycles() {
            let (scene, _) = draw_fit(&s, c, &th, width, max_h, caption, &Labels::PLAIN);
            assert!(scene.smallest_text(0.0).unwrap() >= 12.0, "cycle {c}: {:?}", scene.smallest_text(0.0));
            let pes: Vec<(f64, f64, f64)> = scene
                .shapes
                .iter()
                .filter_map(|sh| match sh {
                    Shape::Rect { x, y, w, h, fill: Some(_), stroke: Some(_) } if (w - h).abs() < 1e-9 && *w > 20.0 => {
                        Some((*x, *y, *w))
                    }
                    _ => None,
                })
                .collect();
            assert!(pes.len() >= 64, "{width}: {} PEs", pes.len());
            for sh in &scene.shapes {
                match sh {
                    Shape::Rect { x, w, .. } => assert!(*x >= -0.5 && x + w <= width + 0.5, "{width}: {sh:?}"),
                    Shape::Text { x, y, text, size, align, .. } => {
                        let tw = crate::scene::text_width(text, *size);
                        let (l, r) = match align {
                            Align::Left => (*x, x + tw),
                            Align::Center => (x - tw / 2.0, x + tw / 2.0),
                            Align::Right => (x - tw, *x),
                        };
                        assert!(l >= -0.5 && r <= width + 0.5, "{width}: {text:?} from {l} to {r}");
                        if *align == Align::Center {
                            if let Some(&(px, _, pw)) =
                                pes.iter().find(|(px, py, pw)| *x > *px && *x < px + pw && *y > *py && *y < py + pw)
                            {
                                let half = text.chars().count() as f64 * DIGIT_EM * size / 2.0;
                                assert!(
                                    x - half >= px - 0.5 && x + half <= px + pw + 0.5,
                                    "cycle {c}: {text:?} in {pw}"
                                );
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}
