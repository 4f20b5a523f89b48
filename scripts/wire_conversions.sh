#!/usr/bin/env bash
# How many times `ttldb serve` converts a document per wire request (issue 32,
# "the wire path converts each document at most once each way"): the server
# runs under valgrind's callgrind while tools/bench/wire_bench sends one kind
# of operation over one connection; the calls of each codec entry point
# (BSON -> Value, Value -> BSON, stored JSON -> Value, Value -> stored JSON)
# are counted and divided by the commands run. A run of pings is the
# baseline, so wire_bench's own setup (drop, createIndexes, the fill) is
# subtracted. Prints one markdown table; docs/BENCHMARKS.md records it.
#   scripts/wire_conversions.sh [--ops=insert,find,touch] [--seconds=20]
#   TTLDB_BIN, WIRE_BENCH: binaries to use (default: this tree's, -c opt)
set -euo pipefail
cd "$(dirname "$0")/.."
ops="insert,find,touch"
seconds=20
for a in "$@"; do
  case "$a" in
    --ops=*) ops="${a#--ops=}" ;;
    --seconds=*) seconds="${a#--seconds=}" ;;
    *) echo "unknown argument $a" >&2; exit 2 ;;
  esac
done
if [ -z "${TTLDB_BIN:-}" ] || [ -z "${WIRE_BENCH:-}" ]; then
  bazel build --config=opt //tools:ttldb //tools/bench:wire_bench
  bin="$(bazel info --config=opt bazel-bin 2>/dev/null)"
fi
server="${TTLDB_BIN:-$bin/tools/ttldb}"
client="${WIRE_BENCH:-$bin/tools/bench/wire_bench}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# count FILE: the calls of each codec entry point and of commands run in one
# callgrind dump, one "name count" a line (callgrind's "cfn=" then "calls=N"
# lines, summed over the callers; names matched by prefix).
count() {
  python3 - "$1" <<'EOF'
import sys
# Each conversion's entry points; a call from inside the same family
# (ParseDocument -> ParseDocumentInto, ToJson -> AppendJson) is not counted
# again.
WANT = {
    "commands": ("ttldb::commands::(anonymous namespace)::Runner::Run(",),
    "bson_to_value": ("ttldb::BsonToValue(",),
    "value_to_bson": ("ttldb::ValueToBson",),
    "json_to_value": ("ttldb::ParseDocumentInto(", "ttldb::ParseDocument(",
                      "ttldb::ParseDocumentNotingForm(", "ttldb::ParseValue("),
    "value_to_json": ("ttldb::AppendJson(", "ttldb::ToJson["),
}
def family(name):
    for k, prefixes in WANT.items():
        if name.startswith(prefixes):
            return k
    return None
calls = {k: 0 for k in WANT}
cost = {k: 0 for k in WANT}  # inclusive instructions of those calls
total = 0
caller = None
callee = None
pending = None  # the family whose call's cost line comes next
for line in open(sys.argv[1], errors="replace"):
    if line.startswith("fn="):
        caller = family(line[3:].strip())
    elif line.startswith("cfn="):
        callee = line[4:].strip()
    elif line.startswith("calls=") and callee is not None:
        k = family(callee)
        pending = None
        if k is not None and k != caller:
            calls[k] += int(line[6:].split()[0])
            pending = k
        callee = None
    elif pending is not None:
        cost[pending] += int(line.split()[1])
        pending = None
    elif line.startswith("summary:") or line.startswith("totals:"):
        total = int(line.split()[1])
for k in WANT:
    print(k, calls[k], cost[k])
print("total", total, total)
EOF
}

# run OP: one server under callgrind; wire_bench OP for 1 s, a dump, then
# for $seconds, a dump at exit. Both runs do the same setup (drop, index,
# fill of 100 documents), so the difference of the dumps is the longer run's
# extra operations alone: conversions per command = d(calls) / d(commands).
run() {
  local op="$1" dir="$work/$1"
  mkdir -p "$dir"
  valgrind --tool=callgrind --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$dir/cg.out" \
    "$server" serve --db "$dir/db" --port 0 \
    --setParameter ttlMonitorEnabled=false 2>"$dir/serve.log" &
  local pid=$! port=""
  for _ in $(seq 1 600); do
    port="$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' \
      "$dir/serve.log" | head -1)"
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { cat "$dir/serve.log" >&2; exit 1; }
  local uri="mongodb://127.0.0.1:$port"
  "$client" --uri="$uri" --conns=1 --docs=100 --seconds=1 --ops="$op" \
    >"$dir/short.txt"
  callgrind_control -d "$pid" >/dev/null
  "$client" --uri="$uri" --conns=1 --docs=100 --seconds="$seconds" \
    --ops="$op" >"$dir/long.txt"
  kill -INT "$pid"
  wait "$pid" 2>/dev/null || true
  # The first dump (callgrind_control's, cg.out.1) and the one at exit
  # (cg.out).
  declare -A a=() b=() ai=() bi=()
  while read -r k v i; do a[$k]=$v; ai[$k]=$i; done < <(count "$dir/cg.out.1")
  while read -r k v i; do b[$k]=$v; bi[$k]=$i; done < <(count "$dir/cg.out")
  local keys="commands bson_to_value value_to_bson json_to_value value_to_json total"
  python3 - "$op" \
    "$(for k in $keys; do printf '%s=%s,%s=%s,%s=%s,%s=%s ' a_$k "${a[$k]}" b_$k "${b[$k]}" ai_$k "${ai[$k]}" bi_$k "${bi[$k]}"; done)" <<'EOF'
import sys
op, pairs = sys.argv[1], sys.argv[2]
v = {}
for chunk in pairs.split():
    for kv in chunk.split(","):
        k, x = kv.split("=")
        v[k] = int(x)
names = ["bson_to_value", "value_to_bson", "json_to_value", "value_to_json"]
n = v["b_commands"] - v["a_commands"]
per = ["%.2f" % ((v["b_" + k] - v["a_" + k]) / n) for k in names]
codec = sum(v["bi_" + k] - v["ai_" + k] for k in names)
# The second dump holds only the longer run (and the shutdown): its total
# is the denominator of the share.
share = 100.0 * codec / v["b_total"]
print("| %s | %d | %s | %.0f | %.1f %% |" % (op, n, " | ".join(per),
                                            codec / n, share))
EOF
}

echo "| request | commands counted | BSON->Value | Value->BSON | stored JSON->Value | Value->stored JSON | codec instructions per command | codec share of the server's instructions |"
echo "|---|---|---|---|---|---|---|---|"
IFS=, read -ra list <<<"ping,$ops"
for op in "${list[@]}"; do run "$op"; done
