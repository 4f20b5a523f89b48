// When a filter implies a partial index's expression (MongoDB decides this
// with expression::isSubsetOf, src/mongo/db/matcher/expression_algo.cpp;
// cases after expression_algo_test.cpp's IsSubsetOf tests).
#include "planner/implication.h"

#include <string>

#include "gtest/gtest.h"
#include "query/test_doc.h"

namespace ttldb {
namespace planner {
namespace {

bool Implies(const std::string& query, const std::string& partial) {
  Filter q = *Filter::Parse(Doc(query));
  Filter p = *Filter::Parse(Doc(partial));
  return FilterImplies(q.root(), p.root());
}

TEST(ImplicationTest, Comparisons) {
  EXPECT_TRUE(Implies(R"({"a": {"$gt": 5}})", R"({"a": {"$gt": 5}})"));
  EXPECT_TRUE(Implies(R"({"a": {"$gt": 6}})", R"({"a": {"$gt": 5}})"));
  EXPECT_TRUE(Implies(R"({"a": {"$gte": 6}})", R"({"a": {"$gt": 5}})"));
  EXPECT_FALSE(Implies(R"({"a": {"$gte": 5}})", R"({"a": {"$gt": 5}})"));
  EXPECT_TRUE(Implies(R"({"a": {"$gt": 5}})", R"({"a": {"$gte": 5}})"));
  EXPECT_FALSE(Implies(R"({"a": {"$gt": 4}})", R"({"a": {"$gt": 5}})"));
  EXPECT_FALSE(Implies(R"({"a": {"$lt": 6}})", R"({"a": {"$gt": 5}})"));
  EXPECT_TRUE(Implies(R"({"a": {"$lt": 4}})", R"({"a": {"$lte": 5}})"));
  EXPECT_TRUE(Implies(R"({"a": 6})", R"({"a": {"$gt": 5}})"));
  EXPECT_FALSE(Implies(R"({"a": 5})", R"({"a": {"$gt": 5}})"));
  // Type brackets: a string is not greater than 5.
  EXPECT_FALSE(Implies(R"({"a": "x"})", R"({"a": {"$gt": 5}})"));
  EXPECT_FALSE(Implies(R"({"a": {"$gt": "x"}})", R"({"a": {"$gt": 5}})"));
  EXPECT_TRUE(Implies(R"({"a": {"$in": [6, 7]}})", R"({"a": {"$gt": 5}})"));
  EXPECT_FALSE(Implies(R"({"a": {"$in": [5, 7]}})", R"({"a": {"$gt": 5}})"));
  // NaN is not below 5 for the matcher, though it sorts below every number:
  // a partial index {a: {$lt: 5}} does not hold {a: NaN}
  // (expression_leaf.cpp ComparisonMatchExpression::matchesSingleElement).
  EXPECT_FALSE(
      Implies(R"({"a": {"$numberDouble": "NaN"}})", R"({"a": {"$lt": 5}})"));
  EXPECT_FALSE(Implies(R"({"a": {"$in": [1, {"$numberDouble": "NaN"}]}})",
                       R"({"a": {"$lt": 5}})"));
  // Another path implies nothing.
  EXPECT_FALSE(Implies(R"({"b": 6})", R"({"a": {"$gt": 5}})"));
}

TEST(ImplicationTest, EqualityInAndExists) {
  EXPECT_TRUE(Implies(R"({"a": 1, "b": 2})", R"({"a": 1})"));
  EXPECT_TRUE(Implies(R"({"a": 1.0})", R"({"a": 1})"));
  EXPECT_FALSE(Implies(R"({"a": 2})", R"({"a": 1})"));
  EXPECT_TRUE(Implies(R"({"a": 3})", R"({"a": {"$in": [3, 5]}})"));
  EXPECT_TRUE(Implies(R"({"a": {"$in": [5]}})", R"({"a": {"$in": [3, 5]}})"));
  EXPECT_FALSE(Implies(R"({"a": 4})", R"({"a": {"$in": [3, 5]}})"));
  EXPECT_TRUE(Implies(R"({"a": 4})", R"({"a": {"$exists": true}})"));
  EXPECT_TRUE(Implies(R"({"a": {"$gt": 4}})", R"({"a": {"$exists": true}})"));
  EXPECT_FALSE(Implies(R"({"a": null})", R"({"a": {"$exists": true}})"));
  EXPECT_FALSE(Implies(R"({"a": {"$ne": 4}})", R"({"a": {"$exists": true}})"));
  EXPECT_FALSE(
      Implies(R"({"a": {"$exists": false}})", R"({"a": {"$exists": true}})"));
  // Every conjunct of the partial filter must be implied.
  EXPECT_TRUE(
      Implies(R"({"a": 1, "b": {"$gt": 3}})", R"({"a": 1, "b": {"$gt": 2}})"));
  EXPECT_FALSE(Implies(R"({"a": 1})", R"({"a": 1, "b": {"$gt": 2}})"));
  // Conservative: $or in the partial filter is never implied here.
  EXPECT_FALSE(Implies(R"({"a": 1})", R"({"$or": [{"a": 1}, {"b": 1}]})"));
}

}  // namespace
}  // namespace planner
}  // namespace ttldb
