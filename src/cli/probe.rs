//! Answers for `check` from endgame tables: `check --table FILE`, and `check GAME` when a
//! table under `tables/` covers the position.

use std::io::{Read, Write};
use std::ops::ControlFlow;
use std::path::Path;

use super::args::GameArgs;
use super::output::{verdict, Answer};
use super::stdout_error;
use crate::domain::{Ranker, Runs, Strides, TupleChildren};
use crate::error::{Error, Result};
use crate::game::{Game, Heap, Position};
use crate::label::child_into;
use crate::table::{self, Table};

/// Open tables for one game, probed memory-mapped.
pub struct TableAnswerer {
    tables: Vec<(Table, Game)>,
    child: Vec<Heap>,
    /// Per table, for ranking a position's children from its own rank.
    children: Vec<Children>,
}

/// Incremental child ranking for one table: finding a winning move scans the children,
/// and ranking each from scratch dominated answering.
enum Children {
    Heaps(TupleChildren),
    Total(Box<Strides>, Runs),
}

impl Children {
    fn new(ranker: &Ranker) -> Self {
        match ranker {
            Ranker::Heaps(_) => Children::Heaps(TupleChildren::default()),
            Ranker::Total(p) => Children::Total(Box::new(Strides::new(p)), Runs::default()),
        }
    }

    fn load(&mut self, ranker: &Ranker, heaps: &[Heap]) {
        match (self, ranker) {
            (Children::Heaps(c), Ranker::Heaps(t)) => c.load(t, heaps),
            (Children::Total(strides, runs), Ranker::Total(_)) => runs.load(strides, heaps),
            _ => unreachable!("built for this ranker"),
        }
    }

    /// `None` for moves of a shape the incremental rankers do not cover.
    #[inline]
    fn child_rank(
        &mut self,
        ranker: &Ranker,
        heaps: &[Heap],
        removed: &[usize],
        added: &[Heap],
    ) -> Option<u64> {
        match (self, ranker) {
            (Children::Heaps(c), Ranker::Heaps(t)) => c.child_rank(t, removed, added),
            (Children::Total(strides, runs), Ranker::Total(_)) => match removed {
                &[removed] => runs.child_rank(strides, heaps, removed, added),
                _ => None,
            },
            _ => None,
        }
    }
}

impl TableAnswerer {
    /// One table file, whatever game it is for.
    pub fn open(path: &Path) -> Result<Self> {
        let table = Table::open(path)?;
        let game = table.game()?;
        let children = vec![Children::new(table.ranker())];
        Ok(TableAnswerer {
            tables: vec![(table, game)],
            child: Vec::new(),
            children,
        })
    }

    /// Every readable table under `tables/` written for this game and convention;
    /// `None` when there is none.
    pub fn for_game(game: &Game) -> Option<Self> {
        let dir = std::fs::read_dir(table::DEFAULT_DIR).ok()?;
        let mut paths: Vec<_> = dir
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == table::EXTENSION))
            .collect();
        paths.sort();
        let tables: Vec<(Table, Game)> = paths
            .iter()
            .filter_map(|p| Table::open(p).ok())
            .filter(|t| t.check_game(game).is_ok())
            .map(|t| (t, game.clone()))
            .collect();
        let children = tables
            .iter()
            .map(|(t, _)| Children::new(t.ranker()))
            .collect();
        (!tables.is_empty()).then_some(TableAnswerer {
            tables,
            child: Vec::new(),
            children,
        })
    }

    /// The first table's game.
    pub fn game(&self) -> &Game {
        &self.tables[0].1
    }

    /// Safe or unsafe and one winning move, from the first table covering the position.
    pub fn answer(&mut self, position: &Position) -> Option<Answer> {
        let (win, winning_move) = self.probe(position.heaps(), true)?;
        Some(Answer::new(
            position,
            win,
            winning_move.map(Position::new),
            "table",
        ))
    }

    /// Probes ascending zero-free heaps; with `find_move`, also a winning move.
    fn probe(&mut self, heaps: &[Heap], find_move: bool) -> Option<(bool, Option<Vec<Heap>>)> {
        let at = self
            .tables
            .iter()
            .position(|(t, _)| t.ranker().contains(heaps))?;
        let (table, game) = &self.tables[at];
        let ranker = table.ranker();
        let rank = ranker.rank_unchecked(heaps);
        let win = table.probe_rank(rank);
        if !(win && find_move) {
            return Some((win, None));
        }
        let child = &mut self.child;
        let children = &mut self.children[at];
        children.load(ranker, heaps);
        let mut winning = None;
        let total = heaps.iter().sum();
        // Moves only lower totals and heaps, so every child stays in the domain.
        let _ = game.ruleset.for_each_move(heaps, |removed, added| {
            let rank = children
                .child_rank(ranker, heaps, removed, added)
                .unwrap_or_else(|| ranker.rank_after_move(heaps, total, removed, added));
            if table.probe_rank(rank) {
                ControlFlow::Continue(())
            } else {
                child_into(heaps, removed, added, child);
                winning = Some(child.clone());
                ControlFlow::Break(())
            }
        });
        Some((win, winning))
    }

    fn outside(&self, heaps: &[Heap]) -> Error {
        let (table, _) = &self.tables[0];
        Error::input(format!(
            "position {} is outside the table's domain ({}) in {}",
            Position::new(heaps.to_vec()),
            table.header().domain.flags(),
            table.path().display()
        ))
    }
}

/// Runs `check [GAME] --table FILE [HEAP...]`: the heaps given, or one position per stdin
/// line;
/// without `find_move` only the verdict is looked up (one probe per position).
pub fn run_table(
    path: &Path,
    game: &GameArgs,
    heaps: &[String],
    json: bool,
    find_move: bool,
) -> Result<()> {
    let mut answerer = TableAnswerer::open(path)?;
    // The GAME slot holds either the first heap or a game the table must be for.
    let first_is_heap = game.game.as_deref().is_some_and(|first| {
        first
            .split(',')
            .all(|w| w.trim().bytes().all(|b| b.is_ascii_digit()))
    });
    let heaps: Vec<String> = match &game.game {
        Some(first) if first_is_heap => std::iter::once(first.clone())
            .chain(heaps.iter().cloned())
            .collect(),
        Some(_) => {
            answerer.tables[0].0.check_game(&game.resolve()?)?;
            heaps.to_vec()
        }
        None => heaps.to_vec(),
    };
    if let Some(convention) = game.forced_convention() {
        let table_game = answerer.game();
        if table_game.convention != convention {
            return Err(Error::input(format!(
                "{} holds {} play of {}, not {convention} play",
                path.display(),
                table_game.convention,
                table_game.ruleset
            )));
        }
    }
    let heaps = &heaps[..];
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut position = Vec::new();
    let emit = |answerer: &mut TableAnswerer, position: &[Heap], out: &mut Vec<u8>| {
        let (win, winning_move) = answerer
            .probe(position, find_move)
            .ok_or_else(|| answerer.outside(position))?;
        if json {
            let answer = Answer::new(
                &Position::new(position.to_vec()),
                win,
                winning_move.map(Position::new),
                "table",
            );
            serde_json::to_writer(&mut *out, &answer)
                .map_err(|e| Error::input(format!("cannot encode JSON: {e}")))?;
            out.push(b'\n');
            Ok(())
        } else {
            write_human(out, position, win, winning_move.as_deref());
            Ok(())
        }
    };
    // Answers collect in a buffer flushed in large writes: a batch is output-bound.
    let mut pending = Vec::with_capacity(1 << 17);
    if !heaps.is_empty() {
        let parsed = Position::parse_args(heaps)?;
        emit(&mut answerer, parsed.heaps(), &mut pending)?;
    } else {
        // Whole blocks of lines are read and parsed in place: a batch is I/O-bound.
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut block: Vec<u8> = Vec::with_capacity(1 << 20);
        let mut number = 0usize;
        let mut finished = false;
        while !finished {
            let filled = block.len();
            block.resize(filled.max(1 << 20).max(filled * 2), 0);
            let read = loop {
                match input.read(&mut block[filled..]) {
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    other => break other.map_err(|e| Error::io("<stdin>", e))?,
                }
            };
            block.truncate(filled + read);
            finished = read == 0;
            // Complete lines only, unless the input has ended.
            let end = if finished {
                block.len()
            } else {
                match block.iter().rposition(|&b| b == b'\n') {
                    Some(at) => at + 1,
                    None => continue,
                }
            };
            let mut lines = block[..end].split(|&b| b == b'\n');
            if block[..end].last() == Some(&b'\n') || end == 0 {
                lines.next_back();
            }
            for line in lines {
                number += 1;
                parse_heaps(line, &mut position)
                    .map_err(|e| Error::input(format!("stdin line {number}: {e}")))?;
                emit(&mut answerer, &position, &mut pending).map_err(|e| match e {
                    Error::Input(message) => {
                        Error::input(format!("stdin line {number}: {message}"))
                    }
                    other => other,
                })?;
                if pending.len() >= 1 << 16 {
                    out.write_all(&pending).map_err(stdout_error)?;
                    pending.clear();
                }
            }
            block.drain(..end);
        }
    }
    out.write_all(&pending).map_err(stdout_error)?;
    out.flush().map_err(stdout_error)
}

/// Parses one line of heap sizes into ascending zero-free heaps, without allocating in
/// the common case; anything unusual gets the standard parser's message.
fn parse_heaps(line: &[u8], heaps: &mut Vec<Heap>) -> Result<()> {
    heaps.clear();
    let mut current: Option<Heap> = None;
    for &byte in line {
        match byte {
            b'0'..=b'9' => {
                let digit = (byte - b'0') as Heap;
                let next = current
                    .unwrap_or(0)
                    .checked_mul(10)
                    .and_then(|v| v.checked_add(digit));
                match next {
                    Some(v) => current = Some(v),
                    None => return slow_parse(line, heaps),
                }
            }
            b' ' | b',' | b'\t' | b'\r' | b'\n' => {
                if let Some(v) = current.take() {
                    if v > 0 {
                        heaps.push(v);
                    }
                }
            }
            _ => return slow_parse(line, heaps),
        }
    }
    if let Some(v) = current.filter(|&v| v > 0) {
        heaps.push(v);
    }
    heaps.sort_unstable();
    Ok(())
}

fn slow_parse(line: &[u8], heaps: &mut Vec<Heap>) -> Result<()> {
    let text = String::from_utf8_lossy(line);
    *heaps = Position::parse_line(&text)?.into_heaps();
    Ok(())
}

/// Appends the same line as [`Answer::human`], without building an answer.
fn write_human(out: &mut Vec<u8>, heaps: &[Heap], win: bool, winning_move: Option<&[Heap]>) {
    write_heaps(out, heaps);
    out.extend_from_slice(b": ");
    out.extend_from_slice(verdict(win).as_bytes());
    if let Some(after) = winning_move {
        out.extend_from_slice(b" (winning move: to ");
        write_heaps(out, after);
        out.push(b')');
    }
    out.push(b'\n');
}

fn write_heaps(out: &mut Vec<u8>, heaps: &[Heap]) {
    if heaps.is_empty() {
        out.extend_from_slice(b"(no heaps)");
        return;
    }
    let mut digits = [0u8; 20];
    for (i, &h) in heaps.iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        let mut at = digits.len();
        let mut v = h;
        loop {
            at -= 1;
            digits[at] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        out.extend_from_slice(&digits[at..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_parser_matches_the_standard_one() {
        let mut heaps = Vec::new();
        for line in [
            "3 4 5\n",
            "5,0 3\r\n",
            "",
            "\n",
            "12 x",
            "1 -2",
            "99999999999999999999999",
        ] {
            let fast = parse_heaps(line.as_bytes(), &mut heaps).map(|()| heaps.clone());
            let slow = Position::parse_line(line.trim_end()).map(Position::into_heaps);
            match (fast, slow) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{line:?}"),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                (a, b) => panic!("{line:?}: {a:?} vs {b:?}"),
            }
        }
    }

    #[test]
    fn human_lines_match_the_shared_answer() {
        for (heaps, win, after) in [
            (vec![3u64, 4, 5], true, Some(vec![1u64, 4, 5])),
            (vec![], false, None),
        ] {
            let mut out = Vec::new();
            write_human(&mut out, &heaps, win, after.as_deref());
            let answer = Answer::new(
                &Position::new(heaps),
                win,
                after.map(Position::new),
                "table",
            );
            assert_eq!(String::from_utf8(out).unwrap(), answer.human() + "\n");
        }
    }
}
