#!/usr/bin/env bash
# The full benchmark of docs/BENCHMARKS.md: installs dependencies, builds
# ttldb_bench optimized, runs every workload on ttldb, raw LevelDB (the
# limit) and SQLite (medians of 3 runs), and writes the table and charts to
# docs/bench/. Takes several minutes on 2 cores. Extra arguments go to
# ttldb_bench (e.g. --runs=5, --big_expired=100000, --quick).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
bazel build -c opt //tools/bench:ttldb_bench
bin="$(bazel info -c opt bazel-bin 2>/dev/null)/tools/bench/ttldb_bench"
mkdir -p docs/bench
"$bin" --runs=3 --csv=docs/bench/results.csv "$@" | tee docs/bench/results.md
python3 tools/bench/chart.py docs/bench/results.csv docs/bench
echo "wrote docs/bench/results.md, results.csv, throughput.svg, sweep_scaling.svg"
