//! The Yew app (wasm32 only). One registry of topics (`registry`), one player,
//! one slider, one canvas adapter, one chart helper; panels in `panels/`.

pub mod app;
pub mod canvas;
pub mod chart;
pub mod panels;
pub mod panic;
pub mod player;
pub mod readouts;
pub mod registry;
pub mod slider;
pub mod url_state;

/// Entry point: install the panic card, then mount the app on `<body>`.
pub fn start() {
    panic::install();
    if let Some(boot) = window().document().and_then(|d| d.get_element_by_id("boot")) {
        boot.remove();
    }
    yew::Renderer::<app::App>::new().render();
}

/// The window (always present in a page).
pub fn window() -> web_sys::Window {
    web_sys::window().expect("no window")
}
