// Occupancy variants (Warpscope, measure/run_all.py::section_occupancy).
// One source, compiled many times with different -D values and register caps:
//   LIVE   number of float values kept live across a loop (register pressure)
//   SSMEM  bytes of static __shared__ memory (0 = none)
//   LB_T, LB_B  optional __launch_bounds__(LB_T, LB_B)
// plus --maxrregcount=N per module. These kernels are never launched: only
// their attributes (registers, static shared memory, spills) and the driver's
// occupancy calculator are read.
#ifndef LIVE
#define LIVE 32
#endif
#ifndef SSMEM
#define SSMEM 0
#endif
#if defined(LB_T) && defined(LB_B)
#define BOUNDS __launch_bounds__(LB_T, LB_B)
#else
#define BOUNDS
#endif

extern "C" __global__ void BOUNDS occ_kernel(const float* __restrict__ in, float* __restrict__ out,
                                             int n, int iters) {
#if SSMEM > 0
    __shared__ float sbuf[SSMEM / 4];
#endif
    float r[LIVE];
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int j = 0; j < LIVE; ++j) r[j] = in[(t + j * 977) % n];
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int j = 0; j < LIVE; ++j) r[j] = fmaf(r[j], r[(j + 1) % LIVE], r[(j + 3) % LIVE]);
    }
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < LIVE; ++j) s += r[j] * (float)(j + 1);
#if SSMEM > 0
    sbuf[threadIdx.x % (SSMEM / 4)] = s;
    __syncthreads();
    s += sbuf[(threadIdx.x + 1) % (SSMEM / 4)];
#endif
    out[t] = s;
}
