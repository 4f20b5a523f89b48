// Trigonometry, $replaceOne/$replaceAll, $zip, $firstN/$lastN, $rand,
// $tsSecond/$tsIncrement, $bsonSize, $binarySize. Expected answers from the
// MongoDB 8.0 manual pages (https://www.mongodb.com/docs/manual/reference/
// operator/aggregation/<op>/).
#include "expr/expr_test_util.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace agg {
namespace {

// Manual $sin/$degreesToRadians/$acos ("Behavior": null gives null, values
// outside the domain are an error).
TEST(MoreOps, Trigonometry) {
  EXPECT_EQ(Eval(R"({"$sin": 0})"), "0.0");
  EXPECT_EQ(Eval(R"({"$cos": 0})"), "1.0");
  EXPECT_EQ(Eval(R"({"$degreesToRadians": 180})"), "3.141592653589793");
  EXPECT_EQ(Eval(R"({"$radiansToDegrees": 0})"), "0.0");
  EXPECT_EQ(Eval(R"({"$atan2": [1, 1]})"), "0.7853981633974483");
  EXPECT_EQ(Eval(R"({"$sin": null})"), "null");
  EXPECT_EQ(Eval(R"({"$acos": 2})"),
            "error 50989: cannot apply $acos to 2, value must in [-1,1]");
  EXPECT_EQ(Eval(R"({"$sin": "x"})"),
            "error 28765: $sin only supports numeric types, not string");
}

// Manual $replaceOne / $replaceAll ("blue paint" example).
TEST(MoreOps, Replace) {
  const char* doc = R"({"item": "blue paint with blue paintbrush"})";
  EXPECT_EQ(Eval(R"({"$replaceOne": {"input": "$item", "find": "blue paint",
                                     "replacement": "red paint"}})",
                 doc),
            R"("red paint with blue paintbrush")");
  EXPECT_EQ(Eval(R"({"$replaceAll": {"input": "$item", "find": "blue paint",
                                     "replacement": "red paint"}})",
                 doc),
            R"("red paint with red paintbrush")");
  EXPECT_EQ(Eval(R"({"$replaceAll": {"input": null, "find": "a",
                                     "replacement": "b"}})"),
            "null");
  EXPECT_EQ(Eval(R"({"$replaceAll": {"input": 1, "find": "a",
                                     "replacement": "b"}})"),
            "error 51746: $replaceAll requires that 'input' be a string, "
            "found: 1");
  EXPECT_EQ(Eval(R"({"$replaceOne": {"input": "a", "find": "a"}})"),
            "error 51747: $replaceOne requires 'replacement' to be specified");
}

// Manual $zip "Behavior" table.
TEST(MoreOps, Zip) {
  EXPECT_EQ(Eval(R"({"$zip": {"inputs": [["a"], ["b"], ["c"]]}})"),
            R"([["a","b","c"]])");
  EXPECT_EQ(Eval(R"({"$zip": {"inputs": [["a"], ["b", "c"]]}})"),
            R"([["a","b"]])");
  EXPECT_EQ(Eval(R"({"$zip": {"inputs": [[1], [2, 3]],
                              "useLongestLength": true}})"),
            "[[1,2],[null,3]]");
  EXPECT_EQ(Eval(R"({"$zip": {"inputs": [[1], [2, 3], [4]],
                              "useLongestLength": true,
                              "defaults": ["a", "b", "c"]}})"),
            R"([[1,2,4],["a",3,"c"]])");
  EXPECT_EQ(Eval(R"({"$zip": {"inputs": [[1], null]}})"), "null");
  EXPECT_EQ(Eval(R"({"$zip": {"inputs": []}})"),
            "error 34465: $zip requires at least one input array");
}

// Manual $firstN / $lastN (array operators).
TEST(MoreOps, FirstNLastN) {
  EXPECT_EQ(Eval(R"({"$firstN": {"n": 2, "input": [10, 20, 30]}})"), "[10,20]");
  EXPECT_EQ(Eval(R"({"$lastN": {"n": 2, "input": [10, 20, 30]}})"), "[20,30]");
  EXPECT_EQ(Eval(R"({"$firstN": {"n": 5, "input": [10]}})"), "[10]");
  EXPECT_EQ(Eval(R"({"$firstN": {"n": 0, "input": [10]}})"),
            "error 5787908: 'n' must be greater than 0, found 0");
}

// Manual $tsSecond / $tsIncrement (Timestamp(1622731060, 10)), $bsonSize,
// $binarySize, $rand.
TEST(MoreOps, Misc) {
  const char* doc = R"({"ts": {"$timestamp": {"t": 1622731060, "i": 10}}})";
  EXPECT_EQ(Eval(R"({"$tsSecond": "$ts"})", doc),
            R"({"$numberLong":"1622731060"})");
  EXPECT_EQ(Eval(R"({"$tsIncrement": "$ts"})", doc), R"({"$numberLong":"10"})");
  EXPECT_EQ(Eval(R"({"$bsonSize": {"$literal": {}}})"), "5");
  EXPECT_EQ(Eval(R"({"$bsonSize": "$$ROOT"})", R"({"a": 1})"), "12");
  EXPECT_EQ(Eval(R"({"$binarySize": "cafétéria"})"), "11");
  std::string r = Eval(R"({"$rand": {}})");
  double d = std::stod(r);
  EXPECT_GE(d, 0.0);
  EXPECT_LT(d, 1.0);
  EXPECT_EQ(Eval(R"({"$rand": {"a": 1}})"),
            "error 3040501: $rand does not currently accept arguments");
}

}  // namespace
}  // namespace agg
}  // namespace ttldb
