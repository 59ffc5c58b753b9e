//! The `sicher` binary: parses the command line and hands it to [`sicher::cli`].

mod cli;

use clap::error::ErrorKind;
use clap::Parser;

fn main() {
    ignore_file_size_signal();
    // SIGINT, SIGTERM and SIGHUP: remove the temporaries being written, then exit. The
    // library installs no handler; without one the default action still ends the
    // process and the next writer removes a stale temporary, so a failure loses nothing.
    let _ = ctrlc::set_handler(|| {
        sicher::atomic_file::remove_temporaries_before_exit();
        std::process::exit(cli::errors::INTERRUPTED);
    });
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => match error.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => error.exit(),
            _ => {
                eprintln!("sicher: {} (see --help)", one_line(&error.to_string()));
                std::process::exit(cli::errors::USAGE);
            }
        },
    };
    if let Err(error) = cli::run(&cli) {
        eprintln!("sicher: {}", cli::errors::render(&error));
        std::process::exit(cli::errors::exit_code(&error));
    }
}

/// Past `ulimit -f`, the kernel sends SIGXFSZ, whose default action kills the process
/// without a word. Ignored, the write fails with EFBIG instead, which becomes one error
/// line (the table's temporary removed) like a full disk. Only the binary does this: the
/// library installs no signal handlers.
#[cfg(unix)]
fn ignore_file_size_signal() {
    use nix::sys::signal::{signal, SigHandler, Signal};
    // SAFETY: SIG_IGN runs no code in the signal's context, and no thread exists yet.
    let _ = unsafe { signal(Signal::SIGXFSZ, SigHandler::SigIgn) };
}

#[cfg(not(unix))]
fn ignore_file_size_signal() {}

/// Most characters of a usage error: clap quotes the offending argument whole.
const MAX_USAGE_LINE: usize = 300;

/// Folds clap's message (everything before the usage block) onto one line, escaped and
/// cut short, since it quotes whatever was typed.
fn one_line(message: &str) -> String {
    let line = message
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    let line = line.trim_start_matches("error: ");
    let mut out: String = line
        .chars()
        .take(MAX_USAGE_LINE)
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect();
    if line.chars().count() > MAX_USAGE_LINE {
        out.push('…');
    }
    out
}
