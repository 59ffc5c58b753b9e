//! Partizan heap games against an independent brute force that implements the seeds'
//! `sicher(s, p) = if t(s, p) then g(s, p) else ∃ q ∈ Z(s, p): ¬sicher(gegner(s), q)`
//! literally, with the reference's own move generators (`common::Rules`): the search,
//! the answer chain (each source), one-heap outcome sequences, canonical forms (checked
//! by the definition: the heap minus its form is a second-player win), impartial games
//! written as partizan ones, scripted terminal rules, and the command line.

use std::collections::HashMap;

use proptest::prelude::*;

use crate::common::{self, Rules};
use sicher::answer::{Chain, PartizanChain, PartizanPolicy, PartizanSource, Policy, Query};
use sicher::game::partizan::{
    parse_partizan_description, parse_partizan_spec, PartizanGame, Terminal,
};
use sicher::game::Position;
use sicher::search::PartizanSolver;
use sicher::theory::cgt::{GameId, GameStore};
use sicher::theory::partizan::{HeapForms, OutcomeSequence};
use sicher::value::{OutcomeClass, Player};

/// The seeds' `t(s, p)` and `g(s, p)`: `Some(win)` when play has ended for `s` to move.
type Ends = dyn Fn(&[u64], usize, bool) -> Option<bool>;

/// The literal recursion, memoised on (position, player): `s` 0 is Left, 1 is Right.
struct Brute<'a> {
    rules: [Rules; 2],
    ends: &'a Ends,
    memo: HashMap<(Vec<u64>, usize), bool>,
}

impl<'a> Brute<'a> {
    fn new(left: &Rules, right: &Rules, ends: &'a Ends) -> Self {
        Brute {
            rules: [left.clone(), right.clone()],
            ends,
            memo: HashMap::new(),
        }
    }

    fn z(&self, s: usize, p: &[u64]) -> Vec<Vec<u64>> {
        self.rules[s].children(p)
    }

    fn sicher(&mut self, s: usize, p: &[u64]) -> bool {
        let p = common::canon(p.to_vec());
        if let Some(&known) = self.memo.get(&(p.clone(), s)) {
            return known;
        }
        let moves = self.z(s, &p);
        let win = match (self.ends)(&p, s, moves.is_empty()) {
            Some(g) => g,
            None => moves.iter().any(|q| !self.sicher(1 - s, q)),
        };
        self.memo.insert((p, s), win);
        win
    }

    fn class(&mut self, p: &[u64]) -> OutcomeClass {
        OutcomeClass::from_wins(self.sicher(0, p), self.sicher(1, p))
    }

    fn winning(&mut self, s: usize, p: &[u64]) -> Vec<Vec<u64>> {
        let mut out: Vec<Vec<u64>> = self
            .z(s, &common::canon(p.to_vec()))
            .into_iter()
            .filter(|q| !self.sicher(1 - s, q))
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

/// Normal or misère play: `t` is "no move", `g` the convention.
fn convention(misere: bool) -> impl Fn(&[u64], usize, bool) -> Option<bool> {
    move |_: &[u64], _: usize, stuck: bool| stuck.then_some(misere)
}

/// Random one-heap rules of the reference's kinds: octal and hexadecimal codes (some
/// repeating), subtraction sets, Nim and Grundy's game.
fn one_heap_rules() -> impl Strategy<Value = Rules> {
    common::random_rules().prop_filter("one heap at a time", |r| {
        !matches!(r, Rules::Wythoff | Rules::Moore(_))
    })
}

/// Finite rules that never split (subtraction sets, codes of digits up to 3).
fn non_splitting_rules() -> impl Strategy<Value = Rules> {
    prop_oneof![
        prop::collection::btree_set(1u64..=6, 1..=3)
            .prop_map(|s| Rules::Subtraction(s.into_iter().collect())),
        prop::collection::vec(0u8..=3, 1..=4).prop_map(|tail| {
            let mut digits = vec![0];
            digits.extend(tail);
            if digits.iter().all(|&d| d == 0) {
                digits[1] = 3;
            }
            Rules::Code {
                hex: false,
                digits,
                repeat: false,
            }
        }),
    ]
}

fn game(left: &Rules, right: &Rules, misere: bool) -> PartizanGame {
    let spec = format!("partizan:{}/{}", left.spec(), right.spec());
    let game = parse_partizan_spec(&spec).unwrap();
    if misere {
        game.with_terminal(Terminal::Misere)
    } else {
        game
    }
}

fn players() -> [(usize, Player); 2] {
    [(0, Player::Left), (1, Player::Right)]
}

fn heaps_of(max_heaps: usize, max_heap: u64) -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec(1u64..=max_heap, 0..=max_heaps)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The search and the chain (every source) agree with the literal recursion on
    /// verdicts, classes, winning moves and remoteness parity, in both conventions.
    #[test]
    fn engines_agree_with_the_literal_recursion(
        left in one_heap_rules(), right in one_heap_rules(), misere in any::<bool>(),
        heaps in heaps_of(3, 6),
    ) {
        let g = game(&left, &right, misere);
        let ends = convention(misere);
        let mut brute = Brute::new(&left, &right, &ends);
        let mut solver = PartizanSolver::new(&g);
        let mut chain = PartizanChain::new(&g, PartizanPolicy { sequence_limit: 12, ..PartizanPolicy::default() }).unwrap();
        let position = Position::new(heaps.clone());
        prop_assert_eq!(chain.class(&position).unwrap().0, brute.class(&heaps), "{}", g.spec());
        for (s, player) in players() {
            let expected = brute.sicher(s, &heaps);
            prop_assert_eq!(solver.wins(&heaps, player).unwrap(), expected);
            let answer = chain.answer(&position, player, Query::default()).unwrap();
            prop_assert_eq!(answer.win, expected, "{} {:?} {:?}", g.spec(), heaps, player);
            if let Some(best) = &answer.best_move {
                prop_assert!(!brute.sicher(1 - s, best.heaps()));
            }
            let moves: Vec<Vec<u64>> = chain.winning_moves(&position, player).unwrap()
                .into_iter().map(|p| p.heaps().to_vec()).collect();
            prop_assert_eq!(moves, brute.winning(s, &heaps));
            if let Some((win, r)) = solver.remoteness(&heaps, player, 1 << 20).unwrap() {
                prop_assert_eq!(win, expected);
                prop_assert_eq!(answer.remoteness, Some(r));
            }
        }
    }

    /// One-heap outcome sequences: proved periods for finite non-splitting rules, and
    /// every heap's class (far past the computed prefix) as the recursion has it.
    #[test]
    fn one_heap_sequences_agree(
        left in non_splitting_rules(), right in non_splitting_rules(), misere in any::<bool>(),
    ) {
        let g = game(&left, &right, misere);
        let sequence = OutcomeSequence::compute(&g, 0).unwrap();
        prop_assert!(sequence.proved && sequence.period > 0);
        let ends = convention(misere);
        let mut brute = Brute::new(&left, &right, &ends);
        for n in 0..=90u64 {
            let p = if n == 0 { vec![] } else { vec![n] };
            prop_assert_eq!(sequence.class(n), Some(brute.class(&p)), "heap {} of {}", n, g.spec());
        }
    }

    /// Sequences of splitting or unbounded rules are observed only, and right as far as
    /// they go.
    #[test]
    fn observed_sequences_agree(left in one_heap_rules(), right in one_heap_rules()) {
        let g = game(&left, &right, false);
        let sequence = OutcomeSequence::compute(&g, 12).unwrap();
        let ends = convention(false);
        let mut brute = Brute::new(&left, &right, &ends);
        for n in 0..=12u64 {
            let p = if n == 0 { vec![] } else { vec![n] };
            prop_assert_eq!(sequence.class(n), Some(brute.class(&p)));
        }
    }

    /// Canonical forms by the definition: a heap minus its form is a second-player win
    /// (played out by the literal recursion over the heap and the form's tree), and
    /// sums of forms give the recursion's classes.
    #[test]
    fn canonical_forms_by_the_definition(
        left in one_heap_rules(), right in one_heap_rules(), heaps in heaps_of(3, 5),
    ) {
        let g = game(&left, &right, false);
        let mut forms = HeapForms::new(&g, 100_000, usize::MAX).unwrap();
        let ends = convention(false);
        let mut brute = Brute::new(&left, &right, &ends);
        for n in 0..=6u64 {
            let form = forms.form(n).unwrap().unwrap();
            let store = forms.store();
            let mut memo = HashMap::new();
            let p = if n == 0 { vec![] } else { vec![n] };
            for s in 0..2 {
                prop_assert!(!minus_form_wins(&brute, store, s, &p, form, &mut memo), "heap {} of {}", n, g.spec());
            }
        }
        let sum = forms.sum(&heaps).unwrap().unwrap();
        prop_assert_eq!(forms.class(sum), brute.class(&heaps));
    }

    /// Impartial games written as partizan ones with equal moves give today's answers:
    /// class N exactly where the impartial chain says safe, P where unsafe.
    #[test]
    fn equal_moves_give_the_impartial_answers(
        rules in one_heap_rules(), misere in any::<bool>(), heaps in heaps_of(3, 7),
    ) {
        let g = game(&rules, &rules, misere);
        let mut impartial = sicher::resolve(&rules.spec()).unwrap();
        if misere {
            impartial = impartial.with_convention(sicher::game::Convention::Misere);
        }
        let mut today = Chain::new(&impartial, &Policy::default()).unwrap();
        let position = Position::new(heaps);
        let safe = today.answer(&position, Query::default()).unwrap().value.is_win();
        let mut chain = PartizanChain::new(&g, PartizanPolicy { sequence_limit: 12, ..PartizanPolicy::default() }).unwrap();
        let class = chain.class(&position).unwrap().0;
        prop_assert_eq!(class, if safe { OutcomeClass::N } else { OutcomeClass::P });
    }
}

/// Does player `s` (0 Left) to move win the sum of the position `p` and the negative of
/// the form `f`, in normal play? Left's moves in `-f` are the negatives of `f`'s Right
/// options, and Right's the negatives of its Left options.
fn minus_form_wins(
    brute: &Brute,
    store: &GameStore,
    s: usize,
    p: &[u64],
    f: GameId,
    memo: &mut HashMap<(Vec<u64>, GameId, usize), bool>,
) -> bool {
    let key = (p.to_vec(), f, s);
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let in_heaps = brute.z(s, p);
    let in_form: Vec<GameId> = if s == 0 {
        store.right(f)
    } else {
        store.left(f)
    }
    .to_vec();
    let win = in_heaps
        .iter()
        .any(|q| !minus_form_wins(brute, store, 1 - s, q, f, memo))
        || in_form
            .iter()
            .any(|&g| !minus_form_wins(brute, store, 1 - s, p, g, memo));
    memo.insert(key, win);
    win
}

/// CGSuite's own test: PartizanSubtraction([1,3],[2,3]) at heap 6.
#[test]
fn cgsuite_value_of_partizan_subtraction_at_six() {
    let g = parse_partizan_spec("partizan-subtraction:1,3/2,3").unwrap();
    let mut chain = PartizanChain::new(&g, PartizanPolicy::default()).unwrap();
    assert_eq!(
        chain.canonical(6).unwrap().unwrap(),
        "{1|1,{1|0}||0,{1|0}|0|||0,{1|0}|0}"
    );
}

/// A terminal script: a player who faces only heaps smaller than 2 loses; Left takes 1
/// or 2, Right takes 1 or 3.
const SCRIPTED: &str = r#"
name = "small-heaps-lose"
rules = "script"
options = """
fn options(n, player) {
    let takes = if player == "left" { [1, 2] } else { [1, 3] };
    let out = [];
    for t in takes { if t <= n { out.push([n - t]); } }
    out
}
fn terminal(heaps, player) {
    for h in heaps { if h >= 2 { return (); } }
    "lose"
}
"""
"#;

#[test]
fn scripted_terminal_rules_follow_the_recursion() {
    let g = parse_partizan_description(SCRIPTED, "small.toml").unwrap();
    assert!(matches!(g.terminal, Terminal::Script(_)));
    let left = Rules::Subtraction(vec![1, 2]);
    let right = Rules::Subtraction(vec![1, 3]);
    let ends = |p: &[u64], _: usize, stuck: bool| {
        // Only small heaps left, or no move: the player to move loses.
        (p.iter().all(|&h| h < 2) || stuck).then_some(false)
    };
    let mut brute = Brute::new(&left, &right, &ends);
    let mut chain = PartizanChain::new(
        &g,
        PartizanPolicy {
            sequence_limit: 10,
            ..PartizanPolicy::default()
        },
    )
    .unwrap();
    assert!(
        !chain.sequence().unwrap().proved,
        "a terminal script's period is never proved"
    );
    for heaps in [
        vec![],
        vec![1],
        vec![2],
        vec![5],
        vec![1, 1, 4],
        vec![3, 4],
        vec![2, 6, 7],
    ] {
        let position = Position::new(heaps.clone());
        assert_eq!(
            chain.class(&position).unwrap().0,
            brute.class(&heaps),
            "{heaps:?}"
        );
        for (s, player) in players() {
            let answer = chain.answer(&position, player, Query::default()).unwrap();
            assert_eq!(answer.win, brute.sicher(s, &heaps), "{heaps:?} {player:?}");
        }
    }
}

#[test]
fn sources_are_named_and_large_heaps_answered_by_the_period() {
    let g = parse_partizan_spec("partizan-subtraction:1,3/2,3").unwrap();
    let mut chain = PartizanChain::new(&g, PartizanPolicy::default()).unwrap();
    let (class, source) = chain
        .class(&Position::new(vec![1_000_000_000_000]))
        .unwrap();
    assert_eq!(source, PartizanSource::OutcomePeriod);
    let small = chain.sequence().unwrap();
    let n = small.preperiod + (1_000_000_000_000 - small.preperiod) % small.period;
    assert_eq!(Some(class), small.class(n));
    let (_, source) = chain.class(&Position::new(vec![5, 6, 7])).unwrap();
    assert_eq!(source, PartizanSource::CanonicalForms);
    // With a bound too small for any sum, the search answers.
    let mut tight = PartizanChain::new(
        &g,
        PartizanPolicy {
            form_limit: 4,
            ..PartizanPolicy::default()
        },
    )
    .unwrap();
    let (tight_class, source) = tight.class(&Position::new(vec![5, 6, 7])).unwrap();
    assert_eq!(source, PartizanSource::Search);
    assert_eq!(
        tight_class,
        chain.class(&Position::new(vec![5, 6, 7])).unwrap().0
    );
}

/// `--no-move` leaves the winning move unknown: a win is then said without claiming the
/// player has no move (it once read "Left has no move, which wins here" for 20 20 20 of
/// 0.777/0.777, where Left wins by moving to 9 9 20 20). A misère position with no move
/// still says so when the move is asked for.
#[test]
fn no_move_does_not_claim_the_player_has_none() {
    let game = "partizan-octal:0.777/0.777";
    let (code, out, err) = common::run(&["check", game, "20", "20", "20", "--left"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("winning move: to "), "{out}");
    let (code, out, err) = common::run(
        &["check", game, "20", "20", "20", "--left", "--no-move"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("20 20 20: safe: Left, to move, wins"),
        "{out}"
    );
    assert!(!out.contains("no move"), "{out}");
    let (code, out, err) = common::run(
        &[
            "check",
            "partizan-subtraction:1,3/2,3",
            "0",
            "--left",
            "--misere",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Left has no move, which wins here"), "{out}");
}

#[test]
fn check_and_solve_on_the_command_line() {
    let (code, out, err) = common::run(
        &["check", "partizan-subtraction:1,3/2,3", "6", "--left"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("6: "), "{out}");
    let (code, out, _) = common::run(&["check", "partizan-subtraction:1,3/2,3", "6"], None);
    assert_eq!(code, 0);
    assert!(out.starts_with("6: class "), "{out}");
    let (code, out, _) = common::run(
        &[
            "check",
            "partizan-subtraction:1,3/2,3",
            "4",
            "5",
            "--right",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0);
    let record: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(record["to_move"], "right");
    assert!(record["win"].is_boolean());
    assert!(record["class"].is_string());
    let (code, out, _) = common::run(
        &["solve", "partizan-subtraction:1,3/2,3", "6", "--canonical"],
        None,
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("canonical form: {1|1,{1|0}||0,{1|0}|0|||0,{1|0}|0}"),
        "{out}"
    );
    assert!(
        out.contains("Left's winning moves") && out.contains("Right's winning moves"),
        "{out}"
    );
    let (code, out, _) = common::run(
        &[
            "solve",
            "partizan-subtraction:1,3/2,3",
            "6",
            "--canonical",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0);
    let record: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(record["canonical"], "{1|1,{1|0}||0,{1|0}|0|||0,{1|0}|0}");
    let (code, out, _) = common::run(&["solve", "partizan-octal:0.7/0.07"], None);
    assert_eq!(code, 0);
    assert!(out.contains("observed") || out.contains("proved"), "{out}");
}

#[test]
fn malformed_input_is_one_line_and_exit_two() {
    for args in [
        &["check", "partizan-subtraction:1,3", "4"][..],
        &["check", "partizan-subtraction:1,x/2", "4"],
        &["check", "partizan-octal:0.8/0.7", "4"],
        &["check", "partizan-foo:1/2", "4"],
        &["check", "partizan:wythoff/nim", "4"],
        &["check", "nim", "4", "--left"],
        &["solve", "nim", "4", "--canonical"],
        &[
            "check",
            "partizan-subtraction:1/2",
            "4",
            "--left",
            "--right",
        ],
    ] {
        let (code, out, err) = common::run(args, None);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
    let dir = tempfile::tempdir().unwrap();
    for (text, says) in [
        ("name = \"x\"\nrules = \"partizan-subtraction\"\nleft = [1]\n", "needs `right`"),
        ("name = \"x\"\nrules = \"partizan-octal\"\nleft = \"0.7\"\nright = [1]\n", "code in quotes"),
        ("name = \"x\"\nrules = \"partizan-subtraction\"\nleft = [0]\nright = [1]\n", "positive"),
        ("name = \"x\"\nrules = \"partizan-subtraction\"\nleft = [1]\nright = [1]\ncode = \"0.7\"\n", "unknown field"),
        ("name = \"x\"\nrules = \"script\"\noptions = \"fn options(n, p) { [] } fn terminal(h) { () }\"\n", "terminal"),
    ] {
        let path = dir.path().join("x.toml");
        std::fs::write(&path, text).unwrap();
        let (code, _, err) = common::run(&["check", path.to_str().unwrap(), "3"], None);
        assert_eq!(code, 2, "{text}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(says), "{text}: {err}");
    }
}

#[test]
fn impartial_output_is_unchanged() {
    // The impartial path never reaches partizan code: the same bytes as before.
    let (code, out, _) = common::run(&["check", "nim", "3", "4", "5"], None);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "3 4 5: safe: the player to move wins (winning move: to 1 4 5)\n"
    );
}

#[test]
fn verify_compares_the_chain_with_the_search() {
    for args in [
        &["verify", "partizan-octal:0.7/0.07", "--total", "9"][..],
        &[
            "verify",
            "partizan-subtraction:1,3/2,3",
            "--heaps",
            "3",
            "--max",
            "8",
            "--misere",
        ],
    ] {
        let (code, out, err) = common::run(args, None);
        assert_eq!(code, 0, "{args:?}: {err}");
        let (agree, of) = out.split_once(" of ").unwrap();
        let agree = agree.rsplit(' ').next().unwrap();
        assert_eq!(agree, of.split(' ').next().unwrap(), "{out}");
    }
}

#[test]
fn picture_draws_the_four_classes() {
    let (code, out, err) = common::run(
        &["picture", "partizan-subtraction:3,5/2,4", "--max", "6"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let g = parse_partizan_spec("partizan-subtraction:3,5/2,4").unwrap();
    let mut chain = PartizanChain::new(&g, PartizanPolicy::default()).unwrap();
    let rows: Vec<&str> = out.lines().skip(1).take(7).collect();
    for (b, row) in rows.iter().enumerate() {
        for (a, letter) in row.chars().enumerate() {
            let class = chain
                .class(&Position::new(vec![a as u64, b as u64]))
                .unwrap()
                .0;
            assert_eq!(letter, class.letter(), "({a}, {b})");
        }
    }
    assert!(out.contains("R: Right wins whoever starts"), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.png");
    let (code, out, err) = common::run(
        &[
            "picture",
            "partizan-octal:0.7/0.07",
            "--max",
            "9",
            "--scale",
            "2",
            "-o",
            path.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("blue: L, Left wins whoever starts"), "{out}");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let reader = decoder.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (20, 20));
}

#[test]
fn plot_draws_the_outcome_sequence() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.png");
    let (code, out, err) = common::run(
        &[
            "plot",
            "partizan-subtraction:3,5/2,4",
            "--max",
            "60",
            "--width",
            "122",
            "--height",
            "10",
            "-o",
            path.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("pre-period 0, period 7, proved"), "{out}");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    reader.next_frame(&mut pixels).unwrap();
    // Heaps 0 and 1 are P (black), heap 2 is R (red): two pixels a heap.
    assert_eq!(&pixels[0..3], &[0, 0, 0]);
    assert_eq!(&pixels[4 * 3..4 * 3 + 3], &[200, 50, 50]);
}

/// Every position of `--total total`, labelled bottom-up for both players.
fn labelled(g: &PartizanGame, total: u64) -> (sicher::Ranker, sicher::label::Sides) {
    let ranker = sicher::Ranker::new(sicher::Domain::Total { total }).unwrap();
    let (sides, resumed) = sicher::label::label_partizan(g, &ranker, None, &|_| {}).unwrap();
    assert_eq!(resumed, 0);
    (ranker, sides)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// The bottom-up labeller agrees with the literal recursion on every position of a
    /// `--total` domain, for both players to move, on random rule pairs (subtraction
    /// and take-and-break, splitting or not) in both conventions.
    #[test]
    fn labeller_agrees_with_the_literal_recursion(
        left in one_heap_rules(), right in one_heap_rules(), misere in any::<bool>(),
    ) {
        let g = game(&left, &right, misere);
        let ends = convention(misere);
        let mut brute = Brute::new(&left, &right, &ends);
        let (ranker, sides) = labelled(&g, 9);
        for rank in 0..ranker.count() {
            let p = ranker.unrank(rank);
            for (s, player) in players() {
                prop_assert_eq!(sides.wins(rank, player), brute.sicher(s, p.heaps()), "{} {:?} of {}", p, player, g.spec());
            }
        }
    }

    /// Impartial games written as partizan ones with equal moves label as the impartial
    /// labeller does: both players win exactly where the position is safe (class N, else
    /// P).
    #[test]
    fn equal_moves_label_as_the_impartial_labeller(
        rules in one_heap_rules(), misere in any::<bool>(),
    ) {
        let g = game(&rules, &rules, misere);
        let mut impartial = sicher::resolve(&rules.spec()).unwrap();
        if misere {
            impartial = impartial.with_convention(sicher::game::Convention::Misere);
        }
        let (ranker, sides) = labelled(&g, 14);
        let labels = sicher::label::label(&impartial, &ranker, sicher::label::Strategy::Forward, &|_| {}).unwrap();
        for rank in 0..ranker.count() {
            let want = if labels.is_safe(rank) { OutcomeClass::N } else { OutcomeClass::P };
            prop_assert_eq!(sides.class(rank), want, "{}", ranker.unrank(rank));
        }
    }
}

/// The labeller follows a script's terminal rule (`t` and `g` beyond "no move"), as the
/// literal recursion does.
#[test]
fn labeller_follows_a_scripted_terminal_rule() {
    let g = parse_partizan_description(SCRIPTED, "small.toml").unwrap();
    let left = Rules::Subtraction(vec![1, 2]);
    let right = Rules::Subtraction(vec![1, 3]);
    let ends =
        |p: &[u64], _: usize, stuck: bool| (p.iter().all(|&h| h < 2) || stuck).then_some(false);
    let mut brute = Brute::new(&left, &right, &ends);
    let (ranker, sides) = labelled(&g, 14);
    for rank in 0..ranker.count() {
        let p = ranker.unrank(rank);
        for (s, player) in players() {
            assert_eq!(
                sides.wins(rank, player),
                brute.sicher(s, p.heaps()),
                "{p} {player:?}"
            );
        }
    }
    // verify's own literal recursion and the search agree with the labels too.
    let compared =
        sicher::verify::compare_partizan_labels(&g, &ranker, &sides, 0..ranker.count(), &mut || {})
            .unwrap();
    assert_eq!(compared.search_agreements, ranker.count());
    assert_eq!(compared.literal_agreements, ranker.count());
}

/// A partizan table round-trips both labels, stands alone (its terminal script carried),
/// and a labelling resumes from its work directory with the same labels.
#[test]
fn partizan_tables_round_trip_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let g = parse_partizan_description(SCRIPTED, "small.toml").unwrap();
    let (ranker, sides) = labelled(&g, 16);
    let path = dir.path().join("p.table");
    let work =
        sicher::label::WorkDir::beside(&path).checkpoint_every(Some(std::time::Duration::ZERO));
    let (first, resumed) =
        sicher::label::label_partizan(&g, &ranker, Some(&work), &|_| {}).unwrap();
    assert_eq!((first.clone(), resumed), (sides.clone(), 0));
    // The work directory stays until the caller removes it: a second run finds every
    // tier done.
    let (again, resumed) =
        sicher::label::label_partizan(&g, &ranker, Some(&work), &|_| {}).unwrap();
    assert_eq!((again, resumed), (sides.clone(), ranker.count()));
    work.remove().unwrap();
    let built = sicher::build::build_partizan(
        &g,
        ranker.domain(),
        &path,
        sicher::table::Storage::Compressed,
        sicher::atomic_file::Replace::Never,
        false,
        None,
        Some(2),
        &|_| {},
    )
    .unwrap();
    assert_eq!(built.header.version, sicher::table::CARRYING_FORMAT_VERSION);
    let table = sicher::Table::open(&path).unwrap();
    table.verify().unwrap();
    let held = table.partizan().unwrap();
    assert_eq!(held.spec(), g.spec());
    assert_eq!(held.terminal.name(), g.terminal.name());
    for rank in 0..ranker.count() {
        let p = ranker.unrank(rank);
        assert_eq!(table.class(&p).unwrap(), sides.class(rank), "{p}");
    }
}

#[test]
fn partizan_tables_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.table");
    let path = file.to_str().unwrap();
    let game = "partizan-octal:0.7/0.07";
    let (code, out, err) = common::run(
        &["table", game, "--total", "18", "-o", path, "--quiet"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("labelled for both players to move"), "{out}");
    let positions = "6\n3 4\n1 2 5\n9 9\n";
    for side in [&[][..], &["--left"], &["--right"]] {
        let mut from_table = vec!["check", "--table", path, "--json", "--no-move"];
        from_table.extend_from_slice(side);
        let mut from_search = vec!["check", game, "--json", "--no-move"];
        from_search.extend_from_slice(side);
        let (code, table_out, err) = common::run(&from_table, Some(positions));
        assert_eq!(code, 0, "{err}");
        let (code, search_out, err) = common::run(&from_search, Some(positions));
        assert_eq!(code, 0, "{err}");
        let verdicts = |text: &str| -> Vec<(String, Option<bool>)> {
            text.lines()
                .map(|l| {
                    let v: serde_json::Value = serde_json::from_str(l).unwrap();
                    (v["class"].as_str().unwrap().to_string(), v["win"].as_bool())
                })
                .collect()
        };
        assert_eq!(verdicts(&table_out), verdicts(&search_out), "{side:?}");
        assert!(table_out.contains("\"source\":\"table\""), "{table_out}");
    }
    // A winning move from the table is a move to a position the opponent loses.
    let (code, out, err) = common::run(&["check", "--table", path, "6", "7", "--left"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("6 7: "), "{out}");
    let (code, out, err) = common::run(&["info", path, "--verify", "--json"], None);
    assert_eq!(code, 0, "{err}");
    let info: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(info["kind"], "partizan outcomes");
    assert_eq!(info["format_version"], 4);
    let classes = &info["classes"];
    let sum: u64 = ["L", "R", "N", "P"]
        .iter()
        .map(|c| classes[c].as_u64().unwrap())
        .sum();
    assert_eq!(sum, info["entries"].as_u64().unwrap());
    let (code, out, err) = common::run(&["list", path, "--limit", "3"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 4, "{out}");
    assert!(out.contains("(no heaps): class P"), "{out}");
    // The wrong game beside the table, a filter of impartial tables: one line, exit 2.
    let (code, _, err) = common::run(
        &["check", "partizan-octal:0.7/0.7", "--table", path, "3"],
        None,
    );
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    let (code, _, err) = common::run(&["list", path, "--safe"], None);
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    let (code, _, err) = common::run(
        &["table", game, "--total", "8", "--remoteness", "-o", path],
        None,
    );
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    // A terminal script's table answers without its description.
    let described = dir.path().join("small.toml");
    std::fs::write(&described, SCRIPTED).unwrap();
    let scripted = dir.path().join("s.table");
    let (code, _, err) = common::run(
        &[
            "table",
            described.to_str().unwrap(),
            "--total",
            "20",
            "-o",
            scripted.to_str().unwrap(),
            "--quiet",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    std::fs::remove_file(&described).unwrap();
    let (code, alone, err) = common::run(
        &["check", "--table", scripted.to_str().unwrap(), "--json"],
        Some(positions),
    );
    assert_eq!(code, 0, "{err}");
    std::fs::write(&described, SCRIPTED).unwrap();
    let (code, searched, err) = common::run(
        &["check", described.to_str().unwrap(), "--json"],
        Some(positions),
    );
    assert_eq!(code, 0, "{err}");
    let classes = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["class"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    assert_eq!(classes(&alone), classes(&searched));
}

/// A cancelled handle ends every partizan long call with `Interrupted`, quickly: the
/// labeller (between tiers), the outcome sequence's search, canonical forms, the search
/// and the chain; a handle cancelled from another thread stops a labelling under way.
#[test]
fn a_cancelled_handle_ends_every_partizan_long_call() {
    use sicher::error::ErrorKind;
    use sicher::Cancel;
    use std::time::{Duration, Instant};
    let interrupted = |kind: ErrorKind| kind == ErrorKind::Interrupted;
    let splitting = parse_partizan_spec("partizan-octal:0.77/0.07").unwrap();
    let cancelled = Cancel::new();
    cancelled.cancel();
    let ranker = sicher::Ranker::new(sicher::domain::Domain::Total { total: 40 }).unwrap();
    let error =
        sicher::label::label_partizan_cancellable(&splitting, &ranker, None, &|_| {}, &cancelled)
            .unwrap_err();
    assert!(interrupted(error.kind()), "{error}");
    let error = OutcomeSequence::compute_cancellable(&splitting, 64, &cancelled).unwrap_err();
    assert!(interrupted(error.kind()), "{error}");
    let mut solver = PartizanSolver::new(&splitting);
    solver.set_cancel(cancelled.clone());
    let error = solver.wins(&[12, 13, 14], Player::Left).unwrap_err();
    assert!(interrupted(error.kind()), "{error}");
    let mut forms = HeapForms::new(&splitting, 200_000, 4096).unwrap();
    forms.set_cancel(cancelled.clone());
    let error = forms.form(20).unwrap_err();
    assert!(interrupted(error.kind()), "{error}");
    let error = PartizanChain::new_cancellable(&splitting, PartizanPolicy::default(), &cancelled)
        .err()
        .expect("a cancelled chain");
    assert!(interrupted(error.kind()), "{error}");
    // A chain answers again once a fresh handle is set, as an uncancelled one does.
    let mut chain = PartizanChain::new(&splitting, PartizanPolicy::default()).unwrap();
    chain.set_cancel(cancelled.clone());
    let position = Position::new(vec![12, 13, 14]);
    let error = chain.class(&position).unwrap_err();
    assert!(interrupted(error.kind()), "{error}");
    chain.set_cancel(Cancel::new());
    let mut fresh = PartizanChain::new(&splitting, PartizanPolicy::default()).unwrap();
    assert_eq!(
        chain.class(&Position::new(vec![5, 6])).unwrap(),
        fresh.class(&Position::new(vec![5, 6])).unwrap()
    );
    // Cancelled from another thread while labelling: it stops within a tier or two.
    let cancel = Cancel::new();
    let ranker = sicher::Ranker::new(sicher::domain::Domain::Total { total: 70 }).unwrap();
    let started = Instant::now();
    let result = std::thread::scope(|scope| {
        let alarm = cancel.clone();
        scope.spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            alarm.cancel();
        });
        sicher::label::label_partizan_cancellable(&splitting, &ranker, None, &|_| {}, &cancel)
    });
    let error = result.expect_err("a labelling of 70 tokens outlasts 0.1 s");
    assert!(interrupted(error.kind()), "{error}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

/// `check` on a partizan game with no proved period (a splitting code) searches lone
/// heaps only within a budget for the observed sequence (it searched every lone heap up
/// to 64 first, 8.9 s), and answers as the definition does.
#[test]
fn check_of_a_splitting_partizan_game_is_quick_and_right() {
    use std::time::{Duration, Instant};
    let started = Instant::now();
    let output = std::process::Command::new(common::sicher_bin())
        .args(["check", "partizan-octal:0.77/0.07", "5"])
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "5: class L: Left wins whoever starts\n"
    );
    assert!(elapsed < Duration::from_secs(4), "{elapsed:?}");
    let g = parse_partizan_spec("partizan-octal:0.77/0.07").unwrap();
    let chain = PartizanChain::new(&g, PartizanPolicy::default()).unwrap();
    let sequence = chain.sequence().unwrap();
    assert!(!sequence.proved);
    assert!(sequence.outcomes.len() >= 8 && sequence.outcomes.len() <= 65);
    // The observed heaps agree with a fresh search of each.
    let mut solver = PartizanSolver::new(&g);
    for (n, &(left, right)) in sequence.outcomes.iter().enumerate() {
        let heaps: Vec<u64> = if n == 0 { vec![] } else { vec![n as u64] };
        assert_eq!(solver.wins(&heaps, Player::Left).unwrap(), left, "{n}");
        assert_eq!(solver.wins(&heaps, Player::Right).unwrap(), right, "{n}");
    }
}

/// The search's tables keep their bound: with room for a few hundred entries they are
/// emptied again and again, and every verdict and remoteness is still the unbounded
/// search's (a check of misère 0.777/0.7777 at 25 26 27 28 once held 3.6 GB after ten
/// minutes, past its time limit).
#[test]
fn the_partizan_search_keeps_its_table_bound_and_its_answers() {
    let game = parse_partizan_spec("partizan-octal:0.777/0.7777").unwrap();
    let mut unbounded = PartizanSolver::new(&game);
    let mut bounded = PartizanSolver::new(&game);
    bounded.set_table_bytes(16 << 10);
    for heaps in [vec![5, 6, 7], vec![3, 9, 10], vec![12, 13]] {
        for player in [Player::Left, Player::Right] {
            assert_eq!(
                bounded.wins(&heaps, player).unwrap(),
                unbounded.wins(&heaps, player).unwrap(),
                "{heaps:?} {player:?}"
            );
        }
    }
    // The valued search visits every child, so a table emptied often costs it far more
    // than the verdict's: small positions only.
    for heaps in [vec![2, 3, 4], vec![1, 6], vec![7]] {
        for player in [Player::Left, Player::Right] {
            assert_eq!(
                bounded.remoteness(&heaps, player, 1 << 20).unwrap(),
                unbounded.remoteness(&heaps, player, 1 << 20).unwrap(),
                "{heaps:?} {player:?}"
            );
        }
    }
    assert!(bounded.table_clears() > 0, "the bound was never reached");
    assert_eq!(unbounded.table_clears(), 0);
    assert!(
        bounded.table_entries() * 48 <= 16 << 10,
        "{}",
        bounded.table_entries()
    );
}

/// `check --hash` bounds a partizan search's tables as it bounds the impartial one's,
/// and `--time-limit` ends it with the usual line.
#[test]
fn check_keeps_hash_and_time_limit_on_partizan_games() {
    let started = std::time::Instant::now();
    let (code, out, err) = common::run(
        &[
            "check",
            "partizan-octal:0.777/0.7777",
            "25",
            "26",
            "27",
            "28",
            "--left",
            "--misere",
            "--no-move",
            "--hash",
            "8",
            "--time-limit",
            "2",
        ],
        None,
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("no answer for position 25 26 27 28 within the time limit of 2 s"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    let small = [
        "check",
        "partizan-octal:0.777/0.7777",
        "5",
        "6",
        "7",
        "--left",
        "--misere",
    ];
    let (code, bounded, err) = common::run(&[&small[..], &["--hash", "1"]].concat(), None);
    assert_eq!(code, 0, "{err}");
    let (_, unbounded, _) = common::run(&small, None);
    assert_eq!(bounded, unbounded);
}
