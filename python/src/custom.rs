//! `Game.from_options(fn)`: a one-heap ruleset whose options come from a Python
//! callable, through the library's checked, cached custom rules
//! (`sicher::game::CustomRules`): `fn(n)` is called once per heap size, with the GIL,
//! and what it returns is checked as a script's options are.
//!
//! An exception `fn` raises is kept here and raised again to the caller as itself (the
//! library carries a one-line message naming the function and the heap; the caller
//! gets the Python exception, traceback included).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use sicher::game::{CustomRules, HeapOptionsSource};
use sicher::{Heap, Ruleset};

/// What a Python function raised, with the text that marks the library's error for it.
#[derive(Default)]
pub struct Raised {
    error: Option<(PyErr, String)>,
}

/// Where a game's function keeps what it raised.
pub type RaisedSlot = Arc<Mutex<Raised>>;

/// A heap-options source over a Python callable.
struct PythonSource {
    name: String,
    spec: String,
    function: Py<PyAny>,
    raised: RaisedSlot,
}

impl PythonSource {
    /// Keeps `error`, raised by the function for heap `n`, and returns the library's
    /// message for it.
    fn keep(&self, error: PyErr, n: Heap) -> String {
        let marker = format!("raised by the Python function for heap {n}");
        let text = Python::attach(|py| {
            let kind = error
                .get_type(py)
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "an exception".to_string());
            format!("{kind} {marker}: {}", error.value(py))
        });
        // The latest: failures do not stay (the next call asks the function again), so
        // an older exception would be the wrong one to raise.
        let mut raised = self.raised.lock().unwrap_or_else(|e| e.into_inner());
        raised.error = Some((error, marker));
        text
    }
}

thread_local! {
    /// The games whose function this thread is running (by their slot's address).
    static CALLING: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Refuses a call on a game from inside its own function: the game is busy asking the
/// function (it holds its locks), so waiting for it would wait forever.
pub fn refuse_reentry(raised: Option<&RaisedSlot>) -> PyResult<()> {
    let Some(slot) = raised else { return Ok(()) };
    let me = Arc::as_ptr(slot) as usize;
    if CALLING.with(|c| c.borrow().contains(&me)) {
        return Err(crate::errors::input(
            "a from_options function cannot use its own game (check, moves, ...) while that game asks it for options; compute what it needs another way",
        ));
    }
    Ok(())
}

impl HeapOptionsSource for PythonSource {
    fn name(&self) -> &str {
        &self.name
    }

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn failures_stay(&self) -> bool {
        // An exception may pass (Ctrl-C, a bug fixed in a function the game calls):
        // the next call asks again.
        false
    }

    fn options(&self, n: Heap) -> Result<Vec<Vec<i64>>, String> {
        if crate::interrupt::interrupted_here() {
            return Err("interrupted".to_string());
        }
        Python::attach(|py| {
            let me = Arc::as_ptr(&self.raised) as usize;
            CALLING.with(|c| c.borrow_mut().push(me));
            let returned = self.function.bind(py).call1((n,));
            CALLING.with(|c| c.borrow_mut().pop());
            let returned = returned.map_err(|e| self.keep(e, n))?;
            let not_options = |what: &Bound<'_, PyAny>| {
                let kind = what
                    .get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default();
                format!("returned {} where an iterable of options (each an iterable of heap sizes) belongs", with_article(&kind))
            };
            let mut options = Vec::new();
            // Iterating may run the function's own code (a generator): what it raises
            // then is the function's exception too.
            let iter = returned.try_iter().map_err(|_| not_options(&returned))?;
            for option in iter {
                let option = option.map_err(|e| self.keep(e, n))?;
                let parts_iter = option.try_iter().map_err(|_| not_options(&option))?;
                let mut parts = Vec::new();
                for part in parts_iter {
                    let part = part.map_err(|e| self.keep(e, n))?;
                    let size =
                        part.extract::<i64>().map_err(|_| {
                            if part.is_instance_of::<pyo3::types::PyInt>() {
                                // An int too large for any heap: its sign and size, not its
                                // twenty digits.
                                let negative = part.lt(0).unwrap_or(false);
                                format!(
                                "returned a heap size {} (an int of {} bits), far beyond any heap",
                                if negative { "below -2^63" } else { "above 2^63" },
                                part.call_method0("bit_length")
                                    .and_then(|b| b.extract::<u64>())
                                    .unwrap_or(0)
                            )
                            } else {
                                let kind = part
                                    .get_type()
                                    .name()
                                    .map(|n| n.to_string())
                                    .unwrap_or_default();
                                format!(
                                    "returned {} {} where a heap size (an int) belongs",
                                    with_article(&kind),
                                    short_repr(&part)
                                )
                            }
                        })?;
                    parts.push(size);
                }
                options.push(parts);
            }
            Ok(options)
        })
    }
}

/// `a float`, `an int`: a type's name with its article.
fn with_article(kind: &str) -> String {
    let vowel = kind
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {kind}", if vowel { "an" } else { "a" })
}

/// A value's repr, cut short when long (a huge string or list is not a message).
fn short_repr(value: &Bound<'_, PyAny>) -> String {
    let text = value.repr().map(|r| r.to_string()).unwrap_or_default();
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text,
    }
}

/// The ruleset of `function`, named `name`, with the slot its exceptions go to.
pub fn ruleset(
    py: Python<'_>,
    function: Bound<'_, PyAny>,
    name: String,
) -> PyResult<(Ruleset, RaisedSlot)> {
    if !function.is_callable() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "from_options takes a callable: fn(n) gives the options of a lone heap of size n",
        ));
    }
    let _ = py;
    // Each call makes rules of their own (a cache of their own, and the slot their
    // exceptions go to), named apart by a count: a table written for them records this
    // spec, which finds them again while they are alive in this process.
    static MADE: AtomicU64 = AtomicU64::new(0);
    let spec = format!("python:{name}#{}", MADE.fetch_add(1, Ordering::Relaxed) + 1);
    let raised = RaisedSlot::default();
    let source = PythonSource {
        name: format!("Python function {name}"),
        spec,
        function: function.unbind(),
        raised: Arc::clone(&raised),
    };
    Ok((Ruleset::Custom(CustomRules::new(Box::new(source))), raised))
}

/// `result`, with the library's error for an exception the function raised replaced by
/// that exception.
pub fn reraise<T>(py: Python<'_>, raised: Option<&RaisedSlot>, result: PyResult<T>) -> PyResult<T> {
    let (Err(error), Some(slot)) = (&result, raised) else {
        return result;
    };
    let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, marker)) = &slot.error {
        let text = error.value(py).to_string();
        if text.contains(marker.as_str()) {
            // Taken: raised once, for the call it belongs to.
            let (original, _) = slot.error.take().expect("just matched");
            return Err(original);
        }
    }
    result
}
