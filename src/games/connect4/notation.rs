//! Move and position text (see the module documentation of [`super`]).

use super::{Column, Connect4, HEIGHT, STRIDE, WIDTH};
use crate::core::{ParseMoveError, ParsePositionError};

const MOVE_EXPECTED: &str = "a column number from 1 (left) to 7 (right)";

pub(super) fn format_move(m: Column) -> String {
    (m + 1).to_string()
}

pub(super) fn parse_move(text: &str) -> Result<Column, ParseMoveError> {
    match text.trim().parse::<u8>() {
        Ok(n) if (1..=WIDTH as u8).contains(&n) => Ok(n - 1),
        _ => Err(ParseMoveError::new(text, MOVE_EXPECTED)),
    }
}

pub(super) fn position_text(pos: &Connect4) -> String {
    let mut s = String::new();
    for row in (0..HEIGHT).rev() {
        for col in 0..WIDTH {
            s.push(match pos.cell(col, row) {
                Some(0) => 'x',
                Some(_) => 'o',
                None => '.',
            });
        }
        if row > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(if pos.to_move == 0 { 'x' } else { 'o' });
    s
}

pub(super) fn read_position(text: &str) -> Result<Connect4, ParsePositionError> {
    let chars: Vec<char> = text.chars().collect();
    let mut discs = [0u64; 2];
    let mut i = 0;
    for r in 0..HEIGHT {
        let row = HEIGHT - 1 - r;
        for col in 0..WIDTH {
            match chars.get(i) {
                Some('x') | Some('X') => discs[0] |= 1 << (col * STRIDE + row),
                Some('o') | Some('O') => discs[1] |= 1 << (col * STRIDE + row),
                Some('.') | Some('-') => {}
                _ => {
                    return Err(ParsePositionError::at(
                        text,
                        i,
                        format!("a cell of row {} from the top: x, o or .", r + 1),
                    ))
                }
            }
            i += 1;
        }
        let sep = if r + 1 < HEIGHT { '/' } else { ' ' };
        if chars.get(i) != Some(&sep) {
            return Err(ParsePositionError::at(
                text,
                i,
                if sep == '/' {
                    "'/' after seven cells (six rows of seven)"
                } else {
                    "a space after the sixth row, then the side to move (x or o)"
                },
            ));
        }
        i += 1;
    }
    let to_move = match chars.get(i) {
        Some('x') | Some('X') => 0,
        Some('o') | Some('O') => 1,
        _ => return Err(ParsePositionError::at(text, i, "the side to move: x or o")),
    };
    if i + 1 < chars.len() {
        return Err(ParsePositionError::at(
            text,
            i + 1,
            "end of text after the side to move",
        ));
    }
    // Discs rest on the bottom or on another disc.
    let mask = discs[0] | discs[1];
    for col in 0..WIDTH {
        for row in 1..HEIGHT {
            let bit = 1u64 << (col * STRIDE + row);
            if mask & bit != 0 && mask & (bit >> 1) == 0 {
                return Err(ParsePositionError::whole(format!(
                    "discs that rest on the bottom or on another disc (column {} has a gap under row {} from the bottom)",
                    col + 1,
                    row + 1
                )));
            }
        }
    }
    let (x, o) = (discs[0].count_ones(), discs[1].count_ones());
    let mover = if x == o { 0 } else { 1 };
    if !(x == o || x == o + 1) || to_move != mover {
        return Err(ParsePositionError::whole(format!(
            "a reachable position: x moves first, so x has as many discs as o or one more, and it is \
             x's turn exactly when the counts are equal (found {x} x, {o} o, {} to move)",
            if to_move == 0 { "x" } else { "o" }
        )));
    }
    if super::has_four(discs[to_move as usize]) {
        return Err(ParsePositionError::whole(
            "a reachable position: the side to move cannot already have four in a row",
        ));
    }
    Ok(Connect4::from_discs(discs, to_move))
}
