//! A worker rank of a shared labelling: labels the chunks rank 0 hands it and loads each
//! finished tier, until rank 0 says the table is written. It reads a part only once rank
//! 0 has named it in a message (the part is whole by then), and tells rank 0 when it
//! reads no more: rank 0 removes the work directory only after that.

use super::super::window::Atom;
use super::link::Link;
use super::message::{aborted, send, unexpected, wait, Message};
use super::rank::Rank;
use crate::error::Result;

/// Serves rank 0 until it stops the job (`Ok`) or aborts it; a failure here is sent to
/// rank 0, which stops the job, and returned.
pub(crate) fn serve<A: Atom>(rank: &mut Option<Rank<'_, A>>, link: &dyn Link) -> Result<()> {
    match work(rank, link) {
        Ok(()) => Ok(()),
        Err(error) => {
            if !matches!(error.kind(), crate::error::ErrorKind::Interrupted) {
                fail(link, &error);
            }
            Err(error)
        }
    }
}

/// Tells rank 0 this rank failed and waits for it to stop the job (a worker that left at
/// once would leave rank 0 waiting for its reports).
pub(crate) fn fail(link: &dyn Link, error: &crate::error::Error) {
    if send(link, 0, &Message::failed(error)).is_err() {
        return;
    }
    while let Ok((_, message)) = wait(link) {
        if matches!(message, Message::Stop | Message::Abort) {
            return;
        }
    }
}

fn work<A: Atom>(rank: &mut Option<Rank<'_, A>>, link: &dyn Link) -> Result<()> {
    // Once rank 0 is told this rank reads no more, it may remove the work directory.
    let mut finished = false;
    loop {
        let (from, message) = wait(link)?;
        if from != 0 {
            return Err(unexpected(from, &message));
        }
        match (message, rank.as_mut()) {
            (Message::Stop, _) => return Ok(()),
            (Message::Abort, _) => return Err(aborted()),
            (other, _) if finished => return Err(unexpected(from, &other)),
            (Message::Finish, Some(_)) => {
                send(link, 0, &Message::Finished)?;
                finished = true;
            }
            (Message::Start { first, parts }, Some(rank)) => rank.start(first, &parts)?,
            (Message::Chunk { tier, index, ranks }, Some(rank)) => {
                let (part, labelled) = rank.label(tier, index, ranks[0]..ranks[1])?;
                let done = Message::Done {
                    tier,
                    index,
                    part,
                    labelled,
                };
                send(link, 0, &done)?;
            }
            (Message::TierDone { tier, parts }, Some(rank)) => rank.finish_tier(tier, &parts)?,
            (other, _) => return Err(unexpected(from, &other)),
        }
    }
}
