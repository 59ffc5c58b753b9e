//! sicher's own JSON API: every route answers as the command line and the library do, in
//! both conventions.

use serde_json::Value;

use super::http::Server;
use crate::common;

const GAMES: [&str; 6] = [
    "nim",
    "kayles",
    "dawson-kayles",
    "subtraction:1,3,4",
    "wythoff",
    "grundy",
];
const POSITIONS: [&str; 4] = ["3,4,5", "1,2", "7", "2,2,6"];

fn cli_json(args: &[&str]) -> Value {
    let (code, out, err) = common::run(args, None);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(out.trim()).unwrap()
}

#[test]
fn check_answers_as_the_command_line_does() {
    let server = Server::start(&[]);
    for game in GAMES {
        for misere in [false, true] {
            for heaps in POSITIONS {
                let play = if misere { "misere" } else { "normal" };
                let got = server.json(
                    &format!("/api/check?game={game}&play={play}&heaps={heaps}"),
                    200,
                );
                let mut args = vec!["check", game, heaps, "--json"];
                if misere {
                    args.push("--misere");
                }
                assert_eq!(got, cli_json(&args), "{game} {play} {heaps}");
            }
        }
    }
}

#[test]
fn a_batch_answers_as_check_reads_stdin() {
    let server = Server::start(&[]);
    let lines = "3 4 5\n1,1\n\n9\n2 2 6\n";
    for play in ["normal", "misere"] {
        let response = server.post(
            &format!("/api/check?game=kayles&play={play}"),
            lines.as_bytes(),
        );
        assert_eq!(response.status, 200, "{}", response.text());
        let mut args = vec!["check", "kayles", "--json"];
        if play == "misere" {
            args.push("--misere");
        }
        let (code, out, _) = common::run(&args, Some(lines));
        assert_eq!(code, 0);
        let expected: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(response.json(), Value::Array(expected), "{play}");
    }
}

/// The fields of `solve --json` that do not depend on the clock or the thread count.
fn stable(mut record: Value) -> Value {
    let object = record.as_object_mut().unwrap();
    for noisy in ["seconds", "nodes_per_second", "stats", "table_bytes"] {
        object.remove(noisy);
    }
    record
}

#[test]
fn solve_answers_as_the_command_line_does() {
    let server = Server::start(&[]);
    for game in ["nim", "kayles", "subtraction:1,3,4", "wythoff"] {
        for misere in [false, true] {
            for heaps in ["3,4,5", "2,2,6"] {
                let play = if misere { "misere" } else { "normal" };
                let got = server.json(
                    &format!(
                        "/api/solve?game={game}&play={play}&heaps={heaps}&remoteness=required"
                    ),
                    200,
                );
                let mut args = vec![
                    "solve",
                    game,
                    heaps,
                    "--json",
                    "--remoteness",
                    "--threads",
                    "1",
                ];
                if misere {
                    args.push("--misere");
                }
                assert_eq!(
                    stable(got),
                    stable(cli_json(&args)),
                    "{game} {play} {heaps}"
                );
            }
        }
    }
}

#[test]
fn a_solution_and_nim_values_are_the_libraries() {
    let server = Server::start(&[]);
    for (game, play) in [
        ("kayles", "normal"),
        ("subtraction:1,3,4", "misere"),
        ("subtraction:1,3,4", "normal"),
    ] {
        let got = server.json(
            &format!("/api/solution?game={game}&play={play}&max=400"),
            200,
        );
        let mut args = vec!["solve", game, "--max", "400", "--json"];
        if play == "misere" {
            args.push("--misere");
        }
        let expected = cli_json(&args);
        // One record, note included: the library words it for both front ends.
        assert_eq!(got, expected, "{game} {play}");
    }
    let values = server.json("/api/nim-values?game=kayles&max=100", 200);
    let ruleset = sicher::resolve("kayles").unwrap().ruleset;
    let expected = sicher::nim_values(&ruleset, sicher::theory::grundy::Method::Fast, 101).unwrap();
    assert_eq!(values["values"], serde_json::json!(expected));
}

#[test]
fn a_position_report_values_every_move_as_the_reference_does() {
    let server = Server::start(&[]);
    let games = [
        ("nim", common::Rules::Nim),
        (
            "kayles",
            common::Rules::Code {
                hex: false,
                digits: vec![0, 7, 7],
                repeat: false,
            },
        ),
        (
            "subtraction:1,3,4",
            common::Rules::Subtraction(vec![1, 3, 4]),
        ),
        ("wythoff", common::Rules::Wythoff),
    ];
    for (game, rules) in games {
        for misere in [false, true] {
            let mut reference = common::RemotenessReference::new(rules.clone(), misere);
            for heaps in [vec![3, 4, 5], vec![1, 2], vec![6], vec![2, 2, 3], vec![]] {
                let play = if misere { "misere" } else { "normal" };
                let text: Vec<String> = heaps.iter().map(u64::to_string).collect();
                let got = server.json(
                    &format!(
                        "/api/position?game={game}&play={play}&heaps={}",
                        text.join(",")
                    ),
                    200,
                );
                let (win, remoteness) = reference.value(&heaps);
                assert_eq!(got["win"], win, "{game} {play} {heaps:?}");
                assert_eq!(got["remoteness"], remoteness, "{game} {play} {heaps:?}");
                let ranked = reference.ranked_children(&heaps);
                let moves = got["moves"].as_array().unwrap();
                // The reference lists each position once; the report lists each move
                // (Wythoff reaches some positions by two moves).
                let mut seen: Vec<Vec<u64>> = Vec::new();
                let mut listed = Vec::new();
                for m in moves {
                    let to: Vec<u64> = serde_json::from_value(m["to"].clone()).unwrap();
                    if !seen.contains(&to) {
                        seen.push(to.clone());
                        listed.push((
                            to,
                            m["win"].as_bool().unwrap(),
                            m["remoteness"].as_u64().unwrap(),
                        ));
                    }
                }
                let expected: Vec<(Vec<u64>, bool, u64)> = ranked
                    .iter()
                    .map(|(to, (child_wins, r))| (to.clone(), !child_wins, u64::from(*r) + 1))
                    .collect();
                assert_eq!(listed, expected, "{game} {play} {heaps:?}");
            }
        }
    }
}

#[test]
fn the_why_panel_gives_nim_values_quotients_and_periods() {
    let server = Server::start(&[]);
    let normal = server.json("/api/position?game=kayles&play=normal&heaps=3,4,5", 200);
    let why = &normal["why"];
    assert_eq!(why["source"], "grundy");
    // G(3) = 3, G(4) = 1, G(5) = 4 in Kayles.
    assert_eq!(why["nim_values"], serde_json::json!([3, 1, 4]));
    assert_eq!(why["nim_sum"], 6);
    assert_eq!(why["period"]["period"], 12);
    assert_eq!(why["period"]["preperiod"], 71);
    let misere = server.json(
        "/api/position?game=dawson-kayles&play=misere&heaps=3,4,5",
        200,
    );
    let quotient = &misere["why"]["quotient"];
    assert_eq!(misere["why"]["source"], "quotient");
    assert_eq!(quotient["elements"].as_array().unwrap().len(), 3);
    assert_eq!(
        quotient["unsafe_element"],
        !misere["win"].as_bool().unwrap()
    );
}

#[test]
fn pictures_are_the_commands_pngs() {
    let server = Server::start(&[]);
    let dir = tempfile::tempdir().unwrap();
    let map = server.get("/api/map.png?game=wythoff&max=30&scale=2");
    assert_eq!(map.status, 200);
    assert_eq!(map.header("content-type"), Some("image/png"));
    let file = dir.path().join("map.png");
    let (code, _, err) = common::run(
        &[
            "picture",
            "wythoff",
            "--max",
            "30",
            "--scale",
            "2",
            "-o",
            file.to_str().unwrap(),
            "--quiet",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(map.body, std::fs::read(&file).unwrap());
    let plot = server.get("/api/plot.png?game=kayles&max=100&width=600&height=300");
    assert_eq!(plot.status, 200);
    assert!(plot.body.starts_with(b"\x89PNG\r\n\x1a\n"));
    let misere = server.get("/api/plot.png?game=kayles&play=misere&max=60");
    assert_eq!(misere.status, 200, "{}", misere.text());
}

#[test]
fn the_page_and_its_assets_are_served_from_the_binary() {
    let server = Server::start(&[]);
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    let policy = page.header("content-security-policy").unwrap();
    assert!(policy.contains("default-src 'self'"), "{policy}");
    let html = page.text();
    assert!(html.contains("/app.js") && !html.contains("http://") && !html.contains("https://"));
    for asset in ["/app.js", "/style.css"] {
        let response = server.get(asset);
        assert_eq!(response.status, 200, "{asset}");
        assert!(
            !response.text().contains("https://"),
            "{asset} loads nothing from elsewhere"
        );
    }
    let games = server.json("/api/games", 200);
    let names: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    let shipped: Vec<&str> = sicher::game::shipped_games()
        .iter()
        .map(|g| g.name)
        .collect();
    assert_eq!(names, shipped);
    let typed = server.json("/api/game?game=octal:0.137&play=misere", 200);
    assert_eq!(typed["spec"], "octal:0.137");
    assert_eq!(typed["play"], "misere");
}
