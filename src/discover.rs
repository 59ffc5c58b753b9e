//! Finding one's way: `sicher games` (the shipped games and the spec forms, a line
//! each), `sicher completions SHELL` (clap_complete) and `sicher man` (a roff page made
//! by clap_mangen from the same definition as `--help`).

use std::path::PathBuf;

use clap::{Args, CommandFactory};
use serde::Serialize;

use super::output::print_json;
use super::stdout_error;
use sicher::atomic_file::{write_bytes, Replace};
use sicher::error::{Error, Result};
use sicher::game::{parse_description, shipped_games};

const EXAMPLES_GAMES: &str = "Examples:
  sicher games                  # a line per shipped game, then the spec forms
  sicher games --json";

const EXAMPLES_COMPLETIONS: &str = "Examples:
  sicher completions bash > sicher.bash
  sicher completions zsh > _sicher
  sicher completions fish > sicher.fish

Then `source sicher.bash` (or copy it to ~/.local/share/bash-completion/completions/sicher),
put _sicher in a folder of zsh's $fpath, or sicher.fish in ~/.config/fish/completions/.";

const EXAMPLES_MAN: &str = "Examples:
  sicher man -o sicher.1        # writes sicher.1 (then: man ./sicher.1)
  sicher man check              # the page of one command, on standard output";

/// The inline forms a GAME may take besides a shipped name or a file: (form, example,
/// what it is).
const SPEC_FORMS: &[(&str, &str, &str)] = &[
    (
        "octal:CODE",
        "octal:0.77",
        "an octal game by its take-and-break code (0.77 is Kayles)",
    ),
    (
        "hex:CODE",
        "hex:0.8F",
        "a hexadecimal game by its take-and-break code",
    ),
    (
        "subtraction:SET",
        "subtraction:1,3,4",
        "take a number of the set from one heap (subtraction:squares: any square)",
    ),
    (
        "moore:K",
        "moore:2",
        "Moore's Nim: take from at most K heaps at once",
    ),
    (
        "partizan-subtraction:L/R",
        "partizan-subtraction:1,3/2,3",
        "a partizan subtraction game: Left takes from L, Right from R",
    ),
    (
        "FILE.toml",
        "games/kayles.toml",
        "a description (rules, code or script, play, start): docs/games.md",
    ),
];

/// Arguments of `sicher games`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES_GAMES)]
pub struct GamesArgs {
    /// Print one JSON object: `games` (the shipped ones) and `specs` (the inline forms).
    #[arg(long)]
    pub json: bool,
}

/// One shipped game, as `games --json` lists it.
#[derive(Serialize)]
struct ShippedRecord {
    /// The name that selects it.
    name: String,
    /// Its rules as an inline spec (`script:HASH` for a script).
    rules: String,
    /// `"normal"` or `"misere"`.
    play: String,
    /// The description's start position, if it gives one.
    start: Option<Vec<u64>>,
    /// The description's first sentence of notes.
    about: String,
}

/// One inline form, as `games --json` lists it.
#[derive(Serialize)]
struct SpecRecord {
    form: &'static str,
    example: &'static str,
    about: &'static str,
}

/// The whole `games --json` object.
#[derive(Serialize)]
struct GamesRecord {
    games: Vec<ShippedRecord>,
    specs: Vec<SpecRecord>,
}

/// The first sentence of a description's notes, on one line.
fn first_sentence(notes: &str) -> String {
    let line = notes.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.find(". ").or_else(|| line.find("; ")) {
        Some(end) => line[..end].to_string(),
        None => line.trim_end_matches('.').to_string(),
    }
}

/// Runs `sicher games`.
pub fn run_games(args: &GamesArgs) -> Result<()> {
    let mut games = Vec::new();
    for shipped in shipped_games() {
        let game = parse_description(shipped.toml, &format!("<shipped {}>", shipped.name))?;
        games.push(ShippedRecord {
            name: shipped.name.to_string(),
            rules: game.ruleset.spec(),
            play: game.convention.to_string(),
            start: game.start.as_ref().map(|p| p.heaps().to_vec()),
            about: first_sentence(&game.notes),
        });
    }
    let specs = SPEC_FORMS
        .iter()
        .map(|&(form, example, about)| SpecRecord {
            form,
            example,
            about,
        })
        .collect();
    let record = GamesRecord { games, specs };
    if args.json {
        return print_json(&record);
    }
    outln!("Shipped games (sicher check NAME ..., or the file games/NAME.toml):")?;
    let width = record.games.iter().map(|g| g.name.len()).max().unwrap_or(0);
    let rules_width = record
        .games
        .iter()
        .map(|g| g.rules.len().min(20))
        .max()
        .unwrap_or(0);
    for game in &record.games {
        let rules = if game.rules.starts_with("script:") {
            "script"
        } else {
            &game.rules
        };
        outln!(
            "  {:width$}  {rules:rules_width$}  {:6}  {}",
            game.name,
            game.play,
            game.about
        )?;
    }
    outln!("Inline specs (any code, set or K):")?;
    let width = SPEC_FORMS.iter().map(|s| s.0.len()).max().unwrap_or(0);
    for spec in &record.specs {
        outln!(
            "  {:width$}  {} (as in {})",
            spec.form,
            spec.about,
            spec.example
        )?;
    }
    Ok(())
}

/// Arguments of `sicher completions`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES_COMPLETIONS)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Runs `sicher completions`: the script on standard output.
pub fn run_completions(args: &CompletionsArgs) -> Result<()> {
    let mut command = super::Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "sicher", &mut script);
    write_stdout(&script)
}

/// Arguments of `sicher man`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES_MAN)]
pub struct ManArgs {
    /// One command's page (such as `check`) instead of sicher's.
    pub command: Option<String>,
    /// Write the page here instead of to standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace the output file if it exists (a regular file only).
    #[arg(long, requires = "output")]
    pub force: bool,
}

/// Runs `sicher man`: the roff page of sicher, or of one of its commands.
pub fn run_man(args: &ManArgs) -> Result<()> {
    let mut top = super::Cli::command();
    top.build();
    let command = match &args.command {
        None => (top, None),
        Some(name) => {
            let names: Vec<String> = top
                .get_subcommands()
                .map(|c| c.get_name().to_string())
                .collect();
            let found = top.find_subcommand(name).cloned().ok_or_else(|| {
                Error::input(format!(
                    "no command {} (the commands: {})",
                    sicher::error::quote(name),
                    names.join(", ")
                ))
            })?;
            // The page's title names the program and the command, as `sicher-check`.
            let title = format!("sicher-{}", found.get_name());
            (found.version(env!("CARGO_PKG_VERSION")), Some(title))
        }
    };
    let (command, title) = match command {
        (command, Some(title)) => (command, title),
        (command, None) => (command, "sicher".to_string()),
    };
    let mut page = Vec::new();
    clap_mangen::Man::new(command)
        .title(title)
        .render(&mut page)
        .map_err(stdout_error)?;
    match &args.output {
        Some(path) => {
            let replace = if args.force {
                Replace::RegularFile
            } else {
                Replace::Never
            };
            write_bytes(path, &page, replace)?;
            outln!("wrote {}: the manual page", path.display())
        }
        None => write_stdout(&page),
    }
}

/// Writes `bytes` to standard output.
fn write_stdout(bytes: &[u8]) -> Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).map_err(stdout_error)?;
    out.flush().map_err(stdout_error)
}
