//! Labelling shared between ranks (processes, on one machine or many): GamesmanOne's
//! pattern of a tier manager over the work directory.
//!
//! Rank 0 manages the tiers of a `--total` domain in order. Each tier is cut into chunks
//! of ranks (`manager::Chunking`); rank 0 hands them to the workers (a couple ahead, so
//! no worker waits between chunks), labels chunks itself when it has nothing else to do,
//! and once every chunk of a tier is in, records the tier in the work directory's
//! manifest (a checkpoint when one is due) and tells every rank to load the chunks it did
//! not label. Chunks are labelled by pulling from the children (`label/chunk.rs`), so a
//! rank only ever writes its own chunk; its labels go to a part file of their own in the
//! work directory, which every rank reads (a filesystem shared between the machines). The
//! links between ranks ([`Link`]) carry only small messages, and the files follow them:
//! a rank reads a part only once a message has named it (written whole and renamed
//! before), and rank 0 writes the table from the work directory and removes it only once
//! every worker has said it reads no more of it (a worker may be tiers behind, loading
//! tiers rank 0 labelled alone). Labels are a function of
//! the game alone, so the parts, and the table assembled from them, are the same for any
//! number of ranks and any cut into chunks.
//!
//! Before anything else every rank tells rank 0 what it was started for (`Terms`:
//! version, formats, game, domain, kind, work directory, ...); ranks that disagree refuse
//! the job together. Domains whose tiers are not rank ranges (`--heaps`) and labellings
//! that do not go tier by tier (shortcuts, the plain baseline) are labelled by rank 0
//! alone while the workers wait.
//!
//! # Files
//!
//! - `link.rs`: [`Link`], small messages between ranks, and [`local_links`] (channels
//!   between threads of one process).
//! - `message.rs`: what ranks say to each other, and the terms they must agree on first.
//! - `manager.rs`: rank 0: hands out chunks, labels some itself, records each finished
//!   tier, and waits for the workers before the work directory goes.
//! - `worker.rs`: a worker rank: labels the chunks rank 0 hands it, loads finished tiers.
//! - `rank.rs`: what every rank holds: its window of tiers, the chunk labeller, its way
//!   to the work directory.
//! - `tests.rs`: unit tests of ranks as threads of one process: every rank count and cut
//!   into chunks labels what one process does, resumes, and refuses together.

mod link;
pub(crate) mod manager;
mod message;
pub(crate) mod rank;
pub(crate) mod worker;

pub use link::{local_links, Link, LocalLink};
pub(crate) use message::Terms;

use message::{broadcast, send, unexpected, wait, Message};

use crate::error::{Error, Result};

/// Makes sure every rank was started on the same `terms`: workers tell rank 0 theirs,
/// rank 0 compares and answers. A disagreement is rank 0's error (naming what differs);
/// a worker then ends with [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted), as when rank 0 stops the job.
pub(crate) fn agree(link: &dyn Link, terms: &Terms) -> Result<()> {
    if link.rank() != 0 {
        send(link, 0, &Message::Hello(Box::new(terms.clone())))?;
        return match wait(link)? {
            (0, Message::Agreed) => Ok(()),
            (0, Message::Abort) => Err(Error::interrupted()),
            (from, other) => Err(unexpected(from, &other)),
        };
    }
    let mut refusal = None;
    for _ in 1..link.ranks() {
        match wait(link)? {
            (from, Message::Hello(theirs)) => {
                if *theirs != *terms && refusal.is_none() {
                    refusal = Some(terms.disagreement(from, &theirs));
                }
            }
            (from, other) => return Err(unexpected(from, &other)),
        }
    }
    match refusal {
        Some(error) => Err(error),
        None => broadcast(link, &Message::Agreed),
    }
}

/// Ends a job on rank 0: every worker is told the table is written (`ok`) or that the
/// job failed, and returns.
pub fn release(link: &dyn Link, ok: bool) -> Result<()> {
    broadcast(link, if ok { &Message::Stop } else { &Message::Abort })
}

/// A worker that failed before it could take part (its arguments, say): tells rank 0,
/// which stops the job, and waits for it to.
pub fn refuse(link: &dyn Link, error: &Error) {
    worker::fail(link, error);
}

#[cfg(test)]
mod tests;
