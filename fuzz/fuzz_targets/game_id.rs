//! Game ids (`reversi-12`, `ataxx-8124`, `threes-7`): accepted ids make a game whose id is accepted.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        plyscope::fuzz::check_game_id(text);
    }
});
