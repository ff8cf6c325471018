//! UHP command lines, one after another on one engine state (searches are not run).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut state = plyscope::protocol::uhp::Uhp::new();
    for line in text.lines() {
        plyscope::fuzz::check_uhp_line(&mut state, line);
    }
});
