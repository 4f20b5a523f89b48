#!/usr/bin/env bash
# The full benchmark of docs/BENCHMARKS.md: installs dependencies, builds
# ttldb_bench optimized, runs every workload on ttldb, raw LevelDB (the
# limit) and SQLite (medians of 3 runs), and writes the table and charts to
# docs/bench/. Takes several minutes on 2 cores. Extra arguments go to
# ttldb_bench (e.g. --runs=5, --big_expired=100000, --quick).
# Then, when node and npm are there, the same workloads on NeDB
# (tools/bench/nedb/, same arguments) and docs/bench/nedb.md, ttldb beside
# NeDB from this run. NeDB is optional: if npm cannot install it (no
# registry) or its run fails, it is skipped with a message and the ttldb
# results stand. SKIP_NEDB=1 skips it.
# `scripts/bench.sh wire [ARGS]`: the many-connection benchmark instead
# (scripts/wire_bench.sh: `ttldb serve` and libmongoc clients, then the
# in-process writers; ARGS go to tools/bench/wire_bench).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ "${1:-}" = wire ]; then
  shift
  exec scripts/wire_bench.sh "$@"
fi
bazel build --config=opt //tools/bench:ttldb_bench
bin="$(bazel info --config=opt bazel-bin 2>/dev/null)/tools/bench/ttldb_bench"
mkdir -p docs/bench
"$bin" --runs=3 --csv=docs/bench/results.csv "$@" | tee docs/bench/results.md
python3 tools/bench/chart.py docs/bench/results.csv docs/bench
echo "wrote docs/bench/results.md, results.csv, throughput.svg, sweep_scaling.svg"

run_nedb() {
  if [ -n "${SKIP_NEDB:-}" ]; then
    echo "NeDB: skipped (SKIP_NEDB set)"
    return 0
  fi
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "NeDB: skipped (node/npm not installed)"
    return 0
  fi
  # npm ci (the pinned package-lock.json) unless node_modules already holds
  # that tree: npm ci always starts by deleting node_modules.
  if ! (cd tools/bench/nedb && npm ls --offline --all >/dev/null 2>&1); then
    if ! (cd tools/bench/nedb && npm ci --prefer-offline --no-audit --no-fund \
        --loglevel=error --fetch-retries=1 --fetch-timeout=30000); then
      echo "NeDB: skipped (npm ci failed: npm registry unreachable?)"
      return 0
    fi
  fi
  if ! node --expose-gc --max-old-space-size=8192 tools/bench/nedb/nedb_bench.js \
      --runs=3 --csv=docs/bench/nedb.csv "$@" >docs/bench/nedb_results.md; then
    echo "NeDB: benchmark failed (see above); the ttldb results stand"
    return 0
  fi
  cat docs/bench/nedb_results.md
  {
    echo "# ttldb beside NeDB (one session of scripts/bench.sh)"
    echo
    python3 tools/bench/nedb/compare.py docs/bench/results.csv docs/bench/nedb.csv
  } >docs/bench/nedb.md
  echo "wrote docs/bench/nedb_results.md, nedb.csv, nedb.md"
}
run_nedb "$@"
