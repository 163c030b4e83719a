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
    h200-llm-host.csv       host time of each stage of the step (sim::llm's op keys), per model and phase
    h200-llm-host_probe.csv bare launch cost at intervals through the run (the host's drift)
    h200-llm-kernels.csv    kernels per step (torch.profiler, after every timing)

    --decode-attn gqa --grid gqa: the grouped-query models' decode steps with one SDPA call over
    all query heads (enable_gqa), as a plain PyTorch step writes it (the check of #/llm's default
    split-KV decode kernel; the default run uses the per-head layout, #/llm's effect per-head),
    written as h200-llm-gqa.json and h200-llm-gqa-<section>.csv. (The shipped 2026-12-03 run was
    made before this naming and its two files renamed by hand; their header line names
    h200-llm.json, which is h200-llm-gqa.json here.)

    --dry-run runs the launch, steps and kernels sections on the CPU with tiny shapes (no graphs):
    it checks the script's logic, its numbers mean nothing.
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
PREFILL_GRID = (  # prompt 512..2048 (GPT-2's context is 1024), batch 1..16
    [("llama3-8b", 1, s) for s in (512, 1024, 2048)]
    + [("llama3-8b", 2, 1024), ("llama3-8b", 4, 512), ("llama3-8b", 4, 2048)]
    + [("llama-7b", 1, s) for s in (512, 1024, 2048)]
    + [("llama-7b", 4, 1024)]
    + [("llama-13b", 1, s) for s in (512, 2048)]
    + [("llama-13b", 2, 1024)]
    + [("mistral-7b", 1, 1024), ("mistral-7b", 4, 512)]
    + [("gpt2-xl", 1, s) for s in (512, 1024)]
    + [("gpt2-xl", 4, 1024)]
    + [("gpt2-large", 2, 1024)]
    + [("gpt2-medium", 4, 512)]
    + [("gpt2", 1, 512), ("gpt2", 1, 1024), ("gpt2", 8, 512), ("gpt2", 16, 1024)]
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
# How a decode step calls attention for grouped-query models (--decode-attn): "rows" (the
# default, the 2026-12-01 run: the g query heads of a KV head as g query rows of one SDPA call
# over B x KV-head blocks) or "gqa" (one SDPA call over all query heads with enable_gqa).
DECODE_ATTN = "rows"
# A subset of the grid (--grid): "full", or "gqa" (the grouped-query models' decode points only).
GQA_DECODE_GRID = [("llama3-8b", b, c) for b in (1, 4, 16, 64) for c in (1024, 4096, 8192)] + [
    ("mistral-7b", b, c) for b in (1, 32) for c in (1024, 8192)
]
DEV = "cuda"  # "cpu" in --dry-run (tiny shapes, no graphs, logic only)
DRY = False
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
    # A --decode-attn gqa run writes h200-llm-gqa.json, h200-llm-gqa-<section>.csv (the shipped names).
    tag = "h200-llm-gqa" if DECODE_ATTN == "gqa" else "h200-llm"
    with open(os.path.join(OUT, f"{tag}.json.tmp"), "w") as f:
        json.dump(RESULT, f, indent=1)
    os.replace(os.path.join(OUT, f"{tag}.json.tmp"), os.path.join(OUT, f"{tag}.json"))
    date = RESULT["provenance"].get("date_utc", "")[:10]
    dev = RESULT["provenance"].get("device_name", "")
    for name, rows in ROWS.items():
        cols = CSV_COLS[name]
        p = os.path.join(OUT, f"{tag}-{name}.csv")
        with open(p + ".tmp", "w") as f:
            f.write(f"# date,{date}\n# device,{dev}\n")
            f.write(f"# Written by {SCRIPT} (section {name}); method and provenance in {tag}.json\n")
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


def sync():
    import torch

    if DEV == "cuda":
        torch.cuda.synchronize()


class _Ev:
    """torch.cuda.Event, or a host clock in --dry-run."""

    def __init__(self):
        import torch

        self.e = torch.cuda.Event(enable_timing=True) if DEV == "cuda" else None
        self.t = None

    def record(self):
        if self.e is not None:
            self.e.record()
        else:
            self.t = time.perf_counter()

    def elapsed_time(self, other):
        if self.e is not None:
            return self.e.elapsed_time(other.e)
        return (other.t - self.t) * 1e3


def stats(ts):
    ts = sorted(ts)
    return {
        "ms": statistics.median(ts),
        "min_ms": ts[0],
        "p90_ms": ts[min(len(ts) - 1, int(0.9 * (len(ts) - 1) + 0.5))],
        "reps": len(ts),
    }


def time_events(fn, warm=3, reps=10):
    """Back to back: median of per-call CUDA-event timings (ms); fn is a Python callable (eager or graph replay)."""
    for _ in range(warm):
        fn()
    sync()
    st = [_Ev() for _ in range(reps)]
    en = [_Ev() for _ in range(reps)]
    for i in range(reps):
        st[i].record()
        fn()
        en[i].record()
    sync()
    return stats([a.elapsed_time(b) for a, b in zip(st, en)])


def time_isolated(fn, reps):
    """Each call from an idle GPU: synchronize, event, call, event, synchronize. Returns the
    event times (ms) and the host's own time in the call (ms, perf_counter around fn())."""
    dev, host = [], []
    for _ in range(reps):
        s, e = _Ev(), _Ev()
        sync()
        s.record()
        t0 = time.perf_counter()
        fn()
        t1 = time.perf_counter()
        e.record()
        sync()
        dev.append(s.elapsed_time(e))
        host.append((t1 - t0) * 1e3)
    return dev, host


class _FakeGraph:
    def __init__(self, fn):
        self.replay = fn


def capture(fn):
    """Capture fn() as a CUDA graph (after warm-up on a side stream, as PyTorch documents)."""
    import torch

    if DEV != "cuda":
        fn()
        return _FakeGraph(fn)
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

    sync()
    with profile(activities=[ProfilerActivity.CUDA] if DEV == "cuda" else [ProfilerActivity.CPU]) as prof:
        fn()
        sync()
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
        dev = DEV

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
                torch.empty(B, Hkv, T, hd, device=DEV, dtype=torch.bfloat16).normal_(),
                torch.empty(B, Hkv, T, hd, device=DEV, dtype=torch.bfloat16).normal_(),
            )
            for _ in self.layers
        ]
        return 2 * len(self.layers) * B * Hkv * T * hd * 2

    def rope_tables(self, positions):
        import torch

        hd = self.hd
        inv = 1.0 / (10000.0 ** (torch.arange(0, hd, 2, device=DEV, dtype=torch.float32) / hd))
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

    # The step as named stages, one per operator of sim::llm's table (same keys), so the
    # host cost of each can be timed alone (section host) with exactly the code the step runs.
    def st_embed(self, st):
        import torch.nn.functional as Fn

        x = Fn.embedding(st["ids"], self.emb)
        if self.gpt2:
            x = x + Fn.embedding(st["pos_ids"], self.pos)
        st["x"] = x

    def st_norm1(self, st):
        L = st["L"]
        st["h"] = self.norm(st["x"], L["n1"], L.get("n1b"))

    def st_qkv(self, st):
        import torch.nn.functional as Fn

        cfg, L = self.cfg, st["L"]
        H, Hkv, hd = cfg["heads"], cfg["kv"], self.hd
        B, S = st["B"], st["S"]
        qkv = Fn.linear(st["h"], L["qkv"], L.get("qkvb"))
        st["q"] = qkv[..., : H * hd].view(B, S, H, hd)
        st["k"] = qkv[..., H * hd : (H + Hkv) * hd].view(B, S, Hkv, hd)
        st["v"] = qkv[..., (H + Hkv) * hd :].view(B, S, Hkv, hd)

    def st_rope(self, st):
        cos, sin = st["rope_cs"]
        st["q"] = self.rope(st["q"], cos, sin)
        st["k"] = self.rope(st["k"], cos, sin)

    def st_kv_write(self, st):
        start, S = st["start"], st["S"]
        st["kc"][:, :, start : start + S] = st["k"].transpose(1, 2)
        st["vc"][:, :, start : start + S] = st["v"].transpose(1, 2)

    def st_attention(self, st):
        import torch.nn.functional as Fn

        cfg = self.cfg
        H, Hkv, hd, g = cfg["heads"], cfg["kv"], self.hd, self.g
        B, S, start = st["B"], st["S"], st["start"]
        kc, vc, q = st["kc"], st["vc"], st["q"]
        if st["prefill"]:
            qh = q.transpose(1, 2)
            kk, vv = kc[:, :, : start + S], vc[:, :, : start + S]
            if g > 1:
                a = Fn.scaled_dot_product_attention(qh, kk, vv, is_causal=True, enable_gqa=True)
            else:
                a = Fn.scaled_dot_product_attention(qh, kk, vv, is_causal=True)
            st["a"] = a.transpose(1, 2).reshape(B, S, H * hd)
        elif DECODE_ATTN == "gqa" and g > 1:
            # decode, --decode-attn gqa: one SDPA call over all H query heads, enable_gqa
            # (PyTorch's own grouped-query path; what a plain PyTorch step writes)
            a = Fn.scaled_dot_product_attention(q.transpose(1, 2), kc, vc, enable_gqa=True)
            st["a"] = a.transpose(1, 2).reshape(B, 1, H * hd)
        else:
            # decode (S == 1): the g query heads that share a KV head become g query rows of it
            qh = q.reshape(B, Hkv, g, hd)
            a = Fn.scaled_dot_product_attention(qh, kc, vc)
            st["a"] = a.reshape(B, 1, H * hd)

    def st_o_proj(self, st):
        import torch.nn.functional as Fn

        L = st["L"]
        st["o"] = Fn.linear(st["a"], L["o"], L.get("ob"))

    def st_residual1(self, st):
        st["x"] = st["x"] + st["o"]

    def st_norm2(self, st):
        L = st["L"]
        st["h"] = self.norm(st["x"], L["n2"], L.get("n2b"))

    def st_up(self, st):
        import torch.nn.functional as Fn

        L = st["L"]
        if self.gpt2:
            st["u"] = Fn.linear(st["h"], L["up"], L["upb"])
        else:
            st["u"] = Fn.linear(st["h"], L["gu"])

    def st_act(self, st):
        import torch.nn.functional as Fn

        if self.gpt2:
            st["m"] = Fn.gelu(st["u"], approximate="tanh")
        else:
            gt, up = st["u"].chunk(2, dim=-1)
            st["m"] = Fn.silu(gt) * up

    def st_down(self, st):
        import torch.nn.functional as Fn

        L = st["L"]
        st["dn"] = Fn.linear(st["m"], L["down"], L.get("downb"))

    def st_residual2(self, st):
        st["x"] = st["x"] + st["dn"]

    def st_final_norm(self, st):
        st["xf"] = self.norm(st["x"][:, -1:], self.nf, self.nfb if self.gpt2 else None)

    def st_lm_head(self, st):
        import torch.nn.functional as Fn

        st["logits"] = Fn.linear(st["xf"], self.head)

    def layer_stages(self):
        """(sim::llm op key, stage) of one layer, in order."""
        v = [("norm1", self.st_norm1), ("qkv", self.st_qkv)]
        if not self.gpt2:
            v.append(("rope", self.st_rope))
        v += [
            ("kv-write", self.st_kv_write),
            ("attention", self.st_attention),
            ("o-proj", self.st_o_proj),
            ("residual1", self.st_residual1),
            ("norm2", self.st_norm2),
            ("up" if self.gpt2 else "gate-up", self.st_up),
            ("act", self.st_act),
            ("down", self.st_down),
            ("residual2", self.st_residual2),
        ]
        return v

    def head_stages(self):
        return [("final-norm", self.st_final_norm), ("lm-head", self.st_lm_head)]

    def state(self, ids, start, prefill, rope_cs, pos_ids=None):
        B, S = ids.shape
        return dict(ids=ids, start=start, prefill=prefill, rope_cs=rope_cs, pos_ids=pos_ids, B=B, S=S)

    def forward(self, ids, start, prefill, rope_cs, pos_ids=None):
        """ids [B,S]; writes K,V at cache positions start..start+S-1; returns logits of the last token."""
        st = self.state(ids, start, prefill, rope_cs, pos_ids)
        self.st_embed(st)
        stages = self.layer_stages()
        for L, (kc, vc) in zip(self.layers, self.cache):
            st["L"], st["kc"], st["vc"] = L, kc, vc
            for _, f in stages:
                f(st)
        for _, f in self.head_stages():
            f(st)
        return st["logits"]


def free_all():
    import gc

    import torch

    gc.collect()
    if DEV == "cuda":
        torch.cuda.empty_cache()


def gpu_mem_ok(nbytes):
    import torch

    if DEV != "cuda":
        return True
    free, total = torch.cuda.mem_get_info()
    return nbytes < free - 6e9


def make_step(dec, kind, b, n):
    """(step callable, KV bytes) for a decode step at context n or a prefill of n tokens, batch b."""
    import torch

    cfg = dec.cfg
    if kind == "decode":
        T, start, S = n + 1, n, 1
    else:
        T, start, S = n, 0, n
    kvb = dec.alloc_cache(b, T)
    ids = torch.randint(0, cfg["vocab"], (b, S), device=DEV)
    positions = torch.arange(start, start + S, device=DEV)
    pos_ids = positions.clamp(max=2047).expand(b, S).contiguous()
    cs = dec.rope_tables(positions)
    cs = (cs[0].view(1, S, 1, dec.hd), cs[1].view(1, S, 1, dec.hd))
    return (lambda: dec.forward(ids, start, kind == "prefill", cs, pos_ids)), kvb, (ids, start, cs, pos_ids)


HOST_PROBE_X = {}


def host_probe(tag):
    """The host's speed now: host time per call of 400 bare x.add_(1) launches (no sync inside the loop)."""
    import torch

    x = HOST_PROBE_X.setdefault("x", torch.zeros(1, device=DEV))
    N = 400
    best = []
    for _ in range(3):
        sync()
        t0 = time.perf_counter()
        for _ in range(N):
            x.add_(1)
        t1 = time.perf_counter()
        sync()
        best.append((t1 - t0) / N * 1e6)
    add_row("host_probe", dict(tag=tag, t_s=round(time.monotonic() - T0, 1), add_us=rnd(statistics.median(best)), add_us_min=rnd(min(best)), add_us_max=rnd(max(best))))


ACC_HOST = {}  # (model, phase, op) -> per-round host us (and the step's event us)
ACC_STEP = {}  # (kind, model, batch, n) -> {"res": {0: [[ms..]..], 1: [...]}, "host": [...], "b2b": {}, "kvb", "wb"}


def host_costs(dec, kind, rounds):
    """Host time of each stage (sim::llm op key) of this model's step, alone: batch 1, decode at
    ctx 128 or prefill of 512 tokens; each stage called N times in a row (host clock around the
    calls, no sync inside: the GPU queue absorbs the work), the stage order rotated every round,
    a few rounds in every pass over the grid; us = median of all rounds' per-call times. The row
    'step' is the whole step's host time in forward() (isolated calls) at the same moment."""
    import torch

    n = 128 if kind == "decode" else (512 if not DRY else 16)
    N = 40 if kind == "decode" else 12
    HOST_N[(dec.name, kind)] = (N, n)
    step, _, (ids, start, cs, pos_ids) = make_step(dec, kind, 1, n)
    with torch.inference_mode():
        step()
        sync()
        st = dec.state(ids, start, kind == "prefill", cs, pos_ids)
        L0, (kc, vc) = dec.layers[0], dec.cache[0]
        st["L"], st["kc"], st["vc"] = L0, kc, vc
        stages = [("embed", dec.st_embed)] + dec.layer_stages() + dec.head_stages()
        for _, f in stages:  # fill the state once, in order
            f(st)
        sync()
        for r in range(rounds):
            k0 = (len(ACC_HOST.get((dec.name, kind, "norm1"), [])) * 5) % len(stages)
            order = stages[k0:] + stages[:k0]
            for key, f in order:
                x0 = st["x"]
                sync()
                t0 = time.perf_counter()
                for _ in range(N):
                    f(st)
                t1 = time.perf_counter()
                sync()
                st["x"] = x0  # the residual stages add into x: keep its values bounded
                ACC_HOST.setdefault((dec.name, kind, key), []).append((t1 - t0) / N * 1e6)
            dv, hv = time_isolated(step, 2)
            ACC_HOST.setdefault((dec.name, kind, "step"), []).extend(h * 1e3 for h in hv)
            ACC_HOST.setdefault((dec.name, kind, "step_event"), []).extend(d * 1e3 for d in dv)
    dec.cache = None
    free_all()


HOST_N = {}


def finalize():
    """Rewrite the host, decode and prefill rows from everything accumulated so far."""
    for sec in ("host", "decode", "prefill"):
        ROWS[sec] = []
        RESULT["sections"].setdefault(sec, {})["rows"] = ROWS[sec]
    for (model, kind, op), v in ACC_HOST.items():
        if op == "step_event":
            continue
        N, n = HOST_N[(model, kind)]
        ev = ACC_HOST.get((model, kind, "step_event")) if op == "step" else None
        ROWS["host"].append(dict(model=model, phase=kind, op=op, us=rnd(statistics.median(v)), us_min=rnd(min(v)), us_max=rnd(max(v)), calls=1 if op == "step" else N, rounds=len(v), batch=1, n=n, event_us=rnd(statistics.median(ev)) if ev else None))
    for (kind, model, b, n), a in ACC_STEP.items():
        key = {"ctx": n} if kind == "decode" else {"seq": n}
        if a.get("note"):
            ROWS[kind].append(dict(model=model, batch=b, **key, graphs=-1, ms=None, note=a["note"]))
            continue
        if not (a["res"][0] and a["res"][1]):
            continue
        for graphs in (0, 1):
            meds = [statistics.median(v) for v in a["res"][graphs]]
            allv = [x for v in a["res"][graphs] for x in v]
            st = stats(allv)
            ms = statistics.median(meds)
            ROWS[kind].append(dict(model=model, batch=b, **key, graphs=graphs, ms=rnd(ms), min_ms=rnd(st["min_ms"]), p90_ms=rnd(st["p90_ms"]), reps=len(allv), rounds=len(meds), spread=rnd((max(meds) - min(meds)) / ms, 3), host_ms=rnd(statistics.median(a["host"])) if graphs == 0 else None, b2b_ms=rnd(a["b2b"].get(graphs)), kernels=a.get("kernels"), weight_bytes=a["wb"], kv_bytes=a["kvb"]))
    save()


def measure_point(dec, kind, b, n, first):
    """One pass's share of a step: warm-up, capture, then K isolated eager calls and K isolated
    graph replays (which goes first alternates by pass). Every pass over the grid adds one such
    round to every point, so each point's rounds are spread over the whole run and every point
    sees the same mix of host states; ms = median of the rounds' medians, spread = (largest -
    smallest round median) / ms, host_ms = the host's own time in the eager call (median);
    b2b_ms = back-to-back calls (first pass only; the previous run's method)."""
    import torch

    cfg = dec.cfg
    S = 1 if kind == "decode" else n
    T = n + 1 if kind == "decode" else n
    kvb = 2 * cfg["layers"] * b * cfg["kv"] * T * dec.hd * 2
    a = ACC_STEP.setdefault((kind, dec.name, b, n), {"res": {0: [], 1: []}, "host": [], "b2b": {}, "kvb": kvb, "wb": dec.weight_bytes})
    if not gpu_mem_ok(kvb + (b * S * (cfg["ffn"] * 6 + cfg["d"] * 8) * 2 if kind == "prefill" else 0)):
        a["note"] = "does not fit"
        return
    step, kvb, _ = make_step(dec, kind, b, n)
    with torch.inference_mode():
        for _ in range(2):
            step()
        sync()
        gr = capture(step)
        t_one = time_isolated(step, 1)[0][0]
        gr.replay()
        sync()
        K = 3 if t_one < 40 else (2 if t_one < 120 else 1)
        if DRY:
            K = 1
        order = (0, 1) if len(a["res"][0]) % 2 == 0 else (1, 0)
        for graphs in order:
            dv, hv = time_isolated(gr.replay if graphs else step, K)
            a["res"][graphs].append(dv)
            if not graphs:
                a["host"] += hv
        if first and t_one < 40:
            a["b2b"][0] = time_events(step, warm=1, reps=5)["ms"]
            a["b2b"][1] = time_events(gr.replay, warm=1, reps=5)["ms"]
        del gr


PASSES = 5


def section_steps(deadline, passes=None):
    """PASSES passes over the whole grid; in each, per model (built anew): a host probe, two
    rounds of the host cost of each stage (decode and prefill), then one round of each of its
    decode and prefill points. Rows are rewritten after every pass."""
    import torch

    passes = PASSES if passes is None else passes
    if DRY:
        passes = 2
    RESULT["method"]["steps"] = section_steps.__doc__ + " " + measure_point.__doc__ + " " + host_costs.__doc__
    models = []
    for m, _, _ in DECODE_GRID + PREFILL_GRID:
        if m not in models:
            models.append(m)
    t_pass = 0.0
    for p in range(passes):
        t0 = time.monotonic()
        if p > 0 and time.monotonic() + 1.1 * t_pass > deadline:
            log("steps: no time for pass", p)
            RESULT["sections"]["steps"]["passes_skipped_for_time"] = passes - p
            break
        for name in models:
            cfg = MODELS[name] if not DRY else dict(MODELS[name], layers=2, d=64, heads=2, kv=1 if MODELS[name]["kv"] < MODELS[name]["heads"] else 2, ffn=128, vocab=256)
            try:
                dec = Decoder(name, cfg, torch.bfloat16)
            except Exception:
                RESULT["errors"][f"steps:{name}"] = traceback.format_exc()
                free_all()
                continue
            host_probe(f"pass {p} before {name}")
            for kind in ("decode", "prefill") if PREFILL_GRID else ("decode",):
                try:
                    host_costs(dec, kind, 2)
                except Exception:
                    RESULT["errors"][f"host:{name}:{kind}"] = traceback.format_exc()
                    log("error host", name, kind, traceback.format_exc().splitlines()[-1])
            for kind, grid in (("decode", DECODE_GRID), ("prefill", PREFILL_GRID)):
                for m, b, n in grid:
                    if m != name:
                        continue
                    if DRY:
                        b, n = min(b, 2), min(n, 16)
                    try:
                        measure_point(dec, kind, b, n, p == 0)
                    except Exception:
                        RESULT["errors"][f"{kind}:{name}:{b}:{n}"] = traceback.format_exc()
                        log("error", kind, name, b, n, traceback.format_exc().splitlines()[-1])
                    finally:
                        dec.cache = None
                        free_all()
            del dec
            free_all()
        finalize()
        t_pass = time.monotonic() - t0
        RESULT["sections"]["steps"]["passes"] = p + 1
        log("pass", p, "took", round(t_pass, 1), "s")
    for kind in ("decode", "prefill"):
        for r in ROWS.get(kind, []):
            if r.get("graphs") == 0:
                log(kind, r["model"], r["batch"], r.get("ctx", r.get("seq")), "eager", r["ms"], "spread", r["spread"], "host", r["host_ms"])
    host_probe("after steps")


def section_kernels(deadline):
    """Kernel counts by torch.profiler, last (so no profiler session precedes any timing):
    each model's decode step (batch 1, ctx 128) and every prefill point; the tiny launch layers."""
    import torch

    host_probe("before kernels")
    for row, fn in LAUNCH_COUNT:
        with torch.inference_mode():
            k = count_kernels(fn)
        row["kernels"] = k
        row["us_per_kernel"] = rnd(row["us_total"] / max(1, k))
    LAUNCH_COUNT.clear()
    counts = {}
    for name in MODELS:
        pts = [("decode", b, n) for m, b, n in DECODE_GRID if m == name] + [("prefill", b, n) for m, b, n in PREFILL_GRID if m == name]
        if not pts or over_budget(deadline):
            continue
        cfg = MODELS[name] if not DRY else dict(MODELS[name], layers=2, d=64, heads=2, kv=1 if MODELS[name]["kv"] < MODELS[name]["heads"] else 2, ffn=128, vocab=256)
        try:
            dec = Decoder(name, cfg, torch.bfloat16)
            for kind, b, n in pts:
                if DRY:
                    b, n = min(b, 2), min(n, 16)
                ck = (kind, 1, 128) if kind == "decode" else (kind, b, n)
                if (name,) + ck not in counts:
                    step, _, _ = make_step(dec, ck[0], ck[1], ck[2])
                    with torch.inference_mode():
                        step()
                        counts[(name,) + ck] = count_kernels(step)
                    dec.cache = None
                    free_all()
                if (kind, name, b, n) in ACC_STEP:
                    ACC_STEP[(kind, name, b, n)]["kernels"] = counts[(name,) + ck]
                add_row("kernels", dict(model=name, phase=kind, batch=ck[1], n=ck[2], kernels=counts[(name,) + ck])) if (name,) + ck not in KERNELS_DONE else None
                KERNELS_DONE.add((name,) + ck)
            del dec
        except Exception:
            RESULT["errors"][f"kernels:{name}"] = traceback.format_exc()
            log("error kernels", name, traceback.format_exc().splitlines()[-1])
        free_all()
    if ACC_STEP:
        finalize()
    host_probe("after kernels")


LAUNCH_COUNT = []
KERNELS_DONE = set()


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
    # batch > 1: the prefill grid's batches (more (sequence, head) pairs to fill the SMs)
    for hd, H, Hkv in ((128, 32, 8), (128, 32, 32), (128, 40, 40), (64, 25, 25), (64, 20, 20), (64, 16, 16), (64, 12, 12)):
        for B in (2, 4, 8, 16):
            for S in (512, 1024):
                pts.append(("prefill", B, H, Hkv, hd, S, S))
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
        "one CUDA graph; and a whole tiny decoder (32 layers, each preset's layout: d 64, 2 heads, FFN 128, KV 16, batch 1) "
        "run eagerly or as a graph, with its kernel count from torch.profiler (counted at the end of the run, after every "
        "timing). Eager rows: isolated calls, interleaved with the graph rows in 5 rounds (median of all calls). "
        "us_per_kernel = total / kernels."
    )
    x = torch.zeros(1, device=DEV)
    N = 2000

    def many():
        for _ in range(N):
            x.add_(1)

    g = capture(many)
    te, tg = [], []
    for r in range(5):
        te += time_isolated(many, 1)[0]
        tg += time_isolated(g.replay, 1)[0]
    add_row("launch", dict(what="add_1elem", mode="eager", kernels=N, us_total=rnd(statistics.median(te) * 1e3), us_per_kernel=rnd(statistics.median(te) * 1e3 / N), reps=len(te)))
    add_row("launch", dict(what="add_1elem", mode="graph", kernels=N, us_total=rnd(statistics.median(tg) * 1e3), us_per_kernel=rnd(statistics.median(tg) * 1e3 / N), reps=len(tg)))
    del g
    KEEP = []
    for arch, kvh in (("llama", 2), ("llama", 1), ("gpt2", 2)):
        cfg = dict(arch=arch, layers=32, d=64, heads=2, kv=kvh, ffn=128, vocab=256)
        dec = Decoder("tiny", cfg, torch.bfloat16)
        step, _, _ = make_step(dec, "decode", 1, 16)
        with torch.inference_mode():
            for _ in range(3):
                step()
            g = capture(step)
            te, tg = [], []
            for r in range(5):
                te += time_isolated(step, 2)[0]
                tg += time_isolated(g.replay, 2)[0]
        what = f"tiny_{arch}_32layers_g{2 // kvh}"
        re = dict(what=what, mode="eager", kernels=None, us_total=rnd(statistics.median(te) * 1e3), us_per_kernel=None, reps=len(te))
        rg = dict(what=what, mode="graph", kernels=None, us_total=rnd(statistics.median(tg) * 1e3), us_per_kernel=None, reps=len(tg))
        add_row("launch", re)
        add_row("launch", rg)
        LAUNCH_COUNT.append((re, step))
        LAUNCH_COUNT.append((rg, step))
        KEEP.append(dec)
        log("launch", what, statistics.median(te), statistics.median(tg))
        del g
        free_all()
    LAUNCH_KEEP.extend(KEEP)


LAUNCH_KEEP = []


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


CSV_COLS["host"] = ["model", "phase", "op", "us", "us_min", "us_max", "calls", "rounds", "batch", "n", "event_us"]
CSV_COLS["host_probe"] = ["tag", "t_s", "add_us", "add_us_min", "add_us_max"]
CSV_COLS["kernels"] = ["model", "phase", "batch", "n", "kernels"]
for _k in ("decode", "prefill"):
    _i = CSV_COLS[_k].index("reps") + 1
    CSV_COLS[_k][_i:_i] = ["rounds", "spread", "host_ms", "b2b_ms"]


def section_provenance():
    import torch

    p = RESULT["provenance"]
    p["date_utc"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    if DEV != "cuda":
        p["device_name"] = "cpu (dry run)"
    else:
        p["device_name"] = torch.cuda.get_device_name(0)
        props = torch.cuda.get_device_properties(0)
        p["sm_count"] = props.multi_processor_count
        p["total_memory_bytes"] = props.total_memory
    p["torch"] = torch.__version__
    p["torch_cuda_runtime"] = torch.version.cuda
    p["cudnn"] = torch.backends.cudnn.version()
    p["python"] = platform.python_version()
    p["os"] = f"{platform.system()} {platform.release()}"
    p["cpu_count"] = os.cpu_count()
    p["cpu_affinity"] = len(os.sched_getaffinity(0))
    try:
        with open("/proc/cpuinfo") as f:
            p["cpu_model"] = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), None)
    except Exception:
        pass
    try:
        p["loadavg_at_start"] = open("/proc/loadavg").read().split()[:3]
    except Exception:
        pass
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
        "Each step is timed from an idle GPU (synchronize, event, call, event, synchronize), eager and graph interleaved in rounds; ms = median of the round medians, spread = their range / ms, host_ms = the host's own time inside the eager call, b2b_ms = back-to-back calls (the previous run's method).",
        "Section host: each stage of the step (sim::llm's op keys) timed alone on the host at the model's real shapes, just before that model's steps; host_probe: bare launch cost at intervals, to show the host's drift.",
        "Kernel counts (torch.profiler) are taken in the last section, after every timing.",
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
    ap.add_argument("--dry-run", action="store_true", help="CPU, tiny shapes, no graphs: checks the logic only")
    ap.add_argument("--decode-attn", choices=["rows", "gqa"], default="rows", help="grouped-query decode attention: g query rows per KV head (default) or one enable_gqa call")
    ap.add_argument("--grid", choices=["full", "gqa"], default="full", help="gqa: only the grouped-query models' decode points")
    ap.add_argument("--passes", type=int, default=5)
    a = ap.parse_args()
    OUT = a.out
    global DECODE_ATTN, DECODE_GRID, PREFILL_GRID, PASSES
    DECODE_ATTN, PASSES = a.decode_attn, a.passes
    RESULT["method"]["decode_attn"] = DECODE_ATTN
    RESULT["method"]["grid"] = a.grid
    if a.grid == "gqa":
        DECODE_GRID, PREFILL_GRID = GQA_DECODE_GRID, []
    if a.dry_run:
        global DEV, DRY
        DEV, DRY = "cpu", True
    os.makedirs(OUT, exist_ok=True)
    import torch

    if DEV == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True
    section_provenance()
    # section, share of the time limit
    plan = [("launch", 0.03), ("steps", 0.5), ("gemm", 0.12), ("sdpa", 0.1), ("elementwise", 0.05), ("kernels", 0.1)]
    if DRY:
        plan = [("launch", 0.1), ("steps", 0.5), ("kernels", 0.2)]
    for name, share in plan:
        if a.only and name not in a.only:
            continue
        t0 = time.monotonic()
        remaining = a.time_limit - (t0 - T0)
        deadline = t0 + max(5.0, min(remaining - 5.0, share * a.time_limit * 1.5))
        RESULT["sections"].setdefault(name, {})
        log("section", name, "budget", round(deadline - t0, 1), "s")
        try:
            host_probe(f"before {name}")
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
