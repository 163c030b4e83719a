//! The Yew app (wasm32 only), in two layers on either side of the topic
//! registry (`crate::topics`):
//!
//! - [`kit`]: what a topic's view may call (the panel and its hook, the
//!   player, sliders, the canvas and charts, readouts, widgets, export, the
//!   DOM helpers and theme, chunk loading). It never names the registry or
//!   the app.
//! - [`app`]: what sits above the registry: the shell and its routes, the
//!   pages (deck, lecture, practice round), lazily loaded pages, the panic
//!   card and start-up.
//!
//! `.ci/imports.py` checks the layering. Each panel is in
//! `topics/<id>/view.rs`.

pub mod app;
pub mod kit;

pub use app::start;
