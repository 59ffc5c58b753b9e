#!/usr/bin/env bash
# Times the README's two "On a fresh machine" commands on a fresh clone (its own target
# directory; the shared cargo registry is kept, as a newcomer's second project would).
#
#   scripts/newcomer-time.sh [REPO_OR_PATH [COMMIT]]
#
# Prints, for each command, the load average before it, its wall-clock and CPU seconds,
# and how many crates it compiled; then every crate the two commands both compiled (a
# crate built twice means the tests changed a dependency's features: one build is the
# goal). SICHER_KEEP_LOGS=DIR keeps the two build logs there.
set -euo pipefail
repo=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}
commit=${2:-HEAD}
dir=$(mktemp -d /tmp/sicher-fresh.XXXXXX)
trap 'rm -rf "$dir"' EXIT
git clone -q "$repo" "$dir/sicher"
cd "$dir/sicher"
git checkout -q "$commit"
unset CARGO_TARGET_DIR
export CARGO_TERM_COLOR=never
# The commands exactly as README.md's "On a fresh machine" block gives them.
mapfile -t commands < <(awk '/^## On a fresh machine/{on=1; next} /^## /{on=0} on && /^cargo /' README.md)
n=0
for command in "${commands[@]}"; do
    n=$((n + 1))
    echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "+ $command"
    # A failing command (say, a failing test) is reported, and its build still counted.
    /usr/bin/time -f "  wall %e s, user %U s, system %S s" bash -c "$command >$dir/out$n 2>$dir/log$n" ||
        { echo "  FAILED:"; tail -n 20 "$dir/out$n" "$dir/log$n" | sed 's/^/    /'; }
    grep -E '^ +Compiling ' "$dir/log$n" | awk '{print $2, $3}' | sort >"$dir/crates$n"
    echo "  compiled $(wc -l <"$dir/crates$n") crates"
done
if [ "$n" -ge 2 ]; then
    twice=$(comm -12 "$dir/crates1" "$dir/crates2" | tr '\n' ' ')
    echo "compiled by both: ${twice:-none}"
fi
if [ -n "${SICHER_KEEP_LOGS:-}" ]; then
    mkdir -p "$SICHER_KEEP_LOGS"
    cp "$dir"/log* "$dir"/out* "$dir"/crates* "$SICHER_KEEP_LOGS"/
fi
