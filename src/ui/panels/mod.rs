//! One module per panel, plus the frame they share.

pub mod frame;
pub mod inset;
