//! The generic suite: every game in the registry gets these checks by being registered, with no
//! test code of its own.
//!
//! - random playouts: legal moves play; move, chance-outcome and position text round-trip; the
//!   incremental zobrist key equals the one from scratch; chance probabilities sum to 1;
//! - search agreement: minimax equals alpha-beta (games without chance); expectimax gives the same
//!   value with and without the transposition table (games with chance);
//! - board view consistency: every legal move in the view plays, and the next view matches the
//!   engine's state (its moves, its player to move, the cells the move named);
//! - the catalogue itself: ids, variants and sessions agree.

mod common;

use plyscope::core::{
    view_of, BoardView, Coord, Geometry, MoveKind, PlayerId, Rng, Turn, Viewable,
};
use plyscope::games::{with_game, GameVisitor, Playable, CATALOGUE};
use plyscope::search::{search, Algorithm, Hooks, SearchConfig};
use plyscope::session::new_session;
use std::collections::HashSet;

/// The ids of a catalogue entry whose start position is fixed (a random deal, like `threes`,
/// changes from one call to the next and is left out); at least one per game.
fn fixed_ids(entry: &plyscope::games::GameInfo) -> Vec<String> {
    let mut ids = vec![entry.id.to_string()];
    ids.extend(entry.variants.iter().map(|v| v.0.to_string()));
    let fixed: Vec<String> = ids
        .into_iter()
        .filter(|id| {
            let a = new_session(id).unwrap().position_text();
            let b = new_session(id).unwrap().position_text();
            a == b
        })
        .collect();
    assert!(
        !fixed.is_empty(),
        "{} has no id with a fixed start position",
        entry.id
    );
    fixed
}

/// Runs `visitor` (cloned) on up to three fixed ids of every game (the default and the first
/// named variants: a variant changes the board, seldom the code that checks it).
fn for_every_game<V: GameVisitor<Output = ()> + Clone>(visitor: V) -> usize {
    let mut n = 0;
    for entry in CATALOGUE {
        for id in fixed_ids(entry).into_iter().take(3) {
            with_game(&id, visitor.clone()).unwrap();
            n += 1;
        }
    }
    n
}

#[derive(Clone)]
struct Playouts;

impl GameVisitor for Playouts {
    type Output = ();
    fn visit<G: Playable>(self, id: &str) {
        let start = G::new_game(id).unwrap();
        let n = common::random_playouts(&start, 3, 120, 7);
        assert!(n > 0, "{id}: no position checked");
        chance_text_round_trip(&start, id);
    }
}

/// Chance outcomes' text reads back to the same outcome, from every chance turn of a few games.
fn chance_text_round_trip<G: Playable>(start: &G, id: &str) {
    let mut rng = Rng::seeded(3);
    for _ in 0..3 {
        let mut pos = start.clone();
        for _ in 0..80 {
            match pos.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let mut outs = Vec::new();
                    pos.chance_outcomes(&mut outs);
                    for &(o, _) in &outs {
                        let t = pos.format_move(o);
                        let back = pos
                            .parse_move(&t)
                            .unwrap_or_else(|e| panic!("{id}: outcome {t:?} does not read: {e}"));
                        assert_eq!(back, o, "{id}: chance outcome text round-trip of {t}");
                    }
                    pos.play_unchecked(outs[rng.below(outs.len() as u64) as usize].0);
                }
                Turn::Player(_) => {
                    let mut ms = Vec::new();
                    pos.legal_moves(&mut ms);
                    pos.play_unchecked(ms[rng.below(ms.len() as u64) as usize]);
                }
            }
        }
    }
}

#[test]
fn random_playouts_over_the_catalogue() {
    assert!(for_every_game(Playouts) >= CATALOGUE.len());
}

#[derive(Clone)]
struct Agreement;

impl GameVisitor for Agreement {
    type Output = ();
    fn visit<G: Playable>(self, id: &str) {
        let start = G::new_game(id).unwrap();
        let chance = G::INFO.chance;
        let positions = common::random_positions(&start, 3, 30, 9);
        if !chance {
            for evaluator in G::evaluator_names() {
                common::search_agreement(&positions, 2, evaluator);
            }
            return;
        }
        // Expectimax: the transposition table changes the work, never the value.
        let eval = G::evaluator("").unwrap();
        for pos in &positions {
            let base = SearchConfig {
                algorithm: Algorithm::Expectimax,
                depth: 2,
                chance_cutoff: 0.0,
                seed: Some(1),
                random_ties: false,
                ..Default::default()
            };
            let plain = search(
                pos,
                &eval,
                &SearchConfig {
                    transposition_table: Some(false),
                    ..base.clone()
                },
                Hooks::default(),
            )
            .unwrap();
            let tt = search(
                pos,
                &eval,
                &SearchConfig {
                    transposition_table: Some(true),
                    ..base
                },
                Hooks::default(),
            )
            .unwrap();
            assert!(
                (plain.value - tt.value).abs() <= 1e-9 * plain.value.abs().max(1.0),
                "{id}: expectimax {} without and {} with the table at {}",
                plain.value,
                tt.value,
                pos.position_text()
            );
        }
    }
}

#[test]
fn search_agreement_over_the_catalogue() {
    for entry in CATALOGUE {
        // One id per game: the agreement does not depend on the variant.
        let id = fixed_ids(entry).remove(0);
        with_game(&id, Agreement).unwrap();
    }
}

/// The square grid's size, for geometries that have one.
fn grid_size(g: &Geometry) -> Option<(i32, i32)> {
    match *g {
        Geometry::Square { width, height }
        | Geometry::OrientedSquare { width, height }
        | Geometry::Tiles { width, height } => Some((width as i32, height as i32)),
        Geometry::Hex { .. } | Geometry::Tree { .. } => None,
    }
}

/// The bounds coordinates must lie in, for geometries that have them (a tree lists only its nodes,
/// inside its width and levels).
fn bounds(g: &Geometry) -> Option<(i32, i32)> {
    match *g {
        Geometry::Tree { width, height } => Some((width as i32, height as i32)),
        _ => grid_size(g),
    }
}

/// Checks one view on its own: cells, hands, scores and moves make sense together.
fn check_view<G: Viewable>(pos: &G, view: &BoardView, id: &str) {
    let where_ = pos.position_text();
    let players = pos.num_players();
    // The player to move.
    let expect_to_move = match pos.turn() {
        Turn::Player(p) => Some(p),
        _ => None,
    };
    assert_eq!(view.to_move, expect_to_move, "{id}: to_move at {where_}");
    // Cells: a grid lists every cell once, row by row; any board lists a cell at most once.
    let mut seen = HashSet::new();
    for c in &view.cells {
        assert!(seen.insert(c.at), "{id}: cell {:?} listed twice", c.at);
        assert!(!c.blocked || c.pieces.is_empty(), "{id}: a piece on a wall");
        for p in &c.pieces {
            if let Some(o) = p.owner {
                assert!((o as usize) < players, "{id}: owner {o} out of range");
            }
        }
    }
    let on_board = |at: Coord| match bounds(&view.geometry) {
        Some((w, h)) => (0..w).contains(&at.x) && (0..h).contains(&at.y),
        None => true,
    };
    if let Some((w, h)) = grid_size(&view.geometry) {
        assert_eq!(
            view.cells.len() as i32,
            w * h,
            "{id}: a grid lists every cell"
        );
        for (i, c) in view.cells.iter().enumerate() {
            assert_eq!(
                c.at,
                Coord::new(i as i32 % w, i as i32 / w),
                "{id}: grid cells row by row"
            );
        }
        if let Some(l) = &view.labels {
            assert_eq!(l.columns.len() as i32, w, "{id}: a label per column");
            assert_eq!(l.rows.len() as i32, h, "{id}: a label per row");
        }
    }
    assert_eq!(view.hands.len(), players, "{id}: one hand per player");
    for s in &view.scores {
        if let Some(p) = s.player {
            assert!((p as usize) < players, "{id}: score of player {p}");
        }
        assert!(!s.text.is_empty(), "{id}: a score has its text");
    }
    // Moves: the engine's legal moves (or chance outcomes), in order, each described sensibly.
    let texts: Vec<String> = match pos.turn() {
        Turn::Player(_) => {
            let mut ms = Vec::new();
            pos.legal_moves(&mut ms);
            ms.iter().map(|&m| pos.format_move(m)).collect()
        }
        Turn::Chance => {
            let mut outs = Vec::new();
            pos.chance_outcomes(&mut outs);
            let probs: Vec<f64> = view.moves.iter().map(|m| m.prob.unwrap()).collect();
            let expect: Vec<f64> = outs.iter().map(|o| o.1).collect();
            assert_eq!(probs, expect, "{id}: chance probabilities in the view");
            outs.iter().map(|&(m, _)| pos.format_move(m)).collect()
        }
        Turn::Terminal => Vec::new(),
    };
    let view_texts: Vec<String> = view.moves.iter().map(|m| m.text.clone()).collect();
    assert_eq!(view_texts, texts, "{id}: the view's moves at {where_}");
    let unique: HashSet<&String> = view_texts.iter().collect();
    assert_eq!(
        unique.len(),
        view_texts.len(),
        "{id}: move texts are unique"
    );
    for m in &view.moves {
        let t = &m.text;
        for at in m.from.iter().chain(m.to.iter()).chain(m.sources.iter()) {
            assert!(on_board(*at), "{id}: {t} names {at:?} off the board");
            if let Some(c) = view.cell(*at) {
                assert!(!c.blocked, "{id}: {t} names a wall");
            }
        }
        match m.kind {
            MoveKind::Place | MoveKind::Clone => {
                assert!(m.to.is_some(), "{id}: {t} places somewhere");
                let target = view.cell(m.to.unwrap());
                if matches!(view.geometry, Geometry::Square { .. }) {
                    assert!(
                        target.is_some_and(|c| c.pieces.is_empty()),
                        "{id}: {t} places on an empty cell"
                    );
                }
            }
            MoveKind::Move | MoveKind::Jump | MoveKind::Swap => {
                assert!(
                    m.from.is_some() && m.to.is_some(),
                    "{id}: {t} has from and to"
                );
                let from = view.cell(m.from.unwrap()).expect("from is listed");
                assert!(!from.pieces.is_empty(), "{id}: {t} moves a piece");
                if m.kind == MoveKind::Jump {
                    assert!(
                        from.pieces.last().is_some_and(|p| p.owner == view.to_move),
                        "{id}: {t} jumps with a piece of the player to move"
                    );
                }
            }
            MoveKind::Rotate => {
                assert!(
                    m.from.is_some() && m.rotation.is_some(),
                    "{id}: {t} rotates"
                );
            }
            MoveKind::Swipe => assert!(m.direction.is_some(), "{id}: {t} has a direction"),
            MoveKind::Chance => assert!(m.prob.is_some(), "{id}: {t} has a probability"),
            MoveKind::Pass => assert!(
                m.to.is_none() && m.from.is_none(),
                "{id}: {t} names no cell"
            ),
        }
        if m.kind == MoveKind::Clone {
            let mover = view.to_move;
            assert!(!m.sources.is_empty(), "{id}: clone {t} has a source");
            for s in &m.sources {
                let c = view.cell(*s).unwrap();
                assert!(
                    c.pieces.last().is_some_and(|p| p.owner == mover),
                    "{id}: clone {t} grows from a piece of the mover"
                );
                let d = (s.x - m.to.unwrap().x)
                    .abs()
                    .max((s.y - m.to.unwrap().y).abs());
                assert_eq!(d, 1, "{id}: clone {t} grows from a neighbour");
            }
        }
    }
    serde_json::to_string(view).expect("a view serialises");
}

/// What stands on top of a cell of the view.
fn top(view: &BoardView, at: Coord) -> Option<(Option<PlayerId>, String)> {
    view.cell(at)
        .and_then(|c| c.pieces.last())
        .map(|p| (p.owner, p.kind.clone()))
}

#[derive(Clone)]
struct Views;

impl GameVisitor for Views {
    type Output = ();
    fn visit<G: Playable>(self, id: &str) {
        let start = G::new_game(id).unwrap();
        let mut rng = Rng::seeded(17);
        let mut checked = 0;
        for _ in 0..2 {
            let mut pos = start.clone();
            let mut view = view_of(&pos, None);
            for _ in 0..60 {
                check_view(&pos, &view, id);
                checked += 1;
                if view.moves.is_empty() {
                    break;
                }
                // Every move of the view plays from its text, and the next view says so.
                for m in &view.moves {
                    let mv = pos
                        .parse_move(&m.text)
                        .unwrap_or_else(|e| panic!("{id}: view move {:?}: {e}", m.text));
                    let mut next = pos.clone();
                    next.play(mv)
                        .unwrap_or_else(|e| panic!("{id}: view move {:?} refused: {e}", m.text));
                    let after = view_of(&next, Some((&pos, mv)));
                    assert_eq!(
                        after.last.as_ref(),
                        Some(m),
                        "{id}: last move of the next view"
                    );
                    let mover = view.to_move;
                    match m.kind {
                        MoveKind::Place | MoveKind::Clone => {
                            let (owner, _) = top(&after, m.to.unwrap()).unwrap_or_else(|| {
                                panic!("{id}: {} left {:?} empty", m.text, m.to)
                            });
                            if mover.is_some() && matches!(after.geometry, Geometry::Square { .. })
                            {
                                assert_eq!(
                                    owner, mover,
                                    "{id}: {} placed the mover's piece",
                                    m.text
                                );
                            }
                        }
                        MoveKind::Jump => {
                            assert!(
                                top(&after, m.from.unwrap()).is_none(),
                                "{id}: {} left its cell",
                                m.text
                            );
                            assert_eq!(
                                top(&after, m.to.unwrap()).map(|t| t.0),
                                Some(mover),
                                "{id}: {} arrived",
                                m.text
                            );
                        }
                        // A piece the mover's own laser then destroyed (Khet) is marked, not
                        // on the board.
                        MoveKind::Move if destroyed(&after, m.to.unwrap()) => {}
                        MoveKind::Move => {
                            // The piece on top of `from` is now on top of `to`.
                            assert_eq!(
                                top(&after, m.to.unwrap()),
                                top(&view, m.from.unwrap()),
                                "{id}: {} arrived",
                                m.text
                            );
                        }
                        MoveKind::Chance => {
                            assert!(
                                top(&after, m.to.unwrap()).is_some(),
                                "{id}: {} dealt a piece",
                                m.text
                            )
                        }
                        _ => {}
                    }
                }
                let pick = &view.moves[rng.below(view.moves.len() as u64) as usize];
                let mv = pos.parse_move(&pick.text).unwrap();
                let before = pos.clone();
                pos.play_unchecked(mv);
                view = view_of(&pos, Some((&before, mv)));
            }
        }
        assert!(checked > 0);
    }
}

/// Whether the view marks the piece on `at` as destroyed (by Khet's laser after the move).
fn destroyed(view: &BoardView, at: Coord) -> bool {
    view.highlights
        .iter()
        .any(|h| h.at == at && h.kind == "destroyed")
}

#[test]
fn board_views_over_the_catalogue() {
    assert!(for_every_game(Views) >= CATALOGUE.len());
}

#[test]
fn the_catalogue_and_the_sessions_agree() {
    let mut ids = HashSet::new();
    for entry in CATALOGUE {
        assert!(ids.insert(entry.id), "{} listed twice", entry.id);
        assert!(!entry.name.is_empty());
        let s = new_session(entry.id).unwrap();
        assert_eq!(s.info().id, entry.id);
        assert_eq!(s.players().len(), entry.players, "{}: players", entry.id);
        assert!(!s.evaluators().is_empty(), "{}: an evaluator", entry.id);
        let view = s.view();
        assert_eq!(
            view.moves.len(),
            s.legal_moves().len(),
            "{}: view moves",
            entry.id
        );
        for (vid, name) in entry.variants {
            assert!(ids.insert(vid), "{vid} listed twice");
            assert!(!name.is_empty());
            let v = new_session(vid).unwrap_or_else(|e| panic!("{vid}: {e}"));
            assert_eq!(v.info().id, entry.id, "{vid} belongs to {}", entry.id);
        }
    }
    let e = new_session("no-such-game").err().unwrap().to_string();
    assert!(e.contains("no-such-game"), "{e}");
}

#[test]
fn redo_comes_from_the_session() {
    for entry in CATALOGUE {
        let id = fixed_ids(entry).remove(0);
        let mut s = new_session(&id).unwrap();
        s.seed(5);
        let mut played = Vec::new();
        for _ in 0..4 {
            let text = if s.to_move() == "chance" {
                s.play_chance().unwrap()
            } else if let Some(m) = s.legal_moves().first() {
                s.play(&m.text).unwrap()
            } else {
                break;
            };
            played.push(text);
        }
        let end = s.position_text();
        assert!(
            s.redo_moves().is_empty(),
            "{id}: nothing to redo after a move"
        );
        for _ in 0..played.len() {
            s.undo().unwrap();
        }
        assert_eq!(s.redo_moves(), played, "{id}: redo list, next first");
        s.redo().unwrap();
        assert_eq!(s.redo_moves(), played[1..].to_vec(), "{id}: one replayed");
        for _ in 1..played.len() {
            s.redo().unwrap();
        }
        assert_eq!(s.position_text(), end, "{id}: redo comes back to the end");
        assert!(s.redo().is_err(), "{id}: nothing more to redo");
        // The view's last move is the last one played.
        if let Some(last) = played.last() {
            assert_eq!(s.view().last.map(|m| m.text), Some(last.clone()));
        }
    }
}
