//! The `sicher` binary: parses the command line and hands it to [`sicher::cli`].

use clap::error::ErrorKind;
use clap::Parser;

/// Exit code for anything the user can fix.
const USAGE_ERROR: i32 = 2;

fn main() {
    let cli = match sicher::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => match error.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => error.exit(),
            _ => {
                eprintln!("sicher: {} (see --help)", one_line(&error.to_string()));
                std::process::exit(USAGE_ERROR);
            }
        },
    };
    if let Err(error) = sicher::cli::run(&cli) {
        eprintln!("sicher: {error}");
        std::process::exit(error.exit_code());
    }
}

/// Folds clap's message (everything before the usage block) onto one line.
fn one_line(message: &str) -> String {
    message
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches("error: ")
        .to_string()
}
