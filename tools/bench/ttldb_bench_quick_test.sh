#!/usr/bin/env bash
# Runs ttldb_bench --quick and checks that it printed every workload for
# every engine. Not a timed assertion: speed is measured by scripts/bench.sh.
set -euo pipefail
bench="$1"
out="$("$bench" --quick --dir="${TEST_TMPDIR:-/tmp}/bench")"
echo "$out"
for w in insert touch get find_indexed sweep sweep_scaling seek_after_sweep \
         read_p99_during_sweep cold_insert cold_get cold_update cold_rss; do
  for e in ttldb limit sqlite; do
    if ! grep -q "^| $w | .* | $e |" <<<"$out"; then
      echo "missing row: workload $w engine $e" >&2
      exit 1
    fi
  done
done
grep -q "^| cold_get_raw | .* | ttldb |" <<<"$out" || { echo "missing cold_get_raw" >&2; exit 1; }
for m in ondemand dom ttldb; do
  grep -q "^| parse | .* | $m |" <<<"$out" || { echo "missing parse $m" >&2; exit 1; }
done
grep -q "^targets met: " <<<"$out"
echo PASS
