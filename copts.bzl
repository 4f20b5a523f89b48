"""Compiler options that travel with ttldb's targets.

Bazel 4's auto-configured GCC toolchain compiles C++ as -std=c++0x; ttldb,
Abseil and simdjson need C++17. Every ttldb C++ target sets TTLDB_COPTS, so it
builds the same inside ttldb and as an external repository, with no flags on
the consumer's command line. Code that includes ttldb's headers needs C++17
too: a consumer sets `copts = TTLDB_COPTS` on its own targets (or builds with
--cxxopt=-std=c++17, as most Abseil users already do).
"""

# Clang's thread-safety analysis on ttldb's own code: the ABSL_GUARDED_BY /
# ABSL_EXCLUSIVE_LOCKS_REQUIRED annotations (base/mutex.h, engine/db_impl.h)
# are checked by every clang build (scripts/test.sh builds with clang, so CI
# checks them on each run) and a violation fails it. gcc has no such
# analysis and rejects the flag, so consumers' gcc builds and --config=opt
# get nothing.
TTLDB_COPTS = ["-std=c++17"] + select({
    str(Label("//:clang")): ["-Wthread-safety", "-Werror=thread-safety"],
    "//conditions:default": [],
})
