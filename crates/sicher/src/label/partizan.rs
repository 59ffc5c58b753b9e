//! The partizan labeller: every position of a bounded domain labelled for both players
//! to move, bottom-up, tier by tier, in parallel within a tier, resumable through the
//! work directory.
//!
//! It runs on the impartial labeller's machinery: the same tiers ([`visit_tier_with`]
//! over equal totals), the same window of held tiers and driver ([`drive::run`]), the
//! same work directory (its parts hold a byte per position); only the rule that decides
//! a position differs. A position's byte holds [`LEFT_WINS`] when Left, to move, wins
//! (the seeds' `sicher(Left, p)`) and [`RIGHT_WINS`] when Right, to move, wins: a player
//! wins where play has ended in their favour (`t` and `g`: no move under the normal or
//! misère rule, or the terminal script's verdict), or where one of their moves reaches
//! a position the opponent, to move, loses.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Mutex;

use super::drive::{self, Finished, Reach, TierLabeller};
use super::options::Options;
use super::tiers::{visit_tier_runs_with, visit_tier_with, Scratch, Tiers};
use super::window::{Atom, Window};
use super::work::{Identity, Store, WorkDir};
use crate::domain::{Partitions, Ranker, Runs, Strides};
use crate::error::{Error, Result};
use crate::game::partizan::{PartizanGame, Terminal};
use crate::game::Game;
use crate::value::{OutcomeClass, Player};

/// Bit of a position's label set when Left, to move, wins (as partizan tables store it).
pub const LEFT_WINS: u8 = 1;
/// Bit of a position's label set when Right, to move, wins.
pub const RIGHT_WINS: u8 = 2;

/// One position's two labels, a byte in the window and in the work directory's parts.
pub(crate) struct SideCell(AtomicU8);

impl Atom for SideCell {
    const PER: u64 = 1;
    const WIDTH: u32 = 8;
    fn fresh() -> Self {
        SideCell(AtomicU8::new(0))
    }
    #[inline]
    fn get(&self) -> u64 {
        u64::from(self.0.load(Ordering::Relaxed))
    }
    #[inline]
    fn put(&self, value: u64) {
        self.0.store(value as u8, Ordering::Relaxed)
    }
}

/// Both players' labels of every position of a domain, by rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sides {
    labels: Vec<u8>,
}

impl Sides {
    /// Labels from one byte per rank ([`LEFT_WINS`] | [`RIGHT_WINS`]).
    pub fn from_bytes(labels: Vec<u8>) -> Self {
        Sides { labels }
    }

    /// Number of positions.
    pub fn count(&self) -> u64 {
        self.labels.len() as u64
    }

    /// True when `player`, to move at rank `rank`, wins.
    #[inline]
    pub fn wins(&self, rank: u64, player: Player) -> bool {
        self.labels[rank as usize] & bit(player) != 0
    }

    /// The outcome class of rank `rank`.
    pub fn class(&self, rank: u64) -> OutcomeClass {
        let label = self.labels[rank as usize];
        OutcomeClass::from_wins(label & LEFT_WINS != 0, label & RIGHT_WINS != 0)
    }

    /// Positions of each class, in the order L, R, N, P.
    pub fn classes(&self) -> [u64; 4] {
        let mut counts = [0u64; 4];
        for rank in 0..self.count() {
            counts[self.class(rank) as usize] += 1;
        }
        counts
    }

    /// The labels packed two bits a position into little-endian words, as a partizan
    /// table's body holds them.
    pub fn words(&self) -> Vec<u64> {
        let mut words = vec![0u64; (self.labels.len() * 2).div_ceil(64)];
        for (rank, &label) in self.labels.iter().enumerate() {
            words[rank / 32] |= u64::from(label & 3) << (2 * (rank % 32));
        }
        words
    }
}

/// The bit of `player`'s label.
#[inline]
fn bit(player: Player) -> u8 {
    match player {
        Player::Left => LEFT_WINS,
        Player::Right => RIGHT_WINS,
    }
}

/// Labels a tier for both players by scanning each player's moves.
struct Forward<'a> {
    game: &'a PartizanGame,
    ranker: &'a Ranker,
    splits: bool,
    /// `--total` domains of one-heap moves ended by the normal or misère rule: each
    /// player's options, children ranked from the parent's runs of equal heaps (the
    /// impartial forward labeller's kernel), and whether a player with no move wins.
    runs: Option<(&'a Partitions, Strides, [Options; 2], bool)>,
    /// The first failure of a terminal script, reported once the tier is done.
    failure: Mutex<Option<Error>>,
}

impl<'a> Forward<'a> {
    fn new(game: &'a PartizanGame, ranker: &'a Ranker) -> Self {
        let stuck_wins = match game.terminal {
            Terminal::Normal => Some(false),
            Terminal::Misere => Some(true),
            Terminal::Script(_) => None,
        };
        let runs = match (ranker, stuck_wins) {
            (Ranker::Total(partitions), Some(stuck_wins)) => {
                let total = partitions.total();
                match (
                    Options::new(&game.left, total),
                    Options::new(&game.right, total),
                ) {
                    (Some(left), Some(right)) => Some((
                        partitions,
                        Strides::new(partitions),
                        [left, right],
                        stuck_wins,
                    )),
                    _ => None,
                }
            }
            _ => None,
        };
        Forward {
            game,
            ranker,
            splits: game.left.splits_without_taking() || game.right.splits_without_taking(),
            runs,
            failure: Mutex::new(None),
        }
    }
}

/// Whether the player whose options are `options`, to move at the loaded position, wins:
/// some option reaches a position whose label lacks the opponent's bit `answer`; with no
/// option, `stuck_wins`.
#[inline]
fn wins_by_runs(
    options: &Options,
    runs: &mut Runs,
    strides: &Strides,
    window: &Window<SideCell>,
    answer: u8,
    stuck_wins: bool,
) -> bool {
    let mut any_move = false;
    for i in 0..runs.len() {
        let h = runs.value(i);
        let heap_options = options.of(h);
        any_move |= !heap_options.is_empty();
        for option in heap_options {
            let child = runs.replace(strides, i, option.taken, option.parts());
            if window.slot(child).get() as u8 & answer == 0 {
                return true;
            }
        }
    }
    !any_move && stuck_wins
}

impl TierLabeller<SideCell> for Forward<'_> {
    fn label_tier(&self, window: &Window<SideCell>, tier: u64, scratch: &mut Scratch) -> u64 {
        if let Some((partitions, strides, [left, right], stuck_wins)) = &self.runs {
            return visit_tier_runs_with(
                self.splits,
                partitions,
                strides,
                tier,
                scratch,
                |runs, rank| {
                    let mut label = 0;
                    if wins_by_runs(left, runs, strides, window, RIGHT_WINS, *stuck_wins) {
                        label |= LEFT_WINS;
                    }
                    if wins_by_runs(right, runs, strides, window, LEFT_WINS, *stuck_wins) {
                        label |= RIGHT_WINS;
                    }
                    window.slot(rank).put(u64::from(label));
                },
            );
        }
        let (game, ranker) = (self.game, self.ranker);
        visit_tier_with(
            self.splits,
            Tiers::of(ranker, false),
            tier,
            scratch,
            |_, rank, heaps| {
                let total = heaps.iter().sum();
                let mut label = 0u8;
                for player in [Player::Left, Player::Right] {
                    let answer = bit(player.opponent());
                    let mut any_move = false;
                    // A move to a position the opponent, to move, loses.
                    let found = game
                        .for_each_move(heaps, player, |removed, added| {
                            any_move = true;
                            let child = ranker.rank_after_move(heaps, total, removed, added);
                            if window.slot(child).get() as u8 & answer == 0 {
                                ControlFlow::Break(())
                            } else {
                                ControlFlow::Continue(())
                            }
                        })
                        .is_break();
                    let win = match game.terminal(heaps, player, || any_move) {
                        Ok(Some(win)) => win,
                        Ok(None) => found,
                        Err(error) => {
                            let mut failure =
                                self.failure.lock().unwrap_or_else(|e| e.into_inner());
                            failure.get_or_insert(error);
                            false
                        }
                    };
                    if win {
                        label |= bit(player);
                    }
                }
                window.slot(rank).put(u64::from(label));
            },
        )
    }
}

/// The impartial view of one player's rules, for what the domain checks of a game.
fn side_game(game: &PartizanGame, player: Player) -> Game {
    Game::new(
        game.spec(),
        game.rules(player).clone(),
        crate::game::Convention::Normal,
    )
}

/// How far back a tier's moves reach: the most either player takes (`None`: no bound).
fn reach(game: &PartizanGame) -> Reach {
    let back = match (game.left.max_take(), game.right.max_take()) {
        (Some(l), Some(r)) => Some(l.max(r)),
        _ => None,
    };
    Reach {
        back,
        ahead: Some(0),
    }
}

/// What the work directory of a partizan labelling is bound to.
fn identity(game: &PartizanGame, ranker: &Ranker) -> Identity {
    Identity {
        game: game.spec(),
        convention: game.terminal.name(),
        domain: ranker.domain().flags(),
        kind: "partizan".into(),
        strategy: "forward".into(),
        entries: ranker.count(),
    }
}

/// Bytes the partizan labeller holds at its peak without a work directory: a byte per
/// position, and the ranker's tables.
pub fn estimate_partizan_bytes(ranker: &Ranker) -> u64 {
    ranker.count() + ranker.table_bytes()
}

/// Labels every position of `ranker`'s domain for both players to move. With `work`,
/// finished tiers go to that work directory (only the tiers moves reach are held) and a
/// run killed part way resumes from it; the caller removes it once the labels are kept.
/// `progress` hears how many positions each tier held (first, how many a resumed run
/// found done). Returns the labels and how many positions an earlier run had labelled.
pub fn label_partizan(
    game: &PartizanGame,
    ranker: &Ranker,
    work: Option<&WorkDir>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Sides, u64)> {
    for player in [Player::Left, Player::Right] {
        ranker.domain().check_game(&side_game(game, player))?;
    }
    game.prepare(ranker.domain().max_heap())?;
    let labeller = Forward::new(game, ranker);
    let tiers = Tiers::of(ranker, false);
    let count = ranker.count();
    let mut store = match work {
        Some(work) => Some(Store::open(
            work,
            identity(game, ranker),
            SideCell::WIDTH,
            tiers,
        )?),
        None => None,
    };
    let resumed = store.as_ref().map_or(0, Store::positions_done);
    let finished = drive::run::<SideCell>(
        &labeller,
        tiers,
        count,
        reach(game),
        store.as_mut(),
        progress,
    );
    if let Some(error) = labeller
        .failure
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
    {
        // Tiers after the failure were labelled without the script's verdict: none of
        // this work may be resumed.
        if let Some(work) = work {
            drop(store);
            work.remove()?;
        }
        return Err(error);
    }
    let labels = match (finished?, store) {
        (Finished::Held(slots), _) => slots.into_iter().map(|c| c.0.into_inner()).collect(),
        (Finished::Stored, Some(store)) => store
            .assemble_cells(count)?
            .into_iter()
            .map(|v| v as u8)
            .collect(),
        (Finished::Stored, None) => return Err(super::stored_without_store()),
    };
    Ok((Sides::from_bytes(labels), resumed))
}
