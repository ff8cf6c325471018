//! Wall layouts: the seed's 16-bit code over the top-left 4x4 quadrant, mirrored over all four.
//!
//! Quadrant cell `i` (bit `i` of the code, 0..16) is row `i / 4` from the top and column `i % 4`
//! from the left: bit 0 is `a7`, bit 3 `d7`, bit 12 `a4`, bit 15 the centre `d4`. Each bit stands
//! for that cell and its mirror images across the middle column and the middle row, so bits on the
//! middle row or column (3, 7, 11, 12, 13, 14, 15) cover fewer than four cells. Bit 0 is a corner,
//! where the players start: it is never set, which leaves 2^15 layouts.

use super::{Ataxx, CELLS};
use crate::core::{Error, Rng};

/// Named layouts offered to people, open board first.
pub const PRESETS: &[(&str, u16)] = &[
    ("open", 0x0000),
    ("four pillars", 0x0400),
    ("centre stone", 0x8000),
    ("cross", 0x7888),
    ("diamond", 0x8124),
    ("gates", 0x01A2),
    ("corridors", 0x0220),
];

/// The code of a named preset (case-insensitive), if there is one.
pub fn preset(name: &str) -> Option<u16> {
    PRESETS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
        .map(|&(_, code)| code)
}

/// The most walls bits a random layout gets (the seed's limit for interesting boards).
pub const RANDOM_MAX_BITS: u32 = 6;

/// The board cells (bit `cell` of a bitboard) of quadrant cell `i`, with its mirror images.
pub fn quadrant_cells(i: u32) -> u64 {
    let (r, c) = ((i / 4) as u64, (i % 4) as u64);
    let top = 6 - r; // rank index counted from the bottom
    let bottom = r;
    (1u64 << (top * 7 + c))
        | (1u64 << (top * 7 + 6 - c))
        | (1u64 << (bottom * 7 + c))
        | (1u64 << (bottom * 7 + 6 - c))
}

/// The wall bitboard of a code (every set bit mirrored over the four quadrants).
pub fn mirror(code: u16) -> u64 {
    (0..16)
        .filter(|i| code >> i & 1 == 1)
        .fold(0, |b, i| b | quadrant_cells(i))
}

/// The code of a wall bitboard, when the walls are mirror-symmetric and off the corners.
pub fn code_of(walls: u64) -> Option<u16> {
    let mut code = 0u16;
    for i in 0..16 {
        let r = (i / 4) as u64;
        let c = (i % 4) as u64;
        if walls >> ((6 - r) * 7 + c) & 1 == 1 {
            code |= 1 << i;
        }
    }
    (code & 1 == 0 && mirror(code) == walls).then_some(code)
}

/// The quadrant bit standing for a board cell (0..49), or `None` off the board.
pub fn bit_of_cell(cell: u8) -> Option<u32> {
    if cell as usize >= CELLS {
        return None;
    }
    let r = 6 - (cell / 7) as u32; // row from the top
    let c = (cell % 7) as u32;
    Some(r.min(6 - r) * 4 + c.min(6 - c))
}

/// Toggles the wall on a board cell (0..49, `a1` = 0) and on its mirror images: what the layout
/// editor does on a click. The corners cannot hold walls.
pub fn toggle(code: u16, cell: u8) -> Result<u16, Error> {
    match bit_of_cell(cell) {
        None => Err(Error::bad_option(
            "cell",
            cell,
            "a cell number from 0 (a1) to 48 (g7)",
        )),
        Some(0) => Err(Error::bad_option(
            "cell",
            super::cell_name(cell),
            "a cell other than a corner (the corners are the players' starting cells)",
        )),
        Some(bit) => Ok(code ^ (1 << bit)),
    }
}

/// The game id of a layout: `ataxx` for the open board, `ataxx-XXXX` (four upper-case hex digits)
/// otherwise.
pub fn variant_id(code: u16) -> String {
    if code == 0 {
        "ataxx".to_string()
    } else {
        format!("ataxx-{code:04X}")
    }
}

/// Reads a wall code in hex: `0x1234`, `0X1234` or `1234` (one to four hex digits).
pub fn parse_code(text: &str) -> Result<u16, Error> {
    let t = text.trim();
    let digits = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t);
    let expected = "a wall code of one to four hex digits, such as 0400 or 0x7888";
    if digits.is_empty() || digits.len() > 4 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(Error::bad_option("wall code", text, expected));
    }
    u16::from_str_radix(digits, 16).map_err(|_| Error::bad_option("wall code", text, expected))
}

/// Checks that a layout can be played: no wall on the corners, and each side has a move at the
/// start. The message says what is wrong.
pub fn validate(code: u16) -> Result<(), Error> {
    if code & 1 == 1 {
        return Err(Error::bad_option(
            "wall code",
            format!("{code:#06X}"),
            "bit 0 clear: the corners are the players' starting cells and cannot hold walls",
        ));
    }
    let start = Ataxx::with_walls(mirror(code));
    for player in 0..2u8 {
        if !start.can_move(player) {
            return Err(Error::bad_option(
                "wall code",
                format!("{code:#06X}"),
                format!(
                    "a layout that leaves each side a move at the start (this one walls {} in)",
                    if player == 0 { "black" } else { "white" }
                ),
            ));
        }
    }
    Ok(())
}

/// Whether [`validate`] accepts the code.
pub fn is_playable(code: u16) -> bool {
    validate(code).is_ok()
}

/// A random playable layout with at most [`RANDOM_MAX_BITS`] bits set, fixed by `seed`: each of the
/// seed's 9,949 layouts of 0 to 6 bits is equally likely.
pub fn random_layout(seed: u64) -> u16 {
    let mut rng = Rng::seeded(seed);
    // Draw the number of bits with the weight of its layouts, C(15, k), then the bits themselves.
    const WEIGHTS: [u64; 7] = [1, 15, 105, 455, 1365, 3003, 5005];
    loop {
        let mut r = rng.below(WEIGHTS.iter().sum());
        let mut k = 0;
        while r >= WEIGHTS[k] {
            r -= WEIGHTS[k];
            k += 1;
        }
        let mut code = 0u16;
        while code.count_ones() < k as u32 {
            code |= 1 << (1 + rng.below(15));
        }
        if is_playable(code) {
            return code;
        }
    }
}

/// The layout as seven lines of text, rank 7 first: `#` wall, `.` free.
pub fn render(code: u16) -> String {
    let walls = mirror(code);
    let mut s = String::new();
    for rank in (0..7).rev() {
        for file in 0..7 {
            s.push(if walls >> (rank * 7 + file) & 1 == 1 {
                '#'
            } else {
                '.'
            });
        }
        s.push('\n');
    }
    s
}
