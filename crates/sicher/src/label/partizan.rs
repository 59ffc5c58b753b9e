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

use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Mutex;

use rayon::ThreadPool;

use super::chunk::{visit_ranks, visit_ranks_runs, ChunkLabeller};
use super::cluster::manager::{manage, Chunking};
use super::cluster::rank::Rank;
use super::cluster::{self, worker, Link, Terms};
use super::drive::{self, Finished, Reach, TierLabeller};
use super::options::Options;
use super::tiers::{visit_tier_runs_with, visit_tier_with, Scratch, Tiers};
use super::window::{Atom, Window};
use super::work::{Identity, Store, WorkDir, WORK_FORMAT};
use crate::cancel::Cancel;
use crate::domain::{Partitions, Ranker, Runs, Strides};
use crate::error::{Error, Result};
use crate::game::partizan::{PartizanGame, Terminal};
use crate::game::{Game, Heap};
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
    /// Ends the labelling between two tiers once cancelled.
    cancel: Cancel,
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
            cancel: Cancel::new(),
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

impl Forward<'_> {
    /// Labels the position loaded in `runs` (rank `rank`) from each player's one-heap
    /// options.
    #[inline]
    fn label_runs(
        &self,
        window: &Window<SideCell>,
        strides: &Strides,
        [left, right]: &[Options; 2],
        stuck_wins: bool,
        runs: &mut Runs,
        rank: u64,
    ) {
        let mut label = 0;
        if wins_by_runs(left, runs, strides, window, RIGHT_WINS, stuck_wins) {
            label |= LEFT_WINS;
        }
        if wins_by_runs(right, runs, strides, window, LEFT_WINS, stuck_wins) {
            label |= RIGHT_WINS;
        }
        window.slot(rank).put(u64::from(label));
    }

    /// Labels the position `heaps` (rank `rank`) from each player's moves and the
    /// terminal rule; a terminal script's failure is kept for [`Forward::take_failure`].
    fn label_heaps(&self, window: &Window<SideCell>, rank: u64, heaps: &[Heap]) {
        let (game, ranker) = (self.game, self.ranker);
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
                    let mut failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
                    failure.get_or_insert(error);
                    false
                }
            };
            if win {
                label |= bit(player);
            }
        }
        window.slot(rank).put(u64::from(label));
    }

    /// The first failure of a terminal script since the last call, if any.
    fn take_failure(&self) -> Option<Error> {
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }
}

impl TierLabeller<SideCell> for Forward<'_> {
    fn label_tier(&self, window: &Window<SideCell>, tier: u64, scratch: &mut Scratch) -> u64 {
        if let Some((partitions, strides, options, stuck_wins)) = &self.runs {
            return visit_tier_runs_with(
                self.splits,
                partitions,
                strides,
                tier,
                scratch,
                |runs, rank| self.label_runs(window, strides, options, *stuck_wins, runs, rank),
            );
        }
        visit_tier_with(
            self.splits,
            Tiers::of(self.ranker, false),
            tier,
            scratch,
            |_, rank, heaps| self.label_heaps(window, rank, heaps),
        )
    }

    fn stop(&self) -> Result<()> {
        self.cancel.check()
    }
}

/// Labels chunks of tiers of a `--total` domain for both players, for the ranks of a
/// shared labelling ([`super::cluster`]): a chunk reads only lower tiers (a tier whose
/// moves keep the total is one chunk, labelled whole as on one machine).
pub(crate) struct PartizanChunks<'a> {
    forward: Forward<'a>,
    partitions: &'a Partitions,
}

impl<'a> PartizanChunks<'a> {
    /// For a `--total` domain (`None` otherwise).
    pub(crate) fn new(game: &'a PartizanGame, ranker: &'a Ranker) -> Option<Self> {
        let Ranker::Total(partitions) = ranker else {
            return None;
        };
        Some(PartizanChunks {
            forward: Forward::new(game, ranker),
            partitions,
        })
    }
}

impl ChunkLabeller<SideCell> for PartizanChunks<'_> {
    fn label_chunk(
        &self,
        window: &Window<SideCell>,
        tier: u64,
        ranks: Range<u64>,
        scratch: &mut Scratch,
    ) -> u64 {
        if ranks == self.partitions.tier(tier) {
            return self.forward.label_tier(window, tier, scratch);
        }
        let len = ranks.end - ranks.start;
        let forward = &self.forward;
        match &forward.runs {
            Some((partitions, strides, options, stuck_wins)) => {
                visit_ranks_runs(partitions, strides, ranks, scratch, |runs, rank| {
                    forward.label_runs(window, strides, options, *stuck_wins, runs, rank)
                })
            }
            None => visit_ranks(self.partitions, ranks, scratch, |_, rank, heaps| {
                forward.label_heaps(window, rank, heaps)
            }),
        }
        len
    }

    fn failure(&self) -> Result<()> {
        self.forward.take_failure().map_or(Ok(()), Err)
    }
}

/// True when a tier may be cut into chunks: neither player has a move that keeps the
/// total.
fn splittable(game: &PartizanGame) -> bool {
    !(game.left.splits_without_taking() || game.right.splits_without_taking())
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
    label_partizan_cancellable(game, ranker, work, progress, &Cancel::new())
}

/// [`label_partizan`], ended between two tiers with [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted) once `cancel`
/// is cancelled (the tiers finished before stay in the work directory, for the same call
/// to resume).
pub fn label_partizan_cancellable(
    game: &PartizanGame,
    ranker: &Ranker,
    work: Option<&WorkDir>,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &Cancel,
) -> Result<(Sides, u64)> {
    check(game, ranker)?;
    let mut labeller = Forward::new(game, ranker);
    labeller.cancel = cancel.clone();
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
    if let Some(error) = labeller.take_failure() {
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

/// What every rank of a job labelling `game` over `ranker`'s domain must agree on.
fn terms(
    game: &PartizanGame,
    ranker: &Ranker,
    work: &WorkDir,
    ranks: usize,
    chunk: Option<u64>,
) -> Terms {
    Terms {
        sicher: env!("CARGO_PKG_VERSION").to_string(),
        work_format: WORK_FORMAT,
        table_format: work.output_format(),
        identity: identity(game, ranker),
        shared: matches!(ranker, Ranker::Total(_)),
        shortcuts: true,
        work_dir: work.path().display().to_string(),
        chunk,
        ranks,
    }
}

/// The checks every rank makes before labelling: each player's rules fit the domain,
/// and the game's tables are built up to its largest heap.
fn check(game: &PartizanGame, ranker: &Ranker) -> Result<()> {
    for player in [Player::Left, Player::Right] {
        ranker.domain().check_game(&side_game(game, player))?;
    }
    game.prepare(ranker.domain().max_heap())
}

/// Rank 0 of a job labelling a partizan game's domain for both players with the other
/// ranks of `link` (each running [`serve_partizan`] with the same arguments): makes sure
/// every rank was started for the same labelling, then shares each tier of a `--total`
/// domain out in chunks (`chunk` positions each when given) through the work directory
/// `work`, which a killed job resumes from; a `--heaps` domain is labelled by rank 0
/// alone while the workers wait. Each rank labels on `pool` (default: rayon's global
/// pool). Returns the labels (the same as [`label_partizan`]'s)
/// and how many positions an earlier run had labelled. The caller writes the table,
/// removes `work` and ends the job with [`super::cluster::release`] (also on failure,
/// with `false`).
pub fn label_partizan_ranked(
    game: &PartizanGame,
    ranker: &Ranker,
    work: &WorkDir,
    link: &dyn Link,
    chunk: Option<u64>,
    pool: Option<&ThreadPool>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Sides, u64)> {
    check(game, ranker)?;
    cluster::agree(link, &terms(game, ranker, work, link.ranks(), chunk))?;
    let (Some(labeller), Ranker::Total(partitions)) = (PartizanChunks::new(game, ranker), ranker)
    else {
        let alone = || label_partizan(game, ranker, Some(work), progress);
        return match pool {
            Some(pool) => pool.install(alone),
            None => alone(),
        };
    };
    let count = ranker.count();
    let mut store = Store::open(
        work,
        identity(game, ranker),
        SideCell::WIDTH,
        Tiers::of(ranker, false),
    )?;
    let resumed = store.positions_done();
    let chunking = Chunking {
        ranks: link.ranks(),
        forced: chunk,
        splittable: splittable(game),
    };
    let dir = store.dir().to_path_buf();
    let mut rank = Rank::new(
        &labeller,
        partitions,
        reach(game),
        dir,
        store.binding(),
        pool,
    )?;
    manage(&mut rank, &mut store, link, chunking, progress)?;
    drop(rank);
    let labels = store
        .assemble_cells(count)?
        .into_iter()
        .map(|v| v as u8)
        .collect();
    Ok((Sides::from_bytes(labels), resumed))
}

/// A worker of a job labelling a partizan game (any rank but 0, rank 0 running
/// [`label_partizan_ranked`] with the same arguments): labels the chunks rank 0 hands
/// it until rank 0 ends the job. A failure is sent to rank 0 too, which ends the job; a
/// worker stopped by rank 0 ends with [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted).
pub fn serve_partizan(
    game: &PartizanGame,
    ranker: &Ranker,
    work: &WorkDir,
    link: &dyn Link,
    chunk: Option<u64>,
    pool: Option<&ThreadPool>,
) -> Result<()> {
    if let Err(error) = check(game, ranker) {
        cluster::refuse(link, &error);
        return Err(error);
    }
    cluster::agree(link, &terms(game, ranker, work, link.ranks(), chunk))?;
    let (Some(labeller), Ranker::Total(partitions)) = (PartizanChunks::new(game, ranker), ranker)
    else {
        return worker::serve::<SideCell>(&mut None, link);
    };
    let binding = identity(game, ranker).binding(SideCell::WIDTH);
    let dir = work.path().to_path_buf();
    match Rank::new(&labeller, partitions, reach(game), dir, binding, pool) {
        Ok(rank) => worker::serve(&mut Some(rank), link),
        Err(error) => {
            worker::fail(link, &error);
            Err(error)
        }
    }
}
