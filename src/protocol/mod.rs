//! Text protocols that let other programs (game GUIs, tournament managers) drive the engine.
//!
//! - [`driver`]: the loop every protocol runs on: input read on its own thread, long commands run
//!   as stoppable jobs, `isready`/`stop`/`quit` answered whatever runs.
//! - [`uai`]: the Universal Ataxx Interface, UCI with "a" for "c", for Ataxx.
//! - [`uhp`]: the Universal Hive Protocol, for Hive.

pub mod driver;
pub mod uai;
pub mod uhp;
