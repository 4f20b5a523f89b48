#!/usr/bin/env bash
# expiry_stall_bench on small sizes, so the program cannot rot: it loads,
# runs the pass to the end and prints every window. Asserts nothing about
# speed.
set -euo pipefail
out="$("$1" --expired=3000 --live=500 --seconds=1)"
echo "$out"
grep -q "pass: 3000 documents deleted" <<<"$out"
for w in before pass after; do
  grep -q "^$w  *touch " <<<"$out"
  grep -q "^$w  *find " <<<"$out"
done
grep -q "p99 during the pass / before" <<<"$out"
