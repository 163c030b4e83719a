#!/usr/bin/env python3
"""Warpscope LLM lens: decode and prefill of LLaMA-layout (and GPT-2-layout) decoders on one GPU.

    python3 measure/llm/run_llm.py --out DIR [--time-limit SECONDS] [--only SECTION ...]

Random bf16 weights (timing does not depend on the values), written here as plain
torch ops (no Hugging Face code): embedding, per layer RMSNorm -> fused QKV ->
RoPE -> KV-cache write -> scaled_dot_product_attention -> O projection ->
residual add -> RMSNorm -> fused gate/up -> SiLU(gate)*up -> down -> residual
add; then final RMSNorm and the LM head (last token only in prefill). GPT-2
presets use LayerNorm, biases, learned positions, GELU(tanh) and a tied head.

Writes into DIR (rewritten after every point, so a kill loses only the point in flight):
    h200-llm.json           provenance, method, every section's rows
    h200-llm-decode.csv     decode steps: model, batch, ctx, graphs, ms, ...
    h200-llm-prefill.csv    prefill: model, batch, seq, graphs, ms, ...
    h200-llm-gemm.csv       skinny GEMM calibration: m, n, k, us, GBps, TFLOPs
    h200-llm-sdpa.csv       attention calibration: decode and causal prefill
    h200-llm-launch.csv     launch cost: tiny kernels and tiny layers, eager vs CUDA graph
    h200-llm-elementwise.csv norms, SiLU*mul, residual add, RoPE at decode/prefill sizes
"""
import argparse
import datetime
import hashlib
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
import traceback

T0 = time.monotonic()
SCRIPT = "measure/llm/run_llm.py"

# Published configs (Hugging Face config.json of each model):
# gpt2*: n_layer/n_embd/n_head, n_inner = 4*n_embd, vocab 50257 (openai-community/gpt2*)
# llama-7b/13b: meta-llama/Llama-2-7b-hf, Llama-2-13b-hf (same shapes as LLaMA-1)
# llama3-8b/70b: meta-llama/Meta-Llama-3-8B, -70B; mistral-7b: mistralai/Mistral-7B-v0.1
MODELS = {
    "gpt2": dict(arch="gpt2", layers=12, d=768, heads=12, kv=12, ffn=3072, vocab=50257),
    "gpt2-medium": dict(arch="gpt2", layers=24, d=1024, heads=16, kv=16, ffn=4096, vocab=50257),
    "gpt2-large": dict(arch="gpt2", layers=36, d=1280, heads=20, kv=20, ffn=5120, vocab=50257),
    "gpt2-xl": dict(arch="gpt2", layers=48, d=1600, heads=25, kv=25, ffn=6400, vocab=50257),
    "llama-7b": dict(arch="llama", layers=32, d=4096, heads=32, kv=32, ffn=11008, vocab=32000),
    "llama-13b": dict(arch="llama", layers=40, d=5120, heads=40, kv=40, ffn=13824, vocab=32000),
    "llama3-8b": dict(arch="llama", layers=32, d=4096, heads=32, kv=8, ffn=14336, vocab=128256),
    "llama3-70b": dict(arch="llama", layers=80, d=8192, heads=64, kv=8, ffn=28672, vocab=128256),
    "mistral-7b": dict(arch="llama", layers=32, d=4096, heads=32, kv=8, ffn=14336, vocab=32000),
}

# (model, batch, ctx). Chosen so weights + KV cache fit in 141 GB; llama3-70b (141 GB of bf16
# weights alone) does not fit on one GPU and is predicted only.
DECODE_GRID = (
    [("llama3-8b", b, c) for b in (1, 4, 16, 64, 256) for c in (128, 1024, 4096, 8192)]
    + [("llama-7b", b, c) for b in (1, 8, 32, 128) for c in (128, 2048, 8192)]
    + [("llama-13b", b, c) for b in (1, 16, 64) for c in (512, 4096)]
    + [("mistral-7b", b, c) for b in (1, 32, 128) for c in (1024, 8192)]
    + [("gpt2", b, c) for b in (1, 64) for c in (1024,)]
    + [("gpt2-medium", 8, 512)]
    + [("gpt2-large", 8, 512)]
    + [("gpt2-xl", b, c) for b in (1, 64) for c in (1024,)]
)
PREFILL_GRID = (
    [("llama3-8b", 1, s) for s in (512, 1024, 2048)]
    + [("llama3-8b", 4, 2048)]
    + [("llama-7b", 1, s) for s in (512, 1024, 2048)]
    + [("llama-13b", 1, s) for s in (512, 2048)]
    + [("mistral-7b", 1, s) for s in (1024,)]
    + [("gpt2-xl", 1, s) for s in (512, 1024)]
    + [("gpt2", 1, 1024)]
)

RESULT = {
    "schema": "warpscope-measured-llm/1",
    "gpu_code": "h200",
    "provenance": {},
    "models": MODELS,
    "method": {},
    "sections": {},
    "errors": {},
    "section_seconds": {},
}
OUT = None
ROWS = {}
CSV_COLS = {
    "decode": ["model", "batch", "ctx", "graphs", "ms", "min_ms", "p90_ms", "reps", "kernels", "weight_bytes", "kv_bytes"],
    "prefill": ["model", "batch", "seq", "graphs", "ms", "min_ms", "p90_ms", "reps", "kernels", "weight_bytes", "kv_bytes"],
    "gemm": ["m", "n", "k", "us", "GBps", "TFLOPs", "copies", "replays"],
    "sdpa": ["kind", "batch", "heads", "kvheads", "hd", "q", "kv", "us", "GBps", "TFLOPs", "copies", "backend"],
    "launch": ["what", "mode", "kernels", "us_total", "us_per_kernel", "reps"],
    "elementwise": ["op", "m", "n", "us", "GBps", "copies"],
}


def log(*a):
    print(f"[{time.monotonic() - T0:7.1f}s]", *a, flush=True)


def rnd(x, sig=5):
    if x is None:
        return None
    x = float(x)
    if not math.isfinite(x):
        return None
    return float(f"{x:.{sig}g}")


def save():
    if OUT is None:
        return
    RESULT["elapsed_s"] = round(time.monotonic() - T0, 1)
    with open(os.path.join(OUT, "h200-llm.json.tmp"), "w") as f:
        json.dump(RESULT, f, indent=1)
    os.replace(os.path.join(OUT, "h200-llm.json.tmp"), os.path.join(OUT, "h200-llm.json"))
    date = RESULT["provenance"].get("date_utc", "")[:10]
    dev = RESULT["provenance"].get("device_name", "")
    for name, rows in ROWS.items():
        cols = CSV_COLS[name]
        p = os.path.join(OUT, f"h200-llm-{name}.csv")
        with open(p + ".tmp", "w") as f:
            f.write(f"# date,{date}\n# device,{dev}\n")
            f.write(f"# Written by {SCRIPT} (section {name}); method and provenance in h200-llm.json\n")
            f.write(",".join(cols) + "\n")
            for r in rows:
                f.write(",".join("" if r.get(c) is None else str(r.get(c)) for c in cols) + "\n")
        os.replace(p + ".tmp", p)


def add_row(section, row):
    ROWS.setdefault(section, []).append(row)
    RESULT["sections"].setdefault(section, {}).setdefault("rows", []).append(row)
    save()


def over_budget(deadline):
    return time.monotonic() > deadline


# --------------------------------------------------------------------------- timing


def time_events(fn, warm=3, reps=10):
    """Median of per-call CUDA-event timings (ms); fn is a Python callable (eager or graph replay)."""
    import torch

    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    st = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    en = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        st[i].record()
        fn()
        en[i].record()
    torch.cuda.synchronize()
    ts = sorted(a.elapsed_time(b) for a, b in zip(st, en))
    return {
        "ms": statistics.median(ts),
        "min_ms": ts[0],
        "p90_ms": ts[min(len(ts) - 1, int(0.9 * (len(ts) - 1) + 0.5))],
        "reps": reps,
    }


def capture(fn):
    """Capture fn() as a CUDA graph (after warm-up on a side stream, as PyTorch documents)."""
    import torch

    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(2):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    torch.cuda.synchronize()
    return g


def count_kernels(fn):
    """CUDA kernels (and memcpy/memset) launched by one eager call, by torch.profiler."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    n = 0
    for ev in prof.events():
        dt = str(getattr(ev, "device_type", ""))
        if "CUDA" in dt:
            n += 1
    return n


# --------------------------------------------------------------------------- the decoder


class Decoder:
    def __init__(self, name, cfg, dtype):
        import torch

        self.name, self.cfg = name, cfg
        d, H, Hkv, F, V = cfg["d"], cfg["heads"], cfg["kv"], cfg["ffn"], cfg["vocab"]
        hd = d // H
        self.hd, self.g = hd, H // Hkv
        dev = "cuda"

        def w(*shape):
            return torch.empty(*shape, device=dev, dtype=dtype).normal_(0.0, 0.02)

        self.gpt2 = cfg["arch"] == "gpt2"
        self.emb = w(V, d)
        self.head = self.emb if self.gpt2 else w(V, d)
        self.pos = w(2048, d) if self.gpt2 else None
        self.layers = []
        for _ in range(cfg["layers"]):
            L = {
                "n1": torch.ones(d, device=dev, dtype=dtype),
                "n2": torch.ones(d, device=dev, dtype=dtype),
                "qkv": w((H + 2 * Hkv) * hd, d),
                "o": w(d, H * hd),
            }
            if self.gpt2:
                L.update(
                    n1b=torch.zeros(d, device=dev, dtype=dtype),
                    n2b=torch.zeros(d, device=dev, dtype=dtype),
                    qkvb=w((H + 2 * Hkv) * hd),
                    ob=w(d),
                    up=w(F, d),
                    upb=w(F),
                    down=w(d, F),
                    downb=w(d),
                )
            else:
                L.update(gu=w(2 * F, d), down=w(d, F))
            self.layers.append(L)
        self.nf = torch.ones(d, device=dev, dtype=dtype)
        self.nfb = torch.zeros(d, device=dev, dtype=dtype)
        self.weight_bytes = sum(t.numel() * t.element_size() for L in self.layers for t in L.values())
        self.weight_bytes += self.emb.numel() * self.emb.element_size() * (1 if self.gpt2 else 2)
        self.weight_bytes += 2 * d * 2
        if self.pos is not None:
            self.weight_bytes += self.pos.numel() * self.pos.element_size()
        self.cache = None

    def alloc_cache(self, B, T):
        import torch

        Hkv, hd = self.cfg["kv"], self.hd
        self.cache = None
        torch.cuda.empty_cache()
        self.cache = [
            (
                torch.empty(B, Hkv, T, hd, device="cuda", dtype=torch.bfloat16).normal_(),
                torch.empty(B, Hkv, T, hd, device="cuda", dtype=torch.bfloat16).normal_(),
            )
            for _ in self.layers
        ]
        return 2 * len(self.layers) * B * Hkv * T * hd * 2

    def rope_tables(self, positions):
        import torch

        hd = self.hd
        inv = 1.0 / (10000.0 ** (torch.arange(0, hd, 2, device="cuda", dtype=torch.float32) / hd))
        f = torch.outer(positions.float(), inv)
        emb = torch.cat([f, f], dim=-1)
        return emb.cos().to(torch.bfloat16), emb.sin().to(torch.bfloat16)

    @staticmethod
    def rope(x, cos, sin):
        import torch

        h = x.shape[-1] // 2
        rot = torch.cat([-x[..., h:], x[..., :h]], dim=-1)
        return x * cos + rot * sin

    def norm(self, x, w, b):
        import torch.nn.functional as Fn

        if self.gpt2:
            return Fn.layer_norm(x, (x.shape[-1],), w, b, 1e-5)
        return Fn.rms_norm(x, (x.shape[-1],), w, 1e-5)

    def forward(self, ids, start, prefill, rope_cs, pos_ids=None):
        """ids [B,S]; writes K,V at cache positions start..start+S-1; returns logits of the last token."""
        import torch
        import torch.nn.functional as Fn

        cfg = self.cfg
        H, Hkv, hd, g = cfg["heads"], cfg["kv"], self.hd, self.g
        B, S = ids.shape
        x = Fn.embedding(ids, self.emb)
        if self.gpt2:
            x = x + Fn.embedding(pos_ids, self.pos)
        for L, (kc, vc) in zip(self.layers, self.cache):
            h = self.norm(x, L["n1"], L.get("n1b"))
            qkv = Fn.linear(h, L["qkv"], L.get("qkvb"))
            q = qkv[..., : H * hd].view(B, S, H, hd)
            k = qkv[..., H * hd : (H + Hkv) * hd].view(B, S, Hkv, hd)
            v = qkv[..., (H + Hkv) * hd :].view(B, S, Hkv, hd)
            if not self.gpt2:
                cos, sin = rope_cs
                q = self.rope(q, cos, sin)
                k = self.rope(k, cos, sin)
            kc[:, :, start : start + S] = k.transpose(1, 2)
            vc[:, :, start : start + S] = v.transpose(1, 2)
            if prefill:
                qh = q.transpose(1, 2)
                kk, vv = kc[:, :, : start + S], vc[:, :, : start + S]
                if g > 1:
                    a = Fn.scaled_dot_product_attention(qh, kk, vv, is_causal=True, enable_gqa=True)
                else:
                    a = Fn.scaled_dot_product_attention(qh, kk, vv, is_causal=True)
                a = a.transpose(1, 2).reshape(B, S, H * hd)
            else:
                # decode (S == 1): the g query heads that share a KV head become g query rows of it
                qh = q.reshape(B, Hkv, g, hd)
                a = Fn.scaled_dot_product_attention(qh, kc, vc)
                a = a.reshape(B, 1, H * hd)
            x = x + Fn.linear(a, L["o"], L.get("ob"))
            h = self.norm(x, L["n2"], L.get("n2b"))
            if self.gpt2:
                u = Fn.gelu(Fn.linear(h, L["up"], L["upb"]), approximate="tanh")
                x = x + Fn.linear(u, L["down"], L["downb"])
            else:
                gu = Fn.linear(h, L["gu"])
                gt, up = gu.chunk(2, dim=-1)
                x = x + Fn.linear(Fn.silu(gt) * up, L["down"])
        x = self.norm(x[:, -1:], self.nf, self.nfb if self.gpt2 else None)
        return Fn.linear(x, self.head)


def free_all():
    import gc

    import torch

    gc.collect()
    torch.cuda.empty_cache()


def gpu_mem_ok(nbytes):
    import torch

    free, total = torch.cuda.mem_get_info()
    return nbytes < free - 6e9


def run_model_points(kind, grid, deadline):
    import torch

    by_model = {}
    for m, b, n in grid:
        by_model.setdefault(m, []).append((b, n))
    for name, pts in by_model.items():
        if over_budget(deadline):
            log(kind, "out of time before", name)
            RESULT["sections"][kind]["skipped_for_time"] = True
            break
        cfg = MODELS[name]
        try:
            dec = Decoder(name, cfg, torch.bfloat16)
        except Exception as e:  # noqa
            RESULT["errors"][f"{kind}:{name}"] = traceback.format_exc()
            free_all()
            continue
        counted = set()
        for b, n in pts:
            if over_budget(deadline):
                break
            try:
                if kind == "decode":
                    T, start, S = n + 1, n, 1
                else:
                    T, start, S = n, 0, n
                kvb = 2 * cfg["layers"] * b * cfg["kv"] * T * dec.hd * 2
                if not gpu_mem_ok(kvb + (b * S * (cfg["ffn"] * 6 + cfg["d"] * 8) * 2 if kind == "prefill" else 0)):
                    add_row(kind, dict(model=name, batch=b, **({"ctx": n} if kind == "decode" else {"seq": n}), graphs=-1, ms=None, note="does not fit"))
                    continue
                dec.alloc_cache(b, T)
                ids = torch.randint(0, cfg["vocab"], (b, S), device="cuda")
                positions = torch.arange(start, start + S, device="cuda")
                pos_ids = positions.clamp(max=2047).expand(b, S).contiguous()
                cs = dec.rope_tables(positions)
                cs = (cs[0].view(1, S, 1, dec.hd), cs[1].view(1, S, 1, dec.hd))
                step = lambda: dec.forward(ids, start, kind == "prefill", cs, pos_ids)
                kern = None
                if (b, n) == pts[0] or kind == "prefill":
                    try:
                        kern = count_kernels(step)
                    except Exception:
                        RESULT["errors"][f"{kind}:{name}:profiler"] = traceback.format_exc()
                key = {"ctx": n} if kind == "decode" else {"seq": n}
                reps = 10 if kind == "decode" else 6
                with torch.inference_mode():
                    te = time_events(step, warm=3, reps=reps)
                    add_row(kind, dict(model=name, batch=b, **key, graphs=0, ms=rnd(te["ms"]), min_ms=rnd(te["min_ms"]), p90_ms=rnd(te["p90_ms"]), reps=te["reps"], kernels=kern, weight_bytes=dec.weight_bytes, kv_bytes=kvb))
                    gr = capture(step)
                    tg = time_events(gr.replay, warm=3, reps=reps)
                    add_row(kind, dict(model=name, batch=b, **key, graphs=1, ms=rnd(tg["ms"]), min_ms=rnd(tg["min_ms"]), p90_ms=rnd(tg["p90_ms"]), reps=tg["reps"], kernels=kern, weight_bytes=dec.weight_bytes, kv_bytes=kvb))
                    del gr
                log(kind, name, b, n, "eager", round(te["ms"], 3), "graph", round(tg["ms"], 3), "kernels", kern)
            except Exception:
                RESULT["errors"][f"{kind}:{name}:{b}:{n}"] = traceback.format_exc()
                log("error", kind, name, b, n, traceback.format_exc().splitlines()[-1])
            finally:
                dec.cache = None
                free_all()
        del dec
        free_all()


# --------------------------------------------------------------------------- calibration


GEMM_SHAPES = [  # (n, k): the decoders' projections
    (768, 768), (2304, 768), (3072, 768), (768, 3072), (50257, 768),
    (1600, 1600), (4800, 1600), (6400, 1600), (1600, 6400),
    (4096, 4096), (6144, 4096), (12288, 4096), (22016, 4096), (4096, 11008), (28672, 4096), (4096, 14336),
    (32000, 4096), (128256, 4096),
    (5120, 5120), (15360, 5120), (27648, 5120), (5120, 13824),
    (8192, 8192), (10240, 8192), (57344, 8192), (8192, 28672),
]
GEMM_M = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]


def section_gemm(deadline):
    import torch

    RESULT["method"]["gemm"] = (
        "y[M,N] = x[M,K] @ W[N,K]^T (torch.mm into a preallocated output), bf16. R copies of W (R = ceil(600 MB / W bytes), "
        "1..48) are multiplied in turn inside one CUDA graph, so each GEMM reads its weights from HBM (total far past the "
        "60 MB L2, no reuse) and no host launch is timed; us = graph replay time / R (median of replays). "
        "GBps counts W + x + y bytes once; TFLOPs = 2MNK."
    )
    for n, k in GEMM_SHAPES:
        wb = n * k * 2
        R = max(1, min(48, math.ceil(600e6 / wb)))
        try:
            Ws = [torch.empty(n, k, device="cuda", dtype=torch.bfloat16).normal_() for _ in range(R)]
        except Exception:
            RESULT["errors"][f"gemm:{n}x{k}"] = traceback.format_exc()
            continue
        for m in GEMM_M:
            if over_budget(deadline):
                RESULT["sections"].setdefault("gemm", {})["skipped_for_time"] = True
                return
            flops = 2.0 * m * n * k
            Rm = max(1, min(R, int(math.ceil(R * min(1.0, 2e12 / (flops * R))))))
            try:
                x = torch.empty(m, k, device="cuda", dtype=torch.bfloat16).normal_()
                y = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)

                def body():
                    for i in range(Rm):
                        torch.mm(x, Ws[i].t(), out=y)

                g = capture(body)
                replays = 5
                t = time_events(g.replay, warm=2, reps=replays)
                us = t["ms"] * 1e3 / Rm
                byts = wb + m * k * 2 + m * n * 2
                add_row("gemm", dict(m=m, n=n, k=k, us=rnd(us), GBps=rnd(byts / (us * 1e-6) / 1e9), TFLOPs=rnd(flops / (us * 1e-6) / 1e12), copies=Rm, replays=replays))
                del g, x, y
            except Exception:
                RESULT["errors"][f"gemm:{m}x{n}x{k}"] = traceback.format_exc()
        log("gemm", n, k, "done")
        del Ws
        free_all()


def section_sdpa(deadline):
    import torch
    import torch.nn.functional as Fn

    RESULT["method"]["sdpa"] = (
        "F.scaled_dot_product_attention (default backend choice), bf16. decode: q [B,Hkv,g,hd] (the g query heads of one KV "
        "head as g rows), K and V [B,Hkv,kv,hd], no mask; R copies of the cache (R = ceil(600 MB / KV bytes), 1..32) in turn "
        "inside one CUDA graph, us = replay time / R. prefill: causal, q = kv = S, enable_gqa when heads > kvheads, one call "
        "per graph. GBps counts K+V+Q+O bytes; TFLOPs counts 4*B*H*q*kv*hd (halved for causal)."
    )
    pts = []
    for hd, H, Hkv in ((128, 32, 8), (128, 32, 32), (128, 40, 40), (64, 25, 25), (64, 12, 12)):
        for B in (1, 8, 32, 128):
            for kv in (128, 512, 2048, 8192):
                pts.append(("decode", B, H, Hkv, hd, 1, kv))
    for hd, H, Hkv in ((128, 32, 8), (128, 32, 32), (128, 40, 40), (64, 25, 25), (64, 12, 12)):
        for S in (512, 1024, 2048, 4096):
            pts.append(("prefill", 1, H, Hkv, hd, S, S))
    pts.append(("prefill", 4, 32, 8, 128, 2048, 2048))
    for kind, B, H, Hkv, hd, q, kv in pts:
        if over_budget(deadline):
            RESULT["sections"].setdefault("sdpa", {})["skipped_for_time"] = True
            return
        g = H // Hkv
        kvbytes = 2 * B * Hkv * kv * hd * 2
        if kvbytes > 40e9:
            continue
        try:
            if kind == "decode":
                R = max(1, min(32, math.ceil(600e6 / kvbytes)))
                Q = torch.empty(B, Hkv, g, hd, device="cuda", dtype=torch.bfloat16).normal_()
                Ks = [torch.empty(B, Hkv, kv, hd, device="cuda", dtype=torch.bfloat16).normal_() for _ in range(R)]
                Vs = [torch.empty(B, Hkv, kv, hd, device="cuda", dtype=torch.bfloat16).normal_() for _ in range(R)]

                def body():
                    for i in range(R):
                        Fn.scaled_dot_product_attention(Q, Ks[i], Vs[i])

                flops = 4.0 * B * H * kv * hd
            else:
                R = 1
                Q = torch.empty(B, H, q, hd, device="cuda", dtype=torch.bfloat16).normal_()
                Ks = [torch.empty(B, Hkv, kv, hd, device="cuda", dtype=torch.bfloat16).normal_()]
                Vs = [torch.empty(B, Hkv, kv, hd, device="cuda", dtype=torch.bfloat16).normal_()]

                def body():
                    Fn.scaled_dot_product_attention(Q, Ks[0], Vs[0], is_causal=True, enable_gqa=(g > 1))

                flops = 2.0 * B * H * q * kv * hd
            gr = capture(body)
            t = time_events(gr.replay, warm=2, reps=6)
            us = t["ms"] * 1e3 / R
            byts = kvbytes + 2 * B * H * q * hd * 2
            add_row("sdpa", dict(kind=kind, batch=B, heads=H, kvheads=Hkv, hd=hd, q=q, kv=kv, us=rnd(us), GBps=rnd(byts / (us * 1e-6) / 1e9), TFLOPs=rnd(flops / (us * 1e-6) / 1e12), copies=R, backend="default"))
            del gr, Q, Ks, Vs
        except Exception:
            RESULT["errors"][f"sdpa:{kind}:{B}:{H}:{Hkv}:{hd}:{q}:{kv}"] = traceback.format_exc()
            log("sdpa error", kind, B, H, Hkv, hd, q, kv, traceback.format_exc().splitlines()[-1])
        free_all()
    log("sdpa done")


def section_launch(deadline):
    import torch

    RESULT["method"]["launch"] = (
        "Launch cost without work: N tiny kernels (x.add_(1) on one element), launched eagerly from Python or replayed as "
        "one CUDA graph; and a whole tiny decoder layer (each preset's layout: d 64, 2 heads, FFN 128, KV 16, batch 1) "
        "run eagerly or as a graph, with its kernel count from torch.profiler. us_per_kernel = total / kernels."
    )
    x = torch.zeros(1, device="cuda")
    N = 2000

    def many():
        for _ in range(N):
            x.add_(1)

    te = time_events(many, warm=2, reps=5)
    add_row("launch", dict(what="add_1elem", mode="eager", kernels=N, us_total=rnd(te["ms"] * 1e3), us_per_kernel=rnd(te["ms"] * 1e3 / N), reps=5))
    g = capture(many)
    tg = time_events(g.replay, warm=2, reps=5)
    add_row("launch", dict(what="add_1elem", mode="graph", kernels=N, us_total=rnd(tg["ms"] * 1e3), us_per_kernel=rnd(tg["ms"] * 1e3 / N), reps=5))
    del g
    for arch, kvh in (("llama", 2), ("llama", 1), ("gpt2", 2)):
        cfg = dict(arch=arch, layers=32, d=64, heads=2, kv=kvh, ffn=128, vocab=256)
        dec = Decoder("tiny", cfg, torch.bfloat16)
        dec.alloc_cache(1, 17)
        ids = torch.randint(0, 256, (1, 1), device="cuda")
        positions = torch.arange(16, 17, device="cuda")
        cs = dec.rope_tables(positions)
        cs = (cs[0].view(1, 1, 1, dec.hd), cs[1].view(1, 1, 1, dec.hd))
        pos_ids = positions.view(1, 1)
        step = lambda: dec.forward(ids, 16, False, cs, pos_ids)
        with torch.inference_mode():
            kern = count_kernels(step)
            te = time_events(step, warm=3, reps=10)
            g = capture(step)
            tg = time_events(g.replay, warm=3, reps=10)
        what = f"tiny_{arch}_32layers_g{2 // kvh}"
        add_row("launch", dict(what=what, mode="eager", kernels=kern, us_total=rnd(te["ms"] * 1e3), us_per_kernel=rnd(te["ms"] * 1e3 / max(1, kern or 1)), reps=10))
        add_row("launch", dict(what=what, mode="graph", kernels=kern, us_total=rnd(tg["ms"] * 1e3), us_per_kernel=rnd(tg["ms"] * 1e3 / max(1, kern or 1)), reps=10))
        log("launch", what, kern, te["ms"], tg["ms"])
        del g, dec
        free_all()


def section_elementwise(deadline):
    import torch
    import torch.nn.functional as Fn

    RESULT["method"]["elementwise"] = (
        "The unfused elementwise ops of a layer at decode and prefill sizes, bf16, each in a CUDA graph over R copies of "
        "its inputs (R = ceil(600 MB / bytes), 1..64), us = replay time / R; GBps counts inputs read + output written."
    )
    for m in (1, 16, 64, 256, 1024, 4096, 16384):
        for op, n in (("rms_norm", 4096), ("layer_norm", 1600), ("silu_mul", 14336), ("gelu", 6400), ("add", 4096), ("rope", 4096)):
            if over_budget(deadline):
                return
            try:
                nbytes = {"rms_norm": 2, "layer_norm": 2, "silu_mul": 3, "gelu": 2, "add": 3, "rope": 3}[op] * m * n * 2
                R = max(1, min(64, math.ceil(600e6 / nbytes)))
                A = [torch.empty(m, 2 * n if op == "silu_mul" else n, device="cuda", dtype=torch.bfloat16).normal_() for _ in range(R)]
                Bv = [torch.empty(m, n, device="cuda", dtype=torch.bfloat16).normal_() for _ in range(R)] if op == "add" else None
                w = torch.ones(n, device="cuda", dtype=torch.bfloat16)
                b = torch.zeros(n, device="cuda", dtype=torch.bfloat16)
                cos = torch.empty(1, n, device="cuda", dtype=torch.bfloat16).normal_()
                sin = torch.empty(1, n, device="cuda", dtype=torch.bfloat16).normal_()

                def one(i):
                    a = A[i]
                    if op == "rms_norm":
                        return Fn.rms_norm(a, (n,), w, 1e-5)
                    if op == "layer_norm":
                        return Fn.layer_norm(a, (n,), w, b, 1e-5)
                    if op == "silu_mul":
                        gt, up = a.chunk(2, dim=-1)
                        return Fn.silu(gt) * up
                    if op == "gelu":
                        return Fn.gelu(a, approximate="tanh")
                    if op == "add":
                        return a + Bv[i]
                    return Decoder.rope(a.view(m, n // 128, 128), cos.view(1, n // 128, 128), sin.view(1, n // 128, 128))

                def body():
                    for i in range(R):
                        one(i)

                kern = count_kernels(lambda: one(0))
                gr = capture(body)
                t = time_events(gr.replay, warm=2, reps=5)
                us = t["ms"] * 1e3 / R
                add_row("elementwise", dict(op=op, m=m, n=n, us=rnd(us), GBps=rnd(nbytes / (us * 1e-6) / 1e9), copies=R, kernels=kern))
                del gr, A, Bv
            except Exception:
                RESULT["errors"][f"elementwise:{op}:{m}"] = traceback.format_exc()
            free_all()
    log("elementwise done")


CSV_COLS["elementwise"].append("kernels")


def section_eager_repeat(deadline):
    """Host-speed check for eager decode: the same steps timed in rounds, unpinned and pinned to one CPU core."""
    import torch

    RESULT["method"]["eager_repeat"] = (
        "Eager decode steps (as in the decode section) timed in alternating rounds of 10 calls: the Python process "
        "unpinned, then pinned to one CPU core (os.sched_setaffinity), 4 rounds each; one row per round (median of the round)."
    )
    allcpu = os.sched_getaffinity(0)
    one = {sorted(allcpu)[len(allcpu) // 2]}
    for name, pts in (("llama3-8b", [(1, 128), (16, 4096), (64, 1024)]), ("llama-7b", [(1, 128), (8, 2048)]), ("gpt2-xl", [(1, 1024)])):
        if over_budget(deadline):
            return
        cfg = MODELS[name]
        dec = Decoder(name, cfg, torch.bfloat16)
        for b, n in pts:
            dec.alloc_cache(b, n + 1)
            ids = torch.randint(0, cfg["vocab"], (b, 1), device="cuda")
            positions = torch.arange(n, n + 1, device="cuda")
            pos_ids = positions.clamp(max=2047).expand(b, 1).contiguous()
            cs = dec.rope_tables(positions)
            cs = (cs[0].view(1, 1, 1, dec.hd), cs[1].view(1, 1, 1, dec.hd))
            step = lambda: dec.forward(ids, n, False, cs, pos_ids)
            with torch.inference_mode():
                for rnd_i in range(8):
                    pinned = rnd_i % 2 == 1
                    os.sched_setaffinity(0, one if pinned else allcpu)
                    t = time_events(step, warm=2, reps=10)
                    add_row("eager_repeat", dict(model=name, batch=b, ctx=n, round=rnd_i, pinned=int(pinned), ms=rnd(t["ms"]), min_ms=rnd(t["min_ms"]), p90_ms=rnd(t["p90_ms"])))
                os.sched_setaffinity(0, allcpu)
            log("eager_repeat", name, b, n, [r["ms"] for r in ROWS["eager_repeat"][-8:]])
            dec.cache = None
            free_all()
        del dec
        free_all()


CSV_COLS["eager_repeat"] = ["model", "batch", "ctx", "round", "pinned", "ms", "min_ms", "p90_ms"]


def section_provenance():
    import torch

    p = RESULT["provenance"]
    p["date_utc"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    p["device_name"] = torch.cuda.get_device_name(0)
    props = torch.cuda.get_device_properties(0)
    p["sm_count"] = props.multi_processor_count
    p["total_memory_bytes"] = props.total_memory
    p["torch"] = torch.__version__
    p["torch_cuda_runtime"] = torch.version.cuda
    p["cudnn"] = torch.backends.cudnn.version()
    p["python"] = platform.python_version()
    p["os"] = f"{platform.system()} {platform.release()}"
    p["script"] = SCRIPT
    p["command"] = " ".join(["python3", SCRIPT] + sys.argv[1:])
    with open(os.path.abspath(__file__), "rb") as f:
        p["script_sha256"] = hashlib.sha256(f.read()).hexdigest()
    p["hostname"] = "omitted on purpose"
    try:
        q = "driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode,temperature.gpu"
        out = subprocess.run(["nvidia-smi", f"--query-gpu={q}", "--format=csv,noheader"], capture_output=True, text=True, timeout=20).stdout.strip()
        p["nvidia_smi_at_start"] = dict(zip(q.split(","), [s.strip() for s in out.split(",")]))
        p["driver_version"] = p["nvidia_smi_at_start"].get("driver_version")
    except Exception:
        p["nvidia_smi_at_start"] = "unavailable"
    p["method_notes"] = [
        "All rows come from one run of measure/llm/run_llm.py on one GPU, clocks and power limit as found.",
        "Timing: torch.cuda.Event around each call on the default stream, warm-up calls first, statistic = median (min and p90 kept).",
        "Decode/prefill: one step for the whole batch, timed eagerly (graphs=0: every op launched from Python, events include host gaps) and as a replayed CUDA graph (graphs=1).",
        "Weights random bf16 (normal, std 0.02), KV cache random bf16; timing does not depend on values.",
        "Decode at ctx c: the KV cache holds c tokens, the step writes token c and attends over c+1; logits for every sequence, no sampling.",
        "Prefill at seq s: all s tokens in one forward pass (causal SDPA), KV written, LM head on the last token only.",
        "llama3-70b is not measured: its bf16 weights (141 GB) do not fit in one H200's memory.",
    ]
    save()


def main():
    global OUT
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--time-limit", type=float, default=480.0)
    ap.add_argument("--only", nargs="*", default=None)
    a = ap.parse_args()
    OUT = a.out
    os.makedirs(OUT, exist_ok=True)
    import torch

    torch.backends.cuda.matmul.allow_tf32 = True
    section_provenance()
    # section, share of the time limit
    plan = [("launch", 0.04), ("gemm", 0.22), ("sdpa", 0.10), ("elementwise", 0.06), ("decode", 0.40), ("prefill", 0.15), ("eager_repeat", 0.2)]
    for name, share in plan:
        if a.only and name not in a.only:
            continue
        t0 = time.monotonic()
        remaining = a.time_limit - (t0 - T0)
        deadline = t0 + max(5.0, min(remaining - 5.0, share * a.time_limit * 1.5))
        RESULT["sections"].setdefault(name, {})
        log("section", name, "budget", round(deadline - t0, 1), "s")
        try:
            if name == "decode":
                RESULT["method"]["decode"] = "see provenance.method_notes; grid in DECODE_GRID"
                run_model_points("decode", DECODE_GRID, deadline)
            elif name == "prefill":
                RESULT["method"]["prefill"] = "see provenance.method_notes; grid in PREFILL_GRID"
                run_model_points("prefill", PREFILL_GRID, deadline)
            else:
                globals()[f"section_{name}"](deadline)
        except Exception:
            RESULT["errors"][name] = traceback.format_exc()
            log("section failed", name, traceback.format_exc().splitlines()[-1])
        RESULT["section_seconds"][name] = round(time.monotonic() - t0, 1)
        free_all()
        save()
    log("done; errors:", len(RESULT["errors"]))


if __name__ == "__main__":
    main()
