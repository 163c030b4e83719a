//! The canvas adapter: paints a pure [`Scene`] on a 2D canvas (scaled for
//! the screen's pixel ratio, with a smallest text size), shared by the
//! panels' canvas and the exports.

use crate::scene::{Align, Rgba, Scene, Shape};
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

pub fn context_2d(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into().ok()
}

pub use crate::scene::FONT_STACK;

/// Offscreen canvases for a scene's bitmaps, one per bitmap (kept between
/// paints, so a heat map of the same size never reallocates).
#[derive(Default)]
pub struct Scratch(Vec<HtmlCanvasElement>);

impl Scratch {
    fn get(&mut self, n: usize) -> Option<&HtmlCanvasElement> {
        while self.0.len() <= n {
            let c = super::dom::window().document()?.create_element("canvas").ok()?.dyn_into().ok()?;
            self.0.push(c);
        }
        self.0.get(n)
    }
}

/// Paint `scene` on `canvas`. Bitmaps (heat maps) are put on offscreen
/// canvases from `scratch`, then scaled onto the canvas without smoothing.
pub fn paint(canvas: &HtmlCanvasElement, scene: &Scene, scratch: &mut Scratch, min_text: f64) {
    paint_scaled(canvas, scene, scratch, super::dom::window().device_pixel_ratio().clamp(1.0, 4.0), min_text);
}

/// Paint `scene` at `dpr` canvas pixels per CSS pixel (exports choose it),
/// leaving out texts smaller than `min_text` (see [`Shape::text_under`]).
pub fn paint_scaled(canvas: &HtmlCanvasElement, scene: &Scene, scratch: &mut Scratch, dpr: f64, min_text: f64) {
    let mut bitmaps = 0;
    let (pw, ph) = ((scene.width * dpr).round() as u32, (scene.height * dpr).round().max(1.0) as u32);
    if canvas.width() != pw {
        canvas.set_width(pw);
    }
    if canvas.height() != ph {
        canvas.set_height(ph);
    }
    let Some(ctx) = context_2d(canvas) else { return };
    let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    ctx.set_fill_style_str(&scene.background.css());
    ctx.fill_rect(0.0, 0.0, scene.width, scene.height);
    ctx.set_text_baseline("middle");
    // Each call into the context crosses from wasm to JS, and a scene can
    // hold thousands of shapes (a grid line per element): styles are set only
    // when they change, and a run of opaque lines of one colour and width is
    // stroked as one path.
    let mut style = PaintStyle::default();
    let mut open_path = false;
    for (i, shape) in scene.shapes.iter().enumerate() {
        match shape {
            Shape::Rect { x, y, w, h, fill, stroke } => {
                if let Some(f) = fill {
                    style.fill(&ctx, *f);
                    ctx.fill_rect(*x, *y, *w, *h);
                }
                if let Some((c, lw)) = stroke {
                    style.stroke(&ctx, *c, *lw);
                    ctx.stroke_rect(*x, *y, *w, *h);
                }
            }
            Shape::Line { x1, y1, x2, y2, color, width } => {
                if !open_path {
                    style.stroke(&ctx, *color, *width);
                    ctx.begin_path();
                }
                ctx.move_to(*x1, *y1);
                ctx.line_to(*x2, *y2);
                // Overlapping translucent strokes blend where they cross, so
                // only opaque ones share a path.
                let joins_next = color.3 == 255
                    && matches!(scene.shapes.get(i + 1),
                        Some(Shape::Line { color: c, width: w, .. }) if c == color && w == width);
                open_path = joins_next;
                if !joins_next {
                    ctx.stroke();
                }
            }
            Shape::Text { .. } if shape.text_under(min_text) => {}
            Shape::Text { x, y, text, size, color, align, bold } => {
                style.font(&ctx, *size, *bold);
                style.align(&ctx, *align);
                style.fill(&ctx, *color);
                let _ = ctx.fill_text(text, *x, *y);
            }
            Shape::Bitmap { x, y, w, h, px_w, px_h, rgba } => {
                bitmaps += 1;
                let Some(scratch) = scratch.get(bitmaps - 1) else { continue };
                if scratch.width() != *px_w {
                    scratch.set_width(*px_w);
                }
                if scratch.height() != *px_h {
                    scratch.set_height(*px_h);
                }
                let Some(sctx) = context_2d(scratch) else { continue };
                let Ok(img) = ImageData::new_with_u8_clamped_array_and_sh(Clamped(rgba), *px_w, *px_h) else {
                    continue;
                };
                let _ = sctx.put_image_data(&img, 0.0, 0.0);
                ctx.set_image_smoothing_enabled(false);
                let _ = ctx.draw_image_with_html_canvas_element_and_dw_and_dh(scratch, *x, *y, *w, *h);
            }
        }
    }
}

/// The context's current fill, stroke, font and alignment, as last set by
/// [`paint_scaled`] (`None`: not set yet in this paint).
#[derive(Default)]
struct PaintStyle {
    fill: Option<Rgba>,
    stroke: Option<(Rgba, f64)>,
    font: Option<(f64, bool)>,
    align: Option<Align>,
}

impl PaintStyle {
    fn fill(&mut self, ctx: &CanvasRenderingContext2d, c: Rgba) {
        if self.fill != Some(c) {
            ctx.set_fill_style_str(&c.css());
            self.fill = Some(c);
        }
    }
    fn stroke(&mut self, ctx: &CanvasRenderingContext2d, c: Rgba, width: f64) {
        if self.stroke.is_none_or(|(sc, _)| sc != c) {
            ctx.set_stroke_style_str(&c.css());
        }
        if self.stroke.is_none_or(|(_, sw)| sw != width) {
            ctx.set_line_width(width);
        }
        self.stroke = Some((c, width));
    }
    fn font(&mut self, ctx: &CanvasRenderingContext2d, size: f64, bold: bool) {
        if self.font != Some((size, bold)) {
            ctx.set_font(&format!("{}{:.1}px {}", if bold { "600 " } else { "" }, size, FONT_STACK));
            self.font = Some((size, bold));
        }
    }
    fn align(&mut self, ctx: &CanvasRenderingContext2d, align: Align) {
        if self.align != Some(align) {
            ctx.set_text_align(match align {
                Align::Left => "left",
                Align::Center => "center",
                Align::Right => "right",
            });
            self.align = Some(align);
        }
    }
}
