//! What each rank of a shared labelling holds: the window of tiers its chunks read, the
//! chunk labeller, and its way to the work directory (chunks out, others' chunks in).

use std::ops::Range;
use std::path::PathBuf;

use rayon::ThreadPool;

use super::super::chunk::ChunkLabeller;
use super::super::drive::{widest, window_for, Reach};
use super::super::tiers::{Scratch, Tiers};
use super::super::window::{Atom, Window};
use super::super::work::load_parts;
use super::super::work::part::{extension, Binding, Part, PartWriter};
use crate::domain::Partitions;
use crate::error::{Error, Result};

/// One rank's labelling state.
pub(crate) struct Rank<'a, A: Atom> {
    labeller: &'a dyn ChunkLabeller<A>,
    partitions: &'a Partitions,
    reach: Reach,
    window: Window<A>,
    dir: PathBuf,
    binding: Binding,
    pool: Option<&'a ThreadPool>,
    scratch: Scratch,
    /// The tier the window covers, once one does.
    tier: Option<u64>,
    /// Parts of the current tier this rank wrote (already in its window).
    mine: Vec<String>,
}

impl<'a, A: Atom> Rank<'a, A> {
    /// Allocates the window (the widest the labelling needs) up front.
    pub(crate) fn new(
        labeller: &'a dyn ChunkLabeller<A>,
        partitions: &'a Partitions,
        reach: Reach,
        dir: PathBuf,
        binding: Binding,
        pool: Option<&'a ThreadPool>,
    ) -> Result<Self> {
        let entries = partitions.count();
        let tiers = Tiers::Total(partitions);
        Ok(Rank {
            labeller,
            partitions,
            reach,
            window: Window::new(entries, widest(tiers, entries, reach))?,
            dir,
            binding,
            pool,
            scratch: Scratch::default(),
            tier: None,
            mine: Vec::new(),
        })
    }

    /// Number of tiers.
    pub(crate) fn tiers(&self) -> u64 {
        self.partitions.total() + 1
    }

    /// The ranks of tier `t`.
    pub(crate) fn tier_ranks(&self, t: u64) -> Range<u64> {
        self.partitions.tier(t)
    }

    /// The ranks the window holds while tier `t` is labelled.
    pub(crate) fn window_for(&self, t: u64) -> Range<u64> {
        let entries = self.partitions.count();
        window_for(Tiers::Total(self.partitions), entries, self.reach, t)
    }

    /// Starts labelling at tier `first`, loading the finished tiers below it that the
    /// window holds from `parts`.
    pub(crate) fn start(&mut self, first: u64, parts: &[Part]) -> Result<()> {
        if first >= self.tiers() {
            return Ok(());
        }
        self.check_parts(parts, 0..self.tier_ranks(first).start)?;
        self.cover(first)?;
        let finished_end = self.tier_ranks(first).start;
        load_parts(&self.dir, parts.iter(), finished_end, &mut self.window)
    }

    /// Refuses parts (from another rank) that lie outside `within`: reading them would
    /// write outside the window.
    fn check_parts(&self, parts: &[Part], within: Range<u64>) -> Result<()> {
        match parts.iter().find(|p| {
            p.ranks[0] >= p.ranks[1] || p.ranks[0] < within.start || p.ranks[1] > within.end
        }) {
            Some(part) => Err(Error::internal(format!(
                "{} was handed on with ranks {}..{} outside {}..{}",
                part.file, part.ranks[0], part.ranks[1], within.start, within.end
            ))),
            None => Ok(()),
        }
    }

    /// Moves the window to tier `t` (tiers only go up).
    fn cover(&mut self, t: u64) -> Result<()> {
        if t >= self.tiers() || self.tier.is_some_and(|held| held > t) {
            return Err(Error::internal(format!("tier {t} asked for out of turn")));
        }
        if self.tier != Some(t) {
            let r = self.window_for(t);
            self.window.cover(r.start, r.end);
            self.tier = Some(t);
            self.mine.clear();
        }
        Ok(())
    }

    /// Labels chunk `index` of tier `tier` (the ranks `ranks`) and writes its part
    /// (unsynced: the checkpoint that lists it syncs it). Returns the part and the
    /// positions labelled.
    pub(crate) fn label(
        &mut self,
        tier: u64,
        index: u32,
        ranks: Range<u64>,
    ) -> Result<(Part, u64)> {
        self.cover(tier)?;
        self.check_parts_range(tier, &ranks)?;
        let (labeller, window, scratch) = (self.labeller, &self.window, &mut self.scratch);
        let mut work = || labeller.label_chunk(window, tier, ranks.clone(), scratch);
        let labelled = match self.pool {
            Some(pool) => pool.install(work),
            None => work(),
        };
        // A chunk whose labelling failed is not written: nothing may build on it.
        labeller.failure()?;
        let name = format!("tier-{tier:06}-{index:04}.{}", extension(A::WIDTH));
        let mut writer = PartWriter::create(&self.dir, name, self.binding, tier, ranks.start)?;
        self.window
            .export(ranks.clone(), &mut |value, n| writer.push(value, n))?;
        writer.end = ranks.end;
        let part = writer.commit(false)?;
        self.mine.push(part.file.clone());
        Ok((part, labelled))
    }

    fn check_parts_range(&self, tier: u64, ranks: &Range<u64>) -> Result<()> {
        let whole = self.tier_ranks(tier);
        if ranks.start >= ranks.end || ranks.start < whole.start || ranks.end > whole.end {
            return Err(Error::internal(format!(
                "a chunk {}..{} outside tier {tier}",
                ranks.start, ranks.end
            )));
        }
        Ok(())
    }

    /// Tier `tier` is finished: loads the parts of it that other ranks wrote, each checked
    /// against its listing first.
    pub(crate) fn finish_tier(&mut self, tier: u64, parts: &[Part]) -> Result<()> {
        self.cover(tier)?;
        self.check_parts(parts, self.tier_ranks(tier))?;
        for part in parts.iter().filter(|p| !self.mine.contains(&p.file)) {
            part.verify(&self.dir, self.binding)?;
            part.import(&self.dir, part.range(), &mut self.window)?;
        }
        self.mine.clear();
        Ok(())
    }
}
