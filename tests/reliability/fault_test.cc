// Injected I/O faults (tests/reliability/fault_env.h): every API call under a
// fault returns an error with a message (never crashes); once the fault is
// cleared the database reopens, Validate() is clean and no acknowledged
// write is lost. A write that failed may or may not have reached the disk
// (a failed sync), but it is all-or-nothing. The TTL monitor survives a
// failing pass and deletes on the next one.
#include <map>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "tests/reliability/db_dump.h"
#include "tests/reliability/fault_env.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

WriteOptions Sync() {
  WriteOptions w;
  w.sync = true;
  return w;
}

#define EXPECT_FAILS(expr)                                         \
  do {                                                             \
    auto _st = (expr);                                             \
    EXPECT_FALSE(_st.ok()) << #expr << " succeeded under a fault"; \
    EXPECT_FALSE(StatusOf(_st).message().empty()) << #expr;        \
  } while (0)

absl::Status StatusOf(const absl::Status& s) { return s; }
template <typename T>
absl::Status StatusOf(const absl::StatusOr<T>& s) {
  return s.status();
}

class FaultTest : public ::testing::Test {
 protected:
  void SetUp() override { Open(); }
  void TearDown() override {
    env_.ClearAll();
    db_.reset();
  }

  absl::Status TryOpen(bool monitor = false) {
    Options options;
    options.clock = monitor ? nullptr : &clock_;
    // The monitor thread runs but starts disabled; tests enable it.
    options.ttl_monitor_enabled = false;
    options.ttl_monitor_sleep = absl::Milliseconds(50);
    TestingOptions testing;
    testing.env = &env_;
    auto db = DatabaseInternal::Open(dir_.path(), options, testing);
    if (!db.ok()) return db.status();
    db_ = std::move(*db);
    return absl::OkStatus();
  }
  void Open(bool monitor = false) {
    absl::Status s = TryOpen(monitor);
    ASSERT_TRUE(s.ok()) << s;
  }
  // Clears every fault, closes (whatever Close says) and reopens.
  void Reopen(bool monitor = false) {
    env_.ClearAll();
    if (db_ != nullptr) db_->Close().IgnoreError();
    db_.reset();
    Open(monitor);
  }

  // Inserts documents 1..n into "c" (with a plain and a TTL index) and
  // 1..5 into "d", all synced, and records them as acknowledged.
  void Populate(int n) {
    Collection& c = db_->collection("c");
    ASSERT_TRUE(c.CreateIndex(R"({"v": 1})").ok());
    ASSERT_TRUE(
        c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 3600})").ok());
    for (int i = 1; i <= n; ++i) {
      ASSERT_TRUE(c.InsertOne(Doc(i, i), Sync()).ok());
      acked_[i] = i;
    }
    for (int i = 1; i <= 5; ++i) {
      ASSERT_TRUE(db_->collection("d").InsertOne(Doc(i, i), Sync()).ok());
    }
  }
  std::string Doc(int id, int64_t v) {
    return absl::StrCat(R"({"_id": )", id, R"(, "v": )", v, R"(, "at": )",
                        DateJson(clock_.WallNow()), R"(, "pad": ")",
                        std::string(100, 'x'), R"("})");
  }

  // Every acknowledged document of "c" is present with its value, except
  // the `uncertain` ones, which a failed call may or may not have changed.
  void CheckAcked(const std::set<int>& uncertain = {}) {
    Collection& c = db_->collection("c");
    for (const auto& [id, v] : acked_) {
      if (uncertain.count(id) != 0) continue;
      auto doc = c.FindById(Value::Int32(id));
      if (v < 0) {
        EXPECT_TRUE(absl::IsNotFound(doc.status())) << id << doc.status();
        continue;
      }
      ASSERT_TRUE(doc.ok())
          << "acknowledged document " << id << " lost: " << doc.status();
      EXPECT_EQ(doc->Get("v")->AsDouble(), v) << ToJson(*doc);
    }
    absl::Status valid = ValidateAll(*db_);
    EXPECT_TRUE(valid.ok()) << valid;
  }

  TempDir dir_;
  FaultEnv env_;
  FakeClock clock_;
  std::unique_ptr<Database> db_;
  std::map<int, int64_t> acked_;  // id -> v; v < 0: deleted
};

struct WriteFault {
  const char* name;
  FaultKind kind;
  const char* file;
};

class WriteFaultTest : public FaultTest,
                       public ::testing::WithParamInterface<WriteFault> {};

TEST_P(WriteFaultTest, EveryWriteFailsCleanlyAndNothingAckedIsLost) {
  Populate(20);
  clock_.Advance(absl::Seconds(1));  // so that Touch has a change to write
  env_.Inject(GetParam().kind, GetParam().file);
  Collection& c = db_->collection("c");
  const std::string at = DateJson(clock_.WallNow() + absl::Hours(1));

  EXPECT_FAILS(c.InsertOne(Doc(100, 100), Sync()));
  EXPECT_FAILS(c.InsertMany({Doc(101, 101), Doc(102, 102)}, nullptr, Sync()));
  EXPECT_FAILS(
      c.UpdateOne(R"({"_id": 1})", R"({"$inc": {"v": 1000}})", {}, Sync()));
  EXPECT_FAILS(c.UpdateMany(R"({"_id": {"$in": [2, 3]}})",
                            R"({"$inc": {"v": 1000}})", {}, Sync()));
  EXPECT_FAILS(c.ReplaceOne(R"({"_id": 4})", R"({"v": 4000})", {}, Sync()));
  EXPECT_FAILS(c.DeleteOne(R"({"_id": 5})", Sync()));
  EXPECT_FAILS(c.DeleteMany(R"({"_id": {"$in": [6, 7]}})", Sync()));
  EXPECT_FAILS(c.Touch(R"({"_id": 8})", "at", Sync()));
  UpdateOptions upsert;
  upsert.upsert = true;
  EXPECT_FAILS(c.UpdateOne(R"({"_id": 103})", R"({"$set": {"v": 103}})", upsert,
                           Sync()));
  EXPECT_FAILS(c.CreateIndex(R"({"pad": 1})"));
  EXPECT_FAILS(c.DropIndex("v_1"));
  EXPECT_FAILS(
      c.CollMod(R"({"index": {"name": "at_1", "expireAfterSeconds": 10}})"));
  EXPECT_FAILS(db_->CreateCollection("other"));
  EXPECT_FAILS(db_->collection("new").InsertOne(Doc(1, 1), Sync()));
  EXPECT_FAILS(db_->DropCollection("d"));
  EXPECT_FAILS(db_->RenameCollection("d", "e"));
  EXPECT_GT(env_.injected_failures(), 0);
  const std::set<int> uncertain = {1, 2, 3, 4, 5, 6, 7, 8, 100, 101, 102, 103};

  // Cleared, the same handle may still refuse writes (LevelDB keeps a
  // failed sync as a sticky error until reopen); whatever it acknowledges
  // now must survive the reopen.
  env_.ClearAll();
  int acked_after_clear = 0;
  for (int i = 1000; i < 1400; ++i) {
    if (c.InsertOne(Doc(i, i), Sync()).ok()) {
      acked_[i] = i;
      ++acked_after_clear;
    }
  }
  RecordProperty("acked_after_clear", acked_after_clear);
  Reopen();
  CheckAcked(uncertain);
  // "d" either survived whole or was dropped whole (its rename failed).
  auto d = db_->collection("d").CountDocuments();
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(*d == 5 || *d == 0) << *d;

  // Fully writable again, and durable across another reopen.
  Collection& c2 = db_->collection("c");
  for (int i = 300; i < 310; ++i) {
    ASSERT_TRUE(c2.InsertOne(Doc(i, i), Sync()).ok());
    acked_[i] = i;
  }
  Reopen();
  CheckAcked(uncertain);
}

INSTANTIATE_TEST_SUITE_P(
    Faults, WriteFaultTest,
    ::testing::Values(WriteFault{"LogWrite", FaultKind::kWrite, ".log"},
                      WriteFault{"LogSync", FaultKind::kSync, ".log"},
                      WriteFault{"AnySync", FaultKind::kSync, ""},
                      WriteFault{"DiskFull", FaultKind::kDiskFull, ""}),
    [](const auto& info) { return std::string(info.param.name); });

// The disk fills up in the middle of a stream of writes: the writes before
// it are kept, every write after it fails, and nothing is half-applied.
TEST_F(FaultTest, DiskFullMidStream) {
  Populate(5);
  Collection& c = db_->collection("c");
  env_.Inject(FaultKind::kDiskFull, "", /*skip=*/7);
  int failed = 0;
  for (int i = 100; i < 160; ++i) {
    absl::Status s = c.InsertOne(Doc(i, i), Sync()).status();
    if (s.ok()) {
      EXPECT_EQ(failed, 0) << "a write succeeded after the disk filled";
      acked_[i] = i;
    } else {
      EXPECT_NE(s.message().find("No space left on device"), std::string::npos)
          << s;
      // mongod's OutOfDiskSpace (error_codes.yml), for the failing write and
      // for the writes refused after it; never InternalError (1).
      EXPECT_EQ(ErrorCode(s), kOutOfDiskSpace) << s;
      ++failed;
    }
  }
  EXPECT_GT(failed, 0);
  Reopen();
  CheckAcked();
}

// Renames happen when LevelDB installs a new MANIFEST (at Open): Open fails
// with the error, and succeeds once the fault is gone.
TEST_F(FaultTest, RenameFailureFailsOpenCleanly) {
  Populate(10);
  ASSERT_TRUE(db_->Close().ok());
  db_.reset();
  env_.Inject(FaultKind::kRename);
  absl::Status s = TryOpen();
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(s.message().empty());
  Reopen();
  CheckAcked();
}

TEST_F(FaultTest, ManifestReadFailureFailsOpenCleanly) {
  Populate(10);
  ASSERT_TRUE(db_->Close().ok());
  db_.reset();
  env_.Inject(FaultKind::kRead, "MANIFEST");
  absl::Status s = TryOpen();
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(s.message().empty());
  Reopen();
  CheckAcked();
}

// Reads of table files fail: every read call reports the error (never
// NotFound, never a wrong answer), writes that must read fail too, and all
// is well once the fault is gone.
TEST_F(FaultTest, TableReadFailuresAreErrorsNotAbsence) {
  Populate(300);
  DatabaseInternal::engine(*db_)->db()->CompactRange(nullptr, nullptr);
  Reopen();
  env_.Inject(FaultKind::kRead, ".ldb");
  Collection& c = db_->collection("c");
  // Documents far from the catalog's block (which Open has cached).
  auto one = c.FindById(Value::Int32(250));
  EXPECT_FALSE(one.ok());
  EXPECT_FALSE(absl::IsNotFound(one.status())) << one.status();
  {
    auto cursor = c.Find(R"({"v": {"$gte": 0}})");
    if (cursor.ok()) EXPECT_FAILS((*cursor)->ToVector());
  }  // a cursor must not outlive the database
  EXPECT_FAILS(c.CountDocuments());
  EXPECT_FAILS(c.Validate());
  EXPECT_FAILS(c.Stats());
  EXPECT_FAILS(c.UpdateOne(R"({"_id": 260})", R"({"$inc": {"v": 1}})"));
  EXPECT_FAILS(c.DeleteOne(R"({"_id": 270})"));
  EXPECT_FAILS(c.InsertOne(Doc(280, 280)));  // duplicate check must read
  EXPECT_FAILS(c.CreateIndex(R"({"pad": 1})"));
  Reopen();
  CheckAcked();
}

// A TTL pass whose scan fails (a table read error) counts a failed batch
// and deletes nothing; the next pass, the fault gone, deletes everything.
TEST_F(FaultTest, TtlPassSurvivesFailingRead) {
  Populate(300);
  DatabaseInternal::engine(*db_)->db()->CompactRange(nullptr, nullptr);
  Reopen();
  Collection& c = db_->collection("c");
  env_.Inject(FaultKind::kRead, ".ldb");
  const absl::Time later = clock_.WallNow() + absl::Hours(2);
  TtlPassStats failed = DatabaseInternal::RunTtlPass(*db_, later);
  EXPECT_GE(failed.failed_batches, 1);
  EXPECT_EQ(failed.deleted_documents, 0);
  TtlMetrics m = db_->GetTtlMetrics();
  EXPECT_GE(m.failed_batches, 1);
  EXPECT_FALSE(m.last_error.empty());

  env_.ClearAll();
  EXPECT_EQ(c.Stats()->Get("count")->AsDouble(), 300);
  TtlPassStats ok = DatabaseInternal::RunTtlPass(*db_, later);
  EXPECT_EQ(ok.failed_batches, 0);
  EXPECT_EQ(ok.deleted_documents, 300);
  EXPECT_EQ(c.Stats()->Get("count")->AsDouble(), 0);
  EXPECT_TRUE(ValidateAll(*db_).ok());
}

// A failed delete batch (log write error) leaves the documents and counts
// the failure; writes are then refused until reopen (see DbImpl::Commit),
// and after the reopen the next pass deletes them.
TEST_F(FaultTest, TtlPassAfterFailingWrite) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(c.InsertOne(Doc(i, i), Sync()).ok());
  }
  clock_.Advance(absl::Hours(1));
  env_.Inject(FaultKind::kWrite, ".log");
  TtlPassStats failed = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_GE(failed.failed_batches, 1);
  EXPECT_EQ(failed.deleted_documents, 0);
  EXPECT_GE(db_->GetTtlMetrics().failed_batches, 1);
  EXPECT_EQ(c.Stats()->Get("count")->AsDouble(), 30);
  env_.ClearAll();
  absl::Status refused = c.InsertOne(Doc(99, 99)).status();
  EXPECT_TRUE(absl::IsFailedPrecondition(refused)) << refused;
  EXPECT_NE(refused.message().find("reopen"), std::string::npos) << refused;

  Reopen();
  Collection& c2 = db_->collection("c");
  EXPECT_EQ(c2.Stats()->Get("count")->AsDouble(), 30);
  TtlPassStats ok = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(ok.failed_batches, 0);
  EXPECT_EQ(ok.deleted_documents, 30);
  EXPECT_TRUE(ValidateAll(*db_).ok());
}

// The background monitor (real clock, 50 ms sleep) keeps running through
// failing passes (each counted) and deletes after the reopen.
TEST_F(FaultTest, BackgroundMonitorSurvivesFailingPasses) {
  db_.reset();
  Open(/*monitor=*/true);  // real clock; the monitor starts disabled
  Collection& c = db_->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 1})").ok());
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(
        c.InsertOne(
             absl::StrCat(R"({"_id": )", i,
                          R"(, "at": {"$date": "2000-01-01T00:00:00Z"}})"))
            .ok());
  }
  env_.Inject(FaultKind::kWrite, ".log");
  ASSERT_TRUE(db_->SetTtlMonitorEnabled(true).ok());
  TtlMonitor* monitor = DatabaseInternal::engine(*db_)->monitor();
  const int64_t passes = monitor->TEST_background_passes();
  ASSERT_TRUE(
      monitor->TEST_WaitForBackgroundPasses(passes + 3, absl::Seconds(20)));
  EXPECT_GE(db_->GetTtlMetrics().failed_batches, 2);
  EXPECT_EQ(c.Stats()->Get("count")->AsDouble(), 50);

  Reopen(/*monitor=*/true);
  ASSERT_TRUE(db_->SetTtlMonitorEnabled(true).ok());
  monitor = DatabaseInternal::engine(*db_)->monitor();
  const int64_t later = monitor->TEST_background_passes();
  ASSERT_TRUE(
      monitor->TEST_WaitForBackgroundPasses(later + 1, absl::Seconds(20)));
  EXPECT_EQ(db_->collection("c").Stats()->Get("count")->AsDouble(), 0);
  EXPECT_EQ(db_->GetTtlMetrics().failed_batches, 0);
}

}  // namespace
}  // namespace ttldb
