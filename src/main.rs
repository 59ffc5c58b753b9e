//! The `sicher` binary: parses the command line and hands it to [`sicher_cli`].

use sicher_cli as cli;

use clap::error::ErrorKind;
use clap::Parser;

fn main() {
    cli::ignore_file_size_signal();
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
