//! Nim-values, periods, complete solutions and the normal-play fast path, checked against
//! published sequences and the plain mex reference.

use sicher::game::{resolve, Convention, Position, Ruleset};
use sicher::theory::grundy::SolvedSequence as Solved;
use sicher::theory::grundy::{nim_values, solve, Method, NimValueLookup};

fn solve_spec(spec: &str, convention: Convention, max: u64) -> sicher::theory::grundy::Solution {
    let game = resolve(spec).unwrap().with_convention(convention);
    solve(&game, max, &mut |_| {}).unwrap()
}

fn period_of(spec: &str) -> (u64, u64, Option<u64>) {
    let solution = solve_spec(spec, Convention::Normal, 100_000);
    let found = solution.periodicity.expect("a period");
    (found.preperiod, found.period, found.proved_at)
}

#[test]
fn kayles_has_period_12_from_71() {
    let (preperiod, period, proved_at) = period_of("octal:0.77");
    assert_eq!((preperiod, period), (71, 12));
    // The octal theorem checks n < 2*71 + 12 + 2, comparing with n + 12.
    assert_eq!(proved_at, Some(2 * 71 + 2 * 12 + 2 - 1));
}

#[test]
fn octal_016_has_period_149459_from_105351() {
    // Flammenkamp's table: 0.16 has period 149459 after a pre-period of 105351; the octal
    // theorem needs the values up to 2*105351 + 2*149459 + 2 - 1 = 509621.
    let solution = solve_spec("octal:0.16", Convention::Normal, 600_000);
    let found = solution.periodicity.expect("a period");
    assert_eq!((found.preperiod, found.period), (105_351, 149_459));
    assert_eq!(found.proved_at, Some(509_621));
    assert!(
        (509_622..=509_622 + 509_622 / 32).contains(&solution.computed),
        "stops soon after the proof: {}",
        solution.computed
    );
}

/// About 10 s and 150 MB in release mode: `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn octal_0376_has_period_4_from_2268248() {
    // Flammenkamp: 0.376 has period 4, last exceptional value at 2268247.
    let solution = solve_spec("octal:0.376", Convention::Normal, 5_000_000);
    let found = solution.periodicity.expect("a period");
    assert_eq!((found.preperiod, found.period), (2_268_248, 4));
    assert_eq!(found.proved_at, Some(2 * 2_268_248 + 2 * 4 + 3 - 1));
}

#[test]
fn incremental_period_finder_agrees_with_the_plain_scan_on_nim_sequences() {
    use sicher::theory::grundy::{find_proved_by_scan, PeriodFinder, ProofBound};
    for spec in [
        "octal:0.77",
        "octal:0.07",
        "octal:0.137",
        "octal:0.16",
        "octal:0.51",
        "octal:4.07",
        "octal:0.376",
        "subtraction:1,3,4",
        "subtraction:2,5,7",
    ] {
        let ruleset = resolve(spec).unwrap().ruleset;
        let bound = ProofBound::for_ruleset(&ruleset).unwrap();
        let values = nim_values(&ruleset, Method::Fast, 40_000).unwrap();
        let mut finder = PeriodFinder::new(bound);
        let mut len = 64;
        while len <= values.len() {
            let prefix = &values[..len];
            assert_eq!(
                finder.check(prefix),
                find_proved_by_scan(prefix, bound),
                "{spec} at {len}"
            );
            len += len / 8;
        }
    }
}

#[test]
fn dawsons_kayles_has_period_34() {
    // Dawson's chess 0.137: last exception at n = 51 (OEIS A002187); 0.07 is it shifted by one.
    let (preperiod, period, _) = period_of("octal:0.137");
    assert_eq!((preperiod, period), (52, 34));
    let (preperiod, period, proved) = period_of("octal:0.07");
    assert_eq!((preperiod, period), (53, 34));
    assert!(proved.is_some());
    let chess = nim_values(&resolve("octal:0.137").unwrap().ruleset, Method::Fast, 300).unwrap();
    let dawson = nim_values(&resolve("octal:0.07").unwrap().ruleset, Method::Fast, 301).unwrap();
    assert_eq!(&dawson[1..], &chess[..]);
}

#[test]
fn subtraction_1_3_4_has_period_7() {
    let solution = solve_spec("subtraction:1,3,4", Convention::Normal, 1000);
    let found = solution.periodicity.unwrap();
    assert_eq!((found.preperiod, found.period), (0, 7));
    assert_eq!(
        solution.sequence,
        Solved::NimValues(vec![0, 1, 0, 1, 2, 3, 2])
    );
    assert!(solution.proved());
}

#[test]
fn grundys_game_has_no_proof() {
    let solution = solve_spec("grundy", Convention::Normal, 5000);
    assert!(!solution.proved());
    assert!(solution.no_theorem);
    assert_eq!(solution.computed, 5001);
}

#[test]
fn misere_subtraction_outcomes_are_periodic() {
    // Misère subtraction {1,3,4}: a lone heap is unsafe at sizes 1, 3, 8, 10, ... (period 7).
    let solution = solve_spec("subtraction:1,3,4", Convention::Misere, 1000);
    let found = solution.periodicity.unwrap();
    assert!(found.proved_at.is_some());
    let Solved::Outcomes(outcomes) = &solution.sequence else {
        panic!("misère solutions list outcomes")
    };
    // Brute force from the definition, independent of the solver.
    let mut wins = vec![true];
    for n in 1..200usize {
        let options: Vec<usize> = [1usize, 3, 4]
            .iter()
            .filter(|&&s| s <= n)
            .map(|&s| n - s)
            .collect();
        wins.push(options.is_empty() || options.iter().any(|&o| !wins[o]));
    }
    for (n, &w) in wins.iter().enumerate() {
        assert_eq!(outcomes[found.reduce(n as u64) as usize], w, "heap {n}");
    }
    assert_eq!(found.period, 7);
}

#[test]
fn misere_splitting_games_are_refused() {
    let game = resolve("octal:0.77")
        .unwrap()
        .with_convention(Convention::Misere);
    assert!(solve(&game, 1000, &mut |_| {}).is_err());
}

#[test]
fn fast_path_answers_huge_kayles_positions() {
    let ruleset = resolve("kayles").unwrap().ruleset;
    let heaps = vec![1_000_000_000_000u64, 999_999_999_999, 17];
    let oracle = NimValueLookup::new(&ruleset, 1_000_000_000_000, 1_000_000).unwrap();
    let position = Position::new(heaps);
    let verdict = oracle.verdict(&position);
    let expected =
        oracle.value(1_000_000_000_000) ^ oracle.value(999_999_999_999) ^ oracle.value(17);
    assert_eq!(verdict.nim_sum, expected);
    if verdict.win {
        let moved = verdict
            .winning_move
            .expect("a safe position has a winning move");
        let after = moved
            .after
            .heaps()
            .iter()
            .fold(0, |acc, &h| acc ^ oracle.value(h));
        assert_eq!(after, 0);
        let parts: u64 = moved.leaves.iter().sum();
        assert!(parts < moved.heap && moved.heap - parts <= 2);
    }
}

/// True when leaving `leaves` from a lone `heap` is a move of `ruleset` (codes and sets only).
fn is_option(ruleset: &Ruleset, heap: u64, leaves: &[u64]) -> bool {
    let left: u64 = leaves.iter().sum();
    let Some(removed) = heap.checked_sub(left) else {
        return false;
    };
    match ruleset {
        Ruleset::TakeBreak(code) => code.digit(removed) & (1 << leaves.len()) != 0,
        Ruleset::Subtraction(set) => leaves.len() <= 1 && set.contains(&removed),
        _ => unreachable!(),
    }
}

#[test]
fn fast_path_moves_are_legal_and_winning() {
    for spec in [
        "octal:0.77",
        "octal:0.07",
        "subtraction:1,3,4",
        "octal:0.137",
        "octal:4.07",
        "octal:0.51",
    ] {
        let ruleset = resolve(spec).unwrap().ruleset;
        let oracle = NimValueLookup::new(&ruleset, 10_000_000_007, 200_000).unwrap();
        assert!(oracle.periodicity().is_some(), "{spec}");
        let reference = nim_values(&ruleset, Method::Reference, 600).unwrap();
        for h in 0..600u64 {
            assert_eq!(
                oracle.value(h),
                reference[h as usize] as u64,
                "{spec} G({h})"
            );
        }
        for heaps in [
            vec![10_000_000_007u64, 5],
            vec![123_456_789, 3, 3, 7],
            vec![40_000_001, 2],
            vec![9_999_999_999, 1_000_000_000],
        ] {
            let verdict = oracle.verdict(&Position::new(heaps.clone()));
            assert_eq!(verdict.win, verdict.nim_sum != 0);
            match verdict.winning_move {
                Some(moved) => {
                    assert!(
                        is_option(&ruleset, moved.heap, &moved.leaves),
                        "{spec} {moved:?}"
                    );
                    let after = moved
                        .after
                        .heaps()
                        .iter()
                        .fold(0, |acc, &h| acc ^ oracle.value(h));
                    assert_eq!(after, 0, "{spec} {heaps:?}");
                }
                None => assert!(!verdict.win, "{spec} {heaps:?}: safe but no move"),
            }
        }
    }
}

/// Runs the binary; returns exit code, stdout and stderr.
fn sicher(args: &[&str]) -> (i32, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_sicher"))
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

#[test]
fn nim_values_methods_agree_through_the_binary() {
    for game in [
        "kayles",
        "treblecross",
        "grundy",
        "octal:0.6",
        "subtraction:2,5,7",
    ] {
        let (code, fast, stderr) = sicher(&["nim-values", game, "--max", "1500", "--json"]);
        assert_eq!(code, 0, "{stderr}");
        let (_, reference, _) = sicher(&[
            "nim-values",
            game,
            "--max",
            "1500",
            "--json",
            "--method",
            "reference",
        ]);
        assert_eq!(json(&fast)["values"], json(&reference)["values"], "{game}");
        assert_eq!(json(&fast)["values"].as_array().unwrap().len(), 1501);
    }
    let (_, grundy, _) = sicher(&["nim-values", "grundy", "--max", "99", "--json"]);
    let values: Vec<u32> = serde_json::from_value(json(&grundy)["values"].clone()).unwrap();
    assert_eq!(
        &values[..20],
        &[0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3]
    );
}

#[test]
fn solve_without_heaps_prints_the_complete_solution() {
    let (code, out, _) = sicher(&["solve", "kayles", "--json"]);
    assert_eq!(code, 0);
    let record = json(&out);
    assert_eq!(record["preperiod"], 71);
    assert_eq!(record["period"], 12);
    assert_eq!(record["solved"], true);
    assert_eq!(record["values"].as_array().unwrap().len(), 83);
    assert!(record["proved_at"].as_u64().is_some());
    let (_, out, _) = sicher(&["solve", "kayles"]);
    assert!(out.contains("period 12 from n = 71"), "{out}");
    let (code, out, _) = sicher(&["solve", "treblecross", "--max", "3000"]);
    assert_eq!(code, 0);
    assert!(out.contains("not solved") && out.contains("3000"), "{out}");
    let (_, out, _) = sicher(&["solve", "subtraction:1,3,4", "--misere", "--json"]);
    let record = json(&out);
    assert_eq!(record["period"], 7);
    assert_eq!(record["outcomes"][1], false);
}

#[test]
fn search_and_grundy_methods_agree() {
    let positions = ["1 2 3", "4 7 9", "5 5", "10 11 12", "3 8 13", "6"];
    for game in [
        "kayles",
        "dawson-kayles",
        "subtraction:1,3,4",
        "grundy",
        "octal:0.6",
        "nim",
    ] {
        for heaps in positions {
            let answers: Vec<serde_json::Value> = ["search", "grundy"]
                .iter()
                .map(|method| {
                    let mut args = vec!["check", game, "--json", "--method", method];
                    args.extend(heaps.split(' '));
                    let (code, out, err) = sicher(&args);
                    assert_eq!(code, 0, "{err}");
                    json(&out)
                })
                .collect();
            assert_eq!(answers[0]["win"], answers[1]["win"], "{game} {heaps}");
            assert_eq!(answers[1]["source"], "grundy");
        }
    }
}

#[test]
fn solve_lists_the_same_winning_moves_by_search_and_by_nim_values() {
    for game in [
        "kayles",
        "dawson-kayles",
        "grundy",
        "octal:0.6",
        "subtraction:1,3,4",
        "nim",
    ] {
        for heaps in ["1 2 3", "4 7 9", "10 11 12", "3 8 13", "6", "2 2 9"] {
            let moves: Vec<serde_json::Value> = ["search", "grundy"]
                .iter()
                .map(|method| {
                    let mut args = vec!["solve", game, "--json", "--method", method];
                    args.extend(heaps.split(' '));
                    let (code, out, err) = sicher(&args);
                    assert_eq!(code, 0, "{err}");
                    let mut list: Vec<Vec<u64>> =
                        serde_json::from_value(json(&out)["moves"].clone()).unwrap();
                    list.sort();
                    serde_json::json!(list)
                })
                .collect();
            assert_eq!(moves[0], moves[1], "{game} {heaps}");
        }
    }
}

#[test]
fn huge_kayles_heaps_answer_by_nim_values() {
    let (code, out, err) = sicher(&["check", "kayles", "1000000000000", "999999999999", "--json"]);
    assert_eq!(code, 0, "{err}");
    let record = json(&out);
    assert_eq!(record["source"], "grundy");
    let (code, out, _) = sicher(&["solve", "kayles", "1000000000000", "5", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(json(&out)["method"], "grundy");
}

#[test]
fn bad_requests_fail_with_one_line() {
    for args in [
        &["nim-values", "wythoff", "--max", "10"][..],
        &["nim-values", "moore:2", "--max", "10"],
        &["nim-values", "kayles", "--max", "99999999999999"],
        &["nim-values", "kayles", "--max", "10", "--misere"],
        &["solve", "kayles", "--misere"],
        &["check", "wythoff", "3", "5", "--method", "grundy"],
        &[
            "check",
            "grundy",
            "100000000",
            "--method",
            "grundy",
            "--max",
            "1000",
        ],
    ] {
        let (code, out, err) = sicher(args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn nim_value_tables_are_written_and_probed_by_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kayles.nim");
    let file = path.to_str().unwrap();
    let (code, _, err) = sicher(&[
        "nim-values",
        "kayles",
        "--max",
        "500",
        "--write",
        file,
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, _) = sicher(&["nim-values", "kayles", "--max", "500", "--write", file]);
    assert_eq!(code, 2, "refuses to overwrite without --force");
    for heaps in [["1000000000000", "33"], ["40", "41"], ["4", "8"]] {
        let mut table_args = vec!["check", "kayles", "--json", "--nim-table", file];
        table_args.extend(heaps);
        let mut search_args = vec!["check", "kayles", "--json", "--method", "search"];
        search_args.extend(heaps);
        let (code, table, err) = sicher(&table_args);
        assert_eq!(code, 0, "{err}");
        if heaps[0].len() < 4 {
            let (_, search, _) = sicher(&search_args);
            assert_eq!(json(&table)["win"], json(&search)["win"], "{heaps:?}");
        }
        assert_eq!(json(&table)["source"], "grundy");
    }
    let (code, _, err) = sicher(&["check", "dawson-kayles", "3", "--nim-table", file]);
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    std::fs::write(&path, b"SICHRNIM garbage").unwrap();
    let (code, _, err) = sicher(&["check", "kayles", "3", "--nim-table", file]);
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
}

mod proofs {
    use proptest::prelude::*;
    use sicher::game::{Radix, Ruleset, TakeBreakCode};
    use sicher::theory::grundy::{find_proved, ProofBound};
    use sicher::theory::grundy::{nim_values, Method};

    /// A proof from the first `short` values must hold on `long` values of the plain mex
    /// reference (which knows nothing of periods).
    fn proof_holds(ruleset: &Ruleset, short: u64, long: u64) -> Result<(), TestCaseError> {
        let Some(bound) = ProofBound::for_ruleset(ruleset) else {
            return Ok(());
        };
        let values = nim_values(ruleset, Method::Reference, long).unwrap();
        if let Some(found) = find_proved(&values[..short as usize], bound) {
            for n in 0..long {
                prop_assert_eq!(
                    values[n as usize],
                    values[found.reduce(n) as usize],
                    "{} at {}: {:?}",
                    ruleset,
                    n,
                    found
                );
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]
        #[test]
        fn octal_proofs_hold_far_beyond_their_data(digits in prop::collection::vec(0u8..8, 1..4), d0 in prop::sample::select(vec![0u8, 4])) {
            let text: String = std::iter::once(format!("{d0}."))
                .chain(digits.iter().map(u8::to_string))
                .collect();
            let ruleset = Ruleset::TakeBreak(TakeBreakCode::parse(&text, Radix::Octal).unwrap());
            proof_holds(&ruleset, 800, 2500)?;
        }

        #[test]
        fn hex_proofs_hold_far_beyond_their_data(digits in prop::collection::vec(0u8..16, 1..3)) {
            let text: String = std::iter::once("0.".to_string())
                .chain(digits.iter().map(|d| format!("{d:X}")))
                .collect();
            let ruleset = Ruleset::TakeBreak(TakeBreakCode::parse(&text, Radix::Hex).unwrap());
            proof_holds(&ruleset, 150, 400)?;
        }

        #[test]
        fn subtraction_proofs_hold(set in prop::collection::btree_set(1u64..12, 1..4)) {
            let ruleset = Ruleset::Subtraction(set.into_iter().collect());
            proof_holds(&ruleset, 200, 3000)?;
        }
    }
}

#[test]
fn info_reads_nim_value_tables() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kayles.nim");
    let path = path.to_str().unwrap();
    let (code, _, err) = sicher(&[
        "nim-values",
        "kayles",
        "--max",
        "500",
        "--write",
        path,
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = sicher(&["info", path, "--json"]);
    assert_eq!(code, 0, "{err}");
    let info = json(&out);
    assert_eq!(info["kind"], "nim-values");
    assert_eq!(info["entries"], 501);
    assert_eq!(
        (info["preperiod"].as_u64(), info["period"].as_u64()),
        (Some(71), Some(12))
    );
}

/// `nim-values -o FILE` writes the values (a table, or a b-file with `--bfile`) and prints
/// none of them; the text form shows the first 1000 unless `--all`; `--write` still works.
#[test]
fn nim_values_stream_to_a_file_and_print_a_bounded_summary() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("kayles.nim");
    let (code, out, err) = sicher(&[
        "nim-values",
        "kayles",
        "--max",
        "100000",
        "-o",
        table.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().count() <= 3, "{out}");
    assert!(out.contains("computed 100001 values"), "{out}");
    assert!(out.contains("proved period 12 from n = 71"), "{out}");
    assert!(err.contains("wrote"), "{err}");
    let (code, out, _) = sicher(&[
        "check",
        "kayles",
        "7",
        "9",
        "--nim-table",
        table.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("safe"), "{out}");
    // The old spelling writes the same table.
    let again = dir.path().join("again.nim");
    let (code, _, err) = sicher(&[
        "nim-values",
        "kayles",
        "--max",
        "100000",
        "--write",
        again.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert_eq!(
        std::fs::read(&table).unwrap(),
        std::fs::read(&again).unwrap()
    );
    // A b-file into a file holds exactly what --bfile prints.
    let bfile = dir.path().join("b.txt");
    let (code, _, err) = sicher(&[
        "nim-values",
        "octal:0.6",
        "--max",
        "5000",
        "--bfile",
        "-o",
        bfile.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, printed, _) = sicher(&["nim-values", "octal:0.6", "--max", "5000", "--bfile"]);
    assert_eq!(std::fs::read_to_string(&bfile).unwrap(), printed);
    assert_eq!(printed.lines().count(), 5001);
    // Text: the first 1000 values and a line saying where the rest is; --all prints all.
    let (_, shown, _) = sicher(&["nim-values", "octal:0.6", "--max", "5000"]);
    let rows = |text: &str| text.lines().filter(|l| l.starts_with("  ")).count();
    assert_eq!(rows(&shown), 50, "{shown}");
    assert!(
        shown.contains("4001 values more up to G(5000): --all prints them"),
        "{shown}"
    );
    let (_, all, _) = sicher(&["nim-values", "octal:0.6", "--max", "5000", "--all"]);
    assert_eq!(rows(&all), 251);
    let values: Vec<&str> = all
        .lines()
        .filter(|l| l.starts_with("  "))
        .flat_map(|l| l.split(": ").nth(1).unwrap().split(' '))
        .collect();
    let expected: Vec<String> = printed
        .lines()
        .map(|l| l.split(' ').nth(1).unwrap().to_string())
        .collect();
    assert_eq!(values, expected);
}

/// `--memory` is checked against the estimate before any work; `--time-limit` keeps the
/// values computed by then; `--misere` is no longer offered by `--help`.
#[test]
fn nim_values_keep_their_memory_and_time_bounds() {
    let (code, out, err) = sicher(&[
        "nim-values",
        "octal:0.6",
        "--max",
        "100000000",
        "--memory",
        "64",
    ]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("more than --memory 64"), "{err}");
    let (code, out, err) = sicher(&[
        "nim-values",
        "octal:0.6",
        "--max",
        "100000",
        "--memory",
        "64",
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("computed 100001 values"), "{out}");
    let started = std::time::Instant::now();
    let (code, out, err) = sicher(&[
        "nim-values",
        "octal:0.6",
        "--max",
        "200000000",
        "--time-limit",
        "1",
        "-q",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(started.elapsed().as_secs() < 60);
    assert!(err.contains("stopped by the time limit of 1 s"), "{err}");
    let record = json(&out);
    assert_eq!(record["complete"], false);
    let values = record["values"].as_array().unwrap();
    assert!(values.len() > 1000 && values.len() < 200_000_001);
    let reference = nim_values(
        &resolve("octal:0.6").unwrap().ruleset,
        Method::Reference,
        1000,
    )
    .unwrap();
    for (n, &v) in reference.iter().enumerate() {
        assert_eq!(values[n], v, "G({n})");
    }
    assert_eq!(
        record["largest"],
        values.iter().map(|v| v.as_u64().unwrap()).max().unwrap()
    );
    let (_, help, _) = sicher(&["nim-values", "--help"]);
    assert!(!help.contains("--misere"), "{help}");
    assert!(help.contains("--output"), "{help}");
}

/// A run killed part-way resumes from its checkpoint and writes the same bytes as a run
/// never stopped; the checkpoint goes once the run completes.
#[test]
fn a_killed_nim_value_run_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let args = |out: &str| {
        vec![
            "nim-values".to_string(),
            "octal:0.6".into(),
            "--max".into(),
            "2000000".into(),
            "--bfile".into(),
            "-q".into(),
            "-o".into(),
            path(out),
        ]
    };
    let (code, _, err) = sicher(
        &args("full.txt")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(code, 0, "{err}");
    let mut killed = args("killed.txt");
    killed.extend([
        "--checkpoint".into(),
        path("run.nim"),
        "--checkpoint-every".into(),
        "1".into(),
    ]);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sicher"))
        .args(&killed)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !dir.path().join("run.nim").exists() && started.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !dir.path().join("killed.txt").exists(),
        "the output appears whole or not at all"
    );
    assert!(
        dir.path().join("run.nim").exists(),
        "no checkpoint within 120 s"
    );
    let (code, _, err) = sicher(&killed.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(
        !dir.path().join("run.nim").exists(),
        "the checkpoint goes at the end"
    );
    assert_eq!(
        std::fs::read(path("full.txt")).unwrap(),
        std::fs::read(path("killed.txt")).unwrap()
    );
}

/// Threads share the sparse-space engine's work: the values, the period and the point of
/// its proof are the serial engine's for any count.
#[test]
fn known_periods_stay_proved_at_the_same_point_on_threads() {
    for (spec, max) in [("octal:0.16", 600_000), ("octal:0.127", 200_000)] {
        let game = resolve(spec).unwrap();
        let serial = solve(&game, max, &mut |_| {}).unwrap();
        for threads in [2, 3] {
            let threaded =
                sicher::theory::grundy::solve_with_threads(&game, max, threads, &mut |_| {})
                    .unwrap();
            assert_eq!(threaded.periodicity, serial.periodicity, "{spec} {threads}");
            assert_eq!(threaded.computed, serial.computed, "{spec} {threads}");
            assert!(threaded.sequence == serial.sequence, "{spec} {threads}");
        }
    }
}

/// `nim-values --threads N` writes the bytes of one thread, also when it resumes from a
/// checkpoint written on other threads; `--threads 0` is refused.
#[test]
fn nim_values_on_threads_write_the_serial_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let run = |threads: &str, out: &str, extra: &[&str]| {
        let mut args = vec!["nim-values", "octal:0.6", "--max", "400000", "-q"];
        args.extend(["--threads", threads, "-o", out]);
        args.extend(extra);
        sicher(&args)
    };
    let serial = path("serial.nim");
    assert_eq!(run("1", &serial, &[]).0, 0);
    for threads in ["2", "4"] {
        let threaded = path(&format!("t{threads}.nim"));
        assert_eq!(run(threads, &threaded, &[]).0, 0);
        assert!(
            std::fs::read(&serial).unwrap() == std::fs::read(&threaded).unwrap(),
            "{threads} threads"
        );
    }
    // Stopped by its time limit with a checkpoint, then resumed on another count.
    let checkpoint = path("checkpoint.nim");
    let stopped = path("stopped.nim");
    let limit = ["--checkpoint", &checkpoint, "--time-limit", "1"];
    let (code, _, _) = run("3", &stopped, &limit);
    assert_eq!(code, 0);
    let resumed = path("resumed.nim");
    let (code, _, _) = run("2", &resumed, &["--checkpoint", &checkpoint]);
    assert_eq!(code, 0);
    assert!(std::fs::read(&serial).unwrap() == std::fs::read(&resumed).unwrap());
    let (code, _, stderr) = run("0", &path("zero.nim"), &[]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}
