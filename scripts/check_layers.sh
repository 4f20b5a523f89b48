#!/usr/bin/env bash
# The layering of docs/architecture.md, checked on the source tree (no
# build; under a second). Fails when:
#   1. a non-test file includes a folder its layer may not use (the table
#      LAYERS below: each folder and the folders it may include);
#   2. a front end (commands/, server/, testing/, examples/) includes an
#      engine/ header: they use the public API, include/ttldb/ (testing/'s
#      .cc files may use engine/database_internal.h, the internal friend);
#   3. library code outside storage/ and catalog/ deletes from a LevelDB
#      WriteBatch (one write path: storage's DocumentWriter, the
#      reclaimer and repair are the only deleters of documents and index
#      entries);
#   4. anything outside engine/ names the engine's write lock `write_mu_`;
#   5. a public header (include/ttldb/) includes a LevelDB header or names
#      leveldb:: (what tests inject into LevelDB is TestingOptions,
#      engine/database_internal.h), or includes a project header outside
#      include/ttldb/ (the front door is closed: what it reaches is what
#      the CMake install ships);
#   6. an entry of KNOWN (today's violations, each with the step of issue
#      32 that removes it) no longer occurs: the list only shrinks.
# Run by scripts/test.sh.
#
#   scripts/check_layers.sh          check
#   scripts/check_layers.sh --graph  print the folder include graph
#   scripts/check_layers.sh --known  print today's violations as KNOWN entries
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import os, re, sys

# Each folder and the project folders its non-test code may include, lowest
# layer first (docs/architecture.md draws the same table). A folder absent
# here (tests/, fuzz/, tools/) may include anything.
LAYERS = {
    "base":     set(),
    "document": {"base"},
    "expr":     {"base", "document"},
    "query":    {"base", "document", "expr"},
    "index":    {"base", "document", "query"},
    "planner":  {"base", "document", "expr", "query", "index"},
    "ttl":      {"base", "document", "query", "index"},
    "storage":  {"base", "document", "expr", "query", "index", "ttl", "proto"},
    "catalog":  {"base", "document", "expr", "query", "index", "ttl", "proto",
                 "storage"},
    "pipeline": {"base", "document", "expr", "query"},
    "engine":   {"base", "document", "expr", "query", "index", "planner", "ttl",
                 "proto", "storage", "catalog", "pipeline"},
    "commands": {"base", "document", "expr", "query", "pipeline", "engine"},
    "server":   {"base", "document", "commands"},
    "testing":  {"base", "document", "ttl", "engine"},
    # The MongoDB backend: the public API and its backend seam, nothing of
    # the engine's internals (REMOTE_ENGINE below).
    "remote":   {"base", "document", "engine"},
}
# LevelDB itself: only the storage layers and the tools that open files.
LEVELDB_OK = {"storage", "catalog", "engine", "tools", "tests", "fuzz"}
# The public headers (include/ttldb/, "ttldb/<name>.h") and the layer that
# implements each: an include of one is an include of that layer.
PUBLIC_OWNER = {
    "ttldb/decimal128.h": "document", "ttldb/value.h": "document",
    "ttldb/json.h": "document", "ttldb/cursor.h": "document",
    "ttldb/view_definition.h": "document",
    "ttldb/collection_name.h": "catalog",
    "ttldb/clock.h": "base",
    "ttldb/logger.h": "base", "ttldb/ttl_metrics.h": "ttl",
    "ttldb/testing/matchers.h": "testing",
    "ttldb/testing/ttldb_testing.h": "testing",
}
PUBLIC_DEFAULT_OWNER = "engine"  # database.h, collection.h, cursor.h, ...
FRONT_ENDS = {"commands", "server", "testing", "examples"}
# What remote/ may include from engine/: the backend seam
# (engine/backend.h) that the public classes hand their calls to.
REMOTE_ENGINE = {"engine/backend.h"}
# What a public header may include besides include/ttldb/: the standard
# library (<...>) and Abseil's and GoogleTest's headers, which a consumer
# has from its system.
PUBLIC_EXTERNAL = ("absl/", "gtest/", "gmock/")


def owner(inc):
    """The layer an include names: its top folder, or for a public header
    the layer that implements it."""
    if inc.startswith("ttldb/"):
        return PUBLIC_OWNER.get(inc, PUBLIC_DEFAULT_OWNER)
    return inc.split("/")[0] if "/" in inc else None
# Today's violations, each removed by a step of issue 32 (keep sorted). An
# entry that no longer occurs fails the check: delete it.
KNOWN = {
    # The legacy users' store (commands/user_store.h, <root>/system.users)
    # opens a LevelDB of its own; users in a database of the set remove it.
    ("include", "commands/user_store.cc", "leveldb"),
}

SKIP_DIRS = {".git", "node_modules", "third_party", "docs", "scripts", "cmake"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# LevelDB's headers as <leveldb/...> (the project's own includes are "...").
ANGLE_LEVELDB = re.compile(r'^\s*#\s*include\s+<leveldb/', re.M)
BATCH_DELETE = re.compile(r'\b(batch|evictions->batch|wb)\s*(\.|->)\s*Delete\(')
LEVELDB_NAME = re.compile(r'#\s*include\s*[<"]leveldb/|\bleveldb::|'
                          r'\bnamespace\s+leveldb\b')


def is_test(path):
    base = os.path.basename(path)
    return (base.endswith("_test.cc") or base.startswith("test_") or
            "test_util" in base or base.endswith("_fixture.h") or
            "/testdata/" in path)


def sources():
    for root, dirs, files in os.walk("."):
        dirs[:] = [d for d in dirs
                   if d not in SKIP_DIRS and not d.startswith("bazel-")
                   and not d.startswith(".")]
        for f in files:
            if f.endswith((".h", ".cc")):
                yield os.path.relpath(os.path.join(root, f))


found = set()
graph = {}
for path in sorted(sources()):
    public = path.startswith("include/ttldb/")
    top = owner(path[len("include/"):]) if public else path.split("/")[0]
    text = open(path, encoding="utf-8", errors="replace").read()
    code = "\n".join(l for l in text.splitlines()
                     if not l.lstrip().startswith("//"))
    if is_test(path) or top in ("tests", "fuzz"):
        continue
    for inc in INCLUDE.findall(code):
        if public and not inc.startswith(("ttldb/",) + PUBLIC_EXTERNAL):
            found.add(("closed", path, inc))
        dep = owner(inc)
        if dep is None or dep == top:
            continue
        graph.setdefault(top, set()).add(dep)
        if dep == "leveldb" and top not in LEVELDB_OK:
            found.add(("include", path, dep))
        elif top in LAYERS and dep in set(LAYERS) | {"proto", "tools"} and \
                dep not in LAYERS[top]:
            found.add(("include", path, dep))
        # testing/ is the library's own test support: its implementation
        # may use the internal friend (DatabaseInternal), its header not.
        front = top in FRONT_ENDS and (top != "testing" or path.endswith(".h"))
        if front and dep == "engine" and not inc.startswith("ttldb/"):
            found.add(("internal", path, inc))
        if top == "remote" and dep == "engine" and \
                not inc.startswith("ttldb/") and inc not in REMOTE_ENGINE:
            found.add(("internal", path, inc))
    if top not in LEVELDB_OK and ANGLE_LEVELDB.search(code):
        found.add(("include", path, "leveldb"))
    if top in LAYERS and top not in ("storage", "catalog") and \
            BATCH_DELETE.search(code):
        found.add(("delete", path, "WriteBatch::Delete"))
    if top != "engine" and re.search(r"\bwrite_mu_\b", code):
        found.add(("write_mu_", path, "write_mu_"))
    if public and LEVELDB_NAME.search(
            "\n".join(l.split("//")[0] for l in code.splitlines())):
        found.add(("leveldb", path, "leveldb"))

if "--known" in sys.argv:  # today's violations, in KNOWN's form
    for entry in sorted(found):
        print("    %r," % (entry,))
    sys.exit(0)
if "--graph" in sys.argv:
    for top in sorted(graph):
        print(top + ": " + " ".join(sorted(graph[top])))
    sys.exit(0)

WHAT = {
    "include": "includes a layer above it or beside it (LAYERS)",
    "internal": "includes an engine/ header, not the public API "
                "(include/ttldb/)",
    "closed": "is a public header that includes a header outside "
              "include/ttldb/ (the front door)",
    "delete": "deletes from a WriteBatch outside storage/ (one write path)",
    "write_mu_": "names the engine's write lock outside engine/",
    "leveldb": "names LevelDB in a public header (include/ttldb/)",
}
new = sorted(found - KNOWN)
gone = sorted(KNOWN - found)
for kind, path, what in new:
    print("check_layers: %s %s: %s" % (path, what, WHAT[kind]), file=sys.stderr)
for kind, path, what in gone:
    print("check_layers: %s no longer %s: delete it from KNOWN in "
          "scripts/check_layers.sh" % (path, WHAT[kind].split(" (")[0]),
          file=sys.stderr)
if new or gone:
    print("check_layers: %d violation(s), %d stale KNOWN entr(ies); the rules "
          "are in docs/architecture.md" % (len(new), len(gone)), file=sys.stderr)
    sys.exit(1)
print("check_layers: %d folders, %d known violations left (issue 32)" %
      (len(graph), len(KNOWN)))
PY
