//! The search tree: the recorder the search writes into while it runs (a compact arena, or
//! nothing at all), the compact tree it becomes, and the documents written from it: the nested
//! version-1 JSON and the compact version-2 JSON (see `docs/tree-format.md`).
//!
//! The search is generic over [`Recorder`]. [`NoRecorder`] has `ACTIVE = false` and empty methods,
//! and every recording call in the search sits behind `if R::ACTIVE`, so a search that records
//! nothing compiles to the same code as one that never heard of trees.

mod arena;
mod binary;
mod compact;
mod document;
mod model;
pub mod pulse;
mod stage;

pub use arena::{Arena, NoRecorder, Recorder, DEFAULT_BYTE_CAP, DEFAULT_NODE_CAP};
pub use binary::{BINARY_MAGIC, BINARY_SECTIONS, BINARY_VERSION};
pub use compact::{CompactError, FORMAT_VERSION_COMPACT};
pub use document::{
    Bound, Chosen, Cutoff, Node, NodeKind, Stats, TreeDocument, WorkerStats, FORMAT_NAME,
    FORMAT_VERSION,
};
pub use model::{Bd, Header, Note, PruneReason, Tree, TreeLayout, TreeNode, NONE};
pub use stage::{Layout, Stage, EVAL_IS_PRESCORE, LAZY, NO_STAGE};
