#!/usr/bin/env bash
# "Adding a panel = one folder + one registry item", proved: in a scratch
# copy of the working tree, add an 18th topic (the template in
# .ci/scratch-topic/) as src/topics/scratch/ plus its `#[path] pub mod` item,
# regenerate the README's panel table (`cargo run`), then run the native
# tests, clippy for wasm32 and the format check, and list every file that
# changed. Fails if anything else had to change.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"
root=$PWD
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
# The README's panel table is generated: regenerate it (docs, not code).
# Its own target folder: the scratch crate has the same name, so it would
# overwrite the real build's binary (and `trunk build`'s text-file hook runs it).
export CARGO_TARGET_DIR="$root/target/scratch-topic"
cargo run --quiet --bin warpscope > /tmp/warpscope-table.md
python3 - <<'PY'
s = open("README.md").read()
head = "| route | notes § |"
a = s.index(head)
b = s.index("\n\n", a)
s = s[:a] + open("/tmp/warpscope-table.md").read().rstrip("\n") + s[b:]
open("README.md", "w").write(s)
PY
cargo fmt --check
cargo test --quiet 2>&1 | grep -E "^test result"
cargo clippy --target wasm32-unknown-unknown --quiet -- -D warnings
changed=$(git status --porcelain --untracked-files=all | awk '{print $2}')
echo "files an 18th topic touched:"
echo "$changed" | sed 's/^/  /'
unexpected=$(echo "$changed" | grep -v -e '^src/topics/scratch/' -e '^src/topics/mod.rs$' -e '^README.md$' || true)
if [ -n "$unexpected" ]; then
  echo "an 18th topic had to touch more than its folder, the registry and the README table:" >&2
  echo "$unexpected" >&2
  exit 1
fi
echo "new topic: one folder + one registry item (+ the generated README table)"
