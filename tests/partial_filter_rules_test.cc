// Which partialFilterExpressions createIndex accepts (issue 18 item 9,
// review F5: a regex in a partial filter ran under the writers' lock).
// MongoDB 8.0: _checkValidFilterExpressions in
// src/mongo/db/catalog/index_catalog_impl.cpp (the timeseriesMetricIndexes
// flag is on since 6.0: $or, $in and nested $and allowed, depth at most
// internalPartialFilterExpressionMaxDepth = 4);
// jstests/core/index/index_partial_create_drop.js ("Check bad filter spec
// on create": {x: /abc/}-style filters fail; $and/$or/$in/$exists: true
// succeed); index_filtered3.js (badFilter({x: /abc/})).
#include <string>

#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class PartialFilterRulesTest : public DbTest {
 protected:
  void SetUp() override {
    DbTest::SetUp();
    ASSERT_TRUE(c().InsertOne(R"({"_id": 1, "x": 1, "a": "abc"})").ok());
  }
  Collection& c() { return db_->collection("c"); }

  // "" when createIndex({x: 1}, {partialFilterExpression: filter}) works
  // (the index is dropped again), else the text after "caused by :: ".
  std::string Create(const std::string& filter) {
    auto r = c().CreateIndex(
        R"({"x": 1})",
        absl::StrCat(R"({"name": "p", "partialFilterExpression": )", filter,
                     "}"));
    if (r.ok()) {
      EXPECT_TRUE(c().DropIndex("p").ok());
      return "";
    }
    EXPECT_EQ(ErrorCode(r.status()), 67) << filter;
    std::string m(r.status().message());
    const std::string sep = " :: caused by :: ";
    EXPECT_EQ(m.rfind("Error in specification {", 0), 0u) << m;
    return m.substr(m.find(sep) + sep.size());
  }
};

TEST_F(PartialFilterRulesTest, AllowedOperators) {
  for (
      const char* f : {
          R"({})",
          R"({"a": 1})",
          R"({"a": {"$eq": 1}})",
          R"({"a": null})",
          R"({"a": {"$exists": true}})",
          R"({"a": {"$gt": 1, "$lte": 5}})",
          R"({"a": {"$gte": 1}, "b": {"$lt": 2}})",
          R"({"a": {"$type": "string"}})",
          R"({"a": {"$in": [1, 2]}})",
          R"({"a": {"$in": [{"$regularExpression": {"pattern": "x", "options": ""}}]}})",
          R"({"$and": [{"a": 1}, {"b": 2}]})",
          R"({"$or": [{"a": 1}, {"b": {"$gt": 2}}]})",
          R"({"$and": [{"$or": [{"a": 1}, {"b": 2}]}, {"c": 1}]})",
          R"({"a": {"$all": [1, 2]}})",
      }) {
    EXPECT_EQ(Create(f), "") << f;
  }
}

// The messages are MongoDB's debugString of the rejected expression.
TEST_F(PartialFilterRulesTest, RejectedOperatorsAre67) {
  const std::string p = "Expression not supported in partial index: ";
  EXPECT_EQ(Create(R"({"a": {"$regex": "(a+)+$"}})"), p + "a regex /(a+)+$/\n");
  EXPECT_EQ(
      Create(
          R"({"a": {"$regularExpression": {"pattern": "x", "options": "i"}}})"),
      p + "a regex /x/i\n");
  EXPECT_EQ(Create(R"({"a": {"$exists": false}})"), p + "$not\n    a exists\n");
  EXPECT_EQ(Create(R"({"a": {"$ne": 1}})"), p + "$not\n    a $eq 1\n");
  EXPECT_EQ(Create(R"({"$nor": [{"a": 1}]})"), p + "$nor\n    a $eq 1\n");
  EXPECT_EQ(Create(R"({"a": {"$not": {"$gt": 1}}})"),
            p + "$not\n    $and\n        a $gt 1\n");
  EXPECT_EQ(Create(R"({"a": {"$mod": [2, 0]}})"), p + "a mod 2 % x == 0\n");
  EXPECT_EQ(Create(R"({"a": {"$size": 2}})"), p + "a $size : 2\n");
  EXPECT_EQ(Create(R"({"a": {"$elemMatch": {"$gt": 1}}})"),
            p + "a $elemMatch (value)\n     $gt 1\n");
  EXPECT_EQ(Create(R"({"$or": [{"a": {"$ne": 1}}]})"),
            p + "$not\n    a $eq 1\n");
  EXPECT_EQ(Create(R"({"b": 1, "$or": [{"a": 1}, {"a": {"$regex": "x"}}]})"),
            p + "a regex /x/\n");
  // Depth: AND > OR > AND > OR > EQ is five levels.
  EXPECT_EQ(
      Create(R"({"$and": [{"$or": [{"$and": [{"$or": [{"a": 1}, {"b": 1}]}, )"
             R"({"c": 1}]}, {"d": 1}]}, {"e": 1}]})"),
      "partialFilterExpression depth may not exceed 4");
  EXPECT_EQ(Create(R"({"$and": [{"$or": [{"$and": [{"a": 1}, {"c": 1}]}, )"
                   R"({"d": 1}]}, {"e": 1}]})"),
            "");
  // The failed createIndex changed nothing: only _id_ is listed, and the
  // document needs no index to be found.
  auto indexes = c().ListIndexes();
  ASSERT_TRUE(indexes.ok());
  EXPECT_EQ(indexes->size(), 1u);
  auto n = c().CountDocuments("{}");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 1);
}

}  // namespace
}  // namespace ttldb
