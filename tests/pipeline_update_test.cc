// Pipeline-style updates (MongoDB 4.2+: an update given as an array of
// stages) through the public API on real databases: UpdateOne, UpdateMany,
// FindOneAndUpdate, BulkWrite and upserts, with the secondary and TTL
// indexes and the change log kept right by the one write path.
// Expected answers from jstests/core/write/update/update_with_pipeline.js,
// jstests/core/write/update/update_pipeline_shell_helpers.js,
// src/mongo/db/update/pipeline_executor.cpp and
// src/mongo/db/update/object_replace_executor.cpp.
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/change_stream.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

std::string Docs(Collection& c, const char* filter = "{}") {
  auto cur = c.Find(filter);
  if (!cur.ok()) return cur.status().ToString();
  auto all = (*cur)->ToVector();
  if (!all.ok()) return all.status().ToString();
  std::string out;
  for (const Value& d : *all) absl::StrAppend(&out, ToJson(d), ";");
  return out;
}

class PipelineUpdateTest : public DbFixture<> {
 protected:
  void AdjustOptions(Options* options) override {
    options->change_log = true;  // the events of pipeline updates
  }
};

// update_with_pipeline.js "Update with existing document": $set, $project,
// $unset and $replaceWith, each replacing the document with the stage's
// output, the _id kept.
TEST_F(PipelineUpdateTest, StagesTransformTheDocument) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "x": 1, "y": [{"z": 1, "foo": 1}],
                              "t": {"u": {"v": 1}}})")
                  .ok());
  auto r = c.UpdateOne(R"({"_id": 1})", R"([{"$set": {"foo": 4}}])");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->matched_count, 1);
  EXPECT_EQ(r->modified_count, 1);
  r = c.UpdateOne(R"({"_id": 1})", R"([{"$unset": ["x", "y.z"]}])");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Docs(c), R"({"_id":1,"y":[{"foo":1}],"t":{"u":{"v":1}},"foo":4};)");
  r = c.UpdateOne(R"({"_id": 1})", R"([{"$replaceWith": "$t"}])");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Docs(c), R"({"_id":1,"u":{"v":1}};)");
  // A pipeline whose result equals the document modifies nothing.
  r = c.UpdateOne(R"({"_id": 1})", R"([{"$project": {"u": 1}}])");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->matched_count, 1);
  EXPECT_EQ(r->modified_count, 0);
  // $$ROOT is the document before the stage.
  r = c.UpdateOne(R"({"_id": 1})",
                  R"([{"$set": {"copy": "$$ROOT.u"}},
                      {"$replaceWith": {"$mergeObjects": ["$$ROOT",
                                                          {"n": 1}]}}])");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Docs(c), R"({"_id":1,"u":{"v":1},"copy":{"v":1},"n":1};)");
}

// UpdateMany and BulkWrite's updateOne/updateMany with pipelines
// (update_pipeline_shell_helpers.js).
TEST_F(PipelineUpdateTest, UpdateManyAndBulkWrite) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "a": 1, "b": 2})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 2, "a": 2, "b": 3})").ok());
  auto r = c.UpdateMany("{}", R"([{"$set": {"sum": {"$add": ["$a", "$b"]}}}])");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->modified_count, 2);
  auto ops = ParseValue(R"([
      {"updateOne": {"filter": {"_id": 1},
                     "update": [{"$set": {"bulkWriteUpdateOne": true}}]}},
      {"updateMany": {"filter": {},
                      "update": [{"$set": {"bulkWriteUpdateMany": true}}]}}])");
  ASSERT_TRUE(ops.ok());
  auto b = c.BulkWrite(*ops);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_TRUE(b->write_errors.empty());
  EXPECT_EQ(b->matched_count, 3);
  EXPECT_EQ(b->modified_count, 3);
  EXPECT_EQ(Docs(c),
            R"({"_id":1,"a":1,"b":2,"sum":3,"bulkWriteUpdateOne":true,)"
            R"("bulkWriteUpdateMany":true};)"
            R"({"_id":2,"a":2,"b":3,"sum":5,"bulkWriteUpdateMany":true};)");
  // A replacement given as an array is refused (the shell throws for
  // replaceOne([...]): update_pipeline_shell_helpers.js).
  EXPECT_FALSE(c.ReplaceOne(R"({"_id": 1})", R"([{"$replaceWith": {}}])").ok());
}

// update_with_pipeline.js "Upsert performs insert": the pipeline runs on
// the document the query's equalities build.
TEST_F(PipelineUpdateTest, UpsertRunsOnTheQueryDocument) {
  Collection& c = db_->collection("c");
  UpdateOptions up;
  up.upsert = true;
  auto r =
      c.UpdateOne(R"({"_id": 1, "x": 1})", R"([{"$set": {"foo": 4}}])", up);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->upserted_id.has_value());
  EXPECT_EQ(Docs(c), R"({"_id":1,"x":1,"foo":4};)");
  ASSERT_TRUE(c.DeleteMany("{}").ok());
  ASSERT_TRUE(c.UpdateOne(R"({"_id": 1, "x": 1})",
                          R"([{"$project": {"x": "foo"}}])", up)
                  .ok());
  EXPECT_EQ(Docs(c), R"({"_id":1,"x":"foo"};)");
  ASSERT_TRUE(c.DeleteMany("{}").ok());
  ASSERT_TRUE(
      c.UpdateOne(R"({"_id": 1, "x": 1, "y": 1})", R"([{"$unset": ["x"]}])", up)
          .ok());
  EXPECT_EQ(Docs(c), R"({"_id":1,"y":1};)");
  // findAndModify with a pipeline and new: true
  // (update_pipeline_shell_helpers.js).
  FindOneAndModifyOptions fam;
  fam.return_new = true;
  auto f = c.FindOneAndUpdate(R"({"_id": 1})",
                              R"([{"$set": {"findAndModify": true}}])", fam);
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_TRUE(f->has_value());
  EXPECT_EQ(ToJson(**f), R"({"_id":1,"y":1,"findAndModify":true})");
  fam.upsert = true;
  f = c.FindOneAndUpdate(R"({"_id": 2})",
                         R"([{"$set": {"n": {"$add": [1, 1]}}}])", fam);
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_TRUE(f->has_value());
  EXPECT_EQ(ToJson(**f), R"({"_id":2,"n":2})");
}

// The _id may not change (object_replace_executor.cpp: 66 "After applying
// the update, the (immutable) field '_id' was found to have been altered
// to _id: 2"); dropping it keeps it (pipeline_executor.cpp passes
// replacementDocContainsIdField = the result's hasField("_id")). Nothing is
// written on error.
TEST_F(PipelineUpdateTest, IdIsImmutable) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "a": 1})").ok());
  auto r = c.UpdateOne(R"({"_id": 1})", R"([{"$set": {"_id": 2}}])");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(ErrorCode(r.status()), 66);
  EXPECT_EQ(r.status().message(),
            "After applying the update, the (immutable) field '_id' was "
            "found to have been altered to _id: 2");
  r = c.UpdateOne(R"({"_id": 1})", R"([{"$project": {"_id": 0, "b": "$a"}}])");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Docs(c), R"({"_id":1,"b":1};)");
}

// The errors of update_driver.cpp and pipeline_executor.cpp; nothing is
// written.
TEST_F(PipelineUpdateTest, Errors) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "x": 1})").ok());
  auto code = [&](const char* update, const UpdateOptions& o = {}) {
    auto r = c.UpdateOne(R"({"x": 1})", update, o);
    return r.ok() ? 0 : ErrorCode(r.status());
  };
  // update_with_pipeline.js: stages not allowed in an update are 72.
  EXPECT_EQ(code(R"([{"$match": {"x": 1}}])"), 72);
  EXPECT_EQ(code(R"([{"$sort": {"x": 1}}])"), 72);
  EXPECT_EQ(code(R"([{"$facet": {"a": [{"$match": {"x": 1}}]}}])"), 72);
  EXPECT_EQ(code(R"([{"$lookup": {"from": "foo", "as": "as",
                                   "localField": "a", "foreignField": "b"}}])"),
            72);
  auto r = c.UpdateOne("{}", R"([{"$set": {"a": 1}}, {"$limit": 1}])");
  EXPECT_EQ(r.status().message(),
            "$limit is not allowed to be used within an update");
  // An unknown stage fails the pipeline's parse first (40324).
  EXPECT_EQ(code(R"([{"$nope": {}}])"), 40324);
  // update_with_pipeline.js: the 'arrayFilters' option is not valid for
  // pipeline updates (9); an empty list is (update_driver.cpp checks
  // arrayFilters.empty()).
  UpdateOptions af;
  af.array_filters = {*ParseDocument(R"({"x": {"$eq": 1}})")};
  EXPECT_EQ(code(R"([{"$set": {"x": 1}}])", af), 9);
  // Constants with a document update: 51198.
  UpdateOptions k;
  k.constants = Value::MakeObject();
  EXPECT_EQ(code(R"({"$set": {"x": "1"}})", k), 51198);
  // An undefined variable (17276) and a bad constant name (16870...).
  EXPECT_EQ(code(R"([{"$set": {"x": "$$nope"}}])"), 17276);
  k.constants = *ParseDocument(R"({"Foo": 1})");
  EXPECT_NE(code(R"([{"$set": {"x": 1}}])", k), 0);
  EXPECT_EQ(Docs(c), R"({"_id":1,"x":1};)");
}

// update_with_pipeline.js "Constants can be specified with pipeline-style
// updates": values, never evaluated; `let` expressions are evaluated once.
TEST_F(PipelineUpdateTest, ConstantsAndLet) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "x": 1})").ok());
  UpdateOptions o;
  o.constants = *ParseDocument(R"({"foo": {"$add": [1, 2]}, "bar": "$x"})");
  auto r = c.UpdateOne(R"({"_id": 1})",
                       R"([{"$set": {"a": "$$foo", "b": "$$bar"}}])", o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Docs(c), R"({"_id":1,"x":1,"a":{"$add":[1,2]},"b":"$x"};)");
  UpdateOptions l;
  l.let = *ParseDocument(R"({"three": {"$add": [1, 2]}})");
  r = c.UpdateOne(R"({"_id": 1})", R"([{"$set": {"a": "$$three"}}])", l);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Docs(c), R"({"_id":1,"x":1,"a":3,"b":"$x"};)");
  // upsertSupplied: the upsert inserts c.new with the query's _id.
  UpdateOptions s;
  s.upsert = true;
  s.upsert_supplied = true;
  s.constants = *ParseDocument(R"({"new": {"suppliedDoc": true}})");
  r = c.UpdateOne(R"({"_id": "supplied_doc"})", R"([{"$set": {"x": 1}}])", s);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Docs(c, R"({"_id": "supplied_doc"})"),
            R"({"_id":"supplied_doc","suppliedDoc":true};)");
  s.upsert = false;
  r = c.UpdateOne(R"({"_id": "x"})", R"([{"$set": {"x": 1}}])", s);
  EXPECT_EQ(ErrorCode(r.status()), 9);
}

// The result is stored as any document: secondary index entries follow it,
// a TTL index sees the date the pipeline sets, and the 16 MiB bound holds
// (update_stage.cpp: 10334 BSONObjectTooLarge).
TEST_F(PipelineUpdateTest, IndexesTtlAndSizeStayRight) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.CreateIndex(R"({"k": 1})").ok());
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "k": 1})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 2, "k": 2})").ok());
  auto r = c.UpdateMany(
      "{}", R"([{"$set": {"k": {"$multiply": ["$k", 10]}, "at": "$$NOW"}}])");
  ASSERT_TRUE(r.ok()) << r.status();
  FindOptions hint;
  hint.hint = "k_1";
  auto cur = c.Find(R"({"k": {"$gte": 10}})", hint);
  ASSERT_TRUE(cur.ok());
  EXPECT_EQ((*cur)->ToVector()->size(), 2u);
  EXPECT_EQ(*c.CountDocuments(R"({"k": 1})"), 0);
  EXPECT_TRUE(Valid(c));
  // $$NOW is the database clock's: 61 s later both documents expired.
  clock_.Advance(absl::Seconds(61));
  EXPECT_EQ(*c.CountDocuments(), 0);
  clock_.Advance(absl::Seconds(-61));

  const std::string big(9 << 20, 'x');
  ASSERT_TRUE(c.UpdateOne(R"({"_id": 1})",
                          absl::StrCat(R"({"$set": {"s": ")", big, R"("}})"))
                  .ok());
  r = c.UpdateOne(R"({"_id": 1})", R"([{"$set": {"t": "$s"}}])");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(ErrorCode(r.status()), 10334);
  EXPECT_TRUE(Valid(c));
}

// The change log records a pipeline update as an "update" event with the
// updateDescription of the change (MongoDB logs it as a $v: 2 delta
// whenever the diff is smaller than the document: pipeline_executor.cpp,
// computeOplogDiff; ttldb always does).
TEST_F(PipelineUpdateTest, ChangeStreamSeesAnUpdate) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "a": 1, "b": 2})").ok());
  auto s = c.Watch();
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_TRUE(
      c.UpdateOne(R"({"_id": 1})", R"([{"$set": {"a": 5}}, {"$unset": "b"}])")
          .ok());
  auto e = (*s)->Next(absl::ZeroDuration());
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_TRUE(e->has_value());
  EXPECT_EQ(ToJson(*(*e)->Get("operationType")), R"("update")");
  EXPECT_EQ(ToJson(*(*e)->Get("updateDescription")),
            R"({"updatedFields":{"a":5},"removedFields":["b"],)"
            R"("truncatedArrays":[]})");
}

}  // namespace
}  // namespace ttldb
