#!/usr/bin/env python3
"""The import graph of src/, and the check that it has no circle.

Nodes: one per file, except that a concept's folder under `src/topics/` or
`src/sim/` (`topics/<id>/`, `sim/flash/`, …) is one node: a topic owns its
folder (its `mod.rs` declares the topic from its parts, which use its
conversions). Edges: A -> B when A names an item of B (`use crate::…`,
`use super::…`, a `crate::x::y` or `child::y` path, a `crate::m!` macro); a
`pub use child::X` re-export is the module's own surface, not an import.
Test code (`#[cfg(test)]` modules, inline or in files) is not part of the
library's layering: tests may reach any layer (e.g. to install the
registry's texts); `--with-tests` counts it too.

Prints every import circle (strongly connected component of more than one
node) and exits 1 if there is any. Also checks the layers of `src/ui/`:
the kit (`ui/kit/`, what a topic's view may call) sits below the registry
(`topics/`) and names neither it nor the app; the app (`ui/app/`, the shell
and pages) sits above it, and nothing below the app names it (only
`ui/mod.rs` and `main.rs` start it). A crossing is printed and exits 1.

    python3 .ci/imports.py                # the check
    python3 .ci/imports.py --edges        # the whole graph, one edge a line
    python3 .ci/imports.py --with-tests   # test code counted as well
"""
import os, re, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
ROOT = os.path.normpath(ROOT)

# Comments, char literals, raw strings and strings, read in one left-to-right
# pass (so `"https://…"` is a string, not a comment, and a string ending in
# `r` is not a raw string's start).
TOKEN = re.compile(
    r"//[^\n]*"
    r"|/\*.*?\*/"
    r"|'(?:\\u\{[0-9a-fA-F]+\}|\\.|[^'\\\n])'"
    r'|(?<!\w)r(#*)"(?:.|\n)*?"\1'
    r'|"(?:\\.|[^"\\])*"',
    re.S,
)

def strip(text):
    """Comments out, strings and chars emptied."""
    return TOKEN.sub(lambda m: '""' if m.group(0)[0] in "r\"'" else "", text)

def uncomment(text):
    """Comments out, strings kept (a `#[path = "…"]` is read from them)."""
    return TOKEN.sub(lambda m: m.group(0) if m.group(0)[0] in "r\"'" else "", text)

WITH_TESTS = "--with-tests" in sys.argv
modules = {}   # module path (tuple) -> file
test_files = set()  # files declared under #[cfg(test)]
files = {}     # file -> module path
children = {}  # file -> {name: module path}

def declare(path, file):
    modules[path] = file
    files[file] = path
    children[file] = {}
    raw = open(file, encoding="utf-8").read()
    text = uncomment(raw)
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
        if "cfg(test)" in attrs or file in test_files:
            test_files.add(child)
        declare(path + (name,), child)

declare((), os.path.join(ROOT, "lib.rs"))

macros = {}
for f in files:
    for m in re.finditer(r'macro_rules!\s*(\w+)', strip(open(f, encoding="utf-8").read())):
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

def drop_tests(text):
    """The text without its `#[cfg(test)]` items (inline modules, functions)."""
    out, i = [], 0
    for m in re.finditer(r'#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?(?:mod|fn|use)\b[^{;]*([{;])', text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        j = m.end()
        if m.group(1) == "{":
            depth = 1
            while j < len(text) and depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
        i = j
    out.append(text[i:])
    return "".join(out)

def node(f):
    """A concept folder under topics/ or sim/ is one node."""
    rel_ = os.path.relpath(f, ROOT).split(os.sep)
    if len(rel_) >= 3 and rel_[0] in ("topics", "sim"):
        return os.path.join(ROOT, rel_[0], rel_[1]) + os.sep
    return f

edges = {}
for f in files:
    if f in test_files and not WITH_TESTS:
        continue
    text = strip(open(f, encoding="utf-8").read())
    if not WITH_TESTS:
        text = drop_tests(text)
    edges.setdefault(node(f), set())
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
        if m.group(1) in macros and node(macros[m.group(1)]) != node(f):
            edges[node(f)].add(node(macros[m.group(1)]))
    for r, d in refs:
        t = resolve(r, f, d)
        if t and node(t) != node(f) and (WITH_TESTS or t not in test_files):
            edges[node(f)].add(node(t))
    # The registry's `ALL` (written by build.rs) names every topic it declares.
    if 'include!(concat!(env!("OUT_DIR")' in text:
        for child in children[f].values():
            edges[node(f)].add(node(modules[child]))
for targets in list(edges.values()):
    for t in targets:
        edges.setdefault(t, set())

rel = lambda f: os.path.relpath(f, os.path.dirname(ROOT))

# The layers of ui/: kit < topics (the registry and each topic) < app.
def layer(f):
    r = os.path.relpath(f, ROOT).split(os.sep)
    if r[:2] == ["ui", "kit"]: return "kit"
    if r[:2] == ["ui", "app"]: return "app"
    if r[0] == "topics": return "topics"
    return None
FORBIDDEN = {("kit", "topics"), ("kit", "app"), ("topics", "app")}
crossings = sorted(
    (rel(f), rel(t)) for f in edges for t in edges[f]
    if (layer(f), layer(t)) in FORBIDDEN
    or (layer(t) == "app" and layer(f) is None and rel(f) not in ("src/ui/mod.rs", "src/main.rs"))
)
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
for v in sorted(edges):
    if v not in index: visit(v)
circles = [c for c in sccs if len(c) > 1]
print(f"{len(files)} files ({len(test_files)} test-only) in {len(edges)} nodes, "
      f"{sum(len(e) for e in edges.values())} import edges, {len(circles)} import circles"
      + (" (test code counted)" if WITH_TESTS else ""))
for c in circles:
    print(f"  circle of {len(c)}: " + ", ".join(sorted(rel(f) for f in c)))
print(f"{len(crossings)} layer crossings (ui/kit < topics < ui/app)")
for f, t in crossings:
    print(f"  {f} -> {t}")
sys.exit(1 if circles or crossings else 0)
