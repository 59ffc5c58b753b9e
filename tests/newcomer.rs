//! What a newcomer tripped over (issue 22), each held to its fix through the binary:
//! `play`'s commands, levels and huge heaps, `list`, and the faults hostile testing
//! found. Every refusal is one line and exit code 2, in bounded time.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::sicher_bin;

/// Runs sicher in `dir` with `stdin`, killed (and the test failed) after `limit`.
fn run_in(dir: &Path, args: &[&str], stdin: &str, limit: Duration) -> Output {
    shell_in(dir, None, args, stdin, limit)
}

/// The same, under `sh -c 'LIMITS; exec sicher ARGS'` when `limits` is given (such as
/// `ulimit -v 2000000`).
fn shell_in(
    dir: &Path,
    limits: Option<&str>,
    args: &[&str],
    stdin: &str,
    limit: Duration,
) -> Output {
    let mut command = match limits {
        None => {
            let mut command = Command::new(sicher_bin());
            command.args(args);
            command
        }
        Some(limits) => {
            let mut command = Command::new("sh");
            command
                .arg("-c")
                .arg(format!("{limits}; exec \"$0\" \"$@\""))
                .arg(sicher_bin())
                .args(args);
            command
        }
    };
    let mut child = command
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sicher");
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            let output = child.wait_with_output().unwrap();
            panic!(
                "{args:?} still ran after {limit:?}: {}",
                String::from_utf8_lossy(&output.stdout)
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exit code 2, one line on stderr holding `needle`, no panic or backtrace.
fn assert_one_line(output: &Output, needle: &str) {
    let err = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err}"
    );
    assert!(err.contains(needle), "{err} lacks {needle}");
}

const SHORT: Duration = Duration::from_secs(30);

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn descriptions_that_are_not_regular_files_or_too_long_are_refused_at_once() {
    let dir = scratch();
    let fifo = dir.path().join("fifo.toml");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let output = run_in(dir.path(), &["check", "fifo.toml", "3"], "", SHORT);
    assert_one_line(&output, "not a regular file");
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.toml")).unwrap();
    let output = run_in(dir.path(), &["check", "zero.toml", "3"], "", SHORT);
    assert_one_line(&output, "not a regular file");
    let long = format!("name = \"x\"\nrules = \"nim\"\n{}", "#\n".repeat(600_000));
    std::fs::write(dir.path().join("long.toml"), long).unwrap();
    let output = run_in(dir.path(), &["check", "long.toml", "3"], "", SHORT);
    assert_one_line(&output, "so not a game description");
}

#[test]
fn a_lone_carriage_return_separates_positions() {
    let dir = scratch();
    let output = run_in(
        dir.path(),
        &["check", "nim", "--json"],
        "1 2\r3 4\r1 1\r\n",
        SHORT,
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let positions: Vec<serde_json::Value> = text(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["position"].clone())
        .collect();
    assert_eq!(
        positions,
        vec![
            serde_json::json!([1, 2]),
            serde_json::json!([3, 4]),
            serde_json::json!([1, 1])
        ]
    );
}

#[test]
fn the_search_memory_check_counts_the_moves_each_ply_holds() {
    let dir = scratch();
    // 100 000 plies of up to 100 000 moves: hundreds of GB, refused on any machine. (The
    // search is asked by name: misère Kayles' final quotient answers these at once.)
    let output = run_in(
        dir.path(),
        &[
            "check", "kayles", "100000", "--misere", "--method", "search",
        ],
        "",
        SHORT,
    );
    assert_one_line(&output, "100000 moves");
    // Kayles 20 000 holds about 14 GB of moves at depth: refused under a 2 GB limit
    // instead of growing until it is killed.
    let output = shell_in(
        dir.path(),
        Some("ulimit -v 2000000"),
        &["check", "kayles", "20000", "--misere", "--method", "search"],
        "",
        SHORT,
    );
    assert_one_line(&output, "MiB available");
}

#[test]
fn plot_and_nim_values_refuse_what_their_buffers_would_not_fit() {
    let dir = scratch();
    for args in [
        &["plot", "kayles", "--max", "1000000000", "-o", "k.png"][..],
        &["nim-values", "kayles", "--max", "1000000000"][..],
    ] {
        let output = shell_in(dir.path(), Some("ulimit -v 3000000"), args, "", SHORT);
        assert_one_line(&output, "lower --max");
    }
    assert!(!dir.path().join("k.png").exists());
}

#[test]
fn quotient_stops_at_its_time_limit_with_what_it_established() {
    let dir = scratch();
    let started = Instant::now();
    let output = run_in(
        dir.path(),
        &[
            "quotient",
            "grundy",
            "--max",
            "29",
            "--time-limit",
            "2",
            "--json",
        ],
        "",
        Duration::from_secs(60),
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(started.elapsed() < Duration::from_secs(30));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["complete"], false);
    assert_eq!(report["covered"], 28);
    assert!(
        report["stop_reason"]
            .as_str()
            .unwrap()
            .contains("time limit"),
        "{report}"
    );
}

#[test]
fn start_positions_and_contradicting_sources_are_checked() {
    let dir = scratch();
    for args in [
        &["check", "octal:0.77", "--start"][..],
        &["solve", "octal:0.77", "--start"][..],
        &["play", "octal:0.77"][..],
    ] {
        let output = run_in(dir.path(), args, "", SHORT);
        assert_one_line(&output, "gives no start position");
    }
    let table = dir.path().join("n.table");
    let made = run_in(
        dir.path(),
        &[
            "table", "nim", "--heaps", "2", "--max", "5", "-o", "n.table", "--quiet",
        ],
        "",
        SHORT,
    );
    assert!(made.status.success(), "{}", text(&made.stderr));
    for command in ["check", "solve"] {
        let output = run_in(
            dir.path(),
            &[
                command,
                "nim",
                "--table",
                table.to_str().unwrap(),
                "--quotient",
                "q.table",
                "3",
            ],
            "",
            SHORT,
        );
        assert_one_line(&output, "--quotient");
    }
}

#[test]
fn a_file_size_limit_ends_in_one_error_line_and_leaves_nothing() {
    let dir = scratch();
    let output = shell_in(
        dir.path(),
        Some("ulimit -f 64"),
        &[
            "table",
            "nim",
            "--heaps",
            "3",
            "--max",
            "255",
            "--uncompressed",
            "-o",
            "t.table",
            "--quiet",
        ],
        "",
        Duration::from_secs(120),
    );
    assert_one_line(&output, "t.table");
    let left: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn an_output_that_is_a_directory_is_refused_without_suggesting_force() {
    let dir = scratch();
    std::fs::create_dir(dir.path().join("out")).unwrap();
    for force in [false, true] {
        for args in [
            &["picture", "wythoff", "--max", "10", "-o", "out"][..],
            &["plot", "kayles", "--max", "10", "-o", "out"][..],
            &["table", "nim", "--heaps", "2", "--max", "3", "-o", "out"][..],
            &["nim-values", "kayles", "--max", "10", "--write", "out"][..],
            &["quotient", "kayles", "--max", "10", "--write", "out"][..],
        ] {
            let mut args = args.to_vec();
            if force {
                args.push("--force");
            }
            let output = run_in(dir.path(), &args, "", SHORT);
            assert_one_line(&output, "exists and is not a regular file");
            assert!(!text(&output.stderr).contains("--force"), "{args:?}");
        }
    }
}

#[test]
fn play_answers_huge_heaps_from_theory_at_once() {
    let dir = scratch();
    let output = run_in(
        dir.path(),
        &["play", "nim", "18446744073709551615", "1"],
        "1 5\nq\n",
        SHORT,
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    assert!(out.contains("more than 10000 moves"), "{out}");
    assert!(out.contains("position 1 5:"), "{out}");
    let output = run_in(dir.path(), &["play", "kayles", "3000"], "q\n", SHORT);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("your move:"));
    let output = run_in(
        dir.path(),
        &[
            "play",
            "nim",
            "18446744073709551615",
            "18446744073709551615",
            "--first",
            "computer",
            "--json",
        ],
        "quit\n",
        SHORT,
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("\"quit\":true"));
}

#[test]
fn play_takes_commands_and_says_where_the_start_comes_from() {
    let dir = scratch();
    let output = run_in(
        dir.path(),
        &["play", "kayles", "--first", "computer"],
        "help\nhint\nmoves\nundo\n1\nundo\nquit\n",
        Duration::from_secs(120),
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    for said in [
        "kayles (octal:0.77)",
        "start: 10 11 12 13 14 (the start position of kayles's description)",
        "hint (the best move), undo",
        "hint: the best move is to",
        "nothing to undo",
        "taken back to",
        "in at most 50 moves",
    ] {
        assert!(out.contains(said), "{said:?} not in {out}");
    }
    // A 58-move list fits a screen in columns (off a terminal: all of them, 2 a row
    // at least).
    let listed = out
        .lines()
        .skip_while(|l| !l.contains("the computer moves to"))
        .take_while(|l| !l.contains("your move"))
        .filter(|l| l.contains(". to "))
        .count();
    assert!((1..=30).contains(&listed), "{listed} rows of moves: {out}");
    // Plurals: one move is "1 move".
    let output = run_in(dir.path(), &["play", "nim", "1"], "q\n", SHORT);
    assert!(text(&output.stdout).contains("you can win in 1 move\n"));
}

#[test]
fn scripted_play_keeps_its_rules_and_quit_ends_it_quietly() {
    let dir = scratch();
    // Input that ends with the game unfinished is an error off a terminal...
    let output = run_in(dir.path(), &["play", "nim", "3", "4"], "1\n", SHORT);
    assert_one_line(&output, "the input ended with the game unfinished");
    // ... and so is a bad line ...
    let output = run_in(
        dir.path(),
        &["play", "nim", "3", "4"],
        "frobnicate\n",
        SHORT,
    );
    assert_one_line(&output, "move 1:");
    // ... but quit is a move of its own.
    for quit in ["quit\n", "q\n", "QUIT\n"] {
        let output = run_in(dir.path(), &["play", "nim", "3", "4"], quit, SHORT);
        assert!(output.status.success(), "{}", text(&output.stderr));
        assert!(output.stderr.is_empty());
    }
}

#[test]
fn ctrl_d_in_a_terminal_ends_the_game_with_exit_code_0() {
    // `script` gives the game a terminal; without it there is nothing to test.
    let Ok(status) = Command::new("script").arg("--version").output() else {
        eprintln!("SKIPPED: no `script` to make a terminal");
        return;
    };
    if !status.status.success() {
        eprintln!("SKIPPED: `script` is not util-linux's");
        return;
    }
    let dir = scratch();
    let command = format!("{} play nim 2 3", sicher_bin());
    let output = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    assert!(!text(&output.stdout).contains("unfinished"));
}

#[test]
fn levels_below_the_top_play_random_moves_and_say_so() {
    let dir = scratch();
    let output = run_in(
        dir.path(),
        &[
            "play", "kayles", "7", "8", "9", "--first", "computer", "--level", "0", "--seed", "3",
            "--json",
        ],
        "1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n",
        SHORT,
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let records: Vec<serde_json::Value> = text(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let computer: Vec<&serde_json::Value> =
        records.iter().filter(|r| r["by"] == "computer").collect();
    assert!(!computer.is_empty());
    assert!(computer.iter().all(|r| r["random"] == true), "{records:?}");
    let human = run_in(
        dir.path(),
        &[
            "play", "kayles", "7", "8", "9", "--first", "computer", "--level", "3",
        ],
        "q\n",
        SHORT,
    );
    assert!(text(&human.stdout).contains("level 3 of 10 (7 in 10 of its moves random"));
    let refused = run_in(
        dir.path(),
        &["play", "nim", "3", "--level", "11"],
        "",
        SHORT,
    );
    assert_one_line(&refused, "11");
}

#[test]
fn list_shows_a_tables_positions_in_rank_order_with_their_values() {
    let dir = scratch();
    let made = run_in(
        dir.path(),
        &[
            "table",
            "nim",
            "--heaps",
            "3",
            "--max",
            "20",
            "-o",
            "nim3.table",
            "--quiet",
        ],
        "",
        SHORT,
    );
    assert!(made.status.success(), "{}", text(&made.stderr));
    let output = run_in(
        dir.path(),
        &["list", "nim3.table", "--unsafe", "--json"],
        "",
        SHORT,
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let positions: Vec<Vec<u64>> = text(&output.stdout)
        .lines()
        .map(|l| {
            let record: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(record["win"], false);
            serde_json::from_value(record["position"].clone()).unwrap()
        })
        .collect();
    // Every position of at most three heaps up to 20 whose XOR is 0, once each.
    let mut expected = Vec::new();
    for a in 0..=20u64 {
        for b in a..=20 {
            let c = a ^ b;
            if c >= b && c <= 20 {
                let heaps: Vec<u64> = [a, b, c].into_iter().filter(|&h| h > 0).collect();
                expected.push(heaps);
            }
        }
    }
    let mut sorted = positions.clone();
    sorted.sort();
    expected.sort();
    assert_eq!(sorted, expected);
    let limited = run_in(
        dir.path(),
        &["list", "nim3.table", "--safe", "--limit", "3"],
        "",
        SHORT,
    );
    let out = text(&limited.stdout);
    assert_eq!(out.lines().count(), 4, "{out}");
    assert!(out.lines().skip(1).all(|l| l.ends_with(": safe")), "{out}");
    let made = run_in(
        dir.path(),
        &[
            "table",
            "kayles",
            "--total",
            "10",
            "--misere",
            "--remoteness",
            "-o",
            "k.table",
            "--quiet",
        ],
        "",
        SHORT,
    );
    assert!(made.status.success(), "{}", text(&made.stderr));
    let output = run_in(dir.path(), &["list", "k.table", "--json"], "", SHORT);
    let first: serde_json::Value =
        serde_json::from_str(text(&output.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["position"], serde_json::json!([]));
    assert_eq!(first["remoteness"], 0);
    let quotient = run_in(
        dir.path(),
        &["quotient", "kayles", "--max", "10", "--write", "q.table"],
        "",
        SHORT,
    );
    assert!(quotient.status.success());
    let output = run_in(dir.path(), &["list", "q.table"], "", SHORT);
    assert_one_line(&output, "not positions");
    assert!(output.stdout.is_empty());
}

#[test]
fn picture_says_how_it_shades_unsafe_positions() {
    let dir = scratch();
    for (args, shade) in [
        (
            &["picture", "kayles", "--max", "8", "-o", "a.png"][..],
            "(black)",
        ),
        (
            &[
                "picture",
                "kayles",
                "--max",
                "8",
                "--remoteness",
                "-o",
                "b.png",
            ][..],
            "(in blues)",
        ),
    ] {
        let output = run_in(dir.path(), args, "", SHORT);
        assert!(output.status.success(), "{}", text(&output.stderr));
        let out = text(&output.stdout);
        assert!(out.contains(shade), "{out}");
        assert!(out.contains("kayles (octal:0.77), normal play"), "{out}");
    }
}

/// Starts `table ARGS -o NAME` with a checkpoint after every tier and kills it once its
/// manifest records five tiers done: a work directory to resume.
fn leave_work(dir: &Path, args: &[&str], name: &str) {
    let manifest = dir.join(format!("{name}.work")).join("manifest.json");
    let mut child = Command::new(sicher_bin())
        .arg("table")
        .args(args)
        .args(["-o", name, "--quiet", "--threads", "1"])
        .env("SICHER_CHECKPOINT_SECONDS", "0")
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let manifest = std::fs::read_to_string(&manifest).unwrap_or_default();
        let done = manifest
            .split("\"tiers_done\": ")
            .nth(1)
            .and_then(|rest| rest.split(',').next())
            .and_then(|n| n.trim().parse::<u64>().ok());
        if done.is_some_and(|t| t >= 5) {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "{args:?} finished before a checkpoint"
        );
        assert!(Instant::now() < deadline, "{args:?}: no checkpoint");
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn a_work_directory_whose_entry_count_was_edited_says_so() {
    let dir = scratch();
    let args = ["kayles", "--total", "46", "--misere"];
    leave_work(dir.path(), &args, "w.table");
    let manifest = dir.path().join("w.table.work/manifest.json");
    let text_before = std::fs::read_to_string(&manifest).unwrap();
    let entries: u64 = text_before
        .split("\"entries\": ")
        .nth(1)
        .and_then(|rest| rest.split([',', '\n']).next())
        .and_then(|n| n.trim().parse().ok())
        .expect("the manifest counts its entries");
    std::fs::write(
        &manifest,
        text_before.replace(
            &format!("\"entries\": {entries}"),
            &format!("\"entries\": {}", entries + 1),
        ),
    )
    .unwrap();
    let output = run_in(
        dir.path(),
        &[&["table"], &args[..], &["-o", "w.table", "--quiet"]].concat(),
        "",
        Duration::from_secs(120),
    );
    // The manifest carries its own checksum (work format 2): a hand edit is caught as
    // such, before its counts are compared with the domain's.
    assert_one_line(
        &output,
        "manifest.json was edited (its checksum does not match)",
    );
}

#[test]
fn solve_takes_a_table_without_a_game_as_check_does() {
    let dir = scratch();
    let out = run_in(
        dir.path(),
        &[
            "table", "kayles", "--total", "10", "--misere", "-o", "k.table",
        ],
        "",
        SHORT,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let solve = run_in(
        dir.path(),
        &["solve", "--table", "k.table", "3", "4"],
        "",
        SHORT,
    );
    assert_eq!(solve.status.code(), Some(0), "{}", text(&solve.stderr));
    let check = run_in(
        dir.path(),
        &["check", "--table", "k.table", "3", "4"],
        "",
        SHORT,
    );
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    let (solve, check) = (text(&solve.stdout), text(&check.stdout));
    assert!(
        solve.starts_with("kayles (octal:0.77), misere play, 3 4: safe"),
        "{solve}"
    );
    assert!(solve.contains("from the table k.table"), "{solve}");
    assert!(check.starts_with("3 4: safe"), "{check}");
    // Named, the game must be the table's, and a forced convention must be its.
    let named = run_in(
        dir.path(),
        &["solve", "kayles", "--misere", "--table", "k.table", "3,4"],
        "",
        SHORT,
    );
    assert_eq!(text(&named.stdout), solve);
    let wrong = run_in(
        dir.path(),
        &["solve", "--table", "k.table", "--normal", "3", "4"],
        "",
        SHORT,
    );
    assert_one_line(
        &wrong,
        "holds misere play of kayles (octal:0.77), not normal play",
    );
    let whole = run_in(dir.path(), &["solve", "--table", "k.table"], "", SHORT);
    assert_one_line(&whole, "give heaps");
}

#[test]
fn tables_and_errors_name_the_game_as_the_rest_of_the_output_does() {
    let dir = scratch();
    let run = |args: &[&str]| {
        let out = run_in(dir.path(), args, "", SHORT);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        text(&out.stdout)
    };
    let json = run(&["table", "kayles", "--total", "8", "-o", "k.table", "--json"]);
    assert!(
        json.contains(r#""game":"octal:0.77","name":"kayles""#),
        "{json}"
    );
    run(&["nim-values", "kayles", "--max", "20", "--write", "k.values"]);
    run(&["table", "octal:0.51", "--total", "8", "-o", "o.table"]);
    let info = run(&["info", "k.table"]);
    assert!(
        info.contains("game:           kayles (octal:0.77), normal play"),
        "{info}"
    );
    let info = run(&["info", "k.values"]);
    assert!(
        info.contains("nim-values of:  kayles (octal:0.77)"),
        "{info}"
    );
    let json = run(&["info", "k.values", "--json"]);
    assert!(
        json.contains(r#""game":"octal:0.77","name":"kayles""#),
        "{json}"
    );
    let list = run(&["list", "k.values", "--limit", "1"]);
    assert!(
        list.starts_with("kayles (octal:0.77), normal play"),
        "{list}"
    );
    // A ruleset that sicher does not ship keeps its spec as its name.
    let list = run(&["list", "o.table", "--limit", "1"]);
    assert!(list.starts_with("octal:0.51, normal play"), "{list}");
    let out = run_in(
        dir.path(),
        &["verify", "kayles", "--heaps", "2", "--max", "10"],
        "",
        SHORT,
    );
    assert_one_line(&out, "kayles (octal:0.77) splits heaps");
    let out = run_in(
        dir.path(),
        &["check", "kayles", "--misere", "--table", "k.table", "3"],
        "",
        SHORT,
    );
    assert_one_line(
        &out,
        "this table is for normal play of kayles (octal:0.77), not misere play of kayles (octal:0.77)",
    );
}

#[test]
fn play_stops_thinking_at_its_time_limit_where_no_theory_answers() {
    // Misère 0.106 from a heap of 3000: its quotient stops near heap 21, so only the
    // search could answer, and it would take years. (Misère Kayles has a final quotient
    // now and answers such heaps at once.)
    let dir = scratch();
    let started = Instant::now();
    let out = run_in(
        dir.path(),
        &[
            "play",
            "octal:0.106",
            "3000",
            "--misere",
            "--time-limit",
            "1",
        ],
        "hint\nquit\n",
        SHORT,
    );
    assert_one_line(&out, "could not work out the position within 1 second ");
    assert!(started.elapsed() < Duration::from_secs(20));
    let shown = text(&out.stdout);
    assert!(shown.contains("start: 3000 (as given)"), "{shown}");
    // Where nothing answers, play's error names no flag play does not take.
    let out = run_in(
        dir.path(),
        &["play", "grundy", "5000000000"],
        "quit\n",
        SHORT,
    );
    assert_one_line(&out, "no periodicity theorem");
    let err = text(&out.stderr);
    assert!(!err.contains("--method") && !err.contains("--max"), "{err}");
    // A position the search answers at once is played as before.
    let out = run_in(
        dir.path(),
        &["play", "kayles", "4", "5", "--misere", "--time-limit", "1"],
        "quit\n",
        SHORT,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// `play grundy 1000000 --time-limit 5` once showed its first prompt after 18 s: the
/// time limit reached only the search, not the work before it (readying the heap, its
/// nim-values). Now the limit holds from the start: the game begins within it, or ends
/// with one line saying so.
#[test]
fn play_keeps_its_time_limit_before_the_first_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let output = run_in(
        dir.path(),
        &["play", "grundy", "1000000", "--time-limit", "2"],
        "quit\n",
        SHORT,
    );
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    match output.status.code() {
        Some(0) => {}
        Some(2) => {
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.contains("within 2 seconds"), "{stderr}");
        }
        other => panic!("exit {other:?}: {stderr}"),
    }
    assert!(took < Duration::from_secs(12), "took {took:?}: {stderr}");
}
