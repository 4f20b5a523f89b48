#!/usr/bin/env bash
# The sanitizer suites (run by .ci/run; README.md, "Tests"):
#   1. AddressSanitizer + UndefinedBehaviorSanitizer, clang (--config=asan in
#      .bazelrc): every test except those tagged "no_asan". Their build is
#      also the fuzz targets' (scripts/fuzz.sh), so CI compiles the library
#      once for both. Left out (tag "no_asan", each with its reason in its
#      BUILD file): the benchmark programs' smoke tests (tools/bench), the
#      example programs (examples/), the kill -9 crash test and the
#      aggregation bounds test (16-100 MiB values by design); the memory
#      they touch is the library's, which the other tests cover.
#   2. ThreadSanitizer, gcc (--config=tsan): the tests tagged "tsan", whose
#      threads share one database: the concurrency test (docs/reliability.md),
#      the document cache, hidden writes, findAndModify's concurrent claims
#      and concurrent upserts of one key.
#   scripts/sanitizers.sh            both
#   scripts/sanitizers.sh asan|tsan  one
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# shellcheck source=scripts/bazel_cache.sh
source scripts/bazel_cache.sh
which=${1:-all}
if [ "$which" = all ] || [ "$which" = asan ]; then
  bazel test --config=asan --build_tests_only --test_tag_filters=-no_asan //...
fi
if [ "$which" = all ] || [ "$which" = tsan ]; then
  bazel test --config=tsan --build_tests_only --test_tag_filters=tsan //...
fi
