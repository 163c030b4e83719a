//! Native memory bandwidth, to compare with what `#/your-machine` measures
//! in WebAssembly on the same machine: `cargo run --release --bin membench`.
//! Copies a 256 MiB f32 buffer with `copy_from_slice` (memcpy) and with the
//! panel's copy kernel (`bench::copy_f32`, its portable loop natively),
//! and prints the median GB/s (bytes read + written ÷ time) of several runs.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use std::time::Instant;
    use warpscope::bench::{copy_f32, pattern};

    const BYTES: usize = 256 << 20;
    const RUNS: usize = 9;
    let n = BYTES / 4;
    let src: Vec<f32> = (0..n).map(pattern).collect();
    let mut dst = vec![0f32; n];
    let mut median = |f: &mut dyn FnMut(&[f32], &mut [f32])| -> f64 {
        f(&src, &mut dst); // warm-up: faults in the destination's pages
        let mut gbps: Vec<f64> = (0..RUNS)
            .map(|_| {
                let t = Instant::now();
                f(&src, &mut dst);
                let s = t.elapsed().as_secs_f64();
                std::hint::black_box(&dst);
                2.0 * BYTES as f64 / s / 1e9
            })
            .collect();
        gbps.sort_by(f64::total_cmp);
        gbps[RUNS / 2]
    };
    let memcpy = median(&mut |s, d| d.copy_from_slice(s));
    let kernel = median(&mut |s, d| copy_f32(s, d));
    assert!(dst.iter().enumerate().step_by(4099).all(|(i, v)| *v == pattern(i)));
    println!(
        "buffer: {} MiB f32 (working set {} MiB), median of {RUNS} runs, read + write bytes",
        BYTES >> 20,
        2 * (BYTES >> 20)
    );
    println!("memcpy (copy_from_slice):         {memcpy:.2} GB/s");
    println!("wasm-style copy kernel (native):  {kernel:.2} GB/s");
    println!("→ divide #/your-machine's bandwidth-gbps by {memcpy:.2} for wasm ÷ native memcpy");
}

/// Not a browser program (the wasm32 build of the crate compiles every bin).
#[cfg(target_arch = "wasm32")]
fn main() {}
