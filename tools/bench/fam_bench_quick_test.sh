#!/usr/bin/env bash
# fam_bench on small sizes: it runs and prints both workloads.
set -euo pipefail
out=$("$1" --runs=1 --docs=300 --ops=200)
echo "$out"
grep -q '^by_id ' <<<"$out"
grep -q '^claim ' <<<"$out"
