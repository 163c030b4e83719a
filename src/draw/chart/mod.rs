//! Charts with plotters, drawn by pure functions generic over plotters'
//! backend: the browser draws them on a canvas (`ui::kit::chart`, the
//! components), the build as SVG for the static snapshots ([`svg`]).
//!
//! `look`: what every chart shares; `roofline`: the roofline; `log`: log–log
//! and growth charts.

pub mod log;
pub mod look;
pub mod roofline;
#[cfg(not(target_arch = "wasm32"))]
pub mod svg;

pub use look::{Look, MIN_FONT, PRESENT_SCALE};

/// A label's turn in degrees, clockwise (the canvas and SVG both turn by it).
pub fn turn_degrees(t: plotters_backend::FontTransform) -> f64 {
    use plotters_backend::FontTransform;
    match t {
        FontTransform::None => 0.0,
        FontTransform::Rotate90 => 90.0,
        FontTransform::Rotate180 => 180.0,
        FontTransform::Rotate270 => 270.0,
    }
}
