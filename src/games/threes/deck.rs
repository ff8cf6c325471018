//! The deck of small cards and the next-card hint, with the exact odds of the next draw.
//!
//! The deck holds twelve cards, four each of 1, 2 and 3, and is reshuffled (filled again) when it is
//! empty. The card shown as the hint has already left the deck: [`Deck::counts`] are the cards still
//! in it. Once the highest card on the board is 48 or more, each new hint is a bonus card with
//! probability 1/21 instead of a deck card (a bonus draw leaves the deck as it is).

/// Cards of each small value in a full deck.
pub const PER_VALUE: u8 = 4;

/// Rank of the highest card from which bonus cards appear (48 = 3 * 2^4, rank 7).
pub const BONUS_FROM_RANK: u8 = 7;

/// Probability that a hint is a bonus card, once bonus cards can appear.
pub const BONUS_PROB: f64 = 1.0 / 21.0;

/// The next card the player is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Hint {
    /// A 1 from the deck.
    One,
    /// A 2 from the deck.
    Two,
    /// A 3 from the deck.
    Three,
    /// A bonus card: 6 up to a eighth of the highest card, the value unknown until it is dealt.
    Bonus,
}

impl Hint {
    /// The hints in index order.
    pub const ALL: [Hint; 4] = [Hint::One, Hint::Two, Hint::Three, Hint::Bonus];

    /// 0 for 1, 1 for 2, 2 for 3, 3 for bonus.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The deck card (0 for 1, 1 for 2, 2 for 3), or `None` for a bonus card.
    pub fn deck_card(self) -> Option<usize> {
        match self {
            Hint::Bonus => None,
            h => Some(h as usize),
        }
    }

    /// The hint for deck card `i` (0, 1 or 2).
    pub fn from_deck_card(i: usize) -> Hint {
        Hint::ALL[i.min(2)]
    }

    /// The hint as written: `1`, `2`, `3` or `bonus`.
    pub fn text(self) -> &'static str {
        match self {
            Hint::One => "1",
            Hint::Two => "2",
            Hint::Three => "3",
            Hint::Bonus => "bonus",
        }
    }

    /// Reads `1`, `2`, `3`, `bonus` (or `+`).
    pub fn parse(text: &str) -> Option<Hint> {
        match text.to_ascii_lowercase().as_str() {
            "1" => Some(Hint::One),
            "2" => Some(Hint::Two),
            "3" => Some(Hint::Three),
            "bonus" | "+" | "b" => Some(Hint::Bonus),
            _ => None,
        }
    }
}

/// The small cards still in the deck (the hint card excluded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Deck {
    /// Cards left: `[ones, twos, threes]`, each 0 to 4.
    pub counts: [u8; 3],
}

impl Deck {
    /// A full deck of twelve cards.
    pub const FULL: Deck = Deck {
        counts: [PER_VALUE; 3],
    };

    /// Cards left.
    pub fn len(&self) -> u32 {
        self.counts.iter().map(|&c| c as u32).sum()
    }

    /// Whether the deck is empty (it is refilled at the next draw).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The deck the next card is drawn from: this one, or a full one if this one is empty.
    pub fn drawable(&self) -> Deck {
        if self.is_empty() {
            Deck::FULL
        } else {
            *self
        }
    }

    /// The deck after the next hint `next` is drawn.
    pub fn after_draw(&self, next: Hint) -> Deck {
        match next.deck_card() {
            None => *self,
            Some(i) => {
                let mut d = self.drawable();
                d.counts[i] = d.counts[i].saturating_sub(1);
                d
            }
        }
    }

    /// Calls `f(hint, probability)` for every next hint of non-zero probability, given the highest
    /// rank on the board. The probabilities sum to 1.
    pub fn next_odds(&self, highest_rank: u8, mut f: impl FnMut(Hint, f64)) {
        let bonus = if highest_rank >= BONUS_FROM_RANK {
            BONUS_PROB
        } else {
            0.0
        };
        let d = self.drawable();
        let total = d.len() as f64;
        for i in 0..3 {
            if d.counts[i] > 0 {
                f(
                    Hint::from_deck_card(i),
                    (1.0 - bonus) * d.counts[i] as f64 / total,
                );
            }
        }
        if bonus > 0.0 {
            f(Hint::Bonus, bonus);
        }
    }

    /// Draws the next hint with `r`, a uniform number in `[0, 1)`, following [`Deck::next_odds`].
    pub fn draw(&self, highest_rank: u8, r: f64) -> Hint {
        let mut acc = 0.0;
        let mut last = Hint::One;
        let mut pick = None;
        self.next_odds(highest_rank, |h, p| {
            acc += p;
            last = h;
            if pick.is_none() && r < acc {
                pick = Some(h);
            }
        });
        pick.unwrap_or(last)
    }
}

/// The ranks a bonus card may have when the highest rank on the board is `highest_rank`: 6 (rank 4)
/// up to an eighth of the highest card (rank `highest_rank - 3`). Empty below 48.
pub fn bonus_ranks(highest_rank: u8) -> std::ops::RangeInclusive<u8> {
    // Below 48 the upper end is below 4 and the range is empty.
    4..=highest_rank.saturating_sub(3)
}
