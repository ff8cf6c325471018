//! A scripted UHP session against `plyscope::protocol::uhp`: every command, bad commands and illegal
//! moves (answered with `err` / `invalidmove`, the game left as it was), and every answer ending in
//! `ok`.

mod common;

use plyscope::protocol::uhp::{parse_clock, run, Reply, Uhp};

/// Runs the engine on `script` and returns its answers, one `Vec` of lines per `ok`.
fn session(script: &str) -> Vec<Vec<String>> {
    let out = plyscope::protocol::driver::SharedBuffer::default();
    run(std::io::Cursor::new(script.to_string()), out.clone());
    let text = out.text();
    let mut answers = Vec::new();
    let mut cur = Vec::new();
    for l in text.lines() {
        if l == "ok" {
            answers.push(std::mem::take(&mut cur));
        } else {
            cur.push(l.to_string());
        }
    }
    assert!(cur.is_empty(), "every answer ends with ok: {text}");
    answers
}

#[test]
fn scripted_session_with_bad_input() {
    let script = "\
info
play wS1
newgame
validmoves
play wQ
play wS1
play bS1 wS1-
validmoves
play wS1 bS1-
play wZ9
play
frobnicate
bestmove depth 2
bestmove depth 0
bestmove time 00:00:xx
bestmove
undo
undo 5
undo 1
newgame Base+MLP
validmoves
newgame Base;InProgress;Black[1];wS1
newgame Base+Q
newgame Base;InProgress;White[1];wS1
options
options set BranchingLimit 12
options set BranchingLimit many
options get Level
options set Level hard
pass
";
    let a = session(script);
    let mut i = 0;
    let mut next = || {
        i += 1;
        a[i - 1].clone()
    };
    // The greeting `run` prints at the start, then `info`.
    let greet = next();
    assert!(greet[0].starts_with("id Plyscope"));
    let info = next();
    assert_eq!(info[1], "Mosquito;Ladybug;Pillbug");
    // play before newgame
    assert!(next()[0].starts_with("err "));
    assert_eq!(next(), vec!["Base;NotStarted;White[1]"]);
    assert_eq!(next(), vec!["wS1;wB1;wG1;wA1"]);
    // The tournament opening: no queen first.
    assert!(next()[0].starts_with("invalidmove "));
    assert_eq!(next(), vec!["Base;InProgress;Black[1];wS1"]);
    assert_eq!(next(), vec!["Base;InProgress;White[2];wS1;bS1 wS1-"]);
    let moves = next();
    assert_eq!(moves[0].split(';').count(), 15, "{moves:?}");
    // Touching the enemy: illegal; the game is unchanged.
    assert!(next()[0].starts_with("invalidmove "));
    assert!(next()[0].starts_with("invalidmove "));
    assert!(next()[0].starts_with("err "));
    assert!(next()[0].starts_with("err unknown command"));
    let best = next();
    assert_eq!(best.len(), 1);
    assert!(
        moves[0].split(';').any(|m| m == best[0]),
        "{best:?} among {moves:?}"
    );
    assert!(next()[0].starts_with("err bad depth"));
    assert!(next()[0].starts_with("err bad time"));
    assert!(next()[0].starts_with("err bestmove needs"));
    assert_eq!(next(), vec!["Base;InProgress;Black[1];wS1"]);
    assert!(next()[0].starts_with("err cannot undo 5"));
    assert_eq!(next(), vec!["Base;NotStarted;White[1]"]);
    assert_eq!(next(), vec!["Base+MLP;NotStarted;White[1]"]);
    assert_eq!(next()[0].split(';').count(), 7);
    assert_eq!(next(), vec!["Base;InProgress;Black[1];wS1"]);
    assert!(next()[0].starts_with("err unknown game type"));
    assert!(
        next()[0].starts_with("err "),
        "a GameString whose turn disagrees"
    );
    let opts = next();
    assert!(
        opts.iter().any(|l| l.starts_with("BranchingLimit;int;")),
        "{opts:?}"
    );
    assert!(opts.iter().any(|l| l.starts_with("Level;enum;")));
    assert_eq!(next(), vec!["BranchingLimit;int;12;0;0;500"]);
    assert!(next()[0].starts_with("err bad value"));
    assert!(next()[0].starts_with("Level;enum;expert;"));
    assert!(next()[0].starts_with("Level;enum;hard;"));
    // The last good game is still there: Black to move has moves, so passing is illegal.
    assert!(next()[0].starts_with("invalidmove "));
    assert_eq!(i, a.len(), "one answer per command");
}

#[test]
fn state_is_unchanged_by_bad_commands() {
    let mut u = Uhp::new();
    let _ = u.handle("newgame Base");
    let _ = u.handle("play wG1");
    let before = u.game().unwrap().clone();
    for bad in [
        "play bG1",
        "play bG1 wG1",
        "play wG2 wG1-",
        "undo x",
        "undo 9",
        "play bQ wG1-",
        "bestmove nodes 3",
        "pass now",
        "perft 0",
        "perft x",
    ] {
        match u.handle(bad) {
            Reply::Lines(l) => assert!(
                l[0].starts_with("err") || l[0].starts_with("invalidmove"),
                "{bad}: {l:?}"
            ),
            Reply::Search(..) => panic!("{bad} started a search"),
            Reply::Perft(..) => panic!("{bad} started a perft"),
        }
        assert_eq!(u.game().unwrap(), &before, "{bad} changed the game");
    }
}

#[test]
fn clock_parsing() {
    assert_eq!(parse_clock("00:00:01"), Some(1));
    assert_eq!(parse_clock("01:02:03"), Some(3723));
    assert_eq!(parse_clock("1:2:3"), Some(3723));
    for bad in [
        "",
        "00:60:00",
        "00:00",
        "aa:00:00",
        "00:00:00:00",
        "-1:00:00",
    ] {
        assert_eq!(parse_clock(bad), None, "{bad}");
    }
}

/// On the shared driver: a `bestmove` search runs while the input is read; `info` is answered at
/// once, and `stop` ends the search, which answers with a legal move and `ok`. `bestmove depth 64`
/// never ends by itself in a test's time. The end of the input stops a search too.
#[test]
fn a_search_is_stopped_and_info_answered_while_it_runs() {
    let mut c = common::conversation::Conversation::in_process(run);
    c.wait_prefix("ok");
    c.send("newgame Base");
    c.wait_prefix("ok");
    c.send("validmoves");
    let moves = c.wait_prefix("ok");
    c.send("bestmove depth 64");
    c.send("info");
    let info = c.wait_prefix("ok");
    assert!(
        info[0].starts_with("id Plyscope"),
        "info answered during the search: {info:?}"
    );
    c.send("stop");
    let best = c.wait_prefix("ok");
    assert_eq!(best.len(), 2, "{best:?}");
    assert!(
        moves[0].split(';').any(|m| m == best[0]),
        "{best:?} among {moves:?}"
    );
    c.send("bestmove depth 64");
    let (lines, _) = c.finish();
    assert_eq!(lines.last().map(String::as_str), Some("ok"), "{lines:?}");
}

/// `perft N` (nokamute's extension) counts depth by depth in the background; `stop` (or any other
/// command) ends it at once with a line saying so, then `ok`. Depth 12 from the start would take
/// days: only the stop ends it in a test's time.
#[test]
fn perft_counts_and_is_stopped() {
    let mut c = common::conversation::Conversation::in_process(run);
    c.wait_prefix("ok");
    c.send("newgame Base");
    c.wait_prefix("ok");
    c.send("perft 3");
    let lines = c.wait_prefix("ok");
    assert_eq!(lines.last().map(String::as_str), Some("ok"));
    let counts: Vec<(String, String)> = lines[..lines.len() - 1]
        .iter()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w.len(), 3, "depth count ms: {l}");
            (w[0].to_string(), w[1].to_string())
        })
        .collect();
    let want =
        [("1", "4"), ("2", "96"), ("3", "1440")].map(|(a, b)| (a.to_string(), b.to_string()));
    assert_eq!(counts, want);
    c.send("perft 12");
    c.send("info");
    let info = c.wait_prefix("ok");
    assert!(info[0].starts_with("id Plyscope"), "{info:?}");
    c.send("stop");
    let stopped = c.wait_prefix("ok");
    let n = stopped.len();
    assert!(
        n >= 2 && stopped[n - 2].starts_with("perft stopped at depth "),
        "{stopped:?}"
    );
    c.send("validmoves");
    let moves = c.wait_prefix("ok");
    assert_eq!(
        moves[0].split(';').count(),
        4,
        "the game is unchanged: {moves:?}"
    );
}

/// The searches of one game share a transposition table: the first `bestmove` after `newgame`
/// (or after an option is set) starts from an empty one, later ones keep its entries, and a
/// search leaves its table for the next.
#[test]
fn searches_of_one_game_keep_the_table() {
    use plyscope::protocol::uhp::best_move;
    let mut e = Uhp::new();
    let search = |e: &mut Uhp| match e.handle("bestmove depth 2") {
        Reply::Search(pos, cfg, table, keep) => (pos, cfg, table, keep),
        other => panic!("expected a search, got {other:?}"),
    };
    e.handle("newgame Base+MLP;InProgress;White[3];wG1;bG1 wG1-;wQ -wG1;bQ bG1-");
    let (pos, cfg, table, keep) = search(&mut e);
    assert!(!keep, "the first search of a game starts afresh");
    assert!(!table.is_filled());
    let m = best_move(&pos, &cfg, None, &table, keep).expect("a move");
    assert!(table.is_filled(), "the search left its table");
    e.handle(&format!("play {m}"));
    let (_, _, table2, keep) = search(&mut e);
    assert!(keep, "a later search of the same game keeps the table");
    assert!(table2.is_filled(), "and it is the same table");
    e.handle("options set Evaluator queens");
    assert!(!search(&mut e).3, "a changed option starts afresh");
    assert!(search(&mut e).3);
    e.handle("newgame Base");
    assert!(!search(&mut e).3, "newgame starts afresh");
}
