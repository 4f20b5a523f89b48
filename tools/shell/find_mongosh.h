// Where `ttldb` finds the real mongosh, which it runs as its shell
// (tools/shell/mongosh_session.h); without one it falls back to the built-in
// JavaScript subset (tools/shell/evaluator.h).
//
// The places tried, first match wins:
//   1. $TTLDB_MONGOSH, when set and not empty: the mongosh to run, and only
//      it ("none" chooses the built-in subset, as --subset does).
//   2. `mongosh` in a directory of $PATH.
//   3. tests/clients/node_modules/.bin/mongosh of the checkout ttldb was
//      built in: the one scripts/client_tests.sh --install pins. It is
//      looked for in the directories above the binary as it was invoked
//      (<checkout>/.bazel/bin/tools/ttldb) and as it is on disk (Bazel's
//      execroot links the checkout's top-level directories).
// A mongosh that is a Node.js script (the npm package's, "#!/usr/bin/env
// node") is usable only when `node` is on $PATH; MongoDB's standalone
// mongosh binary needs nothing else.
#ifndef TTLDB_TOOLS_SHELL_FIND_MONGOSH_H_
#define TTLDB_TOOLS_SHELL_FIND_MONGOSH_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace ttldb {

// True when $TTLDB_MONGOSH is "none": the user chose the built-in subset.
bool SubsetChosenByEnvironment();

// The path of the mongosh to run, or NotFound whose message says, in words
// for the user, what was looked for and why nothing fits. `argv0` is the
// program's argv[0].
absl::StatusOr<std::string> FindMongosh(absl::string_view argv0);

}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_FIND_MONGOSH_H_
