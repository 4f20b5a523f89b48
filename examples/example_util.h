// Shared scaffolding for the runnable examples: open a database in a fresh
// temporary directory with a clock the example moves forward, and a CHECK
// that ends the program when an expectation fails (the examples run as
// tests).
#ifndef TTLDB_EXAMPLES_EXAMPLE_UTIL_H_
#define TTLDB_EXAMPLES_EXAMPLE_UTIL_H_

#include <stdio.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/clock.h"
#include "document/json.h"
#include "engine/database.h"

#define EXAMPLE_CHECK(cond)                                                    \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#define EXAMPLE_OK(expr)                                 \
  do {                                                   \
    auto _s = (expr);                                    \
    if (!_s.ok()) {                                      \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, \
              std::string(_s.message()).c_str());        \
      exit(1);                                           \
    }                                                    \
  } while (0)

namespace ttldb {

// An example's world: a database and the clock its TTL cutoffs use. The
// monitor thread is off; the example runs a pass when it says time passed,
// exactly as a test would (in a service the monitor runs by itself).
struct ExampleDb {
  explicit ExampleDb(const char* name)
      : dir(absl::StrCat(getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp",
                         "/ttldb-example-", name)) {
    std::filesystem::remove_all(dir);
    Options options;
    options.clock = &clock;
    options.ttl_monitor_enabled = false;
    auto opened = Database::Open(dir, options);
    EXAMPLE_OK(opened.status());
    db = std::move(*opened);
  }
  ~ExampleDb() {
    db.reset();
    std::filesystem::remove_all(dir);
  }
  // Lets `d` pass and runs the TTL pass the monitor would run.
  int64_t Pass(absl::Duration d) {
    clock.Advance(d);
    return db->TEST_RunTtlPass(clock.WallNow()).deleted_documents;
  }
  std::string Now() {
    return absl::StrCat(R"({"$date": {"$numberLong": ")",
                        absl::ToUnixMillis(clock.WallNow()), R"("}})");
  }

  std::string dir;
  FakeClock clock;
  std::unique_ptr<Database> db;
};

}  // namespace ttldb

#endif  // TTLDB_EXAMPLES_EXAMPLE_UTIL_H_
