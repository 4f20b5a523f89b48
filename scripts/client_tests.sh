#!/usr/bin/env bash
# Real MongoDB clients against `ttldb serve`: the official Node.js driver
# and mongosh, pinned in tests/clients/package-lock.json and installed with
# `npm ci` (only when node_modules is missing or older than the lock file).
#   scripts/client_tests.sh             every tests/clients/*.test.mjs
#   scripts/client_tests.sh driver      one of them
#   scripts/client_tests.sh --install   only the npm install (scripts/test.sh
#                                       runs it while Bazel compiles)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "client tests need node and npm (Node.js 18 or later)" >&2
  exit 1
fi
clients=tests/clients
if [ ! -d "$clients/node_modules" ] || \
   [ "$clients/package-lock.json" -nt "$clients/node_modules/.package-lock.json" ]; then
  (cd "$clients" && npm ci --no-audit --no-fund --loglevel=error)
fi
[ "${1:-}" = "--install" ] && exit 0
# shellcheck source=scripts/bazel_cache.sh
source scripts/bazel_cache.sh
bazel build //tools:ttldb
export TTLDB_BIN="$PWD/.bazel/bin/tools/ttldb"
if [ $# -gt 0 ]; then
  files=()
  for t in "$@"; do files+=("$clients/$t.test.mjs"); done
else
  files=("$clients"/*.test.mjs)
fi
# One file at a time: each starts its own server; the machine may be small.
exec node --test --test-concurrency=1 "${files[@]}"
