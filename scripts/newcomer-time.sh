#!/usr/bin/env bash
# Times the README's two "On a fresh machine" commands on a fresh clone (its own target
# directory; the shared cargo registry is kept, as a newcomer's second project would).
#
#   scripts/newcomer-time.sh [REPO_OR_PATH [COMMIT]]
#
# Prints wall-clock and CPU seconds of each command and the load average before each.
set -euo pipefail
repo=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}
commit=${2:-HEAD}
dir=$(mktemp -d /tmp/sicher-fresh.XXXXXX)
trap 'rm -rf "$dir"' EXIT
git clone -q "$repo" "$dir/sicher"
cd "$dir/sicher"
git checkout -q "$commit"
unset CARGO_TARGET_DIR
# The commands exactly as README.md's "On a fresh machine" block gives them.
mapfile -t commands < <(awk '/^## On a fresh machine/{on=1; next} /^## /{on=0} on && /^cargo /' README.md)
for command in "${commands[@]}"; do
    echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "+ $command"
    /usr/bin/time -f "  wall %e s, user %U s, system %S s" bash -c "$command >/dev/null 2>$dir/log || { tail -20 $dir/log; exit 1; }"
done
