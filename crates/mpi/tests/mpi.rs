//! `sicher-mpi` under `mpirun` (`.ci/run` runs these with `cargo test --release -p
//! sicher-mpi`, after `cargo test --release` built the `sicher` binary beside it): the table is byte-identical to
//! `sicher table`'s for 1, 2 and 3 ranks and any chunk size; a worker killed with SIGKILL
//! ends the job with one line from rank 0 and no table, and the same command resumes;
//! ranks started with different arguments refuse together; a tampered work directory of
//! a job is refused in one line.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const SICHER_MPI: &str = env!("CARGO_BIN_EXE_sicher-mpi");

/// The `sicher` binary of the same build (another package of the workspace, so Cargo
/// names no variable for it): beside `sicher-mpi` in the target directory.
fn sicher() -> std::path::PathBuf {
    let path = Path::new(SICHER_MPI).with_file_name("sicher");
    assert!(
        path.exists(),
        "{} is missing: build the workspace's `sicher` first (cargo build --release)",
        path.display()
    );
    path
}

/// One job at a time: jobs of several ranks on a machine of few cores are slow enough.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// `mpirun -n RANKS` on one machine, as root too, with more ranks than cores allowed.
fn mpirun(dir: &Path, ranks: usize) -> Command {
    let mut command = Command::new("mpirun");
    command
        .args(["--oversubscribe", "--allow-run-as-root", "-n"])
        .arg(ranks.to_string())
        .current_dir(dir)
        // Shared memory between the ranks of one machine; skips probing for network
        // hardware (a third of a second per rank).
        .env("OMPI_MCA_pml", "ob1")
        .env("OMPI_MCA_btl", "self,vader,tcp")
        .stdin(Stdio::null());
    command
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The lines ranks wrote themselves (mpirun adds framed notices of its own).
fn own_lines(err: &str) -> Vec<&str> {
    err.lines()
        .filter(|l| l.starts_with("sicher-mpi:"))
        .collect()
}

fn reference(dir: &Path, args: &[&str], name: &str) {
    let output = Command::new(sicher())
        .arg("table")
        .args(args)
        .args(["-o", name, "--quiet"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn tables_are_byte_identical_for_any_ranks_and_chunks() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str, bool); 6] = [
        (&["kayles", "--total", "30", "--misere"], "97", true),
        (&["kayles", "--total", "28", "--no-shortcuts"], "400", true),
        (
            &["kayles", "--total", "24", "--misere", "--remoteness"],
            "61",
            true,
        ),
        (
            &["kayles", "--total", "24", "--remoteness", "--uncompressed"],
            "150",
            true,
        ),
        // Not shared out: a `--heaps` domain, and nim-values (rank 0 labels alone).
        (
            &["nim", "--heaps", "3", "--max", "24", "--misere"],
            "50",
            false,
        ),
        (&["kayles", "--total", "30"], "50", false),
    ];
    for (i, (args, chunk, shared)) in cases.iter().enumerate() {
        let expected = format!("ref{i}.table");
        reference(dir.path(), args, &expected);
        for ranks in 1..=3 {
            let name = format!("mpi{i}-{ranks}.table");
            let mut command = mpirun(dir.path(), ranks);
            command
                .arg(SICHER_MPI)
                .arg("table")
                .args(*args)
                .args(["-o", &name, "--quiet", "--json"]);
            // Tiny chunks (several per tier) with 2 ranks; the default with 1 and 3.
            if ranks == 2 {
                command.args(["--chunk-positions", chunk]);
            }
            let output = command.output().unwrap();
            assert!(
                output.status.success(),
                "{args:?} {ranks}: {}",
                stderr(&output)
            );
            assert!(
                own_lines(&stderr(&output)).is_empty(),
                "{}",
                stderr(&output)
            );
            let report = String::from_utf8_lossy(&output.stdout);
            let said = format!("\"ranks\":{ranks},\"shared\":{shared}");
            assert!(report.contains(&said), "{args:?}: {report}");
            assert_eq!(
                read(&dir.path().join(&expected)),
                read(&dir.path().join(&name)),
                "{args:?} on {ranks} ranks"
            );
            assert!(!dir.path().join(format!("{name}.work")).exists());
        }
    }
    // Without a launcher: one rank, no MPI.
    let output = Command::new(SICHER_MPI)
        .args([
            "table",
            "kayles",
            "--total",
            "30",
            "--misere",
            "-o",
            "alone.table",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        read(&dir.path().join("ref0.table")),
        read(&dir.path().join("alone.table"))
    );
}

/// A partizan game's table is the same file `sicher table` writes, for 1, 2 and 3 ranks
/// and any chunk size: one-heap moves (children ranked from runs), a scripted terminal
/// rule (each move generated and ranked), and a `--heaps` domain rank 0 labels alone.
#[test]
fn partizan_tables_are_byte_identical_for_any_ranks_and_chunks() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("small.toml"), SMALL_HEAPS_LOSE).unwrap();
    let cases: [(&[&str], &str, bool); 4] = [
        (
            &["partizan-octal:0.77/0.07", "--total", "30", "--misere"],
            "97",
            true,
        ),
        (
            &[
                "partizan-subtraction:1,3/2,3",
                "--total",
                "26",
                "--uncompressed",
            ],
            "300",
            true,
        ),
        (&["small.toml", "--total", "22"], "61", true),
        (
            &[
                "partizan-subtraction:1,2/1,3",
                "--heaps",
                "3",
                "--max",
                "12",
            ],
            "50",
            false,
        ),
    ];
    for (i, (args, chunk, shared)) in cases.iter().enumerate() {
        let expected = format!("pref{i}.table");
        reference(dir.path(), args, &expected);
        for ranks in 1..=3 {
            let name = format!("pmpi{i}-{ranks}.table");
            let mut command = mpirun(dir.path(), ranks);
            command
                .arg(SICHER_MPI)
                .arg("table")
                .args(*args)
                .args(["-o", &name, "--quiet", "--json"]);
            if ranks == 2 {
                command.args(["--chunk-positions", chunk]);
            }
            let output = command.output().unwrap();
            let err = stderr(&output);
            assert!(output.status.success(), "{args:?} {ranks}: {err}");
            assert!(own_lines(&err).is_empty(), "{err}");
            let report = String::from_utf8_lossy(&output.stdout);
            let said = format!("\"ranks\":{ranks},\"shared\":{shared}");
            assert!(report.contains(&said), "{args:?}: {report}");
            assert!(report.contains("\"classes\""), "{args:?}: {report}");
            assert_eq!(
                read(&dir.path().join(&expected)),
                read(&dir.path().join(&name)),
                "{args:?} on {ranks} ranks"
            );
            assert!(!dir.path().join(format!("{name}.work")).exists());
        }
    }
    // Flags that do not apply to partizan games are refused by rank 0 in one line.
    let output = mpirun(dir.path(), 2)
        .args([
            SICHER_MPI,
            "table",
            "partizan-subtraction:1/2",
            "--total",
            "9",
        ])
        .args(["--remoteness", "-o", "r.table"])
        .output()
        .unwrap();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    let lines = own_lines(&err);
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].contains("--remoteness does not apply"), "{err}");
}

/// A scripted partizan game whose terminal rule is not "no move": a player who faces
/// only heaps smaller than 2 loses; Left takes 1 or 2, Right takes 1 or 3.
const SMALL_HEAPS_LOSE: &str = r#"
name = "small-heaps-lose"
rules = "script"
options = """
fn options(n, player) {
    let takes = if player == "left" { [1, 2] } else { [1, 3] };
    let out = [];
    for t in takes { if t <= n { out.push([n - t]); } }
    out
}
fn terminal(heaps, player) {
    for h in heaps { if h >= 2 { return (); } }
    "lose"
}
"""
"#;

#[test]
fn ranks_started_with_different_arguments_refuse_together() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let output = mpirun(dir.path(), 1)
        .args([
            SICHER_MPI, "table", "kayles", "--total", "20", "-o", "d.table",
        ])
        .args([":", "-n", "1"])
        .args([
            SICHER_MPI, "table", "kayles", "--total", "21", "-o", "d.table",
        ])
        .output()
        .unwrap();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    let lines = own_lines(&err);
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].contains("disagree") && lines[0].contains("`--total 21` on rank 1"),
        "{err}"
    );
    assert!(!dir.path().join("d.table.work").exists());
    assert!(!dir.path().join("d.table").exists());
}

const KILLED: [&str; 4] = ["kayles", "--total", "46", "--misere"];

/// Starts the job checkpointing after every tier, in chunks of `chunk` positions.
fn spawn_job(dir: &Path, killed: &[&str], chunk: &str) -> Child {
    mpirun(dir, 3)
        .arg(SICHER_MPI)
        .arg("table")
        .args(killed)
        .args(["-o", "k.table", "--quiet", "--chunk-positions", chunk])
        .env("SICHER_CHECKPOINT_SECONDS", "0")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The pid of the rank `rank` that `mpirun` (pid `launcher`) started on this machine.
fn rank_pid(launcher: u32, rank: u32) -> Option<u32> {
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let parent = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if parent != Some(launcher) {
            continue;
        }
        let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        let wanted = format!("OMPI_COMM_WORLD_RANK={rank}");
        if environ.split(|&b| b == 0).any(|v| v == wanted.as_bytes()) {
            return Some(pid);
        }
    }
    None
}

/// The last tier the job's manifest records as finished.
fn tiers_done(dir: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(dir.join("k.table.work/manifest.json")).ok()?;
    text.split("\"tiers_done\": ")
        .nth(1)?
        .split(',')
        .next()?
        .trim()
        .parse()
        .ok()
}

#[test]
fn a_killed_worker_ends_the_job_and_the_same_command_resumes() {
    let err = killed_and_resumed(&KILLED, "bits", 30);
    assert!(
        err.contains("resuming: ") && err.contains(" of 47 tiers already done"),
        "{err}"
    );
}

/// A partizan job (a byte a position, both players' labels) is killed, refuses tampered
/// work and resumes as an impartial one does.
#[test]
fn a_killed_worker_of_a_partizan_job_ends_it_and_the_same_command_resumes() {
    let killed = ["partizan-octal:0.77/0.07", "--total", "50", "--misere"];
    let err = killed_and_resumed(&killed, "cells", 34);
    assert!(err.contains("resumed: "), "{err}");
}

/// Kills rank 1 of a 3-rank job of `killed` once tier `cut` (cut into chunks) is done,
/// checks rank 0's one line and that tampered copies of the work directory (chunk files
/// with extension `ext` swapped or forged) are refused in one line, then resumes with the
/// same command and compares with `sicher table`. Returns the resumed run's stderr and
/// stdout.
fn killed_and_resumed(killed: &[&str], ext: &str, cut: u64) -> String {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    reference(dir.path(), killed, "ref.table");
    // Smaller chunks (more files to sync at each checkpoint) slow a run that beat the kill.
    let mut chunk = 1000;
    let output = loop {
        let mut job = spawn_job(dir.path(), killed, &chunk.to_string());
        let deadline = Instant::now() + Duration::from_secs(60);
        // Tiers from `cut` on are cut into chunks.
        while tiers_done(dir.path()).is_none_or(|t| t < cut) {
            if job.try_wait().unwrap().is_some() || Instant::now() > deadline {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        if job.try_wait().unwrap().is_none() {
            if let Some(pid) = rank_pid(job.id(), 1) {
                Command::new("kill")
                    .args(["-9", &pid.to_string()])
                    .status()
                    .unwrap();
                break job.wait_with_output().unwrap();
            }
        }
        job.kill().ok();
        job.wait().unwrap();
        let _ = std::fs::remove_file(dir.path().join("k.table"));
        let _ = std::fs::remove_dir_all(dir.path().join("k.table.work"));
        assert!(chunk > 50, "the job always finished before the kill");
        chunk /= 2;
    };
    let err = stderr(&output);
    assert!(!output.status.success(), "{err}");
    let lines = own_lines(&err);
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].contains("stopped by a signal"), "{err}");
    assert!(!dir.path().join("k.table").exists());
    let done = tiers_done(dir.path()).expect("a checkpoint");

    // A copy of the work with two chunk files of one tier swapped, and one forged: each
    // is refused in one line by rank 0.
    let work = dir.path().join("k.table.work");
    let tier = (0..=done)
        .rev()
        .find(|t| work.join(format!("tier-{t:06}-0001.{ext}")).exists())
        .expect("a tier in chunks");
    for (tamper, needle) in [("swap", "holds other tiers or ranks"), ("forge", "damaged")] {
        let copy = dir.path().join("t.table.work");
        let _ = std::fs::remove_dir_all(&copy);
        std::fs::create_dir(&copy).unwrap();
        for entry in std::fs::read_dir(&work).unwrap().flatten() {
            std::fs::copy(entry.path(), copy.join(entry.file_name())).unwrap();
        }
        let (a, b) = (
            copy.join(format!("tier-{tier:06}-0000.{ext}")),
            copy.join(format!("tier-{tier:06}-0001.{ext}")),
        );
        let (bytes_a, mut bytes_b) = (read(&a), read(&b));
        match tamper {
            "swap" => {
                std::fs::write(&a, &bytes_b).unwrap();
                std::fs::write(&b, &bytes_a).unwrap();
            }
            _ => {
                let last = bytes_b.len() - 1;
                bytes_b[last] ^= 0x10;
                std::fs::write(&b, &bytes_b).unwrap();
            }
        }
        let output = mpirun(dir.path(), 2)
            .arg(SICHER_MPI)
            .arg("table")
            .args(killed)
            .args(["-o", "t.table"])
            .output()
            .unwrap();
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{tamper}: {err}");
        let lines = own_lines(&err);
        assert_eq!(lines.len(), 1, "{tamper}: {err}");
        assert!(
            lines[0].contains(needle) && lines[0].contains("--restart"),
            "{err}"
        );
        assert!(!dir.path().join("t.table").exists());
    }

    let output = mpirun(dir.path(), 3)
        .arg(SICHER_MPI)
        .arg("table")
        .args(killed)
        .args(["-o", "k.table", "--chunk-positions", &chunk.to_string()])
        .output()
        .unwrap();
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert_eq!(
        read(&dir.path().join("ref.table")),
        read(&dir.path().join("k.table"))
    );
    assert!(!work.exists());
    err + &String::from_utf8_lossy(&output.stdout)
}
