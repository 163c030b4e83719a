//! The app above the registry: the shell over `topics::ALL` and its
//! routes, the pages (`pages/`), lazily loaded pages (`lazy`), the panic
//! card, and start-up ([`start`]).

pub mod lazy;
pub mod pages;
pub mod panic;
pub mod shell;

use crate::ui::kit::{ctx, dom, texts};

/// A hash the router can't use (`#%%%`, `#//`, `#x`, `#/\\`, a bare `#`) is replaced, before the
/// router sees it, by the start page with the original in `?broken=`, where the
/// shell shows a notice about it.
fn sanitize_hash() {
    let w = dom::window();
    let location = w.location();
    let hash = location.hash().unwrap_or_default();
    // `location.hash` is "" both without a fragment and for a bare `#` (a
    // click on `<a href="#">`), which the router can't read: tell them apart
    // by the address (read only then: this runs twice on every navigation).
    let bare = || hash.is_empty() && location.href().unwrap_or_default().ends_with('#');
    if crate::params::routable_hash(&hash) && !bare() {
        return;
    }
    let shown: String = hash.chars().skip(1).take(200).collect();
    let q = js_sys::encode_uri_component(&shown).as_string().unwrap_or_default();
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#/?broken={q}")));
    }
}

/// `<div id="app-root">` at the end of `<body>` (style/main.css: `display:
/// contents`, so the app lays out as a child of the body).
fn app_root() -> Option<web_sys::Element> {
    let doc = dom::window().document()?;
    let root = doc.create_element("div").ok()?;
    root.set_id("app-root");
    doc.body()?.append_child(&root).ok()?;
    Some(root)
}

/// Entry point: install the panic card, load the texts of the language the
/// page opens in, then mount the app on `<body>`.
pub fn start() {
    panic::install();
    ctx::install_topics(crate::topics::METAS);
    lazy::install_prefetch(crate::topics::METAS, crate::topics::VIEWS);
    shell::install_pages();
    sanitize_hash();
    // Registered before the router's own listeners, so they see the clean hash.
    for event in ["popstate", "hashchange"] {
        gloo::events::EventListener::new(&dom::window(), event, |_| sanitize_hash()).forget();
    }
    wasm_bindgen_futures::spawn_local(async {
        let boot = dom::window().document().and_then(|d| d.get_element_by_id("boot"));
        match texts::initial().await {
            Ok(_) => {
                // A panel's static snapshot (src/prerender/snap.rs) stays, the app
                // laid out unseen under it (style/main.css), until the panel's
                // chunk is in and the panel has settled (ui::kit::panel::settle
                // removes it): no "loading" frame between the two, and nothing
                // of the app moves while the panel fills in.
                if let Some(boot) = boot.filter(|_| !dom::shows_snapshot()) {
                    boot.remove();
                }
                // The app's own root beside #boot: Yew empties the element it
                // mounts on, which on <body> took the snapshot away with it.
                match app_root() {
                    Some(root) => yew::Renderer::<shell::App>::with_root(root).render(),
                    None => yew::Renderer::<shell::App>::new().render(),
                };
            }
            Err((lang, problem)) => {
                web_sys::console::warn_1(&format!("warpscope: texts not loaded: {problem}").into());
                if let Some(boot) = boot {
                    texts::show_failure(&boot, lang);
                }
            }
        }
    });
}
