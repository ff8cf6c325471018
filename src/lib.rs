//! Plyscope: board games against AIs, and an explorer that shows why the AI chose its move.
//!
//! The crate is compiled natively (tests, benchmarks, the `plyscope` command-line tool) and to
//! WebAssembly for the browser. Layers, from the bottom:
//!
//! - [`core`]: the [`Game`](core::Game) and [`Evaluator`](core::Evaluator) traits and their vocabulary;
//! - [`games`]: one module per game, and a registry that picks one by id at run time;
//! - [`search`]: the algorithms, generic over game and evaluator;
//! - [`tree`]: the search-tree document and the recorder the search writes into;
//! - `wasm` (WebAssembly only): the engine handle the browser's worker talks to.
#![deny(missing_docs)]

pub mod core;
#[cfg(not(target_arch = "wasm32"))]
pub mod fuzz;
pub mod games;
pub mod protocol;
pub mod search;
pub mod tree;

#[cfg(target_arch = "wasm32")]
pub mod wasm;
