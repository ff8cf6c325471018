#!/usr/bin/env bash
# Plyscope's build file. Every step says what it does; missing tools are installed first.
#
#   ./build.sh serve    build the engine for the browser and serve the app on http://127.0.0.1:8000/
#   ./build.sh test     run every test: native cargo tests, wasm tests in headless Chromium, end-to-end tests
#
# Other tasks: setup (install what is missing), build (wasm into pkg/), bench (native benchmarks),
# e2e (end-to-end tests only), wasm-test (wasm-bindgen tests only), screenshots (list them).
set -euo pipefail
cd "$(dirname "$0")"

say() { printf '\n==> %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# The wasm-bindgen version the crate pins (Cargo.toml: wasm-bindgen = "=X.Y.Z").
wbg_version() { sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' Cargo.toml; }

setup_rust() {
  if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    say "installing the Rust target wasm32-unknown-unknown (rustup target add)"
    rustup target add wasm32-unknown-unknown
  fi
  local want; want=$(wbg_version)
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
    say "installing wasm-bindgen-cli $want to match the crate (cargo install; takes a few minutes once)"
    cargo install wasm-bindgen-cli --version "$want" --force
  fi
}

setup_browser() {
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    say "installing Chromium and ChromeDriver from Debian's packages (apt-get install chromium chromium-driver)"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver
  fi
}

setup_node() {
  if [ ! -d node_modules/playwright-core ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    say "installing npm packages (npm ci: playwright-core, which drives the system Chromium)"
    npm ci --no-audit --no-fund
  fi
}

setup() {
  setup_rust
  setup_browser
  setup_node
}

build() {
  say "building the engine for the browser into pkg/"
  scripts/build-wasm.sh
}

native_tests() {
  say "native tests: cargo test"
  cargo test --all-targets 2>&1
  say "doc tests: cargo test --doc"
  cargo test --doc 2>&1
}

wasm_tests() {
  say "wasm tests: wasm-bindgen-test in headless Chromium (webdriver.json), in the page and in a worker"
  CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=120 \
    cargo test --target wasm32-unknown-unknown --test wasm 2>&1
}

e2e_tests() {
  say "end-to-end tests: node --test tests/e2e/ (screenshots in target/screenshots/)"
  node --test --test-concurrency=1 tests/e2e/
}

case "${1:-}" in
  setup) setup ;;
  build) setup_rust; build ;;
  serve)
    setup_rust
    build
    say "serving the app on http://127.0.0.1:${PORT:-8000}/ (Ctrl-C stops)"
    exec python3 scripts/serve.py --port "${PORT:-8000}"
    ;;
  test)
    setup
    native_tests
    wasm_tests
    build
    e2e_tests
    say "all tests passed"
    ;;
  e2e) setup; build; e2e_tests ;;
  wasm-test) setup; wasm_tests ;;
  bench)
    say "benchmarks: plyscope bench (release build)"
    cargo run --release --quiet -- bench
    ;;
  screenshots) ls -l target/screenshots/ ;;
  *)
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
