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
//! ```
//! use sicher::answer::{Chain, Policy, Query};
//! use sicher::domain::Domain;
//! use sicher::game::{resolve, Convention, Position};
//! use sicher::label::Plan;
//!
//! # fn main() -> sicher::Result<()> {
//! // Misère Kayles: who wins from rows of 3, 4 and 5 pins, and how?
//! let game = resolve("kayles")?.with_convention(Convention::Misere);
//! let mut chain = Chain::new(&game, &Policy::default())?;
//! let answer = chain.answer(&Position::new(vec![3, 4, 5]), Query::default())?;
//! assert!(answer.value.is_win());
//! println!("safe; winning move: to {}", answer.best_move.unwrap());
//!
//! // Every position of at most 12 tokens, labelled bottom-up and written as a table.
//! let plan = Plan::new(&game, Domain::Total { total: 12 }, None, None)?;
//! let labelled = plan.run(&|_| {})?;
//! let path = std::env::temp_dir().join(format!("doc-{}.table", std::process::id()));
//! let replace = sicher::atomic_file::Replace::RegularFile;
//! sicher::build::write_outcomes(&path, &game, plan.ranker().domain(), labelled.held()?, replace)?;
//! let table = sicher::table::Table::open(&path)?;
//! assert_eq!(table.probe(&Position::new(vec![3, 4, 5]))?, answer.value);
//! # std::fs::remove_file(&path).ok();
//! # Ok(())
//! # }
//! ```
//!
//! # Code map
//!
//! ```text
//!   GAME argument ─► game::resolve ─► Game (rules + convention)
//!   flags ─► cli (resolved once) ─► answer::Policy
//!
//!   check / solve on a position ─► answer::Chain (the policy's sources, in order):
//!        NimSource     normal play, one-heap rules: XOR of nim-values (grundy), any heap
//!                      size once a period is proved
//!        TableSource   a table under tables/ (or --table FILE) covering the position
//!        QuotientSource misère play, one-heap rules: misère Nim's rule, or a misère
//!                      quotient (quotient::compute on the fly, or --quotient FILE)
//!        SearchSource  otherwise: search::Solver, boolean alpha-beta for the verdict;
//!                      search::RemotenessSolver (fail-soft alpha-beta by default)
//!                      for the remoteness, within a budget unless required
//!      ─► Answer { value: Value, best_move, source } / Solution { winning_moves, evidence }
//!
//!   table GAME --heaps/--total ─► label::Plan (domain ranking, memory) ─► label ─► table (file)
//!   nim-values / solve GAME    ─► grundy (values, period proof) ─► table (nim-value body)
//!   quotient GAME --max N      ─► quotient::compute ─► table (quotient body: products)
//!   play GAME                  ─► play::Session ─► answer::Chain (remoteness-best moves)
//!   picture / plot GAME        ─► answer::survey ─► picture (PNG or terminal)
//! ```
//!
//! - [`value`]: what a position is worth: [`value::Outcome`] (safe or unsafe) and
//!   [`value::Value`] (an outcome, a nim-value, or a remoteness, each implying an
//!   outcome), carried by answers, labels and table bodies.
//! - [`game`]: the model. `position.rs` (sorted multisets of heap sizes), `code.rs`
//!   (octal/hex take-and-break codes), `rules.rs` (every ruleset's move generator, a
//!   visitor that never allocates, and its capabilities: tokens taken, heaps left,
//!   splitting, reversibility, each stated for every ruleset by name), `describe.rs`
//!   (shipped `games/*.toml`, embedded in the binary; description files; inline specs),
//!   and `mod.rs` ([`Game`]: rules plus convention plus the exact simplifications they
//!   allow).
//! - [`answer`]: who wins here, and how. One trait for a source of answers
//!   ([`answer::Oracle`]), four sources (`nim.rs`, `table.rs`, `quotient.rs`,
//!   `search.rs`), and `chain.rs`: the [`answer::Policy`] and the [`answer::Chain`] that
//!   tries the sources in its order (or theory alone, for `verify --against theory`).
//!   Every command that answers positions goes through it; `survey.rs` answers whole
//!   families of positions for pictures.
//! - [`search`]: the top-down engine. `solver.rs` runs the boolean alpha-beta on an
//!   explicit stack (no recursion limit); `key.rs` gives positions 128-bit incremental
//!   keys; `table.rs` is the bounded transposition table with its unsafe filter;
//!   `ordering.rs` holds history and killer moves; `guide.rs` orders moves by
//!   nim-values; `plain.rs` is the naive memoised solver kept as a baseline (boolean
//!   and valued). `remote/` is the valued search: `engine.rs` fail-soft alpha-beta
//!   over scores folding outcome and remoteness (with a node limit, so the answer
//!   layer can give up on a remoteness that costs too much), `table.rs` its bounds
//!   table, `score.rs` the score encoding, `proof.rs` the proof-tree count behind the
//!   ordering efficiency, and `mod.rs` the [`search::RemotenessSolver`] with its four
//!   [`search::Algorithm`]s. `heaps.rs` serves both engines: heap key codes (dead heaps
//!   dropped) and the nim-sum guess that orders moves.
//! - [`domain`]: bounded domains (`--heaps K --max N`, `--total T`) and their gap-free
//!   ranking bijections onto table entries (`tuples.rs`, `partitions.rs`), the ranking
//!   of a move's result (`child.rs`), and `incremental.rs`, which ranks a position's
//!   children and parents from its runs of equal heaps and steps through a tier without
//!   unranking.
//! - [`label`]: the bottom-up labeller. `plan.rs` ranks a domain, picks the strategy and
//!   estimates memory before anything is allocated; then tier by tier of total tokens, in
//!   parallel within a tier (`tiers.rs` orders the work; moves that keep the total,
//!   Grundy's splits and `d0` splits, are labelled by heap count within a tier):
//!   `forward.rs`, `backward.rs`, `remoteness.rs` (retrograde, via `parents.rs`) and
//!   `plain.rs` (the baselines), the first and third reading each heap size's moves
//!   from `options.rs`; `drive.rs` runs a tier labeller over the `window.rs` of
//!   tiers that moves reach and checkpoints into `work/` (the work directory: part
//!   files with headers binding them to their work, tiers and ranks in `part.rs`, the
//!   manifest and its checks in `manifest.rs`, resumption, finished labels streamed to
//!   the table writer); `cluster/` shares the tiers of a `--total` domain between the
//!   ranks of a job (rank 0's tier manager, workers, the messages over a `Link`),
//!   labelling chunks of a tier by pulling from lower tiers (`chunk.rs`);
//!   shortcuts from theory in `one_heap.rs` (lone heaps 64 at a time, proved periods)
//!   and `nim_values.rs` (XOR of nim-values); `bits.rs` packs the outcomes.
//! - [`table`]: files on disk. `format.rs` (the one container: magic, version, bincode
//!   header with checksum, block index, body; the only place bincode is used),
//!   `codec.rs` (compressed blocks: zstd, checksums before and after decoding),
//!   `predict.rs` (outcome predictions whose residual is stored: nim-sum, tame misère,
//!   Moore, learned misère quotients), `mod.rs` ([`table::TableWriter`], which takes the
//!   body as a stream of words; [`table::Table`]: memory-mapped probing, each block
//!   checked when first read, decoded blocks cached).
//! - [`grundy`]: Sprague-Grundy theory for one-heap rulesets. `values.rs` (the plain mex
//!   reference and the sparse-space engine; `values/scan.rs` its vectorised witness
//!   scans), `period.rs` (ultimate periods, found incrementally as values grow, and the
//!   periodicity theorem's proof), `solution.rs` (complete solutions, misère subtraction
//!   games) and `fast_path.rs` (nim-values of any heap size, grown on demand; XOR verdicts
//!   and winning moves).
//! - [`atomic_file`]: files that appear complete or not at all (temporary name, sync,
//!   no-clobber link or rename; stale temporaries of dead writers removed).
//! - [`memory`]: what the machine can give, for refusing work up front.
//! - [`play`]: a game against perfect play (legal moves, parsing a move, the solver's
//!   reply through the chain).
//! - [`cli`]: flags and printing only. One module per subcommand (`check`, `solve`,
//!   `bench`, `table`, `info`, `verify`, `nim_values`, `quotient`, `play`, `picture`);
//!   `args.rs` resolves shared flags into a game and an [`answer::Policy`]; `input.rs` reads stdin batches; `output.rs`
//!   holds the output conventions (safe/unsafe wording, JSON records, progress that stays
//!   quiet off a terminal); `solution.rs` prints complete solutions.
//! - [`picture`]: drawing from plain data, no engine: the two-heap map as a PNG (`map.rs`,
//!   colours in `colour.rs`, remoteness legend in `legend.rs`) or in terminal half blocks
//!   (`terminal.rs`), the per-heap series plot (`plot.rs`), the embedded font (`font.rs`) and
//!   writing by temporary name and rename (`file.rs`).
//! - [`quotient`]: misère quotients of one-heap rulesets (`construct.rs` heap by heap,
//!   `verify.rs` the transition-table proof, `monoid.rs`, `presentation.rs`, `answer.rs`
//!   outcomes and winning moves), misère Nim (`nim.rs`), genus and tameness (`tame.rs`).
//! - [`error`]: the one error type; every user mistake becomes one line and exit code 2.
//!
//! `main.rs` only parses the command line and prints errors; `bin/sicher-mpi/` (feature
//! `mpi`) is `sicher table` shared between the ranks of an MPI job, over the same
//! command line and [`build::TableJob`].

#![warn(missing_docs)]

pub mod answer;
pub mod atomic_file;
pub mod build;
pub mod checksum;

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

pub use error::{Error, Result};
pub use game::{Convention, Game, Position, Ruleset};
