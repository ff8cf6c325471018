//! Game records of every registered game (moves separated by spaces, from the start), and
//! Reversi's compact records (`f5d6c3...`) on every board size.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((mut s, text)) = plyscope::fuzz::game_and_text(data) {
        let id = s.game_id();
        plyscope::fuzz::check_record(s.as_mut(), text);
        if id.starts_with("reversi") {
            plyscope::fuzz::check_reversi_record(&id, text);
        }
    }
});
