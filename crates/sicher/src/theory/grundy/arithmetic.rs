//! Arithmetic periodicity: G(n + p) = G(n) + s for every n >= n0, with saltus s > 0
//! (CGSuite's "saltus"). Nim written as `octal:0.[3]` has G(n) = n (period 1, saltus 1);
//! Lasker's Nim `octal:4.[3]` has period 4 and saltus 4.
//!
//! Finding one is a scan of the values; proving one needs a theorem about the ruleset.
//! sicher proves it for all-but subtraction games (every positive size may be taken but
//! the finitely many in E; t = max E), whose sequences A. Siegel proved are always
//! ultimately arithmetic periodic ("Finite excluded subtraction sets and infinite
//! geography", MMath thesis, University of Waterloo, 2005; see also D. Sleator and
//! M. Slusky, "Subtraction games with FES sets of size 3", arXiv:1201.3299). The pre-period,
//! period and saltus a sequence shows are proved by this induction (written out here, so
//! the check is exactly what the argument needs):
//!
//! For n >= t the options of n are every m < n - t, and the m in the window
//! `n - t <= m < n` with `n - m` not in E. Write V(x) = {G(m) : m < x}. Say P(n) holds
//! when (a) every value below s is in V(n + p - t); (b) the values of V(n + p - t) at or
//! above s are exactly V(n - t) shifted up by s; (c) G(m + p) = G(m) + s for the window
//! `n - t <= m < n`. Then the option values of n + p are those of n shifted by s, plus
//! every value below s, so G(n + p) = mex = G(n) + s. And P(n) gives P(n + 1): (c) gains
//! the value just found; (b) gains G(n + p - t) = G(n - t) + s >= s on the left and
//! G(n - t) on the right; (a) only grows. So one n1 >= t with P(n1), checked on the
//! values, proves G(n + p) = G(n) + s for every n >= n1 - t.

use super::period::Periodicity;
use super::values::Nimber;

/// The smallest period `p > 0` with a saltus `s > 0` that the values show (its least
/// pre-period with it), unproved: its agreement must cover as many values as an ordinary
/// apparent period's (`2*max(n0, 1) + 2p` of them). `None` when none shows.
pub fn find_arithmetic<T: Copy + Into<Nimber>>(seq: &[T]) -> Option<Periodicity> {
    let len = seq.len();
    let at = |i: usize| -> Nimber { seq[i].into() };
    for p in 1..=len / 2 {
        let last = len - 1;
        let Some(s) = at(last).checked_sub(at(last - p)).filter(|&s| s > 0) else {
            continue;
        };
        // The least n0 with G(n + p) = G(n) + s for n0 <= n < len - p.
        let mut n0 = len - p;
        while n0 > 0 && at(n0 - 1 + p).checked_sub(at(n0 - 1)) == Some(s) {
            n0 -= 1;
        }
        let needed = 2 * n0.max(1) + 2 * p;
        if needed <= len {
            return Some(Periodicity {
                preperiod: n0 as u64,
                period: p as u64,
                saltus: u64::from(s),
                proved_at: None,
            });
        }
    }
    None
}

/// For an all-but subtraction game with `t` the largest size it leaves out: the largest
/// heap whose value the proof of `found` (see the module doc) used, when the values prove
/// it; `None` when they do not (yet).
pub fn prove_all_but(seq: &[Nimber], found: &Periodicity, t: u64) -> Option<u64> {
    let (p, s) = (found.period as usize, found.saltus);
    let t = usize::try_from(t).ok()?;
    let s = Nimber::try_from(s).ok()?;
    // (c) needs the window n1 - t .. n1 past the pre-period, and the values up to
    // n1 + p - 1 (the proof's first step computes G(n1 + p) itself).
    let first = (found.preperiod as usize + t).max(t);
    // P(n1) once true stays true, so the first few candidates are tried, a period apart.
    for n1 in (first..).step_by(p.max(1)).take(4) {
        if n1 + p > seq.len() {
            return None;
        }
        if holds(seq, n1, p, s, t) {
            return Some((n1 + p - 1) as u64);
        }
    }
    None
}

/// P(n1) of the module doc on the values `seq` (which reach `n1 + p - 1`).
fn holds(seq: &[Nimber], n1: usize, p: usize, s: Nimber, t: usize) -> bool {
    let window = (n1 - t..n1).all(|m| seq[m + p].checked_sub(seq[m]) == Some(s));
    if !window {
        return false;
    }
    let far = &seq[..n1 - t];
    let shifted_far = &seq[..n1 + p - t];
    let top = shifted_far.iter().copied().max().unwrap_or(0) as usize + 1;
    let mut left = vec![false; top];
    for &v in shifted_far {
        left[v as usize] = true;
    }
    let mut right = vec![false; top];
    for &v in far {
        match right.get_mut((v + s) as usize) {
            Some(slot) => *slot = true,
            None => return false,
        }
    }
    (0..s as usize).all(|v| v < top && left[v]) && (s as usize..top).all(|v| left[v] == right[v])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// G of the all-but game leaving out `excluded`, by the definition.
    fn all_but(excluded: &[u64], len: usize) -> Vec<Nimber> {
        let mut g: Vec<Nimber> = Vec::new();
        for n in 0..len {
            let mut seen = vec![false; n + 2];
            for m in 0..n {
                if !excluded.contains(&((n - m) as u64)) {
                    seen[g[m] as usize] = true;
                }
            }
            g.push(seen.iter().position(|&x| !x).unwrap() as Nimber);
        }
        g
    }

    #[test]
    fn nim_is_period_one_saltus_one() {
        let g: Vec<Nimber> = (0..40).collect();
        let found = find_arithmetic(&g).unwrap();
        assert_eq!((found.preperiod, found.period, found.saltus), (0, 1, 1));
    }

    #[test]
    fn all_but_games_are_found_and_proved() {
        for excluded in [
            vec![1],
            vec![2],
            vec![1, 2],
            vec![2, 3, 7],
            vec![1, 4, 5, 9],
        ] {
            let t = *excluded.iter().max().unwrap();
            let g = all_but(&excluded, 400);
            let found = find_arithmetic(&g).unwrap();
            let proved = prove_all_but(&g, &found, t);
            assert!(proved.is_some(), "{excluded:?}: {found:?}");
            // The periodic form predicts far values the finder never saw.
            let far = all_but(&excluded, 700);
            for (n, &v) in far.iter().enumerate().skip(found.preperiod as usize) {
                let k = (n as u64 - found.preperiod) / found.period;
                let r = found.reduce(n as u64) as usize;
                assert_eq!(u64::from(v), u64::from(g[r]) + k * found.saltus);
            }
        }
    }

    #[test]
    fn a_wrong_guess_is_not_proved() {
        // Agreement that stops just past the values seen proves nothing.
        let mut g: Vec<Nimber> = (0..64).collect();
        g.extend([70, 71]);
        assert!(prove_all_but(
            &g,
            &Periodicity {
                preperiod: 0,
                period: 1,
                saltus: 2,
                proved_at: None
            },
            1
        )
        .is_none());
    }
}
