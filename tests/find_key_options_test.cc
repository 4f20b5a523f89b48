// find's min / max, returnKey and showRecordId, and the explain of writes
// (Collection::ExplainUpdate / ExplainDelete), through the public API.
// Expected answers from jstests/core/query/minmax.js,
// jstests/core/query/return_key.js, jstests/core/query/show_record_id.js,
// jstests/core/write/update/update_pipeline_shell_helpers.js (explain of
// updates) and src/mongo/db/query/query_planner.cpp /
// query_request_helper.cpp (the errors).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class FindKeyOptionsTest : public DbTest {
 protected:
  // The results of Find(filter, o) as JSON, or the error's code.
  std::string Run(Collection& c, const FindOptions& o,
                  const char* filter = "{}") {
    auto cur = c.Find(filter, o);
    if (!cur.ok()) return absl::StrCat("error ", ErrorCode(cur.status()));
    auto all = (*cur)->ToVector();
    if (!all.ok()) return absl::StrCat("error ", ErrorCode(all.status()));
    std::string out;
    for (const Value& d : *all) absl::StrAppend(&out, ToJson(d), ";");
    return out;
  }
  static FindOptions Hinted(const char* keys) {
    FindOptions o;
    o.hint_keys = *ParseDocument(keys);
    return o;
  }
  static Value V(const char* json) { return *ParseDocument(json); }
};

// minmax.js: min inclusive, max exclusive, in the hinted index's order
// (a descending field reverses it).
TEST_F(FindKeyOptionsTest, MinMaxBoundTheHintedIndex) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1, "b": 1})").ok());
  for (const char* d :
       {R"({"_id": 1, "a": 1, "b": 1})", R"({"_id": 2, "a": 1, "b": 2})",
        R"({"_id": 3, "a": 2, "b": 1})", R"({"_id": 4, "a": 2, "b": 2})"}) {
    ASSERT_TRUE(c.InsertOne(d).ok());
  }
  FindOptions o = Hinted(R"({"a": 1, "b": 1})");
  o.min = V(R"({"a": 1, "b": 2})");
  o.max = V(R"({"a": 2, "b": 1})");
  EXPECT_EQ(Run(c, o), R"({"_id":2,"a":1,"b":2};)");
  o.max = V(R"({"a": 2, "b": 1.5})");
  EXPECT_EQ(Run(c, o), R"({"_id":2,"a":1,"b":2};{"_id":3,"a":2,"b":1};)");
  o.max = Value();  // a single bound
  EXPECT_EQ(Run(c, o), R"({"_id":2,"a":1,"b":2};{"_id":3,"a":2,"b":1};)"
                       R"({"_id":4,"a":2,"b":2};)");
  ASSERT_TRUE(c.DropIndex("a_1_b_1").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1, "b": -1})").ok());
  FindOptions d = Hinted(R"({"a": 1, "b": -1})");
  d.min = V(R"({"a": 2, "b": 1})");
  EXPECT_EQ(Run(c, d), R"({"_id":3,"a":2,"b":1};)");
  d.min = Value();
  d.max = V(R"({"a": 1, "b": 1.5})");
  EXPECT_EQ(Run(c, d), R"({"_id":2,"a":1,"b":2};)");
  // The filter still applies within the bounds.
  d.max = V(R"({"a": 2, "b": 0})");
  EXPECT_EQ(Run(c, d, R"({"b": 1})"),
            R"({"_id":1,"a":1,"b":1};{"_id":3,"a":2,"b":1};)");
}

// minmax.js's errors: 51173 without a hint, 51174 fields other than the
// index's, 51176 min and max with different fields, 291 with a $natural
// hint, 51175 min not before max (equal included: max is exclusive).
TEST_F(FindKeyOptionsTest, MinMaxErrors) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1, "b": -1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"x": 1})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"a": 1, "b": 1, "x": 1})").ok());
  FindOptions o;
  o.min = V(R"({"a": 1, "b": 2})");
  o.max = V(R"({"a": 2, "b": 1})");
  EXPECT_EQ(Run(c, o), "error 51173");
  FindOptions h = Hinted(R"({"a": 1, "b": -1})");
  h.min = V(R"({"a": 1})");
  EXPECT_EQ(Run(c, h), "error 51174");
  h.max = V(R"({"a": 1, "b": 1})");
  h.min = V(R"({"a": 1, "b": 1})");
  h.max = V(R"({"a": 1})");
  EXPECT_EQ(Run(c, h), "error 51176");
  h.min = V(R"({"b": 1})");
  h.max = V(R"({"a": 1, "b": 2})");
  EXPECT_EQ(Run(c, h), "error 51176");
  FindOptions n = Hinted(R"({"$natural": 1})");
  n.min = V(R"({"a": 1})");
  EXPECT_EQ(Run(c, n), "error 291");
  FindOptions x = Hinted(R"({"x": 1})");
  x.min = V(R"({"x": 6})");
  x.max = V(R"({"x": 3})");
  EXPECT_EQ(Run(c, x), "error 51175");
  x.min = V(R"({"x": 2})");
  x.max = V(R"({"x": 2})");
  EXPECT_EQ(Run(c, x), "error 51175");
}

// return_key.js: each result is the hinted index's key, in the find's
// order (an in-memory sort included); the projection gives way to it.
// Under a collection scan the key is {} (return_key_stage.cpp has no index
// key to give).
TEST_F(FindKeyOptionsTest, ReturnKey) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"a": 1, "b": 3})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"a": 2, "b": 2})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"a": 3, "b": 1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"b": 1})").ok());
  FindOptions o = Hinted(R"({"a": 1})");
  o.return_key = true;
  o.sort = V(R"({"a": 1})");
  EXPECT_EQ(Run(c, o), R"({"a":1};{"a":2};{"a":3};)");
  o.sort = V(R"({"a": -1})");
  EXPECT_EQ(Run(c, o), R"({"a":3};{"a":2};{"a":1};)");
  o.sort = V(R"({"b": 1})");
  EXPECT_EQ(Run(c, o), R"({"a":3};{"a":2};{"a":1};)");
  o.sort = V(R"({"a": -1})");
  o.projection = V(R"({"b": 1})");
  EXPECT_EQ(Run(c, o), R"({"a":3};{"a":2};{"a":1};)");
  FindOptions scan;
  scan.return_key = true;
  scan.hint_keys = V(R"({"$natural": 1})");
  EXPECT_EQ(Run(c, scan, R"({"a": 1})"), "{};");
}

// show_record_id.js: every result has a truthy "$recordId", also by _id
// lookup (_id: 0) and through a projection; ttldb's is the same for the
// same document on every read.
TEST_F(FindKeyOptionsTest, ShowRecordId) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 0, "a": 1})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "a": 2})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1})").ok());
  FindOptions o;
  o.show_record_id = true;
  auto ids = [&](const FindOptions& opts, const char* filter) {
    std::vector<int64_t> out;
    auto cur = c.Find(filter, opts);
    EXPECT_TRUE(cur.ok());
    auto docs = (*cur)->ToVector();
    EXPECT_TRUE(docs.ok());
    for (const Value& d : *docs) {
      const Value* r = d.Get("$recordId");
      EXPECT_NE(r, nullptr) << ToJson(d);
      if (r == nullptr) continue;
      EXPECT_EQ(r->type(), ValueType::kInt64);
      EXPECT_GT(r->AsDouble(), 0);
      // The last field, as MongoDB appends it.
      EXPECT_EQ(d.object_fields().back().first, "$recordId");
      out.push_back(static_cast<int64_t>(r->AsDouble()));
    }
    return out;
  };
  std::vector<int64_t> all = ids(o, "{}");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_NE(all[0], all[1]);
  EXPECT_EQ(ids(o, R"({"_id": 0})"), std::vector<int64_t>{all[0]});
  FindOptions p = Hinted(R"({"a": 1})");
  p.show_record_id = true;
  p.projection = V(R"({"_id": 0, "a": 1})");
  EXPECT_EQ(ids(p, "{}"), all);
}

// update_pipeline_shell_helpers.js "Explain for updates": an UPDATE stage
// over IDHACK or COLLSCAN, nWouldModify counted, nothing written.
TEST_F(FindKeyOptionsTest, ExplainOfWrites) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "a": 1, "b": 2})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 2, "a": 2, "b": 3})").ok());
  auto e = c.ExplainUpdate(R"({"_id": 2})", R"([{"$set": {"y": 999}}])",
                           /*multi=*/false);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(ToJson(*e->Get("queryPlanner")->Get("winningPlan")),
            R"({"stage":"UPDATE","inputStage":{"stage":"IDHACK"}})");
  const Value* stats = e->Get("executionStats");
  EXPECT_EQ(ToJson(*stats->Get("totalDocsExamined")), "1");
  EXPECT_EQ(ToJson(*stats->Get("executionStages")->Get("nWouldModify")), "1");
  e = c.ExplainUpdate(R"({"a": 2})", R"([{"$set": {"y": 999}}])", false);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(ToJson(*e->Get("queryPlanner")
                        ->Get("winningPlan")
                        ->Get("inputStage")
                        ->Get("stage")),
            R"("COLLSCAN")");
  EXPECT_EQ(*c.CountDocuments(R"({"y": 999})"), 0);
  // An update that changes nothing, an upsert, a multi update.
  e = c.ExplainUpdate("{}", R"({"$set": {"b": 2}})", /*multi=*/true);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(ToJson(*e->Get("executionStats")->Get("executionStages")),
            R"({"stage":"UPDATE","nReturned":0,"nMatched":2,)"
            R"("nWouldModify":1,"nWouldUpsert":0,)"
            R"("inputStage":{"stage":"COLLSCAN","direction":"forward"}})");
  UpdateOptions up;
  up.upsert = true;
  e = c.ExplainUpdate(R"({"_id": 9})", R"({"$set": {"b": 2}})", false, up);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(ToJson(*e->Get("executionStats")
                        ->Get("executionStages")
                        ->Get("nWouldUpsert")),
            "1");
  // A delete: DELETE over the scan, nWouldDelete.
  e = c.ExplainDelete(R"({"a": {"$gte": 1}})", /*multi=*/true);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(ToJson(*e->Get("queryPlanner")->Get("winningPlan")->Get("stage")),
            R"("DELETE")");
  EXPECT_EQ(ToJson(*e->Get("executionStats")
                        ->Get("executionStages")
                        ->Get("nWouldDelete")),
            "2");
  EXPECT_EQ(*c.CountDocuments(), 2);
  // The update's own errors, as the write would give them.
  e = c.ExplainUpdate("{}", R"([{"$match": {}}])", false);
  EXPECT_EQ(ErrorCode(e.status()), 72);
}

}  // namespace
}  // namespace ttldb
