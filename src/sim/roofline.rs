//! One model of hardware and of bytes and FLOPs (notes §2, §4, §5, §6.2):
//! GPU presets, the roofline `attainable = min(peak, intensity × bandwidth)`,
//! and the intensity of the lecture's operations.

use super::Metric;

use crate::sim::hw::Gpu;

/// `min(peak, intensity × bandwidth)` in TFLOP/s (the one roofline formula).
pub fn attainable_tflops(h: &Gpu, dtype: &str, intensity: f64) -> f64 {
    (intensity * h.hbm_tbps).min(h.peak_tflops(dtype))
}

/// FLOPs and HBM bytes of an operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Work {
    pub flops: f64,
    pub bytes: f64,
}

impl Work {
    pub fn intensity(&self) -> f64 {
        self.flops / self.bytes
    }
}

/// The lecture's operations (§5.2, §5.3) with element size `e` bytes.
pub fn op_work(op: &str, n: f64, d: f64, batch: f64, e: f64) -> Work {
    match op {
        // y = max(x, 0): one op per element, read and write it.
        "relu" => Work { flops: n, bytes: 2.0 * n * e },
        // x · y: n multiplies and n adds, read both vectors.
        "dot" => Work { flops: 2.0 * n, bytes: 2.0 * n * e },
        // A x with A n × n: read A and x, write y.
        "matvec" => Work { flops: 2.0 * n * n, bytes: (n * n + 2.0 * n) * e },
        // n × n times n × n: read A, B, write C.
        "matmul" => Work { flops: 2.0 * n * n * n, bytes: 3.0 * n * n * e },
        // d × d weights times B tokens: read W and the inputs, write outputs.
        _ => Work { flops: 2.0 * d * d * batch, bytes: (d * d + 2.0 * d * batch) * e },
    }
}

pub fn metrics(h: &Gpu, dtype: &str, w: Work) -> Vec<Metric> {
    let i = w.intensity();
    let att = attainable_tflops(h, dtype, i);
    let bound = if i * h.hbm_tbps < h.peak_tflops(dtype) { "memory" } else { "compute" };
    vec![
        Metric::real("intensity", i),
        Metric::real("attainable-tflops", att),
        Metric::percent("percent-of-peak", att / h.peak_tflops(dtype)),
        Metric::word("bound", bound),
    ]
}

/// Block-scaled formats (notes §6.2): effective bits per value, with one
/// scale shared by a block of values.
pub fn block_scaled_bits(element_bits: f64, scale_bits: f64, block: f64) -> f64 {
    element_bits + scale_bits / block
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn lecture_ridges() {
        // notes §4: A100 156, H100 295, B200 281 FLOP/byte (with the notes'
        // bandwidths; NVIDIA's 2,039 GB/s gives the A100 153).
        for (code, r) in [("a100", "156"), ("h100", "295"), ("b200", "281")] {
            assert_eq!(format!("{:.0}", crate::sim::hw::gpu(code).notes_ridge("bf16")), r, "{code}");
        }
        assert_eq!(format!("{:.0}", crate::sim::hw::gpu("a100").ridge("bf16")), "153");
    }

    #[test]
    fn lecture_ops() {
        // notes §5.2 (H100, bf16, n = 4096).
        let h = crate::sim::hw::gpu("h100");
        let row = |op: &str| {
            let w = op_work(op, 4096.0, 0.0, 0.0, 2.0);
            let a = attainable_tflops(h, "bf16", w.intensity());
            (w.intensity(), a, a / h.peak_tflops("bf16"))
        };
        let (i, a, p) = row("relu");
        assert_eq!(
            (format!("{i:.2}"), format!("{a:.1}"), format!("{:.1}%", 100.0 * p)),
            ("0.25".into(), "0.8".into(), "0.1%".into())
        );
        let (i, a, _) = row("dot");
        assert_eq!((format!("{i:.1}"), format!("{a:.1}")), ("0.5".into(), "1.7".into()));
        let (i, a, _) = row("matvec");
        assert_eq!((format!("{i:.1}"), format!("{a:.1}")), ("1.0".into(), "3.3".into()));
        let (i, a, p) = row("matmul");
        assert_eq!((format!("{i:.0}"), format!("{a:.0}"), p), ("1365".into(), "990".into(), 1.0));
    }

    #[test]
    fn lecture_decode() {
        // notes §5.3 (d = 8192, bf16, H100).
        let h = crate::sim::hw::gpu("h100");
        let expect = [
            (1.0, "1.0", "0.3"),
            (8.0, "8.0", "2.7"),
            (64.0, "63", "21"),
            (256.0, "241", "82"),
            (1024.0, "819", "100"),
        ];
        for (b, i, p) in expect {
            let w = op_work("decode", 0.0, 8192.0, b, 2.0);
            let inten = w.intensity();
            let shown = if inten < 10.0 { format!("{inten:.1}") } else { format!("{inten:.0}") };
            assert_eq!(shown, i, "B = {b}");
            let pct = 100.0 * attainable_tflops(h, "bf16", inten) / h.peak_tflops("bf16");
            let pct = if pct < 10.0 { format!("{pct:.1}") } else { format!("{pct:.0}") };
            assert_eq!(pct, p, "B = {b}");
        }
    }

    #[test]
    fn precision_and_block_scaling() {
        // ReLU moves 8 bytes per FLOP in fp32, 4 in bf16 (notes §6.2).
        assert_eq!(op_work("relu", 10.0, 0.0, 0.0, 4.0).bytes / 10.0, 8.0);
        assert_eq!(op_work("relu", 10.0, 0.0, 0.0, 2.0).bytes / 10.0, 4.0);
        assert_eq!(block_scaled_bits(8.0, 8.0, 32.0), 8.25); // MXFP8
        assert_eq!(block_scaled_bits(4.0, 8.0, 16.0), 4.5); // NVFP4
    }

    proptest! {
        #[test]
        fn roofline_properties(i in 0.001f64..1e5, j in 0.001f64..1e5, g in 0usize..4) {
            let h = &crate::sim::hw::GPUS[g];
            let a = attainable_tflops(h, "bf16", i);
            prop_assert!(a <= h.peak_tflops("bf16"));
            if i <= j {
                prop_assert!(a <= attainable_tflops(h, "bf16", j));
            }
        }
    }
}
