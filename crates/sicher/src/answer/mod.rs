//! Who wins here, and how: one place that answers positions, whatever knows the answer.
//!
//! Each source of answers ([`NimSource`]: nim-values and proved periods; [`TableSource`]:
//! endgame tables on disk; [`ClosedFormSource`]: Wythoff's and Moore's closed forms;
//! [`QuotientSource`]: misère Nim and misère quotients; [`SearchSource`]: the top-down
//! search) implements [`Oracle`] and says "not mine" (`Ok(None)`) for positions it does
//! not cover. A [`Chain`] tries them in the order a [`Policy`] gives; `check`, `solve`
//! and every later command ask the chain, never a source directly.
//!
//! ```text
//!   Policy ──► Chain::new(game, policy)
//!          ──► [NimSource?, TableSource?, ClosedFormSource?, QuotientSource?, SearchSource?]
//!   position ──► chain.answer(position, query) ──► first source that covers it ──► Answer
//!   position ──► chain.solve(position) ──► Solution (every winning move, evidence)
//! ```
//!
//! # Files
//!
//! - `chain.rs`: the [`Policy`] (which sources, in which order) and the [`Chain`] that
//!   follows it.
//! - `nim.rs`: [`NimSource`], normal play of one-heap rulesets by the XOR of nim-values.
//! - `table.rs`: [`TableSource`], one table file or every table of the game in a folder.
//! - `closed.rs`: [`ClosedFormSource`], Wythoff's game and Moore's Nim_k at any heap size.
//! - `quotient.rs`: [`QuotientSource`], misère play of one-heap rulesets by Bouton's rule
//!   or a misère quotient, built within a budget or read from a file.
//! - `search.rs`: [`SearchSource`], the top-down search, and what the answer layer hands
//!   the remoteness search (`search/`).
//! - `search/`: the remoteness search with the misère quotient and the endgame tables
//!   the answer layer lends it.
//! - `partizan.rs`: the partizan answer chain ([`PartizanChain`]): outcome period,
//!   canonical forms, then the partizan search, each answer naming its source.
//! - `record.rs`: the JSON records of answers ([`AnswerRecord`], [`SolveRecord`],
//!   [`SolutionRecord`]) that the command line prints
//!   and the server sends, defined once.

mod chain;
mod closed;
mod nim;
mod partizan;
mod quotient;
mod record;
mod search;
mod table;

pub use chain::{Chain, Engine, FallbackHook, Method, Policy};
pub use closed::ClosedFormSource;
pub use nim::NimSource;
pub use partizan::{
    verify_partizan, PartizanAnswer, PartizanChain, PartizanComparison, PartizanPolicy,
    PartizanSolution, PartizanSource,
};
pub use quotient::{on_the_fly_budget, QuotientSource};
pub use record::{solution_note, AnswerRecord, SolutionRecord, SolveRecord, TableName};
pub use search::SearchSource;
pub use table::TableSource;

use std::path::PathBuf;

use crate::error::Result;
use crate::game::Position;
use crate::search::SearchStats;
use crate::theory::quotient::MisereQuotient;
use crate::value::Value;

/// Which kind of source answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// Sprague-Grundy theory: the XOR of nim-values (normal play, one-heap rulesets).
    NimValues,
    /// Misère theory: Bouton's misère Nim rule or a misère quotient.
    Quotient,
    /// A closed form: Wythoff's pairs, Moore's rule.
    ClosedForm,
    /// An endgame table on disk.
    Table,
    /// The top-down search.
    Search,
}

impl SourceKind {
    /// The name in JSON output: `"grundy"`, `"table"` or `"search"`.
    pub fn name(self) -> &'static str {
        match self {
            SourceKind::NimValues => "grundy",
            SourceKind::Quotient => "quotient",
            SourceKind::ClosedForm => "closed-form",
            SourceKind::Table => "table",
            SourceKind::Search => "search",
        }
    }
}

/// What a caller wants besides the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Query {
    /// Also find a winning move of a safe position (the fastest, when the remoteness is
    /// known).
    pub best_move: bool,
    /// Whether the answer must carry the remoteness.
    pub remoteness: Remoteness,
}

impl Default for Query {
    fn default() -> Self {
        Query {
            best_move: true,
            remoteness: Remoteness::IfAvailable,
        }
    }
}

/// How much a caller wants the remoteness (how many moves best play takes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Remoteness {
    /// Never: the verdict alone, as fast as it comes.
    Skip,
    /// Where the answering source has it at little cost (remoteness tables, the search);
    /// sources that answer instantly without it (nim-values, outcome tables) still answer.
    #[default]
    IfAvailable,
    /// Always: sources that cannot give it pass the position on.
    Required,
}

/// Sorts moves with their children's values best first: winning moves by increasing
/// remoteness, then losing moves by decreasing remoteness (the longest resistance);
/// ties by position.
pub fn sort_moves(moves: &mut [(Position, Value)]) {
    moves.sort_by(|(a, x), (b, y)| {
        let key = |v: &Value| {
            let r = i64::from(v.remoteness().unwrap_or(0));
            // Winning moves (unsafe children) first, fastest first; then the others,
            // longest first.
            if v.is_win() {
                (1, -r)
            } else {
                (0, r)
            }
        };
        key(x).cmp(&key(y)).then_with(|| a.cmp(b))
    });
}

/// The winning moves among valued moves (those whose child the opponent loses), sorted
/// as positions.
pub(crate) fn winning_moves_among(moves: &[(Position, Value)]) -> Vec<Position> {
    let mut winning: Vec<Position> = moves
        .iter()
        .filter(|(_, child)| !child.is_win())
        .map(|(to, _)| to.clone())
        .collect();
    winning.sort();
    winning
}

/// One answered position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The position asked about.
    pub position: Position,
    /// What it is worth to the player to move.
    pub value: Value,
    /// The position after a winning move, when the position is safe, one exists and it
    /// was asked for (in misère play a safe position may have no move at all).
    pub best_move: Option<Position>,
    /// Which source answered.
    pub source: SourceKind,
}

/// A position with every winning move, and what the answering source knows beside.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The verdict (with one winning move when safe).
    pub answer: Answer,
    /// Every winning move (the positions after them), sorted.
    pub winning_moves: Vec<Position>,
    /// Every move with the value of the position it leads to, best first (see
    /// [`sort_moves`]), when the remoteness was asked for; empty otherwise.
    pub moves: Vec<(Position, Value)>,
    /// False when some heap was too large to list all its winning moves.
    pub complete: bool,
    /// Source-specific evidence.
    pub evidence: Evidence,
}

/// How a source reached its answer.
#[derive(Clone, Debug)]
pub enum Evidence {
    /// The heaps' nim-values and their XOR.
    NimValues {
        /// G(h) of each heap, in the position's order.
        values: Vec<u64>,
        /// Their XOR: the position is unsafe exactly when it is 0.
        nim_sum: u64,
    },
    /// Bouton's misère Nim rule.
    MisereNim,
    /// A closed form's rule.
    ClosedForm {
        /// The rule, in words.
        rule: &'static str,
    },
    /// The misère quotient that answered.
    Quotient {
        /// Its order.
        order: u32,
        /// Heaps `1..=max_heap` are covered.
        max_heap: u64,
        /// Set when the quotient is final (every heap size) by the periodicity theorem.
        periodicity: Option<crate::theory::quotient::QuotientPeriod>,
    },
    /// The table that held the answer.
    Table {
        /// Its file.
        path: PathBuf,
    },
    /// What the search did.
    Search {
        /// Nodes, cut-offs and table statistics.
        stats: SearchStats,
        /// Bytes the transposition table allocated.
        table_bytes: usize,
    },
}

/// A source of answers.
pub trait Oracle: Send {
    /// Which kind of source this is.
    fn kind(&self) -> SourceKind;

    /// Answers a position, or `Ok(None)` when this source does not cover it.
    fn answer(&mut self, position: &Position, query: Query) -> Result<Option<Answer>>;

    /// Every winning move of a position (and with [`Remoteness::Required`] every move with
    /// its value), or `Ok(None)` when this source does not cover it.
    fn solve(&mut self, position: &Position, query: Query) -> Result<Option<Solution>>;

    /// Why this source passed on the last position it declined, in words, when a user
    /// would want to know (a theory that stops short of the position); `None` otherwise.
    fn declined(&self) -> Option<String> {
        None
    }

    /// A misère quotient this source holds, whole or partial: the search that takes the
    /// positions it declines answers from it every position whose heaps it covers.
    fn quotient(&self) -> Option<&MisereQuotient> {
        None
    }
}
