//! Self-play data for the Ataxx `nnue` evaluator (`plyscope datagen-ataxx`, docs/ataxx.md): games
//! of the engine against itself at a fixed node budget a move, every position searched kept with
//! the search's value and the game's result.
//!
//! **Games.** Each starts on the open board or, with probability [`DatagenConfig::walls_share`], on
//! a random wall layout ([`walls::random_layout`]); then a number of random plies drawn between
//! [`DatagenConfig::random_min`] and [`DatagenConfig::random_max`] (an opening that ends the game
//! or forces a pass is drawn again), kept only when a search of it at the node budget values it
//! within [`DatagenConfig::max_opening`] hundredths of a piece (an even start). Then each side
//! plays the best move of its search at [`DatagenConfig::nodes`] nodes. A game ends with the rules,
//! or when a search finds a won or lost game (adjudicated for that side). A game drawn by the
//! 100-halfmove clock is dropped (its positions say nothing of who stood better).
//!
//! **Records** ([`RECORD`] bytes each, after the 8-byte [`MAGIC`]): the side to move's pieces, the
//! other side's and the walls (`u64` each), the search's value for the side to move in hundredths
//! of a piece (`i16`, [`DECIDED`] or beyond for a won game, the negation for a lost one), the
//! game's result for the side to move (0 lost, 1 drawn, 2 won) and the ply (capped at 255), all
//! little-endian.
//!
//! Threads play their own games with their own seeds (thread `t` of seed `s` draws from `s + t`),
//! so a run is reproducible for a given seed and thread count.

use super::eval::AtaxxEval;
use super::walls;
use super::{Ataxx, AtaxxMove};
use crate::core::{Game, PlayerId, WIN_SCORE};
use crate::games::pattern_fit::SplitMix;
use crate::search::{search, Hooks, SearchConfig};
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// The data file's first bytes.
pub const MAGIC: &[u8; 8] = b"PLYATXG1";
/// Bytes per position.
pub const RECORD: usize = 28;
/// A value at or beyond this (hundredths of a piece, for the side to move) says the search found
/// the game won; its negation, lost.
pub const DECIDED: i16 = 30_000;

/// The settings of a data run.
#[derive(Debug, Clone)]
pub struct DatagenConfig {
    /// Games to keep (over all threads).
    pub games: u64,
    /// The node budget of each move's search.
    pub nodes: u64,
    /// The seed of every random choice.
    pub seed: u64,
    /// Fewest random plies of an opening.
    pub random_min: u32,
    /// Most random plies of an opening.
    pub random_max: u32,
    /// The largest value (hundredths of a piece, either side) an opening may have to be kept.
    pub max_opening: f64,
    /// The share of games played on a random wall layout.
    pub walls_share: f64,
    /// The evaluation of the search that plays.
    pub evaluator: AtaxxEval,
    /// Threads, each playing its own games.
    pub threads: usize,
}

impl Default for DatagenConfig {
    fn default() -> Self {
        DatagenConfig {
            games: 1000,
            nodes: 5000,
            seed: 1,
            random_min: 6,
            random_max: 14,
            max_opening: 300.0,
            walls_share: 0.2,
            evaluator: AtaxxEval::default(),
            threads: 1,
        }
    }
}

impl DatagenConfig {
    /// Checks the settings; the error says which one is off.
    pub fn check(&self) -> Result<(), String> {
        if self.nodes < 100 {
            return Err("--nodes must be at least 100".into());
        }
        if self.random_min > self.random_max || self.random_max > 40 {
            return Err("the random plies must satisfy min <= max <= 40".into());
        }
        if !(0.0..=1.0).contains(&self.walls_share) {
            return Err("--walls must be a share from 0 to 1".into());
        }
        if !(1..=64).contains(&self.threads) {
            return Err("--threads must be from 1 to 64".into());
        }
        Ok(())
    }
}

/// One position of the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// The side to move's pieces.
    pub me: u64,
    /// The other side's pieces.
    pub them: u64,
    /// Walls.
    pub walls: u64,
    /// The search's value for the side to move, hundredths of a piece ([`DECIDED`] and beyond: won).
    pub score: i16,
    /// The game's result for the side to move: 0 lost, 1 drawn, 2 won.
    pub result: u8,
    /// The position's ply in its game (capped at 255).
    pub ply: u8,
}

impl Position {
    /// The record's bytes.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.me.to_le_bytes());
        out.extend_from_slice(&self.them.to_le_bytes());
        out.extend_from_slice(&self.walls.to_le_bytes());
        out.extend_from_slice(&self.score.to_le_bytes());
        out.push(self.result);
        out.push(self.ply);
    }

    /// The position of a record (`bytes` is [`RECORD`] long); `None` when its cells overlap or
    /// fall off the board, or its result is not 0, 1 or 2.
    pub fn decode(bytes: &[u8]) -> Option<Position> {
        let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let p = Position {
            me: word(0),
            them: word(8),
            walls: word(16),
            score: i16::from_le_bytes([bytes[24], bytes[25]]),
            result: bytes[26],
            ply: bytes[27],
        };
        let board = (1u64 << 49) - 1;
        let ok = (p.me | p.them | p.walls) & !board == 0
            && p.me & p.them == 0
            && (p.me | p.them) & p.walls == 0
            && p.result <= 2;
        ok.then_some(p)
    }
}

/// Why a data file does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataError {
    /// The file does not start with [`MAGIC`].
    NotData,
    /// The file's length after the magic is not a whole number of records.
    Length {
        /// The bytes after the magic.
        found: u64,
    },
    /// Record `index` is not a position.
    BadPosition {
        /// The record's place in the file, from 0.
        index: u64,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::NotData => write!(
                f,
                "not an Ataxx self-play data file (expected it to start with {})",
                String::from_utf8_lossy(MAGIC)
            ),
            DataError::Length { found } => write!(
                f,
                "data file has {found} bytes of records, not a whole number of {RECORD}-byte records"
            ),
            DataError::BadPosition { index } => write!(
                f,
                "record {index} of the data file has overlapping cells, cells off the board or a \
                 result other than 0, 1 or 2"
            ),
        }
    }
}

impl std::error::Error for DataError {}

/// Reads a whole data file's bytes.
pub fn decode(bytes: &[u8]) -> Result<Vec<Position>, DataError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(DataError::NotData);
    }
    let body = &bytes[MAGIC.len()..];
    if body.len() % RECORD != 0 {
        return Err(DataError::Length {
            found: body.len() as u64,
        });
    }
    body.chunks_exact(RECORD)
        .enumerate()
        .map(|(i, r)| Position::decode(r).ok_or(DataError::BadPosition { index: i as u64 }))
        .collect()
}

/// What a run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DatagenReport {
    /// Games kept.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Games dropped for a 100-halfmove draw.
    pub clock_draws: u64,
    /// Openings drawn again for being uneven.
    pub uneven_openings: u64,
    /// Games won by the side that moved first, drawn, and won by the second (kept games).
    pub first_second: [u64; 3],
}

/// The search that plays: iterative deepening under the node budget, the game's defaults, one
/// thread.
fn play_config(nodes: u64, seed: u64) -> SearchConfig {
    SearchConfig {
        depth: 64,
        iterative_deepening: true,
        node_budget: Some(nodes),
        threads: 1,
        tt_bits: 16,
        random_ties: false,
        seed: Some(seed),
        ..crate::games::search_defaults("ataxx")
    }
}

/// The best move of `pos` at the node budget and its value for the side to move.
fn best(pos: &Ataxx, cfg: &DatagenConfig, rng: &mut SplitMix) -> (AtaxxMove, f64) {
    let r = search(
        pos,
        &cfg.evaluator,
        &play_config(cfg.nodes, rng.next()),
        Hooks::default(),
    )
    .expect("a position with a move searches");
    (r.best.expect("a move"), r.value)
}

/// A value for the side to move as the record keeps it.
fn record_score(value: f64) -> i16 {
    if value >= WIN_SCORE / 2.0 {
        DECIDED
    } else if value <= -WIN_SCORE / 2.0 {
        -DECIDED
    } else {
        value.round().clamp(-(DECIDED as f64) + 1.0, DECIDED as f64 - 1.0) as i16
    }
}

/// An even opening: a position after random plies, on the open board or a random wall layout.
fn opening(cfg: &DatagenConfig, rng: &mut SplitMix, report: &mut DatagenReport) -> Ataxx {
    let mut moves: Vec<AtaxxMove> = Vec::new();
    loop {
        let code = if rng.unit() < cfg.walls_share {
            walls::random_layout(rng.next())
        } else {
            0
        };
        let mut pos = Ataxx::with_walls(walls::mirror(code));
        let plies = cfg.random_min + rng.below((cfg.random_max - cfg.random_min + 1) as u64) as u32;
        let mut fine = true;
        for _ in 0..plies {
            pos.legal_moves(&mut moves);
            if pos.is_over() || moves.iter().any(|m| m.is_pass()) {
                fine = false;
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
        }
        pos.legal_moves(&mut moves);
        if !fine || pos.is_over() || moves.iter().any(|m| m.is_pass()) {
            continue;
        }
        let (_, v) = best(&pos, cfg, rng);
        if v.abs() > cfg.max_opening {
            report.uneven_openings += 1;
            continue;
        }
        return pos;
    }
}

/// Plays one game from an even opening; returns its positions, or `None` for a game drawn by the
/// halfmove clock. With them, the game's result as a tally: [won by the first player, drawn, won
/// by the second].
fn game(
    cfg: &DatagenConfig,
    rng: &mut SplitMix,
    report: &mut DatagenReport,
) -> Option<(Vec<Position>, [u64; 3])> {
    let mut pos = opening(cfg, rng, report);
    let mut kept: Vec<(Position, PlayerId)> = Vec::new();
    let mut ply = 0u32;
    let winner: Option<PlayerId> = loop {
        if pos.is_over() {
            if pos.halfmove_clock() >= 100 {
                report.clock_draws += 1;
                return None;
            }
            let me = pos.pieces(0).count_ones();
            let them = pos.pieces(1).count_ones();
            break match me.cmp(&them) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            };
        }
        let mover = pos.side_to_move();
        let (mv, v) = best(&pos, cfg, rng);
        if v.abs() >= WIN_SCORE / 2.0 {
            // The search sees the end: adjudicated.
            break Some(if v > 0.0 { mover } else { mover ^ 1 });
        }
        kept.push((
            Position {
                me: pos.pieces(mover),
                them: pos.pieces(mover ^ 1),
                walls: pos.walls(),
                score: record_score(v),
                result: 1,
                ply: ply.min(255) as u8,
            },
            mover,
        ));
        pos.play_unchecked(mv);
        ply += 1;
    };
    let tally = match winner {
        Some(0) => [1, 0, 0],
        None => [0, 1, 0],
        Some(_) => [0, 0, 1],
    };
    let positions = kept
        .into_iter()
        .map(|(mut p, mover)| {
            p.result = match winner {
                None => 1,
                Some(w) if w == mover => 2,
                Some(_) => 0,
            };
            p
        })
        .collect();
    Some((positions, tally))
}

/// Plays the run's games on [`DatagenConfig::threads`] threads, appending each game's records to
/// `out` as it ends (after [`MAGIC`], which the caller writes), and calling `log` with the report
/// every `log_every` games. Stops early, between games, when `stop` is raised.
pub fn run<W: Write + Send>(
    cfg: &DatagenConfig,
    out: W,
    stop: &AtomicBool,
    log_every: u64,
    log: &(dyn Fn(&DatagenReport) + Sync),
) -> std::io::Result<DatagenReport> {
    let out = Mutex::new((out, DatagenReport::default(), None::<std::io::Error>));
    let started = AtomicU64::new(0);
    std::thread::scope(|s| {
        for t in 0..cfg.threads {
            let out = &out;
            let started = &started;
            s.spawn(move || {
                let mut rng = SplitMix::new(cfg.seed.wrapping_add(t as u64));
                let mut bytes = Vec::new();
                while !stop.load(Ordering::Relaxed)
                    && started.fetch_add(1, Ordering::Relaxed) < cfg.games
                {
                    let mut mine = DatagenReport::default();
                    let played = loop {
                        if let Some(g) = game(cfg, &mut rng, &mut mine) {
                            break g;
                        }
                    };
                    bytes.clear();
                    for p in &played.0 {
                        p.encode(&mut bytes);
                    }
                    let mut guard = out.lock().expect("no thread panics holding it");
                    let (w, report, err) = &mut *guard;
                    if err.is_some() {
                        return;
                    }
                    if let Err(e) = w.write_all(&bytes) {
                        *err = Some(e);
                        return;
                    }
                    report.games += 1;
                    report.positions += played.0.len() as u64;
                    report.clock_draws += mine.clock_draws;
                    report.uneven_openings += mine.uneven_openings;
                    for k in 0..3 {
                        report.first_second[k] += played.1[k];
                    }
                    if log_every > 0 && report.games % log_every == 0 {
                        log(report);
                    }
                }
            });
        }
    });
    let (mut w, report, err) = out.into_inner().expect("no thread panicked");
    if let Some(e) = err {
        return Err(e);
    }
    w.flush()?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back_and_bad_ones_are_refused() {
        let p = Position {
            me: 0b101,
            them: 0b1010 << 40,
            walls: 1 << 24,
            score: -1234,
            result: 2,
            ply: 17,
        };
        let mut bytes = MAGIC.to_vec();
        p.encode(&mut bytes);
        assert_eq!(bytes.len(), MAGIC.len() + RECORD);
        assert_eq!(decode(&bytes).unwrap(), vec![p]);
        let mut overlap = bytes.clone();
        overlap[MAGIC.len() + 8] |= 1; // the other side's a1, where the side to move has a piece
        assert_eq!(decode(&overlap), Err(DataError::BadPosition { index: 0 }));
        assert_eq!(decode(&bytes[..bytes.len() - 1]), Err(DataError::Length { found: 27 }));
        assert_eq!(decode(b"PLYATXS1"), Err(DataError::NotData));
    }

    #[test]
    fn a_small_run_writes_games_whose_results_agree_between_the_sides() {
        let cfg = DatagenConfig {
            games: 3,
            nodes: 300,
            seed: 5,
            evaluator: AtaxxEval::Strong,
            walls_share: 0.5,
            ..DatagenConfig::default()
        };
        let mut bytes = MAGIC.to_vec();
        let stop = AtomicBool::new(false);
        let report = run(&cfg, &mut bytes, &stop, 0, &|_| {}).unwrap();
        let data = decode(&bytes).unwrap();
        assert_eq!(report.games, 3);
        assert_eq!(report.positions, data.len() as u64);
        assert!(data.len() > 3 * 10, "games of more than ten plies: {}", data.len());
        // Within a game the side to move changes every ply (passes included), so the results
        // of two positions a ply apart add up to 2 (a win and a loss, or two draws).
        for w in data.windows(2) {
            if w[1].ply == w[0].ply + 1 {
                assert_eq!(w[0].result + w[1].result, 2, "{w:?}");
            }
            assert!((w[0].me | w[0].them).count_ones() >= 4);
        }
    }
}
