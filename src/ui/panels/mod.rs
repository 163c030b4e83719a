//! One module per panel, plus the frame they share.

pub mod coalescing;
pub mod divergence;
pub mod flash;
pub mod frame;
pub mod fusion;
pub mod inset;
pub mod matmul;
pub mod memory;
pub mod occupancy;
pub mod roofline;
pub mod softmax;
pub mod systolic;
