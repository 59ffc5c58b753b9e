//! Word-parallel search for the first split whose value is still wanted.
//!
//! The pairs `(a, rest - a)` of a split are laid out as two ascending slices of 16-bit
//! values, `lo[i] = G(from + i)` and `hi[i] = G(rest - from - i)` (the second one read from
//! a copy of the sequence stored back to front), so one vector load of each gives 16 or 32
//! pairs, and their XORs are the option values. The wanted values are a bitmap; with
//! AVX-512 a whole 1024-value page of it sits in two registers and a lane's bit is found by
//! a table lookup (`vpermi2w`) and a shift, so any number of wanted values costs the same.
//! With AVX2 only, a handful of wanted values are compared lane by lane; otherwise, and on
//! other processors, the scalar loop answers. All three give the same index.
//!
//! Values below 64 have a second search, [`Kernel::unreached`]: the wanted set is one word,
//! and the scan removes every value it meets and goes on until none is left, in one call.

/// Values one page of the wanted bitmap covers (64 words of 16 bits).
pub const PAGE: usize = 1024;

/// Most wanted values the AVX2 comparison handles.
const AVX2_MAX: usize = 8;

/// The wanted values: a bitmap over `0..pages * PAGE`, plus how many are set and, while
/// they are few, the values themselves.
#[derive(Clone, Debug, Default)]
pub struct Wanted {
    bits: Vec<u64>,
    count: usize,
}

impl Wanted {
    /// Makes room for values below `cap`.
    pub fn ensure(&mut self, cap: usize) {
        let words = cap.div_ceil(PAGE) * (PAGE / 64);
        if self.bits.len() < words {
            self.bits.resize(words, 0);
        }
    }

    /// Marks `v` wanted (it must not be already).
    #[inline]
    pub fn insert(&mut self, v: u16) {
        self.bits[v as usize / 64] |= 1 << (v % 64);
        self.count += 1;
    }

    /// Unmarks `v`; true if it was wanted.
    #[inline]
    pub fn remove(&mut self, v: u16) -> bool {
        let word = &mut self.bits[v as usize / 64];
        let bit = 1u64 << (v % 64);
        let was = *word & bit != 0;
        *word &= !bit;
        self.count -= was as usize;
        was
    }

    /// True if `v` is wanted.
    #[inline]
    pub fn contains(&self, v: u16) -> bool {
        self.bits[v as usize / 64] >> (v % 64) & 1 != 0
    }

    /// Unmarks the given values, which must include every wanted one.
    pub fn clear(&mut self, values: &[u16]) {
        for &v in values {
            self.bits[v as usize / 64] = 0;
        }
        self.count = 0;
    }

    /// The wanted values, ascending, at most `N` of them (padding: `u16::MAX`).
    fn first<const N: usize>(&self) -> [u16; N] {
        let mut out = [u16::MAX; N];
        let mut k = 0;
        for (w, &word) in self.bits.iter().enumerate() {
            let mut word = word;
            while word != 0 && k < N {
                out[k] = (w * 64 + word.trailing_zeros() as usize) as u16;
                word &= word - 1;
                k += 1;
            }
            if k == N || k == self.count {
                break;
            }
        }
        out
    }
}

/// Which instructions the searches use: picked once per engine, since the check is not
/// free at this call rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain loop.
    Scalar,
    /// 16 lanes, comparing with up to 8 wanted values.
    Avx2,
    /// 32 lanes, any wanted set through the bitmap.
    Avx512,
}

impl Kernel {
    /// The best kernel this processor runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512bw") {
                return Kernel::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Kernel::Avx2;
            }
        }
        Kernel::Scalar
    }

    /// The first `i` with `lo[i] ^ hi[i]` wanted, if any. Values must lie below the cap
    /// `wanted` was sized for (and below 2^15, so no XOR equals the padding `u16::MAX`).
    #[inline]
    pub fn first_hit(self, lo: &[u16], hi: &[u16], wanted: &Wanted) -> Option<usize> {
        let len = lo.len().min(hi.len());
        let (lo, hi) = (&lo[..len], &hi[..len]);
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `detect` chose this kernel only where the CPU has AVX-512BW.
            Kernel::Avx512 => unsafe { avx512::first_hit(lo, hi, wanted) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if wanted.count <= AVX2_MAX => {
                let values = wanted.first::<AVX2_MAX>();
                // SAFETY: `detect` chose this kernel only where the CPU has AVX2.
                unsafe { avx2::first_hit(lo, hi, &values) }
            }
            _ => scalar_from(lo, hi, wanted, 0),
        }
    }

    /// The values of `wanted` (values below 64, as bits) that no `lo[i] ^ hi[i]` reaches,
    /// and how many pairs were looked at: the scan stops once every one is reached. Where
    /// values are this small the wanted set fits a register, and the scan goes on past each
    /// hit instead of returning to the caller, which cost more than the scan itself.
    /// `found[v]` is set to the first index that reaches each wanted `v` reached.
    #[inline]
    pub fn unreached(
        self,
        lo: &[u16],
        hi: &[u16],
        wanted: u64,
        found: &mut [u32; 64],
    ) -> (u64, usize) {
        let len = lo.len().min(hi.len());
        let (lo, hi) = (&lo[..len], &hi[..len]);
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `detect` chose this kernel only where the CPU has AVX-512BW.
            Kernel::Avx512 => unsafe { avx512::unreached(lo, hi, wanted, found) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `detect` chose this kernel only where the CPU has AVX2.
            Kernel::Avx2 => unsafe { avx2::unreached(lo, hi, wanted, found) },
            _ => scalar_unreached(lo, hi, wanted, found),
        }
    }
}

/// Heaps whose rare pairs [`Kernel::rare_bits`] marks at once.
pub const BATCH: usize = 32;

impl Kernel {
    /// For the `BATCH` heaps whose splits leave `rest = top + j` (`j < BATCH`): the
    /// values below 64 that the pairs `(a, rest - a)` reach, over the given rare heaps `a`
    /// (with values `rare_vals`), as one word per heap. `g` holds G(0..), and every
    /// `rest - a` must lie in it. One heap at a time these are loads from all over the
    /// sequence; a batch reads, for each `a`, one run of `BATCH` consecutive values.
    pub fn rare_bits(
        self,
        g: &[u16],
        top: usize,
        rare: &[u32],
        rare_vals: &[u16],
        out: &mut [u64; BATCH],
    ) {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `detect` chose this kernel only where the CPU has AVX-512BW.
            Kernel::Avx512 => unsafe { avx512::rare_bits(g, top, rare, rare_vals, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `detect` chose this kernel only where the CPU has AVX2.
            Kernel::Avx2 => unsafe { avx2::rare_bits(g, top, rare, rare_vals, out) },
            _ => rare_bits(g, top, rare, rare_vals, out),
        }
    }
}

/// [`Kernel::rare_bits`] as plain loops, which the compiler vectorizes for the features
/// of the function it is inlined into.
#[inline(always)]
fn rare_bits(g: &[u16], top: usize, rare: &[u32], rare_vals: &[u16], out: &mut [u64; BATCH]) {
    let mut acc = [0u64; BATCH];
    for (&a, &va) in rare.iter().zip(rare_vals) {
        let from = top - a as usize;
        let run: &[u16; BATCH] = g[from..from + BATCH].try_into().expect("BATCH values");
        for (bits, &x) in acc.iter_mut().zip(run) {
            *bits |= 1 << ((va ^ x) & 63);
        }
    }
    *out = acc;
}

/// Pairs the scalar loop takes between checks for an empty wanted set.
const SCALAR_STEP: usize = 16;

/// [`Kernel::unreached`] by the plain loop.
fn scalar_unreached(lo: &[u16], hi: &[u16], wanted: u64, found: &mut [u32; 64]) -> (u64, usize) {
    let mut left = wanted;
    let mut i = 0;
    while i < lo.len() && left != 0 {
        let end = (i + SCALAR_STEP).min(lo.len());
        for (j, (&x, &y)) in lo[i..end].iter().zip(&hi[i..end]).enumerate() {
            let v = x ^ y;
            if v < 64 && left >> v & 1 == 1 {
                left &= !(1 << v);
                found[v as usize] = (i + j) as u32;
            }
        }
        i = end;
    }
    (left, i)
}

/// Records the lanes of `hits` (from index `at`) that reach a value still in `left`, the
/// lowest lane first, and removes those values.
#[inline(always)]
fn take_hits(
    lo: &[u16],
    hi: &[u16],
    at: usize,
    mut hits: u32,
    left: &mut u64,
    found: &mut [u32; 64],
) {
    while hits != 0 {
        let lane = at + hits.trailing_zeros() as usize;
        let v = lo[lane] ^ hi[lane];
        if *left >> v & 1 == 1 {
            *left &= !(1 << v);
            found[v as usize] = lane as u32;
        }
        hits &= hits - 1;
    }
}

/// The plain loop, from index `from`.
#[inline]
fn scalar_from(lo: &[u16], hi: &[u16], wanted: &Wanted, from: usize) -> Option<usize> {
    (from..lo.len()).find(|&i| wanted.contains(lo[i] ^ hi[i]))
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// Lane-by-lane comparison with up to 8 values (`u16::MAX` pads, never an XOR).
    #[target_feature(enable = "avx2")]
    pub unsafe fn first_hit(lo: &[u16], hi: &[u16], values: &[u16; 8]) -> Option<usize> {
        let len = lo.len();
        let mut targets = [_mm256_setzero_si256(); 8];
        for (t, &v) in targets.iter_mut().zip(values) {
            *t = _mm256_set1_epi16(v as i16);
        }
        let count = values.iter().take_while(|&&v| v != u16::MAX).count().max(1);
        let mut i = 0;
        while i + 16 <= len {
            // SAFETY: i + 16 <= len for both slices.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(lo.as_ptr().add(i) as *const __m256i),
                    _mm256_loadu_si256(hi.as_ptr().add(i) as *const __m256i),
                )
            };
            let x = _mm256_xor_si256(a, b);
            let mut eq = _mm256_cmpeq_epi16(x, targets[0]);
            for t in &targets[1..count] {
                eq = _mm256_or_si256(eq, _mm256_cmpeq_epi16(x, *t));
            }
            let mask = _mm256_movemask_epi8(eq) as u32;
            if mask != 0 {
                return Some(i + mask.trailing_zeros() as usize / 2);
            }
            i += 16;
        }
        (i..len).find(|&j| values.contains(&(lo[j] ^ hi[j])))
    }

    /// [`super::Kernel::rare_bits`], vectorized by the compiler for AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn rare_bits(
        g: &[u16],
        top: usize,
        rare: &[u32],
        rare_vals: &[u16],
        out: &mut [u64; super::BATCH],
    ) {
        super::rare_bits(g, top, rare, rare_vals, out)
    }

    /// [`super::Kernel::unreached`] on 8 lanes of 32 bits: lane `x` tests bit `x` of the
    /// wanted word's low half and bit `x - 32` of its high half (shifts by 32 or more give
    /// 0, as does the wrapped `x - 32` of a small `x`).
    #[target_feature(enable = "avx2")]
    pub unsafe fn unreached(
        lo: &[u16],
        hi: &[u16],
        wanted: u64,
        found: &mut [u32; 64],
    ) -> (u64, usize) {
        let len = lo.len();
        let one = _mm256_set1_epi32(1);
        let thirty_two = _mm256_set1_epi32(32);
        let mut left = wanted;
        let mut i = 0;
        while i + 16 <= len && left != 0 {
            // SAFETY: i + 16 <= len for both slices.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(lo.as_ptr().add(i) as *const __m256i),
                    _mm256_loadu_si256(hi.as_ptr().add(i) as *const __m256i),
                )
            };
            let x = _mm256_xor_si256(a, b);
            let low = _mm256_set1_epi32(left as u32 as i32);
            let high = _mm256_set1_epi32((left >> 32) as u32 as i32);
            let mut hits = 0u32;
            for (half, x) in [
                _mm256_cvtepu16_epi32(_mm256_castsi256_si128(x)),
                _mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(x)),
            ]
            .into_iter()
            .enumerate()
            {
                let word = _mm256_or_si256(
                    _mm256_srlv_epi32(low, x),
                    _mm256_srlv_epi32(high, _mm256_sub_epi32(x, thirty_two)),
                );
                let bit = _mm256_slli_epi32::<31>(_mm256_and_si256(word, one));
                hits |= (_mm256_movemask_ps(_mm256_castsi256_ps(bit)) as u32) << (8 * half);
            }
            super::take_hits(lo, hi, i, hits, &mut left, found);
            i += 16;
        }
        let mut tail_found = [0; 64];
        let (rest, tail) = super::scalar_unreached(&lo[i..], &hi[i..], left, &mut tail_found);
        let mut gone = left & !rest;
        while gone != 0 {
            let v = gone.trailing_zeros() as usize;
            found[v] = i as u32 + tail_found[v];
            gone &= gone - 1;
        }
        (rest, i + tail)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Wanted, PAGE};
    use std::arch::x86_64::*;

    /// Bitmap lookup: lane `x` reads 16-bit word `x >> 4` of its page (two registers hold
    /// the page's 64 words) and tests bit `x & 15`. The last partial vector is a masked
    /// load: most calls stop within a few dozen pairs, where a scalar tail cost more than
    /// the vector part.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn first_hit(lo: &[u16], hi: &[u16], wanted: &Wanted) -> Option<usize> {
        let len = lo.len().min(hi.len());
        let pages = wanted.bits.len() * 64 / PAGE;
        let base = wanted.bits.as_ptr() as *const u8;
        let low4 = _mm512_set1_epi16(15);
        let one = _mm512_set1_epi16(1);
        if pages == 1 {
            // SAFETY: one page is 128 bytes of `bits`.
            let (ta, tb) = unsafe {
                (
                    _mm512_loadu_si512(base as *const _),
                    _mm512_loadu_si512(base.add(64) as *const _),
                )
            };
            let hits = |x: __m512i, live: __mmask32| {
                let word = _mm512_permutex2var_epi16(ta, _mm512_srli_epi16::<4>(x), tb);
                let bit = _mm512_srlv_epi16(word, _mm512_and_si512(x, low4));
                _mm512_mask_test_epi16_mask(live, bit, one)
            };
            return scan(lo, hi, len, hits);
        }
        let low6 = _mm512_set1_epi16(63);
        let hits = |x: __m512i, live: __mmask32| {
            let index = _mm512_and_si512(_mm512_srli_epi16::<4>(x), low6);
            let page_of = _mm512_srli_epi16::<10>(x);
            let shift = _mm512_and_si512(x, low4);
            let mut mask = 0;
            for page in 0..pages {
                // SAFETY: page < pages, each 128 bytes of `bits`.
                let (ta, tb) = unsafe {
                    (
                        _mm512_loadu_si512(base.add(page * 128) as *const _),
                        _mm512_loadu_si512(base.add(page * 128 + 64) as *const _),
                    )
                };
                let on_page =
                    _mm512_mask_cmpeq_epi16_mask(live, page_of, _mm512_set1_epi16(page as i16));
                let word = _mm512_permutex2var_epi16(ta, index, tb);
                let bit = _mm512_srlv_epi16(word, shift);
                mask |= _mm512_mask_test_epi16_mask(on_page, bit, one);
            }
            mask
        };
        scan(lo, hi, len, hits)
    }

    /// The first index whose lane `hits` marks: whole vectors, then one masked load for
    /// the rest (masked-off lanes are neither read nor reported).
    #[inline(always)]
    unsafe fn scan(
        lo: &[u16],
        hi: &[u16],
        len: usize,
        hits: impl Fn(__m512i, __mmask32) -> __mmask32,
    ) -> Option<usize> {
        let mut i = 0;
        while i + 32 <= len {
            // SAFETY: i + 32 <= len for both slices (callers pass len <= both lengths).
            let x = unsafe { xor_at(lo, hi, i, !0) };
            let mask = hits(x, !0);
            if mask != 0 {
                return Some(i + mask.trailing_zeros() as usize);
            }
            i += 32;
        }
        if i < len {
            let live = (1u32 << (len - i)) - 1;
            // SAFETY: the mask covers only lanes below len - i.
            let x = unsafe { xor_at(lo, hi, i, live) };
            let mask = hits(x, live);
            if mask != 0 {
                return Some(i + mask.trailing_zeros() as usize);
            }
        }
        None
    }

    /// `lo[i + l] ^ hi[i + l]` for the lanes `l` in `live` (0 elsewhere), which must lie
    /// inside both slices; other lanes are not read.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn xor_at(lo: &[u16], hi: &[u16], i: usize, live: __mmask32) -> __m512i {
        // SAFETY: the caller keeps the live lanes inside both slices; masked loads do not
        // touch the others.
        unsafe {
            _mm512_xor_si512(
                _mm512_maskz_loadu_epi16(live, lo.as_ptr().add(i) as *const _),
                _mm512_maskz_loadu_epi16(live, hi.as_ptr().add(i) as *const _),
            )
        }
    }

    /// [`super::Kernel::rare_bits`], vectorized by the compiler for AVX-512.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn rare_bits(
        g: &[u16],
        top: usize,
        rare: &[u32],
        rare_vals: &[u16],
        out: &mut [u64; super::BATCH],
    ) {
        super::rare_bits(g, top, rare, rare_vals, out)
    }

    /// [`super::Kernel::unreached`]: with values below 64 the wanted set is four 16-bit
    /// words, repeated across one register, so the lookup is one `vpermw`; lanes at 64 or
    /// above would alias and are masked off.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn unreached(
        lo: &[u16],
        hi: &[u16],
        wanted: u64,
        found: &mut [u32; 64],
    ) -> (u64, usize) {
        let len = lo.len().min(hi.len());
        let low4 = _mm512_set1_epi16(15);
        let one = _mm512_set1_epi16(1);
        let sixty_four = _mm512_set1_epi16(64);
        let mut left = wanted;
        let mut table = _mm512_set1_epi64(left as i64);
        let mut i = 0;
        while i < len && left != 0 {
            let live = lanes(len - i);
            // SAFETY: the live lanes lie below len - i, inside both slices.
            let x = unsafe { xor_at(lo, hi, i, live) };
            let small = _mm512_mask_cmplt_epu16_mask(live, x, sixty_four);
            let word = _mm512_permutexvar_epi16(_mm512_srli_epi16::<4>(x), table);
            let bit = _mm512_srlv_epi16(word, _mm512_and_si512(x, low4));
            let hits = _mm512_mask_test_epi16_mask(small, bit, one);
            if hits != 0 {
                super::take_hits(lo, hi, i, hits, &mut left, found);
                table = _mm512_set1_epi64(left as i64);
            }
            i += 32;
        }
        (left, i.min(len))
    }

    /// The lanes of a vector that hold one of the `left` remaining pairs.
    #[inline(always)]
    fn lanes(left: usize) -> __mmask32 {
        if left >= 32 {
            !0
        } else {
            (1u32 << left) - 1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn kernels() -> Vec<Kernel> {
        let mut all = vec![Kernel::Scalar];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                all.push(Kernel::Avx2);
            }
            if std::arch::is_x86_feature_detected!("avx512bw") {
                all.push(Kernel::Avx512);
            }
        }
        all
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn kernels_find_the_same_first_hit(
            bits in 1u32..15,
            pairs in prop::collection::vec((any::<u16>(), any::<u16>()), 0..300),
            wanted in prop::collection::btree_set(any::<u16>(), 0..12),
        ) {
            let cap = 1usize << bits;
            let mask = (cap - 1) as u16;
            let lo: Vec<u16> = pairs.iter().map(|p| p.0 & mask).collect();
            let hi: Vec<u16> = pairs.iter().map(|p| p.1 & mask).collect();
            let mut set = Wanted::default();
            set.ensure(cap);
            let values: Vec<u16> = wanted.iter().map(|v| v & mask).collect();
            for &v in &values {
                if !set.contains(v) {
                    set.insert(v);
                }
            }
            let expected = (0..lo.len()).find(|&i| values.contains(&(lo[i] ^ hi[i])));
            for kernel in kernels() {
                prop_assert_eq!(kernel.first_hit(&lo, &hi, &set), expected, "{:?}", kernel);
            }
        }

        #[test]
        fn kernels_mark_the_same_rare_pairs(
            seq in prop::collection::vec(0u16..64, BATCH + 1..400),
            picks in prop::collection::btree_set(0usize..400, 0..40),
        ) {
            let top = seq.len() - BATCH;
            let rare: Vec<u32> = picks.iter().filter(|&&a| a <= top).map(|&a| a as u32).collect();
            let vals: Vec<u16> = rare.iter().map(|&a| seq[a as usize] ^ 5).collect();
            let mut expected = [0u64; BATCH];
            for (j, bits) in expected.iter_mut().enumerate() {
                for (&a, &va) in rare.iter().zip(&vals) {
                    *bits |= 1 << (va ^ seq[top + j - a as usize]);
                }
            }
            for kernel in kernels() {
                let mut out = [!0u64; BATCH];
                kernel.rare_bits(&seq, top, &rare, &vals, &mut out);
                prop_assert_eq!(out, expected, "{:?}", kernel);
            }
        }

        #[test]
        fn kernels_leave_the_same_values_unreached(
            bits in 1u32..8,
            pairs in prop::collection::vec((any::<u16>(), any::<u16>()), 0..300),
            wanted in any::<u64>(),
        ) {
            // Values up to 127, so XORs of 64 and more (which must not count) turn up too.
            let mask = ((1u32 << bits) - 1) as u16;
            let lo: Vec<u16> = pairs.iter().map(|p| p.0 & mask).collect();
            let hi: Vec<u16> = pairs.iter().map(|p| p.1 & mask).collect();
            // Below 64 values, only values that occur are wanted, so scans do stop early.
            let wanted = if bits < 6 { wanted & ((1u64 << (1u32 << bits)) - 1) } else { wanted };
            let mut expected = wanted;
            for (&x, &y) in lo.iter().zip(&hi) {
                if x ^ y < 64 {
                    expected &= !(1u64 << (x ^ y));
                }
            }
            for kernel in kernels() {
                let mut found = [u32::MAX; 64];
                let (left, scanned) = kernel.unreached(&lo, &hi, wanted, &mut found);
                prop_assert_eq!(left, expected, "{:?}", kernel);
                for (v, &at) in found.iter().enumerate() {
                    if (wanted & !left) >> v & 1 == 1 {
                        // The first pair reaching v.
                        let first = lo.iter().zip(&hi).position(|(&x, &y)| x ^ y == v as u16);
                        prop_assert_eq!(Some(at as usize), first, "{:?} {}", kernel, v);
                    }
                }
                prop_assert!(scanned <= lo.len(), "{:?}", kernel);
                // Stopping early is allowed only once every wanted value was reached.
                if scanned < lo.len() {
                    prop_assert_eq!(left, 0, "{:?}", kernel);
                }
            }
        }
    }
}
