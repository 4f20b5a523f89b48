// @ttldb//remote linked into a consumer's Bazel workspace: Database::Open
// on a mongodb:// URI reaches the MongoDB backend (here: nothing listens,
// so Unavailable), not the "link @ttldb//remote" error of a program
// without it (the CMake consumer's remote_check, for Bazel).
#include <stdio.h>

#include <string>

#include "absl/status/status.h"
#include "ttldb/database.h"

int main() {
  auto db = ttldb::Database::Open(
      "mongodb://127.0.0.1:1/test?serverSelectionTimeoutMS=200", {});
  if (db.ok() || !absl::IsUnavailable(db.status())) {
    fprintf(stderr, "remote_check: expected Unavailable, got %s\n",
            db.ok() ? "OK" : std::string(db.status().message()).c_str());
    return 1;
  }
  printf("remote backend linked: %s\n",
         std::string(db.status().message()).c_str());
  return 0;
}
