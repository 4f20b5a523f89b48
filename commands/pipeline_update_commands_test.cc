// Pipeline-style updates through the command layer: update's `u`, `c` and
// `let`, findAndModify's `update`, bulkWrite's `updateMods` and
// `constants`, with MongoDB's reply shapes and write errors.
// Expected answers from jstests/core/write/update/update_with_pipeline.js
// and src/mongo/db/update/update_driver.cpp.
#include <string>

#include "commands/command_test_util.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

using PipelineUpdateCommandsTest = CommandTest;

std::string J(const Value* v) {
  return v == nullptr ? "<missing>" : ToJson(*v);
}

// update_with_pipeline.js testUpdate: {update, updates: [{q, u: [...]}]}
// replies {n, nModified, ok}; multi applies to every match; the constants
// `c` are variables ("$$foo"), never evaluated.
TEST_F(PipelineUpdateCommandsTest, UpdateCommand) {
  Run("test", R"({"insert": "c", "documents": [{"_id": 1, "x": 1},
                                               {"_id": 2, "x": 1}]})");
  EXPECT_EQ(RunJson("test", R"({"update": "c", "updates": [{"q": {"x": 1},
              "u": [{"$set": {"bar": 4}}], "multi": true}]})"),
            R"({"n":2,"nModified":2,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"update": "c", "updates": [{"q": {"_id": 1},
              "u": [{"$set": {"foo": "$$foo", "e": "$$e"}}],
              "c": {"foo": "bar", "e": {"$add": [1, 2]}}}]})"),
            R"({"n":1,"nModified":1,"ok":1.0})");
  // The command's let: expressions evaluated once.
  EXPECT_EQ(RunJson("test", R"({"update": "c", "updates": [{"q": {"_id": 2},
              "u": [{"$set": {"v": "$$v"}}]}], "let": {"v": {"$add": [2, 3]}}})"),
            R"({"n":1,"nModified":1,"ok":1.0})");
  EXPECT_EQ(
      ToJson(*Run("test", R"({"find": "c"})").Get("cursor")->Get("firstBatch")),
      R"([{"_id":1,"x":1,"bar":4,"foo":"bar","e":{"$add":[1,2]}},)"
      R"({"_id":2,"x":1,"bar":4,"v":5}])");
  // An upsert: the pipeline on the query's equalities; `upserted` as for
  // any upsert.
  EXPECT_EQ(RunJson("test", R"({"update": "c", "updates": [{"q": {"_id": 3,
              "x": 1}, "u": [{"$project": {"x": "foo"}}], "upsert": true}]})"),
            R"({"n":1,"upserted":[{"index":0,"_id":3}],"nModified":0,)"
            R"("ok":1.0})");
  EXPECT_EQ(ToJson(*Run("test", R"({"find": "c", "filter": {"_id": 3}})")
                        .Get("cursor")
                        ->Get("firstBatch")),
            R"([{"_id":3,"x":"foo"}])");
}

// The errors are write errors of the statement (update_with_pipeline.js
// checks their codes): 72 a stage not allowed, 9 arrayFilters with a
// pipeline, 51198 constants with a document update, 9 upsertSupplied
// without upsert or without c.new, 66 a changed _id.
TEST_F(PipelineUpdateCommandsTest, WriteErrors) {
  Run("test", R"({"insert": "c", "documents": [{"_id": 1, "x": 1}]})");
  auto err = [&](const std::string& statement) {
    Value r = Run("test", R"({"update": "c", "updates": [)" + statement + "]}");
    const Value* errors = r.Get("writeErrors");
    if (errors == nullptr) return ToJson(r);
    const Value& e = errors->array_items().at(0);
    const Value* msg = e.Get("errmsg");
    return J(e.Get("code")) + " " +
           (msg != nullptr && msg->is_string() ? msg->string_value() : "?");
  };
  EXPECT_EQ(err(R"({"q": {"x": 1}, "u": [{"$match": {"x": 1}}]})"),
            "72 $match is not allowed to be used within an update");
  EXPECT_EQ(err(R"({"q": {"x": 1}, "u": [{"$indexStats": {}}]})"),
            "72 $indexStats is not allowed to be used within an update");
  EXPECT_EQ(err(R"({"q": {"_id": 1}, "u": [{"$set": {"x": 1}}],
                    "arrayFilters": [{"x": {"$eq": 1}}]})"),
            "9 arrayFilters may not be specified for pipeline-style updates");
  EXPECT_EQ(err(R"({"q": {"_id": 1}, "u": {"$set": {"x": "1"}}, "c": {}})"),
            "51198 Constant values may only be specified for pipeline "
            "updates");
  EXPECT_EQ(
      err(R"({"q": {"_id": 1}, "u": {"$addFields": {"x": 1}}})").substr(0, 2),
      "9 ");
  EXPECT_EQ(err(R"({"q": {"_id": "s"}, "u": [{"$set": {"x": 1}}],
                    "upsert": false, "upsertSupplied": true,
                    "c": {"new": {"suppliedDoc": true}}})"),
            "9 cannot specify 'upsertSupplied: true' for a non-upsert "
            "operation");
  EXPECT_EQ(err(R"({"q": {"_id": "s"}, "u": [{"$set": {"x": 1}}],
                    "upsert": true, "upsertSupplied": true,
                    "c": {"new": "string"}})"),
            "9 the parameter 'upsertSupplied' is set to 'true', but no "
            "document was supplied");
  EXPECT_EQ(err(R"({"q": {"_id": 1}, "u": [{"$set": {"_id": 5}}]})"),
            "66 After applying the update, the (immutable) field '_id' was "
            "found to have been altered to _id: 5");
  // A `u` that is neither: the IDL's type error.
  EXPECT_EQ(err(R"({"q": {}, "u": 1})"),
            "14 BSON field 'update.updates.u' is the wrong type 'int', "
            "expected types '[object, array]'");
  EXPECT_EQ(
      ToJson(*Run("test", R"({"find": "c"})").Get("cursor")->Get("firstBatch")),
      R"([{"_id":1,"x":1}])");
  // upsertSupplied inserts c.new with the query's _id.
  EXPECT_EQ(RunJson("test", R"({"update": "c", "updates": [{"q": {"_id":
              "supplied_doc"}, "u": [{"$set": {"x": 1}}], "upsert": true,
              "upsertSupplied": true, "c": {"new": {"suppliedDoc": true}}}]})"),
            R"({"n":1,"upserted":[{"index":0,"_id":"supplied_doc"}],)"
            R"("nModified":0,"ok":1.0})");
  EXPECT_EQ(ToJson(*Run("test", R"({"find": "c", "filter":
                                      {"suppliedDoc": true}})")
                        .Get("cursor")
                        ->Get("firstBatch")),
            R"([{"_id":"supplied_doc","suppliedDoc":true}])");
}

// findAndModify and bulkWrite take a pipeline as their update
// (update_pipeline_shell_helpers.js; bulk_write.idl's updateMods is an
// UpdateModification, its `constants` the pipeline's variables).
TEST_F(PipelineUpdateCommandsTest, FindAndModifyAndBulkWrite) {
  Run("test", R"({"insert": "c", "documents": [{"_id": 1, "a": 1}]})");
  EXPECT_EQ(RunJson("test", R"({"findAndModify": "c", "query": {"_id": 1},
              "update": [{"$set": {"findAndModify": true}}], "new": true})"),
            R"({"lastErrorObject":{"n":1,"updatedExisting":true},)"
            R"("value":{"_id":1,"a":1,"findAndModify":true},"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"findAndModify": "c", "query": {"_id": 1},
              "update": [{"$set": {"b": "$$b"}}], "let": {"b": 7}})"),
            R"({"lastErrorObject":{"n":1,"updatedExisting":true},)"
            R"("value":{"_id":1,"a":1,"findAndModify":true},"ok":1.0})");
  Value r = Run("admin", R"({"bulkWrite": 1, "ops": [
      {"update": 0, "filter": {"_id": 1},
       "updateMods": [{"$set": {"k": "$$k"}}], "constants": {"k": "v"}}],
      "nsInfo": [{"ns": "test.c"}]})");
  EXPECT_EQ(ToJson(*r.Get("nModified")), "1") << ToJson(r);
  EXPECT_EQ(
      ToJson(*Run("test", R"({"find": "c"})").Get("cursor")->Get("firstBatch")),
      R"([{"_id":1,"a":1,"findAndModify":true,"b":7,"k":"v"}])");
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
