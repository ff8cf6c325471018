//! The binary form of a [`Tree`]: what the engine's worker sends to the page as one transferable
//! `ArrayBuffer`, read there by `www/tree/binary.js` into typed-array views without any JSON for
//! the nodes. The layout is documented in `docs/tree-format.md` ("Binary form").
//!
//! Node `i` of the binary form is node `i` of the tree (the same index as the version-1 `id`);
//! then, for every node with unrecorded nodes below it, one `truncated` node (its parent that node,
//! its `count` the unrecorded nodes), in the order [`Tree::to_document`] numbers them (a node's once
//! its whole subtree is numbered): exactly the ids version 1 gives them. A node's parent always
//! comes before it.

use super::document::{Bound, Chosen, NodeKind, Stats};
use super::model::{PruneReason, Tree, NONE};
use crate::core::ValueScale;
use serde::Serialize;

/// The first four bytes: `PSTB`, little-endian.
pub const BINARY_MAGIC: u32 = u32::from_le_bytes(*b"PSTB");
/// The version of the binary layout.
pub const BINARY_VERSION: u32 = 1;
/// How many sections the layout has (see [`Tree::to_binary`]).
pub const BINARY_SECTIONS: usize = 33;

/// The document header, as JSON in section 0.
#[derive(Serialize)]
struct Meta<'a> {
    format: &'static str,
    version: u32,
    game: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    root_position: Option<&'a str>,
    engine: &'a str,
    algorithm: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    evaluator: Option<&'a str>,
    perspective: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<&'a ValueScale>,
    settings: &'a serde_json::Map<String, serde_json::Value>,
    stats: &'a Stats,
    #[serde(skip_serializing_if = "Option::is_none")]
    chosen: Option<&'a Chosen>,
}

/// Kind codes, the same as the explorer's `KINDS` list.
fn kind_code(k: NodeKind) -> u8 {
    match k {
        NodeKind::Max => 0,
        NodeKind::Min => 1,
        NodeKind::Chance => 2,
        NodeKind::Leaf => 3,
        NodeKind::Terminal => 4,
        NodeKind::Pruned => 5,
        NodeKind::Truncated => 6,
    }
}

/// Appends sections, each starting on an 8-byte boundary.
struct Writer {
    buf: Vec<u8>,
    table: Vec<(u32, u32)>,
}

impl Writer {
    fn align(&mut self) {
        while self.buf.len() % 8 != 0 {
            self.buf.push(0);
        }
    }
    fn section<T: Copy>(&mut self, items: &[T], put: impl Fn(&mut Vec<u8>, T)) {
        self.align();
        self.table.push((self.buf.len() as u32, items.len() as u32));
        for &x in items {
            put(&mut self.buf, x);
        }
    }
    fn bytes(&mut self, b: &[u8]) {
        self.section(b, |o, x| o.push(x));
    }
    fn u32s(&mut self, v: &[u32]) {
        self.section(v, |o, x| o.extend_from_slice(&x.to_le_bytes()));
    }
    fn i32s(&mut self, v: &[i32]) {
        self.section(v, |o, x| o.extend_from_slice(&x.to_le_bytes()));
    }
    fn f64s(&mut self, v: &[f64]) {
        self.section(v, |o, x| o.extend_from_slice(&x.to_le_bytes()));
    }
    fn f32s(&mut self, v: &[f32]) {
        self.section(v, |o, x| o.extend_from_slice(&x.to_le_bytes()));
    }
    fn strings(&mut self, list: &[String]) {
        let mut offsets = Vec::with_capacity(list.len() + 1);
        let mut bytes = Vec::new();
        offsets.push(0u32);
        for s in list {
            bytes.extend_from_slice(s.as_bytes());
            offsets.push(bytes.len() as u32);
        }
        self.u32s(&offsets);
        self.bytes(&bytes);
    }
}

impl Tree {
    /// The nodes with unrecorded nodes below them, in the order version 1 numbers their
    /// `truncated` children: a node's comes once its whole subtree is written (so by the end of
    /// its subtree, then deepest first).
    fn truncated_order(&self) -> Vec<usize> {
        let n = self.nodes.len();
        let mut size = vec![1usize; n];
        for i in (1..n).rev() {
            size[self.nodes[i].parent as usize] += size[i];
        }
        let mut depth = vec![0u32; n];
        for i in 1..n {
            depth[i] = depth[self.nodes[i].parent as usize] + 1;
        }
        let mut list: Vec<usize> = (0..n).filter(|&i| self.nodes[i].unrecorded > 0).collect();
        list.sort_by_key(|&i| (i + size[i], std::cmp::Reverse(depth[i])));
        list
    }

    /// The binary form (see the module documentation and `docs/tree-format.md`): a header of
    /// 32-bit words (`PSTB`, version, node count, section count, then each section's byte offset
    /// and element count), then [`BINARY_SECTIONS`] little-endian arrays, each 8-byte aligned.
    pub fn to_binary(&self) -> Vec<u8> {
        let n_tree = self.nodes.len();
        let extra = self.nodes.iter().filter(|x| x.unrecorded > 0).count();
        let n = n_tree + extra;
        let mut parent = Vec::with_capacity(n);
        let mut mv = Vec::with_capacity(n);
        let mut kind = Vec::with_capacity(n);
        let mut flags = Vec::with_capacity(n);
        let mut note = Vec::with_capacity(n);
        let mut note2 = Vec::with_capacity(n);
        let mut tt_worker = Vec::with_capacity(n);
        let mut value = Vec::with_capacity(n);
        let mut alpha = Vec::with_capacity(n);
        let mut beta = Vec::with_capacity(n);
        let mut prob = Vec::with_capacity(n);
        let mut order = Vec::with_capacity(n);
        let mut count = Vec::with_capacity(n);
        let mut pre = Vec::with_capacity(n);
        let mut eval = Vec::with_capacity(n);
        let mut refs = Vec::with_capacity(n);
        let mut cut_at = Vec::with_capacity(n);
        let mut visits = Vec::with_capacity(n);
        let mut prior = Vec::with_capacity(n);
        let mut uct = Vec::with_capacity(n);
        let (mut bd_layout, mut bd_at, mut bd_total) = (Vec::new(), Vec::new(), Vec::new());
        let opt = |x: Option<f64>| x.unwrap_or(f64::NAN);
        for (i, x) in self.nodes.iter().enumerate() {
            super::pulse::tick();
            parent.push(if i == 0 { -1 } else { x.parent as i32 });
            mv.push(x.mv);
            kind.push(kind_code(x.kind));
            let mut f = 0u8;
            if x.best {
                f |= 1;
            }
            if x.tt {
                f |= 2;
            }
            f |= match x.bound {
                None => 0,
                Some(Bound::Exact) => 1 << 3,
                Some(Bound::Lower) => 2 << 3,
                Some(Bound::Upper) => 3 << 3,
            };
            f |= match x.reason {
                None => 0,
                Some(PruneReason::Alphabeta) => 1 << 5,
                Some(PruneReason::BranchingLimit) => 2 << 5,
                Some(PruneReason::Futility) => 3 << 5,
            };
            if x.proven {
                f |= 1 << 7;
            }
            flags.push(f);
            note.push(x.note.low());
            note2.push(x.note.high());
            tt_worker.push(x.tt_worker);
            value.push(opt(x.value));
            alpha.push(opt(x.alpha));
            beta.push(opt(x.beta));
            prob.push(opt(x.prob));
            order.push(x.order.map_or(f64::NAN, |o| o as f64));
            count.push(if x.kind == NodeKind::Pruned {
                x.count as f64
            } else {
                f64::NAN
            });
            let mut bd = |b: &Option<super::model::Bd>| match b {
                Some(b) => {
                    bd_layout.push(b.layout);
                    bd_at.push(b.at);
                    bd_total.push(b.total);
                    (bd_total.len() - 1) as u32
                }
                None => NONE,
            };
            pre.push(bd(&x.prescore));
            eval.push(bd(&x.eval));
            refs.push(match (x.kind, x.by, x.same_as) {
                (NodeKind::Pruned, Some(b), _) => b as i32,
                (_, _, Some(s)) => s as i32,
                _ => -1,
            });
            cut_at.push(if x.kind == NodeKind::Pruned {
                x.cut_at
            } else {
                NONE
            });
            visits.push(x.visits.map_or(f64::NAN, |v| v as f64));
            prior.push(opt(x.prior));
            uct.push(opt(x.uct));
        }
        for i in self.truncated_order() {
            let x = &self.nodes[i];
            parent.push(i as i32);
            mv.push(NONE);
            kind.push(kind_code(NodeKind::Truncated));
            flags.push(0);
            note.push(0);
            note2.push(0);
            tt_worker.push(0);
            for v in [
                &mut value,
                &mut alpha,
                &mut beta,
                &mut prob,
                &mut order,
                &mut visits,
                &mut prior,
                &mut uct,
            ] {
                v.push(f64::NAN);
            }
            count.push(x.unrecorded as f64);
            pre.push(NONE);
            eval.push(NONE);
            refs.push(-1);
            cut_at.push(NONE);
        }
        let h = &self.head;
        let meta = serde_json::to_vec(&Meta {
            format: super::document::FORMAT_NAME,
            version: super::document::FORMAT_VERSION,
            game: &h.game,
            root_position: h.root_position.as_deref(),
            engine: &h.engine,
            algorithm: &h.algorithm,
            evaluator: h.evaluator.as_deref(),
            perspective: &h.perspective,
            values: h.values.as_ref(),
            settings: &h.settings,
            stats: &h.stats,
            chosen: h.chosen.as_ref(),
        })
        .unwrap_or_else(|_| b"{}".to_vec());
        let mut layout_start = vec![0u32];
        let mut layout_names = Vec::new();
        let mut layout_weights = Vec::new();
        for l in &self.layouts {
            layout_names.extend_from_slice(&l.names);
            layout_weights.extend_from_slice(&l.weights);
            layout_start.push(layout_names.len() as u32);
        }
        let head_words = 4 + 2 * BINARY_SECTIONS;
        // Rough size, so that the buffer grows at most once or twice.
        let guess =
            head_words * 4 + meta.len() + n * 70 + bd_total.len() * 16 + self.raws.len() * 4;
        let mut w = Writer {
            buf: vec![0u8; head_words * 4],
            table: Vec::with_capacity(BINARY_SECTIONS),
        };
        w.buf.reserve(guess);
        w.bytes(&meta); // 0
        w.i32s(&parent); // 1
        w.u32s(&mv); // 2
        w.bytes(&kind); // 3
        w.bytes(&flags); // 4
        w.f64s(&value); // 5
        w.f64s(&alpha); // 6
        w.f64s(&beta); // 7
        w.f64s(&prob); // 8
        w.f64s(&order); // 9
        w.f64s(&count); // 10
        w.u32s(&pre); // 11
        w.u32s(&eval); // 12
        w.i32s(&refs); // 13
        w.u32s(&cut_at); // 14
        w.u32s(&bd_layout); // 15
        w.u32s(&bd_at); // 16
        w.f64s(&bd_total); // 17
        w.f32s(&self.raws); // 18
        w.u32s(&self.cut); // 19
        w.strings(&self.moves); // 20, 21
        w.strings(&self.names); // 22, 23
        w.u32s(&layout_start); // 24
        w.u32s(&layout_names); // 25
        w.f64s(&layout_weights); // 26
        w.bytes(&note); // 27
        w.f64s(&visits); // 28
        w.f64s(&prior); // 29
        w.f64s(&uct); // 30
        w.bytes(&tt_worker); // 31
        w.bytes(&note2); // 32
        debug_assert_eq!(w.table.len(), BINARY_SECTIONS);
        let mut head = vec![
            BINARY_MAGIC,
            BINARY_VERSION,
            n as u32,
            BINARY_SECTIONS as u32,
        ];
        for &(off, len) in &w.table {
            head.push(off);
            head.push(len);
        }
        for (k, word) in head.iter().enumerate() {
            w.buf[k * 4..k * 4 + 4].copy_from_slice(&word.to_le_bytes());
        }
        w.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(b: &[u8], k: usize) -> u32 {
        u32::from_le_bytes(b[k * 4..k * 4 + 4].try_into().unwrap())
    }

    #[test]
    fn header_and_sections_are_aligned_and_inside_the_buffer() {
        let doc = r#"{"format":"plyscope-tree","version":1,"game":"g","engine":"e","algorithm":"minimax",
            "perspective":"x","stats":{"nodes":3,"leaves":2,"time_ms":0,"prune_events":0,"pruned_nodes":0,
            "tt_hits":0,"depth_reached":1,"truncated":true},
            "root":{"id":0,"kind":"max","value":1,"best":true,"children":[
              {"id":1,"move":"a","kind":"leaf","value":1,"best":true},
              {"id":2,"kind":"truncated","count":5}]}}"#;
        let t = Tree::from_json(doc).expect("a valid document");
        let b = t.to_binary();
        assert_eq!(word(&b, 0), BINARY_MAGIC);
        assert_eq!(word(&b, 1), BINARY_VERSION);
        // Two nodes and one truncated child for the root's 5 unrecorded nodes.
        assert_eq!(word(&b, 2), 3);
        assert_eq!(word(&b, 3) as usize, BINARY_SECTIONS);
        let sizes = [
            1, 4, 4, 1, 1, 8, 8, 8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 8, 4, 4, 4, 1, 4, 1, 4, 4, 8, 1, 8,
            8, 8,
        ];
        for (s, &size) in sizes.iter().enumerate() {
            let off = word(&b, 4 + 2 * s) as usize;
            let len = word(&b, 5 + 2 * s) as usize;
            assert_eq!(off % 8, 0, "section {s} is aligned");
            assert!(off + len * size <= b.len(), "section {s} fits");
        }
        // The truncated node: parent 0, kind 6, count 5.
        let parent_off = word(&b, 4 + 2) as usize;
        assert_eq!(
            i32::from_le_bytes(b[parent_off + 8..parent_off + 12].try_into().unwrap()),
            0
        );
        let kind_off = word(&b, 4 + 2 * 3) as usize;
        assert_eq!(&b[kind_off..kind_off + 3], &[0, 3, 6]);
        let count_off = word(&b, 4 + 2 * 10) as usize;
        let c = f64::from_le_bytes(b[count_off + 16..count_off + 24].try_into().unwrap());
        assert_eq!(c, 5.0);
    }
}
