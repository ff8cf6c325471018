//! The page knows no game: no file under www/ names a game id of the catalogue, except the
//! renderers' geometry switch (which names geometries, never games), the examples, and each game's
//! own panels under `www/games/<id>/` (which may name their own game). Paths to those panels
//! (`games/<id>/...`, `./<id>/...`, in imports and the offline cache list) and the names of the example files
//! (`tictactoe-alphabeta`, from `www/examples/`) are not names of a game.

use plyscope::games::CATALOGUE;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("js" | "mjs" | "html" | "css" | "json" | "webmanifest")
        ) {
            out.push(path);
        }
    }
}

/// Whether `text` has `word` (lower case) as a whole word outside a path's folder (`/<word>/`).
fn names(text: &str, word: &str) -> bool {
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let at = from + i;
        let end = at + word.len();
        let whole =
            (at == 0 || !ident(bytes[at - 1])) && (end == bytes.len() || !ident(bytes[end]));
        // A folder in a path (`games/<id>/walls.js`, `./<id>/walls.js` in www/games/panels.js):
        // the per-game panels' own folder.
        let in_path = text[..at].ends_with('/') && text[end..].starts_with('/');
        if whole && !in_path {
            return true;
        }
        from = end;
    }
    false
}

#[test]
fn no_file_under_www_names_a_game_outside_the_allowed_places() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let www = root.join("www");
    let mut all = Vec::new();
    files(&www, &mut all);
    assert!(all.len() > 10, "the page's files are found");
    // The example files' names (without `.json`), longest first: a page may name an example.
    let mut examples: Vec<String> = all
        .iter()
        .filter(|p| p.starts_with(www.join("examples")))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .filter(|s| s.contains('-'))
        .collect();
    examples.sort_by_key(|s| std::cmp::Reverse(s.len()));
    let mut found = Vec::new();
    for path in &all {
        let rel = path
            .strip_prefix(&www)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel == "board/index.js"
            || rel.starts_with("examples/")
            || rel == "tree-format.schema.json"
        {
            continue;
        }
        let mut text = std::fs::read_to_string(path).unwrap();
        for e in &examples {
            text = text.replace(e.as_str(), "<example>");
        }
        for entry in CATALOGUE {
            let own_panel = rel.starts_with(&format!("games/{}/", entry.id));
            if own_panel {
                continue;
            }
            for (n, line) in text.lines().enumerate() {
                if names(line, entry.id) {
                    found.push(format!(
                        "www/{rel}:{}: names {:?}: {}",
                        n + 1,
                        entry.id,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the page names games (the engine's board view should say it instead):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_finds_a_name_and_skips_panel_paths() {
    assert!(names("if (game === 'ataxx') {", "ataxx"));
    assert!(names("adapters.threes", "threes"));
    assert!(!names("import './games/ataxx/walls.js';", "ataxx"));
    assert!(!names("from './ataxx/tutorial.js';", "ataxx"));
    assert!(names("'/ataxx'", "ataxx"));
    assert!(!names("ataxxish", "ataxx"));
    assert!(!names("The Threes card", "threes"));
}

#[test]
fn the_games_the_catalogue_marks_for_the_page_are_in_it() {
    assert!(CATALOGUE.iter().any(|g| g.id == plyscope::games::FEATURED));
    for id in plyscope::games::WHOLE_TREE {
        assert!(CATALOGUE.iter().any(|g| g.id == *id), "{id}");
    }
}
