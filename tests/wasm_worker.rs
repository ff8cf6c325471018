//! The engine's browser API, run inside a dedicated worker as the page runs it (wasm-bindgen-test).
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_dedicated_worker);

include!("wasm_shared/mod.rs");

#[wasm_bindgen_test]
fn runs_inside_a_dedicated_worker() {
    let global = js_sys::global();
    let name = js_sys::Reflect::get(&global, &JsValue::from_str("constructor"))
        .and_then(|c| js_sys::Reflect::get(&c, &JsValue::from_str("name")))
        .unwrap();
    assert_eq!(
        name.as_string().as_deref(),
        Some("DedicatedWorkerGlobalScope")
    );
}
