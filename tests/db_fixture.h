// A test fixture: a database in a temporary directory, on a FakeClock that
// starts at kTestStart, with the TTL monitor off (tests run passes on demand
// with ttldb_testing::RunTtlPass). Test-only.
#ifndef TTLDB_TESTS_DB_FIXTURE_H_
#define TTLDB_TESTS_DB_FIXTURE_H_

#include <memory>

#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"
#include "ttldb/testing/ttldb_testing.h"

namespace ttldb {

// `Base` is ::testing::Test, or ::testing::TestWithParam<T> for
// parameterized tests.
template <typename Base = ::testing::Test>
class DbFixture : public Base {
 protected:
  void SetUp() override { Open(); }

  // Closes the database if it is open, then opens dir_ with the options
  // above as AdjustOptions leaves them.
  void Open() {
    db_.reset();
    Options options;
    options.clock = &clock_;
    options.ttl_monitor_enabled = false;
    AdjustOptions(&options);
    auto db = Database::Open(dir_.path(), options);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
  }

  // Whether Validate() finds `c` consistent (a failure explains itself).
  bool Valid(Collection& c) {
    auto v = c.Validate();
    EXPECT_TRUE(v.ok()) << v.status();
    if (!v.ok()) return false;
    EXPECT_TRUE(v->Get("valid")->bool_value()) << ToJson(*v);
    return v->Get("valid")->bool_value();
  }

  // A test's own options (hide_expired, a listener, ...).
  virtual void AdjustOptions(Options* options) {}

  TempDir dir_;
  FakeClock clock_{kTestStart};
  std::unique_ptr<Database> db_;
};

using DbTest = DbFixture<>;

}  // namespace ttldb

#endif  // TTLDB_TESTS_DB_FIXTURE_H_
