//! `sicher serve`: the page, sicher's own JSON API and the GamesCrafters Universal Web API
//! over HTTP, from one process. The library answers; this crate reads requests, bounds
//! them and writes answers; the `sicher` binary parses flags and prints.
//!
//! ```text
//!   listen.rs (connections, timeouts) ─► routes.rs (CORS, JSON errors, body cap)
//!     ├─ page.rs     /                 the page (assets/, compiled in)
//!     ├─ api.rs      /api/...          check, batch, solve, solution, nim-values, position,
//!     │  pictures.rs /api/*.png        table entry; map and plot
//!     │  partizan.rs /api/partizan     partizan games: class, each side's moves
//!     └─ uwapi.rs    /uwapi/...        games, variants, positions, instructions (notation.rs)
//!   catalog.rs: games from names and specs, never from paths
//!   work.rs: computing slots, deadlines, memory per search
//!   report.rs: a position with every move valued; why.rs: the theory behind it
//!   (the JSON records of check, solve and solution are the library's, `sicher::answer`)
//! ```

#![deny(missing_docs)]

mod api;
mod catalog;
mod error;
mod limits;
mod listen;
mod notation;
mod page;
mod partizan;
mod pictures;
mod report;
mod routes;
mod uwapi;
mod why;
mod work;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

pub use limits::{Config, Limits};

/// Binds `config.addr`, tells `bound` the address (port 0 picks a free one), and serves
/// until `shutdown` completes (the binary passes Ctrl-C). Errors are the bind's.
pub fn run<F, S>(config: Config, bound: F, shutdown: S) -> std::io::Result<()>
where
    F: FnOnce(SocketAddr),
    S: Future<Output = ()> + Send,
{
    let limits = Arc::new(config.limits.clone());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Searches run on blocking threads, one per computing slot; a few spare for
        // the rest.
        .max_blocking_threads(limits.searches.max(1) + 4)
        .thread_name("sicher-serve")
        .build()?;
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.addr).await?;
        bound(listener.local_addr()?);
        let state = routes::AppState {
            workers: work::Workers::new(Arc::clone(&limits), config.tables.clone()),
            tables: config.tables.clone(),
        };
        listen::serve(listener, routes::router(state), &limits, shutdown).await;
        Ok(())
    });
    // A computation still running (its deadline not yet reached) does not hold the exit
    // up: dropping the runtime would wait for every blocking thread.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    served
}

/// Ctrl-C or SIGTERM: the shutdown `run` waits for in the binary.
pub async fn interrupted() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let Ok(mut term) = signal(SignalKind::terminate()) else {
            let _ = tokio::signal::ctrl_c().await;
            return;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
