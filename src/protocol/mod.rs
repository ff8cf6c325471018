//! Text protocols that let other programs (game GUIs, tournament managers) drive the engine.
//!
//! - [`uai`]: the Universal Ataxx Interface, UCI with "a" for "c", for Ataxx.

pub mod uai;
