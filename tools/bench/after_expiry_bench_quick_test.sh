#!/usr/bin/env bash
# after_expiry_bench on small sizes, so the program cannot rot: it runs and
# prints every query. Asserts nothing about speed.
set -euo pipefail
out="$("$1" --docs=2000 --seconds=0.2 --interval_ms=10)"
echo "$out"
grep -q "pass deleted 1000 of 2000" <<<"$out"
grep -q 'find({accessTime: {$lte: now}}).limit(1)' <<<"$out"
grep -q 'find({}).sort({_id: 1}).limit(1)' <<<"$out"
out="$("$1" --docs=2000 --seconds=0.2 --interval_ms=10 --ids=time)"
echo "$out"
grep -q "time-ordered _ids): pass deleted 1000 of 2000" <<<"$out"
grep -q 'find({}).limit(1)' <<<"$out"
