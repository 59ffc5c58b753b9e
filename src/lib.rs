//! sicher: a solver for impartial heap games — Nim, octal and hexadecimal
//! take-and-break games (Kayles, Dawson's Kayles, Treblecross, ...), subtraction games,
//! Grundy's game, Wythoff and Moore's Nim — under normal and misère play.
//!
//! A position is **safe** when the player to move has a sure win (an N-position) and
//! **unsafe** when the player to move loses against best play (a P-position), as in the
//! recursion `sicher(p) = ∃ q ∈ moves(p): ¬sicher(q)`.
//!
//! # Code map
//!
//! ```text
//!   GAME argument ─► game::resolve ─► Game (rules + convention)
//!                                       │
//!     check / solve on a position ──────┼─► grundy::NimOracle  normal play, one-heap rules:
//!                                       │                      XOR of nim-values (any heap size
//!                                       │                      once a period is proved)
//!                                       ├─► table (probe)      check only: a table under tables/
//!                                       │                      covers it: one memory-mapped bit
//!                                       └─► search::Solver     otherwise: boolean alpha-beta
//!
//!     table GAME --heaps/--total ─► domain (ranking) ─► label (bottom-up) ─► table (file)
//!     nim-values / solve GAME    ─► grundy (values, period proof) ─► table::nim (file)
//! ```
//!
//! - [`game`]: the model. `position.rs` (sorted multisets of heap sizes), `code.rs`
//!   (octal/hex take-and-break codes), `rules.rs` (every ruleset's move generator, a
//!   visitor that never allocates), `describe.rs` (shipped `games/*.toml`, embedded in
//!   the binary; description files; inline specs), and `mod.rs` ([`Game`]: rules plus
//!   convention plus the exact simplifications they allow).
//! - [`search`]: the top-down engine. `solver.rs` runs the boolean alpha-beta on an
//!   explicit stack (no recursion limit); `key.rs` gives positions 128-bit incremental
//!   keys; `table.rs` is the bounded transposition table with its unsafe filter;
//!   `ordering.rs` holds history and killer moves; `guide.rs` orders moves by
//!   nim-values; `plain.rs` is the naive memoised solver kept as a baseline.
//! - [`domain`]: bounded domains (`--heaps K --max N`, `--total T`) and their gap-free
//!   ranking bijections onto table entries (`tuples.rs`, `partitions.rs`), the ranking
//!   of a move's result (`child.rs`), and `incremental.rs`, which ranks a position's
//!   children from the parent's rank and steps through a tier without unranking.
//! - [`label`]: the bottom-up labeller, tier by tier of total tokens, in parallel within
//!   a tier (`tiers.rs` orders the work; moves that keep the total, Grundy's splits and
//!   `d0` splits, are labelled by heap count within a tier): `forward.rs`, `backward.rs`,
//!   and `plain.rs` (the baseline).
//! - [`table`]: files on disk. `header.rs` (magic, version, bincode header, checksums; the
//!   only place bincode is used), `mod.rs` (outcome tables: writing by temporary name and
//!   rename, memory-mapped probing), `nim.rs` (nim-value tables of the same family).
//! - [`grundy`]: Sprague-Grundy theory for one-heap rulesets. `values.rs` (the plain mex
//!   reference and the sparse-space engine), `period.rs` (ultimate periods and the
//!   periodicity theorem's proof), `solution.rs` (complete solutions, misère subtraction
//!   games) and `fast_path.rs` (normal-play positions by XOR of nim-values).
//! - [`cli`]: one module per subcommand (`check`, `solve`, `bench`, `table`, `info`,
//!   `verify`, `nim_values`) over the library; `probe.rs` and `grundy.rs` answer `check`
//!   and `solve` from tables and nim-values; `args.rs` holds shared argument groups and
//!   `output.rs` the output conventions (safe/unsafe wording, JSON records, progress that
//!   stays quiet off a terminal).
//! - [`quotient`]: misère quotients of one-heap rulesets, misère Nim, genus and tameness.
//! - [`error`]: the one error type; every user mistake becomes one line and exit code 2.
//!
//! `main.rs` only parses the command line and prints errors.

#![warn(missing_docs)]

pub mod cli;
pub mod domain;
pub mod error;
pub mod game;
pub mod grundy;
pub mod label;
pub mod quotient;
pub mod search;
pub mod table;

pub use error::{Error, Result};
pub use game::{Convention, Game, Position, Ruleset};
