//! Answers by Sprague-Grundy theory: in normal play of a one-heap ruleset a position is
//! unsafe exactly when the XOR of its heaps' nim-values is 0.

use std::path::Path;

use super::{Answer, Evidence, Oracle, Query, Remoteness, Solution, SourceKind};
use crate::error::{Error, Hint, Result};
use crate::game::{Game, Heap, Position};
use crate::table::{BodyKind, Table};
use crate::theory::grundy::applies;
use crate::theory::grundy::NimValueLookup;
use crate::theory::grundy::Nimber;
use crate::value::Value;

/// Options scanned per heap, at most, to list all of its winning moves.
const LIST_ALL_LIMIT: u64 = 1 << 22;

/// Nim-values, computed as far as positions need them (or read from a table).
pub struct NimSource {
    oracle: NimValueLookup,
    /// Positions whose largest heap is at most this fall back to the next source when
    /// the values cannot cover them; `None`: the values' failure is the answer.
    fallback_up_to: Option<Heap>,
}

impl NimSource {
    /// Computes at most `max_len` values; heaps beyond them need a proved period. With
    /// `fallback_up_to`, positions of smaller heaps that the values cannot cover are left
    /// to the next source instead of failing.
    pub fn computing(game: &Game, max_len: u64, fallback_up_to: Option<Heap>) -> Result<Self> {
        check_applies(game)?;
        Ok(NimSource {
            oracle: NimValueLookup::growing(&game.ruleset, max_len)?,
            fallback_up_to,
        })
    }

    /// Reads the values from a nim-value table of the game's ruleset (checked to be its
    /// table, and read whole once against its checksums).
    pub fn from_table(game: &Game, path: &Path) -> Result<Self> {
        check_applies(game)?;
        let table = Table::open(path)?;
        let BodyKind::NimValues { period } = table.header().kind else {
            return Err(Error::input(format!(
                "{}: this table holds outcomes of positions, not nim-values",
                path.display()
            ))
            .with_hint(Hint::UseAsTable));
        };
        if table.header().game != game.ruleset.spec() {
            return Err(Error::input(format!(
                "{}: this nim-value table is for {}, not {}",
                path.display(),
                table.header().game,
                game.ruleset.spec()
            )));
        }
        table.verify()?;
        let values = (0..table.header().entries)
            .map(|h| {
                let value = table.value_at(h)?.nimber().unwrap_or(0);
                Nimber::try_from(value).map_err(|_| {
                    Error::damaged(format!(
                        "{}: nim-value {value} is too large",
                        path.display()
                    ))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let oracle = NimValueLookup::from_values(&game.ruleset, values, period)
            .map_err(|e| e.context(format_args!("{}: corrupted table header", path.display())))?;
        Ok(NimSource {
            oracle,
            fallback_up_to: None,
        })
    }

    /// Makes the values cover `position`; `Ok(false)` when they cannot and the position
    /// falls back to the next source.
    fn cover(&mut self, position: &Position) -> Result<bool> {
        let largest = position.heaps().last().copied().unwrap_or(0);
        match self.oracle.cover(largest) {
            Ok(()) => Ok(true),
            Err(_) if self.fallback_up_to.is_some_and(|limit| largest <= limit) => Ok(false),
            Err(error) => Err(error),
        }
    }
}

/// Refuses games nim-values cannot answer, saying why.
fn check_applies(game: &Game) -> Result<()> {
    if applies(game) {
        return Ok(());
    }
    Err(Error::input(format!(
        "nim-values answer normal play of a ruleset whose moves change one heap; {} is {}",
        game.ruleset,
        if game.ruleset.moves_one_heap() {
            "played misère here"
        } else {
            "a coupled-move ruleset"
        }
    )))
}

impl Oracle for NimSource {
    fn kind(&self) -> SourceKind {
        SourceKind::NimValues
    }

    fn answer(&mut self, position: &Position, query: Query) -> Result<Option<Answer>> {
        // Nim-values say who wins, not how fast.
        if query.remoteness == Remoteness::Required || !self.cover(position)? {
            return Ok(None);
        }
        let verdict = self.oracle.verdict(position);
        Ok(Some(Answer {
            position: position.clone(),
            value: Value::Nimber(verdict.nim_sum),
            best_move: verdict
                .winning_move
                .filter(|_| query.best_move)
                .map(|m| m.after),
            source: SourceKind::NimValues,
        }))
    }

    fn solve(&mut self, position: &Position, query: Query) -> Result<Option<Solution>> {
        let Some(answer) = self.answer(position, query)? else {
            return Ok(None);
        };
        let oracle = &self.oracle;
        let heaps = position.heaps();
        let values: Vec<u64> = heaps.iter().map(|&h| oracle.value(h)).collect();
        let nim_sum = values.iter().fold(0, |acc, &v| acc ^ v);
        let mut moves = Vec::new();
        let mut complete = true;
        let mut last = None;
        for (&h, &v) in heaps.iter().zip(&values) {
            if nim_sum == 0 || last == Some(h) {
                continue;
            }
            last = Some(h);
            let target = v ^ nim_sum;
            // An option may have a larger value than its heap (mex promises only the
            // smaller ones), so listing all moves scans every heap; a lone move needs
            // `target < v`.
            let options = oracle
                .all_options_with_value(h, target, LIST_ALL_LIMIT)
                .unwrap_or_else(|| {
                    complete = false;
                    (target < v)
                        .then(|| oracle.option_with_value(h, target))
                        .flatten()
                        .into_iter()
                        .collect()
                });
            for leaves in options {
                let mut rest = heaps.to_vec();
                if let Some(i) = rest.iter().position(|&x| x == h) {
                    rest.remove(i);
                }
                rest.extend_from_slice(&leaves);
                moves.push(Position::new(rest));
            }
        }
        // Moves on different heaps can meet in one position.
        moves.sort();
        moves.dedup();
        Ok(Some(Solution {
            answer,
            winning_moves: moves,
            moves: Vec::new(),
            complete,
            evidence: Evidence::NimValues { values, nim_sum },
        }))
    }
}
