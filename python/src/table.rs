//! `sicher.Table`: a table on disk, memory-mapped, probed one position at a time or in
//! batches (the hot path: no GIL, no allocation per position); and writing tables.

use std::path::PathBuf;

use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use sicher::atomic_file::Replace;
use sicher::label::WorkDir;
use sicher::table::BodyKind;
use sicher::{Convention, Domain, Heap, TableJob, TableRequest, Value};

use crate::batch::{Batch, Cells};
use crate::errors::{input, to_py};
use crate::game::PyGame;
use crate::heaps::position;
use crate::interrupt::on_helper_thread;

/// An endgame table written by sicher (from Python or by ``sicher table``), memory-mapped.
///
/// ``probe(heaps)`` answers one position; ``probe_many(positions)`` a batch, from a list
/// of positions or a 2-D integer numpy array (one row a position, zeros for absent
/// heaps). Outcome tables answer ``True`` where the player to move wins (safe);
/// remoteness tables answer the remoteness (moves until the end under best play; the
/// player to move wins when it is odd in normal play, even in misère play); nim-value
/// tables answer the nim-value of a heap size. Each block is checked against its
/// checksum when first read: damage raises :class:`DamagedTableError`.
#[pyclass(module = "sicher", name = "Table", frozen)]
pub struct PyTable {
    table: sicher::Table,
}

/// What a table's probes return.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Answers {
    Outcomes,
    Remoteness,
    NimValues,
}

impl PyTable {
    fn open(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let table = py.detach(|| sicher::Table::open(&path)).map_err(to_py)?;
        if matches!(table.header().kind, BodyKind::Quotient { .. }) {
            return Err(input(format!(
                "{}: a misère quotient, not a table of positions; use it with `sicher check --quotient`",
                path.display()
            )));
        }
        Ok(PyTable { table })
    }

    fn answers(&self) -> Answers {
        match self.table.header().kind {
            BodyKind::Remoteness { .. } => Answers::Remoteness,
            BodyKind::NimValues { .. } => Answers::NimValues,
            _ => Answers::Outcomes,
        }
    }

    fn outside(&self, heaps: &[Heap]) -> sicher::Error {
        sicher::Error::input(format!(
            "position {} is outside the table's domain ({}) in {}",
            sicher::Position::new(heaps.to_vec()),
            self.table.header().domain.flags(),
            self.table.path().display()
        ))
    }

    /// The value of the position whose heaps `heaps` holds, ascending, without zeros.
    #[inline(always)]
    fn value_of_sorted(&self, heaps: &[Heap]) -> sicher::Result<Value> {
        let ranker = self.table.ranker();
        if !ranker.contains(heaps) {
            return Err(self.outside(heaps));
        }
        let rank = ranker.rank_unchecked(heaps);
        self.table.value_of(heaps, rank)
    }

    /// Probes every row of `rows` (each `width` heaps), writing `answer(value)` to the
    /// row's slot of `out`; large batches are split between the cores.
    fn probe_rows<C: Cell, T: Send>(
        &self,
        rows: &[C],
        width: usize,
        out: &mut [T],
        answer: impl Fn(Value) -> T + Sync,
        cancel: &sicher::Cancel,
    ) -> sicher::Result<()> {
        use rayon::prelude::*;
        let chunk = PARALLEL_ROWS;
        if out.len() <= chunk {
            return self.probe_chunk(rows, width, 0, out, &answer);
        }
        let failures: Vec<sicher::Error> = out
            .par_chunks_mut(chunk)
            .zip(rows.par_chunks(chunk * width))
            .enumerate()
            .filter_map(|(c, (out, rows))| {
                // Ctrl-C stops the batch between chunks.
                cancel
                    .check()
                    .and_then(|()| self.probe_chunk(rows, width, c * chunk, out, &answer))
                    .err()
            })
            .collect();
        // The first failing row's error (chunks keep their order), an interruption
        // before any.
        if cancel.is_cancelled() {
            return Err(sicher::Error::interrupted());
        }
        match failures.into_iter().next() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// [`Self::probe_rows`] over a batch's cells, whichever their type.
    fn probe_cells<T: Send>(
        &self,
        cells: Cells<'_>,
        width: usize,
        out: &mut [T],
        answer: impl Fn(Value) -> T + Sync,
        cancel: &sicher::Cancel,
    ) -> sicher::Result<()> {
        match cells {
            Cells::Signed(rows) => self.probe_rows(rows, width, out, answer, cancel),
            Cells::Unsigned(rows) => self.probe_rows(rows, width, out, answer, cancel),
        }
    }

    /// The answers of a whole batch, without the GIL. A batch large enough to be split
    /// runs on a helper thread while this one listens for Ctrl-C, which stops it
    /// between chunks; a smaller one takes milliseconds and runs here.
    fn run_batch<T: Send + Clone>(
        &self,
        py: Python<'_>,
        cells: Cells<'_>,
        width: usize,
        zero: T,
        answer: impl Fn(Value) -> T + Sync + Send,
    ) -> PyResult<Vec<T>> {
        let rows = match cells {
            Cells::Signed(c) => c.len() / width,
            Cells::Unsigned(c) => c.len() / width,
        };
        let mut out = vec![zero; rows];
        if rows <= PARALLEL_ROWS {
            let cancel = sicher::Cancel::new();
            py.detach(|| self.probe_cells(cells, width, &mut out, answer, &cancel))
                .map_err(to_py)?;
        } else {
            let out = &mut out;
            on_helper_thread(py, |watch| {
                self.probe_cells(cells, width, out, answer, watch.cancel())
            })?;
        }
        Ok(out)
    }

    /// Probes one chunk of rows, the first being row `first` of the batch.
    fn probe_chunk<C: Cell, T>(
        &self,
        rows: &[C],
        width: usize,
        first: usize,
        out: &mut [T],
        answer: &impl Fn(Value) -> T,
    ) -> sicher::Result<()> {
        // Once per chunk, before the map is read: a file written over or truncated since
        // it was opened is refused instead of answered from (or faulting on).
        self.table.check_unchanged()?;
        let mut heaps: Vec<Heap> = Vec::with_capacity(width);
        for (i, (row, slot)) in rows.chunks_exact(width).zip(out.iter_mut()).enumerate() {
            // The row's heaps without zeros, ascending (rows are short: the sort is an
            // insertion sort).
            heaps.clear();
            for &h in row {
                if !h.is_zero() {
                    let h = h.heap().ok_or_else(|| {
                        sicher::Error::input(format!(
                            "row {}: heap {h} is not a non-negative integer",
                            first + i
                        ))
                    })?;
                    heaps.push(h);
                }
            }
            heaps.sort_unstable();
            let value = self
                .value_of_sorted(&heaps)
                .map_err(|e| e.context(format_args!("row {}", first + i)))?;
            *slot = answer(value);
        }
        Ok(())
    }
}

/// An element of a batch's array: the integer types taken as they are (`int64`, and
/// `uint64`, whose values past `i64::MAX` are heap sizes too, never negative ones).
trait Cell: Copy + Sync + std::fmt::Display {
    fn is_zero(self) -> bool;
    /// The heap size, or `None` for a negative value.
    fn heap(self) -> Option<Heap>;
}

impl Cell for i64 {
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn heap(self) -> Option<Heap> {
        u64::try_from(self).ok()
    }
}

impl Cell for u64 {
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn heap(self) -> Option<Heap> {
        Some(self)
    }
}

/// Rows a batch must exceed before it is split between the cores, and the rows of each
/// part.
const PARALLEL_ROWS: usize = 1 << 16;

fn to_py_value(py: Python<'_>, value: Value) -> PyResult<Py<PyAny>> {
    Ok(match value {
        Value::Remoteness { remoteness, .. } => remoteness.into_pyobject(py)?.into_any().unbind(),
        Value::Nimber(n) => n.into_pyobject(py)?.into_any().unbind(),
        Value::Outcome(o) => o.is_win().into_pyobject(py)?.to_owned().into_any().unbind(),
    })
}

#[pymethods]
impl PyTable {
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        Self::open(py, path)
    }

    /// The file the table was opened from.
    #[getter]
    fn path(&self) -> PathBuf {
        self.table.path().to_path_buf()
    }

    /// The game the table was written for, as a :class:`Game`.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame::wrap(self.table.game().clone())
    }

    /// True when the table stores remotenesses (``probe`` answers ints).
    #[getter]
    fn remoteness(&self) -> bool {
        self.answers() == Answers::Remoteness
    }

    /// True for misère play.
    #[getter]
    fn misere(&self) -> bool {
        self.table.header().convention == Convention::Misere
    }

    /// The domain as the command line's flags, e.g. ``"--total 60"``.
    #[getter]
    fn domain(&self) -> String {
        self.table.header().domain.flags()
    }

    /// Number of positions the table holds.
    #[getter]
    fn entries(&self) -> u64 {
        self.table.header().entries
    }

    fn __len__(&self) -> usize {
        self.table.header().entries as usize
    }

    fn __repr__(&self) -> String {
        format!(
            "sicher.Table({:?}: {}, {}, {} positions)",
            self.table.path().display().to_string(),
            self.table.header().canonical(),
            self.table.header().domain.flags(),
            self.table.header().entries
        )
    }

    /// True when ``heaps`` lies in the table's domain.
    fn covers(&self, heaps: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.table.covers(&position(heaps)?))
    }

    /// The table's answer for one position: ``True``/``False`` (safe or unsafe) from
    /// an outcome table, the remoteness from a remoteness table, the nim-value from a
    /// nim-value table. A position outside the domain raises :class:`Error`.
    fn probe(&self, py: Python<'_>, heaps: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let position = position(heaps)?;
        let value = self.table.probe(&position).map_err(to_py)?;
        to_py_value(py, value)
    }

    /// The table's answers for many positions at once, as a numpy array: ``bool``
    /// (safe) from an outcome table, ``uint32`` remotenesses from a remoteness table,
    /// ``uint64`` nim-values from a nim-value table. ``positions`` is a 2-D integer
    /// numpy array (one row a position, zeros for absent heaps) or a list of positions.
    /// Runs without the GIL; a position outside the domain raises :class:`Error`
    /// naming its row. Arrays of anything but integers (floats, complex numbers, bools,
    /// strings, objects) raise ``TypeError``: nothing is truncated or wrapped.
    fn probe_many<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let batch = Batch::of(py, positions)?;
        let (width, rows) = (batch.width, batch.rows);
        let cells = batch.cells()?;
        if width == 0 {
            // Rows of no heaps: every one is the empty position.
            let value = self
                .table
                .probe(&sicher::Position::new(vec![]))
                .map_err(to_py)?;
            return Ok(match value {
                Value::Remoteness { remoteness, .. } => {
                    vec![remoteness; rows].into_pyarray(py).into_any()
                }
                Value::Nimber(n) => vec![n; rows].into_pyarray(py).into_any(),
                Value::Outcome(o) => vec![o.is_win(); rows].into_pyarray(py).into_any(),
            });
        }
        match self.answers() {
            Answers::Outcomes => {
                let out = self.run_batch(py, cells, width, false, |v| v.is_win())?;
                Ok(PyArray1::from_vec(py, out).into_any())
            }
            Answers::Remoteness => {
                let out =
                    self.run_batch(py, cells, width, 0u32, |v| v.remoteness().unwrap_or(0))?;
                Ok(PyArray1::from_vec(py, out).into_any())
            }
            Answers::NimValues => {
                let out = self.run_batch(py, cells, width, 0u64, |v| v.nimber().unwrap_or(0))?;
                Ok(PyArray1::from_vec(py, out).into_any())
            }
        }
    }
}

/// `Game.write_table`: labels a domain and writes its table, on a helper thread so
/// that Ctrl-C stops it. As `sicher table` does, it refuses a plan the memory cannot
/// hold (unless `force_memory`), and a failed or interrupted call keeps the work
/// directory's finished tiers for the same call to resume; only a directory holding no
/// finished work, and no other writer's, is removed (nothing is left behind then).
#[allow(clippy::too_many_arguments)]
pub fn write(
    py: Python<'_>,
    game: &sicher::Game,
    path: PathBuf,
    total: Option<u64>,
    heaps: Option<u32>,
    max: Option<u64>,
    remoteness: bool,
    overwrite: bool,
    force_memory: bool,
) -> PyResult<PyTable> {
    let domain = match (total, heaps, max) {
        (Some(total), None, None) => Domain::Total { total },
        (None, Some(heaps), Some(max)) => Domain::Heaps { heaps, max },
        _ => {
            return Err(input(
                "name a domain: total=T (every position of at most T tokens), or heaps=K and max=N (at most K heaps of at most N)",
            ))
        }
    };
    let mut request = TableRequest::new(game.clone(), domain, &path);
    request.remoteness = remoteness;
    request.replace = if overwrite {
        Replace::RegularFile
    } else {
        Replace::Never
    };
    let work = WorkDir::beside(&path);
    let built = on_helper_thread(py, |watch| {
        let job = TableJob::prepare(request)?;
        if !force_memory {
            job.plan().check_memory()?;
        }
        job.run(&|_| watch.poll())
    });
    if built.is_err() {
        // Best effort: a directory that cannot be looked at is left as it is.
        let _ = py.detach(|| work.remove_if_unstarted());
    }
    built?;
    PyTable::open(py, path)
}
