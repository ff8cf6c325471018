//! Move and position text.
//!
//! Moves: a swipe is `up`, `down`, `left` or `right` (also `u`, `d`, `l`, `r`); a deal is
//! `<value> at <cell>, next <hint>`, e.g. `2 at d3, next 1` or `12 at a1, next bonus`.
//!
//! Positions: the four rows top to bottom separated by `/`, each four cells separated by spaces
//! (a card value, or `.` for an empty cell); then `| deck <ones> <twos> <threes>` (the cards left in
//! the deck, the hint card excluded); then `| next <hint>` (`1`, `2`, `3` or `bonus`); and, at a
//! chance turn, `| swiped <dir> <lines>`: the swipe waiting for its card and the lines that moved
//! (row numbers 1-4 after left or right, column letters a-d after up or down). For example
//! `3 . 1 2 / . . . . / 12 6 . . / . . . 48 | deck 2 4 3 | next 2`.

use super::{cell_rank, highest_rank, rank_value, value_rank, Deck, Dir, Hint, Threes, ThreesMove};
use crate::core::{ParseMoveError, ParsePositionError};

const MOVE_EXPECTED: &str = "a swipe (up, down, left, right, or u, d, l, r) or a deal such as \
                             \"2 at d3, next 1\" (card value, cell a1-d4, next hint 1, 2, 3 or bonus)";

/// A cell's name: column a-d, row 1-4.
pub fn cell_name(cell: u8) -> String {
    format!("{}{}", (b'a' + cell % 4) as char, cell / 4 + 1)
}

fn parse_cell(t: &str) -> Option<u8> {
    let b = t.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let col = b[0].to_ascii_lowercase().wrapping_sub(b'a');
    let row = b[1].wrapping_sub(b'1');
    // The range is checked before the cell number is computed: `a0` or `c|` must not overflow.
    (col < 4 && row < 4).then(|| row * 4 + col)
}

fn parse_dir(t: &str) -> Option<Dir> {
    match t.to_ascii_lowercase().as_str() {
        "up" | "u" => Some(Dir::Up),
        "down" | "d" => Some(Dir::Down),
        "left" | "l" => Some(Dir::Left),
        "right" | "r" => Some(Dir::Right),
        _ => None,
    }
}

pub(super) fn format_move(m: ThreesMove) -> String {
    match m {
        ThreesMove::Swipe(d) => d.name().to_string(),
        ThreesMove::Spawn { cell, rank, next } => format!(
            "{} at {}, next {}",
            rank_value(rank),
            cell_name(cell),
            next.text()
        ),
    }
}

pub(super) fn parse_move(text: &str) -> Result<ThreesMove, ParseMoveError> {
    let t = text.trim();
    if let Some(d) = parse_dir(t) {
        return Ok(ThreesMove::Swipe(d));
    }
    let err = || ParseMoveError::new(text, MOVE_EXPECTED);
    let words: Vec<&str> = t
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() != 5
        || !words[1].eq_ignore_ascii_case("at")
        || !words[3].eq_ignore_ascii_case("next")
    {
        return Err(err());
    }
    let rank = words[0]
        .parse::<u32>()
        .ok()
        .and_then(value_rank)
        .ok_or_else(err)?;
    let cell = parse_cell(words[2]).ok_or_else(err)?;
    let next = Hint::parse(words[4]).ok_or_else(err)?;
    Ok(ThreesMove::Spawn { cell, rank, next })
}

pub(super) fn position_text(p: &Threes) -> String {
    let mut s = String::new();
    for r in 0..4u8 {
        if r > 0 {
            s.push_str(" / ");
        }
        for c in 0..4u8 {
            if c > 0 {
                s.push(' ');
            }
            match cell_rank(p.board, r * 4 + c) {
                0 => s.push('.'),
                k => s.push_str(&rank_value(k).to_string()),
            }
        }
    }
    let d = p.deck.counts;
    s.push_str(&format!(
        " | deck {} {} {} | next {}",
        d[0],
        d[1],
        d[2],
        p.hint.text()
    ));
    if let Some((dir, mask)) = p.pending {
        s.push_str(" | swiped ");
        s.push_str(dir.name());
        for l in 0..4u8 {
            if mask >> l & 1 == 1 {
                s.push(' ');
                match dir {
                    Dir::Left | Dir::Right => s.push((b'1' + l) as char),
                    Dir::Up | Dir::Down => s.push((b'a' + l) as char),
                }
            }
        }
    }
    s
}

/// Splits text into tokens with their character offsets: runs of characters other than white
/// space, `/` and `|`; each `/` and `|` is a token of its own.
fn tokens(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut start = 0;
    for (i, ch) in text.chars().enumerate() {
        if ch.is_whitespace() || ch == '/' || ch == '|' {
            if !cur.is_empty() {
                out.push((start, std::mem::take(&mut cur)));
            }
            if ch == '/' || ch == '|' {
                out.push((i, ch.to_string()));
            }
        } else {
            if cur.is_empty() {
                start = i;
            }
            cur.push(ch);
        }
    }
    if !cur.is_empty() {
        out.push((start, cur));
    }
    out
}

struct Reader<'a> {
    text: &'a str,
    toks: Vec<(usize, String)>,
    i: usize,
    len: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        Reader {
            text,
            toks: tokens(text),
            i: 0,
            len: text.chars().count(),
        }
    }

    fn at(&self) -> usize {
        self.toks.get(self.i).map(|t| t.0).unwrap_or(self.len)
    }

    fn err(&self, expected: &str) -> ParsePositionError {
        let mut e = ParsePositionError::at(self.text, self.at(), expected);
        if let Some(t) = self.toks.get(self.i) {
            e.found = crate::core::shown(&t.1);
        }
        e
    }

    fn next(&mut self, expected: &str) -> Result<String, ParsePositionError> {
        match self.toks.get(self.i) {
            Some(t) => {
                self.i += 1;
                Ok(t.1.clone())
            }
            None => Err(self.err(expected)),
        }
    }

    fn expect_word(&mut self, word: &str, expected: &str) -> Result<(), ParsePositionError> {
        match self.toks.get(self.i) {
            Some(t) if t.1.eq_ignore_ascii_case(word) => {
                self.i += 1;
                Ok(())
            }
            _ => Err(self.err(expected)),
        }
    }

    fn done(&self) -> bool {
        self.i >= self.toks.len()
    }
}

pub(super) fn read_position(text: &str) -> Result<Threes, ParsePositionError> {
    let mut r = Reader::new(text);
    let cell_expected = "a card (1, 2, 3, 6, 12, ... up to 12288) or . for an empty cell";
    let mut board = 0u64;
    for row in 0..4u8 {
        if row > 0 {
            r.expect_word("/", "/ between rows (four rows of four cells)")?;
        }
        for col in 0..4u8 {
            let expected = cell_expected;
            let save = r.i;
            let t = r.next(expected)?;
            let rank = if t == "." || t == "-" || t == "0" {
                0
            } else if t == "/" || t == "|" {
                r.i = save;
                return Err(r.err("four cells in each row"));
            } else {
                match t.parse::<u32>().ok().and_then(value_rank) {
                    Some(k) => k,
                    None => {
                        r.i = save;
                        return Err(r.err(expected));
                    }
                }
            };
            board |= (rank as u64) << (4 * (row * 4 + col) as u32);
        }
    }
    r.expect_word("|", "| after the fourth row, then the deck")?;
    r.expect_word("deck", "the word deck")?;
    let mut deck = Deck { counts: [0; 3] };
    for (i, name) in ["ones", "twos", "threes"].iter().enumerate() {
        let save = r.i;
        let t = r.next(&format!("the number of {name} left in the deck (0 to 4)"))?;
        match t.parse::<u8>() {
            Ok(n) if n <= 4 => deck.counts[i] = n,
            _ => {
                r.i = save;
                return Err(r.err(&format!("the number of {name} left in the deck (0 to 4)")));
            }
        }
    }
    r.expect_word("|", "| after the deck, then the next card")?;
    r.expect_word("next", "the word next")?;
    let save = r.i;
    let t = r.next("the next card: 1, 2, 3 or bonus")?;
    let hint = match Hint::parse(&t) {
        Some(h) => h,
        None => {
            r.i = save;
            return Err(r.err("the next card: 1, 2, 3 or bonus"));
        }
    };
    let mut pending = None;
    if !r.done() {
        r.expect_word(
            "|",
            "end of text, or | swiped <direction> <lines> at a chance turn",
        )?;
        r.expect_word("swiped", "the word swiped")?;
        let save = r.i;
        let t = r.next("a direction: up, down, left or right")?;
        let dir = match parse_dir(&t) {
            Some(d) => d,
            None => {
                r.i = save;
                return Err(r.err("a direction: up, down, left or right"));
            }
        };
        let line_expected = match dir {
            Dir::Left | Dir::Right => "a row that moved: 1 to 4",
            Dir::Up | Dir::Down => "a column that moved: a to d",
        };
        let mut mask = 0u8;
        while !r.done() {
            let save = r.i;
            let t = r.next(line_expected)?.to_ascii_lowercase();
            let b = t.as_bytes();
            let line = match (dir, b) {
                (Dir::Left | Dir::Right, [c @ b'1'..=b'4']) => c - b'1',
                (Dir::Up | Dir::Down, [c @ b'a'..=b'd']) => c - b'a',
                _ => {
                    r.i = save;
                    return Err(r.err(line_expected));
                }
            };
            mask |= 1 << line;
        }
        if mask == 0 {
            return Err(r.err(line_expected));
        }
        pending = Some((dir, mask));
    }
    // Rules the position as a whole must obey.
    if let Some(i) = hint.deck_card() {
        if deck.counts[i] == 4 {
            return Err(ParsePositionError::whole(format!(
                "a deck that could have dealt the hint: the next card {} came from the deck, so at most \
                 3 of them are left in it",
                hint.text()
            )));
        }
    } else if highest_rank(board) < super::deck::BONUS_FROM_RANK {
        return Err(ParsePositionError::whole(
            "a highest card of 48 or more when the next card is a bonus card",
        ));
    }
    if let Some((dir, mask)) = pending {
        for l in 0..4u8 {
            if mask >> l & 1 == 1 && cell_rank(board, dir.entry_cell(l)) != 0 {
                return Err(ParsePositionError::whole(format!(
                    "an empty entry cell in each line that moved ({} is taken after swiping {})",
                    cell_name(dir.entry_cell(l)),
                    dir.name()
                )));
            }
        }
    } else if board == 0 {
        return Err(ParsePositionError::whole("at least one card on the grid"));
    }
    Ok(Threes::from_parts(board, deck, hint, pending))
}
