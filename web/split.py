#!/usr/bin/env python3
"""The split build (issue 24), run by trunk after each build (Trunk.toml's
post_build hook): the page loads only what it shows.

Trunk builds the wasm (cargo, with `--emit-relocs` from .cargo/config.toml)
and would ship it whole. This step instead takes cargo's linked module and

1. cuts it at the `#[wasm_split]` points (each topic's view, build.rs, which
   also lists each topic's route and split point in
   `warpscope-topics.tsv` beside the linked module; the
   deck, practice and lecture pages, ui/app/shell/mod.rs; the practice card's
   question, ui/kit/practice.rs; the GIF export's form, ui/kit/export.rs) with
   `wasm-split-cli` (wasm_split_cli_support, pinned in .ci/setup.sh): a main
   module, one module per split point, shared chunks, and a loader
   (`__wasm_split.js`) that fetches and instantiates them on demand;
2. runs wasm-bindgen on the main module with `--keep-lld-exports` (the
   chunks import the main module's functions, memory and table);
3. runs `wasm-opt -Oz` on every module (release builds);
4. names every file by its content's hash (so that caches never mix two
   builds), patches the loader and the glue to those names, and replaces
   trunk's unsplit glue and wasm in the staging folder. The loader also
   exports `chunks` (every chunk of the build, which the service worker
   precaches) and `routes` (the chunks each panel and page needs, which
   boot.js preloads beside the main module on a deep link); index.html's
   script tag names the glue, the main module and the loader.

    python3 web/split.py            # in trunk's hook (TRUNK_STAGING_DIR, TRUNK_PROFILE)
    python3 web/split.py --report   # also print each file's size (raw, gzip -9)
"""
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
NAME = "warpscope"
def run(*cmd):
    t = time.time()
    subprocess.run(cmd, check=True, cwd=ROOT)
    return time.time() - t


def short_hash(data):
    return hashlib.sha256(data).hexdigest()[:16]



def leb(data, i):
    """An unsigned LEB128 at `data[i]`: (value, index after it)."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def uleb(n):
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def wasm_name(s):
    return uleb(len(s.encode())) + s.encode()


def imports_of(path):
    """A module's imports: [(module, field, kind, type description bytes)]."""
    data = open(path, "rb").read()
    i, out = 8, []
    while i < len(data):
        section, i = data[i], i + 1
        size, i = leb(data, i)
        end = i + size
        if section == 2:
            count, j = leb(data, i)
            for _ in range(count):
                n, j = leb(data, j)
                module, j = data[j : j + n].decode(), j + n
                n, j = leb(data, j)
                field, j = data[j : j + n].decode(), j + n
                kind, j = data[j], j + 1
                start = j
                if kind == 0:  # function: a type index
                    _, j = leb(data, j)
                elif kind == 1:  # table: element type, limits
                    j += 1
                    flags, j = leb(data, j)
                    _, j = leb(data, j)
                    if flags & 1:
                        _, j = leb(data, j)
                elif kind == 2:  # memory: limits
                    flags, j = leb(data, j)
                    _, j = leb(data, j)
                    if flags & 1:
                        _, j = leb(data, j)
                elif kind == 3:  # global: value type, mutability
                    j += 2
                else:
                    sys.exit(f"{path}: an import of kind {kind}")
                out.append((module, field, kind, data[start:j]))
            return out
        i = end
    return out


def limits_min(kind, desc):
    return leb(desc, 2 if kind == 1 else 1)[0]


def hub_module(chunk_paths, hub):
    """The module that lets the merge keep one set of imports: it imports
    what the chunks import from the main module (memory, table, the stack
    pointer), from `hub`, and exports it under the chunks' names; merged
    under the name the chunks import from, every chunk's imports resolve to
    its exports. Tables and memories take the largest minimum any chunk asks."""
    wanted = {}
    for path in chunk_paths:
        for module, field, kind, desc in imports_of(path):
            if kind == 0:
                sys.exit(f"{path} imports a function ({module}.{field}): chunks of this splitter import none")
            old = wanted.get(field)
            if old and old[1] != kind:
                sys.exit(f"{field}: imported as two kinds")
            if not old or (kind in (1, 2) and limits_min(kind, desc) > limits_min(kind, old[2])):
                wanted[field] = (module, kind, desc)
    modules = {m for m, _, _ in wanted.values()}
    if len(modules) != 1:
        sys.exit(f"chunks import from {modules}, not one module")
    imports = bytearray(uleb(len(wanted)))
    exports = bytearray(uleb(len(wanted)))
    index = {}
    for field, (_, kind, desc) in sorted(wanted.items()):
        imports += wasm_name(hub) + wasm_name(field) + bytes([kind]) + desc
        exports += wasm_name(field) + bytes([kind]) + uleb(index.get(kind, 0))
        index[kind] = index.get(kind, 0) + 1
    module = b"\0asm\x01\0\0\0"
    for section, body in ((2, imports), (7, exports)):
        module += bytes([section]) + uleb(len(body)) + body
    return modules.pop(), module


def read_loader(path):
    """What the splitter's loader says: each split point's module and the
    chunks it needs, and what the chunks import from the main module."""
    loader = open(path, encoding="utf8").read()
    chunk_vars = dict(re.findall(r'const (__chunk_\d+) = makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\./([^"]+)"', loader))
    splits = {}
    for name, own, deps in re.findall(r"export const __wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\((.*?)\n?, \[([^\]]*)\]\)\);", loader, re.S):
        files = re.findall(r'new URL\("\./([^"]+)"', own)
        if len(files) != 1:
            sys.exit(f"split point {name}: {len(files)} modules")
        splits[name] = [chunk_vars[d] for d in re.findall(r"__chunk_\d+", deps)] + files
    shared = re.search(r"const \{([^}]*)\} = initSync\(undefined, undefined\);", loader)
    if not splits or not shared:
        sys.exit(f"{path}: not the loader layout this script reads (makeLoad, wrapAsyncCb, initSync)")
    files = set(chunk_vars.values()) | {f for fs in splits.values() for f in fs}
    exports = set(re.findall(r"^export const (\w+)", loader, re.M))
    if exports != {f"__wasm_split_load_{name}" for name in splits}:
        sys.exit(f"{path} exports more than its split points' loaders: {sorted(exports)}")
    return {"splits": splits, "files": files, "shared": [n.strip() for n in shared.group(1).split(",") if n.strip()]}


# Chunks smaller than this (bytes, before wasm-opt; about 2 KB gzipped) are
# merged into one module that every split point needing any of them loads.
SMALL_CHUNK = 5000


def merge_small_chunks(plan, split_dir, debug=False):
    """Merges the splitter's small chunks into one module (npm binaryen's
    wasm-merge). A chunk only writes its functions into the shared table and
    its data into the shared memory, at fixed places, so merged they do the
    same; the page then fetches one module instead of ~100 tiny ones, for
    a few KB more (the small chunks of panels it doesn't show)."""
    small = sorted(
        f for f in plan["files"]
        if f.startswith("chunk_") and os.path.getsize(os.path.join(split_dir, f)) < SMALL_CHUNK
    )
    if len(small) < 2:
        return plan
    paths = [os.path.join(split_dir, f) for f in small]
    module, hub = hub_module(paths, "__wasm_split_hub")
    hub_path = os.path.join(split_dir, "hub.wasm.tmp")
    open(hub_path, "wb").write(hub)
    merged = "chunk_small.wasm"
    tool = os.path.join(ROOT, "node_modules", ".bin", "wasm-merge")
    cmd = [tool if os.path.exists(tool) else "wasm-merge", hub_path, module]
    for i, path in enumerate(paths):
        cmd += [path, f"c{i}"]
    cmd += ["-o", os.path.join(split_dir, merged), *WASM_FEATURES, *(["-g"] if debug else [])]
    run(*cmd)
    for path in paths + [hub_path]:
        os.remove(path)
    gone = set(small)
    splits = {}
    for name, files in plan["splits"].items():
        kept = [f for f in files if f not in gone]
        splits[name] = ([merged] if len(kept) < len(files) else []) + kept
    return dict(plan, splits=splits, files=(plan["files"] - gone) | {merged})


# What rustc 1.95 emits for wasm32 with SIMD on (.cargo/config.toml), as
# binaryen's tools spell it (web/wasm-opt-all.mjs sets the same).
WASM_FEATURES = [
    "--enable-simd", "--enable-bulk-memory", "--enable-bulk-memory-opt", "--enable-call-indirect-overlong",
    "--enable-mutable-globals", "--enable-sign-ext", "--enable-nontrapping-float-to-int",
    "--enable-multivalue", "--enable-reference-types",
]


def read_topics(path):
    """Each topic's split point and route, as build.rs wrote them beside the
    linked module (`warpscope-topics.tsv`: route, module, split point), so
    that a chunk's route comes from the registry, not from its name."""
    if not os.path.exists(path):
        sys.exit(f"{path} missing: build.rs writes it with the wasm build")
    rows = [line.split("\t") for line in open(path, encoding="utf8").read().splitlines() if not line.startswith("#")]
    return {split: route for route, _module, split in rows}


def write_loader(plan, names, topics):
    """The loader the main module imports its split points' loaders from
    (`__wasm_split_load_<name>(callback, data)`): each fetches and
    instantiates the modules its split point needs (each once; a failed one
    is fetched again on the next try) and then calls back into the main
    module with whether it worked. Exports `chunks` (every module of the
    build, which the service worker precaches) and `routes` (the modules each
    panel and page needs, which boot.js preloads on a deep link); `topics`
    maps each topic's split point to its route (`read_topics`)."""
    every = sorted(names.values())
    position = {f: i for i, f in enumerate(every)}
    needs = {name: [position[names[f]] for f in files] for name, files in sorted(plan["splits"].items())}
    missing = sorted(set(topics) - set(needs))
    if missing:
        sys.exit(f"topics without a chunk (no split point {', '.join(missing)} in the module)")
    unlisted = sorted(n for n in needs if n.startswith("topic_") and n not in topics)
    if unlisted:
        sys.exit(f"split points {', '.join(unlisted)} are not in build.rs's list (a stale warpscope-topics.tsv?)")
    routes = {}
    for name, ix in needs.items():
        if name in topics:
            routes[topics[name]] = ix
        elif name.startswith("page_"):
            routes[name[len("page_"):]] = ix
    shared = ", ".join(plan["shared"])
    loaders = "".join(f"export const __wasm_split_load_{name} = load({json.dumps(name)});\n" for name in needs)
    return f"""// The split build's loader, written by web/split.py (issue 24).
// The main module reaches it through the glue's `initSync` (boot.js hands the
// glue over), which also hands over what every chunk imports.
const initSync = (...args) => globalThis.wasmBindings.initSync(...args);
// Every module of this build (the service worker caches them all).
export const chunks = {json.dumps(every)};
// Each route's modules (indices into `chunks`), which boot.js preloads.
export const routes = {json.dumps(routes, sort_keys=True, separators=(',', ':'))};
// The routes that are topics (each has its own text file, which boot.js fetches on a deep link).
export const topics = {json.dumps(sorted(topics.values()))};
// Each split point's modules.
const needs = {json.dumps(needs, separators=(',', ':'))};
let shared;
function imports() {{
    if (shared === undefined) {{
        const {{ {shared} }} = initSync(undefined, undefined);
        const from = {{ {shared} }};
        // Merged chunks import through web/split.py's hub, the others directly.
        shared = {{ __wasm_split: from, __wasm_split_hub: from }};
    }}
    return shared;
}}
const instances = [];
function instance(i) {{
    let p = instances[i];
    if (p === undefined) {{
        const src = fetch(new URL(chunks[i], import.meta.url));
        p = instances[i] = WebAssembly.instantiateStreaming(src, imports());
        // Successes only are kept: a module that failed is fetched again.
        p.catch(() => {{ if (instances[i] === p) instances[i] = undefined; }});
    }}
    return p;
}}
const load = (name) => async (callbackIndex, callbackData) => {{
    let success;
    try {{
        await Promise.all(needs[name].map(instance));
        success = true;
    }} catch (e) {{
        console.error(e);
        success = false;
    }} finally {{
        imports().__wasm_split.__indirect_function_table.get(callbackIndex)(callbackData, success);
    }}
}};
{loaders}"""

def main():
    staging = os.environ.get("TRUNK_STAGING_DIR")
    if not staging:
        sys.exit("web/split.py runs in trunk's post_build hook (TRUNK_STAGING_DIR is not set)")
    profile = os.environ.get("TRUNK_PROFILE", "debug")
    release = profile == "release"
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    raw = os.path.join(target, "wasm32-unknown-unknown", profile, f"{NAME}.wasm")
    work = os.path.join(target, "wasm-split", profile)
    shutil.rmtree(work, ignore_errors=True)
    split_dir, bg_dir = os.path.join(work, "split"), os.path.join(work, "bindgen")
    os.makedirs(bg_dir)
    started = time.time()
    times = {}

    # 1. Split the linked module (it must still carry its relocations).
    times["split"] = run("wasm-split-cli", raw, split_dir, "--out-name", NAME)
    # 2. The JS glue of the main module; its exports stay for the chunks.
    times["wasm-bindgen"] = run(
        "wasm-bindgen", os.path.join(split_dir, f"{NAME}.wasm"), "--out-dir", bg_dir, "--out-name", NAME,
        "--target", "web", "--no-typescript", "--keep-lld-exports",
        *([] if release else ["--debug", "--keep-debug"]),
    )
    # 1b. Fewer, larger chunks: the splitter makes one chunk per set of split
    # points sharing code (~300, most under 2 KB), each a request, a module to
    # compile and its own header; the small ones are merged into one module.
    plan = read_loader(os.path.join(split_dir, "__wasm_split.js"))
    t = time.time()
    plan = merge_small_chunks(plan, split_dir, debug=not release)
    times["merge"] = time.time() - t
    chunks = sorted(plan["files"])
    modules = [os.path.join(bg_dir, f"{NAME}_bg.wasm")] + [os.path.join(split_dir, c) for c in chunks]
    # 3. `wasm-opt -Oz` on every module (it also drops the names and the types
    # a chunk doesn't use): npm's binaryen loaded once for all chunks
    # (web/wasm-opt-all.mjs), the main module beside them.
    if release:
        t = time.time()
        procs = [
            subprocess.Popen(["node", "web/wasm-opt-all.mjs", *group], cwd=ROOT)
            for group in (modules[:1], modules[1:]) if group
        ]
        if any(p.wait() != 0 for p in procs):
            sys.exit("wasm-opt failed")
        times["wasm-opt"] = time.time() - t

    # 4. Content-hashed names and the loader written for them.
    names = {}
    for c in chunks:
        data = open(os.path.join(split_dir, c), "rb").read()
        names[c] = f"{c[: -len('.wasm')]}-{short_hash(data)}.wasm"
    loader = write_loader(plan, names, read_topics(os.path.join(os.path.dirname(raw), "warpscope-topics.tsv")))
    loader_name = f"wasm_split-{short_hash(loader.encode())}.js"
    glue = open(os.path.join(bg_dir, f"{NAME}.js"), encoding="utf8").read()
    refs = re.findall(r"""from ['"]\./__wasm_split\.js['"]""", glue)
    if not refs:
        sys.exit("the glue does not import the loader (./__wasm_split.js)")
    glue = re.sub(r"""(from ['"])\./__wasm_split\.js(['"])""", rf"\g<1>./{loader_name}\g<2>", glue)
    if release:
        # The glue minified (npm's terser; its exports keep their names):
        # 11.9 → 9.5 KB gzipped on every page. The loader stays as written:
        # the service worker reads its chunk list line by line.
        t = time.time()
        glue = subprocess.run(
            ["node", os.path.join("node_modules", "terser", "bin", "terser"), "--module", "--compress", "--mangle"],
            input=glue, capture_output=True, text=True, check=True, cwd=ROOT,
        ).stdout
        times["terser"] = time.time() - t
    main_wasm = open(modules[0], "rb").read()
    wasm_name = f"{NAME}-{short_hash(main_wasm)}_bg.wasm"
    glue = glue.replace(f"{NAME}_bg.wasm", wasm_name)
    js_name = f"{NAME}-{short_hash(glue.encode())}.js"

    # Into the staging folder, replacing trunk's unsplit files.
    for f in os.listdir(staging):
        if re.fullmatch(rf"{NAME}-[0-9a-f]+(_bg\.wasm|\.js)", f):
            os.remove(os.path.join(staging, f))
    for c in chunks:
        shutil.copyfile(os.path.join(split_dir, c), os.path.join(staging, names[c]))
    open(os.path.join(staging, loader_name), "w", encoding="utf8").write(loader)
    open(os.path.join(staging, js_name), "w", encoding="utf8").write(glue)
    open(os.path.join(staging, wasm_name), "wb").write(main_wasm)

    index_path = os.path.join(staging, "index.html")
    index = open(index_path, encoding="utf8").read()
    tag = re.search(r'<script type="module" src="[^"]*boot\.js"[^>]*></script>', index)
    if not tag:
        sys.exit("index.html has no boot.js script tag (Trunk.toml pattern_script)")
    base = re.search(r'data-js="([^"]*?)' + NAME, tag.group(0)).group(1)
    new_tag = (
        f'<script type="module" src="{base}boot.js" data-js="{base}{js_name}" data-wasm="{base}{wasm_name}" '
        f'data-loader="{base}{loader_name}"></script>'
    )
    index = index.replace(tag.group(0), new_tag)
    # Trunk's preload links name its unsplit files: drop them.
    index = re.sub(rf'\s*<link rel="(?:modulepreload|preload)"[^>]*{NAME}-[0-9a-f]+(?:_bg\.wasm|\.js)"[^>]*>', "", index)
    open(index_path, "w", encoding="utf8").write(index)

    times["total"] = time.time() - started
    summary = ", ".join(f"{k} {v:.1f} s" for k, v in times.items())
    print(f"web/split.py ({profile}): main + {len(chunks)} chunks; {summary}", file=sys.stderr)
    if "--report" in sys.argv or os.environ.get("WARPSCOPE_SPLIT_REPORT"):
        for f in [wasm_name, js_name, loader_name] + [names[c] for c in chunks]:
            data = open(os.path.join(staging, f), "rb").read()
            print(f"{f}\t{len(data)}\t{len(gzip.compress(data, 9))}", file=sys.stderr)


if __name__ == "__main__":
    main()
