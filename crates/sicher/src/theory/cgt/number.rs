//! Dyadic numbers, the values of games that are numbers, and the stops of games.

use std::fmt;

use hashbrown::HashMap;

use super::store::{GameId, GameStore};

/// A dyadic rational `numerator / 2^exponent`, kept in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dyadic {
    numerator: i64,
    exponent: u32,
}

impl Dyadic {
    /// `numerator / 2^exponent`, reduced.
    pub fn new(numerator: i64, exponent: u32) -> Self {
        let (mut numerator, mut exponent) = (numerator, exponent);
        while exponent > 0 && numerator % 2 == 0 {
            numerator /= 2;
            exponent -= 1;
        }
        Dyadic {
            numerator,
            exponent,
        }
    }

    /// The integer `n`.
    pub fn integer(n: i64) -> Self {
        Dyadic::new(n, 0)
    }

    /// The numerator in lowest terms.
    pub fn numerator(self) -> i64 {
        self.numerator
    }

    /// The power of two of the denominator in lowest terms.
    pub fn exponent(self) -> u32 {
        self.exponent
    }

    /// True for whole numbers.
    pub fn is_integer(self) -> bool {
        self.exponent == 0
    }

    /// Both numbers over one power of two: `(a, b, e)` with `self = a/2^e`, `other = b/2^e`.
    fn common(self, other: Dyadic) -> (i128, i128, u32) {
        let e = self.exponent.max(other.exponent);
        (
            i128::from(self.numerator) << (e - self.exponent),
            i128::from(other.numerator) << (e - other.exponent),
            e,
        )
    }

    /// The mean of two numbers.
    pub fn mean(self, other: Dyadic) -> Dyadic {
        let (a, b, e) = self.common(other);
        Dyadic::new((a + b) as i64, e + 1)
    }

    /// The difference `self - other`.
    pub fn minus(self, other: Dyadic) -> Dyadic {
        let (a, b, e) = self.common(other);
        Dyadic::new((a - b) as i64, e)
    }

    /// The simplest number strictly between `low < high` (the one a game `{low | high}`
    /// equals): the integer nearest zero if one lies between, else the one with the
    /// smallest denominator.
    pub fn simplest_between(low: Dyadic, high: Dyadic) -> Dyadic {
        let floor = |d: Dyadic| (i128::from(d.numerator)) >> d.exponent;
        // Smallest integer above `low`, largest below `high`.
        let above = floor(low) + 1;
        let below = {
            let f = floor(high);
            if Dyadic::integer(f as i64) == high {
                f - 1
            } else {
                f
            }
        };
        if above <= below {
            let n = if above > 0 {
                above
            } else if below < 0 {
                below
            } else {
                0
            };
            return Dyadic::integer(n as i64);
        }
        let mut e = 1;
        loop {
            let (a, b, common) = low.common(high);
            // Scale both to denominator 2^max(e, common) and look for a multiple of
            // 2^(that - e) strictly between.
            let scale = e.max(common);
            let (a, b) = (a << (scale - common), b << (scale - common));
            let step = 1i128 << (scale - e);
            let candidate = (a.div_euclid(step) + 1) * step;
            if candidate < b {
                return Dyadic::new((candidate >> (scale - e)) as i64, e);
            }
            e += 1;
        }
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let (a, b, _) = self.common(*other);
        a.cmp(&b)
    }
}

impl fmt::Display for Dyadic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exponent == 0 {
            write!(f, "{}", self.numerator)
        } else {
            write!(f, "{}/{}", self.numerator, 1u128 << self.exponent)
        }
    }
}

/// Numbers and stops of the games of one store, memoised.
#[derive(Default)]
pub struct Numbers {
    values: HashMap<GameId, Option<Dyadic>>,
    stops: HashMap<(GameId, bool), Option<Dyadic>>,
}

impl Numbers {
    /// The number a canonical game is, or `None` when it is not a number.
    pub fn value(&mut self, store: &GameStore, g: GameId) -> Option<Dyadic> {
        if let Some(&known) = self.values.get(&g) {
            return known;
        }
        let value = match (store.left(g), store.right(g)) {
            ([], []) => Some(Dyadic::integer(0)),
            (&[a], []) => self
                .value(store, a)
                .filter(|v| v.is_integer() && v.numerator >= 0)
                .map(|v| Dyadic::integer(v.numerator + 1)),
            ([], &[b]) => self
                .value(store, b)
                .filter(|v| v.is_integer() && v.numerator <= 0)
                .map(|v| Dyadic::integer(v.numerator - 1)),
            (&[a], &[b]) => match (self.value(store, a), self.value(store, b)) {
                (Some(low), Some(high)) if low < high => Some(Dyadic::simplest_between(low, high)),
                _ => None,
            },
            _ => None,
        };
        self.values.insert(g, value);
        value
    }

    /// Left's stop (`left = true`) or Right's stop of a canonical game: where play ends
    /// in a number when that player starts and both play to the best number.
    pub fn stop(&mut self, store: &GameStore, g: GameId, left: bool) -> Option<Dyadic> {
        if let Some(&known) = self.stops.get(&(g, left)) {
            return known;
        }
        let stop = match self.value(store, g) {
            Some(v) => Some(v),
            None => {
                let options = if left { store.left(g) } else { store.right(g) }.to_vec();
                let mut best: Option<Dyadic> = None;
                let mut all = true;
                for x in options {
                    match self.stop(store, x, !left) {
                        Some(s) => {
                            best = Some(match best {
                                None => s,
                                Some(b) if left => b.max(s),
                                Some(b) => b.min(s),
                            })
                        }
                        None => all = false,
                    }
                }
                best.filter(|_| all)
            }
        };
        self.stops.insert((g, left), stop);
        stop
    }
}
