#!/usr/bin/env bash
# `ttldb --version` prints "ttldb <VERSION>" and exits 0; --help lists it.
# usage: version_test.sh TTLDB_BINARY VERSION_FILE
set -u
want="ttldb $(tr -d '[:space:]' < "$2")"
got=$("$1" --version)
status=$?
if [ "$status" -ne 0 ] || [ "$got" != "$want" ]; then
  echo "ttldb --version: got '$got' (exit $status), want '$want' (exit 0)" >&2
  exit 1
fi
if ! "$1" --help | grep -qx '  ttldb --version'; then
  echo "ttldb --help does not list --version" >&2
  exit 1
fi
echo "PASS: $got"
