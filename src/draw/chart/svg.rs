//! plotters' drawing backend writing SVG (native): a chart of
//! [`crate::draw::chart`] as the static snapshots show it while the wasm
//! arrives (`crate::prerender::snap`), element for element what the
//! browser's canvas backend (plotters-canvas, `ui::kit::chart::CanvasBackend`)
//! paints:
//!
//! - a horizontal or vertical line is moved half a pixel up or left, as
//!   plotters-canvas moves it (a crisp one-pixel line);
//! - a text's anchor is canvas's `textAlign` / `textBaseline`: `start`,
//!   `middle`, `end` and the em box's top, middle or bottom (SVG's `central`,
//!   the em box's middle, moved half a size down or up along the text, `dy`);
//!   a rotated text turns about its anchor, clockwise as the canvas's;
//! - a colour's alpha is `fill-opacity` / `stroke-opacity`;
//! - a text's size is estimated as every drawing here estimates it
//!   ([`crate::scene::text_width`], one line 1.2 sizes tall: the browser's
//!   `normal` line height), where the canvas backend measures a `<span>`:
//!   the axes' label areas may differ by a pixel or two.
//!
//! The font family is the `<svg>` element's (the canvas's font stack,
//! [`crate::scene_svg::open_tag`]); a text's own is not written.

use crate::scene::Rgba;
use crate::scene_svg::{esc, num, open_tag, paint_attr};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontStyle};
use std::convert::Infallible;

/// The backend: `width × height` pixels, its elements written to `out`.
pub struct SvgBackend<'a> {
    out: &'a mut String,
    size: (u32, u32),
}

type Result = std::result::Result<(), DrawingErrorKind<Infallible>>;

fn rgba(c: BackendColor) -> Rgba {
    Rgba(c.rgb.0, c.rgb.1, c.rgb.2, (c.alpha.clamp(0.0, 1.0) * 255.0).round() as u8)
}

/// The stroke of `style`: its colour and width.
fn stroke<S: BackendStyle>(style: &S) -> String {
    format!(r#" fill="none"{} stroke-width="{}""#, paint_attr("stroke", rgba(style.color())), style.stroke_width())
}

/// `points` as SVG's `points` attribute.
fn points<I: IntoIterator<Item = BackendCoord>>(path: I) -> String {
    let p: Vec<String> = path.into_iter().map(|(x, y)| format!("{x},{y}")).collect();
    p.join(" ")
}

impl<'a> SvgBackend<'a> {
    pub fn new(out: &'a mut String, size: (u32, u32)) -> Self {
        SvgBackend { out, size }
    }
}

impl DrawingBackend for SvgBackend<'_> {
    type ErrorType = Infallible;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }
    fn ensure_prepared(&mut self) -> Result {
        Ok(())
    }
    fn present(&mut self) -> Result {
        Ok(())
    }
    fn draw_pixel(&mut self, (x, y): BackendCoord, color: BackendColor) -> Result {
        if color.alpha > 0.0 {
            self.out.push_str(&format!(
                r#"<rect x="{x}" y="{y}" width="1" height="1"{}/>"#,
                paint_attr("fill", rgba(color))
            ));
        }
        Ok(())
    }
    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        // plotters-canvas's half-pixel move of a horizontal or vertical line.
        let (mut a, mut b) = ((from.0 as f64, from.1 as f64), (to.0 as f64, to.1 as f64));
        if a.0 == b.0 {
            a.0 -= 0.5;
            b.0 -= 0.5;
        }
        if a.1 == b.1 {
            a.1 -= 0.5;
            b.1 -= 0.5;
        }
        self.out.push_str(&format!(
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}"{}/>"#,
            num(a.0),
            num(a.1),
            num(b.0),
            num(b.1),
            stroke(style)
        ));
        Ok(())
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        (x0, y0): BackendCoord,
        (x1, y1): BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let paint = if fill { paint_attr("fill", rgba(style.color())) } else { stroke(style) };
        self.out.push_str(&format!(r#"<rect x="{x0}" y="{y0}" width="{}" height="{}"{paint}/>"#, x1 - x0, y1 - y0));
        Ok(())
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, path: I, style: &S) -> Result {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        self.out.push_str(&format!(r#"<polyline points="{}"{}/>"#, points(path), stroke(style)));
        Ok(())
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, path: I, style: &S) -> Result {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        self.out.push_str(&format!(
            r#"<polygon points="{}"{}/>"#,
            points(path),
            paint_attr("fill", rgba(style.color()))
        ));
        Ok(())
    }
    fn draw_circle<S: BackendStyle>(&mut self, (x, y): BackendCoord, radius: u32, style: &S, fill: bool) -> Result {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let paint = if fill { paint_attr("fill", rgba(style.color())) } else { stroke(style) };
        self.out.push_str(&format!(r#"<circle cx="{x}" cy="{y}" r="{radius}"{paint}/>"#));
        Ok(())
    }
    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, (x, y): BackendCoord) -> Result {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let anchor = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Center => "middle",
            HPos::Right => "end",
        };
        // The canvas's "top" and "bottom" are the em box's edges, half a
        // size from its middle (SVG's `central`); SVG's text-before-edge and
        // text-after-edge are the font's ascent and descent instead.
        let drop = match style.anchor().v_pos {
            VPos::Top => style.size() / 2.0,
            VPos::Center => 0.0,
            VPos::Bottom => -style.size() / 2.0,
        };
        let d = super::turn_degrees(style.transform());
        let turn = if d == 0.0 { String::new() } else { format!(r#" transform="rotate({d} {x} {y})""#) };
        let weight = match style.style() {
            FontStyle::Bold => r#" font-weight="bold""#,
            FontStyle::Italic => r#" font-style="italic""#,
            FontStyle::Oblique => r#" font-style="oblique""#,
            FontStyle::Normal => "",
        };
        // Along the text's own vertical (turned with it): dy.
        let dy = if drop == 0.0 { String::new() } else { format!(r#" dy="{}""#, num(drop)) };
        self.out.push_str(&format!(
            r#"<text x="{x}" y="{y}"{dy} font-size="{}" text-anchor="{anchor}" dominant-baseline="central"{weight}{turn}{}>{}</text>"#,
            num(style.size()),
            paint_attr("fill", rgba(color)),
            esc(text)
        ));
        Ok(())
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> std::result::Result<(u32, u32), DrawingErrorKind<Infallible>> {
        Ok((crate::scene::text_width(text, style.size()).ceil() as u32, (style.size() * 1.2).round() as u32))
    }
}

/// A chart `width × height` CSS pixels drawn by `draw` (on a backend of one
/// pixel per CSS pixel) as an `<svg>` element with `class` and `aria-label`
/// = `label`; `None` when `draw` fails.
pub fn chart_svg(
    width: f64,
    height: f64,
    class: &str,
    label: &str,
    draw: impl FnOnce(&DrawingArea<SvgBackend<'_>, Shift>) -> Option<()>,
) -> Option<String> {
    let mut body = String::with_capacity(16 * 1024);
    {
        let root = SvgBackend::new(&mut body, (width.round() as u32, height.round() as u32)).into_drawing_area();
        draw(&root)?;
    }
    Some(open_tag(width.round(), height.round(), class, label) + &body + "</svg>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::chart::roofline::{draw, RoofDot, Roofline};
    use crate::draw::chart::Look;

    fn roofline(width: f64, height: f64) -> String {
        let dots = [
            RoofDot { label: "matmul <b>".into(), intensity: 200.0, tflops: 500.0, selected: true },
            RoofDot { label: "softmax".into(), intensity: 1.0, tflops: 4.8, selected: false },
        ];
        let p = Roofline {
            peak: 989.0,
            bandwidth: 4.8,
            dots: &dots,
            x_desc: "FLOP/byte",
            width,
            height,
            present: false,
            ridge_label: "ridge 206",
        };
        chart_svg(width, height, "c", "a roofline", |root| draw(root, &p, Look::scaled(false, 1.0, 1.0)))
            .expect("drawn")
    }

    #[test]
    fn a_roofline_is_one_svg_with_its_axes_dots_and_labels_escaped() {
        let s = roofline(816.0, 520.0);
        assert!(s.starts_with("<svg ") && s.ends_with("</svg>"), "{s}");
        assert_eq!(s.matches("<svg").count(), 1);
        assert!(s.contains(r#"viewBox="0 0 816 520""#));
        assert!(s.contains(r#"aria-label="a roofline""#));
        // The two dots, the selected one larger, and their labels.
        assert_eq!(s.matches("<circle").count(), 2, "{s}");
        assert!(s.contains(">matmul &lt;b&gt;</text>"), "{s}");
        assert!(s.contains(">softmax</text>") && s.contains(">ridge 206</text>"));
        // The y axis's name turned as the canvas turns it, the x axis's below.
        assert!(s.contains(r#"transform="rotate(270 "#) && s.contains(">TFLOP/s</text>"), "{s}");
        assert!(s.contains(">FLOP/byte</text>"));
        // Nothing drawn outside the chart.
        for cap in s.split(" x=\"").skip(1) {
            let x: f64 = cap.split('"').next().unwrap().parse().unwrap();
            assert!((-1.0..=817.0).contains(&x), "x {x}");
        }
    }

    #[test]
    fn text_sizes_are_the_scenes_estimate() {
        let mut out = String::new();
        let b = SvgBackend::new(&mut out, (10, 10));
        let style = TextStyle::from(("sans-serif", 12.0).into_font());
        let (w, h) = b.estimate_text_size("roofline", &style).unwrap();
        assert_eq!(w, crate::scene::text_width("roofline", 12.0).ceil() as u32);
        assert_eq!(h, 14);
    }

    #[test]
    fn a_phone_sized_roofline_is_small() {
        let s = roofline(351.0, 403.0);
        assert!(s.len() < 20_000, "{} bytes", s.len());
    }
}
