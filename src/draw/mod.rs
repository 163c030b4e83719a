//! Pure drawing: simulation state → [`crate::scene::Scene`], one module per panel.

pub mod chart;
pub mod coalescing;
#[cfg(test)]
mod cvd;
pub mod divergence;
pub mod flash;
pub mod labels;
pub mod matmul;
pub mod occupancy;
pub mod recompute;
pub mod softmax;
pub mod systolic;
pub mod threads;
pub mod train;

/// Both themes (normal, projected) at widths from a narrow phone to a wide
/// screen: the legibility tests of a drawing run over these.
#[cfg(test)]
pub(crate) fn each_theme_and_width(mut check: impl FnMut(&crate::scene::Theme, f64)) {
    for present in [false, true] {
        let th = crate::scene::Theme::for_mode(present);
        for width in [240.0, 320.0, 631.0, 900.0, 1400.0] {
            check(&th, width);
        }
    }
}
