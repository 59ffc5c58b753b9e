//! Subtraction sets named by a rule instead of listed: the squares, the primes, the
//! powers of `k`, the Fibonacci numbers, the triangular numbers, and every size but a
//! finite list. Each enumerates its sizes up to a bound in ascending order without
//! allocating, so the move generators stay allocation-free.

use std::fmt;
use std::ops::ControlFlow;

use super::primes;
use crate::error::quote;

/// An infinite subtraction set, named by its rule.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SubtractionFamily {
    /// 1, 4, 9, 16, ...: subtract-a-square.
    Squares,
    /// 2, 3, 5, 7, 11, ...
    Primes,
    /// 1, k, k², ... for `k >= 2`.
    Powers(u64),
    /// 1, 2, 3, 5, 8, ... (each Fibonacci number once).
    Fibonacci,
    /// 1, 3, 6, 10, ...
    Triangular,
    /// Every positive size except these (sorted, distinct, at least one).
    AllBut(Vec<u64>),
}

/// The family words an inline spec or description may use, for messages.
pub const FAMILIES: &str = "squares, primes, powers:K, fibonacci, triangular, all-but:A,B,...";

impl SubtractionFamily {
    /// Parses a family such as `squares`, `powers:3` or `all-but:1,2`; `None` when the
    /// text names no family (a list of sizes, say), an error when it names one badly.
    pub fn parse(text: &str) -> Option<Result<Self, String>> {
        let text = text.trim();
        let (word, argument) = match text.split_once(':') {
            Some((word, argument)) => (word.trim(), Some(argument)),
            None => (text, None),
        };
        let family = match (word, argument) {
            ("squares", None) => Ok(SubtractionFamily::Squares),
            ("primes", None) => Ok(SubtractionFamily::Primes),
            ("fibonacci", None) => Ok(SubtractionFamily::Fibonacci),
            ("triangular", None) => Ok(SubtractionFamily::Triangular),
            ("squares" | "primes" | "fibonacci" | "triangular", Some(_)) => {
                Err(format!("{} takes no parameter", quote(word)))
            }
            ("powers", Some(k)) => parse_base(k),
            ("powers", None) => Err("powers needs k, as in powers:2 (1, 2, 4, 8, ...)".into()),
            ("all-but", Some(list)) => parse_excluded(list),
            ("all-but", None) => {
                Err("all-but needs the sizes it leaves out, as in all-but:1,2".into())
            }
            _ if word.chars().any(|c| c.is_ascii_alphabetic()) => Err(format!(
                "{} is not a subtraction set: give sizes (1,3,4) or one of {FAMILIES}",
                quote(word)
            )),
            _ => return None,
        };
        Some(family)
    }

    /// Visits every size `s <= max` of the set in ascending order, until `visit` breaks.
    #[inline]
    pub fn for_each_size(
        &self,
        max: u64,
        mut visit: impl FnMut(u64) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match self {
            SubtractionFamily::Squares => {
                let mut k = 1u64;
                while let Some(s) = k.checked_mul(k).filter(|&s| s <= max) {
                    visit(s)?;
                    k += 1;
                }
            }
            SubtractionFamily::Triangular => {
                let mut k = 1u64;
                while let Some(s) = (k.checked_mul(k + 1)).map(|t| t / 2).filter(|&s| s <= max) {
                    visit(s)?;
                    k += 1;
                }
            }
            SubtractionFamily::Powers(k) => {
                let mut s = 1u64;
                while s <= max {
                    visit(s)?;
                    match s.checked_mul(*k) {
                        Some(next) => s = next,
                        None => break,
                    }
                }
            }
            SubtractionFamily::Fibonacci => {
                let (mut a, mut b) = (1u64, 2u64);
                while a <= max {
                    visit(a)?;
                    let Some(next) = a.checked_add(b) else {
                        if b <= max {
                            visit(b)?;
                        }
                        break;
                    };
                    (a, b) = (b, next);
                }
            }
            SubtractionFamily::Primes => {
                let mut flow = ControlFlow::Continue(());
                primes::for_each_up_to(max, |p| {
                    flow = visit(p);
                    flow
                });
                flow?;
            }
            SubtractionFamily::AllBut(excluded) => {
                let mut skip = excluded.iter().copied().peekable();
                for s in 1..=max {
                    if skip.peek() == Some(&s) {
                        skip.next();
                        continue;
                    }
                    visit(s)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// True when `s` is in the set, decided without listing the set (a heap may hold
    /// billions of tokens).
    pub fn contains(&self, s: u64) -> bool {
        match self {
            SubtractionFamily::Squares => s >= 1 && s.isqrt() * s.isqrt() == s,
            SubtractionFamily::Triangular => {
                // s = k(k+1)/2 exactly when 8s + 1 is an odd square.
                let m = 8 * u128::from(s) + 1;
                s >= 1 && m.isqrt() * m.isqrt() == m
            }
            SubtractionFamily::Powers(k) => {
                let mut p = 1u64;
                loop {
                    if p == s {
                        return true;
                    }
                    match p.checked_mul(*k) {
                        Some(next) if next <= s => p = next,
                        _ => return false,
                    }
                }
            }
            SubtractionFamily::Fibonacci => {
                let (mut a, mut b) = (1u64, 2u64);
                while a < s {
                    let Some(next) = a.checked_add(b) else {
                        return b == s;
                    };
                    (a, b) = (b, next);
                }
                a == s
            }
            SubtractionFamily::Primes => primes::is_prime(s),
            SubtractionFamily::AllBut(excluded) => s >= 1 && excluded.binary_search(&s).is_err(),
        }
    }

    /// The smallest size of the set.
    pub fn smallest(&self) -> u64 {
        match self {
            SubtractionFamily::Primes => primes::SMALLEST,
            SubtractionFamily::AllBut(excluded) => (1..)
                .zip(excluded)
                .find(|&(s, &x)| s != x)
                .map_or(excluded.len() as u64 + 1, |(s, _)| s),
            SubtractionFamily::Squares
            | SubtractionFamily::Powers(_)
            | SubtractionFamily::Fibonacci
            | SubtractionFamily::Triangular => 1,
        }
    }

    /// For a set holding every size from some point on (all-but): that point, so that
    /// every size at or above it is in the set.
    pub fn all_from(&self) -> Option<u64> {
        match self {
            SubtractionFamily::AllBut(excluded) => excluded.last().map(|&x| x + 1),
            SubtractionFamily::Squares
            | SubtractionFamily::Primes
            | SubtractionFamily::Powers(_)
            | SubtractionFamily::Fibonacci
            | SubtractionFamily::Triangular => None,
        }
    }

    /// Largest heap whose options the set can list, when it has such a bound (the primes
    /// are sieved up to `primes::LIMIT`).
    pub fn largest_heap(&self) -> Option<u64> {
        match self {
            SubtractionFamily::Primes => Some(primes::LIMIT - 1),
            _ => None,
        }
    }

    /// Makes the set ready for heaps up to `max` (sieves the primes), so engines that
    /// visit it from many threads do not wait on each other.
    pub fn prepare(&self, max: u64) {
        if let SubtractionFamily::Primes = self {
            primes::prepare(max);
        }
    }
}

/// `k` of `powers:k`: at least 2 (the powers of 1 are just 1).
fn parse_base(text: &str) -> Result<SubtractionFamily, String> {
    let k: u64 = text.trim().parse().map_err(|_| {
        format!(
            "powers:{}: k must be a whole number, 2 or more",
            quote(text)
        )
    })?;
    if k < 2 {
        return Err(format!(
            "powers:{k}: k must be 2 or more (the powers of {k} are {{{k}}}: write subtraction:1)"
        ));
    }
    Ok(SubtractionFamily::Powers(k))
}

/// The sizes `all-but:` leaves out: positive, at least one.
fn parse_excluded(list: &str) -> Result<SubtractionFamily, String> {
    let mut excluded = Vec::new();
    for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let value: u64 = word.parse().map_err(|_| {
            format!(
                "{} in the all-but list is not a positive integer",
                quote(word)
            )
        })?;
        excluded.push(i128::from(value));
    }
    check_excluded(excluded)
}

/// Checks the sizes an all-but set leaves out, given as wide integers so description
/// files' negatives are judged by the same rule.
pub fn check_excluded(values: Vec<i128>) -> Result<SubtractionFamily, String> {
    if values.is_empty() {
        return Err(
            "all-but needs at least one size to leave out (all-but nothing is Nim: write nim)"
                .into(),
        );
    }
    if let Some(bad) = values.iter().find(|&&v| v <= 0 || v > i128::from(u32::MAX)) {
        return Err(format!(
            "the all-but list holds {bad}; every size left out must be positive and below 2^32"
        ));
    }
    let mut excluded: Vec<u64> = values.into_iter().map(|v| v as u64).collect();
    excluded.sort_unstable();
    excluded.dedup();
    Ok(SubtractionFamily::AllBut(excluded))
}

impl fmt::Display for SubtractionFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubtractionFamily::Squares => f.write_str("squares"),
            SubtractionFamily::Primes => f.write_str("primes"),
            SubtractionFamily::Powers(k) => write!(f, "powers:{k}"),
            SubtractionFamily::Fibonacci => f.write_str("fibonacci"),
            SubtractionFamily::Triangular => f.write_str("triangular"),
            SubtractionFamily::AllBut(excluded) => {
                let list: Vec<String> = excluded.iter().map(u64::to_string).collect();
                write!(f, "all-but:{}", list.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(family: &SubtractionFamily, max: u64) -> Vec<u64> {
        let mut out = Vec::new();
        let _ = family.for_each_size(max, |s| {
            out.push(s);
            ControlFlow::Continue(())
        });
        out
    }

    /// Each family against its definition, written out independently.
    #[test]
    fn sizes_are_the_definitions() {
        let max = 300u64;
        let defined =
            |keep: &dyn Fn(u64) -> bool| (1..=max).filter(|&s| keep(s)).collect::<Vec<_>>();
        let is_square = |s: u64| (1..=s).any(|k| k * k == s);
        let is_triangular = |s: u64| (1..=s).any(|k| k * (k + 1) / 2 == s);
        let is_prime = |s: u64| s >= 2 && (2..s).all(|d| !s.is_multiple_of(d));
        let is_power = |k: u64| move |s: u64| (0..20).any(|e| k.pow(e) == s);
        let mut fib = vec![1u64, 2];
        while fib[fib.len() - 1] < max {
            fib.push(fib[fib.len() - 1] + fib[fib.len() - 2]);
        }
        let is_fib = |s: u64| fib.contains(&s);
        assert_eq!(sizes(&SubtractionFamily::Squares, max), defined(&is_square));
        assert_eq!(
            sizes(&SubtractionFamily::Triangular, max),
            defined(&is_triangular)
        );
        assert_eq!(sizes(&SubtractionFamily::Primes, max), defined(&is_prime));
        assert_eq!(
            sizes(&SubtractionFamily::Powers(3), max),
            defined(&is_power(3))
        );
        assert_eq!(sizes(&SubtractionFamily::Fibonacci, max), defined(&is_fib));
        let all_but = SubtractionFamily::AllBut(vec![1, 2, 7]);
        assert_eq!(sizes(&all_but, max), defined(&|s| ![1, 2, 7].contains(&s)));
        for family in [
            SubtractionFamily::Squares,
            SubtractionFamily::Triangular,
            SubtractionFamily::Primes,
            SubtractionFamily::Powers(3),
            SubtractionFamily::Fibonacci,
            all_but.clone(),
        ] {
            let listed = sizes(&family, max);
            for s in 0..=max {
                assert_eq!(family.contains(s), listed.contains(&s), "{family} {s}");
            }
        }
        let big = 4_294_967_295u64 * 4_294_967_295;
        assert!(SubtractionFamily::Squares.contains(big));
        assert!(!SubtractionFamily::Squares.contains(big + 1));
        assert!(SubtractionFamily::Fibonacci.contains(12_200_160_415_121_876_738));
        assert!(SubtractionFamily::Powers(2).contains(1 << 63));
        assert_eq!(all_but.smallest(), 3);
        assert_eq!(all_but.all_from(), Some(8));
        assert_eq!(SubtractionFamily::AllBut(vec![2]).smallest(), 1);
        assert_eq!(SubtractionFamily::AllBut(vec![1, 2, 3]).smallest(), 4);
        // Huge bounds stop at the largest size that fits.
        assert_eq!(sizes(&SubtractionFamily::Powers(2), u64::MAX).len(), 64);
        assert_eq!(sizes(&SubtractionFamily::Fibonacci, u64::MAX).len(), 92);
        assert_eq!(
            sizes(&SubtractionFamily::Squares, 1_000_000_000_000).len(),
            1_000_000
        );
    }

    #[test]
    fn parses_and_prints_round_trip() {
        for text in [
            "squares",
            "primes",
            "powers:3",
            "fibonacci",
            "triangular",
            "all-but:1,2",
        ] {
            let family = SubtractionFamily::parse(text).unwrap().unwrap();
            assert_eq!(family.to_string(), text);
        }
        assert_eq!(
            SubtractionFamily::parse(" all-but: 2, 1, 2 ")
                .unwrap()
                .unwrap()
                .to_string(),
            "all-but:1,2"
        );
        assert!(SubtractionFamily::parse("1,3,4").is_none());
        for bad in [
            "powers",
            "powers:1",
            "powers:x",
            "all-but",
            "all-but:",
            "all-but:0",
            "squares:2",
            "cubes",
        ] {
            assert!(
                matches!(SubtractionFamily::parse(bad), Some(Err(_))),
                "{bad} accepted"
            );
        }
    }
}
