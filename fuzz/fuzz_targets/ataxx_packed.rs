//! Ataxx's 14-byte packed form, any bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    plyscope::fuzz::check_ataxx_packed(data);
});
