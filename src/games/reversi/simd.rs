//! Move generation and flips on the 8x8 bitboard with WebAssembly SIMD (128-bit vectors of two
//! `u64` lanes), compiled only into the SIMD build of the engine (`scripts/build-wasm.sh` builds it
//! with `target-feature=+simd128` into `pkg/simd/`; the worker loads it where the browser runs
//! SIMD). Same results as the scalar functions in `bitboard.rs`, which every other build uses.
//!
//! The trick that lets two directions share one vector: a board turned upside down (its bytes,
//! which are its rows, reversed) turns north into south, north-east into south-east and north-west
//! into south-west. So a vector holds the board in lane 0 and the board upside down in lane 1, and
//! one shift towards higher bits runs two opposite directions at once. Only east-west has no such
//! partner (a row reversed bit by bit has no cheap instruction); it stays scalar.

use super::bitboard::{line_moves, ray, INNER_COLS, RAYS};
use core::arch::wasm32::*;

/// Byte order for `i8x16_swizzle`: lane 0 as it is, lane 1 upside down.
const LANE1_UPSIDE_DOWN: v128 = u8x16(0, 1, 2, 3, 4, 5, 6, 7, 15, 14, 13, 12, 11, 10, 9, 8);
/// Byte order for `i8x16_swizzle`: both lanes upside down.
const BOTH_UPSIDE_DOWN: v128 = u8x16(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);

/// Per cell, four pairs of rays that all run towards higher bits, for [`flips8`]: (east, south)
/// and (south-east, south-west) of the cell; then, on the board upside down, (south, south-west)
/// and (south-east, none) of the cell's mirror image, which are its north, north-west and
/// north-east rays turned upside down. Direction numbers as in `board::DIRS`.
static RAY_PAIRS: [[[u64; 2]; 4]; 64] = {
    let mut t = [[[0u64; 2]; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let m = sq ^ 56; // the same column, the mirrored row
        t[sq] = [
            [ray(0, sq), ray(2, sq)],
            [ray(4, sq), ray(6, sq)],
            [ray(2, m), ray(6, m)],
            [ray(4, m), 0],
        ];
        sq += 1;
    }
    t
};

/// `x` in lane 0 and `x` upside down in lane 1.
#[inline(always)]
fn with_mirror(x: u64) -> v128 {
    i8x16_swizzle(u64x2_splat(x), LANE1_UPSIDE_DOWN)
}

/// [`line_moves`] towards higher bits only, lane by lane.
#[inline(always)]
fn line_moves_up(p: v128, mask: v128, dir: u32) -> v128 {
    let mut f = v128_and(mask, i64x2_shl(p, dir));
    f = v128_or(f, v128_and(mask, i64x2_shl(f, dir)));
    let m = v128_and(mask, i64x2_shl(mask, dir));
    f = v128_or(f, v128_and(m, i64x2_shl(f, dir * 2)));
    f = v128_or(f, v128_and(m, i64x2_shl(f, dir * 2)));
    i64x2_shl(f, dir)
}

/// The cells where the owner of `p` may play against `o` (as `bitboard::moves8`).
#[inline(always)]
pub(crate) fn moves8(p: u64, o: u64) -> u64 {
    let pv = with_mirror(p);
    let ov = with_mirror(o);
    // The inner columns are the same upside down.
    let inner = v128_and(ov, u64x2_splat(INNER_COLS));
    // Lane 0: the three directions towards higher bits (8: one row on, 7 and 9: the diagonals);
    // lane 1: the same upside down, which are the three opposite directions.
    let v = v128_or(
        v128_or(line_moves_up(pv, ov, 8), line_moves_up(pv, inner, 7)),
        line_moves_up(pv, inner, 9),
    );
    let v = i8x16_swizzle(v, LANE1_UPSIDE_DOWN);
    let lines = u64x2_extract_lane::<0>(v) | u64x2_extract_lane::<1>(v);
    (lines | line_moves(p, o & INNER_COLS, 1)) & !(p | o)
}

/// The discs flipped along two rays towards higher bits, lane by lane: up to the first cell that
/// is not an opponent disc, when that cell holds a disc of the mover.
#[inline(always)]
fn ray_flips(p: v128, o: v128, ray: v128) -> v128 {
    let stop = v128_andnot(ray, o);
    let first = v128_and(stop, i64x2_neg(stop));
    let line = v128_and(i64x2_sub(first, u64x2_splat(1)), ray);
    let hit = i64x2_ne(v128_and(first, p), u64x2_splat(0));
    v128_and(line, hit)
}

/// The discs of `o` flipped when the owner of `p` plays on bit `x` (as `bitboard::flips8`).
#[inline(always)]
pub(crate) fn flips8(p: u64, o: u64, x: u32) -> u64 {
    let x = x as usize;
    let rays = &RAY_PAIRS[x];
    let load = |i: usize| u64x2(rays[i][0], rays[i][1]);
    let pv = u64x2_splat(p);
    let ov = u64x2_splat(o);
    let pm = i8x16_swizzle(pv, BOTH_UPSIDE_DOWN);
    let om = i8x16_swizzle(ov, BOTH_UPSIDE_DOWN);
    let down = v128_or(ray_flips(pv, ov, load(0)), ray_flips(pv, ov, load(1)));
    let up = v128_or(ray_flips(pm, om, load(2)), ray_flips(pm, om, load(3)));
    let v = v128_or(down, i8x16_swizzle(up, BOTH_UPSIDE_DOWN));
    let mut f = u64x2_extract_lane::<0>(v) | u64x2_extract_lane::<1>(v);
    // West, towards lower bits, as the scalar code does it.
    let ray = RAYS[1][x];
    let stop = ray & !o;
    let first = (1u64 << 63).wrapping_shr(stop.leading_zeros());
    let line = ray & !(first << 1).wrapping_sub(1);
    f |= line & ((first & p & stop != 0) as u64).wrapping_neg();
    f
}
