//! Text protocols that let other programs (game GUIs, tournament managers) drive the engine.
//!
//! - [`uai`]: the Universal Ataxx Interface, UCI with "a" for "c", for Ataxx.
//! - [`uhp`]: the Universal Hive Protocol, for Hive.

pub mod uai;
pub mod uhp;
