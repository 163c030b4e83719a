#!/usr/bin/env python3
"""Flatten the scalar figures of assets/measured/h200.json into
assets/measured/h200-figures.csv (key,value), so the app reads every shipped
measurement as CSV (no JSON parser in the wasm). Every value is copied by this
script from the JSON that measure/run_all.py wrote; none is typed by hand.

    python3 measure/export_figures.py
"""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "assets/measured/h200.json"
OUT = ROOT / "assets/measured/h200-figures.csv"
SECTIONS = ["copy_bandwidth", "elementwise_eager", "elementwise_compiled", "transpose_copy"]


def walk(obj, prefix, out):
    if isinstance(obj, dict):
        for k, v in obj.items():
            walk(v, f"{prefix}.{k}" if prefix else k, out)
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        out.append((prefix, obj))


def main():
    data = json.loads(SRC.read_text())
    prov = data["provenance"]
    rows = []
    for section in SECTIONS:
        walk(data["figures"][section].get("results", {}), section, rows)
    props = data["device_properties"]["driver_attributes"]
    for key in ["multiprocessor_count", "l2_cache_size_bytes", "max_shared_memory_per_multiprocessor_bytes"]:
        rows.append((f"device.{key}", props[key]))
    lines = [
        f"# {prov['device_name']}, measured {prov['date_utc'][:10]} by {prov['script']} "
        f"(driver {prov['driver_version_nvidia_smi']}, torch {prov['torch']}); "
        "exported from h200.json by measure/export_figures.py",
        f"# date,{prov['date_utc'][:10]}",
        f"# device,{prov['device_name']}",
        "key,value",
    ]
    lines += [f"{k},{v}" for k, v in rows]
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(rows)} figures")
    # The sweeps carry the same two metadata lines (device, date), which the
    # app's overlays show as their label.
    meta = [f"# date,{prov['date_utc'][:10]}", f"# device,{prov['device_name']}"]
    for name in ["h200-coalescing.csv", "h200-divergence.csv", "h200-attention.csv", "h200-matmul.csv"]:
        path = ROOT / "assets/measured" / name
        kept = [l for l in path.read_text().splitlines() if not l.startswith(("# date,", "# device,"))]
        path.write_text("\n".join(meta + kept) + "\n")
        print(f"labelled {name}")


if __name__ == "__main__":
    main()
