//! Building a table: the use case that joins the labeller ([`crate::label`]) to the table
//! writer ([`crate::table`]), which know nothing of each other.
//!
//! [`TableJob`] is what `sicher table` runs (plan, announce, check memory, label with a
//! work directory to resume from, write, clean up); the `write_*` functions write labels
//! already in hand. A compressed outcome table of misère play over a `--total` domain is
//! written against a misère quotient learned from its small positions
//! ([`learned_prediction`]), which needs the labeller too; the writer chooses the exact
//! predictions itself.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::atomic_file::Replace;
use crate::domain::{Domain, Ranker};
use crate::error::{Error, Result};
use crate::game::{Convention, Game};
use crate::label::{
    self, Derivation, Labelled, Labels, Plan, Remotenesses, Resumed, Strategy, WorkDir,
};
use crate::table::{self, BodyKind, Header, Prediction, Provenance, Storage, TableWriter};
use crate::theory::quotient::learn;

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
    let width = table::bits_for(u64::from(rmax));
    let entries = remoteness.entries();
    let words = table::pack(
        entries,
        width,
        remoteness.values().iter().map(|&r| u64::from(r)),
    )?;
    let mut header = Header::new(
        BodyKind::Remoteness { rmax },
        game.ruleset.spec(),
        game.convention,
        domain,
        entries,
        width,
    );
    header.histogram = (rmax < HISTOGRAM_MAX).then(|| remoteness.histogram());
    header.provenance = Provenance::Retrograde;
    table::write_stored(path, header, &words, storage, replace)
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
        }
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
}

impl TableJob {
    /// Plans the labelling and opens its work directory: an existing output (unless it
    /// may be replaced) and work of another game, domain or format are refused here,
    /// before anything is labelled.
    pub fn prepare(request: TableRequest) -> Result<Self> {
        // Refuse before labelling (a directory even with --force); the final link
        // checks again.
        crate::atomic_file::check_destination(&request.path, request.replace)?;
        let mut plan = Plan::new(
            &request.game,
            request.domain,
            request.strategy,
            request.threads,
        )?
        .with_work_dir(
            WorkDir::beside(&request.path)
                .for_output_format(table::FORMAT_VERSION)
                .restart(request.restart)
                .checkpoint_every(request.checkpoint_every),
        );
        if request.remoteness {
            plan = plan.with_remoteness();
        }
        if !request.shortcuts {
            plan = plan.without_shortcuts();
        }
        // Outcomes evicted to the work directory go from there to the table writer,
        // unless they are to be compared with the plain labeller's.
        if !request.compare_plain {
            plan = plan.streaming(table::WRITER_BYTES);
        }
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

    /// What an earlier, interrupted run left to resume from.
    pub fn resumed(&self) -> Option<&Resumed> {
        self.resumed.as_ref()
    }

    /// Labels (calling `progress` with counts of positions labelled), writes the table
    /// and removes the work directory.
    pub fn run(self, progress: &(dyn Fn(u64) + Sync)) -> Result<TableBuilt> {
        let started = Instant::now();
        let TableJob { request, plan, .. } = self;
        let labelled = plan.run(progress)?;
        let plain_seconds = if request.compare_plain {
            Some(compare_plain(&request, &plan, &labelled)?)
        } else {
            None
        };
        let (game, domain, path) = (&request.game, request.domain, &request.path);
        let header = match (&labelled.remoteness, &labelled.labels) {
            (Some(remoteness), _) => write_remoteness_stored(
                path,
                game,
                domain,
                remoteness,
                request.storage,
                request.replace,
            )?,
            (None, labels) => {
                let mut writer =
                    outcomes_writer(path, game, domain, request.storage, request.replace)?;
                writer.set_provenance(provenance(labelled.derivation));
                match labels {
                    Some(labels) => writer.push(labels.words())?,
                    None => plan.stream_outcomes(|words| writer.push(words))?,
                }
                writer.finish()?
            }
        };
        plan.discard_work()?;
        let unsafe_count = match (&labelled.labels, header.kind) {
            (Some(labels), _) => labels.unsafe_count(),
            (None, BodyKind::Outcomes { unsafe_count }) => unsafe_count,
            (None, _) => 0,
        };
        Ok(TableBuilt {
            unsafe_count,
            rmax: labelled.remoteness.as_ref().map(|r| r.rmax()),
            derivation: labelled.derivation,
            label_seconds: labelled.seconds,
            resumed_positions: labelled.resumed,
            plain_seconds,
            seconds: started.elapsed().as_secs_f64(),
            header,
        })
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
        return Err(Error::Disagreement(format!(
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
