//! The command-line tool: outputs, and bad arguments answered with a message and exit status 2.

use std::process::Command;

fn plyscope(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_plyscope"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn perft_json_prints_one_object_per_depth() {
    let (code, out, _) = plyscope(&["perft", "tictactoe", "4", "--json"]);
    assert_eq!(code, 0);
    let nodes: Vec<u64> = out
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["game"], "tictactoe");
            assert!(v["ms"].as_f64().unwrap() >= 0.0);
            v["nodes"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(nodes, [9, 72, 504, 3024]);
}

#[test]
fn search_writes_a_tree_document_and_a_json_report() {
    let dir = std::env::temp_dir().join(format!("plyscope-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tree.json");
    let (code, out, err) = plyscope(&[
        "search",
        "tictactoe",
        "--position",
        "XX--O---- O",
        "--depth",
        "5",
        "--tree",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(report["move"], "c1", "O must block");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"version\":2"), "v2 is the default");
    let doc = plyscope::tree::Tree::from_json(&text).unwrap().head;
    assert_eq!(doc.chosen.unwrap().mv, "c1");
    assert_eq!(doc.stats.nodes, report["stats"]["nodes"].as_u64().unwrap());
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn tree_format_v1_on_request_and_a_byte_budget_that_says_what_it_dropped() {
    let dir = std::env::temp_dir().join(format!("plyscope-cli-v1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let v1 = dir.join("v1.json");
    let (code, _, err) = plyscope(&[
        "search",
        "tictactoe",
        "--depth",
        "9",
        "--tree",
        v1.to_str().unwrap(),
        "--tree-format",
        "v1",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: plyscope::tree::TreeDocument =
        serde_json::from_str(&std::fs::read_to_string(&v1).unwrap()).unwrap();
    assert_eq!(doc.version, 1);
    // Reversi at depth 7 records far more than 1 MB of v1 JSON: the budget cuts it and says so.
    let small = dir.join("small.json");
    let (code, out, err) = plyscope(&[
        "search",
        "reversi",
        "--depth",
        "7",
        "--tree",
        small.to_str().unwrap(),
        "--tree-max-mb",
        "1",
        "--tree-format",
        "v1",
    ]);
    assert_eq!(code, 0, "{err}");
    let len = std::fs::metadata(&small).unwrap().len();
    assert!(len <= 1 << 20, "{len} bytes written under a 1 MB budget");
    assert!(out.contains("not recorded"), "{out}");
    assert!(out.contains("apart from the search"), "{out}");
    let t = plyscope::tree::Tree::from_json(&std::fs::read_to_string(&small).unwrap()).unwrap();
    assert!(t.head.stats.truncated);
    let (code, _, err) = plyscope(&["search", "tictactoe", "--tree", "-", "--tree-format", "v3"]);
    assert_eq!(code, 2);
    assert!(err.contains("v1 or v2"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn an_unwritable_tree_path_fails_before_the_search() {
    // Depth 64 on the 16x16 board without a budget would run for hours: only a check made before
    // the search lets this command end.
    let mut child = Command::new(env!("CARGO_BIN_EXE_plyscope"))
        .args([
            "search",
            "reversi-16",
            "--depth",
            "64",
            "--tree",
            "/nonexistent-dir/tree.json",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert_eq!(status.code(), Some(2));
            break;
        }
        if start.elapsed().as_secs() > 120 {
            child.kill().ok();
            panic!("the search ran instead of failing on the path");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot write the tree to /nonexistent-dir/tree.json"),
        "{err}"
    );
}

#[test]
fn moves_option_plays_before_searching() {
    let (code, out, err) =
        plyscope(&["search", "tictactoe", "--moves", "a1 b2 b1", "--depth", "6"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("best move   c1"), "{out}");
}

#[test]
fn bad_arguments_exit_2_with_a_clear_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["perft", "chess", "3"], "unknown game \"chess\""),
        (&["perft", "tictactoe", "zero"], "bad depth"),
        (&["perft", "tictactoe"], "needs a game and a depth"),
        (&["search", "tictactoe", "--depth", "99"], "depth"),
        (&["search", "tictactoe", "--algo", "magic"], "magic"),
        (
            &["search", "tictactoe", "--position", "XX--Q---- O"],
            "character 5",
        ),
        (
            &["search", "tictactoe", "--moves", "a1 a1"],
            "--moves: move 2 of 2 (\"a1\"): illegal move a1",
        ),
        (
            &["search", "tictactoe", "--moves", "a1 b1 zz c3"],
            "--moves: move 3 of 4 (\"zz\"): cannot read move",
        ),
        (&["search", "tictactoe", "--nodes", "0"], "node"),
        (&["search", "tictactoe", "--time-ms", "0"], "time_ms"),
        (
            &["perft", "ataxx", "5", "--nodes", "0"],
            "--nodes must be at least 1",
        ),
        (
            &["perft", "ataxx", "5", "--time-ms", "0"],
            "--time-ms must be at least 1",
        ),
        (
            &["search", "tictactoe", "--frobnicate"],
            "unexpected argument",
        ),
        (&["search", "tictactoe", "--depth"], "needs a value"),
        (&["fly"], "unknown command"),
    ];
    for (args, needle) in cases {
        let (code, out, err) = plyscope(args);
        assert_eq!(code, 2, "{args:?} should exit 2; stdout {out}");
        assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
}

#[test]
fn threes_bench_prints_the_seed_bots_table_and_checks_jobs() {
    let (code, out, err) = plyscope(&[
        "threes-bench",
        "--games",
        "3",
        "--seed",
        "9",
        "--depth",
        "1",
        "--jobs",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3 games from seed 9"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("game ")).count(), 3);
    for row in [
        "Low score:",
        "Median score:",
        "High score:",
        "at least a 6144:",
        "Mean time per move:",
    ] {
        assert!(out.contains(row), "{row} missing from:\n{out}");
    }
    let (code, _, err) = plyscope(&["threes-bench", "--jobs", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("--jobs must be at least 1"), "{err}");
}

/// Starts the binary with its standard output a pipe whose reading end is closed at once, as
/// `| head -1` does after its line; returns the exit status and standard error.
fn with_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_plyscope"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    (status.code(), err)
}

/// `plyscope perft ataxx 20 | head -1`: perft to depth 20 would run for years, so only the closed
/// pipe can end it; it ends quietly with status 0 (a panic would give 101 and a message).
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    for args in [
        &["perft", "ataxx", "20"][..],
        &["help"],
        &["search", "reversi", "--depth", "5", "--tree", "-"],
        &["games"],
    ] {
        let (code, err) = with_closed_stdout(args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

/// Perft to depth 20 never ends on its own in a test's time: a budget must stop it, and the depth
/// it stopped says so.
#[test]
fn perft_stops_within_its_budget() {
    let (code, out, err) = plyscope(&["perft", "ataxx", "20", "--nodes", "2000000"]);
    assert_eq!(code, 0, "{err}");
    let last = out.lines().last().unwrap();
    assert!(last.contains("stopped by --nodes 2000000"), "{out}");
    // Depths 1 to 4 (155,888 leaves at depth 4) fit in the budget and are counted exactly.
    assert!(out.contains(" 155888 "), "{out}");
    let (code, out, err) = plyscope(&["perft", "ataxx", "20", "--time-ms", "300", "--json"]);
    assert_eq!(code, 0, "{err}");
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["stopped"], "--time-ms 300", "{out}");
    assert!(last["leaves_counted"].as_u64().is_some(), "{out}");
}

#[test]
fn mcts_searches_with_its_options_and_refuses_bad_ones() {
    let (code, out, err) = plyscope(&[
        "search",
        "connect4",
        "--algo",
        "mcts",
        "--iterations",
        "500",
        "--exploration",
        "0.8",
        "--playout",
        "random",
        "--no-priors",
        "--seed",
        "4",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["stats"]["leaves"], 500, "one playout an iteration");
    assert!(v["value_text"]["text"]
        .as_str()
        .unwrap()
        .ends_with("% expected score"));
    for (args, says) in [
        (&["--playout", "greedy"][..], "random or heuristic"),
        (&["--iterations", "0"][..], "mcts_iterations"),
        (&["--exploration", "-1"][..], "mcts_exploration"),
    ] {
        let mut all = vec!["search", "tictactoe", "--algo", "mcts"];
        all.extend_from_slice(args);
        let (code, _, err) = plyscope(&all);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn mcts_match_plays_mcts_against_alphabeta_and_tallies() {
    let (code, out, err) = plyscope(&[
        "mcts-match",
        "tictactoe",
        "--games",
        "2",
        "--time-ms",
        "5",
        "--seed",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().filter(|l| l.starts_with("game ")).count(), 2);
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("mcts: ") && last.contains("against alphabeta"),
        "{last}"
    );
    let (code, _, err) = plyscope(&["mcts-match", "tictactoe", "--games", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("at least 1"), "{err}");
}

#[test]
fn state_plays_checked_moves_and_reports_the_result_and_legal_moves() {
    let (code, out, err) = plyscope(&["state", "tictactoe", "--moves", "a1 b2 b1", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["legal"].as_array().map(|a| a.len()), Some(6), "{out}");
    assert!(v["outcome"].is_null(), "{out}");
    assert_eq!(v["moves"].as_array().map(|a| a.len()), Some(3), "{out}");
    // A won game: the result, no legal moves, and a further move refused by its number.
    let (code, out, err) = plyscope(&["state", "tictactoe", "--moves", "a1 b2 a2 b3 a3", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert!(
        v["outcome"].as_str().is_some_and(|o| o.contains("wins")),
        "{out}"
    );
    assert_eq!(v["legal"].as_array().map(|a| a.len()), Some(0), "{out}");
    let (code, _, err) = plyscope(&["state", "tictactoe", "--moves", "a1 b2 a2 b3 a3 c3"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("move 6 of 6") && err.contains("game is over"),
        "{err}"
    );
    // Khet: a step is applied to the position text; an illegal move is named with its reason.
    let (code, out, err) = plyscope(&["state", "khet", "--moves", "h2-h3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("to move     red"), "{out}");
    assert!(out.contains("legal       "), "{out}");
    let (code, _, err) = plyscope(&["state", "khet", "--moves", "h2-h3 a8ccw j1-i1"]);
    assert_eq!(code, 2);
    assert!(err.contains("move 3 of 3"), "{err}");
}

#[test]
fn train_ataxx_and_the_net_evaluator_refuse_bad_options_and_files() {
    let dir = std::env::temp_dir().join(format!("plyscope-net-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, b"PLYATXN1 not a network").unwrap();
    let bad = bad.to_str().unwrap();
    let out = dir.join("out.bin");
    let out = out.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["train-ataxx", "--out", out, "--model", "nett"],
            "bad value \"nett\" for --model: expected patterns, net or nnue",
        ),
        (
            &[
                "train-ataxx",
                "--out",
                out,
                "--model",
                "net",
                "--hidden",
                "0",
            ],
            "--hidden must be from 1 to 128",
        ),
        (
            &["train-ataxx", "--out", out, "--model", "net", "--lr", "x"],
            "bad value \"x\" for --lr",
        ),
        (
            &["train-ataxx", "--out", out, "--samples", bad],
            "not an Ataxx samples file",
        ),
        (
            &["search", "ataxx", "--eval", "nett", "--depth", "1"],
            "net, nnue, patterns, strong, material or mobility",
        ),
    ];
    for (args, needle) in cases {
        let (code, stdout, err) = plyscope(args);
        assert_eq!(code, 2, "{args:?} should exit 2; stdout {stdout}");
        assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
    // A network file that does not read: the evaluator is refused with the file and the reason.
    let run = Command::new(env!("CARGO_BIN_EXE_plyscope"))
        .args(["search", "ataxx", "--eval", "net", "--depth", "1"])
        .env("PLYSCOPE_ATAXX_NET", bad)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains("PLYSCOPE_ATAXX_NET") && err.contains("header"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    // The shipped network searches.
    let (code, stdout, err) = plyscope(&["search", "ataxx", "--eval", "net", "--depth", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(!stdout.is_empty());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn datagen_and_the_nnue_trainer_write_files_and_refuse_bad_options() {
    let dir = std::env::temp_dir().join(format!("plyscope-nnue-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (data, net, bad) = (path("data.bin"), path("nnue.bin"), path("bad.bin"));
    std::fs::write(&bad, b"PLYATXNU not a network").unwrap();
    // Two small runs, the second appended to the first's file.
    for seed in ["3", "4"] {
        let (code, _, err) = plyscope(&[
            "datagen-ataxx",
            "--out",
            &data,
            "--games",
            "2",
            "--nodes",
            "300",
            "--eval",
            "strong",
            "--seed",
            seed,
            "--append",
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("2 games"), "{err}");
    }
    let bytes = std::fs::read(&data).unwrap();
    let positions = plyscope::games::ataxx::datagen::decode(&bytes).unwrap();
    assert!(positions.len() > 40, "{}", positions.len());
    let (code, _, err) = plyscope(&[
        "train-ataxx",
        "--model",
        "nnue",
        "--data",
        &data,
        "--hidden",
        "16",
        "--epochs",
        "2",
        "--batch",
        "64",
        "--out",
        &net,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("epoch 2: loss"), "{err}");
    let w = plyscope::games::ataxx::nnue::NnueWeights::decode(&std::fs::read(&net).unwrap());
    assert_eq!(w.unwrap().hidden, 16);
    // The trained file plays through the environment variable.
    let run = Command::new(env!("CARGO_BIN_EXE_plyscope"))
        .args(["search", "ataxx", "--eval", "nnue", "--depth", "3"])
        .env("PLYSCOPE_ATAXX_NNUE", &net)
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // The report: no fit, one line per network with its loss and the positions of each phase,
    // which add up to the data's.
    let report = [
        "train-ataxx",
        "--model",
        "nnue",
        "--data",
        &data,
        "--report",
    ];
    fn report_of<'a>(prefix: &[&'a str], nets: &'a str) -> Vec<&'a str> {
        [prefix, &[nets]].concat()
    }
    let report_net = report_of(&report, &net);
    let (report_bad, report_none) = (report_of(&report, &bad), report_of(&report, ","));
    let (code, stdout, err) = plyscope(&report_net);
    assert_eq!(code, 0, "{err}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with(&format!("{net}: ")))
        .unwrap_or_else(|| panic!("no line for {net} in {stdout}"));
    let counts: usize = line
        .split(" (")
        .skip(1)
        .map(|c| c.split(')').next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(counts, positions.len(), "{line}");
    assert_eq!(line.matches(" (").count(), 7, "{line}");
    let cases: &[(&[&str], &str)] = &[
        (&report_bad, "not an Ataxx nnue file"),
        (
            &["train-ataxx", "--data", &data, "--report", &net],
            "--report needs --model nnue",
        ),
        (
            &["train-ataxx", "--model", "nnue", "--report", &net],
            "--report needs --data",
        ),
        (&report_none, "--report needs N1,N2"),
        (&["datagen-ataxx", "--games", "1"], "needs --out FILE"),
        (
            &["datagen-ataxx", "--out", &bad, "--nodes", "5"],
            "--nodes must be at least 100",
        ),
        (
            &["datagen-ataxx", "--out", &bad, "--walls", "2"],
            "--walls must be a share",
        ),
        (
            &[
                "datagen-ataxx",
                "--out",
                &bad,
                "--random-min",
                "9",
                "--random-max",
                "3",
            ],
            "min <= max",
        ),
        (
            &["datagen-ataxx", "--out", &bad, "--append"],
            "not an Ataxx self-play data file",
        ),
        (
            &["train-ataxx", "--model", "nnue", "--out", &net],
            "needs --data",
        ),
        (
            &[
                "train-ataxx",
                "--model",
                "nnue",
                "--out",
                &net,
                "--data",
                &bad,
            ],
            "not an Ataxx self-play data file",
        ),
        (
            &[
                "train-ataxx",
                "--model",
                "nnue",
                "--out",
                &net,
                "--data",
                &data,
                "--hidden",
                "20",
            ],
            "--hidden must be a multiple of 16",
        ),
        (
            &[
                "train-ataxx",
                "--model",
                "nnue",
                "--out",
                &net,
                "--data",
                &data,
                "--buckets",
                "3",
            ],
            "--buckets must be 1 or 7",
        ),
    ];
    for (args, needle) in cases {
        let (code, stdout, err) = plyscope(args);
        assert_eq!(code, 2, "{args:?} should exit 2; stdout {stdout}");
        assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
    // A network file that does not read: the evaluator is refused with the file and the reason.
    let run = Command::new(env!("CARGO_BIN_EXE_plyscope"))
        .args(["search", "ataxx", "--eval", "nnue", "--depth", "1"])
        .env("PLYSCOPE_ATAXX_NNUE", &bad)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains("PLYSCOPE_ATAXX_NNUE") && err.contains("header"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
