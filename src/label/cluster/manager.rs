//! Rank 0 of a shared labelling: hands out the chunks of each tier, labels chunks itself
//! when it has nothing else to do, records each finished tier in the work directory, and
//! tells every rank to load the tier before the next one starts.

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
/// By default each tier is cut into about this many chunks per rank: fast ranks take
/// more of them.
const CHUNKS_PER_RANK: u64 = 4;
/// Fewest positions in a chunk by default: a chunk costs a file and two messages.
const MIN_CHUNK: u64 = 1 << 16;

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
    /// The chunks of a tier's ranks, in rank order.
    pub(crate) fn split(&self, tier: Range<u64>) -> Vec<Range<u64>> {
        let len = tier.end - tier.start;
        let size = match self.forced {
            Some(size) => size.max(1),
            None if self.ranks <= 1 => len,
            None => len
                .div_ceil(CHUNKS_PER_RANK * self.ranks as u64)
                .max(MIN_CHUNK),
        };
        if !self.splittable || size >= len {
            return vec![tier];
        }
        let n = len.div_ceil(size);
        (0..n)
            .map(|i| tier.start + len * i / n..tier.start + len * (i + 1) / n)
            .collect()
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
    for t in first..tiers {
        let whole = rank.tier_ranks(t);
        let mut tier = TierChunks::new(t, chunking.split(whole.clone()));
        // A tier of one chunk is rank 0's: no round trip.
        if tier.chunks.len() > 1 {
            for worker in 1..link.ranks() {
                for _ in 0..AHEAD {
                    tier.hand_out(link, worker)?;
                }
            }
        }
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
        store.record_tier(t, parts.clone(), whole.end - whole.start)?;
        broadcast(
            link,
            &Message::TierDone {
                tier: t,
                parts: parts.clone(),
            },
        )?;
        rank.finish_tier(t, &parts)?;
    }
    store.seal_recorded()
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
        assert_eq!(default.split(0..1 << 20).len(), 8);
        assert_eq!(default.split(0..1000).len(), 1);
    }
}
