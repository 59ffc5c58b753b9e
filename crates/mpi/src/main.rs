//! The `sicher-mpi` binary: `sicher table` with the labelling shared between the ranks
//! of an MPI job, `mpirun -n R sicher-mpi table GAME --total T -o FILE` (the arguments
//! of `sicher table`; docs/distributed.md). Rank 0 plans, manages the tiers, writes the
//! table and does all the talking; the other ranks label the chunks it hands them and
//! print nothing. Started without a launcher it is one rank alone, without MPI.

mod link;

use std::io::Write;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Instant;

use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand};
use mpi::traits::Communicator;

// The command line is `sicher`'s: this binary uses `table`'s arguments, the output
// conventions and the error wording.
use sicher_cli as cli;

use sicher::build::{serve_table, PartizanTable, TableJob, TableRequest};
use sicher::error::{Error, ErrorKind as Kind};
use sicher::game::partizan::PartizanGame;
use sicher::game::Game;
use sicher::label::cluster::{self, local_links, Link};

/// sicher-mpi: `sicher table` shared between the ranks of an MPI job (run it with
/// `mpirun -n R sicher-mpi table ...`). The table is the same file `sicher table` writes.
#[derive(Parser, Debug)]
#[command(name = "sicher-mpi", version, about, long_about)]
struct MpiCli {
    /// What to do.
    #[command(subcommand)]
    command: MpiCommand,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
enum MpiCommand {
    /// Label a bounded domain bottom-up, each tier shared between the ranks, and write it
    /// as an endgame table.
    Table(MpiTableArgs),
}

/// `sicher table`'s arguments, and one for tests.
#[derive(Args, Debug)]
struct MpiTableArgs {
    #[command(flatten)]
    table: cli::table::TableArgs,
    /// Positions per chunk of a tier (tests: tiny chunks); by default each tier is cut
    /// into a few chunks per rank.
    #[arg(long, value_name = "N", hide = true, value_parser = clap::value_parser!(u64).range(1..))]
    chunk_positions: Option<u64>,
}

/// The work directory, once known, for the line said when a signal ends the job.
static WORK_DIR: OnceLock<PathBuf> = OnceLock::new();

/// Writes `sicher-mpi: LINE` to stderr in one write: mpirun forwards the output of
/// every rank, and a line written in pieces interleaves with others'.
fn say(line: &str) {
    let text = format!("sicher-mpi: {line}\n");
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

fn main() {
    // A write past `ulimit -f` is an error line from rank 0, not a silent death.
    cli::ignore_file_size_signal();
    // Open MPI's mpirun, MPICH's Hydra and Slurm (PMI or PMIx) each set one of these.
    let launched = ["OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"]
        .iter()
        .any(|name| std::env::var_os(name).is_some());
    let code = if launched {
        match mpi::initialize() {
            Some(universe) => {
                let world = universe.world();
                // Cores are shared by the ranks on a machine (the communicator of those
                // ranks is freed here, before MPI_Finalize).
                let local = world.split_shared(0).size().max(1) as usize;
                let code = run(&link::MpiLink::new(world), local);
                // MPI_Finalize: every rank ends together.
                drop(universe);
                code
            }
            None => {
                say("MPI was initialised already (a bug in sicher: please report it)");
                cli::errors::INTERNAL
            }
        }
    } else {
        let links = local_links(1);
        run(&links[0], 1)
    };
    std::process::exit(code);
}

/// Runs this rank's part of the job; returns its exit code.
fn run(link: &dyn Link, local_ranks: usize) -> i32 {
    let rank = link.rank();
    install_handlers(rank);
    let cli = match MpiCli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage(link, error),
    };
    let MpiCommand::Table(args) = &cli.command;
    let started = Instant::now();
    // A rank ending on its own clock would leave the others waiting on it: the job's
    // time is the scheduler's to bound (the work directory resumes either way).
    let refused = (args.table.time_limit > 0).then(|| {
        sicher::Error::input(
            "sicher-mpi table takes no --time-limit: bound the job with the scheduler's limit; the same command resumes from the work directory",
        )
    });
    let threads = |given: Option<usize>| {
        given.or_else(|| {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            Some((cores / local_ranks).max(1))
        })
    };
    // Partizan games label both players' moves into a table of their own.
    let partizan = match refused {
        Some(error) => Err(error),
        None => cli::partizan::game(
            args.table.game.game.as_deref(),
            args.table.game.forced_convention(),
        ),
    };
    let partizan = partizan.and_then(|found| {
        found
            .map(|game| {
                let (domain, mut shared) = cli::table::partizan_request(&args.table, &game)?;
                shared.chunk_positions = args.chunk_positions;
                shared.threads = threads(shared.threads);
                let _ = WORK_DIR.set(sicher::label::WorkDir::beside(&shared.path).path().into());
                Ok((game, domain, shared))
            })
            .transpose()
    });
    match partizan {
        Ok(Some((game, domain, shared))) => {
            return partizan_table(args, &game, domain, &shared, started, link)
        }
        Ok(None) => {}
        Err(error) => return refuse(link, &error),
    }
    let request = cli::table::request(&args.table);
    let request = request.map(|(game, mut request)| {
        request.chunk_positions = args.chunk_positions;
        request.threads = threads(request.threads);
        let _ = WORK_DIR.set(sicher::label::WorkDir::beside(&request.path).path().into());
        (game, request)
    });
    if rank != 0 {
        return match request {
            Ok((_, request)) => match serve_table(&request, link) {
                // Stopped by rank 0, which says why.
                Err(error) if error.kind() == Kind::Interrupted => 0,
                Err(error) => cli::errors::exit_code(&error),
                Ok(()) => 0,
            },
            Err(error) => {
                cluster::refuse(link, &error);
                cli::errors::exit_code(&error)
            }
        };
    }
    match request.and_then(|(game, request)| table(args, &game, request, started, link)) {
        Ok(()) => 0,
        Err(error) => {
            let _ = cluster::release(link, false);
            say(&cli::errors::render(&error));
            cli::errors::exit_code(&error)
        }
    }
}

/// A job that cannot start (its arguments): rank 0 says why and ends the job, the other
/// ranks tell rank 0 and wait for the end; returns this rank's exit code.
fn refuse(link: &dyn Link, error: &Error) -> i32 {
    if link.rank() != 0 {
        cluster::refuse(link, error);
    } else {
        let _ = cluster::release(link, false);
        say(&cli::errors::render(error));
    }
    cli::errors::exit_code(error)
}

/// A partizan game's table: rank 0 announces, labels with the other ranks, writes and
/// reports it; the other ranks label the chunks it hands them.
fn partizan_table(
    args: &MpiTableArgs,
    game: &PartizanGame,
    domain: sicher::domain::Domain,
    shared: &PartizanTable,
    started: Instant,
    link: &dyn Link,
) -> i32 {
    if link.rank() != 0 {
        return match shared.serve(game, domain, link) {
            // Stopped by rank 0, which says why.
            Err(error) if error.kind() == Kind::Interrupted => 0,
            Err(error) => cli::errors::exit_code(&error),
            Ok(()) => 0,
        };
    }
    let built = cli::table::run_partizan_job(
        &args.table,
        game,
        domain,
        shared,
        started,
        Some(link.ranks()),
        |progress| shared.build(game, domain, link, progress),
    );
    match built {
        Ok(()) => 0,
        Err(error) => {
            let _ = cluster::release(link, false);
            say(&cli::errors::render(&error));
            cli::errors::exit_code(&error)
        }
    }
}

/// Rank 0: prepares, labels with the other ranks, writes and reports the table.
fn table(
    args: &MpiTableArgs,
    game: &Game,
    request: TableRequest,
    started: Instant,
    link: &dyn Link,
) -> sicher::Result<()> {
    let job = TableJob::prepare_ranked(request, link)?;
    cli::table::run_job(
        &args.table,
        game,
        job,
        started,
        Some(link.ranks()),
        |job, progress| job.run_ranked(link, progress),
    )
}

/// A command line that does not parse (or asks for help): rank 0 answers and ends the
/// job; the other ranks tell rank 0 and wait for the end.
fn usage(link: &dyn Link, error: clap::Error) -> i32 {
    let help = matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    let code = if help {
        error.exit_code()
    } else {
        cli::errors::USAGE
    };
    if link.rank() != 0 {
        cluster::refuse(link, &Error::input("the command line does not parse"));
        return code;
    }
    let _ = cluster::release(link, false);
    if help {
        let _ = error.print();
    } else {
        say(&format!(
            "{} (see --help)",
            cli::errors::usage_line(&error.to_string())
        ));
    }
    code
}

/// SIGINT, SIGTERM and SIGHUP (mpirun sends SIGTERM to every rank when one dies or the
/// job is stopped): remove the temporaries being written and exit; rank 0 says so in
/// one line. A panic ends the whole job at once: a rank that unwound into MPI_Finalize
/// would wait forever for ranks waiting for it.
fn install_handlers(rank: usize) {
    let _ = ctrlc::set_handler(move || {
        // The line first: mpirun kills a rank still alive a second after its SIGTERM.
        if rank == 0 {
            let work = WORK_DIR
                .get()
                .map_or("the work directory".into(), |p| p.display().to_string());
            say(&format!(
                "stopped by a signal before the table was written (mpirun stops every rank when one ends); the finished tiers stay in {work}: the same command resumes"
            ));
        }
        sicher::atomic_file::remove_temporaries_before_exit();
        std::process::exit(cli::errors::INTERRUPTED);
    });
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        previous(info);
        std::process::abort();
    }));
}
