// Comparison operators. Manual pages for $cmp/$eq/$gt/... (the "qty vs 250"
// examples) and the BSON comparison order
// (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/).
#include "expr/expr_test_util.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace agg {
namespace {

// Manual $cmp: {$cmp: ["$qty", 250]} for qty 300, 200, 250 -> 1, -1, 0.
TEST(Comparison, CmpManualExample) {
  EXPECT_EQ(Eval(R"({"$cmp": ["$qty", 250]})", R"({"qty": 300})"), "1");
  EXPECT_EQ(Eval(R"({"$cmp": ["$qty", 250]})", R"({"qty": 200})"), "-1");
  EXPECT_EQ(Eval(R"({"$cmp": ["$qty", 250]})", R"({"qty": 250})"), "0");
}

TEST(Comparison, Operators) {
  EXPECT_EQ(Eval(R"({"$eq": ["$qty", 250]})", R"({"qty": 250})"), "true");
  EXPECT_EQ(Eval(R"({"$ne": ["$qty", 250]})", R"({"qty": 250})"), "false");
  EXPECT_EQ(Eval(R"({"$gt": ["$qty", 250]})", R"({"qty": 300})"), "true");
  EXPECT_EQ(Eval(R"({"$gte": ["$qty", 250]})", R"({"qty": 250})"), "true");
  EXPECT_EQ(Eval(R"({"$lt": ["$qty", 250]})", R"({"qty": 300})"), "false");
  EXPECT_EQ(Eval(R"({"$lte": ["$qty", 250]})", R"({"qty": 250})"), "true");
  // Numbers compare across types by value.
  EXPECT_EQ(Eval(R"({"$eq": [1, {"$numberDecimal": "1.0"}]})"), "true");
  // Across types, the BSON order: a string is above every number.
  EXPECT_EQ(Eval(R"({"$gt": ["a", 5]})"), "true");
  // Missing is below null and not equal to it (it compares as undefined).
  EXPECT_EQ(Eval(R"({"$eq": ["$x", null]})"), "false");
  EXPECT_EQ(Eval(R"({"$lt": ["$x", null]})"), "true");
  EXPECT_EQ(Eval(R"({"$eq": ["$x", "$y"]})"), "true");
  EXPECT_EQ(Eval(R"({"$gt": ["$x", {"$minKey": 1}]})"), "true");
  EXPECT_EQ(Eval(R"({"$eq": [1]})"),
            "error 16020: Expression $eq takes exactly 2 arguments. 1 were "
            "passed in.");
}

}  // namespace
}  // namespace agg
}  // namespace ttldb
