//! The browser-facing engine handle (WebAssembly only); see `www/worker.js`.
//!
//! A thin layer: every method forwards to an [`AnySession`] and converts its result for JavaScript.
//! Small results cross as plain JS values (serde-wasm-bindgen in its JSON-compatible mode); a search
//! report, which can hold a large tree document, crosses as one JSON string. Every error becomes a
//! `JsError` whose message is the engine's own (it says where the input failed and what was expected).

use crate::core::{BoardView, Coord};
use crate::games::CATALOGUE;
use crate::search::{Hooks, Progress};
use crate::session::{
    edit_variant, new_session, random_variant, AnySession, JobReport, JobSpec, SearchReport,
    SplitRun,
};
use crate::tree::{pulse, Tree};
use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Once;
use wasm_bindgen::prelude::*;

static PANIC_HOOK: Once = Once::new();

/// Routes Rust panics to the console with their message (once per module instance).
fn init() {
    PANIC_HOOK.call_once(console_error_panic_hook::set_once);
}

fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&format!("cannot convert a result for JavaScript: {e}")))
}

fn err(e: crate::core::Error) -> JsError {
    JsError::new(&e.to_string())
}

/// One game of the catalogue, with what the page needs to offer it.
#[derive(Serialize)]
struct CatalogueEntry {
    id: &'static str,
    name: &'static str,
    variants: Vec<Variant>,
    chance: bool,
    players: Vec<String>,
    evaluators: Vec<String>,
    /// Whether a first visit opens this game.
    featured: bool,
    /// Whether the page offers to record the game's whole tree.
    whole_tree: bool,
    /// The AI's default depth and time limit for this game.
    ai: crate::games::AiDefaults,
}

#[derive(Serialize)]
struct Variant {
    id: &'static str,
    name: &'static str,
}

/// A snapshot of the game for the page: everything it draws from.
#[derive(Serialize)]
struct State {
    game: String,
    position: String,
    to_move: String,
    players: Vec<String>,
    legal: Vec<crate::session::MoveInfo>,
    history: Vec<String>,
    redo: Vec<String>,
    outcome: Option<String>,
    view: BoardView,
}

/// A game in progress, for JavaScript.
#[wasm_bindgen]
pub struct Engine {
    session: Box<dyn AnySession>,
}

#[wasm_bindgen]
impl Engine {
    /// A new game of `game_id` (`"tictactoe"`, `"reversi-12"`...) at its start position.
    #[wasm_bindgen(constructor)]
    pub fn new(game_id: &str) -> Result<Engine, JsError> {
        init();
        Ok(Engine {
            session: new_session(game_id).map_err(err)?,
        })
    }

    /// Every game on offer: id, name, variants (`{id, name}`), whether it has chance turns, the
    /// players' names, the evaluators (the default first), whether a first visit opens it
    /// (`featured`), whether the page offers to record its whole tree (`whole_tree`) and the AI's
    /// default depth and time limit (`ai: {depth, time_ms}`).
    pub fn catalogue() -> Result<JsValue, JsError> {
        init();
        let mut games = Vec::new();
        for g in CATALOGUE {
            let s = new_session(g.id).map_err(err)?;
            games.push(CatalogueEntry {
                id: g.id,
                name: g.name,
                variants: g
                    .variants
                    .iter()
                    .map(|&(id, name)| Variant { id, name })
                    .collect(),
                chance: g.chance,
                players: s.players(),
                evaluators: s.evaluators(),
                featured: g.id == crate::games::FEATURED,
                whole_tree: crate::games::WHOLE_TREE.contains(&g.id),
                ai: g.ai,
            });
        }
        to_js(&games)
    }

    /// The game id with its variant.
    #[wasm_bindgen(js_name = gameId)]
    pub fn game_id(&self) -> String {
        self.session.game_id()
    }

    /// The legal moves as `[{move, prob?}]` (chance outcomes carry their probability).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> Result<JsValue, JsError> {
        to_js(&self.session.legal_moves())
    }

    /// Plays a move given as text; returns its canonical text. On error nothing changes.
    pub fn play(&mut self, text: &str) -> Result<String, JsError> {
        self.session.play(text).map_err(err)
    }

    /// Lets nature move (a chance turn); returns the outcome's text.
    #[wasm_bindgen(js_name = playChance)]
    pub fn play_chance(&mut self) -> Result<String, JsError> {
        self.session.play_chance().map_err(err)
    }

    /// Reseeds nature's random choices (chance turns), so that a game replays exactly.
    pub fn seed(&mut self, seed: u32) {
        self.session.seed(seed as u64);
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<(), JsError> {
        self.session.undo().map_err(err)
    }

    /// Plays again the last move taken back.
    pub fn redo(&mut self) -> Result<(), JsError> {
        self.session.redo().map_err(err)
    }

    /// The moves played since the start (or since the last position set).
    pub fn history(&self) -> Result<JsValue, JsError> {
        to_js(&self.session.history())
    }

    /// The moves that redo would play again, next first.
    #[wasm_bindgen(js_name = redoMoves)]
    pub fn redo_moves(&self) -> Result<JsValue, JsError> {
        to_js(&self.session.redo_moves())
    }

    /// The current position in the game's text form.
    pub fn position(&self) -> String {
        self.session.position_text()
    }

    /// Replaces the game by the position in `text` (history is cleared); on error nothing changes.
    #[wasm_bindgen(js_name = setPosition)]
    pub fn set_position(&mut self, text: &str) -> Result<(), JsError> {
        self.session.set_position(text).map_err(err)
    }

    /// The player to move (`"x"`, `"black"`...), `"chance"` or `"over"`.
    #[wasm_bindgen(js_name = toMove)]
    pub fn to_move(&self) -> String {
        self.session.to_move()
    }

    /// The players' names, first mover first.
    pub fn players(&self) -> Result<JsValue, JsError> {
        to_js(&self.session.players())
    }

    /// The result in words (`"black wins"`, `"draw"`), or `undefined` while the game goes on.
    pub fn outcome(&self) -> Option<String> {
        self.session.outcome()
    }

    /// The board view of the current state (see `BoardView`): geometry, cells, hands, scores,
    /// annotations and every legal move with its kind and cells.
    pub fn view(&self) -> Result<JsValue, JsError> {
        to_js(&self.session.view())
    }

    /// Everything the page draws from, in one object: `{game, position, to_move, players, legal,
    /// history, redo, outcome, view}` (`redo` next first; `outcome` null while the game goes on;
    /// `view` the board view).
    pub fn state(&self) -> Result<JsValue, JsError> {
        to_js(&State {
            game: self.session.game_id(),
            position: self.session.position_text(),
            to_move: self.session.to_move(),
            players: self.session.players(),
            legal: self.session.legal_moves(),
            history: self.session.history(),
            redo: self.session.redo_moves(),
            outcome: self.session.outcome(),
            view: self.session.view(),
        })
    }

    /// Searches the current position with the options in `options_json` (a JSON object of
    /// `SearchConfig` fields, e.g. `{"algorithm": "alphabeta", "depth": 4, "record_tree": true}`).
    /// `progress`, when given, is called about every `progress_ms` milliseconds (50 when 0 or
    /// absent) with `{nodes, depth, root_done, root_total, fraction, elapsed_ms}`.
    /// `iteration`, when given and the tree is recorded, is called with the tree document of each
    /// completed iteration of iterative deepening (for a live view).
    /// Returns the search report as a JSON string: `{move, value, pv, rank, reason, root_moves,
    /// stats, tree?}`.
    pub fn search(
        &self,
        options_json: &str,
        progress: Option<js_sys::Function>,
        progress_ms: Option<f64>,
        iteration: Option<js_sys::Function>,
    ) -> Result<String, JsError> {
        let r = self.run_search(
            options_json,
            progress,
            progress_ms,
            iteration,
            |t| to_js(t).ok(),
            None,
        )?;
        serde_json::to_string(&r)
            .map_err(|e| JsError::new(&format!("cannot write the search report: {e}")))
    }

    /// Like [`Engine::search`], but the tree travels in its binary form (see `docs/tree-format.md`,
    /// "Binary form"): returns `{report, tree}` where `report` is the search report as a JSON
    /// string without its tree and `tree` a `Uint8Array` (absent when no tree was recorded).
    /// `iteration`, when given and the tree is recorded, is called with each completed
    /// iteration's tree as a `Uint8Array`. The worker sends these arrays to the page as
    /// transferable buffers.
    #[wasm_bindgen(js_name = searchBinary)]
    pub fn search_binary(
        &self,
        options_json: &str,
        progress: Option<js_sys::Function>,
        progress_ms: Option<f64>,
        iteration: Option<js_sys::Function>,
    ) -> Result<js_sys::Object, JsError> {
        // The stretches that report nothing (a recorded tree built, then written in binary form)
        // pulse instead: the last report again, steady, with `stage: "tree"`, about every 50 ms,
        // so that the page can tell a worker at work from a dead one (`crate::tree::pulse`).
        let last: Rc<RefCell<Option<Progress>>> = Rc::new(RefCell::new(None));
        let hook = {
            let (last, progress) = (last.clone(), progress.clone());
            move || {
                let (Some(f), Some(mut p)) = (progress.as_ref(), last.borrow().clone()) else {
                    return;
                };
                p.steady = true;
                if let Ok(v) = to_js(&p) {
                    let _ = js_sys::Reflect::set(&v, &"stage".into(), &"tree".into());
                    let _ = f.call1(&JsValue::NULL, &v);
                }
            }
        };
        pulse::with_hook(hook, || {
            self.search_binary_inner(options_json, progress, progress_ms, iteration, last)
        })
    }

    /// [`Engine::search_binary`] inside its pulse: `last` keeps the latest progress report.
    fn search_binary_inner(
        &self,
        options_json: &str,
        progress: Option<js_sys::Function>,
        progress_ms: Option<f64>,
        iteration: Option<js_sys::Function>,
        last: Rc<RefCell<Option<Progress>>>,
    ) -> Result<js_sys::Object, JsError> {
        let mut r = self.run_search(
            options_json,
            progress,
            progress_ms,
            iteration,
            |t| Some(js_sys::Uint8Array::from(&t.to_binary()[..]).into()),
            Some(last),
        )?;
        let tree = r.tree.take();
        binary_result(&r, tree)
    }

    /// The search behind [`Engine::search`] and [`Engine::search_binary`]: `progress` is called
    /// with each progress report, and `iteration` with each completed iteration's tree as `send`
    /// turns it into a JavaScript value. A failing callback does not stop the search. `last`, when
    /// given, is kept up to date with the latest report.
    fn run_search(
        &self,
        options_json: &str,
        progress: Option<js_sys::Function>,
        progress_ms: Option<f64>,
        iteration: Option<js_sys::Function>,
        send: impl Fn(&Tree) -> Option<JsValue>,
        last: Option<Rc<RefCell<Option<Progress>>>>,
    ) -> Result<SearchReport, JsError> {
        let cfg =
            crate::games::search_config(&self.session.game_id(), options_json).map_err(err)?;
        let mut report = |p: &Progress| {
            if let Some(last) = &last {
                *last.borrow_mut() = Some(p.clone());
            }
            if let (Some(f), Ok(v)) = (progress.as_ref(), to_js(p)) {
                let _ = f.call1(&JsValue::NULL, &v);
            }
        };
        let mut each_iteration = |t: &Tree| {
            if let (Some(f), Some(v)) = (iteration.as_ref(), send(t)) {
                let _ = f.call1(&JsValue::NULL, &v);
            }
        };
        let hooks = Hooks {
            stop: None,
            progress: Some(&mut report),
            progress_every_ms: progress_ms.filter(|&ms| ms > 0.0).unwrap_or(50.0),
            iteration: if iteration.is_some() {
                Some(&mut each_iteration)
            } else {
                None
            },
            ..Hooks::default()
        };
        self.session.search(&cfg, hooks).map_err(err)
    }

    /// Starts a parallel search of the current position over `workers` Web Workers that share no
    /// memory (root splitting: see `src/search/engine/split.rs`), with the options of
    /// [`Engine::search`]. Returns `undefined` when those options ask for a search that runs as
    /// one (not alpha-beta or minimax, a randomness quotient, an exact endgame...): the caller then
    /// searches with [`Engine::search_binary`].
    #[wasm_bindgen(js_name = splitStart)]
    pub fn split_start(
        &self,
        options_json: &str,
        workers: u32,
    ) -> Result<Option<SplitSearch>, JsError> {
        let cfg =
            crate::games::search_config(&self.session.game_id(), options_json).map_err(err)?;
        let run = self.session.split_start(&cfg, workers).map_err(err)?;
        Ok(run.map(|run| SplitSearch { run }))
    }

    /// Runs one job of a parallel search (`job`: `{id, move, depth, lo, hi, null_window, time_ms,
    /// node_budget}` as [`SplitSearch::next`] gives it) from the current position with the
    /// search's options. Returns the job's report as a JSON string (`{id, value, complete,
    /// settled, nodes, leaves, tt_hits, pv, tree?}`, the tree a compact document). This engine's
    /// transposition table is kept for its next job.
    #[wasm_bindgen(js_name = searchMove)]
    pub fn search_move(&self, options_json: &str, job: JsValue) -> Result<String, JsError> {
        let cfg =
            crate::games::search_config(&self.session.game_id(), options_json).map_err(err)?;
        let job: JobSpec = serde_wasm_bindgen::from_value(job)
            .map_err(|e| JsError::new(&format!("a job of a parallel search was expected: {e}")))?;
        let r = self.session.search_move(&cfg, &job).map_err(err)?;
        serde_json::to_string(&r)
            .map_err(|e| JsError::new(&format!("cannot write the job's report: {e}")))
    }

    /// Perft from the current position (leaf count to `depth` plies) with the game's convention.
    pub fn perft(&self, depth: u32) -> f64 {
        self.session.perft(depth) as f64
    }

    /// Panics on purpose, so that tests can check that the page survives a crashed engine.
    #[wasm_bindgen(js_name = debugPanic)]
    pub fn debug_panic(&self) {
        panic!("debugPanic was called: the engine stops here on purpose");
    }
}

/// A parallel search in progress, held by the coordinating worker: it hands out jobs (one root
/// move each) to the search workers and joins their reports (see `www/worker.js`).
#[wasm_bindgen]
pub struct SplitSearch {
    run: Box<dyn SplitRun>,
}

#[wasm_bindgen]
impl SplitSearch {
    /// The next job for an idle worker, `{id, move, depth, lo, hi, null_window, time_ms,
    /// node_budget}` (`lo`/`hi` null for an open end), or `null` when there is none now.
    pub fn next(&mut self) -> Result<JsValue, JsError> {
        match self.run.next_job() {
            Some(job) => to_js(&job),
            None => Ok(JsValue::NULL),
        }
    }

    /// Takes the report (a JSON string from [`Engine::search_move`]) of a job worker `worker`
    /// ran. A report of an unknown job, or that does not read, is refused with the reason.
    pub fn done(&mut self, worker: u32, report_json: &str) -> Result<(), JsError> {
        let r: JobReport = serde_json::from_str(report_json)
            .map_err(|e| JsError::new(&format!("a job's report was expected: {e}")))?;
        self.run.done(worker, r).map_err(err)
    }

    /// Whether the search is over (no job to hand out, none running that still counts).
    pub fn over(&self) -> bool {
        self.run.over()
    }

    /// The search's progress, as [`Engine::search`] reports it.
    pub fn progress(&self) -> Result<JsValue, JsError> {
        to_js(&self.run.progress())
    }

    /// The search's result as [`Engine::search_binary`] gives it: `{report, tree}` (the tree,
    /// when recorded, joins every root move's subtree; its statistics name each worker's root
    /// moves).
    pub fn finish(&self) -> Result<js_sys::Object, JsError> {
        let mut r = self.run.finish().map_err(err)?;
        let tree = r.tree.take();
        binary_result(&r, tree)
    }
}

/// `{report, tree}`: the report as a JSON string without its tree, the tree in binary form.
fn binary_result(r: &SearchReport, tree: Option<Tree>) -> Result<js_sys::Object, JsError> {
    let out = js_sys::Object::new();
    let text = serde_json::to_string(r)
        .map_err(|e| JsError::new(&format!("cannot write the search report: {e}")))?;
    let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&out, &JsValue::from_str(k), v);
    set("report", &JsValue::from_str(&text))
        .map_err(|_| JsError::new("cannot build the search result"))?;
    if let Some(t) = tree {
        let bin = t.to_binary();
        drop(t);
        set("tree", &js_sys::Uint8Array::from(&bin[..]).into())
            .map_err(|_| JsError::new("cannot build the search result"))?;
    }
    Ok(out)
}

/// The variant editor's click: the id of variant `game_id` changed at cell (`x`, `y`) of its
/// board view (Ataxx toggles a wall and its mirror images); not yet checked as playable.
#[wasm_bindgen(js_name = variantEdit)]
pub fn variant_edit(game_id: &str, x: i32, y: i32) -> Result<String, JsError> {
    edit_variant(game_id, Coord::new(x, y)).map_err(err)
}

/// A random playable variant of the game `game_id` names, fixed by `seed`.
#[wasm_bindgen(js_name = randomVariant)]
pub fn random_variant_of(game_id: &str, seed: u32) -> Result<String, JsError> {
    random_variant(game_id, seed as u64).map_err(err)
}

/// Checks that `game_id` can be played; returns its canonical id (`ataxx-0x7888` gives
/// `ataxx-7888`) or the engine's message saying what is wrong.
#[wasm_bindgen(js_name = variantCheck)]
pub fn variant_check(game_id: &str) -> Result<String, JsError> {
    Ok(new_session(game_id).map_err(err)?.game_id())
}

/// The threads build (shared memory): registers, on the engine's worker, the `helpers` helper
/// workers a parallel search (`threads` above 1) may use; `post(i)` must post helper `i` (0-based)
/// its index, which the helper passes to [`helper_run`]. `www/worker.js` calls it once the helpers
/// have loaded this module with this memory.
#[cfg(target_feature = "atomics")]
#[wasm_bindgen(js_name = threadsSetup)]
pub fn threads_setup(helpers: u32, post: js_sys::Function) {
    init();
    crate::search::wasm_threads::set_helpers(helpers, move |i| {
        post.call1(&JsValue::NULL, &JsValue::from(i)).is_ok()
    });
}

/// The threads build: runs, on a helper worker, the job of a parallel search posted to helper
/// `index` (one helper's iterative deepening, until the search stops it). Does nothing when no job
/// is waiting.
#[cfg(target_feature = "atomics")]
#[wasm_bindgen(js_name = helperRun)]
pub fn helper_run(index: u32) {
    init();
    crate::search::wasm_threads::run_helper(index);
}

/// The threads build: this module and its shared memory, which a helper worker instantiates again
/// (`{module, memory}`).
#[cfg(target_feature = "atomics")]
#[wasm_bindgen(js_name = threadsShared)]
pub fn threads_shared() -> js_sys::Object {
    let out = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&out, &"module".into(), &wasm_bindgen::module());
    let _ = js_sys::Reflect::set(&out, &"memory".into(), &wasm_bindgen::memory());
    out
}
