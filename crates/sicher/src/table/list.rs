//! A table's positions in rank order with their values: "every unsafe position of
//! three-heap Nim up to 20" is one pass over the table, walking the domain without
//! unranking each position.

use super::{BodyKind, Table};
use crate::domain::Positions;
use crate::error::{Error, Result};
use crate::game::Position;
use crate::value::Value;

/// Which positions a listing keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Filter {
    /// Every position.
    #[default]
    All,
    /// Those where the player to move wins (N-positions).
    Safe,
    /// Those where the player to move loses (P-positions).
    Unsafe,
}

impl Filter {
    /// True when a position of this value is kept.
    pub fn keeps(self, value: Value) -> bool {
        match self {
            Filter::All => true,
            Filter::Safe => value.is_win(),
            Filter::Unsafe => !value.is_win(),
        }
    }
}

/// The positions of a table that a [`Filter`] keeps, in rank order, each with its value
/// (an outcome, a remoteness or a nim-value, as the table stores); made by
/// [`Table::list`]. A damaged block ends the listing with its error.
pub struct Listing<'a> {
    table: &'a Table,
    walk: Positions<'a>,
    rank: u64,
    entries: u64,
    filter: Filter,
}

impl Table {
    /// The positions this table holds that `filter` keeps, in rank order, with their
    /// values; refused for a misère quotient (its entries are products, not positions).
    pub fn list(&self, filter: Filter) -> Result<Listing<'_>> {
        if let BodyKind::Quotient { .. } = self.header().kind {
            return Err(Error::input(format!(
                "{} holds a misère quotient (a multiplication table), not positions",
                self.path().display()
            )));
        }
        Ok(Listing {
            table: self,
            walk: Positions::new(self.ranker(), 0),
            rank: 0,
            entries: self.header().entries,
            filter,
        })
    }

    /// How many positions `filter` keeps, where the header says it without a pass over
    /// the body (outcome tables count their unsafe positions).
    pub fn count(&self, filter: Filter) -> Option<u64> {
        let entries = self.header().entries;
        match (self.header().kind, filter) {
            (_, Filter::All) => Some(entries),
            (BodyKind::Outcomes { unsafe_count }, Filter::Unsafe) => Some(unsafe_count),
            (BodyKind::Outcomes { unsafe_count }, Filter::Safe) => {
                Some(entries.saturating_sub(unsafe_count))
            }
            _ => None,
        }
    }
}

impl Iterator for Listing<'_> {
    type Item = Result<(Position, Value)>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.rank < self.entries {
            let rank = self.rank;
            let value = self.table.value_of(self.walk.heaps(), rank);
            let kept = match value {
                Ok(value) if self.filter.keeps(value) => {
                    Some(Ok((Position::new(self.walk.heaps().to_vec()), value)))
                }
                Ok(_) => None,
                Err(error) => {
                    self.rank = self.entries;
                    return Some(Err(error));
                }
            };
            self.rank += 1;
            if self.rank < self.entries {
                self.walk.advance();
            }
            if kept.is_some() {
                return kept;
            }
        }
        None
    }
}
