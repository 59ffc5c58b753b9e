//! `--time-limit` of `check` and `solve`: a bound on the time spent answering positions,
//! kept by a watchdog thread. Past it, the answers already made are written, one line
//! says which position was still being worked on, and the process ends with exit code
//! 2, wherever the work was (theory building a quotient, a search, a table): the
//! library's engines need no deadline of their own for the binary to keep its bound.

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use clap::Args;

use super::errors::USAGE;

/// The default bound, in seconds: far beyond what theory, tables and a search of a
/// sensible position take, and short of a wait nobody would sit through unannounced.
pub const DEFAULT_SECONDS: u64 = 120;

/// `--time-limit SECONDS`.
#[derive(Args, Debug, Clone)]
pub struct TimeLimitArgs {
    /// Give up (one line, exit code 2) once answering has taken this many seconds in
    /// all; 0 for no limit.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_SECONDS)]
    pub time_limit: u64,
}

/// A started watchdog: what is being worked on, and the answers not yet written.
#[derive(Clone, Default)]
pub struct Watchdog {
    doing: Arc<Mutex<String>>,
    pending: Arc<Mutex<Vec<u8>>>,
}

impl Watchdog {
    /// Starts the watchdog for `args` (none runs with `--time-limit 0`).
    pub fn start(args: &TimeLimitArgs) -> Self {
        let watchdog = Watchdog::default();
        if args.time_limit > 0 {
            let limit = args.time_limit;
            let watched = watchdog.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_secs(limit));
                watched.expire(limit);
            });
        }
        watchdog
    }

    /// Says which position is being answered now.
    pub fn working_on(&self, what: String) {
        *self.doing.lock().unwrap_or_else(PoisonError::into_inner) = what;
    }

    /// The buffer answers collect in before they are written: the watchdog writes what
    /// it holds before it ends the process.
    pub fn pending(&self) -> &Mutex<Vec<u8>> {
        &self.pending
    }

    fn expire(&self, limit: u64) -> ! {
        let pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(&pending).and_then(|()| out.flush());
        let doing = self.doing.lock().unwrap_or_else(PoisonError::into_inner);
        let what = if doing.is_empty() {
            String::new()
        } else {
            format!(" for {doing}")
        };
        eprintln!(
            "sicher: no answer{what} within the time limit of {limit} s; raise --time-limit (0: no limit)"
        );
        sicher::atomic_file::remove_temporaries_before_exit();
        std::process::exit(USAGE);
    }
}
