//! Answers from endgame tables on disk: one file given by the user, or every table of the
//! game found in a directory (by default `tables/`).

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use super::{
    sort_moves, winning_moves_among, Answer, Evidence, Oracle, Query, Remoteness, Solution,
    SourceKind,
};
use crate::domain::ChildRanks;
use crate::error::{Error, Hint, Result};
use crate::game::child_into;
use crate::game::{Game, Heap, Position};
use crate::table::{self, BodyKind, Table};
use crate::value::Value;

/// Open outcome tables of one game, probed memory-mapped.
pub struct TableSource {
    tables: Vec<Table>,
    /// Per table, for ranking a position's children from its own rank.
    children: Vec<ChildRanks>,
    /// True for a table the user named: a position outside it is an error, not a
    /// fall-through to the next source.
    only: bool,
}

impl TableSource {
    /// The one table at `path`, which must hold outcomes of `game` when a game is given;
    /// positions outside it are errors.
    pub fn open(path: &Path, game: Option<&Game>) -> Result<Self> {
        let table = Table::open(path)?;
        if !table.header().kind.holds_positions() {
            return Err(Error::input(format!(
                "{}: this table holds nim-values of heap sizes",
                path.display()
            ))
            .with_hint(Hint::UseAsNimTable));
        }
        if let Some(partizan) = table.partizan() {
            return Err(Error::input(format!(
                "{}: this table holds both players' labels of the partizan game {}: `sicher check --table` answers from it",
                path.display(),
                partizan.title()
            )));
        }
        if let Some(game) = game {
            table.check_game(game)?;
        }
        Ok(Self::of(vec![table], true))
    }

    /// Every readable outcome table under `dir` written for this game and convention;
    /// `None` when there is none. Unreadable files are skipped: a table that answers is
    /// still checked block by block when read.
    pub fn in_dir(dir: &Path, game: &Game) -> Option<Self> {
        let listing = std::fs::read_dir(dir).ok()?;
        let mut paths: Vec<PathBuf> = listing
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == table::EXTENSION))
            .collect();
        paths.sort();
        let tables: Vec<Table> = paths
            .iter()
            .filter_map(|p| Table::open(p).ok())
            .filter(|t| t.header().kind.holds_positions() && t.partizan().is_none())
            .filter(|t| t.check_game(game).is_ok())
            .collect();
        (!tables.is_empty()).then(|| Self::of(tables, false))
    }

    fn of(tables: Vec<Table>, only: bool) -> Self {
        let children = tables.iter().map(|t| ChildRanks::new(t.ranker())).collect();
        TableSource {
            tables,
            children,
            only,
        }
    }

    /// The game of the first table.
    pub fn game(&self) -> &Game {
        self.tables[0].game()
    }

    /// The table covering ascending zero-free heaps: `Ok(None)` when none does and the
    /// position may fall through, an error when a named table does not cover it.
    fn covering(&self, heaps: &[Heap]) -> Result<Option<usize>> {
        match self.tables.iter().position(|t| t.ranker().contains(heaps)) {
            Some(at) => Ok(Some(at)),
            None if self.only => {
                let table = &self.tables[0];
                Err(Error::input(format!(
                    "position {} is outside the table's domain ({}) in {}",
                    Position::new(heaps.to_vec()),
                    table.header().domain.flags(),
                    table.path().display()
                )))
            }
            None => Ok(None),
        }
    }

    /// The table covering ascending zero-free heaps that can answer `query`:
    /// `Ok(None)` when none can and the position may fall through.
    fn answering(&self, heaps: &[Heap], query: Query) -> Result<Option<usize>> {
        let Some(at) = self.covering(heaps)? else {
            return Ok(None);
        };
        let has_remoteness = matches!(self.tables[at].header().kind, BodyKind::Remoteness { .. });
        if query.remoteness != Remoteness::Required || has_remoteness {
            return Ok(Some(at));
        }
        // A remoteness table of the same game may cover it too.
        let other = self.tables.iter().position(|t| {
            matches!(t.header().kind, BodyKind::Remoteness { .. }) && t.ranker().contains(heaps)
        });
        match other {
            Some(other) => Ok(Some(other)),
            None if self.only => Err(Error::input(format!(
                "{} holds outcomes only, not how many moves they take",
                self.tables[at].path().display()
            ))
            .with_hint(Hint::MakeRemotenessTable)),
            None => Ok(None),
        }
    }

    /// The value of ascending zero-free heaps and, with `query.best_move`, the heaps after
    /// a winning move (the fastest, from a remoteness table); `Ok(None)` when no table
    /// covers them as asked.
    pub fn probe(
        &mut self,
        heaps: &[Heap],
        query: Query,
    ) -> Result<Option<(Value, Option<Vec<Heap>>)>> {
        let Some(at) = self.answering(heaps, query)? else {
            return Ok(None);
        };
        let table = &self.tables[at];
        let value = table.value_of(heaps, table.ranker().rank_unchecked(heaps))?;
        if !(value.is_win() && query.best_move) {
            return Ok(Some((value, None)));
        }
        let mut winning: Option<(u32, Vec<Heap>)> = None;
        let mut child = Vec::new();
        let fastest = value.remoteness().is_some();
        self.for_each_child(at, heaps, |child_value, removed, added| {
            if child_value.is_win() {
                return ControlFlow::Continue(());
            }
            let r = child_value.remoteness().unwrap_or(0);
            child_into(heaps, removed, added, &mut child);
            let better = match &winning {
                None => true,
                Some((best, position)) => (r, &child) < (*best, position),
            };
            if better {
                winning = Some((r, child.clone()));
            }
            // Any winning move will do when only the outcome is known.
            if fastest {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        })?;
        Ok(Some((value, winning.map(|(_, heaps)| heaps))))
    }

    /// Calls `visit(child value, removed, added)` for every move of `heaps` in table `at`
    /// (as [`crate::game::Ruleset::for_each_move`] reports it), until it breaks. Moves
    /// only lower totals and heaps, so every child stays in the domain.
    fn for_each_child(
        &mut self,
        at: usize,
        heaps: &[Heap],
        mut visit: impl FnMut(Value, &[usize], &[Heap]) -> ControlFlow<()>,
    ) -> Result<()> {
        let table = &self.tables[at];
        let ranker = table.ranker();
        let children = &mut self.children[at];
        children.load(ranker, heaps);
        let mut failure = None;
        // A compressed table predicts a child's outcome from its heaps.
        let mut scratch = Vec::new();
        let _ = table.game().ruleset.for_each_move(heaps, |removed, added| {
            let rank = children.rank(ranker, heaps, removed, added);
            match table.child_value(heaps, removed, added, rank, &mut scratch) {
                Ok(value) => visit(value, removed, added),
                Err(error) => {
                    failure = Some(error);
                    ControlFlow::Break(())
                }
            }
        });
        failure.map_or(Ok(()), Err)
    }
}

impl Oracle for TableSource {
    fn kind(&self) -> SourceKind {
        SourceKind::Table
    }

    fn answer(&mut self, position: &Position, query: Query) -> Result<Option<Answer>> {
        Ok(self
            .probe(position.heaps(), query)?
            .map(|(value, best_move)| Answer {
                position: position.clone(),
                value,
                best_move: best_move.map(Position::new),
                source: SourceKind::Table,
            }))
    }

    fn solve(&mut self, position: &Position, query: Query) -> Result<Option<Solution>> {
        let heaps = position.heaps();
        let Some(at) = self.answering(heaps, query)? else {
            return Ok(None);
        };
        let table = &self.tables[at];
        let value = table.value_of(heaps, table.ranker().rank_unchecked(heaps))?;
        let path = table.path().to_path_buf();
        let list_all = query.remoteness == Remoteness::Required;
        let mut moves = Vec::new();
        if value.is_win() || list_all {
            let mut child = Vec::new();
            self.for_each_child(at, heaps, |child_value, removed, added| {
                if list_all || !child_value.is_win() {
                    child_into(heaps, removed, added, &mut child);
                    moves.push((Position::new(child.clone()), child_value));
                }
                ControlFlow::Continue(())
            })?;
        }
        // Coupled moves can reach one position through different heaps.
        moves.sort_by(|a, b| a.0.cmp(&b.0));
        moves.dedup_by(|a, b| a.0 == b.0);
        sort_moves(&mut moves);
        let winning_moves = winning_moves_among(&moves);
        if !list_all {
            moves.clear();
        }
        Ok(Some(Solution {
            answer: Answer {
                position: position.clone(),
                value,
                best_move: best_of(&moves, &winning_moves),
                source: SourceKind::Table,
            },
            winning_moves,
            moves,
            complete: true,
            evidence: Evidence::Table { path },
        }))
    }
}

/// The best move of a solved position: the first of the sorted moves when they were
/// listed, else the first winning move.
fn best_of(moves: &[(Position, Value)], winning_moves: &[Position]) -> Option<Position> {
    match moves.first() {
        Some((to, child)) if !child.is_win() => Some(to.clone()),
        Some(_) => None,
        None => winning_moves.first().cloned(),
    }
}
