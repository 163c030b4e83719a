//! The first panel of a page appears once, at its final size. Until then it
//! is laid out but not shown: under the build's static snapshot (the app
//! hidden at the screen's size, style/main.css), or, without one, its body
//! hidden under its header (`html.settling`). The panel's first renders
//! measure its stage, redraw its canvas to fit and paint it; Yew yields to
//! the browser between a render and its effects, so each of those steps
//! could otherwise be seen as the page moving (a layout shift on a phone of
//! 0.14–0.29). [`begin`] marks the page in the panel's first render;
//! [`watch`] shows it when its drawing is painted and its size has held
//! for a few frames (1.5 s at most), and removes the snapshot then.

use crate::ui::kit::dom;
use std::cell::Cell;

/// The class on `<html>` while the first panel settles.
const CLASS: &str = "settling";
/// Frames its layout must hold, painted, before it is shown.
const STILL_FRAMES: u32 = 3;
/// Milliseconds after which it is shown whatever it does (a timer too, for
/// a tab in the background, where no frame runs).
const MAX_MS: f64 = 1500.0;

thread_local! {
    /// Has a panel of this page begun settling (only the first one does)?
    static BEGUN: Cell<bool> = const { Cell::new(false) };
}

fn root() -> Option<web_sys::Element> {
    dom::window().document()?.document_element()
}

/// In the render that first shows a panel of this page: mark the page
/// settling (before that render paints, so no frame of it is seen moving).
/// Later panels (a navigation) are shown as they render. `false` if this
/// page already had its first panel.
pub fn begin() -> bool {
    if BEGUN.with(|b| b.replace(true)) {
        return false;
    }
    if let Some(r) = root() {
        let _ = r.class_list().add_1(CLASS);
    }
    busy(true);
    true
}

/// The page's main region is marked busy while its panel settles unseen.
fn busy(on: bool) {
    let main = dom::window().document().and_then(|d| d.query_selector("#app-root .site-main").ok().flatten());
    if let Some(m) = main {
        let _ = if on { m.set_attribute("aria-busy", "true") } else { m.remove_attribute("aria-busy") };
    }
}

/// The page opened on something other than a panel (the start page, the
/// lecture, …): a panel navigated to later is shown as it renders.
pub fn skip() {
    if !BEGUN.with(|b| b.replace(true)) {
        return;
    }
    // Left while its first panel was settling: show the new page.
    if root().is_some_and(|r| r.class_list().contains(CLASS)) {
        finish();
    }
}

/// Show the settling panel now (and remove the snapshot): its chunk failed,
/// or it has settled.
pub fn finish() {
    BEGUN.with(|b| b.set(true));
    if let Some(r) = root() {
        let _ = r.class_list().remove_1(CLASS);
    }
    busy(false);
    dom::remove_boot();
}

/// What is laid out and painted of the app's panel: the panel's height and
/// each stage canvas's size, size drawn at and paint mark (a chart's cursor
/// layer is drawn on hover only); `None` while a canvas laid out in its
/// stage is not painted yet.
fn signature() -> Option<String> {
    let doc = dom::window().document()?;
    let panel = doc.query_selector("#app-root .panel").ok()??;
    let mut sig = format!("{}", panel.get_bounding_client_rect().height().round());
    let canvases = doc.query_selector_all("#app-root .panel .stage canvas:not(.chart-cursor)").ok()?;
    for i in 0..canvases.length() {
        let Some(c) =
            canvases.item(i).and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlCanvasElement>(n).ok())
        else {
            continue;
        };
        let r = c.get_bounding_client_rect();
        if r.width() <= 0.0 {
            continue; // not laid out (another mode's canvas)
        }
        if c.get_attribute("data-painted").as_deref() != Some("1") {
            return None;
        }
        sig += &format!(" {}x{}:{}x{}", r.width().round(), r.height().round(), c.width(), c.height());
    }
    Some(sig)
}

/// Each animation frame, until the panel has been painted and still for
/// [`STILL_FRAMES`] frames (or [`MAX_MS`] have passed): then [`finish`].
pub fn watch() {
    let t0 = now();
    // The backstop: frames don't run in a tab in the background.
    gloo::timers::callback::Timeout::new(MAX_MS as u32 + 100, finish).forget();
    next_frame(t0, 0, None);
}

fn now() -> f64 {
    dom::window().performance().map_or(0.0, |p| p.now())
}

fn next_frame(t0: f64, still: u32, last: Option<String>) {
    // A closure that frees itself once called (one a frame).
    let cb = wasm_bindgen::closure::Closure::once_into_js(move || {
        if root().is_none_or(|r| !r.class_list().contains(CLASS)) {
            return; // finished already (the backstop, a failure, a navigation)
        }
        let sig = signature();
        let still = match (&sig, &last) {
            (Some(s), Some(l)) if s == l => still + 1,
            _ => 0,
        };
        if still >= STILL_FRAMES || now() - t0 >= MAX_MS {
            finish();
        } else {
            next_frame(t0, still, sig);
        }
    });
    if dom::window().request_animation_frame(wasm_bindgen::JsCast::unchecked_ref(&cb)).is_err() {
        finish();
    }
}
