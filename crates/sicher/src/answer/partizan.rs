//! Answers for partizan games: one chain of sources, tried in order.
//!
//! 1. **outcome-period**: a lone heap (or none) from the one-heap outcome sequence, for
//!    heaps of any size once its period is proved;
//! 2. **canonical-forms**: in normal play, the sum of the heaps' canonical forms, where
//!    the forms stay within the bounds the policy sets ([`PartizanPolicy::form_limit`]
//!    on games stored, [`PartizanPolicy::sum_bound`] on the product of the forms' sizes);
//! 3. **search**: the top-down partizan search ([`PartizanSolver`]), which also gives the
//!    remoteness within a node budget.
//!
//! Winning moves are found by answering each child with the same chain, so they come as
//! cheaply as the verdicts.

use crate::cancel::Cancel;
use crate::error::Result;
use crate::game::partizan::{PartizanGame, Terminal};
use crate::game::{Heap, Position};
use crate::search::PartizanSolver;
use crate::theory::partizan::{HeapForms, OutcomeSequence};
use crate::value::{OutcomeClass, Player};

use super::{Query, Remoteness};

/// Which source answered a partizan position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartizanSource {
    /// The one-heap outcome sequence and its period.
    OutcomePeriod,
    /// The sum of canonical forms.
    CanonicalForms,
    /// The top-down search.
    Search,
    /// A partizan table (`check --table`), labelled bottom-up.
    Table,
}

impl PartizanSource {
    /// The name in output: `"outcome-period"`, `"canonical-forms"` or `"search"`.
    pub fn name(self) -> &'static str {
        match self {
            PartizanSource::OutcomePeriod => "outcome-period",
            PartizanSource::CanonicalForms => "canonical-forms",
            PartizanSource::Search => "search",
            PartizanSource::Table => "table",
        }
    }
}

/// Positions the search may expand for a one-heap outcome sequence that cannot be
/// proved (splitting codes, infinite families, scripts): heap `n` of a splitting game
/// reaches every partition below it, so lone heaps up to 64 cost seconds, far more than
/// most positions asked about; the sequence observed stops at the heap where the budget
/// runs out (the search answers larger lone heaps, as it would anyway).
const SEQUENCE_NODES: u64 = 1 << 14;

/// What the partizan chain may use.
#[derive(Clone, Copy, Debug)]
pub struct PartizanPolicy {
    /// Use the one-heap outcome sequence.
    pub sequence: bool,
    /// Use canonical forms (normal play only).
    pub forms: bool,
    /// Most games the canonical forms' store may hold: past it, the search answers.
    pub form_limit: usize,
    /// Most positions a sum of forms may have before simplification (the product of the
    /// forms' sizes): past it, the search answers.
    pub sum_bound: usize,
    /// Heaps whose outcomes are computed by search where no period can be proved.
    pub sequence_limit: u64,
    /// Positions the remoteness search may expand before the remoteness is left out.
    pub remoteness_budget: u64,
    /// The bytes the search's tables may hold (emptied past it: slower, never wrong).
    pub table_bytes: usize,
}

impl Default for PartizanPolicy {
    fn default() -> Self {
        PartizanPolicy {
            sequence: true,
            forms: true,
            form_limit: 200_000,
            sum_bound: 4096,
            sequence_limit: 64,
            remoteness_budget: 1 << 18,
            table_bytes: crate::search::PARTIZAN_TABLE_BYTES,
        }
    }
}

/// One answered position with a given player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartizanAnswer {
    /// The position asked about.
    pub position: Position,
    /// The player to move.
    pub to_move: Player,
    /// True when the player to move wins.
    pub win: bool,
    /// The position after a winning move, when one exists and was asked for.
    pub best_move: Option<Position>,
    /// Moves until play ends under best play, when computed.
    pub remoteness: Option<u32>,
    /// Which source gave the verdict.
    pub source: PartizanSource,
}

/// A position's class and each player's winning moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartizanSolution {
    /// The position asked about.
    pub position: Position,
    /// Its outcome class.
    pub class: OutcomeClass,
    /// Left's winning moves (the positions after them) when Left is to move.
    pub left_moves: Vec<Position>,
    /// Right's winning moves when Right is to move.
    pub right_moves: Vec<Position>,
    /// Which source gave the class.
    pub source: PartizanSource,
}

/// The sources of answers for one partizan game, with what they learnt so far.
pub struct PartizanChain {
    game: PartizanGame,
    policy: PartizanPolicy,
    sequence: Option<OutcomeSequence>,
    forms: Option<HeapForms>,
    solver: PartizanSolver,
    /// Handed to forms built later (`canonical`).
    cancel: Cancel,
}

impl PartizanChain {
    /// The chain for `game` under `policy`: the outcome sequence is computed here (at
    /// once where a period can be proved, else up to the policy's heap limit).
    /// Where no period can be proved, the sequence is searched up to the heap limit or
    /// until the search has spent a budget of positions, whichever comes first.
    pub fn new(game: &PartizanGame, policy: PartizanPolicy) -> Result<Self> {
        Self::new_cancellable(game, policy, &Cancel::new())
    }

    /// [`PartizanChain::new`], and every later answer, ended with
    /// [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted) once `cancel` is cancelled.
    pub fn new_cancellable(
        game: &PartizanGame,
        policy: PartizanPolicy,
        cancel: &Cancel,
    ) -> Result<Self> {
        let mut solver = PartizanSolver::new(game);
        solver.set_cancel(cancel.clone());
        solver.set_table_bytes(policy.table_bytes);
        let sequence = if policy.sequence {
            Some(OutcomeSequence::compute_with(
                game,
                policy.sequence_limit,
                SEQUENCE_NODES,
                &mut solver,
            )?)
        } else {
            None
        };
        let forms = if policy.forms && matches!(game.terminal, Terminal::Normal) {
            let mut forms = HeapForms::new(game, policy.form_limit, policy.sum_bound)?;
            forms.set_cancel(cancel.clone());
            Some(forms)
        } else {
            None
        };
        Ok(PartizanChain {
            game: game.clone(),
            policy,
            sequence,
            forms,
            solver,
            cancel: cancel.clone(),
        })
    }

    /// Ends every later answer with [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted) once `cancel` is
    /// cancelled (what was learnt before stays; a call cut short leaves nothing half
    /// done, so the chain may answer again after a fresh handle is set).
    pub fn set_cancel(&mut self, cancel: Cancel) {
        self.solver.set_cancel(cancel.clone());
        if let Some(forms) = &mut self.forms {
            forms.set_cancel(cancel.clone());
        }
        self.cancel = cancel;
    }

    /// The game.
    pub fn game(&self) -> &PartizanGame {
        &self.game
    }

    /// The one-heap outcome sequence, if the policy computed it.
    pub fn sequence(&self) -> Option<&OutcomeSequence> {
        self.sequence.as_ref()
    }

    /// The heaps as the engines see them: ascending, dead heaps dropped.
    fn live(&self, position: &Position) -> Vec<Heap> {
        self.solver.normalize(position.heaps())
    }

    /// Whether `to_move` wins, and which source said so.
    pub fn verdict(
        &mut self,
        position: &Position,
        to_move: Player,
    ) -> Result<(bool, PartizanSource)> {
        let (class, source) = self.class_with(position, Some(to_move))?;
        match class {
            Known::Class(class) => Ok((class.to_move_wins(to_move), source)),
            Known::Win(win) => Ok((win, source)),
        }
    }

    /// The outcome class of a position, and which source gave it.
    pub fn class(&mut self, position: &Position) -> Result<(OutcomeClass, PartizanSource)> {
        match self.class_with(position, None)? {
            (Known::Class(class), source) => Ok((class, source)),
            (Known::Win(_), _) => unreachable!("asked for both players"),
        }
    }

    /// The class (or, from the search with one player to move, that player's verdict).
    fn class_with(
        &mut self,
        position: &Position,
        to_move: Option<Player>,
    ) -> Result<(Known, PartizanSource)> {
        let heaps = self.live(position);
        self.game.prepare(heaps.last().copied().unwrap_or(0))?;
        if let Some(sequence) = &self.sequence {
            let lone = match heaps[..] {
                [] => Some(0),
                [h] => Some(h),
                _ => None,
            };
            if let Some(class) = lone.and_then(|h| sequence.class(h)) {
                return Ok((Known::Class(class), PartizanSource::OutcomePeriod));
            }
        }
        if let Some(forms) = &mut self.forms {
            if let Some(g) = forms.sum(&heaps)? {
                return Ok((Known::Class(forms.class(g)), PartizanSource::CanonicalForms));
            }
        }
        let known = match to_move {
            Some(player) => Known::Win(self.solver.wins(&heaps, player)?),
            None => Known::Class(self.solver.class(&heaps)?),
        };
        Ok((known, PartizanSource::Search))
    }

    /// Every winning move of `to_move` (the positions after them, sorted).
    pub fn winning_moves(&mut self, position: &Position, to_move: Player) -> Result<Vec<Position>> {
        let mut winning = Vec::new();
        for child in self.game.children(position.heaps(), to_move) {
            let child = Position::new(child);
            if !self.verdict(&child, to_move.opponent())?.0 {
                winning.push(child);
            }
        }
        winning.sort();
        Ok(winning)
    }

    /// Answers `position` with `to_move` to move: the verdict, a winning move (the
    /// fastest, when the remoteness is known) and the remoteness as `query` asks.
    pub fn answer(
        &mut self,
        position: &Position,
        to_move: Player,
        query: Query,
    ) -> Result<PartizanAnswer> {
        let (win, source) = self.verdict(position, to_move)?;
        let heaps = self.live(position);
        let valued = match query.remoteness {
            Remoteness::Skip => None,
            Remoteness::IfAvailable => {
                self.solver
                    .remoteness(&heaps, to_move, self.policy.remoteness_budget)?
            }
            Remoteness::Required => self.solver.remoteness(&heaps, to_move, u64::MAX)?,
        };
        let remoteness = valued.map(|(_, r)| r);
        let mut best_move = None;
        if win && query.best_move {
            for child in self.game.children(position.heaps(), to_move) {
                let child = Position::new(child);
                let good = match remoteness {
                    // The fastest win: a losing child one move closer to the end.
                    Some(r) => {
                        let live = self.live(&child);
                        self.solver
                            .remoteness(&live, to_move.opponent(), u64::MAX)?
                            == Some((false, r.saturating_sub(1)))
                    }
                    None => !self.verdict(&child, to_move.opponent())?.0,
                };
                if good {
                    best_move = Some(child);
                    break;
                }
            }
        }
        Ok(PartizanAnswer {
            position: position.clone(),
            to_move,
            win,
            best_move,
            remoteness,
            source,
        })
    }

    /// The class of `position` and each player's winning moves.
    pub fn solve(&mut self, position: &Position) -> Result<PartizanSolution> {
        let (class, source) = self.class(position)?;
        let left_moves = self.winning_moves(position, Player::Left)?;
        let right_moves = self.winning_moves(position, Player::Right)?;
        Ok(PartizanSolution {
            position: position.clone(),
            class,
            left_moves,
            right_moves,
            source,
        })
    }

    /// The canonical form of a heap of size `n` in CGSuite's notation, or `None` when it
    /// grows past the policy's bound. Refused for games not in normal play.
    pub fn canonical(&mut self, n: Heap) -> Result<Option<String>> {
        if self.forms.is_none() {
            let mut forms = HeapForms::new(&self.game, self.policy.form_limit, usize::MAX)?;
            forms.set_cancel(self.cancel.clone());
            self.forms = Some(forms);
        }
        let forms = self.forms.as_mut().expect("set above");
        Ok(forms.form(n)?.map(|g| forms.write(g)))
    }

    /// The canonical form of the sum of `position`'s heaps in CGSuite's notation, or
    /// `None` past the bound.
    pub fn canonical_sum(&mut self, position: &Position) -> Result<Option<String>> {
        if self.forms.is_none() {
            let mut forms = HeapForms::new(&self.game, self.policy.form_limit, usize::MAX)?;
            forms.set_cancel(self.cancel.clone());
            self.forms = Some(forms);
        }
        let forms = self.forms.as_mut().expect("set above");
        Ok(forms.sum(position.heaps())?.map(|g| forms.write(g)))
    }
}

/// What a source knew: the class, or only the verdict for the player asked about.
enum Known {
    Class(OutcomeClass),
    Win(bool),
}

/// What [`verify_partizan`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartizanComparison {
    /// Positions compared.
    pub checked: u64,
    /// Positions whose class the chain and the plain search agree on.
    pub agreements: u64,
    /// Positions answered by each source: outcome-period, canonical-forms, search.
    pub by_source: [u64; 3],
    /// The first position they disagree on, with the chain's class and the search's.
    pub first_disagreement: Option<(Position, OutcomeClass, OutcomeClass)>,
}

/// Compares the chain's classes (period, canonical forms, search) with a fresh search's
/// for every position `positions` yields: the partizan `verify`.
pub fn verify_partizan(
    game: &PartizanGame,
    policy: PartizanPolicy,
    positions: impl IntoIterator<Item = Position>,
    mut tick: impl FnMut(),
) -> Result<PartizanComparison> {
    let mut chain = PartizanChain::new(game, policy)?;
    let mut search = PartizanSolver::new(game);
    let mut out = PartizanComparison::default();
    for position in positions {
        let (class, source) = chain.class(&position)?;
        let heaps = search.normalize(position.heaps());
        game.prepare(heaps.last().copied().unwrap_or(0))?;
        let truth = search.class(&heaps)?;
        out.checked += 1;
        if let Some(count) = out.by_source.get_mut(source as usize) {
            *count += 1;
        }
        if class == truth {
            out.agreements += 1;
        } else if out.first_disagreement.is_none() {
            out.first_disagreement = Some((position, class, truth));
        }
        tick();
    }
    Ok(out)
}
