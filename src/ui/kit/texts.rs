//! Loading the texts of a language (see `i18n`): the wasm carries no
//! translated text. A page downloads its language's shared file
//! (`strings.<lang>.json`: chrome, start page, what several pages show) and
//! the file of each topic it shows (`strings.<lang>.<id>.json`), and the
//! other language's when asked for.

use crate::i18n::{self, Lang};
use std::cell::{Cell, RefCell};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

fn js_problem(e: JsValue) -> String {
    e.as_string().or_else(|| js_sys::JSON::stringify(&e).ok().and_then(|s| s.as_string())).unwrap_or_default()
}

thread_local! {
    /// The topics whose texts the page shown needs: a switch of language
    /// loads theirs with the shared file, before the page changes.
    static WANTED: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
    /// Each file's download, started once (a panel, its prefetch and a
    /// switch of language share it); forgotten if it failed.
    static FETCHES: RefCell<Vec<(String, js_sys::Promise)>> = const { RefCell::new(Vec::new()) };
    /// The language the page shows (for prefetching a topic's texts).
    static SHOWN: Cell<Lang> = const { Cell::new(Lang::En) };
    /// The route shown (its path): a new one needs texts of its own.
    static PAGE: RefCell<String> = const { RefCell::new(String::new()) };
    /// A text file was of another build: the server has been deployed anew
    /// since this page's index.html (and so its wasm) was cached.
    static STALE: Cell<bool> = const { Cell::new(false) };
}

/// The page now shows route `path` in `lang` (the shell says so at each
/// render, before the page's parts say which topics' texts they need).
pub fn showing(path: &str, lang: Lang) {
    SHOWN.with(|s| s.set(lang));
    PAGE.with(|p| {
        if *p.borrow() != path {
            *p.borrow_mut() = path.to_string();
            WANTED.with(|w| w.borrow_mut().clear());
        }
    });
}

/// Topic `id`'s texts are needed by the page shown (in any language it
/// switches to).
pub fn want(id: &'static str) {
    WANTED.with(|w| {
        if !w.borrow().contains(&id) {
            w.borrow_mut().push(id);
        }
    });
}

/// The download of `file` as text: the one under way, else a new one.
/// Revalidated every time (a 304 when unchanged), so that a new build's
/// texts never meet an old wasm from the HTTP cache.
fn download(file: &str) -> js_sys::Promise {
    if let Some(p) = FETCHES.with(|f| f.borrow().iter().find(|(n, _)| n == file).map(|(_, p)| p.clone())) {
        return p;
    }
    let init = web_sys::RequestInit::new();
    init.set_cache(web_sys::RequestCache::NoCache);
    let name = file.to_string();
    let text = wasm_bindgen::closure::Closure::once_into_js(move |response: JsValue| -> JsValue {
        match response.dyn_into::<web_sys::Response>() {
            Ok(r) if r.ok() => r.text().map(JsValue::from).unwrap_or_else(|e| js_sys::Promise::reject(&e).into()),
            Ok(r) => js_sys::Promise::reject(&format!("{name}: HTTP {}", r.status()).into()).into(),
            Err(e) => js_sys::Promise::reject(&e).into(),
        }
    });
    // `then` through Reflect: the closure returns a value (the body's promise).
    let fetched = super::dom::window().fetch_with_str_and_init(file, &init);
    let p = js_sys::Reflect::get(&fetched, &"then".into())
        .ok()
        .and_then(|then| then.dyn_into::<js_sys::Function>().ok())
        .and_then(|then| then.call1(&fetched, &text).ok())
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
        .unwrap_or(fetched);
    FETCHES.with(|f| f.borrow_mut().push((file.to_string(), p.clone())));
    p
}

/// Downloads `files` (all at once) and adopts them together, so that the
/// page never shows a language with some of its texts missing.
async fn fetch_all(lang: Lang, files: Vec<String>) -> Result<(), String> {
    let started: Vec<(String, js_sys::Promise)> = files.into_iter().map(|f| (f.clone(), download(&f))).collect();
    let mut texts = Vec::new();
    for (file, promise) in started {
        match JsFuture::from(promise).await.map(|t| t.as_string()) {
            Ok(Some(text)) => texts.push((file, text)),
            failed => {
                FETCHES.with(|f| f.borrow_mut().retain(|(n, _)| *n != file));
                return Err(match failed {
                    Err(e) => format!("{file}: {}", js_problem(e)),
                    _ => format!("{file}: not text"),
                });
            }
        }
    }
    for (file, text) in texts {
        // A file of another build (an update under way) is fetched again next time.
        FETCHES.with(|f| f.borrow_mut().retain(|(n, _)| *n != file));
        i18n::install(lang, &text).map_err(|e| {
            if e == i18n::OTHER_BUILD {
                STALE.with(|s| s.set(true));
            }
            format!("{file}: {e}")
        })?;
    }
    Ok(())
}

/// Fetches and adopts a language's shared texts and those of every topic
/// the page shown needs (nothing to do if they are in).
pub async fn load(lang: Lang) -> Result<(), String> {
    let mut files = Vec::new();
    if !i18n::is_loaded(lang) {
        files.push(i18n::file_name(lang));
    }
    for id in WANTED.with(|w| w.borrow().clone()) {
        if !i18n::has_part(lang, id) {
            files.push(i18n::part_file_name(lang, id));
        }
    }
    fetch_all(lang, files).await
}

/// Fetches and adopts topics `ids`' own texts in `lang` (wanted by the page).
pub async fn load_parts(lang: Lang, ids: &[&'static str]) -> Result<(), String> {
    ids.iter().for_each(|id| want(id));
    let files = ids.iter().filter(|id| !i18n::has_part(lang, id)).map(|id| i18n::part_file_name(lang, id)).collect();
    fetch_all(lang, files).await
}

/// Starts fetching topic `id`'s texts in the language shown, ahead of use
/// (a link to its panel hovered or focused, the browser idle).
pub fn prefetch_part(id: &'static str) {
    let lang = SHOWN.with(|s| s.get());
    if !i18n::has_part(lang, id) {
        wasm_bindgen_futures::spawn_local(async move {
            let files = vec![i18n::part_file_name(lang, id)];
            let _ = fetch_all(lang, files).await;
        });
    }
}

/// The texts the page opens with: `web/boot.js` starts fetching them while
/// the wasm downloads (`window.warpscopeTexts = { lang, text, part }`: the
/// language from the URL or the one remembered, the shared file and, on a
/// deep link to a panel, that topic's); if the shared copy failed, one more
/// fetch. The shell loads any other language when it is asked for.
pub async fn initial() -> Result<Lang, (Lang, String)> {
    let get = |o: &JsValue, k: &str| js_sys::Reflect::get(o, &k.into()).ok();
    let early = get(&super::dom::window().into(), "warpscopeTexts").filter(|v| v.is_object());
    let lang = early
        .as_ref()
        .and_then(|e| get(e, "lang"))
        .and_then(|v| v.as_string())
        .and_then(|c| Lang::from_code(&c))
        .unwrap_or_default();
    let text_of =
        |key: &str| early.as_ref().and_then(|e| get(e, key)).and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    let (shared, part) = (text_of("text"), text_of("part"));
    if let Some(promise) = shared {
        if let Some(text) = JsFuture::from(promise).await.ok().and_then(|t| t.as_string()) {
            if i18n::install(lang, &text).is_ok() {
                // The panel's own texts, if they came (else its frame fetches them).
                if let Some(text) = match part {
                    Some(p) => JsFuture::from(p).await.ok().and_then(|t| t.as_string()),
                    None => None,
                } {
                    let _ = i18n::install(lang, &text);
                }
                return Ok(lang);
            }
        }
    }
    let result = match load(lang).await {
        Ok(()) => Ok(lang),
        // The other language rather than nothing; the shell fetches the
        // one asked for again.
        Err(e) => load(lang.other()).await.map(|()| lang.other()).map_err(|_| (lang, e)),
    };
    if result.is_err() && STALE.with(|s| s.get()) && reload_to_new_build().await {
        // The page is going; it shows its boot message until then.
        let _ = JsFuture::from(js_sys::Promise::new(&mut |_, _| {})).await;
    }
    result
}

/// sessionStorage's key for the build that has already reloaded itself once
/// in this tab (so that a page never reloads in a loop).
const RELOADED_KEY: &str = "warpscope.reloaded-from";

/// The texts on the server are of another build than this wasm: a returning
/// visitor right after a deploy, whose index.html (naming the old build's
/// glue and wasm) came from the HTTP cache. Fetches index.html afresh
/// (`cache: 'reload'`, which refreshes the HTTP cache's copy) and reloads the
/// page onto the new build, once per build in this tab. False, and nothing
/// done, if this build has tried already, the tab's storage is blocked (no
/// guard against a loop), index.html can't be fetched, or it still names
/// this build's wasm: the caller says the texts could not be loaded.
async fn reload_to_new_build() -> bool {
    let window = super::dom::window();
    let Some(store) = window.session_storage().ok().flatten() else { return false };
    if store.get_item(RELOADED_KEY).ok().flatten().as_deref() == Some(i18n::BUILD)
        || store.set_item(RELOADED_KEY, i18n::BUILD).is_err()
    {
        return false;
    }
    let href = window.location().href().unwrap_or_default();
    let page = href.split('#').next().unwrap_or_default().to_string();
    let init = web_sys::RequestInit::new();
    init.set_cache(web_sys::RequestCache::Reload);
    let Ok(response) = JsFuture::from(window.fetch_with_str_and_init(&page, &init)).await else { return false };
    let Ok(response) = response.dyn_into::<web_sys::Response>() else { return false };
    if !response.ok() {
        return false;
    }
    let html = match response.text() {
        Ok(p) => JsFuture::from(p).await.ok().and_then(|t| t.as_string()).unwrap_or_default(),
        Err(_) => return false,
    };
    // The same wasm again: a reload would meet the same texts.
    let ours = window
        .document()
        .and_then(|d| d.query_selector("script[data-wasm]").ok().flatten())
        .and_then(|tag| tag.get_attribute("data-wasm"));
    if ours.is_some_and(|wasm| html.contains(&format!("\"{wasm}\""))) {
        return false;
    }
    web_sys::console::info_1(&"warpscope: the texts are of a newer build; reloading onto it".into());
    window.location().reload().is_ok()
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
