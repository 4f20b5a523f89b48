// Sorts through indexes, end to end on LevelDB: an index never changes a
// sorted answer (review T2), explain says why an index did not provide a
// sort, and hints by name, key pattern and {$natural: 1}.
#include <string>
#include <vector>

#include "base/status.h"
#include "base/sync_point.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class SortPlanTest : public DbTest {
 protected:
  void TearDown() override { SyncPoint::ClearAll(); }

  Collection& c() { return db_->collection("c"); }

  // The _ids Find returns, in order.
  std::string Ids(const std::string& filter, const std::string& sort,
                  int64_t limit = 0, const std::string& hint = "",
                  const std::string& hint_keys = "") {
    FindOptions o;
    o.sort = *ParseDocument(sort);
    o.limit = limit;
    o.hint = hint;
    if (!hint_keys.empty()) o.hint_keys = *ParseDocument(hint_keys);
    o.projection = *ParseDocument(R"({"_id": 1})");
    auto cursor = c().Find(filter, o);
    if (!cursor.ok()) return std::string(cursor.status().message());
    auto docs = (*cursor)->ToVector();
    if (!docs.ok()) return std::string(docs.status().message());
    std::string out;
    for (const Value& d : *docs) {
      out += (out.empty() ? "" : ",") + ToJson(*d.Get("_id"));
    }
    return out;
  }
  Value Explain(const std::string& filter, const std::string& sort) {
    FindOptions o;
    o.sort = *ParseDocument(sort);
    auto e = c().Explain(filter, o);
    EXPECT_TRUE(e.ok()) << e.status();
    return e.ok() ? *e->Get("queryPlanner")->Get("winningPlan") : Value();
  }
};

// The review's T2 reproduction, from jstests/core/query/sort/sort_array.js
// ("Ascending sort, without an index" expects [{_id: 1, a: [8, 4, -1]},
// {_id: 0, a: [3, 0, 1]}]; with {a: 1} the sort is blocking; hinted and
// unhinted agree in testAggAndFindSort).
TEST_F(SortPlanTest, MultikeyIndexWithBoundsSortsByWholeArray) {
  ASSERT_TRUE(c().InsertMany({R"({"_id": 0, "a": [3, 0, 1]})",
                              R"({"_id": 1, "a": [8, 4, -1]})"})
                  .ok());
  const std::string filter = R"({"a": {"$gte": 2}})";
  EXPECT_EQ(Ids(filter, R"({"a": 1})"), "1,0");
  ASSERT_TRUE(c().CreateIndex(R"({"a": 1})").ok());
  EXPECT_EQ(Ids(filter, R"({"a": 1})"), "1,0");
  EXPECT_EQ(Ids(filter, R"({"a": 1})", 1), "1");
  EXPECT_EQ(Ids(filter, R"({"a": 1})", 0, "a_1"), "1,0");
  EXPECT_EQ(Ids(filter, R"({"a": 1})", 1, "", R"({"a": 1})"), "1");
  // Descending: by each array's maximum, 8 then 3.
  EXPECT_EQ(Ids(filter, R"({"a": -1})"), "1,0");

  Value plan = Explain(filter, R"({"a": 1})");
  EXPECT_EQ(ToJson(plan),
            R"({"stage":"SORT","sortPattern":{"a":1},)"
            R"("sortNotProvidedReason":"index a_1 is multikey and the scan )"
            R"(has bounds on a","inputStage":{"stage":"IXSCAN",)"
            R"("indexName":"a_1","keyPattern":{"a":1},"isMultiKey":true,)"
            R"("direction":"forward","indexBounds":{"a":["[2, int max]"]}}})");
}

// Before any array arrives the index provides the sort (no SORT stage); the
// first array makes it multikey and the same query sorts in memory.
TEST_F(SortPlanTest, IndexProvidesSortUntilMultikey) {
  ASSERT_TRUE(c().CreateIndex(R"({"a": 1})").ok());
  ASSERT_TRUE(
      c().InsertMany({R"({"_id": 0, "a": 3})", R"({"_id": 1, "a": 5})"}).ok());
  Value plan = Explain(R"({"a": {"$gte": 2}})", R"({"a": 1})");
  EXPECT_EQ(ToJson(*plan.Get("stage")), R"("IXSCAN")");
  EXPECT_EQ(ToJson(*plan.Get("isMultiKey")), "false");
  ASSERT_TRUE(c().InsertOne(R"({"_id": 2, "a": [4, 1]})").ok());
  plan = Explain(R"({"a": {"$gte": 2}})", R"({"a": 1})");
  EXPECT_EQ(ToJson(*plan.Get("stage")), R"("SORT")");
  // [4, 1] sorts by 1, first.
  EXPECT_EQ(Ids(R"({"a": {"$gte": 2}})", R"({"a": 1})"), "2,0,1");
}

// The index turns multikey between planning (which saw it non-multikey and
// let it provide the sort) and the cursor's snapshot: the cursor notices
// and sorts in memory.
TEST_F(SortPlanTest, IndexTurnsMultikeyAfterPlanning) {
  ASSERT_TRUE(c().CreateIndex(R"({"a": 1})").ok());
  ASSERT_TRUE(
      c().InsertMany({R"({"_id": 0, "a": 3})", R"({"_id": 1, "a": 5})"}).ok());
  bool fired = false;
  SyncPoint::Set("ExecuteQuery:AfterPlan", [&] {
    if (fired) return;
    fired = true;
    ASSERT_TRUE(c().InsertOne(R"({"_id": 2, "a": [4, 1]})").ok());
  });
  EXPECT_EQ(Ids(R"({"a": {"$gte": 2}})", R"({"a": 1})"), "2,0,1");
  EXPECT_TRUE(fired);
}

// cursor.hint() errors (MongoDB: BadValue "hint provided does not correspond
// to an existing index"; "Can't 'hint' a hidden index").
TEST_F(SortPlanTest, BadHints) {
  ASSERT_TRUE(c().InsertOne(R"({"_id": 0, "a": 1})").ok());
  ASSERT_TRUE(c().CreateIndex(R"({"a": 1})").ok());
  ASSERT_TRUE(c().CreateIndex(R"({"b": 1})", R"({"hidden": true})").ok());
  const std::string err =
      "hint provided does not correspond to an existing index";
  EXPECT_EQ(Ids("{}", "{}", 0, "nosuch"), err);
  EXPECT_EQ(Ids("{}", "{}", 0, "b_1"), err);
  EXPECT_EQ(Ids("{}", "{}", 0, "", R"({"a": -1})"), err);
  EXPECT_EQ(Ids("{}", "{}", 0, "", R"({"b": 1})"), err);
  EXPECT_EQ(Ids("{}", "{}", 0, "", R"({"$natural": 1})"), "0");
  EXPECT_EQ(Ids("{}", "{}", 0, "a_1", R"({"a": 1})"), err);
  FindOptions o;
  o.hint = "nosuch";
  auto cursor = c().Find("{}", o);
  ASSERT_FALSE(cursor.ok());
  EXPECT_EQ(ErrorCode(cursor.status()), kBadValue);
}

// A partial index {b: {$lt: 5}} does not hold a NaN (the matcher's $lt is
// false for NaN, expression_leaf.cpp), so it must not answer {b: NaN}:
// before, the planner judged the implication by sort order (NaN below every
// number), used the index and returned nothing.
TEST_F(SortPlanTest, PartialIndexDoesNotAnswerForNaN) {
  ASSERT_TRUE(
      c().InsertOne(R"({"_id": 0, "b": {"$numberDouble": "NaN"}})").ok());
  ASSERT_TRUE(c().InsertOne(R"({"_id": 1, "b": 1})").ok());
  ASSERT_TRUE(c().InsertOne(R"({"_id": 2, "b": 7})").ok());
  const std::string nan = R"({"b": {"$numberDouble": "NaN"}})";
  EXPECT_EQ(Ids(nan, "{}"), "0");
  ASSERT_TRUE(
      c().CreateIndex(R"({"b": 1})",
                      R"({"partialFilterExpression": {"b": {"$lt": 5}}})")
          .ok());
  EXPECT_EQ(Ids(nan, "{}"), "0");
  EXPECT_EQ(Ids(R"({"b": 1})", "{}"), "1");
}

}  // namespace
}  // namespace ttldb
