//! Khet: perft tables, the reference generator, laser cases, notation, draw rules, evaluators and
//! the generic checks.

mod common;
mod khet_reference;

use khet_reference as reference;
use plyscope::core::{perft, Breakdown, Evaluator, Game, NoTerms, Outcome, PerftConvention, Turn};
use plyscope::games::khet::setups::ALL;
use plyscope::games::khet::{Khet, KhetEval, KhetMove, MoveKind, Setup, DRAW_CLOCK};
use plyscope::games::Playable;
use plyscope::session::new_session;

fn pos(text: &str) -> Khet {
    Khet::from_position_text("khet", text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn square(name: &str) -> u8 {
    plyscope::games::khet::notation::parse_square(name).unwrap()
}

fn squares(bits: u128) -> Vec<String> {
    (0..80u8)
        .filter(|&s| bits >> s & 1 == 1)
        .map(plyscope::games::khet::square_name)
        .collect()
}

fn perft_table() -> Vec<(String, Vec<u64>)> {
    common::perft_lines(include_str!("data/khet.perft"))
}

#[test]
fn perft_tables_match_fast_and_generic_perft() {
    let table = perft_table();
    assert_eq!(table.len(), 6, "one line per setup");
    for (id, counts) in &table {
        let start = Khet::new_game(id).unwrap();
        assert!(counts.len() >= 4, "{id}: at least depth 4");
        for (d, &want) in counts.iter().enumerate() {
            let depth = d as u32 + 1;
            assert_eq!(start.perft_fast(depth), want, "fast perft {depth} of {id}");
            if depth <= 3 {
                assert_eq!(
                    perft(&start, depth, PerftConvention::FinishedCountsZero),
                    want,
                    "generic perft {depth} of {id}"
                );
            }
        }
    }
}

#[test]
fn reference_generator_agrees_with_the_perft_table_to_depth_3() {
    for (id, counts) in perft_table() {
        let start = Khet::new_game(&id).unwrap();
        let r = reference::parse(&start.position_text());
        assert_eq!(
            reference::write(&r),
            start.position_text(),
            "reference text of {id}"
        );
        for depth in 1..=3 {
            assert_eq!(
                reference::perft(&r, depth),
                counts[depth as usize - 1],
                "reference perft {depth} of {id}"
            );
        }
    }
}

/// Every legal move and the position after it, as text, sorted.
fn engine_children(p: &Khet) -> Vec<(String, String)> {
    let mut ms = Vec::new();
    p.legal_moves(&mut ms);
    let mut v: Vec<(String, String)> = ms
        .iter()
        .map(|&m| {
            let mut c = p.clone();
            c.play(m).unwrap();
            (p.format_move(m), c.position_text())
        })
        .collect();
    v.sort();
    v
}

#[test]
fn reference_generator_agrees_move_by_move_on_random_games() {
    let mut checked = 0;
    for (i, setup) in ALL.iter().enumerate() {
        for p in common::random_positions(&Khet::new(*setup), 120, 120, 40 + i as u64) {
            let r = reference::parse(&p.position_text());
            if p.turn() == Turn::Terminal {
                if !reference::over(&r) {
                    // Only threefold repetition ends a game the reference does not know ended.
                    assert_eq!(p.outcome(), Some(Outcome::Draw), "{}", p.position_text());
                }
                continue;
            }
            assert!(!reference::over(&r), "{}", p.position_text());
            let mut want: Vec<(String, String)> = reference::moves(&r)
                .into_iter()
                .map(|(m, q)| (m, reference::write(&q)))
                .collect();
            want.sort();
            assert_eq!(
                engine_children(&p),
                want,
                "children of {}",
                p.position_text()
            );
            checked += 1;
        }
    }
    assert!(checked > 500, "only {checked} positions checked");
}

struct LaserCase {
    text: String,
    mv: String,
    kills: Vec<String>,
    result: String,
    note: String,
}

fn laser_cases() -> Vec<LaserCase> {
    include_str!("data/khet-laser.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 5, "{l}");
            LaserCase {
                text: f[0].to_string(),
                mv: f[1].to_string(),
                kills: if f[2] == "-" {
                    vec![]
                } else {
                    f[2].split_whitespace().map(String::from).collect()
                },
                result: f[3].to_string(),
                note: f[4].to_string(),
            }
        })
        .collect()
}

#[test]
fn laser_cases_kill_what_the_data_says_and_end_the_game_as_it_says() {
    let cases = laser_cases();
    assert!(cases.len() >= 20);
    for c in &cases {
        let p =
            Khet::from_position_text("khet", &c.text).unwrap_or_else(|e| panic!("{}: {e}", c.note));
        let m = p.parse_move(&c.mv).unwrap();
        let (segments, kills) = p.shot_of(m);
        assert_eq!(squares(kills), c.kills, "kills: {}", c.note);
        assert!(!segments.is_empty(), "a trace has segments: {}", c.note);
        // The reference laser agrees.
        let mut after = reference::parse(&c.text);
        let children = reference::moves(&after);
        after = children
            .into_iter()
            .find(|(t, _)| *t == c.mv)
            .expect("reference has the move")
            .1;
        let mut next = p.clone();
        next.play(m).unwrap_or_else(|e| panic!("{}: {e}", c.note));
        assert_eq!(
            next.position_text(),
            reference::write(&after),
            "reference position: {}",
            c.note
        );
        let want = match c.result.as_str() {
            "ongoing" => None,
            "silver" => Some(Outcome::Win(0)),
            "red" => Some(Outcome::Win(1)),
            "draw" => Some(Outcome::Draw),
            other => panic!("result {other}"),
        };
        assert_eq!(next.outcome(), want, "result: {}", c.note);
        for k in &c.kills {
            assert_eq!(next.piece_at(square(k)), 0, "{k} removed: {}", c.note);
        }
    }
}

#[test]
fn a_splitter_loop_traces_each_beam_once() {
    let c = laser_cases()
        .into_iter()
        .find(|c| c.note.contains("splitter loop"))
        .unwrap();
    let p = pos(&c.text);
    let (segments, _) = p.shot_of(p.parse_move(&c.mv).unwrap());
    // Every (start square, direction) begins at most one segment: the trace never repeats a beam.
    let mut starts: Vec<(u8, u8)> = segments.iter().map(|s| (s.from, s.dir)).collect();
    let n = starts.len();
    starts.sort();
    starts.dedup();
    assert_eq!(starts.len(), n, "{segments:?}");
    assert!(n <= 80 * 4);
    // The loop is walked: the Eye on e2 is reached from the east after going round.
    let e2 = square("e2");
    assert!(
        segments.iter().any(|s| s.to == e2 && s.dir == 3),
        "{segments:?}"
    );
}

#[test]
fn every_piece_face_matches_the_reference_laser() {
    // Each kind and facing on e4, hit from each side by a beam from Silver's Sphinx routed by a
    // Scarab: the engine's kills equal the reference's.
    let kinds = ["P", "S", "A", "H", "p", "s", "a", "h"];
    let mut cases = 0;
    for k in kinds {
        let facings: &[&str] = match k.to_ascii_uppercase().as_str() {
            "A" => &["n", "e", "s", "w"],
            "K" => &[""],
            _ => &["ne", "se", "sw", "nw"],
        };
        for f in facings {
            // The beam reaches e4 from below (Silver's, turned north by a Scarab on e1), from the
            // east (Silver's, turned west by a Scarab on j4), from the west (Red's, turned east by
            // a Scarab on a4) and from above (Red's, turned south by a Scarab on e8).
            for (layout, mv) in [
                (
                    format!("xs9/4k5/10/10/4{k}{f}5/10/10/2K1Sne4Xn s 0 1 khet-classic-horus"),
                    "j1ccw",
                ),
                (
                    format!("xs9/4k5/10/10/4{k}{f}4Ssw/10/10/2K6Xw s 0 1 khet-classic-horus"),
                    "j1cw",
                ),
                (
                    format!("xe9/10/8k1/10/sne3{k}{f}5/10/10/2K6Xn r 0 1 khet-classic-horus"),
                    "a8cw",
                ),
                (
                    format!("xs3sne5/10/8k1/10/4{k}{f}5/10/10/2K6Xn r 0 1 khet-classic-horus"),
                    "a8ccw",
                ),
            ] {
                let p = match Khet::from_position_text("khet", &layout) {
                    Ok(p) => p,
                    Err(e) => panic!("{layout}: {e}"),
                };
                let m = p.parse_move(mv).unwrap();
                let (_, kills) = p.shot_of(m);
                let r = reference::parse(&layout);
                let after = reference::moves(&r)
                    .into_iter()
                    .find(|(t, _)| t == mv)
                    .unwrap()
                    .1;
                let mut next = p.clone();
                next.play(m).unwrap();
                assert_eq!(
                    next.position_text(),
                    reference::write(&after),
                    "{layout} {mv} kills {:?}",
                    squares(kills)
                );
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 8 * 4 * 4);
}

#[test]
fn position_text_round_trips_and_reports_typed_errors() {
    for s in ALL {
        let p = Khet::new(s);
        let t = p.position_text();
        assert_eq!(t, s.start_text());
        assert_eq!(pos(&t).position_text(), t);
        assert_eq!(p.game_id(), s.id());
    }
    let start = Setup::Classic.start_text();
    let bad = [
        (start.replacen("xs3", "xs4", 1), "count of empty squares"),
        (start.replacen("xs3", "xq3", 1), "facing"),
        (start.replacen("2psw7", "2pzz7", 1), "facing"),
        (
            start.replacen("2psw7", "2psw8", 1),
            "count of empty squares",
        ),
        (start.replacen("2psw7", "2psw6", 1), "more square"),
        (start.replacen(" s 0 1", " x 0 1", 1), "side to move"),
        (start.replacen(" s 0 1", " s 101 1", 1), "clock"),
        (start.replacen(" s 0 1", " s 0 0", 1), "fullmove"),
        (start.replacen("khet", "chess", 1), "game id"),
        (start.replacen(" s 0 1 khet", " s 0 1", 1), "game id"),
        (start.replacen("/2psw7/", "/9psw/", 1), "reserved"),
        (start.replacen("xs3", "xn3", 1), "Sphinx facing"),
        (
            start.replacen("AnKAn3Xn", "AnKAnXn3", 1),
            "silver Sphinx on j1",
        ),
        (
            start.replacen("2PnwAnKAn3Xn", "2PnwAnKAnKAnXn", 1),
            "more square",
        ),
        ("".to_string(), "square"),
    ];
    for (text, want) in bad {
        let e = Khet::from_position_text("khet", &text).expect_err(&text);
        let msg = e.to_string();
        assert!(msg.contains(want), "{text:?}: {msg}");
    }
    // Two pharaohs of one colour: too many pieces.
    let two = start.replacen("3Pnw6", "3PnwK5", 1);
    assert!(Khet::from_position_text("khet", &two)
        .unwrap_err()
        .to_string()
        .contains("at most 1 Pharaoh"));
    assert!(Khet::from_position_text("reversi", start).is_err());
}

#[test]
fn move_text_forms_round_trip_and_read_aliases() {
    let p = Khet::default();
    let cases = [
        ("h2-h3", KhetMove::step(square("h2"), square("h3"))),
        ("f4=g3", KhetMove::swap(square("f4"), square("g3"))),
        ("c1cw", KhetMove::rotate(square("c1"), true)),
        ("c1ccw", KhetMove::rotate(square("c1"), false)),
    ];
    for (t, m) in cases {
        assert_eq!(p.parse_move(t).unwrap(), m, "{t}");
        assert_eq!(p.format_move(m), t);
    }
    assert_eq!(
        p.parse_move("H2H3").unwrap(),
        KhetMove::step(square("h2"), square("h3"))
    );
    assert_eq!(p.parse_move("f4g3").unwrap().kind, MoveKind::Swap);
    assert_eq!(
        p.parse_move("c1+").unwrap(),
        KhetMove::rotate(square("c1"), true)
    );
    assert_eq!(
        p.parse_move(" c1- ").unwrap(),
        KhetMove::rotate(square("c1"), false)
    );
    // A Scarab's anticlockwise turn is its clockwise turn.
    assert_eq!(
        p.parse_move("e4ccw").unwrap(),
        KhetMove::rotate(square("e4"), true)
    );
    for bad in ["", "e4", "k1-k2", "e4--", "e4-e9", "e4xe5", "e4 cw", "é4cw"] {
        let e = p.parse_move(bad).unwrap_err();
        assert!(e.to_string().contains("a step e4-e5"), "{bad}: {e}");
    }
}

#[test]
fn illegal_moves_are_refused_with_reasons_and_change_nothing() {
    let p = Khet::default();
    let cases = [
        ("e1cw", "Pharaoh does not turn"),
        ("j1cw", "Sphinx turns only"),
        ("j1-i2", "Sphinx never moves"),
        ("h2-i1", "reserved for red"),
        ("c5-c7", "not next to"),
        ("c4-c5", "taken"),
        ("e4-e5", "a swap is written e4=e5"),
        ("d1=c1", "only a Scarab"),
        ("e4=e3", "empty"),
        ("e4=e5", "only with a Pyramid or an Anubis"),
        ("c7-c6", "red's"),
        ("a5-a6", "red's"),
        ("e3-e4", "empty"),
    ];
    for (t, why) in cases {
        let m = p.parse_move(t).unwrap();
        let mut c = p.clone();
        let e = c.play(m).expect_err(t);
        assert!(e.to_string().contains(why), "{t}: {e}");
        assert_eq!(c, p, "{t} changed the position");
    }
    // A swap that would put a red piece on a Silver square is illegal.
    let q = pos("xs3k5/10/10/2K7/9Sne/8pne1/10/9Xn s 0 1 khet");
    let e = q.clone().play(q.parse_move("j4=i3").unwrap()).unwrap_err();
    assert!(e.to_string().contains("reserved"), "{e}");
    let q = pos("xs3k5/10/10/2K7/10/8Sne1/8pne1/9Xn s 0 1 khet");
    assert!(q.clone().play(q.parse_move("i3=i2").unwrap()).is_ok());
}

#[test]
fn draw_rules_end_games_by_repetition_and_by_the_clock() {
    // Silver and Red turn a Pyramid back and forth: the start position comes back at plies 4 and 8.
    let mut p = Khet::default();
    let cycle = ["c1cw", "h8cw", "c1ccw", "h8ccw"];
    let mut plies = 0;
    'outer: for _ in 0..3 {
        for t in cycle {
            assert_eq!(p.outcome(), None, "ended early at ply {plies}");
            let m = p.parse_move(t).unwrap();
            p.play(m).unwrap();
            plies += 1;
            if p.turn() == Turn::Terminal {
                break 'outer;
            }
        }
    }
    assert_eq!(plies, 8, "third occurrence of the start position");
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    // The clock: 99 plies without a capture, one more quiet move draws.
    let mut q = pos(&Setup::Classic.start_text().replace(" s 0 1", " s 99 50"));
    q.play(q.parse_move("c1cw").unwrap()).unwrap();
    assert_eq!(q.clock(), DRAW_CLOCK);
    assert_eq!(q.outcome(), Some(Outcome::Draw));
    // A capture resets the clock.
    let mut q = pos("xs3k5/10/10/2K7/10/10/10/4Psw4Xn s 98 1 khet");
    q.play(q.parse_move("j1ccw").unwrap()).unwrap();
    assert_eq!(q.clock(), 0);
    assert_eq!(q.outcome(), None);
}

#[test]
fn generic_checks_and_search_agreement() {
    for s in ALL {
        let n = common::random_playouts(&Khet::new(s), 12, 300, 3 + s as u64);
        assert!(n > 150, "{n}");
    }
    let positions = common::random_positions(&Khet::default(), 4, 20, 7);
    common::search_agreement(&positions, 2, "");
    common::search_agreement(&positions, 2, "material");
}

#[test]
fn evaluator_is_antisymmetric_and_its_breakdown_adds_up() {
    for s in [Setup::Classic, Setup::DynastyHorus] {
        for p in common::random_positions(&Khet::new(s), 15, 60, 5) {
            if p.turn() == Turn::Terminal {
                continue;
            }
            for e in [KhetEval::Strong, KhetEval::Material] {
                let a = e.evaluate(&p, 0, &mut NoTerms);
                let b = e.evaluate(&p, 1, &mut NoTerms);
                assert!((a + b).abs() < 1e-9, "{a} {b}");
                let mut br = Breakdown::default();
                let v = e.evaluate(&p, 0, &mut br);
                assert!((v - a).abs() < 1e-9);
                let sum: f64 = br.terms.iter().map(|t| t.value).sum();
                assert!((sum - v).abs() < 1e-6, "{br:?}");
            }
        }
    }
    let mut br = Breakdown::default();
    KhetEval::Strong.evaluate(&Khet::default(), 0, &mut br);
    let names: Vec<&str> = br.terms.iter().map(|t| t.name.as_str()).collect();
    for want in [
        "pyramids",
        "anubis",
        "pharaoh exposure",
        "laser path",
        "mobility",
        "guards",
    ] {
        assert!(names.contains(&want), "{names:?}");
    }
}

#[test]
fn pharaoh_exposure_counts_the_replies_that_hit() {
    // Red to move could turn the Sphinx east and hit Silver's Pharaoh on e8: one reply hits.
    let p = pos("xs3K5/10/10/10/10/5k4/10/9Xn r 0 1 khet");
    let mut buf = Vec::new();
    let t = plyscope::games::khet::eval::threats(&p, 1, &mut buf);
    assert_eq!(t.pharaoh_hits, 1);
    let silver = plyscope::games::khet::eval::threats(&p, 0, &mut buf);
    assert_eq!(silver.pharaoh_hits, 0);
    // The search finds the win at depth 1.
    let mut s = new_session("khet").unwrap();
    s.set_position(&p.position_text()).unwrap();
    let cfg = plyscope::search::SearchConfig {
        depth: 1,
        ..Default::default()
    };
    let r = s.search(&cfg, plyscope::search::Hooks::default()).unwrap();
    assert_eq!(r.mv, "a8ccw");
}

#[test]
fn sessions_play_every_setup_by_id() {
    for id in [
        "khet",
        "khet-classic",
        "khet-imhotep",
        "khet-dynasty",
        "khet-classic-horus",
        "khet-imhotep-horus",
        "khet-dynasty-horus",
    ] {
        let mut s = new_session(id).unwrap();
        assert_eq!(s.players(), ["silver", "red"]);
        assert_eq!(s.to_move(), "silver");
        let moves = s.legal_moves();
        assert!(moves.len() >= 70);
        s.play(&moves[0].text).unwrap();
        assert_eq!(s.to_move(), "red");
    }
    assert!(new_session("khet-osiris").is_err());
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Hand-run: `KHET_DEPTH=4 KHET_GAMES=20 cargo test --release --test khet -- --ignored --nocapture sanity`.
/// Depth N plays depth N-2 (alpha-beta, the default evaluator, the transposition table on);
/// colours alternate, and each game opens with two random plies (seeded by its number) so that
/// the games differ. Prints the deeper side's wins, draws and losses.
#[test]
#[ignore]
fn sanity_match_depth_n_against_n_minus_2() {
    use plyscope::search::{Hooks, SearchConfig};
    let depth = env_or("KHET_DEPTH", 4) as u32;
    let games = env_or("KHET_GAMES", 20);
    let id = std::env::var("KHET_GAME").unwrap_or_else(|_| "khet".into());
    let (mut wins, mut draws, mut losses, mut plies_total) = (0, 0, 0, 0);
    for g in 0..games {
        let mut s = new_session(&id).unwrap();
        let mut rng = plyscope::core::Rng::seeded(1000 + g);
        for _ in 0..2 {
            let ms = s.legal_moves();
            let m = ms[rng.below(ms.len() as u64) as usize].text.clone();
            s.play(&m).unwrap();
        }
        let deep_is_silver = g % 2 == 0;
        let mut plies = 0;
        while s.outcome().is_none() && plies < 400 {
            let silver_to_move = s.to_move() == "silver";
            let d = if silver_to_move == deep_is_silver {
                depth
            } else {
                depth.saturating_sub(2).max(1)
            };
            let cfg = SearchConfig {
                depth: d,
                iterative_deepening: true,
                transposition_table: Some(true),
                seed: Some(g * 7919 + plies),
                ..SearchConfig::default()
            };
            let r = s.search(&cfg, Hooks::default()).unwrap();
            s.play(&r.mv).unwrap();
            plies += 1;
        }
        plies_total += plies;
        let out = s.outcome().unwrap_or_else(|| "unfinished".into());
        let deep = if deep_is_silver {
            "silver wins"
        } else {
            "red wins"
        };
        let shallow = if deep_is_silver {
            "red wins"
        } else {
            "silver wins"
        };
        if out == deep {
            wins += 1;
        } else if out == shallow {
            losses += 1;
        } else {
            draws += 1;
        }
        println!(
            "game {g}: depth {depth} as {} - {out} after {plies} plies",
            if deep_is_silver { "silver" } else { "red" }
        );
    }
    println!("{id}: depth {depth} against depth {}: {wins} wins, {draws} draws, {losses} losses in {games} games ({plies_total} plies)", depth.saturating_sub(2).max(1));
    assert!(wins + draws + losses == games);
}

#[test]
fn the_last_shot_is_kept_for_the_board_view() {
    let c = laser_cases()
        .into_iter()
        .find(|c| c.note.contains("double hit: c5 dies"))
        .unwrap();
    let p = pos(&c.text);
    assert!(
        p.last_shot().is_none(),
        "a position read from text has no last shot"
    );
    let m = p.parse_move(&c.mv).unwrap();
    let (segments, kills) = p.shot_of(m);
    let mut next = p.clone();
    next.play(m).unwrap();
    let (again, killed) = next.last_shot().unwrap();
    assert_eq!(again, segments);
    let squares_killed: Vec<String> = killed
        .iter()
        .map(|&(s, _)| plyscope::games::khet::square_name(s))
        .collect();
    assert_eq!(squares_killed, squares(kills));
    // The destroyed pieces are the red Pyramid (facing ne) and the red Pharaoh.
    assert_eq!(
        killed.iter().map(|&(_, p)| p).collect::<Vec<_>>(),
        [p.piece_at(square("c5")), p.piece_at(square("c8"))]
    );
}

#[test]
fn a_recorded_tree_validates_and_names_the_terms() {
    use plyscope::search::{search, Hooks, SearchConfig};
    use plyscope::tree::Node;
    let validator = common::tree_schema();
    let start = Khet::new(Setup::ClassicHorus);
    let r = search(
        &start,
        &KhetEval::Strong,
        &SearchConfig {
            depth: 2,
            record_tree: true,
            seed: Some(2),
            branching_limit: 12,
            ..Default::default()
        },
        Hooks::default(),
    )
    .unwrap();
    let doc = r.tree.expect("a tree").to_document();
    assert_eq!(doc.game, "khet-classic-horus");
    let v: serde_json::Value = serde_json::from_str(&doc.to_json()).unwrap();
    let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    fn walk<'a>(n: &'a Node, out: &mut Vec<&'a Node>) {
        out.push(n);
        n.children.iter().for_each(|c| walk(c, out));
    }
    let mut nodes = Vec::new();
    walk(&doc.root, &mut nodes);
    // The best 12 by pre-score, and one node standing for the moves the limit cut.
    assert_eq!(
        doc.root.children.iter().filter(|c| !c.failed_high).count(),
        13,
        "the branching limit keeps the best 12 by pre-score"
    );
    let leaf = nodes
        .iter()
        .find_map(|n| n.eval.as_ref())
        .expect("evaluated leaves");
    let names: Vec<&str> = leaf.terms.iter().map(|t| t.name.as_str()).collect();
    assert!(
        names.contains(&"pharaoh exposure") && names.contains(&"laser path"),
        "{names:?}"
    );
    let sum: f64 = leaf.terms.iter().map(|t| t.value).sum();
    assert!((sum - leaf.total).abs() < 1e-6);
}

#[test]
fn mangled_text_never_panics() {
    let mut rng = plyscope::core::Rng::seeded(99);
    let alphabet: Vec<char> = "PSAKXHpsakxhnesw/ 0123456789rcw=-+é\t".chars().collect();
    let seeds = [
        Setup::Classic.start_text(),
        Setup::DynastyHorus.start_text(),
    ];
    let p = Khet::default();
    let mut ok = 0;
    for i in 0..20_000 {
        let mut chars: Vec<char> = seeds[i % 2].chars().collect();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(chars.len() as u64) as usize;
            match rng.below(3) {
                0 => chars[at] = alphabet[rng.below(alphabet.len() as u64) as usize],
                1 => {
                    chars.remove(at);
                }
                _ => chars.insert(at, alphabet[rng.below(alphabet.len() as u64) as usize]),
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(q) = Khet::from_position_text("khet", &text) {
            ok += 1;
            assert_eq!(
                Khet::from_position_text("khet", &q.position_text())
                    .unwrap()
                    .position_text(),
                q.position_text()
            );
        }
        let mv: String = text
            .chars()
            .skip(rng.below(text.len() as u64) as usize)
            .take(1 + rng.below(6) as usize)
            .collect();
        if let Ok(m) = p.parse_move(&mv) {
            let mut c = p.clone();
            if c.play(m).is_err() {
                assert_eq!(c, p);
            }
        }
    }
    assert!(ok > 100, "{ok}");
}

/// The fast perft stops when its budget says so: a stop flag already raised ends a depth-8 count
/// (far beyond a test's time) after a few dozen nodes two plies above the leaves, and a budget of
/// leaves ends it once they are counted. An unlimited budget gives the fast perft's count.
#[test]
fn fast_perft_is_stoppable_by_flag_and_by_leaves() {
    use plyscope::core::PerftBudget;
    use std::sync::atomic::AtomicBool;
    let start = Khet::new_game("khet-classic").unwrap();
    let stop = AtomicBool::new(true);
    let mut budget = PerftBudget::default().with_stop(&stop);
    assert_eq!(start.perft_within(8, &mut budget), None);
    assert!(budget.stopped());
    assert!(
        budget.leaves() < 64 * 20_000,
        "stopped late: {} leaves",
        budget.leaves()
    );
    let mut budget = PerftBudget::default().with_max_leaves(100_000);
    assert_eq!(start.perft_within(8, &mut budget), None);
    assert!(
        (100_000..100_000 + 20_000).contains(&budget.leaves()),
        "{}",
        budget.leaves()
    );
    let mut budget = PerftBudget::default();
    let want = start.perft_fast(3);
    assert_eq!(start.perft_within(3, &mut budget), Some(want));
    assert_eq!(budget.leaves(), want, "every leaf counted once");
}

/// The Eye of Horus as docs/khet.md states the expansion's rules: on every face and facing it lets
/// the beam through and reflects it at 90 degrees (so it has no face that kills it), and it moves
/// like a Scarab: steps, one turn, and swaps with a neighbouring Pyramid or Anubis of either
/// colour, never with a Scarab, another Eye or a Pharaoh.
#[test]
fn eye_of_horus_follows_the_expansion_rules() {
    use plyscope::games::khet::laser::{interact, Interaction};
    use plyscope::games::khet::{make_piece, Kind};
    for owner in 0..2 {
        for facing in 0..4 {
            let eye = make_piece(Kind::Eye, owner, facing);
            for dir in 0..4u8 {
                match interact(eye, dir) {
                    Interaction::Split(out) => {
                        assert!(
                            out != dir && out != (dir + 2) & 3,
                            "turns 90 degrees: {dir} -> {out}"
                        );
                        // The reflected part is the one a Scarab of the same facing would send.
                        let scarab = make_piece(Kind::Scarab, owner, facing);
                        assert_eq!(interact(scarab, dir), Interaction::Reflect(out));
                    }
                    other => panic!("an Eye facing {facing} hit going {dir}: {other:?}"),
                }
            }
        }
    }
    // Silver's Eye on e4, surrounded: a Pyramid and an Anubis of each colour, a Scarab, Red's
    // Eye, Silver's Pharaoh.
    let p = pos("xs9/10/10/3anpneAn4/3SseHneK4/3Pnwhse5/10/4k4Xn s 0 1 khet-classic-horus");
    let mut swaps: Vec<String> = Vec::new();
    let mut ms = Vec::new();
    p.legal_moves(&mut ms);
    for m in ms {
        let t = p.format_move(m);
        if t.starts_with("e4=") {
            swaps.push(t);
        }
    }
    swaps.sort();
    assert_eq!(
        swaps,
        ["e4=d3", "e4=d5", "e4=e5", "e4=f5"],
        "swaps with Pyramids and Anubis only"
    );
    for refused in ["e4=d4", "e4=e3", "e4=f4"] {
        let m = p.parse_move(refused).unwrap();
        assert!(p.clone().play(m).is_err(), "{refused} must be refused");
    }
    // An Eye never dies: Silver's laser up the j file is turned west along rank 4 by a Scarab
    // and crosses both Eyes (each splits it again; no branch meets a piece).
    let q = pos("xs6k2/10/10/10/1hne2Hse4Ssw/10/10/2K6Xn s 0 1 khet-classic-horus");
    let m = q.parse_move("c1-c2").unwrap();
    let (_, kills) = q.shot_of(m);
    assert_eq!(squares(kills), Vec::<String>::new(), "nothing dies");
}

/// `unstable` (the quiescence trigger, `Khet::shot_pending`) on hand-made positions: true when
/// the side to move's beam as it stands destroys a piece, and when its Pharaoh stands in the
/// enemy beam; false when a shot needs a move first (stepping a mirror onto the beam), when the
/// only shots would hit one's own Pharaoh, when the pending shot is the other side's, and when
/// the game is over.
#[test]
fn a_pending_shot_is_unstable() {
    for (text, unstable) in [
        // Silver's only shots (turning the Sphinx west, stepping the Pharaoh onto rank 1) hit
        // its own Pharaoh; Red's the same.
        ("xs3k5/10/10/10/10/10/10/4K4Xn s 0 1 khet", false),
        ("xs3k5/10/10/10/10/10/10/4K4Xn r 0 1 khet", false),
        // The Pyramid on f1 turns Silver's beam up the f file into Red's Pyramid on f6.
        ("xs3k5/10/5pne4/10/10/10/4K5/5Pne3Xw s 0 1 khet", true),
        // The same with Red to move: the shot is Silver's, not Red's.
        ("xs3k5/10/5pne4/10/10/10/4K5/5Pne3Xw r 0 1 khet", false),
        // The Pyramid on f2: f2-f1 would make the shot, but it needs that move first.
        ("xs3k5/10/5pne4/10/10/10/4KPne4/9Xw s 0 1 khet", false),
        // Red's beam turns east on a4 and reaches Silver's Pharaoh on g4 (Silver to move, in
        // check), and with Red to move it is Red's shot.
        ("xs3k5/10/10/10/pne5K3/10/10/9Xn s 0 1 khet", true),
        ("xs3k5/10/10/10/pne5K3/10/10/9Xn r 0 1 khet", true),
        // No Red Pharaoh: Silver has won.
        ("xs9/10/5pne4/10/10/10/4K5/5Pne3Xw r 0 1 khet", false),
    ] {
        assert_eq!(pos(text).unstable(), unstable, "{text}");
    }
    assert!(!Khet::default().unstable());
}

/// A pending shot is real, on positions of random games: where `unstable` says so, the side to
/// move either has a legal move whose shot destroys a piece, or its Pharaoh stands in the enemy
/// beam.
#[test]
fn a_pending_shot_is_a_capture_or_a_check() {
    let mut pending = 0;
    let positions = common::random_positions(&Khet::default(), 300, 120, 16);
    for p in positions.iter().filter(|p| p.unstable()) {
        let me = p.side_to_move();
        let in_check = p
            .pharaoh_square(me)
            .is_some_and(|sq| p.laser_kills(me ^ 1) >> sq & 1 == 1);
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let captures = moves.iter().any(|&m| {
            let mut c = p.clone();
            c.play(m).unwrap();
            !c.last_shot().unwrap().1.is_empty()
        });
        assert!(captures || in_check, "{}", p.position_text());
        pending += 1;
    }
    assert!(pending > 5 && pending < 300, "{pending} of 300 pending");
}
