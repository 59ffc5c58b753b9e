//! The labeller against closed forms and against itself across strategies.

use super::*;
use crate::domain::Domain;
use crate::game::{resolve, Convention, Heap, Position};

fn labels(
    spec: &str,
    convention: Convention,
    domain: Domain,
    strategy: Strategy,
) -> (Ranker, Labels) {
    let game = resolve(spec).unwrap().with_convention(convention);
    let ranker = Ranker::new(domain).unwrap();
    let labels = label(&game, &ranker, strategy, &|_| {}).unwrap();
    (ranker, labels)
}

/// Checks every position of a domain against `unsafe_when`, for every applicable strategy.
fn check_closed_form(
    spec: &str,
    convention: Convention,
    domain: Domain,
    unsafe_when: impl Fn(&[Heap]) -> bool,
) {
    let mut strategies = vec![Strategy::Forward, Strategy::Plain];
    let game = resolve(spec).unwrap();
    if Strategy::auto(&game.ruleset) == Strategy::Backward
        || matches!(game.ruleset, Ruleset::Subtraction(_))
    {
        strategies.push(Strategy::Backward);
    }
    for strategy in strategies {
        let (ranker, labels) = labels(spec, convention, domain, strategy);
        for rank in 0..ranker.count() {
            let position = ranker.unrank(rank);
            assert_eq!(
                labels.is_safe(rank),
                !unsafe_when(position.heaps()),
                "{spec} {convention} {strategy} at {position}"
            );
        }
    }
}

fn xor(heaps: &[Heap]) -> Heap {
    heaps.iter().fold(0, |x, &h| x ^ h)
}

#[test]
fn nim_is_unsafe_exactly_when_xor_is_zero() {
    check_closed_form(
        "nim",
        Convention::Normal,
        Domain::Heaps { heaps: 3, max: 12 },
        |h| xor(h) == 0,
    );
    check_closed_form(
        "nim",
        Convention::Normal,
        Domain::Total { total: 16 },
        |h| xor(h) == 0,
    );
}

#[test]
fn misere_nim_follows_boutons_rule() {
    let rule = |h: &[Heap]| {
        if h.iter().all(|&x| x <= 1) {
            h.iter().filter(|&&x| x == 1).count() % 2 == 1
        } else {
            xor(h) == 0
        }
    };
    check_closed_form(
        "nim",
        Convention::Misere,
        Domain::Heaps { heaps: 4, max: 7 },
        rule,
    );
    check_closed_form("nim", Convention::Misere, Domain::Total { total: 14 }, rule);
}

#[test]
fn wythoff_unsafe_pairs_are_the_beatty_pairs() {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let pairs: Vec<(u64, u64)> = (0..40)
        .map(|k| {
            (
                (k as f64 * phi).floor() as u64,
                (k as f64 * phi * phi).floor() as u64,
            )
        })
        .collect();
    let rule = |h: &[Heap]| {
        let (a, b) = match h {
            [] => (0, 0),
            [b] => (0, *b),
            [a, b] => (*a, *b),
            _ => unreachable!(),
        };
        pairs.contains(&(a, b))
    };
    check_closed_form(
        "wythoff",
        Convention::Normal,
        Domain::Heaps { heaps: 2, max: 40 },
        rule,
    );
}

#[test]
fn moore_unsafe_when_every_binary_column_sums_to_zero_mod_k_plus_one() {
    let rule = |h: &[Heap]| (0..8).all(|bit| h.iter().map(|&x| x >> bit & 1).sum::<u64>() % 3 == 0);
    check_closed_form(
        "moore:2",
        Convention::Normal,
        Domain::Heaps { heaps: 4, max: 7 },
        rule,
    );
    check_closed_form(
        "moore:2",
        Convention::Normal,
        Domain::Total { total: 12 },
        rule,
    );
}

#[test]
fn subtraction_1_3_4_unsafe_when_n_mod_7_is_0_or_2() {
    check_closed_form(
        "subtraction-1-3-4",
        Convention::Normal,
        Domain::Heaps { heaps: 1, max: 300 },
        |h| matches!(h.first().copied().unwrap_or(0) % 7, 0 | 2),
    );
}

#[test]
fn strategies_agree_on_every_shipped_game_and_convention() {
    for shipped in crate::game::shipped_games() {
        let game = resolve(shipped.name).unwrap();
        let domain = if game.ruleset.splits() {
            Domain::Total { total: 14 }
        } else {
            Domain::Heaps { heaps: 3, max: 6 }
        };
        for convention in [Convention::Normal, Convention::Misere] {
            let (_, plain) = labels(shipped.name, convention, domain, Strategy::Plain);
            let (_, forward) = labels(shipped.name, convention, domain, Strategy::Forward);
            assert_eq!(plain, forward, "{} {convention}", shipped.name);
            if !matches!(game.ruleset, Ruleset::TakeBreak(_) | Ruleset::Grundy) {
                let (_, backward) = labels(shipped.name, convention, domain, Strategy::Backward);
                assert_eq!(plain, backward, "{} {convention}", shipped.name);
            }
        }
    }
}

#[test]
fn zero_take_splits_are_labelled_heaps_first() {
    // 4.07: a heap may be split in two without taking; check against a naive recursion.
    let game = resolve("octal:4.07").unwrap();
    let ranker = Ranker::new(Domain::Total { total: 10 }).unwrap();
    let labels = label(&game, &ranker, Strategy::Forward, &|_| {}).unwrap();
    let mut memo = hashbrown::HashMap::new();
    for rank in 0..ranker.count() {
        let p = ranker.unrank(rank);
        assert_eq!(
            labels.is_safe(rank),
            naive_wins(&game, &p, &mut memo),
            "{p}"
        );
    }
}

#[test]
fn thread_count_does_not_change_the_labels() {
    let run = |threads: usize, spec: &str, domain: Domain| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                labels(
                    spec,
                    Convention::Normal,
                    domain,
                    Strategy::auto(&resolve(spec).unwrap().ruleset),
                )
                .1
            })
    };
    for (spec, domain) in [
        ("kayles", Domain::Total { total: 30 }),
        ("nim", Domain::Heaps { heaps: 3, max: 60 }),
    ] {
        assert_eq!(run(1, spec, domain), run(2, spec, domain), "{spec}");
    }
}

#[test]
fn grundy_labels_do_not_depend_on_threads() {
    // Tiers of 4096 positions and more are shared out; Grundy's splits keep the total.
    let domain = Domain::Total { total: 34 };
    let run = |threads: usize, strategy: Strategy| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| labels("grundy", Convention::Misere, domain, strategy).1)
    };
    let plain = run(1, Strategy::Plain);
    assert_eq!(run(1, Strategy::Forward), plain);
    assert_eq!(run(4, Strategy::Forward), plain);
}

/// The sicher recursion, memoised: the reference every strategy must match.
fn naive_wins(game: &Game, p: &Position, memo: &mut hashbrown::HashMap<Position, bool>) -> bool {
    if let Some(&w) = memo.get(p) {
        return w;
    }
    let children = game.children(p);
    let w = if children.is_empty() {
        game.terminal_is_win()
    } else {
        children.iter().any(|c| !naive_wins(game, c, memo))
    };
    memo.insert(p.clone(), w);
    w
}

mod random_rulesets {
    use super::*;
    use proptest::prelude::{prop_assert_eq, proptest, ProptestConfig, TestCaseError};

    fn check_against_naive(spec: &str, misere: bool, domain: Domain) -> Result<(), TestCaseError> {
        let convention = if misere {
            Convention::Misere
        } else {
            Convention::Normal
        };
        let game = resolve(spec).unwrap().with_convention(convention);
        let ranker = Ranker::new(domain).unwrap();
        let strategies = [Strategy::Forward, Strategy::Plain, Strategy::Backward]
            .into_iter()
            .filter(|&s| check_strategy(&game, s).is_ok());
        let mut memo = hashbrown::HashMap::new();
        for strategy in strategies {
            let labels = label(&game, &ranker, strategy, &|_| {}).unwrap();
            for rank in 0..ranker.count() {
                let p = ranker.unrank(rank);
                prop_assert_eq!(
                    labels.is_safe(rank),
                    naive_wins(&game, &p, &mut memo),
                    "{} {} {} at {}",
                    spec,
                    convention,
                    strategy,
                    p
                );
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn octal_codes_match_the_recursion(splits_first: bool, digits in proptest::collection::vec(0u8..8, 1..4), misere: bool, total in 0u64..13) {
            // A leading 4 splits a heap without taking: the tier order within a total.
            let first = if splits_first { '4' } else { '0' };
            let code: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
            check_against_naive(&format!("octal:{first}.{code}"), misere, Domain::Total { total })?;
        }

        #[test]
        fn subtraction_sets_match_the_recursion(set in proptest::collection::btree_set(1u64..7, 1..4), misere: bool, heaps in 1u32..4, max in 0u64..9) {
            let list: Vec<String> = set.iter().map(u64::to_string).collect();
            let spec = format!("subtraction:{}", list.join(","));
            check_against_naive(&spec, misere, Domain::Heaps { heaps, max })?;
            check_against_naive(&spec, misere, Domain::Total { total: max + 3 })?;
        }

        #[test]
        fn moore_and_wythoff_match_the_recursion(k in 1u32..4, misere: bool, heaps in 1u32..4, max in 0u64..6) {
            check_against_naive(&format!("moore:{k}"), misere, Domain::Heaps { heaps, max })?;
            check_against_naive("wythoff", misere, Domain::Heaps { heaps, max })?;
            check_against_naive("wythoff", misere, Domain::Total { total: max + 4 })?;
        }
    }
}

/// Remoteness by its definition, memoised: the reference the remoteness labellers match.
fn naive_remoteness(
    game: &Game,
    p: &Position,
    memo: &mut hashbrown::HashMap<Position, u32>,
) -> u32 {
    if let Some(&r) = memo.get(p) {
        return r;
    }
    let children: Vec<u32> = game
        .children(p)
        .iter()
        .map(|c| naive_remoteness(game, c, memo))
        .collect();
    let child_unsafe =
        |r: u32| !crate::value::Outcome::from_remoteness(r, game.convention).is_win();
    let r = match children.iter().copied().filter(|&r| child_unsafe(r)).min() {
        Some(fastest) => fastest + 1,
        None => children
            .iter()
            .copied()
            .max()
            .map_or(0, |longest| longest + 1),
    };
    memo.insert(p.clone(), r);
    r
}

/// Checks both remoteness labellers against the definition on every position of a
/// domain, and the outcome they imply against the outcome labeller.
fn check_remoteness(spec: &str, convention: Convention, domain: Domain) {
    let game = resolve(spec).unwrap().with_convention(convention);
    let ranker = Ranker::new(domain).unwrap();
    let retrograde = label_remoteness(&game, &ranker, Strategy::Backward, &|_| {}).unwrap();
    let plain = label_remoteness(&game, &ranker, Strategy::Plain, &|_| {}).unwrap();
    let outcomes = label(&game, &ranker, Strategy::Forward, &|_| {}).unwrap();
    let mut memo = hashbrown::HashMap::new();
    for rank in 0..ranker.count() {
        let p = ranker.unrank(rank);
        let expected = naive_remoteness(&game, &p, &mut memo);
        assert_eq!(
            retrograde.remoteness(rank),
            expected,
            "{spec} {convention} at {p}"
        );
        assert_eq!(
            plain.remoteness(rank),
            expected,
            "{spec} {convention} plain at {p}"
        );
        assert_eq!(
            retrograde.value(rank).is_win(),
            outcomes.is_safe(rank),
            "{spec} {convention} parity at {p}"
        );
    }
    assert_eq!(retrograde.outcomes().unwrap(), outcomes);
}

#[test]
fn remoteness_matches_the_definition_on_every_shipped_game() {
    for shipped in crate::game::shipped_games() {
        let game = resolve(shipped.name).unwrap();
        let domain = if game.ruleset.splits() {
            Domain::Total { total: 14 }
        } else {
            Domain::Heaps { heaps: 3, max: 6 }
        };
        for convention in [Convention::Normal, Convention::Misere] {
            check_remoteness(shipped.name, convention, domain);
        }
    }
    check_remoteness(
        "octal:4.07",
        Convention::Misere,
        Domain::Total { total: 11 },
    );
    check_remoteness("hex:0.8F", Convention::Normal, Domain::Total { total: 12 });
}

#[test]
fn remoteness_closed_forms() {
    let (ranker, nim) = {
        let game = resolve("nim").unwrap();
        let ranker = Ranker::new(Domain::Heaps { heaps: 1, max: 50 }).unwrap();
        let r = label_remoteness(&game, &ranker, Strategy::Backward, &|_| {}).unwrap();
        (ranker, r)
    };
    for n in 1..=50u64 {
        assert_eq!(
            nim.remoteness(ranker.rank(&Position::new(vec![n])).unwrap()),
            1
        );
    }
    let game = resolve("subtraction:1").unwrap();
    let r = label_remoteness(&game, &ranker, Strategy::Backward, &|_| {}).unwrap();
    for n in 0..=50u64 {
        assert_eq!(r.remoteness(n), n as u32, "subtraction {{1}} heap {n}");
    }
    let misere = resolve("nim").unwrap().with_convention(Convention::Misere);
    let r = label_remoteness(&misere, &ranker, Strategy::Backward, &|_| {}).unwrap();
    assert_eq!(
        r.value(1),
        crate::value::Value::remote(1, Convention::Misere)
    );
    assert!(!r.value(1).is_win());
    for n in 2..=50u64 {
        assert_eq!(r.remoteness(n), 2, "misère Nim heap {n}");
        assert!(r.value(n).is_win());
    }
}

#[test]
fn remoteness_does_not_depend_on_threads() {
    for (spec, domain) in [
        ("kayles", Domain::Total { total: 32 }),
        ("grundy", Domain::Total { total: 30 }),
        ("nim", Domain::Heaps { heaps: 3, max: 40 }),
    ] {
        let game = resolve(spec).unwrap().with_convention(Convention::Misere);
        let ranker = Ranker::new(domain).unwrap();
        let run = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| label_remoteness(&game, &ranker, Strategy::Backward, &|_| {}).unwrap())
        };
        assert_eq!(run(1), run(3), "{spec}");
    }
}

mod random_remoteness {
    use super::*;
    use proptest::prelude::{proptest, ProptestConfig};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn octal_codes(splits_first: bool, digits in proptest::collection::vec(0u8..8, 1..4), misere: bool, total in 0u64..12) {
            let first = if splits_first { '4' } else { '0' };
            let code: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
            let convention = if misere { Convention::Misere } else { Convention::Normal };
            check_remoteness(&format!("octal:{first}.{code}"), convention, Domain::Total { total });
        }

        #[test]
        fn hex_codes(digits in proptest::collection::vec(0u8..16, 1..3), misere: bool, total in 0u64..11) {
            let code: String = digits.iter().map(|d| format!("{d:X}")).collect();
            let convention = if misere { Convention::Misere } else { Convention::Normal };
            check_remoteness(&format!("hex:0.{code}"), convention, Domain::Total { total });
        }

        #[test]
        fn other_rulesets(k in 1u32..4, set in proptest::collection::btree_set(1u64..6, 1..4), misere: bool, heaps in 1u32..4, max in 0u64..6) {
            let convention = if misere { Convention::Misere } else { Convention::Normal };
            let list: Vec<String> = set.iter().map(u64::to_string).collect();
            let spec = format!("subtraction:{}", list.join(","));
            check_remoteness(&spec, convention, Domain::Heaps { heaps, max });
            check_remoteness(&spec, convention, Domain::Total { total: max + 3 });
            check_remoteness(&format!("moore:{k}"), convention, Domain::Heaps { heaps, max });
            check_remoteness("wythoff", convention, Domain::Heaps { heaps, max });
            check_remoteness("wythoff", convention, Domain::Total { total: max + 4 });
            check_remoteness("grundy", convention, Domain::Total { total: max + 6 });
        }
    }
}
