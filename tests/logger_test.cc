// Options::logger (base/log.h): TTL passes, LevelDB's messages, and the
// default that writes nothing.
#include <filesystem>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/clock.h"
#include "base/log.h"
#include "engine/database.h"
#include "engine/database_internal.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"

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
