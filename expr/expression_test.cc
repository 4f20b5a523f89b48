// The expression core: parsing, field paths, variables, literals, object and
// array expressions, and the operator registry.
#include "expr/expression.h"

#include "expr/expr_test_util.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace agg {
namespace {

// src/mongo/db/pipeline/expression.cpp Expression::parseExpression: an
// unknown operator is 168 InvalidPipelineOperator.
TEST(ExpressionCore, UnknownOperator) {
  EXPECT_EQ(Eval(R"({"$nosuch": 1})"),
            "error 168: Unrecognized expression '$nosuch'");
}

// The built-ins are registered on first use, without static initializers:
// parsing an operator works in a binary that references nothing but
// ParseExpression.
TEST(ExpressionCore, BuiltinsRegisteredOnFirstUse) {
  EXPECT_EQ(Eval(R"({"$add": [1, 2]})"), "3");
}

// A parser registered by the user replaces a built-in of the same name.
absl::StatusOr<std::unique_ptr<Expression>> ParseFortyTwo(const Value&,
                                                          ParseContext* ctx) {
  return ParseExpression(Value::Int32(42), ctx);
}
TEST(ExpressionCore, UserRegistrationOverridesBuiltin) {
  RegisterOperator("$testFortyTwo", ParseFortyTwo);
  EXPECT_EQ(Eval(R"({"$testFortyTwo": 0})"), "42");
}

// expression.cpp parseExpression: an operator object has one field (15983).
TEST(ExpressionCore, OperatorObjectHasOneField) {
  EXPECT_EQ(Eval(R"({"$add": [1], "$multiply": [2]})").substr(0, 10),
            "error 1598");
}

// Manual, $literal: {$literal: "$1"} is the string, not a field path.
TEST(ExpressionCore, Literal) {
  EXPECT_EQ(Eval(R"({"$literal": "$1"})"), R"("$1")");
  EXPECT_EQ(Eval(R"({"$literal": {"$add": [1]}})"), R"({"$add":[1]})");
}

// Manual, "Expression Operators > Field Paths": "$a.b" through arrays.
TEST(ExpressionCore, FieldPaths) {
  EXPECT_EQ(Eval(R"("$a.b")", R"({"a": [{"b": 1}, {"c": 2}, {"b": 3}]})"),
            "[1,3]");
  EXPECT_EQ(Eval(R"("$x")", R"({"a": 1})"), "MISSING");
  EXPECT_EQ(Eval(R"(["$x", 1])", R"({"a": 1})"), "[null,1]");
  EXPECT_EQ(Eval(R"({"k": "$x", "j": "$a"})", R"({"a": 1})"), R"({"j":1})");
  EXPECT_EQ(Eval(R"("$$ROOT.a")", R"({"a": 7})"), "7");
  EXPECT_EQ(Eval(R"("$$NOW")"), R"({"$date":{"$numberLong":"1609459200000"}})");
  EXPECT_EQ(Eval(R"("$$nosuch")"),
            "error 17276: Use of undefined variable: nosuch");
}

// src/mongo/db/pipeline/expression.cpp ExpressionFieldPath::
// evaluatePathArray skips every array element that is not an object,
// nested arrays included.
TEST(ExpressionCore, FieldPathSkipsNestedArrays) {
  EXPECT_EQ(Eval(R"("$a.b")", R"({"a": [[{"b": 1}], {"b": 2}, 3]})"), "[2]");
}

TEST(ExpressionCore, Truthiness) {
  EXPECT_FALSE(IsTruthy(std::nullopt));
  EXPECT_FALSE(IsTruthy(Value::Int64(0)));
  EXPECT_TRUE(IsTruthy(Value::String("")));
  EXPECT_TRUE(IsTruthy(Value::MakeArray()));
}

}  // namespace
}  // namespace agg
}  // namespace ttldb
