//! UAI conversations: scripted through `protocol::uai::run`, and one through the `plyscope` binary.

use plyscope::core::Game;
use plyscope::games::ataxx::Ataxx;
use plyscope::protocol::uai::{parse_position, run, score_text, Limits};
use std::io::{BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs a script and returns the output lines.
fn talk(script: &str) -> Vec<String> {
    let mut out = Vec::new();
    run(script.as_bytes(), &mut out);
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove ").map(str::to_string))
        .collect()
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

fn is_legal(fen: &str, mv: &str) -> bool {
    let pos = Ataxx::from_position_text("ataxx", fen).unwrap();
    pos.parse_move(mv)
        .map(|m| pos.clone().play(m).is_ok())
        .unwrap_or(false)
}

#[test]
fn handshake() {
    let lines = talk("uai\nisready\nquit\n");
    assert!(lines[0].starts_with("id name Plyscope"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    assert!(lines.iter().any(|l| l.starts_with("option name Evaluator")));
    let ok = lines.iter().position(|l| l == "uaiok").unwrap();
    let ready = lines.iter().position(|l| l == "readyok").unwrap();
    assert!(ok < ready);
    assert!(errors(&lines).is_empty());
}

#[test]
fn go_depth_prints_info_per_depth_and_a_legal_bestmove() {
    let lines = talk("uainewgame\nposition startpos moves f2 a2\ngo depth 3\n");
    for d in 1..=3 {
        let prefix = format!("info depth {d} score cp ");
        let line = lines
            .iter()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no depth {d} line in {lines:?}"));
        assert!(line.contains(" nodes ") && line.contains(" pv "), "{line}");
    }
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    let mut pos = Ataxx::new();
    for m in ["f2", "a2"] {
        pos.play(pos.parse_move(m).unwrap()).unwrap();
    }
    assert!(is_legal(&pos.position_text(), &best[0]), "{}", best[0]);
    // The last info line's pv starts with the move played.
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let pv = last.split(" pv ").nth(1).unwrap();
    assert_eq!(pv.split_whitespace().next().unwrap(), best[0]);
}

#[test]
fn the_engine_takes_the_big_capture_and_sees_the_win() {
    let lines = talk(
        "position fen 7/7/2xxx2/2x1x2/2xxx2/1o5/6o o 0 1\ngo depth 2\n\
         position fen 7/7/7/7/7/1o5/x6 x 0 1\ngo depth 3\n",
    );
    let best = bestmoves(&lines);
    assert_eq!(best[0], "b2d4", "{lines:?}");
    // Black takes white's only piece: a won game in one move.
    assert!(
        lines.iter().any(|l| l.contains("score mate 1 ")),
        "{lines:?}"
    );
    let pos = Ataxx::from_position_text("ataxx", "7/7/7/7/7/1o5/x6 x 0 1").unwrap();
    let mut after = pos.clone();
    after.play(pos.parse_move(&best[1]).unwrap()).unwrap();
    assert_eq!(after.pieces(1), 0, "{} should take b2", best[1]);
}

#[test]
fn budgets_give_a_bestmove() {
    for go in [
        "go movetime 100",
        "go nodes 3000",
        "go btime 2000 wtime 2000 binc 10 winc 10",
        "go wtime 500 btime 500 movestogo 5",
    ] {
        let lines = talk(&format!("position startpos\n{go}\n"));
        let best = bestmoves(&lines);
        assert_eq!(best.len(), 1, "{go}: {lines:?}");
        assert!(is_legal("x5o/7/7/7/7/7/o5x x 0 1", &best[0]), "{go}");
        assert!(errors(&lines).is_empty(), "{go}: {lines:?}");
    }
}

#[test]
fn walls_and_evaluator_option() {
    let lines = talk(
        "setoption name Evaluator value material\n\
         position fen x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1 moves a7c5\n\
         setoption name Evaluator value strong\n\
         position fen x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1 moves b6\nd\ngo depth 2\n",
    );
    // a7c5 lands on a wall: the position command is refused and the position stays the start.
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(errors(&lines)[0].contains("wall"), "{lines:?}");
    assert!(lines.contains(&"info string fen x5o/1x5/2-1-2/7/2-1-2/7/o5x o 0 1".to_string()));
    let best = bestmoves(&lines);
    assert!(is_legal("x5o/1x5/2-1-2/7/2-1-2/7/o5x o 0 1", &best[0]));
}

#[test]
fn malformed_commands_get_errors_and_the_session_goes_on() {
    let script = "\
position startpos moves f2
position fen x5o/7/7/7/7/7/o5y x 0 1
position startpos moves f2 f2
position startpos moves a1a4
position
position sideways
position fen
go depth x
go depth 0
go fly 3
go depth
setoption name Evaluator value nonsense
setoption name Hash value 16
frobnicate
d
isready
";
    let lines = talk(script);
    let errs = errors(&lines);
    assert_eq!(errs.len(), 13, "{lines:?}");
    assert!(
        errs[0].contains("character 17") && errs[0].contains("'y'"),
        "{}",
        errs[0]
    );
    assert!(errs[1].contains("move 2 (f2)"), "{}", errs[1]);
    assert!(errs[2].contains("move 1 (a1a4)"), "{}", errs[2]);
    assert!(errs[12].contains("unknown command"), "{}", errs[12]);
    // Failed position commands changed nothing: still after f2.
    assert!(
        lines.contains(&"info string fen x5o/7/7/7/7/5x1/o5x o 0 1".to_string()),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "readyok");
    assert!(bestmoves(&lines).is_empty());
}

#[test]
fn bytes_that_are_not_text_are_refused() {
    let mut out = Vec::new();
    run(&b"uai\n\xff\xfe go\nisready\n"[..], &mut out);
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("info string error: the line is not UTF-8 text"),
        "{text}"
    );
    assert!(text.ends_with("readyok\n"), "{text}");
}

#[test]
fn a_finished_game_answers_with_the_null_move() {
    let lines = talk("position fen 7/7/7/-------/-------/xxxxxxx/ooooooo x 0 1\ngo depth 2\n");
    assert_eq!(bestmoves(&lines), ["0000"]);
    assert!(errors(&lines)[0].contains("game is over"));
}

#[test]
fn go_perft_counts_leaves() {
    let lines = talk("position startpos\ngo perft 4\n");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string perft 4 155888 ")),
        "{lines:?}"
    );
}

/// Gives its lines one by one, waiting before those that start with `stop` or `quit`, so that a
/// search is under way when they arrive.
struct Slow {
    lines: Vec<(Duration, String)>,
    next: usize,
}

impl Read for Slow {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some((wait, line)) = self.lines.get(self.next) else {
            return Ok(0);
        };
        std::thread::sleep(*wait);
        let b = line.as_bytes();
        let n = b.len().min(buf.len());
        buf[..n].copy_from_slice(&b[..n]);
        if n == b.len() {
            self.next += 1;
        } else {
            self.lines[self.next].1 = line[n..].to_string();
            self.lines[self.next].0 = Duration::ZERO;
        }
        Ok(n)
    }
}

#[test]
fn stop_ends_an_infinite_search() {
    let ms = Duration::from_millis;
    let input = Slow {
        lines: vec![
            (ms(0), "position startpos\n".into()),
            (ms(0), "go infinite\n".into()),
            (ms(0), "position startpos moves f2\n".into()),
            (ms(300), "isready\n".into()),
            (ms(300), "stop\n".into()),
            (ms(0), "isready\n".into()),
        ],
        next: 0,
    };
    let t = Instant::now();
    let mut out = Vec::new();
    run(BufReader::with_capacity(1, input), &mut out);
    let elapsed = t.elapsed();
    let lines: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    assert!(is_legal("x5o/7/7/7/7/7/o5x x 0 1", &best[0]));
    // readyok came while the search ran (before bestmove), and again after it.
    let first_ready = lines.iter().position(|l| l == "readyok").unwrap();
    let bm = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    assert!(
        first_ready < bm && lines.last().unwrap() == "readyok",
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("info depth 1 ")));
    let errs = errors(&lines);
    assert!(
        errs.len() == 1 && errs[0].contains("send stop first"),
        "{lines:?}"
    );
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
}

#[test]
fn quit_stops_a_search() {
    let ms = Duration::from_millis;
    let input = Slow {
        lines: vec![
            (ms(0), "go\n".into()),
            (ms(200), "quit\n".into()),
            (ms(0), "isready\n".into()),
        ],
        next: 0,
    };
    let mut out = Vec::new();
    run(BufReader::with_capacity(1, input), &mut out);
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.matches("bestmove ").count(), 1, "{text}");
    assert!(
        !text.contains("readyok"),
        "nothing is read after quit: {text}"
    );
}

#[test]
fn helpers() {
    assert_eq!(score_text(123.4), "cp 123");
    assert_eq!(score_text(-50.0), "cp -50");
    assert_eq!(score_text(plyscope::core::WIN_SCORE - 3.0), "mate 2");
    assert_eq!(score_text(-(plyscope::core::WIN_SCORE - 2.0)), "mate -1");
    let l = Limits::parse(&["btime", "60000", "wtime", "1000", "binc", "100"]).unwrap();
    assert_eq!(l.time_for(0), Some(60000 / 30 + 75));
    assert_eq!(l.time_for(1), Some(1000 / 30));
    assert!(Limits::parse(&["movetime"]).is_err());
    assert!(parse_position(&["fen", "x5o/7/7/7/7/7/o5x", "x", "moves", "f2"]).is_ok());
    assert!(parse_position(&["startpos", "f2"]).is_err());
}

#[test]
fn through_the_binary() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plyscope"))
        .arg("uai")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("plyscope runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uai\nisready\nposition startpos moves g1f1\ngo depth 2\nbogus\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("uaiok\n") && text.contains("readyok\n"),
        "{text}"
    );
    assert!(
        text.contains("info string error: unknown command \"bogus\""),
        "{text}"
    );
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{text}");
    assert!(is_legal("x5o/7/7/7/7/7/o4xx o 0 1", &best[0]), "{text}");
}
