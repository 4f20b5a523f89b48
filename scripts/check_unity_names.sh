#!/usr/bin/env bash
# CMakeLists.txt's unity-build rule, checked: two sources of one CMake
# library (cmake/sources.cmake's TTLDB_SOURCES, TTLDB_TESTING_SOURCES,
# TTLDB_REMOTE_SOURCES) may not define the same name in an anonymous
# namespace or as a file-static function. A unity build concatenates up to
# 16 sources into one translation unit, where two such definitions either
# fail to compile or, worse, overload each other: in session 21 a
# bson_hash.cc AppendString(const std::string&) won over json_write.cc's
# AppendString(string_view) and the CMake library wrote corrupt documents
# (docs/development.md, "The unity build").
#
# It reads the names from the objects of Bazel's default (fastbuild) build
# of the same sources (nm), so it builds the three libraries first (a cache
# hit after scripts/test.sh). Prints each clash; exits 1 if there is one.
# Run by scripts/check_consumers.sh before its unity build.
set -euo pipefail
cd "$(dirname "$0")/.."
bazel build --noshow_progress //:ttldb //testing:ttldb_testing \
  //remote:remote 2>/dev/null
objroot="$(bazel info bazel-bin 2>/dev/null)"
python3 - "$objroot" <<'EOF'
import collections, glob, os, re, subprocess, sys

objroot = sys.argv[1]
groups, cur = {}, None
for line in open("cmake/sources.cmake"):
    m = re.match(r"set\((\w+)", line)
    if m:
        cur = m.group(1)
        continue
    s = line.strip()
    if cur and s.endswith(".cc"):
        groups.setdefault(cur, []).append(s)

ANON = "(anonymous namespace)::"
clashes, missing = 0, []
for group, sources in groups.items():
    where = collections.defaultdict(set)
    for src in sources:
        d, base = os.path.split(src)
        stem = base[: -len(".cc")]
        objs = glob.glob(f"{objroot}/{d}/_objs/*/{stem}.pic.o") + glob.glob(
            f"{objroot}/{d}/_objs/*/{stem}.o")
        if not objs:
            missing.append(src)
            continue
        out = subprocess.run(["nm", "-C", "--defined-only", objs[0]],
                             capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split(" ", 2)
            if len(parts) < 3:
                continue
            kind, sym = parts[1], parts[2]
            i = sym.find(ANON)
            if i >= 0:
                rest = sym[i + len(ANON):]
            elif (kind in "tdbr" and "::" not in sym.split("(")[0]
                  and not sym.startswith((".", "_", "GCC_except"))):
                rest = sym  # a file-static function or variable
            else:
                continue
            name = re.split(r"[(<\[ ]", rest, 1)[0]
            if name and not name.startswith(("{lambda", "operator", ".L")):
                where[name].add(src)
    for name, srcs in sorted(where.items()):
        if len(srcs) > 1:
            clashes += 1
            print(f"{group}: {name} is defined in {' and '.join(sorted(srcs))}")
if missing:
    print(f"no Bazel object for {len(missing)} sources: {missing[:5]}",
          file=sys.stderr)
    sys.exit(1)
if clashes:
    print(f"{clashes} names defined in two sources of one library: a unity "
          "build would put them in one translation unit (CMakeLists.txt); "
          "share one definition or name them distinctly", file=sys.stderr)
    sys.exit(1)
print(f"unity names: {sum(len(s) for s in groups.values())} sources, "
      "no name defined twice")
EOF
