#!/usr/bin/env python3
"""Derive assets/reference/students-h100-numbers.csv (plain cells, no quotes) from the cited
research file assets/reference/students-h100.csv (each number with its source and the quoted line
it came from). The app reads the derived file; the research file is the provenance."""
import csv
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
src = os.path.join(ROOT, "assets", "reference", "students-h100.csv")
out = os.path.join(ROOT, "assets", "reference", "students-h100-numbers.csv")
cols = ["source", "size", "context", "batch", "precision", "what", "value"]
with open(src, newline="") as f, open(out, "w") as g:
    g.write("# Derived by measure/train/students.py from students-h100.csv (sources, quotes, GPU notes there)\n")
    g.write(",".join(cols) + "\n")
    for r in csv.DictReader(f):
        repo = r["source_repo"].split(" ")[0].replace(",", ";")
        g.write(",".join([repo, r["size"].lower(), r["context"], r["batch"], r["precision"], r["what"], r["ms_or_gb"]]) + "\n")
print("wrote", out)
