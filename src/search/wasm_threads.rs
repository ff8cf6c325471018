//! Helper threads for the WebAssembly threads build (shared memory; `target_feature = "atomics"`).
//!
//! `std::thread::spawn` cannot start a thread on `wasm32-unknown-unknown`: a thread there is a Web
//! Worker that instantiates the same module with the same `WebAssembly.Memory`, and only
//! JavaScript can start one. So the engine's worker starts the helper workers beforehand
//! (`www/worker.js`, `www/helper.js`) and registers, with [`set_helpers`], a function that posts
//! a message to helper `i`. A parallel search ([`Helpers::start`]) puts one job in each helper's
//! slot and posts that helper its index; the helper's message handler calls [`run_helper`], which
//! takes the job out of its slot and runs it on that worker's thread.
//!
//! The slots are static (one per helper, never freed), so a late or repeated message never reads
//! freed memory: it finds its slot empty, or another search's pending job (which it then runs, as
//! the message for it would). A job borrows the search's data (root, evaluator, table, stop flag);
//! [`Helpers`] joins every job before it is dropped, so no job outlives what it borrows: a job no
//! helper has taken yet is taken back, a running one is waited for (this thread blocks on a
//! condition variable, i.e. `memory.atomic.wait32`, which Web Workers may do).

use crate::core::Error;
use crate::tree::WorkerStats;
use std::cell::RefCell;
use std::sync::{Condvar, Mutex, MutexGuard};

/// One helper's work in a parallel search: it runs until the search's stop flag and reports its
/// statistics.
pub(crate) type Job<'a> = Box<dyn FnOnce() -> WorkerStats + Send + 'a>;

/// The most helper workers (one thread fewer than [`MAX_THREADS`](super::MAX_THREADS)).
const MAX_HELPERS: usize = 63;

/// How long the main thread waits for the helpers to take their jobs before it searches.
const START_WAIT_MS: f64 = 1000.0;

/// What a helper's slot holds.
enum State {
    /// Nothing to do.
    Idle,
    /// A job posted and not yet taken by the helper.
    Pending(Job<'static>),
    /// The helper is running the job.
    Running,
    /// The helper finished the job; its statistics wait to be joined.
    Done(WorkerStats),
}

/// One helper's mailbox.
struct Slot {
    state: Mutex<State>,
    changed: Condvar,
}

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY: Slot = Slot {
    state: Mutex::new(State::Idle),
    changed: Condvar::new(),
};

static SLOTS: [Slot; MAX_HELPERS] = [EMPTY; MAX_HELPERS];

/// The function that posts helper `i` its index, and how many helpers there are (set on the
/// engine's worker thread only).
type Poster = Box<dyn Fn(u32) -> bool>;

thread_local! {
    static POSTER: RefCell<Option<(u32, Poster)>> = const { RefCell::new(None) };
}

fn lock(slot: &Slot) -> MutexGuard<'_, State> {
    slot.state.lock().unwrap_or_else(|e| e.into_inner())
}

/// Registers the helpers this thread may use: `count` of them, and `post(i)` posts helper `i`
/// (0-based) its index, returning whether the message went out.
pub(crate) fn set_helpers(count: u32, post: impl Fn(u32) -> bool + 'static) {
    let count = count.min(MAX_HELPERS as u32);
    POSTER.with(|p| *p.borrow_mut() = Some((count, Box::new(post))));
}

/// Runs the job in helper `index`'s slot, if one is pending (called on that helper's thread when
/// its message arrives; a message that finds no job does nothing).
pub(crate) fn run_helper(index: u32) {
    let Some(slot) = SLOTS.get(index as usize) else {
        return;
    };
    let job = {
        let mut state = lock(slot);
        match std::mem::replace(&mut *state, State::Running) {
            State::Pending(job) => job,
            other => {
                *state = other;
                return;
            }
        }
    };
    // The main thread may be waiting for this helper to start.
    slot.changed.notify_all();
    let stats = job();
    *lock(slot) = State::Done(stats);
    slot.changed.notify_all();
}

/// The helpers of one parallel search; dropping it joins them all.
pub(crate) struct Helpers<'a> {
    count: usize,
    _borrows: std::marker::PhantomData<Job<'a>>,
}

impl<'a> Helpers<'a> {
    /// Hands `jobs[i]` to helper `i` and posts it its index. Errors when there are more jobs than
    /// registered helpers (the page starts them before the search), or none are registered.
    /// `patient`: wait until every helper posted has taken its job, however long that takes (the
    /// test-only hold, `SearchConfig::hold_for_helpers`), instead of [`START_WAIT_MS`] at most.
    pub fn start(jobs: Vec<Job<'a>>, patient: bool) -> Result<Self, Error> {
        let count = jobs.len();
        let available = POSTER.with(|p| p.borrow().as_ref().map_or(0, |(n, _)| *n)) as usize;
        if count > available {
            return Err(Error::bad_option(
                "threads",
                count + 1,
                format!(
                    "at most {} here: the page started {available} helper workers",
                    available + 1
                ),
            ));
        }
        let helpers = Helpers {
            count,
            _borrows: std::marker::PhantomData,
        };
        for (i, job) in jobs.into_iter().enumerate() {
            // SAFETY: the job borrows data that lives at least as long as `'a`, and `helpers`
            // (which cannot outlive `'a`) takes every job back or waits for it to finish before it
            // is dropped (`join_one`), so the job never runs after its borrows end.
            let job: Job<'static> = unsafe { std::mem::transmute::<Job<'a>, Job<'static>>(job) };
            *lock(&SLOTS[i]) = State::Pending(job);
            let posted =
                POSTER.with(|p| p.borrow().as_ref().is_some_and(|(_, post)| post(i as u32)));
            if !posted {
                // Nobody will run it: take it back (the search goes on with fewer helpers).
                *lock(&SLOTS[i]) = State::Idle;
            }
        }
        // The helpers start together with the main thread: wait (a message's round trip) until
        // each has taken its job, but not for long: a helper that has not taken its job within
        // START_WAIT_MS joins in when it does, or its job is taken back at the end.
        let deadline = crate::core::now_ms() + START_WAIT_MS;
        for slot in &SLOTS[..count] {
            let mut state = lock(slot);
            while matches!(*state, State::Pending(_)) {
                if patient {
                    state = slot.changed.wait(state).unwrap_or_else(|e| e.into_inner());
                    continue;
                }
                let left = deadline - crate::core::now_ms();
                if left <= 0.0 {
                    break;
                }
                let wait = std::time::Duration::from_micros((left * 1000.0) as u64);
                state = match slot.changed.wait_timeout(state, wait) {
                    Ok((s, _)) => s,
                    Err(e) => e.into_inner().0,
                };
            }
        }
        Ok(helpers)
    }

    /// How many helpers have taken their job: with a patient start, every one posted; otherwise
    /// those that took it within [`START_WAIT_MS`] (a later one joins in when it does).
    pub fn started(&self) -> usize {
        (0..self.count)
            .filter(|&i| matches!(*lock(&SLOTS[i]), State::Running | State::Done(_)))
            .count()
    }

    /// Waits for every helper's job (each must already have been told to stop) and returns the
    /// statistics of those that ran; jobs no helper has taken yet are taken back. A second call
    /// returns nothing.
    pub fn join(&self) -> Vec<WorkerStats> {
        (0..self.count).filter_map(join_one).collect()
    }
}

/// Joins helper `i`'s job: takes it back if still pending, waits while it runs, returns its
/// statistics when done; leaves the slot idle.
fn join_one(i: usize) -> Option<WorkerStats> {
    let slot = &SLOTS[i];
    let mut state = lock(slot);
    loop {
        match std::mem::replace(&mut *state, State::Idle) {
            State::Running => {
                *state = State::Running;
                state = slot.changed.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            State::Done(stats) => return Some(stats),
            State::Idle | State::Pending(_) => return None,
        }
    }
}

impl Drop for Helpers<'_> {
    fn drop(&mut self) {
        self.join();
    }
}
