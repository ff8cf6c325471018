//! UAI conversations: scripted through `protocol::uai::run`, and one through the `plyscope` binary.

mod common;

use common::conversation::Conversation;
use plyscope::core::Game;
use plyscope::games::ataxx::Ataxx;
use plyscope::protocol::driver::SharedBuffer;
use plyscope::protocol::uai::{parse_position, run, score_text, Limits};
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs a script to its end and returns the output. The end of the input stops any search, so
/// scripts that search wait for the answer through [`uai`] instead.
fn talk_bytes(script: &[u8]) -> String {
    let out = SharedBuffer::default();
    run(std::io::Cursor::new(script.to_vec()), out.clone());
    out.text()
}

/// [`talk_bytes`] with text, as lines.
fn talk(script: &str) -> Vec<String> {
    talk_bytes(script.as_bytes())
        .lines()
        .map(str::to_string)
        .collect()
}

/// A UAI conversation with the driver on a thread.
fn uai() -> Conversation {
    Conversation::in_process(run)
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
    // Each search switch with its real default: late-move pruning at every depth is off.
    assert!(lines.contains(&"option name LMR type check default true".to_string()));
    assert!(lines.contains(&"option name LMPAll type check default false".to_string()));
    assert!(lines.contains(&"option name Singular type check default true".to_string()));
    let ok = lines.iter().position(|l| l == "uaiok").unwrap();
    let ready = lines.iter().position(|l| l == "readyok").unwrap();
    assert!(ok < ready);
    assert!(errors(&lines).is_empty());
}

#[test]
fn go_depth_prints_info_per_depth_and_a_legal_bestmove() {
    let mut c = uai();
    c.send("uainewgame");
    c.send("position startpos moves f2 a2");
    c.send("go depth 3");
    let lines = c.wait_prefix("bestmove");
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
    let (all, _) = c.finish();
    assert!(errors(&all).is_empty(), "{all:?}");
}

#[test]
fn the_engine_takes_the_big_capture_and_sees_the_win() {
    let mut c = uai();
    c.send("position fen 7/7/2xxx2/2x1x2/2xxx2/1o5/6o o 0 1");
    c.send("go depth 2");
    let first = c.wait_prefix("bestmove");
    c.send("position fen 7/7/7/7/7/1o5/x6 x 0 1");
    c.send("go depth 3");
    let second = c.wait_prefix("bestmove");
    assert_eq!(bestmoves(&first), ["b2d4"], "{first:?}");
    // Black takes white's only piece: a won game in one move.
    assert!(
        second.iter().any(|l| l.contains("score mate 1 ")),
        "{second:?}"
    );
    let pos = Ataxx::from_position_text("ataxx", "7/7/7/7/7/1o5/x6 x 0 1").unwrap();
    let mut after = pos.clone();
    let best = bestmoves(&second);
    after.play(pos.parse_move(&best[0]).unwrap()).unwrap();
    assert_eq!(after.pieces(1), 0, "{} should take b2", best[0]);
}

#[test]
fn budgets_give_a_bestmove() {
    for go in [
        "go movetime 100",
        "go nodes 3000",
        "go btime 2000 wtime 2000 binc 10 winc 10",
        "go wtime 500 btime 500 movestogo 5",
        // An increment this large overflowed the time sum once; now it is capped to half the clock.
        "go btime 1000 binc 18446744073709551615",
        "go wtime 18446744073709551615 btime 18446744073709551615 nodes 2000",
    ] {
        let mut c = uai();
        c.send("position startpos");
        c.send(go);
        let lines = c.wait_prefix("bestmove");
        let best = bestmoves(&lines);
        assert_eq!(best.len(), 1, "{go}: {lines:?}");
        assert!(is_legal("x5o/7/7/7/7/7/o5x x 0 1", &best[0]), "{go}");
        assert!(errors(&lines).is_empty(), "{go}: {lines:?}");
    }
}

#[test]
fn walls_and_evaluator_option() {
    let mut c = uai();
    c.send(
        "setoption name Evaluator value material\n\
         position fen x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1 moves a7c5\n\
         setoption name Evaluator value strong\n\
         position fen x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1 moves b6\nd\ngo depth 2",
    );
    let lines = c.wait_prefix("bestmove");
    // a7c5 lands on a wall: the position command is refused and the position stays the start.
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(errors(&lines)[0].contains("wall"), "{lines:?}");
    assert!(lines.contains(&"info string fen x5o/1x5/2-1-2/7/2-1-2/7/o5x o 0 1".to_string()));
    let best = bestmoves(&lines);
    assert!(is_legal("x5o/1x5/2-1-2/7/2-1-2/7/o5x o 0 1", &best[0]));
}

#[test]
fn the_net_evaluator_is_an_option_and_searches() {
    let mut c = uai();
    c.send("uai");
    let lines = c.wait_prefix("uaiok");
    let option = lines
        .iter()
        .find(|l| l.starts_with("option name Evaluator"))
        .expect("an Evaluator option");
    assert!(option.contains(" var net"), "{option}");
    assert!(option.contains("default nnue"), "{option}");
    assert!(option.contains(" var nnue"), "{option}");
    c.send("setoption name Evaluator value net\nposition startpos moves f2\ngo depth 3");
    let lines = c.wait_prefix("bestmove");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let best = bestmoves(&lines);
    assert!(is_legal("x5o/7/7/7/7/5x1/o5x o 0 1", &best[0]), "{lines:?}");
    c.send("setoption name Evaluator value nett\nisready");
    let lines = c.wait_prefix("readyok");
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(errors(&lines)[0].contains("net"), "{lines:?}");
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
setoption name Hash value lots
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
    let text = talk_bytes(b"uai\n\xff\xfe go\nisready\n");
    assert!(
        text.contains("info string error: the line is not UTF-8 text"),
        "{text}"
    );
    assert!(text.ends_with("readyok\n"), "{text}");
}

#[test]
fn a_finished_game_answers_with_the_null_move() {
    let mut c = uai();
    c.send("position fen 7/7/7/-------/-------/xxxxxxx/ooooooo x 0 1\ngo depth 2");
    let lines = c.wait_prefix("bestmove");
    assert_eq!(bestmoves(&lines), ["0000"]);
    assert!(errors(&lines)[0].contains("game is over"));
}

#[test]
fn go_perft_counts_leaves() {
    let mut c = uai();
    c.send("position startpos");
    c.send("go perft 4");
    let lines = c.wait_prefix("info string perft");
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("info string perft 4 155888 "),
        "{lines:?}"
    );
}

/// `go perft 12` from the start counts about 10^20 leaves: it only ends when stopped.
#[test]
fn perft_is_stoppable_and_isready_is_answered_while_it_runs() {
    let mut c = uai();
    c.send("position startpos");
    c.send("go perft 12");
    c.send("isready");
    let lines = c.wait_prefix("readyok");
    assert!(
        !lines.iter().any(|l| l.contains("perft")),
        "readyok came at once, while perft ran: {lines:?}"
    );
    c.send("stop");
    let lines = c.wait_prefix("info string perft");
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("info string perft 12 stopped after "),
        "{lines:?}"
    );
    c.send("isready");
    c.wait_prefix("readyok");
    // A perft stopped by the end of the input ends the session too.
    c.send("go perft 12");
    let (lines, _) = c.finish();
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("perft 12 stopped"))
            .count(),
        2,
        "{lines:?}"
    );
}

/// `go infinite`: info lines, `readyok` at once, and a `bestmove` only after `stop`.
#[test]
fn stop_ends_an_infinite_search() {
    let mut c = uai();
    c.send("position startpos");
    c.send("go infinite");
    c.wait_prefix("info depth 1 ");
    c.send("isready");
    let lines = c.wait_prefix("readyok");
    assert!(bestmoves(&lines).is_empty(), "{lines:?}");
    c.send("stop");
    let lines = c.wait_prefix("bestmove");
    assert!(is_legal("x5o/7/7/7/7/7/o5x x 0 1", &bestmoves(&lines)[0]));
    c.send("isready");
    c.wait_prefix("readyok");
    let (all, _) = c.finish();
    assert_eq!(bestmoves(&all).len(), 1, "{all:?}");
    assert!(errors(&all).is_empty(), "{all:?}");
}

/// As in Stockfish, `position` and `go` during a search stop it first; it prints its `bestmove`
/// for the position it searched, and the new command then applies. `go depth 64` from the start
/// never ends on its own within a test's time.
#[test]
fn position_and_go_during_a_search_stop_it_first() {
    let mut c = uai();
    c.send("position startpos");
    c.send("go depth 64");
    c.wait_prefix("info depth 1 ");
    c.send("position startpos moves f2");
    let lines = c.wait_prefix("bestmove");
    assert!(
        is_legal("x5o/7/7/7/7/7/o5x x 0 1", &bestmoves(&lines)[0]),
        "the stopped search answers for its own position: {lines:?}"
    );
    c.send("d");
    c.wait_for("the new position", |l| {
        l == "info string fen x5o/7/7/7/7/5x1/o5x o 0 1"
    });
    c.send("go infinite");
    c.wait_prefix("info depth 1 ");
    c.send("go depth 1");
    let first = c.wait_prefix("bestmove");
    let second = c.wait_prefix("bestmove");
    let after_f2 = "x5o/7/7/7/7/5x1/o5x o 0 1";
    assert!(is_legal(after_f2, &bestmoves(&first)[0]), "{first:?}");
    assert!(is_legal(after_f2, &bestmoves(&second)[0]), "{second:?}");
    assert!(
        second.iter().any(|l| l.starts_with("info depth 1 ")),
        "{second:?}"
    );
    let (all, _) = c.finish();
    assert!(errors(&all).is_empty(), "{all:?}");
}

#[test]
fn quit_stops_a_search() {
    let mut c = uai();
    c.send("go");
    c.wait_prefix("info depth 1 ");
    c.send("quit");
    c.send("isready");
    let (lines, _) = c.finish();
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
    assert!(
        !lines.iter().any(|l| l == "readyok"),
        "nothing is read after quit: {lines:?}"
    );
}

#[test]
fn words_after_a_command_are_warned_about_and_unknown_commands_are_cut() {
    let huge = "x".repeat(1 << 20);
    let lines = talk(&format!(
        "isready now
uai please
{huge}
stop it
isready
"
    ));
    assert_eq!(
        lines[0],
        "info string warning: ignored \"now\" after isready"
    );
    assert_eq!(lines[1], "readyok");
    assert_eq!(
        lines[2],
        "info string warning: ignored \"please\" after uai"
    );
    let err = lines
        .iter()
        .find(|l| l.contains("unknown command"))
        .unwrap();
    assert!(
        err.len() < 300 && err.contains("(1048576 bytes in all)"),
        "{}",
        &err[..err.len().min(400)]
    );
    assert!(lines.contains(&"info string warning: ignored \"it\" after stop".to_string()));
    assert_eq!(lines.last().unwrap(), "readyok");
    assert!(lines.iter().all(|l| l.len() < 300));
}

#[test]
fn a_line_too_long_to_read_is_dropped_and_the_session_goes_on() {
    let mut script = vec![b'x'; plyscope::protocol::driver::MAX_LINE_BYTES + 10];
    script.extend_from_slice(b"\nisready\n");
    let text = talk_bytes(&script);
    assert!(
        text.starts_with(&format!(
            "info string error: the line is too long ({} bytes",
            plyscope::protocol::driver::MAX_LINE_BYTES + 10
        )),
        "{}",
        &text[..text.len().min(300)]
    );
    assert!(text.ends_with("readyok\n"), "{text}");
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
fn time_management_never_overflows_nor_spends_the_whole_clock() {
    let max = u64::MAX.to_string();
    let l = Limits::parse(&["btime", "1000", "binc", &max]).unwrap();
    assert_eq!(l.time_for(0), Some(500), "half the clock at most");
    let l = Limits::parse(&["btime", &max, "binc", &max, "movestogo", "1"]).unwrap();
    assert_eq!(l.time_for(0), Some(u64::MAX - 50));
    let l = Limits::parse(&["wtime", "1000", "winc", "10000", "movestogo", "1"]).unwrap();
    assert_eq!(
        l.time_for(1),
        Some(950),
        "the last move before the control: all but the margin"
    );
    let l = Limits::parse(&["btime", "0", "binc", &max]).unwrap();
    assert_eq!(l.time_for(0), Some(1));
    for left in [0u64, 1, 49, 50, 51, 1000, 60_000, u64::MAX / 3, u64::MAX] {
        for inc in [0u64, 1, 10_000, u64::MAX / 2, u64::MAX] {
            for mtg in [None, Some(0u64), Some(1), Some(2), Some(40), Some(u64::MAX)] {
                let l = Limits {
                    btime: Some(left),
                    binc: Some(inc),
                    movestogo: mtg,
                    ..Limits::default()
                };
                let t = l.time_for(0).unwrap();
                assert!(t >= 1);
                if left > 100 && mtg != Some(1) && mtg != Some(0) {
                    assert!(t <= left / 2, "{left} {inc} {mtg:?}: {t}");
                }
                assert!(
                    t <= left.saturating_sub(50).max(1),
                    "{left} {inc} {mtg:?}: {t}"
                );
            }
        }
    }
}

/// Through the binary: a search under way when the input ends is stopped, prints its `bestmove`
/// and the process exits (`go depth 64` would otherwise run for hours).
#[test]
fn the_end_of_the_input_stops_a_search_and_exits() {
    let mut c = Conversation::binary(&["uai"]);
    c.send("position startpos");
    c.send("go depth 64");
    c.wait_prefix("info depth 1 ");
    c.send("isready");
    c.wait_prefix("readyok");
    let (lines, took) = c.finish();
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
    // Reported, not asserted: how long the exit took after the input closed.
    eprintln!("exit after the end of the input: {took:?}");
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
    // `quit` arrives at once and stops the search: it still answers with a legal move.
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{text}");
    assert!(is_legal("x5o/7/7/7/7/7/o4xx o 0 1", &best[0]), "{text}");
}

/// The nodes count of the last `info depth` line of a search.
fn last_nodes(lines: &[String]) -> u64 {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line in {lines:?}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "nodes").unwrap();
    words[at + 1].parse().unwrap()
}

/// One search per `go`, with iterative deepening (one info line per depth, counting nodes from
/// the start), the table kept across the depths and across the moves of a game, and emptied by
/// `uainewgame`: the same search again finds its entries (fewer nodes), a new game does not (the
/// same nodes as the first time). A bad line in between is refused and changes nothing.
#[test]
fn the_table_is_kept_across_moves_and_emptied_by_a_new_game() {
    let mut c = uai();
    let search = |c: &mut Conversation| {
        c.send("position startpos moves f2 a2");
        c.send("go depth 5");
        c.wait_prefix("bestmove")
    };
    c.send("uainewgame");
    let first = search(&mut c);
    let mut previous = 0;
    for d in 1..=5 {
        let line = first
            .iter()
            .find(|l| l.starts_with(&format!("info depth {d} ")))
            .unwrap_or_else(|| panic!("no depth {d} line in {first:?}"));
        let n = last_nodes(std::slice::from_ref(line));
        assert!(n > previous, "nodes count up over the depths: {first:?}");
        previous = n;
    }
    let again = search(&mut c);
    assert!(
        last_nodes(&again) < last_nodes(&first),
        "kept table: {} nodes, then {}",
        last_nodes(&first),
        last_nodes(&again)
    );
    c.send("go depth zero");
    c.send("isready");
    let bad = c.wait_prefix("readyok");
    assert_eq!(errors(&bad).len(), 1, "{bad:?}");
    c.send("uainewgame");
    let fresh = search(&mut c);
    assert_eq!(last_nodes(&fresh), last_nodes(&first), "{fresh:?}");
    assert_eq!(bestmoves(&fresh), bestmoves(&first));
    c.send("quit");
    let (all, _) = c.finish();
    assert_eq!(errors(&all).len(), 1, "{all:?}");
}
