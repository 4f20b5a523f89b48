// insert/update/delete, find/getMore/killCursors, count and distinct
// through CommandRunner::Run, with MongoDB's reply shapes.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/sha256.h"
#include "commands/auth_test_util.h"
#include "commands/command_test_util.h"
#include "commands/cursor_store.h"
#include "gtest/gtest.h"
#include "ttldb/clock.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

using CrudTest = CommandTest;

// insert: {n, ok}; an ordered batch stops at the first failure and
// reports it in writeErrors [{index, code, errmsg}] with ok: 1
// (write_commands.cpp,
// jstests/core/write/insert/batch_write_command_insert.js).
TEST_F(CrudTest, InsertOrderedStopsAtFirstError) {
  EXPECT_EQ(RunJson("test", R"({"insert": "c", "documents": [{"_id": 1}]})"),
            R"({"n":1,"ok":1.0})");
  Value r = Run("test", R"({"insert": "c", "documents": [{"_id": 2},
                 {"_id": 1}, {"_id": 3}]})");
  EXPECT_EQ(ToJson(*r.Get("n")), "1");
  const Value& err = r.Get("writeErrors")->array_items().at(0);
  EXPECT_EQ(ToJson(*err.Get("index")), "1");
  EXPECT_EQ(ToJson(*err.Get("code")), "11000");
  EXPECT_EQ(err.Get("errmsg")->string_value().substr(0, 6), "E11000");
  EXPECT_EQ(ToJson(*r.Get("ok")), "1.0");
  EXPECT_EQ(RunJson("test", R"({"count": "c"})"), R"({"n":2,"ok":1.0})");
}

// The duplicate key write error in MongoDB's exact shape: {index, code,
// keyPattern, keyValue, errmsg} with the namespace <db>.<collection> in the
// message (src/mongo/db/storage/duplicate_key_error_info.cpp,
// src/mongo/db/ops/write_ops.cpp WriteError::serialize; jstests/core/
// uniqueness.js checks the message format). findAndModify carries the same
// fields on its command error, after codeName.
TEST_F(CrudTest, DuplicateKeyErrorShape) {
  Run("other", R"({"createIndexes": "c", "indexes": [{"key": {"a": 1},
                   "name": "a_1", "unique": true}]})");
  Run("other", R"({"insert": "c", "documents": [{"_id": 1, "a": 1}]})");
  Value r =
      Run("other", R"({"insert": "c", "documents": [{"_id": 2, "a": 1}]})");
  EXPECT_EQ(ToJson(r.Get("writeErrors")->array_items().at(0)),
            R"({"index":0,"code":11000,"keyPattern":{"a":1},)"
            R"("keyValue":{"a":1},"errmsg":"E11000 duplicate key error )"
            R"(collection: other.c index: a_1 dup key: { a: 1 }"})");
  EXPECT_EQ(
      RunJson("other", R"({"findAndModify": "c", "query": {"_id": 5},
                         "update": {"$set": {"a": 1}}, "upsert": true})"),
      R"({"ok":0.0,"errmsg":"E11000 duplicate key error collection: )"
      R"(other.c index: a_1 dup key: { a: 1 }","code":11000,)"
      R"("codeName":"DuplicateKey","keyPattern":{"a":1},"keyValue":{"a":1}})");
}

// ordered: false tries every document.
TEST_F(CrudTest, InsertUnorderedContinues) {
  Value r = Run("test", R"({"insert": "c", "documents": [{"_id": 1},
                 {"_id": 1}, {"_id": 3}], "ordered": false})");
  EXPECT_EQ(ToJson(*r.Get("n")), "2");
  EXPECT_EQ(r.Get("writeErrors")->array_items().size(), 1u);
}

// The IDL's errors: ordered must be a bool; documents is required; an
// empty batch is InvalidLength (write_ops.idl, write_commands.cpp).
TEST_F(CrudTest, InsertArgumentErrors) {
  EXPECT_EQ(RunJson("test", R"({"insert": "c", "documents": [{}],
                     "ordered": 1})"),
            R"({"ok":0.0,"errmsg":"BSON field 'insert.ordered' is the wrong )"
            R"(type 'int', expected type 'bool'","code":14,)"
            R"("codeName":"TypeMismatch"})");
  EXPECT_EQ(RunJson("test", R"({"insert": "c"})"),
            R"({"ok":0.0,"errmsg":"BSON field 'insert.documents' is missing )"
            R"(but a required field","code":40414,)"
            R"("codeName":"Location40414"})");
  EXPECT_EQ(RunJson("test", R"({"insert": "c", "documents": []})"),
            R"({"ok":0.0,"errmsg":"Write batch sizes must be between 1 and )"
            R"(100000. Got 0 operations.","code":16,)"
            R"("codeName":"InvalidLength"})");
  EXPECT_EQ(RunJson("test", R"({"insert": "c", "documents": [{}],
                     "bogus": 1})"),
            R"({"ok":0.0,"errmsg":"BSON field 'insert.bogus' is an unknown )"
            R"(field.","code":40415,"codeName":"Location40415"})");
  EXPECT_EQ(RunJson("test", R"({"insert": 5, "documents": [{}]})"),
            R"({"ok":0.0,"errmsg":"collection name has invalid type int",)"
            R"("code":73,"codeName":"InvalidNamespace"})");
}

// update: {n, nModified, ok}; an upsert adds upserted: [{index, _id}]
// between them, and n counts it (write_commands.cpp, mongod's reply
// {n: 1, upserted: [...], nModified: 0, ok: 1}).
TEST_F(CrudTest, UpdateShapes) {
  Run("test", R"({"insert": "c", "documents": [{"_id": 1, "a": 1},
       {"_id": 2, "a": 1}]})");
  EXPECT_EQ(RunJson("test", R"({"update": "c", "updates": [{"q": {"a": 1},
                     "u": {"$set": {"b": 1}}, "multi": true}]})"),
            R"({"n":2,"nModified":2,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"update": "c", "updates": [{"q": {"_id": 9},
                     "u": {"$set": {"b": 1}}, "upsert": true}]})"),
            R"({"n":1,"upserted":[{"index":0,"_id":9}],"nModified":0,)"
            R"("ok":1.0})");
  // Replacement with multi: FailedToParse (write_ops_parsers.cpp).
  Value r = Run("test", R"({"update": "c", "updates": [{"q": {},
                 "u": {"x": 1}, "multi": true}]})");
  EXPECT_EQ(ToJson(r.Get("writeErrors")->array_items()[0]),
            R"({"index":0,"code":9,"errmsg":"multi update is not supported )"
            R"(for replacement-style update"})");
  // arrayFilters reach the engine.
  Run("test", R"({"insert": "c", "documents": [{"_id": 5, "v": [1, 5]}]})");
  EXPECT_EQ(RunJson("test", R"({"update": "c", "updates": [{"q": {"_id": 5},
                     "u": {"$set": {"v.$[e]": 0}}, "arrayFilters": [{"e":
                     {"$gt": 2}}]}]})"),
            R"({"n":1,"nModified":1,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"find": "c", "filter": {"_id": 5}})"),
            R"({"cursor":{"firstBatch":[{"_id":5,"v":[1,0]}],)"
            R"("id":{"$numberLong":"0"},"ns":"test.c"},"ok":1.0})");
}

// delete: limit 0 (all) or 1; anything else fails the command's parse
// with FailedToParse "The limit field in delete objects must be 0 or 1.
// Got 2" (write_ops_parsers.cpp, DeleteOpEntry's limit).
TEST_F(CrudTest, DeleteShapes) {
  Run("test", R"({"insert": "c", "documents": [{"a": 1}, {"a": 1},
       {"a": 2}]})");
  EXPECT_EQ(RunJson("test", R"({"delete": "c", "deletes": [{"q": {"a": 1},
                     "limit": 1}]})"),
            R"({"n":1,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"delete": "c", "deletes": [{"q": {},
                     "limit": 0}]})"),
            R"({"n":2,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"delete": "c", "deletes": [{"q": {},
                     "limit": 2}]})"),
            R"({"ok":0.0,"errmsg":"The limit field in delete objects must )"
            R"(be 0 or 1. Got 2","code":9,"codeName":"FailedToParse"})");
  EXPECT_EQ(RunJson("test", R"({"delete": "c", "deletes": [{"q": {}}]})"),
            R"({"ok":0.0,"errmsg":"BSON field 'delete.deletes.limit' is )"
            R"(missing but a required field","code":40414,)"
            R"("codeName":"Location40414"})");
}

// find: a cursor reply {cursor: {firstBatch, id, ns}, ok} (the batch
// first: src/mongo/db/query/cursor_response.cpp CursorResponseBuilder); the
// default first batch is 101 documents; getMore continues with nextBatch and id
// 0 at the end (jstests/core/query/getmore/getmore_cmd_basic.js).
TEST_F(CrudTest, FindAndGetMoreBatches) {
  std::string docs;
  for (int i = 0; i < 250; ++i) {
    absl::StrAppend(&docs, i == 0 ? "" : ",", "{\"_id\":", i, "}");
  }
  Run("test", "{\"insert\": \"c\", \"documents\": [" + docs + "]}");
  Value first = Run("test", R"({"find": "c", "sort": {"_id": 1}})");
  const Value* cursor = first.Get("cursor");
  ASSERT_NE(cursor, nullptr) << ToJson(first);
  EXPECT_EQ(cursor->object_fields()[0].first, "firstBatch");
  EXPECT_EQ(cursor->Get("firstBatch")->array_items().size(), 101u);
  EXPECT_EQ(ToJson(*cursor->Get("ns")), R"("test.c")");
  const int64_t id = cursor->Get("id")->int64_value();
  ASSERT_GT(id, 0);
  const std::string more =
      absl::StrCat(R"({"getMore": {"$numberLong": ")", id,
                   R"("}, "collection": "c", "batchSize": 100})");
  Value second = Run("test", more);
  EXPECT_EQ(second.Get("cursor")->Get("nextBatch")->array_items().size(), 100u);
  EXPECT_EQ(ToJson(second.Get("cursor")->Get("nextBatch")->array_items()[0]),
            R"({"_id":101})");
  EXPECT_EQ(second.Get("cursor")->Get("id")->int64_value(), id);
  Value third = Run("test", more);
  EXPECT_EQ(third.Get("cursor")->Get("nextBatch")->array_items().size(), 49u);
  EXPECT_EQ(third.Get("cursor")->Get("id")->int64_value(), 0);
  // The exhausted cursor is gone: CursorNotFound (43).
  EXPECT_EQ(
      RunJson("test", more),
      absl::StrCat(R"({"ok":0.0,"errmsg":"cursor id )", id,
                   R"( not found","code":43,"codeName":"CursorNotFound"})"));
}

// A backward scan through find and getMore: sort {_id: -1}, and {a: 1}
// over the index {a: -1}, continue from where the previous batch stopped
// (getmore_cmd_basic.js batches; planner_analysis.cpp reverses the scan).
TEST_F(CrudTest, FindAndGetMoreBackward) {
  Run("test", R"({"createIndexes": "c", "indexes": [{"key": {"a": -1},
      "name": "a_-1"}]})");
  std::string docs;
  for (int i = 0; i < 7; ++i) {
    absl::StrAppend(&docs, i == 0 ? "" : ",", "{\"_id\":", i, ",\"a\":", 10 - i,
                    "}");
  }
  Run("test", "{\"insert\": \"c\", \"documents\": [" + docs + "]}");
  for (const char* sort : {R"({"_id": -1})", R"({"a": 1})"}) {
    Value first = Run("test", absl::StrCat(R"({"find": "c", "sort": )", sort,
                                           R"(, "batchSize": 3})"));
    const Value* cursor = first.Get("cursor");
    ASSERT_NE(cursor, nullptr) << ToJson(first);
    EXPECT_EQ(ToJson(*cursor->Get("firstBatch")),
              R"([{"_id":6,"a":4},{"_id":5,"a":5},{"_id":4,"a":6}])")
        << sort;
    const int64_t id = cursor->Get("id")->int64_value();
    ASSERT_GT(id, 0);
    const std::string more =
        absl::StrCat(R"({"getMore": {"$numberLong": ")", id,
                     R"("}, "collection": "c", "batchSize": 3})");
    Value second = Run("test", more);
    EXPECT_EQ(ToJson(*second.Get("cursor")->Get("nextBatch")),
              R"([{"_id":3,"a":7},{"_id":2,"a":8},{"_id":1,"a":9}])")
        << sort;
    Value third = Run("test", more);
    EXPECT_EQ(ToJson(*third.Get("cursor")->Get("nextBatch")),
              R"([{"_id":0,"a":10}])")
        << sort;
    EXPECT_EQ(third.Get("cursor")->Get("id")->int64_value(), 0);
  }
}

// limit, skip, projection, singleBatch; a batch that reaches the limit
// closes the cursor (id 0).
TEST_F(CrudTest, FindOptions) {
  Run("test", R"({"insert": "c", "documents": [{"_id": 1, "a": 1, "b": 1},
       {"_id": 2, "a": 2, "b": 2}, {"_id": 3, "a": 3, "b": 3}]})");
  EXPECT_EQ(RunJson("test", R"({"find": "c", "filter": {"a": {"$gte": 1}},
                     "sort": {"a": -1}, "skip": 1, "limit": 1,
                     "projection": {"_id": 0, "a": 1}})"),
            R"({"cursor":{"firstBatch":[{"a":2}],"id":{"$numberLong":"0"},)"
            R"("ns":"test.c"},"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"find": "c", "batchSize": 1,
                     "singleBatch": true})"),
            R"({"cursor":{"firstBatch":[{"_id":1,"a":1,"b":1}],)"
            R"("id":{"$numberLong":"0"},"ns":"test.c"},"ok":1.0})");
  // A collection or database that does not exist reads as empty.
  EXPECT_EQ(RunJson("nodb", R"({"find": "none"})"),
            R"({"cursor":{"firstBatch":[],"id":{"$numberLong":"0"},)"
            R"("ns":"nodb.none"},"ok":1.0})");
  // find_command.idl: limit must be >= 0 (51024).
  EXPECT_EQ(RunJson("test", R"({"find": "c", "limit": -1})"),
            R"({"ok":0.0,"errmsg":"BSON field 'limit' value must be >= 0, )"
            R"(actual value '-1'","code":51024,"codeName":"Location51024"})");
  EXPECT_EQ(RunJson("test", R"({"find": "c", "limit": "x"})"),
            R"({"ok":0.0,"errmsg":"BSON field 'find.limit' is the wrong )"
            R"(type 'string', expected types '[long, int, decimal, double]'",)"
            R"("code":14,"codeName":"TypeMismatch"})");
  // Accepted generic arguments.
  EXPECT_EQ(ToJson(*Run("test", R"({"find": "c", "comment": "x",
                         "maxTimeMS": 1000, "readConcern": {"level":
                         "local"}, "hint": {"_id": 1}})")
                        .Get("ok")),
            "1.0");
}

// killCursors: {cursorsKilled, cursorsNotFound, cursorsAlive,
// cursorsUnknown, ok} (kill_cursors.idl); a killed cursor is not found.
TEST_F(CrudTest, KillCursors) {
  Run("test", R"({"insert": "c", "documents": [{}, {}, {}]})");
  Value r = Run("test", R"({"find": "c", "batchSize": 1})");
  const int64_t id = r.Get("cursor")->Get("id")->int64_value();
  ASSERT_NE(id, 0);
  const std::string kill =
      absl::StrCat(R"({"killCursors": "c", "cursors": [{"$numberLong": ")", id,
                   R"("}, {"$numberLong": "7"}]})");
  EXPECT_EQ(RunJson("test", kill),
            absl::StrCat(R"({"cursorsKilled":[{"$numberLong":")", id,
                         R"("}],"cursorsNotFound":[{"$numberLong":"7"}],)"
                         R"("cursorsAlive":[],"cursorsUnknown":[],"ok":1.0})"));
  EXPECT_EQ(ToJson(*Run("test", absl::StrCat(R"({"getMore": {"$numberLong":
                         ")",
                                             id, R"("}, "collection": "c"})"))
                        .Get("code")),
            "43");
}

// Cursor ids are random longs in [2^53, 2^63): positive, never 0, unique
// among open cursors, unpredictable (mongod's allocateCursorId: a random
// positive int64), and never small enough for the Node driver to turn into
// a number that it would send back as a double (getMore/killCursors: 14).
// With ids uniform in [1, 2^63), about 100 of these 100,000 were below
// 2^53.
TEST(CursorIdTest, RandomLongsAtLeastTwoToThe53) {
  FakeClock clock;
  CursorStore store(&clock, absl::Minutes(10), 1 << 20, 1 << 20);
  absl::flat_hash_set<int64_t> ids;
  int64_t top_bits_seen = 0;  // which of the 16 values of bits 59-62
  constexpr int kCursors = 100000;
  for (int i = 0; i < kCursors; ++i) {
    auto cursor = std::make_unique<ServerCursor>();
    cursor->ns = "d.c";
    cursor->connection_id = 1 + i % 7;
    auto r = store.Register(std::move(cursor));
    ASSERT_TRUE(r.ok()) << r.status();
    const int64_t id = (*r)->id;
    ASSERT_GE(id, int64_t{1} << 53) << "cursor " << i;
    ids.insert(id);
    top_bits_seen |= int64_t{1} << (id >> 59);
    store.Release(*r, false);
  }
  EXPECT_EQ(ids.size(), static_cast<size_t>(kCursors));
  EXPECT_EQ(top_bits_seen, 0xffff);
  EXPECT_EQ(store.open_count(), kCursors);
}

// reliability-3.md N7: every find and getMore walked all open cursors
// under one lock (40,000 cursors: 50x slower). Opening, checking out and
// releasing a cursor costs the same with 100,000 others open as with none
// (a hash map by id, idle cursors in last-use order). Timed, so the bound
// is loose: the walk it replaced made the ratio thousands.
TEST(CursorIdTest, CostDoesNotGrowWithOpenCursors) {
  FakeClock clock;
  CursorStore store(&clock, absl::Minutes(10), 1 << 20, 1 << 20);
  auto cycle = [&](int n) {
    const absl::Time start = absl::Now();
    for (int i = 0; i < n; ++i) {
      auto cursor = std::make_unique<ServerCursor>();
      cursor->ns = "d.c";
      cursor->connection_id = 99;
      auto r = store.Register(std::move(cursor));
      if (!r.ok()) return absl::InfiniteDuration();
      const int64_t id = (*r)->id;
      store.Release(*r, false);
      auto again = store.CheckOut(id, "d.c");
      if (!again.ok()) return absl::InfiniteDuration();
      store.Release(*again, true);
    }
    return absl::Now() - start;
  };
  absl::Duration alone = absl::InfiniteDuration();
  for (int k = 0; k < 3; ++k) alone = std::min(alone, cycle(2000));
  for (int i = 0; i < 100000; ++i) {
    auto cursor = std::make_unique<ServerCursor>();
    cursor->ns = "d.c";
    cursor->connection_id = 1 + i % 100;
    auto r = store.Register(std::move(cursor));
    ASSERT_TRUE(r.ok()) << r.status();
    store.Release(*r, false);
  }
  absl::Duration crowded = absl::InfiniteDuration();
  for (int k = 0; k < 3; ++k) crowded = std::min(crowded, cycle(2000));
  ::testing::Test::RecordProperty("alone", absl::FormatDuration(alone));
  ::testing::Test::RecordProperty("crowded", absl::FormatDuration(crowded));
  EXPECT_LT(crowded, 10 * alone + absl::Milliseconds(20))
      << "alone " << alone << ", with 100,000 open " << crowded;
  EXPECT_EQ(store.open_count(), 100000);
}

// Without --auth a cursor still belongs to its logical session: getMore
// checks the lsid as getmore_cmd.cpp validateLSID does (50736 a cursor
// without a session, 50737 a getMore without one, 50738 another session;
// the uid is the digest of no user, SHA-256 of ""); killCursors does not
// (generic_cursor_utils.cpp: a session may kill another session's
// cursors). A failed check leaves the cursor open.
TEST_F(CrudTest, GetMoreNeedsTheSessionThatOpenedTheCursor) {
  Run("test", R"({"insert": "c", "documents": [{"_id": 1}, {"_id": 2},
      {"_id": 3}, {"_id": 4}]})");
  const std::string s1 =
      R"({"id": {"$binary": {"base64": "AAECAwQFBgcICQoLDA0ODw==",)"
      R"( "subType": "04"}}})";
  const std::string s2 =
      R"({"id": {"$binary": {"base64": "EREREREREREREREREREREQ==",)"
      R"( "subType": "04"}}})";
  const std::string uid = absl::Base64Escape(Sha256(""));
  ASSERT_EQ(uid, "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
  const std::string one =
      "00010203-0405-0607-0809-0a0b0c0d0e0f - " + uid + " -  - ";
  const std::string two =
      "11111111-1111-1111-1111-111111111111 - " + uid + " -  - ";
  auto find = [&](const std::string& lsid) {
    return Run("test",
               absl::StrCat(R"({"find": "c", "sort": {"_id": 1},)",
                            R"( "batchSize": 1)",
                            lsid.empty() ? "" : R"(, "lsid": )", lsid, "}"))
        .Get("cursor")
        ->Get("id")
        ->int64_value();
  };
  auto get_more = [&](int64_t id, const std::string& lsid) {
    return Run("test",
               absl::StrCat(R"({"getMore": {"$numberLong": ")", id,
                            R"("}, "collection": "c", "batchSize": 1)",
                            lsid.empty() ? "" : R"(, "lsid": )", lsid, "}"));
  };
  const int64_t in_session = find(s1);
  Value r = get_more(in_session, s2);
  EXPECT_EQ(Code(r), 50738);
  EXPECT_EQ(Errmsg(r), absl::StrCat("Cannot run getMore on cursor ", in_session,
                                    ", which was created in session ", one,
                                    ", in session ", two));
  r = get_more(in_session, "");
  EXPECT_EQ(Code(r), 50737);
  EXPECT_EQ(Errmsg(r), absl::StrCat("Cannot run getMore on cursor ", in_session,
                                    ", which was created in ", "session ", one,
                                    ", without an lsid"));
  EXPECT_EQ(ToJson(*get_more(in_session, s1).Get("ok")), "1.0");
  const int64_t plain = find("");
  r = get_more(plain, s1);
  EXPECT_EQ(Code(r), 50736);
  EXPECT_EQ(Errmsg(r), absl::StrCat("Cannot run getMore on cursor ", plain,
                                    ", which was not created in a session, "
                                    "in session ",
                                    one));
  EXPECT_EQ(ToJson(*get_more(plain, "").Get("ok")), "1.0");
  // killCursors from another session kills it.
  EXPECT_EQ(
      RunJson("test", absl::StrCat(R"({"killCursors": "c", "cursors": )"
                                   R"([{"$numberLong": ")",
                                   in_session, R"("}], "lsid": )", s2, "}")),
      absl::StrCat(R"({"cursorsKilled":[{"$numberLong":")", in_session,
                   R"("}],"cursorsNotFound":[],"cursorsAlive":[],)"
                   R"("cursorsUnknown":[],"ok":1.0})"));
}

// getMore and killCursors take such an id as a long, and only as a long
// (getmore_command.idl, kill_cursors.idl: 14 for a double).
TEST_F(CrudTest, GetMoreAndKillCursorsTakeLargeIdsAsLongs) {
  Run("test", R"({"insert": "c", "documents": [{}, {}, {}]})");
  const int64_t id = Run("test", R"({"find": "c", "batchSize": 1})")
                         .Get("cursor")
                         ->Get("id")
                         ->int64_value();
  ASSERT_GE(id, int64_t{1} << 53);
  EXPECT_EQ(
      RunJson("test", absl::StrCat(R"({"getMore": )", static_cast<double>(id),
                                   R"(, "collection": "c"})")),
      R"({"ok":0.0,"errmsg":"BSON field 'getMore.getMore' is the )"
      R"(wrong type 'double', expected type 'long'","code":14,)"
      R"("codeName":"TypeMismatch"})");
  EXPECT_EQ(RunJson("test", R"({"killCursors": "c", "cursors": [1.5]})"),
            R"({"ok":0.0,"errmsg":"BSON field 'killCursors.cursors.0' is the )"
            R"(wrong type 'double', expected type 'long'","code":14,)"
            R"("codeName":"TypeMismatch"})");
  Value more = Run("test", absl::StrCat(R"({"getMore": {"$numberLong": ")", id,
                                        R"("}, "collection": "c", )"
                                        R"("batchSize": 1})"));
  EXPECT_EQ(more.Get("cursor")->Get("id")->int64_value(), id);
  EXPECT_EQ(RunJson("test", absl::StrCat(R"({"killCursors": "c", "cursors": )"
                                         R"([{"$numberLong": ")",
                                         id, R"("}]})")),
            absl::StrCat(R"({"cursorsKilled":[{"$numberLong":")", id,
                         R"("}],"cursorsNotFound":[],"cursorsAlive":[],)"
                         R"("cursorsUnknown":[],"ok":1.0})"));
}

// A cursor belongs to its namespace: getMore naming another collection is
// Unauthorized (getmore_cmd.cpp).
TEST_F(CrudTest, GetMoreWrongNamespace) {
  Run("test", R"({"insert": "c", "documents": [{}, {}]})");
  const int64_t id = Run("test", R"({"find": "c", "batchSize": 1})")
                         .Get("cursor")
                         ->Get("id")
                         ->int64_value();
  Value r = Run("test", absl::StrCat(R"({"getMore": {"$numberLong": ")", id,
                                     R"("}, "collection": "d"})"));
  EXPECT_EQ(ToJson(*r.Get("code")), "13");
  // getMore's id must be a long (getmore_command.idl).
  EXPECT_EQ(RunJson("test", R"({"getMore": 5, "collection": "c"})"),
            R"({"ok":0.0,"errmsg":"BSON field 'getMore.getMore' is the )"
            R"(wrong type 'int', expected type 'long'","code":14,)"
            R"("codeName":"TypeMismatch"})");
}

// Cursors die with their connection, after 10 idle minutes
// (cursorTimeoutMillis), and a connection holds a bounded number.
TEST_F(CrudTest, CursorLifetime) {
  Run("test", R"({"insert": "c", "documents": [{}, {}, {}]})");
  auto other = runner_->NewConnection();
  const int64_t id =
      Run("test", R"({"find": "c", "batchSize": 1})", other.get())
          .Get("cursor")
          ->Get("id")
          ->int64_value();
  // Another connection may continue it (drivers pool connections).
  EXPECT_EQ(
      ToJson(*Run("test",
                  absl::StrCat(R"({"getMore": {"$numberLong":
                         ")",
                               id, R"("}, "collection": "c", "batchSize": 1})"))
                  .Get("ok")),
      "1.0");
  other.reset();
  EXPECT_EQ(ToJson(*Run("test", absl::StrCat(R"({"getMore": {"$numberLong":
                         ")",
                                             id, R"("}, "collection": "c"})"))
                        .Get("code")),
            "43");

  const int64_t id2 = Run("test", R"({"find": "c", "batchSize": 1})")
                          .Get("cursor")
                          ->Get("id")
                          ->int64_value();
  clock_.Advance(absl::Minutes(10) + absl::Seconds(1));
  EXPECT_EQ(ToJson(*Run("test", absl::StrCat(R"({"getMore": {"$numberLong":
                         ")",
                                             id2, R"("}, "collection": "c"})"))
                        .Get("code")),
            "43");
  Value status = Run("admin", R"({"serverStatus": 1})");
  EXPECT_EQ(ToJson(*status.Get("metrics")->Get("cursor")->Get("timedOut")),
            "1");
}

TEST_F(CrudTest, CursorsPerConnectionBounded) {
  runner_->Close().IgnoreError();
  options_.max_cursors_per_connection = 2;
  Open();
  Run("test", R"({"insert": "c", "documents": [{}, {}, {}]})");
  for (int i = 0; i < 2; ++i) {
    EXPECT_NE(Run("test", R"({"find": "c", "batchSize": 1})")
                  .Get("cursor")
                  ->Get("id")
                  ->int64_value(),
              0);
  }
  EXPECT_EQ(ToJson(*Run("test", R"({"find": "c", "batchSize": 1})").Get("ok")),
            "0.0");
  // Another connection has its own allowance.
  auto other = runner_->NewConnection();
  EXPECT_EQ(ToJson(*Run("test", R"({"find": "c", "batchSize": 1})", other.get())
                        .Get("ok")),
            "1.0");
}

// Issue 28 item 14 (review L3): a command field given twice is 40413, as
// MongoDB's IDL parsers refuse it (idl_parser.cpp throwDuplicateField);
// a document with two _id fields is 2 BadValue "can't have multiple _id
// fields in one document" (insert.cpp fixDocumentForInsert), nothing
// stored. JSON cannot carry a repeated name, so the Values are built here.
TEST_F(CrudTest, DuplicateFieldNames) {
  Value twice = Value::MakeObject(
      {{"find", Value::String("c")},
       {"filter", Value::MakeObject({{"a", Value::Int32(1)}})},
       {"filter", Value::MakeObject({{"a", Value::Int32(2)}})}});
  Value r = runner_->Run(conn_.get(), "test", twice);
  EXPECT_EQ(ToJson(*r.Get("code")), "40413") << ToJson(r);
  EXPECT_EQ(r.Get("errmsg")->string_value(),
            "BSON field 'find.filter' is a duplicate field");
  Value doc = Value::MakeObject({{"_id", Value::Int32(1)},
                                 {"_id", Value::Int32(2)},
                                 {"a", Value::Int32(1)}});
  Value insert = Value::MakeObject(
      {{"insert", Value::String("c")}, {"documents", Value::MakeArray({doc})}});
  r = runner_->Run(conn_.get(), "test", insert);
  EXPECT_EQ(ToJson(*r.Get("n")), "0") << ToJson(r);
  const Value& error = r.Get("writeErrors")->array_items()[0];
  EXPECT_EQ(ToJson(*error.Get("code")), "2");
  EXPECT_EQ(error.Get("errmsg")->string_value(),
            "can't have multiple _id fields in one document");
  EXPECT_EQ(RunJson("test", R"({"count": "c"})"), R"({"n":0,"ok":1.0})");
}

// Issue 28 item 12: a server-wide bound as well, so that many connections
// cannot hold unbounded cursors; killing or exhausting one frees a place.
// (mongod has no such bound; the code is the per-connection one's.)
TEST_F(CrudTest, CursorsBoundedServerWide) {
  runner_->Close().IgnoreError();
  options_.max_cursors = 3;
  Open();
  Run("test", R"({"insert": "c", "documents": [{}, {}, {}]})");
  auto a = runner_->NewConnection();
  auto b = runner_->NewConnection();
  std::vector<int64_t> ids;
  for (auto* conn : {a.get(), a.get(), b.get()}) {
    ids.push_back(Run("test", R"({"find": "c", "batchSize": 1})", conn)
                      .Get("cursor")
                      ->Get("id")
                      ->int64_value());
    EXPECT_NE(ids.back(), 0);
  }
  Value refused = Run("test", R"({"find": "c", "batchSize": 1})", b.get());
  EXPECT_EQ(ToJson(*refused.Get("ok")), "0.0");
  EXPECT_EQ(ToJson(*refused.Get("code")), "2");
  EXPECT_TRUE(absl::StrContains(refused.Get("errmsg")->string_value(),
                                "too many open cursors on this server"));
  // Closing a connection frees its cursors' places.
  a.reset();
  EXPECT_EQ(
      ToJson(
          *Run("test", R"({"find": "c", "batchSize": 1})", b.get()).Get("ok")),
      "1.0");
  // getMore on the surviving cursor still finds it by id.
  Value more = Run("test",
                   absl::StrCat(R"({"getMore": {"$numberLong": ")", ids[2],
                                R"("}, "collection": "c"})"),
                   b.get());
  EXPECT_EQ(ToJson(*more.Get("ok")), "1.0") << ToJson(more);
}

// Issue 28 item 13 (review L8): each database costs threads and file
// descriptors, so their number is bounded; the one too many is 264
// TooManyFilesOpen and creates nothing, existing ones keep working, and a
// drop makes room.
TEST_F(CrudTest, DatabasesBounded) {
  runner_->Close().IgnoreError();
  options_.max_databases = 2;
  Open();
  EXPECT_EQ(
      ToJson(*Run("a", R"({"insert": "c", "documents": [{}]})").Get("ok")),
      "1.0");
  EXPECT_EQ(
      ToJson(*Run("b", R"({"insert": "c", "documents": [{}]})").Get("ok")),
      "1.0");
  Value refused = Run("x", R"({"insert": "c", "documents": [{}]})");
  EXPECT_EQ(ToJson(*refused.Get("code")), "264") << ToJson(refused);
  EXPECT_EQ(refused.Get("codeName")->string_value(), "TooManyFilesOpen");
  EXPECT_TRUE(absl::StrContains(refused.Get("errmsg")->string_value(),
                                "--max-databases 2"));
  Value list = Run("admin", R"({"listDatabases": 1, "nameOnly": true})");
  EXPECT_EQ(ToJson(*list.Get("databases")), R"([{"name":"a"},{"name":"b"}])");
  EXPECT_EQ(ToJson(*Run("a", R"({"insert": "c", "documents": [{}]})").Get("n")),
            "1");
  EXPECT_EQ(ToJson(*Run("b", R"({"dropDatabase": 1})").Get("ok")), "1.0");
  EXPECT_EQ(
      ToJson(*Run("x", R"({"insert": "c", "documents": [{}]})").Get("ok")),
      "1.0");
}

// count {query, skip, limit} -> {n, ok}; distinct {key, query} ->
// {values, ok} (count_cmd.cpp, distinct.cpp).
TEST_F(CrudTest, CountAndDistinct) {
  Run("test", R"({"insert": "c", "documents": [{"a": 1}, {"a": 2},
       {"a": [2, 3]}, {"b": 1}]})");
  EXPECT_EQ(RunJson("test", R"({"count": "c"})"), R"({"n":4,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"count": "c", "query": {"a": {"$gte": 2}},
                     "skip": 1})"),
            R"({"n":1,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"count": "c", "limit": -2})"),
            R"({"n":2,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"distinct": "c", "key": "a"})"),
            R"({"values":[1,2,3],"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"distinct": "c", "key": "a",
                     "query": {"a": 1}})"),
            R"({"values":[1],"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"distinct": "c"})"),
            R"({"ok":0.0,"errmsg":"BSON field 'distinct.key' is missing but )"
            R"(a required field","code":40414,"codeName":"Location40414"})");
}

// count without a query is the record count (count_cmd.cpp answers it
// from the collection's numRecords; drivers' estimatedDocumentCount sends
// it), so an expired document the monitor has not deleted yet counts,
// while a query counts what reads return (hide_expired).
TEST_F(CrudTest, CountWithoutQueryIsRecordCount) {
  Run("test", R"({"createIndexes": "s", "indexes": [{"key": {"t": 1},
       "name": "t_1", "expireAfterSeconds": 60}]})");
  Run("test", R"({"insert": "s", "documents": [{"_id": 1, "t": {"$date":
       {"$numberLong": "1000"}}}, {"_id": 2}]})");
  EXPECT_EQ(RunJson("test", R"({"count": "s"})"), R"({"n":2,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"count": "s", "query": {"_id": {"$gte":
                     1}}})"),
            R"({"n":1,"ok":1.0})");
}

// findAndModify (find_and_modify.cpp): {lastErrorObject: {n,
// updatedExisting, upserted}, value, ok}; remove returns the deleted
// document; the option conflicts are FailedToParse
// (jstests/core/write/find_and_modify/find_and_modify.js).
TEST_F(CrudTest, FindAndModify) {
  Run("test", R"({"insert": "q", "documents": [{"_id": 1, "s": "new",
       "p": 1}, {"_id": 2, "s": "new", "p": 5}]})");
  EXPECT_EQ(RunJson("test", R"({"findAndModify": "q", "query": {"s": "new"},
                     "sort": {"p": -1}, "update": {"$set": {"s": "taken"}},
                     "new": true})"),
            R"({"lastErrorObject":{"n":1,"updatedExisting":true},)"
            R"("value":{"_id":2,"s":"taken","p":5},"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"findAndModify": "q", "query": {"_id": 9},
                     "update": {"$set": {"s": "x"}}, "upsert": true})"),
            R"({"lastErrorObject":{"n":1,"updatedExisting":false,)"
            R"("upserted":9},"value":null,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"findAndModify": "q", "query": {"_id": 7},
                     "update": {"$set": {"s": "x"}}})"),
            R"({"lastErrorObject":{"n":0,"updatedExisting":false},)"
            R"("value":null,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"findAndModify": "q", "query": {"_id": 1},
                     "remove": true})"),
            R"({"lastErrorObject":{"n":1},"value":{"_id":1,"s":"new",)"
            R"("p":1},"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"findAndModify": "q", "query": {}})"),
            R"({"ok":0.0,"errmsg":"Either an update or remove=true must be )"
            R"(specified","code":9,"codeName":"FailedToParse"})");
  EXPECT_EQ(RunJson("test", R"({"findAndModify": "q", "remove": true,
                     "new": true})"),
            R"({"ok":0.0,"errmsg":"Cannot specify both new=true and )"
            R"(remove=true; 'remove' always returns the deleted document",)"
            R"("code":9,"codeName":"FailedToParse"})");
}

// aggregate (run_aggregate.cpp): a cursor reply like find's, batches by
// cursor.batchSize and getMore; cursor is required without explain
// (aggregate.idl: "The 'cursor' option is required, except for aggregate
// with the explain argument"); $out creates its database.
TEST_F(CrudTest, Aggregate) {
  Run("test", R"({"insert": "s", "documents": [{"item": "a", "q": 1},
       {"item": "b", "q": 2}, {"item": "a", "q": 3}]})");
  EXPECT_EQ(RunJson("test", R"({"aggregate": "s", "pipeline": [{"$group":
                     {"_id": "$item", "n": {"$sum": "$q"}}}, {"$sort":
                     {"_id": 1}}], "cursor": {}})"),
            R"({"cursor":{"firstBatch":[{"_id":"a","n":4},{"_id":"b","n":2}],)"
            R"("id":{"$numberLong":"0"},"ns":"test.s"},"ok":1.0})");
  Value first = Run("test", R"({"aggregate": "s", "pipeline": [{"$sort":
                     {"q": 1}}, {"$project": {"_id": 0}}], "cursor":
                     {"batchSize": 2}})");
  const int64_t id = first.Get("cursor")->Get("id")->int64_value();
  ASSERT_NE(id, 0);
  EXPECT_EQ(RunJson("test", absl::StrCat(R"({"getMore": {"$numberLong": ")", id,
                                         R"("}, "collection": "s"})")),
            R"({"cursor":{"nextBatch":[{"item":"a","q":3}],)"
            R"("id":{"$numberLong":"0"},"ns":"test.s"},"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"aggregate": "s", "pipeline": []})"),
            R"({"ok":0.0,"errmsg":"The 'cursor' option is required, except )"
            R"(for aggregate with the explain argument","code":9,)"
            R"("codeName":"FailedToParse"})");
  EXPECT_EQ(ToJson(*Run("test", R"({"aggregate": "s", "pipeline": [{"$bogus":
                         1}], "cursor": {}})")
                        .Get("code")),
            "40324");
  EXPECT_EQ(RunJson("test", R"({"aggregate": "s", "pipeline": [{"$match":
                     {"item": "a"}}, {"$out": "t"}], "cursor": {}})"),
            R"({"cursor":{"firstBatch":[],"id":{"$numberLong":"0"},)"
            R"("ns":"test.s"},"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"count": "t"})"), R"({"n":2,"ok":1.0})");
  Value explain = Run("test", R"({"aggregate": "s", "pipeline": [{"$match":
                       {"item": "a"}}], "explain": true})");
  EXPECT_EQ(ToJson(*explain.Get("ok")), "1.0");
  EXPECT_NE(explain.Get("stages"), nullptr) << ToJson(explain);
}

// $out and $merge into {db, coll} write that database's collection, and
// create the database (MongoDB 8.0 document_source_out.cpp /
// document_source_merge.cpp; the manual's $out "Output to a different
// database"). reliability-3.md N3: they replaced app.users instead.
TEST_F(CrudTest, OutAndMergeWriteTheNamedDatabase) {
  ASSERT_EQ(RunJson("app", R"({"insert": "users", "documents": [{"_id": 0},
                     {"_id": 1}, {"_id": 2}, {"_id": 3}, {"_id": 4}]})"),
            R"({"n":5,"ok":1.0})");
  ASSERT_EQ(RunJson("app", R"({"insert": "events", "documents": [
                     {"_id": 10, "e": "a"}, {"_id": 11, "e": "b"},
                     {"_id": 12, "e": "c"}]})"),
            R"({"n":3,"ok":1.0})");
  EXPECT_EQ(RunJson("app", R"({"aggregate": "events", "pipeline": [{"$out":
                     {"db": "archive", "coll": "users"}}], "cursor": {}})"),
            R"({"cursor":{"firstBatch":[],"id":{"$numberLong":"0"},)"
            R"("ns":"app.events"},"ok":1.0})");
  EXPECT_EQ(RunJson("app", R"({"count": "users"})"), R"({"n":5,"ok":1.0})");
  EXPECT_EQ(RunJson("archive", R"({"find": "users", "sort": {"_id": 1}})"),
            R"({"cursor":{"firstBatch":[{"_id":10,"e":"a"},{"_id":11,"e":"b"},)"
            R"({"_id":12,"e":"c"}],"id":{"$numberLong":"0"},)"
            R"("ns":"archive.users"},"ok":1.0})");
  // Again: the target is replaced, in archive only.
  EXPECT_EQ(ToJson(*Run("app", R"({"aggregate": "events", "pipeline": [
                         {"$match": {"e": "a"}}, {"$out": {"db": "archive",
                         "coll": "users"}}], "cursor": {}})")
                        .Get("ok")),
            "1.0");
  EXPECT_EQ(RunJson("archive", R"({"count": "users"})"), R"({"n":1,"ok":1.0})");
  EXPECT_EQ(RunJson("app", R"({"count": "users"})"), R"({"n":5,"ok":1.0})");

  // $merge into {db, coll}.
  EXPECT_EQ(ToJson(*Run("app", R"({"aggregate": "events", "pipeline": [
                         {"$merge": {"into": {"db": "archive", "coll": "ev"}}}],
                         "cursor": {}})")
                        .Get("ok")),
            "1.0");
  EXPECT_EQ(RunJson("archive", R"({"count": "ev"})"), R"({"n":3,"ok":1.0})");
  EXPECT_EQ(RunJson("app", R"({"listCollections": 1, "nameOnly": true,
                     "filter": {"name": "ev"}})"),
            R"({"cursor":{"id":{"$numberLong":"0"},"ns":"app.$cmd.)"
            R"(listCollections","firstBatch":[]},"ok":1.0})");
  // {db} naming the pipeline's own database is that database.
  EXPECT_EQ(ToJson(*Run("app", R"({"aggregate": "events", "pipeline": [
                         {"$out": {"db": "app", "coll": "copy"}}],
                         "cursor": {}})")
                        .Get("ok")),
            "1.0");
  EXPECT_EQ(RunJson("app", R"({"count": "copy"})"), R"({"n":3,"ok":1.0})");
}

// explain of a find: the plan with command and serverInfo.
TEST_F(CrudTest, ExplainFind) {
  Run("test", R"({"insert": "c", "documents": [{"a": 1}]})");
  Run("test", R"({"createIndexes": "c", "indexes": [{"key": {"a": 1},
       "name": "a_1"}]})");
  Value r = Run("test", R"({"explain": {"find": "c", "filter": {"a": 1}},
                 "verbosity": "executionStats"})");
  EXPECT_EQ(ToJson(*r.Get("ok")), "1.0");
  EXPECT_NE(ToJson(r).find("IXSCAN"), std::string::npos) << ToJson(r);
  EXPECT_EQ(ToJson(*r.Get("command")), R"({"find":"c","filter":{"a":1}})");
}

// explain of an aggregate through the explain command (mongosh's
// db.c.explain().aggregate(); jstests/aggregation/sources/unionWith/
// unionWith_explain.js runs it): the same plan as aggregate with explain.
TEST_F(CrudTest, ExplainAggregate) {
  Run("test", R"({"insert": "c", "documents": [{"a": 1}, {"a": 2}]})");
  Run("test", R"({"createIndexes": "c", "indexes": [{"key": {"a": 1},
       "name": "a_1"}]})");
  Value r = Run("test", R"({"explain": {"aggregate": "c", "pipeline": [
                 {"$match": {"a": 1}}, {"$unionWith": "d"}], "cursor": {}},
                 "verbosity": "queryPlanner"})");
  EXPECT_EQ(ToJson(*r.Get("ok")), "1.0") << ToJson(r);
  EXPECT_NE(r.Get("stages"), nullptr) << ToJson(r);
  EXPECT_NE(ToJson(r).find("IXSCAN"), std::string::npos) << ToJson(r);
  EXPECT_NE(ToJson(r).find(R"({"$unionWith":"d"})"), std::string::npos)
      << ToJson(r);
  // Nothing ran: an explained $out writes nothing.
  Run("test", R"({"explain": {"aggregate": "c", "pipeline": [{"$out": "o"}],
       "cursor": {}}})");
  EXPECT_EQ(RunJson("test", R"({"count": "o"})"), R"({"n":0,"ok":1.0})");
}

// Many connections at once (Run is thread-safe with one Connection per
// thread): every acknowledged insert is found, cursors of different
// connections do not mix, and dropping one connection kills only its
// cursors.
TEST_F(CrudTest, ConcurrentConnections) {
  constexpr int kThreads = 8;
  constexpr int kDocs = 50;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      auto conn = runner_->NewConnection();
      for (int i = 0; i < kDocs; ++i) {
        Value r = Run("test",
                      absl::StrCat(R"({"insert": "c", "documents": [{"t": )", t,
                                   R"(, "i": )", i, "}]}"),
                      conn.get());
        if (ToJson(r) != R"({"n":1,"ok":1.0})") ++failures;
      }
      // Read this thread's documents back in batches of 7.
      Value r = Run("test",
                    absl::StrCat(R"({"find": "c", "filter": {"t": )", t,
                                 R"(}, "batchSize": 7})"),
                    conn.get());
      int64_t seen = r.Get("cursor")->Get("firstBatch")->array_items().size();
      int64_t id = r.Get("cursor")->Get("id")->int64_value();
      while (id != 0) {
        Value more = Run("test",
                         absl::StrCat(R"({"getMore": {"$numberLong": ")", id,
                                      R"("}, "collection": "c",
                                      "batchSize": 7})"),
                         conn.get());
        if (more.Get("cursor") == nullptr) {
          ++failures;
          break;
        }
        seen += more.Get("cursor")->Get("nextBatch")->array_items().size();
        id = more.Get("cursor")->Get("id")->int64_value();
      }
      if (seen != kDocs) ++failures;
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(RunJson("test", R"({"count": "c"})"),
            absl::StrCat(R"({"n":)", kThreads * kDocs, R"(,"ok":1.0})"));
  EXPECT_EQ(ToJson(*Run("test", R"({"validate": "c"})").Get("valid")), "true");
}

// bulkWrite (MongoDB 8.0, src/mongo/db/commands/query_cmd/bulk_write.cpp):
// ops across namespaces, a cursor of per-op results on
// admin.$cmd.bulkWrite (BulkWriteReplyItem::serialize) and the totals.
TEST_F(CrudTest, BulkWriteAcrossNamespaces) {
  EXPECT_EQ(
      RunJson("admin", R"({"bulkWrite": 1, "ops": [
        {"insert": 0, "document": {"_id": 1}},
        {"insert": 1, "document": {"_id": 1}},
        {"update": 0, "filter": {"_id": 1}, "updateMods": {"$set": {"a": 1}}},
        {"update": 1, "filter": {"_id": 2}, "updateMods": {"$set": {"b": 1}},
         "upsert": true},
        {"insert": 0, "document": {"_id": 1}},
        {"delete": 1, "filter": {}, "multi": true}],
        "nsInfo": [{"ns": "a.c"}, {"ns": "b.d"}]})"),
      R"({"cursor":{"firstBatch":[)"
      R"({"ok":1.0,"idx":0,"n":1},{"ok":1.0,"idx":1,"n":1},)"
      R"({"ok":1.0,"idx":2,"n":1,"nModified":1},)"
      R"({"ok":1.0,"idx":3,"n":1,"nModified":0,"upserted":{"_id":2}},)"
      R"({"ok":0.0,"idx":4,"code":11000,"errmsg":"E11000 duplicate key error )"
      R"(collection: a.c index: _id_ dup key: { _id: 1 }",)"
      R"("keyPattern":{"_id":1},"keyValue":{"_id":1},"n":0}],)"
      R"("id":{"$numberLong":"0"},"ns":"admin.$cmd.bulkWrite"},)"
      R"("nErrors":1,"nInserted":2,"nMatched":1,"nModified":1,"nUpserted":1,)"
      R"("nDeleted":0,"ok":1.0})");
  // Ordered: the delete after the error did not run.
  EXPECT_EQ(RunJson("b", R"({"count": "d"})"), R"({"n":2,"ok":1.0})");
  // Unordered with errorsOnly: every op runs, only errors are listed.
  EXPECT_EQ(
      RunJson("admin", R"({"bulkWrite": 1, "ops": [
        {"insert": 0, "document": {"_id": 1}},
        {"update": 0, "filter": {"_id": 1}, "updateMods": {"$set": {"_id": 5}}},
        {"delete": 0, "filter": {"_id": 1}}],
        "nsInfo": [{"ns": "a.c"}], "ordered": false, "errorsOnly": true})"),
      R"({"cursor":{"firstBatch":[)"
      R"({"ok":0.0,"idx":0,"code":11000,"errmsg":"E11000 duplicate key error )"
      R"(collection: a.c index: _id_ dup key: { _id: 1 }",)"
      R"("keyPattern":{"_id":1},"keyValue":{"_id":1},"n":0},)"
      R"({"ok":0.0,"idx":1,"code":66,"errmsg":"Performing an update on the )"
      R"(path '_id' would modify the immutable field '_id'","n":0,)"
      R"("nModified":0}],)"
      R"("id":{"$numberLong":"0"},"ns":"admin.$cmd.bulkWrite"},)"
      R"("nErrors":2,"nInserted":0,"nMatched":0,"nModified":0,"nUpserted":0,)"
      R"("nDeleted":1,"ok":1.0})");
}

TEST_F(CrudTest, BulkWriteRequestErrors) {
  // Against admin only; validated whole before anything is written.
  EXPECT_EQ(ToJson(*Run("a", R"({"bulkWrite": 1, "ops": [{"insert": 0,
                    "document": {}}], "nsInfo": [{"ns": "a.c"}]})")
                        .Get("code")),
            "13");
  Value r = Run("admin", R"({"bulkWrite": 1, "ops": [
      {"insert": 0, "document": {"_id": 1}}, {"insert": 1, "document": {}}],
      "nsInfo": [{"ns": "v.c"}]})");
  EXPECT_EQ(ToJson(*r.Get("code")), "2");
  EXPECT_EQ(r.Get("errmsg")->string_value(),
            "BulkWrite ops entry { insert: 1, document: {} } has an invalid "
            "nsInfo index.");
  r = Run("admin", R"({"bulkWrite": 1, "ops": [], "nsInfo": []})");
  EXPECT_EQ(ToJson(*r.Get("code")), "16");
  r = Run("admin", R"({"bulkWrite": 1, "ops": [{"insert": 0, "document": {}}],
                      "nsInfo": [{"ns": "nodot"}]})");
  EXPECT_EQ(ToJson(*r.Get("code")), "73");
  r = Run("admin", R"({"bulkWrite": 1, "ops": [{"insert": 0, "document": {},
                      "x": 1}], "nsInfo": [{"ns": "v.c"}]})");
  EXPECT_EQ(ToJson(*r.Get("code")), "40415");
  EXPECT_EQ(RunJson("v", R"({"count": "c"})"), R"({"n":0,"ok":1.0})");
}

// The query gaps of issue 34 item 5, one command each; the expected codes
// are MongoDB's (the files named below, under src/mongo/db/).
std::string CodeOf(const Value& reply) {
  const Value* code = reply.Get("code");
  return code == nullptr ? ToJson(reply) : ToJson(*code);
}

// A bad filter is an error even where the database does not exist
// (jstests/core/query/regex/regex_error.js, coercetobool_invalid.js): the
// query is parsed first (query/canonical_query.cpp).
TEST_F(CrudTest, FilterParsedWithoutCollection) {
  EXPECT_EQ(CodeOf(Run("nodb", R"js({"find": "c", "filter":
                        {"a": {"$regex": "[)"}}})js")),
            "51091");
  EXPECT_EQ(CodeOf(Run("nodb", R"({"find": "c", "filter":
                        {"$expr": {"$coerceToBool": 1}}})")),
            "168");
  EXPECT_EQ(CodeOf(Run("nodb", R"({"count": "c", "query":
                        {"a": {"$bad": 1}}})")),
            "2");
  EXPECT_EQ(CodeOf(Run("nodb", R"({"distinct": "c", "key": "a", "query":
                        {"a": {"$bad": 1}}})")),
            "2");
  EXPECT_EQ(RunJson("nodb", R"({"find": "c", "filter": {"a": 1}})"),
            R"({"cursor":{"firstBatch":[],"id":{"$numberLong":"0"},)"
            R"("ns":"nodb.c"},"ok":1.0})");
}

// jstests/core/query/sort/natural.js; query/canonical_query.cpp isValid.
TEST_F(CrudTest, NaturalSortRules) {
  Run("test", R"({"createIndexes": "c", "indexes": [{"key": {"a": 1},
                  "name": "a_1"}]})");
  Run("test", R"({"insert": "c", "documents": [{"_id": 1, "a": 2}]})");
  EXPECT_EQ(CodeOf(Run("test", R"({"find": "c", "sort": {"a": 1,
                        "$natural": 1}})")),
            "2");
  EXPECT_EQ(CodeOf(Run("test", R"({"find": "c", "hint": {"$natural": 1,
                        "b": 1}})")),
            "2");
  EXPECT_EQ(RunJson("test", R"({"find": "c", "sort": {"$natural": 1},
               "hint": {"a": 1}})"),
            R"({"ok":0.0,"errmsg":"index hint not allowed with $natural sort )"
            R"(order","code":2,"codeName":"BadValue"})");
  EXPECT_EQ(CodeOf(Run("test", R"({"find": "c", "sort": {"$natural": 1},
                        "hint": "a_1"})")),
            "2");
  EXPECT_EQ(CodeOf(Run("test", R"({"find": "c", "sort": {"$natural": 1},
                        "hint": {"$natural": -1}})")),
            "2");
  EXPECT_EQ(ToJson(*Run("test", R"({"find": "c", "sort": {"a": 1},
                         "hint": {"$natural": 1}})")
                        .Get("ok")),
            "1.0");
}

// jstests/core/query/distinct/distinct_syntax.js;
// query/parsed_distinct_command.cpp (31032).
TEST_F(CrudTest, DistinctKeyWithNul) {
  Run("test", R"({"insert": "c", "documents": [{"a": 1}]})");
  EXPECT_EQ(RunJson("test", R"({"distinct": "c", "key": "a\u0000b"})"),
            R"({"ok":0.0,"errmsg":"Key field cannot contain an embedded )"
            R"(null byte","code":31032,"codeName":"Location31032"})");
}

// jstests/core/query/sort/sortl.js: {$meta: "sortKey"} needs a sort
// (query/canonical_query.cpp) and is refused by findAndModify
// (query/get_executor.cpp); jstests/core/write/find_and_modify/
// find_and_modify_invalid_query_params.js: hint must be a string or an
// object.
TEST_F(CrudTest, MetaSortKeyAndFindAndModifyFields) {
  Run("test", R"({"insert": "c", "documents": [{"_id": 1, "a": 2}]})");
  EXPECT_EQ(RunJson("test", R"({"find": "c", "filter": {"_id": 1},
                     "projection": {"b": {"$meta": "sortKey"}},
                     "sort": {"a": 1}})"),
            R"({"cursor":{"firstBatch":[{"_id":1,"a":2,"b":[2]}],)"
            R"("id":{"$numberLong":"0"},"ns":"test.c"},"ok":1.0})");
  EXPECT_EQ(CodeOf(Run("test", R"({"find": "c", "projection":
                        {"b": {"$meta": "sortKey"}}})")),
            "2");
  EXPECT_EQ(CodeOf(Run("test", R"({"findAndModify": "c", "query": {"_id": 1},
                        "update": {"$set": {"b": 1}}, "sort": {"a": 1},
                        "fields": {"c": {"$meta": "sortKey"}}})")),
            "2");
  EXPECT_EQ(CodeOf(Run("test", R"({"findAndModify": "c", "query": {"_id": 1},
                        "update": {"$set": {"b": 1}}, "hint": 1})")),
            "14");
  // Projection expressions in fields.
  EXPECT_EQ(ToJson(*Run("test", R"({"findAndModify": "c", "query": {"_id": 1},
                         "update": {"$inc": {"a": 1}}, "new": true,
                         "fields": {"_id": 0, "twice": {"$multiply":
                         ["$a", 2]}}})")
                        .Get("value")),
            R"({"twice":6})");
}

// find's allowDiskUse (find_command.idl: an optionalBool) and the server's
// allowDiskUseByDefault (query_knobs.idl, true in MongoDB 8.0): past the
// blocking sort's cap a find spills and the cursor pages through the whole
// order, unless it says allowDiskUse: false or the parameter is false: then
// 292 with MongoDB's message. Not a bool: 14 TypeMismatch.
class SmallSortCapTest : public CommandTest {
 protected:
  SmallSortCapTest() {
    options_.database_options.max_blocking_sort_bytes = 20000;
  }
};

TEST_F(SmallSortCapTest, FindAllowDiskUseSpillsPastTheSortCap) {
  std::string docs;
  for (int i = 0; i < 500; ++i) {
    absl::StrAppend(&docs, i == 0 ? "" : ",", R"({"_id": )", i, R"(, "u": )",
                    (i * 7) % 500, R"(, "pad": "0123456789"})");
  }
  Run("test", absl::StrCat(R"({"insert": "c", "documents": [)", docs, "]}"));
  const std::string want_292 =
      "Executor error during find command :: caused by :: Sort exceeded "
      "memory limit of 20000 bytes, but did not opt in to external sorting.";
  Value refused = Run("test", R"({"find": "c", "sort": {"u": -1},
                                  "allowDiskUse": false})");
  EXPECT_EQ(ToJson(*refused.Get("code")), "292");
  EXPECT_EQ(refused.Get("errmsg")->string_value(), want_292);
  for (const char* flag : {R"(, "allowDiskUse": true)", ""}) {
    Value r = Run("test", absl::StrCat(R"({"find": "c", "sort": {"u": -1},
        "batchSize": 500, "projection": {"_id": 0, "u": 1})",
                                       flag, "}"));
    ASSERT_NE(r.Get("cursor"), nullptr) << ToJson(r);
    const Value::Array& batch =
        r.Get("cursor")->Get("firstBatch")->array_items();
    ASSERT_EQ(batch.size(), 500u);
    for (int i = 0; i < 500; ++i) {
      EXPECT_EQ(ToJson(batch[i]), absl::StrCat(R"({"u":)", 499 - i, "}"));
    }
  }
  EXPECT_EQ(RunJson("admin", R"({"getParameter": 1,
                                 "allowDiskUseByDefault": 1})"),
            R"({"allowDiskUseByDefault":true,"ok":1.0})");
  EXPECT_EQ(RunJson("admin", R"({"setParameter": 1,
                                 "allowDiskUseByDefault": false})"),
            R"({"was":true,"ok":1.0})");
  Value by_default = Run("test", R"({"find": "c", "sort": {"u": -1}})");
  EXPECT_EQ(ToJson(*by_default.Get("code")), "292");
  EXPECT_EQ(by_default.Get("errmsg")->string_value(), want_292);
  // The aggregate's $sort follows the same parameter.
  Value agg = Run("test", R"({"aggregate": "c", "pipeline": [
                               {"$sort": {"u": 1}}], "cursor": {}})");
  EXPECT_EQ(ToJson(*agg.Get("code")), "292") << ToJson(agg);
  Value spilled = Run("test", R"({"aggregate": "c", "pipeline": [
                                   {"$sort": {"u": 1}}], "cursor": {},
                                   "allowDiskUse": true})");
  EXPECT_NE(spilled.Get("cursor"), nullptr) << ToJson(spilled);
  Value bad = Run("test", R"({"find": "c", "allowDiskUse": 1})");
  EXPECT_EQ(ToJson(*bad.Get("code")), "14") << ToJson(bad);
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
