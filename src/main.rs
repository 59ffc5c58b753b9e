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
