//! `sicher.Game`: a game (rules and convention) with the chain of answer sources that
//! answers its positions, and the theory of its lone heaps.

use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use sicher::answer::{Chain, Policy, Query, Remoteness};
use sicher::theory::grundy::{self, Method, SolvedSequence};
use sicher::theory::quotient::{self, Budget};
use sicher::{Convention, Error, Position};

use crate::custom::{refuse_reentry, reraise, RaisedSlot};
use crate::errors::{input, to_py};
use crate::heaps::{position, to_tuple};
use crate::interrupt::{on_helper_thread, on_this_thread};
use crate::partizan::{self, Partizan};

/// A game: its rules and convention (normal or misère play).
///
/// ``Game(spec, misere=None)`` takes what the command line takes: a shipped name
/// (``"kayles"``, ``"nim"``, ``"wythoff"``), an inline spec (``"octal:0.77"``,
/// ``"subtraction:1,3,4"``) or a description file (``"mygame.toml"``). ``misere=True``
/// asks for misère play (the last player to move loses), ``misere=False`` for normal
/// play; ``None`` keeps the description's convention (normal for shipped games).
///
/// Positions are iterables of heap sizes in any order (zeros are empty heaps), or a
/// string such as ``"3 4 5"``. Positions the methods return are tuples of heap sizes,
/// ascending. Answers come from the fastest source that covers the position:
/// nim-values, closed forms, misère quotients, then the search; tables on disk are
/// read with :class:`Table`.
#[pyclass(module = "sicher", name = "Game", frozen)]
pub struct PyGame {
    pub game: sicher::Game,
    /// The chain of sources, built on first use and kept (it caches nim-values,
    /// quotients and the search's table); dropped after an interrupted call.
    chain: Mutex<Option<Chain>>,
    /// Where the Python function of `Game.from_options` keeps what it raised.
    raised: Option<RaisedSlot>,
    /// The partizan game, when the players' moves differ (`game` then holds Left's rules
    /// only for its name, and the impartial methods refuse).
    partizan: Option<Partizan>,
}

impl PyGame {
    pub fn wrap(game: sicher::Game) -> Self {
        PyGame {
            game,
            chain: Mutex::new(None),
            raised: None,
            partizan: None,
        }
    }

    /// Refuses a method that describes impartial games only, for a partizan game.
    pub fn impartial(&self, method: &str) -> PyResult<()> {
        match &self.partizan {
            None => Ok(()),
            Some(p) => Err(input(format!(
                "{method}: {} is partizan (each player has moves of their own); {method} describes impartial games (for partizan games: outcome_class, check, winning_moves and moves with to_move=, canonical)",
                p.game.title()
            ))),
        }
    }

    /// `result`, an exception the game's Python function raised coming out as itself.
    fn own<T>(&self, py: Python<'_>, result: PyResult<T>) -> PyResult<T> {
        reraise(py, self.raised.as_ref(), result)
    }

    /// Refuses a call from inside the game's own Python function (it would deadlock).
    pub fn not_reentered(&self) -> PyResult<()> {
        refuse_reentry(self.raised.as_ref())
    }

    /// Runs `work` with this game's chain on the calling thread, without the GIL,
    /// Ctrl-C stopping the search.
    pub fn with_chain<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut Chain, &crate::interrupt::Watch) -> sicher::Result<T> + Send,
    ) -> PyResult<T> {
        self.not_reentered()?;
        let game = &self.game;
        let chain = &self.chain;
        let (result, cut_short) = on_this_thread(py, |watch| {
            let mut guard = chain.lock().unwrap_or_else(|e| e.into_inner());
            if guard.is_none() {
                *guard = Some(Chain::new(game, &policy())?);
            }
            let chain = guard.as_mut().expect("just built");
            let poll = std::sync::Arc::clone(watch);
            chain.set_search_progress(Box::new(move |_| poll.poll()));
            let result = work(chain, watch);
            chain.set_search_progress(Box::new(|_| {}));
            result
        });
        if cut_short {
            // The search may have been stopped half-way through an update.
            *self.chain.lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
        self.own(py, result)
    }
}

/// Moves `Game.moves` lists at most, as many as `winning_moves` lists of one heap.
const MOVES_LIMIT: u64 = 1 << 22;

/// The policy of the Python API: the defaults, without looking for tables under
/// `tables/` (read tables with `sicher.Table`).
fn policy() -> Policy {
    Policy {
        tables_dir: None,
        ..Policy::default()
    }
}

fn query(remoteness: bool) -> Query {
    Query {
        best_move: true,
        remoteness: if remoteness {
            Remoteness::Required
        } else {
            Remoteness::IfAvailable
        },
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (spec, misere=None, *, left=None, right=None))]
    fn new(
        py: Python<'_>,
        spec: &str,
        misere: Option<bool>,
        left: Option<Bound<'_, PyAny>>,
        right: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        if let Some(game) = partizan::resolve(py, spec, left.as_ref(), right.as_ref(), misere)? {
            let convention = game.terminal.convention().unwrap_or(Convention::Normal);
            let shown = sicher::Game::new(game.title(), game.left.clone(), convention);
            let mut wrapped = Self::wrap(shown);
            wrapped.partizan = Some(Partizan::new(game));
            return Ok(wrapped);
        }
        let spec = spec.to_string();
        let game = py.detach(|| sicher::resolve(&spec)).map_err(to_py)?;
        Ok(Self::wrap(convention(game, misere)))
    }

    /// A one-heap ruleset from a Python callable: ``fn(n)`` gives the options of a lone
    /// heap of size n, an iterable of options, each an iterable of the heap sizes the
    /// move leaves (each smaller than n; zeros are dropped, order is free). It is
    /// called once per heap size, in increasing order, as far as a call needs, and what
    /// it returns is checked (a heap not smaller than n, or too many options, is
    /// :class:`Error`); an exception it raises reaches the caller as itself. ``name``
    /// (default: the function's ``__name__``) names the rules in messages.
    #[staticmethod]
    #[pyo3(signature = (r#fn, name=None, misere=false))]
    fn from_options(
        py: Python<'_>,
        r#fn: Bound<'_, PyAny>,
        name: Option<String>,
        misere: bool,
    ) -> PyResult<Self> {
        let name = match name {
            Some(name) => name,
            None => r#fn
                .getattr("__name__")
                .and_then(|n| n.extract::<String>())
                .unwrap_or_else(|_| "custom".to_string()),
        };
        let (ruleset, raised) = crate::custom::ruleset(py, r#fn, name.clone())?;
        let convention = if misere {
            Convention::Misere
        } else {
            Convention::Normal
        };
        let mut game = Self::wrap(sicher::Game::new(name, ruleset, convention));
        game.raised = Some(raised);
        Ok(game)
    }

    /// The game's name as given (a shipped name, a spec, a file's name).
    #[getter]
    fn name(&self) -> &str {
        &self.game.name
    }

    /// The rules' canonical spec, e.g. ``"octal:0.77"`` (``"partizan-subtraction:1,3/2,3"``).
    #[getter]
    fn spec(&self) -> String {
        match &self.partizan {
            Some(p) => p.game.spec(),
            None => self.game.ruleset.spec(),
        }
    }

    /// True in misère play (the last player to move loses).
    #[getter]
    fn misere(&self) -> bool {
        match &self.partizan {
            Some(p) => matches!(p.game.terminal, sicher::game::partizan::Terminal::Misere),
            None => self.game.convention == Convention::Misere,
        }
    }

    /// True when each player has moves of their own (Left and Right).
    #[getter]
    fn partizan(&self) -> bool {
        self.partizan.is_some()
    }

    /// The outcome class of ``heaps``: ``"L"`` (Left wins whoever starts), ``"R"``,
    /// ``"N"`` (the player to move wins) or ``"P"`` (the player to move loses). An
    /// impartial game's positions are ``"N"`` (safe) or ``"P"`` (unsafe).
    fn outcome_class(&self, py: Python<'_>, heaps: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        let position = position(heaps)?;
        let class = match &self.partizan {
            Some(p) => p.with_chain(py, |chain| chain.class(&position))?.0,
            None => {
                let query = Query {
                    best_move: false,
                    remoteness: Remoteness::Skip,
                };
                let answer = self.with_chain(py, |chain, _| chain.answer(&position, query))?;
                if answer.value.is_win() {
                    sicher::value::OutcomeClass::N
                } else {
                    sicher::value::OutcomeClass::P
                }
            }
        };
        Ok(class_name(class))
    }

    /// The canonical form of ``heaps`` (a heap size, or a position: the sum of its
    /// heaps) in CGSuite's notation, such as ``"{1|1,{1|0}||0,{1|0}|0|||0,{1|0}|0}"``,
    /// ``"1/2"``, ``"*2"`` or ``"^*"``. Normal play only; a form past the bound on
    /// canonical forms raises :class:`ResourceError`. Impartial games' forms are nimbers.
    fn canonical(&self, py: Python<'_>, heaps: &Bound<'_, PyAny>) -> PyResult<String> {
        let position = match heaps.extract::<u64>() {
            Ok(n) if !heaps.is_instance_of::<pyo3::types::PyBool>() => Position::new(vec![n]),
            _ => position(heaps)?,
        };
        match &self.partizan {
            Some(p) => partizan::canonical(py, p, &position),
            None => {
                let both = sicher::game::partizan::PartizanGame::new(
                    self.game.name.clone(),
                    self.game.ruleset.clone(),
                    self.game.ruleset.clone(),
                )
                .map_err(to_py)?;
                let both = match self.game.convention {
                    Convention::Misere => {
                        both.with_terminal(sicher::game::partizan::Terminal::Misere)
                    }
                    Convention::Normal => both,
                };
                partizan::canonical(py, &Partizan::forms_only(both), &position)
            }
        }
    }

    /// The description's start position, if it gives one.
    #[getter]
    fn start<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        self.game
            .start
            .as_ref()
            .map(|p| to_tuple(py, p))
            .transpose()
    }

    fn __repr__(&self) -> String {
        if let Some(p) = &self.partizan {
            return format!(
                "sicher.Game({:?}, misere={})",
                p.game.spec(),
                if self.misere() { "True" } else { "False" }
            );
        }
        format!(
            "sicher.Game({:?}, misere={})",
            self.game.name,
            if self.misere() { "True" } else { "False" }
        )
    }

    /// Who wins ``heaps`` with best play, and how.
    ///
    /// Returns an :class:`Answer`: ``.win`` (the player to move wins), ``.label``
    /// (``"safe"`` or ``"unsafe"``), ``.move`` (the position after a winning move, the
    /// fastest when the remoteness is known, or ``None``), ``.remoteness`` (moves until
    /// the end under best play, where the answering source has it cheaply, else
    /// ``None``) and ``.source`` (``"grundy"``, ``"quotient"``, ``"closed-form"``,
    /// ``"search"``). ``remoteness=True`` insists on the remoteness, as the command
    /// line's ``--remoteness`` does (sources that cannot give it pass the position to
    /// the search).
    ///
    /// In a partizan game name the player to move, ``to_move="left"`` or ``"right"``:
    /// the answer is that player's (``.to_move`` says whom, ``.outcome_class`` gives the
    /// position's class).
    #[pyo3(signature = (heaps, remoteness=false, to_move=None))]
    fn check(
        &self,
        py: Python<'_>,
        heaps: &Bound<'_, PyAny>,
        remoteness: bool,
        to_move: Option<&str>,
    ) -> PyResult<Answer> {
        let position = position(heaps)?;
        if let Some(p) = &self.partizan {
            let player = partizan::required_player(to_move, "check")?;
            let (answer, class) = p.with_chain(py, |chain| {
                let answer = chain.answer(&position, player, partizan::query(remoteness))?;
                let class = chain.class(&position)?.0;
                Ok((answer, class))
            })?;
            return Ok(Answer {
                position: answer.position.heaps().to_vec(),
                win: answer.win,
                label: if answer.win { "safe" } else { "unsafe" },
                best_move: answer.best_move.map(Position::into_heaps),
                remoteness: answer.remoteness,
                source: answer.source.name(),
                to_move: Some(player.name()),
                outcome_class: class_name(class),
            });
        }
        no_player(to_move, "check")?;
        let answer = self.with_chain(py, |chain, _| chain.answer(&position, query(remoteness)))?;
        Ok(Answer::from(answer))
    }

    /// Every winning move of ``heaps``: the positions after them, sorted (empty when
    /// the player to move loses). A partizan game names the player: ``to_move=``.
    #[pyo3(signature = (heaps, to_move=None))]
    fn winning_moves<'py>(
        &self,
        py: Python<'py>,
        heaps: &Bound<'py, PyAny>,
        to_move: Option<&str>,
    ) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        let position = position(heaps)?;
        if let Some(p) = &self.partizan {
            let player = partizan::required_player(to_move, "winning_moves")?;
            let moves = p.with_chain(py, |chain| chain.winning_moves(&position, player))?;
            return moves.iter().map(|p| to_tuple(py, p)).collect();
        }
        no_player(to_move, "winning_moves")?;
        let query = Query {
            best_move: true,
            remoteness: Remoteness::Skip,
        };
        let solution = self.with_chain(py, |chain, _| chain.solve(&position, query))?;
        if !solution.complete {
            return Err(crate::errors::ResourceError::new_err(format!(
                "{position}: a heap is too large to list every winning move of {}",
                self.game.canonical()
            )));
        }
        solution
            .winning_moves
            .iter()
            .map(|p| to_tuple(py, p))
            .collect()
    }

    /// Every legal move of ``heaps``: the positions one move away, each once, sorted.
    /// A partizan game names the player: ``to_move=``.
    #[pyo3(signature = (heaps, to_move=None))]
    fn moves<'py>(
        &self,
        py: Python<'py>,
        heaps: &Bound<'py, PyAny>,
        to_move: Option<&str>,
    ) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.not_reentered()?;
        let position = position(heaps)?;
        if let Some(p) = &self.partizan {
            let player = partizan::required_player(to_move, "moves")?;
            let game = &p.game;
            let children = py.detach(|| -> sicher::Result<Vec<Position>> {
                game.prepare(position.heaps().last().copied().unwrap_or(0))?;
                let mut listed = 0u64;
                let _ = game.for_each_move(position.heaps(), player, |_, _| {
                    listed += 1;
                    if listed > MOVES_LIMIT {
                        std::ops::ControlFlow::Break(())
                    } else {
                        std::ops::ControlFlow::Continue(())
                    }
                });
                if listed > MOVES_LIMIT {
                    return Err(Error::resource(format!(
                        "{position}: more than {MOVES_LIMIT} moves, too many to list"
                    )));
                }
                Ok(game
                    .children(position.heaps(), player)
                    .into_iter()
                    .map(Position::new)
                    .collect())
            });
            return children
                .map_err(to_py)?
                .iter()
                .map(|p| to_tuple(py, p))
                .collect();
        }
        no_player(to_move, "moves")?;
        let game = &self.game;
        let (children, _) = on_this_thread(py, |watch| {
            // Rules from a function are asked for each heap size first (an exception
            // there is the call's).
            let largest = position.heaps().last().copied().unwrap_or(0);
            game.ruleset.prepare(largest)?;
            // Counted as they come, so that a huge heap is refused before its moves
            // fill the memory, and Ctrl-C is heard while they are listed.
            let mut children = Vec::new();
            let listed = game
                .ruleset
                .for_each_move(position.heaps(), |removed, added| {
                    if children.len() % 4096 == 0 {
                        watch.poll();
                    }
                    if children.len() as u64 >= MOVES_LIMIT {
                        return std::ops::ControlFlow::Break(());
                    }
                    children.push(game.apply(&position, removed, added));
                    std::ops::ControlFlow::Continue(())
                });
            if listed.is_break() {
                return Err(Error::resource(format!(
                    "{position}: more than {MOVES_LIMIT} moves, too many to list (ask winning_moves or check instead)"
                )));
            }
            children.sort();
            children.dedup();
            Ok(children)
        });
        self.own(py, children)?
            .iter()
            .map(|p| to_tuple(py, p))
            .collect()
    }

    /// The nim-values G(0), ..., G(n-1) of a lone heap (normal play; rules whose
    /// moves change one heap).
    fn nim_values(&self, py: Python<'_>, n: u64) -> PyResult<Vec<u64>> {
        self.impartial("nim_values")?;
        if self.game.convention == Convention::Misere {
            return Err(input(
                "nim-values describe normal play; for misere play use solution() (lone-heap outcomes) or quotient()",
            ));
        }
        self.not_reentered()?;
        let ruleset = &self.game.ruleset;
        let values = on_helper_thread(py, |watch| {
            let values = grundy::nim_values_cancellable(ruleset, Method::Fast, n, watch.cancel())?;
            Ok(values.into_iter().map(u64::from).collect())
        });
        self.own(py, values)
    }

    /// The complete solution of a one-heap ruleset, computing at most heap sizes
    /// ``0..=max`` (``None``: the command line's default).
    ///
    /// Returns a :class:`Solution`: ``.solved`` (a period proved, or a closed form),
    /// ``.preperiod``, ``.period`` and ``.saltus`` (``None`` when no period showed up),
    /// ``.values`` (normal play: the nim-values of the pre-period and one period;
    /// misère play: whether a lone heap of each size is safe), ``.proved_at``,
    /// ``.computed``.
    #[pyo3(signature = (max=None))]
    fn solution(&self, py: Python<'_>, max: Option<u64>) -> PyResult<Solution> {
        self.impartial("solution")?;
        self.not_reentered()?;
        let game = &self.game;
        let max = max.unwrap_or_else(|| grundy::default_max(&game.ruleset));
        let solution =
            on_helper_thread(py, |watch| grundy::solve(game, max, &mut |_| watch.poll()));
        let solution = self.own(py, solution)?;
        Ok(Solution::from(solution))
    }

    /// The misère quotient of the rules for every sum of heaps up to ``n`` (rules
    /// whose moves change one heap), built heap by heap within the default budget.
    ///
    /// Returns a :class:`Quotient`: ``.order``, ``.presentation``, ``.p_portion`` (the
    /// P-portion's elements as words in the generators), ``.final`` (always ``False``:
    /// no periodicity theorem is applied), ``.covered`` (heaps 1..covered are covered;
    /// less than ``n`` when the budget ran out, ``.complete`` then ``False``).
    fn quotient(&self, py: Python<'_>, n: u64) -> PyResult<Quotient> {
        self.impartial("quotient")?;
        self.not_reentered()?;
        let ruleset = &self.game.ruleset;
        let quotient = on_helper_thread(py, |watch| {
            let (q, stopped) = quotient::compute_as_far_as_with_progress(
                ruleset,
                n,
                &Budget::default(),
                &mut |_| watch.poll(),
            )
            .map_err(Error::input)?;
            Ok(Quotient {
                order: q.order,
                presentation: q.presentation(),
                p_portion: q.p_portion_forms(),
                heap_elements: q.heap_element_forms(),
                covered: q.max_heap,
                requested: n,
                complete: stopped.is_none(),
                stop_reason: stopped.map(|(_, stop)| stop.to_string()),
            })
        });
        self.own(py, quotient)
    }

    /// Writes a table of every position of a domain: ``total=T`` (every position of
    /// at most T tokens) or ``heaps=K, max=N`` (at most K heaps of at most N each).
    /// ``remoteness=True`` stores each position's remoteness, not only its outcome.
    /// The file appears whole or not at all; an existing file is replaced only with
    /// ``force=True`` (as ``sicher table --force``; ``overwrite=`` is its deprecated
    /// old name). A domain the memory cannot hold raises :class:`ResourceError`
    /// up front, as ``sicher table`` does (``force_memory=True`` goes ahead). A call that
    /// fails or is interrupted keeps the finished work in ``PATH.work``, and the same
    /// call resumes it. Returns the :class:`Table`, open.
    #[pyo3(signature = (path, total=None, heaps=None, max=None, remoteness=false, force=None, force_memory=false, overwrite=None))]
    #[allow(clippy::too_many_arguments)]
    fn write_table(
        &self,
        py: Python<'_>,
        path: std::path::PathBuf,
        total: Option<u64>,
        heaps: Option<u32>,
        max: Option<u64>,
        remoteness: bool,
        force: Option<bool>,
        force_memory: bool,
        overwrite: Option<bool>,
    ) -> PyResult<crate::table::PyTable> {
        self.impartial("write_table")?;
        self.not_reentered()?;
        let overwrite = crate::errors::force_or_overwrite(py, force, overwrite)?;
        let written = crate::table::write(
            py,
            &self.game,
            path,
            total,
            heaps,
            max,
            remoteness,
            overwrite,
            force_memory,
        );
        self.own(py, written)
    }

    /// The map of every two-heap position (a, b), 0 <= a, b <= max: unsafe black, safe
    /// white (``remoteness=True``: shaded by remoteness), ``scale`` pixels per position
    /// in the PNG. A notebook shows it ``display_width`` pixels wide (default: the
    /// PNG's width, at least 480), its pixels kept sharp.
    /// Returns a :class:`Picture` (shown in Jupyter, ``.save(path)`` writes the PNG).
    #[pyo3(signature = (max, remoteness=false, scale=1, display_width=None))]
    fn picture(
        &self,
        py: Python<'_>,
        max: u64,
        remoteness: bool,
        scale: u32,
        display_width: Option<u32>,
    ) -> PyResult<crate::picture::Picture> {
        self.impartial("picture")?;
        if scale == 0 {
            return Err(input("scale=0: a position needs at least one pixel"));
        }
        if display_width == Some(0) {
            return Err(input("display_width=0: a picture needs at least one pixel"));
        }
        let mut picture = crate::picture::map(py, self, max, remoteness, scale)?;
        picture.show_at(display_width);
        Ok(picture)
    }

    /// The plot of the per-heap series G(0..=max) (misère play: lone-heap outcomes,
    /// or each heap's element in the misère quotient), with the pre-period, the period
    /// and where the proof closed. Returns a :class:`Picture`.
    #[pyo3(signature = (max, width=None, height=None))]
    fn plot(
        &self,
        py: Python<'_>,
        max: u64,
        width: Option<u32>,
        height: Option<u32>,
    ) -> PyResult<crate::picture::Picture> {
        self.impartial("plot")?;
        self.not_reentered()?;
        let plot = crate::picture::plot(py, &self.game, max, width, height);
        self.own(py, plot)
    }
}

/// The game with the convention `misere` forces, if any.
pub fn convention(game: sicher::Game, misere: Option<bool>) -> sicher::Game {
    match misere {
        Some(true) => game.with_convention(Convention::Misere),
        Some(false) => game.with_convention(Convention::Normal),
        None => game,
    }
}

/// Who wins a position, and how.
#[pyclass(module = "sicher", frozen)]
pub struct Answer {
    /// The position asked about, heaps ascending.
    #[pyo3(get)]
    pub position: Vec<u64>,
    /// True when the player to move wins (the position is safe).
    #[pyo3(get)]
    pub win: bool,
    /// ``"safe"`` (the player to move wins) or ``"unsafe"``.
    #[pyo3(get)]
    pub label: &'static str,
    /// The position after a winning move (a tuple, as ``winning_moves`` gives them), or
    /// ``None``.
    pub best_move: Option<Vec<u64>>,
    /// Moves (of both players) until the game ends under best play, when known.
    #[pyo3(get)]
    pub remoteness: Option<u32>,
    /// Which source answered: ``"grundy"``, ``"quotient"``, ``"closed-form"``,
    /// ``"table"`` or ``"search"`` (partizan games: ``"outcome-period"``,
    /// ``"canonical-forms"`` or ``"search"``).
    #[pyo3(get)]
    pub source: &'static str,
    /// The player to move, ``"left"`` or ``"right"``, in a partizan game; ``None`` in
    /// an impartial one.
    #[pyo3(get)]
    pub to_move: Option<&'static str>,
    /// The position's outcome class: ``"L"``, ``"R"``, ``"N"`` or ``"P"``.
    #[pyo3(get)]
    pub outcome_class: &'static str,
}

impl From<sicher::Answer> for Answer {
    fn from(answer: sicher::Answer) -> Self {
        Answer {
            position: answer.position.into_heaps(),
            win: answer.value.is_win(),
            label: answer.value.outcome().label(),
            best_move: answer.best_move.map(Position::into_heaps),
            remoteness: answer.value.remoteness(),
            source: answer.source.name(),
            to_move: None,
            outcome_class: if answer.value.is_win() { "N" } else { "P" },
        }
    }
}

/// `"L"`, `"R"`, `"N"` or `"P"`.
fn class_name(class: sicher::value::OutcomeClass) -> &'static str {
    match class {
        sicher::value::OutcomeClass::L => "L",
        sicher::value::OutcomeClass::R => "R",
        sicher::value::OutcomeClass::N => "N",
        sicher::value::OutcomeClass::P => "P",
    }
}

/// Refuses `to_move=` for an impartial game, where both players have the same moves.
fn no_player(to_move: Option<&str>, method: &str) -> PyResult<()> {
    match to_move {
        None => Ok(()),
        Some(_) => Err(input(format!(
            "{method}: to_move= applies to partizan games (such as \"partizan-subtraction:1,3/2,3\"); in an impartial game both players have the same moves"
        ))),
    }
}

#[pymethods]
impl Answer {
    /// The position after a winning move, as a tuple of heap sizes, or ``None``.
    #[getter(r#move)]
    fn best_move<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        self.best_move
            .as_ref()
            .map(|heaps| PyTuple::new(py, heaps))
            .transpose()
    }

    fn __repr__(&self) -> String {
        // A partizan answer is about one player to move: without it, "win=True" would
        // not say whose win.
        let partizan = self.to_move.map_or(String::new(), |player| {
            format!(
                ", to_move={player:?}, outcome_class={:?}",
                self.outcome_class
            )
        });
        format!(
            "Answer(position={:?}, win={}, label={:?}, move={}, remoteness={}, source={:?}{partizan})",
            self.position,
            py_bool(self.win),
            self.label,
            self.best_move
                .as_ref()
                .map_or("None".to_string(), |m| python_tuple(m)),
            self.remoteness
                .map_or("None".to_string(), |r| r.to_string()),
            self.source
        )
    }

    fn __bool__(&self) -> bool {
        self.win
    }
}

/// A tuple as Python writes it: `(3,)`, `(1, 4, 5)`, `()`.
fn python_tuple(heaps: &[u64]) -> String {
    match heaps {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            heaps
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// A one-heap ruleset's complete solution, or how far the search for one got.
#[pyclass(module = "sicher", frozen, get_all)]
pub struct Solution {
    /// True when the solution covers every heap size (a proved period or a closed form).
    pub solved: bool,
    /// Where the period starts, if one showed up.
    pub preperiod: Option<u64>,
    /// The period's length, if one showed up.
    pub period: Option<u64>,
    /// What each period adds to the values: 0 for ordinary periodicity, positive for
    /// arithmetic periodicity (``None`` when no period showed up).
    pub saltus: Option<u64>,
    /// Normal play: nim-values of the pre-period then one period (when periodic).
    /// Misère play: whether a lone heap is safe, same layout.
    pub values: Py<PyAny>,
    /// The heap size up to which the values proved the period, if proved.
    pub proved_at: Option<u64>,
    /// Heap sizes computed: ``0..computed``.
    pub computed: u64,
    /// A closed form replacing the sequence (Nim), if any.
    pub closed_form: Option<&'static str>,
}

impl From<grundy::Solution> for Solution {
    fn from(solution: grundy::Solution) -> Self {
        let found = solution.periodicity;
        let values = Python::attach(|py| match &solution.sequence {
            SolvedSequence::NimValues(v) => v
                .iter()
                .map(|&x| u64::from(x))
                .collect::<Vec<_>>()
                .into_pyobject(py)
                .map(|o| o.into_any().unbind()),
            SolvedSequence::Outcomes(o) => {
                o.clone().into_pyobject(py).map(|o| o.into_any().unbind())
            }
        })
        .expect("lists convert");
        Solution {
            solved: solution.proved(),
            preperiod: found.map(|f| f.preperiod),
            period: found.map(|f| f.period),
            saltus: found.map(|f| f.saltus),
            values,
            proved_at: found.and_then(|f| f.proved_at),
            computed: solution.computed,
            closed_form: solution.closed_form,
        }
    }
}

#[pymethods]
impl Solution {
    fn __repr__(&self) -> String {
        let show = |v: Option<u64>| v.map_or("None".to_string(), |v| v.to_string());
        format!(
            "Solution(solved={}, preperiod={}, period={}, saltus={}, computed={})",
            py_bool(self.solved),
            show(self.preperiod),
            show(self.period),
            show(self.saltus),
            self.computed
        )
    }
}

/// A misère quotient of a ruleset's heaps.
#[pyclass(module = "sicher", frozen, get_all)]
pub struct Quotient {
    /// Number of elements.
    pub order: u32,
    /// The presentation, e.g. ``"a, b, c | a^2 = 1, b^3 = b, b^2 c = c, c^2 = b^2"``.
    pub presentation: String,
    /// The P-portion: elements (as words in the generators) whose positions are unsafe.
    pub p_portion: Vec<String>,
    /// The element of each heap 1..=covered, as a word.
    pub heap_elements: Vec<String>,
    /// Heaps 1..=covered are covered: exact for every sum of them.
    pub covered: u64,
    /// The largest heap asked for.
    pub requested: u64,
    /// True when the construction reached the heap asked for.
    pub complete: bool,
    /// Why the construction stopped early, if it did.
    pub stop_reason: Option<String>,
}

#[pymethods]
impl Quotient {
    /// Always ``False``: no periodicity theorem is applied to make the quotient final.
    #[getter(r#final)]
    fn is_final(&self) -> bool {
        false
    }

    fn __repr__(&self) -> String {
        format!(
            "Quotient(order={}, presentation={:?}, covered={})",
            self.order, self.presentation, self.covered
        )
    }
}
