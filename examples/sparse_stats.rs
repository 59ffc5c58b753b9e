//! Measures the sparse-space engine: rare heaps, chosen mask and witness pairs scanned at each
//! doubling of the heap size (`cargo run --release --example sparse_stats octal:0.6 1000000`).

use sicher::grundy::{Sequence, SparseSpace};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = sicher::game::resolve(&args[1]).unwrap().ruleset;
    let n: usize = args[2].parse().unwrap();
    let mut s = SparseSpace::new(&rules).unwrap();
    let t = std::time::Instant::now();
    let mut next = 1024;
    while next <= n {
        s.extend_to(next);
        eprintln!(
            "n={next} rare={} split={:?} pairs={} max={} t={:?}",
            s.rare_count(),
            s.split(),
            s.pairs_scanned(),
            s.values().iter().max().unwrap(),
            t.elapsed()
        );
        next *= 2;
    }
}
