// Warp-divergence microbenchmark (Warpscope, measure/run_all.py::section_divergence).
// Path A and path B are equal-cost chains of `iters` DEPENDENT fused multiply-adds.
// They differ only in rounding mode (fma.rn vs fma.rz), written as volatile inline
// PTX, so the compiler cannot merge the two paths into one select + one loop:
// a warp whose lanes disagree has to run both chains one after the other.
//   mode 0: lane (threadIdx.x % 32) <  k takes path A, the others path B
//   mode 1: threadIdx.x             <  k takes path A (the lecture's `tid < 100`)

extern "C" __global__ void branchy(float* __restrict__ out, int mode, int k, int iters,
                                   float a, float b) {
    const int tid = threadIdx.x;
    const bool take_a = (mode == 0) ? ((tid & 31) < k) : (tid < k);
    float x = 1.0f + 1.0e-6f * (float)tid;
    if (take_a) {
#pragma unroll 4
        for (int i = 0; i < iters; ++i)
            asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a), "f"(b));
    } else {
#pragma unroll 4
        for (int i = 0; i < iters; ++i)
            asm volatile("fma.rz.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a), "f"(b));
    }
    out[blockIdx.x * blockDim.x + tid] = x;
}

// Baseline: path A only, no branch at all.
extern "C" __global__ void nobranch(float* __restrict__ out, int iters, float a, float b) {
    const int tid = threadIdx.x;
    float x = 1.0f + 1.0e-6f * (float)tid;
#pragma unroll 4
    for (int i = 0; i < iters; ++i)
        asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a), "f"(b));
    out[blockIdx.x * blockDim.x + tid] = x;
}
