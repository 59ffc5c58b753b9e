//! Exact integer arithmetic with the golden ratio φ = (1 + √5)/2: the Beatty sequences
//! ⌊kφ⌋ and ⌊kφ²⌋ = ⌊kφ⌋ + k that Wythoff's unsafe pairs are made of, for every `k` up to
//! `u64::MAX`, with no floating point (an `f64` is wrong from about k = 10^15 on).

/// True when `a ≤ kφ`, decided exactly in integers for `k < 2^64`.
fn at_most_k_phi(a: u128, k: u128) -> bool {
    // a ≤ kφ  ⟺  v = 2a − k ≤ k√5. Since √5 > 2 this holds when v < 2k; otherwise it is
    // v² ≤ 5k², i.e. (v − 2k)(v + 2k) ≤ k². The factored form stays within u128 where
    // v² ≈ 5k² would need 131 bits; a product that overflows is certainly above k².
    let (two_a, three_k) = (2 * a, 3 * k);
    if two_a < three_k {
        return true;
    }
    (two_a - three_k)
        .checked_mul(two_a + k)
        .is_some_and(|product| product <= k * k)
}

/// ⌊kφ⌋ exactly (Wythoff's lower coordinate a_k); a `u128` because it exceeds `u64::MAX`
/// for k above about 1.14·10^19.
pub fn floor_k_phi(k: u64) -> u128 {
    let k = u128::from(k);
    let square = k * k;
    // ⌊5k²/16⌋ without forming 5k²: its square root t is ⌊k√5/4⌋, so ⌊k√5⌋ lies in
    // 4t..4t+3 and ⌊kφ⌋ = ⌊(k + ⌊k√5⌋)/2⌋ is at most two steps above the estimate below.
    let quarter = 5 * (square >> 4) + ((5 * (square & 15)) >> 4);
    let mut a = (k + 4 * quarter.isqrt()) / 2;
    while at_most_k_phi(a + 1, k) {
        a += 1;
    }
    debug_assert!(at_most_k_phi(a, k));
    a
}

/// ⌊kφ²⌋ = ⌊kφ⌋ + k exactly (Wythoff's upper coordinate b_k).
pub fn floor_k_phi_squared(k: u64) -> u128 {
    floor_k_phi(k) + u128::from(k)
}

/// The other coordinate of the normal-play unsafe Wythoff pair holding `n` (Wythoff 1907:
/// the pairs (⌊kφ⌋, ⌊kφ²⌋), k ≥ 0, cover every natural number exactly once, 0 twice),
/// as a `u128` since it can exceed `u64::MAX`.
pub fn partner(n: u64) -> u128 {
    if n == 0 {
        return 0;
    }
    let n_phi = floor_k_phi(n);
    let wide = u128::from(n);
    // If n = ⌊kφ⌋ then n/φ < k < (n + 1)/φ, so k = ⌊n/φ⌋ + 1 = ⌊nφ⌋ − n + 1.
    let k = n_phi - wide + 1;
    // k ≤ n (k ≈ 0.618n + 1), so the conversion cannot fail.
    let k_narrow = u64::try_from(k).expect("k is at most n");
    if floor_k_phi(k_narrow) == wide {
        return wide + k;
    }
    // Otherwise n = ⌊jφ²⌋ with j = ⌈n/φ²⌉ = ⌈2n − nφ⌉ = 2n − ⌊nφ⌋, and its partner is n − j.
    let j = 2 * wide - n_phi;
    debug_assert_eq!(
        floor_k_phi_squared(u64::try_from(j).expect("j is below n")),
        wide
    );
    wide - j
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The formula of the brief, (k + ⌊√(5k²)⌋)/2, where 5k² fits in a u128.
    fn direct(k: u64) -> u128 {
        let k = u128::from(k);
        (k + (5 * k * k).isqrt()) / 2
    }

    #[test]
    fn matches_the_square_root_formula_where_it_fits() {
        for k in 0..20_000 {
            assert_eq!(floor_k_phi(k), direct(k), "k = {k}");
        }
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Below 2^62, 5k² < 2^127.
            let k = x >> 2;
            assert_eq!(floor_k_phi(k), direct(k), "k = {k}");
        }
    }

    #[test]
    fn fibonacci_numbers_sit_next_to_integers() {
        // F(n+1) − φF(n) = ψ^n with ψ = −1/φ: ⌊φF(n)⌋ is F(n+1) − 1 for even n and F(n+1)
        // for odd n. These are the hardest arguments (kφ within 1/k of an integer), and
        // they run up to F(93) ≈ 1.2·10^19, past where 5k² fits in 128 bits.
        let (mut f, mut next) = (1u128, 2u128); // F(2), F(3)
        let mut n = 2;
        while f <= u128::from(u64::MAX) {
            let expected = if n % 2 == 0 { next - 1 } else { next };
            assert_eq!(floor_k_phi(f as u64), expected, "F({n}) = {f}");
            (f, next) = (next, f + next);
            n += 1;
        }
        assert_eq!(n, 94);
    }

    #[test]
    fn works_at_the_top_of_the_range() {
        for k in [u64::MAX, u64::MAX - 1, u64::MAX / 2, 1 << 63, (1 << 63) - 1] {
            let a = floor_k_phi(k);
            assert!(at_most_k_phi(a, u128::from(k)) && !at_most_k_phi(a + 1, u128::from(k)));
            // Consecutive terms differ by 1 or 2 (φ is between 1 and 2).
            let step = a - floor_k_phi(k - 1);
            assert!(step == 1 || step == 2, "k = {k}");
        }
    }

    #[test]
    fn partner_pairs_the_beatty_sequences() {
        assert_eq!(partner(0), 0);
        assert_eq!(partner(1), 2);
        assert_eq!(partner(2), 1);
        assert_eq!(partner(3), 5);
        assert_eq!(partner(5), 3);
        for n in 1..5_000u64 {
            let m = u64::try_from(partner(n)).unwrap();
            assert_ne!(m, n);
            assert_eq!(partner(m), u128::from(n), "n = {n}");
        }
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..5_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let n = x >> 1;
            let m = partner(n);
            if let Ok(m) = u64::try_from(m) {
                assert_eq!(partner(m), u128::from(n), "n = {n}");
            }
            // The pair is (⌊kφ⌋, ⌊kφ²⌋) for k the difference.
            let (lo, hi) = (m.min(u128::from(n)), m.max(u128::from(n)));
            let k = u64::try_from(hi - lo).unwrap();
            assert_eq!(floor_k_phi(k), lo, "n = {n}");
        }
        // A lower coordinate near the top whose partner is beyond u64.
        let k = 11_000_000_000_000_000_000;
        let n = u64::try_from(floor_k_phi(k)).unwrap();
        assert_eq!(partner(n), u128::from(n) + u128::from(k));
        assert!(partner(n) > u128::from(u64::MAX));
    }
}
