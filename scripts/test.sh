#!/usr/bin/env bash
# Runs ttldb's whole test suite: installs what is missing, builds, tests.
#   scripts/test.sh           the suite (unit, conformance, shell golden, examples),
#                             then ttldb as a dependency (scripts/check_consumers.sh:
#                             Bazel and CMake consumers, from clean builds), then the
#                             real-client tests (the Node.js driver and mongosh
#                             against `ttldb serve`, scripts/client_tests.sh)
#   scripts/test.sh --asan    the same Bazel suite under AddressSanitizer + UBSan
#   scripts/test.sh ARGS...   bazel test ARGS... //... only
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

config=()
if [ "${1:-}" = "--asan" ]; then config=(--config=asan); shift; fi
if [ ${#config[@]} -gt 0 ] || [ $# -gt 0 ]; then
  exec bazel test "${config[@]}" "$@" //...
fi
bazel test //...
bash scripts/check_consumers.sh
bash scripts/client_tests.sh
