// Views and hashed indexes through the commands: create with viewOn and
// pipeline, listCollections, find / aggregate / count / distinct (with
// getMore) on a view, writes refused, drop, collMod; createIndexes with a
// hashed key and explain. Expected answers from MongoDB's
// jstests/core/views/*.js and jstests/core/index/hashed/*.js, as cited.
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_test_util.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

int Code(const Value& reply) {
  const Value* code = reply.Get("code");
  return code == nullptr ? 0 : static_cast<int>(code->AsDouble());
}

class ViewsCommandTest : public CommandTest {
 protected:
  void Seed() {
    Run("test", R"({"insert": "coll", "documents": [
      {"_id": 1, "state": "NY", "pop": 7},
      {"_id": 2, "state": "NJ", "pop": 3},
      {"_id": 3, "state": "CA", "pop": 10},
      {"_id": 4, "state": "CA", "pop": 4},
      {"_id": 5, "state": "NJ", "pop": 5}]})");
  }
};

// views_creation.js: the listCollections entry of a view is {name, type:
// "view", options: {viewOn, pipeline}, info: {readOnly: true}}; filter
// {type: "view"} selects it; the same create again is OK, another
// definition 48.
TEST_F(ViewsCommandTest, CreateAndList) {
  Seed();
  EXPECT_EQ(RunJson("test", R"({"create": "view", "viewOn": "coll",
                                "pipeline": [{"$match": {}}]})"),
            R"({"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"create": "view", "viewOn": "coll",
                                "pipeline": [{"$match": {}}]})"),
            R"({"ok":1.0})");
  EXPECT_EQ(Code(Run("test", R"({"create": "view", "viewOn": "other"})")),
            kNamespaceExists);
  EXPECT_EQ(Code(Run("test", R"({"create": "coll", "viewOn": "view"})")),
            kNamespaceExists);
  EXPECT_EQ(RunJson("test", R"({"listCollections": 1,
                                "filter": {"type": "view"}})"),
            R"({"cursor":{"id":{"$numberLong":"0"},)"
            R"("ns":"test.$cmd.listCollections","firstBatch":[)"
            R"({"name":"view","type":"view","options":{"viewOn":"coll",)"
            R"("pipeline":[{"$match":{}}]},"info":{"readOnly":true}}]},)"
            R"("ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"listCollections": 1, "nameOnly": true})"),
            R"({"cursor":{"id":{"$numberLong":"0"},)"
            R"("ns":"test.$cmd.listCollections","firstBatch":[)"
            R"({"name":"coll","type":"collection"},)"
            R"({"name":"view","type":"view"}]},"ok":1.0})");
  // create_command.cpp: "'pipeline' requires 'viewOn' to also be
  // specified" (72); views_creation.js: system names are 73; a $out is 167
  // with collection_catalog.cpp's wrapping.
  EXPECT_EQ(Code(Run("test", R"({"create": "v2", "pipeline": []})")),
            kInvalidOptions);
  EXPECT_EQ(Code(Run("test", R"({"create": "system.views",
                                 "viewOn": "coll"})")),
            kInvalidNamespace);
  Value out = Run("test", R"({"create": "v2", "viewOn": "coll",
                              "pipeline": [{"$out": "x"}]})");
  EXPECT_EQ(Code(out), kOptionNotSupportedOnView);
  EXPECT_EQ(out.Get("errmsg")->string_value(),
            "Invalid pipeline for view test.v2 :: caused by :: The "
            "aggregation stage $out in location 0 of the pipeline cannot be "
            "used in the view definition of v2 because it writes to disk");
  EXPECT_EQ(Code(Run("test", R"({"create": "v2", "viewOn": 1})")),
            kTypeMismatch);
}

// views_find.js, views_count.js, views_distinct.js, views_aggregation.js:
// the commands read through the view; a find's batches continue with
// getMore.
TEST_F(ViewsCommandTest, Reads) {
  Seed();
  Run("test", R"({"create": "big", "viewOn": "coll",
                  "pipeline": [{"$match": {"pop": {"$gte": 4}}}]})");
  EXPECT_EQ(RunJson("test", R"({"find": "big", "filter": {"state": "CA"},
                                "sort": {"_id": -1},
                                "projection": {"_id": 1}})"),
            R"({"cursor":{"firstBatch":[{"_id":4},{"_id":3}],)"
            R"("id":{"$numberLong":"0"},"ns":"test.big"},"ok":1.0})");
  Value first = Run("test", R"({"find": "big", "sort": {"_id": 1},
                                "batchSize": 2})");
  const Value* id = first.Get("cursor")->Get("id");
  ASSERT_NE(id, nullptr);
  EXPECT_EQ(first.Get("cursor")->Get("firstBatch")->array_items().size(), 2u);
  Value more = Run("test", absl::StrCat(R"({"getMore": )", ToJson(*id),
                                        R"(, "collection": "big"})"));
  EXPECT_EQ(
      ToJson(*more.Get("cursor")->Get("nextBatch")),
      R"([{"_id":4,"state":"CA","pop":4},{"_id":5,"state":"NJ","pop":5}])");
  EXPECT_EQ(RunJson("test", R"({"count": "big"})"), R"({"n":4,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"count": "big", "query": {"state": "CA"}})"),
            R"({"n":2,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"distinct": "big", "key": "state"})"),
            R"({"values":["CA","NJ","NY"],"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"aggregate": "big", "pipeline": [
                                {"$group": {"_id": "$state",
                                            "n": {"$sum": 1}}},
                                {"$sort": {"_id": 1}}], "cursor": {}})"),
            R"({"cursor":{"firstBatch":[{"_id":"CA","n":2},)"
            R"({"_id":"NJ","n":1},{"_id":"NY","n":1}],)"
            R"("id":{"$numberLong":"0"},"ns":"test.big"},"ok":1.0})");
}

// views_all_commands.js: the writes and index commands on a view fail
// with 166 CommandNotSupportedOnView; drop drops it (views_drop.js);
// collMod changes it (views_change.js).
TEST_F(ViewsCommandTest, WritesDropAndCollMod) {
  Seed();
  Run("test", R"({"create": "v", "viewOn": "coll"})");
  Value insert = Run("test", R"({"insert": "v", "documents": [{"_id": 9}]})");
  const Value* errors = insert.Get("writeErrors");
  ASSERT_NE(errors, nullptr) << ToJson(insert);
  EXPECT_EQ(Code(errors->array_items()[0]), kCommandNotSupportedOnView);
  Value update = Run("test", R"({"update": "v", "updates": [
                                  {"q": {}, "u": {"$set": {"a": 1}}}]})");
  ASSERT_NE(update.Get("writeErrors"), nullptr) << ToJson(update);
  EXPECT_EQ(Code(update.Get("writeErrors")->array_items()[0]),
            kCommandNotSupportedOnView);
  EXPECT_EQ(Code(Run("test", R"({"findAndModify": "v", "query": {},
                                 "remove": true})")),
            kCommandNotSupportedOnView);
  EXPECT_EQ(Code(Run("test", R"({"createIndexes": "v", "indexes": [
                                 {"key": {"a": 1}, "name": "a_1"}]})")),
            kCommandNotSupportedOnView);
  EXPECT_EQ(RunJson("test", R"({"count": "coll"})"), R"({"n":5,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"collMod": "v", "viewOn": "coll",
                                "pipeline": [{"$match": {"state": "NJ"}}]})"),
            R"({"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"count": "v"})"), R"({"n":2,"ok":1.0})");
  // views_validation.js: a cycle through collMod is 5; options of a
  // collection on a view are 72.
  Run("test", R"({"create": "w", "viewOn": "v"})");
  EXPECT_EQ(Code(Run("test", R"({"collMod": "v", "viewOn": "w",
                                 "pipeline": []})")),
            kGraphContainsCycle);
  EXPECT_EQ(Code(Run("test", R"({"collMod": "v",
                                 "expireAfterSeconds": 1})")),
            kInvalidOptions);
  EXPECT_EQ(RunJson("test", R"({"drop": "w"})"), R"({"ns":"test.w","ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"listCollections": 1, "nameOnly": true,
                                "filter": {"type": "view"}})"),
            R"({"cursor":{"id":{"$numberLong":"0"},)"
            R"("ns":"test.$cmd.listCollections","firstBatch":[)"
            R"({"name":"v","type":"view"}]},"ok":1.0})");
  // rename_collection.cpp: a view is not renamed (166), nothing is renamed
  // onto one (48).
  EXPECT_EQ(Code(Run("admin", R"({"renameCollection": "test.v",
                                  "to": "test.w"})")),
            kCommandNotSupportedOnView);
  EXPECT_EQ(Code(Run("admin", R"({"renameCollection": "test.coll",
                                  "to": "test.v"})")),
            kNamespaceExists);
  // dropDatabase drops the views with the collections.
  EXPECT_EQ(RunJson("test", R"({"dropDatabase": 1})"),
            R"({"dropped":"test","ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"listCollections": 1, "nameOnly": true})"),
            R"({"cursor":{"id":{"$numberLong":"0"},)"
            R"("ns":"test.$cmd.listCollections","firstBatch":[]},"ok":1.0})");
}

// hashed_index_queries.js: createIndexes with {a: "hashed"}; explain of an
// equality shows an IXSCAN whose bounds are the hash (hasher_test.cpp: the
// value 1 hashes to 5902408780260971510).
TEST_F(ViewsCommandTest, HashedIndex) {
  Seed();
  EXPECT_EQ(Code(Run("test", R"({"createIndexes": "coll", "indexes": [
                                 {"key": {"pop": "hashed"},
                                  "name": "pop_hashed"}]})")),
            0);
  Value plan = Run("test", R"({"explain": {"find": "coll",
                                           "filter": {"pop": 1}}})");
  const Value* winning = plan.Get("queryPlanner")->Get("winningPlan");
  ASSERT_NE(winning, nullptr) << ToJson(plan);
  EXPECT_EQ(ToJson(*winning->Get("indexBounds")),
            R"({"pop":["[5902408780260971510, 5902408780260971510]"]})");
  EXPECT_EQ(RunJson("test", R"({"count": "coll", "query": {"pop": 10}})"),
            R"({"n":1,"ok":1.0})");
  Value arr = Run("test", R"({"insert": "coll", "documents": [
                                {"_id": 6, "pop": [1, 2]}]})");
  ASSERT_NE(arr.Get("writeErrors"), nullptr) << ToJson(arr);
  EXPECT_EQ(Code(arr.Get("writeErrors")->array_items()[0]), 16766);
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
