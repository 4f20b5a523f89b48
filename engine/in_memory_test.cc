// Options::in_memory: a database with no files (LevelDB's memenv), with the
// same TTL behaviour as on disk.
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/database_internal.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

Options MemoryOptions(Clock* clock) {
  Options options;
  options.in_memory = true;
  options.clock = clock;
  options.ttl_monitor_enabled = false;
  return options;
}

TEST(InMemoryTest, CrudAndTtlWithoutAnyFile) {
  TempDir dir;
  const std::string path = dir.path() + "/db";  // only a name
  FakeClock clock(kTestStart);
  auto db = Database::Open(path, MemoryOptions(&clock));
  ASSERT_TRUE(db.ok()) << db.status();
  Collection& c = (*db)->collection("cache");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(
      c.InsertMany(
           {absl::StrCat(R"({"_id": 1, "at": )", DateJson(kTestStart), "}"),
            absl::StrCat(R"({"_id": 2, "at": )",
                         DateJson(kTestStart + absl::Hours(1)), "}")})
          .ok());
  ASSERT_TRUE(c.UpdateOne(R"({"_id": 2})", R"({"$set": {"v": "x"}})").ok());
  EXPECT_EQ(ToJson(*c.FindById(Value::Int32(2))),
            absl::StrCat(R"({"_id":2,"at":{"$date":")",
                         "2027-01-15T09:00:00.000Z", R"("},"v":"x"})"));
  TtlPassStats s =
      DatabaseInternal::RunTtlPass(**db, kTestStart + absl::Seconds(61));
  EXPECT_EQ(s.deleted_documents, 1);
  EXPECT_EQ(*c.CountDocuments(), 1);
  EXPECT_EQ(*c.DeleteOne(R"({"_id": 2})"), 1);
  EXPECT_EQ(*c.CountDocuments(), 0);
  auto v = c.Validate();
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->Get("valid")->bool_value());
  EXPECT_EQ(*(*db)->ListCollectionNames(), std::vector<std::string>{"cache"});

  // Nothing was written to disk, not even the directory.
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  ASSERT_TRUE((*db)->Close().ok());
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(InMemoryTest, EachOpenStartsEmptyAndTwoCanShareAName) {
  FakeClock clock(kTestStart);
  auto a = Database::Open("mem", MemoryOptions(&clock));
  auto b = Database::Open("mem", MemoryOptions(&clock));
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_TRUE((*a)->collection("c").InsertOne(R"({"_id": 1})").ok());
  EXPECT_EQ(*(*b)->collection("c").CountDocuments(), 0);
  a->reset();
  auto again = Database::Open("mem", MemoryOptions(&clock));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*(*again)->collection("c").CountDocuments(), 0);
}

TEST(InMemoryTest, TheMonitorThreadDeletesAsOnDisk) {
  FakeClock clock(kTestStart);
  Options options = MemoryOptions(&clock);
  options.ttl_monitor_enabled = true;
  options.ttl_monitor_sleep = absl::Seconds(1);
  auto db = Database::Open("mem", options);
  ASSERT_TRUE(db.ok()) << db.status();
  Collection& c = (*db)->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 0})").ok());
  ASSERT_TRUE(
      c.InsertOne(absl::StrCat(R"({"at": )", DateJson(kTestStart), "}")).ok());
  auto* monitor = DatabaseInternal::engine(**db)->monitor();
  const int64_t before = monitor->TEST_background_passes();
  clock.Advance(absl::Seconds(2));
  ASSERT_TRUE(
      monitor->TEST_WaitForBackgroundPasses(before + 1, absl::Seconds(10)));
  EXPECT_EQ((*db)->GetTtlMetrics().deleted_documents, 1);
  EXPECT_EQ(*c.EstimatedDocumentCount(), 0);
}

TEST(InMemoryTest, ReadOnlyAndErrorIfExistsAreRefused) {
  Options options;
  options.in_memory = true;
  options.read_only = true;
  EXPECT_EQ(Database::Open("mem", options).status().code(),
            absl::StatusCode::kInvalidArgument);
  options.read_only = false;
  options.error_if_exists = true;
  EXPECT_EQ(Database::Open("mem", options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace ttldb
