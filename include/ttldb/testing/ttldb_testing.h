// Test support for services that use ttldb: a database for one test (in
// memory or in a temporary directory) on a fake clock, and "let time pass
// and run the TTL monitor's pass" without sleeping. Bazel:
// @ttldb//testing:ttldb_testing (testonly).
//
//   #include "ttldb/testing/matchers.h"
//   #include "ttldb/testing/ttldb_testing.h"
//
//   TEST(SessionStoreTest, IdleSessionsExpire) {
//     auto db = ttldb_testing::TestDatabase::Open().value();
//     SessionStore store(&db->db());  // the code under test
//     ASSERT_THAT(store.Login("alice"), ttldb_testing::IsOk());
//     EXPECT_EQ(db->AdvanceAndExpire(absl::Minutes(31)).deleted_documents, 1);
//     EXPECT_THAT(db->collection("sessions").FindOne(R"({"user": "alice"})"),
//                 ttldb_testing::IsOkAndHolds(::testing::Eq(std::nullopt)));
//   }
#ifndef TTLDB_TESTING_TTLDB_TESTING_H_
#define TTLDB_TESTING_TTLDB_TESTING_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "ttldb/clock.h"
#include "ttldb/collection.h"
#include "ttldb/database.h"
#include "ttldb/options.h"
#include "ttldb/ttl_metrics.h"

namespace ttldb_testing {

// 2027-01-15T08:00:00Z: where a TestDatabase's clock starts by default.
inline const absl::Time kDefaultTestStart =
    absl::FromUnixSeconds(1'800'000'000);

// A Database for one test, on a FakeClock (Options::clock) that only moves
// when the test says so. The background TTL monitor is off, so nothing is
// deleted behind the test's back: AdvanceAndExpire runs the monitor's pass
// on the calling thread, exactly as the monitor would run it.
class TestDatabase {
 public:
  enum class Storage {
    kInMemory,  // Options::in_memory: no files at all (the default)
    kTempDir,   // a fresh directory under $TEST_TMPDIR, removed at the end
  };

  // Opens a new, empty database. `options` is used as given except that
  // its clock is the TestDatabase's FakeClock (starting at `start`), the
  // monitor thread is off (ttl_monitor_enabled = false; the test runs
  // passes), and in_memory follows `storage`.
  static absl::StatusOr<std::unique_ptr<TestDatabase>> Open(
      ttldb::Options options = {}, Storage storage = Storage::kInMemory,
      absl::Time start = kDefaultTestStart);

  // Closes the database and removes the directory (kTempDir).
  ~TestDatabase();
  TestDatabase(const TestDatabase&) = delete;
  TestDatabase& operator=(const TestDatabase&) = delete;

  ttldb::Database& db() { return *db_; }
  ttldb::Database* operator->() { return db_.get(); }
  ttldb::Collection& collection(absl::string_view name) {
    return db_->collection(name);
  }
  ttldb::FakeClock& clock() { return clock_; }
  absl::Time Now() { return clock_.WallNow(); }
  // The directory (kTempDir), or the in-memory database's name.
  const std::string& path() const { return path_; }

  // Moves the clock forward by `d` (>= 0) and runs one complete TTL pass
  // at the new time, as the monitor would; returns what it did (how many
  // documents it deleted, ...).
  ttldb::TtlPassStats AdvanceAndExpire(absl::Duration d);
  // Runs one TTL pass at the current time.
  ttldb::TtlPassStats RunTtlPass();

  // Closes and reopens the same directory with the same options (kTempDir
  // only: an in-memory database is gone when closed). Handles from
  // collection() are invalid afterwards. Cursors end (FailedPrecondition).
  absl::Status Reopen();

 private:
  TestDatabase(ttldb::Options options, Storage storage, absl::Time start);
  absl::Status OpenDb();

  ttldb::FakeClock clock_;
  ttldb::Options options_;
  const Storage storage_;
  std::string path_;
  std::unique_ptr<ttldb::Database> db_;
};

// Runs one complete TTL pass on `db` (any Database, such as one a
// commands::CommandRunner opened) with `now` as the wall time of its
// cutoff, on the calling thread, as the monitor would.
ttldb::TtlPassStats RunTtlPass(ttldb::Database& db, absl::Time now);

// {"$date": {"$numberLong": "<ms>"}}: `t` as a field value in Extended
// JSON, for building documents from a test's clock:
//   absl::StrCat(R"({"at": )", DateJson(db->Now()), "}")
std::string DateJson(absl::Time t);

}  // namespace ttldb_testing

#endif  // TTLDB_TESTING_TTLDB_TESTING_H_
