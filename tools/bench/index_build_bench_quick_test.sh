#!/usr/bin/env bash
# index_build_bench on small sizes, so the program cannot rot: it runs and
# prints its table. Asserts nothing about speed.
set -euo pipefail
out="$("$1" --docs=3000 --baseline_seconds=0.1 --runs=2)"
echo "$out"
grep -q "run 2: idle build .* build under the writer" <<<"$out"
grep -q "| 3000 |" <<<"$out"
