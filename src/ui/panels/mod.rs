//! One module per panel, plus the frame they share.

pub mod coalescing;
pub mod divergence;
pub mod frame;
pub mod occupancy;
pub mod systolic;
pub mod threads;
