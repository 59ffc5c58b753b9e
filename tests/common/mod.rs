//! An independent, obviously-correct reference for the test suites.
//!
//! It shares nothing with sicher's move generators: each ruleset's moves are written
//! out again from the rules as stated, in the plainest way (all orders, duplicates
//! and all), and outcomes come from plain memoised recursion over every move.

#![allow(dead_code)]

use std::collections::HashMap;

use proptest::prelude::*;

/// A ruleset as the reference understands it.
#[derive(Clone, Debug)]
pub enum Rules {
    /// Take-and-break code: `digits[t]` for t = 0.., `repeat` repeats the last digit.
    Code {
        hex: bool,
        digits: Vec<u8>,
        repeat: bool,
    },
    Subtraction(Vec<u64>),
    Nim,
    Grundy,
    Wythoff,
    Moore(usize),
}

impl Rules {
    /// The inline spec sicher reads for the same rules.
    pub fn spec(&self) -> String {
        match self {
            Rules::Code {
                hex,
                digits,
                repeat,
            } => {
                let mut text = format!("{}:{:X}.", if *hex { "hex" } else { "octal" }, digits[0]);
                for (t, d) in digits.iter().enumerate().skip(1) {
                    if *repeat && t + 1 == digits.len() {
                        text += &format!("[{d:X}]");
                    } else {
                        text += &format!("{d:X}");
                    }
                }
                text
            }
            Rules::Subtraction(set) => {
                let list: Vec<String> = set.iter().map(|s| s.to_string()).collect();
                format!("subtraction:{}", list.join(","))
            }
            Rules::Nim => "nim".into(),
            Rules::Grundy => "grundy".into(),
            Rules::Wythoff => "wythoff".into(),
            Rules::Moore(k) => format!("moore:{k}"),
        }
    }

    fn digit(&self, t: u64) -> u8 {
        match self {
            Rules::Code { digits, repeat, .. } => match digits.get(t as usize) {
                Some(&d) => d,
                None if *repeat => *digits.last().unwrap(),
                None => 0,
            },
            _ => 0,
        }
    }

    /// What a lone heap of size `h` can become (lists of heaps, zeros allowed).
    fn heap_results(&self, h: u64) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        match self {
            Rules::Nim | Rules::Wythoff | Rules::Moore(_) => {
                for left in 0..h {
                    out.push(vec![left]);
                }
            }
            Rules::Subtraction(set) => {
                for &s in set {
                    if s <= h {
                        out.push(vec![h - s]);
                    }
                }
            }
            Rules::Grundy => {
                for a in 1..h {
                    if a != h - a {
                        out.push(vec![a, h - a]);
                    }
                }
            }
            Rules::Code { .. } => {
                for t in 0..=h {
                    let d = self.digit(t);
                    let rest = h - t;
                    if d & 1 != 0 && t > 0 && rest == 0 {
                        out.push(vec![]);
                    }
                    if d & 2 != 0 && t > 0 && rest > 0 {
                        out.push(vec![rest]);
                    }
                    if d & 4 != 0 {
                        for a in 1..rest {
                            out.push(vec![a, rest - a]);
                        }
                    }
                    if d & 8 != 0 {
                        for a in 1..rest {
                            for b in 1..rest - a {
                                out.push(vec![a, b, rest - a - b]);
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Every child of a position, canonical (sorted, no zeros), duplicates allowed.
    pub fn children(&self, position: &[u64]) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        let n = position.len();
        for i in 0..n {
            for result in self.heap_results(position[i]) {
                let mut child: Vec<u64> = position.to_vec();
                child.remove(i);
                child.extend(result);
                out.push(canon(child));
            }
        }
        match self {
            Rules::Wythoff => {
                for i in 0..n {
                    for j in 0..n {
                        if i == j {
                            continue;
                        }
                        for d in 1..=position[i].min(position[j]) {
                            let mut child = position.to_vec();
                            child[i] -= d;
                            child[j] -= d;
                            out.push(canon(child));
                        }
                    }
                }
            }
            Rules::Moore(k) => {
                // Every vector below the position in 1..=k places, by counting.
                let total: u64 = position.iter().map(|&h| h + 1).product();
                for code in 0..total {
                    let mut rest = code;
                    let child: Vec<u64> = position
                        .iter()
                        .map(|&h| {
                            let v = rest % (h + 1);
                            rest /= h + 1;
                            v
                        })
                        .collect();
                    let changed = child.iter().zip(position).filter(|(c, p)| c != p).count();
                    if changed >= 2 && changed <= *k {
                        out.push(canon(child));
                    }
                }
            }
            _ => {}
        }
        out
    }
}

/// Sorted, zeros dropped.
pub fn canon(mut heaps: Vec<u64>) -> Vec<u64> {
    heaps.retain(|&h| h > 0);
    heaps.sort();
    heaps
}

/// The reference outcome: true when the player to move wins.
pub struct Reference {
    pub rules: Rules,
    pub misere: bool,
    memo: HashMap<Vec<u64>, bool>,
}

impl Reference {
    pub fn new(rules: Rules, misere: bool) -> Self {
        Reference {
            rules,
            misere,
            memo: HashMap::new(),
        }
    }

    pub fn win(&mut self, position: &[u64]) -> bool {
        let position = canon(position.to_vec());
        if let Some(&win) = self.memo.get(&position) {
            return win;
        }
        let children = self.rules.children(&position);
        let win = if children.is_empty() {
            self.misere
        } else {
            children.iter().any(|child| !self.win(child))
        };
        self.memo.insert(position, win);
        win
    }
}

/// The reference remoteness, straight from its definition: a position with no move has
/// remoteness 0 (lost in normal play, won in misère play); otherwise it is won when some
/// child is lost, with 1 + the smallest remoteness of its lost children, and lost
/// otherwise, with 1 + the largest remoteness of its children.
pub struct RemotenessReference {
    pub rules: Rules,
    pub misere: bool,
    memo: HashMap<Vec<u64>, (bool, u32)>,
}

impl RemotenessReference {
    pub fn new(rules: Rules, misere: bool) -> Self {
        RemotenessReference {
            rules,
            misere,
            memo: HashMap::new(),
        }
    }

    /// (true when the player to move wins, remoteness).
    pub fn value(&mut self, position: &[u64]) -> (bool, u32) {
        let position = canon(position.to_vec());
        if let Some(&known) = self.memo.get(&position) {
            return known;
        }
        let children = self.rules.children(&position);
        let values: Vec<(bool, u32)> = children.iter().map(|c| self.value(c)).collect();
        let lost_children = values.iter().filter(|(win, _)| !win).map(|&(_, r)| r);
        let result = if values.is_empty() {
            (self.misere, 0)
        } else if let Some(fastest) = lost_children.min() {
            (true, 1 + fastest)
        } else {
            (false, 1 + values.iter().map(|&(_, r)| r).max().unwrap())
        };
        self.memo.insert(position, result);
        result
    }

    /// Every child once, with its value, in the order a remoteness-optimal player
    /// prefers them: lost children by increasing remoteness, then won children by
    /// decreasing remoteness, ties by position.
    pub fn ranked_children(&mut self, position: &[u64]) -> Vec<(Vec<u64>, (bool, u32))> {
        let mut children = self.rules.children(&canon(position.to_vec()));
        children.sort();
        children.dedup();
        let mut ranked: Vec<(Vec<u64>, (bool, u32))> = children
            .into_iter()
            .map(|c| {
                let v = self.value(&c);
                (c, v)
            })
            .collect();
        ranked.sort_by(|(p, (win_p, r_p)), (q, (win_q, r_q))| {
            let rank = |win: bool, r: u32| if win { (1, u32::MAX - r) } else { (0, r) };
            rank(*win_p, *r_p).cmp(&rank(*win_q, *r_q)).then(p.cmp(q))
        });
        ranked
    }
}

/// Misère positions whose search fills a 256 KiB table's growing map mid-search, so
/// that the table moves into its fixed array and replaces entries there.
pub fn bound_crossing_positions() -> Vec<(sicher::game::Game, sicher::game::Position)> {
    [
        ("kayles", vec![9, 11, 14]),
        ("dawson-kayles", vec![10, 13, 17]),
    ]
    .into_iter()
    .map(|(rules, heaps)| {
        let game = sicher::game::resolve(rules)
            .unwrap()
            .with_convention(sicher::game::Convention::Misere);
        (game, sicher::game::Position::new(heaps))
    })
    .collect()
}

/// Path of the built binary.
pub fn sicher_bin() -> &'static str {
    env!("CARGO_BIN_EXE_sicher")
}

/// Runs the binary with arguments and optional stdin; returns (exit code, stdout, stderr).
pub fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(sicher_bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sicher");
    {
        let mut input = child.stdin.take().unwrap();
        if let Some(text) = stdin {
            // A command that ends before reading all its input (a game over before the
            // scripted moves run out) closes the pipe: what it printed still counts.
            if let Err(e) = input.write_all(text.as_bytes()) {
                assert_eq!(
                    e.kind(),
                    std::io::ErrorKind::BrokenPipe,
                    "writing stdin: {e}"
                );
            }
        }
    }
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Random rulesets of every kind: short octal codes (some with a repeating last digit),
/// hexadecimal codes, subtraction sets, Nim, Grundy's game, Wythoff and Moore's Nim.
pub fn random_rules() -> impl Strategy<Value = Rules> {
    let octal = (
        prop::sample::select(vec![0u8, 4]),
        prop::collection::vec(0u8..8, 1..4),
        any::<bool>(),
    )
        .prop_map(|(d0, tail, repeat)| {
            let mut digits = vec![d0];
            digits.extend(tail);
            let repeat = repeat && *digits.last().unwrap() != 0;
            Rules::Code {
                hex: false,
                digits,
                repeat,
            }
        });
    let hex = (
        prop::sample::select(vec![0u8, 4, 8]),
        prop::collection::vec(0u8..16, 1..3),
    )
        .prop_map(|(d0, tail)| {
            let mut digits = vec![d0];
            digits.extend(tail);
            Rules::Code {
                hex: true,
                digits,
                repeat: false,
            }
        });
    prop_oneof![
        3 => octal,
        1 => hex,
        1 => prop::collection::btree_set(1u64..6, 1..4).prop_map(|s| Rules::Subtraction(s.into_iter().collect())),
        1 => Just(Rules::Nim),
        1 => Just(Rules::Grundy),
        1 => Just(Rules::Wythoff),
        1 => (1usize..4).prop_map(Rules::Moore),
    ]
}
