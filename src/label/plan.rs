//! A labelling about to run: the ranked domain, the strategy, the threads, and the
//! memory it will need, so that callers can announce it and refuse what will not fit
//! before any of it is allocated.

use std::time::Instant;

use super::{
    check_strategy, estimate_bytes, label, label_remoteness, Labels, Remotenesses, Strategy,
};
use crate::domain::{Domain, Ranker};
use crate::error::{Error, Result};
use crate::game::Game;

/// Everything decided before labelling starts.
pub struct Plan {
    game: Game,
    ranker: Ranker,
    strategy: Strategy,
    threads: Option<usize>,
    bytes: u64,
    remoteness: bool,
}

/// A labelled domain with its timing.
pub struct Labelled {
    /// The outcomes, by rank.
    pub labels: Labels,
    /// The remotenesses, by rank, when the plan asked for them.
    pub remoteness: Option<Remotenesses>,
    /// Wall-clock seconds the labelling took.
    pub seconds: f64,
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
        let bytes = estimate_bytes(&ranker, strategy);
        Ok(Plan {
            game: game.clone(),
            ranker,
            strategy,
            threads,
            bytes,
            remoteness: false,
        })
    }

    /// Labels remotenesses (and the outcomes they imply) instead of outcomes alone.
    pub fn with_remoteness(mut self) -> Self {
        self.remoteness = true;
        // Four bytes per position, then the packed outcomes derived from them.
        let count = self.ranker.count();
        self.bytes =
            count * 4 + count.div_ceil(64) * 8 + estimate_bytes(&self.ranker, self.strategy);
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

    /// Worker threads that will label.
    pub fn threads(&self) -> usize {
        self.threads.unwrap_or_else(rayon::current_num_threads)
    }

    /// Bytes the labelling will hold at its peak.
    pub fn bytes_needed(&self) -> u64 {
        self.bytes
    }

    /// Refuses a labelling that needs more memory than the system has available.
    pub fn check_memory(&self) -> Result<()> {
        crate::memory::check_fits(
            &format!("labelling {}", self.ranker.domain().flags()),
            u128::from(self.bytes),
            "pass --force-memory to try anyway",
        )
    }

    /// Labels every position; `progress` hears how many positions each step finished.
    pub fn run(&self, progress: &(dyn Fn(u64) + Sync)) -> Result<Labelled> {
        let started = Instant::now();
        let work = || -> Result<(Labels, Option<Remotenesses>)> {
            if self.remoteness {
                let remoteness =
                    label_remoteness(&self.game, &self.ranker, self.strategy, progress)?;
                Ok((remoteness.outcomes()?, Some(remoteness)))
            } else {
                Ok((
                    label(&self.game, &self.ranker, self.strategy, progress)?,
                    None,
                ))
            }
        };
        let (labels, remoteness) = match self.threads {
            Some(threads) => rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| Error::input(format!("cannot start {threads} threads: {e}")))?
                .install(work)?,
            None => work()?,
        };
        Ok(Labelled {
            labels,
            remoteness,
            seconds: started.elapsed().as_secs_f64(),
        })
    }
}
