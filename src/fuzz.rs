//! The checks run on arbitrary input, shared by the cargo-fuzz targets (`fuzz/`) and the mutation
//! test of the normal suite (`tests/fuzz.rs`).
//!
//! Each function feeds one input to one parser and panics if a rule is broken: no parser may
//! panic (in overflow-checked builds too); a rejected input leaves the state as it was; an
//! accepted one reads back the same from the text the engine writes for it. The game parsers are
//! reached through the registry ([`crate::games::new_session`] and [`AnySession`]), so every game
//! in the catalogue is fuzzed by being registered.
//!
//! ```
//! use plyscope::fuzz;
//! let ids = fuzz::game_ids();
//! let mut s = plyscope::games::new_session(&ids[0]).unwrap();
//! fuzz::check_move(s.as_mut(), "zz9 at a0, next 1");
//! fuzz::check_position(s.as_mut(), "x5o/7/7/7/7/7/o5y x 0 1");
//! ```

use crate::games::{known_ids, new_session, AnySession};
use crate::protocol::driver::{Output, Protocol, SharedBuffer};
use crate::protocol::uai::Uai;

/// Every game id the registry accepts (base ids and variants), in catalogue order.
pub fn game_ids() -> Vec<String> {
    known_ids()
}

/// For the fuzz targets: the first byte picks a game id of the catalogue (so a new game is fuzzed
/// by being registered), the rest must be text. Returns a session at the game's start and the text.
pub fn game_and_text(data: &[u8]) -> Option<(Box<dyn AnySession>, &str)> {
    let (&pick, rest) = data.split_first()?;
    let ids = game_ids();
    let id = &ids[pick as usize % ids.len()];
    let text = std::str::from_utf8(rest).ok()?;
    Some((new_session(id).ok()?, text))
}

/// Plays up to `plies` moves chosen by a generator seeded with `seed` (chance turns included), to
/// reach varied positions.
pub fn play_random(s: &mut dyn AnySession, plies: usize, seed: u64) {
    let mut rng = crate::core::Rng::seeded(seed);
    s.seed(seed);
    for _ in 0..plies {
        let legal = s.legal_moves();
        if legal.is_empty() {
            return;
        }
        let pick = &legal[rng.below(legal.len() as u64) as usize].text;
        if s.play(pick).is_err() {
            return;
        }
    }
}

/// What can be seen of a session from outside: its position, history and the player to move.
fn snapshot(s: &dyn AnySession) -> (String, Vec<String>, String, String) {
    (s.position_text(), s.history(), s.to_move(), s.game_id())
}

/// A game id: accepted ids make a session whose own id is accepted again.
pub fn check_game_id(text: &str) {
    if let Ok(s) = new_session(text) {
        let id = s.game_id();
        let again = new_session(&id)
            .unwrap_or_else(|e| panic!("{text:?} made a game whose id {id:?} is refused: {e}"));
        assert_eq!(again.game_id(), id, "{text:?}");
    }
}

/// A position text for the session's game: refused, nothing changes; accepted, the text written
/// for the new position reads back as the same position.
pub fn check_position(s: &mut dyn AnySession, text: &str) {
    let before = snapshot(s);
    match s.set_position(text) {
        Err(e) => {
            assert_eq!(
                snapshot(s),
                before,
                "refused position {text:?} ({e}) changed the game"
            );
            let msg = e.to_string();
            assert!(
                msg.len() < 2000,
                "message of {} bytes for {text:?}",
                msg.len()
            );
        }
        Ok(()) => {
            let written = s.position_text();
            let mut again = new_session(&s.game_id()).expect("the session's id is known");
            again.set_position(&written).unwrap_or_else(|e| {
                panic!("{text:?} was read, but its text {written:?} is refused: {e}")
            });
            assert_eq!(again.position_text(), written, "{text:?}");
            assert_eq!(again.to_move(), s.to_move(), "{text:?}");
        }
    }
}

/// A move text in the session's current position: refused, nothing changes; accepted, taking it
/// back restores the position, and the move's canonical text plays the same move again.
pub fn check_move(s: &mut dyn AnySession, text: &str) {
    let before = snapshot(s);
    match s.play(text) {
        Err(e) => {
            assert_eq!(
                snapshot(s),
                before,
                "refused move {text:?} ({e}) changed the game"
            );
            let msg = e.to_string();
            assert!(
                msg.len() < 2000,
                "message of {} bytes for {text:?}",
                msg.len()
            );
        }
        Ok(canonical) => {
            let after = snapshot(s);
            assert_eq!(after.1.len(), before.1.len() + 1, "{text:?}");
            s.undo().expect("a move just played can be taken back");
            assert_eq!(snapshot(s).0, before.0, "undo after {text:?}");
            let again = s.play(&canonical).unwrap_or_else(|e| {
                panic!("{text:?} played as {canonical:?}, which is then refused: {e}")
            });
            assert_eq!(again, canonical, "{text:?}");
            assert_eq!(snapshot(s), after, "{text:?} and {canonical:?} differ");
            // Back to where the caller was, so that a run of checks stays on its positions.
            s.undo().expect("undo");
        }
    }
}

/// A game record, one move after another separated by spaces (what `--moves` and a replayed
/// history are): every move is checked as [`check_move`] does, and played when accepted; the
/// record stops at its first refused move. Returns how many moves were played (the session is
/// left after them).
pub fn check_record(s: &mut dyn AnySession, text: &str) -> usize {
    let mut played = 0;
    for m in text.split_whitespace() {
        check_move(s, m);
        if s.play(m).is_err() {
            break;
        }
        played += 1;
    }
    played
}

/// A Reversi game record in the compact form (`f5d6c3...`, passes optional) on a board of the
/// given size: accepted records write back to a record that reads the same moves.
pub fn check_reversi_record(id: &str, text: &str) {
    use crate::games::reversi::{format_record, parse_record, Reversi};
    use crate::games::Playable;
    let Ok(start) = Reversi::new_game(id) else {
        return;
    };
    if let Ok((moves, end)) = parse_record(&start, text) {
        let written = format_record(&moves);
        let (again, end2) = parse_record(&start, &written)
            .unwrap_or_else(|e| panic!("{text:?} read, {written:?} refused: {e}"));
        use crate::core::Game;
        assert_eq!(
            end.position_text(),
            end2.position_text(),
            "{text:?} / {written:?}"
        );
        assert_eq!(format_record(&again), written, "{text:?} / {written:?}");
    }
}

/// An Ataxx FEN: accepted positions write a FEN that reads back the same.
pub fn check_ataxx_fen(text: &str) {
    use crate::games::ataxx::notation::{from_fen, to_fen};
    if let Ok(p) = from_fen(text) {
        let written = to_fen(&p);
        let again = from_fen(&written)
            .unwrap_or_else(|e| panic!("{text:?} read, {written:?} refused: {e}"));
        assert_eq!(to_fen(&again), written, "{text:?}");
    }
}

/// Ataxx's packed form (14 bytes): accepted bytes pack back to bytes that read the same position.
pub fn check_ataxx_packed(bytes: &[u8]) {
    use crate::games::ataxx::notation::{from_packed, to_fen, to_packed};
    if let Ok(p) = from_packed(bytes) {
        let packed = to_packed(&p);
        let again = from_packed(&packed)
            .unwrap_or_else(|e| panic!("{bytes:?} read, {packed:?} refused: {e}"));
        assert_eq!(to_fen(&again), to_fen(&p), "{bytes:?}");
    }
}

/// An Ataxx wall code as the page's layout editor takes it (`0400`, `0x7888`).
pub fn check_ataxx_walls(text: &str) {
    use crate::games::ataxx::walls::{parse_code, validate};
    if let Ok(code) = parse_code(text) {
        let _ = validate(code);
        let again = parse_code(&format!("{code:04X}"))
            .unwrap_or_else(|e| panic!("{text:?} read as {code:04X}, which is refused: {e}"));
        assert_eq!(again, code, "{text:?}");
    }
}

/// Search settings as JSON (what the page sends with a search): accepted settings are valid.
pub fn check_search_settings(text: &str) {
    if let Ok(cfg) = crate::search::SearchConfig::from_json(text) {
        cfg.validate()
            .unwrap_or_else(|e| panic!("{text:?} accepted but invalid: {e}"));
    }
}

/// One UAI command line handled by an engine in `state` (searches are not started: the work a
/// `go` returns is dropped): a line answered with an error leaves the position as it was, and no
/// answer line is longer than a few hundred bytes however long the input.
pub fn check_uai_line(state: &mut Uai, line: &str) {
    let before = state.clone();
    let buf = SharedBuffer::default();
    let out = Output::new(buf.clone());
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.is_empty() {
        return;
    }
    let _ = state.disposition(words[0]);
    drop(state.handle(&words, &out));
    let text = buf.text();
    for l in text.lines() {
        assert!(
            l.len() <= 400 || l.starts_with("info string fen "),
            "an answer of {} bytes to {:?}",
            l.len(),
            &line[..line.len().min(200)]
        );
    }
    if text.contains("info string error") {
        assert_eq!(
            format!("{:?}", state.position()),
            format!("{:?}", before.position()),
            "a refused {line:?} changed the position"
        );
    }
}

/// One UHP command line handled by an engine in `state` (a `bestmove` search is not run): an
/// answer of `err` or `invalidmove` leaves the game as it was, and says so in a bounded line.
pub fn check_uhp_line(state: &mut crate::protocol::uhp::Uhp, line: &str) {
    use crate::core::Game;
    use crate::protocol::uhp::Reply;
    let before = state.game().map(|g| g.position_text());
    if let Reply::Lines(lines) = state.handle(line) {
        if let Some(first) = lines.first() {
            if first.starts_with("err") || first.starts_with("invalidmove") {
                assert_eq!(
                    state.game().map(|g| g.position_text()),
                    before,
                    "a refused {line:?} changed the game"
                );
                assert!(
                    first.len() <= 400,
                    "an answer of {} bytes ({:?}...) to {:?}",
                    first.len(),
                    first.chars().take(300).collect::<String>(),
                    line.chars().take(200).collect::<String>()
                );
            }
        }
    }
}
