// Capped collections and tailable cursors through the command layer:
// create's capped/size/max with create.idl's errors, listCollections' and
// collStats' capped fields, collMod's cappedSize/cappedMax, dataSize, the
// TTL index refused, find's tailable/awaitData and getMore. Expected
// answers: MongoDB 8.0's src/mongo/db/commands/create.idl (size: safeInt64,
// gte 1, lte 1 PB; max: lt 2^31), create_command (72 "the 'size' field is
// required when 'capped' is true"), collection_options.cpp
// adjustCappedMaxDocs (max <= 0 -> 0x7fffffff), query_request_helper.cpp
// (tailable with a sort other than {$natural: 1} or singleBatch: 2;
// awaitData without tailable: 9), jstests/core/capped/capped_max1.js
// (stats max, maxSize scaled), capped_resize.js, and
// jstests/core/query/cursor/tailable_skip_limit.js, getmore_cmd_maxtimems.js.
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "commands/command_test_util.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace commands {
namespace {

// A field of `v` as JSON, "<none>" when absent.
std::string F(const Value& v, const char* name) {
  const Value* f = v.Get(name);
  return f == nullptr ? std::string("<none>") : ToJson(*f);
}

class CappedTest : public CommandTest {
 protected:
  std::string Code(const std::string& cmd) {
    Value r = Run("test", cmd);
    const Value* code = r.Get("code");
    return code == nullptr ? ToJson(r) : ToJson(*code);
  }
  static const Value::Array& Batch(const Value& reply, const char* which) {
    static const Value::Array empty;
    const Value* c = reply.Get("cursor");
    if (c == nullptr || c->Get(which) == nullptr) return empty;
    return c->Get(which)->array_items();
  }
  static int64_t Id(const Value& reply) {
    const Value* c = reply.Get("cursor");
    return c == nullptr ? -1 : c->Get("id")->int64_value();
  }
  Value GetMore(int64_t id, const std::string& extra = "") {
    return Run("test", absl::StrCat(R"({"getMore": {"$numberLong": ")", id,
                                    R"("}, "collection": "c")", extra, "}"));
  }

 public:
  // For the tests outside the fixture's methods.
  std::string RunCmd(const std::string& cmd, Connection* conn = nullptr) {
    return RunJson("test", cmd, conn);
  }
  std::string GetMoreJson(int64_t id, const std::string& extra = "") {
    return ToJson(GetMore(id, extra), JsonFormat::kStorage);
  }
  int64_t IdOf(const std::string& reply_json) {
    absl::StatusOr<Value> v = ParseDocument(reply_json);
    return v.ok() ? Id(*v) : -1;
  }
  std::unique_ptr<Connection> NewConnection() {
    return runner_->NewConnection();
  }

 protected:
  // The _ids of the collection in natural order.
  std::string Ids() {
    Value r = Run("test", R"({"find": "c", "projection": {"_id": 1}})");
    std::string out;
    for (const Value& d : Batch(r, "firstBatch")) {
      absl::StrAppend(&out, out.empty() ? "" : ",", F(d, "_id"));
    }
    return out;
  }
};

TEST_F(CappedTest, CreateValidatesLikeCreateIdl) {
  EXPECT_EQ(Code(R"({"create": "c", "capped": true})"), "72");
  EXPECT_EQ(Code(R"({"create": "c", "capped": true, "max": 5})"), "72");
  EXPECT_EQ(Code(R"({"create": "c", "size": 100})"), "72");
  EXPECT_EQ(RunJson("test", R"({"create": "c", "capped": true, "size": 0})"),
            R"({"ok":0.0,"errmsg":"BSON field 'size' value must be >= 1, )"
            R"(actual value '0'","code":51024,"codeName":"Location51024"})");
  EXPECT_EQ(Code(R"({"create": "c", "capped": true,
                     "size": 1125899906842625})"),
            "51024");
  EXPECT_EQ(Code(R"({"create": "c", "capped": true, "size": 100,
                     "max": 2147483648})"),
            "51024");
  EXPECT_EQ(RunJson("test", R"({"create": "c", "capped": true, "size": "x"})"),
            R"({"ok":0.0,"errmsg":"BSON field 'create.size' is the wrong )"
            R"(type 'string', expected types '[long, int, decimal, )"
            R"(double']","code":14,"codeName":"TypeMismatch"})");
  // Not rounded (MongoDB 8.0: featureFlagCappedCollectionsRelaxedSize).
  EXPECT_EQ(RunJson("test", R"({"create": "c", "capped": true, "size": 1000,
                                "max": 3})"),
            R"({"ok":1.0})");
  // The same options again: ok; others: 48.
  EXPECT_EQ(RunJson("test", R"({"create": "c", "capped": true, "size": 1000,
                                "max": 3})"),
            R"({"ok":1.0})");
  EXPECT_EQ(Code(R"({"create": "c", "capped": true, "size": 2000})"), "48");
  Value list =
      Run("test", R"({"listCollections": 1, "filter": {"name": "c"}})");
  ASSERT_EQ(Batch(list, "firstBatch").size(), 1u) << ToJson(list);
  EXPECT_EQ(F(Batch(list, "firstBatch")[0], "options"),
            R"({"capped":true,"size":1000,"max":3})");
  Value stats = Run("test", R"({"collStats": "c", "scale": 10})");
  EXPECT_EQ(F(stats, "capped"), "true");
  EXPECT_EQ(F(stats, "max"), "3");
  EXPECT_EQ(F(stats, "maxSize"), "100");
  // max <= 0: no bound, shown as 0x7fffffff.
  Run("test", R"({"create": "d", "capped": true, "size": 100, "max": -1})");
  EXPECT_EQ(F(Run("test", R"({"collStats": "d"})"), "max"), "2147483647");
}

TEST_F(CappedTest, InsertsPastMaxDeleteTheOldest) {
  Run("test", R"({"create": "c", "capped": true, "size": 100000, "max": 3})");
  for (int i = 1; i <= 5; ++i) {
    EXPECT_EQ(RunJson("test", absl::StrCat(R"({"insert": "c", "documents": )"
                                           R"([{"_id": )",
                                           i, "}]}")),
              R"({"n":1,"ok":1.0})");
  }
  EXPECT_EQ(Ids(), "3,4,5");
  // One insert of several documents: each is bounded.
  Run("test", R"({"insert": "c", "documents": [{"_id": 6}, {"_id": 7}]})");
  EXPECT_EQ(Ids(), "5,6,7");
  // collMod: a larger bound keeps more, a smaller one deletes at the next
  // insert.
  EXPECT_EQ(RunJson("test", R"({"collMod": "c", "cappedMax": 4})"),
            R"({"ok":1.0})");
  Run("test", R"({"insert": "c", "documents": [{"_id": 8}, {"_id": 9}]})");
  EXPECT_EQ(Ids(), "6,7,8,9");
  Run("test", R"({"collMod": "c", "cappedMax": 2})");
  Run("test", R"({"insert": "c", "documents": [{"_id": 10}]})");
  EXPECT_EQ(Ids(), "9,10");
  // Deletes and updates are allowed (MongoDB 8.0).
  EXPECT_EQ(RunJson("test", R"({"delete": "c", "deletes": [{"q": {"_id": 9},
                                "limit": 1}]})"),
            R"({"n":1,"ok":1.0})");
  EXPECT_TRUE(absl::StrContains(
      RunJson("test", R"({"update": "c", "updates": [{"q": {"_id": 10},
                          "u": {"$set": {"s": "longer"}}}]})"),
      R"("nModified":1)"));
  Run("test", R"({"insert": "c", "documents": [{"_id": 11}, {"_id": 12}]})");
  EXPECT_EQ(Ids(), "11,12");
  // $natural: -1 is the reverse.
  Value rev = Run("test", R"({"find": "c", "sort": {"$natural": -1}})");
  ASSERT_FALSE(Batch(rev, "firstBatch").empty()) << ToJson(rev);
  EXPECT_EQ(F(Batch(rev, "firstBatch")[0], "_id"), "12");
  // Any other value is refused as any sort key's (found by fuzz/
  // find_projection_sort: {$natural: -2} was accepted).
  EXPECT_FALSE(absl::StrContains(
      RunJson("test", R"({"find": "c", "sort": {"$natural": -2}})"),
      R"("ok":1.0)"));
}

TEST_F(CappedTest, InsertsPastSizeDeleteTheOldest) {
  Run("test", R"({"create": "c", "capped": true, "size": 300})");
  const std::string pad(80, 'x');  // 96 bytes of stored form each
  for (int i = 1; i <= 6; ++i) {
    Run("test", absl::StrCat(R"({"insert": "c", "documents": [{"_id": )", i,
                             R"(, "s": ")", pad, R"("}]})"));
  }
  Value size = Run("test", R"({"dataSize": "test.c"})");
  EXPECT_LE(size.Get("size")->AsDouble(), 300) << ToJson(size);
  EXPECT_EQ(Ids(), "4,5,6");
  // A document larger than the bound is kept alone.
  Run("test", absl::StrCat(R"({"insert": "c", "documents": [{"_id": 7, )"
                           R"("s": ")",
                           std::string(500, 'y'), R"("}]})"));
  EXPECT_EQ(Ids(), "7");
}

// capped_max1.js: a collection scan whose position the capped deletes
// removed dies (collection_scan.cpp, 136 CappedPositionLost).
TEST_F(CappedTest, ScanLosesItsPosition) {
  Run("test", R"({"create": "c", "capped": true, "size": 100000, "max": 4})");
  Run("test", R"({"insert": "c", "documents": [{"_id": 1}, {"_id": 2},
                  {"_id": 3}, {"_id": 4}]})");
  Value first = Run("test", R"({"find": "c", "batchSize": 2})");
  const int64_t id = Id(first);
  ASSERT_NE(id, 0) << ToJson(first);
  // Its position (_id 2) stays: the getMore goes on.
  Run("test", R"({"insert": "c", "documents": [{"_id": 5}]})");
  Value more = Run("test", absl::StrCat(R"({"getMore": {"$numberLong": ")", id,
                                        R"("}, "collection": "c",
                                        "batchSize": 1})"));
  EXPECT_EQ(F(more, "ok"), "1.0") << ToJson(more);
  Run("test", R"({"insert": "c", "documents": [{"_id": 6}, {"_id": 7},
                  {"_id": 8}]})");
  Value lost = GetMore(id);
  EXPECT_EQ(F(lost, "code"), "136") << ToJson(lost);
  // A filtered find is not a position in the collection: no such check.
  Value filtered = Run("test", R"({"find": "c", "filter": {"_id": {"$gt": 0}},
                                   "batchSize": 1})");
  Run("test", R"({"insert": "c", "documents": [{"_id": 9}, {"_id": 10},
                  {"_id": 11}, {"_id": 12}]})");
  EXPECT_EQ(F(GetMore(Id(filtered)), "ok"), "1.0");
}

// convertToCapped / cloneCollectionAsCapped (capped_utils.cpp): a capped
// copy in natural order, the newest documents that fit, the _id index only.
TEST_F(CappedTest, ConvertAndCloneAsCapped) {
  Run("test", R"({"insert": "p", "documents": [{"_id": 1, "k": 1},
                  {"_id": 2, "k": 2}, {"_id": 3, "k": 3}]})");
  Run("test", R"({"createIndexes": "p", "indexes": [{"key": {"k": 1},
                  "name": "k_1"}]})");
  EXPECT_EQ(Code(R"({"convertToCapped": "nope", "size": 1000})"), "26");
  EXPECT_EQ(Code(R"({"convertToCapped": "p"})"), "40414");
  EXPECT_EQ(Code(R"({"cloneCollectionAsCapped": "p", "toCollection": "q",
                     "size": 0})"),
            "51024");
  EXPECT_EQ(RunJson("test", R"({"cloneCollectionAsCapped": "p",
                                "toCollection": "q", "size": 30})"),
            R"({"ok":1.0})");
  Value q = Run("test", R"({"find": "q"})");
  EXPECT_EQ(Batch(q, "firstBatch").size(), 2u) << ToJson(q);  // 2 x 14 B
  EXPECT_EQ(Code(R"({"cloneCollectionAsCapped": "p", "toCollection": "q",
                     "size": 60})"),
            "48");
  EXPECT_EQ(RunJson("test", R"({"convertToCapped": "p", "size": 100000})"),
            R"({"ok":1.0})");
  Value stats = Run("test", R"({"collStats": "p"})");
  EXPECT_EQ(F(stats, "capped"), "true");
  EXPECT_EQ(F(stats, "count"), "3");
  EXPECT_EQ(F(stats, "nindexes"), "1");
  Value names = Run("test", R"({"listCollections": 1, "nameOnly": true})");
  EXPECT_EQ(Batch(names, "firstBatch").size(), 2u) << ToJson(names);
}

TEST_F(CappedTest, CollModAndIndexRules) {
  Run("test", R"({"create": "c", "capped": true, "size": 1000})");
  Run("test", R"({"create": "p"})");
  EXPECT_EQ(Code(R"({"collMod": "c", "cappedSize": 0})"), "51024");
  EXPECT_EQ(Code(R"({"collMod": "c", "cappedSize": 1125899906842625})"),
            "51024");
  EXPECT_EQ(Code(R"({"collMod": "p", "cappedSize": 1000})"), "72");
  EXPECT_EQ(RunJson("test", R"({"collMod": "c", "cappedSize": 51150})"),
            R"({"ok":1.0})");
  EXPECT_EQ(F(Run("test", R"({"collStats": "c"})"), "maxSize"), "51150");
  // index_catalog_impl.cpp: no TTL index on a capped collection (67).
  EXPECT_EQ(RunJson("test", R"({"createIndexes": "c", "indexes": [{"key":
                                {"t": 1}, "name": "t_1",
                                "expireAfterSeconds": 10}]})"),
            R"({"ok":0.0,"errmsg":"Cannot create TTL index on a capped )"
            R"(collection","code":67,"codeName":"CannotCreateIndex"})");
  EXPECT_TRUE(absl::StrContains(
      RunJson("test", R"({"createIndexes": "c", "indexes": [{"key":
                          {"t": 1}, "name": "t_1"}]})"),
      R"("ok":1.0)"));
}

TEST_F(CappedTest, TailableFindRules) {
  Run("test", R"({"insert": "p", "documents": [{"_id": 1}]})");
  EXPECT_EQ(RunJson("test", R"({"find": "p", "tailable": true})"),
            R"({"ok":0.0,"errmsg":"error processing query: test.p )"
            R"(tailable cursor requested on non capped collection",)"
            R"("code":2,"codeName":"BadValue"})");
  Run("test", R"({"create": "c", "capped": true, "size": 1000})");
  EXPECT_EQ(Code(R"({"find": "c", "tailable": true, "sort": {"a": 1}})"), "2");
  EXPECT_EQ(Code(R"({"find": "c", "tailable": true, "singleBatch": true})"),
            "2");
  EXPECT_EQ(Code(R"({"find": "c", "awaitData": true})"), "9");
  // An empty capped collection: a dead cursor (SERVER-20720).
  Value empty = Run("test", R"({"find": "c", "tailable": true})");
  EXPECT_EQ(Id(empty), 0) << ToJson(empty);
  EXPECT_TRUE(Batch(empty, "firstBatch").empty());
}

TEST_F(CappedTest, TailableCursorReturnsLaterInserts) {
  Run("test", R"({"create": "c", "capped": true, "size": 10000})");
  Run("test", R"({"insert": "c", "documents": [{"_id": 1}, {"_id": 2}]})");
  Value first = Run("test", R"({"find": "c", "tailable": true, "skip": 1})");
  ASSERT_EQ(Batch(first, "firstBatch").size(), 1u) << ToJson(first);
  const int64_t id = Id(first);
  ASSERT_NE(id, 0);
  // Nothing new: an empty batch at once, the cursor stays.
  Value none = GetMore(id);
  EXPECT_TRUE(Batch(none, "nextBatch").empty()) << ToJson(none);
  EXPECT_EQ(Id(none), id);
  // maxTimeMS is for awaitData cursors only.
  EXPECT_EQ(F(GetMore(id, R"(, "maxTimeMS": 100)"), "code"), "2");
  Run("test", R"({"insert": "c", "documents": [{"_id": 3}, {"_id": 4}]})");
  Value next = GetMore(id);
  ASSERT_EQ(Batch(next, "nextBatch").size(), 2u) << ToJson(next);
  EXPECT_EQ(F(Batch(next, "nextBatch")[1], "_id"), "4");
  // A filter applies to the later documents too; a limit ends the cursor.
  Value lim = Run("test", R"({"find": "c", "tailable": true, "limit": 5,
                              "filter": {"k": 1}})");
  const int64_t lid = Id(lim);
  ASSERT_NE(lid, 0) << ToJson(lim);
  Run("test", R"({"insert": "c", "documents": [{"_id": 5, "k": 2},
                  {"_id": 6, "k": 1}]})");
  Value got = GetMore(lid);
  ASSERT_EQ(Batch(got, "nextBatch").size(), 1u) << ToJson(got);
  EXPECT_EQ(F(Batch(got, "nextBatch")[0], "_id"), "6");
}

TEST_F(CappedTest, AwaitDataWaitsForAnInsert) {
  Run("test", R"({"create": "c", "capped": true, "size": 10000})");
  Run("test", R"({"insert": "c", "documents": [{"_id": 1}]})");
  Value first =
      Run("test", R"({"find": "c", "tailable": true, "awaitData": true})");
  const int64_t id = Id(first);
  ASSERT_NE(id, 0) << ToJson(first);
  // Nothing comes: an empty batch after maxTimeMS.
  const absl::Time t0 = absl::Now();
  Value none = GetMore(id, R"(, "maxTimeMS": 100)");
  EXPECT_TRUE(Batch(none, "nextBatch").empty()) << ToJson(none);
  EXPECT_GE(absl::Now() - t0, absl::Milliseconds(90));
  EXPECT_EQ(Id(none), id);
  // An insert while the getMore waits ends the wait well before maxTimeMS.
  std::thread writer([this] {
    absl::SleepFor(absl::Milliseconds(100));
    Run("test", R"({"insert": "c", "documents": [{"_id": 2}]})");
  });
  const absl::Time t1 = absl::Now();
  Value got = GetMore(id, R"(, "maxTimeMS": 20000)");
  writer.join();
  ASSERT_EQ(Batch(got, "nextBatch").size(), 1u) << ToJson(got);
  EXPECT_EQ(F(Batch(got, "nextBatch")[0], "_id"), "2");
  EXPECT_LT(absl::Now() - t1, absl::Seconds(10));
}

// killCursors from another connection ends a tailable awaitData getMore
// that waits at once with 237 CursorKilled (mongod kills the operation of
// a cursor in use, as for a change stream's; the Node driver's
// cursor.close() sends it while its getMore waits), not after its
// maxTimeMS; with the change log (the wait is on the collection's change
// stream) and without (the wait polls).
void KillCursorsEndsAnAwaitingGetMore(CappedTest* t) {
  t->RunCmd(R"({"create": "c", "capped": true, "size": 10000})");
  t->RunCmd(R"({"insert": "c", "documents": [{"_id": 1}]})");
  const int64_t id = t->IdOf(
      t->RunCmd(R"({"find": "c", "tailable": true, "awaitData": true})"));
  ASSERT_GT(id, 0);
  std::unique_ptr<Connection> killer = t->NewConnection();
  std::string killed;
  std::thread kill([&] {
    absl::SleepFor(absl::Milliseconds(200));
    killed = t->RunCmd(absl::StrCat(R"({"killCursors": "c", "cursors": [)"
                                    R"({"$numberLong": ")",
                                    id, R"("}]})"),
                       killer.get());
  });
  const absl::Time t0 = absl::Now();
  const std::string r = t->GetMoreJson(id, R"(, "maxTimeMS": 60000)");
  const absl::Duration waited = absl::Now() - t0;
  kill.join();
  EXPECT_TRUE(absl::StrContains(killed, "cursorsKilled")) << killed;
  EXPECT_EQ(r, absl::StrCat(R"({"ok":0.0,"errmsg":"cursor id )", id,
                            R"( was killed","code":237,)"
                            R"("codeName":"CursorKilled"})"));
  EXPECT_LT(waited, absl::Seconds(20));  // not the 60 s maxTimeMS
  // The cursor is gone: 43 CursorNotFound.
  EXPECT_TRUE(absl::StrContains(t->GetMoreJson(id), R"("code":43)"));
}

TEST_F(CappedTest, KillCursorsEndsAnAwaitingGetMoreThatPolls) {
  KillCursorsEndsAnAwaitingGetMore(this);
}

class CappedWithChangeLogTest : public CappedTest {
 protected:
  CappedWithChangeLogTest() { options_.database_options.change_log = true; }
};

TEST_F(CappedWithChangeLogTest, KillCursorsEndsAnAwaitingGetMore) {
  KillCursorsEndsAnAwaitingGetMore(this);
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
