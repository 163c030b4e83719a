#!/usr/bin/env python3
"""Merge the output folders of several run_train.py calls into assets/measured/.

    python3 measure/train/merge.py DIR1 DIR2 [...]

Each DIR holds the h200-train.json that measure/train/run_train.py wrote (one device call each). The rows
of every section are concatenated in the order of the arguments (no number is changed); each row in the
merged JSON gains "call", the name of the folder it came from (DIR's basename, e.g. call1). The
provenance, errors, section_seconds, elapsed_s and any cut_at are kept per call; the method is kept once
when every call has the same one, else per call. Writes assets/measured/h200-train.json and
assets/measured/h200-train-{steps,attn,flash,decode}.csv in run_train.py's CSV format (its CSV_COLS and
header lines); a section no call measured gets no CSV.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import run_train  # noqa: E402  (no torch at import: its imports are inside functions)

CSV_COLS = run_train.CSV_COLS
SCRIPT = run_train.SCRIPT
OUT_DIR = os.path.join(ROOT, "assets", "measured")
STEP_KEY = ("size", "ctx", "precision", "ops", "attention", "optimizer", "checkpoint")


def load(d):
    with open(os.path.join(d, "h200-train.json")) as f:
        return json.load(f)


def write_csv(name, rows, dates, devices):
    cols = CSV_COLS[name]
    q = os.path.join(OUT_DIR, f"h200-train-{name}.csv")
    with open(q + ".tmp", "w") as f:
        f.write(f"# date,{' '.join(dates)}\n# device,{' '.join(devices)}\n")
        f.write(f"# Written by {SCRIPT} (section {name}); method and provenance in h200-train.json\n")
        f.write(",".join(cols) + "\n")
        for r in rows:
            f.write(",".join("" if r.get(c) is None else str(r.get(c)) for c in cols) + "\n")
    os.replace(q + ".tmp", q)
    return q


def main():
    dirs = sys.argv[1:]
    if len(dirs) < 1:
        sys.exit(__doc__)
    names = [os.path.basename(os.path.normpath(d)) for d in dirs]
    if len(set(names)) != len(names):
        sys.exit(f"folder names must differ (they name the calls): {names}")
    runs = [load(d) for d in dirs]
    first = runs[0]
    for n, r in zip(names, runs):
        for k in ("schema", "gpu_code", "sizes"):
            if r.get(k) != first.get(k):
                sys.exit(f"{n}: {k} differs from {names[0]}'s; not merging")

    merged = {
        "schema": first["schema"],
        "gpu_code": first["gpu_code"],
        "merged_by": "measure/train/merge.py",
        "calls": names,
        "provenance": {n: r.get("provenance", {}) for n, r in zip(names, runs)},
        "sizes": first["sizes"],
        "method": None,
        "sections": {},
        "errors": {n: r.get("errors", {}) for n, r in zip(names, runs)},
        "section_seconds": {n: r.get("section_seconds", {}) for n, r in zip(names, runs)},
        "elapsed_s": {n: r.get("elapsed_s") for n, r in zip(names, runs)},
    }
    methods = [r.get("method", {}) for r in runs]
    merged["method"] = methods[0] if all(m == methods[0] for m in methods) else dict(zip(names, methods))

    for name in CSV_COLS:
        rows, cut = [], {}
        for n, r in zip(names, runs):
            sec = r.get("sections", {}).get(name)
            if sec is None:
                continue
            rows += [dict(row, call=n) for row in sec.get("rows", [])]
            if "cut_at" in sec:
                cut[n] = sec["cut_at"]
            extra = set(sec) - {"rows", "cut_at"}
            if extra:
                sys.exit(f"{n}: section {name} has keys this merge does not know: {sorted(extra)}")
        if not rows and not cut:
            continue
        if name == "steps":
            seen = {}
            for row in rows:
                k = tuple(row.get(c) for c in STEP_KEY)
                if k in seen:
                    print(f"warning: steps point {k} measured by both {seen[k]} and {row['call']}; both rows kept")
                seen.setdefault(k, row["call"])
        merged["sections"][name] = {"rows": rows}
        if cut:
            merged["sections"][name]["cut_at"] = cut

    os.makedirs(OUT_DIR, exist_ok=True)
    p = os.path.join(OUT_DIR, "h200-train.json")
    with open(p + ".tmp", "w") as f:
        json.dump(merged, f, indent=1)
    os.replace(p + ".tmp", p)
    print("wrote", os.path.relpath(p, ROOT))

    for name, sec in merged["sections"].items():
        calls = [n for n, r in zip(names, runs) if name in r.get("sections", {})]
        prov = [r.get("provenance", {}) for n, r in zip(names, runs) if n in calls]
        dates = sorted({pv.get("date_utc", "")[:10] for pv in prov})
        devices = sorted({pv.get("device_name", "") for pv in prov})
        q = write_csv(name, sec["rows"], dates, devices)
        status = {}
        for row in sec["rows"]:
            s = row.get("status", row.get("layout"))
            status[s] = status.get(s, 0) + 1
        print("wrote", os.path.relpath(q, ROOT), len(sec["rows"]), "rows", status, "from", calls,
              "cut_at " + json.dumps(sec["cut_at"]) if "cut_at" in sec else "")
    for n, r in zip(names, runs):
        if r.get("errors"):
            print(f"errors in {n}: {sorted(r['errors'])}")


if __name__ == "__main__":
    main()
