//! Rank 0 of a shared labelling: hands out the chunks of each tier, labels chunks itself
//! when it has nothing else to do, records each finished tier in the work directory, and
//! tells every rank to load the tier before the next one starts. Once the last tier is
//! done it waits until every worker has said it reads no more of the work directory:
//! only then may the table be written from it and the directory removed.

use std::collections::VecDeque;
use std::ops::Range;

use super::super::window::Atom;
use super::super::work::part::Part;
use super::super::work::Store;
use super::link::Link;
use super::message::{broadcast, receive, send, unexpected, wait, Message};
use super::rank::Rank;
use crate::error::{Error, Result};

/// Chunks handed to a worker ahead of its reports, so that it never waits for rank 0
/// (which may be labelling a chunk of its own) between two chunks.
const AHEAD: usize = 2;
/// Fewest positions in a chunk by default: a chunk costs a file and two messages.
const MIN_CHUNK: u64 = 1 << 15;

/// How a tier is cut into chunks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chunking {
    /// Ranks in the job.
    pub(crate) ranks: usize,
    /// Positions per chunk, when forced (tests).
    pub(crate) forced: Option<u64>,
    /// False when moves keep the total: a tier is then one chunk.
    pub(crate) splittable: bool,
}

impl Chunking {
    /// The chunks of a tier's ranks, in rank order and in the order they are handed
    /// out. By default each is a share of what is left (`1 / 2R`), but not under
    /// [`MIN_CHUNK`]: large chunks first, small ones last, so that the ranks finish a
    /// tier together (a rank that finished waits for the others before the next tier).
    pub(crate) fn split(&self, tier: Range<u64>) -> Vec<Range<u64>> {
        let len = tier.end - tier.start;
        if !self.splittable || (self.ranks <= 1 && self.forced.is_none()) {
            return vec![tier];
        }
        let mut chunks = Vec::new();
        let mut start = tier.start;
        while start < tier.end {
            let rest = tier.end - start;
            let size = match self.forced {
                Some(size) => size.max(1),
                None => (rest / (2 * self.ranks as u64)).max(MIN_CHUNK),
            };
            let end = start + size.min(rest);
            chunks.push(start..end);
            start = end;
        }
        debug_assert_eq!(chunks.iter().map(|c| c.end - c.start).sum::<u64>(), len);
        chunks
    }
}

/// One tier's chunks as rank 0 tracks them.
struct TierChunks {
    tier: u64,
    chunks: Vec<Range<u64>>,
    queue: VecDeque<u32>,
    parts: Vec<Option<Part>>,
    left: usize,
}

impl TierChunks {
    fn new(tier: u64, chunks: Vec<Range<u64>>) -> Self {
        let n = chunks.len();
        TierChunks {
            tier,
            queue: (0..n as u32).collect(),
            parts: vec![None; n],
            left: n,
            chunks,
        }
    }

    /// Hands the next chunk to worker `to`, if one is left.
    fn hand_out(&mut self, link: &dyn Link, to: usize) -> Result<()> {
        if let Some(index) = self.queue.pop_front() {
            let r = &self.chunks[index as usize];
            let message = Message::Chunk {
                tier: self.tier,
                index,
                ranks: [r.start, r.end],
            };
            send(link, to, &message)?;
        }
        Ok(())
    }

    /// Takes a finished chunk's part, checking it is the chunk handed out.
    fn done(&mut self, index: u32, part: Part) -> Result<()> {
        let i = index as usize;
        let fits = self
            .chunks
            .get(i)
            .is_some_and(|r| part.ranks == [r.start, r.end])
            && part.tiers == [self.tier, self.tier]
            && self.parts[i].is_none();
        if !fits {
            return Err(Error::internal(format!(
                "a report of chunk {index} of tier {} that was not handed out",
                self.tier
            )));
        }
        self.parts[i] = Some(part);
        self.left -= 1;
        Ok(())
    }
}

/// Labels every tier from the store's next one on, sharing each out between the ranks
/// of `link`; `progress` hears the positions of every finished chunk (first, when
/// resuming, how many an earlier run finished).
pub(crate) fn manage<A: Atom>(
    rank: &mut Rank<'_, A>,
    store: &mut Store,
    link: &dyn Link,
    chunking: Chunking,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<()> {
    let first = store.next_tier();
    let tiers = rank.tiers();
    // Each worker loads the finished tiers its first window holds.
    let held = match first < tiers {
        true => rank.window_for(first).start..rank.tier_ranks(first).start,
        false => 0..0,
    };
    let parts: Vec<Part> = store
        .finished_parts()
        .filter(|p| p.ranks[1] > held.start && p.ranks[0] < held.end)
        .cloned()
        .collect();
    broadcast(
        link,
        &Message::Start {
            first,
            parts: parts.clone(),
        },
    )?;
    rank.start(first, &parts)?;
    if store.positions_done() > 0 {
        progress(store.positions_done());
    }
    let mut next = (first < tiers)
        .then(|| start_tier(rank, link, chunking, first))
        .transpose()?;
    while let Some(mut tier) = next.take() {
        let t = tier.tier;
        while tier.left > 0 {
            // Reports first: a worker gets its next chunk before rank 0 labels one.
            if let Some((from, message)) = receive(link, false)? {
                take_report(&mut tier, link, from, message, progress)?;
                continue;
            }
            if let Some(index) = tier.queue.pop_front() {
                let r = tier.chunks[index as usize].clone();
                let (part, labelled) = rank.label(t, index, r)?;
                tier.done(index, part)?;
                progress(labelled);
                continue;
            }
            let (from, message) = wait(link)?;
            take_report(&mut tier, link, from, message, progress)?;
        }
        let parts: Vec<Part> = tier.parts.into_iter().flatten().collect();
        // The workers go on first (they load the tier, then label the next one's
        // chunks), while rank 0 records the tier and loads it (checking the workers'
        // parts). No chunk reads the last tier: the workers do not load it.
        if t + 1 < tiers {
            let tier_done = Message::TierDone {
                tier: t,
                parts: parts.clone(),
            };
            broadcast(link, &tier_done)?;
            next = Some(start_tier(rank, link, chunking, t + 1)?);
        }
        let whole = rank.tier_ranks(t);
        store.record_tier(t, parts.clone(), whole.end - whole.start)?;
        rank.finish_tier(t, &parts)?;
    }
    // A worker may be tiers behind, loading tiers rank 0 labelled alone: the work
    // directory is read whole (into the table) and removed only once every worker has
    // said it reads no more of it.
    broadcast(link, &Message::Finish)?;
    store.seal_recorded()?;
    wait_finished(link)
}

/// Waits until every worker answered [`Message::Finish`] (a worker's failure instead
/// is its error).
fn wait_finished(link: &dyn Link) -> Result<()> {
    let mut left: Vec<bool> = (0..link.ranks()).map(|r| r != 0).collect();
    while left.contains(&true) {
        match wait(link)? {
            (from, Message::Finished) if left.get(from) == Some(&true) => left[from] = false,
            (from, other) => return Err(unexpected(from, &other)),
        }
    }
    Ok(())
}

/// Cuts tier `t` into chunks and hands the first to the workers (a tier of one chunk is
/// rank 0's: no round trip).
fn start_tier<A: Atom>(
    rank: &Rank<'_, A>,
    link: &dyn Link,
    chunking: Chunking,
    t: u64,
) -> Result<TierChunks> {
    let mut tier = TierChunks::new(t, chunking.split(rank.tier_ranks(t)));
    if tier.chunks.len() > 1 {
        for worker in 1..link.ranks() {
            for _ in 0..AHEAD {
                tier.hand_out(link, worker)?;
            }
        }
    }
    Ok(tier)
}

/// Takes a worker's report of a finished chunk and hands it the next.
fn take_report(
    tier: &mut TierChunks,
    link: &dyn Link,
    from: usize,
    message: Message,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<()> {
    match message {
        Message::Done {
            tier: t,
            index,
            part,
            labelled,
        } if t == tier.tier && from != 0 => {
            tier.done(index, part)?;
            progress(labelled);
            tier.hand_out(link, from)
        }
        other => Err(unexpected(from, &other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_a_tier_in_order() {
        for (ranks, forced, len) in [
            (1, None, 100),
            (3, Some(7), 100),
            (2, None, 1 << 20),
            (4, Some(1), 5),
        ] {
            let chunking = Chunking {
                ranks,
                forced,
                splittable: true,
            };
            let chunks = chunking.split(1000..1000 + len);
            assert_eq!(chunks[0].start, 1000);
            assert_eq!(chunks.last().unwrap().end, 1000 + len);
            assert!(chunks
                .windows(2)
                .all(|w| w[0].end == w[1].start && w[0].start < w[0].end));
        }
        let whole = Chunking {
            ranks: 3,
            forced: Some(1),
            splittable: false,
        };
        assert_eq!(whole.split(5..50), vec![5..50]);
        let default = Chunking {
            ranks: 2,
            forced: None,
            splittable: true,
        };
        let guided = default.split(0..1 << 22);
        assert!(guided.len() > 8 && guided.len() < 40, "{}", guided.len());
        assert!(guided
            .windows(2)
            .all(|w| w[0].end - w[0].start >= w[1].end - w[1].start));
        assert_eq!(default.split(0..1000).len(), 1);
    }
}
