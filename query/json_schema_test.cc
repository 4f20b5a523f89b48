// $jsonSchema parsing, matching and explaining. The expected errInfo
// details are MongoDB's, from jstests/core/doc_validation/
// doc_validation_error.js ("Students collection", "array of enums", "Contacts"
// and "Contacts 2") and the rules of
// src/mongo/db/matcher/schema/json_schema_parser.cpp.
#include "query/json_schema.h"

#include "base/status.h"
#include "gtest/gtest.h"
#include "query/doc_validation_error.h"
#include "query/filter.h"
#include "query/test_doc.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

std::shared_ptr<const JsonSchema> Schema(const std::string& json) {
  auto s = JsonSchema::Parse(Doc(json));
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : nullptr;
}

int ParseCode(const std::string& json) {
  auto s = JsonSchema::Parse(Doc(json));
  return s.ok() ? 0 : ErrorCode(s.status());
}

TEST(JsonSchemaTest, Keywords) {
  auto s = Schema(R"({"bsonType": "object", "required": ["a"],
      "properties": {"a": {"bsonType": "int", "minimum": 1, "maximum": 5},
                     "b": {"type": "string", "minLength": 2,
                           "pattern": "^x"},
                     "c": {"bsonType": "array", "items": {"type": "number"},
                           "maxItems": 2, "uniqueItems": true}},
      "additionalProperties": false})");
  EXPECT_TRUE(s->Matches(Doc(R"({"a": {"$numberInt": "3"}})")));
  EXPECT_FALSE(s->Matches(Doc(R"({"a": 3.5})")));  // a double
  EXPECT_FALSE(s->Matches(Doc(R"({"b": "xy"})")));
  EXPECT_FALSE(s->Matches(Doc(R"({"a": {"$numberInt": "9"}})")));
  EXPECT_TRUE(s->Matches(Doc(R"({"a": {"$numberInt": "1"}, "b": "xyz",
                                 "c": [1, 2]})")));
  EXPECT_FALSE(s->Matches(Doc(R"({"a": {"$numberInt": "1"}, "b": "y"})")));
  EXPECT_FALSE(s->Matches(Doc(R"({"a": {"$numberInt": "1"}, "c": [1, 1]})")));
  EXPECT_FALSE(s->Matches(Doc(R"({"a": {"$numberInt": "1"}, "d": 1})")));
  // Keywords about another type hold for a value of any other type.
  auto m = Schema(R"({"properties": {"x": {"minimum": 5, "minLength": 3}}})");
  EXPECT_TRUE(m->Matches(Doc(R"({"x": "abc"})")));
  EXPECT_TRUE(m->Matches(Doc(R"({"x": 7})")));
  EXPECT_TRUE(m->Matches(Doc(R"({"x": [1]})")));
  EXPECT_FALSE(m->Matches(Doc(R"({"x": 4})")));
  auto logic = Schema(R"({"anyOf": [{"required": ["a"]}, {"required": ["b"]}],
                          "not": {"required": ["c"]}})");
  EXPECT_TRUE(logic->Matches(Doc(R"({"b": 1})")));
  EXPECT_FALSE(logic->Matches(Doc(R"({"x": 1})")));
  EXPECT_FALSE(logic->Matches(Doc(R"({"a": 1, "c": 1})")));
}

TEST(JsonSchemaTest, ParseErrors) {
  EXPECT_EQ(ParseCode(R"({"invalid": 1})"), kFailedToParse);
  EXPECT_EQ(ParseCode(R"({"$ref": "#/x"})"), kFailedToParse);
  EXPECT_EQ(ParseCode(R"({"minimum": "x"})"), kTypeMismatch);
  EXPECT_EQ(ParseCode(R"({"required": []})"), kFailedToParse);
  EXPECT_EQ(ParseCode(R"({"required": ["a", "a"]})"), kFailedToParse);
  EXPECT_EQ(ParseCode(R"({"bsonType": "nope"})"), kBadValue);
  EXPECT_EQ(ParseCode(R"({"type": "integer"})"), kFailedToParse);
  EXPECT_EQ(ParseCode(R"({"type": "object", "bsonType": "object"})"),
            kFailedToParse);
  EXPECT_EQ(ParseCode(R"({"exclusiveMinimum": true})"), kFailedToParse);
  EXPECT_EQ(ParseCode(R"({"multipleOf": 0})"), kFailedToParse);
  EXPECT_EQ(ParseCode(R"({"minLength": -1})"), kFailedToParse);
  auto top = JsonSchema::Parse(Value::Int32(1));
  EXPECT_EQ(ErrorCode(top.status()), kTypeMismatch);
}

// doc_validation_error.js, "Students collection".
TEST(JsonSchemaTest, ExplainStudents) {
  auto s = Schema(R"({"bsonType": "object",
      "required": ["name", "year", "major", "address"],
      "properties": {
        "name": {"bsonType": "string",
                 "description": "must be a string and is required"},
        "year": {"bsonType": "int", "minimum": 2017, "maximum": 3017,
                 "description": "must be an integer in [ 2017, 3017 ] and is required"},
        "major": {"enum": ["Math", "English", "Computer Science", "History", null],
                  "description": "can only be one of the enum values and is required"},
        "gpa": {"bsonType": ["double"],
                "description": "must be a double if the field exists"},
        "address": {"bsonType": "object", "required": ["city"],
          "properties": {
            "street": {"bsonType": "string",
                       "description": "must be a string if the field exists"},
            "city": {"bsonType": "string",
                     "description": "must be a string and is required"}}}}})");
  Value doc = Doc(R"({"year": {"$numberInt": "2020"},
      "major": "Software Engineering", "gpa": 5.0,
      "address": {"city": "NYC", "street": {"$numberInt": "5"}}})");
  ASSERT_FALSE(s->Matches(doc));
  EXPECT_EQ(
      ToJson(s->Explain(doc)),
      ToJson(Doc(R"({"operatorName": "$jsonSchema", "schemaRulesNotSatisfied": [
        {"operatorName": "properties", "propertiesNotSatisfied": [
          {"propertyName": "major",
           "description": "can only be one of the enum values and is required",
           "details": [{"operatorName": "enum",
             "specifiedAs": {"enum": ["Math", "English", "Computer Science", "History", null]},
             "reason": "value was not found in enum",
             "consideredValue": "Software Engineering"}]},
          {"propertyName": "address", "details": [
            {"operatorName": "properties", "propertiesNotSatisfied": [
              {"propertyName": "street",
               "description": "must be a string if the field exists",
               "details": [{"operatorName": "bsonType",
                 "specifiedAs": {"bsonType": "string"},
                 "reason": "type did not match",
                 "consideredValue": {"$numberInt": "5"},
                 "consideredType": "int"}]}]}]}]},
        {"operatorName": "required",
         "specifiedAs": {"required": ["name", "year", "major", "address"]},
         "missingProperties": ["name"]}]})")));
}

// doc_validation_error.js, "array of enums".
TEST(JsonSchemaTest, ExplainUniqueItems) {
  auto s = Schema(R"({"properties": {"values": {"bsonType": "array",
      "items": {"bsonType": "string", "enum": ["one", "two", "three"]},
      "minItems": 1, "uniqueItems": true}}})");
  Value doc = Doc(R"({"values": ["two", "two"]})");
  ASSERT_FALSE(s->Matches(doc));
  EXPECT_EQ(ToJson(s->Explain(doc)),
            ToJson(Doc(R"({"operatorName": "$jsonSchema",
      "schemaRulesNotSatisfied": [{"operatorName": "properties",
        "propertiesNotSatisfied": [{"propertyName": "values", "details": [
          {"operatorName": "uniqueItems", "specifiedAs": {"uniqueItems": true},
           "reason": "found a duplicate item",
           "consideredValue": ["two", "two"], "duplicatedValue": "two"}]}]}]})")));
}

// doc_validation_error.cpp's minimum error: specifiedAs names the bound and
// the exclusive flag.
TEST(JsonSchemaTest, ExplainExclusiveMinimum) {
  auto s = Schema(R"({"properties": {"year": {"minimum": 2017,
                                              "exclusiveMinimum": true}}})");
  Value doc = Doc(R"({"year": 2017})");
  ASSERT_FALSE(s->Matches(doc));
  EXPECT_EQ(ToJson(s->Explain(doc)),
            ToJson(Doc(R"({"operatorName": "$jsonSchema",
      "schemaRulesNotSatisfied": [{"operatorName": "properties",
        "propertiesNotSatisfied": [{"propertyName": "year", "details": [
          {"operatorName": "minimum",
           "specifiedAs": {"minimum": 2017, "exclusiveMinimum": true},
           "reason": "comparison failed", "consideredValue": 2017}]}]}]})")));
}

// doc_validation_error.js, "Contacts": a query-operator validator.
TEST(DocValidationErrorTest, ExplainOr) {
  auto f = Filter::Parse(Doc(R"({"$or": [{"phone": {"$type": "string"}},
      {"email": {"$regex": "@mongodb\\.com$"}},
      {"status": {"$in": ["Unknown", "Incomplete"]}}]})"));
  ASSERT_TRUE(f.ok()) << f.status();
  Value doc = Doc(R"({"email": "info@mongodb.co"})");
  ASSERT_FALSE(f->Matches(doc));
  EXPECT_EQ(ToJson(DocValidationDetails(*f, doc)),
            ToJson(Doc(R"({"operatorName": "$or", "clausesNotSatisfied": [
      {"index": {"$numberInt": "0"}, "details": {"operatorName": "$type",
        "specifiedAs": {"phone": {"$type": "string"}},
        "reason": "field was missing"}},
      {"index": {"$numberInt": "1"}, "details": {"operatorName": "$regex",
        "specifiedAs": {"email": {"$regex": {"$regularExpression":
            {"pattern": "@mongodb\\.com$", "options": ""}}}},
        "reason": "regular expression did not match",
        "consideredValue": "info@mongodb.co"}},
      {"index": {"$numberInt": "2"}, "details": {"operatorName": "$in",
        "specifiedAs": {"status": {"$in": ["Unknown", "Incomplete"]}},
        "reason": "field was missing"}}]})")));
}

// doc_validation_options.js: {a: 1} on {a: 2}.
TEST(DocValidationErrorTest, ExplainImplicitEquality) {
  auto f = Filter::Parse(Doc(R"({"a": 1})"));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(ToJson(DocValidationDetails(*f, Doc(R"({"_id": 1, "a": 2})"))),
            ToJson(Doc(R"({"operatorName": "$eq", "specifiedAs": {"a": 1},
                           "reason": "comparison failed",
                           "consideredValue": 2})")));
}

TEST(JsonSchemaTest, FilterOperator) {
  auto f = Filter::Parse(Doc(R"({"$jsonSchema": {"required": ["a"]},
                                 "b": 1})"));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(f->Matches(Doc(R"({"a": 0, "b": 1})")));
  EXPECT_FALSE(f->Matches(Doc(R"({"b": 1})")));
  auto nested = Filter::Parse(Doc(R"({"x": {"$elemMatch":
                                      {"$jsonSchema": {}}}})"));
  EXPECT_FALSE(nested.ok());
  auto bad = Filter::Parse(Doc(R"({"$jsonSchema": {"foo": 1}})"));
  EXPECT_EQ(ErrorCode(bad.status()), kFailedToParse);
}

}  // namespace
}  // namespace ttldb
