#!/usr/bin/env bash
# "Adding a panel = one folder + one registry item", proved through the
# release split build: in a scratch copy of the working tree, add a new topic
# (the template in .ci/scratch-topic/) as src/topics/scratch/ plus its
# `#[path] pub mod` item, regenerate the generated panel table
# (docs/panels.md; `cargo run`), run the native tests,
# clippy for wasm32 and the format check, and list every file that changed
# (fails if anything else had to change). Then `trunk build --release` in the
# scratch copy: the new topic's chunk must be in dist/ and its route must load
# in headless Chromium (.ci/route-loads.mjs). Needs the tools of .ci/setup.sh
# (trunk, wasm-bindgen, node_modules, chromium; the splitter is tools/split).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
export PATH="$root/node_modules/.bin:$HOME/.cargo/bin:$PATH" TRUNK_OFFLINE=true
[ -d node_modules/playwright-core ] || { echo "node_modules missing: run npm ci (or .ci/setup.sh)" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The working tree as git sees it (tracked and untracked, not ignored).
git ls-files -co --exclude-standard -z | (cd "$root" && xargs -0 cp --parents -t "$scratch")
cd "$scratch"
git init -q && git add -A && git -c user.name=ci -c user.email=ci@localhost commit -qm base
# 1. One folder.
mkdir src/topics/scratch
cp "$root"/.ci/scratch-topic/*.rs "$root"/.ci/scratch-topic/*.tsv src/topics/scratch/
# 2. One registry item, after the last topic.
python3 - <<'PY'
p = "src/topics/mod.rs"
s = open(p).read()
last = s.rindex("\npub mod ")
end = s.index("\n", last + 1)
s = s[: end + 1] + '#[path = "scratch/mod.rs"]\npub mod scratch;\n' + s[end + 1 :]
open(p, "w").write(s)
PY
# The panel table is generated: regenerate it (docs, not code) where it
# lives, docs/panels.md.
# Its own target folder: the scratch crate has the same name, so it would
# overwrite the real build's binary (and `trunk build`'s text-file hook runs it).
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}/scratch-topic"
table_doc=docs/panels.md
cargo run --quiet --bin warpscope > "$scratch/table.md.tmp"
python3 - "$table_doc" "$scratch/table.md.tmp" <<'PY'
import sys
doc, table = sys.argv[1], open(sys.argv[2]).read().rstrip("\n")
s = open(doc).read()
a = s.index("| route | notes § |")
b = s.find("\n\n", a)
b = len(s.rstrip("\n")) if b < 0 else b
s = s[:a] + table + s[b:]
open(doc, "w").write(s)
PY
rm "$scratch/table.md.tmp"
grep -q '^| `#/scratch` |' "$table_doc" || { echo "$table_doc: no row for the new topic" >&2; exit 1; }
cargo fmt --check
cargo test --quiet 2>&1 | grep -E "^test result"
cargo clippy --target wasm32-unknown-unknown --quiet -- -D warnings
changed=$(git status --porcelain --untracked-files=all | awk '{print $2}')
echo "files a new topic touched:"
echo "$changed" | sed 's/^/  /'
unexpected=$(echo "$changed" | grep -v -e '^src/topics/scratch/' -e '^src/topics/mod.rs$' -e "^$table_doc\$" || true)
if [ -n "$unexpected" ]; then
  echo "a new topic had to touch more than its folder, the registry and the panel table ($table_doc):" >&2
  echo "$unexpected" >&2
  exit 1
fi
echo "new topic: one folder + one registry item (+ the generated panel table in $table_doc)"
# 3. Through the release split build: the new topic's view is a split point
# of its own (named by build.rs, listed in warpscope-topics.tsv), its chunk is
# in dist/, and its route loads in headless Chromium.
ln -s "$root/node_modules" node_modules
trunk build --release
split=$(awk -F'\t' '$1 == "scratch" { print $3 }' "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/warpscope-topics.tsv")
[ -n "$split" ] || { echo "build.rs listed no split point for the new topic" >&2; exit 1; }
chunks=$(cd dist && ls "split_$split"-*.wasm 2>/dev/null || true)
[ -n "$chunks" ] || { echo "dist/ has no chunk of the new topic (split_$split-*.wasm)" >&2; exit 1; }
echo "the new topic's chunk: dist/$chunks"
# The template's defaults: n = 1000 in blocks of 256 are 4 blocks.
node .ci/route-loads.mjs dist scratch "$split" scratch-blocks=4
echo "new topic: through the release split build (its chunk exists, its route loads)"
