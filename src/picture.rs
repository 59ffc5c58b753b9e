//! `sicher picture` (the map of two-heap positions, as a PNG, framed with `--axes`, or
//! in the terminal) and `sicher plot` (the per-heap series as a PNG or in the terminal).

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use super::args::{GameArgs, SearchArgs};
use super::output::{print_json, progress_bar, show_progress, spinner};
use super::time_limit::{TimeLimitArgs, Watchdog};
use sicher::answer::{Chain, Policy};
use sicher::atomic_file::{check_destination, Replace};
use sicher::error::{Hint, Result};
use sicher::memory;
use sicher::picture::{
    framed_map_size, map_png_size, render_plot_terminal, render_terminal, save_framed_map_png,
    save_map_png, save_plot_png, MapMode, DEFAULT_PLOT_SIZE,
};
use sicher::survey::{self, heap_series, two_heap_map};

const EXAMPLES_PICTURE: &str = "Examples:
  sicher picture wythoff --max 60                      # in the terminal
  sicher picture wythoff --max 400 -o wythoff.png      # pixel (x, y) is the position (x, y)
  sicher picture wythoff --max 200 --axes -o w.png     # with a title and numbered axes
  sicher picture kayles --max 30 --misere --scale 8 --remoteness -o k.png
  sicher picture nim --max 100 --columns 120 > nim.txt";

const EXAMPLES_PLOT: &str = "Examples:
  sicher plot kayles --max 400 -o kayles.png
  sicher plot subtraction:1,3,4 --max 100 --misere -o s.png
  sicher plot kayles --max 100            # in the terminal";

/// Arguments of `sicher picture`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES_PICTURE)]
pub struct PictureArgs {
    /// The game and convention.
    #[command(flatten)]
    pub game: GameArgs,
    /// Largest heap on either axis: positions (a, b) with 0 <= a, b <= N.
    #[arg(long, value_name = "N")]
    pub max: u64,
    /// Write a PNG here instead of drawing in the terminal.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Pixels per position side in the PNG.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "output")]
    pub scale: u32,
    /// Shade by remoteness, with a legend beside the map (PNG only).
    #[arg(long, requires = "output")]
    pub remoteness: bool,
    /// Replace the output file if it exists (a regular file only).
    #[arg(long, requires = "output")]
    pub force: bool,
    /// Frame the PNG: a title, and both axes numbered and named (the map is moved by the
    /// margins; without it pixel (x, y) is position (x, y)).
    #[arg(long, requires = "output")]
    pub axes: bool,
    /// Terminal map: at most this many columns (default: the terminal's width; through a
    /// pipe, the whole map up to 1000 columns).
    #[arg(long, value_name = "N", conflicts_with = "output",
          value_parser = clap::value_parser!(u32).range(8..=100_000))]
    pub columns: Option<u32>,
    /// No progress bar, even on a terminal.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print what was drawn as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Search settings.
    #[command(flatten)]
    pub search: SearchArgs,
    /// How long drawing may take.
    #[command(flatten)]
    pub time_limit: TimeLimitArgs,
}

/// What `picture` reports.
#[derive(Serialize)]
struct PictureReport {
    game: String,
    /// The game as named on the command line.
    name: String,
    max: u64,
    path: Option<String>,
    width: u64,
    height: u64,
    #[serde(rename = "unsafe")]
    unsafe_count: u64,
    seconds: f64,
}

/// Runs `sicher picture`.
pub fn run_picture(args: &PictureArgs) -> Result<()> {
    if let Some(game) =
        super::partizan::game(args.game.game.as_deref(), args.game.forced_convention())?
    {
        return run_partizan_picture(args, &game);
    }
    let started = Instant::now();
    let game = args.game.resolve()?;
    let mode = if args.remoteness {
        MapMode::Remoteness
    } else {
        MapMode::Outcome
    };
    let (cols, rows) = terminal_bounds(args.columns, args.max);
    let (width, height) = match &args.output {
        Some(_) => {
            let (w, h) = if args.axes {
                framed_map_size(args.max, args.scale, mode)?
            } else {
                map_png_size(args.max, args.scale, mode)?
            };
            (u64::from(w), u64::from(h))
        }
        None => (cols as u64, rows as u64),
    };
    let needed = survey::map_bytes_needed(args.max, args.scale, mode);
    memory::check_fits(
        &format!("a map of {0} x {0} positions", u128::from(args.max) + 1),
        needed,
        Hint::LowerMax,
    )?;
    if let Some(path) = &args.output {
        check_destination(path, replace(args.force))?;
    }
    let policy = Policy {
        search: args.search.config(),
        engine: args.search.engine(),
        ..Policy::default()
    };
    let mut chain = Chain::new(&game, &policy)?;
    Watchdog::start(&args.time_limit).working_on(format!("the map up to {}", args.max));
    let bar = progress_bar(args.max.saturating_add(1), args.quiet, "rows");
    if show_progress(args.quiet) {
        // Say once, above the bar, why theory passed before cells go to the search.
        let (notice, mut told) = (bar.clone(), false);
        chain.set_fallback_notice(Box::new(move |why: &str| {
            if !told {
                notice.println(format!("{why}: the search answers instead"));
                told = true;
            }
        }));
    }
    let map = two_heap_map(&mut chain, args.max, args.remoteness, &mut |done| {
        bar.set_position(done)
    });
    bar.finish_and_clear();
    let map = map?;
    let unsafe_count = map.cells().iter().filter(|c| !c.win).count() as u64;
    let path = match &args.output {
        Some(path) if args.axes => {
            let title = format!(
                "{}, {} play: {}",
                game.title(),
                game.convention,
                match mode {
                    MapMode::Outcome => "unsafe positions black, safe white",
                    MapMode::Remoteness => "shaded by remoteness",
                }
            );
            save_framed_map_png(&map, args.scale, mode, &title, path, replace(args.force))?;
            Some(path.display().to_string())
        }
        Some(path) => {
            save_map_png(&map, args.scale, mode, path, replace(args.force))?;
            Some(path.display().to_string())
        }
        None => {
            if !args.json {
                let drawing = render_terminal(&map, cols, rows.saturating_sub(1).max(4))?;
                outln!(
                    "{}, {} play, every position of two heaps up to {}:",
                    game.title(),
                    game.convention,
                    args.max
                )?;
                outln!("{}", drawing.trim_end())?;
            }
            None
        }
    };
    let report = PictureReport {
        game: game.canonical(),
        name: game.name.clone(),
        max: args.max,
        path,
        width,
        height,
        unsafe_count,
        seconds: started.elapsed().as_secs_f64(),
    };
    if args.json {
        return print_json(&report);
    }
    if let Some(path) = &report.path {
        let shade = match mode {
            MapMode::Outcome => "black",
            MapMode::Remoteness => "in blues",
        };
        outln!(
            "wrote {path}: {}, {} play, {} x {} pixels, {} unsafe positions ({shade}) of {}",
            game.title(),
            game.convention,
            report.width,
            report.height,
            report.unsafe_count,
            map.cells().len()
        )?;
    }
    Ok(())
}

/// Most columns of a terminal drawing sent through a pipe: the whole map (or plot) up to
/// this width, instead of a guess at a terminal's size.
const MAX_PIPED_COLUMNS: usize = 1000;

/// The columns and lines a terminal map of `0..=max` may take: `--columns` if given; on
/// a terminal, its size; through a pipe, the whole map up to [`MAX_PIPED_COLUMNS`] (the
/// drawing says what it shows when that crops it).
fn terminal_bounds(columns: Option<u32>, max: u64) -> (usize, usize) {
    // The map's margin, its columns, and a label hanging past the last one.
    let whole = usize::try_from(max)
        .unwrap_or(usize::MAX)
        .saturating_add(32);
    let whole_lines = whole / 2 + 4;
    match columns {
        Some(columns) => (columns as usize, whole_lines),
        None if console::Term::stdout().is_term() => terminal_size(),
        None => (
            whole.min(MAX_PIPED_COLUMNS),
            whole_lines.min(MAX_PIPED_COLUMNS),
        ),
    }
}

/// The terminal's columns and rows (80 x 24 when not a terminal and `COLUMNS`/`LINES`
/// say nothing).
fn terminal_size() -> (usize, usize) {
    if let Some((rows, cols)) = console::Term::stdout().size_checked() {
        return (usize::from(cols), usize::from(rows));
    }
    let from_env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|&v: &usize| v > 0)
            .unwrap_or(default)
    };
    (from_env("COLUMNS", 80), from_env("LINES", 24))
}

/// Arguments of `sicher plot`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES_PLOT)]
pub struct PlotArgs {
    /// The game (one-heap rules) and convention.
    #[command(flatten)]
    pub game: GameArgs,
    /// Largest heap size plotted: G(0) to G(N).
    #[arg(long, value_name = "N")]
    pub max: u64,
    /// The PNG to write; without it, the plot is drawn in the terminal.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Terminal plot: at most this many columns (default: the terminal's width, or 100
    /// through a pipe).
    #[arg(long, value_name = "N", conflicts_with = "output",
          value_parser = clap::value_parser!(u32).range(16..=100_000))]
    pub columns: Option<u32>,
    /// Image width in pixels.
    #[arg(long, default_value_t = DEFAULT_PLOT_SIZE.0)]
    pub width: u32,
    /// Image height in pixels.
    #[arg(long, default_value_t = DEFAULT_PLOT_SIZE.1)]
    pub height: u32,
    /// Replace the output file if it exists (a regular file only).
    #[arg(long, requires = "output")]
    pub force: bool,
    /// Print what was drawn as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No spinner, even on a terminal.
    #[arg(long, short)]
    pub quiet: bool,
    /// How long computing the series may take.
    #[command(flatten)]
    pub time_limit: TimeLimitArgs,
}

/// What `plot` reports.
#[derive(Serialize)]
struct PlotReport {
    game: String,
    /// The game as named on the command line.
    name: String,
    /// The PNG written, or `None` for a plot drawn in the terminal.
    path: Option<String>,
    values: u64,
    preperiod: Option<u64>,
    period: Option<u64>,
    /// `s` of an arithmetic period, G(n + period) = G(n) + s (0: ordinary), with `period`.
    saltus: Option<u64>,
    proved_at: Option<u64>,
    summary: String,
}

/// Runs `sicher plot`.
pub fn run_plot(args: &PlotArgs) -> Result<()> {
    if let Some(game) =
        super::partizan::game(args.game.game.as_deref(), args.game.forced_convention())?
    {
        return run_partizan_plot(args, &game);
    }
    let game = args.game.resolve()?;
    let size = (args.width, args.height);
    memory::check_fits(
        "the plot",
        survey::plot_bytes_needed(size, args.max),
        Hint::LowerMax,
    )?;
    let replace = replace(args.force);
    if let Some(path) = &args.output {
        check_destination(path, replace)?;
    }
    Watchdog::start(&args.time_limit).working_on(format!("the series up to {}", args.max));
    let bar = spinner(args.quiet, "computing the series");
    let series = heap_series(&game, args.max);
    bar.finish_and_clear();
    let series = series?;
    let drawing = match &args.output {
        Some(path) => {
            save_plot_png(&series, size, path, replace)?;
            None
        }
        None => {
            let columns = match args.columns {
                Some(columns) => columns as usize,
                None if console::Term::stdout().is_term() => terminal_size().0,
                None => 100,
            };
            Some(render_plot_terminal(&series, columns, 16)?)
        }
    };
    let report = PlotReport {
        game: game.canonical(),
        name: game.name.clone(),
        path: args.output.as_ref().map(|p| p.display().to_string()),
        values: series.values.len() as u64,
        preperiod: series.preperiod,
        period: series.period,
        saltus: series.period.map(|_| series.saltus),
        proved_at: series.proved_at,
        summary: series.proof_summary(),
    };
    if args.json {
        return print_json(&report);
    }
    let Some(path) = &report.path else {
        return outln!("{}", drawing.unwrap_or_default().trim_end());
    };
    outln!(
        "wrote {}: {} values of {}, {} play; {}",
        path,
        report.values,
        game.title(),
        game.convention,
        report.summary
    )
}

/// What `--force` allows.
fn replace(force: bool) -> Replace {
    if force {
        Replace::RegularFile
    } else {
        Replace::Never
    }
}

/// `picture` for a partizan game: the two-heap map in the four outcome classes, in the
/// terminal as letters or as a PNG in four colours, with the legend in words.
fn run_partizan_picture(
    args: &PictureArgs,
    game: &sicher::game::partizan::PartizanGame,
) -> Result<()> {
    if args.remoteness {
        return Err(sicher::error::Error::input(
            "--remoteness draws impartial maps; a partizan map shows the four outcome classes",
        ));
    }
    if let Some(path) = &args.output {
        sicher::picture::classes_png_side(args.max, args.scale)?;
        check_destination(path, replace(args.force))?;
    }
    memory::check_fits(
        &format!("a map of {0} x {0} positions", u128::from(args.max) + 1),
        (u128::from(args.max) + 1).pow(2) * 4,
        Hint::LowerMax,
    )?;
    let mut chain =
        sicher::answer::PartizanChain::new(game, sicher::answer::PartizanPolicy::default())?;
    let bar = progress_bar(args.max.saturating_add(1), args.quiet, "rows");
    let classes = survey::partizan_map(&mut chain, args.max, &mut |done| bar.set_position(done));
    bar.finish_and_clear();
    let classes = classes?;
    match &args.output {
        Some(path) => {
            sicher::picture::save_classes_png(
                &classes,
                args.max,
                args.scale,
                path,
                replace(args.force),
            )?;
            outln!(
                "wrote {}: {}, every position of two heaps up to {} (pixel (x, y) is the position (x, y))",
                path.display(),
                game.title(),
                args.max
            )?;
        }
        None => {
            outln!(
                "{}, every position of two heaps up to {} (column: first heap, line: second heap):",
                game.title(),
                args.max
            )?;
            outln!(
                "{}",
                sicher::picture::classes_text(&classes, args.max).trim_end()
            )?;
            for (class, _, _) in sicher::picture::CLASS_COLOURS {
                outln!("{class}: {}", class.in_words())?;
            }
            return Ok(());
        }
    }
    for line in sicher::picture::classes_legend() {
        outln!("{line}")?;
    }
    Ok(())
}

/// `plot` for a partizan game: the one-heap outcome sequence as bands in the four class
/// colours, grey lines where the period starts and first repeats.
fn run_partizan_plot(args: &PlotArgs, game: &sicher::game::partizan::PartizanGame) -> Result<()> {
    let replace = replace(args.force);
    let output = args.output.as_ref().ok_or_else(|| {
        sicher::error::Error::input(
            "a partizan plot is drawn as a PNG only: give -o FILE (its classes are colours)",
        )
    })?;
    check_destination(output, replace)?;
    let sequence = sicher::theory::partizan::OutcomeSequence::compute(game, args.max.min(4096))?;
    let classes: Vec<sicher::value::OutcomeClass> =
        (0..=args.max).map_while(|n| sequence.class(n)).collect();
    let marks: Vec<u64> = if sequence.period > 0 {
        vec![sequence.preperiod, sequence.preperiod + sequence.period]
    } else {
        Vec::new()
    };
    sicher::picture::save_sequence_png(
        &classes,
        &marks,
        (args.width, args.height),
        output,
        replace,
    )?;
    let period = match (sequence.period, sequence.proved) {
        (0, _) => "no period seen".to_string(),
        (p, true) => format!("pre-period {}, period {p}, proved", sequence.preperiod),
        (p, false) => format!(
            "pre-period {}, period {p}, observed, not proved",
            sequence.preperiod
        ),
    };
    outln!(
        "wrote {}: the classes of lone heaps 0 to {} of {}; {period}",
        output.display(),
        classes.len().saturating_sub(1),
        game.title()
    )?;
    for line in sicher::picture::classes_legend() {
        outln!("{line}")?;
    }
    Ok(())
}
