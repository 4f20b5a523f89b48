#!/usr/bin/env bash
# Golden tests of the ttldb program: runs every tools/testdata/*.js through
# the built-in (subset) shell in both output modes (NAME.out: mongosh-like, NAME.json.out:
# --json), and every *.sh case (import/export, --eval, exit codes) once
# (NAME.out, standard error merged into standard output), each against a fresh temporary data directory, and compares
# with the expected files. Each expected file holds standard output, then
# "--- stderr ---" and standard error when there is any, then
# "--- exit N ---".
#
# A .js case runs as piped standard input (results echoed, as
# `mongosh < case.js`), or as a FILE argument (no echo) when its first line
# is "// golden: file". Generated ObjectIds are normalised to <oid>; tests
# use fixed ISODate values or avoid printing generated dates. TZ=UTC.
#
# usage: golden_test.sh TTLDB_BINARY TESTDATA_DIR [--update] [NAME ...]
#   --update rewrites the expected files (tools/update_goldens.sh).
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$(cd "$2" && pwd)
shift 2
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
only=("$@")
export TZ=UTC
unset TTLDB_HOME XDG_DATA_HOME
# These goldens are the built-in subset shell's: never the real mongosh,
# whether or not one is installed (tests/clients/shell_mongosh.test.mjs
# covers that path). The .js cases also pass --subset; TTLDB_MONGOSH=none
# covers the *.sh cases' invocations.
export TTLDB_MONGOSH=none
tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/ttldb_golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home"
mkdir -p "$HOME"
failures=0
cases=0

normalize() {
  sed -E -e "s/ObjectId\('[0-9a-f]{24}'\)/ObjectId('<oid>')/g" \
    -e 's/"\$oid":"[0-9a-f]{24}"/"$oid":"<oid>"/g'
}

# check NAME EXPECTED_FILE COMMAND...: runs COMMAND, compares with the file.
check() {
  local name=$1 expected=$2
  shift 2
  local out="$tmp/$name.stdout" err="$tmp/$name.stderr" actual="$tmp/$name.actual"
  "$@" >"$out" 2>"$err"
  local rc=$?
  {
    normalize <"$out"
    if [ -s "$err" ]; then
      echo "--- stderr ---"
      normalize <"$err"
    fi
    echo "--- exit $rc ---"
  } >"$actual"
  cases=$((cases + 1))
  if [ "$update" = 1 ]; then
    cp "$actual" "$expected"
    echo "updated $(basename "$expected")"
  elif ! diff -u --label "expected $(basename "$expected")" \
      --label "actual" "$expected" "$actual"; then
    echo "FAIL: $name (expected $expected)"
    failures=$((failures + 1))
  else
    echo "ok: $name"
  fi
}

wanted() {
  [ ${#only[@]} -eq 0 ] && return 0
  local n
  for n in "${only[@]}"; do [ "$n" = "$1" ] && return 0; done
  return 1
}

run_js() {  # MODE(shell|json) JS
  local mode=$1 js=$2 name db
  name=$(basename "$js" .js)
  local flags=(--quiet --subset)
  local expected="$dir/$name.out"
  if [ "$mode" = json ]; then
    flags+=(--json)
    expected="$dir/$name.json.out"
    name="$name.json"
  fi
  db="$tmp/db.$name"
  if head -n 1 "$js" | grep -q '^// golden: file'; then
    check "$name" "$expected" "$bin" --db "$db" "${flags[@]}" "$js"
  else
    check "$name" "$expected" "$bin" --db "$db" "${flags[@]}" <"$js"
  fi
}

for js in "$dir"/*.js; do
  wanted "$(basename "$js" .js)" || continue
  run_js shell "$js"
  run_js json "$js"
done
for sh in "$dir"/*.sh; do
  name=$(basename "$sh" .sh)
  wanted "$name" || continue
  work="$tmp/work.$name"
  mkdir -p "$work"
  check "$name" "$dir/$name.out" \
    env TTLDB="$bin" WORK="$work" DATA="$dir" bash -c 'cd "$WORK" && bash "$0" 2>&1' "$sh"
done

if [ "$cases" = 0 ]; then
  echo "no golden cases found in $dir"
  exit 1
fi
if [ "$failures" != 0 ]; then
  echo "$failures of $cases golden cases failed; if the new output is right," \
    "run tools/update_goldens.sh and review the diff"
  exit 1
fi
echo "all $cases golden cases passed"
