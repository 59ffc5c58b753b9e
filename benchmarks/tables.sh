#!/usr/bin/env bash
# The labeller benchmark of issue 3: each domain labelled with the default strategy and
# with the plain baseline in the same invocation (--compare-plain checks they agree),
# release build. Prints one JSON line per domain. Wythoff's plain run takes minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
sicher=target/release/sicher
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { "$sicher" table "$@" --compare-plain --force --quiet --json -o "$out/t.table"; }
run subtraction:1,3,4 --heaps 1 --max 100000000
run nim --heaps 3 --max 255
run kayles --total 60 --misere
[ "${SKIP_WYTHOFF:-}" ] || run wythoff --heaps 2 --max 4000
