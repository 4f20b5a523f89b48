// $collStats, $indexStats and Collection::Stats through the embedded API
// (Collection::Aggregate): no server, so no latencies, the machine's
// hostname, counters that start again at each open. Expected shapes:
// src/mongo/db/stats/storage_stats.cpp, src/mongo/db/pipeline/
// document_source_coll_stats.cpp and document_source_index_stats.cpp;
// jstests/core/index/index_stats.js (an index's counter starts at 0 when
// it is created, explain does not count).
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

using CollStatsTest = DbTest;

std::vector<Value> All(absl::StatusOr<std::unique_ptr<Cursor>> c) {
  std::vector<Value> out;
  EXPECT_TRUE(c.ok()) << c.status();
  if (!c.ok()) return out;
  while (true) {
    auto d = (*c)->Next();
    EXPECT_TRUE(d.ok()) << d.status();
    if (!d.ok() || !d->has_value()) return out;
    out.push_back(**d);
  }
}

TEST_F(CollStatsTest, EmbeddedCollStatsHasZeroLatencies) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "a": 1})").ok());
  std::vector<Value> out = All(c.Aggregate(
      R"([{"$collStats": {"latencyStats": {}, "storageStats": {"scale": 2},
                          "count": {}}}])"));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(ToJson(*out[0].Get("ns")), R"("test.c")");
  EXPECT_FALSE(out[0].Get("host")->string_value().empty());
  EXPECT_EQ(ToJson(*out[0].Get("latencyStats")->Get("reads")),
            R"({"latency":0,"ops":0})");
  EXPECT_EQ(ToJson(*out[0].Get("storageStats")->Get("scaleFactor")), "2");
  EXPECT_EQ(out[0].Get("storageStats")->Get("size")->AsDouble(),
            std::floor(c.Stats()->Get("size")->AsDouble() / 2));
  EXPECT_EQ(ToJson(*out[0].Get("count")), "1");
  // Later stages see it as any document.
  out = All(c.Aggregate(R"([{"$collStats": {"count": {}}},
                            {"$project": {"_id": 0, "n": "$count"}}])"));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(ToJson(out[0]), R"({"n":1})");
  EXPECT_EQ(
      ErrorCode(
          c.Aggregate(R"([{"$match": {}}, {"$indexStats": {}}])").status()),
      40602);
}

TEST_F(CollStatsTest, IndexCountersStartAtCreationAndAtOpen) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "a": 1})").ok());
  clock_.Advance(absl::Seconds(10));
  const int64_t created = absl::ToUnixMillis(clock_.WallNow());
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1})").ok());
  ASSERT_TRUE(c.FindOne(R"({"a": 1})").ok());
  ASSERT_TRUE(c.Explain(R"({"a": 1})").ok());
  auto stats = c.IndexStats();
  ASSERT_TRUE(stats.ok()) << stats.status();
  ASSERT_EQ(stats->size(), 2u);
  EXPECT_EQ(ToJson((*stats)[1], JsonFormat::kStorage),
            absl::StrCat(R"({"name":"a_1","key":{"a":1},"accesses":{"ops":)",
                         R"({"$numberLong":"1"},"since":{"$date":)",
                         R"({"$numberLong":")", created,
                         R"("}}},"spec":{"v":2,"key":{"a":1},)",
                         R"("name":"a_1"}})"));
  clock_.Advance(absl::Seconds(10));
  Open();  // counters are not persisted
  stats = db_->collection("c").IndexStats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(ToJson(*(*stats)[1].Get("accesses"), JsonFormat::kStorage),
            absl::StrCat(R"({"ops":{"$numberLong":"0"},"since":{"$date":)",
                         R"({"$numberLong":")",
                         absl::ToUnixMillis(clock_.WallNow()), R"("}}})"));
}

// The sizes follow the data into LevelDB's table files: after a
// compaction storageSize is LevelDB's estimate, not 0.
TEST_F(CollStatsTest, SizesAfterCompaction) {
  Collection& c = db_->collection("c");
  const std::string pad(2000, 'p');
  for (int i = 0; i < 200; ++i) {
    ASSERT_TRUE(
        c.InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "p": ")", pad, "\"}"))
            .ok());
  }
  auto before = c.Stats();
  ASSERT_TRUE(before.ok());
  DatabaseInternal::engine(*db_)->db()->CompactRange(nullptr, nullptr);
  auto after = c.Stats();
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(ToJson(*after->Get("count")), "200");
  EXPECT_GT(after->Get("storageSize")->AsDouble(), 200 * 2000);
  EXPECT_EQ(after->Get("size")->AsDouble(), before->Get("size")->AsDouble());
}

}  // namespace
}  // namespace ttldb
