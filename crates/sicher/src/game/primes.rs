//! The primes, for the subtraction game whose subtraction set they are: sieved once per
//! process, range by range as larger heaps need them, and read without locks or
//! allocation by the move generator afterwards.
//!
//! Range `c` holds the primes in `[2^c, 2^(c+1))`; it is sieved whole the first time a
//! heap at or above `2^c` asks for it (at most twice the primes the heap needs, and
//! sieving is cheap next to the play those heaps cost), from the primes below its square
//! root, which earlier ranges hold.

use std::sync::OnceLock;

/// Primes are listed below this bound (a heap above it has options sicher refuses to
/// list): about 15 million primes, 58 MB.
pub const LIMIT: u64 = 1 << 28;

/// Ranges `[2^c, 2^(c+1))` for `c < RANGES` cover every number below [`LIMIT`].
const RANGES: usize = 28;

/// The primes of each range, sieved on first use.
static RANGE: [OnceLock<Box<[u32]>>; RANGES] = [const { OnceLock::new() }; RANGES];

/// Visits every prime `p <= max` in ascending order until `visit` breaks (`max` at most
/// [`LIMIT`]; larger primes are not visited). Sieves the ranges it needs the first time.
#[inline]
pub fn for_each_up_to(max: u64, mut visit: impl FnMut(u64) -> std::ops::ControlFlow<()>) {
    let max = max.min(LIMIT - 1);
    if max < 2 {
        return;
    }
    let top = 63 - max.leading_zeros() as usize;
    for c in 1..=top {
        for &p in range(c) {
            if u64::from(p) > max {
                return;
            }
            if visit(u64::from(p)).is_break() {
                return;
            }
        }
    }
}

/// The smallest prime, 2: what the move generator asks when it only wants to know
/// whether a heap has a move.
pub const SMALLEST: u64 = 2;

/// Sieves every range a heap of size `max` reads, now: engines call it before their
/// loops, so the first heaps of a parallel loop do not wait on each other's sieving.
pub fn prepare(max: u64) {
    let max = max.min(LIMIT - 1);
    if max >= 2 {
        for c in 1..=(63 - max.leading_zeros() as usize) {
            range(c);
        }
    }
}

/// The primes in `[2^c, 2^(c+1))`, sieved on first use.
fn range(c: usize) -> &'static [u32] {
    RANGE[c].get_or_init(|| sieve(c))
}

/// True when `n` is prime: deterministic Miller–Rabin with the first twelve primes as
/// bases, exact for every 64-bit `n` (no sieve, so any heap size can be asked).
pub fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for p in BASES {
        if n.is_multiple_of(p) {
            return n == p;
        }
    }
    let mul = |a: u64, b: u64| (u128::from(a) * u128::from(b) % u128::from(n)) as u64;
    let pow = |mut a: u64, mut e: u64| {
        let mut r = 1u64;
        while e > 0 {
            if e & 1 == 1 {
                r = mul(r, a);
            }
            a = mul(a, a);
            e >>= 1;
        }
        r
    };
    let d = (n - 1) >> (n - 1).trailing_zeros();
    let s = (n - 1).trailing_zeros();
    'bases: for a in BASES {
        let mut x = pow(a, d);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul(x, x);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// Sieves `[2^c, 2^(c+1))` by the primes up to its square root, which lie in lower ranges
/// (for `c >= 2`, `sqrt(2^(c+1)) < 2^c`).
fn sieve(c: usize) -> Box<[u32]> {
    let low = 1u64 << c;
    let high = low << 1;
    if c <= 2 {
        // [2, 4) and [4, 8): too small to sieve from lower ranges.
        return (low..high)
            .filter(|&n| (2..n).all(|d| n % d != 0))
            .map(|n| n as u32)
            .collect();
    }
    let mut composite = vec![false; (high - low) as usize];
    'ranges: for below in 1..c {
        for &p in range(below) {
            let p = u64::from(p);
            if p * p >= high {
                break 'ranges;
            }
            let first = low.div_ceil(p).max(p) * p;
            let mut multiple = first;
            while multiple < high {
                composite[(multiple - low) as usize] = true;
                multiple += p;
            }
        }
    }
    composite
        .iter()
        .enumerate()
        .filter(|(_, &c)| !c)
        .map(|(i, _)| (low + i as u64) as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ops::ControlFlow;

    fn primes_up_to(max: u64) -> Vec<u64> {
        let mut out = Vec::new();
        for_each_up_to(max, |p| {
            out.push(p);
            ControlFlow::Continue(())
        });
        out
    }

    #[test]
    fn agrees_with_trial_division() {
        let expected: Vec<u64> = (2..5000u64)
            .filter(|&n| (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0))
            .collect();
        assert_eq!(primes_up_to(4999), expected);
        let tested: Vec<u64> = (0..5000u64).filter(|&n| is_prime(n)).collect();
        assert_eq!(tested, expected);
        assert!(is_prime(18_446_744_073_709_551_557));
        assert!(!is_prime(3_215_031_751));
        assert_eq!(primes_up_to(2), vec![2]);
        assert!(primes_up_to(1).is_empty());
        assert_eq!(primes_up_to(1 << 16).len(), 6542);
        prepare(1 << 20);
        assert_eq!(primes_up_to(1_000_000).len(), 78_498);
    }
}
