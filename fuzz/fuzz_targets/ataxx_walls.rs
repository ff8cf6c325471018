//! Ataxx wall codes as the page's layout editor reads them (`0400`, `0x7888`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        plyscope::fuzz::check_ataxx_walls(text);
    }
});
