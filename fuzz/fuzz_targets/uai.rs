//! UAI command lines, one after another on one engine state (searches are not started).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut state = plyscope::protocol::uai::Uai::default();
    for line in text.lines() {
        plyscope::fuzz::check_uai_line(&mut state, line);
    }
});
