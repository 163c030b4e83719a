//! Attention memory (notes §8.5, demo 4 of 05): what one head of standard
//! attention keeps in HBM for the n × n matrices S and P, against the only
//! extra memory FlashAttention needs: the per-row softmax statistics (L =
//! m + log ℓ in FlashAttention-2, or m and ℓ in FlashAttention-1), in fp32.

use super::Metric;

/// Bytes of the n × n matrices S and P of standard attention.
pub fn standard_bytes(n: u64, elem_bytes: u64) -> u64 {
    2 * n * n * elem_bytes
}

/// Bytes of flash's per-row statistics: one fp32 (L) or two (m and ℓ) per row.
pub fn flash_extra_bytes(n: u64, both_stats: bool) -> u64 {
    n * 4 * if both_stats { 2 } else { 1 }
}

/// Q, K, V and O themselves (both algorithms need them).
pub fn qkvo_bytes(n: u64, d: u64, elem_bytes: u64) -> u64 {
    4 * n * d * elem_bytes
}

pub fn metrics(n: u64, elem_bytes: u64, both_stats: bool) -> Vec<Metric> {
    let s = standard_bytes(n, elem_bytes);
    let f = flash_extra_bytes(n, both_stats);
    vec![
        Metric::bytes("standard-bytes", s),
        Metric::bytes("flash-extra-bytes", f),
        Metric::real("ratio", s as f64 / f as f64),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lecture_table() {
        // notes §8.5 (one head, bf16, d = 128): 4096 → 0.07 GB vs 0.02 MB;
        // 16384 → 1.07 GB vs 0.07 MB; 65536 → 17.2 GB vs 0.26 MB.
        let gb = |n| standard_bytes(n, 2) as f64 / 1e9;
        let mb = |n| flash_extra_bytes(n, false) as f64 / 1e6;
        assert_eq!(format!("{:.2} GB / {:.2} MB", gb(4096), mb(4096)), "0.07 GB / 0.02 MB");
        assert_eq!(format!("{:.2} GB / {:.2} MB", gb(16384), mb(16384)), "1.07 GB / 0.07 MB");
        assert_eq!(format!("{:.1} GB / {:.2} MB", gb(65536), mb(65536)), "17.2 GB / 0.26 MB");
    }

    #[test]
    fn quadratic_against_linear() {
        for n in [1u64, 7, 1024, 1 << 20] {
            assert_eq!(standard_bytes(2 * n, 2), 4 * standard_bytes(n, 2));
            assert_eq!(flash_extra_bytes(2 * n, true), 2 * flash_extra_bytes(n, true));
        }
    }
}
