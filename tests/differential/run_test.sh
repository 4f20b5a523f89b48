#!/usr/bin/env bash
# Bazel entry point of the mingo differential test: node diff.js with the
# agg_run binary. mingo is installed into the source tree's
# tests/differential/node_modules by `npm ci` (from package-lock.json) when
# missing; scripts/install-deps.sh does it too.
set -euo pipefail
agg_run=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Under `bazel test` the script runs from runfiles: find the source tree.
src=$here
if [ ! -d "$src/node_modules" ] && [ -L "${BASH_SOURCE[0]}" ]; then
  src=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
fi
cd "$src"
if [ ! -d node_modules/mingo ]; then
  # The lock file pins mingo; npm ci installs exactly that.
  npm ci --no-audit --no-fund >&2
fi
exec node diff.js "$agg_run" --cases "${DIFF_CASES:-800}" --seed "${DIFF_SEED:-1}"
