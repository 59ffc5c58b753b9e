//! The sparse-space engine's 32-bit path, for values beyond the 16-bit copies: stamped
//! marks instead of cleared ones, and scalar witness scans.

use super::super::Nimber;
use super::{SparseSpace, SMALL_CAP};

/// Scans the pairs `(low[i], high[len - 1 - i])` for values still needed (marked with
/// `stamp` in `need`), clearing each one found; returns the pairs scanned, which stops
/// early once `waiting` reaches zero.
#[inline(always)]
fn scan_pairs(
    low: &[Nimber],
    high: &[Nimber],
    need: &mut [u32],
    stamp: u32,
    waiting: &mut u32,
) -> usize {
    for (i, (&x, &y)) in low.iter().zip(high.iter().rev()).enumerate() {
        let v = (x ^ y) as usize;
        if need[v] == stamp {
            need[v] = 0;
            *waiting -= 1;
            if *waiting == 0 {
                return i + 1;
            }
        }
    }
    low.len()
}

/// [`scan_pairs`] for values below [`SMALL_CAP`]: indexing a fixed-size array with a
/// masked value needs no bounds check.
#[inline(always)]
fn scan_pairs_small(
    low: &[Nimber],
    high: &[Nimber],
    need: &mut [u32; SMALL_CAP],
    stamp: u32,
    waiting: &mut u32,
) -> usize {
    for (i, (&x, &y)) in low.iter().zip(high.iter().rev()).enumerate() {
        let v = (x ^ y) as usize & (SMALL_CAP - 1);
        if need[v] == stamp {
            need[v] = 0;
            *waiting -= 1;
            if *waiting == 0 {
                return i + 1;
            }
        }
    }
    low.len()
}

impl SparseSpace {
    /// G(n) by the 32-bit engine, for values beyond the 16-bit copies.
    pub(super) fn next_wide(&mut self, n: usize) -> Nimber {
        let stamp = n as u32 + 1;
        let g = &self.values[..];
        let seen = &mut self.seen.marks[..];
        for take in &self.takes {
            if take.t > n {
                break;
            }
            if take.t == n {
                if take.none {
                    seen[0] = stamp;
                }
            } else if take.one && take.t >= 1 {
                seen[g[n - take.t] as usize] = stamp;
            }
        }
        // Parities (of value & mask) that common-common pairs may reach, per split.
        let mut open = [false; 2];
        for split in &self.splits {
            if n < split.t + 2 {
                break;
            }
            let rest = n - split.t;
            open[self.domain & rest & 1] = true;
            let rare = &self.rare[..self.rare.partition_point(|&a| (a as usize) < rest)];
            let small = self.cap as usize <= SMALL_CAP;
            match <&mut [u32; SMALL_CAP]>::try_from(&mut seen[..SMALL_CAP]) {
                // The common case, kept free of bounds checks on the marks.
                Ok(fixed) if small && !split.unequal => {
                    for &a in rare {
                        let a = a as usize;
                        fixed[(g[a] ^ g[rest - a]) as usize & (SMALL_CAP - 1)] = stamp;
                    }
                }
                _ => {
                    for &a in rare {
                        let (a, b) = (a as usize, rest - a as usize);
                        if !(split.unequal && a == b) {
                            seen[(g[a] ^ g[b]) as usize] = stamp;
                        }
                    }
                }
            }
        }
        // c: the smallest unreached value no common-common pair can reach. Below it, the
        // unreached values of an open parity still need a witness pair.
        let need = &mut self.need_marks.marks[..];
        let mut waiting = [0u32; 2];
        let mut c = self.cap;
        for v in 0..self.cap {
            if seen[v as usize] == stamp {
                continue;
            }
            let parity = (v & self.mask).count_ones() as usize & 1;
            if !open[parity] {
                c = v;
                break;
            }
            need[v as usize] = stamp;
            waiting[parity] += 1;
        }
        // Witness scan for the values still needed. Splits take turns by blocks, so a
        // value one split never reaches does not cost a full pass before another split
        // finds it; blocks grow, since most heaps are settled within a few pairs.
        let mut from = 1;
        let mut block = 16;
        while waiting != [0, 0] {
            let mut active = false;
            for split in &self.splits {
                if n < split.t + 2 {
                    break;
                }
                let rest = n - split.t;
                let parity = self.domain & rest & 1;
                let half = if split.unequal {
                    (rest - 1) / 2
                } else {
                    rest / 2
                };
                if waiting[parity] == 0 || from > half {
                    continue;
                }
                active = true;
                let to = (from + block - 1).min(half);
                let low = &g[from..=to];
                let high = &g[rest - to..=rest - from];
                let small = self.cap as usize <= SMALL_CAP;
                let scanned = match <&mut [u32; SMALL_CAP]>::try_from(&mut need[..SMALL_CAP]) {
                    Ok(fixed) if small => {
                        scan_pairs_small(low, high, fixed, stamp, &mut waiting[parity])
                    }
                    _ => scan_pairs(low, high, need, stamp, &mut waiting[parity]),
                };
                self.pairs_scanned += scanned as u64;
            }
            if !active {
                break;
            }
            from += block;
            block = (block * 2).min(1 << 12);
        }
        if waiting == [0, 0] {
            c
        } else {
            (0..c).find(|&v| need[v as usize] == stamp).unwrap_or(c)
        }
    }
}
