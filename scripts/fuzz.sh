#!/usr/bin/env bash
# Builds ttldb's libFuzzer targets (fuzz/BUILD.bazel) and runs each for a
# while on its seed corpus (fuzz/corpus/<target>).
#   scripts/fuzz.sh            15 s per target (CI runs 10 s: 16 targets, 2.7 min)
#   scripts/fuzz.sh 3600       an hour per target (long mode)
#   scripts/fuzz.sh 0 json     build only / run one target
# Findings are written to .fuzz/crash-* and the script fails.
#
# The targets are built by Bazel under --config=asan (.bazelrc: clang, ASan +
# UBSan + libFuzzer's coverage instrumentation), the same objects as the
# sanitizer suite (scripts/sanitizers.sh): after it, only the fuzz targets
# themselves compile and link.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-15}"
only="${2:-}"
out=.fuzz
mkdir -p "$out"
bash scripts/install-deps.sh
# shellcheck source=scripts/bazel_cache.sh
source scripts/bazel_cache.sh

# One per fuzz/<name>_fuzz.cc, as fuzz/BUILD.bazel defines them.
targets=()
for f in fuzz/*_fuzz.cc; do t=${f#fuzz/}; targets+=("${t%_fuzz.cc}"); done
[ -n "$only" ] && targets=("$only")
labels=()
for t in "${targets[@]}"; do labels+=("//fuzz:${t}_fuzz"); done
bazel build --config=asan "${labels[@]}"
bin=$(bazel info --config=asan bazel-bin 2>/dev/null)/fuzz
[ "$seconds" = 0 ] && exit 0
status=0
for t in "${targets[@]}"; do
  mkdir -p "$out/corpus/$t"
  echo "== fuzzing $t for ${seconds}s"
  seeds=("fuzz/corpus/$t")
  case "$t" in
    shell_parser|shell_eval) seeds+=(tools/testdata) ;;
  esac
  # FUZZ_SEED fixes the exploration order (CI); 0 is a random seed.
  # -max_len: 64 KiB, so long-input bugs (a 40 KB regex) are reachable.
  if ! "$bin/${t}_fuzz" -max_total_time="$seconds" -max_len=65536 \
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
