//! sicher: a solver for impartial heap games — Nim, octal and hexadecimal
//! take-and-break games (Kayles, Dawson's Kayles, Treblecross, ...), subtraction games,
//! Grundy's game, Wythoff and Moore's Nim — under normal and misère play.
//!
//! A position is **safe** when the player to move has a sure win (an N-position) and
//! **unsafe** when the player to move loses against best play (a P-position), as in the
//! recursion `sicher(p) = ∃ q ∈ moves(p): ¬sicher(q)`.
//!
//! # Using the library
//!
//! The library has no command line (no clap, no progress bars, no signal handler): the
//! `sicher` binary is the crate `sicher-cli` beside it in the workspace. Its one feature,
//! `picture` (on by default), draws maps and plots; `default-features = false` leaves it
//! out. It never prints and never exits the process. This program is
//! `crates/sicher/examples/library.rs` (`cargo run --release -p sicher --example library`):
//!
//! ```
#![doc = include_str!("../examples/library.rs")]
//! ```
//!
//! # Layers
//!
//! Each layer uses only the ones above it in this list, never one beside or below it
//! (test code aside):
//!
//! 1. [`error`], [`value`] (what a position is worth: [`Outcome`], [`Value`],
//!    [`Convention`]), and the plumbing: `checksum.rs`, [`atomic_file`], [`memory`].
//! 2. [`game`], the model: rules and their move generators, positions, one move
//!    application, the option table of every heap size, parents for retrograde work,
//!    where games come from (shipped names, description files, inline specs); and
//!    [`domain`], bounded domains ranked onto table entries.
//! 3. [`theory`]: what is known without searching. [`theory::grundy`] (nim-values,
//!    periods and their proofs, complete solutions), [`theory::quotient`] (misère
//!    quotients, misère Nim, tameness, the quotient a table learns), [`theory::closed`]
//!    (Wythoff's and Moore's closed forms), and [`theory::invariant`], the one
//!    winning-move search over a theory's heap-by-heap invariant.
//! 4. Side by side, never importing each other: [`search`] (top-down: boolean alpha-beta
//!    and the remoteness search), [`label`] (bottom-up: the retrograde labeller and its
//!    work directory) and [`table`] (storage: the container, compression, predictions,
//!    memory-mapped probing; it knows words, counts and headers, not engines).
//! 5. The answer layer, [`answer`] (one [`Chain`] of sources: closed forms,
//!    nim-values, tables, misère theory, search), and the use cases: [`build`] (label a
//!    domain and write its table), [`verify`] (bottom-up against top-down), `survey`
//!    (families of positions for pictures), [`play`] (a game against perfect play);
//!    `picture` draws from plain data (`survey` and `picture`: feature `picture`).
//! 6. The binaries, other crates of the workspace: `sicher-cli` at the workspace's root
//!    (`src/`: flags, printing, exit codes, the signal handler; it words the library's
//!    [`Hint`]s as its flags) and `crates/mpi`, `sicher-mpi`, which is `sicher table`
//!    shared between the ranks of an MPI job, over the same command line and
//!    [`build::TableJob`]; `python/` is the Python package.
//!
//! # Code map
//!
//! ```text
//!   GAME argument ─► game::resolve ─► Game (rules + convention)
//!   flags ─► cli/args.rs (resolved once) ─► answer::Policy
//!
//!   check / solve on a position ─► answer::Chain (the policy's sources, in order):
//!        NimSource         normal play, one-heap rules: XOR of nim-values
//!                          (theory::grundy), any heap size once a period is proved
//!        TableSource       a table under tables/ (or --table FILE) covering the position
//!        ClosedFormSource  Wythoff (two heaps), Moore's Nim_k: theory::closed
//!        QuotientSource    misère play, one-heap rules: misère Nim's rule, or a misère
//!                          quotient (theory::quotient, on the fly or --quotient FILE)
//!        SearchSource      otherwise: search::Solver (the verdict; in misère play it
//!                          ends where the quotient the source above built, however
//!                          partial, covers every heap), then search::RemotenessSolver
//!                          (the remoteness)
//!      ─► Answer { value: Value, best_move, source } / Solution { winning_moves, evidence }
//!
//!   table GAME --heaps/--total ─► build::TableJob ─► label::Plan ─► table::TableWriter
//!   nim-values / solve GAME    ─► theory::grundy (values, period proof) ─► table (nim-values)
//!   quotient GAME --max N      ─► theory::quotient::compute ─► table (quotient body)
//!   verify GAME …              ─► verify (label against answer::Chain)
//!   play GAME                  ─► play::Session ─► answer::Chain (theory, tables, search)
//!                                                  + search::RemotenessSolver (within a budget)
//!   list TABLE                 ─► table::Table::list (rank order, values, filter)
//!   picture / plot GAME        ─► survey ─► picture (PNG or terminal)
//! ```
//!
//! Where things live, file by file:
//!
//! - `error.rs`: the [`Error`] type with its [`ErrorKind`]s and [`Hint`]s; `value.rs`;
//!   `checksum.rs` (the one checksum every file carries); `atomic_file.rs` (files that
//!   appear whole or not at all; the temporaries a signal handler removes);
//!   `memory.rs` (what the machine can give, for refusing work up front); `cancel.rs`
//!   ([`Cancel`], which stops a long call from another thread).
//! - `game/`: `rules.rs` (the [`Ruleset`]s, their move generators — visitors that never
//!   allocate — and capabilities, each stated for every ruleset by name, so engines
//!   never match on rulesets), `moves.rs` (applying a move: `child_into`, the one place),
//!   `options.rs` (every option of every heap size up to a bound, listed once),
//!   `parents.rs` (the positions one move before, within a domain's bounds),
//!   `position.rs`, `code.rs` (octal and hexadecimal codes), `describe.rs`
//!   (`games/*.toml` embedded in the binary, description files, inline specs),
//!   `lines.rs` (positions from text, one per line), `mod.rs` ([`Game`]).
//! - `domain/`: [`Domain`] and [`Ranker`] (`tuples.rs` for `--heaps K --max N`,
//!   `partitions.rs` for `--total T`), ranking a move's result (`child.rs`,
//!   `child_ranks.rs`), ranking from runs of equal heaps (`incremental.rs`), walking
//!   ranks in order (`walk.rs`).
//! - `theory/grundy/`: `mex.rs` (the one mex), `values.rs` (the sequence engines:
//!   `values/reference.rs` the plain mex, `values/sparse.rs` the sparse-space engine,
//!   `values/scan.rs` its vector scans), `period.rs` (periods and the periodicity
//!   theorem), `solution.rs` (complete solutions), `fast_path.rs` (nim-values of any
//!   heap size; XOR verdicts and winning moves).
//! - `theory/quotient/`: `construct.rs` (heap by heap), `verify.rs` (the
//!   transition-table proof), `monoid.rs`, `extend.rs`, `presentation.rs`, `answer.rs`
//!   (the quotient as a heap invariant: outcomes and winning moves), `nim.rs` (Bouton's misère Nim), `tame.rs` (genus,
//!   tameness, the tame misère rule), `learn.rs` (the quotient a table learns from its
//!   small positions), `options.rs` (the option table as the construction reads it).
//! - `theory/closed/`: `wythoff.rs` (and `golden.rs`, ⌊kφ⌋ in integers), `moore.rs`
//!   (and `moore_search.rs`, every winning move digit by digit).
//! - `theory/invariant.rs`: [`theory::invariant::HeapInvariant`] (a heap's element, how
//!   elements combine, which are unsafe) and the one winning-move search over it, which
//!   the nim-sum, misère Nim, the tame rule and misère quotients implement.
//! - `search/`: `solver.rs` (boolean alpha-beta on an explicit stack), `key.rs`
//!   (incremental 128-bit keys), `bounded.rs` (the bounded transposition-table core,
//!   keeping costly entries) under `table.rs`, `ordering.rs`, `guide.rs` (nim-value
//!   move ordering), `heaps.rs`, `theory.rs` (exact outcomes handed in from theory),
//!   `endgame.rs` (tables handed in for small positions), `plain.rs` (the plain
//!   memoised baselines), `remote/` (the remoteness search: `engine.rs`, `table.rs`,
//!   `score.rs`, `proof.rs`, `windows.rs` (the [`search::Algorithm`]s), `split.rs`
//!   (threads splitting the tree by siblings where theory classifies the moves),
//!   `parallel.rs` and `shared.rs` (threads sharing one lockless table), `tables.rs`
//!   (an engine's table: its own alone, the shared one with other threads)).
//! - `label/`: `plan.rs` (strategy and memory before anything is allocated), tier
//!   labellers `forward.rs`, `backward.rs`, `remoteness.rs`, `plain.rs`, their order in
//!   `tiers.rs`, `drive.rs` over the `window.rs` of tiers moves reach, `work/` (the
//!   work directory: part files bound to their work, tiers and ranks in `part.rs`, the
//!   manifest and its checks in `manifest.rs`, resumption, finished labels streamed to
//!   the table writer), `cluster/` (a `--total` domain's tiers shared between the ranks
//!   of a job: rank 0's tier manager, workers, messages over a `Link`) and `chunk.rs`
//!   (a chunk of a tier labelled by pulling from lower tiers), shortcuts from theory
//!   (`one_heap.rs`, `nim_values.rs`), `options.rs` and `parents.rs` (the game's
//!   options and parents as the labellers read them), `bits.rs`.
//! - `table/`: `format.rs` (the container's layout and header types), `stored.rs` (the
//!   header as bincode stores it), `codec.rs` (compressed blocks), `predict.rs`
//!   (predictions whose residual is stored), `writer.rs` ([`TableWriter`]),
//!   `reader.rs` ([`Table`]), `bodies.rs` (quotient and nim-value bodies), `list.rs`
//!   (a table's positions in rank order with their values).
//! - `answer/`: the [`answer::Oracle`] trait and its sources (`closed.rs`, `nim.rs`,
//!   `table.rs`, `quotient.rs`, `search.rs`), and `chain.rs` ([`Policy`], [`Chain`]).
//! - `build.rs`, `verify.rs`, `survey.rs`, `play.rs`: the use cases.
//! - `picture/`: maps and plots as PNG or terminal text, from plain data.
//!
//! # Where to add things
//!
//! - **A ruleset**: a variant of [`Ruleset`] in `game/rules.rs`; the compiler then lists
//!   every capability to state (moves, options, parents, bounds) in `game/`; its spec in
//!   `game/describe.rs`. Every engine reads the rules through these.
//! - **A theory**: a module of `theory/` (implementing
//!   [`theory::invariant::HeapInvariant`] where it values a position heap by heap, which
//!   gives it winning moves), and an [`answer::Oracle`] in `answer/` that asks it, placed
//!   in the chain by `answer/chain.rs`.
//! - **An answer source** (a new kind of oracle): one file in `answer/` implementing
//!   [`answer::Oracle`], and its place in `Chain::new`.

#![deny(missing_docs)]

pub mod answer;
pub mod atomic_file;
pub mod build;
pub mod cancel;
pub(crate) mod checksum;
pub mod domain;
pub mod error;
pub mod game;
pub mod label;
pub mod memory;
#[cfg(feature = "picture")]
pub mod picture;
pub mod play;
pub mod search;
#[cfg(feature = "picture")]
pub mod survey;
pub mod table;
pub mod theory;
pub mod value;
pub mod verify;

pub use answer::{Answer, Chain, Policy, Query, Remoteness, Solution, SourceKind};
pub use build::{TableJob, TableRequest};
pub use cancel::Cancel;
pub use domain::{Domain, Ranker};
pub use error::{Error, ErrorKind, Hint, Result};
pub use game::{parse_spec, resolve, Convention, Game, Heap, Position, Ruleset};
pub use search::{Algorithm, RemotenessSolver, Solver};
pub use table::{Table, TableWriter};
pub use theory::grundy::{nim_values, NimOracle, Periodicity};
pub use theory::quotient::MisereQuotient;
pub use value::{Outcome, Value};
