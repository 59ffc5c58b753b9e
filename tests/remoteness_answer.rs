//! The remoteness through the answer layer and the command line: search answers against
//! the independent reference (normal and misère, every algorithm), `check` and `solve`
//! output, and `play` against a scripted opponent.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use common::{run, sicher_bin, RemotenessReference, Rules};
use proptest::prelude::*;
use sicher::answer::{sort_moves, Chain, Method, Policy, Query, Remoteness, SourceKind};
use sicher::game::{resolve, Convention, Position};
use sicher::search::Algorithm;
use sicher::value::{Outcome, Value};

fn convention(misere: bool) -> Convention {
    if misere {
        Convention::Misere
    } else {
        Convention::Normal
    }
}

/// A chain that asks the search alone, with the given remoteness variant.
fn search_chain(rules: &Rules, misere: bool, algorithm: Algorithm) -> Chain {
    let game = resolve(&rules.spec())
        .unwrap()
        .with_convention(convention(misere));
    let policy = Policy {
        method: Method::Search,
        tables_dir: None,
        algorithm,
        ..Policy::default()
    };
    Chain::new(&game, &policy).unwrap()
}

const REQUIRED: Query = Query {
    best_move: true,
    remoteness: Remoteness::Required,
};

/// The reference's value, checked against the parity rule: normal play is safe exactly
/// at odd remoteness, misère play at even.
fn reference_value(reference: &mut RemotenessReference, heaps: &[u64]) -> Value {
    let (win, remoteness) = reference.value(heaps);
    let odd = remoteness % 2 == 1;
    assert_eq!(win, odd != reference.misere, "parity at {heaps:?}");
    Value::Remoteness {
        outcome: Outcome::from_win(win),
        remoteness,
    }
}

fn rules_strategy() -> impl Strategy<Value = Rules> {
    prop_oneof![
        Just(Rules::Code {
            hex: false,
            digits: vec![0, 7, 7],
            repeat: false
        }),
        Just(Rules::Code {
            hex: false,
            digits: vec![0, 0, 7],
            repeat: false
        }),
        Just(Rules::Code {
            hex: false,
            digits: vec![0, 4],
            repeat: true
        }),
        prop::collection::btree_set(1u64..6, 1..4)
            .prop_map(|s| Rules::Subtraction(s.into_iter().collect())),
        Just(Rules::Nim),
        Just(Rules::Grundy),
        Just(Rules::Wythoff),
        (1usize..3).prop_map(Rules::Moore),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Search answers through the chain carry the reference's remoteness under every
    /// algorithm; `solve` lists every move once with the reference's value, best first,
    /// and its best move is the first of them when it wins; the verdict alone (no
    /// remoteness asked) agrees; an answer when the remoteness is only wanted is either
    /// the reference's value or the right verdict.
    #[test]
    fn search_answers_match_the_reference(
        rules in rules_strategy(),
        misere in any::<bool>(),
        heaps in prop::collection::vec(0u64..9, 0..4),
    ) {
        let heaps: Vec<u64> = match rules {
            Rules::Moore(_) | Rules::Wythoff => heaps.into_iter().take(3).map(|h| h.min(7)).collect(),
            _ => heaps,
        };
        let position = Position::new(heaps.clone());
        let mut reference = RemotenessReference::new(rules.clone(), misere);
        let value = reference_value(&mut reference, &heaps);
        let ranked: Vec<(Position, Value)> = reference
            .ranked_children(&heaps)
            .into_iter()
            .map(|(child, _)| {
                let value = reference_value(&mut reference, &child);
                (Position::new(child), value)
            })
            .collect();
        let mut values = Vec::new();
        for algorithm in Algorithm::ALL {
            let context = format!("{} misere={misere} {heaps:?} {algorithm}", rules.spec());
            let mut chain = search_chain(&rules, misere, algorithm);
            let answer = chain.answer(&position, REQUIRED).unwrap();
            prop_assert_eq!(answer.source, SourceKind::Search);
            prop_assert_eq!(answer.value, value, "{}", context);
            let fastest = ranked.first().filter(|(_, child)| !child.is_win()).map(|(to, _)| to.clone());
            prop_assert_eq!(&answer.best_move, &fastest, "{}", context);
            let solution = chain.solve(&position, REQUIRED).unwrap();
            prop_assert_eq!(&solution.moves, &ranked, "{}", context);
            let mut sorted = solution.moves.clone();
            sort_moves(&mut sorted);
            prop_assert_eq!(&sorted, &solution.moves, "{}", context);
            prop_assert_eq!(&solution.answer.best_move, &fastest, "{}", context);
            let mut winning: Vec<Position> = ranked.iter().filter(|(_, c)| !c.is_win()).map(|(p, _)| p.clone()).collect();
            winning.sort();
            prop_assert_eq!(&solution.winning_moves, &winning, "{}", context);
            values.push(answer.value);

            let verdict = chain.answer(&position, Query { best_move: true, remoteness: Remoteness::Skip }).unwrap();
            prop_assert_eq!(verdict.value, Value::Outcome(value.outcome()), "{}", context);
            let wanted = chain.answer(&position, Query::default()).unwrap();
            prop_assert!(wanted.value == value || wanted.value == Value::Outcome(value.outcome()), "{}", context);
        }
        // Every algorithm gives the same value.
        prop_assert!(values.windows(2).all(|w| w[0] == w[1]));
    }
}

#[test]
fn check_says_the_remoteness_of_searched_positions() {
    let mut reference = RemotenessReference::new(
        Rules::Code {
            hex: false,
            digits: vec![0, 7, 7],
            repeat: false,
        },
        false,
    );
    let (win, r) = reference.value(&[3, 4, 5]);
    assert!(win);
    let (code, out, err) = run(
        &["check", "kayles", "3", "4", "5", "--method", "search"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(&format!(
            "3 4 5: safe: the player to move wins in {r} (winning move: to "
        )),
        "{out}"
    );
    let (code, out, err) = run(
        &[
            "check", "kayles", "3", "4", "5", "--method", "search", "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["source"], "search");
    assert_eq!(answer["remoteness"], r);
    // The move given is the fastest win.
    let to: Vec<u64> = serde_json::from_value(answer["move"].clone()).unwrap();
    assert_eq!(reference.value(&to), (false, r - 1));

    // An unsafe position holds out for its remoteness at most.
    let (win, r) = reference.value(&[1, 2, 3]);
    assert!(!win);
    let (_, out, _) = run(
        &["check", "kayles", "1", "2", "3", "--method", "search"],
        None,
    );
    assert_eq!(
        out,
        format!("1 2 3: unsafe: the player to move loses in {r} at most\n")
    );
    // --no-remoteness: the verdict alone, without a note.
    let (_, out, _) = run(
        &[
            "check",
            "kayles",
            "1",
            "2",
            "3",
            "--method",
            "search",
            "--no-remoteness",
        ],
        None,
    );
    assert_eq!(
        out,
        "1 2 3: unsafe: the player to move loses against best play\n"
    );
    let (_, out, _) = run(
        &[
            "check",
            "kayles",
            "1",
            "2",
            "3",
            "--method",
            "search",
            "--no-remoteness",
            "--json",
        ],
        None,
    );
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["remoteness"], serde_json::Value::Null);
    // A remoteness far costlier than its verdict (normal Kayles loses the boolean
    // search's pair cancelling) is left out and said so, unless insisted on.
    let (_, out, _) = run(
        &[
            "check", "kayles", "10", "11", "12", "13", "14", "--method", "search",
        ],
        None,
    );
    assert!(out.contains("remoteness not computed"), "{out}");
    let (code, out, err) = run(
        &[
            "check",
            "kayles",
            "10",
            "11",
            "12",
            "13",
            "14",
            "--method",
            "search",
            "--json",
            "--remoteness",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["remoteness"], 51);
}

#[test]
fn solve_lists_every_searched_move_best_first() {
    for (args, rules, misere) in [
        (
            &["solve", "kayles", "3", "4", "5"][..],
            Rules::Code {
                hex: false,
                digits: vec![0, 7, 7],
                repeat: false,
            },
            false,
        ),
        (
            &["solve", "kayles", "2", "3", "6", "--misere"],
            Rules::Code {
                hex: false,
                digits: vec![0, 7, 7],
                repeat: false,
            },
            true,
        ),
        (&["solve", "wythoff", "4", "9"], Rules::Wythoff, false),
        (&["solve", "wythoff", "3", "5"], Rules::Wythoff, false),
    ] {
        let mut reference = RemotenessReference::new(rules, misere);
        let heaps: Vec<u64> = args
            .iter()
            .filter_map(|w| w.parse().ok())
            .collect::<Vec<_>>();
        let (win, r) = reference.value(&heaps);
        let mut all = args.to_vec();
        all.extend(["--method", "search", "--remoteness", "--json"]);
        let (code, out, err) = run(&all, None);
        assert_eq!(code, 0, "{args:?}: {err}");
        let record: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(record["source"], "search", "{args:?}");
        assert_eq!(record["win"], win, "{args:?}");
        assert_eq!(record["remoteness"], r, "{args:?}");
        let moves = record["moves"].as_array().unwrap();
        let expected: Vec<serde_json::Value> = reference
            .ranked_children(&heaps)
            .into_iter()
            .map(|(to, (child_wins, child_r))| {
                serde_json::json!({"to": to, "win": !child_wins, "remoteness": child_r + 1})
            })
            .collect();
        assert_eq!(moves, &expected, "{args:?}");
        // Winning first by increasing remoteness, then losing by decreasing.
        let keys: Vec<(bool, i64)> = moves
            .iter()
            .map(|m| {
                let r = m["remoteness"].as_i64().unwrap();
                let win = m["win"].as_bool().unwrap();
                (!win, if win { r } else { -r })
            })
            .collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{args:?}: {keys:?}");
        if win {
            assert_eq!(moves[0]["win"], true);
            assert_eq!(moves[0]["remoteness"], r);
        }

        // The human listing says the same, line for line.
        let mut human = args.to_vec();
        human.extend(["--method", "search", "--remoteness"]);
        let (_, out, _) = run(&human, None);
        let listed: Vec<&str> = out
            .lines()
            .filter(|line| line.starts_with("  to "))
            .collect();
        assert_eq!(listed.len(), moves.len(), "{out}");
        for (line, m) in listed.iter().zip(moves) {
            let how = if m["win"] == true {
                format!("wins in {}", m["remoteness"])
            } else {
                format!("loses in {} at most", m["remoteness"])
            };
            assert!(line.ends_with(&how), "{line} vs {m}");
        }
    }
}

/// A small deterministic generator for the scripted opponent.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Plays `sicher play` with the computer first from a safe position against an
/// opponent that answers each move with a random legal move (by its number in the
/// ascending list `play` shows), line by line over pipes;
/// returns (announced remoteness, plies played, winner, remoteness after each move).
fn play_against_script(
    game: &str,
    extra: &[&str],
    heaps: &[u64],
    seed: u64,
) -> (u32, u64, String, Vec<u32>) {
    let dir = tempfile::tempdir().unwrap();
    let words: Vec<String> = heaps.iter().map(u64::to_string).collect();
    let mut check = vec!["check", game, "--remoteness", "--json", "--quiet"];
    check.extend(extra);
    check.extend(words.iter().map(String::as_str));
    let (code, out, err) = run(&check, None);
    assert_eq!(code, 0, "{err}");
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["win"], true, "{game} {heaps:?} must be safe");
    let announced = answer["remoteness"].as_u64().unwrap() as u32;

    let spec = resolve(game).unwrap();
    let spec = if extra.contains(&"--misere") {
        spec.with_convention(Convention::Misere)
    } else {
        spec
    };
    let mut args = vec!["play", game, "--first", "computer", "--json"];
    args.extend(extra);
    args.extend(words.iter().map(String::as_str));
    let mut child = Command::new(sicher_bin())
        .args(&args)
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut rng = Lcg(seed);
    let mut trail = Vec::new();
    let mut result = None;
    let mut line = String::new();
    // Lines until the result record; the child is waited for on every path.
    while output.read_line(&mut line).unwrap_or(0) > 0 {
        let record: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
        line.clear();
        if let Some(winner) = record["winner"].as_str() {
            result = Some((winner.to_string(), record["plies"].as_u64().unwrap_or(0)));
            break;
        }
        trail.push(record["remoteness"].as_u64().unwrap_or(u64::MAX) as u32);
        if record["by"] == "computer" {
            let position: Vec<u64> =
                serde_json::from_value(record["position"].clone()).unwrap_or_default();
            let mut moves = spec.children(&Position::new(position)).unwrap();
            moves.sort();
            moves.dedup();
            if !moves.is_empty() {
                let number = rng.below(moves.len()) + 1;
                let _ = writeln!(input, "{number}");
            }
        }
    }
    drop(input);
    let status = child.wait().unwrap();
    let (winner, plies) = result.expect("play ended with a result record");
    assert!(status.success());
    (announced, plies, winner, trail)
}

#[test]
fn play_wins_within_the_announced_remoteness() {
    for (game, extra, heaps) in [
        ("kayles", &[][..], &[3u64, 4, 5][..]),
        ("kayles", &["--misere"], &[2, 3, 5]),
        ("wythoff", &[], &[4, 9]),
        ("subtraction:1,3,4", &["--misere"], &[6, 9]),
    ] {
        for seed in 0..3 {
            let (announced, plies, winner, trail) = play_against_script(game, extra, heaps, seed);
            let context = format!("{game} {extra:?} {heaps:?} seed {seed}: {trail:?}");
            assert_eq!(winner, "computer", "{context}");
            assert!(u64::from(announced) >= plies, "{context}");
            // Every move takes the remoteness down by one at least.
            let mut last = announced;
            for &r in &trail {
                assert!(r < last, "{context}");
                last = r;
            }
        }
    }
}

/// Positions whose remoteness search runs long enough for the answer layer to bring in
/// theory (a misère quotient), an endgame table labelled on the fly and a second
/// thread: the values and every move's value stay the plain memoised solver's.
#[test]
fn long_searches_with_endgame_tables_match_the_plain_solver() {
    use sicher::answer::{Engine, Oracle, SearchSource};
    use sicher::search::plain::PlainRemoteness;
    use sicher::search::SearchConfig;
    // (game, convention, heaps, whether an endgame table must have been labelled)
    for (spec, convention, heaps, tabled) in [
        ("kayles", Convention::Misere, &[8, 9, 10, 11][..], true),
        ("kayles", Convention::Normal, &[8, 9, 10, 11], false),
        ("wythoff", Convention::Normal, &[120, 194], true),
        ("subtraction:1,3,4", Convention::Misere, &[30, 40, 51], true),
        // A wild quotient: on several threads its construction beside the search is
        // given up when the search finishes first.
        ("grundy", Convention::Misere, &[40], false),
    ] {
        let game = resolve(spec).unwrap().with_convention(convention);
        let position = Position::new(heaps.to_vec());
        let mut plain = PlainRemoteness::new(&game);
        let value = plain.value(&position);
        let mut expected: Vec<(Position, Value)> = game
            .children(&position)
            .unwrap()
            .into_iter()
            .map(|child| {
                let value = plain.value(&child);
                (child, value)
            })
            .collect();
        expected.sort_by(|a, b| a.0.cmp(&b.0));
        expected.dedup_by(|a, b| a.0 == b.0);
        sort_moves(&mut expected);
        for threads in [1, 2, 3] {
            let config = SearchConfig {
                threads,
                ..SearchConfig::default()
            };
            let mut source = SearchSource::new(&game, Engine::Alphabeta, config);
            let solution = source.solve(&position, REQUIRED).unwrap().unwrap();
            let context = format!("{spec} {convention} {position} threads {threads}");
            assert_eq!(solution.answer.value, value, "{context}");
            assert_eq!(solution.moves, expected, "{context}");
            assert!(
                !tabled || source.endgame_positions() > 0,
                "{context}: no endgame table"
            );
        }
    }
}

/// A memory bound of a few MiB leaves the search a small transposition table; the
/// endgame table labelled on the fly takes what the search's tables do not hold yet, so
/// the search stays near its size with ample memory instead of growing steeply (at
/// 3 MiB misère Kayles 10..14 took 4.8 million nodes when the endgame table got half
/// the bound; it takes about 190 000 now, against 126 000 with the default bound).
#[test]
fn a_small_memory_bound_keeps_the_search_small() {
    use sicher::answer::{Engine, Oracle, SearchSource};
    use sicher::search::SearchConfig;
    let game = resolve("kayles")
        .unwrap()
        .with_convention(Convention::Misere);
    let position = Position::new(vec![10, 11, 12, 13, 14]);
    let config = SearchConfig {
        threads: 1,
        hash_bytes: 3 << 20,
        ..SearchConfig::default()
    };
    let mut source = SearchSource::new(&game, Engine::Alphabeta, config);
    let answer = source.answer(&position, REQUIRED).unwrap().unwrap();
    assert_eq!(
        answer.value,
        Value::Remoteness {
            outcome: Outcome::Safe,
            remoteness: 50
        }
    );
    let nodes = source.remoteness_stats().unwrap().nodes;
    assert!(nodes < 400_000, "{nodes} nodes");
    assert!(source.endgame_positions() > 0);
}
