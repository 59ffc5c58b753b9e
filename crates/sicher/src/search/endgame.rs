//! Endgame tables as the search sees them: exact remotenesses of small positions, looked
//! up instead of searched.
//!
//! The bottom-up labeller fills every position of a small domain far faster than a
//! search visits them, and a table on disk may already hold them; both live in layers
//! the search must not import. So the search states what it needs here, and the answer
//! layer implements it from whichever it has and hands it in.

use crate::game::Heap;

/// Exact remotenesses of the positions a table covers.
pub trait Endgame: Send + Sync {
    /// Positions of more tokens than this are never covered: the search skips the
    /// probe for them without building their heaps.
    fn max_total(&self) -> u64;

    /// The remoteness of a position given as ascending heap sizes without heaps that
    /// can never move (zeros excluded), or `None` when the table does not cover it.
    fn remoteness(&self, heaps: &[Heap]) -> Option<u32>;
}
