//! What ranks say to each other, and what they must agree on before any starts.

use serde::{Deserialize, Serialize};

use super::super::work::part::Part;
use super::super::work::Identity;
use super::link::Link;
use crate::error::{Error, ErrorKind, Result};

/// What every rank must have been started for alike: a rank that differs refuses the job
/// before the work directory is touched.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Terms {
    /// The sicher version.
    pub(crate) sicher: String,
    /// The work directory's format version.
    pub(crate) work_format: u32,
    /// The table format the labels are for.
    pub(crate) table_format: u32,
    /// Game, convention, domain, kind, strategy, positions.
    pub(crate) identity: Identity,
    /// Whether the tiers are shared out (else rank 0 labels alone).
    pub(crate) shared: bool,
    /// Theory's shortcuts taken.
    pub(crate) shortcuts: bool,
    /// The work directory, as each rank names it.
    pub(crate) work_dir: String,
    /// Positions per chunk, when forced.
    pub(crate) chunk: Option<u64>,
    /// Ranks in the job.
    pub(crate) ranks: usize,
}

impl Terms {
    /// The terms as `(what, value)` pairs, for naming the first that differs.
    fn fields(&self) -> Vec<(&'static str, String)> {
        let id = &self.identity;
        vec![
            ("sicher version", self.sicher.clone()),
            ("work format", self.work_format.to_string()),
            ("table format", self.table_format.to_string()),
            ("game", id.game.clone()),
            ("convention", id.convention.clone()),
            ("domain", id.domain.clone()),
            ("kind", id.kind.clone()),
            ("strategy", id.strategy.clone()),
            ("positions", id.entries.to_string()),
            // Before how the labelling is shared out, which follows from them: the
            // message names the argument that differs.
            (
                "theory's shortcuts",
                if self.shortcuts {
                    "taken"
                } else {
                    "not taken (--no-shortcuts)"
                }
                .into(),
            ),
            (
                "labelling",
                if self.shared {
                    "shared out between the ranks"
                } else {
                    "by rank 0 alone"
                }
                .into(),
            ),
            ("work directory", self.work_dir.clone()),
            (
                "chunk size",
                match self.chunk {
                    Some(positions) => format!("{positions} positions"),
                    None => "chosen by sicher".into(),
                },
            ),
            ("number of ranks", self.ranks.to_string()),
        ]
    }

    /// The error refusing a job whose rank `rank` was started on `other` terms.
    pub(crate) fn disagreement(&self, rank: usize, other: &Terms) -> Error {
        let differs = self
            .fields()
            .into_iter()
            .zip(other.fields())
            .find(|(mine, theirs)| mine.1 != theirs.1);
        let what = match differs {
            Some(((what, mine), (_, theirs))) => {
                format!(
                    "{what} {} on rank {rank}, {} on rank 0",
                    quote(&theirs),
                    quote(&mine)
                )
            }
            None => "its terms".into(),
        };
        Error::input(format!(
            "the ranks disagree ({what}): start every rank with the same sicher and the same arguments"
        ))
    }
}

/// A value quoted short for a one-line message.
fn quote(text: &str) -> String {
    let short: String = text
        .chars()
        .take(80)
        .flat_map(char::escape_default)
        .collect();
    format!("`{short}`")
}

/// A message between ranks.
#[derive(Serialize, Deserialize, Debug)]
pub(crate) enum Message {
    /// Worker to rank 0, first: the terms it was started on.
    Hello(Box<Terms>),
    /// Rank 0 to workers: every rank agrees.
    Agreed,
    /// Rank 0 to workers: the tiers are shared out from tier `first` on; load the
    /// finished parts the window needs.
    Start { first: u64, parts: Vec<Part> },
    /// Rank 0 to a worker: label chunk `index` of tier `tier`, the ranks `ranks`.
    Chunk {
        tier: u64,
        index: u32,
        ranks: [u64; 2],
    },
    /// Worker to rank 0: a chunk is labelled and its part written.
    Done {
        tier: u64,
        index: u32,
        part: Part,
        labelled: u64,
    },
    /// Rank 0 to workers: every chunk of tier `tier` is done; load the others' parts.
    TierDone { tier: u64, parts: Vec<Part> },
    /// Rank 0 to workers: every tier is labelled; answer [`Message::Finished`] once done
    /// with the messages before (the tiers to load).
    Finish,
    /// Worker to rank 0: it read all it will read of the work directory (rank 0 may
    /// now write the table from it and remove it).
    Finished,
    /// Worker to rank 0: it failed (rank 0 stops the job).
    Failed { kind: String, message: String },
    /// Rank 0 to workers: the table is written; end.
    Stop,
    /// Rank 0 to workers: the job failed or was refused; end, failing.
    Abort,
}

impl Message {
    fn encode(&self) -> Result<Vec<u8>> {
        serde_json::to_vec(self)
            .map_err(|e| Error::internal(format!("cannot encode a message between ranks: {e}")))
    }

    /// A worker's failure, to be raised again on rank 0.
    pub(crate) fn failed(error: &Error) -> Self {
        let kind = match error.kind() {
            ErrorKind::Input => "input",
            ErrorKind::Damaged => "damaged",
            ErrorKind::Internal => "internal",
            _ => "resource",
        };
        let message = match error.hint() {
            Some(hint) => format!("{}; {hint}", error.message()),
            None => error.message(),
        };
        Message::Failed {
            kind: kind.into(),
            message,
        }
    }
}

/// Sends `message` to rank `to`.
pub(crate) fn send(link: &dyn Link, to: usize, message: &Message) -> Result<()> {
    link.send(to, &message.encode()?)
}

/// Sends `message` to every rank but this one.
pub(crate) fn broadcast(link: &dyn Link, message: &Message) -> Result<()> {
    let bytes = message.encode()?;
    for to in (0..link.ranks()).filter(|&r| r != link.rank()) {
        link.send(to, &bytes)?;
    }
    Ok(())
}

/// The next message and its sender (`None` when not `wait`ing and none has come); a
/// worker's failure arrives as its error, naming the rank.
pub(crate) fn receive(link: &dyn Link, wait: bool) -> Result<Option<(usize, Message)>> {
    let Some((from, bytes)) = link.receive(wait)? else {
        return Ok(None);
    };
    let message: Message = serde_json::from_slice(&bytes).map_err(|e| {
        Error::internal(format!(
            "rank {from} sent a message that does not parse ({e})"
        ))
    })?;
    match message {
        Message::Failed { kind, message } => {
            let message = format!("rank {from}: {message}");
            Err(match kind.as_str() {
                "input" => Error::input(message),
                "damaged" => Error::damaged(message),
                "internal" => Error::internal(message),
                _ => Error::resource(message),
            })
        }
        message => Ok(Some((from, message))),
    }
}

/// The next message, waiting for it.
pub(crate) fn wait(link: &dyn Link) -> Result<(usize, Message)> {
    loop {
        if let Some(message) = receive(link, true)? {
            return Ok(message);
        }
    }
}

/// The error for a message that has no place where it came.
pub(crate) fn unexpected(from: usize, message: &Message) -> Error {
    let name = format!("{message:?}");
    let name = name.split([' ', '(', '{']).next().unwrap_or_default();
    Error::internal(format!("rank {from} sent {name} out of turn"))
}

/// The error a worker ends with when rank 0 stopped the job (rank 0 says why).
pub(crate) fn aborted() -> Error {
    Error::interrupted()
}
