//! `sicher play` through the binary (issues 33 and 36): every form the move list shows
//! is accepted as typed, `level N` during a game, a new prompt after every command, the
//! hint of a move that takes the last tokens, and partizan games with a choice of side.

use crate::common::run;

/// The lines of `out` from the first that contains `from`.
fn after<'a>(out: &'a str, from: &str) -> Vec<&'a str> {
    out.lines().skip_while(|l| !l.contains(from)).collect()
}

#[test]
fn every_form_the_move_list_shows_is_accepted() {
    // The list shows `3. to 1 4 5`; the move is typed as `3`, `3.`, `to 1 4 5`,
    // `1 4 5`, `1,4,5` or the whole line.
    for typed in [
        "3",
        "3.",
        "to 1 4 5",
        "1 4 5",
        "1,4,5",
        "3. to 1 4 5",
        "  3.  TO 1 4 5 ",
    ] {
        let (code, out, err) = run(
            &["play", "nim", "3", "4", "5", "--json"],
            Some(&format!("{typed}\nq\n")),
        );
        assert_eq!(code, 0, "{typed}: {err}");
        let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        assert_eq!(
            first["move"],
            serde_json::json!([1, 4, 5]),
            "{typed}: {out}"
        );
    }
    // The list shows `1. to (no heaps)` for a move that takes the last tokens.
    for typed in [
        "1",
        "1.",
        "to (no heaps)",
        "(no heaps)",
        "1. to (no heaps)",
        "to 0",
    ] {
        let (code, out, err) = run(&["play", "nim", "3"], Some(&format!("{typed}\n")));
        assert_eq!(code, 0, "{typed}: {err}");
        assert!(out.contains("You win after 1 move"), "{typed}: {out}");
    }
    // A line whose number and position disagree is refused, saying both.
    let (code, _, err) = run(&["play", "nim", "3"], Some("2. to (no heaps)\n"));
    assert_eq!(code, 2);
    assert!(
        err.contains("move 2 leads to 1, not to (no heaps)"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn level_can_be_typed_during_the_game_and_help_mentions_it() {
    let (code, out, err) = run(
        &["play", "kayles", "7", "8", "9", "--seed", "5"],
        Some("help\nlevel 0\nlevel\nq\n"),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("level N (the computer's level"), "{out}");
    assert!(
        out.contains("the computer plays at level 0 of 10 (random moves only); your move:"),
        "{out}"
    );
    // At level 0 the computer's moves are random from then on.
    let (code, out, err) = run(
        &["play", "kayles", "7", "8", "9", "--json", "--seed", "5"],
        Some("level 0\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\nq\n"),
    );
    assert_eq!(code, 0, "{err}");
    let computer: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r["by"] == "computer")
        .collect();
    assert!(!computer.is_empty(), "{out}");
    assert!(computer.iter().all(|r| r["random"] == true), "{out}");
    // A level out of range is one line in a script.
    let (code, _, err) = run(&["play", "nim", "3"], Some("level 11\n"));
    assert_eq!(code, 2);
    assert!(
        err.contains("level 11: a level is a whole number from 0"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // --help names the in-game command.
    let (_, help, _) = run(&["play", "--help"], None);
    assert!(help.contains("level N"), "{help}");
}

#[test]
fn every_command_is_followed_by_a_new_prompt() {
    let (code, out, err) = run(
        &["play", "nim", "3", "4", "5"],
        Some("help\nhint\nmoves\nundo\nq\n"),
    );
    assert_eq!(code, 0, "{err}");
    let lines = after(&out, "your move:");
    // The first prompt, then one after each of the four commands.
    let prompts = lines.iter().filter(|l| l.ends_with("your move:")).count();
    assert_eq!(prompts, 5, "{out}");
    assert!(lines.last().unwrap().ends_with("your move:"), "{out}");
}

#[test]
fn the_hint_of_a_move_that_takes_the_last_tokens_says_so() {
    let (code, out, err) = run(&["play", "nim", "3"], Some("hint\nq\n"));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("hint: the best move takes the last tokens, leaving no heaps (move 1)"),
        "{out}"
    );
    assert!(!out.contains("the best move is to (no heaps)"), "{out}");
    let (_, out, _) = run(&["play", "nim", "3", "4", "5"], Some("hint\nq\n"));
    assert!(
        out.contains("hint: the best move is to 1 4 5 (move 3)"),
        "{out}"
    );
}

/// Left takes 1 or 3, Right 2 or 3, from one heap: whether the player to move wins,
/// straight from the definition.
fn brute_wins(n: u64, left_to_move: bool) -> bool {
    let takes: &[u64] = if left_to_move { &[1, 3] } else { &[2, 3] };
    takes
        .iter()
        .any(|&t| t <= n && !brute_wins(n - t, !left_to_move))
}

#[test]
fn partizan_play_lets_you_choose_a_side_and_who_starts() {
    for n in 0..=12u64 {
        for side in ["left", "right"] {
            for first in ["you", "computer"] {
                // You always take the first move listed; the computer plays perfectly.
                let args = [
                    "play",
                    "partizan-subtraction:1,3/2,3",
                    &n.to_string(),
                    "--as",
                    side,
                    "--first",
                    first,
                    "--json",
                ];
                let (code, out, err) = run(&args, Some(&"1\n".repeat(20)));
                assert_eq!(code, 0, "{args:?}: {err}");
                let records: Vec<serde_json::Value> = out
                    .lines()
                    .map(|l| serde_json::from_str(l).unwrap())
                    .collect();
                let result = records.last().unwrap();
                let you_left = side == "left";
                let left_starts = you_left == (first == "you");
                let starter_wins = brute_wins(n, left_starts);
                let computer_starts = first == "computer";
                if starter_wins == computer_starts {
                    assert_eq!(result["winner"], "computer", "{args:?}: {out}");
                }
                let computer_side = if you_left { "right" } else { "left" };
                for record in records.iter().filter(|r| r["by"] == "computer") {
                    assert_eq!(record["side"], computer_side, "{out}");
                }
                // Each record's verdict for the side to move is the definition's.
                for record in records.iter().filter(|r| r.get("ply").is_some()) {
                    let heap = record["position"].as_array().unwrap().first();
                    let heap = heap.map_or(0, |h| h.as_u64().unwrap());
                    let left = record["to_move"] == "left";
                    assert_eq!(record["win"], brute_wins(heap, left), "{out}");
                }
            }
        }
    }
}

#[test]
fn partizan_play_in_words_says_the_class_the_sides_and_the_winner() {
    let (code, out, err) = run(
        &["play", "partizan-subtraction:1,3/2,3", "6", "--as", "right"],
        Some("hint\n2. to 4\nlevel 9\nq\n"),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("class L (Left wins whoever starts)"), "{out}");
    assert!(out.contains("you play Right, the computer Left"), "{out}");
    assert!(out.contains("position 6, Right to move (you)"), "{out}");
    assert!(out.contains("the computer (Left) moves to"), "{out}");
    assert!(out.contains("your move (Right):"), "{out}");
    // Right has only its own moves: 6 - 1 is Left's.
    let (code, _, err) = run(
        &["play", "partizan-subtraction:1,3/2,3", "6", "--as", "right"],
        Some("to 5\n"),
    );
    assert_eq!(code, 2);
    assert!(err.contains("5 is not one move away from 6"), "{err}");
    // Partizan flags on an impartial game, and no start: one line each.
    for args in [
        &["play", "nim", "3", "--as", "left"][..],
        &["play", "nim", "3", "--first", "right"][..],
        &["play", "partizan-subtraction:1,3/2,3"][..],
    ] {
        let (code, out, err) = run(args, Some(""));
        assert_eq!(code, 2, "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}
