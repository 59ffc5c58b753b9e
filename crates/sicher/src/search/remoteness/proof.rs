//! Ordering efficiency: nodes searched against the nodes of the proof tree found.
//!
//! Knuth and Moore's minimal tree is what alpha-beta expands when every first move it
//! tries is good enough: to prove `score(p) >= g` it needs one child proved low
//! enough, to prove `score(p) <= g` every child proved high enough. The proof tree
//! found is that tree with, at every "one child" node, the child the search found: the
//! first (in generation order) whose stored upper bound proves the claim, or when the
//! table has dropped it, the first (in position order) a null-window test proves. Its
//! size counts distinct positions with a move, as the search counts expansions.
//! Claims that the outcome alone settles, where theory knows it exactly, need no node.
//! Searched nodes over that count is the ordering efficiency: 1.0 would mean every
//! node searched was needed; moves tried before the one that worked, and re-searches,
//! raise it.

use std::ops::ControlFlow;

use hashbrown::HashMap;

use super::child_thresholds;
use super::score::{Score, MAX, MIN};
use super::RemotenessSolver;
use crate::game::Position;
use crate::search::key::{BuildKeyHasher, Key};

/// What a proof node must show.
#[derive(Clone, Copy, Debug)]
enum Claim {
    /// The score is at least this: one child suffices.
    AtLeast(Score),
    /// The score is at most this: every child is needed.
    AtMost(Score),
}

impl Claim {
    /// True when every score within `(least, most)`, the bounds theory gives the
    /// position, satisfies the claim.
    fn is_trivial(self, (least, most): (Score, Score)) -> bool {
        match self {
            Claim::AtLeast(gamma) => gamma <= least,
            Claim::AtMost(gamma) => gamma >= most,
        }
    }

    /// True when `shown` (the strongest claims of each kind already expanded at a
    /// position) already covers this one.
    fn covered_by(self, shown: (Score, Score)) -> bool {
        match self {
            Claim::AtLeast(gamma) => gamma <= shown.0,
            Claim::AtMost(gamma) => gamma >= shown.1,
        }
    }
}

impl RemotenessSolver {
    /// Positions with a move in the proof tree found for `position`'s score (see the
    /// module doc). Runs searches of its own: read [`RemotenessSolver::stats`] before.
    pub fn proof_size(&mut self, position: &Position) -> u64 {
        let score = self.score(position);
        let root = self.engine.canonical(position);
        let mut shown: HashMap<Key, (Score, Score), BuildKeyHasher> = HashMap::default();
        let mut work = vec![
            (root.clone(), Claim::AtLeast(score)),
            (root, Claim::AtMost(score)),
        ];
        while let Some((position, claim)) = work.pop() {
            let key = self.engine.key(&position);
            if key.is_empty() || claim.is_trivial(self.engine.theory_bounds(&position)) {
                continue;
            }
            let strongest = shown.entry(key).or_insert((MIN, MAX));
            if claim.covered_by(*strongest) {
                continue;
            }
            match claim {
                Claim::AtLeast(gamma) => strongest.0 = gamma,
                Claim::AtMost(gamma) => strongest.1 = gamma,
            }
            let heaps = position.heaps();
            let game = self.engine.game();
            match claim {
                Claim::AtLeast(gamma) => {
                    let at_most = child_thresholds(gamma).0;
                    let mut witness = None;
                    self.engine
                        .for_each_child(heaps, key, |child, removed, added| {
                            if self.engine.stored(child).1 > at_most {
                                return ControlFlow::Continue(());
                            }
                            witness = Some(game.apply(&position, removed, added));
                            ControlFlow::Break(())
                        });
                    let witness = match witness {
                        Some(witness) => witness,
                        None => {
                            let mut children = game.children_prepared(&position);
                            children.sort();
                            let found = self.first_at_most(&children, at_most);
                            found.expect("a claim that holds has a witness").clone()
                        }
                    };
                    let witness = self.engine.canonical(&witness);
                    work.push((witness, Claim::AtMost(at_most)));
                }
                Claim::AtMost(gamma) => {
                    let claim = Claim::AtLeast(child_thresholds(gamma).1);
                    let mut pending = Vec::new();
                    self.engine
                        .for_each_child(heaps, key, |child, removed, added| {
                            let skip = child.is_empty()
                                || shown.get(&child).is_some_and(|&s| claim.covered_by(s));
                            if !skip {
                                pending.push(game.apply(&position, removed, added));
                            }
                            ControlFlow::Continue(())
                        });
                    for child in pending {
                        let child = self.engine.canonical(&child);
                        work.push((child, claim));
                    }
                }
            }
        }
        shown.len() as u64
    }
}
