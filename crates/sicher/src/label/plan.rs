//! A labelling about to run: the ranked domain, the strategy, the threads, the work
//! directory and the memory it will need, so that callers can announce it and refuse what
//! will not fit before any of it is allocated.

use std::sync::atomic::{AtomicU32, AtomicU64};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use rayon::ThreadPool;

use super::chunk::{self, ChunkLabeller, ForwardChunks, PullRemoteness};
use super::cluster::manager::{manage, Chunking};
use super::cluster::rank::Rank;
use super::cluster::{self, worker, Link, Terms};
use super::drive::{widest, window_bytes, Reach};
use super::tiers::Tiers;
use super::window::Atom;
use super::work::{Identity, Resumed, Store, WorkDir, IO_BYTES, STREAM_WORDS, WORK_FORMAT};
use super::{
    backward, check_strategy, forward, label_remoteness_narrow, label_remoteness_tiers,
    label_tiers, nim_values, one_heap, plain, remoteness, Derivation, Labels, Remotenesses,
    Strategy,
};
use crate::domain::{Domain, Ranker};
use crate::error::{Error, Hint, Result};
use crate::game::Game;

/// Bytes that stream outcomes from the work directory: a run of words handed on at a
/// time (the consumer's own buffers are added, see [`Plan::streaming`]).
const STREAM_BYTES: u64 = STREAM_WORDS as u64 * 8;

/// Everything decided before labelling starts.
pub struct Plan {
    game: Game,
    ranker: Ranker,
    strategy: Strategy,
    threads: Option<usize>,
    remoteness: bool,
    shortcuts: bool,
    /// Leave outcomes finished in the work directory there (see [`Plan::streaming`]).
    /// Streaming out of the work directory, to a consumer holding this many bytes.
    stream: Option<u64>,
    /// Leave remotenesses in the work directory too (see [`Plan::streaming_remoteness`]).
    stream_remoteness: bool,
    work: Option<WorkDir>,
    /// The open work directory, once [`Plan::prepare`] or [`Plan::run`] opened it.
    store: Mutex<Option<Store>>,
    /// Shared between the ranks of a job (see [`Plan::across_ranks`]).
    ranks: Option<Ranks>,
}

/// How a labelling is shared between ranks.
#[derive(Clone, Copy, Debug)]
struct Ranks {
    count: usize,
    /// Positions per chunk, when forced.
    chunk: Option<u64>,
}

/// A labelled domain with its timing.
pub struct Labelled {
    /// The outcomes, by rank; `None` when a streaming plan left them in the work
    /// directory ([`Plan::stream_outcomes`] reads them).
    pub labels: Option<Labels>,
    /// The remotenesses, by rank, when the plan asked for them; `None` when a plan
    /// streaming them left them in the work directory ([`Plan::stream_remoteness`]).
    pub remoteness: Option<Remotenesses>,
    /// How the labels were found.
    pub derivation: Derivation,
    /// Wall-clock seconds the labelling took (this run's share when resumed).
    pub seconds: f64,
    /// Positions an earlier, interrupted run had labelled (this run labelled the rest).
    pub resumed: u64,
}

impl Labelled {
    /// The outcomes held in memory (every plan that does not stream holds them).
    pub fn held(&self) -> Result<&Labels> {
        self.labels
            .as_ref()
            .ok_or_else(|| Error::internal("the outcomes were left in the work directory"))
    }
}

/// What [`Plan::run`] will do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    /// The single-threaded baseline.
    Plain,
    /// `--heaps 1` outcomes: the word labeller.
    OneHeap,
    /// Normal play of one-heap moves: nim-values.
    NimValues,
    /// Tier by tier, checkpointing into the work directory when there is one.
    Tiers,
    /// Tier by tier, each tier's chunks shared between the ranks of a job.
    Ranks,
}

impl Plan {
    /// Ranks the domain and picks the strategy (`None`: the one measured fastest for the
    /// ruleset); refuses domains and strategies the game does not allow.
    pub fn new(
        game: &Game,
        domain: Domain,
        strategy: Option<Strategy>,
        threads: Option<usize>,
    ) -> Result<Self> {
        domain.check_game(game)?;
        let ranker = Ranker::new(domain)?;
        let strategy = strategy.unwrap_or_else(|| Strategy::auto(&game.ruleset));
        check_strategy(game, strategy)?;
        Ok(Plan {
            game: game.clone(),
            ranker,
            strategy,
            threads,
            remoteness: false,
            shortcuts: true,
            stream: None,
            stream_remoteness: false,
            work: None,
            store: Mutex::new(None),
            ranks: None,
        })
    }

    /// Shares the labelling between the `ranks` ranks of a job (rank 0 manages; see
    /// [`super::cluster`]) when it goes tier by tier over a `--total` domain with a work
    /// directory; otherwise rank 0 labels alone. `chunk` forces the positions per chunk
    /// (tests: tiny chunks); by default each tier is cut into a few chunks per rank.
    /// Outcomes are labelled forward and remotenesses pulled from the children, whatever
    /// the strategy: a rank only writes its own chunk.
    pub fn across_ranks(mut self, ranks: usize, chunk: Option<u64>) -> Self {
        self.ranks = Some(Ranks {
            count: ranks.max(1),
            chunk,
        });
        self
    }

    /// True when the labelling is shared between ranks (not rank 0's alone).
    pub fn shared(&self) -> bool {
        self.method() == Method::Ranks
    }

    /// Labels with `threads` workers instead (`None`: one per core).
    pub fn with_threads(mut self, threads: Option<usize>) -> Self {
        self.threads = threads;
        self
    }

    /// Labels remotenesses (and the outcomes they imply) instead of outcomes alone.
    pub fn with_remoteness(mut self) -> Self {
        self.remoteness = true;
        self
    }

    /// Takes no shortcut from theory (proved periods of lone heaps, nim-values): every
    /// position is labelled from its moves (lone heaps still a word at a time).
    pub fn without_shortcuts(mut self) -> Self {
        self.shortcuts = false;
        self
    }

    /// Keeps finished tiers in `work` as they complete, and resumes from what is there:
    /// only the tiers that moves can reach stay in memory.
    pub fn with_work_dir(mut self, work: WorkDir) -> Self {
        self.work = Some(work);
        self
    }

    /// Leaves outcomes that were evicted to the work directory there instead of gathering
    /// the whole domain's in memory: [`Labelled::labels`] is then `None`, and
    /// [`Plan::stream_outcomes`] hands them on in order (to a table writer), so only the
    /// tiers that moves reach are ever held. `consumer_bytes` is what the consumer holds
    /// at its peak (a table writer's buffers), counted in [`Plan::bytes_needed`].
    pub fn streaming(mut self, consumer_bytes: u64) -> Self {
        self.stream = Some(consumer_bytes);
        self
    }

    /// With [`Plan::streaming`], leaves remotenesses evicted to the work directory there
    /// too: [`Labelled::remoteness`] and [`Labelled::labels`] are then `None`, and
    /// [`Plan::stream_remoteness`] hands them on in order (twice if need be: a table's
    /// width is known only once the largest is).
    pub fn streaming_remoteness(mut self) -> Self {
        self.stream_remoteness = true;
        self
    }

    /// True when the plan labels remotenesses.
    pub fn labels_remoteness(&self) -> bool {
        self.remoteness
    }

    /// The domain's ranker.
    pub fn ranker(&self) -> &Ranker {
        &self.ranker
    }

    /// The strategy that will label.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The labeller that will run, by name: remoteness tables have one of their own
    /// (unless the plain baseline is asked for), outcome tables the strategy's.
    pub fn labeller(&self) -> String {
        if self.method() == Method::Ranks {
            let kind = if self.remoteness {
                "pulled remoteness"
            } else {
                "forward"
            };
            return kind.into();
        }
        match (self.remoteness, self.strategy) {
            (true, strategy) if strategy != Strategy::Plain => "retrograde remoteness".into(),
            (_, strategy) => strategy.to_string(),
        }
    }

    /// Worker threads that will label.
    pub fn threads(&self) -> usize {
        self.threads.unwrap_or_else(rayon::current_num_threads)
    }

    fn method(&self) -> Method {
        let lone = matches!(&self.ranker, Ranker::Heaps(t) if t.heaps() == 1);
        if self.strategy == Strategy::Plain {
            return Method::Plain;
        } else if !self.remoteness && lone {
            return Method::OneHeap;
        } else if !self.remoteness && self.shortcuts && nim_values::applies(&self.game) {
            return Method::NimValues;
        }
        // Tier by tier: shared between ranks where tiers are rank ranges.
        let shareable = matches!(self.ranker, Ranker::Total(_)) && self.work.is_some();
        if self.ranks.is_some() && shareable {
            Method::Ranks
        } else {
            Method::Tiers
        }
    }

    /// The tiers the labelling goes by.
    fn tiers(&self) -> Tiers<'_> {
        let backward = !self.remoteness && self.strategy == Strategy::Backward;
        Tiers::of(&self.ranker, backward)
    }

    /// How far the tiers the labeller keeps reach, with a work directory to evict to.
    fn reach(&self) -> Reach {
        let whole = Reach {
            back: None,
            ahead: None,
        };
        if self.method() == Method::Ranks {
            return chunk::chunk_reach(&self.game);
        }
        match (&self.work, self.remoteness, self.strategy) {
            (None, _, _) => whole,
            (Some(_), true, _) => remoteness::Retrograde::reach(&self.game),
            (Some(_), false, Strategy::Backward) => backward::Backward::reach(&self.game),
            (Some(_), false, _) => forward::Forward::reach(&self.game),
        }
    }

    /// The most positions held in memory at once while labelling: the widest window of
    /// tiers (the whole domain without a work directory).
    pub fn positions_held(&self) -> u64 {
        let count = self.ranker.count();
        match self.method() {
            Method::Tiers | Method::Ranks => widest(self.tiers(), count, self.reach()).min(count),
            Method::Plain | Method::OneHeap | Method::NimValues => count,
        }
    }

    /// Bytes the labelling will hold at its peak: the labels of the tiers held, the
    /// tables built for the domain, and the whole domain's labels gathered at the end,
    /// or with [`Plan::streaming`] the buffers that stream them on instead. A labelling
    /// shared between ranks needs this on every rank (the streaming at the end on rank 0
    /// only).
    pub fn bytes_needed(&self) -> u64 {
        let count = self.ranker.count();
        let tables = self.ranker.table_bytes();
        let bits = count.div_ceil(64) * 8;
        let tiers = self.tiers();
        let io = if self.work.is_some() { IO_BYTES } else { 0 };
        match self.method() {
            Method::Plain if self.remoteness => tables + count * 4 + bits,
            Method::Plain => tables + count + bits,
            Method::OneHeap => tables + one_heap::estimate_bytes(count),
            Method::NimValues => tables + bits + nim_values::table_bytes(&self.ranker),
            Method::Ranks => {
                let labeller = remoteness::Retrograde::table_bytes(&self.game, &self.ranker);
                let (window, gathered) = if self.remoteness {
                    let window = window_bytes::<AtomicU32>(tiers, count, self.reach());
                    (window, count * 4 + bits)
                } else {
                    (window_bytes::<AtomicU64>(tiers, count, self.reach()), bits)
                };
                let end = match self.stream {
                    Some(consumer) => STREAM_BYTES * 3 / 2 + consumer,
                    None => gathered,
                };
                tables + labeller + io + window.max(end)
            }
            Method::Tiers if self.remoteness => {
                let window = window_bytes::<AtomicU32>(tiers, count, self.reach());
                let labeller = remoteness::Retrograde::table_bytes(&self.game, &self.ranker);
                match self.stream {
                    // A run of remotenesses and of the words packed from them at a time.
                    Some(consumer) if self.stream_remoteness && self.positions_held() < count => {
                        tables + labeller + io + window.max(STREAM_BYTES * 3 / 2 + consumer)
                    }
                    // The remotenesses gathered (in place of a whole-domain window), then
                    // the outcomes they imply.
                    _ => tables + labeller + io + window.max(count * 4) + bits,
                }
            }
            Method::Tiers => {
                let window = window_bytes::<AtomicU64>(tiers, count, self.reach());
                let labeller = match self.strategy {
                    Strategy::Forward => forward::Forward::table_bytes(&self.game, &self.ranker),
                    Strategy::Backward | Strategy::Plain => 0,
                };
                let end = match self.stream {
                    Some(consumer) if self.positions_held() < count => STREAM_BYTES + consumer,
                    _ => bits,
                };
                tables + labeller + io + window.max(end)
            }
        }
    }

    /// Refuses a labelling that needs more memory than the system has available.
    pub fn check_memory(&self) -> Result<()> {
        crate::memory::check_fits(
            &format!("labelling {}", self.ranker.domain().flags()),
            u128::from(self.bytes_needed()),
            Hint::ForceMemory,
        )
    }

    /// What the labels are called in the work directory.
    fn identity(&self) -> Identity {
        // Ranks share chunks labelled forward (outcomes) or pulled (remotenesses).
        let strategy = match (self.method(), self.remoteness) {
            (Method::Ranks, false) => "forward".into(),
            (Method::Ranks, true) => "pull".into(),
            _ => self.strategy.to_string(),
        };
        Identity {
            game: self.game.ruleset.spec(),
            convention: self.game.convention.to_string(),
            domain: self.ranker.domain().flags(),
            kind: if self.remoteness {
                "remoteness".into()
            } else {
                "outcomes".into()
            },
            strategy,
            entries: self.ranker.count(),
        }
    }

    /// Bits per position in the work directory's files.
    fn width(&self) -> u32 {
        if self.remoteness {
            32
        } else {
            1
        }
    }

    /// What every rank of a job must agree on.
    pub(crate) fn terms(&self) -> Terms {
        Terms {
            sicher: env!("CARGO_PKG_VERSION").to_string(),
            work_format: WORK_FORMAT,
            table_format: self.work.as_ref().map_or(0, |w| w.output_format()),
            identity: self.identity(),
            shared: self.shared(),
            shortcuts: self.shortcuts,
            work_dir: self
                .work
                .as_ref()
                .map_or(String::new(), |w| w.path().display().to_string()),
            chunk: self.ranks.and_then(|r| r.chunk),
            ranks: self.ranks.map_or(1, |r| r.count),
        }
    }

    /// Opens the work directory (when the plan labels tier by tier into one), refusing
    /// one that holds other work; says how far an earlier run got.
    pub fn prepare(&self) -> Result<Option<Resumed>> {
        let mut store = self.store()?;
        self.open(&mut store)?;
        if !matches!(self.method(), Method::Tiers | Method::Ranks) {
            return Ok(None);
        }
        Ok(store.as_ref().and_then(|s| s.resumed(self.tiers().count())))
    }

    fn store(&self) -> Result<MutexGuard<'_, Option<Store>>> {
        self.store
            .lock()
            .map_err(|_| Error::internal("the work directory's lock was poisoned"))
    }

    fn open(&self, store: &mut Option<Store>) -> Result<()> {
        let Some(work) = &self.work else {
            return Ok(());
        };
        // Labellers that do not go tier by tier leave no work behind, but a work
        // directory already there is checked all the same: other work is refused, not
        // removed when the table is written.
        let tiered = matches!(self.method(), Method::Tiers | Method::Ranks);
        if store.is_none() && (tiered || work.path().exists()) {
            *store = Some(Store::open(
                work,
                self.identity(),
                self.width(),
                self.tiers(),
            )?);
        }
        Ok(())
    }

    /// Removes the work directory (call once the table is written).
    pub fn discard_work(&self) -> Result<()> {
        self.store()?.take();
        match &self.work {
            Some(work) => work.remove(),
            None => Ok(()),
        }
    }

    /// Hands the outcomes a streaming plan left in the work directory to `push` in rank
    /// order, a run of packed words at a time (never the whole domain at once).
    pub fn stream_outcomes(&self, push: impl FnMut(&[u64]) -> Result<()>) -> Result<()> {
        let store = self.store()?;
        match store.as_ref() {
            Some(store) if !self.remoteness => store.stream_bits(self.ranker.count(), push),
            _ => Err(Error::internal(
                "no outcomes left in a work directory to stream",
            )),
        }
    }

    /// Hands the remotenesses a plan streaming them left in the work directory to
    /// `push` in rank order, a run at a time (never the whole domain at once).
    pub fn stream_remoteness(&self, push: impl FnMut(&[u32]) -> Result<()>) -> Result<()> {
        let store = self.store()?;
        match store.as_ref() {
            Some(store) if self.remoteness => store.stream_cells(self.ranker.count(), push),
            _ => Err(Error::internal(
                "no remotenesses left in a work directory to stream",
            )),
        }
    }

    /// The thread pool labelling runs in, when a thread count was given.
    fn pool(&self) -> Result<Option<ThreadPool>> {
        self.threads
            .map(|threads| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| Error::resource(format!("cannot start {threads} threads: {e}")))
            })
            .transpose()
    }

    /// Makes sure every rank of the job behind `link` was started for the same labelling
    /// (version, formats, game, domain, kind, work directory, ranks): call it on every
    /// rank before anything else. Rank 0 gets the error naming what differs; workers end
    /// with [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted).
    pub fn agree(&self, link: &dyn Link) -> Result<()> {
        cluster::agree(link, &self.terms())
    }

    /// Rank 0 of a job: labels every position, sharing the tiers out between the ranks of
    /// `link` when the plan is [`shared`](Plan::shared) (else alone, as [`Plan::run`]
    /// does, the workers waiting); `progress` hears every rank's finished positions.
    /// The labels stay in the work directory for [`Plan::stream_outcomes`] or
    /// [`Plan::stream_remoteness`] (gathered unless the plan streams). End the job with
    /// [`cluster::release`] once they are written.
    pub fn run_ranked(&self, link: &dyn Link, progress: &(dyn Fn(u64) + Sync)) -> Result<Labelled> {
        if !self.shared() {
            return self.run(progress);
        }
        let started = Instant::now();
        let mut guard = self.store()?;
        self.open(&mut guard)?;
        let store = guard
            .as_mut()
            .ok_or_else(|| Error::internal("a shared labelling without a work directory"))?;
        let resumed = store.positions_done();
        let pool = self.pool()?;
        let chunking = Chunking {
            ranks: link.ranks(),
            forced: self.ranks.and_then(|r| r.chunk),
            splittable: chunk::splittable(&self.game),
        };
        let (game, ranker) = (&self.game, &self.ranker);
        let Ranker::Total(partitions) = ranker else {
            return Err(Error::internal("a shared labelling of a --heaps domain"));
        };
        let (dir, binding, reach) = (store.dir().to_path_buf(), store.binding(), self.reach());
        let no_labeller = || Error::internal("a shared labelling of a --heaps domain");
        if self.remoteness {
            let labeller = PullRemoteness::new(game, ranker).ok_or_else(no_labeller)?;
            let mut rank = Rank::new(&labeller, partitions, reach, dir, binding, pool.as_ref())?;
            manage(&mut rank, store, link, chunking, progress)?;
        } else {
            let labeller = ForwardChunks::new(game, ranker).ok_or_else(no_labeller)?;
            let mut rank = Rank::new(&labeller, partitions, reach, dir, binding, pool.as_ref())?;
            manage(&mut rank, store, link, chunking, progress)?;
        }
        let count = ranker.count();
        let (labels, remoteness) = match (self.stream, self.remoteness) {
            (Some(_), _) => (None, None),
            (None, false) => (
                Some(Labels::from_words(store.assemble_bits(count)?, count)),
                None,
            ),
            (None, true) => {
                let remoteness = Remotenesses::new(store.assemble_cells(count)?, game.convention);
                (Some(remoteness.outcomes()?), Some(remoteness))
            }
        };
        Ok(Labelled {
            labels,
            remoteness,
            derivation: Derivation::Retrograde,
            seconds: started.elapsed().as_secs_f64(),
            resumed,
        })
    }

    /// A worker of a job (any rank but 0): labels the chunks rank 0 hands it until rank 0
    /// ends the job, `Ok` once the table is written; when the plan is not shared it only
    /// waits. A failure here is also sent to rank 0, which stops the job; a worker
    /// stopped by rank 0 ends with [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted).
    pub fn serve(&self, link: &dyn Link) -> Result<()> {
        fn serve_with<A: Atom>(
            labeller: Result<&dyn ChunkLabeller<A>>,
            plan: &Plan,
            partitions: &crate::domain::Partitions,
            link: &dyn Link,
        ) -> Result<()> {
            let pool = plan.pool();
            let rank = labeller.and_then(|labeller| {
                let work = plan.work.as_ref().ok_or_else(|| {
                    Error::internal("a shared labelling without a work directory")
                })?;
                let binding = plan.identity().binding(plan.width());
                let pool = pool.as_ref().map_err(|e| Error::resource(e.message()))?;
                Rank::new(
                    labeller,
                    partitions,
                    plan.reach(),
                    work.path().to_path_buf(),
                    binding,
                    pool.as_ref(),
                )
            });
            match rank {
                Ok(rank) => worker::serve(&mut Some(rank), link),
                Err(error) => {
                    worker::fail(link, &error);
                    Err(error)
                }
            }
        }
        let (game, ranker) = (&self.game, &self.ranker);
        let partitions = match ranker {
            Ranker::Total(partitions) if self.shared() => partitions,
            _ => return worker::serve::<AtomicU64>(&mut None, link),
        };
        let missing = || Error::internal("a shared labelling of a --heaps domain");
        if self.remoteness {
            let labeller = PullRemoteness::new(game, ranker);
            let labeller = labeller
                .as_ref()
                .map(|l| l as &dyn ChunkLabeller<AtomicU32>)
                .ok_or_else(missing);
            serve_with(labeller, self, partitions, link)
        } else {
            let labeller = ForwardChunks::new(game, ranker);
            let labeller = labeller
                .as_ref()
                .map(|l| l as &dyn ChunkLabeller<AtomicU64>)
                .ok_or_else(missing);
            serve_with(labeller, self, partitions, link)
        }
    }

    /// Labels every position's remoteness into a byte each, by rank, where the plan
    /// labels remotenesses tier by tier in memory (no work directory) and every one fits:
    /// a quarter of [`Plan::run`]'s memory for the labels, and no outcome bits. `None`
    /// where the plan is to be [`Plan::run`] instead.
    pub fn run_narrow_remoteness(&self) -> Result<Option<Vec<u8>>> {
        if !self.remoteness || self.work.is_some() || self.method() != Method::Tiers {
            return Ok(None);
        }
        let work = || label_remoteness_narrow(&self.game, &self.ranker);
        match self.pool()? {
            Some(pool) => pool.install(work),
            None => work(),
        }
    }

    /// Labels every position; `progress` hears how many positions each step finished
    /// (first, when resuming, how many an earlier run finished).
    pub fn run(&self, progress: &(dyn Fn(u64) + Sync)) -> Result<Labelled> {
        let started = Instant::now();
        let method = self.method();
        let mut guard = self.store()?;
        self.open(&mut guard)?;
        let store = &mut *guard;
        let resumed = match method {
            Method::Tiers | Method::Ranks => store.as_ref().map_or(0, |s| s.positions_done()),
            Method::Plain | Method::OneHeap | Method::NimValues => 0,
        };
        let (game, ranker) = (&self.game, &self.ranker);
        let mut work = || -> Result<(Option<Labels>, Option<Remotenesses>, Derivation)> {
            match method {
                Method::Plain if self.remoteness => {
                    let remoteness = plain::label_remoteness(game, ranker, progress)?;
                    Ok((
                        Some(remoteness.outcomes()?),
                        Some(remoteness),
                        Derivation::Retrograde,
                    ))
                }
                Method::Plain => Ok((
                    Some(plain::label(game, ranker, progress)?),
                    None,
                    Derivation::Retrograde,
                )),
                Method::OneHeap => {
                    let max = match ranker {
                        Ranker::Heaps(t) => t.max(),
                        Ranker::Total(p) => p.total(),
                    };
                    let (labels, how) = one_heap::label(game, max, self.shortcuts, progress)?;
                    Ok((Some(labels), None, how))
                }
                Method::NimValues => Ok((
                    Some(nim_values::label(game, ranker, progress)?),
                    None,
                    Derivation::NimValues,
                )),
                Method::Tiers if self.remoteness => {
                    let gather = self.stream.is_none() || !self.stream_remoteness;
                    let remoteness =
                        label_remoteness_tiers(game, ranker, store.as_mut(), gather, progress)?;
                    let outcomes = remoteness.as_ref().map(|r| r.outcomes()).transpose()?;
                    Ok((outcomes, remoteness, Derivation::Retrograde))
                }
                // A shared plan runs through `run_ranked`, which has the link.
                Method::Ranks => Err(Error::internal(
                    "a labelling shared between ranks run without its link",
                )),
                Method::Tiers => Ok((
                    label_tiers(
                        game,
                        ranker,
                        self.strategy,
                        store.as_mut(),
                        self.stream.is_none(),
                        progress,
                    )?,
                    None,
                    Derivation::Retrograde,
                )),
            }
        };
        let (labels, remoteness, derivation) = match self.pool()? {
            Some(pool) => pool.install(work)?,
            None => work()?,
        };
        Ok(Labelled {
            labels,
            remoteness,
            derivation,
            seconds: started.elapsed().as_secs_f64(),
            resumed,
        })
    }
}
