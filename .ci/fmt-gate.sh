#!/usr/bin/env bash
# The format gate sees every file: `cargo fmt --check` reads every .rs under
# src/ (topics included, declared as plain `#[path] pub mod` items), and it
# fails on a deliberately misformatted topic file in a scratch copy.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"
read_files=$(cargo fmt -- --check -v 2>/dev/null | grep -c '^Formatting ' || true)
src_files=$(find src -name '*.rs' | wc -l)
tool_files=$(find tools -name '*.rs' | wc -l)
echo "cargo fmt reads $read_files files: every one of the $src_files .rs files under src/, build.rs, and the $tool_files of tools/"
[ "$read_files" -eq $((src_files + 1 + tool_files)) ] || { echo "cargo fmt does not read every file under src/ and tools/" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r Cargo.toml Cargo.lock build.rs rustfmt.toml src tools "$scratch"/
printf '\nfn   misformatted( ) -> u8 {1}\n' >> "$scratch/src/topics/threads/mod.rs"
if (cd "$scratch" && cargo fmt --check >/dev/null 2>&1); then
  echo "cargo fmt --check passed a misformatted topic file" >&2
  exit 1
fi
echo "cargo fmt --check fails on a misformatted topic file (src/topics/threads/mod.rs in a scratch copy)"
