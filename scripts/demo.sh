#!/usr/bin/env bash
# Builds the ttldb shell and runs the TTL demo on the default data directory.
# With arguments, runs the shell with them instead (e.g. scripts/demo.sh --db /tmp/x).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bazel build -c opt //tools:ttldb >/dev/null 2>&1 || bazel build -c opt //tools:ttldb
bin=.bazel/bin/tools/ttldb
if [ $# -gt 0 ]; then exec "$bin" "$@"; fi
exec "$bin" --ttl-monitor-sleep-secs 1 tools/demo.js
