#!/usr/bin/env bash
# Install everything Warpscope needs on a fresh Debian machine, idempotently:
# the wasm32 target, trunk, wasm-bindgen-cli = Cargo.lock's wasm-bindgen,
# wasm-opt (npm binaryen, since Debian's is too old for current rustc output),
# at the versions .ci/pins.env pins (the split build's splitter,
# wasm_split_cli_support, is a Cargo dependency of tools/split: no install),
# Debian's chromium + chromium-driver, and the npm packages (package-lock.json).
# Afterwards run tools with PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# and TRUNK_OFFLINE=true (trunk then never tries to download a tool).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_OFFLINE=true

step() { printf '\n== %s\n' "$*"; }
# shellcheck source=pins.env
source .ci/pins.env

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

for component in clippy rustfmt; do
  if ! rustup component list --installed | grep -q "^$component"; then
    step "rustup component add $component"
    rustup component add "$component"
  fi
done

if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
  step "cargo install trunk $TRUNK_VERSION (about 8 minutes on 2 cores)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ "$WB_VERSION" != "$WASM_BINDGEN_VERSION" ]; then
  echo ".ci/pins.env pins wasm-bindgen $WASM_BINDGEN_VERSION, Cargo.lock has $WB_VERSION" >&2
  exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WB_VERSION" ]; then
  step "cargo install wasm-bindgen-cli $WB_VERSION"
  # Not --locked: a crate pinned in its lock file is missing from crates.io.
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi
if ! grep -q "wasm_bindgen = \"$WB_VERSION\"" Trunk.toml; then
  echo "Trunk.toml pins a wasm_bindgen other than Cargo.lock's $WB_VERSION" >&2
  exit 1
fi

# fonts-noto-cjk: the screenshots the tests write show the Chinese UI properly.
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null \
   || ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; then
  step "apt-get install chromium chromium-driver fonts-noto-cjk"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver fonts-noto-cjk >/dev/null
fi

if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "npm ci"
  npm ci --no-audit --no-fund
fi

step "cargo fetch"
cargo fetch --quiet
