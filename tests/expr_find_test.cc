// {$expr: ...} in find filters through the public API (Collection::Find,
// Explain, UpdateMany, DeleteMany) on a real database. Expected answers
// from the MongoDB 8.0 manual page for $expr
// (https://www.mongodb.com/docs/manual/reference/operator/query/expr/).
#include <string>
#include <vector>

#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class ExprFindTest : public DbTest {
 protected:
  void SetUp() override {
    DbTest::SetUp();
    // The manual's "monthlyBudget" collection.
    for (const char* d : {
             R"({"_id": 1, "category": "food", "budget": 400, "spent": 450})",
             R"({"_id": 2, "category": "drinks", "budget": 100, "spent": 150})",
             R"({"_id": 3, "category": "clothes", "budget": 100, "spent": 50})",
             R"({"_id": 4, "category": "misc", "budget": 500, "spent": 300})",
             R"({"_id": 5, "category": "travel", "budget": 200, "spent": 650})",
         }) {
      ASSERT_TRUE(c().InsertOne(d).ok());
    }
  }
  Collection& c() { return db_->collection("monthlyBudget"); }
  std::vector<std::string> Ids(const std::string& filter) {
    std::vector<std::string> out;
    auto cursor = c().Find(filter);
    EXPECT_TRUE(cursor.ok()) << cursor.status();
    if (!cursor.ok()) return out;
    auto docs = (*cursor)->ToVector();
    EXPECT_TRUE(docs.ok()) << docs.status();
    if (!docs.ok()) return out;
    for (const Value& d : *docs) out.push_back(ToJson(*d.Get("_id")));
    return out;
  }
};

// Manual: "Compare Two Fields from A Single Document".
TEST_F(ExprFindTest, CompareTwoFields) {
  EXPECT_EQ(Ids(R"({"$expr": {"$gt": ["$spent", "$budget"]}})"),
            (std::vector<std::string>{"1", "2", "5"}));
}

// With an index on category, the equality uses it and $expr only filters;
// the $expr alone is a collection scan (it bounds no index).
TEST_F(ExprFindTest, PlannerTreatsExprAsUnindexable) {
  ASSERT_TRUE(c().CreateIndex(R"({"category": 1})").ok());
  EXPECT_EQ(Ids(R"({"category": "food",
                    "$expr": {"$gt": ["$spent", "$budget"]}})"),
            (std::vector<std::string>{"1"}));
  auto e = c().Explain(R"({"category": "food",
                           "$expr": {"$gt": ["$spent", "$budget"]}})");
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(ToJson(*e->Get("queryPlanner")->Get("winningPlan")->Get("stage")),
            R"("IXSCAN")");
  auto scan = c().Explain(R"({"$expr": {"$eq": ["$category", "food"]}})");
  ASSERT_TRUE(scan.ok()) << scan.status();
  EXPECT_EQ(
      ToJson(*scan->Get("queryPlanner")->Get("winningPlan")->Get("stage")),
      R"("COLLSCAN")");
}

// Writes select with $expr too.
TEST_F(ExprFindTest, UpdateAndDelete) {
  auto u = c().UpdateMany(R"({"$expr": {"$lt": ["$spent", "$budget"]}})",
                          R"({"$set": {"under": true}})");
  ASSERT_TRUE(u.ok()) << u.status();
  EXPECT_EQ(u->matched_count, 2);
  EXPECT_EQ(Ids(R"({"under": true})"), (std::vector<std::string>{"3", "4"}));
  auto d = c().DeleteMany(R"({"$expr": {"$eq": ["$spent", 650]}})");
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(*d, 1);
}

// An evaluation error fails the find with MongoDB's code; a bad
// expression fails at parse time; nothing is returned either way.
TEST_F(ExprFindTest, Errors) {
  auto cursor = c().Find(R"({"$expr": {"$divide": ["$spent", 0]}})");
  absl::Status s = cursor.status();
  if (cursor.ok()) s = (*cursor)->ToVector().status();
  EXPECT_EQ(ErrorCode(s), 2) << s;
  EXPECT_EQ(s.message(), "can't $divide by zero");
  auto bad = c().Find(R"({"$expr": {"$add": [1], "$x": 2}})");
  EXPECT_FALSE(bad.ok());
  auto unknown = c().Find(R"({"$expr": {"$frobnicate": 1}})");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(ErrorCode(unknown.status()), 168);
}

}  // namespace
}  // namespace ttldb
