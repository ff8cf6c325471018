//! Search settings as JSON (what the page sends with each search).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        plyscope::fuzz::check_search_settings(text);
    }
});
