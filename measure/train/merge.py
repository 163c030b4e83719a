#!/usr/bin/env python3
"""Merge the output folders of several run_train.py calls into assets/measured/.

    python3 measure/train/merge.py DIR1 DIR2 [...] [--add DIR (alone): adds one more call to the shipped assets/measured/h200-train.json instead of merging
from scratch (the earlier calls' folders need not exist): DIR's sections must be ones the shipped file does
not hold yet; its rows gain "call" = DIR's basename, its provenance, method, errors and seconds are kept
under that name; only the new sections' CSVs are written. E.g.

    python3 measure/train/merge.py --add out/call6

--take SECTIONS=CALL --why TEXT] ...

Each DIR holds the h200-train.json that measure/train/run_train.py wrote (one device call each). The rows
of every section are concatenated in the order of the arguments (no number is changed); each row in the
merged JSON gains "call", the name of the folder it came from (DIR's basename, e.g. call1). The
provenance, errors, section_seconds, elapsed_s and any cut_at are kept per call; the method is kept once
when every call has the same one, else per call. Writes assets/measured/h200-train.json and
assets/measured/h200-train-{steps,attn,flash,decode}.csv in run_train.py's CSV format (its CSV_COLS and
header lines); a section no call measured gets no CSV.

--take SECTIONS=CALL (SECTIONS comma-separated, CALL one of the folder names; repeatable, each with its
own --why, in the same order): the rows of those sections come only from CALL. The rows (and cut_at) of
those sections from the other calls are left out of the CSVs and of sections[...] and kept in the JSON
under superseded[section] = {"taken_from": CALL, "reason": TEXT, "rows": [...], "cut_at": {...}}. E.g.

    python3 measure/train/merge.py out/call1 out/call2 out/call3 --take attn,flash,decode=call3 \
        --why "call2's attn/flash/decode ran with a saved_tensors_hooks reference cycle: ..."
"""
import argparse
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


def parse_take(takes, whys, names):
    """{section: (call, reason)} from the --take/--why pairs."""
    takes, whys = takes or [], whys or []
    if len(takes) != len(whys):
        sys.exit(f"each --take needs its own --why ({len(takes)} --take, {len(whys)} --why)")
    out = {}
    for t, why in zip(takes, whys):
        secs, sep, call = t.rpartition("=")
        if not sep or not secs or not call:
            sys.exit(f"--take {t!r}: expected SECTIONS=CALL, e.g. attn,flash=call3")
        if call not in names:
            sys.exit(f"--take {t!r}: {call!r} is none of the calls {names}")
        if not why.strip():
            sys.exit(f"--take {t!r}: --why is empty")
        for sec in secs.split(","):
            if sec not in CSV_COLS:
                sys.exit(f"--take {t!r}: unknown section {sec!r} (known: {list(CSV_COLS)})")
            if sec in out:
                sys.exit(f"--take: section {sec!r} named twice")
            out[sec] = (call, why)
    return out


def add(d):
    """Adds one call's new sections to the shipped merged file."""
    p = os.path.join(OUT_DIR, "h200-train.json")
    with open(p) as f:
        merged = json.load(f)
    run = load(d)
    n = os.path.basename(os.path.normpath(d))
    if n in merged["calls"]:
        sys.exit(f"{n} is already one of the merged calls {merged['calls']}")
    for k in ("schema", "gpu_code", "sizes"):
        if run.get(k) != merged.get(k):
            sys.exit(f"{n}: {k} differs from the merged file's; not adding")
    new = [s for s in run.get("sections", {}) if run["sections"][s].get("rows")]
    old = [s for s in new if s in merged["sections"]]
    if old:
        sys.exit(f"{n}: sections {old} are already in the merged file (merge from the call folders instead)")
    merged["calls"].append(n)
    for k in ("provenance", "errors", "section_seconds", "elapsed_s"):
        merged.setdefault(k, {})[n] = run.get(k)
    if not (isinstance(merged.get("method"), dict) and set(merged["calls"][:-1]) <= set(merged["method"])):
        merged["method"] = {",".join(merged["calls"][:-1]): merged.get("method")}
    merged["method"][n] = run.get("method")
    pv = run.get("provenance", {})
    for name in new:
        sec = run["sections"][name]
        merged["sections"][name] = {k: v for k, v in sec.items() if k != "rows"}
        merged["sections"][name]["rows"] = [dict(row, call=n) for row in sec["rows"]]
        q = write_csv(name, merged["sections"][name]["rows"], [pv.get("date_utc", "")[:10]], [pv.get("device_name", "")])
        print("wrote", os.path.relpath(q, ROOT), len(sec["rows"]), "rows from", n)
    with open(p + ".tmp", "w") as f:
        json.dump(merged, f, indent=1)
    os.replace(p + ".tmp", p)
    print("wrote", os.path.relpath(p, ROOT), "calls", merged["calls"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--add", metavar="DIR")
    ap.add_argument("dirs", nargs="*")
    ap.add_argument("--take", action="append", metavar="SECTIONS=CALL")
    ap.add_argument("--why", action="append", metavar="TEXT")
    a = ap.parse_args()
    if a.add:
        if a.dirs or a.take:
            sys.exit("--add takes one folder and nothing else")
        return add(a.add)
    dirs = a.dirs
    names = [os.path.basename(os.path.normpath(d)) for d in dirs]
    if len(set(names)) != len(names):
        sys.exit(f"folder names must differ (they name the calls): {names}")
    take = parse_take(a.take, a.why, names)
    runs = [load(d) for d in dirs]
    for sec, (call, _) in take.items():
        if sec not in runs[names.index(call)].get("sections", {}):
            sys.exit(f"--take: {call} has no section {sec!r}")
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

    superseded = {}
    for name in CSV_COLS:
        rows, cut = [], {}
        old_rows, old_cut = [], {}
        for n, r in zip(names, runs):
            sec = r.get("sections", {}).get(name)
            if sec is None:
                continue
            extra = set(sec) - {"rows", "cut_at"}
            if extra:
                sys.exit(f"{n}: section {name} has keys this merge does not know: {sorted(extra)}")
            dropped = name in take and take[name][0] != n
            (old_rows if dropped else rows).extend(dict(row, call=n) for row in sec.get("rows", []))
            if "cut_at" in sec:
                (old_cut if dropped else cut)[n] = sec["cut_at"]
        if old_rows or old_cut:
            superseded[name] = {"taken_from": take[name][0], "reason": take[name][1], "rows": old_rows}
            if old_cut:
                superseded[name]["cut_at"] = old_cut
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

    if superseded:
        merged["superseded"] = superseded

    os.makedirs(OUT_DIR, exist_ok=True)
    p = os.path.join(OUT_DIR, "h200-train.json")
    with open(p + ".tmp", "w") as f:
        json.dump(merged, f, indent=1)
    os.replace(p + ".tmp", p)
    print("wrote", os.path.relpath(p, ROOT))

    for name, sec in merged["sections"].items():
        calls = [n for n, r in zip(names, runs) if name in r.get("sections", {}) and (name not in take or take[name][0] == n)]
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
    for name, sup in superseded.items():
        print(f"superseded: {name}: {len(sup['rows'])} rows from {sorted({row['call'] for row in sup['rows']})} "
              f"(kept in the JSON only), taken from {sup['taken_from']}")
    for n, r in zip(names, runs):
        if r.get("errors"):
            print(f"errors in {n}: {sorted(r['errors'])}")


if __name__ == "__main__":
    main()
