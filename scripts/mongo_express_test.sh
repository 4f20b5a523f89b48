#!/usr/bin/env bash
# mongo-express (the web admin UI) against `ttldb serve`, driven in headless
# Chromium: tests/mongo_express/mongo_express.test.mjs. Separate from
# scripts/test.sh because of the browser (Debian's chromium, about 300 MB
# installed): installs it with apt-get when missing, and mongo-express and
# playwright-core from tests/mongo_express/package-lock.json with `npm ci`
# (only when node_modules is missing or older than the lock file).
# CHROMIUM names another browser binary (default /usr/bin/chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "ttldb: installing chromium" >&2
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    --no-install-recommends chromium >/dev/null
fi
# The harness (tests/clients/harness.mjs) uses the client tests' driver.
bash scripts/client_tests.sh --install
dir=tests/mongo_express
if [ ! -d "$dir/node_modules" ] || \
   [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
# shellcheck source=scripts/bazel_cache.sh
source scripts/bazel_cache.sh
bazel build //tools:ttldb
export TTLDB_BIN="$PWD/.bazel/bin/tools/ttldb"
exec node --test --test-concurrency=1 "$dir/mongo_express.test.mjs"
