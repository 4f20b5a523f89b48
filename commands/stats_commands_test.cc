// Statistics as MongoDB 8.0 reports them: the collStats and dbStats
// commands, the $collStats and $indexStats stages, and serverStatus's
// opcounters, opLatencies, globalLock and host, through CommandRunner::Run.
// Expected shapes: src/mongo/db/stats/storage_stats.cpp
// (appendCollectionStorageStats), src/mongo/db/commands/dbcommands.cpp
// (CmdCollStats swallows NamespaceNotFound), src/mongo/db/pipeline/
// document_source_coll_stats.cpp (makeStatsForNs; 40166),
// document_source_index_stats.cpp (28803), pipeline.cpp (40602),
// src/mongo/db/stats/operation_latency_histogram.cpp and
// jstests/core/administrative/operation_latency_histogram.js,
// jstests/core/index/index_stats.js.
#include <string>
#include <vector>

#include "commands/command_test_util.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

class StatsTest : public CommandTest {
 protected:
  // The names of `v`'s fields, in order.
  static std::vector<std::string> Names(const Value& v) {
    std::vector<std::string> out;
    for (const Field& f : v.object_fields()) out.push_back(f.first);
    return out;
  }
  // The first batch of an aggregate on test.c.
  std::vector<Value> Aggregate(const std::string& pipeline) {
    Value r = Run("test", R"({"aggregate": "c", "cursor": {}, "pipeline": )" +
                              pipeline + "}");
    EXPECT_EQ(ToJson(*r.Get("ok")), "1.0") << ToJson(r);
    if (r.Get("cursor") == nullptr) return {};
    return r.Get("cursor")->Get("firstBatch")->array_items();
  }
  int Code(const Value& reply) {
    const Value* code = reply.Get("code");
    return code == nullptr ? 0 : static_cast<int>(code->AsDouble());
  }
  int64_t Int(const Value* v) {
    EXPECT_NE(v, nullptr);
    return v == nullptr ? -1 : static_cast<int64_t>(v->AsDouble());
  }
  void InsertSome() {
    Run("test", R"({"insert": "c", "documents": [{"_id": 1, "a": 1},
                   {"_id": 2, "a": 2}, {"_id": 3, "a": 3}]})");
    Run("test", R"({"createIndexes": "c", "indexes": [{"key": {"a": 1},
                   "name": "a_1"}]})");
  }
};

const std::vector<std::string> kStorageStatsFields = {
    "size",         "count",           "avgObjSize",     "numOrphanDocs",
    "storageSize",  "freeStorageSize", "capped",         "nindexes",
    "indexDetails", "indexBuilds",     "totalIndexSize", "indexSizes",
    "totalSize",    "scaleFactor"};

TEST_F(StatsTest, CollStatsHasEveryFieldOfMongoDB) {
  InsertSome();
  Value s = Run("test", R"({"collStats": "c"})");
  std::vector<std::string> want = {"ns"};
  want.insert(want.end(), kStorageStatsFields.begin(),
              kStorageStatsFields.end());
  want.push_back("ok");
  EXPECT_EQ(Names(s), want);  // and no indexNames
  EXPECT_EQ(ToJson(*s.Get("ns")), R"("test.c")");
  EXPECT_EQ(Int(s.Get("count")), 3);
  EXPECT_EQ(Int(s.Get("nindexes")), 2);
  EXPECT_EQ(ToJson(*s.Get("capped")), "false");
  EXPECT_EQ(Int(s.Get("scaleFactor")), 1);
  EXPECT_EQ(Names(*s.Get("indexSizes")),
            (std::vector<std::string>{"_id_", "a_1"}));
  // Real bytes although everything is still in LevelDB's memtable.
  EXPECT_GT(Int(s.Get("size")), 0);
  EXPECT_EQ(Int(s.Get("avgObjSize")), Int(s.Get("size")) / 3);
  EXPECT_GE(Int(s.Get("storageSize")), Int(s.Get("size")));
  EXPECT_GT(Int(s.Get("indexSizes")->Get("_id_")), 0);
  EXPECT_GT(Int(s.Get("indexSizes")->Get("a_1")), 0);
  EXPECT_EQ(Int(s.Get("totalIndexSize")),
            Int(s.Get("indexSizes")->Get("_id_")) +
                Int(s.Get("indexSizes")->Get("a_1")));
  EXPECT_EQ(Int(s.Get("totalSize")),
            Int(s.Get("storageSize")) + Int(s.Get("totalIndexSize")));
}

TEST_F(StatsTest, CollStatsScaleAndGrowth) {
  InsertSome();
  const int64_t before = Int(Run("test", R"({"collStats": "c"})").Get("size"));
  // About 1 MB more: 100 documents of 10 KB.
  const std::string pad(10000, 'x');
  std::string docs;
  for (int i = 0; i < 100; ++i) {
    docs += absl::StrCat(i ? "," : "", R"({"a": )", 10 + i, R"(, "p": ")", pad,
                         R"("})");
  }
  Run("test", R"({"insert": "c", "documents": [)" + docs + "]}");
  Value s = Run("test", R"({"collStats": "c"})");
  EXPECT_GT(Int(s.Get("size")), before + 1000000);
  EXPECT_GT(Int(s.Get("storageSize")), 1000000);
  Value k = Run("test", R"({"collStats": "c", "scale": 1024})");
  EXPECT_EQ(Int(k.Get("size")), Int(s.Get("size")) / 1024);
  EXPECT_EQ(Int(k.Get("scaleFactor")), 1024);
  EXPECT_EQ(Int(k.Get("avgObjSize")), Int(s.Get("avgObjSize")));  // unscaled
  EXPECT_EQ(RunJson("test", R"({"collStats": "c", "scale": 0})"),
            R"({"ok":0.0,"errmsg":"BSON field 'scale' value must be >= 1, )"
            R"(actual value '0'","code":51024,"codeName":"Location51024"})");
  EXPECT_EQ(Code(Run("test", R"({"collStats": "c", "scale": "x"})")), 14);
}

// dbcommands.cpp: NamespaceNotFound is not an error for collStats.
TEST_F(StatsTest, CollStatsOfMissingCollectionIsZeros) {
  InsertSome();
  const std::string zeros =
      R"("size":0,"count":0,"numOrphanDocs":0,"storageSize":0,)"
      R"("totalSize":0,"nindexes":0,"totalIndexSize":0,"indexDetails":{},)"
      R"("indexSizes":{},"scaleFactor":1,"ok":1.0})";
  EXPECT_EQ(RunJson("test", R"({"collStats": "nope"})"),
            R"({"ns":"test.nope",)" + zeros);
  EXPECT_EQ(RunJson("nodb", R"({"collStats": "nope"})"),
            R"({"ns":"nodb.nope",)" + zeros);
}

TEST_F(StatsTest, DbStatsSizesAreRealAtOnce) {
  InsertSome();
  Value r = Run("test", R"({"dbStats": 1})");
  Value c = Run("test", R"({"collStats": "c"})");
  EXPECT_EQ(Int(r.Get("objects")), 3);
  EXPECT_EQ(Int(r.Get("indexes")), 2);
  EXPECT_EQ(Int(r.Get("dataSize")), Int(c.Get("size")));
  EXPECT_EQ(Int(r.Get("storageSize")), Int(c.Get("storageSize")));
  EXPECT_EQ(Int(r.Get("indexSize")), Int(c.Get("totalIndexSize")));
  EXPECT_GT(Int(r.Get("storageSize")), 0);
  EXPECT_GT(Int(r.Get("indexSize")), 0);
  EXPECT_EQ(Int(r.Get("totalSize")),
            Int(r.Get("storageSize")) + Int(r.Get("indexSize")));
  EXPECT_GT(Int(r.Get("fsTotalSize")), 0);
}

TEST_F(StatsTest, CollStatsStageShape) {
  InsertSome();
  Run("test", R"({"find": "c", "filter": {"b": 1}})");
  std::vector<Value> out = Aggregate(
      R"([{"$collStats": {"queryExecStats": {}, "count": {},
          "storageStats": {"scale": 1}, "latencyStats": {}}}])");
  ASSERT_EQ(out.size(), 1u);
  const Value& d = out[0];
  // makeStatsForNs's order, whatever the request's.
  EXPECT_EQ(Names(d), (std::vector<std::string>{"ns", "host", "localTime",
                                                "latencyStats", "storageStats",
                                                "count", "queryExecStats"}));
  EXPECT_EQ(ToJson(*d.Get("ns")), R"("test.c")");
  EXPECT_EQ(ToJson(*d.Get("host")), R"("testhost:27017")");
  EXPECT_EQ(d.Get("localTime")->date_millis(),
            absl::ToUnixMillis(clock_.WallNow()));
  EXPECT_EQ(Names(*d.Get("storageStats")), kStorageStatsFields);
  EXPECT_EQ(Int(d.Get("storageStats")->Get("count")), 3);
  EXPECT_EQ(Int(d.Get("count")), 3);
  EXPECT_EQ(ToJson(*d.Get("queryExecStats"), JsonFormat::kStorage),
            R"({"collectionScans":{"total":{"$numberLong":"1"},)"
            R"("nonTailable":{"$numberLong":"1"}}})");
  // One insert and one createIndexes ran on test.c before, and the find:
  // the aggregate itself is timed after its reply.
  EXPECT_EQ(ToJson(*d.Get("latencyStats"), JsonFormat::kStorage),
            R"({"reads":{"latency":{"$numberLong":"0"},)"
            R"("ops":{"$numberLong":"1"}},)"
            R"("writes":{"latency":{"$numberLong":"0"},)"
            R"("ops":{"$numberLong":"1"}},)"
            R"("commands":{"latency":{"$numberLong":"0"},)"
            R"("ops":{"$numberLong":"1"}},)"
            R"("transactions":{"latency":{"$numberLong":"0"},)"
            R"("ops":{"$numberLong":"0"}}})");
  // histograms: the non-empty buckets (the fake clock stands still: 0 us).
  out = Aggregate(R"([{"$collStats": {"latencyStats": {"histograms": true}}},
                      {"$project": {"_id": 0, "r": "$latencyStats.reads"}}])");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(ToJson(out[0], JsonFormat::kStorage),
            R"({"r":{"histogram":[{"micros":{"$numberLong":"0"},)"
            R"("count":{"$numberLong":"2"}}],)"
            R"("latency":{"$numberLong":"0"},"ops":{"$numberLong":"2"}}})");
}

TEST_F(StatsTest, CollStatsStageErrors) {
  InsertSome();
  auto code = [&](const std::string& pipeline) {
    return Code(Run("test", R"({"aggregate": "c", "cursor": {},
                                "pipeline": )" +
                                pipeline + "}"));
  };
  EXPECT_EQ(code(R"([{"$match": {}}, {"$collStats": {}}])"), 40602);
  EXPECT_EQ(code(R"([{"$match": {}}, {"$indexStats": {}}])"), 40602);
  EXPECT_EQ(code(R"([{"$collStats": 1}])"), 40166);
  EXPECT_EQ(code(R"([{"$collStats": {"nope": {}}}])"), 40415);
  EXPECT_EQ(code(R"([{"$collStats": {"count": 1}}])"), 14);
  EXPECT_EQ(code(R"([{"$collStats": {"storageStats": {"scale": 0}}}])"), 51024);
  EXPECT_EQ(code(R"([{"$collStats": {"latencyStats": {"histograms": 1}}}])"),
            14);
  EXPECT_EQ(code(R"([{"$indexStats": {"a": 1}}])"), 28803);
  EXPECT_EQ(code(R"([{"$facet": {"x": [{"$collStats": {}}]}}])"), 40600);
  Value r = Run("test", R"({"aggregate": "nope", "cursor": {},
                           "pipeline": [{"$collStats": {"storageStats": {}}}]})");
  EXPECT_EQ(ToJson(*r.Get("errmsg")),
            R"("Unable to retrieve storageStats in $collStats stage :: )"
            R"(caused by :: Collection [test.nope] not found.")");
  EXPECT_EQ(Code(r), 26);
}

TEST_F(StatsTest, IndexStatsCountsQueriesThatUseTheIndex) {
  const int64_t created = absl::ToUnixMillis(clock_.WallNow());
  InsertSome();
  clock_.Advance(absl::Seconds(5));
  std::vector<Value> out = Aggregate(R"([{"$indexStats": {}}])");
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(ToJson(out[1], JsonFormat::kStorage),
            R"({"name":"a_1","key":{"a":1},"host":"testhost:27017",)"
            R"("accesses":{"ops":{"$numberLong":"0"},"since":{"$date":)"
            R"({"$numberLong":")" +
                std::to_string(created) +
                R"("}}},"spec":{"v":2,"key":{"a":1},"name":"a_1"}})");
  EXPECT_EQ(ToJson(*out[0].Get("name")), R"("_id_")");
  Run("test", R"({"find": "c", "filter": {"a": 2}})");
  Run("test", R"({"count": "c", "query": {"a": {"$gt": 1}}})");
  Run("test", R"({"update": "c", "updates": [{"q": {"a": 3},
                 "u": {"$set": {"b": 1}}}]})");
  Run("test", R"({"find": "c", "filter": {"_id": 2}})");
  Run("test", R"({"find": "c", "filter": {"b": 2}})");  // a collection scan
  Run("test", R"({"explain": {"find": "c", "filter": {"a": 2}}})");
  out = Aggregate(R"([{"$indexStats": {}},
                      {"$project": {"name": 1, "ops": "$accesses.ops"}}])");
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(ToJson(*out[0].Get("ops")), "1");  // _id_
  EXPECT_EQ(ToJson(*out[1].Get("ops")), "3");  // a_1: not the explain
}

TEST_F(StatsTest, ServerStatusCountersAndHost) {
  Run("test", R"({"insert": "c", "documents": [{"a": 1}, {"a": 2}]})");
  Run("test", R"({"insert": "c", "documents": [{"a": 3}]})");
  Value f = Run("test", R"({"find": "c", "batchSize": 1})");
  const int64_t id = Int(f.Get("cursor")->Get("id"));
  Run("test", absl::StrCat(R"({"getMore": {"$numberLong": ")", id,
                           R"("}, "collection": "c"})"));
  Run("test", R"({"update": "c", "updates": [{"q": {"a": 1},
                 "u": {"$set": {"b": 1}}}, {"q": {}, "u": {"$set": {"c": 1}}}]})");
  Run("test", R"({"delete": "c", "deletes": [{"q": {"a": 2}, "limit": 1}]})");
  Run("test", R"({"count": "c"})");
  Value s = Run("admin", R"({"serverStatus": 1})");
  // command: count, and serverStatus itself (counted as it starts).
  EXPECT_EQ(ToJson(*s.Get("opcounters"), JsonFormat::kStorage),
            R"({"insert":{"$numberLong":"3"},"query":{"$numberLong":"1"},)"
            R"("update":{"$numberLong":"2"},"delete":{"$numberLong":"1"},)"
            R"("getmore":{"$numberLong":"1"},)"
            R"("command":{"$numberLong":"2"}})");
  EXPECT_EQ(
      Names(*s.Get("globalLock")),
      (std::vector<std::string>{"totalTime", "currentQueue", "activeClients"}));
  EXPECT_EQ(ToJson(*s.Get("globalLock")->Get("currentQueue")),
            R"({"total":0,"readers":0,"writers":0})");
  EXPECT_EQ(Int(s.Get("opLatencies")->Get("reads")->Get("ops")), 3);
  EXPECT_EQ(Int(s.Get("opLatencies")->Get("writes")->Get("ops")), 4);
  EXPECT_EQ(ToJson(*s.Get("host")), R"("testhost:27017")");
  runner_->SetHostPort("127.0.0.1:40123");
  s = Run("admin", R"({"serverStatus": 1})");
  EXPECT_EQ(ToJson(*s.Get("host")), R"("127.0.0.1:40123")");
}

// A dropped collection's latencies go with it (Top::collectionDropped).
TEST_F(StatsTest, DropForgetsLatencies) {
  InsertSome();
  Run("test", R"({"drop": "c"})");
  Run("test", R"({"insert": "c", "documents": [{}]})");
  std::vector<Value> out = Aggregate(
      R"([{"$collStats": {"latencyStats": {}}},
          {"$project": {"_id": 0, "w": "$latencyStats.writes.ops",
                        "c": "$latencyStats.commands.ops"}}])");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(ToJson(out[0]), R"({"w":1,"c":0})");
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
