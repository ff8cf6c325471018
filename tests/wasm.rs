//! The engine's browser API, run in headless Chromium's page (wasm-bindgen-test; see webdriver.json).
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

include!("wasm_shared/mod.rs");
