//! Verifying the engines against each other: the use case behind `sicher verify`. The
//! bottom-up labels of a domain are compared with answers from the top-down side, the
//! search or theory alone, over every position or a reproducible sample; for partizan
//! games, both players' labels against the partizan search and the literal recursion.

use crate::answer::{Chain, Method, Policy, Query, Remoteness};
use crate::domain::{Domain, Ranker};
use crate::error::Result;
use std::collections::HashMap;

use crate::game::partizan::PartizanGame;
use crate::game::{Game, Heap, Position};
use crate::label::{Labels, Sides};
use crate::search::PartizanSolver;
use crate::value::{Outcome, OutcomeClass, Player};

/// The top-down side of a verification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Against {
    /// The boolean alpha-beta search.
    Search,
    /// Sprague-Grundy theory or the misère quotient, without search or tables.
    Theory,
}

impl Against {
    /// `search` or `theory`.
    pub fn name(self) -> &'static str {
        match self {
            Against::Search => "search",
            Against::Theory => "theory",
        }
    }
}

/// What a comparison found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// Positions compared.
    pub checked: u64,
    /// Positions on which both sides agree.
    pub agreements: u64,
    /// The first position on which they disagree, with its bottom-up outcome.
    pub first_disagreement: Option<(Position, Outcome)>,
}

/// The chain that answers the top-down side for positions of `domain`; refused at once
/// (before anything is labelled) where theory cannot answer the game.
pub fn top_down(game: &Game, domain: Domain, against: Against) -> Result<Chain> {
    match against {
        Against::Search => {
            let search_only = Policy {
                method: Method::Search,
                tables_dir: None,
                ..Policy::default()
            };
            Chain::new(game, &search_only)
        }
        Against::Theory => Chain::theory(game, domain.max_heap(), domain.most_heaps()),
    }
}

/// Compares the labels of every position of `ranker`'s domain (or of `sample` positions
/// drawn with `seed`, reproducibly) with `top_down`'s verdicts, calling `progress` once
/// per position compared.
pub fn compare(
    top_down: &mut Chain,
    ranker: &Ranker,
    labels: &Labels,
    sample: Option<u64>,
    seed: u64,
    progress: &mut dyn FnMut(),
) -> Result<Comparison> {
    let count = ranker.count();
    let ranks: Box<dyn Iterator<Item = u64>> = match sample {
        Some(m) if m < count => {
            let mut state = seed;
            Box::new((0..m).map(move |_| splitmix(&mut state) % count))
        }
        _ => Box::new(0..count),
    };
    let verdict = Query {
        best_move: false,
        remoteness: Remoteness::Skip,
    };
    let mut comparison = Comparison {
        checked: sample.map_or(count, |m| m.min(count)),
        agreements: 0,
        first_disagreement: None,
    };
    for rank in ranks {
        let position = ranker.unrank(rank);
        let bottom_up = labels.is_safe(rank);
        if top_down.answer(&position, verdict)?.value.is_win() == bottom_up {
            comparison.agreements += 1;
        } else if comparison.first_disagreement.is_none() {
            comparison.first_disagreement = Some((position, Outcome::from_win(bottom_up)));
        }
        progress();
    }
    Ok(comparison)
}

/// SplitMix64: a tiny, well-mixed generator, enough for a reproducible sample.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seeds' recursion for a partizan game, literally and nothing more:
/// `sicher(s, p) = if t(s, p) then g(s, p) else ∃ q ∈ Z(s, p): ¬sicher(gegner(s), q)`,
/// memoised on (position, player); no heap dropped, no simplification. What `verify`
/// checks the partizan labeller and search against.
pub struct LiteralSicher<'a> {
    game: &'a PartizanGame,
    memo: HashMap<(Vec<Heap>, Player), bool>,
}

impl<'a> LiteralSicher<'a> {
    /// The recursion for `game` (whose options are prepared by the caller up to the
    /// largest heap asked about).
    pub fn new(game: &'a PartizanGame) -> Self {
        LiteralSicher {
            game,
            memo: HashMap::new(),
        }
    }

    /// `sicher(s, p)`: whether `s`, to move at `p`, wins.
    pub fn sicher(&mut self, s: Player, p: &[Heap]) -> Result<bool> {
        let mut key: Vec<Heap> = p.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if let Some(&known) = self.memo.get(&(key.clone(), s)) {
            return Ok(known);
        }
        let game = self.game;
        let win = match game.terminal(&key, s, || game.has_move(&key, s))? {
            Some(g) => g,
            None => {
                let mut win = false;
                for q in game.children(&key, s) {
                    if !self.sicher(s.opponent(), &q)? {
                        win = true;
                        break;
                    }
                }
                win
            }
        };
        self.memo.insert((key, s), win);
        Ok(win)
    }

    /// The outcome class of `p`.
    pub fn class(&mut self, p: &[Heap]) -> Result<OutcomeClass> {
        Ok(OutcomeClass::from_wins(
            self.sicher(Player::Left, p)?,
            self.sicher(Player::Right, p)?,
        ))
    }
}

/// What [`compare_partizan_labels`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartizanLabelComparison {
    /// Positions compared.
    pub checked: u64,
    /// Positions whose labels (both players) the search agrees with.
    pub search_agreements: u64,
    /// Positions whose labels the literal recursion agrees with.
    pub literal_agreements: u64,
    /// The first position where they differ: its class by the labels, by the search and
    /// by the literal recursion.
    pub first_disagreement: Option<(Position, OutcomeClass, OutcomeClass, OutcomeClass)>,
}

/// Compares a partizan game's bottom-up labels of the ranks `ranks` of `ranker`'s
/// domain with the top-down search ([`PartizanSolver`]) and the literal recursion
/// ([`LiteralSicher`]), for both players to move; `progress` is called per position.
pub fn compare_partizan_labels(
    game: &PartizanGame,
    ranker: &Ranker,
    sides: &Sides,
    ranks: impl IntoIterator<Item = u64>,
    progress: &mut dyn FnMut(),
) -> Result<PartizanLabelComparison> {
    game.prepare(ranker.domain().max_heap())?;
    let mut search = PartizanSolver::new(game);
    let mut literal = LiteralSicher::new(game);
    let mut out = PartizanLabelComparison::default();
    for rank in ranks {
        let position = ranker.unrank(rank);
        let labelled = sides.class(rank);
        let searched = search.class(&search.normalize(position.heaps()))?;
        let recursed = literal.class(position.heaps())?;
        out.checked += 1;
        out.search_agreements += u64::from(searched == labelled);
        out.literal_agreements += u64::from(recursed == labelled);
        if (searched != labelled || recursed != labelled) && out.first_disagreement.is_none() {
            out.first_disagreement = Some((position, labelled, searched, recursed));
        }
        progress();
    }
    Ok(out)
}
