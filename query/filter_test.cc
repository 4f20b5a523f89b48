#include "query/filter.h"

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "gtest/gtest.h"
#include "query/test_doc.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// Whether filter `f` matches document `d` (both JSON).
bool M(const std::string& f, const std::string& d) {
  auto filter = Filter::Parse(Doc(f));
  EXPECT_TRUE(filter.ok()) << filter.status() << " in " << f;
  if (!filter.ok()) return false;
  return filter->Matches(Doc(d));
}

absl::Status ParseError(const std::string& f) {
  auto filter = Filter::Parse(Doc(f));
  return filter.ok() ? absl::OkStatus() : filter.status();
}

void ExpectBadValue(const std::string& f, const std::string& message) {
  absl::Status s = ParseError(f);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << f;
  EXPECT_EQ(ErrorCode(s), kBadValue) << f;
  EXPECT_EQ(s.message(), message) << f;
}

TEST(FilterTest, EmptyMatchesEverything) {
  EXPECT_TRUE(M("{}", "{}"));
  EXPECT_TRUE(M("{}", R"({"a": 1})"));
}

TEST(FilterTest, ImplicitEquality) {
  EXPECT_TRUE(M(R"({"a": 5})", R"({"a": 5})"));
  EXPECT_TRUE(M(R"({"a": 5})", R"({"a": 5.0})"));
  EXPECT_TRUE(M(R"({"a": 5})", R"({"a": {"$numberLong": "5"}})"));
  EXPECT_FALSE(M(R"({"a": 5})", R"({"a": "5"})"));
  EXPECT_FALSE(M(R"({"a": 5})", R"({"b": 5})"));
  // Arrays: any element, or the whole array.
  EXPECT_TRUE(M(R"({"a": 5})", R"({"a": [1, 5]})"));
  EXPECT_FALSE(M(R"({"a": 5})", R"({"a": [[5]]})"));
  EXPECT_TRUE(M(R"({"a": [1, 5]})", R"({"a": [1, 5]})"));
  EXPECT_FALSE(M(R"({"a": [1, 5]})", R"({"a": [5, 1]})"));
  EXPECT_TRUE(M(R"({"a": [1, 5]})", R"({"a": [[1, 5], 2]})"));
  EXPECT_FALSE(M(R"({"a": [1, 5]})", R"({"a": [1, 5, 6]})"));
  // Embedded documents match exactly, field order included.
  EXPECT_TRUE(M(R"({"a": {"b": 1, "c": 2}})", R"({"a": {"b": 1, "c": 2}})"));
  EXPECT_FALSE(M(R"({"a": {"b": 1, "c": 2}})", R"({"a": {"c": 2, "b": 1}})"));
  EXPECT_TRUE(M(R"({"a": {}})", R"({"a": {}})"));
  EXPECT_TRUE(M(R"({"a": 1, "b": 2})", R"({"b": 2, "a": 1})"));
  EXPECT_FALSE(M(R"({"a": 1, "b": 2})", R"({"a": 1, "b": 3})"));
}

TEST(FilterTest, DottedPaths) {
  EXPECT_TRUE(M(R"({"a.b": 1})", R"({"a": {"b": 1}})"));
  EXPECT_TRUE(M(R"({"a.b": 1})", R"({"a": [{"b": 1}]})"));
  EXPECT_TRUE(M(R"({"a.b": 1})", R"({"a": [{"b": 2}, {"b": [0, 1]}]})"));
  EXPECT_FALSE(M(R"({"a.b": 1})", R"({"a": [[{"b": 1}]]})"));
  EXPECT_TRUE(M(R"({"a.b.c": 1})", R"({"a": [{"b": [{"c": 1}]}]})"));
  EXPECT_FALSE(M(R"({"a.b": 1})", R"({"a": 1})"));
  // Numeric components index arrays, and also name object fields.
  EXPECT_TRUE(M(R"({"a.1": 5})", R"({"a": [4, 5]})"));
  EXPECT_FALSE(M(R"({"a.0": 5})", R"({"a": [4, 5]})"));
  EXPECT_TRUE(M(R"({"a.0.b": 1})", R"({"a": [{"b": 1}]})"));
  EXPECT_TRUE(M(R"({"a.0": 5})", R"({"a": {"0": 5}})"));
  EXPECT_TRUE(M(R"({"a.0": 5})", R"({"a": [{"0": 5}]})"));
}

TEST(FilterTest, NullMatchesMissing) {
  EXPECT_TRUE(M(R"({"a": null})", R"({})"));
  EXPECT_TRUE(M(R"({"a": null})", R"({"a": null})"));
  EXPECT_TRUE(M(R"({"a": null})", R"({"a": [1, null]})"));
  EXPECT_FALSE(M(R"({"a": null})", R"({"a": 0})"));
  EXPECT_FALSE(M(R"({"a": null})", R"({"a": [1]})"));
  EXPECT_TRUE(M(R"({"a.b": null})", R"({"a": [{"b": 1}, {"c": 1}]})"));
  EXPECT_FALSE(M(R"({"a.b": null})", R"({"a": [{"b": 1}]})"));
  EXPECT_TRUE(M(R"({"a": {"$ne": null}})", R"({"a": 1})"));
  EXPECT_FALSE(M(R"({"a": {"$ne": null}})", R"({})"));
  EXPECT_TRUE(M(R"({"a": {"$in": [null]}})", R"({})"));
  EXPECT_TRUE(M(R"({"a": {"$gte": null}})", R"({})"));
  EXPECT_TRUE(M(R"({"a": {"$lte": null}})", R"({"a": null})"));
  EXPECT_FALSE(M(R"({"a": {"$gt": null}})", R"({})"));
  EXPECT_FALSE(M(R"({"a": {"$lt": null}})", R"({"a": null})"));
}

TEST(FilterTest, Comparisons) {
  EXPECT_TRUE(M(R"({"a": {"$gt": 4}})", R"({"a": 5})"));
  EXPECT_FALSE(M(R"({"a": {"$gt": 5}})", R"({"a": 5})"));
  EXPECT_TRUE(M(R"({"a": {"$gte": 5}})", R"({"a": 5.0})"));
  EXPECT_TRUE(M(R"({"a": {"$lt": 5}})", R"({"a": 4.5})"));
  EXPECT_TRUE(M(R"({"a": {"$lte": 5}})", R"({"a": 5})"));
  EXPECT_TRUE(M(R"({"a": {"$eq": 5}})", R"({"a": [5]})"));
  // Type brackets: numbers never compare with strings and vice versa.
  EXPECT_FALSE(M(R"({"a": {"$lt": 5}})", R"({"a": "1"})"));
  EXPECT_FALSE(M(R"({"a": {"$gt": 5}})", R"({"a": "x"})"));
  EXPECT_FALSE(M(R"({"a": {"$lt": 5}})", R"({"a": null})"));
  EXPECT_FALSE(M(R"({"a": {"$lt": 5}})", R"({})"));
  EXPECT_TRUE(M(R"({"a": {"$gt": "abc"}})", R"({"a": "abd"})"));
  EXPECT_FALSE(M(R"({"a": {"$gt": "abc"}})", R"({"a": 1000})"));
  // Dates compare with Dates only.
  EXPECT_TRUE(M(R"({"a": {"$lt": {"$date": "2024-01-02T00:00:00Z"}}})",
                R"({"a": {"$date": "2024-01-01T00:00:00Z"}})"));
  EXPECT_FALSE(
      M(R"({"a": {"$lt": {"$date": "2024-01-02T00:00:00Z"}}})", R"({"a": 5})"));
  EXPECT_FALSE(
      M(R"({"a": {"$gt": 0}})", R"({"a": {"$date": "2024-01-01T00:00:00Z"}})"));
  // Arrays: some element satisfies each operator, not necessarily the same.
  EXPECT_TRUE(M(R"({"a": {"$gt": 10, "$lt": 5}})", R"({"a": [1, 20]})"));
  EXPECT_FALSE(M(R"({"a": {"$gt": 10}})", R"({"a": [1, 2]})"));
  // Range over a mixed-type field.
  EXPECT_TRUE(M(R"({"a": {"$gt": 1}})", R"({"a": ["x", 2]})"));
}

TEST(FilterTest, NeAndNinNegateTheWholeArray) {
  EXPECT_TRUE(M(R"({"a": {"$ne": 5}})", R"({"a": 4})"));
  EXPECT_TRUE(M(R"({"a": {"$ne": 5}})", R"({})"));
  EXPECT_FALSE(M(R"({"a": {"$ne": 5}})", R"({"a": [1, 5]})"));
  EXPECT_TRUE(M(R"({"a": {"$ne": 5}})", R"({"a": [1, 2]})"));
  EXPECT_FALSE(M(R"({"a": {"$ne": [1, 2]}})", R"({"a": [1, 2]})"));
  EXPECT_TRUE(M(R"({"a": {"$nin": [1, 2]}})", R"({"a": 3})"));
  EXPECT_TRUE(M(R"({"a": {"$nin": [1, 2]}})", R"({})"));
  EXPECT_FALSE(M(R"({"a": {"$nin": [1, 2]}})", R"({"a": [3, 2]})"));
  EXPECT_FALSE(M(R"({"a": {"$nin": [null]}})", R"({})"));
  EXPECT_TRUE(M(R"({"a.b": {"$ne": 1}})", R"({"a": [{"b": 2}, {"b": 3}]})"));
  EXPECT_FALSE(M(R"({"a.b": {"$ne": 1}})", R"({"a": [{"b": 2}, {"b": 1}]})"));
}

TEST(FilterTest, In) {
  EXPECT_TRUE(M(R"({"a": {"$in": [1, 2]}})", R"({"a": 2})"));
  EXPECT_FALSE(M(R"({"a": {"$in": [1, 2]}})", R"({"a": 3})"));
  EXPECT_TRUE(M(R"({"a": {"$in": [1, 2]}})", R"({"a": [5, 1]})"));
  EXPECT_FALSE(M(R"({"a": {"$in": []}})", R"({"a": 1})"));
  EXPECT_TRUE(M(R"({"a": {"$in": [[1, 2]]}})", R"({"a": [1, 2]})"));
  EXPECT_TRUE(M(
      R"({"a": {"$in": [{"$regularExpression": {"pattern": "^x", "options": ""}}]}})",
      R"({"a": "xyz"})"));
  EXPECT_FALSE(M(
      R"({"a": {"$in": [{"$regularExpression": {"pattern": "^x", "options": ""}}]}})",
      R"({"a": "axyz"})"));
}

TEST(FilterTest, Exists) {
  EXPECT_TRUE(M(R"({"a": {"$exists": true}})", R"({"a": null})"));
  EXPECT_FALSE(M(R"({"a": {"$exists": true}})", R"({})"));
  EXPECT_TRUE(M(R"({"a": {"$exists": false}})", R"({})"));
  EXPECT_TRUE(M(R"({"a": {"$exists": 0}})", R"({"b": 1})"));
  EXPECT_TRUE(M(R"({"a": {"$exists": 1}})", R"({"a": []})"));
  EXPECT_TRUE(M(R"({"a.b": {"$exists": true}})", R"({"a": [1, {"b": 2}]})"));
  EXPECT_FALSE(M(R"({"a.b": {"$exists": true}})", R"({"a": [{"c": 2}]})"));
  EXPECT_TRUE(M(R"({"a.b": {"$exists": false}})", R"({"a": [{"c": 2}]})"));
  EXPECT_TRUE(M(R"({"a.1": {"$exists": true}})", R"({"a": [0, 1]})"));
  EXPECT_FALSE(M(R"({"a.2": {"$exists": true}})", R"({"a": [0, 1]})"));
}

TEST(FilterTest, Type) {
  EXPECT_TRUE(M(R"({"a": {"$type": "string"}})", R"({"a": "x"})"));
  EXPECT_TRUE(M(R"({"a": {"$type": 2}})", R"({"a": "x"})"));
  EXPECT_FALSE(M(R"({"a": {"$type": "string"}})", R"({"a": 1})"));
  EXPECT_TRUE(M(R"({"a": {"$type": "number"}})", R"({"a": 1})"));
  EXPECT_TRUE(M(R"({"a": {"$type": "number"}})", R"({"a": 1.5})"));
  EXPECT_TRUE(M(R"({"a": {"$type": "int"}})", R"({"a": 1})"));
  EXPECT_TRUE(M(R"({"a": {"$type": 16}})", R"({"a": 1})"));
  EXPECT_FALSE(M(R"({"a": {"$type": "long"}})", R"({"a": 1})"));
  EXPECT_TRUE(
      M(R"({"a": {"$type": "long"}})", R"({"a": {"$numberLong": "1"}})"));
  EXPECT_TRUE(M(R"({"a": {"$type": 1}})", R"({"a": 1.5})"));
  EXPECT_TRUE(M(R"({"a": {"$type": "double"}})", R"({"a": 1.5})"));
  EXPECT_TRUE(M(R"({"a": {"$type": "date"}})",
                R"({"a": {"$date": "2024-01-01T00:00:00Z"}})"));
  EXPECT_TRUE(M(R"({"a": {"$type": 9}})",
                R"({"a": {"$date": "2024-01-01T00:00:00Z"}})"));
  EXPECT_TRUE(M(R"({"a": {"$type": "null"}})", R"({"a": null})"));
  EXPECT_FALSE(M(R"({"a": {"$type": "null"}})", R"({})"));
  EXPECT_TRUE(M(R"({"a": {"$type": "array"}})", R"({"a": []})"));
  EXPECT_TRUE(M(R"({"a": {"$type": 4}})", R"({"a": [1]})"));
  EXPECT_TRUE(M(R"({"a": {"$type": "string"}})", R"({"a": [1, "x"]})"));
  EXPECT_TRUE(M(R"({"a": {"$type": "object"}})", R"({"a": {}})"));
  EXPECT_TRUE(M(R"({"a": {"$type": "bool"}})", R"({"a": false})"));
  EXPECT_TRUE(M(R"({"a": {"$type": ["string", "bool"]}})", R"({"a": true})"));
  EXPECT_TRUE(M(R"({"a": {"$type": "objectId"}})",
                R"({"a": {"$oid": "5f0000000000000000000000"}})"));
}

TEST(FilterTest, Logical) {
  EXPECT_TRUE(M(R"({"$and": [{"a": 1}, {"b": 2}]})", R"({"a": 1, "b": 2})"));
  EXPECT_FALSE(M(R"({"$and": [{"a": 1}, {"b": 2}]})", R"({"a": 1})"));
  EXPECT_TRUE(M(R"({"$or": [{"a": 1}, {"b": 2}]})", R"({"b": 2})"));
  EXPECT_FALSE(M(R"({"$or": [{"a": 1}, {"b": 2}]})", R"({"b": 3})"));
  EXPECT_TRUE(M(R"({"$nor": [{"a": 1}, {"b": 2}]})", R"({"b": 3})"));
  EXPECT_FALSE(M(R"({"$nor": [{"a": 1}, {"b": 2}]})", R"({"a": 1})"));
  EXPECT_TRUE(
      M(R"({"$or": [{"a": {"$gt": 5}}, {"$and": [{"b": 1}, {"c": 1}]}]})",
        R"({"b": 1, "c": 1})"));
  EXPECT_TRUE(
      M(R"({"x": 1, "$or": [{"a": 1}, {"b": 1}]})", R"({"x": 1, "b": 1})"));
  EXPECT_FALSE(
      M(R"({"x": 1, "$or": [{"a": 1}, {"b": 1}]})", R"({"x": 2, "b": 1})"));
}

TEST(FilterTest, Not) {
  EXPECT_TRUE(M(R"({"a": {"$not": {"$gt": 5}}})", R"({"a": 3})"));
  EXPECT_TRUE(M(R"({"a": {"$not": {"$gt": 5}}})", R"({})"));
  EXPECT_TRUE(M(R"({"a": {"$not": {"$gt": 5}}})", R"({"a": "x"})"));
  EXPECT_FALSE(M(R"({"a": {"$not": {"$gt": 5}}})", R"({"a": 6})"));
  EXPECT_FALSE(M(R"({"a": {"$not": {"$gt": 5}}})", R"({"a": [1, 6]})"));
  EXPECT_TRUE(M(R"({"a": {"$not": {"$gt": 1, "$lt": 5}}})", R"({"a": 7})"));
  EXPECT_FALSE(M(R"({"a": {"$not": {"$gt": 1, "$lt": 5}}})", R"({"a": 3})"));
  EXPECT_TRUE(M(
      R"({"a": {"$not": {"$regularExpression": {"pattern": "^x", "options": ""}}}})",
      R"({"a": "yx"})"));
  EXPECT_FALSE(M(
      R"({"a": {"$not": {"$regularExpression": {"pattern": "^x", "options": ""}}}})",
      R"({"a": "xy"})"));
  EXPECT_TRUE(M(R"({"a": {"$not": {"$regex": "^x"}}})", R"({"a": "yx"})"));
}

TEST(FilterTest, All) {
  EXPECT_TRUE(M(R"({"a": {"$all": [1, 2]}})", R"({"a": [2, 3, 1]})"));
  EXPECT_FALSE(M(R"({"a": {"$all": [1, 2]}})", R"({"a": [2, 3]})"));
  EXPECT_TRUE(M(R"({"a": {"$all": [1]}})", R"({"a": 1})"));
  EXPECT_FALSE(M(R"({"a": {"$all": []}})", R"({"a": [1]})"));
  EXPECT_TRUE(M(R"({"a": {"$all": [[1, 2]]}})", R"({"a": [[1, 2], 3]})"));
  EXPECT_TRUE(M(R"({"a": {"$all": [[1, 2]]}})", R"({"a": [1, 2]})"));
  EXPECT_TRUE(M(
      R"({"a": {"$all": [{"$elemMatch": {"b": 1}}, {"$elemMatch": {"b": 2}}]}})",
      R"({"a": [{"b": 2}, {"b": 1}]})"));
  EXPECT_FALSE(M(
      R"({"a": {"$all": [{"$elemMatch": {"b": 1}}, {"$elemMatch": {"b": 3}}]}})",
      R"({"a": [{"b": 2}, {"b": 1}]})"));
}

TEST(FilterTest, Size) {
  EXPECT_TRUE(M(R"({"a": {"$size": 2}})", R"({"a": [1, [2, 3]]})"));
  EXPECT_FALSE(M(R"({"a": {"$size": 1}})", R"({"a": [1, [2, 3]]})"));
  EXPECT_TRUE(M(R"({"a": {"$size": 0}})", R"({"a": []})"));
  EXPECT_FALSE(M(R"({"a": {"$size": 0}})", R"({})"));
  EXPECT_FALSE(M(R"({"a": {"$size": 1}})", R"({"a": 1})"));
  EXPECT_TRUE(M(R"({"a.b": {"$size": 2}})", R"({"a": [{"b": [1, 2]}]})"));
  EXPECT_TRUE(M(R"({"a": {"$size": 2.0}})", R"({"a": [1, 2]})"));
}

TEST(FilterTest, ElemMatch) {
  // Document form.
  const std::string docs = R"({"a": [{"b": 1, "c": 5}, {"b": 2, "c": 1}]})";
  EXPECT_TRUE(M(R"({"a": {"$elemMatch": {"b": 1, "c": 5}}})", docs));
  EXPECT_FALSE(M(R"({"a": {"$elemMatch": {"b": 1, "c": 1}}})", docs));
  // Without $elemMatch the conditions may be met by different elements.
  EXPECT_TRUE(M(R"({"a.b": 1, "a.c": 1})", docs));
  EXPECT_TRUE(M(R"({"a": {"$elemMatch": {"b": {"$gt": 1}}}})", docs));
  EXPECT_TRUE(
      M(R"({"a": {"$elemMatch": {"$or": [{"b": 9}, {"c": 1}]}}})", docs));
  EXPECT_FALSE(M(R"({"a": {"$elemMatch": {"b": 1}}})", R"({"a": {"b": 1}})"));
  // Value form.
  EXPECT_TRUE(M(R"({"a": {"$elemMatch": {"$gte": 80, "$lt": 85}}})",
                R"({"a": [82, 90]})"));
  EXPECT_FALSE(M(R"({"a": {"$elemMatch": {"$gte": 80, "$lt": 85}}})",
                 R"({"a": [79, 90]})"));
  EXPECT_TRUE(M(R"({"a": {"$gte": 80, "$lt": 85}})", R"({"a": [79, 90]})"));
  EXPECT_TRUE(M(R"({"a": {"$elemMatch": {"$ne": 1}}})", R"({"a": [1, 2]})"));
  EXPECT_FALSE(M(R"({"a": {"$elemMatch": {"$ne": 1}}})", R"({"a": [1, 1]})"));
  EXPECT_FALSE(M(R"({"a": {"$elemMatch": {"$gt": 0}}})", R"({"a": 5})"));
  EXPECT_TRUE(M(R"({"a": {"$elemMatch": {"$elemMatch": {"$gt": 5}}}})",
                R"({"a": [[1], [6]]})"));
  EXPECT_TRUE(M(R"({"a.b": {"$elemMatch": {"$gt": 5}}})",
                R"({"a": [{"b": [1]}, {"b": [6]}]})"));
}

TEST(FilterTest, Regex) {
  EXPECT_TRUE(M(R"({"a": {"$regex": "^ab"}})", R"({"a": "abc"})"));
  EXPECT_FALSE(M(R"({"a": {"$regex": "^ab"}})", R"({"a": "cab"})"));
  EXPECT_TRUE(M(R"({"a": {"$regex": "b"}})", R"({"a": "cab"})"));
  EXPECT_FALSE(M(R"({"a": {"$regex": "^AB"}})", R"({"a": "abc"})"));
  EXPECT_TRUE(
      M(R"({"a": {"$regex": "^AB", "$options": "i"}})", R"({"a": "abc"})"));
  EXPECT_TRUE(
      M(R"({"a": {"$options": "i", "$regex": "^AB"}})", R"({"a": "abc"})"));
  EXPECT_FALSE(M(R"({"a": {"$regex": "^b"}})", R"({"a": "a\nb"})"));
  EXPECT_TRUE(
      M(R"({"a": {"$regex": "^b", "$options": "m"}})", R"({"a": "a\nb"})"));
  EXPECT_FALSE(M(R"({"a": {"$regex": "a.b"}})", R"({"a": "a\nb"})"));
  EXPECT_TRUE(
      M(R"({"a": {"$regex": "a.b", "$options": "s"}})", R"({"a": "a\nb"})"));
  EXPECT_TRUE(M(R"({"a": {"$regex": "a b # comment", "$options": "x"}})",
                R"({"a": "ab"})"));
  EXPECT_TRUE(M(R"({"a": {"$regex": "^x"}})", R"({"a": ["y", "xz"]})"));
  EXPECT_FALSE(M(R"({"a": {"$regex": "1"}})", R"({"a": 1})"));
  EXPECT_FALSE(M(R"({"a": {"$regex": "x"}})", R"({})"));
  // A regex Value as the field's value is a pattern match.
  EXPECT_TRUE(
      M(R"({"a": {"$regularExpression": {"pattern": "^A", "options": "i"}}})",
        R"({"a": "abc"})"));
  EXPECT_TRUE(M(
      R"({"a": {"$regex": {"$regularExpression": {"pattern": "^a", "options": ""}}}})",
      R"({"a": "abc"})"));
  // $eq with a regex matches only the stored regex itself.
  EXPECT_FALSE(M(
      R"({"a": {"$eq": {"$regularExpression": {"pattern": "^a", "options": ""}}}})",
      R"({"a": "abc"})"));
  EXPECT_TRUE(M(
      R"({"a": {"$eq": {"$regularExpression": {"pattern": "^a", "options": ""}}}})",
      R"({"a": {"$regularExpression": {"pattern": "^a", "options": ""}}})"));
}

TEST(FilterTest, Mod) {
  EXPECT_TRUE(M(R"({"a": {"$mod": [4, 0]}})", R"({"a": 8})"));
  EXPECT_FALSE(M(R"({"a": {"$mod": [4, 0]}})", R"({"a": 9})"));
  EXPECT_TRUE(M(R"({"a": {"$mod": [4, 1]}})", R"({"a": 9.5})"));
  EXPECT_TRUE(M(R"({"a": {"$mod": [4, -1]}})", R"({"a": -5})"));
  EXPECT_TRUE(M(R"({"a": {"$mod": [4, 0]}})", R"({"a": [1, 12]})"));
  EXPECT_FALSE(M(R"({"a": {"$mod": [4, 0]}})", R"({"a": "8"})"));
  EXPECT_FALSE(M(R"({"a": {"$mod": [4, 0]}})", R"({})"));
}

TEST(FilterTest, ParseErrors) {
  ExpectBadValue(R"({"a": {"$foo": 1}})", "unknown operator: $foo");
  // MongoDB's message (src/mongo/db/matcher/expression_parser.cpp).
  ExpectBadValue(R"({"$foo": 1})",
                 "unknown top level operator: $foo. If you have a field name "
                 "that starts with a '$' symbol, consider using $getField or "
                 "$setField.");
  ExpectBadValue(R"({"$and": []})", "$and must be a nonempty array");
  ExpectBadValue(R"({"$or": 1})", "$or must be a nonempty array");
  ExpectBadValue(R"({"$nor": {}})", "$nor must be a nonempty array");
  ExpectBadValue(R"({"$or": [1]})",
                 "$or/$and/$nor entries need to be full objects");
  ExpectBadValue(R"({"a": {"$in": 1}})", "$in needs an array");
  ExpectBadValue(R"({"a": {"$nin": {}}})", "$nin needs an array");
  ExpectBadValue(R"({"a": {"$size": "x"}})", "$size needs a number");
  ExpectBadValue(R"({"a": {"$size": -1}})", "$size may not be negative");
  ExpectBadValue(R"({"a": {"$size": 1.5}})", "$size must be a whole number");
  ExpectBadValue(R"({"a": {"$all": 1}})", "$all needs an array");
  ExpectBadValue(R"({"a": {"$mod": 1}})",
                 "malformed mod, needs to be an array");
  ExpectBadValue(R"({"a": {"$mod": [1]}})",
                 "malformed mod, not enough elements");
  ExpectBadValue(R"({"a": {"$mod": [1, 2, 3]}})",
                 "malformed mod, too many elements");
  ExpectBadValue(R"({"a": {"$mod": ["x", 2]}})",
                 "malformed mod, divisor not a number");
  ExpectBadValue(R"({"a": {"$mod": [1, "x"]}})",
                 "malformed mod, remainder not a number");
  ExpectBadValue(R"({"a": {"$mod": [0, 1]}})", "divisor cannot be 0");
  ExpectBadValue(R"({"a": {"$not": 1}})", "$not needs a regex or a document");
  ExpectBadValue(R"({"a": {"$not": {}}})", "$not cannot be empty");
  ExpectBadValue(R"({"a": {"$elemMatch": 1}})", "$elemMatch needs an Object");
  ExpectBadValue(R"({"a": {"$type": "foo"}})", "Unknown type name alias: foo");
  ExpectBadValue(R"({"a": {"$type": 100}})",
                 "Invalid numerical type code: 100");
  // Found by fuzz/filter_fuzz (UBSan: a double cast to int out of range).
  ExpectBadValue(R"({"a": {"$type": 1e130}})",
                 "Invalid numerical type code: 1e+130");
  ExpectBadValue(R"({"a": {"$regex": 1}})", "$regex has to be a string");
  ExpectBadValue(R"({"a": {"$options": "i"}})", "$options needs a $regex");
  ExpectBadValue(R"({"a": {"$gt": 1, "b": 2}})", "unknown operator: b");
  absl::Status s = ParseError(R"({"a": {"$type": true}})");
  EXPECT_EQ(ErrorCode(s), kTypeMismatch);
  EXPECT_EQ(s.message(), "type must be represented as a number or a string");
  // Code 51108 with a leading space: src/mongo/util/pcre_util.cpp
  // flagsToOptions formats "{} invalid flag in regex options: {}" with the
  // matcher's empty opName.
  s = ParseError(R"({"a": {"$regex": "x", "$options": "z"}})");
  EXPECT_EQ(ErrorCode(s), 51108);
  EXPECT_EQ(s.message(), " invalid flag in regex options: z");
  s = ParseError(R"({"a": {"$regex": "("}})");
  EXPECT_EQ(ErrorCode(s), 51091);
}

TEST(FilterTest, TreeForPlanner) {
  auto f = Filter::Parse(
      Doc(R"({"a": 5, "b": {"$gt": 1, "$lte": 9}, "c.d": {"$in": [1, 2]}})"));
  ASSERT_TRUE(f.ok());
  const MatchExpr& root = f->root();
  ASSERT_EQ(root.kind, MatchExpr::Kind::kAnd);
  ASSERT_EQ(root.children.size(), 4u);
  EXPECT_EQ(root.children[0].kind, MatchExpr::Kind::kEq);
  EXPECT_EQ(root.children[0].path, "a");
  EXPECT_EQ(ToJson(root.children[0].operand), "5");
  EXPECT_EQ(root.children[1].kind, MatchExpr::Kind::kGt);
  EXPECT_EQ(root.children[1].path, "b");
  EXPECT_EQ(root.children[2].kind, MatchExpr::Kind::kLte);
  EXPECT_EQ(root.children[3].kind, MatchExpr::Kind::kIn);
  EXPECT_EQ(root.children[3].path, "c.d");
  EXPECT_EQ(root.children[3].parts.size(), 2u);
  EXPECT_EQ(root.children[3].operands.size(), 2u);
}

TEST(FilterTest, ValueCondition) {
  auto f = Filter::ParseValueCondition(Doc(R"({"$gte": 6, "$lt": 9})"));
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(f->MatchesValue(Value::Int32(6)));
  EXPECT_FALSE(f->MatchesValue(Value::Int32(9)));
  EXPECT_FALSE(f->MatchesValue(Value::String("7")));
}

}  // namespace
}  // namespace ttldb

namespace ttldb {
namespace {

// Found by fuzz/filter_fuzz when ttldb used std::regex: a huge
// back-reference number overflowed, {n} with a huge n exhausted memory.
// PCRE2 rejects quantifiers above 65535 (MongoDB: 51091), and reads
// "\333..." as the octal escape \333 followed by digits, as MongoDB does.
TEST(FilterRegexLimits, HugeBackReferencesAndRepeatsAreRejected) {
  for (const char* pattern : {R"({"d": {"$regex": "a{1000000}"}})",
                              R"({"d": {"$regex": "a{2,99999}"}})"}) {
    auto doc = ParseDocument(pattern);
    ASSERT_TRUE(doc.ok()) << pattern;
    auto f = Filter::Parse(*doc);
    ASSERT_FALSE(f.ok()) << pattern;
    EXPECT_EQ(ErrorCode(f.status()), 51091) << f.status();
    EXPECT_EQ(f.status().message(),
              "Regular expression is invalid: number too big in {} quantifier");
  }
  // Ordinary uses still work: small repeats, a literal brace, a literal number.
  for (const char* pattern :
       {R"({"d": {"$regex": "^a{2,3}$"}})", R"({"d": {"$regex": "\\{x\\}"}})",
        R"({"d": {"$regex": "1234567890123"}})",
        R"({"d": {"$regex": "a\\3333333333333333333333"}})"}) {
    auto f = Filter::Parse(*ParseDocument(pattern));
    EXPECT_TRUE(f.ok()) << pattern << " " << f.status();
  }
}

}  // namespace
}  // namespace ttldb

namespace ttldb {
namespace {

// jstests/decimal/decimal_find_basic.js and decimal_find_query.js: decimals
// equal numbers of every type by value (NumberDecimal("1.00") matches 1,
// 1.0 and NumberLong(1)), 0.1 decimal is below the double 0.1, NaN decimal
// equals NaN double, and -0 equals 0.
TEST(FilterDecimalTest, ComparesByValueAcrossTypes) {
  EXPECT_TRUE(M(R"({"a": {"$numberDecimal": "1.00"}})", R"({"a": 1})"));
  EXPECT_TRUE(M(R"({"a": {"$numberDecimal": "1.00"}})", R"({"a": 1.0})"));
  EXPECT_TRUE(M(R"({"a": 1})", R"({"a": {"$numberDecimal": "1.0"}})"));
  EXPECT_TRUE(M(R"({"a": {"$numberLong": "1"}})",
                R"({"a": {"$numberDecimal": "1E0"}})"));
  EXPECT_FALSE(M(R"({"a": 0.1})", R"({"a": {"$numberDecimal": "0.1"}})"));
  EXPECT_TRUE(
      M(R"({"a": {"$lt": 0.1}})", R"({"a": {"$numberDecimal": "0.1"}})"));
  EXPECT_TRUE(M(R"({"a": {"$numberDecimal": "NaN"}})",
                R"({"a": {"$numberDouble": "NaN"}})"));
  EXPECT_TRUE(M(R"({"a": {"$numberDecimal": "-0"}})", R"({"a": 0})"));
  EXPECT_TRUE(
      M(R"({"a": {"$gt": 1e308}})", R"({"a": {"$numberDecimal": "1E+309"}})"));
  EXPECT_TRUE(M(R"({"a": {"$lt": {"$numberDouble": "Infinity"}}})",
                R"({"a": {"$numberDecimal": "1E+6144"}})"));
  EXPECT_TRUE(M(R"({"a": {"$in": [{"$numberDecimal": "2.50"}]}})",
                R"({"a": [1, 2.5]})"));
}

// expression_leaf.cpp ComparisonMatchExpressionBase: NaN (a decimal NaN too,
// whose numberDouble() is NaN) equals NaN and otherwise compares false.
TEST(FilterDecimalTest, NaNComparesFalse) {
  const std::string nan = R"({"a": {"$numberDecimal": "NaN"}})";
  EXPECT_FALSE(M(R"({"a": {"$lt": 0}})", nan));
  EXPECT_FALSE(M(R"({"a": {"$gt": {"$numberDouble": "-Infinity"}}})", nan));
  EXPECT_TRUE(M(R"({"a": {"$lte": {"$numberDouble": "NaN"}}})", nan));
  EXPECT_FALSE(M(R"({"a": {"$lt": {"$numberDecimal": "NaN"}}})", nan));
  EXPECT_FALSE(
      M(R"({"a": {"$gte": {"$numberDecimal": "NaN"}}})", R"({"a": 5})"));
  EXPECT_TRUE(M(R"({"a": {"$gte": {"$numberDecimal": "-NaN"}}})",
                R"({"a": {"$numberDouble": "NaN"}})"));
}

// $type "decimal" and 19
// (jstests/core/query/type/type_operator_on_missing_values and the $type alias
// table); "number" includes decimals.
TEST(FilterDecimalTest, Type) {
  const std::string dec = R"({"a": {"$numberDecimal": "1"}})";
  EXPECT_TRUE(M(R"({"a": {"$type": "decimal"}})", dec));
  EXPECT_TRUE(M(R"({"a": {"$type": 19}})", dec));
  EXPECT_TRUE(M(R"({"a": {"$type": "number"}})", dec));
  EXPECT_FALSE(M(R"({"a": {"$type": "double"}})", dec));
  EXPECT_FALSE(M(R"({"a": {"$type": "decimal"}})", R"({"a": 1.5})"));
}

// expression_leaf.cpp ModMatchExpression: a decimal dividend truncates
// toward zero; NaN and infinities match nothing.
TEST(FilterDecimalTest, Mod) {
  EXPECT_TRUE(
      M(R"({"a": {"$mod": [4, 1]}})", R"({"a": {"$numberDecimal": "5.9"}})"));
  EXPECT_TRUE(
      M(R"({"a": {"$mod": [4, -1]}})", R"({"a": {"$numberDecimal": "-5.9"}})"));
  EXPECT_FALSE(
      M(R"({"a": {"$mod": [4, 0]}})", R"({"a": {"$numberDecimal": "NaN"}})"));
  EXPECT_FALSE(M(R"({"a": {"$mod": [4, 0]}})",
                 R"({"a": {"$numberDecimal": "Infinity"}})"));
  EXPECT_FALSE(
      M(R"({"a": {"$mod": [4, 0]}})", R"({"a": {"$numberDecimal": "1E+30"}})"));
  EXPECT_TRUE(
      M(R"({"a": {"$mod": [{"$numberDecimal": "4"}, 1]}})", R"({"a": 5})"));
  EXPECT_TRUE(
      M(R"({"a": {"$size": {"$numberDecimal": "2"}}})", R"({"a": [1, 2]})"));
}

// $in is a sorted set lookup (filter.h MatchExpr::InSet) with exactly the
// semantics of an $or of equalities (MongoDB's manual: "$in ... selects the
// documents where the value of a field equals any value in the specified
// array"; expression_leaf.cpp InMatchExpression::matchesSingleElement),
// regexes and null included: numbers equal across int, long, double and
// decimal (jstests/core/query/in/in.js, numeric types), NaN equals NaN
// (jstests/core/query/nan.js), arrays and objects compare whole.
TEST(FilterTest, InSetEquivalentToOrOfEqualities) {
  const std::vector<std::string> pool = {
      "1",
      "1.0",
      R"({"$numberLong": "1"})",
      R"({"$numberDecimal": "1.00"})",
      "2",
      "-0.0",
      "0",
      R"({"$numberDecimal": "-0"})",
      "2.5",
      R"({"$numberDecimal": "2.50"})",
      R"({"$numberDouble": "NaN"})",
      R"({"$numberDecimal": "NaN"})",
      R"({"$numberDouble": "Infinity"})",
      R"({"$numberDecimal": "Infinity"})",
      R"({"$numberLong": "9007199254740993"})",
      "9007199254740992.0",
      R"({"$numberDecimal": "0.1"})",
      "0.1",
      R"("a")",
      R"("ab")",
      R"("b")",
      R"("1")",
      "null",
      "true",
      "false",
      "[]",
      "[1, 2]",
      "[1.0, 2]",
      "[2, 1]",
      "[null]",
      R"({"x": 1})",
      R"({"x": 1.0})",
      R"({"x": 1, "y": 2})",
      R"({"$date": {"$numberLong": "1"}})",
      R"({"$oid": "000000000000000000000001"})",
      R"({"$minKey": 1})",
      R"({"$maxKey": 1})",
  };
  const std::vector<std::string> regexes = {
      R"({"$regularExpression": {"pattern": "^a", "options": ""}})",
      R"({"$regularExpression": {"pattern": "B", "options": "i"}})",
  };
  uint64_t state = 18;
  auto next = [&state](uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string> list;
    const int n = 1 + static_cast<int>(next(8));
    for (int j = 0; j < n; ++j) {
      list.push_back(next(10) == 0 ? regexes[next(regexes.size())]
                                   : pool[next(pool.size())]);
    }
    std::string in = R"({"a": {"$in": [)";
    std::string ors = R"({"$or": [)";
    for (int j = 0; j < n; ++j) {
      const bool re = list[j].find("$regularExpression") != std::string::npos;
      in += (j ? ", " : "") + list[j];
      ors += std::string(j ? ", " : "") + R"({"a": )" +
             (re ? list[j] : R"({"$eq": )" + list[j] + "}") + "}";
    }
    in += "]}}";
    ors += "]}";
    for (int k = 0; k < 20; ++k) {
      std::string doc;
      switch (next(4)) {
        case 0:
          doc = "{}";
          break;
        case 1:
          doc = R"({"a": [)" + pool[next(pool.size())] + ", " +
                pool[next(pool.size())] + "]}";
          break;
        default:
          doc = R"({"a": )" + pool[next(pool.size())] + "}";
      }
      EXPECT_EQ(M(in, doc), M(ors, doc)) << in << " on " << doc;
      std::string nin = in;
      nin.replace(nin.find("$in"), 3, "$nin");
      EXPECT_EQ(M(nin, doc), !M(ors, doc)) << nin << " on " << doc;
    }
  }
  // Cross-type numeric equality, both ways round.
  EXPECT_TRUE(M(R"({"a": {"$in": [{"$numberDecimal": "1.00"}]}})",
                R"({"a": {"$numberLong": "1"}})"));
  EXPECT_TRUE(
      M(R"({"a": {"$in": [1, "x"]}})", R"({"a": {"$numberDecimal": "1.00"}})"));
  EXPECT_TRUE(M(R"({"a": {"$in": [{"$numberDouble": "NaN"}]}})",
                R"({"a": {"$numberDecimal": "NaN"}})"));
  EXPECT_FALSE(M(R"({"a": {"$in": [{"$numberLong": "9007199254740993"}]}})",
                 R"({"a": 9007199254740992.0})"));
  EXPECT_TRUE(M(R"({"a": {"$in": [null, 5]}})", "{}"));
}

}  // namespace
}  // namespace ttldb

namespace ttldb {
namespace {

// $expr (manual, "$expr": "Compare Two Fields from A Single Document":
// {$expr: {$gt: ["$spent", "$budget"]}} selects the documents that spent
// over budget; "Use $expr With Conditional Statements").
TEST(FilterExprTest, ComparesFieldsOfOneDocument) {
  const char* f = R"({"$expr": {"$gt": ["$spent", "$budget"]}})";
  EXPECT_TRUE(M(f, R"({"category": "food", "budget": 400, "spent": 450})"));
  EXPECT_FALSE(M(f, R"({"category": "misc", "budget": 500, "spent": 300})"));
  EXPECT_TRUE(M(R"({"$expr": {"$lt": [{"$cond": {
      "if": {"$gte": ["$qty", 100]},
      "then": {"$multiply": ["$price", 0.5]},
      "else": {"$multiply": ["$price", 0.75]}}}, 5]}})",
                R"({"qty": 300, "price": 9})"));
  // Truthiness, not strict booleans (ExprMatchExpression coerces to bool).
  EXPECT_TRUE(M(R"({"$expr": "$a"})", R"({"a": "x"})"));
  EXPECT_FALSE(M(R"({"$expr": "$a"})", R"({"a": 0})"));
  EXPECT_FALSE(M(R"({"$expr": "$a"})", R"({})"));
}

// $expr combines with other predicates and sits inside $and/$or/$nor
// (expression_parser.cpp: top-level only).
TEST(FilterExprTest, InsideLogicalOperators) {
  EXPECT_TRUE(M(R"({"x": 1, "$expr": {"$eq": ["$a", "$b"]}})",
                R"({"x": 1, "a": 2, "b": 2})"));
  EXPECT_FALSE(M(R"({"x": 2, "$expr": {"$eq": ["$a", "$b"]}})",
                 R"({"x": 1, "a": 2, "b": 2})"));
  EXPECT_TRUE(M(R"({"$or": [{"x": 5}, {"$expr": {"$eq": ["$a", "$b"]}}]})",
                R"({"a": 2, "b": 2})"));
  EXPECT_TRUE(M(R"({"$nor": [{"$expr": {"$eq": ["$a", "$b"]}}]})",
                R"({"a": 2, "b": 3})"));
  ExpectBadValue(R"({"a": {"$elemMatch": {"$expr": {"$eq": [1, 1]}}}})",
                 "$expr can only be applied to the top-level document");
}

// A bad expression is the expression's parse error; an evaluation error
// fails MatchesOrError (MongoDB fails the query) and is no match for
// Matches.
TEST(FilterExprTest, Errors) {
  absl::Status s = ParseError(R"({"$expr": {"$nosuch": 1}})");
  EXPECT_EQ(ErrorCode(s), 168) << s;
  EXPECT_EQ(s.message(), "Unrecognized expression '$nosuch'");
  auto f = Filter::Parse(Doc(R"({"$expr": {"$divide": [1, "$d"]}})"));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_FALSE(f->Matches(Doc(R"({"d": 0})")));
  auto r = f->MatchesOrError(Doc(R"({"d": 0})"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(ErrorCode(r.status()), 2);
  EXPECT_EQ(r.status().message(), "can't $divide by zero");
  auto ok = f->MatchesOrError(Doc(R"({"d": 2})"));
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(*ok);
}

// $$NOW is the time given to Parse (the query's time).
TEST(FilterExprTest, NowIsTheQueryTime) {
  auto f = Filter::Parse(Doc(R"({"$expr": {"$lt": ["$expires", "$$NOW"]}})"),
                         absl::FromUnixMillis(1000));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(f->Matches(Doc(R"({"expires": {"$date": 999}})")));
  EXPECT_FALSE(f->Matches(Doc(R"({"expires": {"$date": 1000}})")));
}

// jstests/core/query/always_true_false.js; matcher/expression_parser.cpp
// parseAlwaysBoolean (FailedToParse "must be an integer value of 1").
TEST(FilterTest, AlwaysTrueFalse) {
  EXPECT_TRUE(M(R"({"$alwaysTrue": 1})", R"({"a": 1})"));
  EXPECT_FALSE(M(R"({"$alwaysFalse": 1})", R"({"a": 1})"));
  EXPECT_TRUE(M(R"({"$or": [{"b": 1}, {"$alwaysTrue": 1}]})", "{}"));
  EXPECT_FALSE(
      M(R"({"$and": [{"a": 1}, {"$alwaysFalse": 1.0}]})", R"({"a": 1})"));
  EXPECT_TRUE(M(R"({"$alwaysTrue": 1, "a": false})", R"({"a": false})"));
  absl::Status s = ParseError(R"({"$alwaysTrue": 0})");
  EXPECT_EQ(ErrorCode(s), kFailedToParse);
  EXPECT_EQ(s.message(), "$alwaysTrue must be an integer value of 1");
  EXPECT_EQ(ErrorCode(ParseError(R"({"$alwaysFalse": "1"})")), kFailedToParse);
  EXPECT_EQ(ErrorCode(ParseError(R"({"a": {"$alwaysFalse": 1}})")), kBadValue);
}

// jstests/core/query/elemmatch/elemmatch_projection.js; expression_parser.cpp
// isExpressionDocument(e, /*allowIncompleteDBRef=*/true): a DBRef field
// makes $elemMatch's argument an object match.
TEST(FilterTest, ElemMatchOnDBRefFields) {
  const char doc[] =
      R"({"x": [{"$ref": "c", "$id": "id0", "$db": "d"},
                {"$ref": "c2", "$id": "id1", "$db": "d"}]})";
  EXPECT_TRUE(M(R"({"x": {"$elemMatch": {"$id": "id1"}}})", doc));
  EXPECT_FALSE(M(R"({"x": {"$elemMatch": {"$id": "id9"}}})", doc));
  EXPECT_TRUE(M(R"({"x": {"$elemMatch": {"$ref": "c2", "$id": "id1"}}})", doc));
  EXPECT_FALSE(
      M(R"({"x": {"$elemMatch": {"$ref": "c2", "$id": "id0"}}})", doc));
  EXPECT_TRUE(M(R"({"x": {"$elemMatch": {"$db": {"$in": ["d"]}}}})", doc));
  // Still an unknown operator at the top level.
  EXPECT_EQ(ErrorCode(ParseError(R"({"$id": 1})")), kBadValue);
}

}  // namespace
}  // namespace ttldb
