#!/usr/bin/env bash
# Runs tools/repl_test.py (a pseudo-terminal session) on the ttldb binary.
exec python3 "$(dirname "$0")/repl_test.py" "$1"
