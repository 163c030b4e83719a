//! Pure drawing: simulation state → [`crate::scene::Scene`], one module per panel.

pub mod coalescing;
pub mod divergence;
pub mod occupancy;
pub mod systolic;
pub mod threads;
