#!/usr/bin/env bash
# Builds the ttldb shell and runs the TTL demo (tools/demo.js, about 8 s) in
# a throw-away database directory, removed afterwards: the demo drops and
# refills its collection, so it never runs in your default database.
# With arguments, runs the shell with them instead (e.g. scripts/demo.sh
# --db /tmp/x, or no --db: the default data directory, $TTLDB_HOME, else
# $XDG_DATA_HOME/ttldb, else ~/.local/share/ttldb/default).
# The shell is the real mongosh: when Node.js and npm are installed and no
# mongosh is on PATH, the pinned one is installed (scripts/client_tests.sh
# --install, tests/clients/package-lock.json) and named by TTLDB_MONGOSH.
# Without Node.js, ttldb's built-in JavaScript subset runs instead (ttldb
# says so).
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "demo.sh: $*" >&2; }

say "checking the Debian packages ttldb needs (scripts/install-deps.sh)..."
bash scripts/install-deps.sh
# The optimized output directory itself, not the .bazel/bin symlink, which the
# next bazel command with other flags repoints.
bin="$(bazel info --config=opt bazel-bin 2>/dev/null)/tools/ttldb"
if [ -x "$bin" ]; then
  say "building ttldb (bazel build --config=opt //tools:ttldb; up to date in seconds)..."
else
  say "building ttldb for the first time (bazel build --config=opt //tools:ttldb):" \
    "this takes a few minutes; Bazel's progress follows."
fi
if ! bazel build --config=opt --show_progress_rate_limit=10 //tools:ttldb; then
  say "the build failed (see above)"
  exit 1
fi
if [ -z "${TTLDB_MONGOSH:-}" ] && ! command -v mongosh >/dev/null; then
  if command -v node >/dev/null && command -v npm >/dev/null; then
    say "installing the pinned mongosh (scripts/client_tests.sh --install; once)..."
    if bash scripts/client_tests.sh --install; then
      export TTLDB_MONGOSH="$PWD/tests/clients/node_modules/.bin/mongosh"
    fi
  else
    say "Node.js is not installed: the shell is ttldb's built-in JavaScript subset" \
      "(install nodejs and npm for the real mongosh)"
  fi
fi
if [ $# -gt 0 ]; then exec "$bin" "$@"; fi

demo_dir="$(mktemp -d "${TMPDIR:-/tmp}/ttldb-demo.XXXXXX")"
trap 'rm -rf "$demo_dir"' EXIT
say "running the TTL demo (tools/demo.js, about 8 s) in the throw-away" \
  "database $demo_dir (removed afterwards; your own data is not touched)"
echo >&2
"$bin" --db "$demo_dir" --quiet --ttl-monitor-sleep-secs 1 tools/demo.js
echo >&2
say "done. scripts/demo.sh --db DIR starts the shell on a database of your own."
