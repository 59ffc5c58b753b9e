//! The fuzz target over scripted rules (issue #35): mutated Rhai texts, one and two
//! players, with and without a terminal rule, read as description files through
//! `resolve_any`, as a user's `GAME` argument is.
//!
//! Oracles beyond "no panic": every error is one short line; every execution ends
//! within seconds (the sandbox's limits stop runaway loops, recursion, arrays, strings,
//! maps and numbers); and a script that is accepted answers every small position as
//! `sicher(s, p)` written literally over the script's own moves does, through the
//! answer chain (one player) or the partizan solver (two players).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use sicher::answer::{Chain, Policy, Query};
use sicher::game::partizan::{resolve_any, AnyGame, PartizanGame};
use sicher::game::{Convention, Position};
use sicher::search::PartizanSolver;
use sicher::value::Player;
use std::collections::HashMap;

use super::{mutate, one_line, shape, Mode, Rng, Target};

/// Longest an execution may take: a script that is not stopped by the sandbox's limits
/// within this is a hang.
const MAX_EXECUTION: Duration = Duration::from_secs(10);

/// Largest heap of the positions compared with the literal recursion.
const LARGEST_HEAP: u64 = 6;

/// Pieces of Rhai and of the script protocol, spliced in by the mutator: random bytes
/// seldom make a script that parses, and these reach the interpreter's edges sooner.
const SCRIPT_TOKENS: &[&str] = &[
    "fn options(n) ",
    "fn options(n, player) ",
    "fn terminal(heaps, player) ",
    "fn f(x) { f(x) } ",
    "options",
    "terminal",
    "player",
    "heaps",
    "\"left\"",
    "\"right\"",
    "\"win\"",
    "\"lose\"",
    "()",
    "[]",
    "[[",
    "]]",
    "[n - 1]",
    "[[0]]",
    "{",
    "}",
    "(",
    ")",
    ";",
    "let a = [];",
    "let m = #{};",
    "a.push(n);",
    "m[n.to_string()] = n;",
    "loop { }",
    "while true { }",
    "for i in 0..n ",
    "for i in 0..100000000 ",
    "..=",
    "if n > 2 ",
    "else ",
    "return ",
    "throw \"x\";",
    "n",
    "n - 1",
    "n / 0",
    "n * n * n * n * n",
    "9223372036854775807",
    "-1",
    "0.5",
    "\"s\" + \"s\"",
    "heaps.len()",
    "== ",
    "!= ",
    "&& ",
    "|| ",
    "import \"x\";",
    "eval(\"1\")",
    "print(1);",
];

/// The seeds: the protocol's every form, small and correct.
const SEEDS: &[&str] = &[
    // Kayles, as the shipped kayles-script description writes it.
    "fn options(n) {\n    let out = [];\n    for take in 1..=2 {\n        if take <= n {\n            for left in 0..=(n - take) / 2 {\n                out.push([left, n - take - left]);\n            }\n        }\n    }\n    out\n}\n",
    // A subtraction game {1, 3, 4}.
    "fn options(n) { [1, 3, 4].filter(|s| s <= n).map(|s| [n - s]) }\n",
    // A helper function and a map.
    "fn halves(n) { let m = #{}; m.a = n / 2; [m.a] }\nfn options(n) { if n > 1 { [halves(n), [n - 1]] } else if n == 1 { [[]] } else { [] } }\n",
    // Two players: Left takes 1 or 3, Right takes 2.
    "fn options(n, player) {\n    let takes = if player == \"left\" { [1, 3] } else { [2] };\n    let out = [];\n    for t in takes { if t <= n { out.push([n - t]); } }\n    out\n}\n",
    // A terminal rule: a player who faces only heaps smaller than 2 loses.
    "fn options(n) { if n > 0 { [[n - 1]] } else { [] } }\nfn terminal(heaps, player) {\n    if heaps.all(|h| h < 2) { \"lose\" } else { () }\n}\n",
    // A terminal rule that depends on the player.
    "fn options(n, player) { if n > 1 { [[n - 2], [1, n - 2]] } else { [] } }\nfn terminal(heaps, player) {\n    if heaps.len() > 2 && player == \"right\" { \"win\" } else { () }\n}\n",
];

/// Scripts through a description file and `resolve_any`.
pub(super) struct Scripts {
    /// The description file each execution writes.
    pub(super) path: PathBuf,
}

impl Target for Scripts {
    fn name(&self) -> &'static str {
        "script"
    }

    fn seeds(&self) -> Vec<Vec<u8>> {
        SEEDS.iter().map(|s| s.as_bytes().to_vec()).collect()
    }

    fn mutate(&self, rng: &mut Rng, input: &mut Vec<u8>, other: &[u8]) -> bool {
        for _ in 0..rng.below(3) {
            let token = SCRIPT_TOKENS[rng.below(SCRIPT_TOKENS.len())].as_bytes();
            let at = rng.below(input.len() + 1);
            input.splice(at..at, token.iter().copied());
        }
        if rng.one_in(2) {
            mutate(rng, input, other, Mode::Text, 1 << 14);
        }
        false
    }

    fn run(&mut self, input: &[u8], _: bool) -> String {
        let started = Instant::now();
        let script = String::from_utf8_lossy(input);
        let description = format!(
            "name = \"fuzzed\"\nrules = \"script\"\noptions = {}\n",
            toml_string(&script)
        );
        std::fs::write(&self.path, description).expect("write the description");
        let shape = match resolve_any(&self.path.to_string_lossy()) {
            Ok(AnyGame::Impartial(game)) => one_player(&game),
            Ok(AnyGame::Partizan(game)) => two_players(&game),
            Err(error) => one_line(&error),
        };
        let took = started.elapsed();
        assert!(
            took < MAX_EXECUTION,
            "a script ran {took:?}, past the sandbox's limits"
        );
        shape
    }
}

/// A TOML basic string holding `text` exactly.
fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Every position of at most two heaps up to [`LARGEST_HEAP`].
fn small_positions() -> Vec<Vec<u64>> {
    let mut out = vec![Vec::new()];
    for a in 1..=LARGEST_HEAP {
        out.push(vec![a]);
        for b in a..=LARGEST_HEAP {
            out.push(vec![a, b]);
        }
    }
    out
}

/// An impartial script: the chain's verdicts against the literal recursion.
fn one_player(game: &sicher::Game) -> String {
    // Every engine prepares the rules first; the literal recursion reads the same cache.
    if let Err(error) = game.ruleset.prepare(LARGEST_HEAP * 2) {
        return one_line(&error);
    }
    let mut chain = match Chain::new(game, &Policy::default()) {
        Ok(chain) => chain,
        Err(error) => return one_line(&error),
    };
    let mut memo = HashMap::new();
    for heaps in small_positions() {
        let position = Position::new(heaps);
        let literal = sicher_literal(game, &position, &mut memo);
        match chain.answer(&position, Query::default()) {
            Ok(answer) => assert_eq!(
                answer.value.is_win(),
                literal,
                "{position}: the chain and sicher(p) disagree"
            ),
            Err(error) => return one_line(&error),
        }
    }
    format!("ok:one:{}", shape(&game.ruleset.spec()))
}

/// `sicher(p)` as defined: the player to move wins when some move reaches a losing
/// position; with no move, play has ended and the convention says who won.
fn sicher_literal(
    game: &sicher::Game,
    position: &Position,
    memo: &mut HashMap<Position, bool>,
) -> bool {
    if let Some(&known) = memo.get(position) {
        return known;
    }
    let children = game.children(position).unwrap();
    let win = if children.is_empty() {
        game.convention == Convention::Misere
    } else {
        children
            .iter()
            .any(|child| !sicher_literal(game, child, memo))
    };
    memo.insert(position.clone(), win);
    win
}

/// A partizan script (two players, or a terminal rule): the partizan solver against the
/// literal `sicher(s, p)`.
fn two_players(game: &PartizanGame) -> String {
    if let Err(error) = game.prepare(LARGEST_HEAP * 2) {
        return one_line(&error);
    }
    let mut solver = PartizanSolver::new(game);
    let mut memo = HashMap::new();
    for heaps in small_positions() {
        for player in [Player::Left, Player::Right] {
            let literal = match sicher_two(game, &heaps, player, &mut memo) {
                Ok(win) => win,
                Err(error) => return one_line(&error),
            };
            match solver.wins(&heaps, player) {
                Ok(win) => assert_eq!(
                    win, literal,
                    "{heaps:?} with {player:?} to move: the solver and sicher(s, p) disagree"
                ),
                Err(error) => return one_line(&error),
            }
        }
    }
    format!("ok:two:{}", shape(&game.spec()))
}

/// The seeds' `sicher(s, p) = if t(s, p) then g(s, p) else ∃ q ∈ Z(s, p): ¬sicher(gegner(s), q)`.
fn sicher_two(
    game: &PartizanGame,
    heaps: &[u64],
    player: Player,
    memo: &mut HashMap<(Vec<u64>, Player), bool>,
) -> sicher::Result<bool> {
    let mut key = heaps.to_vec();
    key.sort_unstable();
    if let Some(&known) = memo.get(&(key.clone(), player)) {
        return Ok(known);
    }
    let children = game.children(&key, player);
    let win = match game.terminal(&key, player, || !children.is_empty())? {
        Some(win) => win,
        None => {
            let mut any = false;
            for child in &children {
                if !sicher_two(game, child, player.opponent(), memo)? {
                    any = true;
                    break;
                }
            }
            any
        }
    };
    memo.insert((key, player), win);
    Ok(win)
}
