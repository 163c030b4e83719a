//! A panic anywhere shows a visible error card (both languages, since the app's
//! state is gone) with a link that reloads the start page.

use wasm_bindgen::JsCast;

/// Installs the card through Yew's `set_custom_panic_hook`: a hook set with
/// `std::panic::set_hook` is replaced by Yew's default one when the renderer
/// starts, and the card then never appears.
pub fn install() {
    yew::set_custom_panic_hook(Box::new(|info| {
        let msg = info.to_string();
        web_sys::console::error_1(&msg.clone().into());
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
        let Some(body) = doc.body() else { return };
        if doc.get_element_by_id("panic-card").is_some() {
            return;
        }
        let Ok(card) = doc.create_element("div") else { return };
        card.set_id("panic-card");
        let _ = card.set_attribute("role", "alert");
        let lang = crate::i18n::Lang::En;
        let zh = crate::i18n::Lang::Zh;
        let t = crate::i18n::tr;
        card.set_inner_html(&format!(
            "<h2>{} · {}</h2><p>{}</p><p>{}</p><pre>{}</pre><p><a id=\"panic-home\" href=\"#/\">{} · {}</a></p>",
            t(lang, "panic.title"),
            t(zh, "panic.title"),
            t(lang, "panic.body"),
            t(zh, "panic.body"),
            crate::i18n::escape_html(&msg),
            t(lang, "panic.link"),
            t(zh, "panic.link"),
        ));
        let _ = body.append_child(&card);
        // The wasm instance is unusable after a panic: the link must reload.
        if let Some(a) = doc.get_element_by_id("panic-home") {
            let reload = wasm_bindgen::closure::Closure::<dyn Fn()>::new(|| {
                if let Some(w) = web_sys::window() {
                    let _ = w.location().set_hash("#/");
                    let _ = w.location().reload();
                }
            });
            let _ = a.dyn_ref::<web_sys::HtmlElement>().map(|el| el.set_onclick(Some(reload.as_ref().unchecked_ref())));
            reload.forget();
        }
    }));
}

/// A deliberate panic, for the browser test of the card. Not reachable from
/// the UI (no link, key or parameter leads here): only a test calling
/// `window.wasmBindings.warpscope_test_panic()` from script can reach it.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn warpscope_test_panic() {
    panic!("test panic (warpscope_test_panic)");
}
