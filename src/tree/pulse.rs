//! A pulse for the long stretches that report nothing: building a recorded tree, and writing it in
//! binary form. The page's worker bridge calls a worker dead when a search that promised another
//! report soon falls silent for a second (`www/engine-client.js`). A large tree takes longer than
//! that to build, so the code that builds it calls [`tick`] once a node, and a caller that wants
//! to be heard in the meantime installs a hook with [`with_hook`]: it is called at most every
//! [`PULSE_MS`] milliseconds while the stretch lasts.
//!
//! Without a hook, a tick is a thread-local counter and a compare: nothing else happens.

use crate::core::now_ms;
use std::cell::{Cell, RefCell};

/// The least time between two calls of the hook, in milliseconds.
pub const PULSE_MS: f64 = 50.0;

/// Ticks between two looks at the clock.
const TICKS_PER_LOOK: u32 = 1024;

type Hook = Box<dyn FnMut()>;

thread_local! {
    static HOOK: RefCell<Option<Hook>> = const { RefCell::new(None) };
    static ARMED: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u32> = const { Cell::new(0) };
    static LAST: Cell<f64> = const { Cell::new(0.0) };
}

/// Runs `f` with `hook` called at most every [`PULSE_MS`] ms by the [`tick`]s made meanwhile on
/// this thread (the previous hook, if any, is put back afterwards, even if `f` panics).
pub fn with_hook<R>(hook: impl FnMut() + 'static, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Hook>, bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            let old = self.0.take();
            let armed = self.1;
            HOOK.with(|h| *h.borrow_mut() = old);
            ARMED.with(|a| a.set(armed));
        }
    }
    let old = HOOK.with(|h| h.borrow_mut().replace(Box::new(hook)));
    let _restore = Restore(old, ARMED.with(|a| a.replace(true)));
    LAST.with(|l| l.set(now_ms()));
    f()
}

/// One step of a long silent stretch: calls the hook when one is installed and [`PULSE_MS`] ms
/// have passed since the last call (the clock is read once every 1,024 ticks).
#[inline]
pub fn tick() {
    if !ARMED.with(|a| a.get()) {
        return;
    }
    let n = COUNT.with(|c| {
        let n = c.get().wrapping_add(1);
        c.set(n);
        n
    });
    if n % TICKS_PER_LOOK == 0 {
        beat_if_due();
    }
}

/// The start of a long silent stretch: calls the hook at once (when one is installed), so that
/// the caller hears that the stretch has begun.
pub fn begin() {
    if ARMED.with(|a| a.get()) {
        call(now_ms());
    }
}

/// Calls the hook now if [`PULSE_MS`] ms have passed since it was last called.
pub fn beat_if_due() {
    let now = now_ms();
    if now - LAST.with(|l| l.get()) >= PULSE_MS {
        call(now);
    }
}

fn call(now: f64) {
    LAST.with(|l| l.set(now));
    // The hook is taken out while it runs, so that a tick inside it cannot call it again.
    let hook = HOOK.with(|h| h.borrow_mut().take());
    if let Some(mut f) = hook {
        f();
        HOOK.with(|h| {
            let mut slot = h.borrow_mut();
            if slot.is_none() {
                *slot = Some(f);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    /// Ticks until `calls` reaches `want` (or 10 s pass, a failure), and returns the time taken.
    fn tick_until(calls: &Cell<u32>, want: u32) -> f64 {
        let began = now_ms();
        while calls.get() < want && now_ms() - began < 10_000.0 {
            tick();
        }
        now_ms() - began
    }

    #[test]
    fn the_hook_is_called_while_a_long_stretch_ticks_but_not_more_often_than_the_pulse() {
        let calls = Rc::new(Cell::new(0u32));
        let c = calls.clone();
        let took = with_hook(move || c.set(c.get() + 1), || tick_until(&calls, 3));
        assert_eq!(
            calls.get(),
            3,
            "the hook was called {} times in 10 s of ticks",
            calls.get()
        );
        assert!(
            took >= 3.0 * PULSE_MS,
            "three calls in {took} ms: closer than {PULSE_MS} ms"
        );
        for _ in 0..100_000 {
            tick();
        }
        beat_if_due();
        assert_eq!(
            calls.get(),
            3,
            "no hook is called once with_hook has returned"
        );
    }

    #[test]
    fn hooks_nest_and_the_outer_one_comes_back() {
        let outer = Rc::new(Cell::new(0u32));
        let inner = Rc::new(Cell::new(0u32));
        let (o, i) = (outer.clone(), inner.clone());
        with_hook(
            move || o.set(o.get() + 1),
            || {
                let i2 = i.clone();
                with_hook(move || i2.set(i2.get() + 1), || tick_until(&i, 2));
                assert_eq!(inner.get(), 2);
                let before = outer.get();
                tick_until(&outer, before + 1);
                assert_eq!(
                    outer.get(),
                    before + 1,
                    "the outer hook is back after the inner one"
                );
            },
        );
        assert_eq!(inner.get(), 2, "the inner hook is gone with its stretch");
    }
}
