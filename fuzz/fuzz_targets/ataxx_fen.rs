//! Ataxx FEN: accepted positions write a FEN that reads back the same.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        plyscope::fuzz::check_ataxx_fen(text);
    }
});
