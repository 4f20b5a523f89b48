// Document validation through the public API: validator, validationLevel,
// validationAction, bypassDocumentValidation, the 121 error's errInfo and
// collMod. Expected answers: MongoDB's jstests/core/doc_validation/
// doc_validation_options.js (strict default, warn, moderate "bad -> bad is
// ok", errInfo {failingDocumentId: 1, details: {operatorName: "$eq",
// specifiedAs: {a: 1}, reason: "comparison failed", consideredValue: 2}}),
// bypass_doc_validation.js and doc_validation_invalid_validators.js.
#include <string>
#include <vector>

#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "ttldb/document_validation_error.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

Value Json(const std::string& text) {
  auto v = ParseDocument(text);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : Value();
}

ValidationOptions Validator(const std::string& json, std::string level = "",
                            std::string action = "") {
  ValidationOptions o;
  o.validator = Json(json);
  o.validation_level = std::move(level);
  o.validation_action = std::move(action);
  return o;
}

using ValidationTest = DbTest;

TEST_F(ValidationTest, InsertAndUpdateFailWithErrInfo) {
  ASSERT_TRUE(db_->CreateCollection("t", Validator(R"({"a": 1})")).ok());
  Collection& t = db_->collection("t");
  absl::StatusOr<Value> bad = t.InsertOne(R"({"_id": 1, "a": 2})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(ErrorCode(bad.status()), kDocumentValidationFailure);
  EXPECT_EQ(bad.status().message(), "Document failed validation");
  std::optional<Value> info = GetDocumentValidationErrInfo(bad.status());
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(ToJson(*info),
            R"({"failingDocumentId":1,"details":{"operatorName":"$eq",)"
            R"("specifiedAs":{"a":1},"reason":"comparison failed",)"
            R"("consideredValue":2}})");
  ASSERT_TRUE(t.InsertOne(R"({"_id": 1, "a": 1})").ok());
  EXPECT_EQ(*t.CountDocuments(), 1);
  // Updates, replacements, findAndModify and upserts are validated too,
  // and write nothing when they fail.
  auto upd = t.UpdateOne(R"({})", R"({"$set": {"a": 2}})");
  EXPECT_EQ(ErrorCode(upd.status()), kDocumentValidationFailure);
  auto rep = t.ReplaceOne(R"({})", R"({"b": 1})");
  EXPECT_EQ(ErrorCode(rep.status()), kDocumentValidationFailure);
  auto fam = t.FindOneAndUpdate(R"({"_id": 1})", R"({"$inc": {"a": 1}})");
  EXPECT_EQ(ErrorCode(fam.status()), kDocumentValidationFailure);
  UpdateOptions upsert;
  upsert.upsert = true;
  auto ups = t.UpdateOne(R"({"_id": 5})", R"({"$set": {"a": 3}})", upsert);
  EXPECT_EQ(ErrorCode(ups.status()), kDocumentValidationFailure);
  EXPECT_EQ(*t.CountDocuments(R"({"a": 1})"), 1);
  EXPECT_EQ(*t.CountDocuments(), 1);
  // A delete is never validated.
  EXPECT_EQ(*t.DeleteOne(R"({"_id": 1})"), 1);
}

TEST_F(ValidationTest, BulkWriteReportsEachFailure) {
  ASSERT_TRUE(db_->CreateCollection(
                     "t", Validator(R"({"$jsonSchema": {"required": ["a"]}})"))
                  .ok());
  auto r = db_->collection("t").BulkWrite(
      *ParseValue(R"([{"insertOne": {"document": {"_id": 1, "a": 1}}},
               {"insertOne": {"document": {"_id": 2}}},
               {"insertOne": {"document": {"_id": 3, "a": 1}}}])"),
      /*ordered=*/false);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->inserted_count, 2);
  ASSERT_EQ(r->write_errors.size(), 1u);
  EXPECT_EQ(r->write_errors[0].code, kDocumentValidationFailure);
}

TEST_F(ValidationTest, BypassDocumentValidation) {
  ASSERT_TRUE(db_->CreateCollection("t", Validator(R"({"a": 1})")).ok());
  WriteOptions bypass;
  bypass.bypass_document_validation = true;
  Collection& t = db_->collection("t");
  ASSERT_TRUE(t.InsertOne(R"({"_id": 1, "a": 2})", bypass).ok());
  ASSERT_TRUE(t.UpdateOne(R"({})", R"({"$set": {"a": 3}})", {}, bypass).ok());
  EXPECT_EQ(*t.CountDocuments(R"({"a": 3})"), 1);
}

// doc_validation_options.js: warn lets bad writes through; moderate lets
// an already-invalid document be updated ("bad -> bad is ok"), but a valid
// one must stay valid.
TEST_F(ValidationTest, LevelsAndActions) {
  ASSERT_TRUE(db_->CreateCollection("t", Validator(R"({"a": 1})")).ok());
  Collection& t = db_->collection("t");
  ASSERT_TRUE(t.InsertOne(R"({"_id": 1, "a": 1})").ok());
  ASSERT_TRUE(t.CollMod(R"({"validationAction": "warn"})").ok());
  std::vector<Value> warnings;
  WriteOptions warn;
  warn.validation_warning = [&](const Value& v) { warnings.push_back(v); };
  ASSERT_TRUE(t.UpdateOne(R"({})", R"({"$set": {"a": 2}})", {}, warn).ok());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(ToJson(warnings[0]),
            R"({"failingDocumentId":1,"details":{"operatorName":"$eq",)"
            R"("specifiedAs":{"a":1},"reason":"comparison failed",)"
            R"("consideredValue":2}})");
  EXPECT_EQ(ToJson(*t.Options()),
            R"({"validator":{"a":1},"validationLevel":"strict",)"
            R"("validationAction":"warn"})");
  // A $expr that throws fails nothing in warn mode.
  ASSERT_TRUE(
      t.CollMod(R"({"validator": {"$expr": {"$divide": [10, 0]}}})").ok());
  EXPECT_TRUE(t.InsertOne(R"({"foo": "1"})").ok());
  ASSERT_TRUE(t.DeleteOne(R"({"foo": "1"})").ok());
  ASSERT_TRUE(t.CollMod(R"({"validator": {"a": 1}, "validationAction":
                            "error", "validationLevel": "strict"})")
                  .ok());
  EXPECT_EQ(ErrorCode(t.UpdateOne(R"({})", R"({"$set": {"a": 3}})").status()),
            kDocumentValidationFailure);
  ASSERT_TRUE(t.CollMod(R"({"validationLevel": "moderate"})").ok());
  EXPECT_TRUE(t.UpdateOne(R"({})", R"({"$set": {"a": 3}})").ok());
  EXPECT_EQ(*t.CountDocuments(R"({"a": 3})"), 1);
  ASSERT_TRUE(t.InsertOne(R"({"_id": 2, "a": 1})").ok());
  EXPECT_EQ(
      ErrorCode(t.UpdateOne(R"({"_id": 2})", R"({"$set": {"a": 4}})").status()),
      kDocumentValidationFailure);
  ASSERT_TRUE(t.CollMod(R"({"validationLevel": "off"})").ok());
  EXPECT_TRUE(t.InsertOne(R"({"a": 9})").ok());
  // validator {} removes it.
  ASSERT_TRUE(
      t.CollMod(R"({"validator": {}, "validationLevel": "strict"})").ok());
  EXPECT_TRUE(t.InsertOne(R"({"a": 10})").ok());
  EXPECT_EQ(ToJson(*t.Options()), "{}");
}

TEST_F(ValidationTest, PersistsAcrossReopen) {
  ASSERT_TRUE(db_->CreateCollection(
                     "t", Validator(R"({"$jsonSchema": {"required": ["a"]}})",
                                    "moderate", "error"))
                  .ok());
  Open();
  Collection& t = db_->collection("t");
  EXPECT_EQ(ToJson(*t.Options()),
            R"({"validator":{"$jsonSchema":{"required":["a"]}},)"
            R"("validationLevel":"moderate","validationAction":"error"})");
  EXPECT_EQ(ErrorCode(t.InsertOne(R"({"b": 1})").status()),
            kDocumentValidationFailure);
}

// doc_validation_invalid_validators.js: refused at create and collMod.
TEST_F(ValidationTest, InvalidValidators) {
  auto code = [&](const std::string& json) {
    ValidationOptions o;
    o.validator = Json(R"({"v": )" + json + "}").object_fields()[0].second;
    return ErrorCode(db_->CreateCollection("bad", o));
  };
  EXPECT_EQ(code("7"), kTypeMismatch);
  EXPECT_EQ(code(R"("assert")"), kTypeMismatch);
  EXPECT_EQ(code(R"({"$jsonSchema": {"invalid": 1}})"), kFailedToParse);
  EXPECT_EQ(code(R"({"$where": "this.a == this.b"})"), kQueryFeatureNotAllowed);
  EXPECT_EQ(code(R"({"$text": "bob"})"), kQueryFeatureNotAllowed);
  EXPECT_EQ(code(R"({"a": {"$near": {"place": "holder"}}})"),
            kQueryFeatureNotAllowed);
  EXPECT_NE(code(R"({"$expr": {"$eq": ["$a", "$$unbound"]}})"), 0);
  EXPECT_EQ(ErrorCode(db_->CreateCollection(
                "bad", Validator(R"({"a": 1})", "sometimes"))),
            kBadValue);
  EXPECT_EQ(ErrorCode(db_->CreateCollection(
                "bad", Validator(R"({"a": 1})", "", "explode"))),
            kBadValue);
  EXPECT_EQ(db_->ListCollectionNames()->size(), 0u);
  ASSERT_TRUE(
      db_->CreateCollection("t", Validator(R"({"a": {"$exists": true}})"))
          .ok());
  Collection& t = db_->collection("t");
  EXPECT_EQ(ErrorCode(t.CollMod(R"({"validator": {"$where": "1"}})").status()),
            kQueryFeatureNotAllowed);
  EXPECT_EQ(ErrorCode(t.CollMod(R"({"validator": {"$expr": {"$function":
                {"body": "function() {}", "args": [], "lang": "js"}}}})")
                          .status()),
            4660800);
  EXPECT_EQ(ErrorCode(t.CollMod(R"({"validator": {"$expr":
                {"$_internalJsEmit": {"eval": "function() {}", "this": {}}}}})")
                          .status()),
            4660801);
  EXPECT_EQ(ErrorCode(db_->collection("none")
                          .CollMod(R"({"validator": {"a": 1}})")
                          .status()),
            kNamespaceNotFound);
  // The old validator stays.
  EXPECT_EQ(ErrorCode(t.InsertOne(R"({"b": 1})").status()),
            kDocumentValidationFailure);
}

// doc_validation_with_now_variable.js: $$NOW in a validator is the time
// of each write, not of the validator's creation.
TEST_F(ValidationTest, NowIsTheWriteTime) {
  ASSERT_TRUE(db_->CreateCollection(
                     "t", Validator(R"({"$expr": {"$lt": ["$ts", "$$NOW"]}})"))
                  .ok());
  Collection& t = db_->collection("t");
  // kTestStart + 1 hour.
  const std::string later = R"({"ts": {"$date": "2027-01-15T09:00:00Z"}})";
  EXPECT_EQ(ErrorCode(t.InsertOne(later).status()), kDocumentValidationFailure);
  clock_.Advance(absl::Hours(2));
  EXPECT_TRUE(t.InsertOne(later).ok());
}

// $jsonSchema is also a query operator (find, $match).
TEST_F(ValidationTest, JsonSchemaInQueries) {
  Collection& t = db_->collection("t");
  ASSERT_TRUE(t.InsertOne(R"({"_id": 1, "a": "x"})").ok());
  ASSERT_TRUE(t.InsertOne(R"({"_id": 2, "a": 5})").ok());
  EXPECT_EQ(
      *t.CountDocuments(
          R"({"$jsonSchema": {"properties": {"a": {"bsonType": "string"}}}})"),
      1);
  auto cursor = t.Aggregate(
      R"([{"$match": {"$jsonSchema": {"properties": {"a": {"minimum": 3}}}}}])");
  ASSERT_TRUE(cursor.ok()) << cursor.status();
  int n = 0;
  while (true) {
    auto next = (*cursor)->Next();
    ASSERT_TRUE(next.ok());
    if (!next->has_value()) break;
    ++n;
  }
  EXPECT_EQ(n, 2);  // "x" is not a number: minimum holds
}

}  // namespace
}  // namespace ttldb
