//! UHP text forms: piece names (`wQ`, `bS2`), MoveStrings (`wS1`, `bS1 wS1-`, `wB1 wS1`, `pass`)
//! and GameStrings (`Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1`).
//!
//! A MoveString names the moving piece, then where it goes relative to a piece on the board: the
//! reference alone means on top of it; a mark after it means east (`-`), north-east (`/`) or
//! south-east (`\`); a mark before it means west (`-`), south-west (`/`) or north-west (`\`).

use super::{
    nb, piece_name, Bug, Expansions, Hive, HiveMove, CENTER, IN_HAND, NONE, PER_SIDE, SLOTS,
};
use crate::core::{Game, Outcome, ParseMoveError, ParsePositionError};

const MOVE_SHAPE: &str = "a UHP move such as wS1, bS1 wS1-, wB1 -bQ, wB1 wS1 (on top) or pass";

/// Reads a piece name such as `wQ`, `bS2` or `wM` (any piece of any game type).
pub fn parse_piece(text: &str) -> Option<u8> {
    let mut ch = text.chars();
    let side = match ch.next()? {
        'w' => 0,
        'b' => 1,
        _ => return None,
    };
    let bug = Bug::from_letter(ch.next()?)?;
    let rest: String = ch.collect();
    let n: u8 = if rest.is_empty() {
        0
    } else if rest.len() == 1 && rest.as_bytes()[0].is_ascii_digit() && rest != "0" {
        rest.parse().ok()?
    } else {
        return None;
    };
    let slot = SLOTS.iter().position(|&(b, k)| b == bug && k == n)?;
    Some((side * PER_SIDE + slot) as u8)
}

/// The direction (0..6, see [`super::DIRS`]) written by a mark before (`before == true`) or
/// after a reference piece.
fn direction(mark: char, before: bool) -> Option<usize> {
    Some(match (mark, before) {
        ('-', false) => 0,
        ('/', false) => 1,
        ('\\', true) => 2,
        ('-', true) => 3,
        ('/', true) => 4,
        ('\\', false) => 5,
        _ => return None,
    })
}

/// Reads a MoveString in the context of `h` (the reference piece must be on the board). Only the
/// form is checked; whether the move is legal is [`Game::play`]'s business.
pub fn parse_move(h: &Hive, text: &str) -> Result<HiveMove, ParseMoveError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Ok(HiveMove::PASS);
    }
    let mut words = t.split_whitespace();
    let Some(first) = words.next() else {
        return Err(ParseMoveError::new(text, MOVE_SHAPE));
    };
    let second = words.next();
    if words.next().is_some() {
        return Err(ParseMoveError::new(
            text,
            "at most two words: the moving piece and where it goes",
        ));
    }
    let Some(piece) = parse_piece(first) else {
        return Err(ParseMoveError::new(
            text,
            format!(
                "a piece name such as wQ, bS2 or wM first, not {}",
                crate::core::shown(first)
            ),
        ));
    };
    if !h.in_game(piece) {
        return Err(ParseMoveError::new(
            text,
            format!(
                "a piece of game type {} ({first} is not in it)",
                h.exp.game_type()
            ),
        ));
    }
    let on_board = (0..super::PIECES).any(|p| h.pos[p] != IN_HAND);
    let Some(target) = second else {
        if on_board {
            return Err(ParseMoveError::new(
                text,
                "a reference piece after the moving one (e.g. bS1 wS1-): only the first move of \
                 the game is written alone",
            ));
        }
        return Ok(HiveMove { piece, to: CENTER });
    };
    let mut name = target;
    let mut dir = None;
    if let Some(c) = name.chars().next().filter(|c| "-/\\".contains(*c)) {
        dir = direction(c, true);
        name = &name[1..];
    }
    if let Some(c) = name.chars().last().filter(|c| "-/\\".contains(*c)) {
        if dir.is_some() {
            return Err(ParseMoveError::new(
                text,
                "one direction mark, before or after the reference piece, not both",
            ));
        }
        dir = direction(c, false);
        name = &name[..name.len() - 1];
    }
    let Some(reference) = parse_piece(name) else {
        return Err(ParseMoveError::new(
            text,
            format!(
                "a reference piece name such as wS1 (with -, / or \\ before or after it), not {}",
                crate::core::shown(target)
            ),
        ));
    };
    let at = h.pos[reference as usize];
    if at == IN_HAND {
        return Err(ParseMoveError::new(
            text,
            format!("a reference piece on the board ({name} is not)"),
        ));
    }
    if reference == piece && dir.is_none() {
        return Err(ParseMoveError::new(
            text,
            "a reference piece other than the moving one",
        ));
    }
    let to = match dir {
        None => at,
        Some(d) => nb(at, d),
    };
    Ok(HiveMove { piece, to })
}

/// Writes `m` as a MoveString in the context of `h`.
pub fn format_move(h: &Hive, m: HiveMove) -> String {
    if m.is_pass() {
        return "pass".to_string();
    }
    let name = piece_name(m.piece);
    if (0..super::PIECES).all(|p| h.pos[p] == IN_HAND || p as u8 == m.piece) {
        return name;
    }
    let here = h.top(m.to);
    if here != NONE && here != m.piece {
        return format!("{name} {}", piece_name(here));
    }
    for d in 0..6 {
        let n = nb(m.to, d);
        let mut r = h.top(n);
        if r == m.piece {
            r = h.under(m.piece);
        }
        if r == NONE {
            continue;
        }
        let rn = piece_name(r);
        // `m.to` lies in direction d + 3 from the reference.
        return match (d + 3) % 6 {
            0 => format!("{name} {rn}-"),
            1 => format!("{name} {rn}/"),
            2 => format!("{name} \\{rn}"),
            3 => format!("{name} -{rn}"),
            4 => format!("{name} /{rn}"),
            _ => format!("{name} {rn}\\"),
        };
    }
    // Not next to any piece: not a legal move; written so that it reads back as nothing legal.
    format!("{name} ?")
}

/// The UHP GameStateString of `h`.
pub fn game_state(h: &Hive) -> &'static str {
    match h.outcome() {
        Some(Outcome::Win(0)) => "WhiteWins",
        Some(Outcome::Win(_)) => "BlackWins",
        Some(_) => "Draw",
        None if h.plies == 0 => "NotStarted",
        None => "InProgress",
    }
}

/// The UHP TurnString of `h`: `White[1]`, `Black[3]`...
pub fn turn_string(h: &Hive) -> String {
    let colour = if h.side() == 0 { "White" } else { "Black" };
    format!("{colour}[{}]", h.turn_number())
}

/// The UHP GameString of `h`, with every move played since the start.
pub fn game_string(h: &Hive) -> String {
    let mut s = format!("{};{};{}", h.exp.game_type(), game_state(h), turn_string(h));
    let mut replay = Hive::new(h.exp);
    for m in h.moves() {
        s.push(';');
        s.push_str(&format_move(&replay, m));
        replay.play_unchecked(m);
    }
    s
}

/// Reads a UHP GameTypeString (`Base`, `Base+MLP`...).
pub fn parse_game_type(text: &str) -> Option<Expansions> {
    let t = text.trim();
    if t == "Base" {
        return Some(Expansions::default());
    }
    let letters = t.strip_prefix("Base+")?;
    if letters.is_empty() {
        return None;
    }
    Expansions::from_letters(letters)
}

/// Reads a UHP GameString, or a GameTypeString alone for a new game. Each move is checked as it is
/// replayed, and the game state and turn must agree with the moves.
pub fn from_game_string(text: &str) -> Result<Hive, ParsePositionError> {
    let mut fields = Vec::new();
    let mut at = 0;
    for f in text.split(';') {
        fields.push((at, f));
        at += f.chars().count() + 1;
    }
    let (_, ty) = fields[0];
    let Some(exp) = parse_game_type(ty) else {
        return Err(ParsePositionError::at(
            text,
            0,
            "a game type: Base, or Base+ followed by M, L, P in any combination (Base+MLP)",
        ));
    };
    let mut h = Hive::new(exp);
    if fields.len() == 1 {
        return Ok(h);
    }
    if fields.len() < 3 {
        return Err(ParsePositionError::at(
            text,
            text.chars().count(),
            "GameType;GameState;Turn followed by the moves, separated by ';'",
        ));
    }
    for &(at, mv) in &fields[3..] {
        let m = h
            .parse_move(mv)
            .map_err(|e| ParsePositionError::at(text, at, format!("a move: {}", e.expected)))?;
        let mut next = h.clone();
        next.play(m).map_err(|e| {
            ParsePositionError::at(
                text,
                at,
                format!("a legal move ({}: {})", crate::core::shown(mv), e.reason),
            )
        })?;
        h = next;
    }
    let (state_at, state) = fields[1];
    if state.trim() != game_state(&h) {
        return Err(ParsePositionError::at(
            text,
            state_at,
            format!("the game state {} (what the moves give)", game_state(&h)),
        ));
    }
    let (turn_at, turn) = fields[2];
    if turn.trim() != turn_string(&h) {
        return Err(ParsePositionError::at(
            text,
            turn_at,
            format!("the turn {} (what the moves give)", turn_string(&h)),
        ));
    }
    Ok(h)
}
