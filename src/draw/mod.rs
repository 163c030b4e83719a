//! Pure drawing: simulation state → [`crate::scene::Scene`], one module per panel.

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
