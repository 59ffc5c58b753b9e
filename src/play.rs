//! `sicher play`: a game in the terminal against the computer.
//!
//! - `partizan.rs`: the game for partizan rules: you play Left or Right (`--as`).

mod partizan;

use std::io::{BufRead, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use indicatif::ProgressBar;

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::args::{start_heaps, GameArgs, SearchArgs};
use super::output::{plural, print_json, spinner};
use sicher::answer::Policy;
use sicher::error::{Error, Hint, Result};
use sicher::game::Position;
use sicher::play::{Player, Reply, Session, LISTED_MOVES, MAX_LEVEL};
use sicher::search::Algorithm;
use sicher::value::Value;

const EXAMPLES_PLAY: &str = "Examples:
  sicher play nim 3 4 5                 # you move first
  sicher play kayles --misere --first computer
  sicher play kayles 7 8 9 --level 3    # a weaker opponent: 7 of its 10 moves are random
  sicher play partizan-subtraction:1,3/2,3 9 --as right --first computer
  printf '1\\n1\\n' | sicher play nim 2 3 --json   # scripted: one move per line

In the game, type a move: its number in the list, or the position it leads to (`to 3`
leaves a lone heap of 3, while a lone `3` is move number 3; `3 4` is a position; a line
of the list, `3. to 1 4 5`, works too), or:
  hint   the best move      undo      take your last move back
  moves  list every move    level N   the computer's level from now on (0 to 10)
  help   these commands     quit      end the game (also q, or Ctrl-D in a terminal)";

/// The in-game commands, as `help` lists them.
const COMMANDS: &str = "type a move (its number in the list, or the position it leads to, as heap sizes: `to 3` for a lone heap of 3), or: hint (the best move), undo (take your last move back), moves (list every move), level N (the computer's level from now on, 0 random to 10 perfect), help, quit (or q)";

/// Who moves first.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// You.
    You,
    /// The computer.
    Computer,
    /// Left (partizan games).
    Left,
    /// Right (partizan games).
    Right,
}

/// The side you play in a partizan game.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Left.
    Left,
    /// Right.
    Right,
}

/// Arguments of `sicher play`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES_PLAY)]
pub struct PlayArgs {
    /// The game and convention.
    #[command(flatten)]
    pub game: GameArgs,
    /// The heaps to start from (spaces or commas); with none, the description's start
    /// position.
    #[arg(allow_negative_numbers = true)]
    pub heaps: Vec<String>,
    /// Who moves first: you or the computer (in a partizan game also left or right).
    #[arg(long, value_enum, default_value_t = First::You)]
    pub first: First,
    /// The side you play in a partizan game (default: left); the computer plays the
    /// other.
    #[arg(long = "as", value_name = "SIDE", value_enum)]
    pub side: Option<Side>,
    /// Show the best move before each of yours.
    #[arg(long)]
    pub hint: bool,
    /// How well the computer plays: 10 is perfect play; below, each of its moves is a
    /// random legal move with probability (10 - LEVEL) / 10 (0: always random).
    #[arg(long, value_name = "LEVEL", default_value_t = MAX_LEVEL,
          value_parser = clap::value_parser!(u8).range(0..=MAX_LEVEL as i64))]
    pub level: u8,
    /// Seed of the random moves below level 10 (default: from the clock), to replay a
    /// game.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// One JSON object per move, then one for the result.
    #[arg(long)]
    pub json: bool,
    /// Search settings.
    #[command(flatten)]
    pub search: SearchArgs,
    /// How the remoteness search chooses its windows: alphabeta, aspiration, negascout
    /// or mtdf (default: alphabeta, the best measured).
    #[arg(long, value_name = "NAME")]
    pub algorithm: Option<Algorithm>,
    /// How long the computer may think about one position that no theory or table
    /// answers (the search); past it the game ends with one error line. 0: no limit.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub time_limit: u64,
}

/// One move, as `--json` prints it.
#[derive(Serialize)]
struct MoveRecord<'a> {
    ply: u64,
    by: &'static str,
    /// The move, named by the position it leads to (as `check` names moves).
    #[serde(rename = "move")]
    to: &'a [u64],
    /// The position now.
    position: &'a [u64],
    /// True when the player now to move wins against best play.
    win: bool,
    /// Moves until the game ends under best play from here, where it was searched.
    remoteness: Option<u32>,
    /// True for a random move of the computer below level 10.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    random: bool,
}

/// The result, as `--json` prints it last.
#[derive(Serialize)]
struct ResultRecord {
    /// `"you"` or `"computer"`; `None` when the game was left unfinished.
    winner: Option<&'static str>,
    plies: u64,
    /// True when `quit` ended the game.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    quit: bool,
}

/// An in-game command.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Command {
    Help,
    Hint,
    Undo,
    Moves,
    Quit,
    /// `level N`: the level typed (checked when it is set), or `None` for `level` alone.
    Level(Option<String>),
}

fn command(line: &str) -> Option<Command> {
    let line = line.trim().to_ascii_lowercase();
    if let Some(rest) = line.strip_prefix("level") {
        let rest = rest.trim();
        if rest.is_empty() {
            return Some(Command::Level(None));
        }
        // `level3` is no word; `level 3` and `level=3` are.
        if line.as_bytes()["level".len()].is_ascii_whitespace() || rest.starts_with('=') {
            return Some(Command::Level(Some(
                rest.trim_start_matches('=').trim().to_string(),
            )));
        }
    }
    match line.as_str() {
        "help" | "?" | "h" => Some(Command::Help),
        "hint" => Some(Command::Hint),
        "undo" | "u" => Some(Command::Undo),
        "moves" | "list" => Some(Command::Moves),
        "quit" | "q" | "exit" => Some(Command::Quit),
        _ => None,
    }
}

/// The level `level N` asks for, or why it cannot be: a whole number 0 to 10.
fn typed_level(text: &str) -> Result<u8> {
    text.parse::<u8>()
        .ok()
        .filter(|&level| level <= MAX_LEVEL)
        .ok_or_else(|| {
            Error::input(format!(
                "level {text}: a level is a whole number from 0 (random moves) to {MAX_LEVEL} (perfect play)"
            ))
        })
}

/// How the computer plays at `level`, in words.
fn level_words(level: u8) -> String {
    match level {
        MAX_LEVEL => "perfect play".to_string(),
        0 => "random moves only".to_string(),
        level => format!(
            "{} in 10 of its moves random, the others perfect",
            MAX_LEVEL - level
        ),
    }
}

/// Runs `sicher play`.
pub fn run(args: &PlayArgs) -> Result<()> {
    play(args).map_err(without_foreign_hints)
}

fn play(args: &PlayArgs) -> Result<()> {
    if let Some(game) =
        super::partizan::game(args.game.game.as_deref(), args.game.forced_convention())?
    {
        return partizan::play(args, game);
    }
    if args.side.is_some() {
        return Err(super::partizan::impartial_refuses("--as"));
    }
    if matches!(args.first, First::Left | First::Right) {
        return Err(super::partizan::impartial_refuses("--first left|right"));
    }
    let game = args.game.resolve()?;
    let (heaps, origin) = if args.heaps.is_empty() {
        (
            start_heaps(&game)?,
            format!("the start position of {}'s description", game.name),
        )
    } else {
        (args.heaps.clone(), "as given".to_string())
    };
    let start = Position::parse_args(&heaps)?;
    let policy = Policy {
        search: args.search.config(),
        engine: args.search.engine(),
        algorithm: args.algorithm.unwrap_or_default(),
        ..Policy::default()
    };
    let first = match args.first {
        First::Computer => Player::Computer,
        _ => Player::You,
    };
    let clock = Thinking::started();
    if args.time_limit > 0 {
        // The time limit holds from the start: readying huge heaps or computing their
        // nim-values is thinking too, which no search hook hears.
        clock.clone().watch(Duration::from_secs(args.time_limit));
    }
    // The legal moves are listed before the first answer: ready the start's heaps.
    game.ruleset
        .prepare(start.heaps().iter().copied().max().unwrap_or(0))?;
    let mut session = Session::new(&game, &policy, start, first)?;
    clock.busy.store(false, Ordering::Relaxed);
    if args.time_limit > 0 {
        session.set_search_progress(clock.clone().limit(Duration::from_secs(args.time_limit)));
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    session.set_level(args.level, seed)?;
    let interactive = std::io::stdin().is_terminal();
    let stdin = std::io::stdin();
    let mut lines = InputLines::new(stdin.lock());
    let human = !args.json;
    if human {
        outln!(
            "{}, {} play: the player who {} wins. Moves are counted for both players.",
            game.title(),
            game.convention,
            if game.terminal_is_win() {
                "cannot move"
            } else {
                "makes the last move"
            }
        )?;
        if !game.notes.is_empty() {
            outln!("{}", game.notes)?;
        }
        outln!("start: {} ({origin})", session.position())?;
        outln!(
            "the computer plays at level {} of {MAX_LEVEL} ({}); {} first",
            args.level,
            level_words(args.level),
            match first {
                Player::You => "you move",
                Player::Computer => "the computer moves",
            }
        )?;
        outln!("{COMMANDS}")?;
    }
    loop {
        if let Some(winner) = session.winner() {
            if args.json {
                return print_json(&ResultRecord {
                    winner: Some(winner.name()),
                    plies: session.plies(),
                    quit: false,
                });
            }
            return outln!(
                "{}: no move is left. {} after {}.",
                session.position(),
                match winner {
                    Player::You => "You win",
                    Player::Computer => "The computer wins",
                },
                plural(session.plies(), "move")
            );
        }
        let value = thinking(&clock, &mut session, |s| s.value())?;
        if human {
            outln!(
                "\nposition {}: {}",
                session.position(),
                standing(session.to_move(), value, args.level)
            )?;
        }
        let (to, random) = match session.to_move() {
            Player::Computer => {
                let Reply { to, random } =
                    thinking(&clock, &mut session, |s| s.computer_move())?
                        .ok_or_else(|| Error::internal("a move exists but none was chosen"))?;
                if human {
                    if random {
                        outln!(
                            "the computer plays a random move (level {}): to {to}",
                            args.level
                        )?;
                    } else {
                        outln!("the computer moves to {to}")?;
                    }
                }
                (to, random)
            }
            Player::You => {
                if human {
                    show_moves(&session, interactive)?;
                    if args.hint {
                        show_hint(&clock, &mut session)?;
                    }
                    outln!("your move:")?;
                }
                let reading = Reading {
                    clock: &clock,
                    interactive,
                    human,
                    prompt: "your move:",
                };
                match reading.your_move(&mut session, &mut lines)? {
                    YourMove::To(to) => (to, false),
                    // After undo: your turn again, from the position taken back to.
                    YourMove::Undone => continue,
                    YourMove::Left if human => return Ok(()),
                    YourMove::Left => return quit(&session),
                }
            }
        };
        let by = session.to_move();
        session.play(to)?;
        if args.json {
            let value = thinking(&clock, &mut session, |s| s.value())?;
            print_json(&MoveRecord {
                ply: session.plies(),
                by: by.name(),
                to: session.position().heaps(),
                position: session.position().heaps(),
                win: value.is_win(),
                remoteness: value.remoteness(),
                random,
            })?;
        }
    }
}

/// What reading your move needs of a game in progress, impartial ([`Session`]) or
/// partizan ([`PartizanSession`]): the in-game commands work alike in both.
trait Playing {
    /// The current position.
    fn position(&self) -> &Position;
    /// Moves made so far.
    fn plies(&self) -> u64;
    /// The level the computer plays at.
    fn level(&self) -> u8;
    /// Changes the level, keeping the random choices' sequence.
    fn change_level(&mut self, level: u8) -> Result<()>;
    /// Takes your last move back (with the computer's reply); false when you have not
    /// moved yet.
    fn undo(&mut self) -> Result<bool>;
    /// Reads a move as typed.
    fn parse_move(&self, text: &str) -> Result<Position>;
    /// The best move of the player to move.
    fn best_move(&mut self) -> Result<Option<Position>>;
    /// The number of the move to `to` in the list, from 1.
    fn move_number(&self, to: &Position) -> Option<usize>;
    /// Every move, numbered (the `moves` command).
    fn list_every_move(&self) -> Result<()>;
}

impl Playing for Session {
    fn position(&self) -> &Position {
        Session::position(self)
    }
    fn plies(&self) -> u64 {
        Session::plies(self)
    }
    fn level(&self) -> u8 {
        Session::level(self)
    }
    fn change_level(&mut self, level: u8) -> Result<()> {
        Session::change_level(self, level)
    }
    fn undo(&mut self) -> Result<bool> {
        Ok(Session::undo(self))
    }
    fn parse_move(&self, text: &str) -> Result<Position> {
        Session::parse_move(self, text)
    }
    fn best_move(&mut self) -> Result<Option<Position>> {
        Session::best_move(self)
    }
    fn move_number(&self, to: &Position) -> Option<usize> {
        Session::move_number(self, to)
    }
    fn list_every_move(&self) -> Result<()> {
        list_moves(self, usize::MAX)
    }
}

/// How your move is read: from which clock, whether a person types at a terminal
/// (mistakes are answered, not fatal), whether words are printed (not `--json`), and
/// the prompt repeated after a command.
struct Reading<'a> {
    clock: &'a Thinking,
    interactive: bool,
    human: bool,
    prompt: &'a str,
}

/// What reading your move came to.
enum YourMove {
    /// The move typed.
    To(Position),
    /// `undo` took your last move back: your turn again.
    Undone,
    /// You left: `quit`, or the end of input at a terminal.
    Left,
}

impl Reading<'_> {
    /// Reads lines until one is a move, answering the in-game commands (help, hint,
    /// moves, level, undo, quit) on the way; a script's bad line or early end is an
    /// error.
    fn your_move<S: Playing, R: BufRead>(
        &self,
        session: &mut S,
        lines: &mut InputLines<R>,
    ) -> Result<YourMove> {
        let (human, interactive, prompt) = (self.human, self.interactive, self.prompt);
        loop {
            let Some(line) = lines.next() else {
                if interactive {
                    // Ctrl-D at the prompt: the player left.
                    if human {
                        outln!("")?;
                    }
                    return Ok(YourMove::Left);
                }
                return Err(Error::input(format!(
                    "the input ended with the game unfinished at {} (your move)",
                    session.position()
                )));
            };
            let line = line.map_err(|e| Error::io("<stdin>", e))?;
            match command(&line) {
                Some(Command::Quit) => return Ok(YourMove::Left),
                Some(Command::Help) => {
                    if human {
                        outln!("{COMMANDS}")?;
                        outln!("{prompt}")?;
                    }
                    continue;
                }
                Some(Command::Hint) => {
                    if human {
                        show_hint(self.clock, session)?;
                        outln!("{prompt}")?;
                    }
                    continue;
                }
                Some(Command::Moves) => {
                    if human {
                        session.list_every_move()?;
                        outln!("{prompt}")?;
                    }
                    continue;
                }
                Some(Command::Level(typed)) => {
                    let changed = match typed {
                        None => Ok(None),
                        Some(text) => typed_level(&text).map(Some),
                    };
                    match changed {
                        Ok(Some(level)) => session.change_level(level)?,
                        Ok(None) => {}
                        Err(error) if interactive => {
                            outln!("{}; try again (or type help):", error.message())?;
                            continue;
                        }
                        Err(error) => return Err(error),
                    }
                    if human {
                        outln!(
                            "the computer plays at level {} of {MAX_LEVEL} ({}); {prompt}",
                            session.level(),
                            level_words(session.level())
                        )?;
                    }
                    continue;
                }
                Some(Command::Undo) => {
                    if !session.undo()? {
                        if human {
                            outln!("nothing to undo: you have not moved yet; {prompt}")?;
                        }
                        continue;
                    }
                    if human {
                        outln!("taken back to {}", session.position())?;
                    }
                    return Ok(YourMove::Undone);
                }
                None => {}
            }
            match session.parse_move(&line) {
                Ok(to) => return Ok(YourMove::To(to)),
                Err(error) if interactive => {
                    outln!("{}; try again (or type help):", error.message())?
                }
                Err(error) => {
                    return Err(Error::input(format!(
                        "move {}: {}",
                        session.plies() + 1,
                        error.message()
                    )))
                }
            }
        }
    }
}

/// The JSON record of a game left unfinished.
fn quit(session: &Session) -> Result<()> {
    print_json(&ResultRecord {
        winner: None,
        plies: session.plies(),
        quit: true,
    })
}

/// When the computer began thinking about the question now asked, and the spinner shown
/// meanwhile.
struct Thinking {
    since: Mutex<Instant>,
    bar: Mutex<ProgressBar>,
    /// True while the computer works (not while it waits for your move).
    busy: AtomicBool,
}

impl Thinking {
    /// A clock counting from now, busy (the game is being set up).
    fn started() -> Arc<Thinking> {
        Arc::new(Thinking {
            since: Mutex::new(Instant::now()),
            bar: Mutex::new(ProgressBar::hidden()),
            busy: AtomicBool::new(true),
        })
    }

    /// When the question now asked began.
    fn since(&self) -> Instant {
        *self.since.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The spinner shown meanwhile (a handle: clones share one bar).
    fn bar(&self) -> ProgressBar {
        self.bar
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Watches the time limit from a thread of its own, for work no search hook hears
    /// (readying heaps, nim-values, a quotient): past `limit` on one question, the game
    /// ends as the search's hook ends it.
    fn watch(self: Arc<Self>, limit: Duration) {
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(50));
            if self.busy.load(Ordering::Relaxed) && self.since().elapsed() > limit {
                self.bar().finish_and_clear();
                let error = Error::resource(format!(
                    "the computer could not work out the position within {} (no theory or table answers it quickly); play smaller heaps, or raise --time-limit",
                    plural(limit.as_secs(), "second"),
                ));
                eprintln!("sicher: {}", super::errors::render(&error));
                sicher::atomic_file::remove_temporaries_before_exit();
                std::process::exit(super::errors::exit_code(&error));
            }
        });
    }

    /// The search's progress hook: past `limit` on one question, the spinner goes and
    /// the game ends with one error line and exit code 2 (the search cannot be stopped
    /// halfway, and play has nothing to leave behind).
    fn limit(self: Arc<Self>, limit: Duration) -> sicher::search::ProgressHook {
        Box::new(move |stats| {
            if self.since().elapsed() > limit {
                self.bar().finish_and_clear();
                let error = Error::resource(format!(
                    "the computer could not work out the position within {} (its search ran past {} nodes, and no theory or table answers it); play smaller heaps, or raise --time-limit",
                    plural(limit.as_secs(), "second"),
                    stats.nodes
                ));
                eprintln!("sicher: {}", super::errors::render(&error));
                std::process::exit(super::errors::exit_code(&error));
            }
        })
    }
}

/// Runs `work` with a spinner on a terminal ("the computer is thinking"), shown only
/// once it takes a moment, and the time limit counted from now.
fn thinking<S, T>(
    clock: &Thinking,
    session: &mut S,
    work: impl FnOnce(&mut S) -> Result<T>,
) -> Result<T> {
    *clock.since.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
    *clock.bar.lock().unwrap_or_else(PoisonError::into_inner) = spinner(false, "thinking");
    clock.busy.store(true, Ordering::Relaxed);
    let result = work(session);
    clock.busy.store(false, Ordering::Relaxed);
    clock.bar().finish_and_clear();
    result
}

/// The best move of the player to move, as a line.
fn show_hint(clock: &Thinking, session: &mut impl Playing) -> Result<()> {
    let best = thinking(clock, session, |s| s.best_move())?;
    let number = best.as_ref().and_then(|to| session.move_number(to));
    outln!("{}", hint_line(best.as_ref(), number))
}

/// `hint: the best move is to 4 4 (move 5)`; a move that takes the last tokens says it
/// leaves no heaps rather than "to (no heaps)".
fn hint_line(best: Option<&Position>, number: Option<usize>) -> String {
    let number = number.map_or(String::new(), |n| format!(" (move {n})"));
    match best {
        Some(to) if to.heaps().is_empty() => {
            format!("hint: the best move takes the last tokens, leaving no heaps{number}")
        }
        Some(to) => format!("hint: the best move is to {to}{number}"),
        None => "hint: no move is left".to_string(),
    }
}

/// The moves before your turn: in columns, as many as the screen holds (a terminal), or
/// all of them (a script); a position with more moves than are listed gets examples.
fn show_moves(session: &Session, interactive: bool) -> Result<()> {
    if !session.moves_complete() {
        let examples: Vec<String> = session
            .moves()
            .iter()
            .take(3)
            .map(|to| format!("to {to}"))
            .collect();
        return outln!(
            "more than {LISTED_MOVES} moves (for instance {}): type the position your move leads to",
            examples.join(", ")
        );
    }
    list_moves(session, screen_rows(interactive))
}

/// How many rows of moves to show before your turn: what the screen holds below the
/// position and prompt on a terminal, all of them for a script.
fn screen_rows(interactive: bool) -> usize {
    if interactive {
        terminal_rows().saturating_sub(10).max(8)
    } else {
        usize::MAX
    }
}

/// The numbered moves in columns, at most `max_rows` rows of them.
fn list_moves(session: &Session, max_rows: usize) -> Result<()> {
    if !session.moves_complete() {
        return outln!(
            "more than {LISTED_MOVES} moves: too many to list; type the position your move leads to"
        );
    }
    numbered_moves(session.moves(), max_rows)
}

/// `moves` numbered from 1 in columns, at most `max_rows` rows of them.
fn numbered_moves(moves: &[Position], max_rows: usize) -> Result<()> {
    let labels: Vec<String> = moves
        .iter()
        .enumerate()
        .map(|(i, to)| format!("{:>3}. to {to}", i + 1))
        .collect();
    for line in columns(&labels, terminal_columns(), max_rows) {
        outln!("{line}")?;
    }
    Ok(())
}

/// `items` in columns, filled top to bottom, in lines of at most `width` characters and
/// at most `max_rows` rows; the last row says how many were left out.
fn columns(items: &[String], width: usize, max_rows: usize) -> Vec<String> {
    let cell = items.iter().map(|s| s.chars().count()).max().unwrap_or(0) + 3;
    let per_row = (width / cell.max(1)).max(1);
    let rows = items.len().div_ceil(per_row);
    let (rows, shown) = if rows > max_rows {
        // Room for the note on the last row.
        let rows = max_rows.max(2) - 1;
        (rows, rows * per_row)
    } else {
        (rows, items.len())
    };
    let mut out: Vec<String> = (0..rows)
        .map(|r| {
            let mut line = String::new();
            for c in 0..per_row {
                if let Some(item) = items.get(c * rows + r).filter(|_| c * rows + r < shown) {
                    line.push_str(&format!("{item:<cell$}"));
                }
            }
            line.trim_end().to_string()
        })
        .collect();
    if shown < items.len() {
        out.push(format!(
            "  … and {} more: type `moves` to list them all",
            items.len() - shown
        ));
    }
    out
}

fn terminal_size() -> Option<(usize, usize)> {
    console::Term::stdout()
        .size_checked()
        .map(|(rows, cols)| (usize::from(rows), usize::from(cols)))
}

fn terminal_rows() -> usize {
    terminal_size().map_or(24, |(rows, _)| rows)
}

fn terminal_columns() -> usize {
    terminal_size().map_or(80, |(_, cols)| cols)
}

/// A seed from the clock and the process id.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// Who stands to win, from your side of the board, in moves of both players. The
/// computer's wins are "in at most" (a worse defence ends sooner); yours say what best
/// play takes. Without the remoteness (huge heaps, answered by theory) no count is said.
fn standing(to_move: Player, value: Value, level: u8) -> String {
    let computer_wins = matches!(
        (to_move, value.is_win()),
        (Player::You, false) | (Player::Computer, true)
    );
    let count = value.remoteness();
    match (to_move, computer_wins, count) {
        (Player::You, false, Some(r)) => format!("you can win in {}", plural(r.into(), "move")),
        (Player::You, false, None) => "you can win".to_string(),
        (Player::Computer, false, Some(r)) => format!(
            "the computer is lost: you can win in {}",
            plural(r.into(), "move")
        ),
        (Player::Computer, false, None) => "the computer is lost: you can win".to_string(),
        (_, true, count) => {
            let how = if level == MAX_LEVEL {
                "the computer wins"
            } else {
                "the computer can win"
            };
            match count {
                Some(r) => format!(
                    "you are lost: {how} in at most {}",
                    plural(r.into(), "move")
                ),
                None => format!("you are lost: {how}"),
            }
        }
    }
}

/// Hints that name flags `play` does not take are left out: `play` has no `--method`,
/// `--max` or `--table`.
fn without_foreign_hints(error: Error) -> Error {
    match error.hint() {
        Some(Hint::UseMisere) | None => error,
        Some(_) => error.without_hint(),
    }
}

/// Lines of input ended by `\n`, `\r\n` or a lone `\r` (old Mac files, some terminals'
/// scripts): `BufRead::lines` would keep a lone `\r` inside one long line. A line is
/// handed on as soon as its end arrives, never waiting to see what follows a `\r`.
struct InputLines<R> {
    input: R,
    /// The last line ended with `\r`: a `\n` right after it belongs to that end.
    after_cr: bool,
}

impl<R: BufRead> InputLines<R> {
    fn new(input: R) -> Self {
        InputLines {
            input,
            after_cr: false,
        }
    }
}

impl<R: BufRead> Iterator for InputLines<R> {
    type Item = std::io::Result<String>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut line = Vec::new();
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(buffer) => buffer,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Some(Err(e)),
            };
            if buffer.is_empty() {
                // The end of input: a last line without its end is still a line.
                return (!line.is_empty()).then(|| Ok(String::from_utf8_lossy(&line).into_owned()));
            }
            let mut used = 0;
            if std::mem::take(&mut self.after_cr) && buffer[0] == b'\n' {
                used = 1;
            }
            match buffer[used..]
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
            {
                Some(at) => {
                    line.extend_from_slice(&buffer[used..used + at]);
                    self.after_cr = buffer[used + at] == b'\r';
                    self.input.consume(used + at + 1);
                    return Some(Ok(String::from_utf8_lossy(&line).into_owned()));
                }
                None => {
                    line.extend_from_slice(&buffer[used..]);
                    let len = buffer.len();
                    self.input.consume(len);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_fill_top_to_bottom_and_say_what_they_leave_out() {
        let items: Vec<String> = (1..=7).map(|i| format!("{i}")).collect();
        assert_eq!(columns(&items, 12, 10), vec!["1   4   7", "2   5", "3   6"]);
        let cut = columns(&items, 8, 2);
        assert_eq!(cut[0], "1   2");
        assert!(cut[1].contains("5 more"), "{cut:?}");
    }

    #[test]
    fn standings_count_moves_with_plurals() {
        let won = Value::remote(1, sicher::game::Convention::Normal);
        assert_eq!(standing(Player::You, won, 10), "you can win in 1 move");
        let lost = Value::remote(2, sicher::game::Convention::Normal);
        assert_eq!(
            standing(Player::You, lost, 10),
            "you are lost: the computer wins in at most 2 moves"
        );
        let won3 = Value::remote(3, sicher::game::Convention::Normal);
        assert_eq!(
            standing(Player::Computer, won3, 10),
            "you are lost: the computer wins in at most 3 moves"
        );
        assert_eq!(
            standing(Player::Computer, won3, 4),
            "you are lost: the computer can win in at most 3 moves"
        );
    }

    #[test]
    fn lines_end_at_lf_crlf_or_a_lone_cr() {
        let text = "1\r2\r\n3\n\r4\r\r5";
        // A one-byte buffer: a `\r\n` split between reads is still one end.
        let reader = std::io::BufReader::with_capacity(1, text.as_bytes());
        let lines: Vec<String> = InputLines::new(reader).map(Result::unwrap).collect();
        assert_eq!(lines, ["1", "2", "3", "", "4", "", "5"]);
        let lines: Vec<String> = InputLines::new(text.as_bytes())
            .map(Result::unwrap)
            .collect();
        assert_eq!(lines, ["1", "2", "3", "", "4", "", "5"]);
    }
}
