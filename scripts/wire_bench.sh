#!/usr/bin/env bash
# Writers and readers over many connections (issue 29 item 1), what
# `scripts/bench.sh wire` runs: `ttldb serve` on a fresh directory and
# tools/bench/wire_bench (libmongoc, one connection per thread) against it,
# then the in-process equivalent, tools/bench/writers_bench (N threads of
# InsertOne / Touch, and raw LevelDB with N threads). Extra arguments go to
# wire_bench (--conns=1,4,16 --seconds=3 --ops=ping,insert,touch,find
# --docs=10000 --j=0|1).
#   TTLDB_BIN=PATH      the server binary (default: this tree's, built -c opt)
#   WRITERS_BENCH=PATH  the in-process program (default: this tree's)
#   SKIP_INPROC=1       the wire part only
#   SERVE_ARGS="..."    more `ttldb serve` options (e.g. --no-change-log)
#   WIRE_PROGRAM=wire_expiry_bench
#                       the foreground's latency during a mass expiry instead
#                       (issue 29 item 5; arguments --expired=N --live=N
#                       --seconds=S); no in-process part
# Both print markdown tables; docs/BENCHMARKS.md records the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
program="${WIRE_PROGRAM:-wire_bench}"
bazel build --config=opt //tools:ttldb "//tools/bench:$program" \
  //tools/bench:writers_bench
bin="$(bazel info --config=opt bazel-bin 2>/dev/null)"
server="${TTLDB_BIN:-$bin/tools/ttldb}"
writers="${WRITERS_BENCH:-$bin/tools/bench/writers_bench}"

dir="$(mktemp -d)"
log="$dir/serve.log"
# shellcheck disable=SC2086  # SERVE_ARGS: words on purpose
"$server" serve --db "$dir/db" --port 0 \
  --setParameter ttlMonitorEnabled=false ${SERVE_ARGS:-} 2>"$log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
port=""
for _ in $(seq 1 100); do
  port="$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" | head -1)"
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { cat "$log"; echo "ttldb serve did not start" >&2; exit 1; }
echo "server: $server (port $port); $(nproc) CPUs; load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bin/tools/bench/$program" --uri="mongodb://127.0.0.1:$port" "$@"
kill "$pid"
wait "$pid" 2>/dev/null || true
if [ -z "${SKIP_INPROC:-}" ] && [ "$program" = wire_bench ]; then
  echo
  echo "in-process: $writers; load: $(cut -d' ' -f1-3 /proc/loadavg)"
  "$writers" --dir="$dir/inproc"
fi
