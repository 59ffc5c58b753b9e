//! Partizan games on the web (issue 33): `/api/partizan` answers the class, the verdict of
//! the side to move, each move of that side with its verdict and each player's winning
//! moves, every one checked against a literal `sicher(s, p)`; bad requests are JSON
//! errors with a 4xx status.

use std::collections::HashMap;

use serde_json::{json, Value};

use super::http::Server;

/// Left takes 1 or 3, Right 2 or 3: the moves of `side` (true: Left) from `heaps`.
fn subtraction_children(heaps: &[u64], left: bool) -> Vec<Vec<u64>> {
    let takes: &[u64] = if left { &[1, 3] } else { &[2, 3] };
    let mut out = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        for &t in takes {
            if t <= h {
                let mut child: Vec<u64> = heaps.to_vec();
                child[i] = h - t;
                child.retain(|&x| x > 0);
                child.sort_unstable();
                out.push(child);
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The seeds' `sicher(s, p)`, literally, memoised: a player with no move loses.
fn wins(heaps: &[u64], left: bool, memo: &mut HashMap<(Vec<u64>, bool), bool>) -> bool {
    if let Some(&known) = memo.get(&(heaps.to_vec(), left)) {
        return known;
    }
    let win = subtraction_children(heaps, left)
        .iter()
        .any(|child| !wins(child, !left, memo));
    memo.insert((heaps.to_vec(), left), win);
    win
}

fn heaps_of(value: &Value) -> Vec<u64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_u64().unwrap())
        .collect()
}

#[test]
fn partizan_positions_answer_as_the_definition_does() {
    let server = Server::start(&[]);
    let mut memo = HashMap::new();
    let positions: Vec<Vec<u64>> = (0..=10u64)
        .map(|n| vec![n])
        .chain([vec![2, 3], vec![4, 5], vec![1, 6, 6], vec![3, 3, 3]])
        .collect();
    for heaps in positions {
        let text: Vec<String> = heaps.iter().map(u64::to_string).collect();
        let text = text.join(",");
        let left_wins = wins(&heaps, true, &mut memo);
        let right_wins = wins(&heaps, false, &mut memo);
        let class = match (left_wins, right_wins) {
            (true, false) => "L",
            (false, true) => "R",
            (true, true) => "N",
            (false, false) => "P",
        };
        for (side, left) in [("left", true), ("right", false)] {
            let got = server.json(
                &format!(
                    "/api/partizan?game=partizan-subtraction:1,3/2,3&heaps={text}&to_move={side}"
                ),
                200,
            );
            assert_eq!(got["class"], class, "{text} {side}: {got}");
            assert_eq!(got["to_move"], side);
            assert_eq!(got["win"], wins(&heaps, left, &mut memo), "{text} {side}");
            let children = subtraction_children(&heaps, left);
            let moves = got["moves"].as_array().unwrap();
            let mut listed: Vec<Vec<u64>> = moves.iter().map(|m| heaps_of(&m["to"])).collect();
            listed.sort();
            assert_eq!(listed, children, "{text} {side}: only the side's own moves");
            for m in moves {
                let after = heaps_of(&m["to"]);
                assert_eq!(
                    m["win"],
                    !wins(&after, !left, &mut memo),
                    "{text} {side} to {after:?}"
                );
            }
            // Winning moves come first.
            let flags: Vec<bool> = moves.iter().map(|m| m["win"].as_bool().unwrap()).collect();
            assert!(flags.windows(2).all(|w| w[0] >= w[1]), "{flags:?}");
            for (key, player) in [("left_winning", true), ("right_winning", false)] {
                let mut expected: Vec<Vec<u64>> = subtraction_children(&heaps, player)
                    .into_iter()
                    .filter(|c| !wins(c, !player, &mut memo))
                    .collect();
                expected.sort();
                let got: Vec<Vec<u64>> =
                    got[key].as_array().unwrap().iter().map(heaps_of).collect();
                assert_eq!(got, expected, "{text} {key}");
            }
            let ended = children.is_empty();
            assert_eq!(got["winner"].is_null(), !ended, "{text} {side}");
            if ended {
                assert_eq!(got["winner"], if left { "right" } else { "left" });
            }
        }
    }
}

#[test]
fn partizan_examples_and_misere_play() {
    let server = Server::start(&[]);
    let examples = server.json("/api/partizan/games", 200);
    assert!(examples
        .as_array()
        .unwrap()
        .contains(&json!("partizan-subtraction:1,3/2,3")));
    // Misère: a player with no move wins. At 0 the side to move has won.
    let got = server.json(
        "/api/partizan?game=partizan-octal:0.7/0.07&heaps=0&to_move=right&play=misere",
        200,
    );
    assert_eq!(got["winner"], "right");
    assert_eq!(got["play"], "misere");
    let got = server.json(
        "/api/partizan?game=partizan-octal:0.7/0.07&heaps=4,5&to_move=left",
        200,
    );
    assert_eq!(got["class"], "L");
    assert_eq!(got["title"], "partizan-octal:0.7/0.07");
}

#[test]
fn bad_partizan_requests_are_json_errors() {
    let server = Server::start(&[]);
    for (path, status, words) in [
        (
            "/api/partizan?game=kayles&heaps=3",
            400,
            "not a partizan spec",
        ),
        (
            "/api/partizan?game=partizan-subtraction:1,3&heaps=3",
            400,
            "slash",
        ),
        (
            "/api/partizan?game=partizan-subtraction:1,3/2,3",
            400,
            "heaps",
        ),
        ("/api/partizan?heaps=3", 400, "game"),
        (
            "/api/partizan?game=partizan-subtraction:1,3/2,3&heaps=3&to_move=up",
            400,
            "left or right",
        ),
        (
            "/api/partizan?game=partizan-subtraction:1,3/2,3&heaps=30,30",
            413,
            "at most 40 tokens",
        ),
        (
            "/api/partizan?game=partizan-subtraction:1,3/2,3&heaps=3&play=sideways",
            400,
            "normal or misere",
        ),
    ] {
        let got = server.json(path, status);
        let error = got["error"].as_str().unwrap();
        assert!(error.contains(words), "{path}: {error}");
    }
}

/// A partizan request past the server's time limit ends with the usual 503 (the
/// partizan engines are cancelled at the limit), and the server goes on.
#[test]
fn a_partizan_search_past_its_time_limit_is_a_503() {
    // The search of this position takes about 3 s alone on the command line (and the
    // server also weighs every move): 60 times the limit, so even a fast, idle machine
    // cannot finish it in time. (0.77/0.07 at 13 13 14 took 0.4 s, which a CI machine
    // once answered within a limit of 0.3 s.)
    let server = Server::start(&["--time-limit", "0.05", "--searches", "1"]);
    let started = std::time::Instant::now();
    let response = server
        .get("/api/partizan?game=partizan-hex:0.fff/0.f7f&play=misere&heaps=13,13,14&to_move=left");
    assert_eq!(response.status, 503, "{}", response.text());
    assert!(
        response.json()["error"]
            .as_str()
            .unwrap()
            .contains("time-limit"),
        "{}",
        response.text()
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let after = server.json(
        "/api/partizan?game=partizan-subtraction:1,3/2,3&heaps=6&to_move=left",
        200,
    );
    assert_eq!(after["class"], "L");
}
