#!/usr/bin/env bash
# Rewrites tools/testdata/*.out from the current //tools:ttldb. Review the
# diff (git diff tools/testdata) before committing.
# usage: tools/update_goldens.sh [NAME ...]
set -euo pipefail
cd "$(dirname "$0")/.."
bazel build //tools:ttldb
bin="$(bazel info bazel-bin 2>/dev/null)/tools/ttldb"
exec bash tools/golden_test.sh "$bin" tools/testdata --update "$@"
