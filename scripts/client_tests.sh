#!/usr/bin/env bash
# Real MongoDB clients against `ttldb serve`: the official Node.js driver,
# mongosh and the npm libraries (connect-mongo, mongoose, agenda), pinned in
# tests/clients/package-lock.json and installed with `npm ci` (only when
# node_modules is missing or older than the lock file); and pymongo, Debian's
# python3-pymongo (scripts/install-deps.sh), run by Debian's /usr/bin/python3
# (a `python3` earlier on PATH may be a pyenv one without it).
#   scripts/client_tests.sh             every tests/clients/*.test.mjs, then
#                                       every tests/clients/*_test.py
#   scripts/client_tests.sh driver      one of them: NAME.test.mjs, or
#   scripts/client_tests.sh pymongo     NAME_test.py
#   scripts/client_tests.sh --install   only the npm install (scripts/test.sh
#                                       runs it while Bazel compiles)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "client tests need node and npm (Node.js 20.19 or later)" >&2
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
files=()
pyfiles=()
if [ $# -gt 0 ]; then
  for t in "$@"; do
    if [ -f "$clients/${t}_test.py" ]; then pyfiles+=("$clients/${t}_test.py")
    else files+=("$clients/$t.test.mjs"); fi
  done
else
  files=("$clients"/*.test.mjs)
  pyfiles=("$clients"/*_test.py)
fi
# One file at a time: each starts its own server; the machine may be small.
if [ ${#files[@]} -gt 0 ]; then
  node --test --test-concurrency=1 "${files[@]}"
fi
python=/usr/bin/python3
if [ ${#pyfiles[@]} -gt 0 ] && ! "$python" -c 'import pymongo' 2>/dev/null; then
  echo "the pymongo tests need Debian's python3-pymongo" \
    "(scripts/install-deps.sh installs it)" >&2
  exit 1
fi
for f in "${pyfiles[@]}"; do
  echo "# $f"
  "$python" "$f"
done
