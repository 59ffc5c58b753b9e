//! Every bound the server puts on a request, with its default: what a stranger can make
//! one request cost, and how many such requests run at once.

use std::path::PathBuf;
use std::time::Duration;

/// What `sicher serve` was asked to do and the bounds it keeps.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on (`127.0.0.1:8080` unless told otherwise).
    pub addr: std::net::SocketAddr,
    /// The only directory tables are read from (`--tables DIR`); none without it.
    pub tables: Option<PathBuf>,
    /// Per-request bounds.
    pub limits: Limits,
}

/// Per-request and whole-server bounds.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Wall-clock time one request may compute for (search, quotient, pictures).
    pub time: Duration,
    /// Bytes of the transposition table one search may allocate.
    pub hash_bytes: usize,
    /// Requests computing at once (each on its own thread); more wait, up to `queue`.
    pub searches: usize,
    /// How long a request waits for a computing slot before it is turned away (503).
    pub queue: Duration,
    /// Largest request body, in bytes.
    pub max_body: usize,
    /// Most positions in one batch.
    pub max_batch: usize,
    /// Longest game spec (`octal:0.77`, ...), in bytes.
    pub max_spec: usize,
    /// Most heaps in one position.
    pub max_heaps: usize,
    /// Most moves listed for one position (a heap of a billion tokens has more).
    pub max_moves: usize,
    /// Nodes the remoteness search may spend on one position before the answer goes
    /// without remoteness (as `sicher play` does).
    pub remoteness_nodes: u64,
    /// Largest heap whose nim-value is computed; larger heaps need a proved period.
    pub nim_max: u64,
    /// Largest heap of a complete solution or a nim-value list.
    pub max_solution: u64,
    /// Largest heap on a map's axes.
    pub max_map: u64,
    /// Largest pixels per position on a map.
    pub max_scale: u32,
    /// Largest heap of a plot.
    pub max_plot: u64,
    /// Largest width or height of a plot, in pixels.
    pub max_plot_side: u32,
    /// Connections served at once; more wait in the kernel's queue.
    pub max_connections: usize,
    /// Time a client has to send a request's headers (slow clients are cut off).
    pub header_timeout: Duration,
    /// Accept descriptions whose rules are a script (`rules = "script"`) from requests.
    pub allow_scripts: bool,
}

impl Default for Limits {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Limits {
            time: Duration::from_secs(2),
            hash_bytes: 64 << 20,
            searches: cores,
            queue: Duration::from_secs(10),
            max_body: 64 << 10,
            max_batch: 1000,
            max_spec: 64,
            max_heaps: 64,
            max_moves: 10_000,
            remoteness_nodes: 1 << 21,
            nim_max: 200_000,
            max_solution: 100_000,
            max_map: 200,
            max_scale: 8,
            max_plot: 5_000,
            max_plot_side: 2_000,
            max_connections: 1024,
            header_timeout: Duration::from_secs(10),
            allow_scripts: false,
        }
    }
}
