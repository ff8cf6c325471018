//! The board view: everything the page draws and takes input from, made by the engine for every
//! state. The page holds no board model and no rules of its own; it reads this.
//!
//! A game describes its state with [`Viewable::board_view`] (geometry, cells, pieces in hand,
//! scores) and each move with [`Viewable::move_view`] (its text, kind and the cells it involves);
//! [`view_of`] puts them together with the legal moves and the last move. Nothing here assumes two
//! players: hands and scores are lists, pieces name their owner by index.
//!
//! Coordinates are [`Coord`]s: on square boards `x` counts columns from the left and `y` rows from
//! the top as the board is drawn; on hex boards they are axial coordinates (`x` = q, `y` = r) with
//! no bounds, and only the cells listed exist.

use super::{Game, PlayerId, Turn};
use serde::Serialize;

/// A cell's coordinates (see the module documentation for their meaning per geometry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Coord {
    /// Column (square boards) or q (hex, axial).
    pub x: i32,
    /// Row from the top (square boards) or r (hex, axial).
    pub y: i32,
}

impl Coord {
    /// The coordinates `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Self {
        Coord { x, y }
    }
}

/// How cells are laid out, which picks the page's renderer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Geometry {
    /// A `width` x `height` grid of square cells; every cell is listed in [`BoardView::cells`].
    Square {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// A square grid whose pieces face a direction ([`Piece::orientation`]) and may rotate.
    OrientedSquare {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// Hexagonal cells in axial coordinates, unbounded: only the listed cells (and the cells the
    /// moves name) exist.
    Hex {
        /// Whether the hexes have a flat top (axial q runs along the flat edge).
        flat_top: bool,
    },
    /// A grid of sliding tiles (cards that move when the board is swiped).
    Tiles {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// A game tree drawn level by level (the textbook trees): only the nodes are listed as cells,
    /// at `x` from 0 to `width - 1` across and `y` (the level, the root's 0) from 0 to `height - 1`
    /// down; [`BoardView::paths`] holds the edges (kind `"edge"`, or `"path"` on the way from the
    /// root to the node reached), from a parent's centre to each child's.
    Tree {
        /// Positions across (a node's `x` is below `width`).
        width: u32,
        /// Levels.
        height: u32,
    },
}

/// One piece. Pieces in a cell form a stack, bottom first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Piece {
    /// The player who owns it; `None` for a neutral piece (a Threes card).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<PlayerId>,
    /// What it is, in the game's words (`"disc"`, `"x"`, `"card"`, `"queen"`, `"pyramid"`).
    pub kind: String,
    /// The way it faces, in degrees clockwise from up (0, 90, 180, 270...), for oriented pieces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orientation: Option<u16>,
    /// Text drawn on it (a card's value, `"Q"`, `"A2"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

impl Piece {
    /// A piece of `kind` owned by `owner`, with no orientation and no label.
    pub fn owned(owner: PlayerId, kind: &str) -> Self {
        Piece {
            owner: Some(owner),
            kind: kind.to_string(),
            orientation: None,
            label: None,
        }
    }

    /// A neutral piece of `kind` with a label (a Threes card: kind `"card"`, label `"12"`).
    pub fn neutral(kind: &str, label: impl Into<String>) -> Self {
        Piece {
            owner: None,
            kind: kind.to_string(),
            orientation: None,
            label: Some(label.into()),
        }
    }

    /// The same piece with this label.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// The same piece facing `degrees` clockwise from up.
    pub fn facing(mut self, degrees: u16) -> Self {
        self.orientation = Some(degrees);
        self
    }
}

/// One cell and what stands on it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// Where it is.
    pub at: Coord,
    /// The stack of pieces on it, bottom first (empty for an empty cell).
    pub pieces: Vec<Piece>,
    /// A wall or hole: nothing may ever stand here.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub blocked: bool,
    /// A cell reserved to one player (Khet's tinted squares).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserved: Option<PlayerId>,
}

impl Cell {
    /// An open cell holding `pieces` (bottom first).
    pub fn new(at: Coord, pieces: Vec<Piece>) -> Self {
        Cell {
            at,
            pieces,
            blocked: false,
            reserved: None,
        }
    }

    /// A wall: a cell nothing may stand on.
    pub fn wall(at: Coord) -> Self {
        Cell {
            blocked: true,
            ..Cell::new(at, Vec::new())
        }
    }
}

/// A kind of piece a player holds off the board (Hive's pieces in hand).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HandPiece {
    /// The piece as it would stand on the board.
    pub piece: Piece,
    /// How many of them are left.
    pub count: u32,
}

/// A piece in a player's hand, as a move names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct HandSlot {
    /// Whose hand.
    pub player: PlayerId,
    /// The index in that player's list of [`BoardView::hands`].
    pub index: u32,
}

/// What a move does, so that the page can offer and draw it without knowing the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// A new piece goes on `to` (from the supply, or from a hand when `hand` is set).
    Place,
    /// A piece grows a copy of itself on `to` from a neighbour (Ataxx's one-step move).
    Clone,
    /// The piece on `from` moves to `to`.
    Move,
    /// The piece on `from` jumps to `to`, leaving `from` empty (Ataxx's two-step move).
    Jump,
    /// The piece on `from` turns by `rotation` degrees.
    Rotate,
    /// The pieces on `from` and `to` change places.
    Swap,
    /// The player passes.
    Pass,
    /// Everything slides in `direction` (Threes).
    Swipe,
    /// Nature's move at a chance turn (a card dealt on `to`).
    Chance,
}

/// One move as the page offers it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveView {
    /// The move in the game's notation: what the page sends back to play it.
    pub text: String,
    /// What it does.
    pub kind: MoveKind,
    /// The cell it starts from (a moved, jumped, rotated or swapped piece).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<Coord>,
    /// The cell it ends on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<Coord>,
    /// The piece in hand it places.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<HandSlot>,
    /// Other cells a person may pick first to reach this move (Ataxx: the pieces a clone grows
    /// from; Hive: the Pillbug that throws a piece).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<Coord>,
    /// The turn in degrees clockwise (negative: anticlockwise), for a rotation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation: Option<i16>,
    /// The direction of a swipe (`"up"`, `"down"`, `"left"`, `"right"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direction: Option<&'static str>,
    /// The probability of a chance outcome.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prob: Option<f64>,
}

impl MoveView {
    /// A move of `kind` written `text`, involving no cell yet (add them with the builders).
    pub fn new(text: impl Into<String>, kind: MoveKind) -> Self {
        MoveView {
            text: text.into(),
            kind,
            from: None,
            to: None,
            hand: None,
            sources: Vec::new(),
            rotation: None,
            direction: None,
            prob: None,
        }
    }

    /// The same move starting from `from`.
    pub fn from(mut self, from: Coord) -> Self {
        self.from = Some(from);
        self
    }

    /// The same move ending on `to`.
    pub fn to(mut self, to: Coord) -> Self {
        self.to = Some(to);
        self
    }

    /// The same move placing the piece in `hand`.
    pub fn hand(mut self, hand: HandSlot) -> Self {
        self.hand = Some(hand);
        self
    }

    /// The same move, reachable by picking any of `sources` first.
    pub fn sources(mut self, sources: Vec<Coord>) -> Self {
        self.sources = sources;
        self
    }

    /// The same move turning by `degrees` clockwise.
    pub fn rotation(mut self, degrees: i16) -> Self {
        self.rotation = Some(degrees);
        self
    }

    /// The same move swiping towards `direction`.
    pub fn direction(mut self, direction: &'static str) -> Self {
        self.direction = Some(direction);
        self
    }
}

/// A player's score in its unit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Score {
    /// Whose score; `None` for a score of the whole game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<PlayerId>,
    /// The number.
    pub value: f64,
    /// What it counts (`"discs"`, `"pieces"`, `"points"`).
    pub unit: &'static str,
    /// How people read it (`"12 discs"`, `"1,234 points"`).
    pub text: String,
}

/// Something to show beside the board that is neither a cell nor a score (Threes' next card).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Info {
    /// What it is (`"next"`).
    pub label: String,
    /// Its value in words.
    pub text: String,
    /// A piece to draw for it, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<Piece>,
}

/// A cell to mark, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Highlight {
    /// The cell.
    pub at: Coord,
    /// Why (`"captured"`, `"check"`, `"destroyed"`), for the renderer's colour.
    pub kind: &'static str,
}

/// A point in cell units: the centre of cell `(x, y)` is `(x, y)`; a board's edge is half a cell
/// beyond its outer centres.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Point {
    /// Across.
    pub x: f64,
    /// Down (square boards) or r (hex).
    pub y: f64,
}

/// A straight piece of a drawn path (one leg of Khet's laser beam).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Segment {
    /// Where it starts.
    pub from: Point,
    /// Where it ends.
    pub to: Point,
    /// What it is (`"beam"`), for the renderer's colour.
    pub kind: &'static str,
}

/// Labels along a square board's edges (`a b c ...`, `1 2 3 ...`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Labels {
    /// One label per column, left to right.
    pub columns: Vec<String>,
    /// One label per row, top to bottom.
    pub rows: Vec<String>,
}

impl Labels {
    /// Columns `a b c ...` and rows numbered from 1 at the top (`rows_up`: from 1 at the bottom).
    pub fn letters_numbers(width: u32, height: u32, rows_up: bool) -> Self {
        Labels {
            columns: (0..width)
                .map(|x| {
                    let c = (b'a' + (x % 26) as u8) as char;
                    c.to_string()
                })
                .collect(),
            rows: (0..height)
                .map(|y| (if rows_up { height - y } else { y + 1 }).to_string())
                .collect(),
        }
    }
}

/// Everything the page draws for one state, and every move it may send back.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardView {
    /// How the cells are laid out.
    pub geometry: Geometry,
    /// The look the game asks for (`"discs"`, `"marks"`, `"tiles"`, `"slots"`); a renderer that does not know
    /// it uses its default.
    pub style: &'static str,
    /// Labels along the edges, for square boards.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Labels>,
    /// Each player's colour (CSS), for games whose pieces have colours of their own (Connect
    /// Four's red and yellow); empty: the renderer's colours for the look.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub colours: Vec<&'static str>,
    /// The player to move, if a player is to move.
    pub to_move: Option<PlayerId>,
    /// The cells: every cell of a square board, row by row from the top-left; on a hex board the
    /// occupied cells.
    pub cells: Vec<Cell>,
    /// Pieces in hand, one list per player (empty lists in games without hands).
    pub hands: Vec<Vec<HandPiece>>,
    /// Scores (none in games without one).
    pub scores: Vec<Score>,
    /// Other things to show beside the board.
    pub info: Vec<Info>,
    /// The move that led here, as it was offered in the previous state.
    pub last: Option<MoveView>,
    /// Cells to mark.
    pub highlights: Vec<Highlight>,
    /// Paths to draw (Khet's laser beam).
    pub paths: Vec<Segment>,
    /// Every legal move (or chance outcome, with its probability) of this state.
    pub moves: Vec<MoveView>,
}

impl BoardView {
    /// A view with this geometry and look and nothing else; the game fills in the rest.
    pub fn new(geometry: Geometry, style: &'static str) -> Self {
        BoardView {
            geometry,
            style,
            labels: None,
            colours: Vec::new(),
            to_move: None,
            cells: Vec::new(),
            hands: Vec::new(),
            scores: Vec::new(),
            info: Vec::new(),
            last: None,
            highlights: Vec::new(),
            paths: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// The cell at `at`, if listed.
    pub fn cell(&self, at: Coord) -> Option<&Cell> {
        self.cells.iter().find(|c| c.at == at)
    }

    /// The move written `text`, if it is legal here.
    pub fn find_move(&self, text: &str) -> Option<&MoveView> {
        self.moves.iter().find(|m| m.text == text)
    }
}

/// A game that can show itself: what [`view_of`] needs.
pub trait Viewable: Game {
    /// The state's board: geometry, look, labels, cells, hands, scores, info, highlights and paths.
    /// `moves` and `last` are left empty ([`view_of`] fills them).
    fn board_view(&self) -> BoardView;

    /// One move (or chance outcome) of this state: its text, kind and the cells it involves.
    fn move_view(&self, m: Self::Move) -> MoveView;
}

/// The full view of `pos`: its board, every legal move (chance outcomes with their probability),
/// the player to move, and `last`, the move that led here given with the state it was played from.
pub fn view_of<G: Viewable>(pos: &G, last: Option<(&G, G::Move)>) -> BoardView {
    let mut view = pos.board_view();
    view.to_move = match pos.turn() {
        Turn::Player(p) => Some(p),
        _ => None,
    };
    view.moves = match pos.turn() {
        Turn::Player(_) => {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            moves.into_iter().map(|m| pos.move_view(m)).collect()
        }
        Turn::Chance => {
            let mut outcomes = Vec::new();
            pos.chance_outcomes(&mut outcomes);
            outcomes
                .into_iter()
                .map(|(m, p)| MoveView {
                    prob: Some(p),
                    ..pos.move_view(m)
                })
                .collect()
        }
        Turn::Terminal => Vec::new(),
    };
    view.last = last.map(|(before, m)| {
        let mut mv = before.move_view(m);
        if before.turn() == Turn::Chance {
            let mut outcomes = Vec::new();
            before.chance_outcomes(&mut outcomes);
            mv.prob = outcomes.iter().find(|o| o.0 == m).map(|o| o.1);
        }
        mv
    });
    view
}
