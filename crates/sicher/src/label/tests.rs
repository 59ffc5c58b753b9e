//! The labeller against closed forms and against itself across strategies.

use super::*;
use crate::domain::{Domain, Partitions};
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
            if game.ruleset.reversible() {
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
    let children = game.children_prepared(p);
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
        .children_prepared(p)
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
    // Labelled a byte a remoteness, the same values.
    let narrow = label_remoteness_narrow(&game, &ranker)
        .unwrap()
        .expect("small domains are labelled in bytes");
    let narrow: Vec<u32> = narrow.into_iter().map(u32::from).collect();
    assert_eq!(narrow, retrograde.values(), "{spec} {convention} in bytes");
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
        ("subtraction:1,3,4", Domain::Heaps { heaps: 3, max: 40 }),
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
        let wide = run(1);
        assert_eq!(wide, run(3), "{spec}");
        // In byte cells too, through the plan that the search's endgame tables use.
        for threads in [1, 3] {
            let plan = Plan::new(&game, domain, None, Some(threads))
                .unwrap()
                .with_remoteness();
            let narrow = plan.run_narrow_remoteness().unwrap().expect("fits a byte");
            let narrow: Vec<u32> = narrow.into_iter().map(u32::from).collect();
            assert_eq!(narrow, wide.values(), "{spec} on {threads} threads");
        }
    }
}

/// Domains too deep for a byte are left to the four-byte labeller, and a remoteness
/// that does not fit a byte after all is caught, not stored.
#[test]
fn remoteness_too_large_for_a_byte_is_refused() {
    let game = resolve("subtraction:1").unwrap();
    let deep = Ranker::new(Domain::Heaps { heaps: 1, max: 300 }).unwrap();
    assert_eq!(label_remoteness_narrow(&game, &deep).unwrap(), None);
    let plan = Plan::new(&game, Domain::Heaps { heaps: 1, max: 300 }, None, Some(1))
        .unwrap()
        .with_remoteness();
    assert_eq!(plan.run_narrow_remoteness().unwrap(), None);
    // The labeller itself, in bytes, on heaps whose remoteness reaches 300.
    let labeller = remoteness::Retrograde::new(&game, &deep);
    let finished = drive::run::<std::sync::atomic::AtomicU8>(
        &labeller,
        Tiers::of(&deep, false),
        deep.count(),
        remoteness::Retrograde::reach(&game),
        None,
        &|_| {},
    )
    .unwrap();
    assert!(labeller.overflowed());
    let drive::Finished::Held(slots) = finished else {
        panic!("labelled in memory");
    };
    // Below the byte's limit every remoteness is right (heap n takes n moves).
    for (n, slot) in slots.iter().enumerate().take(250) {
        assert_eq!(
            u64::from(slot.load(std::sync::atomic::Ordering::Relaxed)),
            n as u64
        );
    }
    // A plan without remotenesses has no labels in bytes, nor one that labels into a
    // work directory or with the plain labeller.
    let small = Domain::Heaps { heaps: 1, max: 20 };
    let outcomes_only = Plan::new(&game, small, None, Some(1)).unwrap();
    assert_eq!(outcomes_only.run_narrow_remoteness().unwrap(), None);
    let dir = tempfile::tempdir().unwrap();
    let stored = Plan::new(&game, small, None, Some(1))
        .unwrap()
        .with_remoteness()
        .with_work_dir(work::WorkDir::beside(&dir.path().join("t.table")));
    assert_eq!(stored.run_narrow_remoteness().unwrap(), None);
    let plain = Plan::new(&game, small, Some(Strategy::Plain), Some(1))
        .unwrap()
        .with_remoteness();
    assert_eq!(plain.run_narrow_remoteness().unwrap(), None);
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

/// Checks the one-heap word labeller, without and with shortcuts, against the plain
/// labeller on every heap up to `max`.
fn check_one_heap(spec: &str, convention: Convention, max: u64) -> Derivation {
    let game = resolve(spec).unwrap().with_convention(convention);
    let domain = Domain::Heaps { heaps: 1, max };
    let ranker = Ranker::new(domain).unwrap();
    let plain = label(&game, &ranker, Strategy::Plain, &|_| {}).unwrap();
    let words = label(&game, &ranker, Strategy::Forward, &|_| {}).unwrap();
    assert_eq!(words, plain, "{spec} {convention} words");
    let labelled = Plan::new(&game, domain, None, None)
        .unwrap()
        .run(&|_| {})
        .unwrap();
    assert_eq!(labelled.labels, Some(plain), "{spec} {convention} shortcut");
    labelled.derivation
}

mod one_heap_words {
    use super::*;
    use proptest::prelude::{proptest, ProptestConfig};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn subtraction_sets_match_plain(set in proptest::collection::btree_set(1u64..140, 1..6), misere: bool, max in 0u64..3000) {
            let list: Vec<String> = set.iter().map(u64::to_string).collect();
            let convention = if misere { Convention::Misere } else { Convention::Normal };
            check_one_heap(&format!("subtraction:{}", list.join(",")), convention, max);
        }

        #[test]
        fn take_only_codes_match_plain(digits in proptest::collection::vec(0u8..4, 1..12), hex: bool, misere: bool, max in 0u64..3000) {
            let code: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
            let spec = if hex { format!("hex:0.{code}") } else { format!("octal:0.{code}") };
            let convention = if misere { Convention::Misere } else { Convention::Normal };
            check_one_heap(&spec, convention, max);
        }
    }

    #[test]
    fn proved_periods_finish_the_domain() {
        let normal = check_one_heap("subtraction:1,3,4", Convention::Normal, 200_000);
        assert!(
            matches!(normal, Derivation::Period(p) if p.period == 7 && p.preperiod == 0),
            "{normal:?}"
        );
        // Takes past a word, a pre-period, and misère play.
        for (spec, convention) in [
            ("subtraction:3,70,131", Convention::Normal),
            ("subtraction:2,5,64,65", Convention::Misere),
            ("octal:0.31213", Convention::Misere),
        ] {
            let how = check_one_heap(spec, convention, 300_000);
            assert!(matches!(how, Derivation::Period(_)), "{spec}: {how:?}");
        }
        // Nim-like rules take without bound: labelled heap by heap.
        let nim = check_one_heap("nim", Convention::Misere, 5000);
        assert_eq!(nim, Derivation::Retrograde);
    }
}

mod nim_value_shortcut {
    use super::*;
    use proptest::prelude::{proptest, ProptestConfig};

    fn check(spec: &str, domain: Domain) {
        let game = resolve(spec).unwrap();
        let ranker = Ranker::new(domain).unwrap();
        let plain = label(&game, &ranker, Strategy::Plain, &|_| {}).unwrap();
        let labelled = Plan::new(&game, domain, None, None)
            .unwrap()
            .run(&|_| {})
            .unwrap();
        assert_eq!(labelled.derivation, Derivation::NimValues, "{spec}");
        assert_eq!(labelled.labels, Some(plain), "{spec} {domain}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn xor_of_nim_values_matches_plain(splits_first: bool, digits in proptest::collection::vec(0u8..8, 1..4), total in 0u64..15, set in proptest::collection::btree_set(1u64..7, 1..4), heaps in 2u32..4, max in 0u64..9) {
            let first = if splits_first { '4' } else { '0' };
            let code: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
            check(&format!("octal:{first}.{code}"), Domain::Total { total });
            let list: Vec<String> = set.iter().map(u64::to_string).collect();
            check(&format!("subtraction:{}", list.join(",")), Domain::Heaps { heaps, max });
        }
    }

    #[test]
    fn shipped_games() {
        check("nim", Domain::Heaps { heaps: 3, max: 20 });
        check("grundy", Domain::Total { total: 24 });
        check("kayles", Domain::Total { total: 26 });
        check("dawson-kayles", Domain::Total { total: 26 });
    }
}

mod work_directory {
    use super::*;
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Duration;

    /// A plan labelling into a work directory under `dir`, checkpointing after every tier.
    fn plan(
        dir: &std::path::Path,
        spec: &str,
        convention: Convention,
        domain: Domain,
        remote: bool,
    ) -> Plan {
        let game = resolve(spec).unwrap().with_convention(convention);
        let work = WorkDir::beside(&dir.join("t.table")).checkpoint_every(Some(Duration::ZERO));
        let plan = Plan::new(&game, domain, None, None)
            .unwrap()
            .without_shortcuts()
            .with_work_dir(work);
        if remote {
            plan.with_remoteness()
        } else {
            plan
        }
    }

    /// Labels with a work directory, interrupted (by a panic in the progress callback)
    /// after `stop` progress reports, then resumed (outcomes streamed from the work
    /// directory when they were evicted); checks both against labelling in memory.
    fn check(spec: &str, convention: Convention, domain: Domain, remote: bool, stop: u64) {
        let dir = tempfile::tempdir().unwrap();
        let game = resolve(spec).unwrap().with_convention(convention);
        let ranker = Ranker::new(domain).unwrap();
        let strategy = Strategy::auto(&game.ruleset);
        let expected_labels = label(&game, &ranker, strategy, &|_| {}).unwrap();
        let expected_remoteness =
            remote.then(|| label_remoteness(&game, &ranker, strategy, &|_| {}).unwrap());
        let reports = AtomicU64::new(0);
        let interrupted = catch_unwind(AssertUnwindSafe(|| {
            plan(dir.path(), spec, convention, domain, remote).run(&|_| {
                if reports.fetch_add(1, Ordering::Relaxed) == stop {
                    panic!("interrupted on purpose");
                }
            })
        }));
        let again = plan(dir.path(), spec, convention, domain, remote)
            .streaming(crate::table::WRITER_BYTES);
        let resumed = again.prepare().unwrap();
        let labelled = again.run(&|_| {}).unwrap();
        // A window smaller than the domain leaves the outcomes in the work directory (a
        // window that shrinks as tiers finish may too).
        if !remote && again.positions_held() < ranker.count() {
            assert!(labelled.labels.is_none(), "{spec} {domain}");
        }
        let labels = match &labelled.labels {
            Some(labels) => labels.clone(),
            None => {
                let mut words = Vec::new();
                again
                    .stream_outcomes(|run| {
                        words.extend_from_slice(run);
                        Ok(())
                    })
                    .unwrap();
                Labels::from_words(words, ranker.count())
            }
        };
        assert_eq!(labels, expected_labels, "{spec} {domain}");
        assert_eq!(labelled.remoteness, expected_remoteness, "{spec} {domain}");
        if interrupted.is_err() && stop > 0 {
            assert!(resumed.is_some_and(|r| r.positions > 0), "{spec} {domain}");
            assert!(labelled.resumed > 0);
        }
        again.discard_work().unwrap();
        assert!(!dir.path().join("t.table.work").exists());
    }

    #[test]
    fn windowed_and_resumed_labels_equal_labels_in_memory() {
        for stop in [1, 9, 1000] {
            check(
                "kayles",
                Convention::Misere,
                Domain::Total { total: 24 },
                false,
                stop,
            );
            check(
                "nim",
                Convention::Normal,
                Domain::Total { total: 20 },
                false,
                stop,
            );
            check(
                "subtraction:1,3,4",
                Convention::Misere,
                Domain::Total { total: 24 },
                false,
                stop,
            );
            check(
                "octal:4.07",
                Convention::Misere,
                Domain::Total { total: 16 },
                false,
                stop,
            );
            check(
                "kayles",
                Convention::Normal,
                Domain::Total { total: 20 },
                true,
                stop,
            );
            check(
                "nim",
                Convention::Misere,
                Domain::Heaps { heaps: 3, max: 9 },
                false,
                stop,
            );
            check(
                "wythoff",
                Convention::Normal,
                Domain::Heaps { heaps: 2, max: 30 },
                true,
                stop,
            );
            check(
                "subtraction:1,2",
                Convention::Normal,
                Domain::Heaps { heaps: 1, max: 90 },
                true,
                stop,
            );
        }
    }

    #[test]
    fn only_the_tiers_moves_reach_are_held() {
        let dir = tempfile::tempdir().unwrap();
        let domain = Domain::Total { total: 40 };
        let kayles = plan(dir.path(), "kayles", Convention::Misere, domain, false);
        let p = Partitions::new(40).unwrap();
        let largest = (0..=40)
            .map(|t| p.tier(t).end - p.tier(t).start)
            .max()
            .unwrap();
        // Kayles takes one or two tokens: three tiers at most.
        let three = (2..=40)
            .map(|t| p.tier(t).end - p.tier(t - 2).start)
            .max()
            .unwrap();
        assert_eq!(kayles.positions_held(), three);
        assert!(kayles.positions_held() < p.count() / 2 && largest < three);
        // Nim takes any number: every tier below.
        let nim = plan(dir.path(), "nim", Convention::Misere, domain, false);
        assert_eq!(nim.positions_held(), p.count());
    }
}
