//! What every command shares when it talks to people and programs: the safe/unsafe
//! wording, the JSON answer record, and progress indicators that stay quiet when
//! nobody is watching.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::game::Position;

/// `"safe"` when the player to move wins, `"unsafe"` when they lose.
pub fn label(win: bool) -> &'static str {
    if win {
        "safe"
    } else {
        "unsafe"
    }
}

/// The verdict in words, for human-readable output.
pub fn verdict(win: bool) -> &'static str {
    if win {
        "safe: the player to move wins"
    } else {
        "unsafe: the player to move loses against best play"
    }
}

/// One answered position, as `check` prints it with `--json`.
#[derive(Debug, Serialize)]
pub struct Answer {
    /// The position asked about (heaps ascending).
    pub position: Vec<u64>,
    /// True when the player to move wins.
    pub win: bool,
    /// `"safe"` or `"unsafe"`.
    pub label: &'static str,
    /// The position after one winning move, or `None` when there is none.
    #[serde(rename = "move")]
    pub winning_move: Option<Vec<u64>>,
    /// Which engine answered: `"search"`, `"table"` or `"grundy"`.
    pub source: &'static str,
}

impl Answer {
    /// Builds an answer record.
    pub fn new(
        position: &Position,
        win: bool,
        winning_move: Option<Position>,
        source: &'static str,
    ) -> Self {
        Answer {
            position: position.heaps().to_vec(),
            win,
            label: label(win),
            winning_move: winning_move.map(Position::into_heaps),
            source,
        }
    }

    /// The human-readable line: position, verdict in words, one winning move.
    pub fn human(&self) -> String {
        let position = Position::new(self.position.clone());
        match &self.winning_move {
            Some(after) => format!(
                "{position}: {} (winning move: to {})",
                verdict(self.win),
                Position::new(after.clone())
            ),
            None if self.win => format!(
                "{position}: {} (no move is left, which wins in misère play)",
                verdict(self.win)
            ),
            None => format!("{position}: {}", verdict(self.win)),
        }
    }
}

/// True when progress may be drawn: stderr is a terminal and `--quiet` was not given.
pub fn show_progress(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// A spinner for work of unknown length; hidden when progress is not shown.
pub fn spinner(quiet: bool, message: &str) -> ProgressBar {
    if !show_progress(quiet) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.set_message(message.to_string());
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// A bar over `len` steps with rate and ETA; hidden when progress is not shown.
pub fn progress_bar(len: u64, quiet: bool, unit: &str) -> ProgressBar {
    if !show_progress(quiet) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let template = format!("{{bar:40}} {{human_pos}}/{{human_len}} {unit} {{per_sec}} ETA {{eta}}");
    bar.set_style(
        ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Prints one JSON value on its own line.
pub fn print_json<T: Serialize>(value: &T) -> Result<()> {
    let line = serde_json::to_string(value)
        .map_err(|e| Error::input(format!("cannot encode JSON: {e}")))?;
    outln!("{line}")
}

/// Formats a rate such as nodes per second.
pub fn per_second(count: u64, elapsed: Duration) -> f64 {
    count as f64 / elapsed.as_secs_f64().max(1e-9)
}
