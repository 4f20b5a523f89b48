#!/usr/bin/env bash
# Builds the ttldb shell and runs the TTL demo (tools/demo.js, about 8 s) on
# the default data directory ($TTLDB_HOME, else $XDG_DATA_HOME/ttldb, else
# ~/.local/share/ttldb/default; the shell prints which).
# With arguments, runs the shell with them instead (e.g. scripts/demo.sh --db /tmp/x).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bazel build -c opt //tools:ttldb >/dev/null 2>&1 || bazel build -c opt //tools:ttldb
# The -c opt output directory itself, not the .bazel/bin symlink, which the
# next bazel command with other flags repoints.
bin="$(bazel info -c opt bazel-bin 2>/dev/null)/tools/ttldb"
if [ $# -gt 0 ]; then exec "$bin" "$@"; fi
exec "$bin" --ttl-monitor-sleep-secs 1 tools/demo.js
