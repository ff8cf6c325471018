//! Scratch tuning knobs read from PLYSCOPE_TUNE="name=value,..." (not for main).
#![allow(missing_docs)]
use std::sync::OnceLock;
#[derive(Debug, Clone)]
pub struct Tune {
    pub rfp_max_depth: u32,
    pub rfp_margin: f64,
    pub fut_margin: f64,
    pub fut_per_ply: f64,
    pub fut_max_depth: u32,
    pub lmr_base: f64,
    pub lmr_div: f64,
    pub lmr_first: usize,
    pub lmr_min_depth: u32,
    pub lmr_keep: u32, // reductions end at least this many plies above the horizon (1: static eval allowed... i.e. clamp to depth - lmr_keep)
    pub lmp_all_first: usize,
    pub iir_min_depth: u32,
    pub clone_order: f64,
    pub hist_gravity: usize,
    pub root_lmr: usize,
    pub lmr_pv: usize,
    pub rfp_nonpv: usize,
    pub asp_delta: f64,
    pub fut_captures: usize, // 0 off; else futility also skips captures from this place on
}
pub fn tune() -> &'static Tune {
    static T: OnceLock<Tune> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Tune {
            rfp_max_depth: 6,
            rfp_margin: 80.0,
            fut_margin: 150.0,
            fut_per_ply: 80.0,
            fut_max_depth: 4,
            lmr_base: 0.75,
            lmr_div: 1.5,
            lmr_first: 2,
            lmr_min_depth: 2,
            lmr_keep: 1,
            lmp_all_first: 2,
            iir_min_depth: 4,
            clone_order: 125.0,
            fut_captures: 0,
            hist_gravity: 0,
            root_lmr: 0,
            lmr_pv: 0,
            rfp_nonpv: 0,
            asp_delta: 0.0,
        };
        if let Ok(s) = std::env::var("PLYSCOPE_TUNE") {
            for kv in s.split(',').filter(|x| !x.is_empty()) {
                let (k, v) = kv.split_once('=').expect("name=value");
                let f: f64 = v.parse().expect("a number");
                match k {
                    "rfp_max_depth" => t.rfp_max_depth = f as u32,
                    "rfp_margin" => t.rfp_margin = f,
                    "fut_margin" => t.fut_margin = f,
                    "fut_per_ply" => t.fut_per_ply = f,
                    "fut_max_depth" => t.fut_max_depth = f as u32,
                    "lmr_base" => t.lmr_base = f,
                    "lmr_div" => t.lmr_div = f,
                    "lmr_first" => t.lmr_first = f as usize,
                    "lmr_min_depth" => t.lmr_min_depth = f as u32,
                    "lmr_keep" => t.lmr_keep = f as u32,
                    "lmp_all_first" => t.lmp_all_first = f as usize,
                    "iir_min_depth" => t.iir_min_depth = f as u32,
                    "clone_order" => t.clone_order = f,
                    "fut_captures" => t.fut_captures = f as usize,
                    "hist_gravity" => t.hist_gravity = f as usize,
                    "root_lmr" => t.root_lmr = f as usize,
                    "lmr_pv" => t.lmr_pv = f as usize,
                    "rfp_nonpv" => t.rfp_nonpv = f as usize,
                    "asp_delta" => t.asp_delta = f,
                    _ => panic!("unknown tune knob {k}"),
                }
            }
            eprintln!("tune: {t:?}");
        }
        t
    })
}

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
pub static ST: [[AtomicU64; 8]; 40] = [const { [const { AtomicU64::new(0) }; 8] }; 40];
// columns: 0 entered, 1 tt cut, 2 rfp cut, 3 moves searched, 4 cutoffs, 5 cutoff at first, 6 fail-low nodes (no cut), 7 sum of index at cut
#[inline(always)]
pub fn st(d: u32, c: usize, n: u64) { if STATS_ON.load(Relaxed) { ST[(d as usize).min(39)][c].fetch_add(n, Relaxed); } }
pub static STATS_ON: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
pub fn dump() {
    eprintln!("d entered tt rfp searched cuts cut1st nocut avgcutidx");
    for d in 0..40 { let r: Vec<u64> = ST[d].iter().map(|x| x.load(Relaxed)).collect(); if r[0] > 0 { eprintln!("{d} {:?} {:.2}", r, r[7] as f64 / r[4].max(1) as f64); } }
}
