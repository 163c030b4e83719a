//! Occupancy (notes §6.7, demo 4 of 02): how many blocks of a kernel fit on one
//! SM at once, and so how many warps are resident to hide memory latency.
//!
//! The model is the one NVIDIA's CUDA Occupancy Calculator uses
//! (`cudaOccupancyMaxActiveBlocksPerMultiprocessor`), including what simple
//! web calculators leave out: registers are allocated per warp in units of 256
//! (so 33 registers per thread cost as much as 40), a thread may use at most
//! 255 registers, shared memory is allocated in 128-byte units plus 1 KB that
//! the system reserves per block, and blocks, warps and threads per SM are
//! capped.
//!
//! Limits per compute capability: NVIDIA CUDA C++ Programming Guide, "Compute
//! Capabilities", table "Technical Specifications per Compute Capability"
//! (8.0, 9.0, 10.0), and the allocation granularities of the CUDA Occupancy
//! Calculator spreadsheet (GPU data sheet) for the same capabilities.

use super::Metric;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arch {
    pub code: &'static str,
    pub name: &'static str,
    pub max_threads_per_sm: u32,
    pub max_warps_per_sm: u32,
    pub max_blocks_per_sm: u32,
    pub max_threads_per_block: u32,
    pub regs_per_sm: u32,
    pub max_regs_per_thread: u32,
    /// Registers are allocated per warp, rounded up to this many.
    pub reg_alloc_unit: u32,
    /// Shared memory per SM usable by blocks (largest carve-out), bytes.
    pub smem_per_sm: u32,
    /// Largest shared memory one block may use (opt-in), bytes.
    pub max_smem_per_block: u32,
    pub smem_alloc_unit: u32,
    /// Shared memory the system reserves per block (CUDA 11+), bytes.
    pub smem_reserved_per_block: u32,
    /// The SM's processing blocks (sub-partitions). The register file is
    /// split evenly among them and a warp's registers come from one, so
    /// registers limit warps per sub-partition, not per SM.
    pub sub_partitions: u32,
}

/// Hopper (H100, H200); Ampere and Blackwell differ from it only where said.
const SM90: Arch = Arch {
    code: "sm90",
    name: "H100 / H200 (sm_90)",
    max_threads_per_sm: 2048,
    max_warps_per_sm: 64,
    max_blocks_per_sm: 32,
    max_threads_per_block: 1024,
    regs_per_sm: 65536,
    max_regs_per_thread: 255,
    reg_alloc_unit: 256,
    smem_per_sm: 228 * 1024,
    max_smem_per_block: 227 * 1024,
    smem_alloc_unit: 128,
    smem_reserved_per_block: 1024,
    sub_partitions: 4,
};

pub const ARCHS: [Arch; 3] = [
    // Ampere: the same thread, warp, block and register limits, less shared memory.
    Arch { code: "sm80", name: "A100 (sm_80)", smem_per_sm: 164 * 1024, max_smem_per_block: 163 * 1024, ..SM90 },
    SM90,
    // Blackwell keeps Hopper's per-SM limits (CUDA occupancy calculator, sm_100).
    Arch { code: "sm100", name: "B200 (sm_100)", ..SM90 },
];

pub fn arch(code: &str) -> &'static Arch {
    ARCHS.iter().find(|a| a.code == code).unwrap_or(&ARCHS[1])
}

/// The resources that can limit resident blocks, in the order they are named
/// when several limit equally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    Warps,
    Blocks,
    Registers,
    SharedMemory,
}

impl Resource {
    pub const ALL: [Resource; 4] = [Resource::Warps, Resource::Blocks, Resource::Registers, Resource::SharedMemory];
    pub fn code(self) -> &'static str {
        match self {
            Resource::Warps => "warps",
            Resource::Blocks => "blocks",
            Resource::Registers => "registers",
            Resource::SharedMemory => "shared-memory",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kernel {
    pub threads: u32,
    pub regs: u32,
    pub smem: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Occupancy {
    pub warps_per_block: u32,
    /// Registers one warp is given (rounded to the allocation unit).
    pub regs_per_warp: u32,
    /// Shared memory one block is given (with the reserved 1 KB, rounded).
    pub smem_per_block: u32,
    /// Blocks per SM allowed by each resource, in [`Resource::ALL`] order.
    pub limits: [u32; 4],
    pub blocks: u32,
    pub active_warps: u32,
    pub occupancy: f64,
    pub limiter: Resource,
}

pub fn compute(a: &Arch, k: Kernel) -> Occupancy {
    let threads = k.threads.clamp(1, a.max_threads_per_block);
    let regs = k.regs.clamp(1, a.max_regs_per_thread);
    let smem = k.smem.min(a.max_smem_per_block);
    let warps_per_block = threads.div_ceil(32);
    let by_warps = (a.max_warps_per_sm / warps_per_block).min(a.max_threads_per_sm / (warps_per_block * 32));
    let by_blocks = a.max_blocks_per_sm;
    let regs_per_warp = (regs * 32).div_ceil(a.reg_alloc_unit) * a.reg_alloc_unit;
    // Warps that fit in one sub-partition's registers, times the four: at 40
    // registers a thread (1,280 a warp) that is 4 × 12 = 48 warps, not
    // ⌊65,536 ÷ 1,280⌋ = 51. This is what CUDA's occupancy calculator gives
    // (checked against all 11,840 configurations measured on an H200).
    let warps_by_regs = a.sub_partitions * ((a.regs_per_sm / a.sub_partitions) / regs_per_warp);
    let by_regs = warps_by_regs / warps_per_block;
    let smem_per_block = (smem + a.smem_reserved_per_block).div_ceil(a.smem_alloc_unit) * a.smem_alloc_unit;
    // More than a block may have: no block can be resident (CUDA answers 0).
    let by_smem = if k.smem > a.max_smem_per_block { 0 } else { a.smem_per_sm / smem_per_block };
    let limits = [by_warps, by_blocks, by_regs, by_smem];
    let blocks = *limits.iter().min().expect("four limits");
    let limiter = Resource::ALL[limits.iter().position(|&l| l == blocks).expect("min is present")];
    let active_warps = blocks * warps_per_block;
    Occupancy {
        warps_per_block,
        regs_per_warp,
        smem_per_block,
        limits,
        blocks,
        active_warps,
        occupancy: active_warps as f64 / a.max_warps_per_sm as f64,
        limiter,
    }
}

impl Occupancy {
    pub fn metrics(&self) -> Vec<Metric> {
        vec![
            Metric::percent("occupancy", self.occupancy),
            Metric::count("blocks-per-sm", self.blocks as u64),
            Metric::count("active-warps", self.active_warps as u64),
            Metric::word("limiter", self.limiter.code()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn h100(threads: u32, regs: u32, smem: u32) -> Occupancy {
        compute(arch("sm90"), Kernel { threads, regs, smem })
    }

    /// The model against CUDA: `cudaOccupancyMaxActiveBlocksPerMultiprocessor`
    /// on an H200 (sm_90) for 37 compiled kernels (registers read from
    /// `cudaFuncGetAttributes`) × 32 block sizes × 10 shared-memory sizes,
    /// shipped in `assets/measured/h200-occupancy.csv` by `measure/`.
    #[test]
    fn equals_cuda_on_every_measured_h200_kernel() {
        let csv = include_str!("../../assets/measured/h200-occupancy.csv");
        let mut compared = 0;
        for line in csv.lines().filter(|l| !l.starts_with('#')).skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let num = |i: usize| f[i].parse::<i64>().expect("a number");
            let (regs, smem, threads, blocks) = (num(1), num(2) + num(4), num(3), num(5));
            if blocks < 0 {
                // CUDA refused the launch configuration: over the per-block limit.
                assert!(smem > arch("sm90").max_smem_per_block as i64, "{line}");
                continue;
            }
            let o = h100(threads as u32, regs as u32, smem as u32);
            assert_eq!(o.blocks as i64, blocks, "{} ({line})", f[0]);
            compared += 1;
        }
        assert!(compared > 10_000, "{compared}");
    }

    #[test]
    fn lecture_numbers() {
        // notes §6.7 (H100): 256 × 32 → 100 %; 256 × 64 → 50 %; 128 × 160 → 19 %.
        assert_eq!(h100(256, 32, 0).occupancy, 1.0);
        let b = h100(256, 64, 0);
        assert_eq!((b.occupancy, b.limiter), (0.5, Resource::Registers));
        let c = h100(128, 160, 0);
        assert_eq!((c.blocks, c.active_warps), (3, 12));
        assert_eq!(format!("{:.0}", 100.0 * c.occupancy), "19");
    }

    #[test]
    fn allocation_granularity_and_reserved_smem() {
        // 33 registers cost 33×32 = 1056 → 1280 per warp.
        assert_eq!(h100(256, 33, 0).regs_per_warp, 1280);
        // 48 KB requested is 49 KB allocated: 228 / 49 = 4 blocks, not 4.75.
        let o = h100(128, 32, 48 * 1024);
        assert_eq!(o.smem_per_block, 49 * 1024);
        assert_eq!((o.blocks, o.limiter), (4, Resource::SharedMemory));
        // Tiny blocks hit the 32-block cap.
        let t = h100(32, 16, 0);
        assert_eq!((t.blocks, t.limiter, t.occupancy), (32, Resource::Blocks, 0.5));
    }

    proptest! {
        #[test]
        fn invariants(threads in 1u32..=1024, regs in 1u32..=255, smem in 0u32..=232448, a in 0usize..3) {
            let arch = &ARCHS[a];
            let o = compute(arch, Kernel { threads, regs, smem });
            prop_assert!(o.occupancy >= 0.0 && o.occupancy <= 1.0);
            prop_assert!(o.active_warps <= arch.max_warps_per_sm);
            prop_assert!(o.blocks * o.smem_per_block <= arch.smem_per_sm);
            prop_assert!(o.blocks * o.warps_per_block * o.regs_per_warp <= arch.regs_per_sm);
            // More registers or more shared memory never raise occupancy.
            if regs < 255 {
                let more_regs = compute(arch, Kernel { threads, regs: regs + 1, smem });
                prop_assert!(more_regs.occupancy <= o.occupancy);
            }
            let more_smem = compute(arch, Kernel { threads, regs, smem: smem.saturating_add(1024) });
            prop_assert!(more_smem.occupancy <= o.occupancy);
        }
    }
}
