// Coalescing sweep (Warpscope, measure/run_all.py::section_coalescing).
// Every load goes to element index
//   mode 0: v * stride            (strided; no element is read twice)
//   mode 1: scramble(v) in [0, n) (a bijection on 2^bits elements: a random permutation)
// where v is the thread id (one load per thread) or, in the _x8 kernels, one of
// eight "virtual thread" ids per thread (eight independent loads in flight).
// The loaded values are summed and compared with a run-time "magic" that the sum
// never equals; only on a match is anything written, so no load can be removed.
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

template <typename T, int ITEMS>
__device__ __forceinline__ void gather(const T* __restrict__ a, unsigned long long stride,
                                       unsigned int nthreads, unsigned int mode, unsigned int bits,
                                       unsigned int magic, unsigned int* __restrict__ sink) {
    // Thread t issues ITEMS independent loads, for the "virtual thread" ids
    // v = t + j * nthreads (j < ITEMS). A warp's 32 lanes hold 32 consecutive v
    // for every j, so each warp-wide load has exactly the access pattern of the
    // one-load-per-thread kernel; ITEMS > 1 only adds loads in flight per thread.
    const unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nthreads) return;
    unsigned int acc = 0u;
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        const unsigned int v = t + (unsigned int)j * nthreads;
        const unsigned long long idx =
            (mode == 0u) ? (unsigned long long)v * stride : (unsigned long long)scramble(v, bits);
        acc += (unsigned int)a[idx];
    }
    if (acc == magic) sink[0] = acc + 1u;
}

// One load per thread.
extern "C" __global__ void gather_u32(const unsigned int* __restrict__ a, unsigned long long stride,
                                      unsigned int nthreads, unsigned int mode, unsigned int bits,
                                      unsigned int magic, unsigned int* __restrict__ sink) {
    gather<unsigned int, 1>(a, stride, nthreads, mode, bits, magic, sink);
}

extern "C" __global__ void gather_u16(const unsigned short* __restrict__ a, unsigned long long stride,
                                      unsigned int nthreads, unsigned int mode, unsigned int bits,
                                      unsigned int magic, unsigned int* __restrict__ sink) {
    gather<unsigned short, 1>(a, stride, nthreads, mode, bits, magic, sink);
}

// Eight independent loads per thread (same addresses, 1/8 of the threads).
extern "C" __global__ void gather_u32_x8(const unsigned int* __restrict__ a, unsigned long long stride,
                                         unsigned int nthreads, unsigned int mode, unsigned int bits,
                                         unsigned int magic, unsigned int* __restrict__ sink) {
    gather<unsigned int, 8>(a, stride, nthreads, mode, bits, magic, sink);
}

extern "C" __global__ void gather_u16_x8(const unsigned short* __restrict__ a, unsigned long long stride,
                                         unsigned int nthreads, unsigned int mode, unsigned int bits,
                                         unsigned int magic, unsigned int* __restrict__ sink) {
    gather<unsigned short, 8>(a, stride, nthreads, mode, bits, magic, sink);
}
