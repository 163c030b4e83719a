//! Loading the texts of a language (`strings.<lang>.json`, next to
//! `index.html`; see `i18n`): the wasm carries no translated text, so a page
//! downloads only the language it shows, and the other one when asked for.

use crate::i18n::{self, Lang};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

fn js_problem(e: wasm_bindgen::JsValue) -> String {
    e.as_string().or_else(|| js_sys::JSON::stringify(&e).ok().and_then(|s| s.as_string())).unwrap_or_default()
}

async fn fetch_text(lang: Lang) -> Result<String, String> {
    let init = web_sys::RequestInit::new();
    // Revalidated every time (a 304 when unchanged), so that a new build's
    // texts never meet an old wasm from the HTTP cache.
    init.set_cache(web_sys::RequestCache::NoCache);
    let file = i18n::file_name(lang);
    let response =
        JsFuture::from(super::dom::window().fetch_with_str_and_init(&file, &init)).await.map_err(js_problem)?;
    let response: web_sys::Response = response.dyn_into().map_err(js_problem)?;
    if !response.ok() {
        return Err(format!("{file}: HTTP {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(js_problem)?).await.map_err(js_problem)?;
    text.as_string().ok_or_else(|| format!("{file}: not text"))
}

/// Fetches and adopts a language's texts (nothing to do if they are in).
pub async fn load(lang: Lang) -> Result<(), String> {
    if i18n::is_loaded(lang) {
        return Ok(());
    }
    let text = fetch_text(lang).await?;
    i18n::install(lang, &text).map_err(|e| format!("{}: {e}", i18n::file_name(lang)))
}

/// The texts the page opens with: `web/boot.js` starts fetching them while
/// the wasm downloads (`window.warpscopeTexts = { lang, text }`, the
/// language from the URL or the one remembered); if that copy failed, one
/// more fetch. The shell loads any other language when it is asked for.
pub async fn initial() -> Result<Lang, (Lang, String)> {
    let get = |o: &wasm_bindgen::JsValue, k: &str| js_sys::Reflect::get(o, &k.into()).ok();
    let early = get(&super::dom::window().into(), "warpscopeTexts").filter(|v| v.is_object());
    let lang = early
        .as_ref()
        .and_then(|e| get(e, "lang"))
        .and_then(|v| v.as_string())
        .and_then(|c| Lang::from_code(&c))
        .unwrap_or_default();
    if let Some(promise) = early.and_then(|e| get(&e, "text")).and_then(|p| p.dyn_into::<js_sys::Promise>().ok()) {
        if let Some(text) = JsFuture::from(promise).await.ok().and_then(|t| t.as_string()) {
            if i18n::install(lang, &text).is_ok() {
                return Ok(lang);
            }
        }
    }
    match load(lang).await {
        Ok(()) => Ok(lang),
        // The other language rather than nothing; the shell fetches the
        // one asked for again.
        Err(e) => load(lang.other()).await.map(|()| lang.other()).map_err(|_| (lang, e)),
    }
}

/// In place of the app when no texts could be loaded: what happened, in
/// both languages (these texts are compiled in), and a reload button.
pub fn show_failure(boot: &web_sys::Element, lang: Lang) {
    let Some(doc) = super::dom::window().document() else { return };
    boot.set_text_content(None);
    let _ = boot.set_attribute("role", "alert");
    for l in [lang, lang.other()] {
        if let Ok(p) = doc.create_element("p") {
            let _ = p.set_attribute("lang", if l == Lang::Zh { "zh-CN" } else { "en" });
            p.set_text_content(Some(&i18n::trf(l, "strings.failed", &[("file", &i18n::file_name(lang))])));
            let _ = boot.append_child(&p);
        }
    }
    if let Ok(button) = doc.create_element("button") {
        button.set_text_content(Some(&format!(
            "{} · {}",
            i18n::tr(lang, "strings.reload"),
            i18n::tr(lang.other(), "strings.reload")
        )));
        let reload = wasm_bindgen::closure::Closure::<dyn Fn()>::new(|| {
            let _ = super::dom::window().location().reload();
        });
        let _ = button.dyn_ref::<web_sys::HtmlElement>().map(|b| b.set_onclick(Some(reload.as_ref().unchecked_ref())));
        reload.forget();
        let _ = boot.append_child(&button);
    }
}
