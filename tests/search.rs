//! The top-down engine against the independent reference and against closed forms.

use crate::common;

use common::{random_rules, Reference, Rules};
use proptest::prelude::*;
use sicher::game::{resolve, Convention, Game, Position};
use sicher::search::{Outcomes, SearchConfig, Solver};
use sicher::theory::quotient::{compute_as_far_as, Budget};

fn game_for(rules: &Rules, misere: bool) -> Game {
    let game = resolve(&rules.spec()).unwrap_or_else(|e| panic!("{}: {e}", rules.spec()));
    game.with_convention(if misere {
        Convention::Misere
    } else {
        Convention::Normal
    })
}

/// Every configuration worth checking: all heuristics, none, and a table so small
/// that the replacement policy runs constantly.
fn configs() -> Vec<SearchConfig> {
    let full = SearchConfig::default();
    vec![
        full,
        SearchConfig {
            etc: false,
            history: false,
            killers: false,
            simplify: false,
            guide: false,
            ..full
        },
        SearchConfig {
            hash_bytes: 4 << 10,
            killers: true,
            ..full
        },
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The solver agrees with the reference on random rules, conventions and positions,
    /// in every configuration, and its winning moves are legal and winning.
    #[test]
    fn solver_matches_reference(
        rules in random_rules(),
        misere in any::<bool>(),
        heaps in prop::collection::vec(0u64..8, 0..4),
    ) {
        let heaps: Vec<u64> = match rules {
            // Keep the exhaustive reference small where moves multiply.
            Rules::Moore(_) | Rules::Code { hex: true, .. } => heaps.into_iter().take(3).map(|h| h.min(6)).collect(),
            _ => heaps,
        };
        let game = game_for(&rules, misere);
        let mut reference = Reference::new(rules.clone(), misere);
        let position = Position::new(heaps.clone());
        let expected = reference.win(&heaps);
        for config in configs() {
            let mut solver = Solver::new(&game, config);
            prop_assert_eq!(solver.is_win(&position), expected, "{} misere={} {:?} {:?}", rules.spec(), misere, heaps, config);
            match solver.winning_move(&position) {
                Some(child) => {
                    prop_assert!(expected);
                    let legal = rules.children(position.heaps());
                    prop_assert!(legal.contains(&child.heaps().to_vec()), "illegal move to {child}");
                    prop_assert!(!reference.win(child.heaps()));
                }
                // Misère play: with no move left, the player to move has already won.
                None => prop_assert!(!expected || (misere && rules.children(position.heaps()).is_empty())),
            }
        }
    }
}

/// A solver of misère `game` that ends its search at positions whose heaps the partial
/// misère quotient of heaps up to `covered` holds; `None` where the game has none.
fn solver_with_quotient_leaves(game: &Game, covered: u64) -> Option<Solver> {
    if !game.ruleset.moves_one_heap() {
        return None;
    }
    let (quotient, _) = compute_as_far_as(&game.ruleset, covered, &Budget::default()).ok()?;
    let mut solver = Solver::new(game, SearchConfig::default());
    solver.set_outcomes(Outcomes::from_quotient(&quotient));
    assert_eq!(solver.outcomes_cover(), quotient.max_heap);
    Some(solver)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A partial misère quotient ending the search at the positions it covers changes
    /// no verdict and no winning move, on random rules and positions beyond its range.
    #[test]
    fn quotient_leaves_match_reference(
        rules in random_rules(),
        covered in 1u64..6,
        heaps in prop::collection::vec(0u64..11, 1..4),
    ) {
        let game = game_for(&rules, true);
        let Some(mut solver) = solver_with_quotient_leaves(&game, covered) else {
            return Ok(());
        };
        let mut reference = Reference::new(rules.clone(), true);
        let position = Position::new(heaps.clone());
        let expected = reference.win(&heaps);
        prop_assert_eq!(solver.is_win(&position), expected, "{} {:?} covered {}", rules.spec(), heaps, covered);
        let mut winning: Vec<Vec<u64>> = solver
            .winning_moves(&position)
            .iter()
            .map(|child| child.heaps().to_vec())
            .collect();
        winning.sort();
        let mut expected_moves: Vec<Vec<u64>> = rules
            .children(position.heaps())
            .into_iter()
            .filter(|child| !reference.win(child))
            .collect();
        expected_moves.sort();
        expected_moves.dedup();
        winning.dedup();
        prop_assert_eq!(winning, expected_moves, "{} {:?}", rules.spec(), heaps);
    }
}

/// Published rulesets, a quotient covering half the heaps, positions the plain search
/// answers in full: every verdict the same, and the quotient did answer positions.
#[test]
fn quotient_leaves_match_the_search_on_larger_positions() {
    for spec in [
        "dawson-kayles",
        "kayles",
        "octal:0.137",
        "grundy",
        "octal:4.7",
    ] {
        let game = resolve(spec).unwrap().with_convention(Convention::Misere);
        let mut with = solver_with_quotient_leaves(&game, 9).expect("a one-heap ruleset");
        let mut without = Solver::new(&game, SearchConfig::default());
        for a in 8..=18u64 {
            for b in [0, 3, 7, 12] {
                let position = Position::new(vec![a, b]);
                assert_eq!(
                    with.is_win(&position),
                    without.is_win(&position),
                    "{spec} {position}"
                );
            }
        }
        assert!(with.stats().theory_answers > 0, "{spec}");
        assert!(with.stats().nodes < without.stats().nodes, "{spec}");
    }
}

#[test]
fn every_position_of_small_games_matches_the_reference() {
    for (rules, max) in [
        (
            Rules::Code {
                hex: false,
                digits: vec![0, 7, 7],
                repeat: false,
            },
            9,
        ),
        (
            Rules::Code {
                hex: false,
                digits: vec![0, 0, 7],
                repeat: false,
            },
            9,
        ),
        (
            Rules::Code {
                hex: false,
                digits: vec![4, 1, 5],
                repeat: false,
            },
            8,
        ),
        (Rules::Grundy, 10),
        (Rules::Wythoff, 9),
        (Rules::Moore(2), 5),
    ] {
        for misere in [false, true] {
            let game = game_for(&rules, misere);
            let mut solver = Solver::new(&game, SearchConfig::default());
            let mut reference = Reference::new(rules.clone(), misere);
            for a in 0..=max {
                for b in a..=max {
                    for c in b..=max.min(6) {
                        let heaps = [a, b, c];
                        assert_eq!(
                            solver.is_win(&Position::new(heaps.to_vec())),
                            reference.win(&heaps),
                            "{} misere={misere} {heaps:?}",
                            rules.spec()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn nim_is_the_xor_rule() {
    let game = resolve("nim").unwrap();
    let mut solver = Solver::new(&game, SearchConfig::default());
    let mut seed = 7u64;
    for _ in 0..400 {
        let heaps: Vec<u64> = (0..5)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (seed >> 33) % 40
            })
            .collect();
        let xor = heaps.iter().fold(0, |x, h| x ^ h);
        assert_eq!(
            solver.is_win(&Position::new(heaps.clone())),
            xor != 0,
            "{heaps:?}"
        );
    }
}

#[test]
fn misere_nim_follows_boutons_rule() {
    let game = resolve("nim").unwrap().with_convention(Convention::Misere);
    let mut solver = Solver::new(&game, SearchConfig::default());
    for a in 0..10u64 {
        for b in a..10 {
            for c in b..10 {
                for d in c..10 {
                    let heaps = [a, b, c, d];
                    let xor = a ^ b ^ c ^ d;
                    let ones = heaps.iter().filter(|&&h| h == 1).count();
                    let unsafe_position = if heaps.iter().all(|&h| h <= 1) {
                        ones % 2 == 1
                    } else {
                        xor == 0
                    };
                    assert_eq!(
                        solver.is_win(&Position::new(heaps.to_vec())),
                        !unsafe_position,
                        "{heaps:?}"
                    );
                }
            }
        }
    }
}

/// ⌊k·φ⌋ in exact integer arithmetic: (k + ⌊√(5k²)⌋) / 2.
fn lower_wythoff(k: u64) -> u64 {
    let root = (5.0 * (k * k) as f64).sqrt() as u64;
    let mut r = root.saturating_sub(2);
    while (r + 1) * (r + 1) <= 5 * k * k {
        r += 1;
    }
    (k + r) / 2
}

#[test]
fn wythoff_unsafe_pairs_are_the_beatty_pairs() {
    let game = resolve("wythoff").unwrap();
    let mut solver = Solver::new(&game, SearchConfig::default());
    let max = 80;
    let mut unsafe_pairs = std::collections::BTreeSet::new();
    for k in 0..=max {
        let a = lower_wythoff(k);
        unsafe_pairs.insert((a, a + k));
    }
    for a in 0..=max {
        for b in a..=max {
            assert_eq!(
                solver.is_win(&Position::new(vec![a, b])),
                !unsafe_pairs.contains(&(a, b)),
                "({a}, {b})"
            );
        }
    }
    // Far out along the sequence: the 300th pair and its neighbours.
    let (a, b) = (lower_wythoff(300), lower_wythoff(300) + 300);
    assert!(!solver.is_win(&Position::new(vec![a, b])));
    assert!(solver.is_win(&Position::new(vec![a, b + 1])));
}

#[test]
fn moore_follows_digit_sums_mod_k_plus_one() {
    for k in [2u32, 3] {
        let game = resolve(&format!("moore:{k}")).unwrap();
        let mut solver = Solver::new(&game, SearchConfig::default());
        for a in 0..8u64 {
            for b in a..8 {
                for c in b..8 {
                    for d in [0, c, c + 1] {
                        let heaps = [a, b, c, d];
                        let unsafe_position = (0..4).all(|bit| {
                            heaps.iter().map(|h| (h >> bit) & 1).sum::<u64>() % u64::from(k + 1)
                                == 0
                        });
                        assert_eq!(
                            solver.is_win(&Position::new(heaps.to_vec())),
                            !unsafe_position,
                            "k={k} {heaps:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn subtraction_1_3_4_is_unsafe_at_0_and_2_mod_7() {
    let game = resolve("subtraction-1-3-4").unwrap();
    let mut solver = Solver::new(&game, SearchConfig::default());
    for n in (0..2000u64).chain([100_000, 100_002, 100_003, 250_001]) {
        assert_eq!(
            solver.is_win(&Position::new(vec![n])),
            !matches!(n % 7, 0 | 2),
            "{n}"
        );
    }
}

#[test]
fn search_goes_deep_without_recursion() {
    let game = resolve("subtraction:1,2").unwrap();
    let mut solver = Solver::new(&game, SearchConfig::default());
    assert!(solver.is_win(&Position::new(vec![1_000_000])));
    assert!(!solver.is_win(&Position::new(vec![999_999])));
    assert!(solver.stats().max_depth >= 999_999);
}

/// A table that fills its growing stage mid-search and moves into its fixed array (and
/// replaces entries there) changes no outcome: misère Kayles and Dawson's Kayles with a
/// 256 KiB table against the default one.
#[test]
fn a_table_that_reaches_its_bound_mid_search_keeps_outcomes() {
    for (game, position) in common::bound_crossing_positions() {
        let expected = Solver::new(&game, SearchConfig::default()).is_win(&position);
        let config = SearchConfig {
            hash_bytes: 256 << 10,
            guide: false,
            ..SearchConfig::default()
        };
        let mut small = Solver::new(&game, config);
        assert_eq!(small.is_win(&position), expected, "{position:?}");
        assert!(small.stats().evictions > 0, "{position:?}");
    }
}
