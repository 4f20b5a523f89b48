#!/usr/bin/env bash
# Builds ttldb's libFuzzer targets with clang (ASan + UBSan + libFuzzer) and
# runs each for a while on its seed corpus (fuzz/corpus/<target>).
#   scripts/fuzz.sh            15 s per target (CI runs 10 s: 14 targets, 2.5 min)
#   scripts/fuzz.sh 3600       an hour per target (long mode)
#   scripts/fuzz.sh 0 json     build only / run one target
# Findings are written to .fuzz/crash-* and the script fails.
#
# The fuzzers link one archive of the whole library (cmake/sources.cmake's
# TTLDB_SOURCES, so it follows the Bazel library), the command layer, the
# shell and `ttldb import`, compiled here with clang; the linker takes only
# the objects each target needs.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-15}"
only="${2:-}"
out=.fuzz
gen="$out/gen"
mkdir -p "$out/obj" "$gen/base"

CXX="${CXX_FUZZ:-clang++}"
FLAGS=(-std=c++17 -O1 -g -I. -I"$gen" -DTTLDB_INTERNAL
       -DSIMDJSON_THREADS_ENABLED=1
       -fsanitize=fuzzer-no-link,address,undefined
       -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
LIBS=(-lleveldb -lprotobuf -lsimdjson -lpcre2-8 -lbidgcc000 -lbson-1.0
  $(grep -o '"-labsl[a-z_0-9]*"' third_party/BUILD* | tr -d '"' | sort -u)
  -lcrypto -lpthread)

# Generated sources: the catalog proto and base/version.h.
for proto in $(sed -n '/^set(TTLDB_PROTOS/,/^)/p' cmake/sources.cmake |
               grep '\.proto$'); do
  stem="${proto%.proto}"
  if [ ! -f "$gen/$stem.pb.cc" ] || [ "$proto" -nt "$gen/$stem.pb.cc" ]; then
    protoc --proto_path=. --cpp_out="$gen" "$proto"
  fi
done
sed "s/@TTLDB_VERSION@/$(tr -d '[:space:]' < VERSION)/" base/version.h.in \
  > "$gen/base/version.h.new"
cmp -s "$gen/base/version.h.new" "$gen/base/version.h" ||
  mv "$gen/base/version.h.new" "$gen/base/version.h"

SRCS=($(sed -n '/^set(TTLDB_SOURCES/,/^)/p' cmake/sources.cmake | grep '\.cc$')
  $(sed -n '/^set(TTLDB_PROTOS/,/^)/p' cmake/sources.cmake |
    grep '\.proto$' | sed "s|^ *|$gen/|; s|\.proto$|.pb.cc|")
  server/bson_value.cc server/message.cc server/crc32c.cc
  $(ls commands/*.cc tools/shell/*.cc | grep -v '_test\.cc$')
  tools/engine_backend.cc tools/import_export.cc)

# Library objects, rebuilt when their source or a header they include (the
# compiler's -MMD list) is newer; compiled in parallel.
objs=()
stale=()
for src in "${SRCS[@]}"; do
  obj="$out/obj/${src//\//_}.o"
  if [ ! -f "$obj" ] || [ ! -f "$obj.d" ] ||
     [ -n "$(sed 's/^[^:]*://; s/\\$//' "$obj.d" | tr ' ' '\n' |
             grep -v '^$' | while read -r dep; do
               [ "$dep" -nt "$obj" ] && echo "$dep" && break; done)" ]; then
    stale+=("$src")
  fi
  objs+=("$obj")
done
if [ ${#stale[@]} -gt 0 ]; then
  echo "== compiling ${#stale[@]} sources"
  export CXX out
  printf '%s\n' "${stale[@]}" | xargs -P "${FUZZ_JOBS:-$(nproc)}" -I{} \
    bash -c 'src="$1"; shift; o="$out/obj/${src//\//_}.o"
             "$CXX" "$@" -MMD -MF "$o.d" -c "$src" -o "$o"' _ {} "${FLAGS[@]}"
  rm -f "$out/libttldb_fuzz.a"
fi
[ -f "$out/libttldb_fuzz.a" ] || ar rcs "$out/libttldb_fuzz.a" "${objs[@]}"

targets=(json filter update key_codec shell_parser wire_message
  index_spec coll_mod find_projection_sort entry_value shell_eval import
  scram touch_text)
[ -n "$only" ] && targets=("$only")
status=0
for t in "${targets[@]}"; do
  "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer "fuzz/${t}_fuzz.cc" \
    "$out/libttldb_fuzz.a" "${LIBS[@]}" -o "$out/${t}_fuzz"
  [ "$seconds" = 0 ] && continue
  mkdir -p "$out/corpus/$t"
  echo "== fuzzing $t for ${seconds}s"
  seeds=("fuzz/corpus/$t")
  case "$t" in
    shell_parser|shell_eval) seeds+=(tools/testdata) ;;
  esac
  # FUZZ_SEED fixes the exploration order (CI); 0 is a random seed.
  # -max_len: 64 KiB, so long-input bugs (a 40 KB regex) are reachable.
  if ! "$out/${t}_fuzz" -max_total_time="$seconds" -max_len=65536 \
      -seed="${FUZZ_SEED:-0}" \
      -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$out/crash-$t-" \
      -print_final_stats=1 "$out/corpus/$t" "${seeds[@]}" 2>"$out/$t.log"; then
    tail -40 "$out/$t.log"
    echo "fuzz target $t found a problem: see $out/crash-$t-*" >&2
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::new_units_added" "$out/$t.log" || true
  fi
done
exit $status
