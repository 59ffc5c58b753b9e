//! The open rulesets of issue 17 against an independent brute force: the infinite
//! subtraction families (`subtraction:squares`, `primes`, `powers:K`, `fibonacci`,
//! `triangular`, `all-but:...`) and rules written as a script, through nim-values,
//! normal and misère outcomes and remoteness of multi-heap positions (with the winning
//! move), tables (`--total` and `--heaps`), misère quotients, and published sequences;
//! arithmetic periodicity (saltus) found, and proved for all-but games.

use std::collections::HashMap;

use sicher::answer::{Chain, Policy, Query, Remoteness};
use sicher::build::{TableJob, TableRequest};
use sicher::theory::grundy::{nim_values, solve, Method, NimValueLookup};
use sicher::theory::quotient::{self, Budget};
use sicher::{resolve, Convention, Domain, Game, Position, Table};

/// Kayles written as a script (the form `games/kayles-script.toml` shows).
const KAYLES_SCRIPT: &str = r#"
fn options(n) {
    let out = [];
    for take in 1..=2 {
        if take <= n {
            for left in 0..=(n - take) / 2 {
                out.push([left, n - take - left]);
            }
        }
    }
    out
}
"#;

/// The game a description file holding `script` describes: the file lives in a
/// directory of its own, removed once the game is read.
fn script_game(name: &str, script: &str) -> Game {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{name}.toml"));
    let text = format!("name = \"{name}\"\nrules = \"script\"\noptions = \"\"\"{script}\"\"\"\n");
    std::fs::write(&path, text).unwrap();
    resolve(path.to_str().unwrap()).unwrap()
}

/// The rules written out independently of sicher: every option of a lone heap `h`.
#[derive(Clone, Copy, Debug)]
enum Brute {
    /// Take `s` for every `s` the predicate accepts.
    Take(fn(u64) -> bool),
    /// Kayles: take 1 or 2 from a row, leaving the pins on either side.
    Kayles,
}

fn is_square(s: u64) -> bool {
    (1..=s).any(|k| k * k == s)
}
fn is_prime(s: u64) -> bool {
    s >= 2 && (2..s).all(|d| !s.is_multiple_of(d))
}
fn is_power_of_2(s: u64) -> bool {
    (0..40).any(|e| 1u64 << e == s)
}
fn is_power_of_3(s: u64) -> bool {
    (0..30).any(|e| 3u64.pow(e) == s)
}
fn is_fibonacci(s: u64) -> bool {
    let (mut a, mut b) = (1u64, 2u64);
    while a < s {
        (a, b) = (b, a + b);
    }
    a == s
}
fn is_triangular(s: u64) -> bool {
    (1..=s).any(|k| k * (k + 1) / 2 == s)
}
fn all_but_1_2(s: u64) -> bool {
    s > 2
}
fn all_but_2_3_7(s: u64) -> bool {
    s >= 1 && ![2, 3, 7].contains(&s)
}

impl Brute {
    fn options(self, h: u64) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        match self {
            Brute::Take(allowed) => {
                for s in 1..=h {
                    if allowed(s) {
                        out.push(if s == h { vec![] } else { vec![h - s] });
                    }
                }
            }
            Brute::Kayles => {
                for take in 1..=2u64.min(h) {
                    for left in 0..=h - take {
                        let parts: Vec<u64> = [left, h - take - left]
                            .into_iter()
                            .filter(|&p| p > 0)
                            .collect();
                        out.push(parts);
                    }
                }
            }
        }
        out
    }

    fn nim_values(self, len: usize) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::new();
        for h in 0..len as u64 {
            let mut seen = Vec::new();
            for option in self.options(h) {
                seen.push(option.iter().fold(0, |x, &p| x ^ g[p as usize]));
            }
            g.push((0..).find(|v| !seen.contains(v)).unwrap());
        }
        g
    }
}

/// Win/lose and remoteness of every position, by the definition.
struct Solver {
    rules: Brute,
    misere: bool,
    memo: HashMap<Vec<u64>, (bool, u32)>,
}

impl Solver {
    fn new(rules: Brute, misere: bool) -> Self {
        Solver {
            rules,
            misere,
            memo: HashMap::new(),
        }
    }

    fn children(&self, heaps: &[u64]) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for i in 0..heaps.len() {
            for option in self.rules.options(heaps[i]) {
                let mut child: Vec<u64> = heaps[..i].to_vec();
                child.extend_from_slice(&heaps[i + 1..]);
                child.extend(option);
                child.sort_unstable();
                out.push(child);
            }
        }
        out
    }

    /// (safe, remoteness): safe wins with the fewest moves, unsafe loses with the most.
    fn value(&mut self, heaps: &[u64]) -> (bool, u32) {
        let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let children = self.children(&key);
        let value = if children.is_empty() {
            (self.misere, 0)
        } else {
            let values: Vec<(bool, u32)> = children.iter().map(|c| self.value(c)).collect();
            match values.iter().filter(|v| !v.0).map(|v| v.1).min() {
                Some(r) => (true, r + 1),
                None => (false, values.iter().map(|v| v.1).max().unwrap() + 1),
            }
        };
        self.memo.insert(key, value);
        value
    }
}

/// Every sorted position of at most `k` heaps, each at most `max`.
fn positions(k: usize, max: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    let mut frontier = vec![vec![]];
    for _ in 0..k {
        let mut next = Vec::new();
        for p in &frontier {
            let from = p.last().copied().unwrap_or(1);
            for h in from..=max {
                let mut q: Vec<u64> = p.clone();
                q.push(h);
                next.push(q);
            }
        }
        out.extend(next.iter().cloned());
        frontier = next;
    }
    out
}

/// Every sorted position of at most `total` tokens in all.
fn partitions(total: u64) -> Vec<Vec<u64>> {
    fn extend(prefix: &mut Vec<u64>, from: u64, left: u64, out: &mut Vec<Vec<u64>>) {
        out.push(prefix.clone());
        for h in from..=left {
            prefix.push(h);
            extend(prefix, h, left - h, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    extend(&mut Vec::new(), 1, total, &mut out);
    out
}

/// The families and the script, each with its independent rules.
fn cases() -> Vec<(Game, Brute)> {
    let take = |spec: &str, f: fn(u64) -> bool| (resolve(spec).unwrap(), Brute::Take(f));
    vec![
        take("subtraction:squares", is_square),
        take("subtraction:primes", is_prime),
        take("subtraction:powers:2", is_power_of_2),
        take("subtraction:powers:3", is_power_of_3),
        take("subtraction:fibonacci", is_fibonacci),
        take("subtraction:triangular", is_triangular),
        take("subtraction:all-but:1,2", all_but_1_2),
        take("subtraction:all-but:2,3,7", all_but_2_3_7),
        (script_game("kayles-script", KAYLES_SCRIPT), Brute::Kayles),
    ]
}

#[test]
fn nim_values_equal_the_brute_force() {
    for (game, brute) in cases() {
        let expected = brute.nim_values(300);
        for method in [Method::Fast, Method::Reference] {
            let got = nim_values(&game.ruleset, method, 300).unwrap();
            assert_eq!(got, expected, "{} {method:?}", game.ruleset);
        }
    }
}

#[test]
fn outcomes_remoteness_and_winning_moves_equal_the_brute_force() {
    let query = Query {
        best_move: true,
        remoteness: Remoteness::Required,
    };
    for (game, brute) in cases() {
        for convention in [Convention::Normal, Convention::Misere] {
            let game = game.clone().with_convention(convention);
            let mut brute_force = Solver::new(brute, convention == Convention::Misere);
            let mut chain = Chain::new(&game, &Policy::default()).unwrap();
            for heaps in positions(3, 7) {
                let (win, remoteness) = brute_force.value(&heaps);
                let position = Position::new(heaps.clone());
                let answer = chain.answer(&position, query).unwrap();
                let what = format!("{} {convention} {heaps:?}", game.ruleset);
                assert_eq!(answer.value.is_win(), win, "{what}");
                assert_eq!(answer.value.remoteness(), Some(remoteness), "{what}");
                if win && remoteness > 0 {
                    let to = answer.best_move.expect("a winning move");
                    let after = brute_force.value(to.heaps());
                    assert!(!after.0, "{what}: {to} is not a winning move");
                    assert_eq!(after.1 + 1, remoteness, "{what}: {to} is not the fastest");
                }
            }
            // The verdict alone, without remoteness (the fast path in normal play).
            let mut chain = Chain::new(&game, &Policy::default()).unwrap();
            for heaps in positions(4, 9) {
                let (win, _) = brute_force.value(&heaps);
                let answer = chain
                    .answer(&Position::new(heaps.clone()), Query::default())
                    .unwrap();
                assert_eq!(answer.value.is_win(), win, "{} {heaps:?}", game.ruleset);
            }
        }
    }
}

#[test]
fn tables_equal_the_brute_force() {
    let dir = tempfile::tempdir().unwrap();
    for (i, (game, brute)) in cases().into_iter().enumerate() {
        let splits = matches!(brute, Brute::Kayles);
        for convention in [Convention::Normal, Convention::Misere] {
            let game = game.clone().with_convention(convention);
            let mut brute_force = Solver::new(brute, convention == Convention::Misere);
            let mut domains = vec![(Domain::Total { total: 11 }, partitions(11))];
            if !splits {
                domains.push((Domain::Heaps { heaps: 3, max: 9 }, positions(3, 9)));
            }
            for (j, (domain, all)) in domains.into_iter().enumerate() {
                let path = dir.path().join(format!("{i}-{convention}-{j}.tbl"));
                let request = TableRequest::new(game.clone(), domain, &path);
                TableJob::prepare(request).unwrap().run(&|_| {}).unwrap();
                let table = Table::open(&path).unwrap();
                for heaps in all {
                    let probed = table.probe(&Position::new(heaps.clone())).unwrap();
                    assert_eq!(
                        probed.is_win(),
                        brute_force.value(&heaps).0,
                        "{} {convention} {domain:?} {heaps:?}",
                        game.ruleset
                    );
                }
            }
        }
    }
    // A game that splits heaps has no --heaps domain: refused with the reason.
    let script = script_game("kayles-heaps", KAYLES_SCRIPT);
    let request = TableRequest::new(
        script,
        Domain::Heaps { heaps: 2, max: 5 },
        dir.path().join("refused.tbl"),
    );
    let refused = TableJob::prepare(request).map(|_| ()).unwrap_err();
    assert!(refused.to_string().contains("splits heaps"), "{refused}");
}

#[test]
fn misere_quotients_predict_the_brute_force() {
    for (game, brute) in cases() {
        let mut brute_force = Solver::new(brute, true);
        let computed = quotient::compute(&game.ruleset, 9, &Budget::default()).unwrap();
        for heaps in positions(3, 9) {
            if let Some(safe) = computed.outcome(&heaps) {
                assert_eq!(
                    safe,
                    brute_force.value(&heaps).0,
                    "{} {heaps:?}",
                    game.ruleset
                );
            }
        }
    }
}

#[test]
fn a_script_restating_kayles_is_kayles() {
    let kayles = resolve("kayles").unwrap();
    let script = script_game("kayles-same", KAYLES_SCRIPT);
    let shipped = resolve(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/kayles-script.toml"
    ))
    .unwrap();
    for game in [&script, &shipped] {
        assert_eq!(
            nim_values(&game.ruleset, Method::Fast, 400).unwrap(),
            nim_values(&kayles.ruleset, Method::Fast, 400).unwrap()
        );
        let budget = Budget::default();
        let a = quotient::compute(&game.ruleset, 14, &budget).unwrap();
        let b = quotient::compute(&kayles.ruleset, 14, &budget).unwrap();
        assert_eq!(a.order, b.order);
        assert_eq!(a.presentation(), b.presentation());
        assert_eq!(a.p_portion_text(), b.p_portion_text());
    }
    let dir = tempfile::tempdir().unwrap();
    for convention in [Convention::Normal, Convention::Misere] {
        let mut tables = Vec::new();
        for (i, game) in [&kayles, &script].into_iter().enumerate() {
            let path = dir.path().join(format!("{i}-{convention}.tbl"));
            let game = game.clone().with_convention(convention);
            let request = TableRequest::new(game, Domain::Total { total: 16 }, &path);
            TableJob::prepare(request).unwrap().run(&|_| {}).unwrap();
            tables.push(Table::open(&path).unwrap());
        }
        for heaps in partitions(16) {
            let position = Position::new(heaps);
            assert_eq!(
                tables[0].probe(&position).unwrap(),
                tables[1].probe(&position).unwrap(),
                "{convention} {position}"
            );
        }
    }
}

#[test]
fn published_sequences() {
    // Subtract-a-square's P-positions (OEIS A030193): 0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, ...
    let square = resolve(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/subtract-a-square.toml"
    ))
    .unwrap();
    let values = nim_values(&square.ruleset, Method::Fast, 40).unwrap();
    let zeros: Vec<usize> = (0..40).filter(|&n| values[n] == 0).collect();
    assert_eq!(zeros, [0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39]);

    // Lasker's Nim: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3.
    let lasker = resolve(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/lasker-nim.toml"
    ))
    .unwrap();
    let values = nim_values(&lasker.ruleset, Method::Fast, 2001).unwrap();
    for k in 0..500u32 {
        let at = |n: u32| values[n as usize];
        assert_eq!(at(4 * k + 1), 4 * k + 1);
        assert_eq!(at(4 * k + 2), 4 * k + 2);
        assert_eq!(at(4 * k + 3), 4 * k + 4);
        assert_eq!(at(4 * k + 4), 4 * k + 3);
    }
    let solution = solve(&lasker, 2000, &mut |_| {}).unwrap();
    let found = solution.periodicity.unwrap();
    assert_eq!((found.preperiod, found.period, found.saltus), (1, 4, 4));
    // No theorem here: observed, not proved.
    assert!(!solution.proved());

    // Nim written as an octal code: saltus 1, period 1, observed.
    let nim = resolve("octal:0.[3]").unwrap();
    let solution = solve(&nim, 1000, &mut |_| {}).unwrap();
    let found = solution.periodicity.unwrap();
    assert_eq!((found.preperiod, found.period, found.saltus), (0, 1, 1));
    assert!(!solution.proved());
}

#[test]
fn all_but_games_are_proved_and_answer_any_heap() {
    for (spec, allowed) in [
        ("subtraction:all-but:1,2", all_but_1_2 as fn(u64) -> bool),
        ("subtraction:all-but:2,3,7", all_but_2_3_7),
    ] {
        let game = resolve(spec).unwrap();
        let solution = solve(&game, 2000, &mut |_| {}).unwrap();
        assert!(solution.proved(), "{spec}");
        let found = solution.periodicity.unwrap();
        assert!(found.saltus > 0);
        // The periodic form against the brute force well past the values the proof used.
        let brute = Brute::Take(allowed).nim_values(600);
        let oracle = NimValueLookup::new(&game.ruleset, 1 << 40, 1 << 12).unwrap();
        for (n, &v) in brute.iter().enumerate() {
            assert_eq!(oracle.value(n as u64), u64::from(v), "{spec} G({n})");
        }
        // Huge heaps: a safe position's winning move leaves an unsafe one.
        let huge = Position::new(vec![1_000_000_007, 123_456_789_012, 99]);
        let verdict = oracle.verdict(&huge);
        if let Some(winning) = verdict.winning_move {
            assert!(!oracle.verdict(&winning.after).win, "{spec}");
            let taken = winning.heap - winning.leaves.iter().sum::<u64>();
            assert!(allowed(taken), "{spec}: takes {taken}");
        }
    }
}
