//! Nim-values, periods, complete solutions and the normal-play fast path, checked against
//! published sequences and the plain mex reference.

use sicher::game::{resolve, Convention, Position, Ruleset};
use sicher::grundy::solution::Sequence as Solved;
use sicher::grundy::{nim_values, solve, Method, NimOracle};

fn solve_spec(spec: &str, convention: Convention, max: u64) -> sicher::grundy::Solution {
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
    let oracle = NimOracle::new(&ruleset, 1_000_000_000_000, 1_000_000).unwrap();
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
        let oracle = NimOracle::new(&ruleset, 10_000_000_007, 200_000).unwrap();
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
