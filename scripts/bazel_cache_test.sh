#!/usr/bin/env bash
# Tests scripts/bazel_cache.sh's pruning under `set -euo pipefail`, as its
# callers run it: a cache of 4,000 files over the limit is pruned to 80 % of
# the limit, oldest first, and the caller goes on (CI's run of c66ccb9 died
# here with status 141: awk's early exit killed sort with SIGPIPE).
set -euo pipefail
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ttldb_cache_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/cache/ac" "$tmp/checkout/scripts"
cp "$(dirname "$0")/bazel_cache.sh" "$tmp/checkout/scripts/"
for i in $(seq 1 4000); do
  printf '%08d' "$i" >"$tmp/cache/ac/f$i"
  truncate -s 4096 "$tmp/cache/ac/f$i"
done
# The oldest access times on the first 100 files.
touch -a -d '2020-01-01' "$tmp"/cache/ac/f{1..100}
TTLDB_DISK_CACHE="$tmp/cache" TTLDB_DISK_CACHE_MAX_MB=10
# shellcheck source=scripts/bazel_cache.sh
source "$tmp/checkout/scripts/bazel_cache.sh"
ttldb_prune_disk_cache 2>/dev/null
used_kb=$(du -sk "$tmp/cache" | cut -f1)
if [ "$used_kb" -gt 10240 ]; then
  echo "FAIL: the cache holds $used_kb KB after pruning to 10240" >&2
  exit 1
fi
if [ -e "$tmp/cache/ac/f1" ] || [ -e "$tmp/cache/ac/f100" ]; then
  echo "FAIL: the least recently used files were kept" >&2
  exit 1
fi
if [ ! -e "$tmp/cache/ac/f4000" ]; then
  echo "FAIL: a recently used file was deleted" >&2
  exit 1
fi
grep -q "disk_cache=$tmp/cache" "$tmp/checkout/.bazelrc.user"
echo "PASS: scripts/bazel_cache.sh prunes to ${used_kb} KB under pipefail"
