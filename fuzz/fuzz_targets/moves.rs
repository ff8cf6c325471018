//! Move texts of every registered game: the first byte picks the game id, the second how many
//! seeded random moves to play from the start, the rest is the move text.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&plies, rest)) = data.split_first() else {
        return;
    };
    if let Some((mut s, text)) = plyscope::fuzz::game_and_text(rest) {
        plyscope::fuzz::play_random(s.as_mut(), plies as usize, u64::from(plies));
        plyscope::fuzz::check_move(s.as_mut(), text);
    }
});
