//! The ranks of an MPI job as a [`Link`]: point-to-point messages over the world
//! communicator, received by polling so that a waiting rank sleeps instead of spinning
//! (a blocking MPI receive keeps a core busy, which ranks sharing cores with labelling
//! threads cannot spare).

use std::time::Duration;

use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, Destination, Source};

use sicher::error::Result;
use sicher::label::cluster::Link;

/// Longest sleep between two polls of a waiting receive, while messages come often
/// (a rank labelling the chunks of a tier)...
const SHORT_PAUSE: Duration = Duration::from_millis(1);
/// ... and once it has waited [`LONG_WAIT`] (rank 0 labelling a tier alone, or writing
/// the table): a waiting rank then costs next to nothing.
const LONG_PAUSE: Duration = Duration::from_millis(10);
const LONG_WAIT: Duration = Duration::from_millis(100);

/// The world communicator of an MPI job.
pub struct MpiLink {
    world: SimpleCommunicator,
}

impl MpiLink {
    /// The link over `world`.
    pub fn new(world: SimpleCommunicator) -> Self {
        MpiLink { world }
    }
}

impl Link for MpiLink {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn ranks(&self) -> usize {
        self.world.size() as usize
    }

    fn send(&self, to: usize, message: &[u8]) -> Result<()> {
        // MPI's default error handler ends the job on a failed send.
        self.world.process_at_rank(to as i32).send(message);
        Ok(())
    }

    fn receive(&self, wait: bool) -> Result<Option<(usize, Vec<u8>)>> {
        let mut pause = Duration::from_micros(20);
        let started = std::time::Instant::now();
        loop {
            if let Some(status) = self.world.any_process().immediate_probe() {
                // One thread receives, and messages from one rank keep their order: the
                // receive takes the message probed.
                let source = status.source_rank();
                let (message, _) = self.world.process_at_rank(source).receive_vec::<u8>();
                return Ok(Some((source as usize, message)));
            }
            if !wait {
                return Ok(None);
            }
            std::thread::sleep(pause);
            let longest = match started.elapsed() < LONG_WAIT {
                true => SHORT_PAUSE,
                false => LONG_PAUSE,
            };
            pause = (pause * 2).min(longest);
        }
    }
}
