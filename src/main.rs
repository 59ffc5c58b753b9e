//! The `sicher` binary: parses the command line and hands it to [`sicher::cli`].

use clap::Parser;

fn main() {
    let cli = sicher::cli::Cli::parse();
    if let Err(error) = sicher::cli::run(&cli) {
        eprintln!("sicher: {error}");
        std::process::exit(error.exit_code());
    }
}
