//! A game's own search defaults (`AiDefaults::techniques_off` and `techniques_on`): Reversi plays
//! without killer moves and Ataxx with singular extensions unless told otherwise, wherever search
//! options are read (the library, the CLI, the page's JSON options), and every other game keeps
//! every technique's default.

use plyscope::games::{game_info, search_config, search_defaults, CATALOGUE};
use plyscope::search::{SearchConfig, SWITCHES};
use std::process::Command;

#[test]
fn every_technique_a_game_turns_off_is_a_known_switch() {
    for g in CATALOGUE {
        for key in g.ai.techniques_off {
            let mut c = SearchConfig::default();
            assert!(
                c.turn_off(key).is_ok(),
                "{}: {key} is not a technique",
                g.id
            );
        }
        for key in g.ai.techniques_on {
            let mut c = SearchConfig::default();
            assert!(c.turn_on(key).is_ok(), "{}: {key} is not a switch", g.id);
            assert!(
                !SearchConfig::default()
                    .switch_mut(key)
                    .is_some_and(|on| *on),
                "{key} is on by default already"
            );
        }
    }
}

#[test]
fn reversi_plays_without_killers_by_default_and_the_other_games_keep_every_default() {
    assert_eq!(game_info("reversi").unwrap().ai.techniques_off, ["killers"]);
    for id in ["reversi", "reversi-8", "reversi-12"] {
        let c = search_defaults(id);
        assert!(!c.killers, "{id}");
        // Only the killers change.
        assert_eq!(
            SearchConfig { killers: true, ..c },
            SearchConfig::default(),
            "{id}"
        );
    }
    // Ataxx turns singular extensions, internal iterative reduction and the history malus on
    // (all off by default), and nothing else.
    assert_eq!(
        game_info("ataxx").unwrap().ai.techniques_on,
        ["singular_extensions", "internal_reduction", "history_malus"]
    );
    let c = search_defaults("ataxx");
    assert!(c.singular_extensions);
    assert!(c.internal_reduction);
    assert!(c.history_malus);
    assert_eq!(
        SearchConfig {
            singular_extensions: false,
            internal_reduction: false,
            history_malus: false,
            ..c
        },
        SearchConfig::default()
    );
    for g in CATALOGUE
        .iter()
        .filter(|g| g.id != "reversi" && g.id != "ataxx")
    {
        assert!(g.ai.techniques_off.is_empty(), "{}", g.id);
        assert!(g.ai.techniques_on.is_empty(), "{}", g.id);
        assert_eq!(search_defaults(g.id), SearchConfig::default(), "{}", g.id);
    }
    // An unknown game gets the plain defaults.
    assert_eq!(search_defaults("chess"), SearchConfig::default());
}

#[test]
fn options_left_out_take_the_game_default_and_options_given_win() {
    let c = search_config("reversi", r#"{"depth": 6}"#).unwrap();
    assert_eq!((c.depth, c.killers, c.history), (6, false, true));
    assert!(
        search_config("reversi", r#"{"killers": true}"#)
            .unwrap()
            .killers
    );
    assert!(
        !search_config("reversi", r#"{"killers": false}"#)
            .unwrap()
            .killers
    );
    assert!(search_config("ataxx", "{}").unwrap().killers);
    assert!(search_config("ataxx", "{}").unwrap().singular_extensions);
    assert!(
        !search_config("ataxx", r#"{"singular_extensions": false}"#)
            .unwrap()
            .singular_extensions
    );
    let mut c = SearchConfig::default();
    let e = c.turn_on("quiescence").unwrap_err().to_string();
    assert!(e.contains("singular_extensions"), "{e}");
    assert_eq!(
        search_config("hive", "{}").unwrap(),
        SearchConfig::default()
    );
    // Bad options are the same typed errors as before.
    let e = search_config("reversi", r#"{"killer": true}"#).unwrap_err();
    assert!(e.to_string().contains("killer"), "{e}");
    assert!(search_config("reversi", "[1, 2]").is_err());
    assert!(search_config("reversi", r#"{"depth": 0}"#).is_err());
}

#[test]
fn turning_off_an_unknown_technique_is_an_error_naming_the_switches() {
    let mut c = SearchConfig::default();
    let e = c.turn_off("killer").unwrap_err().to_string();
    assert!(e.contains("killers") && e.contains("quiescence"), "{e}");
    assert_eq!(c, SearchConfig::default());
    for key in SWITCHES {
        let mut c = SearchConfig::default();
        c.turn_off(key).unwrap();
        assert!(!*c.switch_mut(key).unwrap(), "{key}");
    }
    let mut c = SearchConfig::default();
    c.turn_off("transposition_table").unwrap();
    c.turn_off("quiescence").unwrap();
    assert_eq!((c.transposition_table, c.quiescence), (Some(false), 0));
    assert!(SearchConfig::from_json_with_off("{}", &["nonsense"]).is_err());
}

fn nodes(args: &[&str]) -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_plyscope"))
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{args:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    v["stats"]["nodes"].as_u64().expect("a node count")
}

#[test]
fn the_cli_searches_reversi_without_killers_unless_asked() {
    // At depth 7 from the start the killers change the tree (1,013 nodes with them, 973 without).
    let base = ["search", "reversi", "--depth", "7", "--seed", "1", "--json"];
    let with = |flag: &str| {
        let mut a = base.to_vec();
        if !flag.is_empty() {
            a.push(flag);
        }
        nodes(&a)
    };
    let (default, off, on) = (with(""), with("--no-killers"), with("--killers"));
    assert_eq!(default, off);
    assert_ne!(default, on);
    // Ataxx keeps its killers: the default is --killers.
    let ataxx = |flag: &str| {
        let mut a = vec!["search", "ataxx", "--depth", "5", "--seed", "1", "--json"];
        if !flag.is_empty() {
            a.push(flag);
        }
        nodes(&a)
    };
    assert_eq!(ataxx(""), ataxx("--killers"));
}
