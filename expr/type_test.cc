// Type operators. Expected answers from the MongoDB 8.0 manual pages
// (https://www.mongodb.com/docs/manual/reference/operator/aggregation/
// <op>/: $type, $toString, $toInt, $toLong, $toDouble, $toDecimal,
// $toBool, $toDate, $toObjectId, $convert, $isNumber) and, for errors,
// src/mongo/db/exec/expression/evaluate_math.cpp (ConversionTable).
#include "expr/expr_test_util.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace agg {
namespace {

// Manual $type "Example" table.
TEST(Type, TypeNames) {
  EXPECT_EQ(Eval(R"({"$type": "a"})"), R"("string")");
  EXPECT_EQ(Eval(R"({"$type": {"$literal": {"$regularExpression":
                   {"pattern": "a", "options": ""}}}})"),
            R"("regex")");
  EXPECT_EQ(Eval(R"({"$type": 1})"), R"("int")");
  EXPECT_EQ(Eval(R"({"$type": {"$numberLong": "627"}})"), R"("long")");
  EXPECT_EQ(Eval(R"({"$type": 2.0})"), R"("double")");
  EXPECT_EQ(Eval(R"({"$type": {"$literal": {"x": 1}}})"), R"("object")");
  EXPECT_EQ(Eval(R"({"$type": [[1, 2, 3]]})"), R"("array")");
  EXPECT_EQ(Eval(R"({"$type": "$missing"})"), R"("missing")");
  EXPECT_EQ(Eval(R"({"$type": null})"), R"("null")");
  EXPECT_EQ(Eval(R"({"$type": {"$numberDecimal": "1"}})"), R"("decimal")");
  EXPECT_EQ(Eval(R"({"$isNumber": {"$numberDecimal": "1"}})"), "true");
  EXPECT_EQ(Eval(R"({"$isNumber": "1"})"), "false");
}

// Manual $toString / $toInt / $toLong / $toDouble / $toDecimal examples.
TEST(Type, ToNumbersAndStrings) {
  EXPECT_EQ(Eval(R"({"$toString": 2.5})"), R"("2.5")");
  EXPECT_EQ(Eval(R"({"$toString": {"$numberLong": "12345"}})"), R"("12345")");
  EXPECT_EQ(Eval(R"({"$toString": true})"), R"("true")");
  EXPECT_EQ(Eval(R"({"$toString": {"$date": "2018-03-27T16:58:51.538Z"}})"),
            R"("2018-03-27T16:58:51.538Z")");
  EXPECT_EQ(Eval(R"({"$toString": {"$oid": "5ab9cbfa31c2ab715d42129e"}})"),
            R"("5ab9cbfa31c2ab715d42129e")");
  EXPECT_EQ(Eval(R"({"$toString": null})"), "null");
  EXPECT_EQ(Eval(R"({"$toInt": 2.5})"), "2");
  EXPECT_EQ(Eval(R"({"$toInt": true})"), "1");
  EXPECT_EQ(Eval(R"({"$toInt": "-2"})"), "-2");
  EXPECT_EQ(Eval(R"({"$toInt": {"$numberLong": "5000"}})"), "5000");
  EXPECT_EQ(Eval(R"({"$toInt": "5e2"})"),
            "error 241: Failed to parse number '5e2' in $convert with no "
            "onError value: Did not consume whole string.");
  EXPECT_EQ(Eval(R"({"$toInt": 3000000000.0})"),
            "error 241: Conversion would overflow target type in $convert with "
            "no onError value: 3e+09");
  EXPECT_EQ(Eval(R"({"$toLong": {"$date": "2018-03-26T04:38:28.044Z"}})"),
            R"({"$numberLong":"1522039108044"})");
  EXPECT_EQ(Eval(R"({"$toLong": "-2"})"), R"({"$numberLong":"-2"})");
  EXPECT_EQ(Eval(R"({"$toDouble": "5.5"})"), "5.5");
  EXPECT_EQ(Eval(R"({"$toDouble": true})"), "1.0");
  EXPECT_EQ(Eval(R"({"$toDouble": {"$date": "2018-03-26T04:38:28.044Z"}})"),
            "1522039108044.0");
  EXPECT_EQ(Eval(R"({"$toDecimal": true})"), R"({"$numberDecimal":"1"})");
  EXPECT_EQ(Eval(R"({"$toDecimal": 2.5})"),
            R"({"$numberDecimal":"2.50000000000000"})");
  EXPECT_EQ(Eval(R"({"$toDecimal": "-5.5"})"), R"({"$numberDecimal":"-5.5"})");
  EXPECT_EQ(Eval(R"({"$toInt": [1, 2]})"),
            "error 16020: Expression $toInt takes exactly 1 arguments. 2 were "
            "passed in.");
}

// Manual $toBool, $toDate, $toObjectId examples.
TEST(Type, ToBoolDateObjectId) {
  EXPECT_EQ(Eval(R"({"$toBool": "false"})"), "true");
  EXPECT_EQ(Eval(R"({"$toBool": ""})"), "true");
  EXPECT_EQ(Eval(R"({"$toBool": 0})"), "false");
  EXPECT_EQ(Eval(R"({"$toBool": null})"), "null");
  EXPECT_EQ(Eval(R"({"$toDate": 120000000000.5})"),
            R"({"$date":{"$numberLong":"120000000000"}})");
  EXPECT_EQ(Eval(R"({"$toDate": {"$numberLong": "1100000000000"}})"),
            R"({"$date":{"$numberLong":"1100000000000"}})");
  EXPECT_EQ(Eval(R"({"$toDate": {"$oid": "5ab9c3da31c2ab715d421285"}})"),
            R"({"$date":{"$numberLong":"1522123738000"}})");
  EXPECT_EQ(Eval(R"({"$toDate": "2018-03-03"})"),
            R"({"$date":{"$numberLong":"1520035200000"}})");
  EXPECT_EQ(Eval(R"({"$toDate": "2018-03-20 11:00:06 +0500"})"),
            R"({"$date":{"$numberLong":"1521525606000"}})");
  EXPECT_EQ(Eval(R"({"$toDate": 5})"),
            "error 241: Unsupported conversion from int to date in $convert "
            "with no onError value");
  EXPECT_EQ(Eval(R"({"$toObjectId": "5ab9cbfa31c2ab715d42129e"})"),
            R"({"$oid":"5ab9cbfa31c2ab715d42129e"})");
  EXPECT_EQ(Eval(R"({"$toObjectId": "x"})"),
            "error 241: Failed to parse objectId 'x' in $convert with no "
            "onError value: Invalid string length for parsing to OID, "
            "expected 24 but found 1");
}

// Manual $convert (onError "Error", onNull 0) and its argument errors.
TEST(Type, Convert) {
  const char* e = R"({"$convert": {"input": "$price", "to": "decimal",
      "onError": "Error", "onNull": {"$numberDecimal": "0"}}})";
  EXPECT_EQ(Eval(e, R"({"price": "abc"})"), R"("Error")");
  EXPECT_EQ(Eval(e, R"({"price": null})"), R"({"$numberDecimal":"0"})");
  EXPECT_EQ(Eval(e, R"({})"), R"({"$numberDecimal":"0"})");
  EXPECT_EQ(Eval(e, R"({"price": 10})"), R"({"$numberDecimal":"10"})");
  EXPECT_EQ(Eval(R"({"$convert": {"input": 1, "to": 2}})"), R"("1")");
  EXPECT_EQ(Eval(R"({"$convert": {"input": 1, "to": null}})"), "null");
  EXPECT_EQ(Eval(R"({"$convert": {"input": 1, "to": "nosuch"}})"),
            "error 2: Unknown type name: nosuch");
  EXPECT_EQ(Eval(R"({"$convert": {"input": 1}})"),
            "error 9: Missing 'to' parameter to $convert");
  EXPECT_EQ(Eval(R"({"$convert": {"input": 1, "to": "int", "x": 1}})"),
            "error 9: $convert found an unknown argument: x");
  EXPECT_EQ(Eval(R"({"$convert": {"input": [1], "to": "int"}})"),
            "error 241: Unsupported conversion from array to int in $convert "
            "with no onError value");
}

}  // namespace
}  // namespace agg
}  // namespace ttldb
