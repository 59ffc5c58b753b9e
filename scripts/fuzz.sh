#!/usr/bin/env bash
# Long fuzzing runs: every target of tests/fuzz.rs for RUNS executions (default two
# million), in an optimised build that keeps overflow checks and debug assertions (the
# `fuzz` profile in Cargo.toml), so arithmetic that would wrap silently in a release
# build still stops the run.
#
#   scripts/fuzz.sh [RUNS [SEED]]         e.g. scripts/fuzz.sh 5000000
#   THREADS=1 scripts/fuzz.sh 100000      one target at a time
#   FILTER="specs positions" scripts/fuzz.sh   only the tests whose names hold a word
#
# Prints executions, rate, corpus and crashes per target; failing inputs are saved under
# target/tmp/fuzz-crashes/ and replay with
#   SICHER_FUZZ_REPLAY=FILE cargo test --profile fuzz --test sicher fuzz::replay -- --nocapture
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-2000000}
seed=${2:-$(date +%s)}
log=target/fuzz-$seed.log
mkdir -p target
echo "fuzzing: $runs executions per target, seed $seed, log $log"
SICHER_FUZZ_RUNS=$runs SICHER_FUZZ_SEED=$seed \
    cargo test --profile fuzz --test sicher -- --nocapture --test-threads "${THREADS:-2}" "fuzz::${FILTER:-}" 2>&1 |
    tee "$log"
status=${PIPESTATUS[0]}
echo
grep '^fuzz ' "$log" || true
exit "$status"
