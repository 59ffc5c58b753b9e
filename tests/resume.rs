//! Generation that resumes: `sicher table` killed (SIGKILL) at random moments and started
//! again with the same command finishes a byte-identical table; `--restart`; work
//! directories of other work refused. (The memory estimate against what is allocated is
//! a test binary of its own, `tests/memory.rs`: it counts every allocation of its
//! process.)

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const SICHER: &str = env!("CARGO_BIN_EXE_sicher");

/// The tests of this file one at a time: each runs several processes of sicher.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn sicher(dir: &Path, args: &[&str]) -> Output {
    Command::new(SICHER)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("runs sicher")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Exit code 2 and exactly one line on stderr containing `needle`.
fn assert_one_line_error(output: &Output, needle: &str) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "stderr: {err}");
    assert!(err.starts_with("sicher: "), "stderr: {err}");
    assert!(err.contains(needle), "expected `{needle}` in: {err}");
}

/// A small deterministic generator (xorshift), seeded per test so failures repeat.
struct Random(u64);

impl Random {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// `sicher table ARGS -o NAME`, checkpointing after every tier.
fn table_command(dir: &Path, args: &[&str], name: &str, threads: u64) -> Command {
    let mut command = Command::new(SICHER);
    command
        .arg("table")
        .args(args)
        .args(["-o", name, "--quiet", "--threads", &threads.to_string()])
        .env("SICHER_CHECKPOINT_SECONDS", "0")
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    command
}

/// Runs the command again and again, each time killed with SIGKILL after a random
/// delay (up to `max_delay`), with 1 or 2 threads, until a run finishes the table;
/// returns how many runs were killed before it.
fn kill_until_done(
    dir: &Path,
    args: &[&str],
    name: &str,
    random: &mut Random,
    max_delay: u64,
) -> u32 {
    let mut killed = 0;
    let started = Instant::now();
    loop {
        let threads = 1 + random.below(2);
        let mut child = table_command(dir, args, name, threads)
            .spawn()
            .expect("runs sicher");
        // After a while, let a run finish so the test ends.
        let patience = started.elapsed() < Duration::from_secs(40);
        let delay = Duration::from_millis(random.below(max_delay));
        let deadline = Instant::now() + delay;
        let mut finished = None;
        while Instant::now() < deadline || !patience {
            if let Some(status) = child.try_wait().unwrap() {
                finished = Some(status);
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        match finished {
            Some(status) => {
                let output = child.wait_with_output().unwrap();
                assert!(status.success(), "{name}: {}", stderr(&output));
                return killed;
            }
            None => {
                child.kill().unwrap();
                child.wait().unwrap();
                killed += 1;
                // A kill after the table was written but before the work directory
                // was removed leaves a finished table: that is a finished run too.
                if dir.join(name).exists() {
                    return killed;
                }
            }
        }
    }
}

#[test]
fn killed_runs_resume_to_byte_identical_tables() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let mut random = Random(0x5EED_1234_ABCD_0001);
    let cases: [&[&str]; 8] = [
        // Forward, `--total`: a window of three tiers (compressed against a learned
        // misère quotient, and flat).
        &["kayles", "--total", "40", "--misere"],
        &["kayles", "--total", "38", "--misere", "--uncompressed"],
        // Backward on `--total`: marks pushed into later tiers are part of the state.
        &["nim", "--total", "34", "--no-shortcuts"],
        &["subtraction:1,3,4", "--total", "40", "--misere"],
        // Remoteness: offers pushed ahead, children read behind.
        &["kayles", "--total", "30", "--remoteness"],
        // Splits without taking: tiers labelled by heap count.
        &["octal:4.07", "--total", "24", "--misere"],
        // `--heaps`: every checkpoint is a state file of the whole domain.
        &["nim", "--heaps", "3", "--max", "40", "--no-shortcuts"],
        &["wythoff", "--heaps", "2", "--max", "120", "--remoteness"],
    ];
    for (i, args) in cases.iter().enumerate() {
        // The reference: the plain labeller, no work directory.
        let reference = format!("reference{i}.table");
        let plain = [
            &["table"],
            *args,
            &["-o", &reference, "--quiet", "--strategy", "plain"],
        ];
        let output = sicher(dir.path(), &plain.concat());
        assert!(output.status.success(), "{}", stderr(&output));
        // An uninterrupted run checkpointing after every tier, timed: kills fall within.
        let timed = format!("timed{i}.table");
        let started = Instant::now();
        let output = table_command(dir.path(), args, &timed, 2).output().unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
        let mut span = (started.elapsed().as_millis() as u64 * 4 / 5).max(5);
        let name = format!("resumed{i}.table");
        let mut killed = 0;
        // Runs vary in speed on a busy machine: a run that beat every kill goes again,
        // with kills sooner.
        for _ in 0..6 {
            killed = kill_until_done(dir.path(), args, &name, &mut random, span);
            if killed > 0 {
                break;
            }
            std::fs::remove_file(dir.path().join(&name)).unwrap();
            span = (span / 2).max(5);
        }
        for made in [&timed, &name] {
            assert_eq!(
                std::fs::read(dir.path().join(&reference)).unwrap(),
                std::fs::read(dir.path().join(made)).unwrap(),
                "{args:?}: {made} after {killed} kills"
            );
        }
        assert!(killed > 0, "{args:?}: never killed mid-run");
    }
}

/// Starts a run and kills it once its work directory has a checkpoint past the start.
fn leave_work(dir: &Path, args: &[&str], name: &str) {
    let manifest = dir.join(format!("{name}.work")).join("manifest.json");
    let mut child = table_command(dir, args, name, 1).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let text = std::fs::read_to_string(&manifest).unwrap_or_default();
        let done = text
            .split("\"tiers_done\": ")
            .nth(1)
            .and_then(|rest| rest.split(',').next())
            .and_then(|n| n.trim().parse::<u64>().ok());
        if done.is_some_and(|t| t >= 5) {
            break;
        }
        if child.try_wait().unwrap().is_some() {
            let output = child.wait_with_output().unwrap();
            panic!("{args:?} finished too soon: {}", stderr(&output));
        }
        assert!(Instant::now() < deadline, "{args:?}: no checkpoint");
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn resumed_runs_say_so_and_restart_throws_the_work_away() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let args = ["kayles", "--total", "46", "--misere"];
    leave_work(dir.path(), &args, "k.table");
    let resumed = sicher(
        dir.path(),
        &[&["table"], &args[..], &["-o", "k.table"]].concat(),
    );
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let said = stderr(&resumed);
    assert!(
        said.contains("resuming: ") && said.contains(" of 47 tiers already done"),
        "{said}"
    );
    assert!(String::from_utf8_lossy(&resumed.stdout).contains("were labelled by an earlier run"));
    assert!(!dir.path().join("k.table.work").exists());

    leave_work(dir.path(), &args, "r.table");
    let restarted = sicher(
        dir.path(),
        &[
            &["table"],
            &args[..],
            &["-o", "r.table", "--restart", "--json"],
        ]
        .concat(),
    );
    assert!(restarted.status.success(), "{}", stderr(&restarted));
    assert!(
        !stderr(&restarted).contains("resuming"),
        "{}",
        stderr(&restarted)
    );
    assert!(String::from_utf8_lossy(&restarted.stdout).contains("\"resumed_positions\":0"));
    assert_eq!(
        std::fs::read(dir.path().join("k.table")).unwrap(),
        std::fs::read(dir.path().join("r.table")).unwrap()
    );
    assert!(!dir.path().join("r.table.work").exists());
}

#[test]
fn work_of_another_game_domain_or_format_is_refused() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let args = ["kayles", "--total", "46", "--misere"];
    leave_work(dir.path(), &args, "w.table");
    for other in [
        &["dawson-kayles", "--total", "40", "--misere"][..],
        &["kayles", "--total", "40"][..],
        &["kayles", "--total", "45", "--misere"][..],
        &["kayles", "--total", "46", "--misere", "--remoteness"][..],
    ] {
        let output = sicher(
            dir.path(),
            &[&["table"], other, &["-o", "w.table"]].concat(),
        );
        assert_one_line_error(&output, "holds octal:0.77 misere --total 46");
        assert!(stderr(&output).contains("--restart"));
    }
    let manifest = dir.path().join("w.table.work/manifest.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace(
            &format!("\"work_format\": {}", sicher::label::WORK_FORMAT),
            "\"work_format\": 99",
        ),
    )
    .unwrap();
    let output = sicher(
        dir.path(),
        &[&["table"], &args[..], &["-o", "w.table"]].concat(),
    );
    assert_one_line_error(&output, "work format 99");
    std::fs::write(&manifest, &text).unwrap();
    // A damaged tier file is found before any labelling.
    let group = dir.path().join("w.table.work/group-000002.bits");
    let mut bytes = std::fs::read(&group).unwrap();
    bytes[0] ^= 1;
    std::fs::write(&group, bytes).unwrap();
    let output = sicher(
        dir.path(),
        &[&["table"], &args[..], &["-o", "w.table"]].concat(),
    );
    assert_one_line_error(&output, "damaged");
    let output = sicher(
        dir.path(),
        &[
            &["table"],
            &args[..],
            &["-o", "w.table", "--restart", "--quiet"],
        ]
        .concat(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    // A directory that is not a work directory is never removed.
    std::fs::create_dir(dir.path().join("x.table.work")).unwrap();
    std::fs::write(dir.path().join("x.table.work/notes.txt"), "mine").unwrap();
    let output = sicher(
        dir.path(),
        &[&["table"], &args[..], &["-o", "x.table", "--restart"]].concat(),
    );
    assert_one_line_error(&output, "not a sicher work directory");
    assert!(dir.path().join("x.table.work/notes.txt").exists());
}
