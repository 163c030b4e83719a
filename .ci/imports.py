#!/usr/bin/env python3
"""The import graph of src/: one node per file, an edge A -> B when A names an
item of B (`use crate::…`, `use super::…`, a `crate::x::y` or `child::y` path,
a `crate::m!` macro). Prints every import circle (strongly connected component
of more than one file) and exits 1 if there is any. Test-only code counts too.

    python3 .ci/imports.py            # the check
    python3 .ci/imports.py --edges    # the whole graph, one edge a line
"""
import os, re, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
ROOT = os.path.normpath(ROOT)

def strip(text):
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    text = re.sub(r'r#*"(?:.|\n)*?"#*', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return text

modules = {}   # module path (tuple) -> file
files = {}     # file -> module path
children = {}  # file -> {name: module path}

def declare(path, file):
    modules[path] = file
    files[file] = path
    children[file] = {}
    raw = open(file, encoding="utf-8").read()
    text = re.sub(r'//[^\n]*', '', raw)
    # out-of-line modules, with an optional #[path] attribute
    for m in re.finditer(r'((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;', text):
        attrs, name = m.group(1), m.group(2)
        here = os.path.dirname(file)
        p = re.search(r'#\[path\s*=\s*"([^"]+)"\]', attrs)
        if p:
            child = os.path.join(here, p.group(1))
        else:
            base = here if os.path.basename(file) in ("mod.rs", "lib.rs", "main.rs") else os.path.join(here, os.path.basename(file)[:-3])
            child = os.path.join(base, name + ".rs")
            if not os.path.exists(child):
                child = os.path.join(base, name, "mod.rs")
        child = os.path.normpath(child)
        children[file][name] = path + (name,)
        declare(path + (name,), child)

declare((), os.path.join(ROOT, "lib.rs"))

macros = {}
for f in files:
    for m in re.finditer(r'macro_rules!\s*(\w+)', open(f, encoding="utf-8").read()):
        macros[m.group(1)] = f

def expand(tree, prefix=()):
    """Paths of a use tree (`a::{b, c::d as e, f::*}`)."""
    tree = tree.strip()
    out = []
    depth, start, parts = 0, 0, []
    if tree.endswith("}") and "{" in tree:
        head = tree[: tree.index("{")].rstrip(":").strip()
        inner = tree[tree.index("{") + 1 : -1]
        pre = prefix + tuple(p for p in head.split("::") if p)
        for i, ch in enumerate(inner + ","):
            if ch == "{": depth += 1
            elif ch == "}": depth -= 1
            elif ch == "," and depth == 0:
                item = inner[start:i].strip()
                if item: out += expand(item, pre)
                start = i + 1
        return out
    tree = re.sub(r'\s+as\s+\w+$', '', tree)
    return [prefix + tuple(p.strip() for p in tree.split("::") if p.strip())]

def inline_spans(text):
    """Where inline modules (`mod tests { … }`) sit: `super` inside one means the file itself."""
    spans = []
    for m in re.finditer(r'\bmod\s+\w+\s*\{', text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        spans.append((m.start(), i))
    return spans

def resolve(path, here, inline=0):
    """The file an absolute or relative path points into (`inline`: how many
    inline modules deep the path is written)."""
    mod = files[here]
    if not path: return None
    if path[0] == "crate": cur, rest = (), path[1:]
    elif path[0] in ("super", "self"):
        cur = mod if os.path.basename(here) in ("mod.rs", "lib.rs") or True else mod
        rest = list(path)
        while rest and rest[0] in ("super", "self"):
            if rest[0] == "super":
                if inline: inline -= 1
                else: cur = cur[:-1]
            rest = rest[1:]
        rest = tuple(rest)
    elif path[0] in children[here]:
        cur, rest = mod, path
    else:
        return None
    best = cur
    for i in range(len(rest)):
        cand = cur + tuple(rest[: i + 1])
        if cand in modules: best = cand
        else: break
    return modules.get(best)

edges = {f: set() for f in files}
for f in files:
    text = strip(open(f, encoding="utf-8").read())
    spans = inline_spans(text)
    depth = lambda pos: sum(1 for a, b in spans if a <= pos < b)
    refs = []
    for m in re.finditer(r'\buse\s+([^;]+);', text):
        # `pub use child::X`: the module's own public surface, not an import
        if re.match(r'pub(\([^)]*\))?\s+use', text[max(0, m.start() - 12): m.end()].split("\n")[-1].strip()) and \
                m.group(1).split("::")[0].strip("{ ") in children[f]:
            continue
        refs += [(r, depth(m.start())) for r in expand(m.group(1))]
    for m in re.finditer(r'(?<![\w:])((?:crate|super|self|\w+)(?:::\w+)+)', text):
        if text[max(0, m.start() - 4): m.start()].endswith("use "):
            continue
        refs.append((tuple(m.group(1).split("::")), depth(m.start())))
    for m in re.finditer(r'(?:\$?crate)::(\w+)!', text):
        if m.group(1) in macros: edges[f].add(macros[m.group(1)])
    for r, d in refs:
        t = resolve(r, f, d)
        if t and t != f: edges[f].add(t)

rel = lambda f: os.path.relpath(f, os.path.dirname(ROOT))
if "--edges" in sys.argv:
    for f in sorted(edges):
        for t in sorted(edges[f]): print(rel(f), "->", rel(t))
    sys.exit(0)

# Tarjan's strongly connected components
index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = counter[0]; counter[0] += 1
    stack.append(v); on.add(v)
    for w in edges[v]:
        if w not in index: visit(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        sccs.append(comp)
for v in sorted(files):
    if v not in index: visit(v)
circles = [c for c in sccs if len(c) > 1]
print(f"{len(files)} files, {sum(len(e) for e in edges.values())} import edges, {len(circles)} import circles")
for c in circles:
    print(f"  circle of {len(c)}: " + ", ".join(sorted(rel(f) for f in c)))
sys.exit(1 if circles else 0)
