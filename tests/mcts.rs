//! Monte Carlo tree search: it converges to tic-tac-toe's minimax values, never loses to a random
//! player, finds a win in one in every game of the registry that has wins, handles Threes' chance
//! turns, keeps to its budgets and records a tree with visits. Every search has an iteration or
//! node budget and a fixed seed, so nothing here depends on the machine's speed.

mod common;

use plyscope::core::{Game, Outcome, PlayerId, Rng, Turn};
use plyscope::games::tictactoe::TicTacToe;
use plyscope::games::{with_game, GameVisitor, Playable, CATALOGUE};
use plyscope::search::{search, Algorithm, Hooks, Playout, SearchConfig};
use plyscope::tree::{NodeKind, Tree, NONE};

fn mcts(iterations: u64, seed: u64) -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Mcts,
        mcts_iterations: Some(iterations),
        seed: Some(seed),
        ..SearchConfig::default()
    }
}

fn exact(depth: u32) -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Alphabeta,
        depth,
        random_ties: false,
        ..SearchConfig::default()
    }
}

/// The minimax value of every legal move of a tic-tac-toe position, from the mover's view.
fn move_values(pos: &TicTacToe) -> Vec<(<TicTacToe as Game>::Move, f64)> {
    let eval = TicTacToe::evaluator("").unwrap();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let mut c = pos.clone();
            c.play_unchecked(m);
            let v = match c.turn() {
                Turn::Terminal => match c.outcome() {
                    Some(Outcome::Win(_)) => 1.0,
                    _ => 0.0,
                },
                _ => {
                    let r = search(&c, &eval, &exact(9), Hooks::default()).unwrap();
                    // The child's value is from the opponent's view.
                    -r.value.signum()
                }
            };
            (m, v)
        })
        .collect()
}

#[test]
fn tictactoe_start_converges_to_a_draw() {
    let eval = TicTacToe::evaluator("").unwrap();
    for (priors, playout) in [
        (false, Playout::Random),
        (true, Playout::Random),
        (true, Playout::Heuristic),
    ] {
        // The mean score of the most visited move (1/2 is a draw) after 20,000 and 200,000
        // iterations: it comes nearer the minimax value, and ends near it.
        let err = |iterations| {
            let cfg = SearchConfig {
                mcts_priors: priors,
                mcts_playout: playout,
                ..mcts(iterations, 7)
            };
            let r = search(&TicTacToe::new(), &eval, &cfg, Hooks::default()).unwrap();
            assert_eq!(r.stats.leaves, iterations, "the iteration budget is kept");
            (r.value - 0.5).abs()
        };
        let (early, late) = (err(20_000), err(200_000));
        assert!(
            late < early && late < 0.07,
            "priors {priors}, {playout:?}: 0.5 off by {early} after 20,000 iterations, {late} after 200,000"
        );
    }
}

#[test]
fn tictactoe_plays_a_minimax_move_in_random_positions() {
    let eval = TicTacToe::evaluator("").unwrap();
    let mut rng = Rng::seeded(5);
    let mut checked = 0;
    while checked < 40 {
        // A random position with a few moves played, still in play.
        let mut pos = TicTacToe::new();
        let plies = rng.below(6);
        let mut moves = Vec::new();
        for _ in 0..plies {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
        }
        if pos.turn() == Turn::Terminal {
            continue;
        }
        let values = move_values(&pos);
        let best = values.iter().map(|v| v.1).fold(f64::MIN, f64::max);
        let cfg = SearchConfig {
            random_ties: false,
            ..mcts(20_000, checked)
        };
        let r = search(&pos, &eval, &cfg, Hooks::default()).unwrap();
        let chosen = r.best.unwrap();
        let v = values.iter().find(|x| x.0 == chosen).unwrap().1;
        assert_eq!(
            v,
            best,
            "{}: MCTS played {} worth {v}, the best is worth {best}",
            pos.position_text(),
            pos.format_move(chosen)
        );
        checked += 1;
    }
}

#[test]
fn tictactoe_never_loses_to_random_in_100_games() {
    let eval = TicTacToe::evaluator("").unwrap();
    let mut rng = Rng::seeded(99);
    let mut results = [0u32; 3];
    for game in 0..100u64 {
        let mcts_side: PlayerId = (game % 2) as PlayerId;
        let mut pos = TicTacToe::new();
        let mut moves = Vec::new();
        while pos.turn() != Turn::Terminal {
            let Turn::Player(p) = pos.turn() else {
                unreachable!()
            };
            let m = if p == mcts_side {
                search(&pos, &eval, &mcts(3000, game), Hooks::default())
                    .unwrap()
                    .best
                    .unwrap()
            } else {
                pos.legal_moves(&mut moves);
                moves[rng.below(moves.len() as u64) as usize]
            };
            pos.play(m).unwrap();
        }
        match pos.outcome() {
            Some(Outcome::Win(p)) if p == mcts_side => results[0] += 1,
            Some(Outcome::Win(_)) => results[2] += 1,
            _ => results[1] += 1,
        }
    }
    assert_eq!(results[2], 0, "wins, draws, losses: {results:?}");
    assert!(results[0] >= 80, "wins, draws, losses: {results:?}");
}

/// For one game: random games (seeded) until a position where the mover has a move that wins at
/// once; MCTS must play such a move. Returns the positions tried, or `None` when the game gave no
/// such position in its budget of random games.
struct WinInOne;

impl GameVisitor for WinInOne {
    type Output = Option<usize>;
    fn visit<G: Playable>(self, id: &str) -> Option<usize> {
        let start = G::new_game(id).ok()?;
        if start.num_players() != 2 {
            return None;
        }
        let eval = G::evaluator("").unwrap();
        let mut rng = Rng::seeded(2024);
        let mut moves = Vec::new();
        let mut outcomes = Vec::new();
        let mut found = 0;
        for _game in 0..400 {
            let mut pos = start.clone();
            for _ply in 0..400 {
                match pos.turn() {
                    Turn::Terminal => break,
                    Turn::Chance => {
                        pos.chance_outcomes(&mut outcomes);
                        let o = rng.pick_weighted(&outcomes);
                        pos.play_unchecked(o);
                        continue;
                    }
                    Turn::Player(p) => {
                        pos.legal_moves(&mut moves);
                        let wins: Vec<G::Move> = moves
                            .iter()
                            .copied()
                            .filter(|&m| {
                                let mut c = pos.clone();
                                c.play_unchecked(m);
                                c.outcome() == Some(Outcome::Win(p))
                            })
                            .collect();
                        if !wins.is_empty() {
                            let r =
                                search(&pos, &eval, &mcts(2000, found as u64), Hooks::default())
                                    .unwrap();
                            let m = r.best.unwrap();
                            assert!(
                                wins.contains(&m),
                                "{id}: at {} MCTS played {} instead of a win in one ({})",
                                pos.position_text(),
                                pos.format_move(m),
                                wins.iter()
                                    .map(|&w| pos.format_move(w))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            );
                            found += 1;
                            if found == 3 {
                                return Some(found);
                            }
                            break;
                        }
                        let m = moves[rng.below(moves.len() as u64) as usize];
                        pos.play_unchecked(m);
                    }
                }
            }
        }
        (found > 0).then_some(found)
    }
}

#[test]
fn finds_a_win_in_one_in_every_game_that_has_wins() {
    let mut with_wins = Vec::new();
    for g in CATALOGUE {
        if g.players != 2 {
            continue;
        }
        if let Some(n) = with_game(g.id, WinInOne).unwrap() {
            with_wins.push((g.id, n));
        }
    }
    let ids: Vec<&str> = with_wins.iter().map(|w| w.0).collect();
    // Every two-player game with wins gave positions (textbook trees are teaching trees).
    for id in ["tictactoe", "reversi", "ataxx", "hive", "khet", "connect4"] {
        assert!(
            ids.contains(&id),
            "{id}: no win in one was found to test ({ids:?})"
        );
    }
}

#[test]
fn threes_chance_turns_give_legal_moves_and_chance_nodes() {
    use plyscope::games::threes::Threes;
    let pos = Threes::from_position_text(
        "",
        "3 . 1 . / . 2 . 3 / 1 . 2 . / 3 . . 2 | deck 1 1 0 | next 1",
    )
    .unwrap();
    let eval = Threes::evaluator("").unwrap();
    let cfg = SearchConfig {
        record_tree: true,
        ..mcts(3000, 3)
    };
    let r = search(&pos, &eval, &cfg, Hooks::default()).unwrap();
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    assert!(legal.contains(&r.best.unwrap()));
    let tree = r.tree.unwrap();
    assert_eq!(tree.head.algorithm, "mcts");
    let (first, next) = tree.links();
    let mut chance = 0;
    for (i, n) in tree.nodes.iter().enumerate() {
        if n.kind != NodeKind::Chance {
            continue;
        }
        chance += 1;
        // Its children are outcomes with probabilities (summing to 1 when all were made), and
        // the visits of the outcomes add up to the chance node's, less nothing: a chance node
        // is expanded on its first visit below a player's move... or its first playout.
        let mut c = first[i];
        let (mut p, mut v) = (0.0, 0);
        while c != NONE {
            let x = &tree.nodes[c as usize];
            p += x.prob.expect("an outcome has a probability");
            assert!(x.uct.is_none() && x.prior.is_none());
            v += x.visits.unwrap();
            c = next[c as usize];
        }
        if tree.nodes[i].unrecorded == 0 {
            assert!((p - 1.0).abs() < 1e-6, "outcome probabilities sum to {p}");
        }
        assert!(v <= n.visits.unwrap());
    }
    assert!(chance > 10, "{chance} chance nodes");
    // Sampled outcomes: the likeliest outcomes of the root move's chance node get the most visits
    // in proportion, roughly.
}

#[test]
fn the_tree_records_visits_means_priors_and_selection_scores() {
    use plyscope::games::reversi::Reversi;
    let pos = Reversi::new_game("reversi").unwrap();
    let eval = Reversi::evaluator("").unwrap();
    let cfg = SearchConfig {
        record_tree: true,
        ..mcts(4000, 11)
    };
    let r = search(&pos, &eval, &cfg, Hooks::default()).unwrap();
    let tree: Tree = r.tree.unwrap();
    let root = &tree.nodes[0];
    assert_eq!(root.visits, Some(4000));
    let (first, next) = tree.links();
    let mut c = first[0];
    let (mut sum, mut priors, mut most) = (0, 0.0, (0, String::new()));
    while c != NONE {
        let x = &tree.nodes[c as usize];
        let v = x.visits.unwrap();
        sum += v;
        priors += x.prior.unwrap();
        assert!(x.uct.is_some(), "a root child has a selection score");
        if v > most.0 {
            most = (v, tree.move_text(x.mv).to_string());
        }
        c = next[c as usize];
    }
    assert_eq!(sum, 4000, "every iteration goes through a root move");
    assert!((priors - 1.0).abs() < 1e-3, "priors sum to {priors}");
    let chosen = tree.head.chosen.as_ref().unwrap();
    assert_eq!(chosen.mv, most.1);
    assert_eq!(chosen.reason, format!("most visits: {} of 4000", most.0));
    // Every node's visits are at least the sum of its children's.
    for (i, n) in tree.nodes.iter().enumerate() {
        let mut c = first[i];
        let mut s = 0;
        while c != NONE {
            s += tree.nodes[c as usize].visits.unwrap();
            c = next[c as usize];
        }
        assert!(s <= n.visits.unwrap());
        if n.visits.unwrap() > 0 {
            let v = n.value.unwrap();
            assert!((0.0..=1.0).contains(&v), "a mean score {v}");
        }
    }
}

#[test]
fn budgets_seeds_and_the_randomness_quotient() {
    use plyscope::games::ataxx::Ataxx;
    let pos = Ataxx::new_game("ataxx").unwrap();
    let eval = Ataxx::evaluator("").unwrap();
    // A node budget bounds the tree (one expansion past it at most).
    let cfg = SearchConfig {
        node_budget: Some(5000),
        ..mcts(1_000_000, 1)
    };
    let r = search(&pos, &eval, &cfg, Hooks::default()).unwrap();
    assert!(
        r.stats.nodes >= 5000 && r.stats.nodes < 5000 + 200,
        "{}",
        r.stats.nodes
    );
    assert!(r.stats.leaves < 1_000_000);
    // The same seed plays the same search.
    let a = search(&pos, &eval, &mcts(500, 8), Hooks::default()).unwrap();
    let b = search(&pos, &eval, &mcts(500, 8), Hooks::default()).unwrap();
    assert_eq!((a.best, a.value, a.pv), (b.best, b.value, b.pv));
    // With a quotient of 2, lower-ranked moves are played too, and said so.
    let mut ranks = Vec::new();
    for seed in 0..30 {
        let cfg = SearchConfig {
            randomness_quotient: 2,
            ..mcts(300, seed)
        };
        let r = search(&pos, &eval, &cfg, Hooks::default()).unwrap();
        assert_eq!(r.reason == "randomness", r.rank > 1);
        ranks.push(r.rank);
    }
    assert!(ranks.iter().any(|&k| k > 1) && ranks.iter().any(|&k| k == 1));
    // A bad option is refused with its name.
    let bad = SearchConfig {
        mcts_exploration: f64::NAN,
        ..mcts(10, 1)
    };
    let e = search(&pos, &eval, &bad, Hooks::default()).unwrap_err();
    assert!(e.to_string().contains("mcts_exploration"), "{e}");
}

#[test]
fn the_tree_round_trips_visits_priors_and_scores_in_every_form() {
    use plyscope::games::threes::Threes;
    use plyscope::tree::{TreeDocument, BINARY_SECTIONS};
    let ttt = search(
        &TicTacToe::new(),
        &TicTacToe::evaluator("").unwrap(),
        &SearchConfig {
            record_tree: true,
            ..mcts(2000, 5)
        },
        Hooks::default(),
    )
    .unwrap()
    .tree
    .unwrap();
    let threes = search(
        &Threes::from_position_text(
            "",
            "3 . 1 . / . 2 . 3 / 1 . 2 . / 3 . . 2 | deck 1 1 0 | next 1",
        )
        .unwrap(),
        &Threes::evaluator("").unwrap(),
        &SearchConfig {
            record_tree: true,
            node_cap: 500,
            ..mcts(2000, 5)
        },
        Hooks::default(),
    )
    .unwrap()
    .tree
    .unwrap();
    let validator = common::tree_schema();
    for tree in [ttt, threes] {
        assert!(tree.nodes.iter().any(|n| n.prior.is_some()));
        assert!(tree.nodes.iter().any(|n| n.uct.is_some()));
        // Version 1: valid against the schema (its chosen reason in words too), and back.
        let doc = tree.to_document();
        let json: serde_json::Value = serde_json::from_str(&doc.to_json()).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&json)
            .take(5)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(json["root"]["visits"], 2000);
        let back: TreeDocument = serde_json::from_value(json).unwrap();
        assert_eq!(back, doc);
        // (Compared as documents: the move table's order may differ.)
        assert_eq!(
            Tree::from_document(&back).to_document(),
            doc,
            "version 1 round-trip"
        );
        // Version 2: N, P and U, and back.
        let compact = tree.to_compact_json();
        assert!(compact.contains("\"N\":2000"));
        assert_eq!(
            Tree::from_json(&compact).unwrap().to_document(),
            doc,
            "version 2 round-trip"
        );
        // The binary form: sections 28-30 hold visits, priors and scores.
        let b = tree.to_binary();
        let word = |k: usize| u32::from_le_bytes(b[k * 4..k * 4 + 4].try_into().unwrap()) as usize;
        assert_eq!(word(3), BINARY_SECTIONS);
        let section = |s: usize| {
            let (off, len) = (word(4 + 2 * s), word(5 + 2 * s));
            (0..len)
                .map(|i| f64::from_le_bytes(b[off + 8 * i..off + 8 * i + 8].try_into().unwrap()))
                .collect::<Vec<f64>>()
        };
        let (visits, prior, uct) = (section(28), section(29), section(30));
        assert_eq!(visits[0], 2000.0);
        for (i, n) in tree.nodes.iter().enumerate() {
            assert_eq!(n.visits.map(|v| v as f64), Some(visits[i]));
            assert_eq!(n.prior, (!prior[i].is_nan()).then_some(prior[i]));
            assert_eq!(n.uct, (!uct[i].is_nan()).then_some(uct[i]));
        }
    }
}

/// The exact value of a tic-tac-toe position for `player` (1 a win, 0 a draw, -1 a loss), by
/// alpha-beta searched to the end.
fn exact_value(pos: &TicTacToe, player: PlayerId) -> f64 {
    match pos.turn() {
        Turn::Terminal => match pos.outcome() {
            Some(Outcome::Win(p)) if p == player => 1.0,
            Some(Outcome::Win(_)) => -1.0,
            _ => 0.0,
        },
        Turn::Player(mover) => {
            let eval = TicTacToe::evaluator("").unwrap();
            let r = search(pos, &eval, &exact(9), Hooks::default()).unwrap();
            let v = if r.value > 0.0 {
                1.0
            } else if r.value < 0.0 {
                -1.0
            } else {
                0.0
            };
            if mover == player {
                v
            } else {
                -v
            }
        }
        Turn::Chance => unreachable!(),
    }
}

/// Tic-tac-toe positions (seeded random play) where the mover wins by force but not in one move.
fn forced_wins(count: usize) -> Vec<TicTacToe> {
    let mut rng = Rng::seeded(31);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut pos = TicTacToe::new();
        for _ in 0..rng.below(5) {
            pos.legal_moves(&mut moves);
            pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
        }
        let Turn::Player(p) = pos.turn() else {
            continue;
        };
        pos.legal_moves(&mut moves);
        let in_one = moves.iter().any(|&m| {
            let mut c = pos.clone();
            c.play_unchecked(m);
            c.outcome() == Some(Outcome::Win(p))
        });
        if !in_one && exact_value(&pos, p) == 1.0 && !out.contains(&pos) {
            out.push(pos);
        }
    }
    out
}

fn solver(iterations: u64, seed: u64, on: bool) -> SearchConfig {
    SearchConfig {
        mcts_solver: on,
        record_tree: true,
        node_cap: 1_000_000,
        random_ties: false,
        ..mcts(iterations, seed)
    }
}

#[test]
fn the_solver_proves_forced_wins_in_tictactoe_and_plays_the_winning_move() {
    let eval = TicTacToe::evaluator("").unwrap();
    let positions = forced_wins(6);
    for (k, pos) in positions.iter().enumerate() {
        let Turn::Player(p) = pos.turn() else {
            unreachable!()
        };
        let budget = 20_000;
        let r = search(
            pos,
            &eval,
            &solver(budget, k as u64, true),
            Hooks::default(),
        )
        .unwrap();
        let text = pos.position_text();
        // Proven: the search stopped before its budget, with the chosen move proven won.
        assert!(
            r.stats.leaves < budget,
            "{text}: not proven in {budget} iterations"
        );
        assert_eq!(r.value, 1.0, "{text}");
        assert!(r.root_moves[0].exact, "{text}: the played move is proven");
        let mut after = pos.clone();
        after.play_unchecked(r.best.unwrap());
        assert_eq!(
            exact_value(&after, p),
            1.0,
            "{text}: MCTS played {}, which does not win",
            pos.format_move(r.best.unwrap())
        );
        let tree = r.tree.unwrap();
        let head = tree.head.chosen.as_ref().unwrap();
        assert!(head.reason.starts_with("proven win: "), "{}", head.reason);
        assert_eq!(head.value_text.as_deref(), Some("proven win"));
        assert!(tree.nodes[0].proven && tree.nodes[0].value == Some(1.0));
    }
}

#[test]
fn every_proven_node_has_the_minimax_value_alpha_beta_finds() {
    let eval = TicTacToe::evaluator("").unwrap();
    let mut checked = 0;
    let mut results = [0usize; 3];
    for (k, pos) in forced_wins(3)
        .into_iter()
        .chain([TicTacToe::new()])
        .enumerate()
    {
        let Turn::Player(root_player) = pos.turn() else {
            unreachable!()
        };
        let r = search(
            &pos,
            &eval,
            &solver(3000, 40 + k as u64, true),
            Hooks::default(),
        )
        .unwrap();
        let tree = r.tree.unwrap();
        // The position at every recorded node, by replaying the moves from the root.
        let mut at: Vec<TicTacToe> = Vec::with_capacity(tree.nodes.len());
        for (i, n) in tree.nodes.iter().enumerate() {
            let here = if i == 0 {
                pos.clone()
            } else {
                let parent = &at[n.parent as usize];
                let mv = parent.parse_move(&tree.moves[n.mv as usize]).unwrap();
                let mut c = parent.clone();
                c.play(mv).unwrap();
                c
            };
            if n.proven {
                // The proven value (0, 1/2, 1 for the root player) against alpha-beta's.
                let want = (exact_value(&here, root_player) + 1.0) / 2.0;
                assert_eq!(
                    n.value,
                    Some(want),
                    "{}: node {i} ({}) proven {:?}, alpha-beta says {want}",
                    pos.position_text(),
                    here.position_text(),
                    n.value
                );
                results[(want * 2.0) as usize] += 1;
                checked += 1;
            }
            at.push(here);
        }
    }
    // Proofs of every kind were checked, not only finished games.
    assert!(checked > 100, "{checked} proven nodes");
    assert!(
        results.iter().all(|&c| c > 0),
        "losses, draws, wins: {results:?}"
    );
}

#[test]
fn without_the_solver_nothing_is_proven_and_the_whole_budget_runs() {
    let eval = TicTacToe::evaluator("").unwrap();
    for (k, pos) in forced_wins(3).iter().enumerate() {
        let budget = 3000;
        let r = search(
            pos,
            &eval,
            &solver(budget, k as u64, false),
            Hooks::default(),
        )
        .unwrap();
        assert_eq!(r.stats.leaves, budget);
        assert!(r.root_moves.iter().all(|m| !m.exact));
        let tree = r.tree.unwrap();
        assert!(tree.nodes.iter().all(|n| !n.proven));
        // A finished game is still scored, but as a mean of visits: the chosen reason is visits.
        let reason = &tree.head.chosen.as_ref().unwrap().reason;
        assert!(reason.starts_with("most visits"), "{reason}");
        // Same seed, same search: the solver off is deterministic like before.
        let again = search(
            pos,
            &eval,
            &solver(budget, k as u64, false),
            Hooks::default(),
        )
        .unwrap();
        assert_eq!(again.best, r.best);
        assert_eq!(again.value, r.value);
    }
    // Threes (one player, chance turns): the solver never proves anything there.
    use plyscope::games::threes::Threes;
    let pos = Threes::from_position_text(
        "",
        "3 . 1 . / . 2 . 3 / 1 . 2 . / 3 . . 2 | deck 1 1 0 | next 1",
    )
    .unwrap();
    let r = search(
        &pos,
        &Threes::evaluator("").unwrap(),
        &solver(2000, 3, true),
        Hooks::default(),
    )
    .unwrap();
    assert_eq!(r.stats.leaves, 2000);
    assert!(r.tree.unwrap().nodes.iter().all(|n| !n.proven));
}

#[test]
fn proven_nodes_round_trip_in_every_form() {
    use plyscope::tree::TreeDocument;
    let pos = forced_wins(1).remove(0);
    let eval = TicTacToe::evaluator("").unwrap();
    let tree = search(&pos, &eval, &solver(20_000, 1, true), Hooks::default())
        .unwrap()
        .tree
        .unwrap();
    let proven = tree.nodes.iter().filter(|n| n.proven).count();
    assert!(proven > 1);
    let validator = common::tree_schema();
    let doc = tree.to_document();
    let json: serde_json::Value = serde_json::from_str(&doc.to_json()).unwrap();
    assert!(validator.is_valid(&json), "version 1 validates");
    assert_eq!(json["root"]["proven"], true);
    let back: TreeDocument = serde_json::from_value(json).unwrap();
    let again = Tree::from_document(&back);
    assert_eq!(again.nodes.iter().filter(|n| n.proven).count(), proven);
    let compact = tree.to_compact_json();
    assert!(compact.contains("\"pr\":1"));
    let v2: serde_json::Value = serde_json::from_str(&compact).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&v2)
        .take(3)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "version 2 validates: {errors:?}");
    assert_eq!(Tree::from_json(&compact).unwrap().to_document(), doc);
    // Binary: bit 7 of the flags (section 4, one byte a node).
    let b = tree.to_binary();
    let word = |k: usize| u32::from_le_bytes(b[k * 4..k * 4 + 4].try_into().unwrap()) as usize;
    let off = word(4 + 2 * 4);
    for (i, n) in tree.nodes.iter().enumerate() {
        assert_eq!(b[off + i] & 128 != 0, n.proven, "node {i}");
    }
}

/// A node of [`Dice`]'s fixed tree.
#[derive(Debug)]
enum DiceNode {
    /// A player to move, and the nodes the moves lead to.
    Player(PlayerId, &'static [usize]),
    /// Chance, with its outcomes and their probabilities.
    Chance(&'static [(usize, f64)]),
    /// A finished game: its winner, or a draw.
    End(Option<PlayerId>),
}

/// A two-player game with chance turns and wins, losses and draws (no game of the registry has
/// all three): a fixed tree, the position a node index. Moves and outcomes are child numbers.
const DICE: &[DiceNode] = {
    use DiceNode::*;
    &[
        // 0: the first player chooses among four throws.
        Player(0, &[1, 2, 3, 4]),
        // 1: both faces win for the first player (one directly, one after any reply).
        Chance(&[(5, 0.5), (6, 0.5)]),
        // 2: a win 30 % of the time, a loss otherwise: never proven, whatever is explored.
        Chance(&[(7, 0.3), (8, 0.7)]),
        // 3: both faces lose (one after the second player's best reply).
        Chance(&[(9, 0.9), (10, 0.1)]),
        // 4: both faces draw.
        Chance(&[(13, 0.5), (14, 0.5)]),
        End(Some(0)),
        Player(1, &[11, 12]),
        End(Some(0)),
        End(Some(1)),
        End(Some(1)),
        Player(1, &[15, 16]),
        End(Some(0)),
        End(Some(0)),
        End(None),
        End(None),
        End(Some(1)),
        End(None),
        // 17: the same game without the winning throw: the first player's four throws but 1.
        Player(0, &[2, 3, 4]),
    ]
};

#[derive(Clone, Debug)]
struct Dice {
    at: usize,
}

impl Game for Dice {
    type Move = u8;
    fn game_id(&self) -> String {
        "dice".into()
    }
    fn player_name(&self, p: PlayerId) -> &'static str {
        ["first", "second"][p as usize]
    }
    fn turn(&self) -> Turn {
        match DICE[self.at] {
            DiceNode::Player(p, _) => Turn::Player(p),
            DiceNode::Chance(_) => Turn::Chance,
            DiceNode::End(_) => Turn::Terminal,
        }
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if let DiceNode::Player(_, kids) = DICE[self.at] {
            out.extend(0..kids.len() as u8);
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
        if let DiceNode::Chance(kids) = DICE[self.at] {
            out.extend(kids.iter().enumerate().map(|(k, &(_, p))| (k as u8, p)));
        }
    }
    fn play_unchecked(&mut self, m: u8) {
        self.at = match DICE[self.at] {
            DiceNode::Player(_, kids) => kids[m as usize],
            DiceNode::Chance(kids) => kids[m as usize].0,
            DiceNode::End(_) => self.at,
        };
    }
    fn outcome(&self) -> Option<Outcome> {
        match DICE[self.at] {
            DiceNode::End(Some(p)) => Some(Outcome::Win(p)),
            DiceNode::End(None) => Some(Outcome::Draw),
            _ => None,
        }
    }
    fn zobrist(&self) -> u64 {
        self.at as u64 * 0x9E37_79B9_7F4A_7C15
    }
    fn zobrist_from_scratch(&self) -> u64 {
        self.zobrist()
    }
    fn parse_move(&self, text: &str) -> Result<u8, plyscope::core::ParseMoveError> {
        text.parse()
            .map_err(|_| plyscope::core::ParseMoveError::new(text, "a child number"))
    }
    fn format_move(&self, m: u8) -> String {
        m.to_string()
    }
    fn position_text(&self) -> String {
        self.at.to_string()
    }
    fn from_position_text(_: &str, text: &str) -> Result<Self, plyscope::core::ParsePositionError> {
        match text.parse::<usize>() {
            Ok(at) if at < DICE.len() => Ok(Dice { at }),
            _ => Err(plyscope::core::ParsePositionError::at(
                text,
                0,
                "a node number",
            )),
        }
    }
}

/// Evaluates nothing: the playouts go to the end.
struct DiceEval;

impl plyscope::core::Evaluator<Dice> for DiceEval {
    fn name(&self) -> &'static str {
        "none"
    }
    fn evaluate<S: plyscope::core::TermSink>(&self, _: &Dice, _: PlayerId, _: &mut S) -> f64 {
        0.0
    }
}

/// The proven result (value 0, 1/2 or 1 for the root player) of the recorded node reached by
/// `moves` from the root, or `None` when it is not proven.
fn proven_at(tree: &Tree, moves: &[&str]) -> Option<f64> {
    let mut at = 0usize;
    for mv in moves {
        at = (1..tree.nodes.len())
            .find(|&i| {
                tree.nodes[i].parent as usize == at && tree.moves[tree.nodes[i].mv as usize] == *mv
            })
            .unwrap_or_else(|| panic!("no node {moves:?} in the tree"));
    }
    let n = &tree.nodes[at];
    n.proven.then(|| n.value.unwrap())
}

#[test]
fn the_solver_proves_a_chance_node_only_when_every_outcome_is_proven_the_same() {
    // Without the winning throw, the root cannot be proven (throw 2 is a gamble): the whole
    // budget runs, and each chance node below ends as its outcomes make it.
    let budget = 5_000;
    let r = search(
        &Dice { at: 17 },
        &DiceEval,
        &solver(budget, 7, true),
        Hooks::default(),
    )
    .unwrap();
    assert_eq!(
        r.stats.leaves, budget,
        "the root is not proven: the budget runs"
    );
    let tree = r.tree.unwrap();
    // Throw 0 (node 2): both outcomes are proven (a win, a loss), the chance node is not.
    assert_eq!(
        proven_at(&tree, &["0", "0"]),
        Some(1.0),
        "its winning face is proven"
    );
    assert_eq!(
        proven_at(&tree, &["0", "1"]),
        Some(0.0),
        "its losing face is proven"
    );
    assert_eq!(proven_at(&tree, &["0"]), None, "a gamble is not a proof");
    // Throw 1 (node 3): both faces lost, one only after the second player's best reply.
    assert_eq!(proven_at(&tree, &["1", "1"]), Some(0.0));
    assert_eq!(
        proven_at(&tree, &["1"]),
        Some(0.0),
        "lost on every face: proven lost"
    );
    // Throw 2 (node 4): drawn on both faces.
    assert_eq!(
        proven_at(&tree, &["2"]),
        Some(0.5),
        "drawn on every face: proven drawn"
    );
    assert!(
        !tree.nodes[0].proven,
        "the root has an unproven gamble and no proven win"
    );
    // The proven draw is worth more than the gamble's 30 %: it is played.
    assert_eq!(r.best, Some(2));

    // With the winning throw, the root is proven won through it, and the search stops early.
    let r = search(
        &Dice { at: 0 },
        &DiceEval,
        &solver(budget, 7, true),
        Hooks::default(),
    )
    .unwrap();
    assert!(r.stats.leaves < budget, "proven before the budget");
    assert_eq!(r.best, Some(0), "the throw that wins on every face");
    assert_eq!(r.value, 1.0);
    let tree = r.tree.unwrap();
    assert_eq!(proven_at(&tree, &["0"]), Some(1.0));
    assert_eq!(
        proven_at(&tree, &["0", "1"]),
        Some(1.0),
        "every reply loses: won"
    );
    assert!(tree.nodes[0].proven);
}

#[test]
fn games_that_end_with_a_score_are_searched_in_their_units_and_never_proven() {
    // Textbook trees end with numbers, not wins: the solver proves nothing (it once called every
    // leaf a draw and played a2 in the first tree), and MCTS finds the minimax or expectimax move
    // and value, in points.
    let trees = [
        ("textbook", "3 12 8 | 2 4 6 | 14 5 2"),
        ("textbook", "2 4 6 | 14 5 2 | 3 12 8"),
        ("textbook", "(<0.9:2, 0.1:3> <0.9:1, 0.1:4>)"),
        ("textbook", "((3 5) (6 9)) ((1 2) (0 -1))"),
    ];
    for (k, (game, text)) in trees.iter().enumerate() {
        let mut s = plyscope::session::new_session(game).unwrap();
        s.set_position(text).unwrap();
        let exact = s
            .search(
                &SearchConfig {
                    algorithm: Algorithm::Expectimax,
                    depth: 12,
                    random_ties: false,
                    ..SearchConfig::default()
                },
                Hooks::default(),
            )
            .unwrap();
        let r = s
            .search(&solver(20_000, k as u64, true), Hooks::default())
            .unwrap();
        assert_eq!(r.mv, exact.mv, "{text}");
        assert!(
            (r.value - exact.value).abs() < 0.25,
            "{text}: MCTS {} against {}",
            r.value,
            exact.value
        );
        assert!(
            r.value_text.text.contains("point"),
            "{text}: {}",
            r.value_text.text
        );
        assert!(
            !r.root_moves.iter().any(|m| m.exact),
            "{text}: nothing proven"
        );
    }
}
