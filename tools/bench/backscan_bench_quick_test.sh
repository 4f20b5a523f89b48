#!/usr/bin/env bash
# backscan_bench on small sizes: it runs and prints every query.
set -euo pipefail
out=$("$1" --runs=1 --docs=500 --ms=1)
echo "$out"
grep -q '^find({}).sort({_id: -1}).limit(1) ' <<<"$out"
grep -q '^find({group' <<<"$out"
