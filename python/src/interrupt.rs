//! Long calls release the GIL and stop on Ctrl-C, leaving no thread behind.
//!
//! A [`Watch`] is tripped by Ctrl-C. It holds a [`sicher::Cancel`], which the library's
//! long calls that take one look at between steps (they return `Interrupted`), and the
//! computations that only call a progress callback are unwound from it with a private
//! payload (no panic message: [`std::panic::resume_unwind`] skips the panic hook); the
//! files being written are removed as their writers drop, and the call ends in
//! `KeyboardInterrupt`. A game's Python function (`Game.from_options`) asked for options
//! while its call is tripped refuses too ([`interrupted_here`]), so the library stops
//! asking it.
//!
//! Who trips it: Python handles signals on its main thread only, so the call either runs
//! on the calling thread and asks Python now and then from the callbacks
//! ([`on_this_thread`]), or, when the callbacks come from worker threads (table
//! labelling runs in a thread pool), runs on a helper thread while the calling thread
//! waits and asks Python between waits ([`on_helper_thread`]); either way the call
//! returns only once the work has stopped.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;

use crate::errors::to_py;

/// How often the calling thread asks Python whether a signal came.
const POLL: Duration = Duration::from_millis(50);

/// The unwinding payload of a cancelled computation.
struct Cancelled;

thread_local! {
    /// The cancellation of the call this thread works for, if any.
    static WORKING_FOR: std::cell::RefCell<Option<sicher::Cancel>> =
        const { std::cell::RefCell::new(None) };
}

/// True when this thread works for a call that was interrupted: a game's Python
/// function asked for options then refuses, so that the work stops asking it.
pub fn interrupted_here() -> bool {
    WORKING_FOR.with(|w| w.borrow().as_ref().is_some_and(|c| c.is_cancelled()))
}

/// Runs `work` with this thread recorded as working for `cancel`.
fn working_for<T>(cancel: &sicher::Cancel, work: impl FnOnce() -> T) -> T {
    let before = WORKING_FOR.with(|w| w.replace(Some(cancel.clone())));
    // Restored even when the work unwinds.
    struct Restore(Option<sicher::Cancel>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            WORKING_FOR.with(|w| *w.borrow_mut() = before);
        }
    }
    let _restore = Restore(before);
    work()
}

/// A cancellation flag the computation's callbacks look at.
pub struct Watch {
    cancelled: AtomicBool,
    /// The library's handle, cancelled with the watch.
    cancel: sicher::Cancel,
    /// The thread that may ask Python about signals from a callback, if any.
    asker: Option<ThreadId>,
    /// Nanoseconds after `start` of the last time Python was asked.
    last_asked: AtomicU64,
    start: Instant,
    /// The exception the signal handler raised (KeyboardInterrupt, or whatever a Python
    /// handler chose to raise).
    raised: Mutex<Option<PyErr>>,
}

impl Watch {
    fn new(asker: Option<ThreadId>) -> Self {
        Watch {
            cancelled: AtomicBool::new(false),
            cancel: sicher::Cancel::new(),
            asker,
            last_asked: AtomicU64::new(0),
            start: Instant::now(),
            raised: Mutex::new(None),
        }
    }

    /// Called from the computation's progress callbacks: unwinds it once tripped.
    pub fn poll(&self) {
        if self.asker == Some(std::thread::current().id()) {
            let now = self.start.elapsed().as_nanos() as u64;
            let last = self.last_asked.load(Ordering::Relaxed);
            if now.saturating_sub(last) >= POLL.as_nanos() as u64 {
                self.last_asked.store(now, Ordering::Relaxed);
                if let Err(error) = Python::attach(|py| py.check_signals()) {
                    self.trip(error);
                }
            }
        }
        if self.cancelled.load(Ordering::Relaxed) {
            resume_unwind(Box::new(Cancelled));
        }
    }

    /// The library's cancellation handle, cancelled when the watch is tripped.
    pub fn cancel(&self) -> &sicher::Cancel {
        &self.cancel
    }

    fn trip(&self, error: PyErr) {
        let mut raised = self.raised.lock().unwrap_or_else(|e| e.into_inner());
        raised.get_or_insert(error);
        self.cancelled.store(true, Ordering::Relaxed);
        self.cancel.cancel();
    }

    fn raised(&self) -> PyErr {
        let mut raised = self.raised.lock().unwrap_or_else(|e| e.into_inner());
        raised
            .take()
            .unwrap_or_else(|| PyKeyboardInterrupt::new_err("interrupted"))
    }
}

/// What a computation that may be cancelled ended with.
fn settle<T>(outcome: std::thread::Result<sicher::Result<T>>, watch: &Watch) -> PyResult<T> {
    match outcome {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) if e.kind() == sicher::ErrorKind::Interrupted => Err(watch.raised()),
        // Whatever the work stopped with once tripped (say, the error of a Python
        // function that refused to go on) is the interruption.
        Ok(Err(_)) if watch.cancelled.load(Ordering::Relaxed) => Err(watch.raised()),
        Ok(Err(error)) => Err(to_py(error)),
        Err(payload) if payload.is::<Cancelled>() => Err(watch.raised()),
        Err(payload) => Err(PyRuntimeError::new_err(format!(
            "internal error in sicher: {}",
            panic_text(&payload)
        ))),
    }
}

fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        text.to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic".to_string()
    }
}

/// Runs `work` on this thread without the GIL; its callbacks call [`Watch::poll`], which
/// asks Python about signals (on the main thread) and stops the work on Ctrl-C.
/// `Err(true)`-like outcomes: the second value is true when the work was cut short (by
/// a signal or a panic), so the caller can throw away state the work may have left
/// half-updated.
pub fn on_this_thread<T, F>(py: Python<'_>, work: F) -> (PyResult<T>, bool)
where
    T: Send,
    F: FnOnce(&Arc<Watch>) -> sicher::Result<T> + Send,
{
    let watch = Arc::new(Watch::new(Some(std::thread::current().id())));
    let outcome = py.detach(|| {
        working_for(&watch.cancel, || {
            catch_unwind(AssertUnwindSafe(|| work(&watch)))
        })
    });
    let cut_short = outcome.is_err();
    (settle(outcome, &watch), cut_short)
}

/// Runs `work` on a helper thread while this thread waits without the GIL, asking
/// Python about signals between waits; on Ctrl-C the watch is tripped and this thread
/// waits for the work to unwind (its callbacks call [`Watch::poll`]) before raising.
pub fn on_helper_thread<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Watch) -> sicher::Result<T> + Send,
{
    let watch = Watch::new(None);
    std::thread::scope(|scope| {
        let (done, mut finished) = mpsc::channel();
        let watch = &watch;
        scope.spawn(move || {
            let outcome = working_for(&watch.cancel, || {
                catch_unwind(AssertUnwindSafe(|| work(watch)))
            });
            let _ = done.send(outcome);
        });
        loop {
            // The receiver travels into the wait and back (it is not `Sync`).
            let waited;
            (waited, finished) = py.detach(move || (finished.recv_timeout(POLL), finished));
            match waited {
                Ok(outcome) => return settle(outcome, watch),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(error) = py.check_signals() {
                        watch.trip(error);
                        // Wait for the work to unwind (or finish: the signal's exception
                        // is raised all the same).
                        let _ = py.detach(move || finished.recv());
                        return Err(watch.raised());
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "internal error in sicher: a worker thread vanished",
                    ))
                }
            }
        }
    })
}
