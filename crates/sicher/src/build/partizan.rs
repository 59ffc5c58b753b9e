//! Partizan tables: both players' labels of a domain, labelled on one process or shared
//! between the ranks of a job, written as a partizan table (format 4).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::atomic_file::Replace;
use crate::domain::{Domain, Ranker};
use crate::error::{Error, Result};
use crate::game::Convention;
use crate::label::cluster::{self, Link};
use crate::label::{self, WorkDir};
use crate::table::{self, BodyKind, Header, Provenance, Storage};

/// Writes both players' labels of a partizan game's domain as a partizan table (format
/// 4): two bits a position, the players' rules and any terminal script carried in the
/// header, so the table stands alone.
pub fn write_partizan(
    path: &Path,
    game: &crate::game::partizan::PartizanGame,
    domain: Domain,
    sides: &label::Sides,
    storage: Storage,
    replace: Replace,
) -> Result<Header> {
    use crate::game::partizan::Terminal;
    let convention = match game.terminal {
        Terminal::Misere => Convention::Misere,
        Terminal::Normal | Terminal::Script(_) => Convention::Normal,
    };
    let mut header = Header::new(
        BodyKind::Partizan {
            classes: sides.classes(),
        },
        game.spec(),
        convention,
        domain,
        sides.count(),
        2,
    );
    header.carried.sides = Some((game.left.spec(), game.right.spec()));
    if let Terminal::Script(rule) = &game.terminal {
        let text = rule.text().ok_or_else(|| {
            Error::input(format!(
                "{}: a terminal rule that is not a script's cannot be written into a table",
                rule.name()
            ))
        })?;
        header.carried.terminal = Some(text.to_string());
    }
    header.provenance = Provenance::Retrograde;
    table::write_stored(path, header, &sides.words(), storage, replace)
}

/// What [`build_partizan`] did.
#[derive(Clone, Debug)]
pub struct PartizanBuilt {
    /// The header written.
    pub header: Header,
    /// Seconds spent labelling.
    pub label_seconds: f64,
    /// Positions an earlier, killed run had labelled (found in the work directory).
    pub resumed_positions: u64,
    /// Threads that labelled.
    pub threads: usize,
}

/// Labels a partizan game's domain for both players (resuming from the work directory
/// beside `path`, `FILE.work`, unless `restart`) on `threads` threads (default: one per
/// core), writes the table and removes the work directory: `sicher table` for partizan
/// games.
#[allow(clippy::too_many_arguments)]
pub fn build_partizan(
    game: &crate::game::partizan::PartizanGame,
    domain: Domain,
    path: &Path,
    storage: Storage,
    replace: Replace,
    restart: bool,
    checkpoint_every: Option<Duration>,
    threads: Option<usize>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<PartizanBuilt> {
    let table = PartizanTable {
        path: path.to_path_buf(),
        storage,
        replace,
        restart,
        checkpoint_every,
        threads,
        chunk_positions: None,
        cancel: crate::Cancel::new(),
    };
    table.build_alone(game, domain, progress)
}

/// A partizan table to build, alone ([`PartizanTable::build_alone`]) or shared between
/// the ranks of a job (`sicher-mpi table`): where it goes, how it is stored, and how
/// the labelling is resumed, cut and cancelled.
#[derive(Clone, Debug)]
pub struct PartizanTable {
    /// Where the table goes (its work directory is `FILE.work` beside it).
    pub path: PathBuf,
    /// How the body is stored.
    pub storage: Storage,
    /// Whether an existing file there may be replaced.
    pub replace: Replace,
    /// Start over instead of resuming from the work directory.
    pub restart: bool,
    /// How often finished tiers are checkpointed (`None`: the default interval).
    pub checkpoint_every: Option<Duration>,
    /// Threads each rank labels on (`None`: one per core).
    pub threads: Option<usize>,
    /// Positions per chunk of a tier, when forced (tests).
    pub chunk_positions: Option<u64>,
    /// Ends a labelling alone between two tiers with [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted) once
    /// cancelled (the finished tiers stay in the work directory).
    pub cancel: crate::Cancel,
}

impl PartizanTable {
    fn work(&self) -> WorkDir {
        WorkDir::beside(&self.path)
            .checkpoint_every(self.checkpoint_every)
            .restart(self.restart)
    }

    fn pool(&self) -> Result<rayon::ThreadPool> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.unwrap_or(0))
            .build()
            .map_err(|e| Error::resource(format!("cannot start the labelling threads: {e}")))
    }

    /// Labels a partizan game's domain on this process (what [`build_partizan`] does,
    /// obeying [`PartizanTable::cancel`]), writes the table and removes the work
    /// directory.
    pub fn build_alone(
        &self,
        game: &crate::game::partizan::PartizanGame,
        domain: Domain,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<PartizanBuilt> {
        let ranker = Ranker::new(domain)?;
        // Refused before the labelling, not after it.
        crate::atomic_file::check_destination(&self.path, self.replace)?;
        let work = self.work();
        let started = Instant::now();
        let pool = self.pool()?;
        let threads = pool.current_num_threads();
        let (sides, resumed_positions) = pool.install(|| {
            label::label_partizan_cancellable(game, &ranker, Some(&work), progress, &self.cancel)
        })?;
        let label_seconds = started.elapsed().as_secs_f64();
        let header = write_partizan(&self.path, game, domain, &sides, self.storage, self.replace)?;
        work.remove()?;
        Ok(PartizanBuilt {
            header,
            label_seconds,
            resumed_positions,
            threads,
        })
    }

    /// Rank 0: labels a partizan game's domain with the other ranks of `link` (each
    /// running [`PartizanTable::serve`] with the same arguments), writes the table (the
    /// bytes [`build_partizan`] writes), removes the work directory and tells every rank
    /// the job is done. On failure the caller ends the job ([`cluster::release`] with
    /// `false`); the finished tiers stay in the work directory for the same call to
    /// resume.
    pub fn build(
        &self,
        game: &crate::game::partizan::PartizanGame,
        domain: Domain,
        link: &dyn Link,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<PartizanBuilt> {
        let ranker = Ranker::new(domain)?;
        crate::atomic_file::check_destination(&self.path, self.replace)?;
        let work = self.work();
        let started = Instant::now();
        let pool = self.pool()?;
        let threads = pool.current_num_threads();
        let (sides, resumed_positions) = label::label_partizan_ranked(
            game,
            &ranker,
            &work,
            link,
            self.chunk_positions,
            Some(&pool),
            progress,
        )?;
        let label_seconds = started.elapsed().as_secs_f64();
        let header = write_partizan(&self.path, game, domain, &sides, self.storage, self.replace)?;
        work.remove()?;
        cluster::release(link, true)?;
        Ok(PartizanBuilt {
            header,
            label_seconds,
            resumed_positions,
            threads,
        })
    }

    /// A worker (any rank but 0): labels the chunks rank 0 hands it until rank 0 ends
    /// the job; a worker stopped by rank 0 ends with [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted).
    pub fn serve(
        &self,
        game: &crate::game::partizan::PartizanGame,
        domain: Domain,
        link: &dyn Link,
    ) -> Result<()> {
        let ranker = match Ranker::new(domain) {
            Ok(ranker) => ranker,
            Err(error) => {
                cluster::refuse(link, &error);
                return Err(error);
            }
        };
        let pool = match self.pool() {
            Ok(pool) => pool,
            Err(error) => {
                cluster::refuse(link, &error);
                return Err(error);
            }
        };
        let work = self.work();
        label::serve_partizan(
            game,
            &ranker,
            &work,
            link,
            self.chunk_positions,
            Some(&pool),
        )
    }
}
