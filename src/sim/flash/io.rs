//! The HBM ledger's variants: how the standard implementation is split into
//! kernels (each one reads its n × n inputs from HBM and writes its output
//! back), the loop order of FlashAttention (FlashAttention-1: K/V blocks
//! outer, Algorithms 1 and 4 of Dao et al. 2022; FlashAttention-2: Q blocks
//! outer), block sizes derived from the SRAM size as the paper does, and the
//! paper's IO complexity.

use super::{Flash, Pass};

/// Which loop is outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// FlashAttention-2: each query block reads K and V; masked tiles skipped.
    QOuter,
    /// FlashAttention-1: each key block is loaded once and every query
    /// block's Q, O, ℓ, m are read and written again for it; the causal mask
    /// is applied inside the tiles, none skipped (skipping came with
    /// FlashAttention-2).
    KvOuter,
}

/// How the standard implementation is split into kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Standard {
    /// The paper's Algorithms 0 and 3: S, P, dP, dS each written once.
    Fused,
    /// Eager PyTorch: scale, mask (when causal), softmax and dropout each a
    /// kernel of their own, and dropout's backward; the scale's and mask's
    /// backward folded into the softmax backward (P is 0 where masked).
    Kernels,
}

/// One kernel of the standard implementation: what it reads and writes, in
/// n × n matrices and n × d matrices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// Translation key's last part (`flash.kernel.<key>`).
    pub key: &'static str,
    pub nn_reads: u64,
    pub nn_writes: u64,
    pub nd_reads: u64,
    pub nd_writes: u64,
}

const fn k(key: &'static str, nn_reads: u64, nn_writes: u64, nd_reads: u64, nd_writes: u64) -> Kernel {
    Kernel { key, nn_reads, nn_writes, nd_reads, nd_writes }
}

impl Kernel {
    /// Its HBM bytes for one head.
    pub fn bytes(&self, n: u64, d: u64, elem: u64) -> u64 {
        ((self.nn_reads + self.nn_writes) * n * n + (self.nd_reads + self.nd_writes) * n * d) * elem
    }
}

/// The kernels of one pass, in launch order.
pub fn standard_kernels(pass: Pass, how: Standard, causal: bool) -> Vec<Kernel> {
    let split = how == Standard::Kernels;
    let mut out = Vec::new();
    match pass {
        Pass::Fwd => {
            out.push(k("qk", 0, 1, 2, 0));
            if split {
                out.push(k("scale", 1, 1, 0, 0));
                if causal {
                    out.push(k("mask", 1, 1, 0, 0));
                }
            }
            out.push(k("softmax", 1, 1, 0, 0));
            if split {
                out.push(k("dropout", 1, 1, 0, 0));
            }
            out.push(k("pv", 1, 0, 1, 1));
        }
        Pass::Bwd => {
            out.push(k("dv", 1, 0, 1, 1));
            out.push(k("dp", 0, 1, 2, 0));
            if split {
                out.push(k("ddropout", 1, 1, 0, 0));
            }
            out.push(k("dsoftmax", 2, 1, 0, 0));
            out.push(k("dq", 1, 0, 1, 1));
            out.push(k("dk", 1, 0, 1, 1));
        }
    }
    out
}

/// Block sizes from the SRAM size as the paper's Algorithm 1 sets them:
/// `Bc = ⌈M/4d⌉`, `Br = min(Bc, d)`, with M the SRAM in elements. Returns
/// (Br, Bc) = (query block, key block), each at least 1 and at most n.
pub fn blocks_from_sram(sram_bytes: u64, elem_bytes: u64, d: usize, n: usize) -> (usize, usize) {
    let m = sram_bytes / elem_bytes.max(1);
    let bc = (m as usize).div_ceil(4 * d.max(1)).max(1);
    (bc.min(d).clamp(1, n.max(1)), bc.clamp(1, n.max(1)))
}

/// The SRAM size in elements (the paper's M).
pub fn sram_elements(sram_bytes: u64, elem_bytes: u64) -> u64 {
    sram_bytes / elem_bytes.max(1)
}

/// The paper's IO complexity (Theorem 2), in elements: standard Θ(Nd + N²),
/// FlashAttention Θ(N²d²/M).
pub fn io_standard(n: f64, d: f64) -> f64 {
    n * d + n * n
}
pub fn io_flash(n: f64, d: f64, m: f64) -> f64 {
    n * n * d * d / m.max(1.0)
}

impl Flash {
    /// Standard attention's HBM bytes of a pass, the sum of its kernels.
    pub fn standard_bytes(&self, pass: Pass, how: Standard) -> u64 {
        let (n, d, e) = (self.p.n as u64, self.p.d as u64, self.p.elem_bytes);
        standard_kernels(pass, how, self.p.causal).iter().map(|k| k.bytes(n, d, e)).sum()
    }

    /// FlashAttention's HBM bytes of a pass in a loop order. Q outer is
    /// [`Flash::hbm_bytes_flash`]. K/V outer (the paper's Algorithms 1 and
    /// 4, every tile visited): forward writes the initial O, ℓ, m, reads K
    /// and V once, and per key block and query row reads Qᵢ, reads and writes
    /// Oᵢ (dtype) and ℓᵢ, mᵢ (fp32); backward reads K, V and writes dK, dV
    /// once, writes the initial dQ, and per key block and query row reads Qᵢ,
    /// Oᵢ, dOᵢ, dQᵢ, ℓᵢ, mᵢ and writes dQᵢ.
    pub fn flash_bytes(&self, pass: Pass, order: Order) -> u64 {
        if order == Order::QOuter {
            return self.hbm_bytes_flash(pass);
        }
        let (n, d, e) = (self.p.n as u64, self.p.d as u64, self.p.elem_bytes);
        let rows = self.tile_cols() as u64 * n;
        match pass {
            Pass::Fwd => n * d * e + 8 * n + 2 * n * d * e + rows * (3 * d * e + 16),
            Pass::Bwd => 4 * n * d * e + n * d * e + rows * (5 * d * e + 8),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Params;
    use super::*;

    fn f(n: usize, d: usize, bq: usize, bk: usize, causal: bool) -> Flash {
        Flash::schedule_only(Params {
            n,
            d,
            bq,
            bk,
            causal,
            skip_masked: true,
            seed: 1,
            elem_bytes: 2,
            sram: 192 * 1024,
        })
    }

    #[test]
    fn the_fused_pipeline_is_the_papers_algorithms_0_and_3() {
        let x = f(4096, 128, 64, 64, true);
        let (n, d) = (4096u64, 128u64);
        assert_eq!(x.standard_bytes(Pass::Fwd, Standard::Fused), (4 * n * n + 4 * n * d) * 2);
        assert_eq!(x.standard_bytes(Pass::Bwd, Standard::Fused), (7 * n * n + 8 * n * d) * 2);
        assert_eq!(x.hbm_bytes_standard(Pass::Bwd), x.standard_bytes(Pass::Bwd, Standard::Fused));
        // Separate kernels: + scale, mask, dropout (2 n² each) forward, dropout backward.
        assert_eq!(x.standard_bytes(Pass::Fwd, Standard::Kernels), (10 * n * n + 4 * n * d) * 2);
        assert_eq!(x.standard_bytes(Pass::Bwd, Standard::Kernels), (9 * n * n + 8 * n * d) * 2);
        let nc = f(4096, 128, 64, 64, false);
        assert_eq!(nc.standard_bytes(Pass::Fwd, Standard::Kernels), (8 * n * n + 4 * n * d) * 2, "no mask kernel");
        assert_eq!(standard_kernels(Pass::Fwd, Standard::Kernels, true).len(), 6);
    }

    #[test]
    fn blocks_from_sram_as_the_paper() {
        // A100: 192 KB of SRAM per SM, fp16: M = 98,304 elements, d = 64.
        assert_eq!(sram_elements(192 * 1024, 2), 98_304);
        assert_eq!(blocks_from_sram(192 * 1024, 2, 64, 1024), (64, 384));
        // d = 128: Bc = 192, Br = 128; never beyond n, never 0.
        assert_eq!(blocks_from_sram(192 * 1024, 2, 128, 4096), (128, 192));
        assert_eq!(blocks_from_sram(192 * 1024, 2, 64, 100), (64, 100));
        assert_eq!(blocks_from_sram(1, 4, 256, 10), (1, 1));
    }

    #[test]
    fn kv_outer_rereads_q_and_o_per_key_block() {
        // One key block: K/V outer reads every row once, like Q outer plus the initial writes.
        let one = f(256, 64, 32, 256, false);
        let (n, d, e) = (256u64, 64u64, 2u64);
        assert_eq!(
            one.flash_bytes(Pass::Fwd, Order::KvOuter),
            n * d * e + 8 * n + 2 * n * d * e + n * (3 * d * e + 16)
        );
        // More key blocks: traffic grows with Tc, and the mask skips nothing.
        let causal = f(1024, 64, 64, 384, true);
        let full = f(1024, 64, 64, 384, false);
        assert_eq!(causal.flash_bytes(Pass::Bwd, Order::KvOuter), full.flash_bytes(Pass::Bwd, Order::KvOuter));
        // Square blocks and the mask: Q outer skips masked tiles and writes O once.
        let square = f(1024, 64, 128, 128, true);
        assert!(square.flash_bytes(Pass::Fwd, Order::QOuter) < square.flash_bytes(Pass::Fwd, Order::KvOuter));
        assert_eq!(io_standard(1024.0, 64.0), 1024.0 * 64.0 + 1024.0 * 1024.0);
        assert_eq!(io_flash(1024.0, 64.0, 98_304.0), 1024.0 * 1024.0 * 4096.0 / 98_304.0);
    }
}
