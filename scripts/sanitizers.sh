#!/usr/bin/env bash
# The sanitizer suites (run by .ci/run; README.md, "Tests"):
#   1. AddressSanitizer + UndefinedBehaviorSanitizer, clang (--config=asan in
#      .bazelrc), on the tests that exercise memory (ASAN_TESTS below): the
#      code that reads what a client, a file or a peer sends (the JSON, BSON
#      and wire parsers, the shell's parser, import), that owns or shares
#      buffers (document values, the document cache, raw reads, cursors,
#      index keys, 16 MiB documents), that evaluates queries, updates and
#      pipelines over arrays and strings, and the engine and command tests
#      that drive all of it through the public API, plus the hostile-input,
#      fault and damaged-file tests. Left out, each also run by
#      scripts/test.sh: tests of arithmetic and rules over values those
#      tests already cover (TTL schedules and index rules, the planner,
#      logging, status, mutex), the randomized equivalence and compaction
#      runs and the Python-driven shell tests (slow under ASan, no memory
#      paths of their own), the kill -9, power-cut and data-loss harnesses
#      (tests of LevelDB's durability), the benchmarks' and examples'
#      smoke tests, and the aggregation bounds test (16-100 MiB values by
#      design). The fuzz targets (scripts/fuzz.sh) are built with the same
#      configuration, so CI compiles the library once for both.
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
ASAN_TESTS=(
  # Parsers and values: JSON (both parsers), BSON, Decimal128, dates, paths.
  //document/...
  # The wire protocol: message framing, BSON <-> value, the server itself.
  //server/... //tests/wire/...
  # The storage layer (the one DocumentWriter, entries, raw field scans,
  # write walks, LevelDB status mapping), the engine's own tests, index keys
  # (multikey arrays).
  //storage/... //engine/... //index:key_codec_test //index:key_gen_test
  # The catalog: its entries, their compile, the published catalog.
  //catalog/...
  # Query, update, projection and sort evaluation; every aggregation
  # expression and accumulator.
  //query/... //expr/... //pipeline/...
  # Commands: CRUD, cursors and their ownership, SCRAM, users and roles.
  //commands/...
  # The engine through the public API.
  //tests:aggregate_test //tests:union_graph_lookup_test //tests:api_boundary_test
  //tests:bounded_resources_test //tests/backends:bulk_write_test
  //tests/backends:find_and_modify_test //tests/backends:change_stream_test
  //tests/backends:hidden_writes_test
  //tests:decimal_test //tests:doc_cache_test //tests:document_size_test
  //tests:engine_test //tests:find_and_modify_test
  //tests:hidden_writes_test
  //tests:interrupt_test
  //tests:matcher_conformance_test
  //tests:positional_test //tests:raw_read_test
  # Hostile and damaged input.
  //tests/reliability:hostile_input_test //tests/reliability:fault_test
  //tests/reliability:catalog_damage_test //tests/reliability:repair_test
  //tests/reliability:regex_subject_test //tests/reliability:disk_full_open_test
  # The shell's parser and evaluator, import and export.
  //tools/shell:parser_test //tools/shell:evaluator_test
  //tools/shell:value_format_test //tools:import_export_test
)
if [ "$which" = all ] || [ "$which" = asan ]; then
  bazel test --config=asan --build_tests_only --test_tag_filters=-no_asan \
    "${ASAN_TESTS[@]}"
fi
if [ "$which" = all ] || [ "$which" = tsan ]; then
  bazel test --config=tsan --build_tests_only --test_tag_filters=tsan //...
fi
