//! How the ranks of a shared labelling reach each other: a [`Link`] carries small
//! messages between ranks (MPI in `sicher-mpi`; channels between threads in
//! [`local_links`], for tests and for running ranks as threads of one process).

use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};

use crate::error::{Error, Result};

/// Sends and receives the messages of a labelling shared between ranks. Messages are
/// small (chunk assignments and reports, a few hundred bytes): labels never travel
/// through a link, only through the work directory.
pub trait Link {
    /// This process's rank; rank 0 manages the tiers.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn ranks(&self) -> usize;
    /// Sends `message` to rank `to`; two messages from one rank to another arrive in the
    /// order they were sent.
    fn send(&self, to: usize, message: &[u8]) -> Result<()>;
    /// The next message from any rank, with its sender: waits for one when `wait` (an
    /// implementation should sleep rather than spin: ranks share cores with labelling),
    /// else `None` when none has arrived.
    fn receive(&self, wait: bool) -> Result<Option<(usize, Vec<u8>)>>;
}

/// One rank's end of [`local_links`].
pub struct LocalLink {
    rank: usize,
    peers: Vec<Sender<(usize, Vec<u8>)>>,
    inbox: Receiver<(usize, Vec<u8>)>,
}

/// Links between `ranks` ranks in one process, one per rank (each to be moved to its
/// own thread).
pub fn local_links(ranks: usize) -> Vec<LocalLink> {
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..ranks).map(|_| channel()).unzip();
    receivers
        .into_iter()
        .enumerate()
        .map(|(rank, inbox)| LocalLink {
            rank,
            peers: senders.clone(),
            inbox,
        })
        .collect()
}

fn gone() -> Error {
    Error::internal("a rank of the labelling is gone")
}

impl Link for LocalLink {
    fn rank(&self) -> usize {
        self.rank
    }

    fn ranks(&self) -> usize {
        self.peers.len()
    }

    fn send(&self, to: usize, message: &[u8]) -> Result<()> {
        let peer = self.peers.get(to).ok_or_else(gone)?;
        peer.send((self.rank, message.to_vec())).map_err(|_| gone())
    }

    fn receive(&self, wait: bool) -> Result<Option<(usize, Vec<u8>)>> {
        if wait {
            return self.inbox.recv().map(Some).map_err(|_| gone());
        }
        match self.inbox.try_recv() {
            Ok(message) => Ok(Some(message)),
            Err(TryRecvError::Empty) => Ok(None),
            Err(TryRecvError::Disconnected) => Err(gone()),
        }
    }
}
