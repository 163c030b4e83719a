//! A [`Scene`] as an SVG document (pure, native): what the build's static
//! panel snapshots show in place of the canvas while the wasm arrives
//! (`crate::prerender::snap`). It draws what `ui::kit::paint` draws on a
//! canvas, shape for shape:
//!
//! - a text's `(x, y)` is its anchor at the vertical middle (the canvas's
//!   `textBaseline = "middle"`, the middle of the em box): SVG's
//!   `dominant-baseline="central"` is that same line (SVG's `middle` is half
//!   the x-height above the alphabetic baseline, a little lower);
//! - [`Align`] is `text-anchor` (start, middle, end); bold is weight 600;
//!   the font stack is the canvas's ([`crate::scene::FONT_STACK`]);
//! - a colour's alpha is `fill-opacity` / `stroke-opacity` (SVG 1.1);
//! - a bitmap (a heat map) becomes one rectangle per run of equal pixels
//!   along a row (a band of identical rows at once), a path of them per
//!   colour, unless that takes more
//!   than [`MAX_BITMAP_RUNS`] rectangles,
//!   when it is left out and [`Svg::skipped`] says so (a static snapshot
//!   stays small; a timeline of a few colours is a few runs a row however
//!   many pixels it has).

use crate::scene::{Align, Rgba, Scene, Shape, FONT_STACK};

/// The most rectangles (runs of equal pixels in a row or a band of
/// identical rows, transparent ones left out) a bitmap may take to be
/// written.
pub const MAX_BITMAP_RUNS: usize = 64 * 64;

/// An SVG document and what it left out.
#[derive(Clone, Debug, PartialEq)]
pub struct Svg {
    pub markup: String,
    /// Why each left-out shape was left out (empty: nothing was).
    pub skipped: Vec<String>,
}

/// A number in the fewest characters that keep a hundredth of a pixel.
pub(crate) fn num(v: f64) -> String {
    if !v.is_finite() {
        return "0".into();
    }
    let s = format!("{:.2}", v);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    match s {
        "-0" | "" => "0".into(),
        s => s.to_string(),
    }
}

/// `text` for SVG text and double-quoted attribute values. (one escape for the app, the
/// static pages and the SVG: `i18n::escape_html`).
pub fn esc(text: &str) -> String {
    crate::i18n::escape_html(text)
}

/// `#rrggbb` and, when not opaque, the `<attr>-opacity` attribute.
pub(crate) fn paint_attr(attr: &str, c: Rgba) -> String {
    let hex = format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2);
    if c.3 == 255 {
        format!(r#" {attr}="{hex}""#)
    } else {
        format!(r#" {attr}="{hex}" {attr}-opacity="{}""#, num_opacity(c.3))
    }
}

fn num_opacity(a: u8) -> String {
    let s = format!("{:.3}", a as f64 / 255.0);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() {
        "0".into()
    } else {
        s.to_string()
    }
}

/// An `<svg>` element's start tag, `width × height` CSS pixels (its
/// `viewBox` the same, so a stylesheet may scale it), with `class`,
/// `role="img"`, `aria-label` = `label` and the canvas's font stack.
pub(crate) fn open_tag(width: f64, height: f64, class: &str, label: &str) -> String {
    let (w, h) = (num(width), num(height));
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="{}" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{}" font-family="{}">"#,
        esc(class),
        esc(label),
        esc(FONT_STACK),
    )
}

/// `scene` as an `<svg>` element `scene.width × scene.height` CSS pixels
/// (its `viewBox` the same, so a stylesheet may scale it), with
/// `class`, `role="img"` and `aria-label` = `label`.
pub fn svg(scene: &Scene, class: &str, label: &str) -> Svg {
    let (w, h) = (num(scene.width), num(scene.height));
    let mut out = String::with_capacity(64 * scene.shapes.len() + 256);
    let mut skipped = Vec::new();
    out.push_str(&open_tag(scene.width, scene.height, class, label));
    out.push_str(&format!(r#"<rect width="{w}" height="{h}"{}/>"#, paint_attr("fill", scene.background)));
    for shape in &scene.shapes {
        match shape {
            Shape::Rect { x, y, w, h, fill, stroke } => {
                if fill.is_none() && stroke.is_none() {
                    continue;
                }
                out.push_str(&format!(
                    r#"<rect x="{}" y="{}" width="{}" height="{}""#,
                    num(*x),
                    num(*y),
                    num(*w),
                    num(*h)
                ));
                match fill {
                    Some(f) => out.push_str(&paint_attr("fill", *f)),
                    None => out.push_str(r#" fill="none""#),
                }
                if let Some((c, lw)) = stroke {
                    out.push_str(&paint_attr("stroke", *c));
                    out.push_str(&format!(r#" stroke-width="{}""#, num(*lw)));
                }
                out.push_str("/>");
            }
            Shape::Line { x1, y1, x2, y2, color, width } => {
                out.push_str(&format!(
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}"{} stroke-width="{}"/>"#,
                    num(*x1),
                    num(*y1),
                    num(*x2),
                    num(*y2),
                    paint_attr("stroke", *color),
                    num(*width)
                ));
            }
            Shape::Text { x, y, text, size, color, align, bold } => {
                if text.trim().is_empty() {
                    continue;
                }
                let anchor = match align {
                    Align::Left => "",
                    Align::Center => r#" text-anchor="middle""#,
                    Align::Right => r#" text-anchor="end""#,
                };
                out.push_str(&format!(
                    r#"<text x="{}" y="{}" font-size="{}"{anchor}{}{} dominant-baseline="central">{}</text>"#,
                    num(*x),
                    num(*y),
                    num(*size),
                    if *bold { r#" font-weight="600""# } else { "" },
                    paint_attr("fill", *color),
                    esc(text)
                ));
            }
            Shape::Bitmap { x, y, w, h, px_w, px_h, rgba } => {
                let pixels = px_w.saturating_mul(*px_h);
                let runs = if rgba.len() < 4 * pixels as usize || pixels == 0 {
                    None
                } else {
                    Some(bitmap_runs((*px_w, *px_h), rgba)).filter(|r| r.len() <= MAX_BITMAP_RUNS)
                };
                let Some(runs) = runs else {
                    skipped.push(format!(
                        "a bitmap of {px_w}×{px_h} pixels (more than {MAX_BITMAP_RUNS} runs of equal pixels, or not {px_w}×{px_h}×4 bytes)"
                    ));
                    continue;
                };
                bitmap_rects(&mut out, (*x, *y, *w, *h), (*px_w, *px_h), &runs);
            }
        }
    }
    out.push_str("</svg>");
    Svg { markup: out, skipped }
}

/// A bitmap's runs of equal pixels along each row, fully transparent runs
/// left out, a band of identical rows written once:
/// `(first row, row past the band, first column, column past the run, colour)`.
type Run = (u32, u32, u32, u32, Rgba);

fn bitmap_runs((pw, ph): (u32, u32), rgba: &[u8]) -> Vec<Run> {
    let row = |j: u32| &rgba[4 * (j * pw) as usize..4 * ((j + 1) * pw) as usize];
    let px = |i: u32, j: u32| {
        let k = 4 * (j * pw + i) as usize;
        Rgba(rgba[k], rgba[k + 1], rgba[k + 2], rgba[k + 3])
    };
    let mut runs = Vec::new();
    let mut j = 0;
    while j < ph {
        let mut band_end = j + 1;
        while band_end < ph && row(band_end) == row(j) {
            band_end += 1;
        }
        let mut i = 0;
        while i < pw {
            let c = px(i, j);
            let mut end = i + 1;
            while end < pw && px(end, j) == c {
                end += 1;
            }
            if c.3 != 0 {
                runs.push((j, band_end, i, end, c));
            }
            i = end;
        }
        j = band_end;
    }
    runs
}

/// A bitmap scaled into `(x, y, w, h)`: its runs (see [`bitmap_runs`]) as
/// one path of rectangles per colour (runs never overlap, so the order of
/// the colours does not matter), without smoothing, as the canvas draws it.
fn bitmap_rects(out: &mut String, (x, y, w, h): (f64, f64, f64, f64), (pw, ph): (u32, u32), runs: &[Run]) {
    let (cw, ch) = (w / pw as f64, h / ph as f64);
    // Each rectangle starts with a move relative to the previous one's
    // corner (where `z` leaves the pen), both rounded to a hundredth first,
    // so the positions are exact and the repeated steps compress.
    let hundredths = |v: f64| (v * 100.0).round() / 100.0;
    let mut colours: Vec<(Rgba, String, (f64, f64))> = Vec::new();
    for &(j, j_end, i, end, c) in runs {
        let (d, pen) = match colours.iter_mut().find(|(k, ..)| *k == c) {
            Some((_, d, pen)) => (d, pen),
            None => {
                colours.push((c, String::new(), (0.0, 0.0)));
                let (_, d, pen) = colours.last_mut().expect("just pushed");
                (d, pen)
            }
        };
        let at = (hundredths(x + i as f64 * cw), hundredths(y + j as f64 * ch));
        let rw = num((end - i) as f64 * cw);
        d.push_str(&format!(
            "m{} {}h{rw}v{}h-{rw}z",
            num(at.0 - pen.0),
            num(at.1 - pen.1),
            num((j_end - j) as f64 * ch)
        ));
        *pen = at;
    }
    out.push_str(r#"<g shape-rendering="crispEdges">"#);
    for (c, d, _) in colours {
        out.push_str(&format!(r#"<path d="{d}"{}/>"#, paint_attr("fill", c)));
    }
    out.push_str("</g>");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scene() -> Scene {
        Scene::new(120.0, 40.5, Rgba::rgb(255, 255, 255))
    }

    #[test]
    fn the_root_has_the_scene_size_as_viewbox_and_the_background() {
        let s = svg(&scene(), "snap-svg", "A \"label\" <b>");
        assert!(s.markup.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" class="snap-svg" width="120" height="40.5" viewBox="0 0 120 40.5" role="img" aria-label="A &quot;label&quot; &lt;b&gt;""#), "{}", s.markup);
        assert!(s.markup.contains(r##"<rect width="120" height="40.5" fill="#ffffff"/>"##));
        assert!(s.markup.ends_with("</svg>"));
        assert!(s.skipped.is_empty());
    }

    #[test]
    fn texts_are_escaped_anchored_and_centred_on_their_y() {
        let mut sc = scene();
        let c = Rgba::rgb(1, 2, 3);
        sc.text(10.0, 20.0, "a < b & c", 12.0, c, Align::Left, false);
        sc.text(60.0, 20.0, "中", 13.5, c, Align::Center, true);
        sc.text(110.0, 20.0, "end", 12.0, c, Align::Right, false);
        sc.text(0.0, 0.0, "  ", 12.0, c, Align::Left, false);
        let m = svg(&sc, "s", "").markup;
        assert!(m.contains(r##"<text x="10" y="20" font-size="12" fill="#010203" dominant-baseline="central">a &lt; b &amp; c</text>"##), "{m}");
        assert!(m.contains(r##"<text x="60" y="20" font-size="13.5" text-anchor="middle" font-weight="600" fill="#010203" dominant-baseline="central">中</text>"##), "{m}");
        assert!(m.contains(r#"text-anchor="end""#));
        assert_eq!(m.matches("<text").count(), 3, "a blank text is left out");
    }

    #[test]
    fn alpha_is_an_opacity_and_strokes_keep_their_width() {
        let mut sc = scene();
        sc.rect(1.0, 2.0, 3.0, 4.0, Some(Rgba(10, 20, 30, 128)), Some((Rgba::rgb(0, 0, 0), 1.5)));
        sc.rect(0.0, 0.0, 5.0, 5.0, None, Some((Rgba(255, 0, 0, 51), 2.0)));
        sc.rect(0.0, 0.0, 5.0, 5.0, None, None);
        sc.line(0.0, 0.5, 10.0, 0.5, Rgba(0, 0, 255, 255), 1.0);
        let m = svg(&sc, "s", "").markup;
        assert!(m.contains(r##"<rect x="1" y="2" width="3" height="4" fill="#0a141e" fill-opacity="0.502" stroke="#000000" stroke-width="1.5"/>"##), "{m}");
        assert!(m.contains(r##"fill="none" stroke="#ff0000" stroke-opacity="0.2" stroke-width="2"/>"##), "{m}");
        assert!(m.contains(r##"<line x1="0" y1="0.5" x2="10" y2="0.5" stroke="#0000ff" stroke-width="1"/>"##), "{m}");
        assert_eq!(m.matches("<rect").count(), 3, "the background and two shapes; an empty rect is left out");
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.256), "1.26");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(f64::NAN), "0");
        assert_eq!(num(10.5), "10.5");
    }

    #[test]
    fn a_small_bitmap_is_runs_of_rects_a_large_one_is_skipped_with_a_reason() {
        // 3 × 2 pixels: red red blue / transparent × 3.
        let mut rgba = Vec::new();
        for c in [[255, 0, 0, 255], [255, 0, 0, 255], [0, 0, 255, 255], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]] {
            rgba.extend(c);
        }
        // 100 × 100 in two colours, the rows alike: one band of two runs, written.
        let rows: Vec<u8> =
            (0..100 * 100).flat_map(|k| if k % 100 < 50 { [255, 0, 0, 255] } else { [0, 0, 255, 255] }).collect();
        for ((px_w, px_h, rgba), runs) in [
            (
                (3, 2, rgba),
                r##"<path d="m0 0h20v10h-20z" fill="#ff0000"/><path d="m20 0h10v10h-10z" fill="#0000ff"/></g>"##,
            ),
            (
                (100, 100, rows),
                r##"<path d="m0 0h15v20h-15z" fill="#ff0000"/><path d="m15 0h15v20h-15z" fill="#0000ff"/></g>"##,
            ),
        ] {
            let mut sc = scene();
            sc.shapes.push(Shape::Bitmap { x: 0.0, y: 0.0, w: 30.0, h: 20.0, px_w, px_h, rgba });
            let s = svg(&sc, "s", "");
            assert!(s.skipped.is_empty());
            assert!(s.markup.contains(runs), "{}", s.markup);
        }
        // A 100 × 100 checkerboard: 10 000 runs, left out.
        let noise: Vec<u8> = (0..100 * 100)
            .flat_map(|k| if (k + k / 100) % 2 == 0 { [255, 0, 0, 255] } else { [0, 0, 255, 255] })
            .collect();
        let big = Shape::Bitmap { x: 0.0, y: 0.0, w: 30.0, h: 20.0, px_w: 100, px_h: 100, rgba: noise };
        let mut sc = scene();
        sc.shapes.push(big);
        let s = svg(&sc, "s", "");
        assert_eq!(s.skipped.len(), 1);
        assert!(s.skipped[0].contains("100×100"), "{:?}", s.skipped);
        assert!(!s.markup.contains("<g"));
    }
}
