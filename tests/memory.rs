//! The memory estimate of a plan against what labelling allocates, counted by a global
//! allocator. A test binary of its own (not a module of `tests/main.rs`): the count is
//! process-wide, so no other test may allocate beside it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use sicher::atomic_file::Replace;
use sicher::domain::Domain;
use sicher::game::{resolve, Convention};
use sicher::label::{Plan, WorkDir};
use sicher::table::Storage;

/// Counts the bytes this test process holds, and the peak since the last reset.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let held = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(held, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Labels in this process and returns the plan's estimate and the peak bytes allocated
/// while it ran; a streaming plan also streams the outcomes it left in the work
/// directory to a table (flat: a compressed table's prediction is not the labeller's).
fn estimate_and_peak(
    spec: &str,
    convention: Convention,
    domain: Domain,
    remote: bool,
    stream: bool,
) -> (u64, u64) {
    let dir = tempfile::tempdir().unwrap();
    let game = resolve(spec).unwrap().with_convention(convention);
    let output = dir.path().join("m.table");
    let mut plan = Plan::new(&game, domain, None, Some(1))
        .unwrap()
        .with_work_dir(WorkDir::beside(&output));
    if remote {
        plan = plan.with_remoteness();
    }
    if stream {
        plan = plan.streaming(sicher::table::WRITER_BYTES);
    }
    let before = HELD.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let labelled = plan.run(&|_| {}).unwrap();
    if labelled.labels.is_none() {
        let mut writer =
            sicher::build::outcomes_writer(&output, &game, domain, Storage::Flat, Replace::Never)
                .unwrap();
        plan.stream_outcomes(|words| writer.push(words)).unwrap();
        writer.finish().unwrap();
    }
    assert_eq!(
        labelled.labels.is_none(),
        stream && !remote,
        "{spec} {domain}"
    );
    let peak = PEAK.load(Ordering::Relaxed) - before;
    drop(labelled);
    plan.discard_work().unwrap();
    (plan.bytes_needed(), peak as u64)
}

#[test]
fn the_memory_estimate_matches_what_is_allocated() {
    for (spec, convention, domain, remote, stream) in [
        (
            "kayles",
            Convention::Misere,
            Domain::Total { total: 60 },
            false,
            false,
        ),
        // Streamed to the table: only the tiers moves reach are ever held.
        (
            "kayles",
            Convention::Misere,
            Domain::Total { total: 70 },
            false,
            true,
        ),
        (
            "kayles",
            Convention::Normal,
            Domain::Total { total: 44 },
            true,
            false,
        ),
        (
            "nim",
            Convention::Misere,
            Domain::Heaps { heaps: 3, max: 400 },
            false,
            false,
        ),
        (
            "nim",
            Convention::Normal,
            Domain::Heaps { heaps: 3, max: 400 },
            false,
            false,
        ),
        (
            "subtraction:1,3,4",
            Convention::Normal,
            Domain::Heaps {
                heaps: 1,
                max: 20_000_000,
            },
            false,
            false,
        ),
        (
            "wythoff",
            Convention::Normal,
            Domain::Heaps {
                heaps: 2,
                max: 2000,
            },
            false,
            false,
        ),
    ] {
        let (estimate, peak) = estimate_and_peak(spec, convention, domain, remote, stream);
        let ratio = peak as f64 / estimate as f64;
        assert!(
            (0.5..=1.4).contains(&ratio),
            "{spec} {convention} {domain}: estimated {estimate} bytes, allocated {peak} at the peak"
        );
    }
}
