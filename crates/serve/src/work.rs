//! Computation under a budget: every request that may search runs on a blocking thread
//! holding one of a fixed number of slots, with a deadline. The library's search cannot
//! be stopped from outside, but it calls a progress hook every 65 536 nodes; past the
//! deadline that hook unwinds with a private payload, which the slot catches and turns
//! into a 503. The chain that was searching is dropped with the unwinding, so nothing
//! half-done is reused. Memory is bounded the same way: each search's table by
//! `--hash`, the number of searches by the slots.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Once};
use std::time::Instant;

use sicher::answer::{on_the_fly_budget, Chain, Policy};
use sicher::search::{ProgressHook, SearchConfig};
use sicher::theory::grundy::default_max;
use sicher::Game;
use tokio::sync::Semaphore;

use crate::error::{ApiError, ApiResult};
use crate::limits::Limits;

/// The payload a search unwinds with once past its deadline.
struct PastDeadline;

/// The slots computations run in, and the bounds each one gets.
#[derive(Clone)]
pub struct Workers {
    slots: Arc<Semaphore>,
    limits: Arc<Limits>,
    tables: Option<PathBuf>,
}

impl Workers {
    /// `limits.searches` slots, over tables from `tables` only.
    pub fn new(limits: Arc<Limits>, tables: Option<PathBuf>) -> Self {
        quiet_deadline_panics();
        Workers {
            slots: Arc::new(Semaphore::new(limits.searches.max(1))),
            limits,
            tables,
        }
    }

    /// The bounds.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Runs `job` on a blocking thread once a slot is free, within the time budget: past
    /// it, or when no slot frees up in time, a 503 that says which.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce(&Allowance) -> ApiResult<T> + Send + 'static,
    ) -> ApiResult<T> {
        let slot = tokio::time::timeout(self.limits.queue, self.slots.clone().acquire_owned())
            .await
            .map_err(|_| {
                ApiError::unavailable(format!(
                    "every one of the server's {} computing slots stayed busy for {} s; try again",
                    self.limits.searches,
                    self.limits.queue.as_secs()
                ))
            })?
            .map_err(|_| ApiError::unavailable("the server is shutting down"))?;
        let allowance = Allowance {
            deadline: Instant::now() + self.limits.time,
            limits: Arc::clone(&self.limits),
            tables: self.tables.clone(),
        };
        let handle = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            catch_unwind(AssertUnwindSafe(|| job(&allowance)))
        });
        match handle.await {
            Ok(Ok(result)) => result,
            Ok(Err(payload)) if payload.is::<PastDeadline>() => Err(ApiError::unavailable(
                format!(
                    "the answer needs more than the server's {} s per request (--time-limit): theory and tables do not reach this position; ask for smaller heaps",
                    self.limits.time.as_secs_f64()
                ),
            )),
            Ok(Err(_)) | Err(_) => Err(ApiError::internal(
                "sicher failed on this request (a fault in sicher, not in the request)",
            )),
        }
    }
}

/// What one computation may spend, handed to the job.
pub struct Allowance {
    deadline: Instant,
    limits: Arc<Limits>,
    tables: Option<PathBuf>,
}

impl Allowance {
    /// The bounds.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Unwinds out of the job once past the deadline (between steps of work that has no
    /// progress hook of its own: rows of a map, lines of a batch).
    pub fn check(&self) {
        if Instant::now() >= self.deadline {
            std::panic::panic_any(PastDeadline);
        }
    }

    /// Runs `part` of the work, giving `None` when the deadline passes inside it (a part
    /// the answer can do without: the period in the "why" panel). Other panics go on.
    pub fn attempt<T>(&self, part: impl FnOnce() -> T) -> Option<T> {
        match catch_unwind(AssertUnwindSafe(part)) {
            Ok(value) => Some(value),
            Err(payload) if payload.is::<PastDeadline>() => None,
            Err(payload) => std::panic::resume_unwind(payload),
        }
    }

    /// Runs a library call that takes a [`sicher::Cancel`] (the partizan engines): the
    /// handle is cancelled at the deadline, and a call it stopped ends the job as past
    /// its deadline (the usual 503).
    pub fn cancellable<T>(
        &self,
        work: impl FnOnce(&sicher::Cancel) -> sicher::Result<T>,
    ) -> sicher::Result<T> {
        let cancel = sicher::Cancel::new();
        let (finished, wait) = std::sync::mpsc::channel::<()>();
        let deadline = self.deadline;
        let result = std::thread::scope(|scope| {
            let alarm = cancel.clone();
            scope.spawn(move || {
                let left = deadline.saturating_duration_since(Instant::now());
                // Woken early (the sender dropped) when the work ends first.
                if wait.recv_timeout(left) == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
                    alarm.cancel();
                }
            });
            let result = work(&cancel);
            drop(finished);
            result
        });
        match result {
            Err(error)
                if cancel.is_cancelled()
                    && error.kind() == sicher::error::ErrorKind::Interrupted =>
            {
                std::panic::panic_any(PastDeadline)
            }
            other => other,
        }
    }

    /// True once the deadline has passed.
    pub fn expired(&self) -> bool {
        Instant::now() >= self.deadline
    }

    /// A search progress hook that unwinds once half the time left now is spent: for
    /// work the answer can do without (the remoteness), run inside
    /// [`attempt`](Self::attempt), leaving the rest of the time to what it cannot.
    pub fn early_hook(&self) -> ProgressHook {
        let now = Instant::now();
        let early = now + self.deadline.saturating_duration_since(now) / 2;
        Box::new(move |_| {
            if Instant::now() >= early {
                std::panic::panic_any(PastDeadline);
            }
        })
    }

    /// A search progress hook that unwinds past the deadline.
    pub fn hook(&self) -> ProgressHook {
        let deadline = self.deadline;
        Box::new(move |_| {
            if Instant::now() >= deadline {
                std::panic::panic_any(PastDeadline);
            }
        })
    }

    /// The answer chain of `game` under [`policy`](Self::policy), its search heeding the
    /// deadline ([`hook`](Self::hook)).
    pub fn chain(&self, game: &Game) -> sicher::Result<Chain> {
        let mut chain = Chain::new(game, &self.policy(game))?;
        chain.set_search_progress(self.hook());
        Ok(chain)
    }

    /// The answer policy for `game` within these bounds: tables only from `--tables`, a
    /// bounded transposition table on one thread, nim-values up to the cap (and no
    /// further than the library computes by default: the plain mex engine is quadratic,
    /// and it has no deadline), a misère quotient built on the fly until the deadline
    /// and within the memory of one search.
    pub fn policy(&self, game: &Game) -> Policy {
        let mut quotient_budget = on_the_fly_budget();
        quotient_budget.deadline = Some(self.deadline);
        quotient_budget.max_memory = quotient_budget
            .max_memory
            .min(self.limits.hash_bytes as u64);
        Policy {
            tables_dir: self.tables.clone(),
            nim_max: Some(self.limits.nim_max.min(default_max(&game.ruleset))),
            search: self.search_config(),
            quotient_budget,
            ..Policy::default()
        }
    }

    /// The search settings: the default ones on one thread within `--hash`.
    pub fn search_config(&self) -> SearchConfig {
        SearchConfig {
            hash_bytes: self.limits.hash_bytes,
            threads: 1,
            ..SearchConfig::default()
        }
    }
}

/// A search stopped at its deadline is an answer (503), not a fault: the panic hook stays
/// quiet for that payload and speaks for every other.
fn quiet_deadline_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !info.payload().is::<PastDeadline>() {
                previous(info);
            }
        }));
    });
}
