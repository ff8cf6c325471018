//! Parallel search by Lazy SMP: helper threads run the same iterative deepening on the same root
//! as the main thread, sharing one lock-free transposition table ([`SharedTable`]). They answer
//! nothing themselves: what they store in the table lets the main thread cut and order its own
//! search sooner. The main thread's result is the answer, and only its search is recorded; when
//! it finishes (or its budget ends, or it is stopped) it raises a flag that stops the helpers.
//!
//! Diversity: odd helpers start at depth 2, even ones at depth 1, and helpers search every
//! iteration with a full window (no aspiration), so the threads are seldom on the same node at
//! the same time. Each thread has its own killers, history and move buffers.
//!
//! Deferral (ABDADA's, [`SearchConfig::defer_busy`]): at nodes with at least 3 plies left each
//! thread marks the move it is searching in the shared table's busy words, and a thread that
//! comes to a move another one is on (not its node's first) puts it off until the node's other
//! moves are searched. Two threads then split a node's moves instead of walking them in step.
//!
//! The first to finish answers: a helper that completes the search's depth before the main thread
//! leaves its root moves in the search's [`Answer`] and stops the main thread, whose search then
//! returns that result (when no tree is recorded: a recorded tree is the main thread's search, so
//! it answers itself). With 2 threads a helper finished first in most runs (docs/benchmarks.md,
//! session 18): it searches with a full window, the main thread re-searches when its aspiration
//! window fails.

use super::super::config::MAX_THREADS;
use super::*;
use crate::tree::WorkerStats;
use std::sync::{Condvar, Mutex, MutexGuard};

/// The deepest iteration a helper starts (the main thread stops it long before, as a rule).
const HELPER_MAX_DEPTH: u32 = 64;

/// Whether `cfg` asks for a parallel search: more than one thread, alpha-beta or minimax, and a
/// transposition table to share. (Expectimax with more than one thread is refused by
/// [`SearchConfig::validate`]; the other algorithms use one thread.)
pub(super) fn parallel(cfg: &SearchConfig) -> bool {
    cfg.threads > 1
        && matches!(cfg.algorithm, Algorithm::Alphabeta | Algorithm::Minimax)
        && cfg.uses_tt()
}

/// One helper's work: it runs until the search's stop flag and reports its statistics.
#[cfg(not(all(target_arch = "wasm32", target_feature = "atomics")))]
type Job<'a> = Box<dyn FnOnce() -> WorkerStats + Send + 'a>;
#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
use super::super::wasm_threads::Job;

/// Searches `root` with `cfg.threads` threads: this one (the main thread, which records the
/// tree and answers) and `cfg.threads - 1` helpers ([`with_helpers`] starts them: native threads,
/// or in the WebAssembly threads build helper Web Workers sharing this module's memory).
pub(super) fn run_parallel<G: Game, E: Evaluator<G>, R: Restart<G>>(
    root: &G,
    eval: &E,
    cfg: &SearchConfig,
    hooks: Hooks<'_>,
    root_player: PlayerId,
    rec: R,
) -> Result<SearchResult<G::Move>, Error> {
    let table = SharedTable::take(cfg.tt_bits);
    let halt = AtomicBool::new(false);
    let hold = (cfg.hold_for_helpers > 0).then(Hold::default);
    // Helpers answer only where the main thread's result is the same kind of thing: no tree
    // (it records the main thread's search), no randomness quotient (it needs every root move's
    // exact value; a helper's root gives bounds), no test-only hold (it wants the main thread's
    // own search on the helpers' entries).
    let answer = (!R::ACTIVE && cfg.randomness_quotient == 0 && hold.is_none())
        .then(Answer::<G::Move>::default);
    let result = {
        let (table, halt, hold, answer) = (&table, &halt, hold.as_ref(), answer.as_ref());
        let jobs: Vec<Job<'_>> = (1..cfg.threads.min(MAX_THREADS))
            .map(|id| {
                let pos = root.clone();
                Box::new(move || {
                    let h = Shared { table, halt, hold };
                    helper(pos, eval, cfg, h, answer, id as u8, root_player)
                }) as Job<'_>
            })
            .collect();
        with_helpers(jobs, halt, hold.is_some(), |join, started| {
            if let Some(hold) = hold {
                hold.wait(started);
            }
            let finish = move || {
                halt.store(true, Ordering::Relaxed);
                join()
            };
            let par = Parallel { table, answer };
            run(root, eval, cfg, hooks, root_player, rec, Some(par), finish)
        })
        .and_then(|r| r)
    };
    table.give_back();
    result
}

/// What the main thread of a parallel search is given: the shared table and, where helpers may
/// answer, the [`Answer`] a helper leaves when it completes the search's depth first.
#[derive(Clone, Copy)]
pub(super) struct Parallel<'a, M> {
    pub table: &'a SharedTable,
    pub answer: Option<&'a Answer<M>>,
}

/// The result of the first helper to complete the search's depth.
pub(super) struct HelperAnswer<M> {
    /// Its root moves with their values (exact for the best, bounds for the others), as the
    /// main thread's iteration gives them.
    pub roots: Vec<RootMove<M>>,
    /// Each root move's principal variation.
    pub pvs: Vec<Vec<M>>,
    /// The depth it completed.
    pub depth: u32,
}

/// Where a helper that completes the search's depth before the main thread leaves its result;
/// its flag, once raised, stops the main thread ([`Searcher`] looks at it with the stop flag).
pub(super) struct Answer<M> {
    ready: AtomicBool,
    result: Mutex<Option<HelperAnswer<M>>>,
}

impl<M> Default for Answer<M> {
    fn default() -> Self {
        Answer {
            ready: AtomicBool::new(false),
            result: Mutex::new(None),
        }
    }
}

impl<M> Answer<M> {
    fn lock(&self) -> MutexGuard<'_, Option<HelperAnswer<M>>> {
        self.result.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps `answer` if no helper answered before, and raises the flag.
    fn offer(&self, answer: HelperAnswer<M>) {
        let mut slot = self.lock();
        if slot.is_none() {
            *slot = Some(answer);
        }
        self.ready.store(true, Ordering::Relaxed);
    }

    /// The flag raised once a helper has answered.
    pub fn ready(&self) -> &AtomicBool {
        &self.ready
    }

    /// The helper's result, if one answered (once).
    pub fn take(&self) -> Option<HelperAnswer<M>> {
        self.lock().take()
    }
}

/// What the main thread shares with its helpers: the table, the stop flag and, in tests, the
/// hold ([`SearchConfig::hold_for_helpers`]).
#[derive(Clone, Copy)]
struct Shared<'a> {
    table: &'a SharedTable,
    halt: &'a AtomicBool,
    hold: Option<&'a Hold>,
}

/// The test-only hold ([`SearchConfig::hold_for_helpers`]): each helper counts itself in once it
/// has completed an iteration of the hold's depth, or when it stops (whichever comes first), and
/// the main thread waits until every helper that started has. A handshake, not a clock: it holds
/// however slowly the helpers are scheduled, and ends as soon as they are there.
#[derive(Default)]
struct Hold {
    arrived: Mutex<usize>,
    changed: Condvar,
}

impl Hold {
    /// One helper is there.
    fn arrive(&self) {
        *self.arrived.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.changed.notify_all();
    }

    /// Waits until `helpers` helpers are there.
    fn wait(&self, helpers: usize) {
        let mut arrived = self.arrived.lock().unwrap_or_else(|e| e.into_inner());
        while *arrived < helpers {
            arrived = self
                .changed
                .wait(arrived)
                .unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Runs `main` on this thread while each of `jobs` runs on a helper thread of its own (native
/// threads, scoped to this call). `main` is given the function that waits for the helpers and
/// returns their statistics (each must have been told to stop through `halt` first), and the
/// number of helpers started. When `main` returns, `halt` is raised in any case (after an early
/// error it was not), and the helpers are waited for before this returns. (`patient`: wait
/// however long the helpers take to start, for the test-only hold; native threads always start.)
#[cfg(not(all(target_arch = "wasm32", target_feature = "atomics")))]
fn with_helpers<'a, T>(
    jobs: Vec<Job<'a>>,
    halt: &AtomicBool,
    _patient: bool,
    main: impl FnOnce(Box<dyn FnOnce() -> Vec<WorkerStats> + '_>, usize) -> T,
) -> Result<T, Error> {
    Ok(std::thread::scope(|scope| {
        let handles: Vec<_> = jobs.into_iter().map(|job| scope.spawn(job)).collect();
        let started = handles.len();
        let r = main(
            Box::new(move || handles.into_iter().filter_map(|h| h.join().ok()).collect()),
            started,
        );
        halt.store(true, Ordering::Relaxed);
        r
    }))
}

/// [`with_helpers`] in the WebAssembly threads build: the jobs go to the helper Web Workers the
/// page started (`src/search/wasm_threads.rs`); an error when there are fewer than asked for.
/// `patient`: wait for every helper to take its job, however long that takes (the test-only
/// hold), instead of a second at most.
#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
fn with_helpers<'a, T>(
    jobs: Vec<Job<'a>>,
    halt: &AtomicBool,
    patient: bool,
    main: impl FnOnce(Box<dyn FnOnce() -> Vec<WorkerStats> + '_>, usize) -> T,
) -> Result<T, Error> {
    let helpers = super::super::wasm_threads::Helpers::start(jobs, patient)?;
    let started = helpers.started();
    let r = main(Box::new(|| helpers.join()), started);
    halt.store(true, Ordering::Relaxed);
    // Dropping `helpers` waits for every job still running.
    drop(helpers);
    Ok(r)
}

/// One helper thread: iterative deepening from depth 1 or 2 with a full window, until `halt`,
/// or until it completes `cfg.depth` when it may `answer` (it leaves its result there).
fn helper<G: Game, E: Evaluator<G>>(
    root: G,
    eval: &E,
    cfg: &SearchConfig,
    shared: Shared<'_>,
    answer: Option<&Answer<G::Move>>,
    id: u8,
    root_player: PlayerId,
) -> WorkerStats {
    let Shared { table, halt, hold } = shared;
    // The test-only hold: counted in once, after an iteration of its depth or on stopping.
    let mut holding = hold;
    let hcfg = SearchConfig {
        time_ms: None,
        node_budget: None,
        record_tree: false,
        iterative_deepening: true,
        randomness_quotient: 0,
        ..cfg.clone()
    };
    let hooks = Hooks {
        stop: Some(halt),
        ..Hooks::default()
    };
    let tt = Some(Tt::Shared(table, id));
    let mut s = Searcher::new(
        &root,
        eval,
        &hcfg,
        hooks,
        root_player,
        NoRecorder,
        tt,
        now_ms(),
    );
    s.defer = cfg.defer_busy;
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    let mut completed = 0;
    if !moves.is_empty() {
        let (mut kids, searched) = s.root_children(&root, &moves, hcfg.depth);
        let mut depth = 1 + (id as u32 & 1);
        while depth <= HELPER_MAX_DEPTH && !halt.load(Ordering::Relaxed) {
            s.depth = depth;
            let unsettled = s.unsettled;
            let inf = f64::INFINITY;
            let (values, pvs, complete) =
                s.root_iteration(&root, &mut kids, searched, depth, -inf, inf);
            if !complete || s.aborted {
                break;
            }
            completed = depth;
            if let Some(answer) = answer.filter(|_| depth >= cfg.depth) {
                // The search's depth, before the main thread: this result is the answer.
                let roots = root_moves_of(&values, &kids);
                answer.offer(HelperAnswer { roots, pvs, depth });
                break;
            }
            if depth >= cfg.hold_for_helpers {
                if let Some(h) = holding.take() {
                    h.arrive();
                }
            }
            // Next iteration: best first, the rest by this iteration's values.
            let mut ranked: Vec<(usize, f64)> = values.iter().map(|v| (v.0, v.1)).collect();
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
            let reordered: Vec<Child<G>> = ranked.iter().map(|r| kids[r.0].clone()).collect();
            kids[..reordered.len()].clone_from_slice(&reordered);
            if s.unsettled == unsettled {
                // Every line ended in a finished game: deeper iterations would repeat this one.
                break;
            }
            depth += 1;
        }
    }
    if let Some(h) = holding {
        h.arrive();
    }
    WorkerStats {
        worker: id as u32,
        nodes: s.nodes,
        depth_reached: completed,
        tt_hits: s.tt_hits,
        tt_hits_other: s.tt_hits_other,
        deferred: s.deferrals,
        root_moves: Vec::new(),
    }
}

/// The per-thread statistics of a parallel search: the main thread's (`s`) first, then the
/// helpers'.
pub(super) fn workers<G: Game, E: Evaluator<G>, R: Recorder<G::Move>>(
    s: &Searcher<'_, '_, G, E, R>,
    depth_reached: u32,
    helpers: Vec<WorkerStats>,
) -> Vec<WorkerStats> {
    let mut all = vec![WorkerStats {
        worker: 0,
        nodes: s.nodes,
        depth_reached,
        tt_hits: s.tt_hits,
        tt_hits_other: s.tt_hits_other,
        deferred: s.deferrals,
        root_moves: Vec::new(),
    }];
    all.extend(helpers);
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::reversi::Reversi;
    use crate::games::Playable;

    /// The Reversi midgame of `plyscope bench --parallel` (12 plies in) and the player to move.
    fn reversi_midgame() -> (Reversi, PlayerId) {
        let mut pos = Reversi::new(8).expect("8x8");
        for m in "f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6 b4".split(' ') {
            let mv = pos.parse_move(m).expect("a move");
            pos.play(mv).expect("legal");
        }
        let player = to_move(&pos);
        (pos, player)
    }

    /// The player to move in a position where a player moves.
    fn to_move<G: Game>(pos: &G) -> PlayerId {
        match pos.turn() {
            Turn::Player(p) => p,
            _ => unreachable!("a player moves"),
        }
    }

    /// A deterministic search to `depth` with iterative deepening (no exact endgame, no random
    /// ties), on `threads` threads.
    fn fixed(depth: u32, threads: u32) -> SearchConfig {
        SearchConfig {
            depth,
            iterative_deepening: true,
            exact_endgame: 0,
            random_ties: false,
            seed: Some(1),
            threads,
            ..SearchConfig::default()
        }
    }

    /// A search of `pos` on this thread without a tree (on the shared table of `par`, if any).
    fn search_on(
        pos: &Reversi,
        eval: &<Reversi as Playable>::Eval,
        cfg: &SearchConfig,
        player: PlayerId,
        par: Option<Parallel<'_, <Reversi as Game>::Move>>,
    ) -> SearchResult<<Reversi as Game>::Move> {
        run(
            pos,
            eval,
            cfg,
            Hooks::default(),
            player,
            NoRecorder,
            par,
            Vec::new,
        )
        .expect("a result")
    }

    /// The shared table keeps every node's best move, also where moves are ordered in place
    /// (history, killers): before 1f1246b it kept none there (at depth 8 here, 597 of 803 cut
    /// entries and 2,673 of 3,784 fail-low entries had no move), and the main thread of a parallel
    /// search searched 10 % more nodes on it (Reversi depth 13). (Until the table's buckets, the
    /// main thread alone on it searched exactly the single-threaded tree; buckets keep other
    /// entries than the single-threaded table's one slot a position.)
    #[test]
    fn the_shared_table_keeps_every_nodes_best_move() {
        let (pos, player) = reversi_midgame();
        let eval = Reversi::evaluator("").expect("the default evaluator");
        let cfg = fixed(8, 1);
        let table = SharedTable::take(cfg.tt_bits);
        let par = Parallel {
            table: &table,
            answer: None,
        };
        let r = search_on(&pos, &eval, &cfg, player, Some(par));
        let entries = table.entries();
        table.give_back();
        assert_eq!(r.stats.depth_reached, 8);
        assert!(entries.len() > 1000, "{} entries", entries.len());
        let moveless: Vec<_> = entries.iter().filter(|e| e.2 == NO_INDEX).collect();
        assert!(
            moveless.is_empty(),
            "{} of {} entries without a move: {:?}",
            moveless.len(),
            entries.len(),
            &moveless[..moveless.len().min(5)]
        );
    }
    /// Deferral (ABDADA): a thread puts off the moves another thread is on and still finds the
    /// search's value. In turn, so that the test does not depend on scheduling: the positions two
    /// and three plies down (the moves of nodes with 5 and 4 plies left) are marked busy as if
    /// another thread were searching each of them; the main thread then searches depth 6 at once
    /// on that table (no iterative deepening: its shallower iterations would search and unmark
    /// them first) with PVS but no reductions or forward pruning (their results depend on the
    /// order), puts off the marked moves that are not their node's first, and returns the value
    /// of the single-threaded search. With deferral off it puts off none.
    #[test]
    fn a_thread_puts_off_the_moves_another_is_on_and_finds_the_same_value() {
        let (pos, player) = reversi_midgame();
        let eval = Reversi::evaluator("").expect("the default evaluator");
        let cfg = SearchConfig {
            pvs: true,
            iterative_deepening: false,
            ..fixed(6, 1).without_techniques()
        };
        let single = search_on(&pos, &eval, &cfg, player, None);
        let mut marked = Vec::new();
        let (mut first, mut second, mut third) = (Vec::new(), Vec::new(), Vec::new());
        pos.legal_moves(&mut first);
        for &m in &first {
            let mut child = pos.clone();
            child.play_unchecked(m);
            child.legal_moves(&mut second);
            for &m2 in &second {
                let mut grandchild = child.clone();
                grandchild.play_unchecked(m2);
                marked.push(grandchild.zobrist());
                grandchild.legal_moves(&mut third);
                for &m3 in &third {
                    let mut next = grandchild.clone();
                    next.play_unchecked(m3);
                    marked.push(next.zobrist());
                }
            }
        }
        assert!(
            marked.len() > 1000,
            "{} positions two and three plies down",
            marked.len()
        );
        for defer_busy in [true, false] {
            let cfg = SearchConfig {
                defer_busy,
                ..cfg.clone()
            };
            let table = SharedTable::take(cfg.tt_bits);
            for &k in &marked {
                table.enter(k);
            }
            let par = Parallel {
                table: &table,
                answer: None,
            };
            let r = search_on(&pos, &eval, &cfg, player, Some(par));
            table.give_back();
            let main = &r.stats.workers[0];
            assert_eq!(r.value, single.value, "defer_busy {defer_busy}");
            assert_eq!(r.stats.depth_reached, 6);
            if defer_busy {
                assert!(
                    main.deferred > 20,
                    "{} moves put off of {} marked",
                    main.deferred,
                    marked.len()
                );
                assert!(main.deferred < marked.len() as u64);
            } else {
                assert_eq!(main.deferred, 0);
            }
        }
    }

    /// A helper that completes the search's depth before the main thread answers: in turn, so
    /// that the test does not depend on how the threads are scheduled, helper 1 searches to the
    /// depth and leaves its result, then the main thread starts with the answer waiting (on an
    /// empty table: on the helper's it would complete the depth from its entries at once), stops
    /// at its first look at its flags, and returns the helper's move, value and depth, its own
    /// (shallower) depth in `stats.workers`.
    #[test]
    fn a_helper_that_completes_the_depth_first_answers() {
        let (pos, player) = reversi_midgame();
        let eval = Reversi::evaluator("").expect("the default evaluator");
        let cfg = fixed(7, 2);
        let table = SharedTable::take(cfg.tt_bits);
        let halt = AtomicBool::new(false);
        let answer = Answer::default();
        let shared = Shared {
            table: &table,
            halt: &halt,
            hold: None,
        };
        let stats = helper(pos.clone(), &eval, &cfg, shared, Some(&answer), 1, player);
        assert_eq!(
            stats.depth_reached, 7,
            "the helper stops at the depth it answers"
        );
        assert!(answer.ready().load(Ordering::Relaxed));
        let (best, value) = {
            let a = answer.lock();
            let a = a.as_ref().expect("an answer");
            assert_eq!(a.depth, 7);
            // The first of equal best values, as the result's stable ranking plays.
            let best = a
                .roots
                .iter()
                .reduce(|x, y| if y.value > x.value { y } else { x })
                .expect("root moves");
            assert!(best.exact, "the best root move's value is exact");
            (best.mv, best.value)
        };
        table.give_back();
        let empty = SharedTable::take(cfg.tt_bits + 1);
        let par = Parallel {
            table: &empty,
            answer: Some(&answer),
        };
        let r = run(
            &pos,
            &eval,
            &cfg,
            Hooks::default(),
            player,
            NoRecorder,
            Some(par),
            move || vec![stats],
        )
        .expect("a result");
        empty.give_back();
        assert_eq!((r.best, r.value), (Some(best), value));
        assert_eq!(r.stats.depth_reached, 7);
        let w = &r.stats.workers;
        assert_eq!(w.len(), 2);
        assert!(
            w[0].depth_reached < 7,
            "the main thread stopped early: {w:?}"
        );
        assert_eq!(w[0].nodes, r.stats.nodes);
        assert!(answer.take().is_none(), "the main thread took the answer");
    }
}

#[cfg(test)]
mod recording {
    use super::*;
    use crate::games::tictactoe::TicTacToe;
    use crate::games::Playable;
    use crate::tree::{Node, Tree};

    fn walk<'a>(n: &'a Node, out: &mut Vec<&'a Node>) {
        out.push(n);
        for c in &n.children {
            walk(c, out);
        }
    }

    /// Worker 1 (a helper) searches first, then worker 0 (the main thread) records its search
    /// on the same shared table, in turn so that the test does not depend on how the threads are
    /// scheduled: the recorded nodes answered by or ordered from worker 1's entries say so, in the
    /// document (valid against the published schema) and in the compact form.
    #[test]
    fn recorded_nodes_name_the_helper_whose_entry_they_used() {
        let pos = TicTacToe::new_game("tictactoe").expect("the game");
        let eval = TicTacToe::evaluator("").expect("the default evaluator");
        let cfg = SearchConfig {
            depth: 9,
            iterative_deepening: true,
            random_ties: false,
            seed: Some(1),
            threads: 2,
            record_tree: true,
            ..SearchConfig::default()
        };
        let player = match pos.turn() {
            Turn::Player(p) => p,
            _ => unreachable!("a player moves"),
        };
        let table = SharedTable::take(cfg.tt_bits);
        let halt = AtomicBool::new(false);
        // Tic-tac-toe's helper stops by itself once every line reaches the end of the game.
        let shared = Shared {
            table: &table,
            halt: &halt,
            hold: None,
        };
        let stats = helper(pos.clone(), &eval, &cfg, shared, None, 1, player);
        assert!(stats.depth_reached >= 9, "the helper searched to the end");
        let rec = Arena::take(cfg.node_cap, cfg.tree_max_bytes);
        let r = run(
            &pos,
            &eval,
            &cfg,
            Hooks::default(),
            player,
            rec,
            Some(Parallel {
                table: &table,
                answer: None,
            }),
            move || vec![stats],
        )
        .expect("a result");
        table.give_back();
        let tree = r.tree.expect("a recorded tree");
        let doc = tree.to_document();
        let mut nodes = Vec::new();
        walk(&doc.root, &mut nodes);
        let from: Vec<&Node> = nodes
            .iter()
            .copied()
            .filter(|n| n.tt_worker.is_some())
            .collect();
        assert!(!from.is_empty(), "some node used worker 1's entry");
        assert!(from.iter().all(|n| n.tt_worker == Some(1)));
        assert!(from.iter().any(|n| n.tt), "some value came from worker 1");

        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/www/tree-format.schema.json"
        ))
        .expect("the schema file");
        let schema: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let validator = jsonschema::validator_for(&schema).expect("a valid schema");
        let v: serde_json::Value = serde_json::from_str(&doc.to_json()).expect("JSON");
        let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
        assert!(
            errors.is_empty(),
            "the document breaks the schema: {errors:?}"
        );

        // The compact form (version 2) keeps it, and so does its schema.
        let compact = tree.to_compact_json();
        assert!(compact.contains("\"tw\":1"));
        let c: serde_json::Value = serde_json::from_str(&compact).expect("JSON");
        assert!(
            validator.iter_errors(&c).next().is_none(),
            "compact form valid"
        );
        let back = Tree::from_compact_json(&compact).expect("reads back");
        let workers = |t: &Tree| t.nodes.iter().map(|n| n.tt_worker).collect::<Vec<_>>();
        assert_eq!(workers(&back), workers(&tree));
    }
}
