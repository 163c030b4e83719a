//! The kernels (WebAssembly SIMD128, four f32 lanes, with plain loops as
//! the natively tested fallback), and the pattern their buffers are filled with.

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use std::arch::wasm32::*;

/// f32 elements in one piece of a streaming kernel (1 MiB).
pub const CHUNK: usize = 1 << 18;
/// Matrix rows in one piece of the matmul (eight 4-row micro tiles).
pub const MM_ROWS: usize = 32;
/// The k block of the matmul.
const MM_KB: usize = 128;

/// `dst = src` (the bandwidth kernel; bytes moved: read + write).
pub fn copy_f32(src: &[f32], dst: &mut [f32]) {
    copy(src, dst)
}

/// `dst = src` for 16-bit values (half the bytes of [`copy_f32`] per element).
pub fn copy_u16(src: &[u16], dst: &mut [u16]) {
    copy(src, dst)
}

/// `dst = src`, four 128-bit vectors a step where the wasm build has SIMD.
fn copy<T: Copy>(src: &[T], dst: &mut [T]) {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        // Elements in one v128 (4 for f32, 8 for u16).
        let lanes = 16 / std::mem::size_of::<T>();
        let body = n - n % (4 * lanes);
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let mut i = 0;
        while i < body {
            // SAFETY: i + 4 × lanes <= body <= n for both slices; v128 loads
            // and stores have no alignment requirement.
            unsafe {
                let a = v128_load(s.add(i) as *const v128);
                let b = v128_load(s.add(i + lanes) as *const v128);
                let c = v128_load(s.add(i + 2 * lanes) as *const v128);
                let e = v128_load(s.add(i + 3 * lanes) as *const v128);
                v128_store(d.add(i) as *mut v128, a);
                v128_store(d.add(i + lanes) as *mut v128, b);
                v128_store(d.add(i + 2 * lanes) as *mut v128, c);
                v128_store(d.add(i + 3 * lanes) as *mut v128, e);
            }
            i += 4 * lanes;
        }
        dst[body..].copy_from_slice(&src[body..]);
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    dst.copy_from_slice(src);
}

/// `y = x × a + b`, elementwise (x*2 is `a = 2, b = 0`; x*2+1 fused is
/// `a = 2, b = 1`; the unfused second pass is `a = 1, b = 1`).
pub fn axpb(x: &[f32], y: &mut [f32], a: f32, b: f32) {
    let n = x.len().min(y.len());
    let (x, y) = (&x[..n], &mut y[..n]);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        let body = n - n % 8;
        let (va, vb) = (f32x4_splat(a), f32x4_splat(b));
        let (s, d) = (x.as_ptr(), y.as_mut_ptr());
        let mut i = 0;
        while i < body {
            // SAFETY: i + 8 <= body <= n; unaligned v128 access.
            unsafe {
                let p = v128_load(s.add(i) as *const v128);
                let q = v128_load(s.add(i + 4) as *const v128);
                v128_store(d.add(i) as *mut v128, f32x4_add(f32x4_mul(p, va), vb));
                v128_store(d.add(i + 4) as *mut v128, f32x4_add(f32x4_mul(q, va), vb));
            }
            i += 8;
        }
        for (d, s) in y[body..].iter_mut().zip(&x[body..]) {
            *d = *s * a + b;
        }
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    for (d, s) in y.iter_mut().zip(x) {
        *d = *s * a + b;
    }
}

/// Rows `r0..r1` of the transpose of the `n × n` matrix `src` (row-major):
/// `dst[j][i] = src[i][j]`. Reads are sequential, writes stride `n` floats.
pub fn transpose_rows(src: &[f32], dst: &mut [f32], n: usize, r0: usize, r1: usize) {
    for i in r0..r1.min(n) {
        let row = &src[i * n..(i + 1) * n];
        for (j, v) in row.iter().enumerate() {
            dst[j * n + i] = *v;
        }
    }
}

/// Rows `r0..r1` of `c = a · b` for `n × n` row-major matrices, `n` a
/// multiple of 8 (the plans use multiples of 32): 4 × 8 register tiles over
/// blocks of k, so a strip of `b` is reused from L1 by every row of the piece.
pub fn matmul_rows(a: &[f32], b: &[f32], c: &mut [f32], n: usize, r0: usize, r1: usize) {
    let r1 = r1.min(n);
    for v in &mut c[r0 * n..r1 * n] {
        *v = 0.0;
    }
    let mut k0 = 0;
    while k0 < n {
        let k1 = (k0 + MM_KB).min(n);
        let mut j = 0;
        while j + 8 <= n {
            let mut i = r0;
            while i < r1 {
                let rows = (r1 - i).min(4);
                tile(a, b, c, n, i, rows, j, k0, k1);
                i += rows;
            }
            j += 8;
        }
        // Columns past the last multiple of 8, plainly.
        for i in r0..r1 {
            for jj in j..n {
                let mut s = c[i * n + jj];
                for k in k0..k1 {
                    s += a[i * n + k] * b[k * n + jj];
                }
                c[i * n + jj] = s;
            }
        }
        k0 = k1;
    }
}

/// `c[i..i+rows][j..j+8] += a[i..i+rows][k0..k1] · b[k0..k1][j..j+8]`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn tile(a: &[f32], b: &[f32], c: &mut [f32], n: usize, i: usize, rows: usize, j: usize, k0: usize, k1: usize) {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        if rows == 4 {
            // SAFETY: i + 4 <= n, j + 8 <= n and k1 <= n, so every index is
            // inside the n × n matrices; unaligned v128 access.
            unsafe {
                let (ap, bp, cp) = (a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
                let ld = |p: *const f32| v128_load(p as *const v128);
                let mut acc = [f32x4_splat(0.0); 8];
                for (r, pair) in acc.chunks_exact_mut(2).enumerate() {
                    pair[0] = ld(cp.add((i + r) * n + j));
                    pair[1] = ld(cp.add((i + r) * n + j + 4));
                }
                for k in k0..k1 {
                    let b0 = ld(bp.add(k * n + j));
                    let b1 = ld(bp.add(k * n + j + 4));
                    for (r, pair) in acc.chunks_exact_mut(2).enumerate() {
                        let x = f32x4_splat(*ap.add((i + r) * n + k));
                        pair[0] = f32x4_add(pair[0], f32x4_mul(x, b0));
                        pair[1] = f32x4_add(pair[1], f32x4_mul(x, b1));
                    }
                }
                for (r, pair) in acc.chunks_exact(2).enumerate() {
                    v128_store(cp.add((i + r) * n + j) as *mut v128, pair[0]);
                    v128_store(cp.add((i + r) * n + j + 4) as *mut v128, pair[1]);
                }
            }
            return;
        }
    }
    let mut acc = [[0f32; 8]; 4];
    for (r, row) in acc.iter_mut().enumerate().take(rows) {
        row.copy_from_slice(&c[(i + r) * n + j..(i + r) * n + j + 8]);
    }
    for k in k0..k1 {
        let bk = &b[k * n + j..k * n + j + 8];
        for (r, row) in acc.iter_mut().enumerate().take(rows) {
            let x = a[(i + r) * n + k];
            for (o, bv) in row.iter_mut().zip(bk) {
                *o += x * bv;
            }
        }
    }
    for (r, row) in acc.iter().enumerate().take(rows) {
        c[(i + r) * n + j..(i + r) * n + j + 8].copy_from_slice(row);
    }
}

/// The value a buffer is filled with at index `i` (exact in f32 and u16).
pub fn pattern(i: usize) -> f32 {
    (i % 1021) as f32 * 0.25
}
