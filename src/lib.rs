//! Warpscope: CS336 Lecture 5 (GPUs, TPUs) as an interactive lab.
//!
//! Everything outside `ui` is pure Rust with no web types: it compiles and is
//! tested natively (`cargo test`). `ui` is the Yew app and exists only on wasm32.

pub mod animation;
pub mod bench;
pub mod deck;
pub mod draw;
pub mod format;
pub mod i18n;
pub mod json;
pub mod lecture;
pub mod lecture_deck;
pub mod message;
pub mod params;
pub mod practice;
/// The start page as static HTML for index.html (native: the build hook).
#[cfg(not(target_arch = "wasm32"))]
pub mod prerender;
pub mod scene;
/// A scene as SVG, for the static panel snapshots (native: the build hook).
#[cfg(not(target_arch = "wasm32"))]
pub mod scene_svg;
pub mod sim;
pub mod topic;
pub mod topics;

#[cfg(target_arch = "wasm32")]
pub mod ui;
