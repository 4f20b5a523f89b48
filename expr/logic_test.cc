// Boolean, conditional and variable operators. Expected answers from the
// MongoDB 8.0 manual pages (https://www.mongodb.com/docs/manual/reference/
// operator/aggregation/<op>/) and, for errors, src/mongo/db/pipeline/
// expression.cpp (ExpressionCond/ExpressionSwitch/ExpressionLet::parse).
#include "expr/expr_test_util.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace agg {
namespace {

// Manual $and ("Behavior" table) and the qty example.
TEST(Boolean, And) {
  EXPECT_EQ(Eval(R"({"$and": [1, "green"]})"), "true");
  EXPECT_EQ(Eval(R"({"$and": []})"), "true");
  EXPECT_EQ(Eval(R"({"$and": [[null], [false], [0]]})"), "true");
  EXPECT_EQ(Eval(R"({"$and": [null, true]})"), "false");
  EXPECT_EQ(Eval(R"({"$and": [0, true]})"), "false");
  EXPECT_EQ(
      Eval(R"({"$and": [{"$gt": ["$qty", 100]}, {"$lt": ["$qty", 250]}]})",
           R"({"qty": 200})"),
      "true");
  // Short-circuit: the error after a false argument is never reached.
  EXPECT_EQ(Eval(R"({"$and": [false, {"$divide": [1, 0]}]})"), "false");
}

// Manual $or and $not ("Behavior").
TEST(Boolean, OrNot) {
  EXPECT_EQ(Eval(R"({"$or": [true, false]})"), "true");
  EXPECT_EQ(Eval(R"({"$or": [[false], false]})"), "true");
  EXPECT_EQ(Eval(R"({"$or": [null, 0, "$missing"]})"), "false");
  EXPECT_EQ(Eval(R"({"$or": [true, {"$divide": [1, 0]}]})"), "true");
  EXPECT_EQ(Eval(R"({"$not": [true]})"), "false");
  EXPECT_EQ(Eval(R"({"$not": [[false]]})"), "false");
  EXPECT_EQ(Eval(R"({"$not": [false]})"), "true");
  EXPECT_EQ(Eval(R"({"$not": [null]})"), "true");
  EXPECT_EQ(Eval(R"({"$not": [0]})"), "true");
  EXPECT_EQ(Eval(R"({"$not": [1, 2]})"),
            "error 16020: Expression $not takes exactly 1 arguments. 2 were "
            "passed in.");
}

// Manual $cond: qty >= 250 gives discount 30, else 20 (both forms).
TEST(Conditional, Cond) {
  const char* obj =
      R"({"$cond": {"if": {"$gte": ["$qty", 250]}, "then": 30, "else": 20}})";
  const char* arr = R"({"$cond": [{"$gte": ["$qty", 250]}, 30, 20]})";
  EXPECT_EQ(Eval(obj, R"({"qty": 300})"), "30");
  EXPECT_EQ(Eval(obj, R"({"qty": 200})"), "20");
  EXPECT_EQ(Eval(arr, R"({"qty": 250})"), "30");
  EXPECT_EQ(Eval(R"({"$cond": {"then": 1, "else": 2}})"),
            "error 17080: Missing 'if' parameter to $cond");
  EXPECT_EQ(Eval(R"({"$cond": {"if": 1, "else": 2}})"),
            "error 17081: Missing 'then' parameter to $cond");
  EXPECT_EQ(Eval(R"({"$cond": {"if": 1, "then": 2}})"),
            "error 17082: Missing 'else' parameter to $cond");
  EXPECT_EQ(Eval(R"({"$cond": {"if": 1, "then": 2, "else": 3, "x": 4}})"),
            "error 17083: Unrecognized parameter to $cond: x");
  EXPECT_EQ(Eval(R"({"$cond": [1, 2]})"),
            "error 16020: Expression $cond takes exactly 3 arguments. 2 were "
            "passed in.");
  // Only the chosen branch runs.
  EXPECT_EQ(Eval(R"({"$cond": [true, 1, {"$divide": [1, 0]}]})"), "1");
}

// Manual $ifNull: "Single Input Expression" and "Multiple Input
// Expressions" (description null, quantity 20 -> 20).
TEST(Conditional, IfNull) {
  EXPECT_EQ(Eval(R"({"$ifNull": ["$description", "Unspecified"]})",
                 R"({"description": null})"),
            R"("Unspecified")");
  EXPECT_EQ(Eval(R"({"$ifNull": ["$description", "Unspecified"]})",
                 R"({"description": "product 1"})"),
            R"("product 1")");
  EXPECT_EQ(Eval(R"({"$ifNull": ["$description", "$quantity", "Unspecified"]})",
                 R"({"quantity": 20})"),
            "20");
  EXPECT_EQ(Eval(R"({"$ifNull": [null, "$nothing"]})"), "MISSING");
  EXPECT_EQ(Eval(R"({"$ifNull": [1]})"),
            "error 1257300: $ifNull needs at least two arguments, had: 1");
}

// Manual $switch (the grades example and the Behavior table) and its
// errors (expression.cpp ExpressionSwitch).
TEST(Conditional, Switch) {
  const char* sw = R"({"$switch": {"branches": [
      {"case": {"$gte": [{"$avg": "$scores"}, 90]}, "then": "Doing great!"},
      {"case": {"$and": [{"$gte": [{"$avg": "$scores"}, 80]},
                         {"$lt": [{"$avg": "$scores"}, 90]}]},
       "then": "Doing pretty well."},
      {"case": {"$lt": [{"$avg": "$scores"}, 80]},
       "then": "Needs improvement."}],
    "default": "No scores found."}})";
  EXPECT_EQ(Eval(sw, R"({"scores": [87, 86, 78]})"), R"("Doing pretty well.")");
  EXPECT_EQ(Eval(sw, R"({"scores": [71, 64, 89]})"), R"("Needs improvement.")");
  EXPECT_EQ(Eval(sw, R"({"scores": [91, 84, 97]})"), R"("Doing great!")");
  // The manual's table: "less than", "Did not match", "First case".
  EXPECT_EQ(Eval(R"({"$switch": {"branches": [
      {"case": {"$eq": [0, 5]}, "then": "equals"},
      {"case": {"$gt": [0, 5]}, "then": "greater than"},
      {"case": {"$lt": [0, 5]}, "then": "less than"}]}})"),
            R"("less than")");
  EXPECT_EQ(Eval(R"({"$switch": {"branches": [
      {"case": {"$eq": [0, 5]}, "then": "equals"}],
      "default": "Did not match"}})"),
            R"("Did not match")");
  EXPECT_EQ(Eval(R"({"$switch": {"branches": [
      {"case": "this is true", "then": "first case"},
      {"case": false, "then": "second case"}],
      "default": "Did not match"}})"),
            R"("first case")");
  EXPECT_EQ(Eval(R"({"$switch": {"branches": [{"case": false, "then": 1}]}})"),
            "error 40066: $switch could not find a matching branch for an "
            "input, and no default was specified.");
  EXPECT_EQ(Eval(R"({"$switch": {"branches": []}})"),
            "error 40068: $switch requires at least one branch.");
  EXPECT_EQ(Eval(R"({"$switch": {"branches": [{"then": 1}]}})"),
            "error 40064: $switch requires each branch have a 'case' "
            "expression");
  EXPECT_EQ(Eval(R"({"$switch": {"branches": [], "x": 1}})"),
            "error 40067: $switch found an unknown argument: x");
}

// Manual $let: total 10.5 * 0.9 (a double).
TEST(Variables, Let) {
  EXPECT_EQ(Eval(R"({"$let": {
      "vars": {"total": {"$add": ["$price", "$tax"]},
               "discounted": {"$cond": {"if": "$applyDiscount", "then": 0.9,
                                        "else": 1}}},
      "in": {"$multiply": ["$$total", "$$discounted"]}}})",
                 R"({"price": 10, "tax": 0.50, "applyDiscount": true})"),
            "9.450000000000001");
  // Inner bindings shadow outer ones; vars see only the outer scope.
  EXPECT_EQ(Eval(R"({"$let": {"vars": {"x": 1}, "in": {"$let": {
      "vars": {"x": {"$add": ["$$x", 10]}}, "in": "$$x"}}}})"),
            "11");
  EXPECT_EQ(Eval(R"({"$let": {"vars": {"x": 1}, "in": "$$y"}})"),
            "error 17276: Use of undefined variable: y");
  EXPECT_EQ(Eval(R"({"$let": {"vars": {"X": 1}, "in": 1}})"),
            "error 16867: 'X' starts with an invalid character for a user "
            "variable name");
  EXPECT_EQ(Eval(R"({"$let": {"in": 1}})"),
            "error 16876: Missing 'vars' parameter to $let");
  EXPECT_EQ(Eval(R"({"$let": {"vars": {}}})"),
            "error 16877: Missing 'in' parameter to $let");
  EXPECT_EQ(Eval(R"({"$let": {"vars": {}, "in": 1, "z": 2}})"),
            "error 16875: Unrecognized parameter to $let: z");
  // The variable is out of scope after the $let.
  EXPECT_EQ(Eval(R"([{"$let": {"vars": {"v": 1}, "in": "$$v"}}, "$$v"])"),
            "error 17276: Use of undefined variable: v");
}

// $$REMOVE is missing (manual, "Variables in Aggregation Expressions").
TEST(Variables, Remove) {
  EXPECT_EQ(Eval(R"({"a": "$$REMOVE", "b": 1})"), R"({"b":1})");
  EXPECT_EQ(Eval(R"({"$cond": [true, "$$REMOVE", 1]})"), "MISSING");
}

}  // namespace
}  // namespace agg
}  // namespace ttldb
