//! The command line: answers, JSON, stdin batches, and one-line errors with exit code 2.

use crate::common;

use common::run;

fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

#[test]
fn check_answers_in_words_and_names_a_winning_move() {
    let (code, stdout, _) = run(&["check", "nim", "3", "4", "5"], None);
    assert_eq!(code, 0);
    assert!(stdout.contains("safe: the player to move wins"), "{stdout}");
    assert!(stdout.contains("winning move: to 1 4 5"), "{stdout}");
    let (_, stdout, _) = run(&["check", "nim", "1", "2", "3"], None);
    assert!(
        stdout.contains("unsafe: the player to move loses"),
        "{stdout}"
    );
}

#[test]
fn check_json_carries_position_win_label_and_move() {
    let (code, stdout, _) = run(&["check", "kayles", "4", "4", "--json"], None);
    assert_eq!(code, 0);
    let answer = &json_lines(&stdout)[0];
    assert_eq!(answer["position"], serde_json::json!([4, 4]));
    assert_eq!(answer["win"], false);
    assert_eq!(answer["label"], "unsafe");
    assert!(answer["move"].is_null());
    let (_, stdout, _) = run(&["check", "kayles", "4", "4", "--misere", "--json"], None);
    let answer = &json_lines(&stdout)[0];
    assert_eq!(answer["win"], true);
    assert_eq!(answer["label"], "safe");
    assert!(answer["move"].is_array());
}

#[test]
fn check_reads_one_position_per_line_from_stdin_in_order() {
    let (code, stdout, _) = run(&["check", "nim", "--json"], Some("1 2 3\n3,4,5\n\n7\n"));
    assert_eq!(code, 0);
    let answers = json_lines(&stdout);
    let wins: Vec<bool> = answers
        .iter()
        .map(|a| a["win"].as_bool().unwrap())
        .collect();
    assert_eq!(wins, vec![false, true, false, true]);
    assert_eq!(answers[2]["position"], serde_json::json!([]));
    assert_eq!(answers[3]["move"], serde_json::json!([]));
}

#[test]
fn misere_flag_overrides_the_description() {
    let (_, normal, _) = run(&["check", "nim", "1", "--json"], None);
    let (_, misere, _) = run(&["check", "nim", "1", "--misere", "--json"], None);
    assert_eq!(json_lines(&normal)[0]["win"], true);
    assert_eq!(json_lines(&misere)[0]["win"], false);
}

#[test]
fn deep_games_answer_without_overflow() {
    let (code, stdout, stderr) = run(&["check", "subtraction:1,2", "1000000"], None);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("safe: the player to move wins"), "{stdout}");
}

#[test]
fn solve_lists_every_winning_move_with_statistics() {
    let (code, stdout, _) = run(
        &[
            "solve", "nim", "3", "5", "7", "--json", "--method", "search",
        ],
        None,
    );
    assert_eq!(code, 0);
    let solution = &json_lines(&stdout)[0];
    assert_eq!(solution["win"], true);
    // 3^5^7 = 1: each of the three heaps can be lowered to fix the XOR.
    assert_eq!(
        solution["moves"],
        serde_json::json!([[2, 5, 7], [3, 4, 7], [3, 5, 6]])
    );
    assert!(solution["stats"]["nodes"].as_u64().unwrap() > 0);
    // Wythoff's closed form answers at once; the search, asked for, shows its statistics.
    let (_, stdout, _) = run(
        &["solve", "wythoff", "400", "647", "--method", "search"],
        None,
    );
    assert!(stdout.contains("to 247 400"), "{stdout}");
    assert!(stdout.contains("nodes/s"), "{stdout}");
}

#[test]
fn shipped_games_work_from_any_directory() {
    let dir = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(common::sicher_bin())
        .args(["check", "kayles", "3", "4", "5"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(output.status.success());
}

#[test]
fn game_files_are_read_with_their_convention() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.toml");
    std::fs::write(&path, "name = \"mine\"\nrules = \"subtraction\"\nsubtraction = [1, 2]\nplay = \"misere\"\nnotes = \"x\"\n").unwrap();
    let (code, stdout, stderr) = run(&["check", path.to_str().unwrap(), "1", "--json"], None);
    assert_eq!(code, 0, "{stderr}");
    // Misère: taking the last token loses, so a lone 1 is lost for the player to move.
    assert_eq!(json_lines(&stdout)[0]["win"], false);
}

/// Runs a bad command and checks: exit code 2, one line on stderr containing `needle`.
fn assert_one_line_error(args: &[&str], stdin: Option<&str>, needle: &str) {
    let (code, stdout, stderr) = run(args, stdin);
    assert_eq!(code, 2, "{args:?}: stdout {stdout} stderr {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(needle), "{args:?}: {stderr} lacks {needle}");
}

#[test]
fn bad_games_give_one_line_and_exit_code_2() {
    assert_one_line_error(&["check", "chess", "3"], None, "unknown game `chess`");
    assert_one_line_error(&["check", "octal:0.78", "3"], None, "not an octal digit");
    assert_one_line_error(&["check", "octal:", "3"], None, "empty octal code");
    assert_one_line_error(&["check", "hex:0.G", "3"], None, "not a digit");
    assert_one_line_error(
        &["check", "subtraction:", "3"],
        None,
        "subtraction set is empty",
    );
    assert_one_line_error(&["check", "subtraction:0,1", "3"], None, "must be positive");
    assert_one_line_error(&["check", "moore:0", "3"], None, "1 <= k");
    assert_one_line_error(
        &["check", "moore:99999999999", "3"],
        None,
        "got 99999999999",
    );
    assert_one_line_error(&["check", "nim", "3", "--hash", "0"], None, "--hash");
    assert_one_line_error(&["check", "frobnicate:3", "3"], None, "unknown rules");
    assert_one_line_error(
        &["check", "/no/such/game.toml", "3"],
        None,
        "/no/such/game.toml",
    );
}

#[test]
fn malformed_descriptions_name_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.toml");
    std::fs::write(
        &broken,
        "name = \"x\"\nrules = \"octal\"\ncode = = \"0.7\"\nnotes = \"\"\n",
    )
    .unwrap();
    let path = broken.to_str().unwrap();
    assert_one_line_error(&["check", path, "3"], None, &format!("{path}:3:"));
    let wrong = dir.path().join("wrong.toml");
    std::fs::write(&wrong, "name = \"x\"\nrules = \"octal\"\ncode = \"0.79\"\n").unwrap();
    let path = wrong.to_str().unwrap();
    assert_one_line_error(&["check", path, "3"], None, &format!("{path}:3:8"));
    let unknown_key = dir.path().join("key.toml");
    std::fs::write(
        &unknown_key,
        "name = \"x\"\nrules = \"nim\"\ncolour = \"red\"\n",
    )
    .unwrap();
    let path = unknown_key.to_str().unwrap();
    assert_one_line_error(&["check", path, "3"], None, &format!("{path}:3:1"));
    let stray = dir.path().join("stray.toml");
    std::fs::write(&stray, "name = \"x\"\nrules = \"nim\"\ncode = \"0.77\"\n").unwrap();
    let path = stray.to_str().unwrap();
    assert_one_line_error(
        &["check", path, "3"],
        None,
        &format!("{path}:3:8: `code` does not apply"),
    );
}

#[test]
fn bad_heaps_give_one_line_and_exit_code_2() {
    assert_one_line_error(
        &["check", "nim", "3", "x"],
        None,
        "heap `x` is not a non-negative integer",
    );
    assert_one_line_error(
        &["check", "nim", "-1"],
        None,
        "heap `-1` is not a non-negative integer",
    );
    assert_one_line_error(&["check", "nim", "2.5"], None, "not a non-negative integer");
    assert_one_line_error(
        &["check", "nim", "99999999999999999999999"],
        None,
        "too large",
    );
    assert_one_line_error(
        &["check", "nim"],
        Some("1 2\n3 y\n"),
        "stdin line 2: heap `y`",
    );
    assert_one_line_error(&["solve", "nim", "-3"], None, "heap `-3`");
}

#[test]
fn bench_prints_totals_and_a_signature() {
    let (code, stdout, stderr) = run(&["bench", "--json"], None);
    assert_eq!(code, 0, "{stderr}");
    let lines = json_lines(&stdout);
    let total = lines.last().unwrap();
    assert!(total["total_nodes"].as_u64().unwrap() > 0);
    assert_eq!(total["signature"].as_str().unwrap().len(), 16);
    // Every row's verdict agrees between runs: the suite is deterministic.
    let (_, again, _) = run(&["bench", "--json"], None);
    assert_eq!(
        json_lines(&again).last().unwrap()["signature"],
        total["signature"]
    );
}

#[test]
fn a_closed_pipe_ends_quietly() {
    for args in [
        &["solve", "kayles", "9", "10", "11", "--misere", "--quiet"][..],
        &["solve", "wythoff", "40", "65", "--json"][..],
        &["solve", "kayles"][..],
    ] {
        let mut child = std::process::Command::new(common::sicher_bin())
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

#[test]
fn hopeless_work_is_refused_up_front() {
    // Misère Kayles answers this at once since its quotient is final; Dawson's Kayles,
    // whose quotient is not, still leaves it to a search that is refused.
    assert_one_line_error(
        &["check", "dawson-kayles", "18446744073709551615", "--misere"],
        None,
        "tokens",
    );
    assert_one_line_error(&["check", "grundy", "2000000"], None, "raise --max");
    assert_one_line_error(
        &["check", "kayles", "60000", "--max", "10"],
        None,
        "beyond the 11 nim-values",
    );
    assert_one_line_error(
        &["table", "nim", "--heaps", "30000", "--max", "1"],
        None,
        "binomial tables",
    );
}

#[test]
fn usage_errors_are_one_line_too() {
    assert_one_line_error(
        &["check", "nim", "3", "--method", "bogus"],
        None,
        "possible values",
    );
    assert_one_line_error(&["check"], None, "<GAME>");
    assert_one_line_error(&["frobnicate"], None, "unrecognized subcommand");
}

#[test]
fn start_uses_the_descriptions_start_position() {
    let (code, stdout, _) = run(&["check", "kayles", "--start", "--misere", "--json"], None);
    assert_eq!(code, 0);
    assert_eq!(
        json_lines(&stdout)[0]["position"],
        serde_json::json!([10, 11, 12, 13, 14])
    );
    let (_, stdout, _) = run(&["solve", "wythoff", "--start", "--json"], None);
    assert_eq!(
        json_lines(&stdout)[0]["moves"],
        serde_json::json!([[247, 400], [399, 646]])
    );
    assert_one_line_error(
        &["check", "octal:0.77", "--start"],
        None,
        "gives no start position",
    );
}

/// The remoteness suite's values as the plain memoised solver gives them
/// (`sicher bench --remoteness --engine plain`, the README's table), in suite order:
/// win, remoteness.
const PLAIN_REMOTENESS_SUITE: [(bool, u64); 13] = [
    (true, 39),
    (true, 36),
    (false, 158),
    (true, 88),
    (true, 51),
    (true, 50),
    (false, 32),
    (true, 12),
    (true, 41),
    (true, 26),
    (true, 307),
    (true, 373),
    (true, 15),
];

/// Every variant of the remoteness search, on one thread and on several, gives the
/// plain solver's values on the whole benchmark suite, as `check --remoteness` runs it
/// (theory and endgame tables included).
#[test]
fn the_remoteness_suite_is_exact_for_every_variant_and_thread_count() {
    let runs = ["alphabeta", "aspiration", "negascout", "mtdf"]
        .into_iter()
        .flat_map(|algorithm| [(algorithm, "1"), (algorithm, "2")])
        .chain([("alphabeta", "3")]);
    for (algorithm, threads) in runs {
        let (code, stdout, stderr) = run(
            &[
                "bench",
                "--remoteness",
                "--json",
                "--no-proof",
                "--algorithm",
                algorithm,
                "--threads",
                threads,
            ],
            None,
        );
        assert_eq!(code, 0, "{stderr}");
        let lines = json_lines(&stdout);
        let values: Vec<(bool, u64)> = lines[..lines.len() - 1]
            .iter()
            .map(|row| {
                (
                    row["win"].as_bool().unwrap(),
                    row["remoteness"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            values, PLAIN_REMOTENESS_SUITE,
            "{algorithm} on {threads} threads"
        );
    }
}

#[test]
fn bench_remoteness_says_the_time_spent_counting_proof_trees() {
    // The searches are timed alone; a total that left out the proof trees' counting
    // read "4.152 s" for a run of 40.8 s.
    let args = [
        "bench",
        "--remoteness",
        "--algorithm",
        "mtdf",
        "--only",
        "moore:2",
    ];
    let (code, stdout, stderr) = run(&args, None);
    assert_eq!(code, 0, "{stderr}");
    let total = stdout.lines().last().unwrap_or_default();
    assert!(total.starts_with("total (mtdf): 674 nodes "), "{stdout}");
    assert!(
        total.contains(" s searching (and ")
            && total.contains(" s counting proof trees, which --no-proof skips)"),
        "{total}"
    );
    let (code, stdout, stderr) = run(&[&args[..], &["--no-proof"]].concat(), None);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.contains("counting"), "{stdout}");
}

/// Misère Dawson's Kayles beyond its quotient's reach (heap 29 on the fly): the search
/// ends at positions whose heaps the quotient covers, answers in seconds, and its move
/// lands where the same chain says the opponent loses.
#[test]
fn check_answers_misere_positions_beyond_the_quotient_by_search_to_its_range() {
    let (code, stdout, stderr) = run(
        &["check", "dawson-kayles", "50", "59", "--misere", "--json"],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    let answer = &json_lines(&stdout)[0];
    assert_eq!(answer["win"], true);
    assert_eq!(answer["source"], "search");
    let to: Vec<String> = answer["move"]
        .as_array()
        .expect("a winning move")
        .iter()
        .map(|h| h.to_string())
        .collect();
    let mut args = vec!["check", "dawson-kayles", "--misere", "--json", "--no-move"];
    args.extend(to.iter().map(String::as_str));
    let (code, stdout, stderr) = run(&args, None);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json_lines(&stdout)[0]["win"], false, "{to:?}");
}

/// A batch whose positions theory cannot answer quickly (misère `all-but:100` with large
/// heaps: a growing quotient, then a search over hundreds of moves a node) once ran for
/// minutes with no word. `--time-limit` bounds the whole batch: the answers made are
/// printed, then one line names the position still being worked on, with exit code 2.
#[test]
fn a_slow_batch_ends_at_its_time_limit_with_the_answers_made() {
    let batch = "5 7\n60 61\n184\n376 342\n128 310 108\n18 297 348 81 220\n";
    let started = std::time::Instant::now();
    let (code, stdout, stderr) = run(
        &[
            "check",
            "subtraction:all-but:100",
            "--misere",
            "--json",
            "--no-move",
            "--time-limit",
            "2",
        ],
        Some(batch),
    );
    let took = started.elapsed();
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("within the time limit of 2 s"), "{stderr}");
    assert!(stderr.contains("raise --time-limit"), "{stderr}");
    assert!(took < std::time::Duration::from_secs(20), "took {took:?}");
    let answered = json_lines(&stdout);
    assert!(answered.len() >= 2, "{stdout}");
    assert_eq!(answered[0]["position"], serde_json::json!([5, 7]));
    assert_eq!(answered[1]["position"], serde_json::json!([60, 61]));
    let unanswered: Vec<u64> = batch
        .lines()
        .nth(answered.len())
        .unwrap()
        .split(' ')
        .map(|h| h.parse().unwrap())
        .collect();
    let mut sorted = unanswered.clone();
    sorted.sort_unstable();
    let named = sorted
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        stderr.contains(&format!("for position {named} ")),
        "{stderr}"
    );
    // `solve` on one such position keeps the same bound.
    let (code, _, stderr) = run(
        &[
            "solve",
            "subtraction:all-but:100",
            "18",
            "297",
            "348",
            "81",
            "220",
            "--misere",
            "--time-limit",
            "1",
        ],
        None,
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("within the time limit of 1 s"), "{stderr}");
}
