//! Text forms: moves (`d3`, `pass`), positions (the OBF/Edax convention: every cell row by row from
//! a1, `X` black, `O` white, `-` empty, then the side to move) and game records (the concatenated
//! move list, `f5d6c3d3c4`, passes left out).

use super::{Reversi, ReversiMove};
use crate::core::{Game, ParseMoveError, ParsePositionError, Turn};

/// The name of the cell with canonical index `sq` (`d3`).
pub(crate) fn cell_name(sq: u8) -> String {
    format!("{}{}", (b'a' + (sq & 15)) as char, (sq >> 4) + 1)
}

/// A move's text: `d3` or `pass`.
pub(crate) fn format_move(m: ReversiMove) -> String {
    match m {
        ReversiMove::Place(sq) => cell_name(sq),
        ReversiMove::Pass => "pass".to_string(),
    }
}

fn expected_move(size: usize) -> String {
    format!(
        "a cell from a1 to {} (a column letter a-{}, then a row number 1-{size}), or pass",
        cell_name(((size - 1) * 17) as u8),
        (b'a' + size as u8 - 1) as char
    )
}

/// Reads a cell name at the start of `chars`: its canonical index and length, if there is one on
/// a board of side `size`.
fn read_cell(size: usize, chars: &[char]) -> Option<(u8, usize)> {
    let col = (chars.first()?.to_ascii_lowercase() as u32).wrapping_sub('a' as u32) as usize;
    if col >= size {
        return None;
    }
    let digits = chars[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 || chars[1] == '0' {
        return None;
    }
    let row: usize = chars[1..1 + digits]
        .iter()
        .collect::<String>()
        .parse()
        .ok()?;
    if row == 0 || row > size {
        return None;
    }
    Some((((row - 1) * 16 + col) as u8, 1 + digits))
}

/// Reads a move (`d3`, `D3`, `pass`) for a board of side `size`.
pub(crate) fn parse_move(size: usize, text: &str) -> Result<ReversiMove, ParseMoveError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Ok(ReversiMove::Pass);
    }
    let chars: Vec<char> = t.chars().collect();
    match read_cell(size, &chars) {
        Some((sq, len)) if len == chars.len() => Ok(ReversiMove::Place(sq)),
        _ => Err(ParseMoveError::new(text, expected_move(size))),
    }
}

/// The position text: every cell from a1 row by row (`X`, `O`, `-`), a space, the side to move.
pub(crate) fn position_text(pos: &Reversi) -> String {
    let n = pos.size();
    let mut s = String::with_capacity(n * n + 2);
    for r in 0..n {
        for c in 0..n {
            s.push(match pos.cell(r, c) {
                Some(0) => 'X',
                Some(_) => 'O',
                None => '-',
            });
        }
    }
    s.push(' ');
    s.push(if pos.side_to_move() == 0 { 'X' } else { 'O' });
    s
}

/// Reads a position text for a board of side `size`: `size * size` cells (`X` or `*` black, `O`
/// white, `-` or `.` empty; letters in either case), then the side to move (`X` or `O`), with or
/// without a space before it (the OBF form has none), and an optional final `;`.
pub(crate) fn read_position(size: usize, text: &str) -> Result<Reversi, ParsePositionError> {
    let chars: Vec<char> = text.chars().collect();
    let cells = size * size;
    let mut pos = Reversi::empty_for(size);
    for i in 0..cells {
        let sq = ((i / size) * 16 + i % size) as u8;
        match chars.get(i) {
            Some('X' | 'x' | '*') => pos.put(sq, 0),
            Some('O' | 'o') => pos.put(sq, 1),
            Some('-' | '.') => {}
            Some(_) => {
                return Err(ParsePositionError::at(
                    text,
                    i,
                    format!(
                        "X, O or - for cell {} (cell {} of the {cells} of a {size}x{size} board)",
                        cell_name(sq),
                        i + 1
                    ),
                ))
            }
            None => {
                return Err(ParsePositionError::at(
                    text,
                    i,
                    format!(
                    "{cells} cells for a {size}x{size} board (X, O or -), then the side to move; \
                         the text ends at cell {}",
                    cell_name(sq)
                ),
                ))
            }
        }
    }
    let mut at = cells;
    if chars.get(at) == Some(&' ') {
        at += 1;
    }
    let side = match chars.get(at) {
        Some('X' | 'x' | '*') => 0,
        Some('O' | 'o') => 1,
        _ => {
            return Err(ParsePositionError::at(
                text,
                at,
                format!(
                    "the side to move (X or O) after the {cells} cells of a {size}x{size} board"
                ),
            ))
        }
    };
    at += 1;
    if chars.get(at) == Some(&';') {
        at += 1;
    }
    if at < chars.len() {
        return Err(ParsePositionError::at(
            text,
            at,
            "the end of the text after the side to move",
        ));
    }
    pos.set_side(side);
    Ok(pos)
}

/// Reads a game record played from `start`: moves one after another (`f5d6c3d3c4`), with optional
/// spaces, commas or dots between them and case ignored. A pass may be written (`pass`) or left
/// out: when the player to move cannot place a disc, the pass is inferred. Returns every move
/// played (inferred passes included) and the final position. Errors give the character offset
/// and what was expected there (a legal move is listed when the move read is not legal).
pub fn parse_record(
    start: &Reversi,
    text: &str,
) -> Result<(Vec<ReversiMove>, Reversi), ParsePositionError> {
    let chars: Vec<char> = text.chars().collect();
    let size = start.size();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut at = 0;
    loop {
        while at < chars.len() && matches!(chars[at], ' ' | ',' | '.' | '\t' | '\n' | '\r') {
            at += 1;
        }
        if at == chars.len() {
            return Ok((moves, pos));
        }
        let rest = &chars[at..];
        let is_pass = rest.len() >= 4
            && rest[..4]
                .iter()
                .collect::<String>()
                .eq_ignore_ascii_case("pass");
        let (m, len) = if is_pass {
            (ReversiMove::Pass, 4)
        } else {
            match read_cell(size, rest) {
                Some((sq, len)) => (ReversiMove::Place(sq), len),
                None => return Err(ParsePositionError::at(text, at, expected_move(size))),
            }
        };
        if pos.turn() == Turn::Terminal {
            return Err(ParsePositionError::at(
                text,
                at,
                "the end of the record: the game is over",
            ));
        }
        if m != ReversiMove::Pass && pos.placements().is_empty() {
            // The player to move cannot place a disc: the record left the pass out.
            pos.play_unchecked(ReversiMove::Pass);
            moves.push(ReversiMove::Pass);
        }
        if pos.play(m).is_err() {
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            let names: Vec<String> = legal.iter().map(|&l| format_move(l)).collect();
            return Err(ParsePositionError::at(
                text,
                at,
                format!(
                    "a legal move for {} ({})",
                    pos.player_name(pos.side_to_move()),
                    names.join(", ")
                ),
            ));
        }
        moves.push(m);
        at += len;
    }
}

/// Writes a game record: the moves concatenated, passes left out (`f5d6c3d3c4`).
pub fn format_record(moves: &[ReversiMove]) -> String {
    moves
        .iter()
        .filter(|&&m| m != ReversiMove::Pass)
        .map(|&m| format_move(m))
        .collect()
}
