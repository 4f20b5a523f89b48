// BSON <-> Value through libbson. libbson's own Extended JSON parser
// (bson_new_from_json) is the independent oracle: the BSON it builds from
// canonical Extended JSON must decode to what ttldb's JSON parser builds
// from the same text, and encode back to the same bytes.
#include "document/bson.h"

#include <libbson-1.0/bson/bson.h>

#include <string>

#include "base/status.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

std::string LibbsonFromJson(const std::string& json) {
  bson_error_t error;
  bson_t* b = bson_new_from_json(reinterpret_cast<const uint8_t*>(json.data()),
                                 json.size(), &error);
  EXPECT_NE(b, nullptr) << error.message;
  if (b == nullptr) return "";
  std::string out(reinterpret_cast<const char*>(bson_get_data(b)), b->len);
  bson_destroy(b);
  return out;
}

absl::StatusOr<Value> Decode(const std::string& bson) {
  return BsonToValue(reinterpret_cast<const uint8_t*>(bson.data()),
                     bson.size());
}

// Every type a Value has, in canonical Extended JSON.
constexpr char kAllTypes[] = R"({
  "d": {"$numberDouble": "1.5"}, "s": "h\u00e9llo", "o": {"a": {"$numberInt": "1"}},
  "a": [{"$numberInt": "1"}, "x", []],
  "b": {"$binary": {"base64": "AQID", "subType": "04"}},
  "id": {"$oid": "5f1d7f3e9d3b2a1c0b0a0908"}, "t": true,
  "dt": {"$date": {"$numberLong": "1700000000123"}}, "n": null,
  "re": {"$regularExpression": {"pattern": "^a.c$", "options": "im"}},
  "i": {"$numberInt": "-7"},
  "ts": {"$timestamp": {"t": 1700000000, "i": 3}},
  "l": {"$numberLong": "9007199254740993"},
  "dec": {"$numberDecimal": "1.10"},
  "mn": {"$minKey": 1}, "mx": {"$maxKey": 1}
})";

TEST(BsonValueTest, EveryTypeDecodesAsTtldbParsesTheSameJson) {
  std::string bson = LibbsonFromJson(kAllTypes);
  absl::StatusOr<Value> got = Decode(bson);
  ASSERT_TRUE(got.ok()) << got.status();
  absl::StatusOr<Value> want = ParseDocument(kAllTypes);
  ASSERT_TRUE(want.ok()) << want.status();
  EXPECT_EQ(ToJson(*got, JsonFormat::kCanonical),
            ToJson(*want, JsonFormat::kCanonical));
  EXPECT_EQ(got->Get("i")->type(), ValueType::kInt32);
  EXPECT_EQ(got->Get("l")->type(), ValueType::kInt64);
  EXPECT_EQ(got->Get("dec")->type(), ValueType::kDecimal);
}

TEST(BsonValueTest, EncodeGivesLibbsonsBytes) {
  absl::StatusOr<Value> doc = ParseDocument(kAllTypes);
  ASSERT_TRUE(doc.ok()) << doc.status();
  absl::StatusOr<std::string> bson = ValueToBson(*doc);
  ASSERT_TRUE(bson.ok()) << bson.status();
  EXPECT_EQ(*bson, LibbsonFromJson(kAllTypes));
}

TEST(BsonValueTest, RegexFlags) {
  // {"r": /a/ with options "xix"}: sorted, once each.
  std::string bson(
      "\x00\x00\x00\x00\x0b"
      "r\x00"
      "a\x00"
      "xix\x00\x00",
      14);
  bson[0] = static_cast<char>(bson.size());
  absl::StatusOr<Value> got = Decode(bson);
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_NE(got->Get("r"), nullptr);
  EXPECT_EQ(got->Get("r")->regex_value().options, "ix");
  // An unknown flag: refused with the matcher's code (document/regex.cc,
  // src/mongo/util/pcre_util.cpp), never dropped (libbson would not write
  // it back; found by fuzz/wire_message_fuzz).
  bson[bson.size() - 3] = 'q';
  got = Decode(bson);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(ErrorCode(got.status()), 51108);
  EXPECT_EQ(got.status().message(), "invalid flag in regex options: q");
}

TEST(BsonValueTest, SymbolBecomesString) {
  // symbol "ab": type 0x0E, as old drivers wrote it.
  std::string bson = LibbsonFromJson(R"({"s": {"$symbol": "ab"}})");
  absl::StatusOr<Value> got = Decode(bson);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->Get("s")->type(), ValueType::kString);
  EXPECT_EQ(got->Get("s")->string_value(), "ab");
}

TEST(BsonValueTest, UndefinedAndCodeAreRefused) {
  for (const char* json : {R"({"u": {"$undefined": true}})",
                           R"({"c": {"$code": "function(){}"}})"}) {
    absl::StatusOr<Value> got = Decode(LibbsonFromJson(json));
    ASSERT_FALSE(got.ok()) << json;
    EXPECT_EQ(ErrorCode(got.status()), kBadValue) << got.status();
  }
}

TEST(BsonValueTest, InvalidUtf8IsInvalidBson) {
  // {"s": "\xff"} written by hand: libbson would not build it.
  std::string bson("\x0f\x00\x00\x00\x02s\x00\x02\x00\x00\x00\xff\x00\x00", 14);
  bson[0] = static_cast<char>(bson.size());
  absl::StatusOr<Value> got = Decode(bson);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(ErrorCode(got.status()), 22);
  EXPECT_NE(got.status().message().find("UTF-8"), absl::string_view::npos);
  // The same bytes in a key.
  std::string key("\x0c\x00\x00\x00\x0a\xff\x00\x00", 8);
  key[0] = static_cast<char>(key.size());
  EXPECT_EQ(ErrorCode(Decode(key).status()), 22);
}

TEST(BsonValueTest, TruncatedAndLyingLengthsAreInvalidBson) {
  std::string good = LibbsonFromJson(R"({"a": "xyz", "b": {"c": 1}})");
  ASSERT_TRUE(Decode(good).ok());
  for (size_t cut = 0; cut < good.size(); ++cut) {
    EXPECT_EQ(ErrorCode(Decode(good.substr(0, cut)).status()), 22) << cut;
  }
  // Each byte of the string's length prefix and of the embedded document's
  // length set to 0x7f: out of bounds, never read.
  for (size_t i = 4; i < good.size() - 1; ++i) {
    std::string bad = good;
    bad[i] = '\x7f';
    absl::StatusOr<Value> got = Decode(bad);
    if (!got.ok()) {
      EXPECT_NE(ErrorCode(got.status()), 0) << i;
    }
  }
}

TEST(BsonValueTest, NestingBeyond200IsOverflow) {
  // {a: {a: ... {}}} with `depth` documents, built by hand (libbson's
  // JSON parser stops at 100 levels).
  auto nested = [](int depth) {
    std::string doc("\x05\0\0\0\0", 5);
    for (int i = 1; i < depth; ++i) {
      std::string outer(4, '\0');
      outer += std::string(
                   "\x03"
                   "a\0",
                   3) +
               doc + std::string(1, '\0');
      uint32_t n = outer.size();
      for (int k = 0; k < 4; ++k) outer[k] = static_cast<char>(n >> (8 * k));
      doc = std::move(outer);
    }
    return doc;
  };
  EXPECT_TRUE(Decode(nested(200)).ok());
  absl::StatusOr<Value> deep = Decode(nested(201));
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(ErrorCode(deep.status()), 15);
  EXPECT_EQ(deep.status().message(),
            "BSONObj exceeds maximum nested object depth");
  // Far deeper input (48 MB could carry millions of levels) fails the same
  // way, with a bounded stack.
  EXPECT_EQ(ErrorCode(Decode(nested(5000)).status()), 15);
}

}  // namespace
}  // namespace ttldb
