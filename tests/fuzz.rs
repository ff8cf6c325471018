//! Mutation fuzzing in the normal suite: every parser gets at least 10^5 inputs made by mutating
//! valid ones (seeded, so a failure replays), with the checks of `plyscope::fuzz`: no panic, in a
//! build with overflow checks on (the test profile keeps them, as debug builds do); a refused input
//! changes nothing; an accepted one reads back the same.
//!
//! The game parsers are driven over the catalogue: a game is fuzzed by being registered. Inputs per
//! parser can be raised with `PLYSCOPE_FUZZ_SCALE=10` (ten times as many) for a longer hand run;
//! the cargo-fuzz targets in `fuzz/` explore further (see fuzz/README.md).

use plyscope::core::Rng;
use plyscope::fuzz;
use plyscope::games::CATALOGUE;
use plyscope::protocol::uai::Uai;
use plyscope::session::{new_session, AnySession};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Mutated inputs per parser (per game for the game parsers).
const PER_PARSER: usize = 100_000;
/// Mutated inputs per parser for each variant of a game (the variant's own parser code is the
/// base game's, with another size or layout).
const PER_VARIANT: usize = 10_000;

fn scale() -> usize {
    std::env::var("PLYSCOPE_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// Numbers that break careless arithmetic.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "7",
    "8",
    "15",
    "16",
    "17",
    "48",
    "49",
    "63",
    "64",
    "65",
    "127",
    "128",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "1e309",
    "-1e309",
    "NaN",
    "0x7fff",
    "+3",
    "3.5",
];

/// Characters that are not in any notation, or are in them in odd places.
const ODD: &[char] = &[
    '\0',
    '\n',
    '\r',
    '\t',
    ' ',
    '\u{7f}',
    '|',
    '/',
    ',',
    '.',
    '-',
    '+',
    ':',
    ';',
    '"',
    '\\',
    '{',
    '}',
    '[',
    ']',
    'é',
    'ß',
    '\u{200b}',
    '\u{feff}',
    '\u{10ffff}',
    '𝟙',
    'Ⅻ',
    '٣',
    '~',
    '`',
    '@',
];

/// Makes mutated inputs from seeds.
struct Mutator {
    rng: Rng,
    seeds: Vec<String>,
    /// Words and characters found in the seeds.
    words: Vec<String>,
    alphabet: Vec<char>,
}

impl Mutator {
    fn new(seed: u64, seeds: Vec<String>) -> Mutator {
        let mut words: Vec<String> = seeds
            .iter()
            .flat_map(|s| s.split(|c: char| c.is_whitespace() || c == ',' || c == '|'))
            .filter(|w| !w.is_empty() && w.len() < 40)
            .map(str::to_string)
            .collect();
        words.sort();
        words.dedup();
        let mut alphabet: Vec<char> = seeds.iter().flat_map(|s| s.chars()).collect();
        alphabet.sort();
        alphabet.dedup();
        Mutator {
            rng: Rng::seeded(seed),
            seeds,
            words,
            alphabet,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        self.rng.below(n.max(1) as u64) as usize
    }

    fn char(&mut self) -> char {
        match self.below(4) {
            0 => ODD[self.below(ODD.len())],
            1 => (b' ' + self.below(95) as u8) as char,
            _ if !self.alphabet.is_empty() => {
                let i = self.below(self.alphabet.len());
                self.alphabet[i]
            }
            _ => 'a',
        }
    }

    fn word(&mut self) -> String {
        match self.below(3) {
            0 => NUMBERS[self.below(NUMBERS.len())].to_string(),
            _ if !self.words.is_empty() => {
                let i = self.below(self.words.len());
                self.words[i].clone()
            }
            _ => "x".to_string(),
        }
    }

    /// One input: a seed with one to four mutations.
    fn next(&mut self) -> String {
        let i = self.below(self.seeds.len());
        let seed = self.seeds[i].clone();
        let mut s: Vec<char> = seed.chars().collect();
        for _ in 0..1 + self.below(4) {
            let n = s.len();
            let at = self.below(n + 1);
            match self.below(9) {
                // Replace, insert or delete one character.
                0 if n > 0 => {
                    let c = self.char();
                    s[at.min(n - 1)] = c;
                }
                1 => {
                    let c = self.char();
                    s.insert(at, c);
                }
                2 if n > 0 => {
                    s.remove(at.min(n - 1));
                }
                // Delete a range.
                3 if n > 0 => {
                    let end = (at + 1 + self.below(8)).min(n);
                    s.drain(at.min(end)..end);
                }
                // Repeat a range, sometimes many times (long inputs).
                4 if n > 0 => {
                    let start = at.min(n - 1);
                    let end = (start + 1 + self.below(12)).min(n);
                    let piece: Vec<char> = s[start..end].to_vec();
                    let times = if self.below(20) == 0 {
                        200 + self.below(2000)
                    } else {
                        1 + self.below(3)
                    };
                    for _ in 0..times {
                        s.splice(end..end, piece.iter().copied());
                    }
                }
                // Insert a word (a number or a word of some seed) between spaces.
                5 => {
                    let w = self.word();
                    let text: Vec<char> = format!(" {w} ").chars().collect();
                    s.splice(at..at, text);
                }
                // Replace a word by another.
                6 => {
                    let text: String = s.iter().collect();
                    let words: Vec<&str> = text.split(' ').collect();
                    let i = self.below(words.len());
                    let w = self.word();
                    let mut words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
                    words[i] = w;
                    s = words.join(" ").chars().collect();
                }
                // Splice in part of another seed.
                7 => {
                    let i = self.below(self.seeds.len());
                    let other: Vec<char> = self.seeds[i].chars().collect();
                    let from = self.below(other.len());
                    let to = (from + self.below(other.len() - from + 1)).min(other.len());
                    s.splice(at..at, other[from..to].iter().copied());
                }
                // Cut the end.
                _ => s.truncate(at),
            }
        }
        s.into_iter().collect()
    }
}

/// Runs `check` on `n` inputs; fails with the first inputs that panicked.
fn fuzz(what: &str, n: usize, mutator: &mut Mutator, mut check: impl FnMut(&str)) {
    let mut failures: Vec<(String, String)> = Vec::new();
    for _ in 0..n {
        let input = mutator.next();
        if let Err(p) = catch_unwind(AssertUnwindSafe(|| check(&input))) {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push((input, msg));
            if failures.len() >= 5 {
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{what}: {} input(s) broke a rule:\n{}",
        failures.len(),
        failures
            .iter()
            .map(|(i, m)| format!("  {:?}\n    {m}", i.chars().take(300).collect::<String>()))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Positions and legal move texts met along a few seeded random games of `id`.
fn samples(id: &str, seed: u64) -> (Vec<String>, Vec<String>) {
    let mut rng = Rng::seeded(seed);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..4 {
        let mut s = new_session(id).unwrap();
        s.seed(rng.below(1 << 30));
        for _ in 0..60 {
            positions.push(s.position_text());
            let legal = s.legal_moves();
            if legal.is_empty() {
                break;
            }
            for m in legal.iter().take(6) {
                moves.push(m.text.clone());
            }
            let pick = legal[rng.below(legal.len() as u64) as usize].text.clone();
            s.play(&pick).unwrap();
        }
    }
    positions.sort();
    positions.dedup();
    moves.sort();
    moves.dedup();
    (positions, moves)
}

fn session_at(id: &str, position: &str) -> Box<dyn AnySession> {
    let mut s = new_session(id).unwrap();
    s.set_position(position).unwrap();
    s
}

/// Every id of the catalogue with the number of inputs its parsers get.
fn ids_and_counts() -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for g in CATALOGUE {
        out.push((g.id.to_string(), PER_PARSER * scale()));
        for (v, _) in g.variants {
            out.push((v.to_string(), PER_VARIANT * scale()));
        }
    }
    out
}

#[test]
fn this_build_checks_overflow() {
    let r = catch_unwind(|| std::hint::black_box(255u8) + std::hint::black_box(1u8));
    assert!(
        r.is_err(),
        "the fuzz tests must run with overflow checks on (the test profile's default)"
    );
}

#[test]
fn positions_of_every_game() {
    for (i, (id, n)) in ids_and_counts().into_iter().enumerate() {
        let (positions, _) = samples(&id, i as u64);
        let mut m = Mutator::new(100 + i as u64, positions.clone());
        let mut s = new_session(&id).unwrap();
        let mut k = 0usize;
        fuzz(&format!("{id} positions"), n, &mut m, |text| {
            // Start from a varying position, so that "unchanged" means something.
            if k % 64 == 0 {
                s = session_at(&id, &positions[k / 64 % positions.len()]);
            }
            k += 1;
            fuzz::check_position(s.as_mut(), text);
        });
    }
}

#[test]
fn moves_of_every_game() {
    for (i, (id, n)) in ids_and_counts().into_iter().enumerate() {
        let (positions, moves) = samples(&id, 50 + i as u64);
        let mut seeds = moves;
        seeds.extend(["pass".to_string(), String::new()]);
        let mut m = Mutator::new(200 + i as u64, seeds);
        let mut s = new_session(&id).unwrap();
        let mut k = 0usize;
        fuzz(&format!("{id} moves"), n, &mut m, |text| {
            if k % 64 == 0 {
                s = session_at(&id, &positions[k / 64 % positions.len()]);
            }
            k += 1;
            fuzz::check_move(s.as_mut(), text);
        });
    }
}

/// Game records: a list of moves from the start (what `--moves` plays and the page replays), for
/// every game; and Reversi's compact records.
#[test]
fn game_records() {
    for (i, g) in CATALOGUE.iter().enumerate() {
        let mut rng = Rng::seeded(i as u64);
        let mut seeds = Vec::new();
        for _ in 0..20 {
            let mut s = new_session(g.id).unwrap();
            s.seed(rng.below(1 << 30));
            for _ in 0..rng.below(40) {
                let legal = s.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let pick = legal[rng.below(legal.len() as u64) as usize].text.clone();
                s.play(&pick).unwrap();
            }
            seeds.push(s.history().join(" "));
        }
        // Records play many moves each: a tenth as many inputs keeps the run short.
        let mut m = Mutator::new(300 + i as u64, seeds);
        fuzz(
            &format!("{} records", g.id),
            PER_PARSER * scale() / 10,
            &mut m,
            |text| {
                let mut s = new_session(g.id).unwrap();
                fuzz::check_record(s.as_mut(), text);
            },
        );
    }
    let mut seeds = Vec::new();
    let mut rng = Rng::seeded(7);
    for _ in 0..20 {
        let mut s = new_session("reversi").unwrap();
        for _ in 0..rng.below(60) {
            let legal = s.legal_moves();
            if legal.is_empty() {
                break;
            }
            let pick = legal[rng.below(legal.len() as u64) as usize].text.clone();
            s.play(&pick).unwrap();
        }
        seeds.push(s.history().join(""));
    }
    seeds.push("f5 d6, c3.d3 pass c4".into());
    let mut m = Mutator::new(301, seeds);
    fuzz(
        "reversi compact records",
        PER_PARSER * scale(),
        &mut m,
        |text| fuzz::check_reversi_record("reversi", text),
    );
}

#[test]
fn game_ids() {
    let mut seeds = fuzz::game_ids();
    seeds.extend([
        "threes-123456".into(),
        "ataxx-FFFF".into(),
        "reversi-".into(),
    ]);
    let mut m = Mutator::new(400, seeds);
    fuzz(
        "game ids",
        PER_PARSER * scale(),
        &mut m,
        fuzz::check_game_id,
    );
}

#[test]
fn ataxx_fen_packed_and_walls() {
    let (positions, _) = samples("ataxx", 9);
    let (walled, _) = samples("ataxx-8124", 10);
    let mut seeds = positions;
    seeds.extend(walled);
    let mut m = Mutator::new(500, seeds.clone());
    fuzz(
        "ataxx FEN",
        PER_PARSER * scale(),
        &mut m,
        fuzz::check_ataxx_fen,
    );

    // Packed forms: 14 bytes, mutated as bytes (any byte value).
    let packed: Vec<Vec<u8>> = seeds
        .iter()
        .filter_map(|p| plyscope::games::ataxx::notation::from_fen(p).ok())
        .map(|p| p.to_packed().to_vec())
        .collect();
    let mut rng = Rng::seeded(501);
    let mut failures = Vec::new();
    for _ in 0..PER_PARSER * scale() {
        let mut b = packed[rng.below(packed.len() as u64) as usize].clone();
        for _ in 0..1 + rng.below(3) {
            let n = b.len();
            match rng.below(4) {
                0 if n > 0 => b[rng.below(n as u64) as usize] = rng.below(256) as u8,
                1 if n > 0 => b[rng.below(n as u64) as usize] ^= 1 << rng.below(8),
                2 => b.insert(rng.below(n as u64 + 1) as usize, rng.below(256) as u8),
                _ if n > 0 => {
                    b.remove(rng.below(n as u64) as usize);
                }
                _ => {}
            }
        }
        if catch_unwind(|| fuzz::check_ataxx_packed(&b)).is_err() {
            failures.push(b);
        }
    }
    assert!(
        failures.is_empty(),
        "packed forms that broke a rule: {failures:?}"
    );

    let codes: Vec<String> = ["0400", "0x7888", "8124", "01A2", "0220", "0000"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut m = Mutator::new(502, codes);
    fuzz(
        "ataxx wall codes",
        PER_PARSER * scale(),
        &mut m,
        fuzz::check_ataxx_walls,
    );
}

#[test]
fn search_settings_json() {
    let seeds = vec![
        r#"{"algorithm":"alphabeta","depth":4}"#.to_string(),
        r#"{"depth":6,"time_ms":500,"node_budget":100000,"transposition_table":true,"tt_bits":20}"#
            .to_string(),
        r#"{"algorithm":"expectimax","chance_cutoff":0.001,"probability_steps":true,"seed":7}"#
            .to_string(),
        r#"{"record_tree":true,"node_cap":200000,"evaluator":"strong","randomness_quotient":3,"branching_limit":4,"move_ordering":false,"iterative_deepening":true,"random_ties":false}"#
            .to_string(),
        "{}".to_string(),
    ];
    let mut m = Mutator::new(600, seeds);
    fuzz(
        "search settings",
        PER_PARSER * scale(),
        &mut m,
        fuzz::check_search_settings,
    );
}

#[test]
fn uai_command_lines() {
    let (positions, moves) = samples("ataxx", 11);
    let mut seeds: Vec<String> = vec![
        "uai",
        "isready",
        "uainewgame",
        "setoption name Evaluator value material",
        "position startpos",
        "position startpos moves f2 a2 g2f4",
        "go depth 5 movetime 100 nodes 1000",
        "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 5",
        "go infinite",
        "go perft 3",
        "d",
        "stop",
    ]
    .into_iter()
    .map(str::to_string)
    .collect();
    for p in positions.iter().take(40) {
        seeds.push(format!("position fen {p}"));
    }
    seeds.push(format!("position startpos moves {}", moves.join(" ")));
    let mut m = Mutator::new(700, seeds);
    let mut state = Uai::default();
    let mut k = 0usize;
    fuzz("uai lines", PER_PARSER * scale(), &mut m, |line| {
        if k % 97 == 0 {
            state = Uai::default();
        }
        k += 1;
        fuzz::check_uai_line(&mut state, line);
    });
}

#[test]
fn uhp_command_lines() {
    use plyscope::protocol::uhp::Uhp;
    let (positions, moves) = samples("hive", 12);
    let mut seeds: Vec<String> = vec![
        "info",
        "newgame",
        "newgame Base+MLP",
        "validmoves",
        "play wS1",
        "play bS1 wS1-",
        "pass",
        "bestmove depth 3",
        "bestmove time 00:00:01",
        "undo 2",
        "options",
        "options get Level",
        "options set BranchingLimit 12",
    ]
    .into_iter()
    .map(str::to_string)
    .collect();
    for p in positions.iter().take(40) {
        seeds.push(format!("newgame {p}"));
    }
    for m in moves.iter().take(200) {
        seeds.push(format!("play {m}"));
    }
    let mut m = Mutator::new(800, seeds);
    let mut state = Uhp::new();
    let mut k = 0usize;
    fuzz("uhp lines", PER_PARSER * scale(), &mut m, |line| {
        if k % 97 == 0 {
            state = Uhp::new();
            let _ = state.handle("newgame Base+MLP");
        }
        k += 1;
        fuzz::check_uhp_line(&mut state, line);
    });
}

/// Inputs the coverage-guided fuzzer (fuzz/, `cargo fuzz run uai` / `uhp`) found, kept as
/// regressions: a command word of control characters came back escaped at six bytes each, over
/// the 400-byte bound on an answer (and UHP quoted the quoted text a second time).
#[test]
fn inputs_found_by_cargo_fuzz() {
    let uai_line = format!("{}\\X", "\u{16}".repeat(57));
    fuzz::check_uai_line(&mut Uai::default(), &uai_line);
    let mut uhp = plyscope::protocol::uhp::Uhp::default();
    fuzz::check_uhp_line(&mut uhp, "+");
    fuzz::check_uhp_line(&mut uhp, &"\u{1c}".repeat(55));
    fuzz::check_uhp_line(&mut uhp, "@");
}
