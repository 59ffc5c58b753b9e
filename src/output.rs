//! What every command shares when it talks to people and programs: the safe/unsafe
//! wording, writing JSON (the records are the library's, `sicher::answer`), and progress indicators that stay quiet when
//! nobody is watching.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use sicher::answer::{Answer, AnswerRecord, Query, Remoteness, SourceKind};
use sicher::error::{Error, Result};
use sicher::value::{Outcome, Value};

/// `"safe"` when the player to move wins, `"unsafe"` when they lose.
pub fn label(win: bool) -> &'static str {
    Outcome::from_win(win).label()
}

/// The verdict in words, for human-readable output.
pub fn verdict(win: bool) -> &'static str {
    Outcome::from_win(win).in_words()
}

/// Appends the human-readable line of an answer to `query`: position, verdict in words,
/// one winning move when one was looked for, and why the remoteness is missing when it
/// was wanted.
pub fn write_human(out: &mut Vec<u8>, answer: &Answer, query: Query) {
    let asked_move = query.best_move;
    let win = answer.value.is_win();
    write_heaps(out, answer.position.heaps());
    out.extend_from_slice(b": ");
    out.extend_from_slice(verdict_with_remoteness(answer.value).as_bytes());
    let mut notes: Vec<String> = Vec::new();
    match &answer.best_move {
        Some(after) => {
            let mut note = b"winning move: to ".to_vec();
            write_heaps(&mut note, after.heaps());
            notes.push(String::from_utf8_lossy(&note).into_owned());
        }
        None if win && asked_move => {
            notes.push("no move is left, which wins in misere play".into());
        }
        None => {}
    }
    // Theory (nim-values, quotients, closed forms) and outcome tables give the verdict
    // alone, as asked by default: nothing to explain. The search gives the remoteness
    // unless it costs too much, which is worth a word.
    if answer.source == SourceKind::Search
        && answer.value.remoteness().is_none()
        && query.remoteness != Remoteness::Skip
    {
        notes.push(
            "remoteness not computed: its search ran past its budget; --remoteness insists".into(),
        );
    }
    if !notes.is_empty() {
        out.extend_from_slice(b" (");
        out.extend_from_slice(notes.join("; ").as_bytes());
        out.push(b')');
    }
    out.push(b'\n');
}

/// The verdict in words with the remoteness when known: "safe: the player to move wins
/// in 5", "unsafe: the player to move loses in 12 at most".
pub fn verdict_with_remoteness(value: Value) -> String {
    match value.remoteness() {
        Some(r) if r > 0 && value.is_win() => format!("safe: the player to move wins in {r}"),
        Some(r) if r > 0 => format!("unsafe: the player to move loses in {r} at most"),
        _ => verdict(value.is_win()).to_string(),
    }
}

/// `1 move`, `2 moves`: a count with its noun, plural when it is not one.
pub fn plural(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Appends one JSON answer record and a newline.
pub fn write_json_answer(out: &mut Vec<u8>, answer: &Answer) -> Result<()> {
    write_json(out, &AnswerRecord::new(answer))
}

/// Writes one JSON value and a newline to standard output (or a buffer for it); a
/// reader that went away is a closed pipe, not a failure to encode.
pub fn write_json<T: Serialize + ?Sized>(out: &mut impl std::io::Write, value: &T) -> Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(|e| match e.io_error_kind() {
        Some(kind) => super::stdout_error(std::io::Error::from(kind)),
        None => Error::input(format!("cannot encode JSON: {e}")),
    })?;
    out.write_all(b"\n").map_err(super::stdout_error)
}

/// Appends heap sizes as `Position`'s display does, without allocating.
pub fn write_heaps(out: &mut Vec<u8>, heaps: &[u64]) {
    if heaps.is_empty() {
        out.extend_from_slice(b"(no heaps)");
        return;
    }
    write_numbers(out, heaps.iter().copied());
}

/// Appends numbers in decimal, separated by spaces, without allocating (a solution's
/// sequence can run to a million values).
pub fn write_numbers(out: &mut Vec<u8>, numbers: impl IntoIterator<Item = u64>) {
    let mut digits = [0u8; 20];
    for (i, h) in numbers.into_iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        let mut at = digits.len();
        let mut v = h;
        loop {
            at -= 1;
            digits[at] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        out.extend_from_slice(&digits[at..]);
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

/// A bar over `len` steps with elapsed time, rate and ETA; hidden when progress is not
/// shown.
pub fn progress_bar(len: u64, quiet: bool, unit: &str) -> ProgressBar {
    if !show_progress(quiet) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    // indicatif's own `per_sec` prints four decimals ("30,913.0493/s"): whole steps
    // per second read better, and the elapsed time says something where steps grow
    // slower towards the end (a picture's last rows) and the ETA is too hopeful.
    let template = format!(
        "{{bar:40}} {{human_pos}}/{{human_len}} {unit} {{elapsed_precise}} {{rate}} ETA {{eta}}"
    );
    let style = ProgressStyle::with_template(&template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}/s", state.per_sec());
            },
        );
    bar.set_style(style);
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
