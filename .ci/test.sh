#!/usr/bin/env bash
# Every test: native unit + property tests of the pure core, a release build
# with trunk, and the end-to-end browser tests in headless Chromium.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash .ci/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_OFFLINE=true
step() { printf '\n== %s\n' "$*"; }

step "cargo fmt --check (every file of src/; fails on a misformatted topic file in a scratch copy)"
cargo fmt --check
bash .ci/fmt-gate.sh

step "no import circle in src/ (.ci/imports.py)"
python3 .ci/imports.py

step "cargo clippy, native (the app and tools/split) and wasm32 (warnings are errors)"
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo clippy --target wasm32-unknown-unknown --quiet -- -D warnings

step "cargo test (native: simulations, URL parsing, i18n, scenes, registry; the split tool's manifest and pins)"
cargo test --workspace --quiet

step "a new topic is one folder + one registry item, through the release split build (.ci/new-topic.sh, in a scratch copy)"
bash .ci/new-topic.sh

step "trunk build --release"
trunk build --release

step "end-to-end tests (playwright-core driving /usr/bin/chromium)"
node --test tests/e2e/
