#!/usr/bin/env bash
# Builds the engine for the browser: cargo to wasm32, then wasm-bindgen into pkg/ (ES module for the web).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${PROFILE:-release}
echo "==> cargo build --lib --target wasm32-unknown-unknown --profile $profile"
cargo build --lib --target wasm32-unknown-unknown --profile "$profile"
dir=$profile; [ "$profile" = dev ] && dir=debug
echo "==> wasm-bindgen --target web --out-dir pkg"
wasm-bindgen --target web --no-typescript --out-dir pkg "target/wasm32-unknown-unknown/$dir/plyscope.wasm"
ls -l pkg/plyscope_bg.wasm
