//! The Universal Web API: what GamesCraftersUWAPI documents and GamesmanUni reads, and
//! every value and remoteness against the independent reference, over whole games of
//! Nim and Kayles in both conventions.

use serde_json::Value;

use super::http::Server;
use crate::common::{self, Rules};

#[test]
fn the_game_list_is_what_gamesmanuni_lists() {
    let server = Server::start(&[]);
    let games = server.json("/uwapi/", 200);
    let games = games.as_array().unwrap();
    assert_eq!(games.len(), sicher::game::shipped_games().len());
    for game in games {
        assert_eq!(game["type"], "twoPlayer");
        assert!(["v0", "v1", "v2", "v3"].contains(&game["gui"].as_str().unwrap()));
        let id = game["id"].as_str().unwrap();
        assert!(
            id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'),
            "{id}"
        );
        let detail = server.json(&format!("/uwapi/{id}/"), 200);
        assert_eq!(detail["id"], id);
        assert_eq!(detail["allowCustomVariantCreation"], true);
        assert_eq!(detail["supportsWinBy"], false);
        for variant in detail["variants"].as_array().unwrap() {
            let vid = variant["id"].as_str().unwrap();
            let v = server.json(&format!("/uwapi/{id}/{vid}/"), 200);
            let start = v["startPosition"].as_str().unwrap();
            assert!(start.starts_with("1_") && start.len() > 2, "{start}");
            assert_eq!(v["autoguiStartPosition"], start);
            assert!(v["imageAutoGUIData"].is_null());
        }
        let instructions = server.json(
            &format!("/uwapi/{id}/normal/instructions/?locale=en-US"),
            200,
        );
        assert!(instructions["instructions"]
            .as_str()
            .unwrap()
            .starts_with("# "));
    }
    let custom = server.json("/uwapi/kayles/misere-2_3_9/", 200);
    assert_eq!(custom["startPosition"], "1_2-3-9");
}

/// Checks one position answer against the reference and GamesmanUni's needs; returns it.
fn check_position(
    server: &Server,
    game: &str,
    variant: &str,
    p: &str,
    reference: &mut common::RemotenessReference,
) -> Value {
    let answer = server.json(&format!("/uwapi/{game}/{variant}/positions/?p={p}"), 200);
    assert_eq!(answer["position"], p);
    assert_eq!(answer["autoguiPosition"], p);
    let heaps: Vec<u64> = p[2..]
        .split('-')
        .map(|h| h.parse().unwrap())
        .filter(|&h| h > 0)
        .collect();
    let (win, remoteness) = reference.value(&heaps);
    assert_eq!(
        answer["positionValue"],
        if win { "win" } else { "lose" },
        "{game} {variant} {p}"
    );
    assert_eq!(answer["remoteness"], remoteness, "{game} {variant} {p}");
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(
        moves.is_empty(),
        remoteness == 0,
        "remoteness 0 only at the end: {p}"
    );
    let mover = &p[..1];
    let mut names = std::collections::HashSet::new();
    let order = |m: &Value| -> (u8, i64) {
        let rank = if m["moveValue"] == "win" { 0 } else { 3 };
        (rank, m["deltaRemoteness"].as_i64().unwrap())
    };
    for pair in moves.windows(2) {
        assert!(order(&pair[0]) <= order(&pair[1]), "sorted best first: {p}");
    }
    let fastest = moves
        .iter()
        .filter(|m| m["moveValue"] == "win")
        .map(|m| m["remoteness"].as_i64().unwrap())
        .min();
    let longest = moves
        .iter()
        .filter(|m| m["moveValue"] == "lose")
        .map(|m| m["remoteness"].as_i64().unwrap())
        .max();
    for m in moves {
        let name = m["move"].as_str().unwrap();
        assert_eq!(
            m["autoguiMove"], name,
            "the text board keys moves by `move`"
        );
        assert!(!name.contains(':'), "{name}");
        assert!(names.insert(name.to_string()), "unique: {name}");
        let child = m["position"].as_str().unwrap();
        assert_eq!(m["autoguiPosition"], child);
        assert!(
            child
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b'_' || b == b'-'),
            "{child}"
        );
        assert_ne!(&child[..1], mover, "the turn passes");
        let child_heaps: Vec<u64> = child[2..]
            .split('-')
            .map(|h| h.parse().unwrap())
            .filter(|&h| h > 0)
            .collect();
        let (child_win, child_r) = reference.value(&child_heaps);
        assert_eq!(m["positionValue"], if child_win { "win" } else { "lose" });
        assert_eq!(m["moveValue"], if child_win { "lose" } else { "win" });
        assert_eq!(m["remoteness"], child_r);
        let delta = if child_win {
            longest.unwrap() - i64::from(child_r)
        } else {
            i64::from(child_r) - fastest.unwrap()
        };
        assert_eq!(m["deltaRemoteness"], delta, "{p} {name}");
    }
    if win && !moves.is_empty() {
        assert_eq!(
            moves.first().map(|m| m["moveValue"].clone()),
            Some(Value::from("win"))
        );
    }
    answer
}

/// Plays a whole game from the variant's start: the best move, then the worst, in turn.
fn play_through(server: &Server, game: &str, variant: &str, rules: Rules) {
    let misere = variant.starts_with("misere");
    let mut reference = common::RemotenessReference::new(rules, misere);
    let v = server.json(&format!("/uwapi/{game}/{variant}/"), 200);
    let mut p = v["startPosition"].as_str().unwrap().to_string();
    for ply in 0.. {
        let answer = check_position(server, game, variant, &p, &mut reference);
        let moves = answer["moves"].as_array().unwrap();
        let Some(next) = (if ply % 2 == 0 {
            moves.first()
        } else {
            moves.last()
        }) else {
            // The end: in normal play the player to move has lost, in misère play won.
            assert_eq!(answer["positionValue"], if misere { "win" } else { "lose" });
            break;
        };
        p = next["position"].as_str().unwrap().to_string();
        assert!(ply < 200);
    }
}

#[test]
fn whole_games_of_nim_and_kayles_have_true_values_and_remoteness() {
    let server = Server::start(&[]);
    let kayles = || Rules::Code {
        hex: false,
        digits: vec![0, 7, 7],
        repeat: false,
    };
    for variant in ["normal", "misere", "2_3_6", "misere-1_4_7"] {
        play_through(&server, "nim", variant, Rules::Nim);
        play_through(&server, "kayles", variant, kayles());
    }
    play_through(
        &server,
        "dawson-kayles",
        "misere-5_6",
        Rules::Code {
            hex: false,
            digits: vec![0, 0, 7],
            repeat: false,
        },
    );
}

#[test]
fn positions_keep_the_board_order_and_name_moves_by_place() {
    let server = Server::start(&[]);
    let answer = server.json("/uwapi/kayles/normal/positions/?p=2_5-1-3", 200);
    let moves = answer["moves"].as_array().unwrap();
    // Knocking the middle pin of the first row of 5 leaves 2 and 2 where the 5 was.
    let split = moves
        .iter()
        .find(|m| m["position"] == "1_2-2-1-3")
        .expect("the split");
    assert_eq!(split["move"], "heap 1 (5) → 2 + 2");
    let nim = server.json("/uwapi/nim/normal/positions/?p=1_3-4-5", 200);
    assert_eq!(nim["mex"], "*2");
    let end = server.json("/uwapi/nim/misere/positions/?p=1_0", 200);
    assert_eq!(end["positionValue"], "win");
    assert_eq!(end["remoteness"], 0);
    assert!(end["moves"].as_array().unwrap().is_empty());
}
