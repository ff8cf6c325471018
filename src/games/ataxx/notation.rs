//! Ataxx text and binary forms: moves (`f2` clone, `a7c5` jump, `0000` pass), FEN
//! (`x5o/7/7/7/7/7/o5x x 0 1`) and the seed's packed 14-byte board.

use super::{Ataxx, AtaxxMove, CELLS, DOUBLES, SINGLES};
use crate::core::{ParseMoveError, ParsePositionError, PlayerId};

const MOVE_EXPECTED: &str =
    "a cell such as f2 (clone), two cells two apart such as a7c5 (jump), or 0000 (pass)";

fn parse_cell(file: u8, rank: u8) -> Option<u8> {
    let f = file.to_ascii_lowercase().wrapping_sub(b'a');
    let r = rank.wrapping_sub(b'1');
    (f < 7 && r < 7).then(|| r * 7 + f)
}

/// Reads a move. A four-character move between neighbouring cells is read as a clone to the
/// second cell (some programs write clones that way).
pub fn parse_move(text: &str) -> Result<AtaxxMove, ParseMoveError> {
    let t = text.trim();
    let b = t.as_bytes();
    if t == "0000" || t.eq_ignore_ascii_case("pass") {
        return Ok(AtaxxMove::PASS);
    }
    match b.len() {
        2 => parse_cell(b[0], b[1])
            .map(AtaxxMove::clone_to)
            .ok_or_else(|| ParseMoveError::new(text, MOVE_EXPECTED)),
        4 => {
            let (Some(from), Some(to)) = (parse_cell(b[0], b[1]), parse_cell(b[2], b[3])) else {
                return Err(ParseMoveError::new(text, MOVE_EXPECTED));
            };
            if SINGLES[from as usize] >> to & 1 == 1 {
                Ok(AtaxxMove::clone_to(to))
            } else if DOUBLES[from as usize] >> to & 1 == 1 {
                Ok(AtaxxMove::jump(from, to))
            } else {
                Err(ParseMoveError::new(
                    text,
                    "a jump to a cell exactly two cells away (king distance 2), a clone to a neighbouring cell, or 0000",
                ))
            }
        }
        _ => Err(ParseMoveError::new(text, MOVE_EXPECTED)),
    }
}

/// Writes a move: the target for a clone, origin and target for a jump, `0000` for the pass.
pub fn format_move(m: AtaxxMove) -> String {
    match (m.from(), m.to()) {
        (_, None) => "0000".into(),
        (None, Some(to)) => super::cell_name(to),
        (Some(from), Some(to)) => format!("{}{}", super::cell_name(from), super::cell_name(to)),
    }
}

/// What stands on a cell: `Some(0)` black, `Some(1)` white, `None` empty or wall.
fn piece_at(pos: &Ataxx, sq: usize) -> Option<PlayerId> {
    (0..2u8).find(|&p| pos.pieces(p) >> sq & 1 == 1)
}

/// The position's FEN: ranks 7 to 1 separated by `/` (`x` black, `o` white, `-` wall, digits for
/// runs of empty cells), side to move (`x` or `o`), halfmove clock, fullmove number.
pub fn to_fen(pos: &Ataxx) -> String {
    let mut s = String::with_capacity(40);
    for rank in (0..7).rev() {
        let mut run = 0;
        for file in 0..7 {
            let sq = rank * 7 + file;
            let c = if pos.walls() >> sq & 1 == 1 {
                '-'
            } else {
                match piece_at(pos, sq) {
                    Some(0) => 'x',
                    Some(_) => 'o',
                    None => {
                        run += 1;
                        continue;
                    }
                }
            };
            if run > 0 {
                s.push((b'0' + run) as char);
                run = 0;
            }
            s.push(c);
        }
        if run > 0 {
            s.push((b'0' + run) as char);
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(if pos.side_to_move() == 0 { 'x' } else { 'o' });
    s.push_str(&format!(
        " {} {}",
        pos.halfmove_clock(),
        pos.fullmove_number()
    ));
    s
}

/// Reads a FEN. The halfmove clock and fullmove number may be left out (0 and 1). Errors give the
/// character offset and what was expected there.
pub fn from_fen(text: &str) -> Result<Ataxx, ParsePositionError> {
    let chars: Vec<char> = text.chars().collect();
    let err = |at: usize, expected: &str| ParsePositionError::at(text, at, expected);
    let mut i = 0;
    while i < chars.len() && chars[i] == ' ' {
        i += 1;
    }
    let (mut black, mut white, mut walls) = (0u64, 0u64, 0u64);
    let mut rank = 6usize; // counted from the bottom
    let mut file = 0usize;
    loop {
        let Some(&c) = chars.get(i) else {
            return Err(err(
                i,
                "seven ranks of seven cells (x, o, -, digits 1-7, ranks separated by /), then the side to move",
            ));
        };
        if c == ' ' {
            break;
        }
        match c {
            'x' | 'X' | 'b' | 'B' | 'o' | 'O' | 'w' | 'W' | '-' => {
                if file >= 7 {
                    return Err(err(i, "'/' after the seventh cell of a rank"));
                }
                let bit = 1u64 << (rank * 7 + file);
                match c {
                    'x' | 'X' | 'b' | 'B' => black |= bit,
                    'o' | 'O' | 'w' | 'W' => white |= bit,
                    _ => walls |= bit,
                }
                file += 1;
            }
            '1'..='7' => {
                let n = c as usize - '0' as usize;
                if file + n > 7 {
                    return Err(err(
                        i,
                        &format!(
                            "a run of at most {} empty cells (a rank has seven cells)",
                            7 - file
                        ),
                    ));
                }
                file += n;
            }
            '/' => {
                if file != 7 {
                    return Err(err(
                        i,
                        &format!(
                            "{} more cells before '/' (a rank has seven cells)",
                            7 - file
                        ),
                    ));
                }
                if rank == 0 {
                    return Err(err(i, "a space after the seventh rank"));
                }
                rank -= 1;
                file = 0;
            }
            _ => {
                return Err(err(
                    i,
                    "a cell (x black, o white, - wall, a digit 1-7 for empty cells) or '/'",
                ))
            }
        }
        i += 1;
    }
    if rank != 0 || file != 7 {
        return Err(err(
            i,
            &format!(
                "seven ranks of seven cells before the space (found {} complete ranks)",
                6 - rank + usize::from(file == 7)
            ),
        ));
    }
    i += 1; // the space
    let to_move = match chars.get(i) {
        Some('x' | 'X' | 'b' | 'B') => 0,
        Some('o' | 'O' | 'w' | 'W') => 1,
        _ => return Err(err(i, "the side to move: x (black) or o (white)")),
    };
    i += 1;
    let mut numbers = [0u64, 1u64];
    for (k, what) in [
        "the halfmove clock (0 to 100)",
        "the fullmove number (from 1)",
    ]
    .iter()
    .enumerate()
    {
        if i >= chars.len() || chars[i..].iter().all(|&c| c == ' ') {
            break;
        }
        if chars[i] != ' ' {
            return Err(err(i, &format!("a space, then {what}")));
        }
        while i < chars.len() && chars[i] == ' ' {
            i += 1;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if start == i {
            return Err(err(i, what));
        }
        if i < chars.len() && chars[i] != ' ' {
            return Err(err(i, &format!("a digit or a space after {what}")));
        }
        let digits: String = chars[start..i].iter().collect();
        let v: u64 = digits.parse().map_err(|_| err(start, what))?;
        let ok = if k == 0 {
            v <= super::HALFMOVE_LIMIT as u64
        } else {
            (1..=u32::MAX as u64).contains(&v)
        };
        if !ok {
            return Err(err(start, what));
        }
        numbers[k] = v;
    }
    if i < chars.len() && chars[i..].iter().any(|&c| c != ' ') {
        let at = i + chars[i..].iter().take_while(|&&c| c == ' ').count();
        return Err(err(at, "end of text after the fullmove number"));
    }
    Ataxx::from_parts(
        black,
        white,
        walls,
        to_move,
        numbers[0] as u16,
        numbers[1] as u32,
    )
}

/// Size of the packed form in bytes.
pub const PACKED_BYTES: usize = 14;

/// The seed's compact form: 2 bits a cell (0 empty, 1 black, 2 white, 3 wall), one 16-bit word a
/// rank with file `a` in bits 0-1 up to file `g` in bits 12-13, rank 7 first, each word little-endian.
/// Bit 14 of the first word is the side to move (1 = white); the other spare bits are 0. The clocks
/// are not stored (they read back as 0 and 1).
pub fn to_packed(pos: &Ataxx) -> [u8; PACKED_BYTES] {
    let mut out = [0u8; PACKED_BYTES];
    for row in 0..7 {
        let rank = 6 - row;
        let mut word = 0u16;
        for file in 0..7 {
            let sq = rank * 7 + file;
            let v = if pos.walls() >> sq & 1 == 1 {
                3
            } else {
                match piece_at(pos, sq) {
                    Some(0) => 1,
                    Some(_) => 2,
                    None => 0,
                }
            };
            word |= v << (2 * file);
        }
        if row == 0 && pos.side_to_move() == 1 {
            word |= 1 << 14;
        }
        out[2 * row..2 * row + 2].copy_from_slice(&word.to_le_bytes());
    }
    out
}

/// Reads the packed form written by [`to_packed`]; errors name the byte offset.
pub fn from_packed(bytes: &[u8]) -> Result<Ataxx, ParsePositionError> {
    let bad = |at: usize, expected: &str| ParsePositionError {
        at,
        found: match bytes.get(at) {
            Some(b) => format!("byte {b:#04x}"),
            None => "end of data".into(),
        },
        expected: expected.into(),
    };
    if bytes.len() != PACKED_BYTES {
        return Err(bad(
            bytes.len().min(PACKED_BYTES),
            &format!(
                "exactly {PACKED_BYTES} bytes (found {}): one 16-bit word per rank",
                bytes.len()
            ),
        ));
    }
    let (mut black, mut white, mut walls) = (0u64, 0u64, 0u64);
    let mut to_move = 0;
    for row in 0..7 {
        let word = u16::from_le_bytes([bytes[2 * row], bytes[2 * row + 1]]);
        let spare = word >> 14;
        if row == 0 {
            if spare & 2 != 0 {
                return Err(bad(1, "bit 15 of the first word clear (reserved)"));
            }
            to_move = (spare & 1) as PlayerId;
        } else if spare != 0 {
            return Err(bad(
                2 * row + 1,
                "bits 14 and 15 clear in the words after the first",
            ));
        }
        let rank = 6 - row;
        for file in 0..7 {
            let bit = 1u64 << (rank * 7 + file);
            match word >> (2 * file) & 3 {
                1 => black |= bit,
                2 => white |= bit,
                3 => walls |= bit,
                _ => {}
            }
        }
    }
    debug_assert_eq!((black | white | walls) >> CELLS, 0);
    Ataxx::from_parts(black, white, walls, to_move, 0, 1)
}
