//! One hardware and dtype vocabulary for every panel: the GPU table (with its
//! sources) and the element types. Nothing else in the crate restates a GPU's
//! figures or a dtype's size.

/// An element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dtype {
    Fp64,
    Fp32,
    Bf16,
    Fp16,
    Fp8,
}

impl Dtype {
    pub const ALL: [Dtype; 5] = [Dtype::Fp64, Dtype::Fp32, Dtype::Bf16, Dtype::Fp16, Dtype::Fp8];

    /// The URL code (`fp32`, `bf16`, …), also the translation key's last part.
    pub const fn code(self) -> &'static str {
        match self {
            Dtype::Fp64 => "fp64",
            Dtype::Fp32 => "fp32",
            Dtype::Bf16 => "bf16",
            Dtype::Fp16 => "fp16",
            Dtype::Fp8 => "fp8",
        }
    }

    pub const fn bytes(self) -> u64 {
        match self {
            Dtype::Fp64 => 8,
            Dtype::Fp32 => 4,
            Dtype::Bf16 | Dtype::Fp16 => 2,
            Dtype::Fp8 => 1,
        }
    }

    pub fn from_code(code: &str) -> Option<Dtype> {
        Dtype::ALL.into_iter().find(|d| d.code() == code)
    }
}

/// The dtype choices of panels about ML arithmetic (no fp64).
pub const ML_DTYPES: &[&str] = &["fp32", "bf16", "fp16", "fp8"];
/// Every dtype code (the coalescing panel also offers fp64).
pub const ALL_DTYPES: &[&str] = &["fp64", "fp32", "bf16", "fp16", "fp8"];

/// Bytes per element of a dtype code (4 for an unknown code: URL values are
/// validated against the choices before they get here).
pub fn dtype_bytes(code: &str) -> u64 {
    Dtype::from_code(code).map_or(4, Dtype::bytes)
}

/// A GPU's public figures. Peaks are dense (no sparsity), in TFLOP/s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gpu {
    pub code: &'static str,
    pub name: &'static str,
    pub sms: u32,
    /// SMs on the full die, of which `sms` are enabled (0 where not given).
    pub die_sms: u32,
    /// Its occupancy rules (`sim::occupancy::arch`).
    pub arch: &'static str,
    /// Tensor Core bf16 / fp16 peak.
    pub bf16_tflops: f64,
    /// Tensor Core fp8 peak (None where the GPU has no fp8 Tensor Cores).
    pub fp8_tflops: Option<f64>,
    /// Non-Tensor-Core fp32 peak.
    pub fp32_tflops: f64,
    /// Dense bf16 Tensor Core multiply-adds per SM per clock.
    pub macs_per_sm_cycle: u64,
    pub hbm_tbps: f64,
    /// The bandwidth the lecture notes use, where they round NVIDIA's figure.
    pub notes_hbm_tbps: f64,
    pub hbm_gb: f64,
    /// 0 where NVIDIA does not publish it.
    pub l2_mb: f64,
    pub smem_kb_per_sm: f64,
    pub regs_kb_per_sm: f64,
    /// Where the numbers come from.
    pub source: &'static str,
}

/// The GPU choices, in the table's order.
pub const GPU_CODES: &[&str] = &["a100", "h100", "h200", "b200"];

/// The H100 (SXM5); the H200 is it with another memory.
const H100: Gpu = Gpu {
    code: "h100",
    name: "H100",
    sms: 132,
    // GH100: 144 SMs on the full die (Hopper whitepaper).
    die_sms: 144,
    arch: "sm90",
    bf16_tflops: 989.5,
    fp8_tflops: Some(1979.0),
    fp32_tflops: 67.0,
    macs_per_sm_cycle: 2048,
    hbm_tbps: 3.35,
    notes_hbm_tbps: 3.35,
    hbm_gb: 80.0,
    l2_mb: 50.0,
    smem_kb_per_sm: 228.0,
    regs_kb_per_sm: 256.0,
    source: "NVIDIA H100 Tensor Core GPU datasheet (SXM5: 1,979 TFLOPS BF16 with sparsity, so 989.5 dense, which the notes round to 990; 3.35 TB/s); NVIDIA Hopper architecture whitepaper (132 SMs, 50 MB L2, 228 KB shared memory and 256 KB registers per SM)",
};

pub const GPUS: [Gpu; 4] = [
    Gpu {
        code: "a100",
        name: "A100",
        sms: 108,
        // GA100: 128 SMs on the full die (Ampere whitepaper), the slides' "128 SMs".
        die_sms: 128,
        arch: "sm80",
        bf16_tflops: 312.0,
        fp8_tflops: None,
        fp32_tflops: 19.5,
        // 312 TFLOP/s = 2 × 1024 × 108 SMs × 1.41 GHz.
        macs_per_sm_cycle: 1024,
        hbm_tbps: 2.039,
        notes_hbm_tbps: 2.0,
        hbm_gb: 80.0,
        l2_mb: 40.0,
        smem_kb_per_sm: 164.0,
        regs_kb_per_sm: 256.0,
        source: "NVIDIA A100 Tensor Core GPU datasheet (SXM 80 GB: 312 TFLOPS BF16 dense, 2,039 GB/s, which the notes round to 2.0 TB/s); NVIDIA Ampere GA100 whitepaper (108 SMs enabled of the die's 128, 40 MB L2, 164 KB shared memory and 256 KB registers per SM)",
    },
    H100,
    // The same Hopper compute as H100; more and faster HBM3e.
    Gpu {
        code: "h200",
        name: "H200",
        hbm_tbps: 4.8,
        notes_hbm_tbps: 4.8,
        hbm_gb: 141.0,
        source: "NVIDIA H200 Tensor Core GPU datasheet (SXM: 141 GB HBM3e at 4.8 TB/s; the same Hopper compute as H100)",
        ..H100
    },
    Gpu {
        code: "b200",
        name: "B200",
        sms: 148,
        die_sms: 0,
        arch: "sm100",
        bf16_tflops: 2250.0,
        fp8_tflops: Some(4500.0),
        fp32_tflops: 80.0,
        macs_per_sm_cycle: 4096,
        hbm_tbps: 8.0,
        notes_hbm_tbps: 8.0,
        hbm_gb: 180.0,
        l2_mb: 0.0,
        smem_kb_per_sm: 228.0,
        regs_kb_per_sm: 256.0,
        source: "NVIDIA HGX B200 / DGX B200 specifications (per GPU at 1,000 W: 2.25 PFLOPS dense BF16, 4.5 PFLOPS dense FP8, 80 TFLOPS FP32, 8 TB/s, 180 GB); L2 size not published by NVIDIA",
    },
];

/// The `gpu` choices of a panel that takes a custom machine.
pub const GPU_CHOICES: &[&str] = &["a100", "h100", "h200", "b200", "custom"];

/// The notes' "your computer" example (§5.4): an Apple M4 Pro measured with
/// PyTorch on its GPU (MPS): about 5.5 TFLOP/s fp32 matmul, 215 GB/s.
pub const M4_PRO: (&str, u64) = ("5.5", 215);

/// A machine given by its peak (TFLOP/s, for whichever dtype is chosen) and
/// bandwidth (GB/s); what it does not say (SMs, memory sizes) is zero.
pub fn custom(peak_tflops: f64, bw_gbs: f64) -> Gpu {
    Gpu {
        code: "custom",
        name: "custom",
        sms: 0,
        die_sms: 0,
        arch: "",
        macs_per_sm_cycle: 0,
        notes_hbm_tbps: bw_gbs / 1000.0,
        bf16_tflops: peak_tflops,
        fp8_tflops: Some(peak_tflops),
        fp32_tflops: peak_tflops,
        hbm_tbps: bw_gbs / 1000.0,
        hbm_gb: 0.0,
        l2_mb: 0.0,
        smem_kb_per_sm: 0.0,
        regs_kb_per_sm: 0.0,
        source: "given in the URL (peak, bw)",
    }
}

/// A peak in TFLOP/s as a URL gives it: a decimal number, 0.001 to 100,000.
pub fn parse_peak(s: &str) -> Result<f64, PeakError> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && (0.001..=100_000.0).contains(&x) => Ok(x),
        Ok(_) => Err(PeakError::OutOfRange),
        Err(_) => Err(PeakError::NotANumber),
    }
}

/// Why a custom peak is unusable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeakError {
    /// Outside 0.001–100000 TFLOP/s (or not finite).
    OutOfRange,
    /// Not a decimal number.
    NotANumber,
}

/// The GPU with this code; an unknown code (never one a URL lets through)
/// gives the H100.
pub fn gpu(code: &str) -> &'static Gpu {
    GPUS.iter().find(|g| g.code == code).unwrap_or(&GPUS[1])
}

impl Gpu {
    /// The compute roof for a dtype (fp8 falls back to bf16 where absent;
    /// fp64 counts as fp32's vector rate here).
    pub fn peak_tflops(&self, dtype: &str) -> f64 {
        match dtype {
            "fp32" | "fp64" => self.fp32_tflops,
            "fp8" => self.fp8_tflops.unwrap_or(self.bf16_tflops),
            _ => self.bf16_tflops,
        }
    }

    /// Ridge point: peak ÷ bandwidth, FLOP per byte.
    pub fn ridge(&self, dtype: &str) -> f64 {
        self.peak_tflops(dtype) / self.hbm_tbps
    }

    /// The ridge point with the bandwidth the notes use (their table).
    pub fn notes_ridge(&self, dtype: &str) -> f64 {
        self.peak_tflops(dtype) / self.notes_hbm_tbps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_sizes() {
        for d in Dtype::ALL {
            assert_eq!(Dtype::from_code(d.code()), Some(d));
            assert_eq!(dtype_bytes(d.code()), d.bytes());
        }
        assert_eq!(ALL_DTYPES, Dtype::ALL.map(Dtype::code));
        assert!(ML_DTYPES.iter().all(|c| ALL_DTYPES.contains(c)));
        assert_eq!(GPU_CODES, GPUS.map(|g| g.code));
    }

    /// The table agrees with itself: the Tensor Core rate times SMs times a
    /// plausible boost clock (1.4–2.0 GHz) gives the published peak.
    #[test]
    fn peaks_follow_from_the_tensor_core_rate() {
        for g in GPUS {
            let ghz = g.bf16_tflops * 1e12 / (2.0 * g.macs_per_sm_cycle as f64 * g.sms as f64) / 1e9;
            assert!((1.4..2.0).contains(&ghz), "{}: {ghz} GHz", g.code);
        }
    }

    #[test]
    fn a_custom_machine_from_the_url() {
        let m4 = custom(parse_peak(M4_PRO.0).unwrap(), M4_PRO.1 as f64);
        // The notes' M4 Pro: ridge ≈ 26 FLOP/byte.
        assert_eq!(m4.ridge("fp32").round(), 26.0);
        assert_eq!(m4.peak_tflops("bf16"), 5.5);
        assert!(parse_peak("0").is_err() && parse_peak("abc").is_err() && parse_peak("inf").is_err());
        assert_eq!(parse_peak(" 989.5 "), Ok(989.5));
    }

    /// The notes' GPU table (§4): A100 156, H100 295, B200 281 FLOP/byte.
    #[test]
    fn the_notes_ridge_points() {
        let r = |c| gpu(c).notes_ridge("bf16").round();
        assert_eq!((r("a100"), r("h100"), r("b200")), (156.0, 295.0, 281.0));
        // With NVIDIA's 2,039 GB/s the A100's is 153.
        assert_eq!(gpu("a100").ridge("bf16").round(), 153.0);
    }
}

/// TPU chips: systolic matrix units (MXUs) per chip, their size and clock.
pub mod tpu {
    /// One TPU generation.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct Tpu {
        pub code: &'static str,
        pub name: &'static str,
        /// MXUs per chip (TensorCores × MXUs per TensorCore).
        pub mxus: u32,
        /// Each MXU is `dim × dim` multiply-accumulators.
        pub dim: u32,
        /// Clock in GHz.
        pub ghz: f64,
        /// Whether Google published the clock; if not, it is the published
        /// peak ÷ (2 · MXUs · dim²).
        pub clock_published: bool,
        /// Published peak bf16 TFLOP/s per chip.
        pub bf16_tflops: f64,
        pub source: &'static str,
    }

    /// The highest clock derived from Google's figures that is plausible:
    /// the published TPU clocks are 0.70–1.05 GHz and v5p's derived one is
    /// 1.75 GHz.
    pub const PLAUSIBLE_GHZ: f64 = 2.0;

    impl Tpu {
        /// A derived clock far above every other TPU's: one of the published
        /// figures behind it (peak, MXU count or size) is probably counted
        /// differently from the others. v6e: Google's page gives one
        /// TensorCore with two 256×256 MXUs and 918 TFLOP/s bf16, which
        /// imply 3.5 GHz; four such MXUs would give 1.75 GHz.
        pub fn clock_doubtful(&self) -> bool {
            !self.clock_published && self.ghz > PLAUSIBLE_GHZ
        }

        /// The translation key of the note on the clock's origin, if any.
        pub fn clock_note(&self) -> Option<&'static str> {
            if self.clock_published {
                None
            } else if self.clock_doubtful() {
                Some("hw.tpu.doubtful")
            } else {
                Some("hw.tpu.derived")
            }
        }

        /// MXUs × dim² multiply-accumulates of 2 FLOPs per cycle.
        pub fn peak_tflops(&self) -> f64 {
            2.0 * self.mxus as f64 * (self.dim * self.dim) as f64 * self.ghz / 1e3
        }
    }

    pub const TPU_CODES: &[&str] = &["v2", "v3", "v4", "v5e", "v5p", "v6e"];

    const JOUPPI_2020: &str = "Jouppi et al., \"A Domain-Specific Supercomputer for Training Deep Neural Networks\", CACM 63(7), 2020, Table 3; cloud.google.com/tpu/docs/system-architecture-tpu-vm";
    pub const TPUS: [Tpu; 6] = [
        Tpu { code: "v2", name: "TPU v2", mxus: 2, dim: 128, ghz: 0.70, clock_published: true, bf16_tflops: 46.0, source: JOUPPI_2020 },
        Tpu { code: "v3", name: "TPU v3", mxus: 4, dim: 128, ghz: 0.94, clock_published: true, bf16_tflops: 123.0, source: JOUPPI_2020 },
        Tpu { code: "v4", name: "TPU v4", mxus: 8, dim: 128, ghz: 1.05, clock_published: true, bf16_tflops: 275.0, source: "Jouppi et al., \"TPU v4\", ISCA 2023, Table 2 (2 TensorCores × 4 MXUs, 1050 MHz); cloud.google.com/tpu/docs/v4" },
        Tpu { code: "v5e", name: "TPU v5e", mxus: 4, dim: 128, ghz: 197.0 / (2.0 * 4.0 * 16_384.0) * 1e3, clock_published: false, bf16_tflops: 197.0, source: "cloud.google.com/tpu/docs/v5e (one TensorCore, four MXUs, 197 TFLOP/s bf16)" },
        Tpu { code: "v5p", name: "TPU v5p", mxus: 8, dim: 128, ghz: 459.0 / (2.0 * 8.0 * 16_384.0) * 1e3, clock_published: false, bf16_tflops: 459.0, source: "cloud.google.com/tpu/docs/v5p (two TensorCores × four MXUs, 459 TFLOP/s bf16)" },
        Tpu { code: "v6e", name: "TPU v6e (Trillium)", mxus: 2, dim: 256, ghz: 918.0 / (2.0 * 2.0 * 65_536.0) * 1e3, clock_published: false, bf16_tflops: 918.0, source: "cloud.google.com/tpu/docs/v6e (one TensorCore, two 256×256 MXUs, 918 TFLOP/s bf16)" },
    ];

    /// The TPU with this code (the first one for an unknown code).
    pub fn tpu(code: &str) -> &'static Tpu {
        TPUS.iter().find(|t| t.code == code).unwrap_or(&TPUS[0])
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn codes_and_peaks_agree() {
            assert_eq!(TPU_CODES, TPUS.map(|t| t.code));
            for t in TPUS {
                // MXUs × dim² × 2 × clock gives the published peak (within 1 %).
                let rel = t.peak_tflops() / t.bf16_tflops - 1.0;
                assert!(rel.abs() < 0.01, "{}: {} against {}", t.code, t.peak_tflops(), t.bf16_tflops);
                assert!(t.dim == 128 || t.code == "v6e");
            }
            assert_eq!(tpu("v6e").dim, 256);
            // Only v6e's derived clock is out of line with the others.
            let doubtful: Vec<&str> = TPUS.iter().filter(|t| t.clock_doubtful()).map(|t| t.code).collect();
            assert_eq!(doubtful, ["v6e"]);
            assert!((tpu("v6e").ghz - 3.502).abs() < 1e-3);
            assert_eq!(tpu("v4").clock_note(), None);
            assert_eq!(tpu("v5e").clock_note(), Some("hw.tpu.derived"));
            assert_eq!(tpu("nope").code, "v2");
        }
    }
}
