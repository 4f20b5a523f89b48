#!/usr/bin/env bash
# examples/session_service.cc, unchanged, on an embedded directory and on a
# mongodb:// URI (a `ttldb serve` started here on a port the kernel picks):
# the two runs print the same lines.
set -euo pipefail
service=$1
ttldb=$2
tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/session_service.XXXXXX")
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

"$service" "$tmp/embedded" > "$tmp/embedded.out"

mkdir -p "$tmp/root"
"$ttldb" serve --db "$tmp/root" --port 0 --quiet 2> "$tmp/serve.log" &
server_pid=$!
port=""
for _ in $(seq 1 200); do
  port=$(sed -n 's/^ttldb serve: listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$tmp/serve.log")
  [ -n "$port" ] && break
  sleep 0.05
done
[ -n "$port" ] || { echo "ttldb serve did not start:"; cat "$tmp/serve.log"; exit 1; }

"$service" "mongodb://127.0.0.1:$port/app?serverSelectionTimeoutMS=5000" > "$tmp/remote.out"

cat "$tmp/embedded.out"
if ! diff -u "$tmp/embedded.out" "$tmp/remote.out"; then
  echo "FAIL: the two backends printed different lines" >&2
  exit 1
fi
grep -q "login ada: already logged in" "$tmp/remote.out"
grep -q "active sessions: 1" "$tmp/remote.out"
echo PASS
