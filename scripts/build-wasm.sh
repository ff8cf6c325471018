#!/usr/bin/env bash
# Builds the engine for the browser: cargo to wasm32, then wasm-bindgen into pkg/ (ES module for the
# web). Three builds:
# - the scalar one in pkg/, for any browser;
# - one with WebAssembly SIMD (simd128) in pkg/simd/, which the worker loads when the browser
#   validates a SIMD module (www/worker.js);
# - the threads build in pkg/threads/: SIMD plus shared memory (atomics, bulk memory), so that a
#   parallel search runs Lazy SMP over helper Web Workers sharing the engine's memory. The worker
#   loads it when the page is cross-origin isolated (COOP/COEP: scripts/serve.py and www/sw.js).
#   It needs the nightly toolchain with rust-src, because the standard library must be compiled
#   again with atomics (-Z build-std); it is skipped with a message when nightly is missing.
# Each extra build has its own target directory, so that the sets of flags never rebuild each
# other's dependencies. SIMD=0 skips the SIMD build, THREADS=0 the threads build (their pkg/
# folders are then left as they were, or absent: the worker falls back to the scalar build, and
# to the split search over workers without shared memory).
# The builds run side by side (each ends in a long single-threaded link-time optimisation, so two
# cores finish the three sooner together than one after the other); each one's output is printed
# when it ends. SERIAL=1 runs them one after the other instead.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${PROFILE:-release}
dir=$profile; [ "$profile" = dev ] && dir=debug
logs=target/build-wasm-logs
mkdir -p "$logs"

scalar() {
  echo "==> cargo build --lib --target wasm32-unknown-unknown --profile $profile (scalar)"
  cargo build --lib --target wasm32-unknown-unknown --profile "$profile"
  echo "==> wasm-bindgen --target web --out-dir pkg"
  wasm-bindgen --target web --no-typescript --out-dir pkg "target/wasm32-unknown-unknown/$dir/plyscope.wasm"
  ls -l pkg/plyscope_bg.wasm
}

simd() {
  echo "==> cargo build --lib --target wasm32-unknown-unknown --profile $profile (simd128, target/wasm-simd)"
  RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" CARGO_TARGET_DIR=target/wasm-simd \
    cargo build --lib --target wasm32-unknown-unknown --profile "$profile"
  echo "==> wasm-bindgen --target web --out-dir pkg/simd"
  wasm-bindgen --target web --no-typescript --out-dir pkg/simd "target/wasm-simd/wasm32-unknown-unknown/$dir/plyscope.wasm"
  ls -l pkg/simd/plyscope_bg.wasm
}

threads() {
  # Shared memory: atomics and bulk memory, with the standard library compiled again from
  # source with them (-Z build-std); panics abort (no unwinding in this target). The linker
  # makes the memory shared and imported (up to 2 GiB), and exports the thread-local storage
  # symbols wasm-bindgen's thread support needs to give each helper worker its own stack and
  # thread-locals (this rustc does not add these arguments itself: without them the memory is
  # not shared and wasm-bindgen makes an ordinary build).
  link="--shared-memory --import-memory --max-memory=2147483648 --export=__wasm_init_tls --export=__tls_size --export=__tls_align --export=__tls_base"
  echo "==> cargo +nightly build --lib --target wasm32-unknown-unknown --profile $profile -Z build-std (threads: atomics, simd128; target/wasm-threads)"
  RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+atomics,+bulk-memory,+mutable-globals,+simd128 $(printf -- ' -C link-arg=%s' $link)" \
    CARGO_TARGET_DIR=target/wasm-threads \
    cargo +nightly build --lib --target wasm32-unknown-unknown --profile "$profile" \
    -Z build-std=std,panic_abort --config "profile.$profile.panic=\"abort\""
  echo "==> wasm-bindgen --target web --out-dir pkg/threads"
  wasm-bindgen --target web --no-typescript --out-dir pkg/threads "target/wasm-threads/wasm32-unknown-unknown/$dir/plyscope.wasm"
  ls -l pkg/threads/plyscope_bg.wasm
}

builds=(scalar)
[ "${SIMD:-1}" != 0 ] && builds+=(simd)
if [ "${THREADS:-1}" != 0 ]; then
  if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    echo "==> no nightly toolchain (rustup toolchain install nightly): the threads build is skipped"
  else
    if ! rustup component list --toolchain nightly --installed 2>/dev/null | grep -q '^rust-src'; then
      echo "==> installing rust-src for nightly (rustup component add rust-src --toolchain nightly): the threads build compiles the standard library with atomics"
      rustup component add rust-src --toolchain nightly
    fi
    builds+=(threads)
  fi
fi

if [ "${SERIAL:-0}" = 1 ]; then
  for b in "${builds[@]}"; do "$b"; done
  exit 0
fi

echo "==> building ${builds[*]} side by side (each one's output follows when it ends)"
declare -A pid
for b in "${builds[@]}"; do
  ( set -euo pipefail; "$b" ) > "$logs/$b.log" 2>&1 &
  pid[$b]=$!
done
failed=()
for b in "${builds[@]}"; do
  if wait "${pid[$b]}"; then status=ok; else status=FAILED; failed+=("$b"); fi
  echo "==> the $b build: $status"
  cat "$logs/$b.log"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "==> failed: ${failed[*]} (the logs above; SERIAL=1 runs the builds one after the other)" >&2
  exit 1
fi
