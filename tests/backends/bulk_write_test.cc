// Collection::BulkWrite through the public API, on both backends
// (backend_fixture.h).
// Expected answers from MongoDB's manual (reference/method/
// db.collection.bulkWrite/: the pizzas examples, ordered and with errors),
// jstests/core/write/bulk/bulk_write*.js semantics (ordered stops at the
// first error, unordered goes on; error indexes are the operations'), and
// the Node driver's bulk/common.ts for refused shapes.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/backends/backend_fixture.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

Value V(const char* json) { return *ParseDocument(json); }
Value A(const char* json) {
  return *ParseDocument(absl::StrCat(R"({"a": )", json, "}"))->Get("a");
}

// The counts and ids as one line, to compare whole results.
std::string Summary(const BulkWriteResult& r) {
  std::string s =
      absl::StrCat("ins=", r.inserted_count, " match=", r.matched_count,
                   " mod=", r.modified_count, " del=", r.deleted_count,
                   " ups=", r.upserted_count, " insIds=");
  for (const auto& [i, id] : r.inserted_ids) {
    absl::StrAppend(&s, i, ":", ToJson(id), ",");
  }
  absl::StrAppend(&s, " upsIds=");
  for (const auto& [i, id] : r.upserted_ids) {
    absl::StrAppend(&s, i, ":", ToJson(id), ",");
  }
  for (const auto& e : r.write_errors) {
    absl::StrAppend(&s, " err[", e.index, "]=", e.code);
  }
  return s;
}

class BulkWriteTest : public BackendTest {
 protected:
  Collection& Pizzas() {
    Collection& c = db_->collection("pizzas");
    for (const char* d :
         {R"({"_id": 0, "type": "pepperoni", "size": "small", "price": 4})",
          R"({"_id": 1, "type": "cheese", "size": "medium", "price": 7})",
          R"({"_id": 2, "type": "vegan", "size": "large", "price": 8})"}) {
      EXPECT_TRUE(c.InsertOne(d).ok());
    }
    return c;
  }
  static constexpr const char* kManualOps = R"([
    {"insertOne": {"document": {"_id": 3, "type": "beef", "size": "medium", "price": 6}}},
    {"insertOne": {"document": {"_id": 4, "type": "sausage", "size": "large", "price": 10}}},
    {"updateOne": {"filter": {"type": "cheese"}, "update": {"$set": {"price": 8}}}},
    {"deleteOne": {"filter": {"type": "pepperoni"}}},
    {"replaceOne": {"filter": {"type": "vegan"},
                    "replacement": {"type": "tofu", "size": "small", "price": 4}}}
  ])";
  // The manual's "Bulk Write Operations Example with Errors".
  static constexpr const char* kErrorOps = R"([
    {"insertOne": {"document": {"_id": 5, "type": "sausage", "size": "small", "price": 12}}},
    {"insertOne": {"document": {"_id": 4, "type": "sausage", "size": "large", "price": 10}}},
    {"updateOne": {"filter": {"type": "cheese"}, "update": {"$set": {"price": 8}}}},
    {"deleteOne": {"filter": {"type": "pepperoni"}}},
    {"replaceOne": {"filter": {"type": "vegan"},
                    "replacement": {"type": "tofu", "size": "small", "price": 4}}}
  ])";
};

// Manual: { insertedCount: 2, insertedIds: { '0': 3, '1': 4 },
// matchedCount: 2, modifiedCount: 2, deletedCount: 1, upsertedCount: 0 }.
TEST_P(BulkWriteTest, ManualExample) {
  Collection& c = Pizzas();
  auto r = c.BulkWrite(A(kManualOps));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Summary(*r),
            "ins=2 match=2 mod=2 del=1 ups=0 insIds=0:3,1:4, upsIds=");
  EXPECT_EQ(ToJson(*c.FindOne(R"({"_id": 2})").value()),
            R"({"_id":2,"type":"tofu","size":"small","price":4})");
  EXPECT_EQ(*c.CountDocuments(), 4);
}

// Manual, with errors (ordered, after the first example): the duplicate
// _id 4 at index 1 is code 11000, and nothing after it runs.
TEST_P(BulkWriteTest, OrderedStopsAtFirstError) {
  Collection& c = Pizzas();
  ASSERT_TRUE(c.BulkWrite(A(kManualOps)).ok());
  auto r = c.BulkWrite(A(kErrorOps));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Summary(*r),
            "ins=1 match=0 mod=0 del=0 ups=0 insIds=0:5, upsIds= err[1]=11000");
  ASSERT_EQ(r->write_errors.size(), 1u);
  EXPECT_EQ(
      r->write_errors[0].errmsg,
      "E11000 duplicate key error collection: test.pizzas index: _id_ dup "
      "key: { _id: 4 }");
  EXPECT_EQ(*c.CountDocuments(), 5);
}

// Unordered: the error is reported with its index and the rest runs
// (cheese already costs 8: matched, not modified; no pepperoni or vegan is
// left).
TEST_P(BulkWriteTest, UnorderedContinuesAfterError) {
  Collection& c = Pizzas();
  ASSERT_TRUE(c.BulkWrite(A(kManualOps)).ok());
  auto r = c.BulkWrite(A(kErrorOps), /*ordered=*/false);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Summary(*r),
            "ins=1 match=1 mod=0 del=0 ups=0 insIds=0:5, upsIds= err[1]=11000");
}

// Upserts are counted and their _ids reported by operation index; updateMany
// and deleteMany count every document.
TEST_P(BulkWriteTest, UpsertsAndManyOperations) {
  Collection& c = Pizzas();
  auto r = c.BulkWrite(A(R"([
    {"updateMany": {"filter": {"price": {"$gte": 7}}, "update": {"$inc": {"price": 1}}}},
    {"updateOne": {"filter": {"_id": 10}, "update": {"$set": {"type": "new"}}, "upsert": true}},
    {"replaceOne": {"filter": {"_id": 11}, "replacement": {"type": "r"}, "upsert": true}},
    {"deleteMany": {"filter": {"price": {"$gte": 8}}}}
  ])"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Summary(*r),
            "ins=0 match=2 mod=2 del=2 ups=2 insIds= upsIds=1:10,2:11,");
  EXPECT_EQ(ToJson(*c.FindOne(R"({"_id": 11})").value()),
            R"({"_id":11,"type":"r"})");
}

// arrayFilters reach updateOne; a failing update (66) is a write error.
TEST_P(BulkWriteTest, ArrayFiltersAndUpdateErrors) {
  Collection& c = db_->collection("a");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "g": [1, 5, 9]})").ok());
  auto r = c.BulkWrite(A(R"([
    {"updateOne": {"filter": {}, "update": {"$set": {"g.$[e]": 0}},
                   "arrayFilters": [{"e": {"$gt": 4}}]}},
    {"updateOne": {"filter": {"_id": 1}, "update": {"$set": {"_id": 2}}}},
    {"insertOne": {"document": {"_id": 2}}}
  ])"),
                       /*ordered=*/false);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Summary(*r),
            "ins=1 match=1 mod=1 del=0 ups=0 insIds=2:2, upsIds= err[1]=66");
  EXPECT_EQ(ToJson(*c.FindOne(R"({"_id": 1})").value()),
            R"({"_id":1,"g":[1,0,0]})");
}

// The C++ write models give the same as the array form.
TEST_P(BulkWriteTest, WriteModels) {
  Collection& c = Pizzas();
  std::vector<WriteModel> ops(2);
  ops[0].kind = WriteModel::Kind::kInsertOne;
  ops[0].document = V(R"({"_id": 7})");
  ops[1].kind = WriteModel::Kind::kDeleteMany;
  ops[1].filter = V("{}");
  auto r = c.BulkWrite(ops);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Summary(*r), "ins=1 match=0 mod=0 del=4 ups=0 insIds=0:7, upsIds=");
}

// Refused shapes fail the whole call and write nothing (the Node driver's
// messages; a missing filter is the server's IDL error).
TEST_P(BulkWriteTest, BadShapesWriteNothing) {
  Collection& c = Pizzas();
  struct Case {
    const char* ops;
    int code;
    const char* message;
  };
  for (
      const Case& k : std::vector<Case>{
          {R"({"insertOne": {}})", kBadValue,
           "Argument \"operations\" must be an array of documents"},
          {"[]", kBadValue, "Invalid BulkOperation, Batch cannot be empty"},
          {R"([{"insertOne": {"document": {"_id": 9}}}, {"upsertOne": {}}])",
           kBadValue,
           "bulkWrite only supports insertOne, updateOne, updateMany, "
           "replaceOne, deleteOne, deleteMany"},
          {R"([{"updateOne": {"filter": {}, "update": {"a": 1}}}])", kBadValue,
           "Update document requires atomic operators"},
          {R"([{"replaceOne": {"filter": {}, "replacement": {"$set": {"a": 1}}}}])",
           kBadValue, "Replacement document must not use atomic operators"},
          {R"([{"deleteOne": {}}])", 40414,
           "BSON field 'delete.deletes.q' is missing but a required field"},
          {R"([{"updateMany": {"filter": {}}}])", 40414,
           "BSON field 'update.updates.u' is missing but a required field"},
          {R"([{"deleteOne": {"q": {}}}])", kBadValue,
           "Raw operations are not allowed"},
      }) {
    auto r = c.BulkWrite(A(k.ops));
    EXPECT_EQ(ErrorCode(r.status()), k.code) << k.ops;
    EXPECT_EQ(r.status().message(), k.message) << k.ops;
  }
  EXPECT_EQ(*c.CountDocuments(), 3);
}

INSTANTIATE_TEST_SUITE_P(Backends, BulkWriteTest,
                         ::testing::Values(Backend::kEmbedded,
                                           Backend::kRemote),
                         BackendName);

}  // namespace
}  // namespace ttldb
