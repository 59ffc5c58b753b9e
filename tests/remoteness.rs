//! The remoteness search against the independent reference and closed forms, for every
//! windowed variant.

use crate::common;

use std::sync::{Arc, Mutex};

use common::{random_rules, RemotenessReference, Rules};
use proptest::prelude::*;
use sicher::answer::SearchSource;
use sicher::game::{resolve, Convention, Game, Position};
use sicher::search::plain::PlainRemoteness;
use sicher::search::Endgame;
use sicher::search::{Algorithm, RemotenessSolver, SearchConfig};
use sicher::value::{Outcome, Value};

fn game_for(rules: &Rules, misere: bool) -> Game {
    let game = resolve(&rules.spec()).unwrap_or_else(|e| panic!("{}: {e}", rules.spec()));
    game.with_convention(convention(misere))
}

fn convention(misere: bool) -> Convention {
    if misere {
        Convention::Misere
    } else {
        Convention::Normal
    }
}

/// Largest token total searched with the starved table: a search that keeps almost
/// nothing grows exponentially with game length (`octal:4.[1]` from (7 7 2) takes 1.6M
/// nodes; from (7 7 6) it outran CI's 90 minutes), so only small positions can afford it.
const STARVED_TOTAL: u64 = 12;

/// All heuristics; none; all on two and three threads; and, for small positions, a
/// table so small that it evicts constantly, on one thread and on two.
fn configs(heaps: &[u64]) -> Vec<SearchConfig> {
    let full = SearchConfig::default();
    let mut configs = vec![
        full,
        SearchConfig {
            etc: false,
            history: false,
            killers: false,
            simplify: false,
            guide: false,
            ..full
        },
        SearchConfig { threads: 2, ..full },
        SearchConfig { threads: 3, ..full },
    ];
    if heaps.iter().sum::<u64>() <= STARVED_TOTAL {
        for threads in [1, 2] {
            configs.push(SearchConfig {
                hash_bytes: 4 << 10,
                threads,
                ..full
            });
        }
    }
    configs
}

fn expected(reference: &mut RemotenessReference, heaps: &[u64], misere: bool) -> Value {
    let (win, remoteness) = reference.value(heaps);
    Value::Remoteness {
        outcome: Outcome::from_win(win),
        remoteness,
    }
    .tap_parity(misere)
}

trait TapParity {
    fn tap_parity(self, misere: bool) -> Self;
}

impl TapParity for Value {
    /// The parity rule: the reference's outcome is the one its remoteness implies.
    fn tap_parity(self, misere: bool) -> Self {
        let remoteness = self.remoteness().unwrap();
        assert_eq!(
            self,
            Value::remote(remoteness, convention(misere)),
            "parity"
        );
        self
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every algorithm, in every configuration, gives the reference's remoteness; its
    /// moves list every child with the reference's value in the reference's order; its
    /// best move is the first of them.
    #[test]
    fn every_algorithm_matches_the_reference(
        rules in random_rules(),
        misere in any::<bool>(),
        heaps in prop::collection::vec(0u64..8, 0..4),
    ) {
        let heaps: Vec<u64> = match rules {
            Rules::Moore(_) | Rules::Code { hex: true, .. } => heaps.into_iter().take(3).map(|h| h.min(6)).collect(),
            _ => heaps,
        };
        let game = game_for(&rules, misere);
        let mut reference = RemotenessReference::new(rules.clone(), misere);
        let position = Position::new(heaps.clone());
        let value = expected(&mut reference, &heaps, misere);
        let ranked: Vec<(Position, Value)> = reference
            .ranked_children(&heaps)
            .into_iter()
            .map(|(child, (win, remoteness))| {
                let value = Value::Remoteness { outcome: Outcome::from_win(win), remoteness };
                (Position::new(child), value.tap_parity(misere))
            })
            .collect();
        for algorithm in Algorithm::ALL {
            for config in configs(&heaps) {
                let context = format!("{} misere={misere} {heaps:?} {algorithm} {config:?}", rules.spec());
                let mut solver = RemotenessSolver::new(&game, config, algorithm);
                prop_assert_eq!(solver.value(&position), value, "{}", context);
                prop_assert_eq!(&solver.moves(&position), &ranked, "{}", context);
                prop_assert_eq!(solver.best_move(&position), ranked.first().cloned(), "{}", context);
                // Asked again, from a warm table, in another order.
                prop_assert_eq!(solver.best_move(&position), ranked.first().cloned(), "{}", context);
                prop_assert_eq!(solver.value(&position), value, "{}", context);
            }
        }
        prop_assert_eq!(PlainRemoteness::new(&game).value(&position), value);
    }
}

/// An endgame table of every position of at most `total` tokens, answered by the
/// reference: the search must give the same answers looking positions up in it.
struct ReferenceEndgame {
    total: u64,
    reference: Mutex<RemotenessReference>,
}

impl Endgame for ReferenceEndgame {
    fn max_total(&self) -> u64 {
        self.total
    }

    fn remoteness(&self, heaps: &[u64]) -> Option<u32> {
        assert!(heaps.windows(2).all(|w| w[0] <= w[1]) && !heaps.contains(&0));
        if heaps.iter().sum::<u64>() > self.total {
            return None;
        }
        Some(self.reference.lock().unwrap().value(heaps).1)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// Theory (a misère quotient where the rules have one, nim-values in normal play),
    /// an endgame table of small totals and a second thread change no answer, under
    /// every algorithm.
    #[test]
    fn theory_and_endgame_tables_keep_answers_exact(
        rules in random_rules(),
        misere in any::<bool>(),
        heaps in prop::collection::vec(0u64..9, 0..4),
        endgame_total in 0u64..12,
    ) {
        let heaps: Vec<u64> = match rules {
            Rules::Moore(_) | Rules::Code { hex: true, .. } => heaps.into_iter().take(3).map(|h| h.min(6)).collect(),
            _ => heaps,
        };
        let game = game_for(&rules, misere);
        let mut reference = RemotenessReference::new(rules.clone(), misere);
        let position = Position::new(heaps.clone());
        let value = expected(&mut reference, &heaps, misere);
        let ranked: Vec<(Position, Value)> = reference
            .ranked_children(&heaps)
            .into_iter()
            .map(|(child, (win, remoteness))| {
                let value = Value::Remoteness { outcome: Outcome::from_win(win), remoteness };
                (Position::new(child), value.tap_parity(misere))
            })
            .collect();
        let largest = heaps.iter().copied().max().unwrap_or(0);
        let outcomes = SearchSource::misere_outcomes(&game, largest);
        for algorithm in Algorithm::ALL {
            for (table, threads) in [(false, 1), (true, 1), (true, 2)] {
                let context = format!("{} misere={misere} {heaps:?} {algorithm} table={table} T={endgame_total} threads={threads}", rules.spec());
                let config = SearchConfig { threads, ..SearchConfig::default() };
                let mut solver = RemotenessSolver::new(&game, config, algorithm);
                if let Some(outcomes) = &outcomes {
                    solver.set_outcomes(outcomes.clone());
                }
                if table {
                    solver.set_endgame(Arc::new(ReferenceEndgame {
                        total: endgame_total,
                        reference: Mutex::new(RemotenessReference::new(rules.clone(), misere)),
                    }));
                }
                prop_assert_eq!(solver.value(&position), value, "{}", context);
                prop_assert_eq!(&solver.moves(&position), &ranked, "{}", context);
                prop_assert_eq!(solver.best_move(&position), ranked.first().cloned(), "{}", context);
                prop_assert_eq!(solver.value(&position), value, "{}", context);
            }
        }
    }
}

#[test]
fn every_position_of_small_games_matches_the_reference() {
    for rules in [
        Rules::Code {
            hex: false,
            digits: vec![0, 7, 7],
            repeat: false,
        },
        Rules::Code {
            hex: false,
            digits: vec![4, 1, 5],
            repeat: false,
        },
        Rules::Grundy,
        Rules::Wythoff,
    ] {
        for misere in [false, true] {
            let game = game_for(&rules, misere);
            let mut reference = RemotenessReference::new(rules.clone(), misere);
            for algorithm in Algorithm::ALL {
                // One solver per game: its table carries over from position to position.
                let mut solver = RemotenessSolver::new(&game, SearchConfig::default(), algorithm);
                for a in 0..=7 {
                    for b in a..=7 {
                        for c in b..=7 {
                            let heaps = [a, b, c];
                            assert_eq!(
                                solver.value(&Position::new(heaps.to_vec())),
                                expected(&mut reference, &heaps, misere),
                                "{} misere={misere} {heaps:?} {algorithm}",
                                rules.spec()
                            );
                        }
                    }
                }
            }
        }
    }
}

fn value_of(spec: &str, convention: Convention, heaps: &[u64], algorithm: Algorithm) -> Value {
    let game = resolve(spec).unwrap().with_convention(convention);
    RemotenessSolver::new(&game, SearchConfig::default(), algorithm)
        .value(&Position::new(heaps.to_vec()))
}

#[test]
fn closed_forms() {
    let safe = |remoteness| Value::Remoteness {
        outcome: Outcome::Safe,
        remoteness,
    };
    let unsafe_ = |remoteness| Value::Remoteness {
        outcome: Outcome::Unsafe,
        remoteness,
    };
    for algorithm in Algorithm::ALL {
        for n in [1, 2, 3, 10, 77] {
            // One move empties a lone Nim heap.
            assert_eq!(
                value_of("nim", Convention::Normal, &[n], algorithm),
                safe(1)
            );
            // Subtraction {1}: every move is forced.
            for convention in [Convention::Normal, Convention::Misere] {
                assert_eq!(
                    value_of("subtraction:1", convention, &[n], algorithm),
                    Value::remote(n as u32, convention)
                );
            }
        }
        assert_eq!(
            value_of("nim", Convention::Misere, &[1], algorithm),
            unsafe_(1)
        );
        for n in [2, 3, 9, 100] {
            // Misère Nim: leave the opponent a lone heap of one.
            assert_eq!(
                value_of("nim", Convention::Misere, &[n], algorithm),
                safe(2)
            );
        }
        assert_eq!(
            value_of("nim", Convention::Normal, &[], algorithm),
            unsafe_(0)
        );
        assert_eq!(value_of("nim", Convention::Misere, &[], algorithm), safe(0));
        // Dead heaps change nothing: a Grundy heap of 2 has no move.
        assert_eq!(
            value_of("grundy", Convention::Normal, &[2, 2, 1], algorithm),
            unsafe_(0)
        );
    }
}

#[test]
fn deep_positions_answer_without_recursion() {
    // Subtraction {1, 2}: heap 3k is lost in 2k moves; from 3k + 1 and 3k + 2 one move
    // leaves 3k.
    let game = resolve("subtraction:1,2").unwrap();
    for algorithm in Algorithm::ALL {
        let n = 100_000;
        let mut solver = RemotenessSolver::new(&game, SearchConfig::default(), algorithm);
        assert_eq!(
            solver.value(&Position::new(vec![n + 1])),
            Value::remote(2 * n as u32 / 3 + 1, Convention::Normal),
            "{algorithm}"
        );
    }
    let mut solver = RemotenessSolver::new(&game, SearchConfig::default(), Algorithm::default());
    let million = Position::new(vec![1_000_000]);
    assert_eq!(
        solver.value(&million),
        Value::remote(666_667, Convention::Normal)
    );
    let (child, value) = solver.best_move(&million).unwrap();
    assert_eq!(
        (child.heaps(), value),
        (&[999_999][..], Value::remote(666_666, Convention::Normal))
    );
}

/// The case behind [`STARVED_TOTAL`]: octal:4.[1] from (7 7 6) with a 4 KiB table
/// (56 entries, where the search needs about 550) outran CI's 90 minutes. Alpha-beta
/// now probes with null windows once its table evicts, and finishes in a few million
/// nodes (a second or two); MTD(f) and aspiration, whose passes live on the bounds the
/// table keeps between them, are still left out of starved searches.
#[test]
fn a_starved_table_degrades_gracefully() {
    let position = Position::new(vec![7, 7, 6]);
    for convention in [Convention::Normal, Convention::Misere] {
        let game = resolve("octal:4.[1]").unwrap().with_convention(convention);
        let expected = RemotenessSolver::new(&game, SearchConfig::default(), Algorithm::default())
            .value(&position);
        for algorithm in [Algorithm::AlphaBeta, Algorithm::NegaScout] {
            let config = SearchConfig {
                hash_bytes: 4 << 10,
                ..SearchConfig::default()
            };
            let mut solver = RemotenessSolver::new(&game, config, algorithm);
            let value = solver.value_within(&position, 10_000_000);
            assert_eq!(value, Some(expected), "{convention} {algorithm}");
            assert!(solver.stats().evictions > 0);
        }
    }
}

#[test]
fn algorithm_names_parse_back() {
    for algorithm in Algorithm::ALL {
        assert_eq!(
            algorithm.to_string().parse::<Algorithm>().unwrap(),
            algorithm
        );
    }
    assert!("minimax".parse::<Algorithm>().is_err());
}

#[test]
fn plain_baseline_agrees_on_kayles() {
    let game = resolve("kayles")
        .unwrap()
        .with_convention(Convention::Misere);
    let position = Position::new(vec![3, 4, 6]);
    let mut plain = PlainRemoteness::new(&game);
    let mut solver = RemotenessSolver::new(&game, SearchConfig::default(), Algorithm::default());
    assert_eq!(plain.value(&position), solver.value(&position));
    assert!(plain.nodes() > 0);
}

/// A table that fills its growing stage mid-search and moves into its fixed array (and
/// replaces entries there) changes no remoteness and no best move, on one thread and
/// on two: 256 KiB a table on one thread, and on two 128 KiB a table (each thread's own
/// and the shared one: two threads share the work, so each stores fewer entries, and a
/// larger bound was not always reached), against the default bound.
#[test]
fn a_table_that_reaches_its_bound_mid_search_keeps_answers() {
    for (game, position) in common::bound_crossing_positions() {
        let mut full = RemotenessSolver::new(&game, SearchConfig::default(), Algorithm::default());
        let (value, best) = (full.value(&position), full.best_move(&position));
        for threads in [1, 2] {
            let config = SearchConfig {
                hash_bytes: if threads > 1 {
                    (threads + 1) * (128 << 10)
                } else {
                    256 << 10
                },
                threads,
                ..SearchConfig::default()
            };
            let mut small = RemotenessSolver::new(&game, config, Algorithm::default());
            let context = format!("{position:?} threads {threads}");
            assert_eq!(small.value(&position), value, "{context}");
            assert_eq!(small.best_move(&position), best, "{context}");
            assert!(
                small.stats().evictions > 0,
                "{context}: {:?}",
                small.stats()
            );
        }
    }
}
