#!/usr/bin/env bash
# Runs ttldb's whole test suite: installs what is missing, builds, tests.
#   scripts/test.sh           the suite (unit, conformance, shell golden, examples)
#   scripts/test.sh --asan    the same suite under AddressSanitizer + UBSan
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

config=()
if [ "${1:-}" = "--asan" ]; then config=(--config=asan); shift; fi
exec bazel test "${config[@]}" "$@" //...
