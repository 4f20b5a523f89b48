#!/usr/bin/env bash
# Sourced by ttldb's scripts (test.sh, check_consumers.sh, sanitizers.sh,
# client_tests.sh): Bazel's disk cache, under the user's cache directory, so
# that a fresh clone, a second worktree, the consumer workspaces and both
# WORKSPACE forms of the consumer share every compile they have in common.
#
#   TTLDB_DISK_CACHE   the cache directory
#                      (default: ${XDG_CACHE_HOME:-~/.cache}/ttldb/bazel-disk-cache)
#   TTLDB_DISK_CACHE=none   no disk cache
#   TTLDB_DISK_CACHE_MAX_MB  the size the cache is pruned to, least recently
#                      used files first (default 10240)
#
# It writes .bazelrc.user (git-ignored, imported by .bazelrc), so a plain
# `bazel test` in this checkout uses the same cache afterwards; nothing is
# written to ~/.bazelrc. Workspaces other than this one (the consumer
# checks) pass "${TTLDB_DISK_CACHE_FLAGS[@]}" on their command lines.
#
# Bazel 4's disk cache has no garbage collection: it grows with every
# change compiled. ttldb_prune_disk_cache keeps it under the limit.

TTLDB_DISK_CACHE=${TTLDB_DISK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ttldb/bazel-disk-cache}
TTLDB_DISK_CACHE_FLAGS=()
ttldb_rc_line=""
if [ "$TTLDB_DISK_CACHE" != none ]; then
  mkdir -p "$TTLDB_DISK_CACHE"
  TTLDB_DISK_CACHE_FLAGS=(--disk_cache="$TTLDB_DISK_CACHE")
  ttldb_rc_line="build --disk_cache=$TTLDB_DISK_CACHE"
fi
# .bazelrc.user in the checkout (the directory above this script).
ttldb_rc="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.bazelrc.user"
ttldb_rc_text="# Written by scripts/bazel_cache.sh (TTLDB_DISK_CACHE); not committed.
$ttldb_rc_line"
if [ ! -f "$ttldb_rc" ] || [ "$(cat "$ttldb_rc")" != "$ttldb_rc_text" ]; then
  printf '%s\n' "$ttldb_rc_text" > "$ttldb_rc"
fi
unset ttldb_rc ttldb_rc_text ttldb_rc_line

# Deletes the least recently used files until the cache holds at most
# TTLDB_DISK_CACHE_MAX_MB (an access updates a file's atime under relatime
# at most once a day: enough to order weeks of use).
ttldb_prune_disk_cache() {
  [ "$TTLDB_DISK_CACHE" != none ] || return 0
  local max_kb=$(( ${TTLDB_DISK_CACHE_MAX_MB:-10240} * 1024 ))
  local used_kb
  used_kb=$(du -sk "$TTLDB_DISK_CACHE" 2>/dev/null | cut -f1)
  [ "${used_kb:-0}" -gt "$max_kb" ] || return 0
  echo "ttldb: pruning the Bazel disk cache ($((used_kb / 1024)) MB > $((max_kb / 1024)) MB)" >&2
  # awk reads to the end (no early `exit`): under `set -o pipefail` an early
  # exit would kill sort with SIGPIPE and fail the caller with status 141.
  find "$TTLDB_DISK_CACHE" -type f -printf '%A@ %k %p\n' | sort -n |
    awk -v excess=$(( used_kb - max_kb * 8 / 10 )) \
      'freed < excess { freed += $2; sub(/^[^ ]+ [^ ]+ /, ""); print }' |
    tr '\n' '\0' | xargs -0 -r rm -f
}
