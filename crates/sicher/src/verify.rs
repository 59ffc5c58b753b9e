//! Verifying the engines against each other: the use case behind `sicher verify`. The
//! bottom-up labels of a domain are compared with answers from the top-down side, the
//! search or theory alone, over every position or a reproducible sample.

use crate::answer::{Chain, Method, Policy, Query, Remoteness};
use crate::domain::{Domain, Ranker};
use crate::error::Result;
use crate::game::{Game, Position};
use crate::label::Labels;
use crate::value::Outcome;

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
