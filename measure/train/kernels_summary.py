#!/usr/bin/env python3
"""Summarise which kernels cuBLAS ran for the training steps' matmuls (section gemmkernels of
run_train.py, assets/measured/h200-train-gemmkernels.csv) beside their timings (sections gemm and
gemmtf32): per precision and product, the kernel families, how many products were split along k
(a grid with z > 1, or a reduction kernel after the GEMM), and the median TFLOP/s of each family.
Prints Markdown; docs/measurements/2026-12-03-gemm-kernels.md holds its output as printed.

    python3 measure/train/kernels_summary.py [assets/measured]
"""
import csv
import os
import re
import statistics
import sys
from collections import defaultdict

HERE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "assets", "measured")


def rows(name):
    with open(os.path.join(HERE, f"h200-train-{name}.csv")) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def family(kernel):
    """The kernel's family: its generation and kind, without tile sizes and stages."""
    if kernel.startswith("nvjet_sm90"):
        return "nvjet_sm90 (Hopper, bf16)"
    m = re.match(r"(sm\d+)_xmma_gemm_\w+?_(tf32f32|f32f32)_f32_(\w\w)_", kernel)
    if m:
        kind = "tensor cores, TF32" if m.group(2) == "tf32f32" else "CUDA cores, FFMA"
        return f"{m.group(1)}_xmma {m.group(3)} ({kind})"
    m = re.search(r"cutlass_(\d+)_(simt|tensorop)_", kernel)
    if m:
        kind = "CUDA cores" if m.group(2) == "simt" else "tensor cores"
        return f"cutlass sm{m.group(1)} {m.group(2)} ({kind})"
    return kernel[:40]


def split(r):
    z = r["grid"].split("x")
    return (len(z) == 3 and int(z[2]) > 1) or "splitKreduce" in r["others"]


def main():
    kernels = rows("gemmkernels")
    timed = {}
    for name in ("gemm", "gemmtf32"):
        for r in rows(name):
            timed[(r["precision"], r["size"], r["op"], r["pass"], r["m"], r["n"], r["k"])] = float(r["tflops"])
    table = defaultdict(list)
    splits = defaultdict(lambda: [0, 0])
    for r in kernels:
        key = (r["precision"], r["size"], r["op"], r["pass"], r["m"], r["n"], r["k"])
        table[(r["precision"], r["pass"], family(r["main"]))].append(timed.get(key))
        s = splits[(r["precision"], r["pass"])]
        s[0] += 1
        s[1] += split(r)
    names = {"fwd": "x @ Wᵀ", "dx": "dY @ W", "dw": "dYᵀ @ X"}
    print("| precision | product | kernel family (the longest kernel) | products | median TFLOP/s |")
    print("| --- | --- | --- | --- | --- |")
    for (p, ps, fam), ts in sorted(table.items(), key=lambda kv: (["fp32", "tf32", "bf16"].index(kv[0][0]), ["fwd", "dx", "dw"].index(kv[0][1]), -len(kv[1]))):
        got = [t for t in ts if t is not None]
        med = f"{statistics.median(got):.0f}" if got else "—"
        print(f"| {p} | {names[ps]} | {fam} | {len(ts)} | {med} |")
    print()
    print("| precision | product | split along k (grid z > 1 or a reduction kernel) |")
    print("| --- | --- | --- |")
    for (p, ps), (n, s) in sorted(splits.items(), key=lambda kv: (["fp32", "tf32", "bf16"].index(kv[0][0]), ["fwd", "dx", "dw"].index(kv[0][1]))):
        print(f"| {p} | {names[ps]} | {s} of {n} |")


if __name__ == "__main__":
    main()
