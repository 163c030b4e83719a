//! plotters-canvas's backend with two costs of its text taken out, drawing
//! the same pixels:
//!
//! - plotters sizes a label (its axes' label areas, a caption) by adding a
//!   `<span>` to the page and reading its `offsetHeight` and `offsetWidth`:
//!   a forced style and layout of the page per label, ~40 % of a chart's
//!   redraw after a render that changed the page. The sizes of a (font,
//!   text) pair are kept here (the fonts are the system's: no web font
//!   arrives later to change them), keyed also by the page's language (its
//!   font fallback) and the device's pixel ratio.
//! - plotters-canvas sets the context's `font`, alignment and baseline before
//!   every text; a font set costs a parse of the string each time. Here they
//!   are set only when they change.

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind};
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// plotters-canvas's error type (not exported under its name).
type CanvasError = <plotters_canvas::CanvasBackend as DrawingBackend>::ErrorType;

/// Label sizes kept at most (then forgotten all at once).
const SIZES_MAX: usize = 4096;

/// What a label's size depends on: (language, pixel ratio, CSS font, text).
type SizeKey = (String, u64, String, String);

thread_local! {
    /// The size plotters measured of each label.
    static SIZES: RefCell<HashMap<SizeKey, (u32, u32)>> = RefCell::new(HashMap::new());
}

/// The drawing backend of every chart: plotters-canvas's, with its text
/// sizes remembered and its text state set only on change.
pub struct CanvasBackend {
    inner: plotters_canvas::CanvasBackend,
    context: CanvasRenderingContext2d,
    /// The context's font, text alignment and baseline as last set here.
    font: String,
    align: &'static str,
    baseline: &'static str,
}

impl CanvasBackend {
    /// The backend drawing on `canvas` (`None` without a 2D context).
    pub fn with_canvas_object(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = canvas.get_context("2d").ok()??.dyn_into::<CanvasRenderingContext2d>().ok()?;
        let inner = plotters_canvas::CanvasBackend::with_canvas_object(canvas)?;
        Some(CanvasBackend { inner, context, font: String::new(), align: "", baseline: "" })
    }
}

/// The CSS font plotters-canvas sets for `style`.
fn css_font<S: BackendTextStyle>(style: &S) -> String {
    format!("{} {}px {}", style.style().as_str(), style.size(), style.family().as_str())
}

fn error_cast(e: wasm_bindgen::JsValue) -> DrawingErrorKind<CanvasError> {
    let text = js_sys::JSON::stringify(&e).map(String::from).unwrap_or_else(|_| "Unknown".to_string());
    // plotters-canvas's error type has no public constructor: report through its
    // font error (the kind only changes how plotters prints it).
    DrawingErrorKind::FontError(text.into())
}

impl DrawingBackend for CanvasBackend {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.fill_polygon(vert, style)
    }
    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.blit_bitmap(pos, size, src)
    }

    /// plotters-canvas's text, its state set only when it changes (before a
    /// rotation's `save`, so that the `restore` after it keeps it).
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let baseline = match style.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        };
        if self.baseline != baseline {
            self.context.set_text_baseline(baseline);
            self.baseline = baseline;
        }
        let align = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        };
        if self.align != align {
            self.context.set_text_align(align);
            self.align = align;
        }
        let (r, g, b) = color.rgb;
        self.context.set_fill_style_str(&format!("rgba({},{},{},{})", r, g, b, color.alpha));
        let font = css_font(style);
        if self.font != font {
            self.context.set_font(&font);
            self.font = font;
        }
        let degree = crate::draw::chart::turn_degrees(style.transform()).to_radians();
        let (mut x, mut y) = (pos.0, pos.1);
        if degree != 0.0 {
            self.context.save();
            self.context.translate(f64::from(x), f64::from(y)).map_err(error_cast)?;
            self.context.rotate(degree).map_err(error_cast)?;
            x = 0;
            y = 0;
        }
        self.context.fill_text(text, f64::from(x), f64::from(y)).map_err(error_cast)?;
        if degree != 0.0 {
            self.context.restore();
        }
        Ok(())
    }

    /// plotters' size of a text (its `span` measured in the page) the first
    /// time a (font, text) pair is asked for; remembered after.
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        let window = crate::ui::kit::dom::window();
        // The language the measured span inherits (it is added to the body).
        let lang = window
            .document()
            .and_then(|d| d.body())
            .and_then(|b| b.closest("[lang]").ok().flatten())
            .and_then(|e| e.get_attribute("lang"))
            .unwrap_or_default();
        let key = (lang, window.device_pixel_ratio().to_bits(), css_font(style), text.to_string());
        if let Some(size) = SIZES.with(|s| s.borrow().get(&key).copied()) {
            return Ok(size);
        }
        let layout = style.layout_box(text).map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
        let size = ((layout.1 .0 - layout.0 .0) as u32, (layout.1 .1 - layout.0 .1) as u32);
        SIZES.with(|s| {
            let mut s = s.borrow_mut();
            if s.len() >= SIZES_MAX {
                s.clear();
            }
            s.insert(key, size);
        });
        Ok(size)
    }
}
