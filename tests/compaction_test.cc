// The engine's background compaction thread (Engine::ScheduleCompaction):
// big TTL sweeps hand their range to it instead of compacting inline.
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/clock.h"
#include "engine/database.h"
#include "engine/database_internal.h"
#include "engine/engine.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"

namespace ttldb {
namespace {

const absl::Time kStart = kTestStart;

std::unique_ptr<Database> OpenDb(const std::string& path, Clock* clock) {
  Options options;
  options.clock = clock;
  options.ttl_monitor_enabled = false;
  auto db = Database::Open(path, options);
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? std::move(*db) : nullptr;
}

TEST(CompactionTest, ScheduleWaitAndCloseWithQueuedRanges) {
  TempDir dir;
  FakeClock clock(kStart);
  auto db = OpenDb(dir.path(), &clock);
  ASSERT_NE(db, nullptr);
  Engine* engine = DatabaseInternal::engine(*db);
  engine->WaitForCompactions();  // nothing queued: returns
  for (int i = 0; i < 50; ++i) {
    engine->ScheduleCompaction(absl::StrCat("I", i), absl::StrCat("I", i, "~"));
  }
  engine->WaitForCompactions();
  // Queued ranges are dropped at Close, which does not hang.
  for (int i = 0; i < 50; ++i) {
    engine->ScheduleCompaction(absl::StrCat("D", i), absl::StrCat("D", i, "~"));
  }
  EXPECT_TRUE(db->Close().ok());
  engine->ScheduleCompaction("a", "b");  // after Close: ignored
}

TEST(CompactionTest, BigSweepCompactsInTheBackground) {
  TempDir dir;
  FakeClock clock(kStart);
  auto db = OpenDb(dir.path(), &clock);
  ASSERT_NE(db, nullptr);
  Collection& c = db->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  const std::string old =
      absl::StrCat(R"({"$date": {"$numberLong": ")",
                   absl::ToUnixMillis(kStart - absl::Hours(1)), R"("}})");
  constexpr int kDocs = 21'000;  // above the sweep's compaction threshold
  for (int i = 0; i < kDocs; ++i) {
    ASSERT_TRUE(
        c.InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "at": )", old, "}"))
            .ok());
  }
  ASSERT_TRUE(c.InsertOne(R"({"_id": "live"})").ok());
  TtlPassStats stats = DatabaseInternal::RunTtlPass(*db, kStart);
  EXPECT_EQ(stats.deleted_documents, kDocs);
  DatabaseInternal::engine(*db)->WaitForCompactions();
  EXPECT_EQ(c.Stats()->Get("count")->int64_value(), 1);
  auto v = c.Validate();
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->Get("valid")->bool_value());
  // Writes and a second pass work while (or after) compacting.
  ASSERT_TRUE(
      c.InsertOne(absl::StrCat(R"({"_id": "x", "at": )", old, "}")).ok());
  DatabaseInternal::RunTtlPass(*db, kStart);
  EXPECT_EQ(c.Stats()->Get("count")->int64_value(), 1);
  EXPECT_TRUE(db->Close().ok());
}

}  // namespace
}  // namespace ttldb
