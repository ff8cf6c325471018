//! Hive's move generation: placements, each bug's movement, the Pillbug's power, and the pieces
//! pinned by the one-hive rule (the articulation points of the ground pieces, found in one
//! depth-first walk, linear in the number of pieces).

use super::{
    bug_of, nb, side_of, Bug, Hive, HiveMove, CELLS, IN_HAND, NONE, PER_SIDE, PIECES, QUEEN, SLOTS,
};

/// A set of cells of the torus.
#[derive(Clone, Copy)]
pub struct Cells([u64; CELLS / 64]);

impl Cells {
    /// No cell.
    #[inline(always)]
    pub fn new() -> Self {
        Cells([0; CELLS / 64])
    }
    /// Adds `c`; returns whether it was new.
    #[inline(always)]
    pub fn insert(&mut self, c: u16) -> bool {
        let (w, b) = ((c >> 6) as usize, c & 63);
        let new = self.0[w] & (1 << b) == 0;
        self.0[w] |= 1 << b;
        new
    }
    /// Whether `c` is in the set.
    #[inline(always)]
    pub fn contains(&self, c: u16) -> bool {
        self.0[(c >> 6) as usize] & (1 << (c & 63)) != 0
    }
    /// Removes `c`.
    #[inline(always)]
    pub fn remove(&mut self, c: u16) {
        self.0[(c >> 6) as usize] &= !(1 << (c & 63));
    }
    /// The number of cells.
    #[inline]
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    /// Calls `f` on each cell, in index order.
    #[inline]
    pub fn each(&self, mut f: impl FnMut(u16)) {
        for (i, &w) in self.0.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                f((i as u16) << 6 | w.trailing_zeros() as u16);
                w &= w - 1;
            }
        }
    }
}

impl Default for Cells {
    fn default() -> Self {
        Cells::new()
    }
}

/// The board as seen by a piece that has lifted itself off `from`.
struct Lifted<'a> {
    h: &'a Hive,
    from: u16,
    /// Whether `from` is empty without the lifted piece (it was on the ground).
    from_empties: bool,
}

impl<'a> Lifted<'a> {
    /// The board without the piece on top of `from`.
    #[inline(always)]
    fn new(h: &'a Hive, from: u16) -> Self {
        let t = h.top[from as usize];
        Lifted {
            h,
            from,
            from_empties: t != 0 && h.lvl[t as usize - 1] == 0,
        }
    }
    #[inline(always)]
    fn height(&self, c: u16) -> u8 {
        self.h.height(c) - (c == self.from) as u8
    }
    #[inline(always)]
    fn occupied(&self, c: u16) -> bool {
        self.h.top[c as usize] != 0 && !(c == self.from && self.from_empties)
    }
    /// A step on the ground from `a` to its (empty) neighbour in direction `d`: the two shared
    /// neighbours may not both be occupied (a gate), and one must be (the piece keeps touching).
    #[inline(always)]
    fn slide(&self, a: u16, d: usize) -> bool {
        let o1 = self.occupied(nb(a, (d + 5) % 6));
        let o2 = self.occupied(nb(a, (d + 1) % 6));
        o1 != o2
    }
    /// A step from `a` (stack height `hf` without the mover) to the neighbour in direction `d`
    /// (height `ht`), for climbing pieces: the shared neighbours may not both be higher than
    /// both ends; on the ground it is [`Lifted::slide`].
    #[inline(always)]
    fn step(&self, a: u16, d: usize, hf: u8, ht: u8) -> bool {
        let h1 = self.height(nb(a, (d + 5) % 6));
        let h2 = self.height(nb(a, (d + 1) % 6));
        let top = hf.max(ht);
        if top == 0 {
            (h1 != 0) != (h2 != 0)
        } else {
            h1.min(h2) <= top
        }
    }
}

impl Hive {
    /// The ground piece of an occupied cell.
    #[inline(always)]
    fn ground(&self, c: u16) -> u8 {
        let mut p = self.top(c);
        while self.lvl[p as usize] != 0 {
            p = self.under[p as usize];
        }
        p
    }

    /// The pieces pinned by the one-hive rule: bit `p` is set when piece `p` lies on the ground
    /// and the ground pieces would fall apart without it (an articulation point). Found with one
    /// iterative depth-first walk (Hopcroft and Tarjan), linear in the number of pieces.
    pub fn pinned(&self) -> u32 {
        // The ground pieces' graph as one neighbour mask per piece, built once: the walk below
        // then visits each edge once, without looking at empty cells or stacks again.
        let mut nbrs = [0u32; PIECES];
        let mut ground = 0u32;
        for p in 0..PIECES {
            if self.pos[p] != IN_HAND && self.lvl[p] == 0 {
                ground |= 1 << p;
            }
        }
        if ground == 0 {
            return 0;
        }
        // A piece whose occupied neighbours form one unbroken arc is never pinned (they stay
        // joined along the arc): when every piece is such, nothing is pinned and the walk is
        // skipped.
        let mut broken_arc = false;
        let mut g = ground;
        while g != 0 {
            let p = g.trailing_zeros() as usize;
            g &= g - 1;
            let c = self.pos[p];
            let mut m = 0u32;
            let mut occ = 0u32;
            for d in 0..6 {
                let e = nb(c, d);
                if self.top[e as usize] != 0 {
                    m |= 1 << self.ground(e);
                    occ |= 1 << d;
                }
            }
            let starts = occ & !(((occ << 1) | (occ >> 5)) & 63);
            broken_arc |= starts.count_ones() > 1;
            nbrs[p] = m;
        }
        if !broken_arc {
            return 0;
        }
        let start = ground.trailing_zeros() as u8;
        let mut disc = [0u8; PIECES];
        let mut low = [0u8; PIECES];
        let mut parent = [NONE; PIECES];
        // Each entry: a piece and the neighbours it has still to look at.
        let mut stack = [(0u8, 0u32); PIECES];
        let mut sp = 1;
        stack[0] = (start, nbrs[start as usize]);
        let mut timer = 1u8;
        disc[start as usize] = 1;
        low[start as usize] = 1;
        let mut root_children = 0;
        let mut art = 0u32;
        while sp > 0 {
            let (v, rest) = stack[sp - 1];
            if rest != 0 {
                stack[sp - 1].1 = rest & (rest - 1);
                let w = rest.trailing_zeros() as u8;
                if disc[w as usize] == 0 {
                    timer += 1;
                    disc[w as usize] = timer;
                    low[w as usize] = timer;
                    parent[w as usize] = v;
                    if v == start {
                        root_children += 1;
                    }
                    stack[sp] = (w, nbrs[w as usize]);
                    sp += 1;
                } else if w != parent[v as usize] {
                    low[v as usize] = low[v as usize].min(disc[w as usize]);
                }
            } else {
                sp -= 1;
                let p = parent[v as usize];
                if p != NONE {
                    low[p as usize] = low[p as usize].min(low[v as usize]);
                    if p != start && low[v as usize] >= disc[p as usize] {
                        art |= 1 << p;
                    }
                }
            }
        }
        if root_children > 1 {
            art |= 1 << start;
        }
        art
    }

    /// Whether ground piece `p` on `c` is pinned by the one-hive rule. A piece whose occupied
    /// neighbours form one unbroken arc around it is never pinned (they stay joined along the arc);
    /// only otherwise is [`Hive::pinned`] computed, once, into `pins`.
    #[inline(always)]
    fn is_pinned(&self, p: u8, c: u16, pins: &mut Option<u32>) -> bool {
        let mut m = 0u32;
        for d in 0..6 {
            m |= ((self.top[nb(c, d) as usize] != 0) as u32) << d;
        }
        // Bit d of `starts`: neighbour d is occupied and neighbour d - 1 is not (an arc begins).
        let starts = m & !(((m << 1) | (m >> 5)) & 63);
        if starts.count_ones() <= 1 {
            return false;
        }
        let all = *pins.get_or_insert_with(|| self.pinned());
        all & (1 << p) != 0
    }

    /// The cells where the side to move may place a piece.
    pub fn placement_cells(&self) -> Cells {
        let mut cells = Cells::new();
        match self.plies {
            0 => {
                cells.insert(super::CENTER);
            }
            1 => {
                for d in 0..6 {
                    cells.insert(nb(super::CENTER, d));
                }
            }
            _ => {
                // An empty cell next to an own top piece and none of the enemy's (the neighbour
                // counts kept by `make`); a cell seen twice is inserted twice, which is harmless.
                let s = self.side();
                for p in s as usize * PER_SIDE..(s as usize + 1) * PER_SIDE {
                    let c = self.pos[p];
                    if c == IN_HAND || self.top[c as usize] != p as u8 + 1 {
                        continue;
                    }
                    for d in 0..6 {
                        let e = nb(c, d);
                        if self.top[e as usize] == 0 && self.side_neighbours(e, 1 - s) == 0 {
                            cells.insert(e);
                        }
                    }
                }
            }
        }
        cells
    }

    /// The number of cells in [`Hive::placement_cells`], without building the set: each cell is
    /// reached once from each of its own-coloured neighbours, so it adds 60 divided by their number
    /// (60 is divisible by 1..=6) and the sum is divided by 60.
    pub fn placement_count(&self) -> u32 {
        const SHARE: [u32; 7] = [0, 60, 30, 20, 15, 12, 10];
        match self.plies {
            0 => 1,
            1 => 6,
            _ => {
                let s = self.side();
                let mut sum = 0;
                for p in s as usize * PER_SIDE..(s as usize + 1) * PER_SIDE {
                    let c = self.pos[p];
                    if c == IN_HAND || self.top[c as usize] != p as u8 + 1 {
                        continue;
                    }
                    for d in 0..6 {
                        let e = nb(c, d);
                        if self.top[e as usize] == 0 && self.side_neighbours(e, 1 - s) == 0 {
                            sum += SHARE[self.side_neighbours(e, s) as usize];
                        }
                    }
                }
                sum / 60
            }
        }
    }

    /// The pieces the side to move may place now (the lowest numbered in hand of each bug).
    pub fn placeable(&self) -> impl Iterator<Item = u8> + '_ {
        let s = self.side() as usize;
        let turn = self.turn_number();
        let queen_in_hand = self.pos[s * PER_SIDE + QUEEN] == IN_HAND;
        let must_queen = queen_in_hand && turn == 4;
        (0..PER_SIDE).filter_map(move |slot| {
            let p = s * PER_SIDE + slot;
            if self.pos[p] != IN_HAND || !self.exp.has_slot(slot) {
                return None;
            }
            if slot > 0 && SLOTS[slot - 1].0 == SLOTS[slot].0 && self.pos[p - 1] == IN_HAND {
                return None;
            }
            if slot == QUEEN && turn == 1 {
                return None;
            }
            if must_queen && slot != QUEEN {
                return None;
            }
            Some(p as u8)
        })
    }

    /// How many pieces [`Hive::placeable`] gives: the bugs with a piece in hand (pieces of a bug are
    /// placed in number order, so its highest numbered one is in hand when any is).
    #[inline]
    pub fn placeable_count(&self) -> u32 {
        /// Each bug's highest numbered slot.
        const LAST_OF_BUG: [usize; 8] = [0, 2, 4, 7, 10, 11, 12, 13];
        let s = self.side() as usize * PER_SIDE;
        let turn = self.turn_number();
        if self.pos[s + QUEEN] == IN_HAND && turn == 4 {
            return 1;
        }
        let mut n = 0;
        for slot in LAST_OF_BUG {
            n += (self.pos[s + slot] == IN_HAND && self.exp.has_slot(slot)) as u32;
        }
        if turn == 1 && self.pos[s + QUEEN] == IN_HAND {
            n -= 1;
        }
        n
    }

    /// Destinations of piece `p` (on top of its stack, free to move) moving as `bug`.
    #[inline]
    fn bug_moves(&self, p: u8, bug: Bug, dest: &mut Cells) {
        self.bug_dests(p, bug, &mut |c| {
            dest.insert(c);
        });
    }

    /// Calls `f` on each destination of piece `p` (on top of its stack, free to move) moving as
    /// `bug`. Each destination comes once for the Queen, Pillbug, Beetle, Grasshopper and Ant
    /// (never `p`'s own cell); the Spider, Ladybug and Mosquito may repeat one.
    fn bug_dests<F: FnMut(u16)>(&self, p: u8, bug: Bug, f: &mut F) {
        let from = self.pos[p as usize];
        let v = Lifted::new(self, from);
        match bug {
            Bug::Queen | Bug::Pillbug => {
                for d in 0..6 {
                    let b = nb(from, d);
                    if !v.occupied(b) && v.slide(from, d) {
                        f(b);
                    }
                }
            }
            Bug::Beetle => {
                let hf = v.height(from);
                for d in 0..6 {
                    let b = nb(from, d);
                    let ht = v.height(b);
                    if v.step(from, d, hf, ht) {
                        f(b);
                    }
                }
            }
            Bug::Grasshopper => {
                for d in 0..6 {
                    let mut c = nb(from, d);
                    if !v.occupied(c) {
                        continue;
                    }
                    while v.occupied(c) {
                        c = nb(c, d);
                    }
                    f(c);
                }
            }
            Bug::Spider => {
                // Three slides without coming back to a cell.
                for d1 in 0..6 {
                    let c1 = nb(from, d1);
                    if v.occupied(c1) || !v.slide(from, d1) {
                        continue;
                    }
                    for d2 in 0..6 {
                        let c2 = nb(c1, d2);
                        if c2 == from || v.occupied(c2) || !v.slide(c1, d2) {
                            continue;
                        }
                        for d3 in 0..6 {
                            let c3 = nb(c2, d3);
                            if c3 == from || c3 == c1 || v.occupied(c3) || !v.slide(c2, d3) {
                                continue;
                            }
                            f(c3);
                        }
                    }
                }
            }
            Bug::Ant => {
                let mut seen = Cells::new();
                seen.insert(from);
                let mut queue = [0u16; 2 * PIECES + 8];
                let (mut head, mut tail) = (0, 1);
                queue[0] = from;
                while head < tail {
                    let a = queue[head];
                    head += 1;
                    for d in 0..6 {
                        let b = nb(a, d);
                        if v.occupied(b) || seen.contains(b) || !v.slide(a, d) {
                            continue;
                        }
                        seen.insert(b);
                        f(b);
                        if tail < queue.len() {
                            queue[tail] = b;
                            tail += 1;
                        }
                    }
                }
            }
            Bug::Ladybug => {
                let hf = v.height(from);
                for d1 in 0..6 {
                    let c1 = nb(from, d1);
                    let h1 = v.height(c1);
                    if h1 == 0 || !v.step(from, d1, hf, h1) {
                        continue;
                    }
                    for d2 in 0..6 {
                        let c2 = nb(c1, d2);
                        let h2 = v.height(c2);
                        if h2 == 0 || !v.step(c1, d2, h1, h2) {
                            continue;
                        }
                        for d3 in 0..6 {
                            let c3 = nb(c2, d3);
                            if c3 == from || v.occupied(c3) || !v.step(c2, d3, h2, 0) {
                                continue;
                            }
                            f(c3);
                        }
                    }
                }
            }
            Bug::Mosquito => {
                if self.lvl[p as usize] > 0 {
                    self.bug_dests(p, Bug::Beetle, f);
                    return;
                }
                let mut kinds = 0u8;
                for d in 0..6 {
                    let t = self.top(nb(from, d));
                    if t != NONE {
                        kinds |= 1 << bug_of(t) as u8;
                    }
                }
                if kinds & (1 << Bug::Beetle as u8) != 0 {
                    // The beetle's steps include the queen's and the pillbug's.
                    kinds &= !((1 << Bug::Queen as u8) | (1 << Bug::Pillbug as u8));
                }
                if kinds & (1 << Bug::Pillbug as u8) != 0 {
                    kinds &= !(1 << Bug::Queen as u8);
                }
                for b in [
                    Bug::Queen,
                    Bug::Spider,
                    Bug::Beetle,
                    Bug::Grasshopper,
                    Bug::Ant,
                    Bug::Ladybug,
                    Bug::Pillbug,
                ] {
                    if kinds & (1 << b as u8) != 0 {
                        self.bug_dests(p, b, f);
                    }
                }
            }
        }
    }

    /// The moves of the Pillbug's power for the side to move: `(piece, cell)` pairs, possibly
    /// repeated. `pins` caches [`Hive::pinned`] (see [`Hive::is_pinned`]).
    fn throws(&self, pins: &mut Option<u32>, out: &mut [(u8, u16); 72]) -> usize {
        let s = self.side() as usize;
        let mut n = 0;
        let own = s * PER_SIDE;
        for src in [own + super::PILLBUG, own + super::MOSQUITO] {
            let c = self.pos[src];
            if c == IN_HAND
                || self.lvl[src] != 0
                || self.top[c as usize] != src as u8 + 1
                || src as u8 == self.last
            {
                continue;
            }
            if src == own + super::MOSQUITO {
                let touches_pillbug = (0..6).any(|d| {
                    let t = self.top(nb(c, d));
                    t != NONE && bug_of(t) == Bug::Pillbug
                });
                if !touches_pillbug {
                    continue;
                }
            }
            for d in 0..6 {
                let x = nb(c, d);
                let t = self.top(x);
                if t == NONE
                    || self.lvl[t as usize] != 0
                    || t == self.last
                    || self.is_pinned(t, x, pins)
                {
                    continue;
                }
                let v = Lifted::new(self, x);
                // Up from x onto the pillbug (height 1), then down to an empty neighbour.
                if !v.step(x, (d + 3) % 6, 0, 1) {
                    continue;
                }
                for e in 0..6 {
                    let y = nb(c, e);
                    if v.occupied(y) || y == x || !v.step(c, e, 1, 0) {
                        continue;
                    }
                    out[n] = (t, y);
                    n += 1;
                }
            }
        }
        n
    }

    /// Fills `out` (cleared first) with the legal moves, or the pass when there is none. The game
    /// must not be over.
    pub fn gen_moves(&self, out: &mut Vec<HiveMove>) {
        out.clear();
        let cells = self.placement_cells();
        for p in self.placeable() {
            cells.each(|c| out.push(HiveMove { piece: p, to: c }));
        }
        let s = self.side() as usize;
        if self.pos[s * PER_SIDE + QUEEN] != IN_HAND {
            self.gen_movements(out);
        }
        if out.is_empty() {
            out.push(HiveMove::PASS);
        }
    }

    /// Whether `m` (not the pass) is one of [`Hive::gen_moves`]'s moves, found without generating
    /// the others: a placement's piece and cell are checked directly, a movement walks only the
    /// moving piece's destinations (and the Pillbug's throws). The game must not be over. The
    /// search uses it to try the table's move and the killers before generating every move.
    pub fn is_legal_move(&self, m: HiveMove) -> bool {
        if m.is_pass() || m.piece as usize >= PIECES || m.to as usize >= CELLS {
            return false;
        }
        let p = m.piece;
        let s = self.side();
        let from = self.pos[p as usize];
        if from == IN_HAND {
            if side_of(p) != s || self.top[m.to as usize] != 0 || !self.placeable().any(|q| q == p)
            {
                return false;
            }
            return match self.plies {
                0 => m.to == super::CENTER,
                1 => (0..6).any(|d| nb(super::CENTER, d) == m.to),
                _ => {
                    self.side_neighbours(m.to, 1 - s) == 0 && self.side_neighbours(m.to, s) > 0
                }
            };
        }
        if !self.queen_placed(s) || from == m.to {
            return false;
        }
        let mut pins = None;
        if side_of(p) == s
            && self.top[from as usize] == p + 1
            && p != self.last
            && !(self.lvl[p as usize] == 0 && self.is_pinned(p, from, &mut pins))
        {
            let mut found = false;
            self.bug_dests(p, bug_of(p), &mut |c| found |= c == m.to);
            if found {
                return true;
            }
        }
        if !self.exp.pillbug {
            return false;
        }
        let mut throws = [(0u8, 0u16); 72];
        let nt = self.throws(&mut pins, &mut throws);
        throws[..nt].contains(&(p, m.to))
    }

    /// Whether piece `p` (on top of its stack) has somewhere to go by its own movement, ignoring
    /// the one-hive pin and whose turn it is.
    ///
    /// Stops at the first destination found: an ant, a queen or a pillbug can move when one slide
    /// out of its cell is open (the ant's first slide is itself a destination), a beetle when one
    /// step is, a grasshopper when a neighbour is occupied; only the spider and the ladybug (and a
    /// mosquito copying them) walk their paths. The evaluator asks this of every piece at every
    /// leaf, where the ants' full walks cost more than the rest of the evaluation.
    pub fn can_move_somewhere(&self, p: u8) -> bool {
        self.bug_can_move(p, bug_of(p))
    }

    /// Whether piece `p` moving as `bug` has a destination (see [`Hive::can_move_somewhere`]).
    fn bug_can_move(&self, p: u8, bug: Bug) -> bool {
        let from = self.pos[p as usize];
        let v = Lifted::new(self, from);
        match bug {
            Bug::Queen | Bug::Pillbug | Bug::Ant => (0..6).any(|d| {
                let b = nb(from, d);
                !v.occupied(b) && v.slide(from, d)
            }),
            Bug::Beetle => {
                let hf = v.height(from);
                (0..6).any(|d| v.step(from, d, hf, v.height(nb(from, d))))
            }
            Bug::Grasshopper => (0..6).any(|d| v.occupied(nb(from, d))),
            Bug::Spider | Bug::Ladybug => {
                // Neither path ends where it began (see `bug_dests`).
                let mut any = false;
                self.bug_dests(p, bug, &mut |c| any |= c != from);
                any
            }
            Bug::Mosquito => {
                if self.lvl[p as usize] > 0 {
                    return self.bug_can_move(p, Bug::Beetle);
                }
                let mut kinds = 0u8;
                for d in 0..6 {
                    let t = self.top(nb(from, d));
                    if t != NONE {
                        kinds |= 1 << bug_of(t) as u8;
                    }
                }
                [
                    Bug::Beetle,
                    Bug::Ant,
                    Bug::Queen,
                    Bug::Pillbug,
                    Bug::Grasshopper,
                    Bug::Spider,
                    Bug::Ladybug,
                ]
                .into_iter()
                .any(|b| kinds & (1 << b as u8) != 0 && self.bug_can_move(p, b))
            }
        }
    }

    /// [`Hive::can_move_somewhere`] the slow way, from the full set of destinations (for tests).
    #[doc(hidden)]
    pub fn can_move_somewhere_by_walk(&self, p: u8) -> bool {
        let mut dest = Cells::new();
        self.bug_moves(p, bug_of(p), &mut dest);
        dest.remove(self.pos[p as usize]);
        !dest.is_empty()
    }

    /// The number of legal moves (the pass counts one); the game must not be over.
    pub fn count_moves(&self) -> u64 {
        let mut n = 0;
        let np = self.placeable_count() as u64;
        if np > 0 {
            n = np * self.placement_count() as u64;
        }
        let s = self.side() as usize;
        if self.pos[s * PER_SIDE + QUEEN] != IN_HAND {
            n += self.count_movements();
        }
        n.max(1)
    }

    /// The number of movements of the side to move (its queen placed), as [`Hive::movements`]
    /// would give them, building a cell set only for the pieces whose destinations may repeat
    /// (Spider, Ladybug, Mosquito, or a piece that can also be thrown).
    fn count_movements(&self) -> u64 {
        let s = self.side() as usize;
        let mut pins = None;
        let mut throws = [(0u8, 0u16); 72];
        let nt = if self.exp.pillbug {
            self.throws(&mut pins, &mut throws)
        } else {
            0
        };
        let mut n = 0u64;
        for p in (s * PER_SIDE) as u8..((s + 1) * PER_SIDE) as u8 {
            let c = self.pos[p as usize];
            if c == IN_HAND || self.top[c as usize] != p + 1 || p == self.last {
                continue;
            }
            let free = !(self.lvl[p as usize] == 0 && self.is_pinned(p, c, &mut pins));
            let thrown = throws[..nt].iter().any(|&(t, _)| t == p);
            let bug = bug_of(p);
            if !thrown
                && matches!(
                    bug,
                    Bug::Queen | Bug::Pillbug | Bug::Beetle | Bug::Grasshopper | Bug::Ant
                )
            {
                if free {
                    self.bug_dests(p, bug, &mut |_| n += 1);
                }
                continue;
            }
            let mut dest = Cells::new();
            if free {
                self.bug_moves(p, bug, &mut dest);
            }
            for &(t, y) in &throws[..nt] {
                if t == p {
                    dest.insert(y);
                }
            }
            dest.remove(c);
            n += dest.len() as u64;
        }
        let mut enemy = [HiveMove::PASS; 72];
        let mut ne = 0;
        for &(t, y) in &throws[..nt] {
            let m = HiveMove { piece: t, to: y };
            if side_of(t) as usize != s && !enemy[..ne].contains(&m) {
                enemy[ne] = m;
                ne += 1;
            }
        }
        n + ne as u64
    }

    fn gen_movements(&self, out: &mut Vec<HiveMove>) {
        let mut enemy = [HiveMove::PASS; 72];
        let mut ne = 0;
        self.movements(
            |p, dest| dest.each(|y| out.push(HiveMove { piece: p, to: y })),
            |m| {
                if !enemy[..ne].contains(&m) {
                    enemy[ne] = m;
                    ne += 1;
                }
            },
        );
        out.extend_from_slice(&enemy[..ne]);
    }

    /// The movements of the side to move (its queen placed): `own` gets each own piece with its
    /// destinations (its own movement and the throws of it, merged), `enemy` each throw of an enemy
    /// piece (possibly twice, by the Pillbug and by the Mosquito).
    #[inline]
    fn movements(&self, mut own: impl FnMut(u8, &Cells), mut enemy: impl FnMut(HiveMove)) {
        let s = self.side() as usize;
        let mut pins = None;
        let mut throws = [(0u8, 0u16); 72];
        let nt = if self.exp.pillbug {
            self.throws(&mut pins, &mut throws)
        } else {
            0
        };
        for p in (s * PER_SIDE) as u8..((s + 1) * PER_SIDE) as u8 {
            let c = self.pos[p as usize];
            if c == IN_HAND || self.top[c as usize] != p + 1 || p == self.last {
                continue;
            }
            let mut dest = Cells::new();
            if !(self.lvl[p as usize] == 0 && self.is_pinned(p, c, &mut pins)) {
                self.bug_moves(p, bug_of(p), &mut dest);
            }
            for &(t, y) in &throws[..nt] {
                if t == p {
                    dest.insert(y);
                }
            }
            dest.remove(c);
            own(p, &dest);
        }
        for &(t, y) in &throws[..nt] {
            if side_of(t) as usize != s {
                enemy(HiveMove { piece: t, to: y });
            }
        }
    }
}
