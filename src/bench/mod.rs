//! Measuring this machine (notes §5.4, demo 4 of 01): the kernels, the plan
//! of measurements and the bookkeeping of a run, with no clock. The caller
//! (the `#/your-machine` panel, `src/bin/membench.rs`) times batches of
//! pieces and hands the durations to [`Session::record`].
//!
//! Every task is cut into pieces of at most about a millisecond (a chunk of a
//! buffer, a block of matrix rows), so a browser can run a few, yield a frame
//! and go on. The first full repetition of every task fills its buffers and
//! warms the caches: it is not timed.
//!
//! The kernels use WebAssembly SIMD (`std::arch::wasm32`, four f32 lanes)
//! when compiled with `+simd128` (see `.cargo/config.toml`), plain loops
//! otherwise; the natively tested loops are the fallback, and every task
//! checks its output when it ends ([`Work::check`]), in the browser too.
//!
//! In four parts, by job: `kernels` (the loops that are timed), `work` (a
//! task and its buffers), `session` (the plan, the meter, the run) and
//! `results` (what a finished run keeps, in the URL and as JSON).

mod kernels;
mod results;
mod session;
mod work;

pub use kernels::{axpb, copy_f32, copy_u16, matmul_rows, pattern, transpose_rows, CHUNK, MM_ROWS};
pub use results::{check_results, round4, Results, MAX_ENCODED};
pub use session::{Meter, Plan, Session};
pub use work::{Kernel, Task, Work};

#[cfg(test)]
mod tests;
