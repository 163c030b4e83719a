// Coalescing sweep (Warpscope, measure/run_all.py::section_coalescing).
// Every thread issues exactly ONE global load, at element index
//   mode 0: tid * stride            (strided; no element is read twice)
//   mode 1: scramble(tid) in [0, n) (a bijection on 2^bits elements: a random permutation)
// The loaded value is compared with a run-time "magic" that never occurs in the
// data; only on a match is anything written, so the load cannot be removed.
// Compiled by NVRTC (through CuPy) or by nvcc as a fallback; no headers needed.

__device__ __forceinline__ unsigned int scramble(unsigned int x, unsigned int bits) {
    // Each step is invertible modulo 2^bits: multiply by an odd constant, or
    // xor with a right shift of itself. So the composition is a permutation.
    const unsigned int m = (bits >= 32u) ? 0xffffffffu : ((1u << bits) - 1u);
    const unsigned int h = bits >> 1;
    x = (x * 0x9E3779B1u) & m;
    x ^= x >> h;
    x = (x * 0x85EBCA77u) & m;
    x ^= x >> (h > 4u ? h - 3u : 1u);
    x = (x * 0xC2B2AE3Du) & m;
    x ^= x >> h;
    return x;
}

template <typename T>
__device__ __forceinline__ void gather_one(const T* __restrict__ a, unsigned long long stride,
                                           unsigned int n, unsigned int mode, unsigned int bits,
                                           unsigned int magic, unsigned int* __restrict__ sink) {
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const unsigned long long idx =
        (mode == 0u) ? (unsigned long long)i * stride : (unsigned long long)scramble(i, bits);
    const unsigned int v = (unsigned int)a[idx];
    if (v == magic) sink[0] = v + 1u;
}

extern "C" __global__ void gather_u32(const unsigned int* __restrict__ a, unsigned long long stride,
                                      unsigned int n, unsigned int mode, unsigned int bits,
                                      unsigned int magic, unsigned int* __restrict__ sink) {
    gather_one<unsigned int>(a, stride, n, mode, bits, magic, sink);
}

extern "C" __global__ void gather_u16(const unsigned short* __restrict__ a, unsigned long long stride,
                                      unsigned int n, unsigned int mode, unsigned int bits,
                                      unsigned int magic, unsigned int* __restrict__ sink) {
    gather_one<unsigned short>(a, stride, n, mode, bits, magic, sink);
}
