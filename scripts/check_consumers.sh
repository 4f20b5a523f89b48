#!/usr/bin/env bash
# ttldb as other projects use it (README.md, "Depending on ttldb from another
# project"). Each consumer starts from a fresh Bazel output base or fresh
# CMake build and install directories, with no flags of ours beyond the
# disk cache:
#   1. cmake/sources.cmake matches the Bazel library target (bazel query);
#      every C++ target in the library's closure carries -std=c++17, so a
#      consumer builds it, fastbuild or -c opt, with no flag of its own.
#   2. examples/bazel_consumer through local_repository: `bazel test -c opt
#      //...` (remote_check among them: @ttldb//remote, the MongoDB
#      backend) and `bazel run -c opt //:sessions`.
#   3. The same consumer through the README's http_archive stanza, on a
#      release tarball (`git archive`-style) at a file:// URL: the same
#      tests. Its compile actions are those of step 2 (the repository is
#      @ttldb in both, so every path is the same), so they come from Bazel's
#      disk cache (scripts/bazel_cache.sh): what this step proves is the
#      stanza, the tarball and ttldb_dependencies(), not a second compile.
#   4. `cmake -S . -B build && cmake --build build && cmake --install build`
#      into a temporary prefix, as a unity build (CMAKE_UNITY_BUILD: the
#      sources compiled in batches, not one by one; users' builds stay
#      per-file); its libttldb.a defines the same symbols as Bazel's -c opt
#      objects of the library target (step 2).
#   5. examples/cmake_consumer against that install: find_package (shared
#      and static, ttldb::testing in a gtest, ttldb::remote's
#      registration) and pkg-config (shared and static); each runs.
# Run by .ci/run (not by scripts/test.sh: it compiles the library twice
# more, -c opt and CMake's Release; docs/development.md has its timings).
#
#   scripts/check_consumers.sh [--keep]   (--keep: leave the temp dirs)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bash scripts/install-deps.sh
# shellcheck source=scripts/bazel_cache.sh
source scripts/bazel_cache.sh
TARGET=@ttldb//:ttldb  # the library target, as a consumer names it
jobs=$(nproc)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ttldb_consumers.XXXXXX")
bazel_bases=()
cleanup() {
  for base in "${bazel_bases[@]}"; do
    bazel --output_base="$base" shutdown >/dev/null 2>&1 || true
  done
  if [ "${1:-}" != "--keep" ]; then rm -rf "$tmp"; else echo "kept $tmp"; fi
}
trap 'cleanup "${KEEP:-}"' EXIT
[ "${1:-}" = "--keep" ] && KEEP=--keep
step() { echo "=== check_consumers: $* ($(date -u +%T))" >&2; }

step "1. cmake/sources.cmake is up to date; the library's and //remote's targets carry -std=c++17"
bash scripts/gen_cmake_sources.sh --check
# Outside ttldb, .bazelrc's --cxxopt does not apply: each C++ target in the
# library's closure, and the MongoDB backend's, sets copts = TTLDB_COPTS
# (//:copts.bzl).
closure="deps(${TARGET#@ttldb} + //remote)"
missing=$(bazel query --noshow_progress "kind('cc_(library|binary|test)', $closure) \
    except attr(copts, '-std=c\+\+17', $closure)" 2>/dev/null |
  grep -v -e '^@' -e '^//third_party:' || true)
if [ -n "$missing" ]; then
  echo "these targets need copts = TTLDB_COPTS (load(\"//:copts.bzl\", \"TTLDB_COPTS\")):" >&2
  echo "$missing" >&2
  exit 1
fi

# A consumer workspace in $1 (a copy of examples/bazel_consumer) with the
# given WORKSPACE text; its own output base under $tmp.
bazel_consumer() {
  local dir=$1 workspace=$2
  mkdir -p "$dir"
  cp examples/bazel_consumer/BUILD.bazel examples/bazel_consumer/*.cc "$dir"/
  printf '%s\n' "$workspace" > "$dir/WORKSPACE"
  bazel_bases+=("$dir.output_base")
}
# Debian's /etc/bazel/bazelrc sets --sandbox_debug, which prints every
# action's sandbox set-up: a consumer must build with it (no flags of ours),
# so the output goes to a log, shown (without that noise) on failure.
in_consumer() {  # in_consumer DIR BAZEL_ARGS...
  local dir=$1
  shift
  local command=$1
  shift
  if ! (cd "$dir" && bazel --output_base="$dir.output_base" "$command" \
        "${TTLDB_DISK_CACHE_FLAGS[@]}" "$@") 2> "$tmp/bazel.log"; then
    grep -v 'linux-sandbox' "$tmp/bazel.log" | tail -40 >&2
    echo "failed: bazel $command $* (in a copy of examples/bazel_consumer)" >&2
    return 1
  fi
}

step "2. Bazel consumer (local_repository), -c opt"
local_ws=$(sed "s#path = \"../..\"#path = \"$root\"#" examples/bazel_consumer/WORKSPACE)
grep -q "path = \"$root\"" <<<"$local_ws"
bazel_consumer "$tmp/local" "$local_ws"
in_consumer "$tmp/local" test -c opt //...
in_consumer "$tmp/local" run -c opt //:sessions

step "3. Bazel consumer (http_archive of a release tarball), -c opt"
# What `git archive --prefix=ttldb-$version/ HEAD` makes, from the working
# tree's tracked and new files (so uncommitted changes are tested too).
version=$(tr -d '[:space:]' < VERSION)
tarball="$tmp/ttldb-$version.tar.gz"
git ls-files -z --cached --others --exclude-standard |
  xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' |
  tar --null -T - --transform "s#^#ttldb-$version/#" -czf "$tarball"
sha256=$(sha256sum "$tarball" | cut -d' ' -f1)
# The README's http_archive stanza (its ```starlark block that has one),
# with the tarball's file:// URL, version and checksum.
http_ws=$(python3 - "$tarball" "$version" "$sha256" <<'PY'
import re, sys
tarball, version, sha = sys.argv[1:]
blocks = re.findall(r"```starlark\n(.*?)```", open("README.md").read(), re.S)
text = [b for b in blocks if "http_archive(" in b][0]
text = re.sub(r'"https://[^"]*\.tar\.gz"', '"file://%s"' % tarball, text)
text = re.sub(r"ttldb-[0-9][0-9.]*[0-9]", "ttldb-" + version, text)
print(re.sub(r'sha256 = "[^"]*"', 'sha256 = "%s"' % sha, text))
PY
)
grep -q "file://$tarball" <<<"$http_ws"
bazel_consumer "$tmp/http" "$http_ws"
in_consumer "$tmp/http" test -c opt //...

step "4. CMake build and install (-j$jobs)"
# A unity build: CMake concatenates UNITY_BATCH sources into each
# translation unit, so the compiler parses the shared headers once per
# batch, not once per file. `cmake --build` of every target with -j2 on a
# 2-core machine beside another build: 477 s of CPU per file; 207-219 s in
# batches of 8, 186 s of 12, 180 s of 16, 133 s as one file, which leaves
# one core idle (wall clock, too noisy there to rank them: 492 s per file,
# 133-231 s, 190 s, 172 s, 150 s). 16: the least CPU of the batch sizes
# that still give both cores work. A unity build needs what CMakeLists.txt
# says: no two .cc files of a target define the same name at namespace
# scope, anonymous namespaces included (every batch size builds), which
# scripts/check_unity_names.sh checks first: a clash that compiles (an
# overload) would otherwise only show as wrong results.
bash scripts/check_unity_names.sh
UNITY_BATCH=16
cmake -S . -B "$tmp/build" -DCMAKE_UNITY_BUILD=ON \
  -DCMAKE_UNITY_BUILD_BATCH_SIZE="$UNITY_BATCH" >/dev/null
time cmake --build "$tmp/build" -j "$jobs" >/dev/null
cmake --install "$tmp/build" --prefix "$tmp/prefix" >/dev/null
prefix=$tmp/prefix
libdir=$(dirname "$(find "$prefix" -name libttldb.a)")
test -f "$libdir/libttldb.so"
test -f "$libdir/cmake/ttldb/ttldbConfig.cmake"
test -f "$libdir/pkgconfig/ttldb.pc"
# The public headers and nothing else (include/ttldb/, the front door).
diff <(cd "$prefix/include" && find ttldb -type f | LC_ALL=C sort) \
     <(cd include && find ttldb -type f -name '*.h' | LC_ALL=C sort)

step "4b. CMake and Bazel build the same library"
# Strong global definitions (functions, data): the same in both, whatever
# the optimizer inlined. Bazel's side: the -c opt objects of the library
# target's closure from step 2 (NDEBUG in both, as CMake's Release).
defined() { nm -g --defined-only "$@" 2>/dev/null | awk '$2 ~ /^[TDBR]$/ {print $3}' | LC_ALL=C sort -u; }
objects=$(in_consumer "$tmp/local" aquery -c opt \
    "mnemonic('CppCompile', deps($TARGET))" |
  sed -n 's/^  Outputs: \[\(.*\)\]$/\1/p' | tr -d ' ' | tr ',' '\n' |
  grep '\.o$' | grep '/external/ttldb/')
execroot=$(in_consumer "$tmp/local" info -c opt execution_root)
# Each source has a .o and a .pic.o action; the ones the consumer built exist.
objects=$(cd "$execroot" && for o in $objects; do [ -f "$o" ] && echo "$o"; done || true)
[ -n "$objects" ]
# shellcheck disable=SC2086
(cd "$execroot" && defined $objects) > "$tmp/bazel.syms"
defined "$libdir/libttldb.a" > "$tmp/cmake.syms"
if ! diff -u "$tmp/bazel.syms" "$tmp/cmake.syms" > "$tmp/syms.diff"; then
  echo "CMake's libttldb.a and Bazel's $TARGET define different symbols:" >&2
  head -40 "$tmp/syms.diff" >&2
  exit 1
fi
echo "same $(wc -l < "$tmp/cmake.syms") symbols from $(wc -w <<<"$objects") objects" >&2

step "5. installed consumers: find_package and pkg-config"
cmake -S examples/cmake_consumer -B "$tmp/consumer" \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/consumer" -j "$jobs" >/dev/null
"$tmp/consumer/sessions" "$tmp/db1"
"$tmp/consumer/sessions_static" "$tmp/db2"
# find_package(ttldb COMPONENTS testing): the test-support library.
"$tmp/consumer/sessions_ttl_test"
# find_package(ttldb COMPONENTS remote): the MongoDB backend registers
# itself from the static ttldb::remote (its --undefined link option).
"$tmp/consumer/remote_check"
if ldd "$tmp/consumer/sessions_static" | grep -q libttldb; then
  echo "sessions_static links libttldb.so" >&2
  exit 1
fi
export PKG_CONFIG_PATH="$libdir/pkgconfig"
test "$(pkg-config --modversion ttldb)" = "$version"
# shellcheck disable=SC2046
c++ -std=c++17 -o "$tmp/pc_shared" examples/cmake_consumer/main.cc \
  $(pkg-config --cflags --libs ttldb) -Wl,-rpath,"$libdir"
"$tmp/pc_shared" "$tmp/db3"
# shellcheck disable=SC2046
c++ -std=c++17 -o "$tmp/pc_static" examples/cmake_consumer/main.cc \
  $(pkg-config --static --cflags ttldb) "$libdir/libttldb.a" \
  $(pkg-config --static --libs ttldb | sed 's/ -lttldb / /')
"$tmp/pc_static" "$tmp/db4"
step "all consumers build and run"
