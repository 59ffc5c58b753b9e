//! Building a table: the use case that joins the labeller ([`crate::label`]) to the table
//! writer ([`crate::table`]), which know nothing of each other.
//!
//! [`TableJob`] is what `sicher table` runs (plan, announce, check memory, label with a
//! work directory to resume from, write, clean up); the `write_*` functions write labels
//! already in hand. A compressed outcome table of misère play over a `--total` domain is
//! written against a misère quotient learned from its small positions
//! ([`learned_prediction`]), which needs the labeller too; the writer chooses the exact
//! predictions itself.
//!
//! # Files
//!
//! - `partizan.rs` (in `build/`): partizan tables ([`PartizanTable`]), labelled alone
//!   or shared between the ranks of a job.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::atomic_file::Replace;
use crate::domain::{Domain, Ranker};
use crate::error::{Error, Result};
use crate::game::{Convention, Game};
use crate::label::cluster::{self, Link};
use crate::label::{
    self, Derivation, Labelled, Labels, Packer, Plan, Remotenesses, Resumed, Strategy, WorkDir,
};
use crate::table::{self, BodyKind, Header, Prediction, Provenance, Storage, TableWriter};
use crate::theory::quotient::learn;
use crate::value::Outcome;

mod partizan;

pub use partizan::{build_partizan, write_partizan, PartizanBuilt, PartizanTable};

/// Most tokens of the domain a misère quotient is learned from.
const LEARN_TOTAL: u64 = 50;

/// Most remoteness values whose histogram the header keeps.
const HISTOGRAM_MAX: u32 = 4096;

/// The learned misère quotient a compressed outcome table of `game` over `domain` is
/// written against, or [`Prediction::None`] to let the writer choose an exact theory:
/// misère play of one-heap rules (other than Nim, whose rule is exact) over `--total`
/// domains of at least 3 tokens. The positions of at most min(T, 50) tokens are labelled
/// to learn it; a failure to label or to learn leaves the choice to the writer.
pub fn learned_prediction(game: &Game, domain: Domain) -> Prediction {
    let Domain::Total { total } = domain else {
        return Prediction::None;
    };
    let ruleset = &game.ruleset;
    if game.convention != Convention::Misere
        || !ruleset.moves_one_heap()
        || total < 3
        || ruleset.nim_values_are_sizes()
    {
        return Prediction::None;
    }
    let learn_total = total.min(LEARN_TOTAL);
    let Ok(ranker) = Ranker::new(Domain::Total { total: learn_total }) else {
        return Prediction::None;
    };
    let Ok(labels) = label::label(game, &ranker, Strategy::auto(ruleset), &|_| {}) else {
        return Prediction::None;
    };
    let mut safe = |heaps: &[u64]| labels.is_safe(ranker.rank_unchecked(heaps));
    learn::learn(ruleset, learn_total, total, &mut safe)
        .map_or(Prediction::None, Prediction::Quotient)
}

/// The header of an outcome table of `game` over `domain`, with the learned prediction
/// when the body is compressed.
fn outcome_header(
    game: &Game,
    domain: Domain,
    entries: u64,
    unsafe_count: u64,
    storage: Storage,
) -> Header {
    let mut header = Header::new(
        BodyKind::Outcomes { unsafe_count },
        game.ruleset.spec(),
        game.convention,
        domain,
        entries,
        1,
    );
    if storage == Storage::Compressed {
        header.prediction = learned_prediction(game, domain);
    }
    header
}

/// Writes the outcome labels of a domain as a compressed table.
pub fn write_outcomes(
    path: &Path,
    game: &Game,
    domain: Domain,
    labels: &Labels,
    replace: Replace,
) -> Result<Header> {
    write_outcomes_stored(path, game, domain, labels, Storage::Compressed, replace)
}

/// Writes the outcome labels of a domain as a table stored as `storage` says.
pub fn write_outcomes_stored(
    path: &Path,
    game: &Game,
    domain: Domain,
    labels: &Labels,
    storage: Storage,
    replace: Replace,
) -> Result<Header> {
    let header = outcome_header(
        game,
        domain,
        labels.entries(),
        labels.unsafe_count(),
        storage,
    );
    table::write_stored(path, header, labels.words(), storage, replace)
}

/// Starts writing the outcome labels of a domain as a table stored as `storage` says:
/// push the packed words in rank order, then finish (the file is the one
/// [`write_outcomes_stored`] writes from the same labels).
pub fn outcomes_writer(
    path: &Path,
    game: &Game,
    domain: Domain,
    storage: Storage,
    replace: Replace,
) -> Result<TableWriter> {
    let entries = Ranker::new(domain)?.count();
    let header = outcome_header(game, domain, entries, 0, storage);
    TableWriter::create(path, header, storage, replace)
}

/// Writes the remotenesses of a domain as a compressed table, at the fewest bits that
/// hold the largest.
pub fn write_remoteness(
    path: &Path,
    game: &Game,
    domain: Domain,
    remoteness: &Remotenesses,
    replace: Replace,
) -> Result<Header> {
    write_remoteness_stored(path, game, domain, remoteness, Storage::Compressed, replace)
}

/// Writes the remotenesses of a domain as a table stored as `storage` says.
pub fn write_remoteness_stored(
    path: &Path,
    game: &Game,
    domain: Domain,
    remoteness: &Remotenesses,
    storage: Storage,
    replace: Replace,
) -> Result<Header> {
    let rmax = remoteness.rmax();
    let entries = remoteness.entries();
    let histogram = (rmax < HISTOGRAM_MAX).then(|| remoteness.histogram());
    let header = remoteness_header(game, domain, entries, rmax, histogram);
    let words = table::pack(
        entries,
        header.width,
        remoteness.values().iter().map(|&r| u64::from(r)),
    )?;
    table::write_stored(path, header, &words, storage, replace)
}

/// The header of a remoteness table whose largest remoteness is `rmax`, with the
/// histogram when `rmax` is small enough to keep one.
fn remoteness_header(
    game: &Game,
    domain: Domain,
    entries: u64,
    rmax: u32,
    histogram: Option<Vec<u64>>,
) -> Header {
    let mut header = Header::new(
        BodyKind::Remoteness { rmax },
        game.ruleset.spec(),
        game.convention,
        domain,
        entries,
        table::bits_for(u64::from(rmax)),
    );
    header.histogram = histogram.filter(|_| rmax < HISTOGRAM_MAX);
    header.provenance = Provenance::Retrograde;
    header
}

/// What a first pass over streamed remotenesses finds: the table's width follows from
/// the largest.
struct RemotenessSummary {
    entries: u64,
    rmax: u32,
    /// Positions of each remoteness while all are below [`HISTOGRAM_MAX`].
    histogram: Option<Vec<u64>>,
    unsafe_count: u64,
}

impl RemotenessSummary {
    fn new() -> Self {
        RemotenessSummary {
            entries: 0,
            rmax: 0,
            histogram: Some(Vec::new()),
            unsafe_count: 0,
        }
    }

    fn add(&mut self, cells: &[u32], convention: Convention) {
        for &r in cells {
            self.rmax = self.rmax.max(r);
            if r >= HISTOGRAM_MAX {
                self.histogram = None;
            }
            if let Some(counts) = &mut self.histogram {
                if counts.len() <= r as usize {
                    counts.resize(r as usize + 1, 0);
                }
                counts[r as usize] += 1;
            }
            self.unsafe_count += u64::from(!Outcome::from_remoteness(r, convention).is_win());
        }
        self.entries += cells.len() as u64;
    }
}

/// Writes the remotenesses a streaming plan left in its work directory: one pass finds
/// the largest (the width) and the histogram, a second packs them into the writer, a run
/// at a time; the file is the one [`write_remoteness_stored`] writes from the same
/// remotenesses. Returns the header and the unsafe positions.
fn write_remoteness_streamed(
    request: &TableRequest,
    plan: &Plan,
    provenance: Provenance,
) -> Result<(Header, u64)> {
    let (game, domain) = (&request.game, request.domain);
    let mut summary = RemotenessSummary::new();
    plan.stream_remoteness(|cells| {
        summary.add(cells, game.convention);
        Ok(())
    })?;
    let entries = plan.ranker().count();
    if summary.entries != entries {
        return Err(Error::internal(format!(
            "{} remotenesses streamed for {entries} positions",
            summary.entries
        )));
    }
    let header = remoteness_header(game, domain, entries, summary.rmax, summary.histogram);
    let width = u32::from(header.width);
    let mut writer = TableWriter::create(&request.path, header, request.storage, request.replace)?;
    writer.set_provenance(provenance);
    let mut packer = Packer::default();
    let mut words = Vec::with_capacity(label::STREAM_WORDS);
    plan.stream_remoteness(|cells| {
        for &r in cells {
            words.extend(packer.push(u64::from(r), width));
        }
        writer.push(&words)?;
        words.clear();
        Ok(())
    })?;
    writer.push(&packer.finish().into_iter().collect::<Vec<_>>())?;
    Ok((writer.finish()?, summary.unsafe_count))
}

/// How labels were found, as a table header records it.
pub fn provenance(derivation: Derivation) -> Provenance {
    match derivation {
        Derivation::Retrograde => Provenance::Retrograde,
        Derivation::Words => Provenance::Words,
        Derivation::Period(period) => Provenance::Period(period),
        Derivation::NimValues => Provenance::NimValues,
    }
}

/// What to build: a table of every position of a domain.
#[derive(Clone, Debug)]
pub struct TableRequest {
    /// The game and convention.
    pub game: Game,
    /// The positions to label.
    pub domain: Domain,
    /// Where the table goes (its work directory goes beside it, `FILE.work`).
    pub path: PathBuf,
    /// Whether an existing file may be replaced.
    pub replace: Replace,
    /// The labelling strategy; `None`: the one measured fastest for the ruleset.
    pub strategy: Option<Strategy>,
    /// Worker threads; `None`: one per core. The table is the same for any count.
    pub threads: Option<usize>,
    /// Store each position's remoteness, not only its outcome.
    pub remoteness: bool,
    /// Take the shortcuts theory allows (proved periods of lone heaps, nim-values).
    pub shortcuts: bool,
    /// Compressed blocks or a flat body.
    pub storage: Storage,
    /// Throw away an earlier run's work instead of resuming it.
    pub restart: bool,
    /// Labelling time between checkpoints; `None`: about a tenth of the time.
    pub checkpoint_every: Option<Duration>,
    /// Also run the plain labeller and check it agrees (outcomes stay in memory then).
    pub compare_plain: bool,
    /// Positions per chunk when the labelling is shared between ranks
    /// ([`TableJob::prepare_ranked`]); `None`: a few chunks per rank in each tier.
    pub chunk_positions: Option<u64>,
}

impl TableRequest {
    /// A request with the defaults: compressed, shortcuts taken, outcomes only, default
    /// strategy and threads, nothing replaced, resuming any earlier work.
    pub fn new(game: Game, domain: Domain, path: impl Into<PathBuf>) -> Self {
        TableRequest {
            game,
            domain,
            path: path.into(),
            replace: Replace::Never,
            strategy: None,
            threads: None,
            remoteness: false,
            shortcuts: true,
            storage: Storage::Compressed,
            restart: false,
            checkpoint_every: None,
            compare_plain: false,
            chunk_positions: None,
        }
    }

    /// The labelling this request asks for, shared between `ranks` ranks when given.
    fn plan(&self, ranks: Option<usize>) -> Result<Plan> {
        let mut plan = Plan::new(&self.game, self.domain, self.strategy, self.threads)?
            .with_work_dir(
                WorkDir::beside(&self.path)
                    .for_output_format(table::FORMAT_VERSION)
                    .restart(self.restart)
                    .checkpoint_every(self.checkpoint_every),
            );
        if self.remoteness {
            plan = plan.with_remoteness();
        }
        if !self.shortcuts {
            plan = plan.without_shortcuts();
        }
        // Labels evicted to the work directory go from there to the table writer, unless
        // they are to be compared with the plain labeller's.
        if !self.compare_plain {
            plan = plan.streaming(table::WRITER_BYTES).streaming_remoteness();
        }
        if let Some(ranks) = ranks {
            plan = plan.across_ranks(ranks, self.chunk_positions);
        }
        Ok(plan)
    }

    /// Refuses an existing output that may not be replaced (before labelling; the final
    /// link checks again).
    fn check_output(&self) -> Result<()> {
        // A directory is refused even where replacing is allowed.
        crate::atomic_file::check_destination(&self.path, self.replace)
    }
}

/// A table being built: planned and its work directory opened, ready to announce, to
/// check against the memory available, and to run.
pub struct TableJob {
    request: TableRequest,
    plan: Plan,
    resumed: Option<Resumed>,
}

/// What building a table found and wrote.
#[derive(Clone, Debug)]
pub struct TableBuilt {
    /// The header written.
    pub header: Header,
    /// Unsafe positions.
    pub unsafe_count: u64,
    /// The largest remoteness, for remoteness tables.
    pub rmax: Option<u32>,
    /// How the labels were found.
    pub derivation: Derivation,
    /// Seconds spent labelling.
    pub label_seconds: f64,
    /// Positions an earlier, interrupted run had labelled.
    pub resumed_positions: u64,
    /// The plain labeller's seconds, when it was compared.
    pub plain_seconds: Option<f64>,
    /// Seconds in all.
    pub seconds: f64,
    /// Why the work directory was left in place after the table was written (it holds
    /// files sicher did not write, say), if it was.
    pub work_left: Option<String>,
}

impl TableJob {
    /// Plans the labelling and opens its work directory: an existing output (unless it
    /// may be replaced) and work of another game, domain or format are refused here,
    /// before anything is labelled.
    pub fn prepare(request: TableRequest) -> Result<Self> {
        request.check_output()?;
        let plan = request.plan(None)?;
        let resumed = plan.prepare()?;
        Ok(TableJob {
            request,
            plan,
            resumed,
        })
    }

    /// Rank 0 of a job sharing the labelling between the ranks of `link` (each running
    /// [`serve_table`] with the same request): plans, makes sure every rank was started
    /// for the same table, then opens the work directory, refusing what
    /// [`TableJob::prepare`] refuses. After a failure here or later, end the job with
    /// [`cluster::release`]`(link, false)`: the workers wait for rank 0's word.
    pub fn prepare_ranked(request: TableRequest, link: &dyn Link) -> Result<Self> {
        request.check_output()?;
        let plan = request.plan(Some(link.ranks()))?;
        plan.agree(link)?;
        let resumed = plan.prepare()?;
        Ok(TableJob {
            request,
            plan,
            resumed,
        })
    }

    /// The plan: positions, memory, strategy, threads.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Where the table goes.
    pub fn path(&self) -> &Path {
        &self.request.path
    }

    /// What an earlier, interrupted run left to resume from.
    pub fn resumed(&self) -> Option<&Resumed> {
        self.resumed.as_ref()
    }

    /// Labels (calling `progress` with counts of positions labelled), writes the table
    /// and removes the work directory.
    pub fn run(self, progress: &(dyn Fn(u64) + Sync)) -> Result<TableBuilt> {
        let started = Instant::now();
        let labelled = self.plan.run(progress)?;
        self.finish(labelled, started)
    }

    /// Rank 0 of a job ([`TableJob::prepare_ranked`]): labels, sharing the tiers out
    /// between the ranks of `link` (`progress` hears every rank's positions), writes the
    /// table from the work directory, removes the work directory, and tells every rank
    /// the job is done. On failure the caller ends the job ([`cluster::release`]).
    pub fn run_ranked(
        self,
        link: &dyn Link,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<TableBuilt> {
        let started = Instant::now();
        let labelled = self.plan.run_ranked(link, progress)?;
        let built = self.finish(labelled, started)?;
        cluster::release(link, true)?;
        Ok(built)
    }

    /// Compares with the plain labeller when asked, writes the table and removes the
    /// work directory.
    fn finish(self, labelled: Labelled, started: Instant) -> Result<TableBuilt> {
        let TableJob { request, plan, .. } = self;
        let plain_seconds = if request.compare_plain {
            Some(compare_plain(&request, &plan, &labelled)?)
        } else {
            None
        };
        let (header, unsafe_count) = write_labelled(&request, &plan, &labelled)?;
        // The table is written: a directory that cannot go (it holds someone's file)
        // is left in place and said so, never a failure of the run.
        let work_left = plan.discard_work().err().map(|why| why.to_string());
        Ok(TableBuilt {
            work_left,
            unsafe_count,
            rmax: match header.kind {
                BodyKind::Remoteness { rmax } => Some(rmax),
                _ => None,
            },
            derivation: labelled.derivation,
            label_seconds: labelled.seconds,
            resumed_positions: labelled.resumed,
            plain_seconds,
            seconds: started.elapsed().as_secs_f64(),
            header,
        })
    }
}

/// A worker of a job building `request`'s table (any rank but 0, rank 0 running
/// [`TableJob::prepare_ranked`] and [`TableJob::run_ranked`]): makes sure it was started
/// for the same table as rank 0, then labels the chunks rank 0 hands it until rank 0
/// ends the job. A failure is sent to rank 0 too, which ends the job and reports it; a
/// worker stopped by rank 0 ends with [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted).
pub fn serve_table(request: &TableRequest, link: &dyn Link) -> Result<()> {
    let plan = match request.plan(Some(link.ranks())) {
        Ok(plan) => plan,
        Err(error) => {
            cluster::refuse(link, &error);
            return Err(error);
        }
    };
    plan.agree(link)?;
    plan.serve(link)
}

/// Writes the table of labels in hand or left in the plan's work directory (streamed
/// from there); returns the header and the unsafe positions.
fn write_labelled(
    request: &TableRequest,
    plan: &Plan,
    labelled: &Labelled,
) -> Result<(Header, u64)> {
    let (game, domain, path) = (&request.game, request.domain, &request.path);
    match (&labelled.remoteness, &labelled.labels) {
        (Some(remoteness), labels) => {
            let header = write_remoteness_stored(
                path,
                game,
                domain,
                remoteness,
                request.storage,
                request.replace,
            )?;
            let unsafe_count = match labels {
                Some(labels) => labels.unsafe_count(),
                None => remoteness.outcomes()?.unsafe_count(),
            };
            Ok((header, unsafe_count))
        }
        (None, None) if plan.labels_remoteness() => {
            write_remoteness_streamed(request, plan, provenance(labelled.derivation))
        }
        (None, labels) => {
            let mut writer = outcomes_writer(path, game, domain, request.storage, request.replace)?;
            writer.set_provenance(provenance(labelled.derivation));
            match labels {
                Some(labels) => writer.push(labels.words())?,
                None => plan.stream_outcomes(|words| writer.push(words))?,
            }
            let header = writer.finish()?;
            let unsafe_count = match (labels, header.kind) {
                (Some(labels), _) => labels.unsafe_count(),
                (None, BodyKind::Outcomes { unsafe_count }) => unsafe_count,
                (None, _) => 0,
            };
            Ok((header, unsafe_count))
        }
    }
}

/// Labels the domain again with the plain labeller and checks the labels agree;
/// returns its seconds.
fn compare_plain(request: &TableRequest, plan: &Plan, labelled: &Labelled) -> Result<f64> {
    let mut plain = Plan::new(
        &request.game,
        request.domain,
        Some(Strategy::Plain),
        request.threads,
    )?;
    if request.remoteness {
        plain = plain.with_remoteness();
    }
    let baseline = plain.run(&|_| {})?;
    if baseline.labels != labelled.labels || baseline.remoteness != labelled.remoteness {
        return Err(Error::disagreement(format!(
            "the {} and plain labellers disagree on {}",
            plan.strategy(),
            request.domain.flags()
        )));
    }
    Ok(baseline.seconds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::resolve;

    #[test]
    fn tables_built_by_ranks_are_the_tables_of_one_process() {
        use crate::label::cluster::local_links;
        let cases = [
            (
                "kayles",
                Convention::Misere,
                Domain::Total { total: 26 },
                false,
            ),
            (
                "kayles",
                Convention::Normal,
                Domain::Total { total: 20 },
                true,
            ),
            (
                "nim",
                Convention::Misere,
                Domain::Heaps { heaps: 3, max: 10 },
                false,
            ),
        ];
        for (spec, convention, domain, remoteness) in cases {
            let dir = tempfile::tempdir().unwrap();
            let game = resolve(spec).unwrap().with_convention(convention);
            let mut request = TableRequest::new(game, domain, dir.path().join("one.table"));
            request.remoteness = remoteness;
            request.threads = Some(1);
            TableJob::prepare(request.clone())
                .unwrap()
                .run(&|_| {})
                .unwrap();
            let one = std::fs::read(&request.path).unwrap();
            for ranks in [2, 3] {
                let mut shared = request.clone();
                shared.path = dir.path().join(format!("shared{ranks}.table"));
                shared.chunk_positions = Some(41);
                let links = local_links(ranks);
                std::thread::scope(|scope| {
                    let mut links = links.into_iter();
                    let zero = links.next().unwrap();
                    for link in links {
                        let request = shared.clone();
                        scope.spawn(move || serve_table(&request, &link).unwrap());
                    }
                    let job = TableJob::prepare_ranked(shared.clone(), &zero).unwrap();
                    let total = matches!(domain, Domain::Total { .. });
                    assert_eq!(job.plan().shared(), total, "{domain}");
                    job.run_ranked(&zero, &|_| {}).unwrap();
                });
                let table = std::fs::read(&shared.path).unwrap();
                assert!(one == table, "{spec} {convention} {domain}, {ranks} ranks");
            }
        }
    }

    #[test]
    fn the_learned_quotient_predicts_misere_kayles_well() {
        let game = resolve("kayles")
            .unwrap()
            .with_convention(Convention::Misere);
        let domain = Domain::Total { total: 40 };
        let prediction = learned_prediction(&game, domain);
        assert!(matches!(prediction, Prediction::Quotient(_)));
        let (wrong, count) = crate::table::mispredicted(&game, domain, &prediction);
        assert!(wrong * 100 < count, "{wrong} of {count}");
    }
}
