#!/usr/bin/env bash
# Builds ttldb's libFuzzer targets with clang (ASan + UBSan + libFuzzer) and
# runs each for a while on its seed corpus (fuzz/corpus/<target>).
#   scripts/fuzz.sh            20 s per target (CI)
#   scripts/fuzz.sh 3600       an hour per target (long mode)
#   scripts/fuzz.sh 0 json     build only / run one target
# Findings are written to .fuzz/crash-* and the script fails.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
only="${2:-}"
out=.fuzz
mkdir -p "$out/obj"

CXX="${CXX_FUZZ:-clang++}"
FLAGS=(-std=c++17 -O1 -g -I. -fsanitize=fuzzer-no-link,address,undefined
       -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
LIBS=(-lsimdjson -lpcre2-8 -lbidgcc000 -lbson-1.0
  $(grep -o '"-labsl[a-z_0-9]*"' third_party/BUILD* | tr -d '"' | sort -u)
  -lcrypto -lpthread)
SRCS=(base/status.cc index/key_codec.cc tools/shell/lexer.cc tools/shell/parser.cc
  server/bson_value.cc server/message.cc server/crc32c.cc commands/scram.cc
  agg/expression.cc agg/date_util.cc agg/ops_*.cc
  $(ls document/*.cc query/*.cc | grep -v '_test\.cc$'))

# Library objects, rebuilt when their source is newer.
objs=()
for src in "${SRCS[@]}"; do
  obj="$out/obj/${src//\//_}.o"
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || \
     [ -n "$(find document query agg index base tools/shell server commands -name '*.h' -newer "$obj" | head -1)" ]; then
    "$CXX" "${FLAGS[@]}" -c "$src" -o "$obj"
  fi
  objs+=("$obj")
done

targets=(json filter update key_codec shell_parser wire_message scram)
[ -n "$only" ] && targets=("$only")
status=0
for t in "${targets[@]}"; do
  "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer "fuzz/${t}_fuzz.cc" "${objs[@]}" \
    "${LIBS[@]}" -o "$out/${t}_fuzz"
  [ "$seconds" = 0 ] && continue
  mkdir -p "$out/corpus/$t"
  echo "== fuzzing $t for ${seconds}s"
  # FUZZ_SEED fixes the exploration order (CI); 0 is a random seed.
  if ! "$out/${t}_fuzz" -max_total_time="$seconds" -max_len=4096 \
      -seed="${FUZZ_SEED:-0}" \
      -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$out/crash-$t-" \
      -print_final_stats=1 "$out/corpus/$t" "fuzz/corpus/$t" \
      $([ "$t" = shell_parser ] && echo tools/testdata) 2>"$out/$t.log"; then
    tail -40 "$out/$t.log"
    echo "fuzz target $t found a problem: see $out/crash-$t-*" >&2
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::new_units_added" "$out/$t.log" || true
  fi
done
exit $status
