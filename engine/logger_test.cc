// Options::logger (ttldb/logger.h): TTL passes, LevelDB's messages, and the
// default that writes nothing.
#include "ttldb/logger.h"

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/database_internal.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "proto/catalog.pb.h"
#include "storage/keys.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"

namespace ttldb {
namespace {

class Messages {
 public:
  Logger logger() {
    return [this](LogLevel level, absl::string_view message) {
      std::lock_guard<std::mutex> l(mu_);
      messages_.emplace_back(level, std::string(message));
    };
  }
  // The messages at `level` containing `part`.
  std::vector<std::string> Find(LogLevel level, absl::string_view part) {
    std::lock_guard<std::mutex> l(mu_);
    std::vector<std::string> out;
    for (const auto& [lv, m] : messages_) {
      if (lv == level && absl::StrContains(m, part)) out.push_back(m);
    }
    return out;
  }

 private:
  std::mutex mu_;
  std::vector<std::pair<LogLevel, std::string>> messages_;
};

TEST(LoggerTest, PassesAndLevelDbMessagesReachTheHook) {
  TempDir dir;
  FakeClock clock(kTestStart);
  Messages messages;
  Options options;
  options.clock = &clock;
  options.ttl_monitor_enabled = false;
  options.logger = messages.logger();
  auto db = Database::Open(dir.path(), options);
  ASSERT_TRUE(db.ok()) << db.status();
  Collection& c = (*db)->collection("sessions");
  ASSERT_TRUE(
      c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": 1, "t": )",
                                       DateJson(kTestStart), "}"))
                  .ok());

  // Nothing expired yet: a debug summary.
  DatabaseInternal::RunTtlPass(**db, kTestStart);
  EXPECT_EQ(messages.Find(LogLevel::kDebug, "deleted 0 documents").size(), 1u);
  EXPECT_TRUE(messages.Find(LogLevel::kInfo, "TTL pass").empty());
  // One expired: an info summary with the counts.
  DatabaseInternal::RunTtlPass(**db, kTestStart + absl::Seconds(61));
  auto info = messages.Find(LogLevel::kInfo, "TTL pass");
  ASSERT_EQ(info.size(), 1u);
  EXPECT_TRUE(
      absl::StrContains(info[0], "deleted 1 documents and 1 index keys"))
      << info[0];
  // LevelDB's own log goes to the hook (debug), not to the LOG file.
  EXPECT_FALSE(messages.Find(LogLevel::kDebug, "leveldb: ").empty());
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/LOG"));
}

// What ttldb worked around (an invalid stored expireAfterSeconds: the index
// is skipped, as MongoDB's TTL monitor skips it) is a warning; a compaction
// is a debug message.
TEST(LoggerTest, SkippedInvalidIndexAndCompactions) {
  TempDir dir;
  FakeClock clock(kTestStart);
  Messages messages;
  Options options;
  options.clock = &clock;
  options.ttl_monitor_enabled = false;
  options.logger = messages.logger();
  {
    auto db = Database::Open(dir.path(), options);
    ASSERT_TRUE(db.ok()) << db.status();
    ASSERT_TRUE((*db)
                    ->collection("c")
                    .CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 60})")
                    .ok());
  }
  {
    // Store an invalid value, as an older version could have.
    leveldb::DB* raw = nullptr;
    ASSERT_TRUE(leveldb::DB::Open(leveldb::Options(), dir.path(), &raw).ok());
    std::unique_ptr<leveldb::DB> ldb(raw);
    std::string bytes;
    ASSERT_TRUE(ldb->Get(leveldb::ReadOptions(), CatalogKey("c"), &bytes).ok());
    proto::CollectionInfo info;
    ASSERT_TRUE(info.ParseFromString(bytes));
    for (proto::IndexSpec& spec : *info.mutable_indexes()) {
      if (spec.name() == "t_1") spec.set_expire_after_seconds(-5);
    }
    ASSERT_TRUE(ldb->Put(leveldb::WriteOptions(), CatalogKey("c"),
                         info.SerializeAsString())
                    .ok());
  }
  auto db = Database::Open(dir.path(), options);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_EQ(DatabaseInternal::RunTtlPass(**db, kTestStart).invalid_index_skips,
            1);
  auto warnings = messages.Find(LogLevel::kWarning, "TTL: skipping index");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            "TTL: skipping index 't_1' of collection 'c': its "
            "expireAfterSeconds is invalid");

  DbImpl* engine = DatabaseInternal::engine(**db);
  engine->ScheduleCompaction("a", "z");
  engine->WaitForCompactions();
  EXPECT_EQ(
      messages.Find(LogLevel::kDebug, "compacted a swept key range").size(),
      1u);
}

TEST(LoggerTest, TheDefaultWritesNothing) {
  TempDir dir;
  FakeClock clock(kTestStart);
  Options options;
  options.clock = &clock;
  options.ttl_monitor_enabled = false;
  ::testing::internal::CaptureStderr();
  ::testing::internal::CaptureStdout();
  {
    auto db = Database::Open(dir.path(), options);
    ASSERT_TRUE(db.ok()) << db.status();
    Collection& c = (*db)->collection("sessions");
    ASSERT_TRUE(
        c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 0})").ok());
    ASSERT_TRUE(
        c.InsertOne(absl::StrCat(R"({"t": )", DateJson(kTestStart), "}")).ok());
    EXPECT_EQ(DatabaseInternal::RunTtlPass(**db, kTestStart + absl::Seconds(1))
                  .deleted_documents,
              1);
  }
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

}  // namespace
}  // namespace ttldb
