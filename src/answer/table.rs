//! Answers from endgame tables on disk: one file given by the user, or every table of the
//! game found in a directory (by default `tables/`).

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use super::{Answer, Evidence, Oracle, Query, Solution, SourceKind};
use crate::domain::ChildRanks;
use crate::error::{Error, Result};
use crate::game::{Game, Heap, Position};
use crate::label::child_into;
use crate::table::{self, Table};
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
                "{}: this table holds nim-values of heap sizes; give it to --nim-table",
                path.display()
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
            .filter(|t| t.header().kind.holds_positions())
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

    /// The value of ascending zero-free heaps and, with `best_move`, the heaps after a
    /// winning move; `Ok(None)` when no table covers them.
    pub fn probe(
        &mut self,
        heaps: &[Heap],
        best_move: bool,
    ) -> Result<Option<(Value, Option<Vec<Heap>>)>> {
        let Some(at) = self.covering(heaps)? else {
            return Ok(None);
        };
        let table = &self.tables[at];
        let ranker = table.ranker();
        let value = table.value_at(ranker.rank_unchecked(heaps))?;
        if !(value.is_win() && best_move) {
            return Ok(Some((value, None)));
        }
        let mut winning = None;
        self.for_each_child(at, heaps, |child_value, removed, added| {
            if child_value.is_win() {
                return ControlFlow::Continue(());
            }
            let mut child = Vec::new();
            child_into(heaps, removed, added, &mut child);
            winning = Some(child);
            ControlFlow::Break(())
        })?;
        Ok(Some((value, winning)))
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
        let (kind, convention) = (table.header().kind, table.header().convention);
        let mut failure = None;
        let _ = table.game().ruleset.for_each_move(heaps, |removed, added| {
            let rank = children.rank(ranker, heaps, removed, added);
            match table.field_at(rank) {
                Ok(field) => visit(kind.value(field, convention), removed, added),
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
            .probe(position.heaps(), query.best_move)?
            .map(|(value, best_move)| Answer {
                position: position.clone(),
                value,
                best_move: best_move.map(Position::new),
                source: SourceKind::Table,
            }))
    }

    fn solve(&mut self, position: &Position) -> Result<Option<Solution>> {
        let heaps = position.heaps();
        let Some(at) = self.covering(heaps)? else {
            return Ok(None);
        };
        let table = &self.tables[at];
        let value = table.value_at(table.ranker().rank_unchecked(heaps))?;
        let path = table.path().to_path_buf();
        let mut winning_moves = Vec::new();
        if value.is_win() {
            let mut child = Vec::new();
            self.for_each_child(at, heaps, |child_value, removed, added| {
                if !child_value.is_win() {
                    child_into(heaps, removed, added, &mut child);
                    winning_moves.push(Position::new(child.clone()));
                }
                ControlFlow::Continue(())
            })?;
        }
        winning_moves.sort();
        winning_moves.dedup();
        Ok(Some(Solution {
            answer: Answer {
                position: position.clone(),
                value,
                best_move: winning_moves.first().cloned(),
                source: SourceKind::Table,
            },
            winning_moves,
            complete: true,
            evidence: Evidence::Table { path },
        }))
    }
}
