//! One voice (issue 36): the same flag for the same idea in every command, the old
//! spellings still accepted, one spelling of misère play, suggested commands that run as
//! printed, ways to discover games and flags, bounded default outputs, framed pictures
//! and plots in the terminal.

use crate::common::{run, sicher_bin};

/// `sicher CMD --help`.
fn help(command: &str) -> String {
    let (code, out, err) = run(&[command, "--help"], None);
    assert_eq!(code, 0, "{command}: {err}");
    out
}

#[test]
fn every_command_that_shows_progress_takes_dash_q() {
    for command in [
        "check",
        "solve",
        "picture",
        "plot",
        "quotient",
        "table",
        "verify",
        "bench",
        "nim-values",
    ] {
        assert!(
            help(command).contains("-q, --quiet"),
            "{command} has no -q, --quiet"
        );
    }
}

#[test]
fn every_file_a_command_writes_is_dash_o() {
    for command in ["table", "picture", "plot", "quotient", "man"] {
        assert!(
            help(command).contains("-o, --output <FILE>"),
            "{command} has no -o, --output"
        );
    }
    // The renamed flags are hidden from --help but still work.
    assert!(!help("quotient").contains("--write <"));
    assert!(!help("table").contains("--strategy <"));
    assert!(help("table").contains("--engine <ENGINE>"));
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.quotient");
    let new = dir.path().join("new.quotient");
    for (flag, path) in [("--write", &old), ("-o", &new)] {
        let (code, _, err) = run(
            &[
                "quotient",
                "kayles",
                "--max",
                "12",
                flag,
                path.to_str().unwrap(),
                "-q",
            ],
            None,
        );
        assert_eq!(code, 0, "{flag}: {err}");
    }
    assert_eq!(std::fs::read(&old).unwrap(), std::fs::read(&new).unwrap());
    for flag in ["--strategy", "--engine"] {
        let path = dir.path().join(format!("t{flag}.table"));
        let (code, _, err) = run(
            &[
                "table",
                "nim",
                "--heaps",
                "2",
                "--max",
                "7",
                flag,
                "plain",
                "-o",
                path.to_str().unwrap(),
                "-q",
            ],
            None,
        );
        assert_eq!(code, 0, "{flag}: {err}");
    }
}

#[test]
fn long_work_has_a_time_limit_everywhere() {
    for command in [
        "check",
        "solve",
        "picture",
        "plot",
        "quotient",
        "verify",
        "table",
        "nim-values",
    ] {
        assert!(
            help(command).contains("--time-limit <SECONDS>"),
            "{command} has no --time-limit"
        );
    }
}

/// A table may take hours, so its limit is off by default; given one, the run stops in
/// one line and keeps its work directory for the same command to resume.
#[test]
fn a_table_stops_at_its_time_limit_and_keeps_its_work() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.table");
    let started = std::time::Instant::now();
    let (code, _, err) = run(
        &[
            "table",
            "kayles",
            "--total",
            "80",
            "--no-shortcuts",
            "--threads",
            "1",
            "-q",
            "--time-limit",
            "1",
            "-o",
            path.to_str().unwrap(),
        ],
        None,
    );
    assert!(started.elapsed().as_secs_f64() < 10.0, "{err}");
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("time limit of 1 s"), "{err}");
    assert!(err.contains("the same command resumes"), "{err}");
    assert!(!path.exists());
    assert!(dir.path().join("long.table.work").is_dir(), "{err}");
}

#[test]
fn misere_play_is_spelled_one_way() {
    for args in [
        &["solve", "nim", "--misere"][..],
        &["solve", "kayles", "3", "4", "--misere"],
        &["solve", "subtraction:1,3,4", "--misere"],
        &["solve", "nim", "2", "3", "--misere"],
    ] {
        let (code, out, err) = run(args, None);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.contains("misere play"), "{args:?}: {out}");
        assert!(!out.contains("misère play"), "{args:?}: {out}");
    }
    let (_, _, err) = run(&["solve", "games/kayles-script.toml", "--misere"], None);
    assert!(
        err.contains("misere play") && !err.contains("misère play"),
        "{err}"
    );
}

#[test]
fn counts_agree_with_their_nouns() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one.table");
    let (code, _, err) = run(
        &[
            "table",
            "nim",
            "--heaps",
            "1",
            "--max",
            "5",
            "-o",
            path.to_str().unwrap(),
            "-q",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&["info", path.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("one heap of at most 5"), "{out}");
    assert!(out.contains(" 1 block of "), "{out}");
    assert!(
        !out.contains(" 1 heaps") && !out.contains(" 1 blocks"),
        "{out}"
    );
}

/// Every `sicher ...` quoted in backticks in `text`.
fn quoted_commands(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|quoted| quoted.starts_with("sicher "))
        .map(str::to_string)
        .collect()
}

/// Runs `command` as a shell would, with this build's `sicher` first on the PATH.
fn run_as_printed(command: &str) -> (i32, String) {
    let bin = std::path::Path::new(sicher_bin()).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .env("PATH", path)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn every_suggested_command_runs_as_printed() {
    // Each of these prints a message (on stdout or stderr) that suggests a command.
    let cases: &[&[&str]] = &[
        &["solve", "kayles", "10", "11", "12", "--misere"],
        &["solve", "kayles", "30", "40", "50", "--misere"],
        &["solve", "games/kayles.toml", "6", "9", "--misere"],
        &["solve", "games/kayles-script.toml", "--misere"],
        &["solve", "octal:0.77", "--misere", "--method", "grundy"],
        &["solve", "kayles", "--misere", "--max", "20", "3", "7"],
    ];
    let mut suggested = 0;
    for args in cases {
        let (_, out, err) = run(args, None);
        let said = format!("{out}\n{err}");
        let hashed = said.match_indices("script:").any(|(at, _)| {
            let after = &said[at + "script:".len()..];
            after.len() >= 8 && after[..8].bytes().all(|b| b.is_ascii_hexdigit())
        });
        assert!(!hashed, "{args:?} names a hash: {said}");
        for command in quoted_commands(&said) {
            suggested += 1;
            assert!(
                !command.split_whitespace().any(|w| w == "N" || w == "GAME"),
                "{args:?} suggests a placeholder: {command}"
            );
            let (code, err) = run_as_printed(&command);
            assert_eq!(code, 0, "{args:?} suggests `{command}`, which fails: {err}");
        }
    }
    assert!(suggested >= 3, "only {suggested} suggestions seen");
}

#[test]
fn sicher_games_lists_every_shipped_game() {
    let (code, out, err) = run(&["games"], None);
    assert_eq!(code, 0, "{err}");
    let (code, json, err) = run(&["games", "--json"], None);
    assert_eq!(code, 0, "{err}");
    let record: serde_json::Value = serde_json::from_str(&json).unwrap();
    let games = record["games"].as_array().unwrap();
    let mut files = 0;
    for entry in std::fs::read_dir("games").unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let Some(name) = name.strip_suffix(".toml") else {
            continue;
        };
        files += 1;
        assert!(
            games.iter().any(|g| g["name"] == name),
            "{name} is not in games --json"
        );
        assert!(
            out.lines().any(|l| l.trim_start().starts_with(name)),
            "{name} has no line: {out}"
        );
        // Each listed name selects its game.
        let (code, _, err) = run(&["check", name, "1", "--no-move", "-q"], None);
        assert_eq!(code, 0, "{name}: {err}");
    }
    assert_eq!(games.len(), files);
    assert!(!record["specs"].as_array().unwrap().is_empty());
    assert!(out.contains("octal:CODE"), "{out}");
}

#[test]
fn mistyped_games_and_flags_get_a_suggestion() {
    let (code, _, err) = run(&["check", "kaylse", "3", "4"], None);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("did you mean `kayles`?"), "{err}");
    let (_, _, err) = run(&["solve", "dawson-kayle", "3"], None);
    assert!(err.contains("did you mean `dawson-kayles`?"), "{err}");
    // Far from every name: no guess.
    let (_, _, err) = run(&["check", "chess", "3"], None);
    assert!(!err.contains("did you mean"), "{err}");
    let (code, _, err) = run(&["check", "nim", "3", "--quite"], None);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("'--quiet'"), "{err}");
}

#[test]
fn completions_and_the_manual_come_from_the_definition() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (code, out, err) = run(&["completions", shell], None);
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(
            out.contains("nim-values") && out.contains("quotient"),
            "{shell}"
        );
    }
    let (code, _, err) = run(&["completions", "tcsh"], None);
    assert_eq!(code, 2, "{err}");
    let (code, page, err) = run(&["man"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        page.starts_with(".ie") || page.contains(".TH sicher 1"),
        "{page}"
    );
    assert!(page.contains("nim\\-values") || page.contains("nim-values"));
    let (code, page, _) = run(&["man", "check"], None);
    assert_eq!(code, 0);
    assert!(page.contains(".TH sicher-check"), "{page}");
    assert!(page.contains("time\\-limit"), "{page}");
    let (code, _, err) = run(&["man", "chek"], None);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sicher.1");
    let (code, _, err) = run(&["man", "-o", path.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains(".TH sicher"));
    let (code, _, _) = run(&["man", "-o", path.to_str().unwrap()], None);
    assert_eq!(code, 2, "an existing page is kept without --force");
}

#[test]
fn complete_solutions_are_bounded_with_the_rest_one_flag_away() {
    let (code, out, err) = run(&["solve", "octal:0.16", "--json"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.len() < 20_000, "{} bytes", out.len());
    let record: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(record["period"], 149_459);
    assert_eq!(record["preperiod"], 105_351);
    assert_eq!(record["values"].as_array().unwrap().len(), 1000);
    assert_eq!(record["values_total"], 105_351 + 149_459);
    assert_eq!(record["values_complete"], false);
    let (code, all, _) = run(&["solve", "octal:0.16", "--json", "--all-values"], None);
    assert_eq!(code, 0);
    let all: serde_json::Value = serde_json::from_str(&all).unwrap();
    let values = all["values"].as_array().unwrap();
    assert_eq!(values.len(), 105_351 + 149_459);
    assert_eq!(values[..1000], record["values"].as_array().unwrap()[..]);
    assert_eq!(all["values_complete"], true);
    // The words say the cut, and where the rest is.
    let (_, text, _) = run(&["solve", "octal:0.16"], None);
    assert!(text.len() < 20_000, "{} bytes", text.len());
    assert!(text.contains("--all-values"), "{text}");
    // A short period is whole, as before.
    let (_, kayles, _) = run(&["solve", "kayles", "--json"], None);
    let kayles: serde_json::Value = serde_json::from_str(&kayles).unwrap();
    assert_eq!(kayles["values_complete"], true);
}

/// Decodes an RGB8 PNG: (width, height, pixels).
fn decode(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    pixels.truncate(info.buffer_size());
    (info.width, info.height, pixels)
}

#[test]
fn framed_maps_have_a_title_and_axes_around_the_same_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let framed = dir.path().join("framed.png");
    let (code, _, err) = run(
        &[
            "picture",
            "nim",
            "--max",
            "40",
            "--scale",
            "3",
            "--axes",
            "-o",
            framed.to_str().unwrap(),
            "-q",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let (width, height, pixels) = decode(&framed);
    let (x0, y0) = sicher::picture::frame_offset();
    assert_eq!(
        (width, height),
        sicher::picture::framed_map_size(40, 3, sicher::picture::MapMode::Outcome).unwrap()
    );
    let at = |x: u32, y: u32| {
        let i = ((y * width + x) * 3) as usize;
        [pixels[i], pixels[i + 1], pixels[i + 2]]
    };
    for a in 0..=40u32 {
        for b in 0..=40u32 {
            // Nim: unsafe exactly on the diagonal.
            let expected = if a == b { [0, 0, 0] } else { [255, 255, 255] };
            assert_eq!(at(x0 + 3 * a + 1, y0 + 3 * b + 1), expected, "({a}, {b})");
        }
    }
    let inked_rows = (0..y0 - 2)
        .filter(|&y| (0..width).any(|x| at(x, y)[0] < 100))
        .count();
    assert!(inked_rows > 5, "no title");
}

#[test]
fn plots_draw_in_the_terminal_and_maps_print_whole_through_a_pipe() {
    let (code, out, err) = run(&["plot", "kayles", "--max", "80"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("across: heap size n"), "{out}");
    assert!(out.contains("kayles"), "{out}");
    assert!(out.lines().all(|l| l.chars().count() <= 100), "{out}");
    let (code, out, _) = run(&["plot", "kayles", "--max", "80", "--json"], None);
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["path"], serde_json::Value::Null);
    // Piped, a map wider than a guessed 80 columns is printed whole.
    let (code, out, _) = run(&["picture", "nim", "--max", "150"], None);
    assert_eq!(code, 0);
    assert!(out.contains("150"), "the last rows are cropped");
    let longest = out.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(longest > 150, "{longest} columns");
    // --columns bounds it, and the drawing says what it shows.
    let (code, narrow, _) = run(&["picture", "nim", "--max", "150", "--columns", "60"], None);
    assert_eq!(code, 0);
    assert!(narrow.lines().all(|l| l.chars().count() <= 60), "{narrow}");
    assert!(narrow.len() < out.len());
}
