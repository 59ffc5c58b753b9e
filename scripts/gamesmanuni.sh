#!/usr/bin/env bash
# The end-to-end check of the Universal Web API (docs/web.md): GamesmanUni, GamesCrafters'
# web front end, built from its public repository with only its API address changed,
# plays sicher's games against `sicher serve`. Nothing of GamesmanUni (AGPL) is kept in
# this repository: it is cloned into a temporary directory (or copied from $GAMESMANUNI,
# a checkout) and removed afterwards. Needs git and network access to GitHub and the npm
# registry, node, Debian's chromium, and tests/web's packages (npm ci --prefix tests/web).
#
#   scripts/gamesmanuni.sh [path/to/sicher]       (default: target/release/sicher)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/sicher}
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

if [ -n "${GAMESMANUNI:-}" ]; then
  cp -r "$GAMESMANUNI" "$work/uni"
else
  git clone --quiet --depth 1 https://github.com/GamesCrafters/GamesmanUni "$work/uni"
fi

"$bin" serve --port 0 > "$work/serve.out" &
pids+=($!)
for _ in $(seq 100); do grep -q 'http://' "$work/serve.out" && break; sleep 0.1; done
url=$(grep -o 'http://[^ ]*' "$work/serve.out")

# The one change: where GamesmanUni asks for its games.
sed -i "s|gameAPI: \"[^\"]*\"|gameAPI: \"${url}uwapi/\"|" "$work/uni/src/models/datas/defaultApp.ts"
(cd "$work/uni" && node .yarn/releases/yarn-*.cjs install >/dev/null && node_modules/.bin/vite build >/dev/null)

port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
(cd "$work/uni" && exec node_modules/.bin/vite preview --host 127.0.0.1 --port "$port" >/dev/null) &
pids+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/uni/" >/dev/null && break; sleep 0.2; done
node tests/web/gamesmanuni.mjs "http://127.0.0.1:$port/uni/"
