//! A slow, obviously-correct Khet move generator and laser, written apart from the engine: the
//! board is a grid of optional pieces indexed by (file, rank), facings are vectors, mirrors
//! reflect by the formula `v - 2 (v.n) n / |n|^2`, the beam graph is followed recursively with a
//! set of visited (square, direction) pairs, and it reads and writes the position text itself.
//! The tests compare it with the engine move by move and by perft.
#![allow(dead_code)]

use std::collections::{BTreeSet, HashSet};

/// A piece: its letter (`P`, `S`, `A`, `K`, `X`, `H`), colour and facing vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RPiece {
    pub kind: char,
    pub red: bool,
    /// For an Anubis or Sphinx: the way it faces. For a Pyramid, Scarab or Eye: the normal of
    /// its (front) mirror, a diagonal. Unused for the Pharaoh.
    pub face: (i32, i32),
}

/// A position as the reference sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RPos {
    pub grid: [[Option<RPiece>; 8]; 10],
    pub red_to_move: bool,
    pub clock: u32,
    pub fullmove: u32,
    pub id: String,
}

const ORTHO: [(&str, (i32, i32)); 4] =
    [("n", (0, 1)), ("e", (1, 0)), ("s", (0, -1)), ("w", (-1, 0))];
const DIAG: [(&str, (i32, i32)); 4] = [
    ("ne", (1, 1)),
    ("se", (1, -1)),
    ("sw", (-1, -1)),
    ("nw", (-1, 1)),
];

fn rot_cw(v: (i32, i32)) -> (i32, i32) {
    (v.1, -v.0)
}
fn rot_ccw(v: (i32, i32)) -> (i32, i32) {
    (-v.1, v.0)
}

/// Scarab and Eye faces are written with the one of `n` and `-n` that has a positive x.
fn canonical_two_sided(v: (i32, i32)) -> (i32, i32) {
    if v.0 < 0 {
        (-v.0, -v.1)
    } else {
        v
    }
}

pub fn parse(text: &str) -> RPos {
    let fields: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(fields.len(), 5, "{text}");
    let mut grid = [[None; 8]; 10];
    for (i, row) in fields[0].split('/').enumerate() {
        let rank = 7 - i;
        let mut file = 0usize;
        let cs: Vec<char> = row.chars().collect();
        let mut j = 0;
        while j < cs.len() {
            let c = cs[j];
            if c.is_ascii_digit() {
                let mut n = 0;
                while j < cs.len() && cs[j].is_ascii_digit() {
                    n = n * 10 + cs[j].to_digit(10).unwrap() as usize;
                    j += 1;
                }
                file += n;
                continue;
            }
            let kind = c.to_ascii_uppercase();
            let red = c.is_ascii_lowercase();
            j += 1;
            let face = match kind {
                'K' => (0, 0),
                'A' | 'X' => {
                    let s: String = cs[j..j + 1].iter().collect();
                    j += 1;
                    ORTHO.iter().find(|d| d.0 == s).unwrap().1
                }
                _ => {
                    let s: String = cs[j..j + 2].iter().collect();
                    j += 2;
                    DIAG.iter().find(|d| d.0 == s).unwrap().1
                }
            };
            let face = if kind == 'S' || kind == 'H' {
                canonical_two_sided(face)
            } else {
                face
            };
            grid[file][rank] = Some(RPiece { kind, red, face });
            file += 1;
        }
        assert_eq!(file, 10, "{row}");
    }
    RPos {
        grid,
        red_to_move: fields[1] == "r",
        clock: fields[2].parse().unwrap(),
        fullmove: fields[3].parse().unwrap(),
        id: fields[4].to_string(),
    }
}

pub fn write(p: &RPos) -> String {
    let mut rows = Vec::new();
    for rank in (0..8).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for file in 0..10 {
            match p.grid[file][rank] {
                None => empty += 1,
                Some(pc) => {
                    if empty > 0 {
                        s += &empty.to_string();
                        empty = 0;
                    }
                    s.push(if pc.red {
                        pc.kind.to_ascii_lowercase()
                    } else {
                        pc.kind
                    });
                    match pc.kind {
                        'K' => {}
                        'A' | 'X' => s += ORTHO.iter().find(|d| d.1 == pc.face).unwrap().0,
                        _ => s += DIAG.iter().find(|d| d.1 == pc.face).unwrap().0,
                    }
                }
            }
        }
        if empty > 0 {
            s += &empty.to_string();
        }
        rows.push(s);
    }
    format!(
        "{} {} {} {} {}",
        rows.join("/"),
        if p.red_to_move { "r" } else { "s" },
        p.clock,
        p.fullmove,
        p.id
    )
}

fn name(f: usize, r: usize) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// Whether a piece of this colour may stand on (f, r): the a file, i1 and i8 are Red's; the j
/// file, b1 and b8 are Silver's.
pub fn allowed(red: bool, f: usize, r: usize) -> bool {
    let reds = f == 0 || (f == 8 && (r == 0 || r == 7));
    let silvers = f == 9 || (f == 1 && (r == 0 || r == 7));
    if red {
        !silvers
    } else {
        !reds
    }
}

/// Both Pharaohs on the board?
pub fn pharaohs(p: &RPos) -> (bool, bool) {
    let mut s = (false, false);
    for col in &p.grid {
        for pc in col.iter().flatten() {
            if pc.kind == 'K' {
                if pc.red {
                    s.1 = true
                } else {
                    s.0 = true
                }
            }
        }
    }
    s
}

pub fn over(p: &RPos) -> bool {
    let (s, r) = pharaohs(p);
    !s || !r || p.clock >= 100
}

/// Every legal move as text with the position it leads to (after the shot).
pub fn moves(p: &RPos) -> Vec<(String, RPos)> {
    let mut out = Vec::new();
    if over(p) {
        return out;
    }
    let me = p.red_to_move;
    for f in 0..10 {
        for r in 0..8 {
            let Some(pc) = p.grid[f][r] else { continue };
            if pc.red != me {
                continue;
            }
            if pc.kind == 'X' {
                let choices: [(i32, i32); 2] = if me {
                    [(0, -1), (1, 0)]
                } else {
                    [(0, 1), (-1, 0)]
                };
                for (turn, suffix) in [(rot_cw as fn(_) -> _, "cw"), (rot_ccw, "ccw")] {
                    let nf = turn(pc.face);
                    if choices.contains(&nf) {
                        let mut q = p.clone();
                        q.grid[f][r] = Some(RPiece { face: nf, ..pc });
                        out.push((format!("{}{suffix}", name(f, r)), q));
                    }
                }
                continue;
            }
            for df in -1i32..=1 {
                for dr in -1i32..=1 {
                    if df == 0 && dr == 0 {
                        continue;
                    }
                    let (tf, tr) = (f as i32 + df, r as i32 + dr);
                    if !(0..10).contains(&tf) || !(0..8).contains(&tr) {
                        continue;
                    }
                    let (tf, tr) = (tf as usize, tr as usize);
                    if !allowed(me, tf, tr) {
                        continue;
                    }
                    match p.grid[tf][tr] {
                        None => {
                            let mut q = p.clone();
                            q.grid[tf][tr] = Some(pc);
                            q.grid[f][r] = None;
                            out.push((format!("{}-{}", name(f, r), name(tf, tr)), q));
                        }
                        Some(other) => {
                            if (pc.kind == 'S' || pc.kind == 'H')
                                && (other.kind == 'P' || other.kind == 'A')
                                && allowed(other.red, f, r)
                            {
                                let mut q = p.clone();
                                q.grid[tf][tr] = Some(pc);
                                q.grid[f][r] = Some(other);
                                out.push((format!("{}={}", name(f, r), name(tf, tr)), q));
                            }
                        }
                    }
                }
            }
            match pc.kind {
                'K' => {}
                'S' | 'H' => {
                    let mut q = p.clone();
                    q.grid[f][r] = Some(RPiece {
                        face: canonical_two_sided(rot_cw(pc.face)),
                        ..pc
                    });
                    out.push((format!("{}cw", name(f, r)), q));
                }
                _ => {
                    for (turn, suffix) in [(rot_cw as fn(_) -> _, "cw"), (rot_ccw, "ccw")] {
                        let mut q = p.clone();
                        q.grid[f][r] = Some(RPiece {
                            face: turn(pc.face),
                            ..pc
                        });
                        out.push((format!("{}{suffix}", name(f, r)), q));
                    }
                }
            }
        }
    }
    for (_, q) in out.iter_mut() {
        let kills = fire(q, me);
        for &(f, r) in &kills {
            q.grid[f][r] = None;
        }
        q.clock = if kills.is_empty() { q.clock + 1 } else { 0 };
        if me {
            q.fullmove += 1;
        }
        q.red_to_move = !me;
    }
    out
}

/// The squares `red`'s laser kills on `p`.
pub fn fire(p: &RPos, red: bool) -> BTreeSet<(usize, usize)> {
    let (sf, sr) = if red { (0, 7) } else { (9, 0) };
    let face = p.grid[sf][sr].expect("sphinx").face;
    let mut seen = HashSet::new();
    let mut kills = BTreeSet::new();
    beam(p, sf as i32, sr as i32, face, &mut seen, &mut kills);
    kills
}

fn dot(a: (i32, i32), b: (i32, i32)) -> i32 {
    a.0 * b.0 + a.1 * b.1
}

fn reflect(v: (i32, i32), n: (i32, i32)) -> (i32, i32) {
    // v - 2 (v.n) n / |n|^2, with |n|^2 = 2 for a diagonal normal.
    let k = dot(v, n);
    (v.0 - k * n.0, v.1 - k * n.1)
}

/// Follows a beam leaving (f, r) heading `v`.
fn beam(
    p: &RPos,
    f: i32,
    r: i32,
    v: (i32, i32),
    seen: &mut HashSet<(i32, i32, (i32, i32))>,
    kills: &mut BTreeSet<(usize, usize)>,
) {
    if !seen.insert((f, r, v)) {
        return;
    }
    let (mut x, mut y) = (f, r);
    loop {
        x += v.0;
        y += v.1;
        if !(0..10).contains(&x) || !(0..8).contains(&y) {
            return;
        }
        if let Some(pc) = p.grid[x as usize][y as usize] {
            match pc.kind {
                'X' => {}
                'K' => {
                    kills.insert((x as usize, y as usize));
                }
                'A' => {
                    if dot(v, pc.face) >= 0 {
                        kills.insert((x as usize, y as usize));
                    }
                }
                'P' => {
                    if dot(v, pc.face) < 0 {
                        beam(p, x, y, reflect(v, pc.face), seen, kills);
                    } else {
                        kills.insert((x as usize, y as usize));
                    }
                }
                'S' => beam(p, x, y, reflect(v, pc.face), seen, kills),
                'H' => {
                    beam(p, x, y, reflect(v, pc.face), seen, kills);
                    beam(p, x, y, v, seen, kills);
                }
                other => panic!("piece {other}"),
            }
            return;
        }
    }
}

/// Perft with the engine's convention (a finished game counts 0 from depth 1).
pub fn perft(p: &RPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let ms = moves(p);
    if depth == 1 {
        return ms.len() as u64;
    }
    ms.iter().map(|(_, q)| perft(q, depth - 1)).sum()
}
