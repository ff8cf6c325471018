//! Joining trees: the subtrees of a split search's root moves, searched by different workers,
//! become one tree under one root.

use super::document::{Bound, NodeKind};
use super::model::{Bd, Interner, Tree, TreeLayout, TreeNode, NONE};
use std::collections::HashMap;

/// One tree whose root (a max node of `value`, exact) has as children the root's children of
/// every part, in the order given. Each part is a tree whose root has one child (a split search
/// job's tree) and whether its principal variation is kept (the chosen move's); the others'
/// `best` marks are cleared. The header is left empty (the caller writes it).
pub fn graft(parts: &[(&Tree, bool)], value: f64) -> Tree {
    let mut out = Tree::default();
    let mut root = TreeNode::new(NONE, NodeKind::Max);
    root.value = Some(value);
    root.bound = Some(Bound::Exact);
    root.best = true;
    root.order = Some(0);
    out.nodes.push(root);
    let mut moves = Interner::default();
    let mut names = Interner::default();
    let mut layouts: HashMap<(Vec<u32>, Vec<u64>), u32> = HashMap::new();
    for &(t, keep_best) in parts {
        if t.nodes.len() < 2 {
            continue;
        }
        let offset = out.nodes.len() as u32;
        let at = |j: u32| if j == 0 { 0 } else { offset + j - 1 };
        let mut layout_of = |out: &mut Tree, l: u32| -> u32 {
            let src = &t.layouts[l as usize];
            let ids: Vec<u32> = src
                .names
                .iter()
                .map(|&n| names.id(&mut out.names, &t.names[n as usize]))
                .collect();
            let key = (
                ids.clone(),
                src.weights.iter().map(|w| w.to_bits()).collect(),
            );
            *layouts.entry(key).or_insert_with(|| {
                out.layouts.push(TreeLayout {
                    names: ids,
                    weights: src.weights.clone(),
                });
                (out.layouts.len() - 1) as u32
            })
        };
        for j in 1..t.nodes.len() {
            let mut x = t.nodes[j].clone();
            x.parent = at(x.parent);
            if !keep_best {
                x.best = false;
            }
            if x.mv != NONE {
                x.mv = moves.id(&mut out.moves, t.move_text(x.mv));
            }
            let shared = matches!((&x.prescore, &x.eval), (Some(p), Some(e)) if p.at == e.at);
            let mut copy = |out: &mut Tree, b: &Bd| -> Bd {
                let raws_at = out.raws.len() as u32;
                out.raws.extend_from_slice(t.raws_of(b));
                Bd {
                    total: b.total,
                    layout: layout_of(out, b.layout),
                    at: raws_at,
                }
            };
            x.prescore = x.prescore.map(|b| copy(&mut out, &b));
            x.eval = match (x.eval, shared) {
                (Some(e), true) => x.prescore.map(|p| Bd {
                    total: e.total,
                    ..p
                }),
                (Some(e), false) => Some(copy(&mut out, &e)),
                (None, _) => None,
            };
            if x.kind == NodeKind::Pruned {
                let from = x.cut_at as usize;
                x.cut_at = out.cut.len() as u32;
                for k in from..from + x.count as usize {
                    let id = moves.id(&mut out.moves, t.move_text(t.cut[k]));
                    out.cut.push(id);
                }
            }
            x.by = x.by.map(at);
            x.same_as = x.same_as.map(at);
            out.nodes.push(x);
        }
    }
    out
}
