//! Partizan games in Python: `Game("partizan-subtraction:1,3/2,3")` or
//! `Game("partizan-subtraction", left=[1, 3], right=[2, 3])`, answered by the library's
//! partizan chain (the outcome period, canonical forms, the search): the outcome class,
//! a player's verdict with a winning move and the remoteness, each player's moves, and
//! canonical forms in CGSuite's notation.

use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};
use sicher::answer::{PartizanChain, PartizanPolicy, Query, Remoteness};
use sicher::game::partizan::{parse_partizan_spec, resolve_partizan, PartizanGame, Terminal};
use sicher::value::Player;
use sicher::Position;

use crate::errors::{input, to_py, ResourceError};
use crate::interrupt::on_helper_thread;

/// A partizan game and its chain of answers, built on first use and kept.
pub struct Partizan {
    /// The game.
    pub game: PartizanGame,
    policy: PartizanPolicy,
    chain: Mutex<Option<PartizanChain>>,
}

impl Partizan {
    /// Wraps a game.
    pub fn new(game: PartizanGame) -> Self {
        Partizan {
            game,
            policy: PartizanPolicy::default(),
            chain: Mutex::new(None),
        }
    }

    /// Wraps a game asked only for canonical forms: its chain skips the one-heap
    /// outcome sequence (a splitting code's costs a search of every lone heap up to 64).
    pub fn forms_only(game: PartizanGame) -> Self {
        Partizan {
            game,
            policy: PartizanPolicy {
                sequence: false,
                ..PartizanPolicy::default()
            },
            chain: Mutex::new(None),
        }
    }

    /// Runs `work` with the chain, without the GIL, on a helper thread that Ctrl-C
    /// stops through the chain's cancellation handle (`KeyboardInterrupt`; what the
    /// chain learnt before stays, a call cut short leaves nothing half done).
    pub fn with_chain<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut PartizanChain) -> sicher::Result<T> + Send,
    ) -> PyResult<T> {
        let (game, policy) = (&self.game, self.policy);
        let chain = &self.chain;
        on_helper_thread(py, |watch| {
            let cancel = watch.cancel().clone();
            let mut guard = chain.lock().unwrap_or_else(|e| e.into_inner());
            match guard.as_mut() {
                Some(chain) => chain.set_cancel(cancel),
                None => *guard = Some(PartizanChain::new_cancellable(game, policy, &cancel)?),
            }
            let chain = guard.as_mut().expect("just built");
            let result = work(chain);
            // The handle dies with this call: the next one sets its own.
            chain.set_cancel(sicher::Cancel::new());
            result
        })
    }
}

/// The partizan game `spec` (with `left` and `right`, when given) names, or `None` for an
/// impartial one. `misere` forces the convention.
pub fn resolve(
    py: Python<'_>,
    spec: &str,
    left: Option<&Bound<'_, PyAny>>,
    right: Option<&Bound<'_, PyAny>>,
    misere: Option<bool>,
) -> PyResult<Option<PartizanGame>> {
    let game = match (left, right) {
        (None, None) => {
            let spec = spec.to_string();
            match py.detach(|| resolve_partizan(&spec)).map_err(to_py)? {
                Some(game) => game,
                None => return Ok(None),
            }
        }
        (Some(left), Some(right)) => {
            if spec.contains(':') {
                return Err(input(format!(
                    "Game({spec:?}, left=..., right=...): give the kind of rules alone (such as \"partizan-subtraction\" or \"partizan-octal\") when left= and right= give each player's rules"
                )));
            }
            let kind = if spec.starts_with("partizan") {
                spec.to_string()
            } else {
                format!("partizan-{spec}")
            };
            let inline = format!("{kind}:{}/{}", side(left, "left")?, side(right, "right")?);
            parse_partizan_spec(&inline).map_err(to_py)?
        }
        _ => {
            return Err(input(
                "give both players' rules: left=... and right=... (as in Game(\"partizan-subtraction\", left=[1, 3], right=[2, 3]))",
            ))
        }
    };
    let terminal = match (misere, &game.terminal) {
        (None, _) => return Ok(Some(game)),
        (Some(_), Terminal::Script(_)) => {
            return Err(input(format!(
                "{}: misere= does not apply: its script's terminal rule says who wins",
                game.title()
            )))
        }
        (Some(true), _) => Terminal::Misere,
        (Some(false), _) => Terminal::Normal,
    };
    Ok(Some(game.with_terminal(terminal)))
}

/// One player's rules as the inline spec writes them: a list of numbers (a subtraction
/// set), or a string (a family such as ``"squares"``, or a code such as ``"0.7"``).
fn side(value: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    if let Ok(text) = value.cast::<PyString>() {
        let text = text.to_cow()?.trim().to_string();
        if text.is_empty() || text.contains('/') {
            return Err(input(format!(
                "{name}={text:?}: give one player's rules, such as [1, 3], \"squares\" or \"0.7\""
            )));
        }
        return Ok(text);
    }
    let mut numbers = Vec::new();
    let items = value.try_iter().map_err(|_| {
        input(format!(
            "{name}= takes a list of numbers (a subtraction set) or a string (a family or a code), not {}",
            value.get_type().name().map_or("this".into(), |n| n.to_string())
        ))
    })?;
    for item in items {
        let item = item?;
        if !item.is_instance_of::<PyInt>() || item.is_instance_of::<pyo3::types::PyBool>() {
            return Err(input(format!(
                "{name}=: {} is not a whole number of tokens to take",
                item.repr()?
            )));
        }
        let number: u64 = item.extract().map_err(|_| {
            input(format!(
                "{name}=: {} is not a positive number of tokens that fits in 64 bits",
                item.repr().map_or("?".into(), |r| r.to_string())
            ))
        })?;
        numbers.push(number.to_string());
    }
    if numbers.is_empty() {
        return Err(input(format!(
            "{name}=[]: a player's subtraction set needs at least one number"
        )));
    }
    Ok(numbers.join(","))
}

/// The player a `to_move=` names.
pub fn player(to_move: &str) -> PyResult<Player> {
    Player::parse(to_move.trim()).ok_or_else(|| {
        input(format!(
            "to_move={to_move:?}: expected \"left\" or \"right\""
        ))
    })
}

/// `to_move=` for a partizan game: required.
pub fn required_player(to_move: Option<&str>, method: &str) -> PyResult<Player> {
    match to_move {
        Some(text) => player(text),
        None => Err(input(format!(
            "{method}: in a partizan game name the player to move: to_move=\"left\" or \"right\" (outcome_class(heaps) gives the class, for either)"
        ))),
    }
}

/// The query of a check.
pub fn query(remoteness: bool) -> Query {
    Query {
        best_move: true,
        remoteness: if remoteness {
            Remoteness::Required
        } else {
            Remoteness::IfAvailable
        },
    }
}

/// The canonical form of `position`'s sum, or a `ResourceError` past the bound.
pub fn canonical(py: Python<'_>, partizan: &Partizan, position: &Position) -> PyResult<String> {
    let form = partizan.with_chain(py, |chain| chain.canonical_sum(position))?;
    form.ok_or_else(|| {
        ResourceError::new_err(format!(
            "{position}: the canonical form grows past {} games (the bound on canonical forms)",
            partizan.policy.form_limit
        ))
    })
}
