//! The search tree: the document written for the viewer (see `docs/tree-format.md`), and the
//! recorder the search writes into while it runs.
//!
//! The search is generic over [`Recorder`]. [`NoRecorder`] has `ACTIVE = false` and empty methods,
//! and every recording call in the search sits behind `if R::ACTIVE`, so a search that records
//! nothing compiles to the same code as one that never heard of trees.

mod document;
mod recorder;

pub use document::{
    Bound, Chosen, Cutoff, Node, NodeKind, Stats, TreeDocument, FORMAT_NAME, FORMAT_VERSION,
};
pub use recorder::{NoRecorder, Recorder, TreeRecorder, DEFAULT_NODE_CAP, GHOST};
