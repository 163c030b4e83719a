//! One module per panel, plus the frame they share.

pub mod flash;
pub mod frame;
pub mod inset;
pub mod matmul;
pub mod softmax;
pub mod systolic;
