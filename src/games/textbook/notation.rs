//! The text of a textbook tree: reading it (with errors that say where and what was expected) and
//! writing it back.
//!
//! ```text
//! tree   := group ('|' group)*  [ '@' path ]
//! group  := node+                    several groups: the root's children, one inner node each
//! node   := number                   a leaf and its value (from MAX's view)
//!         | '(' node+ ')'            a player's node; MAX and MIN alternate by level
//!         | '<' prob ':' node (',' prob ':' node)* '>'   a chance node; probabilities add up to 1
//! path   := index ('.' index)*       the current node: 1-based child numbers from the root
//! ```
//!
//! Nodes in a list are separated by spaces or commas. One group of several nodes is the root's
//! children (`3 12 8` is a MAX node over three leaves); one group of one bracketed node is that
//! node (`((3 12 8) (2 4 6))`). The text written back is always the bracketed form.

use super::{Kind, Spec, SpecNode, MAX_CHILDREN, MAX_DEPTH, MAX_NODES};
use crate::core::ParsePositionError;

struct Reader<'a> {
    text: &'a str,
    chars: Vec<char>,
    at: usize,
    nodes: Vec<SpecNode>,
}

impl<'a> Reader<'a> {
    fn err(&self, at: usize, expected: impl Into<String>) -> ParsePositionError {
        ParsePositionError::at(self.text, at, expected)
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_space(&mut self, commas: bool) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() || (commas && c == ',') {
                self.at += 1;
            } else {
                break;
            }
        }
    }

    fn push(&mut self, kind: Kind, start: usize) -> Result<u32, ParsePositionError> {
        if self.nodes.len() >= MAX_NODES {
            return Err(self.err(start, format!("a tree of at most {MAX_NODES} nodes")));
        }
        self.nodes.push(SpecNode {
            kind,
            children: Vec::new(),
            probs: Vec::new(),
        });
        Ok((self.nodes.len() - 1) as u32)
    }

    fn add_child(&mut self, parent: u32, child: u32, at: usize) -> Result<(), ParsePositionError> {
        let p = &mut self.nodes[parent as usize];
        if p.children.len() >= MAX_CHILDREN {
            return Err(self.err(at, format!("at most {MAX_CHILDREN} children for one node")));
        }
        p.children.push(child);
        Ok(())
    }

    fn number(&mut self) -> Result<f64, ParsePositionError> {
        let start = self.at;
        while let Some(c) = self.peek() {
            if c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E') {
                self.at += 1;
            } else {
                break;
            }
        }
        let word: String = self.chars[start..self.at].iter().collect();
        match word.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => {
                self.at = start;
                Err(self.err(start, "a number (such as 3, -1 or 0.5)"))
            }
        }
    }

    /// One node at `depth` (the root is depth 0).
    fn node(&mut self, depth: usize) -> Result<u32, ParsePositionError> {
        self.skip_space(true);
        let start = self.at;
        if depth > MAX_DEPTH {
            return Err(self.err(start, format!("a tree at most {MAX_DEPTH} levels deep")));
        }
        match self.peek() {
            Some('(') => {
                self.at += 1;
                let me = self.push(Kind::Max, start)?;
                loop {
                    self.skip_space(true);
                    match self.peek() {
                        Some(')') => {
                            self.at += 1;
                            break;
                        }
                        None => {
                            return Err(self.err(
                                self.at,
                                format!("')' to close the '(' at offset {start}"),
                            ))
                        }
                        Some('|') | Some('>') | Some(':') | Some('@') => {
                            return Err(self.err(self.at, "a number, '(', '<' or ')'"))
                        }
                        _ => {
                            let at = self.at;
                            let c = self.node(depth + 1)?;
                            self.add_child(me, c, at)?;
                        }
                    }
                }
                if self.nodes[me as usize].children.is_empty() {
                    return Err(self.err(start, "a node with at least one child, not '()'"));
                }
                Ok(me)
            }
            Some('<') => {
                self.at += 1;
                let me = self.push(Kind::Chance, start)?;
                loop {
                    self.skip_space(true);
                    match self.peek() {
                        Some('>') => {
                            self.at += 1;
                            break;
                        }
                        None => {
                            return Err(self.err(
                                self.at,
                                format!("'>' to close the '<' at offset {start}"),
                            ))
                        }
                        _ => {
                            let at = self.at;
                            let p = self.number()?;
                            if !(p > 0.0 && p <= 1.0) {
                                return Err(self.err(at, "a probability above 0 and at most 1"));
                            }
                            self.skip_space(false);
                            if self.peek() != Some(':') {
                                return Err(self.err(
                                    self.at,
                                    "':' between an outcome's probability and its node",
                                ));
                            }
                            self.at += 1;
                            let c = self.node(depth + 1)?;
                            self.add_child(me, c, at)?;
                            self.nodes[me as usize].probs.push(p);
                        }
                    }
                }
                let sum: f64 = self.nodes[me as usize].probs.iter().sum();
                if self.nodes[me as usize].children.is_empty() {
                    return Err(self.err(start, "a chance node with at least one outcome"));
                }
                if (sum - 1.0).abs() > 1e-6 {
                    return Err(self.err(
                        start,
                        format!("outcome probabilities that add up to 1 (these add up to {sum})"),
                    ));
                }
                Ok(me)
            }
            Some(c) if c.is_ascii_digit() || matches!(c, '-' | '+' | '.') => {
                let v = self.number()?;
                self.push(Kind::Leaf(v), start)
            }
            _ => Err(self.err(start, "a number, '(' or '<'")),
        }
    }

    /// A group: nodes until '|', '@' or the end.
    fn group(&mut self, depth: usize) -> Result<Vec<u32>, ParsePositionError> {
        let mut items = Vec::new();
        loop {
            self.skip_space(true);
            match self.peek() {
                None | Some('|') | Some('@') => break,
                Some(')') | Some('>') => {
                    return Err(self.err(self.at, "a number, '(' or '<' (this closes nothing)"))
                }
                _ => items.push(self.node(depth)?),
            }
        }
        Ok(items)
    }
}

/// Reads a tree (and the current node after `@`). `id` is the game id the position belongs to.
pub fn read(id: &str, text: &str) -> Result<(Spec, u32), ParsePositionError> {
    let mut r = Reader {
        text,
        chars: text.chars().collect(),
        at: 0,
        nodes: Vec::new(),
    };
    let mut groups: Vec<(usize, Vec<u32>)> = Vec::new();
    loop {
        let start = r.at;
        let g = r.group(1)?;
        if g.is_empty() {
            return Err(r.err(
                r.at,
                if groups.is_empty() {
                    "a tree: numbers, '(' or '<' (for example 3 12 8 | 2 4 6 | 14 5 2)"
                } else {
                    "a group of nodes after '|'"
                },
            ));
        }
        groups.push((start, g));
        match r.peek() {
            Some('|') => r.at += 1,
            _ => break,
        }
    }
    // The root.
    let root = if groups.len() == 1 && groups[0].1.len() == 1 {
        let only = groups[0].1[0];
        match r.nodes[only as usize].kind {
            Kind::Leaf(_) => {
                return Err(r.err(
                    groups[0].0,
                    "a tree with at least one move: a leaf alone is not a game",
                ))
            }
            Kind::Chance => {
                return Err(r.err(
                    groups[0].0,
                    "a player's node at the root ('(' or a list of nodes), not a chance node",
                ))
            }
            _ => only,
        }
    } else if groups.len() == 1 {
        let root = r.push(Kind::Max, 0)?;
        r.nodes[root as usize].children = groups[0].1.clone();
        root
    } else {
        let root = r.push(Kind::Max, 0)?;
        for (start, g) in &groups {
            let inner = r.push(Kind::Max, *start)?;
            r.nodes[inner as usize].children = g.clone();
            r.add_child(root, inner, *start)?;
        }
        root
    };
    // The path to the current node.
    let mut path = Vec::new();
    if r.peek() == Some('@') {
        r.at += 1;
        loop {
            r.skip_space(false);
            let start = r.at;
            while r.peek().is_some_and(|c| c.is_ascii_digit()) {
                r.at += 1;
            }
            let word: String = r.chars[start..r.at].iter().collect();
            match word.parse::<usize>() {
                Ok(k) if k >= 1 => path.push((start, k - 1)),
                _ => return Err(r.err(start, "a child number, 1 or more")),
            }
            r.skip_space(false);
            match r.peek() {
                Some('.') => r.at += 1,
                None => break,
                _ => return Err(r.err(r.at, "'.' between child numbers, or the end")),
            }
        }
    }
    r.skip_space(false);
    if r.peek().is_some() {
        return Err(r.err(r.at, "the end of the tree"));
    }
    let spec = Spec::new(id.to_string(), r.nodes, root);
    let mut at = spec.root;
    for (start, k) in path {
        match spec.nodes[at as usize].children.get(k) {
            Some(&c) => at = c,
            None => {
                return Err(ParsePositionError::at(
                    text,
                    start,
                    format!(
                        "a child of node {} (it has {})",
                        spec.label(at),
                        spec.nodes[at as usize].children.len()
                    ),
                ))
            }
        }
    }
    Ok((spec, at))
}

/// A number as written back: integers without a decimal point.
pub fn number(v: f64) -> String {
    format!("{v}")
}

/// Writes node `i` of `spec` in the bracketed form.
pub fn write_node(spec: &Spec, i: u32, out: &mut String) {
    let n = &spec.nodes[i as usize];
    match n.kind {
        Kind::Leaf(v) => out.push_str(&number(v)),
        Kind::Chance => {
            out.push('<');
            for (k, (&c, &p)) in n.children.iter().zip(&n.probs).enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                out.push_str(&number(p));
                out.push(':');
                write_node(spec, c, out);
            }
            out.push('>');
        }
        Kind::Max | Kind::Min => {
            out.push('(');
            for (k, &c) in n.children.iter().enumerate() {
                if k > 0 {
                    out.push(' ');
                }
                write_node(spec, c, out);
            }
            out.push(')');
        }
    }
}
