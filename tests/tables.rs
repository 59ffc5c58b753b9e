//! End-to-end tests of `sicher table`, `check --table`, `info` and `verify`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use std::io::Write;

const SICHER: &str = env!("CARGO_BIN_EXE_sicher");

fn sicher(dir: &Path, args: &[&str]) -> Output {
    Command::new(SICHER)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("runs sicher")
}

fn sicher_stdin(dir: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(SICHER)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs sicher");
    // sicher may stop reading early (on a bad line): a broken pipe here is expected.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Exit code 2 and exactly one line on stderr, starting `sicher: ` and containing `needle`.
fn assert_one_line_error(output: &Output, needle: &str) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "stderr: {err}");
    assert!(err.starts_with("sicher: "), "stderr: {err}");
    assert!(err.contains(needle), "expected `{needle}` in: {err}");
    assert!(!err.contains("panicked"), "stderr: {err}");
}

fn make_table(dir: &Path, args: &[&str], name: &str) -> PathBuf {
    let mut all = vec!["table"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", name, "--quiet"]);
    let output = sicher(dir, &all);
    assert!(output.status.success(), "{}", stderr(&output));
    dir.join(name)
}

#[test]
fn verify_agrees_on_every_shipped_game_in_both_conventions() {
    let dir = tempfile::tempdir().unwrap();
    for shipped in sicher::game::shipped_games() {
        let game = sicher::game::resolve(shipped.name).unwrap();
        let domain: &[&str] = if game.ruleset.splits() {
            &["--total", "13"]
        } else {
            &["--heaps", "3", "--max", "6"]
        };
        for convention in ["--normal", "--misere"] {
            let mut args = vec!["verify", shipped.name, convention, "--quiet", "--json"];
            args.extend_from_slice(domain);
            let output = sicher(dir.path(), &args);
            assert!(
                output.status.success(),
                "{} {convention}: {}",
                shipped.name,
                stderr(&output)
            );
            let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
            assert_eq!(report["disagreements"], 0);
            assert_eq!(report["agreements"], report["entries"]);
        }
    }
}

#[test]
fn verify_samples_and_speaks_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let output = sicher(
        dir.path(),
        &[
            "verify", "kayles", "--total", "25", "--sample", "200", "--quiet",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("200 of 200 positions checked agree"));
}

#[test]
fn table_bytes_do_not_depend_on_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    for (args, name) in [
        (&["kayles", "--total", "32", "--misere"][..], "kayles"),
        (&["nim", "--heaps", "3", "--max", "40"][..], "nim"),
        (&["wythoff", "--heaps", "2", "--max", "300"][..], "wythoff"),
        // Moves that keep the total (Grundy's splits, a d0 split) make tiers depend
        // on themselves: the classic place for a race between threads.
        (&["grundy", "--total", "40", "--misere"][..], "grundy"),
        (&["octal:4.07", "--total", "28"][..], "split"),
    ] {
        let one = make_table(
            dir.path(),
            &[args, &["--threads", "1"]].concat(),
            &format!("{name}1.table"),
        );
        let two = make_table(
            dir.path(),
            &[args, &["--threads", "2"]].concat(),
            &format!("{name}2.table"),
        );
        assert_eq!(
            std::fs::read(one).unwrap(),
            std::fs::read(two).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn table_reports_its_statistics_and_lands_under_tables() {
    let dir = tempfile::tempdir().unwrap();
    let output = sicher(
        dir.path(),
        &[
            "table", "nim", "--heaps", "2", "--max", "63", "--json", "--quiet",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["entries"], 65 * 64 / 2);
    assert_eq!(report["unsafe"], 64);
    assert!(report["bits_per_position"].as_f64().unwrap() >= 1.0);
    let path = dir.path().join("tables/nim-normal-heaps2-max63.table");
    assert!(path.is_file());
    // No overwrite without --force, and nothing half-written left behind.
    let again = sicher(
        dir.path(),
        &["table", "nim", "--heaps", "2", "--max", "63", "--quiet"],
    );
    assert_one_line_error(&again, "--force");
    assert_eq!(
        std::fs::read_dir(dir.path().join("tables"))
            .unwrap()
            .count(),
        1
    );
}

#[test]
fn check_answers_from_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let table = make_table(
        dir.path(),
        &["nim", "--heaps", "3", "--max", "31"],
        "nim.table",
    );
    let table = table.to_str().unwrap();
    let output = sicher(dir.path(), &["check", "--table", table, "1", "2", "3"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "1 2 3: unsafe: the player to move loses against best play\n"
    );
    let output = sicher(dir.path(), &["check", "--table", table, "3,4,5", "--json"]);
    let answer: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(answer["win"], true);
    assert_eq!(answer["label"], "safe");
    assert_eq!(answer["source"], "table");
    assert_eq!(answer["move"], serde_json::json!([1, 4, 5]));
    let output = sicher_stdin(
        dir.path(),
        &["check", "nim", "--table", table],
        "1 2 3\n\n7,0 7\n5 6\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let lines: Vec<String> = stdout(&output).lines().map(String::from).collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[1].starts_with("(no heaps): unsafe"));
    assert!(lines[2].starts_with("7 7: unsafe"));
    assert!(lines[3].starts_with("5 6: safe: the player to move wins (winning move: to 5 5)"));
    let output = sicher_stdin(
        dir.path(),
        &["check", "nim", "--table", table, "--no-move"],
        "5 6\n",
    );
    assert_eq!(stdout(&output), "5 6: safe: the player to move wins\n");
    // The table names its game: stdin batches need no GAME either.
    let output = sicher_stdin(dir.path(), &["check", "--table", table], "1 2 3\n5 6\n");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output).lines().count(), 2);
    // A forced convention must be the table's.
    let output = sicher(dir.path(), &["check", "--table", table, "1", "--misere"]);
    assert_one_line_error(&output, "not misere play");
}

#[test]
fn check_game_uses_a_covering_table_and_searches_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let output = sicher(
        dir.path(),
        &["table", "kayles", "--total", "20", "--misere", "--quiet"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let answer = |args: &[&str]| -> serde_json::Value {
        let output = sicher(dir.path(), args);
        assert!(output.status.success(), "{}", stderr(&output));
        serde_json::from_str(&stdout(&output)).unwrap()
    };
    let from_table = answer(&["check", "kayles", "--misere", "4", "7", "--json"]);
    assert_eq!(from_table["source"], "table");
    // Outside the table, misère play of a one-heap ruleset has theory: its quotient.
    let by_theory = answer(&["check", "kayles", "--misere", "14", "7", "--json"]);
    assert_eq!(by_theory["source"], "quotient");
    // Where neither a table nor theory covers the position, the search answers.
    let output = sicher(
        dir.path(),
        &[
            "table", "wythoff", "--heaps", "2", "--max", "10", "--misere", "--quiet",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let from_table = answer(&["check", "wythoff", "--misere", "4", "7", "--json"]);
    assert_eq!(from_table["source"], "table");
    // Wythoff's closed form covers two heaps; three heaps outside the table are searched.
    let searched = answer(&["check", "wythoff", "--misere", "14", "7", "3", "--json"]);
    assert_eq!(searched["source"], "search");
    let from_table = answer(&["check", "kayles", "--misere", "4", "7", "--json"]);
    // Normal play is never read from the misère table; by default nim-values answer it.
    let normal = answer(&["check", "kayles", "4", "7", "--json"]);
    assert_eq!(normal["source"], "grundy");
    let by_search = answer(&[
        "check", "kayles", "--misere", "4", "7", "--json", "--method", "search",
    ]);
    assert_eq!(by_search["source"], "search");
    assert_eq!(from_table["win"], by_search["win"]);
}

#[test]
fn bad_positions_and_bad_domains_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let table = make_table(
        dir.path(),
        &["nim", "--heaps", "2", "--max", "10"],
        "nim.table",
    );
    let table = table.to_str().unwrap();
    assert_one_line_error(
        &sicher(dir.path(), &["check", "--table", table, "11"]),
        "outside the table's domain",
    );
    assert_one_line_error(
        &sicher(dir.path(), &["check", "--table", table, "1", "2", "3"]),
        "outside",
    );
    assert_one_line_error(
        &sicher_stdin(
            dir.path(),
            &["check", "nim", "--table", table],
            "1 2\n3 x\n",
        ),
        "stdin line 2",
    );
    assert_one_line_error(
        &sicher(
            dir.path(),
            &["table", "kayles", "--heaps", "2", "--max", "9"],
        ),
        "--total",
    );
    assert_one_line_error(
        &sicher(
            dir.path(),
            &["table", "nim", "--heaps", "3", "--max", "100000", "--quiet"],
        ),
        "--force",
    );
    assert_one_line_error(
        &sicher(
            dir.path(),
            &["table", "nim", "--heaps", "9", "--max", "1000000"],
        ),
        "2^48",
    );
    assert_one_line_error(
        &sicher(
            dir.path(),
            &["table", "kayles", "--total", "9", "--strategy", "backward"],
        ),
        "forward",
    );
    assert_one_line_error(
        &sicher(dir.path(), &["check", "--table", "missing.table", "1"]),
        "missing.table",
    );
}

#[test]
fn damaged_tables_are_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    // Flat: a flipped byte near the end must land in the body (tests/compress.rs damages
    // compressed tables).
    let path = make_table(
        dir.path(),
        &["kayles", "--total", "24", "--uncompressed"],
        "kayles.table",
    );
    let good = std::fs::read(&path).unwrap();
    let damaged = dir.path().join("damaged.table");
    let damaged_arg = damaged.to_str().unwrap();
    let write = |bytes: &[u8]| std::fs::write(&damaged, bytes).unwrap();

    let mut bytes = good.clone();
    bytes[0] ^= 0xFF;
    write(&bytes);
    assert_one_line_error(&sicher(dir.path(), &["info", damaged_arg]), "bad magic");

    let mut bytes = good.clone();
    bytes[8] = 9;
    write(&bytes);
    assert_one_line_error(
        &sicher(dir.path(), &["check", "--table", damaged_arg, "3"]),
        "version 9",
    );

    let mut bytes = good.clone();
    bytes[20] ^= 0x01;
    write(&bytes);
    assert_one_line_error(
        &sicher(dir.path(), &["info", damaged_arg]),
        "header checksum",
    );

    for len in [0, 7, 15, 40, 100, good.len() - 8, good.len() - 1] {
        write(&good[..len]);
        let output = sicher(dir.path(), &["check", "--table", damaged_arg, "3", "4"]);
        assert_eq!(
            output.status.code(),
            Some(2),
            "truncated to {len}: {}",
            stderr(&output)
        );
        assert_eq!(stderr(&output).lines().count(), 1);
    }

    // A flipped body byte passes the cheap open but not `info --verify`.
    let mut bytes = good.clone();
    let last = bytes.len() - 30;
    bytes[last] ^= 0x04;
    write(&bytes);
    assert!(sicher(dir.path(), &["info", damaged_arg]).status.success());
    assert_one_line_error(
        &sicher(dir.path(), &["info", damaged_arg, "--verify"]),
        "body checksum",
    );

    // Every single flipped byte anywhere is caught by open or by --verify.
    for at in 0..good.len() {
        let mut bytes = good.clone();
        bytes[at] ^= 0x20;
        write(&bytes);
        let output = sicher(dir.path(), &["info", damaged_arg, "--verify"]);
        assert_eq!(output.status.code(), Some(2), "flip at {at} went unnoticed");
    }

    let output = sicher(
        dir.path(),
        &["info", path.to_str().unwrap(), "--verify", "--json"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let info: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(info["game"], "octal:0.77");
    assert_eq!(info["convention"], "normal");
    assert_eq!(info["verified"], true);
}

#[test]
fn contradicting_flags_are_refused_and_solve_uses_a_covering_table() {
    let dir = tempfile::tempdir().unwrap();
    let table = make_table(
        dir.path(),
        &["nim", "--heaps", "3", "--max", "15"],
        "nim.table",
    );
    let table = table.to_str().unwrap();
    for args in [
        &["check", "nim", "--table", table, "--start"][..],
        &["check", "nim", "--table", table, "--method", "search", "1"],
        &["check", "nim", "--table", table, "--hash", "8", "1"],
        &["check", "nim", "--table", table, "--nim-table", table, "1"],
        &[
            "solve", "nim", "1", "2", "--table", table, "--method", "grundy",
        ],
    ] {
        let output = sicher(dir.path(), args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&output).lines().count(),
            1,
            "{args:?}: {}",
            stderr(&output)
        );
    }
    // A covering table under tables/ answers solve too, with every winning move.
    let output = sicher(
        dir.path(),
        &["table", "kayles", "--total", "16", "--misere", "--quiet"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let output = sicher(
        dir.path(),
        &["solve", "kayles", "--misere", "3", "4", "5", "--json"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let from_table: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(from_table["source"], "table");
    let output = sicher(
        dir.path(),
        &[
            "solve", "kayles", "--misere", "3", "4", "5", "--json", "--method", "search",
        ],
    );
    let searched: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(searched["source"], "search");
    assert_eq!(from_table["win"], searched["win"]);
    assert_eq!(from_table["moves"], searched["moves"]);
}

#[test]
fn remoteness_tables_answer_the_fastest_win() {
    let dir = tempfile::tempdir().unwrap();
    let path = make_table(
        dir.path(),
        &[
            "subtraction:1,2",
            "--heaps",
            "2",
            "--max",
            "20",
            "--remoteness",
        ],
        "r.table",
    );
    let path = path.to_str().unwrap();
    let output = sicher(dir.path(), &["check", "--table", path, "7", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let answer: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    // A lone heap of 7 in {1, 2}: take 1, leaving 6 (a multiple of 3); then the loser
    // takes one each time and the winner answers to the next multiple of 3: 7 6 5 3 2 0,
    // five moves.
    assert_eq!(answer["win"], true);
    assert_eq!(answer["move"], serde_json::json!([6]));
    assert_eq!(answer["remoteness"], 5);
    let output = sicher(dir.path(), &["check", "--table", path, "6"]);
    assert_eq!(
        stdout(&output),
        "6: unsafe: the player to move loses in 4 at most\n"
    );
    let output = sicher(dir.path(), &["info", path, "--verify", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let info: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(info["kind"], "remoteness");
    assert_eq!(
        info["histogram"].as_array().unwrap().len() as u64,
        info["rmax"].as_u64().unwrap() + 1
    );
}

#[test]
fn info_says_how_a_table_was_derived() {
    let dir = tempfile::tempdir().unwrap();
    for (args, derivation, period) in [
        (
            &["subtraction:1,3,4", "--heaps", "1", "--max", "100000"][..],
            "period",
            Some(7),
        ),
        (&["kayles", "--total", "24"], "nim-values", None),
        (&["kayles", "--total", "24", "--misere"], "retrograde", None),
        (
            &["kayles", "--total", "16", "--misere", "--remoteness"],
            "retrograde",
            None,
        ),
    ] {
        let path = dir.path().join("t.table");
        let path_arg = path.to_str().unwrap();
        let mut table = vec!["table"];
        table.extend_from_slice(args);
        table.extend(["--quiet", "--force", "-o", path_arg]);
        let output = sicher(dir.path(), &table);
        assert!(output.status.success(), "{}", stderr(&output));
        let output = sicher(dir.path(), &["info", path_arg, "--json"]);
        assert!(output.status.success(), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        assert_eq!(report["derivation"], derivation, "{args:?}");
        if let Some(period) = period {
            assert_eq!(report["period"], period, "{args:?}");
        }
        let output = sicher(dir.path(), &["info", path_arg]);
        assert!(stdout(&output).contains("derived from:"), "{args:?}");
    }
}

/// Dawson's Kayles written as a script (no shipped game has this text, so no process
/// finds its rules but the one that reads the description).
const DAWSON_SCRIPT: &str = r#"name = "dawson-script"
rules = "script"
options = """
fn options(n) {
    let out = [];
    if n >= 2 {
        for left in 0..=(n - 2) / 2 { out.push([left, n - 2 - left]); }
    }
    out
}
"""
"#;

/// Issue 35: a table written from a script must stand alone. `check --table`, `info`,
/// `list` and `verify`-free reading need no description file, and the answers are the
/// ones `check` gives with the description.
#[test]
fn a_scripted_table_stands_alone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("dawson.toml"), DAWSON_SCRIPT).unwrap();
    let made = sicher(
        dir.path(),
        &[
            "table",
            "dawson.toml",
            "--total",
            "24",
            "--misere",
            "-o",
            "k.table",
            "--quiet",
        ],
    );
    assert!(made.status.success(), "{}", stderr(&made));
    let alone = sicher(
        dir.path(),
        &["check", "--table", "k.table", "7", "9", "--no-move"],
    );
    assert!(alone.status.success(), "{}", stderr(&alone));
    let described = sicher(
        dir.path(),
        &["check", "dawson.toml", "7", "9", "--misere", "--no-move"],
    );
    assert!(described.status.success(), "{}", stderr(&described));
    let verdict = |o: &Output| stdout(o).contains("unsafe");
    assert_eq!(verdict(&alone), verdict(&described), "{}", stdout(&alone));
    // A winning move needs the rules: the table carries them.
    let moved = sicher(dir.path(), &["check", "--table", "k.table", "3", "8", "5"]);
    assert!(moved.status.success(), "{}", stderr(&moved));
    for args in [
        &["info", "k.table"][..],
        &["info", "k.table", "--verify"],
        &["list", "k.table", "--limit", "5"],
    ] {
        let out = sicher(dir.path(), args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("script:"),
            "{args:?}: {}",
            stdout(&out)
        );
    }
    // The table answers every position of its domain as the description does.
    let positions = "1\n2 3\n4 4 4\n24\n5 6 7\n10 14\n";
    let from_table = sicher_stdin(
        dir.path(),
        &["check", "--table", "k.table", "--json", "--no-move"],
        positions,
    );
    let from_script = sicher_stdin(
        dir.path(),
        &["check", "dawson.toml", "--misere", "--json", "--no-move"],
        positions,
    );
    assert!(from_table.status.success(), "{}", stderr(&from_table));
    let labels =
        |o: &Output| -> Vec<bool> { stdout(o).lines().map(|l| l.contains("\"safe\"")).collect() };
    assert_eq!(labels(&from_table), labels(&from_script));
    assert_eq!(labels(&from_table).len(), 6);
}
