//! The DOM helpers every part of the UI may use: the window, the next
//! animation frame, and file downloads (JSON, blobs, a canvas as PNG).

use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

/// Resolve at the next animation frame (work in slices between frames).
pub async fn next_frame() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().request_animation_frame(&resolve);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// The window (always present in a page).
pub fn window() -> web_sys::Window {
    web_sys::window().expect("no window")
}

/// Above this window width a projected page's type grows with the width
/// (style/main.css: `html.present` at 1.4vw, 21 px at 1500 px).
const WIDE_PROJECTED_PX: f64 = 1500.0;

/// How much larger than usual the type is: 1, except projected on a screen
/// wider than [`WIDE_PROJECTED_PX`] (27 px type at 1920 → 1.28), where
/// charts' text and what the stage reserves for text grow with it.
pub fn type_scale(present: bool) -> f64 {
    if !present {
        return 1.0;
    }
    let width = window().inner_width().ok().and_then(|w| w.as_f64()).unwrap_or(0.0);
    (width / WIDE_PROJECTED_PX).max(1.0)
}

/// The canvas drawings' look for this screen: [`Theme::for_mode`], its text
/// [`type_scale`] times larger on a wide projected screen (at 1920 × 1080 the
/// canvases' text grows with the page's, as the charts' does).
pub fn theme(present: bool) -> crate::scene::Theme {
    let mut th = crate::scene::Theme::for_mode(present);
    th.text_scale *= type_scale(present);
    th
}

/// Offer `text` as a file download.
pub fn download(name: &str, text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else { return };
    download_blob(name, &blob);
}

/// Offer a blob as a file download.
pub fn download_blob(name: &str, blob: &web_sys::Blob) {
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else { return };
    download_href(&url, name);
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Download what a canvas shows as `<name>.png`.
pub fn save_png(canvas: &HtmlCanvasElement, name: &str) {
    let Ok(url) = canvas.to_data_url_with_type("image/png") else { return };
    download_href(&url, &format!("{name}.png"));
}

/// Offer what `href` points at (a data: or blob: URL) as a file download.
pub fn download_href(href: &str, file: &str) {
    let Some(doc) = window().document() else { return };
    let Ok(a) = doc.create_element("a") else { return };
    let _ = a.set_attribute("href", href);
    let _ = a.set_attribute("download", file);
    if let Some(a) = a.dyn_ref::<web_sys::HtmlElement>() {
        a.click();
    }
}

/// Does the page show the build's static snapshot of a panel (`web/pre.js`
/// marks `<html data-route="snap">` once it has put one into `#boot`)?
pub fn shows_snapshot() -> bool {
    window().document().and_then(|d| d.document_element()).and_then(|e| e.get_attribute("data-route")).as_deref()
        == Some("snap")
}

/// Remove `#boot` (the boot line, or the static page or snapshot in it), if
/// it is still there.
pub fn remove_boot() {
    if let Some(boot) = window().document().and_then(|d| d.get_element_by_id("boot")) {
        boot.remove();
    }
}
