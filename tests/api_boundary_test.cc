// The API's hazards (issue 15, "A real API boundary"): DocArg owns the
// temporaries it is built from, and cursors survive Close and the
// Database's destruction (every later call fails with FailedPrecondition
// instead of a LevelDB assertion).
#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"
#include "ttldb/testing/matchers.h"

namespace ttldb {
namespace {

using ttldb_testing::StatusIs;

std::unique_ptr<Database> OpenDb(const TempDir& dir) {
  Options options;
  options.ttl_monitor_enabled = false;
  auto db = Database::Open(dir.path(), options);
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? std::move(*db) : nullptr;
}

std::string Doc(int i) { return absl::StrCat(R"({"_id": )", i, "}"); }

// Before the fix DocArg kept a string_view of each temporary string, and
// InsertMany failed with "invalid UTF-8 at byte offset 0" (or read freed
// memory).
TEST(DocArgTest, VectorOfTemporaryStringsOwnsTheText) {
  TempDir dir;
  auto db = OpenDb(dir);
  std::vector<DocArg> docs;
  for (int i = 0; i < 20; ++i) {
    docs.push_back(absl::StrCat(R"({"_id": )", i, R"(, "pad": ")",
                                std::string(40, 'a' + i % 26), R"("})"));
  }
  std::vector<DocArg> more = {Doc(100), Doc(101), std::string(R"({"x": 1})")};
  std::vector<Value> ids;
  ASSERT_TRUE(db->collection("c").InsertMany(docs, &ids).ok());
  ASSERT_TRUE(db->collection("c").InsertMany(more).ok());
  EXPECT_EQ(ids.size(), 20u);
  EXPECT_EQ(*db->collection("c").CountDocuments(), 23);
  auto doc = db->collection("c").FindById(Value::Int32(7));
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->Get("pad")->string_value(), std::string(40, 'h'));
}

TEST(DocArgTest, TemporaryValuesAreOwnedAndCopiesShareThem) {
  TempDir dir;
  auto db = OpenDb(dir);
  std::vector<DocArg> docs;
  for (int i = 0; i < 5; ++i) {
    docs.push_back(Value::MakeObject({Field("_id", Value::Int32(i))}));
  }
  std::vector<DocArg> copy = docs;  // copies keep the text alive too
  docs.clear();
  ASSERT_TRUE(db->collection("c").InsertMany(copy).ok());
  EXPECT_EQ(*db->collection("c").CountDocuments(), 5);
  // Borrowed lvalues still work and are not copied.
  const std::string filter = R"({"_id": {"$gte": 3}})";
  EXPECT_EQ(*db->collection("c").CountDocuments(filter), 2);
}

// Before the fix, closing the database with a live cursor aborted the
// process in LevelDB (an iterator outlived its DB).
TEST(CursorLifetimeTest, NextAfterCloseIsFailedPrecondition) {
  TempDir dir;
  auto db = OpenDb(dir);
  ASSERT_TRUE(db->collection("c").InsertMany({Doc(1), Doc(2), Doc(3)}).ok());
  auto cursor = db->collection("c").Find("{}");
  ASSERT_TRUE(cursor.ok()) << cursor.status();
  auto first = (*cursor)->Next();
  ASSERT_TRUE(first.ok() && first->has_value());
  ASSERT_TRUE(db->Close().ok());
  auto next = (*cursor)->Next();
  EXPECT_EQ(next.status().code(), absl::StatusCode::kFailedPrecondition)
      << next.status();
  EXPECT_EQ((*cursor)->Next().status().code(),
            absl::StatusCode::kFailedPrecondition);
  cursor->reset();
  db.reset();
}

TEST(CursorLifetimeTest, DatabaseDestroyedBeforeTheCursor) {
  TempDir dir;
  auto db = OpenDb(dir);
  ASSERT_TRUE(db->collection("c").InsertMany({Doc(1), Doc(2)}).ok());
  // A sorted cursor (materialized in memory) and a streaming one.
  FindOptions sorted;
  sorted.sort = Value::MakeObject({Field("_id", Value::Int32(-1))});
  auto a = db->collection("c").Find("{}", sorted);
  auto b = db->collection("c").Find("{}");
  ASSERT_TRUE(a.ok() && b.ok());
  db.reset();
  EXPECT_EQ((*a)->Next().status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ((*b)->ToVector().status().code(),
            absl::StatusCode::kFailedPrecondition);
  // The directory can be opened again while the cursors still exist.
  auto again = OpenDb(dir);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(*again->collection("c").CountDocuments(), 2);
}

// Close on one thread while cursors read on others: each Next either
// returns a document or FailedPrecondition, and Close waits for a Next in
// progress instead of closing LevelDB under it.
TEST(CursorLifetimeTest, CloseWhileOtherThreadsRead) {
  TempDir dir;
  auto db = OpenDb(dir);
  std::vector<DocArg> docs;
  for (int i = 0; i < 2000; ++i) docs.push_back(Doc(i));
  ASSERT_TRUE(db->collection("c").InsertMany(docs).ok());
  std::vector<std::thread> readers;
  std::atomic<int> started{0};
  std::atomic<int> unexpected{0};
  for (int t = 0; t < 4; ++t) {
    auto cursor = db->collection("c").Find("{}");
    ASSERT_TRUE(cursor.ok());
    readers.emplace_back([c = std::move(*cursor), &started, &unexpected] {
      started++;
      while (true) {
        auto next = c->Next();
        if (!next.ok()) {
          if (next.status().code() != absl::StatusCode::kFailedPrecondition) {
            unexpected++;
          }
          return;
        }
        if (!next->has_value()) return;
      }
    });
  }
  while (started < 4) std::this_thread::yield();
  ASSERT_TRUE(db->Close().ok());
  for (auto& t : readers) t.join();
  EXPECT_EQ(unexpected, 0);
}

TEST(CursorLifetimeTest, EveryCallAfterCloseIsFailedPrecondition) {
  TempDir dir;
  auto db = OpenDb(dir);
  Collection& c = db->collection("c");
  ASSERT_TRUE(c.InsertOne(Doc(1)).ok());
  ASSERT_TRUE(db->Close().ok());
  ASSERT_TRUE(db->Close().ok());  // idempotent
  const auto kFP = StatusIs(absl::StatusCode::kFailedPrecondition, "closed");
  EXPECT_THAT(c.InsertOne(Doc(2)), kFP);
  EXPECT_THAT(c.Find("{}"), kFP);
  EXPECT_THAT(c.FindOne("{}"), kFP);
  EXPECT_THAT(c.FindById(Value::Int32(1)), kFP);
  EXPECT_THAT(c.CountDocuments(), kFP);
  EXPECT_THAT(c.Distinct("_id"), kFP);
  EXPECT_THAT(c.UpdateOne("{}", R"({"$set": {"a": 1}})"), kFP);
  EXPECT_THAT(c.DeleteMany("{}"), kFP);
  EXPECT_THAT(c.CreateIndex(R"({"a": 1})"), kFP);
  EXPECT_THAT(c.ListIndexes(), kFP);
  EXPECT_THAT(c.Stats(), kFP);
  EXPECT_THAT(c.Validate(), kFP);
  EXPECT_THAT(db->ListCollectionNames(), kFP);
  EXPECT_THAT(db->CreateCollection("d"), kFP);
  EXPECT_THAT(db->DropCollection("c"), kFP);
}

}  // namespace
}  // namespace ttldb

namespace ttldb {
namespace {

// Options out of range are refused by Open before anything is created:
// the TTL monitor's options by the monitor's own rules (ttl/monitor.h
// ValidateOptions), whose message names the Options field and MongoDB's
// parameter.
TEST(OpenOptionsTest, TtlOptionsOutOfRangeAreRefusedBeforeAnythingIsCreated) {
  TempDir dir;
  const std::string path = absl::StrCat(dir.path(), "/db");
  struct Case {
    void (*set)(Options*);
    const char* message;
  };
  const Case cases[] = {
      {[](Options* o) { o->ttl_monitor_sleep = absl::ZeroDuration(); },
       "ttl_monitor_sleep (ttlMonitorSleepSecs) must be greater than 0"},
      {[](Options* o) { o->ttl_batch_docs_max = -1; },
       "ttl_batch_docs_max (ttlIndexDeleteTargetDocs) must be >= 0"},
      {[](Options* o) { o->ttl_batch_time_max = absl::Seconds(-1); },
       "ttl_batch_time_max (ttlIndexDeleteTargetTimeMS) must be >= 0"},
      {[](Options* o) { o->ttl_sub_pass_target = absl::Seconds(-1); },
       "ttl_sub_pass_target (ttlMonitorSubPassTargetSecs) must be >= 0"},
      {[](Options* o) { o->ttl_max_deletes_per_second = -1; },
       "ttl_max_deletes_per_second must be a finite number >= 0"},
  };
  for (const Case& c : cases) {
    Options options;
    c.set(&options);
    auto db = Database::Open(path, options);
    ASSERT_FALSE(db.ok()) << c.message;
    EXPECT_EQ(db.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(db.status().message(), c.message);
    EXPECT_FALSE(std::filesystem::exists(path)) << c.message;
  }
}

}  // namespace
}  // namespace ttldb
