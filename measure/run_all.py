#!/usr/bin/env python3
"""Warpscope ground-truth measurements on one NVIDIA GPU (written for the H200).

    python3 measure/run_all.py --out DIR [--only SECTION ...] [--time-limit SECONDS]

Writes into DIR:
    h200.json                  provenance, device properties, every figure and its method
    matmul-h200.csv            `n,tflops` (the format assets/measured/README.md describes)
    h200-matmul.csv            the same sweep with all timing statistics
    h200-coalescing.csv        strided / permuted single-load sweep
    h200-divergence.csv        branch-divergence timings
    h200-occupancy.csv         occupancy-calculator table over compiled kernel variants
    h200-attention.csv         naive attention vs scaled_dot_product_attention

Every number in those files is written by this script; see measure/README.md for
the method. Sections are independent: each is wrapped in try/except, has its own
time budget, and the JSON is rewritten after each one, so a failure or a kill
loses only the section in flight.
"""
import argparse
import ctypes
import datetime
import gc
import hashlib
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
KDIR = os.path.join(HERE, "kernels")
SCRIPT = "measure/run_all.py"
T0 = time.monotonic()
GIB = 1 << 30

RESULT = {
    "schema": "warpscope-measured/1",
    "gpu_code": "h200",
    "provenance": {},
    "device_properties": {},
    "figures": {},
    "errors": {},
    "section_seconds": {},
    "section_status": {},
}
OUTDIR = None
SAVE_PATH = None  # h200.json in the parent, a per-section part file in a child
FLUSH = None  # 256 MiB buffer written between timed repetitions to evict L2
DRV = None  # ctypes driver wrapper
COMPILER = {"prefer": "cupy", "used": {}, "first_errors": []}


def log(*a):
    print(f"[{time.monotonic() - T0:7.1f}s]", *a, flush=True)


def rnd(x, sig=4):
    """Round to `sig` significant digits; None for missing or non-finite values."""
    if x is None:
        return None
    x = float(x)
    if not math.isfinite(x):
        return None
    return float(f"{x:.{sig}g}")


def clean(o):
    """Recursively replace non-finite floats by None so the JSON stays strict."""
    if isinstance(o, float):
        return o if math.isfinite(o) else None
    if isinstance(o, dict):
        return {str(k): clean(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [clean(v) for v in o]
    return o


def save():
    if SAVE_PATH is None:
        return
    path = SAVE_PATH
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(clean(RESULT), f, indent=1, allow_nan=False)
        f.write("\n")
    os.replace(tmp, path)


def write_csv(name, header, rows, comments=()):
    path = os.path.join(OUTDIR, name)
    with open(path + ".tmp", "w") as f:
        for c in comments:
            f.write(f"# {c}\n")
        f.write(",".join(header) + "\n")
        for r in rows:
            f.write(",".join("" if v is None else str(v) for v in r) + "\n")
    os.replace(path + ".tmp", path)
    return f"assets/measured/{name}"


def sh(cmd, timeout=20):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return r.stdout.strip() if r.returncode == 0 else None
    except Exception:
        return None


def smi(field):
    out = sh(["nvidia-smi", f"--query-gpu={field}", "--format=csv,noheader,nounits"], timeout=15)
    if not out:
        return None
    return out.splitlines()[0].strip()


def smi_state():
    return {f: smi(f) for f in ("clocks.sm", "clocks.mem", "temperature.gpu", "power.draw", "pstate",
                                "clocks_event_reasons.active")}


def smi_sample():
    """One quick nvidia-smi reading (SM clock MHz, power W, temperature C, clock-event reasons bitmask)."""
    out = sh(["nvidia-smi", "--query-gpu=clocks.sm,power.draw,temperature.gpu",
              "--format=csv,noheader,nounits"], timeout=15)
    rec = {}
    if out:
        parts = [p.strip() for p in out.splitlines()[0].split(",")]
        rec = dict(zip(("clocks.sm", "power.draw", "temperature.gpu"), parts))
    rec["clocks_event_reasons.active"] = smi("clocks_event_reasons.active")
    return rec


class Deadline:
    def __init__(self, seconds):
        self.end = time.monotonic() + seconds
        self.seconds = seconds

    def left(self):
        return self.end - time.monotonic()

    def expired(self):
        return self.left() <= 0


# --------------------------------------------------------------------------- timing


def bench(fn, warmup_ms=10.0, rep_ms=50.0, min_reps=5, max_reps=1000, flush=True):
    """Median of per-call CUDA-event timings.

    One untimed call, then 3 calls to estimate the cost, then warm-up calls
    filling warmup_ms (at least 2), then n_rep timed calls (rep_ms worth,
    clamped to [min_reps, max_reps]); before every timed call the 256 MiB
    FLUSH buffer is zeroed (outside the events) so L2 holds nothing useful.
    """
    import torch

    fn()
    torch.cuda.synchronize()
    s = torch.cuda.Event(enable_timing=True)
    e = torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(3):
        fn()
    e.record()
    torch.cuda.synchronize()
    est = max(s.elapsed_time(e) / 3.0, 1e-4)
    n_warm = max(2, int(warmup_ms / est))
    n_rep = int(min(max(rep_ms / est, min_reps), max_reps))
    for _ in range(n_warm):
        fn()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n_rep)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n_rep)]
    for i in range(n_rep):
        if flush and FLUSH is not None:
            FLUSH.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    ts = sorted(a.elapsed_time(b) for a, b in zip(starts, ends))
    q = lambda p: ts[min(len(ts) - 1, int(p * (len(ts) - 1) + 0.5))]
    return {
        "median_ms": statistics.median(ts),
        "min_ms": ts[0],
        "p10_ms": q(0.1),
        "p90_ms": q(0.9),
        "warmup_calls": n_warm + 4,
        "reps": n_rep,
    }


BENCH_METHOD = (
    "CUDA events (torch.cuda.Event) around each call on the default stream; 1 untimed call + 3 "
    "estimate calls + warm-up calls filling warmup_ms (>= 2), then `reps` timed calls filling rep_ms "
    "(clamped to [min_reps, max_reps]); the 256 MiB flush buffer is zeroed before every timed call, "
    "outside the events, so L2 starts cold; statistic = median (min, p10, p90 also kept)."
)


def gbps(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e9


# --------------------------------------------------------------------------- CUDA driver via ctypes


class Driver:
    """Thin ctypes wrapper over libcuda: module load, launch, attributes, occupancy."""

    def __init__(self):
        L = ctypes.CDLL("libcuda.so.1")
        self.L = L
        ip = ctypes.POINTER(ctypes.c_int)
        vp = ctypes.c_void_p
        sig = {
            "cuGetErrorName": [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)],
            "cuDriverGetVersion": [ip],
            "cuDeviceGet": [ip, ctypes.c_int],
            "cuDeviceGetAttribute": [ip, ctypes.c_int, ctypes.c_int],
            "cuCtxGetCurrent": [ctypes.POINTER(vp)],
            "cuModuleLoadData": [ctypes.POINTER(vp), ctypes.c_char_p],
            "cuModuleGetFunction": [ctypes.POINTER(vp), vp, ctypes.c_char_p],
            "cuFuncGetAttribute": [ip, ctypes.c_int, vp],
            "cuFuncSetAttribute": [vp, ctypes.c_int, ctypes.c_int],
            "cuOccupancyMaxActiveBlocksPerMultiprocessor": [ip, vp, ctypes.c_int, ctypes.c_size_t],
            "cuLaunchKernel": [vp] + [ctypes.c_uint] * 7 + [vp, vp, vp],
        }
        for name, args in sig.items():
            f = getattr(L, name)
            f.argtypes = args
            f.restype = ctypes.c_int
        dev = ctypes.c_int()
        self.check(L.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        self.dev = dev.value

    def errname(self, r):
        p = ctypes.c_char_p()
        try:
            self.L.cuGetErrorName(r, ctypes.byref(p))
            return (p.value or b"?").decode()
        except Exception:
            return str(r)

    def check(self, r, what):
        if r != 0:
            raise RuntimeError(f"{what} failed: {r} {self.errname(r)}")

    def driver_version(self):
        v = ctypes.c_int()
        self.check(self.L.cuDriverGetVersion(ctypes.byref(v)), "cuDriverGetVersion")
        return v.value

    def dev_attr(self, code):
        v = ctypes.c_int()
        r = self.L.cuDeviceGetAttribute(ctypes.byref(v), code, self.dev)
        if r != 0:
            return None
        return v.value

    def context_ok(self):
        c = ctypes.c_void_p()
        r = self.L.cuCtxGetCurrent(ctypes.byref(c))
        return r == 0 and bool(c.value)

    def load(self, cubin, name):
        mod = ctypes.c_void_p()
        self.check(self.L.cuModuleLoadData(ctypes.byref(mod), cubin), "cuModuleLoadData")
        fn = ctypes.c_void_p()
        self.check(self.L.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), "cuModuleGetFunction")
        return fn.value


def P(x):
    return ctypes.c_void_p(x)


def I32(x):
    return ctypes.c_int32(x)


def U32(x):
    return ctypes.c_uint32(x)


def U64(x):
    return ctypes.c_uint64(x)


def F32(x):
    return ctypes.c_float(x)


class Kernel:
    FUNC_ATTRS = {
        "max_threads_per_block": 0,
        "shared_size_bytes": 1,
        "const_size_bytes": 2,
        "local_size_bytes": 3,
        "num_regs": 4,
        "ptx_version": 5,
        "binary_version": 6,
        "max_dynamic_shared_size_bytes": 8,
        "preferred_shared_memory_carveout": 9,
    }

    def __init__(self, fn, keep, route):
        self.fn = fn
        self.keep = keep  # keeps CuPy's module alive
        self.route = route

    def attr(self, code):
        v = ctypes.c_int()
        DRV.check(DRV.L.cuFuncGetAttribute(ctypes.byref(v), code, self.fn), "cuFuncGetAttribute")
        return v.value

    def attrs(self):
        out = {}
        for k, c in self.FUNC_ATTRS.items():
            try:
                out[k] = self.attr(c)
            except Exception:
                out[k] = None
        return out

    def set_max_dyn_smem(self, nbytes):
        DRV.check(DRV.L.cuFuncSetAttribute(self.fn, 8, int(nbytes)), "cuFuncSetAttribute(MAX_DYNAMIC_SHARED)")

    def occupancy(self, threads, smem):
        n = ctypes.c_int(-1)
        r = DRV.L.cuOccupancyMaxActiveBlocksPerMultiprocessor(ctypes.byref(n), self.fn, int(threads), int(smem))
        if r != 0:
            return None, DRV.errname(r)
        return n.value, None

    def launch(self, grid, block, args, smem=0):
        params = (ctypes.c_void_p * len(args))(*[ctypes.addressof(a) for a in args])
        DRV.check(
            DRV.L.cuLaunchKernel(self.fn, grid, 1, 1, block, 1, 1, int(smem), None, params, None),
            "cuLaunchKernel",
        )


def _nvcc():
    for c in (shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if c and os.path.exists(c):
            return c
    return None


_TMP = tempfile.mkdtemp(prefix="warpscope-measure-")


def compile_kernel(src_file, name, defines=(), maxrreg=None):
    """Compile one kernel; NVRTC through CuPy first, nvcc -cubin as fallback."""
    src_path = os.path.join(KDIR, src_file)
    src = open(src_path).read()
    if COMPILER["prefer"] == "cupy":
        try:
            import cupy

            opts = tuple(f"-D{d}" for d in defines)
            if maxrreg:
                opts += (f"--maxrregcount={maxrreg}",)
            rk = cupy.RawKernel(src, name, options=opts)
            fn = rk.kernel.ptr
            COMPILER["used"]["cupy-nvrtc"] = COMPILER["used"].get("cupy-nvrtc", 0) + 1
            return Kernel(fn, rk, "cupy-nvrtc")
        except Exception as e:
            COMPILER["first_errors"].append(f"cupy/nvrtc {src_file}:{name} {defines}: {e!r}"[:800])
            COMPILER["prefer"] = "nvcc"
            log("CuPy/NVRTC compile failed, falling back to nvcc:", repr(e)[:300])
    nvcc = _nvcc()
    if nvcc is None:
        raise RuntimeError("no nvcc found and CuPy/NVRTC failed")
    tag = hashlib.sha1(f"{src_file}{name}{defines}{maxrreg}".encode()).hexdigest()[:12]
    out = os.path.join(_TMP, f"{tag}.cubin")
    cmd = [nvcc, "-cubin", "-arch=sm_90", "-O3", "-o", out, src_path] + [f"-D{d}" for d in defines]
    if maxrreg:
        cmd.append(f"-maxrregcount={maxrreg}")
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    if r.returncode != 0:
        raise RuntimeError(f"nvcc failed: {r.stderr[-1500:]}")
    with open(out, "rb") as f:
        data = f.read()
    fn = DRV.load(data, name)
    COMPILER["used"]["nvcc"] = COMPILER["used"].get("nvcc", 0) + 1
    return Kernel(fn, data, "nvcc -cubin -arch=sm_90 -O3")


# --------------------------------------------------------------------------- sections


def cleanup():
    import torch

    gc.collect()
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    if "cupy" in sys.modules:
        try:
            sys.modules["cupy"].get_default_memory_pool().free_all_blocks()
        except Exception:
            pass


def section_provenance(dl):
    import torch

    prov = RESULT["provenance"]
    prov["date_utc"] = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()
    prov["device_name"] = torch.cuda.get_device_name(0)
    prov["driver_version_nvidia_smi"] = smi("driver_version")
    prov["cuda_driver_api_version"] = DRV.driver_version() if DRV else None
    prov["torch"] = torch.__version__
    prov["torch_cuda_runtime"] = torch.version.cuda
    try:
        prov["cudnn"] = torch.backends.cudnn.version()
    except Exception:
        pass
    try:
        import triton

        prov["triton"] = triton.__version__
    except Exception as e:
        prov["triton"] = f"unavailable: {e!r}"[:200]
    try:
        import cupy

        prov["cupy"] = cupy.__version__
        prov["cupy_cuda_runtime_version"] = cupy.cuda.runtime.runtimeGetVersion()
        try:
            prov["nvrtc_version"] = ".".join(map(str, cupy.cuda.nvrtc.getVersion()))
        except Exception:
            pass
    except Exception as e:
        prov["cupy"] = f"unavailable: {e!r}"[:200]
    try:
        import numpy

        prov["numpy"] = numpy.__version__
    except Exception:
        pass
    nv = _nvcc()
    if nv:
        v = sh([nv, "--version"])
        prov["nvcc"] = v.splitlines()[-1] if v else None
    prov["python"] = platform.python_version()
    prov["os"] = f"{platform.system()} {platform.release()}"
    prov["script"] = SCRIPT
    h = hashlib.sha256()
    for p in [os.path.abspath(__file__)] + sorted(
        os.path.join(KDIR, f) for f in os.listdir(KDIR) if f.endswith(".cu")
    ):
        with open(p, "rb") as f:
            h.update(os.path.basename(p).encode() + b"\0" + f.read())
    prov["sources_sha256"] = h.hexdigest()
    prov["hostname"] = "omitted on purpose"
    prov["method_notes"] = [
        "All figures come from one run of measure/run_all.py on one GPU (each section in its own Python "
        "process, one after another), run as found: clocks, power limit and persistence mode were not changed.",
        "Timing: " + BENCH_METHOD,
        "Data: random and non-zero (torch.randn, or a non-zero fill for the pure-load microbenchmarks "
        "whose values never matter); never zeros.",
        "GB/s and TFLOP/s are decimal (1e9 bytes, 1e12 FLOP) per second; bandwidth counts bytes read "
        "plus bytes written unless a figure says otherwise.",
        "The nvidia-smi clock/power snapshots recorded before and after sections are for context only.",
    ]
    for f in ("memory.total", "clocks.max.sm", "clocks.max.mem", "power.limit", "pstate",
              "compute_mode", "persistence_mode", "clocks.sm", "clocks.mem", "temperature.gpu"):
        prov.setdefault("nvidia_smi_at_start", {})[f] = smi(f)


DEV_ATTRS = {
    "max_threads_per_block": 1,
    "max_shared_memory_per_block_bytes": 8,
    "total_constant_memory_bytes": 9,
    "warp_size": 10,
    "max_registers_per_block": 12,
    "clock_rate_khz": 13,
    "multiprocessor_count": 16,
    "memory_clock_rate_khz": 36,
    "global_memory_bus_width_bits": 37,
    "l2_cache_size_bytes": 38,
    "max_threads_per_multiprocessor": 39,
    "compute_capability_major": 75,
    "compute_capability_minor": 76,
    "max_shared_memory_per_multiprocessor_bytes": 81,
    "max_registers_per_multiprocessor": 82,
    "max_shared_memory_per_block_optin_bytes": 97,
    "max_blocks_per_multiprocessor": 106,
    "max_persisting_l2_cache_size_bytes": 108,
    "reserved_shared_memory_per_block_bytes": 111,
}


def section_props(dl):
    import torch

    p = torch.cuda.get_device_properties(0)
    tp = {}
    for k in dir(p):
        if k.startswith("_") or k in ("uuid", "pci_bus_id", "pci_device_id", "pci_domain_id"):
            continue
        try:
            v = getattr(p, k)
        except Exception:
            continue
        if isinstance(v, (bool, int, float, str)):
            tp[k] = v
    drv = {k: DRV.dev_attr(c) for k, c in DEV_ATTRS.items()} if DRV else {}
    dp = RESULT["device_properties"]
    dp["produced_by"] = f"{SCRIPT}::section_props"
    dp["method"] = ("cuDeviceGetAttribute through ctypes (libcuda), and torch.cuda.get_device_properties; "
                    "identifiers (UUID, PCI ids) left out.")
    dp["driver_attributes"] = drv
    dp["torch_properties"] = tp
    if drv.get("memory_clock_rate_khz") and drv.get("global_memory_bus_width_bits"):
        dp["derived_nominal_dram_GBps"] = {
            "value": rnd(2 * drv["memory_clock_rate_khz"] * 1e3 * drv["global_memory_bus_width_bits"] / 8 / 1e9),
            "formula": "2 x memory_clock_rate x bus_width / 8 (double data rate), a nominal figure, not a measurement",
        }


def section_matmul(dl):
    import torch

    sizes = set(range(256, 8193, 64))
    for lo, hi in ((1020, 1030), (1400, 1415), (1785, 1800), (2040, 2060), (4088, 4100)):
        sizes |= set(range(lo, hi + 1))
    sizes |= {1792, 1793, 2560}
    sizes = sorted(sizes)
    fig = RESULT["figures"].setdefault("matmul_bf16", {})
    fig.update({
        "produced_by": f"{SCRIPT}::section_matmul",
        "what": "square bf16 matmul C = A @ B, A and B n x n, torch.matmul (cuBLAS), random normal data",
        "units": {"n": "matrix side", "tflops": "1e12 FLOP/s with FLOP = 2 n^3", "ms": "milliseconds per call"},
        "method": BENCH_METHOD + " Here warmup_ms=8, rep_ms=40, min_reps=5. Before the sweep the GPU was "
                  "kept busy with 8192^3 products for about a second so that clocks had ramped up.",
        "csv_app_format": "assets/measured/matmul-h200.csv",
        "csv": "assets/measured/h200-matmul.csv",
    })
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    t = time.monotonic()
    while time.monotonic() - t < 1.0:
        for _ in range(20):
            torch.matmul(a, b)
        torch.cuda.synchronize()
    del a, b
    fig["nvidia_smi_before"] = smi_state()
    rows = []
    samples = []
    t_start = time.monotonic()
    for i, n in enumerate(sizes):
        if dl.expired():
            fig["truncated_at_n"] = n
            log("matmul: budget exhausted at n =", n)
            break
        a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        r = bench(lambda: torch.matmul(a, b), warmup_ms=8, rep_ms=40, min_reps=5, max_reps=400)
        flops = 2.0 * n ** 3
        rows.append((n, r["median_ms"], r["min_ms"], r["p10_ms"], r["p90_ms"],
                     flops / (r["median_ms"] * 1e-3) / 1e12, flops / (r["min_ms"] * 1e-3) / 1e12,
                     r["reps"], r["warmup_calls"]))
        del a, b
        if i % 40 == 0:
            log(f"matmul n={n}: {rows[-1][5]:.1f} TFLOP/s")
        if i % 20 == 0:
            samples.append({"after_n": n, **smi_sample()})
    fig["sweep_seconds"] = round(time.monotonic() - t_start, 1)
    fig["nvidia_smi_after"] = smi_state()
    fig["nvidia_smi_samples_during_sweep"] = {
        "note": "read between measurements (so at a moment the GPU was briefly idle), for context only: the SM "
                "clock under sustained bf16 matmul is set by the power limit (see power.limit in provenance)",
        "samples": samples,
    }
    write_csv("matmul-h200.csv", ["n", "tflops"], [(n, f"{tf:.2f}") for (n, _, _, _, _, tf, *_r) in rows],
              comments=[
                  f"{torch.cuda.get_device_name(0)}, square bf16 torch.matmul, n x n x n; TFLOP/s = 2n^3 / median time.",
                  "Written by measure/run_all.py (section_matmul); method and provenance in h200.json.",
              ])
    write_csv("h200-matmul.csv",
              ["n", "median_ms", "min_ms", "p10_ms", "p90_ms", "tflops_median", "tflops_best", "reps", "warmup_calls"],
              [(n, f"{m:.5f}", f"{mn:.5f}", f"{p1:.5f}", f"{p9:.5f}", f"{tf:.2f}", f"{tb:.2f}", reps, w)
               for (n, m, mn, p1, p9, tf, tb, reps, w) in rows])
    if rows:
        best = max(rows, key=lambda r: r[5])
        fig["summary"] = {
            "sizes_measured": len(rows),
            "peak_tflops_median": round(best[5], 2),
            "peak_at_n": best[0],
            "tflops_at": {str(n): round(tf, 2) for (n, _, _, _, _, tf, *_r) in rows
                          if n in (256, 512, 1024, 1792, 1793, 2048, 2560, 4096, 8192)},
        }
    save()
    # the lecture's wave-quantisation shapes again, longer, plus a drift check at 8192
    lec = {}
    for n in (1792, 1793, 2560, 8192):
        if dl.left() < 3:
            break
        a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        r = bench(lambda: torch.matmul(a, b), warmup_ms=20, rep_ms=200, min_reps=20, max_reps=2000)
        lec[str(n)] = {"median_ms": rnd(r["median_ms"], 6), "tflops_median": round(2 * n ** 3 / (r["median_ms"] * 1e-3) / 1e12, 2),
                       "reps": r["reps"]}
        del a, b
    fig["lecture_shapes_second_pass"] = {
        "note": "re-measured after the sweep with rep_ms=200 (n=8192 doubles as a drift check against the sweep)",
        "results": lec,
    }
    try:
        import triton.testing as tt

        xcheck = {}
        for n in (4096, 8192):
            a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
            ms = tt.do_bench(lambda: torch.matmul(a, b), warmup=25, rep=100, return_mode="median")
            xcheck[str(n)] = {"median_ms": rnd(ms, 6), "tflops": round(2 * n ** 3 / (ms * 1e-3) / 1e12, 2)}
            del a, b
        fig["triton_do_bench_crosscheck"] = {
            "method": "triton.testing.do_bench(fn, warmup=25, rep=100, return_mode='median') (its own L2 clearing)",
            "results": xcheck,
        }
    except Exception as e:
        fig["triton_do_bench_crosscheck"] = {"error": repr(e)[:400]}


def section_bandwidth(dl):
    import torch

    figs = RESULT["figures"]
    # 1. copy bandwidth
    copy = figs.setdefault("copy_bandwidth", {})
    copy.update({
        "produced_by": f"{SCRIPT}::section_bandwidth",
        "what": "device-to-device copy dst.copy_(src) of a contiguous buffer, far larger than L2",
        "units": {"GBps": "1e9 bytes/s counting bytes read + bytes written (2 x buffer size)"},
        "method": BENCH_METHOD + " warmup_ms=20, rep_ms=150, min_reps=10.",
        "results": {},
    })
    for label, dtype, nbytes in (("fp32_1GiB", torch.float32, GIB), ("bf16_1GiB", torch.bfloat16, GIB),
                                 ("fp32_4GiB", torch.float32, 4 * GIB)):
        esz = torch.tensor([], dtype=dtype).element_size()
        src = torch.randn(nbytes // esz, device="cuda", dtype=dtype)
        dst = torch.empty_like(src)
        r = bench(lambda: dst.copy_(src), warmup_ms=20, rep_ms=150, min_reps=10)
        copy["results"][label] = {"buffer_bytes": nbytes, "median_ms": rnd(r["median_ms"], 6),
                                  "GBps": round(gbps(2 * nbytes, r["median_ms"]), 1),
                                  "GBps_best": round(gbps(2 * nbytes, r["min_ms"]), 1), "reps": r["reps"]}
        del src, dst
        cleanup()
    save()
    # 2. x*2 against x*2+1 and the other eager elementwise forms
    n = GIB // 4
    x = torch.randn(n, device="cuda", dtype=torch.float32)
    ew = figs.setdefault("elementwise_eager", {})
    ew.update({
        "produced_by": f"{SCRIPT}::section_bandwidth",
        "what": "eager PyTorch elementwise expressions on x = torch.randn(2^28) fp32 (1 GiB); each torch op "
                "is its own kernel that reads its inputs from and writes its output to HBM",
        "units": {"ms": "median milliseconds per call",
                  "effective_GBps": "minimal bytes (read x once + write the result once = 2 GiB) / time",
                  "ratio": "time / time(x*2)"},
        "method": BENCH_METHOD + " warmup_ms=20, rep_ms=150, min_reps=10.",
        "elements": n,
        "results": {},
    })
    c = 0.7978845608028654

    def gelu_manual(t):
        return 0.5 * t * (1 + torch.tanh(c * (t + 0.044715 * t * t * t)))

    exprs = {
        "x*2": lambda: x * 2,
        "x*2+1": lambda: x * 2 + 1,
        "sin(x)**2+cos(x)**2": lambda: torch.sin(x) ** 2 + torch.cos(x) ** 2,
        "gelu_manual_tanh": lambda: gelu_manual(x),
        "F.gelu(approximate='tanh')": lambda: torch.nn.functional.gelu(x, approximate="tanh"),
    }
    for name, f in exprs.items():
        r = bench(f, warmup_ms=20, rep_ms=150, min_reps=10)
        ew["results"][name] = {"median_ms": rnd(r["median_ms"], 6), "min_ms": rnd(r["min_ms"], 6),
                               "effective_GBps": round(gbps(2 * 4 * n, r["median_ms"]), 1), "reps": r["reps"]}
    base = ew["results"]["x*2"]["median_ms"]
    for name in ew["results"]:
        ew["results"][name]["ratio"] = round(ew["results"][name]["median_ms"] / base, 3)
    ew["x2_plus_1_over_x2_time_ratio"] = ew["results"]["x*2+1"]["ratio"]
    try:
        ref = torch.nn.functional.gelu(x[: 1 << 20].double(), approximate="tanh")
        ew["gelu_manual_max_abs_err_vs_fp64"] = rnd(float((gelu_manual(x[: 1 << 20]).double() - ref).abs().max()), 3)
        ew["gelu_builtin_max_abs_err_vs_fp64"] = rnd(float(
            (torch.nn.functional.gelu(x[: 1 << 20], approximate="tanh").double() - ref).abs().max()), 3)
    except Exception as e:
        ew["gelu_check_error"] = repr(e)[:300]
    save()
    del x
    cleanup()
    save()
    # 3. straight vs transposed copy of an 8192 x 8192 fp32 matrix
    tr = figs.setdefault("transpose_copy", {})
    m = torch.randn(8192, 8192, device="cuda", dtype=torch.float32)
    nbytes = m.numel() * 4
    tr.update({
        "produced_by": f"{SCRIPT}::section_bandwidth",
        "what": "8192 x 8192 fp32 (256 MiB): m.clone() (straight copy) against m.t().contiguous() (transposed copy)",
        "units": {"GBps": "1e9 bytes/s counting read + write (2 x 256 MiB)"},
        "method": BENCH_METHOD + " warmup_ms=20, rep_ms=150, min_reps=10.",
        "results": {},
    })
    for name, f in (("straight_clone", lambda: m.clone()), ("transposed_contiguous", lambda: m.t().contiguous())):
        r = bench(f, warmup_ms=20, rep_ms=150, min_reps=10)
        tr["results"][name] = {"median_ms": rnd(r["median_ms"], 6), "GBps": round(gbps(2 * nbytes, r["median_ms"]), 1),
                               "reps": r["reps"]}
    tr["transposed_over_straight_time_ratio"] = round(
        tr["results"]["transposed_contiguous"]["median_ms"] / tr["results"]["straight_clone"]["median_ms"], 3)
    try:
        assert torch.equal(m.t().contiguous()[5, 7], m[7, 5])
    except Exception as e:
        tr["check_error"] = repr(e)[:200]
    del m


def section_coalescing(dl):
    import numpy as np
    import torch

    fig = RESULT["figures"].setdefault("coalescing", {})
    if DRV is None:
        raise RuntimeError("CUDA driver API (ctypes libcuda) unavailable")
    bits = 27
    nthreads = 1 << bits
    max_stride = 64
    fig.update({
        "produced_by": f"{SCRIPT}::section_coalescing (kernels: measure/kernels/coalesce.cu)",
        "what": "n = 2^27 loads, each at element index v*stride (stride 1..64) or at a random permutation of v "
                "over [0, n), where v is the thread id; element size 4 B (u32, stands for fp32) and 2 B (u16, "
                "stands for bf16); 256 threads per block. loads_per_thread = 1: 2^27 threads, one load each (as "
                "in the lecture); loads_per_thread = 8: 2^24 threads, each with 8 independent loads for "
                "v = t + j*2^24, so every warp-wide load has the same pattern but more bytes are in flight "
                "(with one 4-byte load per thread the stride-1 case is bound by latency, not by bandwidth)",
        "units": {
            "useful_GBps": "bytes asked for (n loads x element size) / time, 1e9 B/s",
            "sectors_per_warp": "distinct 32-byte sectors one warp's 32 loads touch (computed on the host "
                                "from the same index formula; for the permutation, averaged over the first 4096 warps)",
            "implied_GBps": "sectors touched x 32 B / time: the traffic the memory system had to move at least",
            "time_ms": "median milliseconds per launch",
        },
        "method": BENCH_METHOD + " warmup_ms=5, rep_ms=30, min_reps=8.",
        "cache_exclusion": (
            "No element is read twice within a launch (strided indices tid*stride are distinct, the permutation "
            "is a bijection), so L1 cannot serve any load; the smallest footprint touched (stride 1, u16) is "
            "256 MiB and the largest buffer 32 GiB, against a 50-60 MB L2, and a 256 MiB buffer is written "
            "between timed launches, so every launch starts with an L2 holding none of the data. The loaded "
            "value feeds a compare against a run-time value absent from the data, with a store only on a "
            "match, so the loads are not dead code. The permutation is computed in-kernel by an invertible "
            "integer hash (multiply by odd constants and xor-shift modulo 2^27), so no index array is read."
        ),
        "threads": nthreads,
        "csv": "assets/measured/h200-coalescing.csv",
    })
    kernels = {(d, lpt): compile_kernel("coalesce.cu", f"gather_{'u32' if d == 'fp32' else 'u16'}{'_x8' if lpt == 8 else ''}")
               for lpt in (1, 8) for d in ("fp32", "bf16")}
    fig["kernel_attributes"] = {f"{d}_x{lpt}": k.attrs() for (d, lpt), k in kernels.items()}
    fig["kernel_attributes"]["compiled_by"] = kernels[("fp32", 1)].route
    buf = torch.full((nthreads * max_stride,), 0x00010001, device="cuda", dtype=torch.int32)  # 32 GiB, non-zero
    sink = torch.zeros(4, device="cuda", dtype=torch.int32)
    torch.cuda.synchronize()

    def sectors_per_warp(esize, stride=None, perm=False):
        if perm:
            i = np.arange(4096 * 32, dtype=np.uint64)
            m = np.uint64((1 << bits) - 1)
            h = np.uint64(bits >> 1)
            h2 = np.uint64((bits >> 1) - 3 if (bits >> 1) > 4 else 1)
            x = i
            M32 = np.uint64(0xFFFFFFFF)
            x = ((x * np.uint64(0x9E3779B1)) & M32) & m
            x ^= x >> h
            x = ((x * np.uint64(0x85EBCA77)) & M32) & m
            x ^= x >> h2
            x = ((x * np.uint64(0xC2B2AE3D)) & M32) & m
            x ^= x >> h
            idx = x
        else:
            idx = np.arange(4096 * 32, dtype=np.uint64) * np.uint64(stride)
        sec = np.sort(((idx * np.uint64(esize)) // np.uint64(32)).reshape(-1, 32), axis=1)
        return float((1 + (np.diff(sec, axis=1) != 0).sum(axis=1)).mean())

    try:  # the hash must be a permutation: check it on 2^20 elements with the same code path
        small = 20
        i = np.arange(1 << small, dtype=np.uint64)
        m = np.uint64((1 << small) - 1)
        M32 = np.uint64(0xFFFFFFFF)
        h, h2 = np.uint64(small >> 1), np.uint64((small >> 1) - 3)
        x = ((i * np.uint64(0x9E3779B1)) & M32) & m
        x ^= x >> h
        x = ((x * np.uint64(0x85EBCA77)) & M32) & m
        x ^= x >> h2
        x = ((x * np.uint64(0xC2B2AE3D)) & M32) & m
        x ^= x >> h
        fig["permutation_check_2^20"] = bool(len(np.unique(x)) == (1 << small))
    except Exception as e:
        fig["permutation_check_error"] = repr(e)[:200]

    rows = []
    for (dname, lpt), kern in kernels.items():
        esize = 4 if dname == "fp32" else 2
        launch_threads = nthreads // lpt
        grid = launch_threads // 256
        ptr = buf.data_ptr()
        pats = [("stride", s) for s in range(1, max_stride + 1)] + [("random_permutation", None)]
        for pat, s in pats:
            if dl.expired():
                fig["truncated"] = True
                break
            mode = 0 if pat == "stride" else 1
            st = s if s else 1
            args = [P(ptr), U64(st), U32(launch_threads), U32(mode), U32(bits),
                    U32(0xFFFFFFFF if esize == 4 else 0xFFFF0000), P(sink.data_ptr())]
            r = bench(lambda: kern.launch(grid, 256, args), warmup_ms=5, rep_ms=30, min_reps=8, max_reps=200)
            spw = sectors_per_warp(esize, stride=st, perm=(mode == 1))
            useful = nthreads * esize
            implied = nthreads / 32 * spw * 32
            rows.append((dname, esize, lpt, pat, s if s else "", f"{r['median_ms']:.5f}", f"{gbps(useful, r['median_ms']):.1f}",
                         f"{spw:.3f}", f"{implied / useful:.3f}", f"{gbps(implied, r['median_ms']):.1f}", r["reps"]))
        log(f"coalescing {dname} x{lpt}: done ({len(rows)} rows)")
    if int(sink.max().item()) != 0:
        fig["sink_warning"] = "the sink was written: magic value occurred in the data"
    write_csv("h200-coalescing.csv",
              ["dtype", "elem_bytes", "loads_per_thread", "pattern", "stride", "time_ms", "useful_GBps", "sectors_per_warp",
               "implied_bytes_per_useful_byte", "implied_GBps", "reps"], rows,
              comments=["Written by measure/run_all.py (section_coalescing); method in h200.json figures.coalescing"])
    summ = {}
    for r in rows:
        key = f"{r[0]}_x{r[2]}_{'random' if r[3] == 'random_permutation' else 'stride' + str(r[4])}"
        if r[3] == "random_permutation" or r[4] in (1, 2, 4, 8, 16, 32, 64):
            summ[key] = {"useful_GBps": float(r[6]), "implied_GBps": float(r[9]), "time_ms": float(r[5])}
    fig["summary"] = summ
    del buf, sink


def section_divergence(dl):
    import torch

    fig = RESULT["figures"].setdefault("divergence", {})
    kb = compile_kernel("divergence.cu", "branchy")
    kn = compile_kernel("divergence.cu", "nobranch")
    a, b = 0.9999999, 1e-7
    if DRV is None:
        raise RuntimeError("CUDA driver API (ctypes libcuda) unavailable")
    sms = DRV.dev_attr(16) or torch.cuda.get_device_properties(0).multi_processor_count
    out = torch.empty(sms * 512 * 128 + 1024, device="cuda", dtype=torch.float32)
    configs = {
        "saturated": {"blocks": sms * 256, "threads": 256, "iters": 256,
                      "note": f"{sms}x256 blocks of 256 threads: every SM full (64 warps resident), throughput-bound"},
        "one_warp_per_sm": {"blocks": sms, "threads": 32, "iters": 16384,
                            "note": f"{sms} blocks of 32 threads: one warp per SM, latency-bound dependent chain"},
        "tid_lt_k_128_saturated": {"blocks": sms * 512, "threads": 128, "iters": 256,
                                   "note": f"{sms}x512 blocks of 128 threads, condition threadIdx.x < k (the lecture's tid < 100)"},
        "tid_lt_k_128_one_block_per_sm": {"blocks": sms, "threads": 128, "iters": 16384,
                                          "note": f"{sms} blocks of 128 threads, condition threadIdx.x < k"},
    }
    fig.update({
        "produced_by": f"{SCRIPT}::section_divergence (kernels: measure/kernels/divergence.cu)",
        "what": "lanes with lane < k take path A, the others path B; A and B are chains of `iters` dependent "
                "FMAs differing only in rounding mode (fma.rn / fma.rz as volatile PTX, so they cannot be merged); "
                "k = 0 and k = 32 are uniform warps, 1..31 diverge. `nobranch` runs path A with no condition.",
        "units": {"time_us": "median microseconds per launch", "slowdown": "time / mean(time at the two uniform ends)"},
        "method": BENCH_METHOD + " warmup_ms=5, rep_ms=25, min_reps=10. (The flush memset also keeps the GPU busy "
                  "while the host enqueues the timed launch, so launch latency stays out of the events.)",
        "placement_note": "with one block per SM the block scheduler normally spreads the blocks one per SM; "
                          "this was not checked with %smid",
        "configs": configs,
        "kernel_attributes": {"branchy": kb.attrs(), "nobranch": kn.attrs(), "compiled_by": kb.route},
        "csv": "assets/measured/h200-divergence.csv",
    })
    rows = []

    def run(cfg, mode, k):
        c = configs[cfg]
        args = [P(out.data_ptr()), I32(mode), I32(k), I32(c["iters"]), F32(a), F32(b)]
        return bench(lambda: kb.launch(c["blocks"], c["threads"], args), warmup_ms=5, rep_ms=25, min_reps=10,
                     max_reps=500)

    def run_nb(cfg):
        c = configs[cfg]
        args = [P(out.data_ptr()), I32(c["iters"]), F32(a), F32(b)]
        return bench(lambda: kn.launch(c["blocks"], c["threads"], args), warmup_ms=5, rep_ms=25, min_reps=10,
                     max_reps=500)

    summary = {}
    for cfg in ("saturated", "one_warp_per_sm"):
        times = {}
        for k in range(0, 33):
            if dl.expired():
                fig["truncated"] = True
                break
            r = run(cfg, 0, k)
            times[k] = r["median_ms"] * 1e3
            rows.append([cfg, "lane<k", k, configs[cfg]["blocks"], configs[cfg]["threads"], configs[cfg]["iters"],
                         f"{times[k]:.3f}", f"{r['min_ms'] * 1e3:.3f}", r["reps"]])
        rb = run_nb(cfg)
        rows.append([cfg, "nobranch", "", configs[cfg]["blocks"], configs[cfg]["threads"], configs[cfg]["iters"],
                     f"{rb['median_ms'] * 1e3:.3f}", f"{rb['min_ms'] * 1e3:.3f}", rb["reps"]])
        if 0 in times and 32 in times:
            uni = (times[0] + times[32]) / 2
            summary[cfg] = {
                "uniform_us": round(uni, 3),
                "nobranch_us": round(rb["median_ms"] * 1e3, 3),
                "k16_us": round(times.get(16, float("nan")), 3),
                "slowdown_k16": round(times.get(16, float("nan")) / uni, 3),
                "slowdown_k1": round(times.get(1, float("nan")) / uni, 3),
                "slowdown_k31": round(times.get(31, float("nan")) / uni, 3),
            }
    for cfg in ("tid_lt_k_128_saturated", "tid_lt_k_128_one_block_per_sm"):
        t = {}
        for k in (0, 32, 64, 96, 100, 128):
            if dl.expired():
                break
            r = run(cfg, 1, k)
            t[k] = r["median_ms"] * 1e3
            rows.append([cfg, "tid<k", k, configs[cfg]["blocks"], configs[cfg]["threads"], configs[cfg]["iters"],
                         f"{t[k]:.3f}", f"{r['min_ms'] * 1e3:.3f}", r["reps"]])
        if 0 in t and 128 in t and 100 in t and 96 in t:
            uni = (t[0] + t[128]) / 2
            summary[cfg] = {"uniform_us": round(uni, 3), "tid_lt_96_us": round(t[96], 3), "tid_lt_100_us": round(t[100], 3),
                            "slowdown_tid_lt_100": round(t[100] / uni, 3), "slowdown_tid_lt_96": round(t[96] / uni, 3)}
    write_csv("h200-divergence.csv", ["config", "condition", "k", "blocks", "threads", "iters", "time_us", "min_us", "reps"],
              rows, comments=["Written by measure/run_all.py (section_divergence); method in h200.json figures.divergence"])
    # slowdown column relative to the uniform ends, kept in JSON to keep the CSV raw
    fig["summary"] = summary
    del out


def section_occupancy(dl):
    fig = RESULT["figures"].setdefault("occupancy", {})
    if DRV is None:
        raise RuntimeError("CUDA driver API (ctypes libcuda) unavailable")
    optin = DRV.dev_attr(97) or 232448
    variants = []
    for live in (2, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224):
        variants.append((f"live{live}", (f"LIVE={live}",), None))
    for cap in (24, 32, 40, 48, 56, 64, 72, 80, 96, 128, 168):
        variants.append((f"live200_maxreg{cap}", ("LIVE=200",), cap))
    for lb_t, lb_b in ((1024, 1), (512, 2), (256, 4), (128, 8), (256, 2)):
        variants.append((f"live128_lb{lb_t}x{lb_b}", ("LIVE=128", f"LB_T={lb_t}", f"LB_B={lb_b}"), None))
    for ss in (1024, 8192, 16384, 32768, 49152):
        variants.append((f"live32_static{ss // 1024}k", ("LIVE=32", f"SSMEM={ss}"), None))
    dyn_values = [0, 1024, 8192, 16384, 32768, 49152, 65536, 102400, 163840, optin]
    threads_values = list(range(32, 1025, 32))
    fig.update({
        "produced_by": f"{SCRIPT}::section_occupancy (kernels: measure/kernels/occupancy.cu)",
        "what": "resident blocks per SM from the driver's occupancy calculator "
                "(cuOccupancyMaxActiveBlocksPerMultiprocessor = cudaOccupancyMaxActiveBlocksPerMultiprocessor) "
                "for compiled kernels of known register and static shared-memory use, over threads per block "
                "32..1024 (step 32) and dynamic shared memory per block",
        "units": {"regs": "registers per thread as compiled (cuFuncGetAttribute NUM_REGS)",
                  "static_smem": "bytes of static shared memory per block (SHARED_SIZE_BYTES)",
                  "threads": "threads per block", "dyn_smem": "bytes of dynamic shared memory per block",
                  "blocks_per_sm": "resident blocks per SM; -1 = the API refused the request "
                                   "(e.g. shared memory over the per-block limit)"},
        "method": "Each variant is a separate module compiled (NVRTC via CuPy, or nvcc) from occupancy.cu with "
                  "-DLIVE (floats kept live), optional -DSSMEM (static shared bytes), optional __launch_bounds__ "
                  "and optional --maxrregcount. MAX_DYNAMIC_SHARED_SIZE_BYTES is set to (opt-in limit - static "
                  "shared) before querying; the preferred carveout is left at its default. Nothing is launched.",
        "dyn_smem_values": dyn_values,
        "threads_values": "32..1024 step 32",
        "csv": "assets/measured/h200-occupancy.csv",
        "kernels": {},
    })
    rows = []
    for name, defines, cap in variants:
        if dl.expired():
            fig["truncated"] = True
            break
        try:
            k = compile_kernel("occupancy.cu", "occ_kernel", defines=defines, maxrreg=cap)
        except Exception as e:
            fig["kernels"][name] = {"error": repr(e)[:300]}
            continue
        at = k.attrs()
        static = at["shared_size_bytes"] or 0
        err = None
        try:
            k.set_max_dyn_smem(max(0, optin - static))
        except Exception as e:
            err = repr(e)[:200]
        fig["kernels"][name] = {"defines": list(defines), "maxrregcount": cap, "regs": at["num_regs"],
                                "static_smem": static, "local_bytes_per_thread": at["local_size_bytes"],
                                "max_threads_per_block": at["max_threads_per_block"],
                                "compiled_by": k.route, "set_max_dyn_smem_error": err}
        for th in threads_values:
            for dyn in dyn_values:
                bps, e = k.occupancy(th, dyn)
                rows.append((name, at["num_regs"], static, th, dyn, -1 if bps is None else bps))
    write_csv("h200-occupancy.csv", ["kernel", "regs", "static_smem", "threads", "dyn_smem", "blocks_per_sm"], rows,
              comments=["Written by measure/run_all.py (section_occupancy); kernels and method in h200.json figures.occupancy"])
    fig["rows"] = len(rows)
    fig["kernels_compiled"] = sum(1 for v in fig["kernels"].values() if "regs" in v)


def section_attention(dl):
    import torch
    import torch.nn.functional as F

    fig = RESULT["figures"].setdefault("attention", {})
    B, H, D = 1, 16, 128
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel

        def flash(q, k, v):
            with sdpa_kernel([SDPBackend.FLASH_ATTENTION]):
                return F.scaled_dot_product_attention(q, k, v)
        backend = "torch.nn.attention.sdpa_kernel([SDPBackend.FLASH_ATTENTION])"
    except Exception as e:
        def flash(q, k, v):
            return F.scaled_dot_product_attention(q, k, v)
        backend = f"default SDPA dispatch (sdpa_kernel unavailable: {e!r})"[:300]
    scale = 1.0 / math.sqrt(D)

    def naive(q, k, v):
        s = (q @ k.transpose(-2, -1)) * scale
        p = torch.softmax(s, dim=-1)
        return p @ v

    sizes = [512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 65536]
    fig.update({
        "produced_by": f"{SCRIPT}::section_attention",
        "what": f"non-causal attention, batch {B}, {H} heads, head dim {D}, bf16, q/k/v = torch.randn; naive = "
                "softmax((Q @ K^T) * d^-1/2) @ V in eager PyTorch (materialises the n x n scores); "
                f"flash = F.scaled_dot_product_attention under {backend}",
        "units": {"ms": "median milliseconds per call", "peak_extra_MiB": "torch.cuda.max_memory_allocated during one "
                  "call minus memory allocated before it (q, k, v and other live tensors excluded), MiB = 2^20 B",
                  "tflops": "4 B H n^2 d / time, 1e12 FLOP/s"},
        "method": BENCH_METHOD + " warmup_ms=10, rep_ms=150, min_reps=3. Peak memory from a separate single call "
                  "after torch.cuda.empty_cache() and reset_peak_memory_stats(). OOM is caught and recorded.",
        "csv": "assets/measured/h200-attention.csv",
    })
    try:
        q = torch.randn(B, H, 1024, D, device="cuda", dtype=torch.bfloat16)
        k = torch.randn_like(q)
        v = torch.randn_like(q)
        fig["check_n1024_max_abs_diff_naive_vs_flash"] = rnd(float((naive(q, k, v) - flash(q, k, v)).abs().max()), 3)
        del q, k, v
    except Exception as e:
        fig["check_error"] = repr(e)[:300]
    rows = []
    for n in sizes:
        if dl.expired():
            fig["truncated_at_n"] = n
            break
        cleanup()
        q = torch.randn(B, H, n, D, device="cuda", dtype=torch.bfloat16)
        k = torch.randn_like(q)
        v = torch.randn_like(q)
        flops = 4.0 * B * H * n * n * D
        for name, f in (("naive", naive), ("flash", flash)):
            rec = {"n": n, "impl": name}
            try:
                torch.cuda.synchronize()
                torch.cuda.empty_cache()
                torch.cuda.reset_peak_memory_stats()
                before = torch.cuda.memory_allocated()
                o = f(q, k, v)
                torch.cuda.synchronize()
                rec["peak_extra_MiB"] = (torch.cuda.max_memory_allocated() - before) / 2 ** 20
                del o
                r = bench(lambda: f(q, k, v), warmup_ms=10, rep_ms=150, min_reps=3, max_reps=200)
                rec.update(ms=r["median_ms"], reps=r["reps"], tflops=flops / (r["median_ms"] * 1e-3) / 1e12)
            except torch.cuda.OutOfMemoryError as e:
                rec["status"] = "oom"
                rec["error"] = str(e).splitlines()[0][:200]
            except Exception as e:
                rec["status"] = "error"
                rec["error"] = repr(e)[:200]
            gc.collect()
            torch.cuda.empty_cache()
            rows.append(rec)
            log(f"attention n={n} {name}: {rec.get('ms', rec.get('status'))}")
        del q, k, v
        save()
    write_csv("h200-attention.csv", ["n", "impl", "ms", "tflops", "peak_extra_MiB", "reps", "status"],
              [(r["n"], r["impl"], f"{r['ms']:.5f}" if "ms" in r else "", f"{r['tflops']:.2f}" if "tflops" in r else "",
                f"{r['peak_extra_MiB']:.1f}" if "peak_extra_MiB" in r else "", r.get("reps", ""), r.get("status", "ok"))
               for r in rows],
              comments=["Written by measure/run_all.py (section_attention); method in h200.json figures.attention"])
    fig["results"] = rows
    ok = [r for r in rows if "ms" in r]
    if ok:
        largest = {}
        for impl in ("naive", "flash"):
            rs = [r for r in ok if r["impl"] == impl]
            if rs:
                big = max(rs, key=lambda r: r["n"])
                largest[impl] = {"n": big["n"], "ms": round(big["ms"], 4), "peak_extra_MiB": round(big.get("peak_extra_MiB", -1), 1)}
        fig["summary_largest_n"] = largest
    fig["failed"] = [{"n": r["n"], "impl": r["impl"], "status": r.get("status")} for r in rows if "ms" not in r]


def section_compiled(dl):
    import torch

    fig = RESULT["figures"].setdefault("elementwise_compiled", {})
    n = GIB // 4
    x = torch.randn(n, device="cuda", dtype=torch.float32)
    c = 0.7978845608028654

    def sincos(t):
        return torch.sin(t) ** 2 + torch.cos(t) ** 2

    def gelu_manual(t):
        return 0.5 * t * (1 + torch.tanh(c * (t + 0.044715 * t * t * t)))

    fig.update({
        "produced_by": f"{SCRIPT}::section_compiled",
        "what": "the same expressions as elementwise_eager (x = torch.randn(2^28) fp32, 1 GiB), eager against "
                "torch.compile(f, dynamic=False) (Inductor fuses them into one Triton kernel); eager re-timed here "
                "for a side-by-side pair",
        "units": {"ms": "median milliseconds per call",
                  "effective_GBps": "minimal bytes (2 GiB: read x, write result) / time",
                  "compile_s": "wall seconds of the first compiled call (tracing + code generation + Triton build)"},
        "method": BENCH_METHOD + " warmup_ms=20, rep_ms=150, min_reps=10.",
        "results": {},
    })
    pairs = (
        ("sin(x)**2+cos(x)**2", sincos),
        ("gelu_manual_tanh", gelu_manual),
    )
    for name, f in pairs:
        res = fig["results"].setdefault(name, {})
        r = bench(lambda: f(x), warmup_ms=20, rep_ms=150, min_reps=10)
        res["eager"] = {"median_ms": rnd(r["median_ms"], 6), "effective_GBps": round(gbps(2 * 4 * n, r["median_ms"]), 1)}
        save()
        if dl.left() < 20:
            res["compiled"] = {"status": "skipped: section time budget"}
            continue
        try:
            cf = torch.compile(f, dynamic=False)
            COMPILED[name] = cf
            t = time.monotonic()
            y = cf(x)
            torch.cuda.synchronize()
            compile_s = time.monotonic() - t
            err = float((y - f(x)).abs().max())
            del y
            r = bench(lambda: cf(x), warmup_ms=20, rep_ms=150, min_reps=10)
            res["compiled"] = {"median_ms": rnd(r["median_ms"], 6),
                               "effective_GBps": round(gbps(2 * 4 * n, r["median_ms"]), 1),
                               "compile_s": round(compile_s, 1), "max_abs_diff_vs_eager": rnd(err, 3)}
            res["speedup"] = round(res["eager"]["median_ms"] / res["compiled"]["median_ms"], 2)
        except Exception as e:
            res["compiled"] = {"status": "failed", "error": repr(e)[:600]}
        log(f"compiled {name}: {res}")
        save()
    try:
        r = bench(lambda: torch.nn.functional.gelu(x, approximate="tanh"), warmup_ms=20, rep_ms=150, min_reps=10)
        fig["results"]["gelu_manual_tanh"]["F.gelu(approximate='tanh')"] = {
            "median_ms": rnd(r["median_ms"], 6), "effective_GBps": round(gbps(2 * 4 * n, r["median_ms"]), 1)}
    except Exception as e:
        fig["results"]["gelu_manual_tanh"]["F.gelu_error"] = repr(e)[:300]
    save()
    # Kernels launched per call, eager and compiled: one profiled call each. Done last in this
    # process, so that the profiler cannot disturb any timing above.
    try:
        from torch.profiler import ProfilerActivity, profile

        exprs = {
            "x*2": lambda: x * 2,
            "x*2+1": lambda: x * 2 + 1,
            "sin(x)**2+cos(x)**2": lambda: sincos(x),
            "gelu_manual_tanh": lambda: gelu_manual(x),
            "F.gelu(approximate='tanh')": lambda: torch.nn.functional.gelu(x, approximate="tanh"),
        }
        for name, f in pairs:
            comp = COMPILED.get(name)
            if comp is not None:
                exprs[f"compiled {name}"] = (lambda cf: (lambda: cf(x)))(comp)
        counts = {}
        for name, f in exprs.items():
            f()
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                f()
                torch.cuda.synchronize()
            counts[name] = sum(1 for ev in prof.events()
                               if getattr(ev, "device_type", None) == torch.autograd.DeviceType.CUDA)
        fig["cuda_kernels_per_call"] = counts
        fig["cuda_kernels_per_call_method"] = ("torch.profiler with the CUDA activity around one call after a "
                                               "warm call; device-side events counted")
    except Exception as e:
        fig["cuda_kernels_per_call_error"] = repr(e)[:300]
    del x


COMPILED = {}

SECTIONS = [
    # name, function, budget seconds (soft: loops stop when it runs out)
    ("provenance", section_provenance, 30),
    ("props", section_props, 10),
    ("matmul", section_matmul, 100),
    ("bandwidth", section_bandwidth, 40),
    ("attention", section_attention, 70),
    ("occupancy", section_occupancy, 60),
    ("coalescing", section_coalescing, 60),
    ("divergence", section_divergence, 30),
    ("compiled", section_compiled, 100),
]
CHILD_OVERHEAD_S = 45  # hard timeout = soft budget + this (imports, CUDA init, teardown)


def child_main(args):
    """Run one section in this process and write its part file."""
    global OUTDIR, FLUSH, DRV, SAVE_PATH
    OUTDIR = os.path.abspath(args.out)
    name = args.child
    SAVE_PATH = os.path.join(OUTDIR, f"_part_{name}.json")
    RESULT["compiler"] = COMPILER
    t = time.monotonic()
    try:
        import torch

        assert torch.cuda.is_available(), "no CUDA device"
        torch.zeros(1, device="cuda")
        torch.cuda.synchronize()
        try:
            DRV = Driver()
            if not DRV.context_ok():
                log("warning: no current CUDA context visible to the driver API")
        except Exception as e:  # only the custom-kernel sections need it
            DRV = None
            RESULT["errors"][f"{name}_driver_api"] = repr(e)[:300]
            log("driver API via ctypes unavailable:", repr(e)[:200])
        FLUSH = torch.empty(256 * 2 ** 20 // 4, device="cuda", dtype=torch.int32)
        fn = {n: f for n, f, _ in SECTIONS}[name]
        save()
        fn(Deadline(args.budget))
        RESULT["section_status"][name] = "ok"
    except Exception:
        tb = traceback.format_exc()
        RESULT["errors"][name] = tb[-4000:]
        RESULT["section_status"][name] = "error"
        log(f"!! {name} failed:\n{tb[-2500:]}")
    RESULT["section_seconds"][name] = round(time.monotonic() - t, 1)
    save()


def merge_part(name):
    path = os.path.join(OUTDIR, f"_part_{name}.json")
    if not os.path.exists(path):
        return False
    try:
        with open(path) as f:
            part = json.load(f)
    except Exception as e:
        RESULT["errors"][f"{name}_part_file"] = repr(e)[:300]
        return False
    RESULT["provenance"].update(part.get("provenance", {}))
    RESULT["device_properties"].update(part.get("device_properties", {}))
    RESULT["figures"].update(part.get("figures", {}))
    RESULT["errors"].update(part.get("errors", {}))
    RESULT["section_status"].update(part.get("section_status", {}))
    RESULT["section_seconds"].update(part.get("section_seconds", {}))
    comp = part.get("compiler", {})
    if comp.get("used") or comp.get("first_errors"):
        RESULT.setdefault("compiler", {})[name] = {"used": comp.get("used"), "first_errors": comp.get("first_errors")}
    return True


def parent_main(args):
    global OUTDIR, SAVE_PATH
    OUTDIR = os.path.abspath(args.out)
    os.makedirs(OUTDIR, exist_ok=True)
    SAVE_PATH = os.path.join(OUTDIR, "h200.json")
    RESULT["process_model"] = ("measure/run_all.py runs each section in its own Python process (same script, "
                               "--child NAME) under a hard timeout, then merges the sections' part files here; "
                               "a crash, hang or GPU fault in one section cannot spoil the others.")
    save()
    total_end = T0 + args.time_limit
    for name, _, budget in SECTIONS:
        if args.only and name not in args.only and name != "provenance":
            continue
        left = total_end - time.monotonic()
        b = min(budget * args.scale, left - CHILD_OVERHEAD_S)
        if b < 5:
            RESULT["section_status"][name] = "skipped: overall time limit"
            log(f"== {name}: skipped (time)")
            save()
            continue
        log(f"== {name} (soft budget {b:.0f}s, hard {b + CHILD_OVERHEAD_S:.0f}s)")
        cmd = [sys.executable, os.path.abspath(__file__), "--out", OUTDIR, "--child", name, "--budget", f"{b:.1f}"]
        status = None
        t = time.monotonic()
        try:
            rc = subprocess.run(cmd, timeout=b + CHILD_OVERHEAD_S).returncode
            if rc != 0:
                status = f"child process exited with code {rc}"
        except subprocess.TimeoutExpired:
            status = f"killed at the hard timeout ({b + CHILD_OVERHEAD_S:.0f}s)"
        except Exception as e:
            status = f"could not run child: {e!r}"[:300]
        merged = merge_part(name)
        if status:
            prev = RESULT["section_status"].get(name)
            RESULT["section_status"][name] = status + (f" (part file said: {prev})" if prev else "")
        elif not merged:
            RESULT["section_status"][name] = "no part file written"
        RESULT.setdefault("section_wall_seconds", {})[name] = round(time.monotonic() - t, 1)
        save()
    for f in os.listdir(OUTDIR):
        if f.startswith("_part_"):
            os.remove(os.path.join(OUTDIR, f))
    RESULT["provenance"]["total_seconds"] = round(time.monotonic() - T0, 1)
    save()
    log("done:", json.dumps(RESULT["section_status"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--only", nargs="*", default=None, help="run only these sections (provenance always runs)")
    ap.add_argument("--time-limit", type=float, default=540.0, help="overall seconds; sections shrink to fit")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every section's soft budget")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--budget", type=float, default=60.0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child_main(args)
    else:
        parent_main(args)


if __name__ == "__main__":
    main()
