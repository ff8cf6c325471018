#!/usr/bin/env bash
# Builds the engine for the browser: cargo to wasm32, then wasm-bindgen into pkg/ (ES module for the
# web). Two builds: the scalar one in pkg/, for any browser, and one with WebAssembly SIMD (simd128)
# in pkg/simd/, which the worker loads when the browser validates a SIMD module (www/worker.js).
# The SIMD build has its own target directory, so that the two sets of flags never rebuild each
# other's dependencies. SIMD=0 skips it (pkg/simd/ is then left as it was, or absent: the worker
# falls back to the scalar build).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${PROFILE:-release}
dir=$profile; [ "$profile" = dev ] && dir=debug

echo "==> cargo build --lib --target wasm32-unknown-unknown --profile $profile (scalar)"
cargo build --lib --target wasm32-unknown-unknown --profile "$profile"
echo "==> wasm-bindgen --target web --out-dir pkg"
wasm-bindgen --target web --no-typescript --out-dir pkg "target/wasm32-unknown-unknown/$dir/plyscope.wasm"
ls -l pkg/plyscope_bg.wasm

if [ "${SIMD:-1}" != 0 ]; then
  echo "==> cargo build --lib --target wasm32-unknown-unknown --profile $profile (simd128, target/wasm-simd)"
  RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" CARGO_TARGET_DIR=target/wasm-simd \
    cargo build --lib --target wasm32-unknown-unknown --profile "$profile"
  echo "==> wasm-bindgen --target web --out-dir pkg/simd"
  wasm-bindgen --target web --no-typescript --out-dir pkg/simd "target/wasm-simd/wasm32-unknown-unknown/$dir/plyscope.wasm"
  ls -l pkg/simd/plyscope_bg.wasm
fi
