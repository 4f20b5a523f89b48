#!/usr/bin/env bash
# The everyday test command (README.md, "The two commands"): installs what
# is missing, builds everything and runs every unit, conformance,
# reliability, shell-golden, example and real-client test, after the layer
# check (scripts/check_layers.sh).
#   scripts/test.sh            bazel test //..., then scripts/client_tests.sh
#                              (the Node.js driver and mongosh against
#                              `ttldb serve`)
#   scripts/test.sh ARGS...    bazel test ARGS... //... only
# Compiles are kept in Bazel's disk cache under the user's cache directory
# (scripts/bazel_cache.sh). The longer checks are commands of their own
# (README.md, "Tests": check_consumers.sh, sanitizers.sh, fuzz.sh); .ci/run
# runs them all. docs/development.md records this command's cold and warm
# times.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
bash scripts/install-deps.sh
# shellcheck source=scripts/bazel_cache.sh
source scripts/bazel_cache.sh
ttldb_prune_disk_cache
# The layering of docs/architecture.md (under a second, no build).
bash scripts/check_layers.sh
if [ $# -gt 0 ]; then exec bazel test "$@" //...; fi

# The client tests' npm packages download while Bazel compiles.
npm_log=$(mktemp "${TMPDIR:-/tmp}/ttldb_npm.XXXXXX")
trap 'rm -f "$npm_log"' EXIT
bash scripts/client_tests.sh --install >"$npm_log" 2>&1 &
npm_pid=$!
bazel_start=$SECONDS
bazel test //...
bazel_s=$((SECONDS - bazel_start))
if ! wait "$npm_pid"; then
  cat "$npm_log" >&2
  echo "ttldb: installing the client tests' npm packages failed" >&2
  exit 1
fi
clients_start=$SECONDS
bash scripts/client_tests.sh
echo "ttldb: scripts/test.sh passed in $((SECONDS - start)) s" \
  "(bazel test //...: ${bazel_s} s, client tests: $((SECONDS - clients_start)) s)"
