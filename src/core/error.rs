//! Typed errors. Every message says where the input failed and what was expected, so it can be shown
//! to a person as it is.

use std::fmt;

/// How many characters of a text given by a caller an error message shows.
pub const SHOWN_CHARS: usize = 60;

/// `text` quoted for a message and cut to [`SHOWN_CHARS`] characters (saying how long it was), so
/// that a megabyte of bad input never comes back whole in an error.
///
/// ```
/// use plyscope::core::shown;
/// assert_eq!(shown("d3"), "\"d3\"");
/// assert!(shown(&"x".repeat(10_000)).ends_with("... (10000 bytes in all)"));
/// // Escaped characters count at their escaped length.
/// assert!(shown(&"\u{16}".repeat(60)).len() < 160);
/// ```
pub fn shown(text: &str) -> String {
    // Escapes grow a character up to ten bytes (`\u{10ffff}`): the cut also bounds the escaped
    // length, so that 60 control characters do not come back as 360 bytes.
    let mut out = String::from("\"");
    let mut buf = [0u8; 4];
    for (n, c) in text.chars().enumerate() {
        let quoted = format!("{:?}", &*c.encode_utf8(&mut buf));
        let escaped = &quoted[1..quoted.len() - 1];
        if n == SHOWN_CHARS || out.len() - 1 + escaped.len() > 2 * SHOWN_CHARS {
            out.push_str(&format!("\"... ({} bytes in all)", text.len()));
            return out;
        }
        out.push_str(escaped);
    }
    out.push('"');
    out
}

/// A move text that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseMoveError {
    /// The text as given.
    pub text: String,
    /// What a move looks like in this game, e.g. `"a cell such as d3, or pass"`.
    pub expected: String,
}

impl ParseMoveError {
    /// A new error for `text`, which should have been `expected`.
    pub fn new(text: &str, expected: impl Into<String>) -> Self {
        ParseMoveError {
            text: text.to_string(),
            expected: expected.into(),
        }
    }
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read move {}: expected {}",
            shown(&self.text),
            self.expected
        )
    }
}

impl std::error::Error for ParseMoveError {}

/// A well-formed move that may not be played in the current position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move in the game's notation.
    pub mv: String,
    /// Why it may not be played.
    pub reason: String,
}

impl IllegalMove {
    /// A new error for move `mv`.
    pub fn new(mv: impl Into<String>, reason: impl Into<String>) -> Self {
        IllegalMove {
            mv: mv.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", self.mv, self.reason)
    }
}

impl std::error::Error for IllegalMove {}

/// A position text that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsePositionError {
    /// Character offset (0-based) in the text where reading failed.
    pub at: usize,
    /// What was found there (a character, a word, or "end of text").
    pub found: String,
    /// What was expected there.
    pub expected: String,
}

impl ParsePositionError {
    /// A new error at character offset `at` of `text`; `found` is taken from the text itself.
    pub fn at(text: &str, at: usize, expected: impl Into<String>) -> Self {
        let found = match text.chars().nth(at) {
            Some(c) => format!("{c:?}"),
            None => "end of text".to_string(),
        };
        ParsePositionError {
            at,
            found,
            expected: expected.into(),
        }
    }

    /// A new error about the position as a whole (a rule it breaks rather than a bad character).
    pub fn whole(problem: impl Into<String>) -> Self {
        ParsePositionError {
            at: 0,
            found: "the whole position".to_string(),
            expected: problem.into(),
        }
    }
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad position text at character {}: found {}, expected {}",
            self.at + 1,
            self.found,
            self.expected
        )
    }
}

impl std::error::Error for ParsePositionError {}

/// Any error the engine reports to its callers (CLI, browser, protocols).
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// A move text could not be read.
    ParseMove(ParseMoveError),
    /// A move may not be played.
    Illegal(IllegalMove),
    /// A position text could not be read.
    ParsePosition(ParsePositionError),
    /// The game id is not one we know.
    UnknownGame {
        /// The id as given.
        id: String,
        /// The ids we know.
        known: Vec<String>,
    },
    /// An option has a bad value.
    BadOption {
        /// The option's name.
        name: String,
        /// The value as given.
        value: String,
        /// What is accepted.
        expected: String,
    },
    /// An operation that does not apply now (undo with no history, search at a finished game...).
    NotNow(String),
}

impl Error {
    /// A [`Error::BadOption`].
    pub fn bad_option(name: &str, value: impl fmt::Display, expected: impl Into<String>) -> Self {
        Error::BadOption {
            name: name.to_string(),
            value: value.to_string(),
            expected: expected.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::ParseMove(e) => e.fmt(f),
            Error::Illegal(e) => e.fmt(f),
            Error::ParsePosition(e) => e.fmt(f),
            Error::UnknownGame { id, known } => {
                write!(
                    f,
                    "unknown game {}: expected one of {}",
                    shown(id),
                    known.join(", ")
                )
            }
            Error::BadOption {
                name,
                value,
                expected,
            } => {
                write!(
                    f,
                    "bad value {} for {name}: expected {expected}",
                    shown(value)
                )
            }
            Error::NotNow(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for Error {}

impl From<ParseMoveError> for Error {
    fn from(e: ParseMoveError) -> Self {
        Error::ParseMove(e)
    }
}

impl From<IllegalMove> for Error {
    fn from(e: IllegalMove) -> Self {
        Error::Illegal(e)
    }
}

impl From<ParsePositionError> for Error {
    fn from(e: ParsePositionError) -> Self {
        Error::ParsePosition(e)
    }
}
