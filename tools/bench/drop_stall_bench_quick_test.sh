#!/usr/bin/env bash
# drop_stall_bench on a small collection, so the program cannot rot: it runs
# and prints both drops. Asserts nothing about speed.
set -euo pipefail
out="$("$1" --docs=3000)"
echo "$out"
grep -q "loaded 3000 documents" <<<"$out"
grep -q "^dropIndex " <<<"$out"
grep -q "^dropCollection " <<<"$out"
