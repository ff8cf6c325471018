//! Khet text forms: the position text and the move text (both documented in docs/khet.md).
//!
//! Position text, five fields separated by spaces:
//!
//! 1. the board, rank 8 first, ranks separated by `/`; in a rank, a number (1 to 10) counts empty
//!    squares and a piece is a letter (upper case Silver, lower case Red: `P` Pyramid, `S` Scarab,
//!    `A` Anubis, `K` Pharaoh, `X` Sphinx, `H` Eye of Horus) followed by its facing in lower-case
//!    compass letters: two (`ne`, `se`, `sw`, `nw`) for a Pyramid, Scarab or Eye, one (`n`, `e`,
//!    `s`, `w`) for an Anubis or a Sphinx, none for a Pharaoh;
//! 2. the side to move, `s` (Silver) or `r` (Red);
//! 3. plies since the last capture (0 to 100);
//! 4. the fullmove number (from 1, growing after each move of Red);
//! 5. the game id of the setup (`khet`, `khet-imhotep`, `khet-dynasty-horus`...).
//!
//! A Pyramid's facing names the direction its mirror looks (`ne`: it reflects beams arriving from
//! the north or the east). A Scarab's or Eye's diagonal looks both ways, so `ne` and `sw` are the
//! same facing (written `ne`), and so are `se` and `nw` (written `se`). The text does not carry the
//! positions played before, so a position read from text starts with no repetition history.
//!
//! Moves: a step `e4-e5`, a swap `e4=e5` (the Scarab or Eye on e4 trades places with the piece on
//! e5), a rotation `e4cw` or `e4ccw`. Also read: `e4e5` (a step, or a swap when e5 is taken),
//! `e4+` and `e4-` (clockwise, anticlockwise). A Scarab's or an Eye's two rotations give the same
//! position, so they are one move, written `cw` (`ccw` is read as `cw`).

use super::{
    make_piece, piece_facing, piece_kind, piece_owner, Khet, KhetMove, Kind, MoveKind, Setup,
    CELLS, FILES, RANKS, RED, SILVER,
};
use crate::core::{ParseMoveError, ParsePositionError};

const COMPASS4: [&str; 4] = ["n", "e", "s", "w"];
const DIAGONALS: [&str; 4] = ["ne", "se", "sw", "nw"];

fn piece_letter(kind: Kind) -> char {
    match kind {
        Kind::Pyramid => 'p',
        Kind::Scarab => 's',
        Kind::Anubis => 'a',
        Kind::Pharaoh => 'k',
        Kind::Sphinx => 'x',
        Kind::Eye => 'h',
    }
}

/// The position text of `pos`.
pub fn to_text(pos: &Khet) -> String {
    let mut s = String::with_capacity(96);
    for r in (0..RANKS).rev() {
        let mut empty = 0;
        for f in 0..FILES {
            let p = pos.piece_at((r * FILES + f) as u8);
            if p == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            let kind = piece_kind(p);
            let c = piece_letter(kind);
            s.push(if piece_owner(p) == SILVER {
                c.to_ascii_uppercase()
            } else {
                c
            });
            let o = piece_facing(p) as usize;
            match kind {
                Kind::Pharaoh => {}
                Kind::Anubis | Kind::Sphinx => s.push_str(COMPASS4[o]),
                _ => s.push_str(DIAGONALS[o]),
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if r > 0 {
            s.push('/');
        }
    }
    s.push_str(if pos.side_to_move() == SILVER {
        " s "
    } else {
        " r "
    });
    s.push_str(&pos.clock().to_string());
    s.push(' ');
    s.push_str(&pos.fullmove_number().to_string());
    s.push(' ');
    s.push_str(pos.setup().id());
    s
}

/// Reads a position text; errors give the character offset and what was expected there.
pub fn from_text(text: &str) -> Result<Khet, ParsePositionError> {
    let bytes = text.as_bytes();
    let err = |at: usize, what: &str| ParsePositionError::at(text, at, what);
    let mut i = 0;
    while i < bytes.len() && bytes[i] == b' ' {
        i += 1;
    }
    let mut board = [0u8; CELLS];
    for r in (0..RANKS).rev() {
        let mut f = 0usize;
        let rank_start = i;
        loop {
            let c = bytes.get(i).copied();
            match c {
                Some(b'0'..=b'9') => {
                    let start = i;
                    let mut n = 0usize;
                    while let Some(d @ b'0'..=b'9') = bytes.get(i).copied() {
                        n = n * 10 + (d - b'0') as usize;
                        i += 1;
                        if n > FILES {
                            break;
                        }
                    }
                    if n == 0 || f + n > FILES {
                        return Err(err(
                            start,
                            &format!("a count of empty squares from 1 to {}", FILES - f),
                        ));
                    }
                    f += n;
                }
                Some(ch) if ch.is_ascii_alphabetic() => {
                    if f >= FILES {
                        return Err(err(i, &format!("'/' after ten squares of rank {}", r + 1)));
                    }
                    let owner = if ch.is_ascii_uppercase() { SILVER } else { RED };
                    let kind = match ch.to_ascii_lowercase() {
                        b'p' => Kind::Pyramid,
                        b's' => Kind::Scarab,
                        b'a' => Kind::Anubis,
                        b'k' => Kind::Pharaoh,
                        b'x' => Kind::Sphinx,
                        b'h' => Kind::Eye,
                        _ => return Err(err(
                            i,
                            "a piece letter (P, S, A, K, X, H; lower case for red), a count or '/'",
                        )),
                    };
                    i += 1;
                    let facing = match kind {
                        Kind::Pharaoh => 0,
                        Kind::Anubis | Kind::Sphinx => {
                            let o = COMPASS4
                                .iter()
                                .position(|d| bytes.get(i).copied() == Some(d.as_bytes()[0]));
                            match o {
                                Some(o) => {
                                    i += 1;
                                    o as u8
                                }
                                None => {
                                    return Err(err(
                                        i,
                                        &format!("the {}'s facing: n, e, s or w", kind.name()),
                                    ))
                                }
                            }
                        }
                        _ => {
                            let o = DIAGONALS
                                .iter()
                                .position(|d| bytes.get(i..i + 2) == Some(d.as_bytes()));
                            match o {
                                Some(o) => {
                                    i += 2;
                                    o as u8
                                }
                                None => {
                                    return Err(err(
                                        i,
                                        &format!("the {}'s facing: ne, se, sw or nw", kind.name()),
                                    ))
                                }
                            }
                        }
                    };
                    board[r * FILES + f] = make_piece(kind, owner, facing);
                    f += 1;
                }
                _ => {
                    if f < FILES {
                        return Err(err(
                            i,
                            &format!(
                                "{} more square{} in rank {} (a piece or a count)",
                                FILES - f,
                                if FILES - f == 1 { "" } else { "s" },
                                r + 1
                            ),
                        ));
                    }
                    if r > 0 {
                        if c != Some(b'/') {
                            return Err(err(i, &format!("'/' before rank {}", r)));
                        }
                        i += 1;
                    }
                    break;
                }
            }
        }
        let _ = rank_start;
    }
    let mut fields = Vec::new();
    let rest = &text[i..];
    let mut at = i;
    for part in rest.split(' ') {
        if !part.is_empty() {
            fields.push((at, part));
        }
        at += part.len() + 1;
    }
    if rest.chars().next().is_some_and(|c| c != ' ') {
        return Err(err(i, "a space after the board"));
    }
    let field = |n: usize, what: &str| -> Result<(usize, &str), ParsePositionError> {
        fields.get(n).copied().ok_or_else(|| err(text.len(), what))
    };
    let (side_at, side) = field(0, "the side to move (s or r)")?;
    let to_move = match side {
        "s" => SILVER,
        "r" => RED,
        _ => return Err(err(side_at, "the side to move: s (silver) or r (red)")),
    };
    let (clock_at, clock) = field(1, "the no-capture clock (0 to 100)")?;
    let clock: u8 = clock
        .parse()
        .map_err(|_| err(clock_at, "the no-capture clock, a number from 0 to 100"))?;
    let (full_at, full) = field(2, "the fullmove number (from 1)")?;
    let fullmove: u16 = full
        .parse()
        .map_err(|_| err(full_at, "the fullmove number, a number from 1 to 65535"))?;
    let (id_at, id) = field(3, "the game id (khet, khet-imhotep, khet-dynasty-horus...)")?;
    let setup = Setup::from_id(id).map_err(|_| {
        err(
            id_at,
            "a Khet game id: khet, khet-imhotep, khet-dynasty, or one of them with -horus",
        )
    })?;
    if let Some(&(extra_at, _)) = fields.get(4) {
        return Err(err(extra_at, "the end of the text after the game id"));
    }
    Khet::from_parts(board, to_move, clock, fullmove, setup)
}

/// Reads a square name (`a1` to `j8`).
pub fn parse_square(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].to_ascii_lowercase().wrapping_sub(b'a');
    let r = b[1].wrapping_sub(b'1');
    if (f as usize) < FILES && (r as usize) < RANKS {
        Some(r * FILES as u8 + f)
    } else {
        None
    }
}

const MOVE_FORMS: &str =
    "a step e4-e5, a swap e4=e5, or a rotation e4cw / e4ccw (squares a1 to j8)";

/// Reads a move in the context of `pos` (which decides `e4e5` between a step and a swap, and
/// reads a Scarab's or Eye's `ccw` as `cw`). Legality is checked when the move is played.
pub fn parse_move(pos: &Khet, text: &str) -> Result<KhetMove, ParseMoveError> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || ParseMoveError::new(text, MOVE_FORMS);
    if t.len() < 3 || !t.is_char_boundary(2) {
        return Err(bad());
    }
    let from = parse_square(&t[..2]).ok_or_else(bad)?;
    let rest = &t[2..];
    let m = match rest {
        "cw" | "+" => KhetMove::rotate(from, true),
        "ccw" | "-" => KhetMove::rotate(from, false),
        _ => {
            let (sep, target) = match rest.as_bytes()[0] {
                b'-' => (Some(MoveKind::Step), &rest[1..]),
                b'=' => (Some(MoveKind::Swap), &rest[1..]),
                _ => (None, rest),
            };
            let to = parse_square(target).ok_or_else(bad)?;
            let kind = sep.unwrap_or(if pos.piece_at(to) == 0 {
                MoveKind::Step
            } else {
                MoveKind::Swap
            });
            KhetMove { from, to, kind }
        }
    };
    let p = pos.piece_at(from);
    if m.kind == MoveKind::Ccw && p != 0 && matches!(piece_kind(p), Kind::Scarab | Kind::Eye) {
        return Ok(KhetMove::rotate(from, true));
    }
    Ok(m)
}

/// Writes a move: `e4-e5`, `e4=e5`, `e4cw`, `e4ccw`.
pub fn format_move(m: KhetMove) -> String {
    let from = super::square_name(m.from);
    match m.kind {
        MoveKind::Step => format!("{from}-{}", super::square_name(m.to)),
        MoveKind::Swap => format!("{from}={}", super::square_name(m.to)),
        MoveKind::Cw => format!("{from}cw"),
        MoveKind::Ccw => format!("{from}ccw"),
    }
}
