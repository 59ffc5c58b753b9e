//! Misère Nim in closed form (Bouton 1902; Winning Ways ch. 13): play as in normal Nim
//! unless the move would leave only heaps of size 1; then leave an odd number of them.
//! Proved for all heap sizes.

/// Misère Nim outcome: true when the player to move wins. With every heap at most 1 the
/// mover wins exactly when the number of 1s is even; otherwise exactly when the
/// nim-sum is non-zero.
pub fn outcome(heaps: &[u64]) -> bool {
    // A nim heap's nim-value is its size.
    super::tame::tame_misere_safe(heaps.iter().copied())
}

/// A winning move in misère Nim, as the position after it (ascending, no zeros); `None`
/// when the position is lost or has no move.
pub fn winning_move(heaps: &[u64]) -> Option<Vec<u64>> {
    if !outcome(heaps) {
        return None;
    }
    let mut after: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    after.sort_unstable();
    let big: Vec<usize> = (0..after.len()).filter(|&i| after[i] >= 2).collect();
    match big.len() {
        0 => {
            // An even number of 1s (possibly none): take one, if there is one.
            after.pop()?;
        }
        1 => {
            // Reduce the only big heap to 0 or 1 to leave an odd number of 1s.
            let ones = after.len() as u64 - 1;
            after[big[0]] = if ones % 2 == 1 { 0 } else { 1 };
        }
        _ => {
            let sum = after.iter().fold(0, |a, &h| a ^ h);
            let i = (0..after.len()).find(|&i| after[i] ^ sum < after[i])?;
            after[i] ^= sum;
        }
    }
    after.retain(|&h| h > 0);
    after.sort_unstable();
    Some(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases() {
        assert!(outcome(&[]));
        assert!(!outcome(&[1]));
        assert!(outcome(&[1, 1]));
        assert!(outcome(&[2]));
        assert!(!outcome(&[2, 2]));
        assert_eq!(winning_move(&[2]), Some(vec![1]));
        assert_eq!(winning_move(&[1, 2]), Some(vec![1]));
        assert_eq!(winning_move(&[1, 1]), Some(vec![1]));
        assert_eq!(winning_move(&[]), None);
    }
}
