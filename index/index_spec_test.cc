#include "index/index_spec.h"

#include <string>

#include "base/status.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

absl::StatusOr<IndexSpec> Parse(const std::string& key,
                                const std::string& options = "{}") {
  return ParseIndexSpec(ParseValue(key).value(), ParseValue(options).value());
}

int Code(const std::string& key, const std::string& options = "{}") {
  return ErrorCode(Parse(key, options).status());
}

TEST(IndexSpecTest, DefaultNames) {
  EXPECT_EQ(Parse(R"({"accessTime": 1})")->name, "accessTime_1");
  EXPECT_EQ(Parse(R"({"a": 1, "b": -1})")->name, "a_1_b_-1");
  EXPECT_EQ(Parse(R"({"a.b": 1})")->name, "a.b_1");
  EXPECT_EQ(Parse(R"({"a": 1.0, "b": {"$numberLong": "-1"}})")->name,
            "a_1_b_-1");
  EXPECT_EQ(Parse(R"({"a": -1.0})")->name, "a_-1");
}

TEST(IndexSpecTest, KeyFields) {
  IndexSpec spec = Parse(R"({"a": 1, "b.c": -1})").value();
  ASSERT_EQ(spec.key.size(), 2u);
  EXPECT_EQ(spec.key[0].path, "a");
  EXPECT_EQ(spec.key[0].direction, 1);
  EXPECT_EQ(spec.key[1].path, "b.c");
  EXPECT_EQ(spec.key[1].direction, -1);
  EXPECT_EQ(spec.id, 0u);
}

// {a: "hashed"} (MongoDB's hashed index; jstests/core/index/hashed/):
// named a_hashed, listed with "hashed", compound with one hashed field.
TEST(IndexSpecTest, HashedKeys) {
  auto spec = Parse(R"({"a": "hashed"})");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->name, "a_hashed");
  EXPECT_TRUE(spec->key[0].hashed);
  EXPECT_EQ(ToJson(KeyPatternToValue(*spec)), R"({"a":"hashed"})");
  auto compound = Parse(R"({"b": 1, "a": "hashed", "c": -1})");
  ASSERT_TRUE(compound.ok()) << compound.status();
  EXPECT_EQ(compound->name, "b_1_a_hashed_c_-1");
  EXPECT_FALSE(SameKeyPattern(*spec, *Parse(R"({"a": 1})")));
  // expression_params.cpp: one hashed field at most (31303).
  EXPECT_EQ(Code(R"({"a": "hashed", "b": "hashed"})"), 31303);
}

TEST(IndexSpecTest, RejectsBadKeyPatterns) {
  EXPECT_EQ(Code("{}"), kCannotCreateIndex);
  EXPECT_EQ(Parse("{}").status().message(), "Index keys cannot be empty.");
  EXPECT_EQ(Code(R"({"a": 2})"), kCannotCreateIndex);
  EXPECT_EQ(Code(R"({"a": 0})"), kCannotCreateIndex);
  EXPECT_EQ(Code(R"({"a": 1.5})"), kCannotCreateIndex);
  EXPECT_EQ(Code(R"({"a": "text"})"), kCannotCreateIndex);
  EXPECT_EQ(Code(R"({"a": "2dsphere"})"), kCannotCreateIndex);
  EXPECT_EQ(Code(R"({"a": true})"), kCannotCreateIndex);
  EXPECT_EQ(Code(R"({"": 1})"), kCannotCreateIndex);
  EXPECT_EQ(Code(R"({"a..b": 1})"), kCannotCreateIndex);
  EXPECT_EQ(Code(R"({"a.": 1})"), kCannotCreateIndex);
  EXPECT_EQ(Code(R"({"$a": 1})"), kCannotCreateIndex);
  EXPECT_EQ(Code(R"({"a.$b": 1})"), kCannotCreateIndex);
  EXPECT_EQ(Code("[1]"), kCannotCreateIndex);
  std::string many = "{";
  for (int i = 0; i < 33; ++i) {
    if (i > 0) many += ",";
    many += "\"f" + std::to_string(i) + "\": 1";
  }
  EXPECT_EQ(Code(many + "}"), kCannotCreateIndex);
  std::string max = many.substr(0, many.rfind(',')) + "}";  // 32 fields
  EXPECT_TRUE(Parse(max).ok());
}

TEST(IndexSpecTest, Options) {
  IndexSpec spec =
      Parse(R"({"a": 1})",
            R"({"name": "byA", "unique": true, "sparse": 1, "hidden": false,
                "partialFilterExpression": {"b": {"$gt": 5}},
                "expireAfterSeconds": 3600, "maxLifetimeSeconds": 86400,
                "rejectExpired": true, "v": 2, "background": true})")
          .value();
  EXPECT_EQ(spec.name, "byA");
  EXPECT_TRUE(spec.unique);
  EXPECT_TRUE(spec.sparse);
  EXPECT_FALSE(spec.hidden);
  EXPECT_EQ(spec.partial_filter_json, R"({"b":{"$gt":5}})");
  ASSERT_TRUE(spec.expire_after_seconds.has_value());
  EXPECT_EQ(*spec.expire_after_seconds, 3600.0);
  EXPECT_EQ(*spec.max_lifetime_seconds, 86400);
  EXPECT_TRUE(spec.reject_expired);
  EXPECT_FALSE(Parse(R"({"a": 1})")->expire_after_seconds.has_value());
  EXPECT_TRUE(Parse(R"({"a": 1})", "null").ok());
}

TEST(IndexSpecTest, ExpireAfterSecondsIsStoredUnvalidated) {
  // Range and integrality are ttl/'s to judge.
  EXPECT_EQ(Parse(R"({"a": 1})", R"({"expireAfterSeconds": -5.5})")
                ->expire_after_seconds,
            -5.5);
  EXPECT_EQ(Parse(R"({"a": 1})", R"({"expireAfterSeconds": 1e12})")
                ->expire_after_seconds,
            1e12);
  auto s = Parse(R"({"a": 1})", R"({"expireAfterSeconds": "3600"})").status();
  EXPECT_EQ(ErrorCode(s), kCannotCreateIndex);
  EXPECT_EQ(s.message(),
            "TTL index 'expireAfterSeconds' option must be numeric, but "
            "received a type of 'string'. Index spec: "
            R"({"key":{"a":1},"expireAfterSeconds":"3600"})");
  EXPECT_EQ(Code(R"({"a": 1})",
                 R"({"expireAfterSeconds": {"$numberDouble": "NaN"}})"),
            kCannotCreateIndex);
}

TEST(IndexSpecTest, RejectsBadOptions) {
  auto s = Parse(R"({"a": 1})", R"({"foo": 1})").status();
  EXPECT_EQ(ErrorCode(s), kInvalidIndexSpecificationOption);
  EXPECT_EQ(s.message(),
            "The field 'foo' is not valid for an index specification. "
            R"(Specification: {"key":{"a":1},"foo":1})");
  // Collations are parsed (document/collator.h); a bad one has its code.
  EXPECT_EQ(Code(R"({"a": 1})", R"({"collation": {"locale": "fr"}})"), 0);
  EXPECT_EQ(Code(R"({"a": 1})", R"({"collation": 1})"), kTypeMismatch);
  EXPECT_EQ(Code(R"({"a": 1})", R"({"collation": {"locale": "zz_bogus"}})"),
            kBadValue);
  EXPECT_EQ(Code(R"({"a": 1})", R"({"name": 5})"), kTypeMismatch);
  EXPECT_EQ(Code(R"({"a": 1})", R"({"name": ""})"), kCannotCreateIndex);
  EXPECT_EQ(Code(R"({"a": 1})", R"({"unique": "yes"})"), kTypeMismatch);
  EXPECT_EQ(Code(R"({"a": 1})", R"({"partialFilterExpression": 1})"),
            kTypeMismatch);
  EXPECT_EQ(Code(R"({"a": 1})", R"({"maxLifetimeSeconds": 1.5})"),
            kTypeMismatch);
  EXPECT_EQ(Code(R"({"a": 1})", R"({"v": 1})"), kCannotCreateIndex);
  EXPECT_EQ(Code(R"({"a": 1})", "5"), kTypeMismatch);
}

TEST(IndexSpecTest, ToValueHasListIndexesShape) {
  IndexSpec spec =
      Parse(R"({"accessTime": 1})", R"({"expireAfterSeconds": 3600})").value();
  EXPECT_EQ(ToJson(IndexSpecToValue(spec)),
            R"({"v":2,"key":{"accessTime":1},"name":"accessTime_1",)"
            R"("expireAfterSeconds":3600})");
  Value v = IndexSpecToValue(spec);
  EXPECT_EQ(v.Get("expireAfterSeconds")->type(), ValueType::kInt32);

  spec = Parse(R"({"a": 1, "b": -1})",
               R"({"unique": true, "sparse": true, "hidden": true,
                   "partialFilterExpression": {"b": {"$exists": true}},
                   "expireAfterSeconds": 1.5})")
             .value();
  EXPECT_EQ(ToJson(IndexSpecToValue(spec)),
            R"({"v":2,"key":{"a":1,"b":-1},"name":"a_1_b_-1","unique":true,)"
            R"("sparse":true,"hidden":true,)"
            R"("partialFilterExpression":{"b":{"$exists":true}},)"
            R"("expireAfterSeconds":1.5})");
}

TEST(IndexSpecTest, Comparisons) {
  auto a1 = Parse(R"({"a": 1})").value();
  auto a1named = Parse(R"({"a": 1})", R"({"name": "other"})").value();
  auto a_1 = Parse(R"({"a": -1})").value();
  auto ab = Parse(R"({"a": 1, "b": 1})").value();
  auto a1ttl = Parse(R"({"a": 1})", R"({"expireAfterSeconds": 10})").value();
  auto a1ttl2 = Parse(R"({"a": 1})", R"({"expireAfterSeconds": 20})").value();
  auto a1unique = Parse(R"({"a": 1})", R"({"unique": true})").value();
  EXPECT_TRUE(SameKeyPattern(a1, a1named));
  EXPECT_TRUE(SameKeyPattern(a1, a1ttl));
  EXPECT_FALSE(SameKeyPattern(a1, a_1));
  EXPECT_FALSE(SameKeyPattern(a1, ab));
  EXPECT_TRUE(SameOptions(a1, a1named));
  EXPECT_TRUE(SameOptions(a1, ab));
  EXPECT_FALSE(SameOptions(a1, a1ttl));
  EXPECT_FALSE(SameOptions(a1ttl, a1ttl2));
  EXPECT_FALSE(SameOptions(a1, a1unique));
  EXPECT_TRUE(SameOptions(a1ttl, a1ttl));
}

}  // namespace
}  // namespace ttldb
