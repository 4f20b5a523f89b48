// The 16 MiB document limit is MongoDB's: the document's BSON size
// (document/bson.h), not the size of ttldb's storage JSON.
// insert.cpp fixDocumentForInsert(): BadValue "object to insert too large.
// size in bytes: N, max size: 16777216"; update_stage.cpp: BSONObjectTooLarge
// (10334) "Resulting document after update is larger than 16777216";
// jstests/core/bson_size_limit.js (a document of exactly 16777216 bytes is
// accepted, one byte more refused).
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/bson.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class DocumentSizeTest : public DbTest {
 protected:
  // {_id: id, s: <n bytes>}: 22 + n bytes of BSON.
  static Value WithString(int id, size_t n) {
    return Value::MakeObject(
        {{"_id", Value::Int32(id)}, {"s", Value::String(std::string(n, 'x'))}});
  }
};

TEST_F(DocumentSizeTest, LimitIsOnTheBsonSize) {
  Collection& c = db_->collection("c");
  const Value max = WithString(1, kMaxDocumentBytes - 22);
  ASSERT_EQ(BsonDocumentSize(max), kMaxDocumentBytes);
  EXPECT_TRUE(c.InsertOne(max).ok());
  const Value over = WithString(2, kMaxDocumentBytes - 21);
  absl::StatusOr<Value> s = c.InsertOne(over);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(ErrorCode(s.status()), 2);
  EXPECT_EQ(s.status().message(),
            "object to insert too large. size in bytes: 16777217, max size: "
            "16777216");
  EXPECT_TRUE(absl::IsNotFound(c.FindById(Value::Int32(2)).status()));
  // Read back whole.
  absl::StatusOr<Value> back = c.FindById(Value::Int32(1));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->Get("s")->string_value().size(), kMaxDocumentBytes - 22);
}

TEST_F(DocumentSizeTest, UpdateOverTheLimitIsBsonObjectTooLarge) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(WithString(1, kMaxDocumentBytes - 100)).ok());
  Value update = Value::MakeObject(
      {{"$set",
        Value::MakeObject({{"t", Value::String(std::string(100, 'y'))}})}});
  auto r = c.UpdateOne(R"({"_id": 1})", update);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(ErrorCode(r.status()), 10334);
  EXPECT_EQ(r.status().message(),
            "Resulting document after update is larger than 16777216");
}

// The reliability review's case: ~700k dates are ~11 MB of BSON but ~29 MB
// of storage JSON. MongoDB stores it; so does ttldb, and reads it back.
TEST_F(DocumentSizeTest, StorageJsonOverSixteenMiBIsAccepted) {
  Value::Array dates;
  for (int i = 0; i < 700000; ++i) {
    dates.push_back(Value::Date(int64_t{1700000000000} + i));
  }
  const Value doc = Value::MakeObject(
      {{"_id", Value::Int32(1)}, {"d", Value::MakeArray(std::move(dates))}});
  ASSERT_LT(BsonDocumentSize(doc), kMaxDocumentBytes);
  ASSERT_GT(ToJson(doc, JsonFormat::kStorage).size(), kMaxDocumentBytes);
  absl::StatusOr<Value> id = db_->collection("c").InsertOne(doc);
  ASSERT_TRUE(id.ok()) << id.status();
  absl::StatusOr<Value> back = db_->collection("c").FindById(Value::Int32(1));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->Get("d")->array_items().size(), 700000u);
  EXPECT_EQ(back->Get("d")->array_items()[699999].int64_value(),
            int64_t{1700000000000} + 699999);
  auto n = db_->collection("c").CountDocuments(R"({})");
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 1);
  absl::Status valid = db_->collection("c").Validate().status();
  EXPECT_TRUE(valid.ok()) << valid;
}

}  // namespace
}  // namespace ttldb
