// Arithmetic operators. Expected answers from the MongoDB 8.0 manual pages
// (https://www.mongodb.com/docs/manual/reference/operator/aggregation/<op>/)
// and, for type promotion and errors, src/mongo/db/exec/expression/
// evaluate_math.cpp (AddState, MultiplyState, evaluateSubtract,
// evaluateDivide, evaluateMod, evaluateRoundOrTrunc).
#include "expr/expr_test_util.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace agg {
namespace {

// Manual $add: "Add Numbers" (price 10 + fee 2 = 12) and "Perform Addition
// on a Date" (date + 3 days in ms).
TEST(Arithmetic, AddManualExamples) {
  EXPECT_EQ(
      Eval(R"({"$add": ["$price", "$fee"]})", R"({"price": 10, "fee": 2})"),
      "12");
  EXPECT_EQ(Eval(R"({"$add": ["$date", 259200000]})",
                 R"({"date": {"$date": "2014-03-01T08:00:00Z"}})"),
            R"({"$date":{"$numberLong":"1393920000000"}})");
}

// evaluate_math.cpp AddState: int overflow -> long, long overflow ->
// double, double -> double, decimal wins, null/missing -> null, a second
// date is 16612, a string TypeMismatch (14).
TEST(Arithmetic, AddTypePromotion) {
  EXPECT_EQ(Eval(R"({"$add": [2147483647, 1]})"),
            R"({"$numberLong":"2147483648"})");
  EXPECT_EQ(Eval(R"({"$add": [1, {"$numberLong": "2"}]})"),
            R"({"$numberLong":"3"})");
  EXPECT_EQ(Eval(R"({"$add": [{"$numberLong": "9223372036854775807"}, 1]})"),
            "9223372036854775808.0");
  EXPECT_EQ(Eval(R"({"$add": [1, 0.5]})"), "1.5");
  EXPECT_EQ(Eval(R"({"$add": [1, {"$numberDecimal": "0.5"}]})"),
            R"({"$numberDecimal":"1.5"})");
  EXPECT_EQ(Eval(R"({"$add": [1, null]})"), "null");
  EXPECT_EQ(Eval(R"({"$add": [1, "$missing"]})"), "null");
  EXPECT_EQ(Eval(R"({"$add": []})"), "0");
  EXPECT_EQ(Eval(R"({"$add": [1, "a"]})"),
            "error 14: $add only supports numeric or date types, not string");
  EXPECT_EQ(Eval(R"({"$add": [null, "a"]})"), "null");
  EXPECT_EQ(Eval(R"({"$add": ["$d", "$d"]})", R"({"d": {"$date": 0}})"),
            "error 16612: only one date allowed in an $add expression");
  // A double added to a date is rounded to whole milliseconds.
  EXPECT_EQ(Eval(R"({"$add": ["$d", 1.5]})", R"({"d": {"$date": 0}})"),
            R"({"$date":{"$numberLong":"2"}})");
}

// Manual $subtract: date - date is milliseconds (a long), date - number a
// date; evaluate_math.cpp evaluateSubtract for the rest.
TEST(Arithmetic, Subtract) {
  EXPECT_EQ(Eval(R"({"$subtract": ["$a", "$b"]})",
                 R"({"a": {"$date": "2014-03-01T08:00:00Z"},
                     "b": {"$date": "2014-03-01T07:00:00Z"}})"),
            R"({"$numberLong":"3600000"})");
  EXPECT_EQ(Eval(R"({"$subtract": ["$a", 300000]})",
                 R"({"a": {"$date": "2014-03-01T08:00:00Z"}})"),
            R"({"$date":{"$numberLong":"1393660500000"}})");
  EXPECT_EQ(Eval(R"({"$subtract": [5, 3]})"), "2");
  EXPECT_EQ(Eval(R"({"$subtract": [-2147483648, 1]})"),
            R"({"$numberLong":"-2147483649"})");
  EXPECT_EQ(Eval(R"({"$subtract": [5, 0.5]})"), "4.5");
  EXPECT_EQ(Eval(R"({"$subtract": [5, null]})"), "null");
  EXPECT_EQ(Eval(R"({"$subtract": [5, "a"]})"),
            "error 14: can't $subtract string from int");
  EXPECT_EQ(Eval(R"({"$subtract": ["$a", "x"]})", R"({"a": {"$date": 0}})"),
            "error 14: can't $subtract string from Date");
  EXPECT_EQ(Eval(R"({"$subtract": [1]})"),
            "error 16020: Expression $subtract takes exactly 2 arguments. 1 "
            "were passed in.");
}

// Manual $multiply (price 10 * quantity 2 = 20); MultiplyState overflow.
TEST(Arithmetic, Multiply) {
  EXPECT_EQ(Eval(R"({"$multiply": ["$price", "$quantity"]})",
                 R"({"price": 10, "quantity": 2})"),
            "20");
  EXPECT_EQ(Eval(R"({"$multiply": [65536, 65536]})"),
            R"({"$numberLong":"4294967296"})");
  EXPECT_EQ(Eval(R"({"$multiply": [{"$numberLong": "4294967296"},
                                   {"$numberLong": "4294967296"}]})"),
            "18446744073709551616.0");
  EXPECT_EQ(Eval(R"({"$multiply": [2, {"$numberDecimal": "1.5"}]})"),
            R"({"$numberDecimal":"3.0"})");
  EXPECT_EQ(Eval(R"({"$multiply": [2, true]})"),
            "error 14: $multiply only supports numeric types, not bool");
}

// Manual $divide ({$divide: ["$hours", 8]}, hours 80 -> 10, a double) and
// evaluateDivide: by zero is BadValue (2).
TEST(Arithmetic, Divide) {
  EXPECT_EQ(Eval(R"({"$divide": ["$hours", 8]})", R"({"hours": 80})"), "10.0");
  EXPECT_EQ(Eval(R"({"$divide": [1, 0]})"), "error 2: can't $divide by zero");
  EXPECT_EQ(Eval(R"({"$divide": [1, {"$numberDecimal": "4"}]})"),
            R"({"$numberDecimal":"0.25"})");
  EXPECT_EQ(Eval(R"({"$divide": [1, null]})"), "null");
  EXPECT_EQ(
      Eval(R"({"$divide": ["a", 1]})"),
      "error 14: $divide only supports numeric types, not string and int");
}

// Manual $mod (hours 80 mod tasks 7 = 3; "Negative Dividend": -5 mod 3 =
// -2) and evaluateMod.
TEST(Arithmetic, Mod) {
  EXPECT_EQ(
      Eval(R"({"$mod": ["$hours", "$tasks"]})", R"({"hours": 80, "tasks": 7})"),
      "3");
  EXPECT_EQ(Eval(R"({"$mod": [-5, 3]})"), "-2");
  EXPECT_EQ(Eval(R"({"$mod": [5.5, 2]})"), "1.5");
  EXPECT_EQ(Eval(R"({"$mod": [{"$numberLong": "5"}, 3]})"),
            R"({"$numberLong":"2"})");
  EXPECT_EQ(Eval(R"({"$mod": [5, 0]})"), "error 16610: can't $mod by zero");
}

// Manual $abs, $ceil, $floor, $sqrt, $exp, $ln, $log, $log10, $pow.
TEST(Arithmetic, SingleArgument) {
  EXPECT_EQ(Eval(R"({"$abs": -5})"), "5");
  EXPECT_EQ(Eval(R"({"$abs": -2147483648})"),
            R"({"$numberLong":"2147483648"})");
  EXPECT_EQ(Eval(R"({"$abs": null})"), "null");
  EXPECT_EQ(Eval(R"({"$abs": "x"})"),
            "error 28765: $abs only supports numeric types, not string");
  EXPECT_EQ(Eval(R"({"$ceil": 7.80})"), "8.0");
  EXPECT_EQ(Eval(R"({"$ceil": -2.8})"), "-2.0");
  EXPECT_EQ(Eval(R"({"$ceil": 1})"), "1");
  EXPECT_EQ(Eval(R"({"$floor": 7.80})"), "7.0");
  EXPECT_EQ(Eval(R"({"$floor": -2.8})"), "-3.0");
  EXPECT_EQ(Eval(R"({"$sqrt": 25})"), "5.0");
  EXPECT_EQ(Eval(R"({"$sqrt": -1})"),
            "error 28714: $sqrt's argument must be greater than or equal to 0");
  EXPECT_EQ(Eval(R"({"$exp": 0})"), "1.0");
  EXPECT_EQ(Eval(R"({"$ln": 1})"), "0.0");
  EXPECT_EQ(Eval(R"({"$ln": 0})"),
            "error 28766: $ln's argument must be a positive number, but is 0");
  EXPECT_EQ(Eval(R"({"$log": [100, 10]})"), "2.0");
  EXPECT_EQ(Eval(R"({"$log": [100, 1]})"),
            "error 28759: $log's base must be a positive number not equal to "
            "1, but is 1");
  EXPECT_EQ(Eval(R"({"$log10": 100})"), "2.0");
  EXPECT_EQ(Eval(R"({"$pow": [5, 2]})"), "25");
  EXPECT_EQ(Eval(R"({"$pow": [2, 40]})"), R"({"$numberLong":"1099511627776"})");
  EXPECT_EQ(Eval(R"({"$pow": [2, -1]})"), "0.5");
  EXPECT_EQ(Eval(R"({"$pow": [-1, -3]})"), "-1");
  EXPECT_EQ(
      Eval(R"({"$pow": [0, -1]})"),
      "error 28764: $pow cannot take a base of 0 and a negative exponent");
}

// Manual $round ("Example": 19.25 -> 19.2 at place 1, -45.39 -> -45.4;
// place -1: 19.25 -> 20, -45.39 -> -50; "Round to Even": 1.5 and 2.5 -> 2)
// and $trunc (19.25 -> 19.2; place -1: 19.25 -> 10, -45.39 -> -40).
TEST(Arithmetic, RoundAndTrunc) {
  EXPECT_EQ(Eval(R"({"$round": [19.25, 1]})"), "19.2");
  EXPECT_EQ(Eval(R"({"$round": [-45.39, 1]})"), "-45.4");
  EXPECT_EQ(Eval(R"({"$round": [19.25, -1]})"), "20.0");
  EXPECT_EQ(Eval(R"({"$round": [-45.39, -1]})"), "-50.0");
  EXPECT_EQ(Eval(R"({"$round": [1.5]})"), "2.0");
  EXPECT_EQ(Eval(R"({"$round": [2.5]})"), "2.0");
  EXPECT_EQ(Eval(R"({"$round": [1234, -2]})"), "1200");
  EXPECT_EQ(Eval(R"({"$round": [1234, 2]})"), "1234");
  EXPECT_EQ(Eval(R"({"$round": [{"$numberDecimal": "1.2345"}, 2]})"),
            R"({"$numberDecimal":"1.23"})");
  EXPECT_EQ(Eval(R"({"$trunc": [19.25, 1]})"), "19.2");
  EXPECT_EQ(Eval(R"({"$trunc": [19.25, -1]})"), "10.0");
  EXPECT_EQ(Eval(R"({"$trunc": [-45.39, -1]})"), "-40.0");
  EXPECT_EQ(Eval(R"({"$round": [1, 101]})"),
            "error 51083: cannot apply $round with precision value 101 value "
            "must be in [-20, 100]");
  EXPECT_EQ(Eval(R"({"$round": [null, 1]})"), "null");
}

// The manual's bitwise examples (reference/operator/aggregation/bitAnd/,
// bitOr/, bitXor/, bitNot/: a = 0, 2, 3 as int; b as long) and
// expression.cpp's errors.
TEST(Arithmetic, Bitwise) {
  EXPECT_EQ(Eval(R"({"$bitAnd": ["$a", "$b"]})",
                 R"({"a": 0, "b": {"$numberLong": "127"}})"),
            R"({"$numberLong":"0"})");
  EXPECT_EQ(Eval(R"({"$bitAnd": ["$a", 3]})", R"({"a": 2})"), "2");
  EXPECT_EQ(Eval(R"({"$bitOr": ["$a", 4]})", R"({"a": 3})"), "7");
  EXPECT_EQ(Eval(R"({"$bitXor": ["$a", 1]})", R"({"a": 3})"), "2");
  EXPECT_EQ(Eval(R"({"$bitNot": "$a"})", R"({"a": 3})"), "-4");
  EXPECT_EQ(Eval(R"({"$bitNot": {"$numberLong": "0"}})"),
            R"({"$numberLong":"-1"})");
  EXPECT_EQ(Eval(R"({"$bitAnd": []})"), "-1");
  EXPECT_EQ(Eval(R"({"$bitOr": []})"), "0");
  EXPECT_EQ(Eval(R"({"$bitAnd": [1, null]})"), "null");
  EXPECT_EQ(Eval(R"({"$bitOr": [1, "$missing"]})"), "null");
  EXPECT_EQ(Eval(R"({"$bitNot": null})"), "null");
  EXPECT_EQ(Eval(R"({"$bitAnd": 1.5})"),
            "error 14: $bitAnd only supports int and long operands.");
  EXPECT_EQ(Eval(R"({"$bitXor": [1, "abc"]})"),
            "error 14: $bitXor only supports int and long operands.");
  EXPECT_EQ(Eval(R"({"$bitNot": 1.5})"),
            "error 14: $bitNot only supports int and long, not: double.");
  EXPECT_EQ(Eval(R"({"$bitNot": "abc"})"),
            "error 28765: $bitNot only supports numeric types, not string");
}

}  // namespace
}  // namespace agg
}  // namespace ttldb
