#include "ttldb/testing/ttldb_testing.h"

#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/database_internal.h"

namespace ttldb_testing {

namespace {

// A fresh directory under $TEST_TMPDIR (Bazel, CTest with it set) or /tmp.
absl::StatusOr<std::string> MakeTempDir() {
  const char* base = getenv("TEST_TMPDIR");
  std::string tmpl = absl::StrCat(
      base != nullptr && *base != '\0' ? base : "/tmp", "/ttldb-test-XXXXXX");
  if (mkdtemp(tmpl.data()) == nullptr) {
    return absl::InternalError(
        absl::StrCat("cannot create a temporary directory from ", tmpl));
  }
  return tmpl;
}

}  // namespace

TestDatabase::TestDatabase(ttldb::Options options, Storage storage,
                           absl::Time start)
    : clock_(start), options_(std::move(options)), storage_(storage) {
  options_.clock = &clock_;
  options_.ttl_monitor_enabled = false;
  options_.in_memory = storage == Storage::kInMemory;
}

absl::StatusOr<std::unique_ptr<TestDatabase>> TestDatabase::Open(
    ttldb::Options options, Storage storage, absl::Time start) {
  std::unique_ptr<TestDatabase> t(
      new TestDatabase(std::move(options), storage, start));
  if (storage == Storage::kTempDir) {
    absl::StatusOr<std::string> dir = MakeTempDir();
    if (!dir.ok()) return dir.status();
    t->path_ = *std::move(dir);
  } else {
    static std::atomic<int> counter{0};
    t->path_ = absl::StrCat("ttldb-test-memory-", counter++);
  }
  absl::Status s = t->OpenDb();
  if (!s.ok()) return s;
  return t;
}

absl::Status TestDatabase::OpenDb() {
  db_.reset();
  absl::StatusOr<std::unique_ptr<ttldb::Database>> db =
      ttldb::Database::Open(path_, options_);
  if (!db.ok()) return db.status();
  db_ = *std::move(db);
  return absl::OkStatus();
}

TestDatabase::~TestDatabase() {
  db_.reset();
  if (storage_ == Storage::kTempDir && !path_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
}

ttldb::TtlPassStats TestDatabase::AdvanceAndExpire(absl::Duration d) {
  if (d > absl::ZeroDuration()) clock_.Advance(d);
  return RunTtlPass();
}

ttldb::TtlPassStats TestDatabase::RunTtlPass() {
  return ttldb_testing::RunTtlPass(*db_, clock_.WallNow());
}

ttldb::TtlPassStats RunTtlPass(ttldb::Database& db, absl::Time now) {
  return ttldb::DatabaseInternal::RunTtlPass(db, now);
}

absl::Status TestDatabase::Reopen() {
  if (storage_ == Storage::kInMemory) {
    return absl::FailedPreconditionError(
        "an in-memory TestDatabase cannot be reopened (its data is gone "
        "when it closes); use Storage::kTempDir");
  }
  return OpenDb();
}

std::string DateJson(absl::Time t) {
  return absl::StrCat(R"({"$date": {"$numberLong": ")", absl::ToUnixMillis(t),
                      R"("}})");
}

}  // namespace ttldb_testing
