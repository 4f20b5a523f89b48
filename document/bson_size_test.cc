// BSON sizes as bsonspec.org defines them and as MongoDB's Object.bsonsize()
// reports them; the two documented examples are the spec's own
// ("hello world": 22 bytes, "BSON awesome": 49 bytes).
#include <string>

#include "document/bson.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

size_t Size(const std::string& json) {
  absl::StatusOr<Value> doc = ParseDocument(json);
  EXPECT_TRUE(doc.ok()) << json << ": " << doc.status();
  return doc.ok() ? BsonDocumentSize(*doc) : 0;
}

TEST(BsonSizeTest, SpecExamples) {
  EXPECT_EQ(Size(R"({"hello": "world"})"), 22u);
  EXPECT_EQ(Size(R"({"BSON": ["awesome", 5.05, 1986]})"), 49u);
}

TEST(BsonSizeTest, EveryType) {
  EXPECT_EQ(Size("{}"), 5u);
  EXPECT_EQ(Size(R"({"a": 1})"), 12u);  // int32
  EXPECT_EQ(Size(R"({"a": "b"})"), 14u);
  EXPECT_EQ(Size(R"({"a": ""})"), 13u);
  EXPECT_EQ(Size(R"({"a": 1.5})"), 16u);
  EXPECT_EQ(Size(R"({"a": {"$numberLong": "1"}})"), 16u);
  EXPECT_EQ(Size(R"({"a": {"$numberDecimal": "1"}})"), 24u);
  EXPECT_EQ(Size(R"({"a": true})"), 9u);
  EXPECT_EQ(Size(R"({"a": null})"), 8u);
  EXPECT_EQ(Size(R"({"a": {"$minKey": 1}})"), 8u);
  EXPECT_EQ(Size(R"({"a": {"$maxKey": 1}})"), 8u);
  EXPECT_EQ(Size(R"({"a": {"$date": 0}})"), 16u);
  EXPECT_EQ(Size(R"({"a": {"$timestamp": {"t": 1, "i": 2}}})"), 16u);
  EXPECT_EQ(Size(R"({"_id": {"$oid": "650000000000000000000001"}})"), 22u);
  EXPECT_EQ(Size(R"({"a": {"$regularExpression": {"pattern": "ab",
            "options": "i"}}})"),
            13u);
  EXPECT_EQ(Size(R"({"a": {"$binary": {"base64": "YWJj", "subType": "00"}}})"),
            16u);
  EXPECT_EQ(Size(R"({"a": {}})"), 13u);
  EXPECT_EQ(Size(R"({"a": {"b": 1}})"), 20u);
}

TEST(BsonSizeTest, ArraysNameTheirElementsByIndex) {
  EXPECT_EQ(Size(R"({"a": []})"), 13u);
  EXPECT_EQ(Size(R"({"a": [1, 2]})"), 27u);
  // Elements 0..9 have one-digit names, 10 two digits: 5 + 11 * 7 + 1.
  EXPECT_EQ(Size(R"({"a": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]})"),
            8u + 5u + 10u * 7u + 8u);
  // UTF-8 strings count bytes, not characters.
  EXPECT_EQ(Size(R"({"é": "日本"})"), 5u + 1u + 3u + 4u + 6u + 1u);
}

}  // namespace
}  // namespace ttldb
