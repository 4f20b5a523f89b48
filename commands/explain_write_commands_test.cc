// explain of update / delete / findAndModify, and find's min, max,
// returnKey and showRecordId, through the command layer with MongoDB's
// reply shapes. Expected answers from
// jstests/core/write/update/update_pipeline_shell_helpers.js (explain of
// pipeline updates), jstests/core/query/minmax.js, return_key.js,
// show_record_id.js and src/mongo/db/commands/write_commands.cpp.
#include <string>

#include "commands/command_test_util.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

using ExplainWriteCommandsTest = CommandTest;

std::string J(const Value* v) {
  return v == nullptr ? "<missing>" : ToJson(*v);
}

// update_pipeline_shell_helpers.js: explain("queryPlanner").update({_id:
// 2}, [...]) has IDHACK and UPDATE in its winning plan; executionStats has
// totalDocsExamined 1 and the UPDATE stage's nWouldModify 1; nothing is
// written. The reply carries the command and serverInfo, as find's.
TEST_F(ExplainWriteCommandsTest, ExplainUpdate) {
  Run("test", R"({"insert": "c", "documents": [{"_id": 1, "a": 1, "b": 2},
                                               {"_id": 2, "a": 2, "b": 3}]})");
  Value r = Run("test", R"({"explain": {"update": "c", "updates": [
      {"q": {"_id": 2}, "u": [{"$set": {"y": 999}}]}]},
      "verbosity": "queryPlanner"})");
  EXPECT_EQ(J(r.Get("queryPlanner")->Get("winningPlan")),
            R"({"stage":"UPDATE","inputStage":{"stage":"IDHACK"}})");
  EXPECT_EQ(J(r.Get("executionStats")->Get("totalDocsExamined")), "1");
  EXPECT_EQ(
      J(r.Get("executionStats")->Get("executionStages")->Get("nWouldModify")),
      "1");
  EXPECT_EQ(J(r.Get("command")->Get("update")), R"("c")");
  EXPECT_NE(r.Get("serverInfo"), nullptr);
  EXPECT_EQ(J(r.Get("ok")), "1.0");
  r = Run("test", R"({"explain": {"update": "c", "updates": [
      {"q": {"a": 2}, "u": [{"$set": {"y": 999}}]}]}})");
  EXPECT_EQ(J(r.Get("queryPlanner")
                  ->Get("winningPlan")
                  ->Get("inputStage")
                  ->Get("stage")),
            R"("COLLSCAN")");
  EXPECT_EQ(RunJson("test", R"({"count": "c", "query": {"y": 999}})"),
            R"({"n":0,"ok":1.0})");
  // write_commands.cpp: one statement only.
  r = Run("test", R"({"explain": {"update": "c", "updates": [
      {"q": {}, "u": {"$set": {"y": 1}}}, {"q": {}, "u": {"$set": {"y": 1}}}]}})");
  EXPECT_EQ(J(r.Get("code")), "16");
  EXPECT_EQ(J(r.Get("errmsg")),
            R"("explained write batches must be of size 1")");
}

// explain of delete (DELETE, nWouldDelete) and findAndModify (UPDATE or
// DELETE over the sorted scan); nothing deleted.
TEST_F(ExplainWriteCommandsTest, ExplainDeleteAndFindAndModify) {
  Run("test", R"({"insert": "c", "documents": [{"_id": 1, "a": 1},
                                               {"_id": 2, "a": 2}]})");
  Value r = Run("test", R"({"explain": {"delete": "c", "deletes": [
      {"q": {"a": {"$gte": 1}}, "limit": 0}]}})");
  EXPECT_EQ(J(r.Get("queryPlanner")->Get("winningPlan")->Get("stage")),
            R"("DELETE")");
  EXPECT_EQ(
      J(r.Get("executionStats")->Get("executionStages")->Get("nWouldDelete")),
      "2");
  r = Run("test", R"({"explain": {"findAndModify": "c", "query": {},
      "sort": {"a": -1}, "remove": true}})");
  const Value* plan = r.Get("queryPlanner")->Get("winningPlan");
  EXPECT_EQ(J(plan->Get("stage")), R"("DELETE")");
  EXPECT_EQ(J(plan->Get("inputStage")->Get("stage")), R"("SORT")");
  EXPECT_EQ(J(plan->Get("inputStage")->Get("inputStage")),
            R"({"stage":"COLLSCAN","direction":"forward"})");
  EXPECT_EQ(
      J(r.Get("executionStats")->Get("executionStages")->Get("nWouldDelete")),
      "1");
  r = Run("test", R"({"explain": {"findAndModify": "c", "query": {"_id": 1},
      "update": [{"$set": {"z": 1}}]}})");
  EXPECT_EQ(J(r.Get("queryPlanner")->Get("winningPlan")->Get("stage")),
            R"("UPDATE")");
  // findAndModify returns the document it matched: nReturned 1
  // (jstests/core/query/find_and_modify/find_and_modify_pipeline_update.js).
  EXPECT_EQ(J(r.Get("executionStats")->Get("nReturned")), "1");
  EXPECT_EQ(
      J(r.Get("executionStats")->Get("executionStages")->Get("nWouldModify")),
      "1");
  EXPECT_EQ(RunJson("test", R"({"count": "c"})"), R"({"n":2,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"count": "c", "query": {"z": 1}})"),
            R"({"n":0,"ok":1.0})");
}

// find's min/max/returnKey/showRecordId as find_command.idl types them:
// minmax.js's bounds and errors, return_key.js's keys, show_record_id.js.
TEST_F(ExplainWriteCommandsTest, FindKeyOptions) {
  Run("test", R"({"createIndexes": "c", "indexes": [{"key": {"a": 1},
                   "name": "a_1"}]})");
  Run("test", R"({"insert": "c", "documents": [{"_id": 3, "a": 3},
                   {"_id": 4, "a": 4}, {"_id": 5, "a": 5}]})");
  EXPECT_EQ(J(Run("test", R"({"find": "c", "hint": {"a": 1},
                               "min": {"a": 4}})")
                  .Get("cursor")
                  ->Get("firstBatch")),
            R"([{"_id":4,"a":4},{"_id":5,"a":5}])");
  EXPECT_EQ(J(Run("test", R"({"find": "c", "hint": {"a": 1},
                               "max": {"a": 4}, "returnKey": true})")
                  .Get("cursor")
                  ->Get("firstBatch")),
            R"([{"a":3}])");
  EXPECT_EQ(J(Run("test", R"({"find": "c", "min": {"a": 4}})").Get("code")),
            "51173");
  EXPECT_EQ(J(Run("test", R"({"find": "c", "hint": {"a": 1},
                               "min": {"a": 2}, "max": {"a": 2}})")
                  .Get("code")),
            "51175");
  EXPECT_EQ(J(Run("test", R"({"find": "c", "min": 1})").Get("code")), "14");
  Value r = Run("test", R"({"find": "c", "filter": {"_id": 3},
                            "showRecordId": true})");
  const Value& doc = r.Get("cursor")->Get("firstBatch")->array_items().at(0);
  EXPECT_EQ(doc.object_fields().back().first, "$recordId");
  EXPECT_EQ(doc.object_fields().back().second.type(), ValueType::kInt64);
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
