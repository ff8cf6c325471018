//! Textbook trees: the small abstract game trees that books use to teach minimax, alpha-beta and
//! expectimax, as a game. A position is a whole tree whose leaves hold values someone typed, and
//! the node the game has reached; a move picks a child. MAX (the first player) and MIN alternate
//! by level; chance nodes pick a child with the probabilities written. Leaves are finished games
//! worth their value (from MAX's view).
//!
//! The text is the tree itself (see its `notation` module): `3 12 8 | 2 4 6 | 14 5 2` is the two-ply tree
//! whose root value is 3; `((3 5) (6 9)) ((1 2) (0 -1))` nests deeper; `(<0.9:2, 0.1:3> <0.9:1,
//! 0.1:4>)` has chance nodes. Inner nodes are named A, B, C... breadth-first, and the moves from
//! node B are b1, b2, ... (as in Russell and Norvig's figures).
//!
//! Named variants carry the classic examples (`docs/textbook.md`).

mod eval;
mod notation;
mod view;

pub use eval::TextbookEval;

use super::{AiDefaults, GameInfo, Playable};
use crate::core::{
    Error, Game, Outcome, ParseMoveError, ParsePositionError, PerftConvention, PlayerId, Turn,
};
use std::sync::Arc;

/// Most nodes a tree may have.
pub const MAX_NODES: usize = 10_000;
/// Most levels below the root.
pub const MAX_DEPTH: usize = 32;
/// Most children of one node.
pub const MAX_CHILDREN: usize = 64;

/// The classic examples, by variant id: (id, name, tree).
pub const EXAMPLES: &[(&str, &str, &str)] = &[
    (
        "textbook",
        "Two-ply tree (Russell and Norvig): root value 3",
        "3 12 8 | 2 4 6 | 14 5 2",
    ),
    (
        "textbook-cuts",
        "Alpha-beta cuts in the second and third groups",
        "5 6 7 | 4 8 9 | 3 1 2",
    ),
    (
        "textbook-deep",
        "Three plies: a cut-off two levels down",
        "((3 5) (6 9)) ((1 2) (0 -1))",
    ),
    (
        "textbook-chance",
        "Expectimax: two chance nodes (0.9 / 0.1)",
        "(<0.9:2, 0.1:3> <0.9:1, 0.1:4>)",
    ),
];

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// MAX (player 0) chooses.
    Max,
    /// MIN (player 1) chooses.
    Min,
    /// Nature chooses, with the probabilities written.
    Chance,
    /// A finished game worth this much to MAX.
    Leaf(f64),
}

/// One node of a tree.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecNode {
    /// What it is.
    pub kind: Kind,
    /// Its children, in the order written.
    pub children: Vec<u32>,
    /// A chance node's outcome probabilities, one per child.
    pub probs: Vec<f64>,
}

/// A whole tree, shared by every position of a game.
#[derive(Debug, PartialEq)]
pub struct Spec {
    /// The game id (with its variant).
    pub id: String,
    /// Every node; `root` is the root.
    pub nodes: Vec<SpecNode>,
    /// The root's index.
    pub root: u32,
    /// Each node's parent (the root's is itself).
    pub parent: Vec<u32>,
    /// Each node's level (the root is 0).
    pub depth: Vec<u32>,
    /// Each inner node's name (A, B, ... breadth-first); empty for leaves.
    pub labels: Vec<String>,
    /// The tree written back (bracketed form).
    pub text: String,
}

/// The name of the `k`-th inner node: A ... Z, AA, AB ...
fn letters(mut k: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'A' + (k % 26) as u8);
        if k < 26 {
            break;
        }
        k = k / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

impl Spec {
    /// Completes a parsed tree: MAX and MIN by level of players' nodes, parents, levels, names.
    fn new(id: String, mut nodes: Vec<SpecNode>, root: u32) -> Spec {
        let n = nodes.len();
        let mut parent = vec![root; n];
        let mut depth = vec![0u32; n];
        let mut labels = vec![String::new(); n];
        // Breadth-first: players alternate over players' levels; chance nodes do not count.
        let mut queue = std::collections::VecDeque::new();
        queue.push_back((root, 0u32));
        let mut named = 0;
        while let Some((i, players_above)) = queue.pop_front() {
            let kind = nodes[i as usize].kind;
            let below = match kind {
                Kind::Max | Kind::Min => {
                    nodes[i as usize].kind = if players_above % 2 == 0 {
                        Kind::Max
                    } else {
                        Kind::Min
                    };
                    players_above + 1
                }
                _ => players_above,
            };
            if !matches!(kind, Kind::Leaf(_)) {
                labels[i as usize] = letters(named);
                named += 1;
            }
            for &c in &nodes[i as usize].children.clone() {
                parent[c as usize] = i;
                depth[c as usize] = depth[i as usize] + 1;
                queue.push_back((c, below));
            }
        }
        let mut spec = Spec {
            id,
            nodes,
            root,
            parent,
            depth,
            labels,
            text: String::new(),
        };
        let mut text = String::new();
        notation::write_node(&spec, root, &mut text);
        spec.text = text;
        spec
    }

    /// The name of inner node `i` (its value for a leaf).
    pub fn label(&self, i: u32) -> String {
        match self.nodes[i as usize].kind {
            Kind::Leaf(v) => notation::number(v),
            _ => self.labels[i as usize].clone(),
        }
    }

    /// The leaves below node `i` (itself if it is one), in the order written.
    pub fn leaves_below(&self, i: u32, out: &mut Vec<u32>) {
        let n = &self.nodes[i as usize];
        if n.children.is_empty() {
            out.push(i);
        }
        for &c in &n.children {
            self.leaves_below(c, out);
        }
    }
}

/// A child's index among its parent's children (its move).
pub type Child = u8;

/// A position: the tree and the node reached.
#[derive(Debug, Clone)]
pub struct Textbook {
    spec: Arc<Spec>,
    at: u32,
    /// The zobrist key: a hash of the path from the root, so equal trees written differently
    /// give equal keys.
    key: u64,
}

fn mix(x: u64) -> u64 {
    // splitmix64's finaliser.
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of a node's `child`-th child (0-based), from the node's key.
fn step(key: u64, child: usize) -> u64 {
    mix(key ^ (child as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D))
}

impl Textbook {
    /// The root of the tree written `text` (see the module's notation), as game `id`.
    pub fn from_tree(id: &str, text: &str) -> Result<Self, ParsePositionError> {
        let (spec, at) = notation::read(id, text)?;
        let mut t = Textbook {
            spec: Arc::new(spec),
            at,
            key: 0,
        };
        t.key = t.zobrist_from_scratch();
        Ok(t)
    }

    /// The tree.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// The node reached.
    pub fn node(&self) -> u32 {
        self.at
    }

    /// The node reached, as a tree node.
    fn here(&self) -> &SpecNode {
        &self.spec.nodes[self.at as usize]
    }

    /// The child numbers (1-based) from the root to the node reached.
    fn path(&self) -> Vec<usize> {
        let mut p = Vec::new();
        let mut i = self.at;
        while i != self.spec.root {
            let up = self.spec.parent[i as usize];
            let k = self.spec.nodes[up as usize]
                .children
                .iter()
                .position(|&c| c == i)
                .unwrap_or(0);
            p.push(k + 1);
            i = up;
        }
        p.reverse();
        p
    }
}

impl Game for Textbook {
    type Move = Child;

    fn game_id(&self) -> String {
        self.spec.id.clone()
    }

    fn player_name(&self, player: PlayerId) -> &'static str {
        if player == 0 {
            "max"
        } else {
            "min"
        }
    }

    fn turn(&self) -> Turn {
        match self.here().kind {
            Kind::Max => Turn::Player(0),
            Kind::Min => Turn::Player(1),
            Kind::Chance => Turn::Chance,
            Kind::Leaf(_) => Turn::Terminal,
        }
    }

    fn legal_moves(&self, out: &mut Vec<Child>) {
        out.clear();
        if matches!(self.here().kind, Kind::Max | Kind::Min) {
            out.extend((0..self.here().children.len()).map(|k| k as Child));
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Child, f64)>) {
        out.clear();
        let n = self.here();
        if n.kind == Kind::Chance {
            out.extend(n.probs.iter().enumerate().map(|(k, &p)| (k as Child, p)));
        }
    }

    fn play_unchecked(&mut self, m: Child) {
        if let Some(&c) = self.here().children.get(m as usize) {
            self.at = c;
            self.key = step(self.key, m as usize);
        }
    }

    fn outcome_is_score(&self) -> bool {
        true
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.here().kind {
            Kind::Leaf(v) => Some(Outcome::Score(v)),
            _ => None,
        }
    }

    fn zobrist(&self) -> u64 {
        self.key
    }

    fn zobrist_from_scratch(&self) -> u64 {
        self.path().iter().fold(0, |k, &c| step(k, c - 1))
    }

    fn parse_move(&self, text: &str) -> Result<Child, ParseMoveError> {
        let t = text.trim();
        let label = self.spec.labels[self.at as usize].to_ascii_lowercase();
        let n = self.here().children.len();
        let expected = || {
            if n == 0 {
                "no move: this node is a leaf".to_string()
            } else {
                format!("a child of node {}: {label}1 to {label}{n} (or 1 to {n})", label.to_uppercase())
            }
        };
        let digits = t
            .strip_prefix(label.as_str())
            .filter(|_| !label.is_empty())
            .unwrap_or(t);
        match digits.parse::<usize>() {
            Ok(k) if k >= 1 && k <= MAX_CHILDREN => Ok((k - 1) as Child),
            _ => Err(ParseMoveError::new(text, expected())),
        }
    }

    fn format_move(&self, m: Child) -> String {
        format!(
            "{}{}",
            self.spec.labels[self.at as usize].to_ascii_lowercase(),
            m as usize + 1
        )
    }

    fn position_text(&self) -> String {
        let path = self.path();
        if path.is_empty() {
            self.spec.text.clone()
        } else {
            let p: Vec<String> = path.iter().map(|k| k.to_string()).collect();
            format!("{} @ {}", self.spec.text, p.join("."))
        }
    }

    fn from_position_text(variant: &str, text: &str) -> Result<Self, ParsePositionError> {
        let id = if variant.is_empty() {
            "textbook"
        } else {
            variant
        };
        Textbook::from_tree(id, text)
    }
}

impl Playable for Textbook {
    type Eval = TextbookEval;

    const INFO: GameInfo = GameInfo {
        id: "textbook",
        name: "Textbook trees",
        variants: &[
            ("textbook-cuts", "Alpha-beta cuts in two groups"),
            ("textbook-deep", "Three plies, a deep cut-off"),
            ("textbook-chance", "Expectimax with chance nodes"),
        ],
        chance: false,
        players: 2,
        ai: AiDefaults::new(3, 1000),
    };

    fn new_game(id: &str) -> Result<Self, Error> {
        match EXAMPLES.iter().find(|e| e.0 == id) {
            Some(&(id, _, tree)) => Textbook::from_tree(id, tree).map_err(Error::ParsePosition),
            None => Err(Error::bad_option(
                "game",
                id,
                "textbook, textbook-cuts, textbook-deep or textbook-chance (or paste a tree as \
                 the position)",
            )),
        }
    }

    fn evaluator_names() -> &'static [&'static str] {
        &["leaves"]
    }

    fn evaluator(name: &str) -> Result<TextbookEval, Error> {
        match name {
            "" | "leaves" => Ok(TextbookEval),
            _ => Err(Error::bad_option("evaluator", name, "leaves")),
        }
    }

    fn perft_convention() -> PerftConvention {
        PerftConvention::FinishedCountsZero
    }
}
