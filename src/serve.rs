//! `sicher serve`: the flags, the line that says where the server listens, and the
//! Ctrl-C that stops it. The server itself is `crates/serve`.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use sicher::error::{Error, Result};
use sicher_serve::{Config, Limits};

const EXAMPLES_SERVE: &str = "Examples:
  sicher serve                          # http://127.0.0.1:8080/, this machine only
  sicher serve --port 0                 # any free port (printed)
  sicher serve --bind 0.0.0.0 --tables tables --time-limit 5";

/// Arguments of `sicher serve`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES_SERVE)]
pub struct ServeArgs {
    /// Port to listen on (0: any free one, printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on: this machine only unless told otherwise (0.0.0.0: every
    /// interface, reachable by strangers).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Answer from the endgame tables in this directory (the only tables read).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Seconds one request may compute (searches, quotients, pictures); past it, 503.
    #[arg(long, value_name = "SECS", default_value_t = 2.0)]
    pub time_limit: f64,
    /// MiB of transposition table one search may allocate.
    #[arg(long, value_name = "MIB", default_value_t = 64)]
    pub hash: usize,
    /// Requests computing at once (default: the number of cores); more wait their turn.
    #[arg(long, value_name = "N")]
    pub searches: Option<usize>,
    /// Most positions in one batch request.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_batch: usize,
    /// Largest request body, in KiB.
    #[arg(long, value_name = "KIB", default_value_t = 64)]
    pub max_body: usize,
    /// Connections served at once.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub max_connections: usize,
    /// Seconds a client has to send a request's headers before its connection is closed.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub header_timeout: f64,
    /// Accept game descriptions whose rules are a script from requests (they run under
    /// the script limits).
    #[arg(long)]
    pub allow_scripts: bool,
}

/// Runs `sicher serve` until Ctrl-C or SIGTERM.
pub fn run(args: &ServeArgs) -> Result<()> {
    if !(args.time_limit.is_finite() && args.time_limit > 0.0 && args.time_limit <= 3600.0) {
        return Err(Error::input(
            "--time-limit takes seconds between 0 and 3600",
        ));
    }
    if !(args.header_timeout.is_finite()
        && args.header_timeout > 0.0
        && args.header_timeout <= 3600.0)
    {
        return Err(Error::input(
            "--header-timeout takes seconds between 0 and 3600",
        ));
    }
    if let Some(dir) = &args.tables {
        if !dir.is_dir() {
            return Err(Error::input(format!(
                "--tables {}: not a directory",
                dir.display()
            )));
        }
    }
    let defaults = Limits::default();
    let limits = Limits {
        time: Duration::from_secs_f64(args.time_limit),
        hash_bytes: args.hash.clamp(1, 1 << 20) << 20,
        searches: args.searches.unwrap_or(defaults.searches).max(1),
        max_batch: args.max_batch.max(1),
        max_body: args.max_body.max(1) << 10,
        max_connections: args.max_connections.max(1),
        header_timeout: Duration::from_secs_f64(args.header_timeout),
        allow_scripts: args.allow_scripts,
        ..defaults
    };
    let config = Config {
        addr: SocketAddr::new(args.bind, args.port),
        tables: args.tables.clone(),
        limits,
    };
    let bind = config.addr;
    sicher_serve::run(
        config,
        |addr| {
            let host = match addr.ip() {
                IpAddr::V4(ip) if ip.is_unspecified() => "127.0.0.1".to_string(),
                IpAddr::V6(ip) if ip.is_unspecified() => "[::1]".to_string(),
                IpAddr::V6(ip) => format!("[{ip}]"),
                IpAddr::V4(ip) => ip.to_string(),
            };
            // One line a script can read the address from; stdout is flushed at once.
            println!(
                "sicher: serving on http://{host}:{}/ (Ctrl-C stops)",
                addr.port()
            );
        },
        sicher_serve::interrupted(),
    )
    .map_err(|e| Error::input(format!("cannot listen on {bind}: {e}")))
}
