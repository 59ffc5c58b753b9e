//! The sparse-space engine against the plain definition, on every path and kernel.

use super::super::scan::Kernel;
use super::super::{nim_values, Method, Nimber, Sequence, Values};
use super::SparseSpace;
use crate::game::{resolve, Radix, Ruleset, TakeBreakCode};
use proptest::prelude::*;

fn rules(spec: &str) -> Ruleset {
    resolve(spec).unwrap().ruleset
}

fn both(ruleset: &Ruleset, len: u64) -> (Vec<Nimber>, Vec<Nimber>) {
    (
        nim_values(ruleset, Method::Reference, len).unwrap(),
        nim_values(ruleset, Method::Fast, len).unwrap(),
    )
}

/// OEIS A002188, the first 100 values.
const GRUNDY_100: [Nimber; 100] = [
    0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1,
    2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3, 2, 1, 3, 2,
    4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5, 2, 4, 5, 2, 4, 3, 7, 4, 3, 7, 4, 3, 7, 4, 3,
    5, 2, 3, 5,
];

#[test]
fn grundys_game_matches_oeis() {
    let (reference, fast) = both(&Ruleset::Grundy, 100);
    assert_eq!(reference, GRUNDY_100);
    assert_eq!(fast, GRUNDY_100);
}

#[test]
fn kayles_starts_as_published() {
    // OEIS A002186.
    let (reference, fast) = both(&rules("octal:0.77"), 12);
    assert_eq!(reference, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    assert_eq!(fast, reference);
}

#[test]
fn engines_agree_on_classic_games() {
    for spec in [
        "octal:0.77",
        "octal:0.07",
        "octal:0.137",
        "octal:0.007",
        "octal:0.6",
        "octal:0.16",
        "octal:4.07",
        "octal:0.51",
        "hex:0.F6",
        "subtraction:1,3,4",
        "grundy",
    ] {
        let (reference, fast) = both(&rules(spec), 3000);
        assert_eq!(reference, fast, "{spec}");
    }
    let (reference, fast) = both(&Ruleset::Nim, 300);
    assert_eq!(reference, fast);
}

#[test]
fn vector_engine_equals_reference_on_long_runs() {
    // Long enough for hundreds of values wanting witnesses at once (Treblecross has no
    // sparse split), the marking of first pairs, and several witness windows.
    for (spec, len) in [("octal:0.007", 9000), ("octal:0.6", 9000), ("grundy", 6000)] {
        let (reference, fast) = both(&rules(spec), len);
        assert_eq!(reference, fast, "{spec}");
    }
}

#[test]
fn every_scan_kernel_gives_the_same_values() {
    for spec in [
        "octal:0.007",
        "octal:0.6",
        "octal:0.16",
        "octal:0.77",
        "grundy",
    ] {
        let ruleset = rules(spec);
        let reference = nim_values(&ruleset, Method::Reference, 3000).unwrap();
        for kernel in [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512] {
            if kernel != Kernel::Scalar && kernel != Kernel::detect() {
                // Only what this processor runs (AVX-512 machines run AVX2 too).
                if !(kernel == Kernel::Avx2 && Kernel::detect() == Kernel::Avx512) {
                    continue;
                }
            }
            // Both the one-word path and the byte marks (Grundy's game, 0.16 and 0.77
            // stay below 64 within these values).
            for word_cap in [64, 0] {
                let mut fast = SparseSpace::new(&ruleset).unwrap();
                fast.kernel = kernel;
                fast.word_cap = word_cap;
                fast.extend_to(3000);
                assert_eq!(
                    fast.values(),
                    &reference[..],
                    "{spec} {kernel:?} {word_cap}"
                );
            }
        }
    }
}

#[test]
fn wide_engine_equals_reference() {
    // The 32-bit path takes over once values pass 2^15; force it from the start.
    for spec in [
        "octal:0.77",
        "octal:0.007",
        "octal:0.16",
        "octal:0.6",
        "grundy",
    ] {
        let ruleset = rules(spec);
        let mut wide = SparseSpace::new(&ruleset).unwrap();
        wide.narrow = false;
        wide.extend_to(2500);
        let reference = nim_values(&ruleset, Method::Reference, 2500).unwrap();
        assert_eq!(wide.values(), &reference[..], "{spec}");
    }
}

#[test]
fn values_carry_over_from_the_16_bit_copies_to_32_bits() {
    // Past 2^15 the engine widens its values in the middle of a run; do it early here.
    for spec in ["octal:0.6", "octal:0.16", "grundy"] {
        let ruleset = rules(spec);
        let mut fast = SparseSpace::new(&ruleset).unwrap();
        fast.extend_to(1500);
        assert!(matches!(fast.values(), Values::Narrow(_)), "{spec}");
        fast.widen();
        assert!(matches!(fast.values(), Values::Wide(_)), "{spec}");
        fast.extend_to(2500);
        let reference = nim_values(&ruleset, Method::Reference, 2500).unwrap();
        assert_eq!(fast.values(), &reference[..], "{spec}");
    }
}

#[test]
fn long_runs_hold_two_bytes_a_value_twice_and_little_else() {
    // Officers to 2^20: values below 2^15, so the two 16-bit copies and the rare heaps,
    // plus the engine's own period finder (a key and a bucket entry per candidate).
    let ruleset = rules("octal:0.6");
    let len = 1 << 20;
    let mut fast = super::super::engine(&ruleset, Method::Fast, len as u64).unwrap();
    fast.extend_to(len);
    assert!(matches!(fast.values(), Values::Narrow(_)));
    let held = fast.held_bytes() as f64 / len as f64;
    let estimate = (super::super::bytes_needed(&ruleset, Method::Fast, len as u64)
        + super::super::finder_bytes(&ruleset, len as u64)) as f64
        / len as f64;
    assert!(
        held < estimate,
        "{held} bytes a value held, {estimate} estimated"
    );
    assert!(held < 12.0, "{held} bytes a value");
    let values = fast.into_prefix(1000);
    assert_eq!(
        values,
        nim_values(&ruleset, Method::Reference, 1000).unwrap()
    );
}

#[test]
fn an_engine_resumed_from_known_values_goes_on_alike() {
    for spec in [
        "octal:0.6",
        "octal:0.16",
        "octal:0.77",
        "grundy",
        "octal:4.364",
    ] {
        let ruleset = rules(spec);
        let reference = nim_values(&ruleset, Method::Reference, 3000).unwrap();
        for cut in [2, 100, 1500, 2999] {
            let mut resumed = SparseSpace::new(&ruleset).unwrap();
            assert!(resumed.preload(&reference[..cut]));
            resumed.extend_to(3000);
            assert_eq!(resumed.values(), &reference[..], "{spec} from {cut}");
        }
    }
}

#[test]
fn sparse_space_finds_a_sparse_split_for_kayles_and_grundy() {
    for spec in ["octal:0.77", "grundy", "octal:0.16"] {
        let mut fast = SparseSpace::new(&rules(spec)).unwrap();
        fast.extend_to(20_000);
        assert!(fast.rare_count() < 2_000, "{spec}: {}", fast.rare_count());
    }
}

/// The engine on `threads` threads, with blocks of `width` heaps from heap `from` on,
/// whatever the number of rare heaps (so that short runs use them too).
fn threaded(ruleset: &Ruleset, threads: usize, width: usize, from: usize) -> SparseSpace {
    let mut fast = SparseSpace::new(ruleset).unwrap();
    fast.set_threads(threads);
    (fast.ahead.width, fast.ahead.from, fast.ahead.min_rare) = (width, from, 1);
    fast
}

#[test]
fn threads_give_the_serial_values_on_long_runs() {
    // Officers has 1583 rare heaps (values to 319, byte marks), Grundy's game splits into
    // unequal parts only, 0.16 stays below 64 (one word a heap) and 4.364 splits without
    // taking (t = 0).
    for (spec, len) in [
        ("octal:0.6", 200_000),
        ("grundy", 150_000),
        ("octal:0.16", 200_000),
        ("octal:4.364", 100_000),
    ] {
        let ruleset = rules(spec);
        let serial = nim_values(&ruleset, Method::Fast, len as u64).unwrap();
        for threads in [2, 3, 5] {
            let mut fast = threaded(&ruleset, threads, 256, 2048);
            fast.extend_to(len);
            assert!(fast.ahead.used > 0, "{spec}: no block used");
            assert_eq!(fast.values(), &serial[..], "{spec} on {threads} threads");
        }
    }
}

#[test]
fn a_threaded_engine_resumes_and_widens_alike() {
    let ruleset = rules("octal:0.6");
    let reference = nim_values(&ruleset, Method::Reference, 3000).unwrap();
    let mut resumed = threaded(&ruleset, 3, 16, 64);
    assert!(resumed.preload(&reference[..1200]));
    resumed.extend_to(2000);
    resumed.widen();
    resumed.extend_to(3000);
    assert_eq!(resumed.values(), &reference[..]);
    assert_eq!(Box::new(resumed).into_prefix(3000), reference);
}

fn code_strategy() -> impl Strategy<Value = Ruleset> {
    codes_of_up_to(4)
}

/// Codes of up to 7 digits after the point (moves take up to 7), any digits.
fn long_code_strategy() -> impl Strategy<Value = Ruleset> {
    codes_of_up_to(7)
}

/// Octal codes with `d0` 0 or 4 and 1 to `digits` digits after the point.
fn codes_of_up_to(digits: usize) -> impl Strategy<Value = Ruleset> {
    (
        prop::sample::select(vec![0u8, 4]),
        prop::collection::vec(0u8..8, 1..digits + 1),
    )
        .prop_map(|(d0, digits)| {
            let text: String = std::iter::once(format!("{d0}."))
                .chain(digits.iter().map(|d| d.to_string()))
                .collect();
            Ruleset::TakeBreak(TakeBreakCode::parse(&text, Radix::Octal).unwrap())
        })
}

/// The scan kernels this processor runs.
fn runnable_kernels() -> Vec<Kernel> {
    let mut kernels = vec![Kernel::Scalar];
    match Kernel::detect() {
        Kernel::Avx512 => kernels.extend([Kernel::Avx2, Kernel::Avx512]),
        Kernel::Avx2 => kernels.push(Kernel::Avx2),
        Kernel::Scalar => {}
    }
    kernels
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn sparse_space_equals_mex_reference(ruleset in code_strategy(), len in 1u64..400) {
        let (reference, fast) = both(&ruleset, len);
        prop_assert_eq!(reference, fast);
    }

    #[test]
    fn every_path_and_kernel_equals_mex_reference(
        ruleset in long_code_strategy(),
        len in 300usize..2500,
    ) {
        // Longer codes mix splits of both parities and several takes; lengths past the
        // first reviews give real rare/common splits.
        let reference = nim_values(&ruleset, Method::Reference, len as u64).unwrap();
        for kernel in runnable_kernels() {
            for word_cap in [64, 0] {
                let mut fast = SparseSpace::new(&ruleset).unwrap();
                fast.kernel = kernel;
                fast.word_cap = word_cap;
                fast.extend_to(len);
                prop_assert_eq!(fast.values(), &reference[..], "{} {:?} {}", ruleset, kernel, word_cap);
            }
        }
    }

    #[test]
    fn threads_give_the_reference_values(
        ruleset in long_code_strategy(),
        len in 300usize..3000,
        threads in 2usize..5,
        width in prop::sample::select(vec![8usize, 16, 64]),
    ) {
        // Blocks from heap 100 on, on the one-word path and on byte marks.
        let reference = nim_values(&ruleset, Method::Reference, len as u64).unwrap();
        for word_cap in [64, 0] {
            let mut fast = threaded(&ruleset, threads, width, 100);
            fast.word_cap = word_cap;
            fast.extend_to(len);
            prop_assert_eq!(fast.values(), &reference[..], "{} {} {}", ruleset, threads, word_cap);
        }
    }

    #[test]
    fn threads_give_the_reference_values_of_hex_codes(
        digits in prop::collection::vec(prop::sample::select(vec![0u8, 1, 2, 3, 4, 5, 6, 7, 9, 12, 15]), 1..5),
        threads in 2usize..4,
    ) {
        let text: String = std::iter::once("0.".to_string())
            .chain(digits.iter().map(|d| format!("{d:X}")))
            .collect();
        let ruleset = Ruleset::TakeBreak(TakeBreakCode::parse(&text, Radix::Hex).unwrap());
        // Digits from 8 on leave three heaps: another engine's.
        prop_assume!(SparseSpace::new(&ruleset).is_some());
        let reference = nim_values(&ruleset, Method::Reference, 1500).unwrap();
        let mut fast = threaded(&ruleset, threads, 16, 64);
        fast.extend_to(1500);
        prop_assert_eq!(fast.values(), &reference[..], "{}", ruleset);
    }

    #[test]
    fn hex_codes_agree(digits in prop::collection::vec(0u8..16, 1..4)) {
        let text: String = std::iter::once("0.".to_string())
            .chain(digits.iter().map(|d| format!("{d:X}")))
            .collect();
        let ruleset = Ruleset::TakeBreak(TakeBreakCode::parse(&text, Radix::Hex).unwrap());
        let (reference, fast) = both(&ruleset, 120);
        prop_assert_eq!(reference, fast);
    }
}
