// Shared scaffolding for the runnable examples: open a database in a fresh
// temporary directory with a clock the example moves forward
// (ttldb_testing::TestDatabase), and a CHECK
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
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"
#include "ttldb/testing/ttldb_testing.h"

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

// An example's world: a database and the clock its TTL cutoffs use, from
// the test-support library (ttldb/testing/ttldb_testing.h) a service's own
// tests use. The monitor thread is off; the example runs a pass when it says
// time passed, exactly as a test would (in a service the monitor runs by
// itself).
struct ExampleDb {
  explicit ExampleDb(const char* name)
      : test(Open(name)), db(&test->db()), clock(test->clock()) {}

  // Lets `d` pass and runs the TTL pass the monitor would run.
  int64_t Pass(absl::Duration d) {
    return test->AdvanceAndExpire(d).deleted_documents;
  }
  std::string Now() { return ttldb_testing::DateJson(clock.WallNow()); }

  std::unique_ptr<ttldb_testing::TestDatabase> test;
  Database* const db;
  FakeClock& clock;

 private:
  // In a fresh temporary directory, as a service's database would be.
  static std::unique_ptr<ttldb_testing::TestDatabase> Open(const char* name) {
    auto opened = ttldb_testing::TestDatabase::Open(
        {}, ttldb_testing::TestDatabase::Storage::kTempDir);
    EXAMPLE_OK(opened.status());
    fprintf(stderr, "example %s in %s\n", name, (*opened)->path().c_str());
    return std::move(*opened);
  }
};

}  // namespace ttldb

#endif  // TTLDB_EXAMPLES_EXAMPLE_UTIL_H_
