//! One model of hardware and of bytes and FLOPs (notes §2, §4, §5, §6.2):
//! GPU presets, the roofline `attainable = min(peak, intensity × bandwidth)`,
//! and the intensity of the lecture's operations.

use super::Metric;

/// A GPU's public figures. Peaks are dense (no sparsity), in TFLOP/s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hardware {
    pub code: &'static str,
    pub name: &'static str,
    pub sms: u32,
    /// Tensor Core bf16 / fp16 peak.
    pub bf16_tflops: f64,
    /// Tensor Core fp8 peak (None where the GPU has no fp8 Tensor Cores).
    pub fp8_tflops: Option<f64>,
    /// Non-Tensor-Core fp32 peak.
    pub fp32_tflops: f64,
    pub hbm_tbps: f64,
    pub hbm_gb: f64,
    pub l2_mb: f64,
    pub smem_kb_per_sm: f64,
    pub regs_kb_per_sm: f64,
    /// Where the numbers come from.
    pub source: &'static str,
}

pub const HARDWARE: [Hardware; 4] = [
    Hardware {
        code: "a100",
        name: "A100",
        sms: 108,
        bf16_tflops: 312.0,
        fp8_tflops: None,
        fp32_tflops: 19.5,
        hbm_tbps: 2.0,
        hbm_gb: 80.0,
        l2_mb: 40.0,
        smem_kb_per_sm: 164.0,
        regs_kb_per_sm: 256.0,
        source: "NVIDIA A100 Tensor Core GPU datasheet (SXM 80 GB: 2.0 TB/s as the lecture rounds 2,039 GB/s); NVIDIA Ampere GA100 whitepaper (SMs, L2, shared memory, registers)",
    },
    Hardware {
        code: "h100",
        name: "H100",
        sms: 132,
        bf16_tflops: 989.5,
        fp8_tflops: Some(1979.0),
        fp32_tflops: 67.0,
        hbm_tbps: 3.35,
        hbm_gb: 80.0,
        l2_mb: 50.0,
        smem_kb_per_sm: 228.0,
        regs_kb_per_sm: 256.0,
        source: "NVIDIA H100 Tensor Core GPU datasheet (SXM5: 1,979 TFLOPS BF16 with sparsity, so 989.5 dense, which the lecture rounds to 990); NVIDIA Hopper architecture whitepaper (SMs, L2, shared memory, registers)",
    },
    Hardware {
        code: "h200",
        name: "H200",
        sms: 132,
        bf16_tflops: 989.5,
        fp8_tflops: Some(1979.0),
        fp32_tflops: 67.0,
        hbm_tbps: 4.8,
        hbm_gb: 141.0,
        l2_mb: 50.0,
        smem_kb_per_sm: 228.0,
        regs_kb_per_sm: 256.0,
        source: "NVIDIA H200 Tensor Core GPU datasheet (SXM: 141 GB HBM3e at 4.8 TB/s; same Hopper compute as H100)",
    },
    Hardware {
        code: "b200",
        name: "B200",
        sms: 148,
        bf16_tflops: 2250.0,
        fp8_tflops: Some(4500.0),
        fp32_tflops: 80.0,
        hbm_tbps: 8.0,
        hbm_gb: 180.0,
        // Not in NVIDIA's published B200 specifications: shown as unknown.
        l2_mb: 0.0,
        smem_kb_per_sm: 228.0,
        regs_kb_per_sm: 256.0,
        source: "NVIDIA HGX B200 / DGX B200 specifications (per GPU at 1,000 W: 2.25 PFLOPS dense BF16, 4.5 PFLOPS dense FP8, 80 TFLOPS FP32, 8 TB/s, 180 GB); L2 size not published by NVIDIA",
    },
];

pub fn hardware(code: &str) -> &'static Hardware {
    HARDWARE.iter().find(|h| h.code == code).unwrap_or(&HARDWARE[1])
}

/// Bytes per element of a dtype.
pub fn dtype_bytes(dtype: &str) -> f64 {
    match dtype {
        "fp32" => 4.0,
        "fp8" => 1.0,
        _ => 2.0,
    }
}

impl Hardware {
    /// The compute roof for a dtype (fp8 falls back to bf16 where absent).
    pub fn peak_tflops(&self, dtype: &str) -> f64 {
        match dtype {
            "fp32" => self.fp32_tflops,
            "fp8" => self.fp8_tflops.unwrap_or(self.bf16_tflops),
            _ => self.bf16_tflops,
        }
    }
    /// Ridge point: peak ÷ bandwidth, FLOP per byte.
    pub fn ridge(&self, dtype: &str) -> f64 {
        self.peak_tflops(dtype) / self.hbm_tbps
    }
}

/// `min(peak, intensity × bandwidth)` in TFLOP/s (the one roofline formula).
pub fn attainable_tflops(h: &Hardware, dtype: &str, intensity: f64) -> f64 {
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

pub fn metrics(h: &Hardware, dtype: &str, w: Work) -> Vec<Metric> {
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
        // notes §4: A100 156, H100 295, B200 281 FLOP/byte.
        for (code, r) in [("a100", "156"), ("h100", "295"), ("b200", "281")] {
            assert_eq!(format!("{:.0}", hardware(code).ridge("bf16")), r, "{code}");
        }
    }

    #[test]
    fn lecture_ops() {
        // notes §5.2 (H100, bf16, n = 4096).
        let h = hardware("h100");
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
        let h = hardware("h100");
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
            let h = &HARDWARE[g];
            let a = attainable_tflops(h, "bf16", i);
            prop_assert!(a <= h.peak_tflops("bf16"));
            if i <= j {
                prop_assert!(a <= attainable_tflops(h, "bf16", j));
            }
        }
    }
}
