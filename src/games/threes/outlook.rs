//! The expected score a few swipes ahead, which the page shows beside the search's board quality:
//! the evaluator scores how good a board is to keep playing on, not points, so a player reads the
//! points a move is expected to bring from this.
//!
//! After the move, each later swipe is the one with the best expected score, and nature deals each
//! card by its odds; the value at the horizon (or at the end of the game) is the score on the board.

use super::view::grouped;
use super::{Threes, ThreesMove};
use crate::core::{Game, Turn, ValueText};

/// Swipes the outlook looks ahead, the move itself included. Three swipes is about 10^5
/// positions for the four moves of a turn (a few milliseconds).
pub const OUTLOOK_SWIPES: u32 = 3;

/// The expected score after `m` and then `swipes - 1` more swipes (at least the move itself),
/// each chosen for the best expected score, nature dealing by its odds. `None` if `m` is not
/// legal here.
pub fn expected_score(pos: &Threes, m: ThreesMove, swipes: u32) -> Option<f64> {
    let mut next = pos.clone();
    next.play(m).ok()?;
    Some(value(&next, swipes.max(1) - 1))
}

/// The expected score of `pos` with `swipes` swipes still to choose.
fn value(pos: &Threes, swipes: u32) -> f64 {
    match pos.turn() {
        Turn::Terminal => pos.score() as f64,
        Turn::Chance => {
            let mut outcomes = Vec::new();
            pos.chance_outcomes(&mut outcomes);
            outcomes
                .iter()
                .map(|&(o, p)| {
                    let mut next = pos.clone();
                    next.play_unchecked(o);
                    p * value(&next, swipes)
                })
                .sum()
        }
        Turn::Player(_) if swipes == 0 => pos.score() as f64,
        Turn::Player(_) => {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            moves
                .iter()
                .map(|&m| {
                    let mut next = pos.clone();
                    next.play_unchecked(m);
                    value(&next, swipes - 1)
                })
                .fold(f64::NEG_INFINITY, f64::max)
        }
    }
}

/// The outlook of `m` in words, with the search's own value text after it: "expected score
/// 1,254 in 3 swipes, 1,230 now; board quality 16.8k". Its amount is the expected score.
pub fn describe(pos: &Threes, m: ThreesMove, searched: &ValueText) -> Option<ValueText> {
    let e = expected_score(pos, m, OUTLOOK_SWIPES)?;
    Some(ValueText {
        text: format!(
            "expected score {} in {OUTLOOK_SWIPES} swipes, {} now; {}",
            grouped(e.max(0.0).round() as u64),
            grouped(pos.score()),
            searched.text
        ),
        amount: searched
            .decided
            .is_none()
            .then_some((e * 10.0).round() / 10.0),
        decided: searched.decided,
        margin: None,
    })
}
