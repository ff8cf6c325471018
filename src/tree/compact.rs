//! The compact JSON document (version 2): term names and layouts once in the header, nodes in one
//! flat array in pre-order with short keys, breakdowns as arrays. See `docs/tree-format.md`.

use super::document::{Bound, Chosen, NodeKind, Stats, TreeDocument, FORMAT_NAME};
use super::model::{Bd, Header, Note, PruneReason, Tree, TreeLayout, TreeNode, NONE};
use crate::core::ValueScale;
use serde::Deserialize;
use std::fmt::Write;

/// The version number of the compact document.
pub const FORMAT_VERSION_COMPACT: u32 = 2;

/// A document that could not be read: where (a JSON path such as `nodes[17].p`) and what was
/// expected there.
#[derive(Debug, Clone, PartialEq)]
pub struct CompactError {
    /// Where the problem is.
    pub path: String,
    /// What was expected there (or the JSON parser's message).
    pub expected: String,
}

impl std::fmt::Display for CompactError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "tree document at {}: {}", self.path, self.expected)
    }
}

impl std::error::Error for CompactError {}

fn err(path: impl Into<String>, expected: impl Into<String>) -> CompactError {
    CompactError {
        path: path.into(),
        expected: expected.into(),
    }
}

fn kind_code(k: NodeKind) -> &'static str {
    match k {
        NodeKind::Max => "x",
        NodeKind::Min => "n",
        NodeKind::Chance => "c",
        NodeKind::Leaf => "l",
        NodeKind::Terminal => "t",
        NodeKind::Pruned => "p",
        NodeKind::Truncated => "l",
    }
}

fn kind_of(code: &str) -> Option<NodeKind> {
    Some(match code {
        "x" => NodeKind::Max,
        "n" => NodeKind::Min,
        "c" => NodeKind::Chance,
        "l" => NodeKind::Leaf,
        "t" => NodeKind::Terminal,
        "p" => NodeKind::Pruned,
        _ => return None,
    })
}

/// Appends a JSON number. Values are finite (the tree holds no NaN or infinity).
fn num(out: &mut String, x: f64) {
    let a = x.abs();
    if x == 0.0 {
        out.push('0');
    } else if a < 1e15 && x == x.trunc() {
        int(out, x as i64);
    } else if (1e-6..1e15).contains(&a) {
        let _ = write!(out, "{x}");
    } else {
        let _ = write!(out, "{x:e}");
    }
}

/// Appends a whole number (faster than float formatting, and most values are whole).
fn int(out: &mut String, mut v: i64) {
    if v < 0 {
        out.push('-');
        v = -v;
    }
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or("0"));
}

fn num32(out: &mut String, x: f32) {
    let a = x.abs();
    if x == 0.0 {
        out.push('0');
    } else if a < 1e7 && x == x.trunc() {
        int(out, x as i64);
    } else if (1e-6..1e15).contains(&a) {
        let _ = write!(out, "{x}");
    } else {
        let _ = write!(out, "{x:e}");
    }
}

/// Appends a JSON string.
fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn key(out: &mut String, k: &str) {
    out.push(',');
    out.push('"');
    out.push_str(k);
    out.push_str("\":");
}

impl Tree {
    /// The compact JSON document (version 2), on one line.
    pub fn to_compact_json(&self) -> String {
        let mut out = String::with_capacity(64 + self.nodes.len() * 96);
        let h = &self.head;
        out.push_str("{\"format\":");
        string(&mut out, FORMAT_NAME);
        let _ = write!(out, ",\"version\":{FORMAT_VERSION_COMPACT}");
        key(&mut out, "game");
        string(&mut out, &h.game);
        if let Some(p) = &h.root_position {
            key(&mut out, "root_position");
            string(&mut out, p);
        }
        key(&mut out, "engine");
        string(&mut out, &h.engine);
        key(&mut out, "algorithm");
        string(&mut out, &h.algorithm);
        if let Some(e) = &h.evaluator {
            key(&mut out, "evaluator");
            string(&mut out, e);
        }
        key(&mut out, "perspective");
        string(&mut out, &h.perspective);
        if let Some(v) = &h.values {
            key(&mut out, "values");
            out.push_str(&serde_json::to_string(v).unwrap_or_else(|_| "null".into()));
        }
        key(&mut out, "settings");
        out.push_str(&serde_json::to_string(&h.settings).unwrap_or_else(|_| "{}".into()));
        key(&mut out, "stats");
        out.push_str(&serde_json::to_string(&h.stats).unwrap_or_else(|_| "{}".into()));
        if let Some(c) = &h.chosen {
            key(&mut out, "chosen");
            out.push_str(&serde_json::to_string(c).unwrap_or_else(|_| "null".into()));
        }
        key(&mut out, "terms");
        out.push('[');
        for (i, n) in self.names.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            string(&mut out, n);
        }
        out.push(']');
        key(&mut out, "layouts");
        out.push('[');
        for (i, l) in self.layouts.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"t\":[");
            for (k, n) in l.names.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{n}");
            }
            out.push_str("],\"w\":[");
            for (k, &w) in l.weights.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                num(&mut out, w);
            }
            out.push_str("]}");
        }
        out.push(']');
        let ordered = !self.nodes.is_empty() && self.nodes.iter().all(|n| n.order.is_some());
        if ordered {
            key(&mut out, "ordered");
            out.push_str("true");
        }
        key(&mut out, "nodes");
        out.push('[');
        let mut children = vec![0u32; self.nodes.len()];
        for n in self.nodes.iter().skip(1) {
            children[n.parent as usize] += 1;
        }
        let mut prev_order: Option<u64> = None;
        for (i, n) in self.nodes.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"k\":\"");
            out.push_str(kind_code(n.kind));
            out.push('"');
            if n.mv != NONE {
                key(&mut out, "m");
                string(&mut out, self.move_text(n.mv));
            }
            if children[i] > 0 {
                let _ = write!(out, ",\"c\":{}", children[i]);
            }
            if let Some(v) = n.value {
                key(&mut out, "v");
                num(&mut out, v);
            }
            if n.kind != NodeKind::Pruned {
                match n.bound {
                    Some(Bound::Exact) => {}
                    Some(Bound::Lower) => out.push_str(",\"b\":\"l\""),
                    Some(Bound::Upper) => out.push_str(",\"b\":\"u\""),
                    None => out.push_str(",\"b\":\"-\""),
                }
            }
            if let Some(a) = n.alpha {
                key(&mut out, "a");
                num(&mut out, a);
            }
            if let Some(b) = n.beta {
                key(&mut out, "z");
                num(&mut out, b);
            }
            if let Some(q) = n.prob {
                key(&mut out, "q");
                num(&mut out, q);
            }
            if let Some(p) = &n.prescore {
                key(&mut out, "p");
                out.push('[');
                num(&mut out, p.total);
                let _ = write!(out, ",{}", p.layout);
                for &r in self.raws_of(p) {
                    out.push(',');
                    num32(&mut out, r);
                }
                out.push(']');
            }
            if let Some(e) = &n.eval {
                let shared = n
                    .prescore
                    .as_ref()
                    .is_some_and(|p| p.layout == e.layout && self.raws_of(p) == self.raws_of(e));
                key(&mut out, "e");
                if shared {
                    out.push_str("true");
                } else {
                    let _ = write!(out, "[{}", e.layout);
                    for &r in self.raws_of(e) {
                        out.push(',');
                        num32(&mut out, r);
                    }
                    out.push(']');
                }
                if n.value != Some(e.total) {
                    key(&mut out, "et");
                    num(&mut out, e.total);
                }
            }
            if n.best {
                out.push_str(",\"pv\":1");
            }
            if n.tt {
                out.push_str(",\"tt\":1");
            }
            if n.tt_worker != 0 {
                let _ = write!(out, ",\"tw\":{}", n.tt_worker);
            }
            if !n.note.is_empty() {
                for (flag, k) in [
                    (Note::NULL_WINDOW, "nw"),
                    (Note::FAILED_HIGH, "fh"),
                    (Note::RESEARCH, "rs"),
                    (Note::NULL_MOVE, "nm"),
                    (Note::EXTENDED, "ex"),
                    (Note::SHORTENED, "sh"),
                    (Note::MULTI_CUT, "mc"),
                ] {
                    if n.note.has(flag) {
                        let _ = write!(out, ",\"{k}\":1");
                    }
                }
                if n.note.reduced() > 0 {
                    let _ = write!(out, ",\"rd\":{}", n.note.reduced());
                }
            }
            if let Some(s) = n.same_as {
                let _ = write!(out, ",\"s\":{s}");
            }
            if n.unrecorded > 0 {
                let _ = write!(out, ",\"u\":{}", n.unrecorded);
            }
            if let Some(v) = n.visits {
                let _ = write!(out, ",\"N\":{v}");
            }
            if let Some(p) = n.prior {
                key(&mut out, "P");
                num(&mut out, p);
            }
            if let Some(u) = n.uct {
                key(&mut out, "U");
                num(&mut out, u);
            }
            if n.proven {
                out.push_str(",\"pr\":1");
            }
            if ordered {
                let o = n.order.unwrap_or(0);
                let implied = prev_order.map_or(0, |p| p + 1);
                if o != implied {
                    let _ = write!(out, ",\"o\":{o}");
                }
                prev_order = Some(o);
            }
            if n.kind == NodeKind::Pruned {
                let _ = write!(out, ",\"n\":{}", n.count);
                key(&mut out, "ms");
                out.push('[');
                let at = n.cut_at as usize;
                for (k, &m) in self.cut[at..at + n.count as usize].iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    string(&mut out, self.move_text(m));
                }
                out.push(']');
                if let Some(by) = n.by {
                    let _ = write!(out, ",\"by\":{by}");
                }
                match n.reason {
                    Some(PruneReason::Alphabeta) => {}
                    Some(PruneReason::BranchingLimit) => out.push_str(",\"r\":\"b\""),
                    Some(PruneReason::Futility) => out.push_str(",\"r\":\"f\""),
                    None => out.push_str(",\"r\":\"-\""),
                }
            }
            out.push('}');
        }
        out.push_str("]}");
        out
    }

    /// Reads a compact (version 2) document.
    pub fn from_compact_json(text: &str) -> Result<Tree, CompactError> {
        let doc: V2 = serde_json::from_str(text).map_err(|e| {
            err(
                format!("line {} column {}", e.line(), e.column()),
                e.to_string(),
            )
        })?;
        doc.into_tree()
    }

    /// Reads a `plyscope-tree` document of either version (1: nested, 2: compact).
    pub fn from_json(text: &str) -> Result<Tree, CompactError> {
        #[derive(Deserialize)]
        struct Probe {
            format: Option<String>,
            version: Option<u32>,
        }
        let probe: Probe = serde_json::from_str(text).map_err(|e| {
            err(
                format!("line {} column {}", e.line(), e.column()),
                e.to_string(),
            )
        })?;
        if probe.format.as_deref() != Some(FORMAT_NAME) {
            return Err(err("format", format!("\"{FORMAT_NAME}\"")));
        }
        match probe.version {
            Some(1) => {
                let d: TreeDocument = serde_json::from_str(text).map_err(|e| {
                    err(
                        format!("line {} column {}", e.line(), e.column()),
                        e.to_string(),
                    )
                })?;
                Ok(Tree::from_document(&d))
            }
            Some(2) => Tree::from_compact_json(text),
            _ => Err(err("version", "1 or 2")),
        }
    }
}

#[derive(Deserialize)]
struct V2Layout {
    t: Vec<u32>,
    w: Vec<f64>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum EvalField {
    Shared(bool),
    Terms(Vec<f64>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct V2Node {
    k: String,
    m: Option<String>,
    c: Option<u32>,
    v: Option<f64>,
    b: Option<String>,
    a: Option<f64>,
    z: Option<f64>,
    q: Option<f64>,
    p: Option<Vec<f64>>,
    e: Option<EvalField>,
    et: Option<f64>,
    pv: Option<u8>,
    tt: Option<u8>,
    tw: Option<u8>,
    nw: Option<u8>,
    fh: Option<u8>,
    rs: Option<u8>,
    nm: Option<u8>,
    ex: Option<u8>,
    sh: Option<u8>,
    mc: Option<u8>,
    rd: Option<u32>,
    u: Option<u64>,
    o: Option<u64>,
    n: Option<u64>,
    ms: Option<Vec<String>>,
    by: Option<u32>,
    r: Option<String>,
    s: Option<u32>,
    #[serde(rename = "N")]
    visits: Option<u64>,
    #[serde(rename = "P")]
    prior: Option<f64>,
    #[serde(rename = "U")]
    uct: Option<f64>,
    pr: Option<u8>,
}

#[derive(Deserialize)]
struct V2 {
    format: String,
    version: u32,
    game: String,
    root_position: Option<String>,
    #[serde(default)]
    engine: String,
    algorithm: String,
    evaluator: Option<String>,
    perspective: String,
    #[serde(default)]
    values: Option<ValueScale>,
    #[serde(default)]
    settings: serde_json::Map<String, serde_json::Value>,
    stats: Stats,
    chosen: Option<Chosen>,
    #[serde(default)]
    terms: Vec<String>,
    #[serde(default)]
    layouts: Vec<V2Layout>,
    #[serde(default)]
    ordered: bool,
    nodes: Vec<V2Node>,
}

impl V2 {
    fn into_tree(self) -> Result<Tree, CompactError> {
        if self.format != FORMAT_NAME {
            return Err(err("format", format!("\"{FORMAT_NAME}\"")));
        }
        if self.version != FORMAT_VERSION_COMPACT {
            return Err(err("version", "2"));
        }
        let mut t = Tree {
            head: Header {
                game: self.game,
                root_position: self.root_position,
                engine: self.engine,
                algorithm: self.algorithm,
                evaluator: self.evaluator,
                perspective: self.perspective,
                values: self.values,
                settings: self.settings,
                stats: self.stats,
                chosen: self.chosen,
            },
            names: self.terms,
            ..Tree::default()
        };
        for (i, l) in self.layouts.into_iter().enumerate() {
            if l.t.len() != l.w.len() {
                return Err(err(
                    format!("layouts[{i}]"),
                    "as many weights (w) as terms (t)",
                ));
            }
            if let Some(&bad) = l.t.iter().find(|&&n| n as usize >= t.names.len()) {
                return Err(err(
                    format!("layouts[{i}].t"),
                    format!("term indices below {} (found {bad})", t.names.len()),
                ));
            }
            t.layouts.push(TreeLayout {
                names: l.t,
                weights: l.w,
            });
        }
        if self.nodes.is_empty() {
            return Err(err("nodes", "at least the root node"));
        }
        let mut moves = super::model::Interner::default();
        // Open nodes with the children they still expect.
        let mut open: Vec<(u32, u32)> = Vec::new();
        let mut prev_order: Option<u64> = None;
        let n_nodes = self.nodes.len();
        for (i, n) in self.nodes.into_iter().enumerate() {
            let at = |k: &str| format!("nodes[{i}].{k}");
            while matches!(open.last(), Some(&(_, 0))) {
                open.pop();
            }
            let parent =
                match open.last_mut() {
                    Some(top) => {
                        top.1 -= 1;
                        top.0
                    }
                    None if i == 0 => NONE,
                    None => return Err(err(
                        format!("nodes[{i}]"),
                        "a node inside the root's subtree (the children counts `c` end before it)",
                    )),
                };
            let kind = kind_of(&n.k).ok_or_else(|| err(at("k"), "one of x, n, c, l, t, p"))?;
            let mut x = TreeNode::new(parent, kind);
            x.mv = match &n.m {
                Some(m) => moves.id(&mut t.moves, m),
                None => NONE,
            };
            x.value = n.v;
            x.alpha = n.a;
            x.beta = n.z;
            x.prob = n.q;
            x.best = n.pv.unwrap_or(0) != 0;
            x.tt = n.tt.unwrap_or(0) != 0;
            x.tt_worker = n.tw.unwrap_or(0);
            let on = |f: Option<u8>, bit: u16| if f.unwrap_or(0) != 0 { bit } else { 0 };
            x.note = Note::new(
                on(n.nw, Note::NULL_WINDOW)
                    | on(n.fh, Note::FAILED_HIGH)
                    | on(n.rs, Note::RESEARCH)
                    | on(n.nm, Note::NULL_MOVE)
                    | on(n.ex, Note::EXTENDED)
                    | on(n.sh, Note::SHORTENED)
                    | on(n.mc, Note::MULTI_CUT),
                n.rd.unwrap_or(0),
            );
            x.unrecorded = n.u.unwrap_or(0);
            x.visits = n.visits;
            x.prior = n.prior;
            x.uct = n.uct;
            x.proven = n.pr.unwrap_or(0) != 0;
            if self.ordered {
                let o = n.o.unwrap_or_else(|| prev_order.map_or(0, |p| p + 1));
                x.order = Some(o);
                prev_order = Some(o);
            }
            if kind != NodeKind::Pruned {
                x.bound = match n.b.as_deref() {
                    None => Some(Bound::Exact),
                    Some("l") => Some(Bound::Lower),
                    Some("u") => Some(Bound::Upper),
                    Some("-") => None,
                    Some(_) => return Err(err(at("b"), "\"l\", \"u\" or \"-\"")),
                };
            }
            if let Some(p) = &n.p {
                if p.len() < 2 {
                    return Err(err(at("p"), "[total, layout, raw...]"));
                }
                x.prescore = Some(breakdown(&mut t, p[0], &p[1..], &at("p"))?);
            }
            match n.e {
                None => {}
                Some(EvalField::Shared(true)) => {
                    let p = x
                        .prescore
                        .ok_or_else(|| err(at("e"), "a pre-score (p) to share"))?;
                    x.eval = Some(Bd {
                        total: n.et.or(x.value).unwrap_or(p.total),
                        ..p
                    });
                }
                Some(EvalField::Shared(false)) => {
                    return Err(err(at("e"), "true or [layout, raw...]"))
                }
                Some(EvalField::Terms(e)) => {
                    let total = n.et.or(x.value).unwrap_or(0.0);
                    x.eval = Some(breakdown(&mut t, total, &e, &at("e"))?);
                }
            }
            if kind == NodeKind::Pruned {
                let ms = n.ms.unwrap_or_default();
                x.count = n.n.unwrap_or(ms.len() as u64);
                if x.count != ms.len() as u64 {
                    return Err(err(at("n"), "the number of moves in ms"));
                }
                x.cut_at = t.cut.len() as u32;
                for m in &ms {
                    let id = moves.id(&mut t.moves, m);
                    t.cut.push(id);
                }
                x.reason = match n.r.as_deref() {
                    None => Some(PruneReason::Alphabeta),
                    Some("b") => Some(PruneReason::BranchingLimit),
                    Some("f") => Some(PruneReason::Futility),
                    Some("-") => None,
                    Some(_) => return Err(err(at("r"), "\"b\", \"f\" or \"-\"")),
                };
                if let Some(by) = n.by {
                    let ok = (by as usize) < i && t.nodes[by as usize].parent == parent;
                    if !ok {
                        return Err(err(at("by"), "the index of an earlier sibling"));
                    }
                    x.by = Some(by);
                }
            }
            if let Some(s) = n.s {
                let ok = (s as usize) < i && t.nodes[s as usize].parent == parent;
                if !ok {
                    return Err(err(at("s"), "the index of an earlier sibling"));
                }
                x.same_as = Some(s);
            }
            let c = n.c.unwrap_or(0);
            if c > 0 {
                if kind == NodeKind::Pruned {
                    return Err(err(at("c"), "no children under a pruned node"));
                }
                if c as usize >= n_nodes - i {
                    return Err(err(at("c"), "no more children than nodes that follow"));
                }
                open.push((i as u32, c));
            }
            t.nodes.push(x);
        }
        if open.iter().any(|&(_, left)| left > 0) {
            return Err(err(
                "nodes",
                "as many nodes as the children counts (c) announce",
            ));
        }
        Ok(t)
    }
}

fn breakdown(t: &mut Tree, total: f64, arr: &[f64], path: &str) -> Result<Bd, CompactError> {
    let layout = arr[0];
    if layout < 0.0 || layout.fract() != 0.0 || layout as usize >= t.layouts.len() {
        return Err(err(
            path,
            format!("a layout index below {}", t.layouts.len()),
        ));
    }
    let l = layout as u32;
    let want = t.layouts[l as usize].names.len();
    if arr.len() - 1 != want {
        return Err(err(
            path,
            format!("{want} raw values after the layout index"),
        ));
    }
    let at = t.raws.len() as u32;
    t.raws.extend(arr[1..].iter().map(|&r| r as f32));
    Ok(Bd {
        total,
        layout: l,
        at,
    })
}
