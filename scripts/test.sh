#!/usr/bin/env bash
# Runs ttldb's whole test suite: installs what is missing, builds, tests.
#   scripts/test.sh           the suite (unit, conformance, shell golden,
#                             examples), then the real-client tests (the
#                             Node.js driver and mongosh against `ttldb serve`,
#                             scripts/client_tests.sh)
#   scripts/test.sh --asan    the Bazel suite under AddressSanitizer + UBSan
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

config=()
if [ "${1:-}" = "--asan" ]; then config=(--config=asan); shift; fi
bazel test "${config[@]}" "$@" //...
if [ ${#config[@]} -eq 0 ] && [ $# -eq 0 ]; then
  bash scripts/client_tests.sh
fi
