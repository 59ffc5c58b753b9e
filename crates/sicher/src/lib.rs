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
//! # The public surface
//!
//! What is public is what this documentation shows; everything else is private to the
//! crate and may change in any release (sicher is 0.x, so public items may too, each
//! named in the changelog).
//!
//! - **The crate root** re-exports the everyday types: a [`Game`] (from [`resolve`] or
//!   [`parse_spec`]) and its [`Position`]s, the [`Chain`] that answers them under a
//!   [`Policy`] ([`Answer`], [`Solution`]), [`TableJob`] and [`Table`], [`nim_values`]
//!   and [`NimValueLookup`], [`MisereQuotient`], the engines [`Solver`] and
//!   [`RemotenessSolver`], [`Cancel`], and [`Error`] with its [`ErrorKind`] and [`Hint`].
//! - **Facade modules**, public, each re-exporting what its private files define:
//!   [`game`], [`domain`], [`theory`] (with [`theory::grundy`], [`theory::quotient`],
//!   [`theory::closed`], [`theory::invariant`], [`theory::partizan`], [`theory::cgt`]),
//!   [`search`], [`label`], [`table`], [`answer`], and the use cases [`build`],
//!   [`verify`], [`play`] and (feature `picture`) `survey` and `picture`. A few of their
//!   folders are public namespaces of free functions: [`theory::closed::wythoff`],
//!   [`theory::closed::moore`], [`theory::quotient::nim`], [`theory::quotient::tame`],
//!   [`search::plain`] (the baseline solvers), [`game::partizan`], and
//!   [`label::cluster`] (the transport `sicher-mpi` implements).
//! - **Plumbing** the binaries share: [`error`], [`value`], [`atomic_file`] (files that
//!   appear whole; the temporaries a signal handler removes) and [`memory`].
//!
//! [`Error`] is opaque: branch on [`Error::kind`], show it with `Display` (one line: the
//! message, then the [`Hint`]'s wording). A call stopped through the [`Cancel`] or the
//! progress callback it takes ends with [`ErrorKind::Interrupted`]. Nothing panics on
//! what a caller gives it ([`Game::children`] prepares scripted rules itself and returns
//! their failure). The types a caller shares between threads ([`Game`],
//! [`Table`], [`Error`], [`Cancel`]) are `Send + Sync`; [`Chain`] and the engines are
//! `Send`, used through `&mut`.
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
//!   flags ─► sicher-cli's src/args.rs (resolved once) ─► answer::Policy
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
//!
//!   partizan GAME (game::partizan::resolve_partizan) ─► answer::PartizanChain:
//!        outcome-period    a lone heap: theory::partizan::OutcomeSequence (proved period)
//!        canonical-forms   normal play: theory::partizan::HeapForms over theory::cgt
//!        search            search::PartizanSolver (player to move in the key)
//! ```
//!
//! One line per folder and per file at the top; each folder's own module file
//! (`game/mod.rs`, or `D.rs` beside a folder `D/` without one, as `answer/search.rs`)
//! lists the folder's files, one line each, and `code_map_tests.rs` fails when a source
//! file or folder is missing from its index.
//!
//! - `error.rs`: the [`Error`] type with its [`ErrorKind`]s and [`Hint`]s.
//! - `value.rs`: what a position is worth ([`Outcome`], [`Value`], remoteness) and the
//!   play [`Convention`].
//! - `checksum.rs`: the one checksum every file sicher writes carries.
//! - `atomic_file.rs`: files that appear whole or not at all; the temporaries a signal
//!   handler removes.
//! - `memory.rs`: what the machine can give, for refusing work up front.
//! - `cancel.rs`: [`Cancel`], which stops a long call from another thread.
//! - `game/`: the game model: rulesets and their move generators, positions, applying a
//!   move, option tables, parents, and where games come from (shipped names, description
//!   files, inline specs, scripts).
//! - `domain/`: bounded domains (`--heaps K --max N`, `--total T`) ranked onto table
//!   entries, children ranked from their parent, ranks walked in order.
//! - `theory/`: what is known without searching: nim-values and their proved periods,
//!   misère quotients, closed forms, and the winning-move search over a heap-by-heap
//!   invariant.
//! - `search/`: the top-down engines: boolean alpha-beta and the remoteness search, with
//!   their keys, transposition tables and move ordering.
//! - `label/`: the bottom-up retrograde labeller: tier labellers, their plan and
//!   shortcuts, the work directory a run resumes from, and labelling shared between ranks.
//! - `table/`: tables on disk: the container, compressed blocks, predictions, the writer
//!   and the memory-mapped reader.
//! - `answer/`: the answer layer: the [`answer::Oracle`] sources and the [`Chain`] that
//!   asks them in a [`Policy`]'s order; the JSON records of answers, here because both
//!   front ends print them (the server cannot depend on the command line, which embeds it).
//! - `build.rs`: the use case that builds a table (the labeller joined to the table
//!   writer: [`TableJob`]); a module of the library, not a Cargo build script.
//! - `build/`: the tables `build.rs` builds for partizan games.
//! - `verify.rs`: the use case behind `sicher verify`: bottom-up labels against top-down
//!   answers.
//! - `survey.rs`: the use case behind pictures: the positions and series they show
//!   (feature `picture`).
//! - `play.rs`: the use case behind `sicher play`: a game against perfect play.
//! - `play/`: the partizan game of `sicher play` (you play Left or Right).
//! - `picture/`: maps and plots as PNG or terminal text, from plain data (feature
//!   `picture`).
//! - `code_map_tests.rs`: unit tests of this code map: every source file and folder is
//!   listed in its folder's index.
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
//! - **A source file or folder**: a line in the `//!` doc of its folder's index (`mod.rs`,
//!   or `D.rs` beside the folder `D/`; this file for the top), saying what it holds;
//!   `code_map_tests.rs` names any that is missing.

#![deny(missing_docs)]

pub mod answer;
pub mod atomic_file;
pub mod build;
mod cancel;
pub(crate) mod checksum;
#[cfg(test)]
mod code_map_tests;
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
pub use theory::grundy::{nim_values, NimValueLookup, Periodicity};
pub use theory::quotient::MisereQuotient;
pub use value::{Outcome, Value};

/// The public types a caller shares between threads stay shareable: no `unsafe impl`
/// is needed anywhere (the Python package holds these in its objects as they are).
#[cfg(test)]
mod thread_tests {
    fn send_and_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}

    #[test]
    fn shared_types_are_send_and_sync() {
        send_and_sync::<crate::Error>();
        send_and_sync::<crate::Game>();
        send_and_sync::<crate::Position>();
        send_and_sync::<crate::Table>();
        send_and_sync::<crate::Cancel>();
        send_and_sync::<crate::MisereQuotient>();
        send_and_sync::<crate::game::partizan::PartizanGame>();
        // Asked (and grown) through `&mut self`: moved to a worker thread, not shared.
        send::<crate::Chain>();
        send::<crate::NimValueLookup>();
        send::<crate::answer::PartizanChain>();
        send::<crate::Solver>();
        send::<crate::RemotenessSolver>();
    }
}
