//! Checks every game gets for free: random playouts (legal moves play, notation and position text
//! round-trip, incremental zobrist equals a fresh one, chance probabilities sum to 1) and search
//! agreement (minimax and alpha-beta give the same root value; alpha-beta visits fewer nodes).
#![allow(dead_code)]

use plyscope::core::{Game, Rng, Turn};
use plyscope::games::Playable;
use plyscope::search::{search, Algorithm, Hooks, SearchConfig};

/// Plays `games` random games from `start` (at most `max_plies` plies each) and checks on every
/// position: legal moves play and round-trip through text, zobrist keys match, position text
/// round-trips, chance probabilities sum to 1. Returns the number of positions checked.
pub fn random_playouts<G: Playable>(start: &G, games: usize, max_plies: usize, seed: u64) -> usize {
    let mut rng = Rng::seeded(seed);
    let mut checked = 0;
    let variant = start.game_id();
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..max_plies {
            checked += 1;
            assert_eq!(
                pos.zobrist(),
                pos.zobrist_from_scratch(),
                "incremental zobrist differs at {}",
                pos.position_text()
            );
            let text = pos.position_text();
            let back = G::from_position_text(&variant, &text)
                .unwrap_or_else(|e| panic!("{text:?} does not read back: {e}"));
            assert_eq!(back.position_text(), text, "position text round-trip");
            assert_eq!(
                back.zobrist(),
                pos.zobrist(),
                "zobrist after position round-trip of {text}"
            );
            let m = match pos.turn() {
                Turn::Terminal => {
                    assert!(
                        pos.outcome().is_some(),
                        "a terminal position has an outcome"
                    );
                    let mut ms = Vec::new();
                    pos.legal_moves(&mut ms);
                    assert!(ms.is_empty(), "no legal moves in a finished game");
                    break;
                }
                Turn::Chance => {
                    let mut outs = Vec::new();
                    pos.chance_outcomes(&mut outs);
                    assert!(!outs.is_empty(), "a chance turn has outcomes");
                    let total: f64 = outs.iter().map(|o| o.1).sum();
                    assert!(
                        (total - 1.0).abs() < 1e-9,
                        "chance probabilities sum to {total}, not 1"
                    );
                    outs[rng.below(outs.len() as u64) as usize].0
                }
                Turn::Player(_) => {
                    assert!(pos.outcome().is_none(), "no outcome before the end");
                    let mut ms = Vec::new();
                    pos.legal_moves(&mut ms);
                    assert!(
                        !ms.is_empty(),
                        "a player to move has a move (pass included) at {text}"
                    );
                    for &m in &ms {
                        let t = pos.format_move(m);
                        let parsed = pos
                            .parse_move(&t)
                            .unwrap_or_else(|e| panic!("{t:?} does not parse back: {e}"));
                        assert_eq!(parsed, m, "move notation round-trip of {t}");
                        let mut c = pos.clone();
                        c.play(m)
                            .unwrap_or_else(|e| panic!("legal move {t} refused: {e}"));
                    }
                    ms[rng.below(ms.len() as u64) as usize]
                }
            };
            pos.play_unchecked(m);
        }
    }
    checked
}

/// Collects `count` positions reached by random play from `start`, skipping finished ones.
pub fn random_positions<G: Game>(start: &G, count: usize, max_plies: usize, seed: u64) -> Vec<G> {
    let mut rng = Rng::seeded(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = start.clone();
        let plies = rng.below(max_plies as u64 + 1);
        for _ in 0..plies {
            match pos.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let mut outs = Vec::new();
                    pos.chance_outcomes(&mut outs);
                    let m = outs[rng.below(outs.len() as u64) as usize].0;
                    pos.play_unchecked(m);
                }
                Turn::Player(_) => {
                    let mut ms = Vec::new();
                    pos.legal_moves(&mut ms);
                    let m = ms[rng.below(ms.len() as u64) as usize];
                    pos.play_unchecked(m);
                }
            }
        }
        if matches!(pos.turn(), Turn::Player(_)) {
            out.push(pos);
        }
    }
    out
}

/// On each position: minimax and alpha-beta (with and without move ordering) return the same root
/// value at `depth`, and alpha-beta visits no more nodes than minimax (fewer in total). The modern
/// alpha-beta without the techniques that change values (principal variation search, aspiration
/// windows in iterative deepening, killers and history; no reductions, null moves, quiescence or
/// table) returns that value too, each technique alone and all together.
pub fn search_agreement<G: Playable>(positions: &[G], depth: u32, evaluator: &str) {
    let eval = G::evaluator(evaluator).unwrap();
    let (mut mm_nodes, mut ab_nodes) = (0, 0);
    for pos in positions {
        let base = SearchConfig {
            depth,
            evaluator: evaluator.into(),
            seed: Some(1),
            random_ties: false,
            ..SearchConfig::plain()
        };
        let mm = search(
            pos,
            &eval,
            &SearchConfig {
                algorithm: Algorithm::Minimax,
                move_ordering: false,
                ..base.clone()
            },
            Hooks::default(),
        )
        .unwrap();
        for ordering in [false, true] {
            let ab = search(
                pos,
                &eval,
                &SearchConfig {
                    algorithm: Algorithm::Alphabeta,
                    move_ordering: ordering,
                    ..base.clone()
                },
                Hooks::default(),
            )
            .unwrap();
            assert!(
                (mm.value - ab.value).abs() < 1e-6,
                "minimax {} and alpha-beta {} (ordering {ordering}) disagree at {}",
                mm.value,
                ab.value,
                pos.position_text()
            );
            assert!(
                ab.stats.nodes <= mm.stats.nodes,
                "alpha-beta visited more nodes than minimax"
            );
            if !ordering {
                ab_nodes += ab.stats.nodes;
            }
        }
        let exact = SearchConfig {
            iterative_deepening: true,
            ..base.clone()
        };
        let variants = [
            SearchConfig {
                pvs: true,
                ..exact.clone()
            },
            SearchConfig {
                aspiration: true,
                ..exact.clone()
            },
            SearchConfig {
                killers: true,
                history: true,
                ..exact.clone()
            },
            SearchConfig {
                pvs: true,
                aspiration: true,
                killers: true,
                history: true,
                ..exact.clone()
            },
        ];
        for (k, cfg) in variants.iter().enumerate() {
            let modern = search(pos, &eval, cfg, Hooks::default()).unwrap();
            assert!(
                (mm.value - modern.value).abs() < 1e-6,
                "minimax {} and modern alpha-beta {} (variant {k}) disagree at {}",
                mm.value,
                modern.value,
                pos.position_text()
            );
        }
        mm_nodes += mm.stats.nodes;
    }
    assert!(
        ab_nodes < mm_nodes,
        "alpha-beta ({ab_nodes} nodes) should visit fewer than minimax ({mm_nodes})"
    );
}

/// The published JSON Schema of tree documents (`www/tree-format.schema.json`), compiled.
pub fn tree_schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/www/tree-format.schema.json"
    ))
    .expect("the schema file is there");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::validator_for(&schema).expect("the schema itself is valid")
}
pub mod conversation;

/// The lines of a perft data file, `KEY ; N1 N2 ...` (counts from depth 1), skipping blank lines
/// and `#` comments.
#[allow(dead_code)]
pub fn perft_lines(text: &str) -> Vec<(String, Vec<u64>)> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (key, counts) = l.split_once(';').expect("KEY ; counts");
            let counts = counts
                .split_whitespace()
                .map(|n| n.parse().expect("a count"))
                .collect();
            (key.trim().to_string(), counts)
        })
        .collect()
}

/// Checks a pattern evaluator's breakdown of `pos` from both sides: each family's sum (a term
/// named in `families`) has weight 1, and from the other side every term keeps its weight and
/// flips its raw input, so the breakdown reads from the evaluating side's view.
pub fn pattern_terms_flip_with_the_side<G: Game, E: plyscope::core::Evaluator<G>>(
    eval: &E,
    pos: &G,
    families: &[&str],
) {
    use plyscope::core::Breakdown;
    let (mut a, mut b) = (Breakdown::default(), Breakdown::default());
    eval.evaluate(pos, 0, &mut a);
    eval.evaluate(pos, 1, &mut b);
    assert_eq!(a.terms.len(), b.terms.len());
    for (x, y) in a.terms.iter().zip(&b.terms) {
        assert_eq!(
            (x.name.as_str(), x.weight, x.raw),
            (y.name.as_str(), y.weight, -y.raw)
        );
        if families.contains(&x.name.as_str()) {
            assert_eq!(x.weight, 1.0, "{}", x.name);
        }
    }
}

/// Checks a pattern weights file format on weights `w`: `encode` then `decode` gives `w` back, and
/// a cut file, a file of another version (`magic_old`, whose error names `magic`) and a file with
/// a wrong count are refused with a reason.
pub fn weights_file_round_trips(
    w: &[i16],
    encode: fn(&[i16]) -> Vec<u8>,
    decode: fn(&[u8]) -> Result<Vec<i16>, String>,
    magic_old: &[u8],
    magic: &str,
) {
    let bytes = encode(w);
    assert_eq!(decode(&bytes).unwrap(), w);
    assert!(decode(&bytes[..bytes.len() - 1]).is_err());
    assert!(decode(magic_old).unwrap_err().contains(magic));
    let mut short = bytes.clone();
    short[12] ^= 1;
    assert!(decode(&short).unwrap_err().contains("expected"));
}

/// Positions of a few fast Ataxx self-play games (depth 2, from `seed`), every phase: (side to
/// move's pieces, the other's, walls).
pub fn ataxx_positions(seed: u64, games: usize) -> Vec<(u64, u64, u64)> {
    use plyscope::games::ataxx::train::{self, TrainConfig};
    let d = TrainConfig::default();
    let cfg = TrainConfig {
        self_play: plyscope::games::pattern_fit::SelfPlay {
            seed,
            games,
            ..d.self_play
        },
        depth: 2,
        ..d
    };
    train::play_games(&cfg)
        .into_iter()
        .map(|s| (s.me, s.them, s.walls))
        .collect()
}

/// An Ataxx position with random walls on some of its free cells, to test the wall states too.
pub fn ataxx_with_walls(
    rng: &mut plyscope::games::pattern_fit::SplitMix,
    (me, them, _): (u64, u64, u64),
) -> (u64, u64, u64) {
    let walls = rng.next() & rng.next() & rng.next() & !(me | them) & ((1u64 << 49) - 1);
    (me, them, walls)
}

/// Positions for Ataxx evaluator tests: every fifth position of one fast self-play game from
/// `seed` ([`ataxx_positions`]), each with either side to move.
pub fn ataxx_sample_positions(seed: u64) -> Vec<plyscope::games::ataxx::Ataxx> {
    let mut out = Vec::new();
    for (me, them, walls) in ataxx_positions(seed, 1).into_iter().step_by(5) {
        for to_move in 0..2u8 {
            let (b, w) = if to_move == 0 { (me, them) } else { (them, me) };
            out.push(
                plyscope::games::ataxx::Ataxx::from_parts(b, w, walls, to_move, 0, 1)
                    .expect("a position of a game"),
            );
        }
    }
    out
}

/// Evaluates `pos` for `perspective` with its term breakdown, checking that the value is the
/// one the evaluation without terms gives; returns the value and the breakdown.
pub fn evaluate_with_terms<G: Game, E: plyscope::core::Evaluator<G>>(
    eval: &E,
    pos: &G,
    perspective: plyscope::core::PlayerId,
) -> (f64, plyscope::core::Breakdown) {
    let mut bd = plyscope::core::Breakdown::default();
    let v = eval.evaluate(pos, perspective, &mut bd);
    assert_eq!(
        v,
        eval.evaluate(pos, perspective, &mut plyscope::core::NoTerms)
    );
    (v, bd)
}
