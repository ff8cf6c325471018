//! Position texts of every registered game: the first byte picks the game id, the rest is the text.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((mut s, text)) = plyscope::fuzz::game_and_text(data) {
        plyscope::fuzz::check_position(s.as_mut(), text);
    }
});
