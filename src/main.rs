//! The `sicher` binary: parses the command line and hands it to [`sicher::cli`].

use sicher_cli as cli;

use clap::error::ErrorKind;
use clap::Parser;

fn main() {
    ignore_file_size_signal();
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => match error.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => error.exit(),
            _ => {
                eprintln!(
                    "sicher: {} (see --help)",
                    cli::errors::usage_line(&error.to_string())
                );
                std::process::exit(cli::errors::USAGE);
            }
        },
    };
    // SIGINT, SIGTERM and SIGHUP: remove the temporaries being written, then exit. The
    // library installs no handler; without one the default action still ends the
    // process and the next writer removes a stale temporary, so a failure loses nothing.
    // `serve` writes no files and shuts down cleanly on its own signals instead.
    if !cli.serves() {
        let _ = ctrlc::set_handler(|| {
            sicher::atomic_file::remove_temporaries_before_exit();
            std::process::exit(cli::errors::INTERRUPTED);
        });
    }
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
