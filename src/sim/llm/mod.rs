//! The LLM lens (issue 23): how long one decode step or one prefill of a real
//! model shape takes on a GPU, as a pure function. The per-operator table of
//! one layer and the head gives FLOPs, bytes and the plain roofline time
//! (`ideal`); a chain of named effects, each calibrated from a measurement
//! shipped in `assets/measured/h200-llm-*.csv` or taken from a simulation
//! already in Warpscope (`sim::matmul`'s waves, `sim::fusion`'s ledger,
//! `sim::flash`'s ledger), turns it into the prediction. Every effect is one
//! term in seconds and can be switched off.
//!
//! In four parts, cut where the one file had its banners: `shape` (layouts,
//! presets, data types, the case and the per-operator table), `calibration`
//! (the measured curves and constants), `effects` (the chain of effects and
//! the step's time) and `validation` (the measured steps and the accuracy
//! table). Everything is re-exported here: `sim::llm::X` as before.

mod calibration;
mod effects;
/// The generator of `shipped.rs` (native: `warpscope llm-fit`).
#[cfg(not(target_arch = "wasm32"))]
pub mod generate;
mod shape;
mod shipped;
mod validation;

pub use calibration::*;
pub use effects::*;
pub use shape::*;
pub use validation::*;

#[cfg(test)]
mod tests;
