//! The thin canvas adapter: paints a [`Scene`] on a `<canvas>` at the device's
//! pixel ratio, in an animation frame (several changes in one frame paint
//! once; unmounting cancels it), and offers "save as PNG".

use super::app::AppCtx;
use crate::scene::{Align, Rgba, Scene, Shape};
use gloo::events::EventListener;
use gloo::render::{request_animation_frame, AnimationFrame};
use std::rc::Rc;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};
use yew::prelude::*;

/// A scene shared by pointer: comparing two is O(1).
#[derive(Clone)]
pub struct SceneRef(pub Rc<Scene>);

impl PartialEq for SceneRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

pub fn context_2d(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into().ok()
}

pub const FONT_STACK: &str = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif";

/// Offscreen canvases for a scene's bitmaps, one per bitmap (kept between
/// paints, so a heat map of the same size never reallocates).
#[derive(Default)]
pub struct Scratch(Vec<HtmlCanvasElement>);

impl Scratch {
    fn get(&mut self, n: usize) -> Option<&HtmlCanvasElement> {
        while self.0.len() <= n {
            let c = super::window().document()?.create_element("canvas").ok()?.dyn_into().ok()?;
            self.0.push(c);
        }
        self.0.get(n)
    }
}

/// Paint `scene` on `canvas`. Bitmaps (heat maps) are put on offscreen
/// canvases from `scratch`, then scaled onto the canvas without smoothing.
pub fn paint(canvas: &HtmlCanvasElement, scene: &Scene, scratch: &mut Scratch, min_text: f64) {
    paint_scaled(canvas, scene, scratch, super::window().device_pixel_ratio().clamp(1.0, 4.0), min_text);
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

/// Download what a canvas shows as `<name>.png`.
pub fn save_png(canvas: &HtmlCanvasElement, name: &str) {
    let Ok(url) = canvas.to_data_url_with_type("image/png") else { return };
    download_href(&url, &format!("{name}.png"));
}

/// Offer what `href` points at (a data: or blob: URL) as a file download.
pub fn download_href(href: &str, file: &str) {
    let Some(doc) = super::window().document() else { return };
    let Ok(a) = doc.create_element("a") else { return };
    let _ = a.set_attribute("href", href);
    let _ = a.set_attribute("download", file);
    if let Some(a) = a.dyn_ref::<web_sys::HtmlElement>() {
        a.click();
    }
}

/// The width in CSS pixels of the element behind `node`, kept up to date on
/// window resize (and on projector-mode changes, which re-render).
#[hook]
pub fn use_width(node: NodeRef, fallback: f64) -> f64 {
    let width = use_state(|| fallback);
    {
        let width = width.clone();
        use_effect_with(node, move |node| {
            let measure = {
                let node = node.clone();
                let width = width.clone();
                move || {
                    if let Some(el) = node.cast::<web_sys::Element>() {
                        let w = el.client_width() as f64;
                        if w > 0.0 && (w - *width).abs() >= 1.0 {
                            width.set(w);
                        }
                    }
                }
            };
            measure();
            let listener = EventListener::new(&super::window(), "resize", move |_| measure());
            move || drop(listener)
        });
    }
    *width
}

/// Projected, canvas text under this size (CSS pixels) is left out: it
/// can't be read from the room (labels squeezed into small cells).
pub const PROJECTED_MIN_TEXT: f64 = 12.0;

/// The canvas's CSS size: its drawing size, scaled down (never stretched)
/// to its column's width and to the height it must fit in.
fn canvas_style(w: f64, h: f64, max_h: Option<f64>) -> String {
    let fit_w = max_h.map(|m| format!(", {:.1}px", m * w / h.max(1.0))).unwrap_or_default();
    format!("width:min({w}px, 100%{fit_w});aspect-ratio:{w} / {h};height:auto")
}

#[derive(Properties, PartialEq)]
pub struct SceneCanvasProps {
    pub scene: SceneRef,
    /// File name (without `.png`) for "save as PNG".
    pub name: AttrValue,
    /// Accessible description of what is drawn.
    pub label: AttrValue,
}

#[component]
pub fn SceneCanvas(props: &SceneCanvasProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let canvas = use_node_ref();
    let scratch = use_mut_ref(Scratch::default);
    let frame = use_mut_ref(|| None::<AnimationFrame>);
    let fit = use_context::<super::panel::FitCtx>();
    // Report the size drawn at, so that the panel can redraw to fit the
    // screen (before this scene is painted: no flash of the wrong size).
    {
        let report = fit.as_ref().map(|f| f.report.clone());
        use_effect_with(props.scene.clone(), move |scene| {
            if let Some(r) = report {
                r.emit((scene.0.width, scene.0.height));
            }
        });
    }
    {
        let canvas = canvas.clone();
        let frame = frame.clone();
        let scratch = scratch.clone();
        let present = ctx.present;
        use_effect_with((props.scene.clone(), present), move |(scene, present)| {
            let scene = scene.0.clone();
            // Projected, no illegible text (see `Shape::text_under`).
            let min_text = if *present { PROJECTED_MIN_TEXT } else { 0.0 };
            // The smallest text drawn (the legibility test scales it by the canvas's size on screen).
            let smallest = scene.smallest_text(min_text);
            // Replacing the handle cancels a frame not yet painted.
            *frame.borrow_mut() = Some(request_animation_frame(move |_| {
                if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                    let perf = super::window().performance();
                    let t0 = perf.as_ref().map(|p| p.now());
                    paint(&c, &scene, &mut scratch.borrow_mut(), min_text);
                    // How long the paint took (read by the benchmark).
                    if let (Some(p), Some(t0)) = (perf, t0) {
                        let _ = c.set_attribute("data-paint-ms", &format!("{:.3}", p.now() - t0));
                    }
                    let _ = c.set_attribute("data-painted", "1");
                    if let Some(size) = smallest {
                        let _ = c.set_attribute("data-min-font", &format!("{size:.1}"));
                    }
                }
            }));
            move || {
                frame.borrow_mut().take();
            }
        });
    }
    let on_save = {
        let canvas = canvas.clone();
        let name = props.name.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                save_png(&c, &name);
            }
        })
    };
    let on_save_slide = {
        let scene = props.scene.0.clone();
        let name = props.name.clone();
        let present = ctx.present;
        Callback::from(move |_: MouseEvent| super::export::save_slide(&scene, &name, present))
    };
    html! {
        <figure class="scene">
            <canvas ref={canvas} role="img" aria-label={props.scene.0.text_alternative(&props.label)} data-testid="scene-canvas"
                style={canvas_style(props.scene.0.width, props.scene.0.height, fit.map(|f| f.max_height))} />
            <figcaption>
                <button class="save-png" data-testid="save-png" onclick={on_save}>{ ctx.t("canvas.save") }</button>
                <button class="save-png" data-testid="save-png-figures" title={ctx.t("canvas.save-figures.title")}
                    onclick={on_save_slide}>{ ctx.t("canvas.save-figures") }</button>
            </figcaption>
        </figure>
    }
}
