#!/usr/bin/env python3
"""The split build (issue 24), run by trunk after each build (Trunk.toml's
post_build hook): the page loads only what it shows.

Trunk builds the wasm (cargo, with `--emit-relocs` from .cargo/config.toml)
and would ship it whole. This step instead takes cargo's linked module and

1. cuts it at the `#[wasm_split]` points (each topic's view, build.rs; the
   deck, practice and lecture pages, ui/shell.rs; the practice card's
   question, ui/practice.rs) with
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
    chunks = sorted(f for f in os.listdir(split_dir) if f.endswith(".wasm") and f != f"{NAME}.wasm")
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

    # 4. Content-hashed names, the loader and the glue patched to them.
    loader = open(os.path.join(split_dir, "__wasm_split.js"), encoding="utf8").read()
    names = {}
    for c in chunks:
        data = open(os.path.join(split_dir, c), "rb").read()
        stem = c[: -len(".wasm")]
        names[c] = f"{stem}-{short_hash(data)}.wasm"
        loader = loader.replace(f'"./{c}"', f'"./{names[c]}"')
    # The loader reaches the main module's exports through the glue's
    # `initSync` (which returns them once the module runs); imported from the
    # glue, the two files would each need the other's hashed name. boot.js
    # hands the glue over before it starts the module.
    main_import = f'import {{ initSync }} from "./{NAME}.js";'
    if main_import not in loader:
        sys.exit(f"the loader does not import the glue as expected ({main_import})")
    loader = loader.replace(main_import, "const initSync = (...args) => globalThis.wasmBindings.initSync(...args);")
    # Which chunks each split point needs (the loader lists them).
    routes = {}
    chunk_vars = dict(re.findall(r'const (__chunk_\d+) = makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\./([^"]+)"', loader))
    for name, own, deps in re.findall(r"export const __wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\((.*?)\n?, \[([^\]]*)\]\)\);", loader, re.S):
        files = re.findall(r'new URL\("\./([^"]+)"', own)
        files += [chunk_vars[d] for d in re.findall(r"__chunk_\d+", deps) if d in chunk_vars]
        if name.startswith("topic_"):
            routes[name[len("topic_"):].replace("_", "-")] = files
        elif name.startswith("page_"):
            routes[name[len("page_"):]] = files
    # What boot.js (a deep link's chunks, fetched beside the main module)
    # and the service worker (every chunk, cached on a first visit) read.
    every = sorted(names.values())
    position = {f: i for i, f in enumerate(every)}
    # Smaller: no comments (each chunk's list of split points), every chunk's
    # name once (in `chunks`), one fetcher for all (16.7 -> ~10.5 KB gzipped).
    loader = re.sub(r"/\* [^*\n]* \*/\n", "", loader)
    fetcher = (
        "() => {\n    const src = fetch(new URL(\"./%s\", import.meta.url));\n    src.catch(() => {});\n"
        "    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));\n}\n"
    )
    for f, i in position.items():
        loader = loader.replace(fetcher % f, f"__fetch({i})")
    loader = loader.replace(
        "\nlet sharedImports = undefined;",
        "\n// Written by web/split.py: every chunk of this build (the service worker caches them all).\n"
        f"export const chunks = {json.dumps(every)};\n"
        "const __fetch = (i) => () => {\n    const src = fetch(new URL(chunks[i], import.meta.url));\n"
        "    src.catch(() => {});\n    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));\n};\n"
        "let sharedImports = undefined;",
        1,
    )
    if "const __fetch" not in loader:
        sys.exit("the loader's layout is not as expected (let sharedImports)")
    loader += (
        "\n// Written by web/split.py: each route's chunks (indices into `chunks`), which boot.js preloads.\n"
        f"export const routes = {json.dumps({r: [position[f] for f in fs] for r, fs in routes.items()}, sort_keys=True, separators=(',', ':'))};\n"
    )

    loader_name = f"wasm_split-{short_hash(loader.encode())}.js"
    glue = open(os.path.join(bg_dir, f"{NAME}.js"), encoding="utf8").read()
    refs = re.findall(r"""from ['"]\./__wasm_split\.js['"]""", glue)
    if not refs:
        sys.exit("the glue does not import the loader (./__wasm_split.js)")
    glue = re.sub(r"""(from ['"])\./__wasm_split\.js(['"])""", rf"\g<1>./{loader_name}\g<2>", glue)
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
