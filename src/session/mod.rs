//! A game in progress, behind an object-safe interface that speaks text: what the browser, the CLI
//! and the engine protocols use, whatever the game. It keeps the history and the redo list, makes
//! the board view of each state, runs searches and returns their tree documents.

mod exact;
mod split;

pub use split::{JobReport, JobSpec, SplitRun};

pub use exact::SOLVER_TIME_SHARE;

use crate::core::{
    view_of, BoardView, Coord, Error, Evaluator, Outcome, PerftBudget, Rng, Turn, ValueText,
};
use crate::games::{with_game, GameInfo, GameVisitor, Playable};
use crate::search::{mcts_value_text, search, Algorithm, Hooks, SearchConfig, SearchResult};
use crate::tree::{Stats, Tree};
use serde::Serialize;

/// A legal move in text form.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MoveInfo {
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub text: String,
    /// The probability, for a chance outcome.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prob: Option<f64>,
}

/// One root move of a search, in text form.
#[derive(Debug, Clone, Serialize)]
pub struct RootMoveReport {
    /// The move.
    #[serde(rename = "move")]
    pub text: String,
    /// Its value from the searching player's view.
    pub value: f64,
    /// Whether that value is exact or an upper bound.
    pub exact: bool,
    /// The value in words for the searching player (`"+1.3 pieces"`, `"win in 5 plies"`).
    pub value_text: ValueText,
}

/// A search's result in text form.
#[derive(Debug, Clone, Serialize)]
pub struct SearchReport {
    /// The move chosen.
    #[serde(rename = "move")]
    pub mv: String,
    /// The best move's value from the searching player's view.
    pub value: f64,
    /// That value in words for the searching player, with its amount in units for graphs.
    pub value_text: ValueText,
    /// The searching player (the player to move), whose view every value takes.
    pub viewer: String,
    /// The principal variation.
    pub pv: Vec<String>,
    /// The chosen move's rank, 1 for the best.
    pub rank: usize,
    /// `best`, `tie`, `randomness`, `random`, or `opening` (a book move, not searched).
    pub reason: String,
    /// Root moves, best first.
    pub root_moves: Vec<RootMoveReport>,
    /// Whole-run statistics.
    pub stats: Stats,
    /// The recorded tree, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<Tree>,
}

/// A game in progress, whatever the game.
pub trait AnySession: Send {
    /// The game id with its variant.
    fn game_id(&self) -> String;
    /// The current position's text.
    fn position_text(&self) -> String;
    /// Replaces the game by the position in `text`; on error nothing changes.
    fn set_position(&mut self, text: &str) -> Result<(), Error>;
    /// `"black"`, `"x"`... for the player to move; `"chance"` when nature moves; `"over"` at the end.
    fn to_move(&self) -> String;
    /// The players' names, first mover first.
    fn players(&self) -> Vec<String>;
    /// The legal moves (or chance outcomes with their probabilities).
    fn legal_moves(&self) -> Vec<MoveInfo>;
    /// Plays a move given as text (a player's move or a chance outcome); returns its canonical text.
    /// On error nothing changes.
    fn play(&mut self, text: &str) -> Result<String, Error>;
    /// Reseeds the RNG nature uses on chance turns, so that a game replays exactly.
    fn seed(&mut self, seed: u64);
    /// Lets nature move: samples a chance outcome with the session's seeded RNG; returns its text.
    fn play_chance(&mut self) -> Result<String, Error>;
    /// Takes back the last move.
    fn undo(&mut self) -> Result<(), Error>;
    /// Plays again the last move taken back.
    fn redo(&mut self) -> Result<(), Error>;
    /// The moves [`AnySession::redo`] would play again, next first (empty after a new move).
    fn redo_moves(&self) -> Vec<String>;
    /// The board view of the current state: its board, every legal move and the last move.
    fn view(&self) -> BoardView;
    /// The game's catalogue entry.
    fn info(&self) -> GameInfo;
    /// The moves played from the start position (or from the last position set).
    fn history(&self) -> Vec<String>;
    /// The result in words (`"black wins"`, `"draw"`, `"score 1234"`), once the game is over.
    fn outcome(&self) -> Option<String>;
    /// Searches the current position.
    fn search(&self, cfg: &SearchConfig, hooks: Hooks<'_>) -> Result<SearchReport, Error>;
    /// Starts a split search of the current position for `workers` workers that share no memory
    /// (see `src/session/split.rs`); `None` when `cfg` asks for a search that runs as one
    /// (not alpha-beta or minimax, a randomness quotient, an exact endgame, one player).
    fn split_start(
        &self,
        cfg: &SearchConfig,
        workers: u32,
    ) -> Result<Option<Box<dyn SplitRun>>, Error>;
    /// Runs one job of a split search from the current position (a worker's side).
    fn search_move(&self, cfg: &SearchConfig, job: &JobSpec) -> Result<JobReport, Error>;
    /// Perft from the current position with the game's convention.
    fn perft(&self, depth: u32) -> u64;
    /// Perft within a budget (stop flag, deadline, leaves): `None` when the budget ran out first.
    fn perft_within(&self, depth: u32, budget: &mut PerftBudget<'_>) -> Option<u64>;
    /// The names of the evaluators on offer, the default first.
    fn evaluators(&self) -> Vec<String>;
}

/// The report of search result `r` at `pos` (values in words for `viewer`, the player to move).
fn report_of<G: Playable>(
    pos: &G,
    eval: &G::Eval,
    cfg: &SearchConfig,
    r: SearchResult<G::Move>,
    viewer: String,
) -> Result<SearchReport, Error> {
    // Two-player MCTS values are expected scores (0 to 1), not evaluations (except in games
    // that end with a score, a textbook tree: its mean score, in the game's units).
    let scores =
        cfg.algorithm == Algorithm::Mcts && pos.num_players() == 2 && !pos.outcome_is_score();
    // (`exact`: the solver proved the value: "proven win".)
    let describe = |v: f64, exact: bool| {
        if scores {
            ValueText {
                text: mcts_value_text(v, exact),
                amount: None,
                decided: None,
                margin: None,
            }
        } else {
            eval.describe(v)
        }
    };
    let mv = r
        .best
        .ok_or_else(|| Error::NotNow("no move to play".into()))?;
    // The game's own words for a move's value, where it has them (Threes: expected score).
    let worded = |m: G::Move, v: f64, exact: bool| {
        let searched = describe(v, exact);
        pos.outlook(m, &searched).unwrap_or(searched)
    };
    let mut tree = r.tree;
    let searched = describe(
        r.value,
        r.root_moves
            .get(r.rank.saturating_sub(1))
            .is_some_and(|m| m.exact),
    );
    // The tree's chosen move says the same words as the report when the game has its own.
    let value_text = match pos.outlook(mv, &searched) {
        Some(own) => {
            if let Some(chosen) = tree.as_mut().and_then(|t| t.head.chosen.as_mut()) {
                if chosen.value_text.is_some() {
                    chosen.value_text = Some(own.text.clone());
                }
            }
            own
        }
        None => searched,
    };
    let mut pv = Vec::new();
    let mut p = pos.clone();
    for &m in &r.pv {
        pv.push(p.format_move(m));
        if p.play(m).is_err() {
            break;
        }
    }
    Ok(SearchReport {
        mv: pos.format_move(mv),
        value: r.value,
        value_text,
        viewer,
        pv,
        rank: r.rank,
        reason: r.reason.to_string(),
        root_moves: r
            .root_moves
            .iter()
            .map(|rm| RootMoveReport {
                text: pos.format_move(rm.mv),
                value: rm.value,
                exact: rm.exact,
                value_text: worded(rm.mv, rm.value, rm.exact),
            })
            .collect(),
        stats: r.stats,
        tree,
    })
}

/// A game in progress for game type `G`: the position, its history for undo and redo, and the RNG
/// nature uses on chance turns.
#[derive(Debug, Clone)]
pub struct Match<G: Playable> {
    id: String,
    pos: G,
    /// Earlier positions with the move played from each and its text.
    past: Vec<(G, G::Move, String)>,
    /// Positions taken back, for redo, with the move that leads to each and its text (the next
    /// one to play again last).
    future: Vec<(G, G::Move, String)>,
    nature: Rng,
}

impl<G: Playable> Match<G> {
    /// A new game of `id` at its start position.
    pub fn new(id: &str) -> Result<Self, Error> {
        let pos = G::new_game(id)?;
        Ok(Match {
            id: id.to_string(),
            pos,
            past: Vec::new(),
            future: Vec::new(),
            nature: Rng::from_entropy(),
        })
    }

    /// The current position.
    pub fn position(&self) -> &G {
        &self.pos
    }

    fn push(&mut self, next: G, m: G::Move, text: String) {
        let prev = std::mem::replace(&mut self.pos, next);
        self.past.push((prev, m, text));
        self.future.clear();
    }
}

impl<G: Playable> AnySession for Match<G> {
    fn game_id(&self) -> String {
        self.pos.game_id()
    }

    fn position_text(&self) -> String {
        self.pos.position_text()
    }

    fn set_position(&mut self, text: &str) -> Result<(), Error> {
        let pos = G::from_position_text(&self.id, text)?;
        self.pos = pos;
        self.past.clear();
        self.future.clear();
        Ok(())
    }

    fn to_move(&self) -> String {
        match self.pos.turn() {
            Turn::Player(p) => self.pos.player_name(p).to_string(),
            Turn::Chance => "chance".to_string(),
            Turn::Terminal => "over".to_string(),
        }
    }

    fn players(&self) -> Vec<String> {
        (0..self.pos.num_players())
            .map(|p| self.pos.player_name(p as u8).to_string())
            .collect()
    }

    fn legal_moves(&self) -> Vec<MoveInfo> {
        match self.pos.turn() {
            Turn::Player(_) => {
                let mut moves = Vec::new();
                self.pos.legal_moves(&mut moves);
                moves
                    .into_iter()
                    .map(|m| MoveInfo {
                        text: self.pos.format_move(m),
                        prob: None,
                    })
                    .collect()
            }
            Turn::Chance => {
                let mut outcomes = Vec::new();
                self.pos.chance_outcomes(&mut outcomes);
                outcomes
                    .into_iter()
                    .map(|(m, p)| MoveInfo {
                        text: self.pos.format_move(m),
                        prob: Some(p),
                    })
                    .collect()
            }
            Turn::Terminal => Vec::new(),
        }
    }

    fn play(&mut self, text: &str) -> Result<String, Error> {
        let m = self.pos.parse_move(text.trim())?;
        let mut next = self.pos.clone();
        next.play(m)?;
        let canonical = self.pos.format_move(m);
        self.push(next, m, canonical.clone());
        Ok(canonical)
    }

    fn seed(&mut self, seed: u64) {
        self.nature = Rng::seeded(seed);
    }

    fn play_chance(&mut self) -> Result<String, Error> {
        if self.pos.turn() != Turn::Chance {
            return Err(Error::NotNow("it is not nature's turn".into()));
        }
        let mut outcomes = Vec::new();
        self.pos.chance_outcomes(&mut outcomes);
        let m = self.nature.pick_weighted(&outcomes);
        let text = self.pos.format_move(m);
        let mut next = self.pos.clone();
        next.play_unchecked(m);
        self.push(next, m, text.clone());
        Ok(text)
    }

    fn undo(&mut self) -> Result<(), Error> {
        let (prev, m, text) = self
            .past
            .pop()
            .ok_or_else(|| Error::NotNow("there is no move to take back".into()))?;
        let cur = std::mem::replace(&mut self.pos, prev);
        self.future.push((cur, m, text));
        Ok(())
    }

    fn redo(&mut self) -> Result<(), Error> {
        let (next, m, text) = self
            .future
            .pop()
            .ok_or_else(|| Error::NotNow("there is no move to play again".into()))?;
        let cur = std::mem::replace(&mut self.pos, next);
        self.past.push((cur, m, text));
        Ok(())
    }

    fn redo_moves(&self) -> Vec<String> {
        self.future
            .iter()
            .rev()
            .map(|(_, _, t)| t.clone())
            .collect()
    }

    fn view(&self) -> BoardView {
        view_of(&self.pos, self.past.last().map(|(prev, m, _)| (prev, *m)))
    }

    fn info(&self) -> GameInfo {
        G::INFO
    }

    fn history(&self) -> Vec<String> {
        self.past.iter().map(|(_, _, t)| t.clone()).collect()
    }

    fn outcome(&self) -> Option<String> {
        self.pos.outcome().map(|o| match o {
            Outcome::Win(p) => format!("{} wins", self.pos.player_name(p)),
            Outcome::Draw => "draw".to_string(),
            Outcome::Score(s) => format!("score {s}"),
        })
    }

    fn search(&self, cfg: &SearchConfig, hooks: Hooks<'_>) -> Result<SearchReport, Error> {
        let eval = self.pos.evaluator_for(&cfg.evaluator)?;
        if cfg.randomness_quotient > 1 {
            let mut rng = cfg.seed.map(Rng::seeded).unwrap_or_else(Rng::from_entropy);
            if let Some(m) = self.pos.book_move(&mut rng) {
                let text = self.pos.format_move(m);
                return Ok(SearchReport {
                    mv: text.clone(),
                    value: 0.0,
                    pv: vec![text],
                    rank: 1,
                    reason: "opening".to_string(),
                    value_text: eval.describe(0.0),
                    viewer: self.to_move(),
                    root_moves: Vec::new(),
                    stats: Default::default(),
                    tree: None,
                });
            }
        }
        let mut hooks = hooks;
        // A small enough endgame is solved exactly; if the budget runs out first, the search
        // plays with what is left of it.
        let after_solver;
        let cfg = if exact::wanted(&self.pos, cfg) {
            match exact::solve(&self.pos, &eval, cfg, &mut hooks) {
                Ok(report) => return Ok(report),
                Err(tried) => {
                    after_solver = SearchConfig {
                        time_ms: cfg.time_ms.map(|t| (t as f64 - tried.ms).max(1.0) as u64),
                        ..cfg.clone()
                    };
                    &after_solver
                }
            }
        } else {
            cfg
        };
        let adjusted;
        let cfg = match self.pos.randomness_quotient(cfg.randomness_quotient) {
            q if q == cfg.randomness_quotient => cfg,
            q => {
                adjusted = SearchConfig {
                    randomness_quotient: q,
                    ..cfg.clone()
                };
                &adjusted
            }
        };
        let r = search(&self.pos, &eval, cfg, hooks)?;
        report_of(&self.pos, &eval, cfg, r, self.to_move())
    }

    fn split_start(
        &self,
        cfg: &SearchConfig,
        workers: u32,
    ) -> Result<Option<Box<dyn SplitRun>>, Error> {
        cfg.validate()?;
        if !split::applies(&self.pos, cfg) {
            return Ok(None);
        }
        split::start(&self.pos, cfg, workers, self.to_move()).map(Some)
    }

    fn search_move(&self, cfg: &SearchConfig, job: &JobSpec) -> Result<JobReport, Error> {
        split::run_job(&self.pos, cfg, job)
    }

    fn perft(&self, depth: u32) -> u64 {
        self.pos.perft(depth)
    }

    fn perft_within(&self, depth: u32, budget: &mut PerftBudget<'_>) -> Option<u64> {
        self.pos.perft_within(depth, budget)
    }

    fn evaluators(&self) -> Vec<String> {
        G::evaluator_names().iter().map(|s| s.to_string()).collect()
    }
}

/// Makes a [`Match`] of the visited game type.
struct Open;

impl GameVisitor for Open {
    type Output = Result<Box<dyn AnySession>, Error>;
    fn visit<G: Playable>(self, id: &str) -> Self::Output {
        Ok(Box::new(Match::<G>::new(id)?))
    }
}

/// A new game session for a game id (`"reversi-12"`), at the game's start position.
pub fn new_session(id: &str) -> Result<Box<dyn AnySession>, Error> {
    with_game(id, Open)?
}

/// Asks the visited game type for a variant edited at a cell.
struct EditVariant(Coord);

impl GameVisitor for EditVariant {
    type Output = Result<String, Error>;
    fn visit<G: Playable>(self, id: &str) -> Self::Output {
        G::edit_variant(id, self.0)
    }
}

/// The variant editor's click: the id of variant `id` changed at cell `at` of its board (Ataxx:
/// a wall toggled with its mirror images). The result is not checked as playable:
/// [`new_session`] does that.
pub fn edit_variant(id: &str, at: Coord) -> Result<String, Error> {
    with_game(id, EditVariant(at))?
}

/// Asks the visited game type for a random variant.
struct RandomVariant(u64);

impl GameVisitor for RandomVariant {
    type Output = Option<String>;
    fn visit<G: Playable>(self, _id: &str) -> Self::Output {
        G::random_variant(self.0)
    }
}

/// A random playable variant of the game `id` names, fixed by `seed`; an error for a game that
/// makes none.
pub fn random_variant(id: &str, seed: u64) -> Result<String, Error> {
    with_game(id, RandomVariant(seed))?
        .ok_or_else(|| Error::bad_option("game", id, "a game with random variants (ataxx)"))
}
