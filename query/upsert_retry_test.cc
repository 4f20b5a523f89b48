#include "query/upsert_retry.h"

#include <string>

#include "gtest/gtest.h"
#include "query/filter.h"
#include "query/test_doc.h"

namespace ttldb {
namespace {

// Whether an upsert with `filter` retries after a duplicate key on the index
// `key_pattern` for the values `key_value`.
bool Retries(const std::string& filter, const std::string& key_pattern,
             const std::string& key_value) {
  auto f = Filter::Parse(Doc(filter));
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() &&
         ShouldRetryUpsertDuplicateKey(*f, Doc(key_pattern), Doc(key_value));
}

TEST(UpsertRetryTest, EqualitiesOnTheKeyRetry) {
  EXPECT_TRUE(
      Retries(R"({"_id": "page"})", R"({"_id": 1})", R"({"_id": "page"})"));
  EXPECT_TRUE(Retries(R"({"_id": {"$eq": "page"}})", R"({"_id": 1})",
                      R"({"_id": "page"})"));
  EXPECT_TRUE(Retries(R"({"key": "k"})", R"({"key": 1})", R"({"key": "k"})"));
  // A compound key, named in another order than the key pattern.
  EXPECT_TRUE(Retries(R"({"b": 2, "a": 1})", R"({"a": 1, "b": -1})",
                      R"({"a": 1, "b": 2})"));
  EXPECT_TRUE(Retries(R"({"a.b": 1})", R"({"a.b": 1})", R"({"a.b": 1})"));
  // Numbers compare as numbers; null is a missing field's key.
  EXPECT_TRUE(Retries(R"({"n": 5})", R"({"n": 1})",
                      R"({"n": {"$numberDouble": "5.0"}})"));
  EXPECT_TRUE(Retries(R"({"n": null})", R"({"n": 1})", R"({"n": null})"));
}

TEST(UpsertRetryTest, OptimizedFormsOfEqualitiesRetry) {
  // MongoDB's optimizer flattens $and, unwraps a one-clause $or and makes a
  // one-value $in an $eq; $comment is no predicate.
  EXPECT_TRUE(Retries(R"({"$and": [{"a": 1}, {"$and": [{"b": 2}]}]})",
                      R"({"a": 1, "b": 1})", R"({"a": 1, "b": 2})"));
  EXPECT_TRUE(Retries(R"({"$or": [{"a": 1}]})", R"({"a": 1})", R"({"a": 1})"));
  EXPECT_TRUE(Retries(R"({"a": {"$in": [1]}})", R"({"a": 1})", R"({"a": 1})"));
  EXPECT_TRUE(
      Retries(R"({"a": 1, "$comment": "x"})", R"({"a": 1})", R"({"a": 1})"));
}

TEST(UpsertRetryTest, AnythingButEqualitiesDoesNotRetry) {
  EXPECT_FALSE(Retries(R"({"_id": "p", "n": {"$gte": 0}})", R"({"_id": 1})",
                       R"({"_id": "p"})"));
  EXPECT_FALSE(
      Retries(R"({"a": {"$in": [1, 2]}})", R"({"a": 1})", R"({"a": 1})"));
  EXPECT_FALSE(Retries(R"({"$or": [{"a": 1}, {"a": 2}]})", R"({"a": 1})",
                       R"({"a": 1})"));
  EXPECT_FALSE(
      Retries(R"({"a": {"$not": {"$ne": 1}}})", R"({"a": 1})", R"({"a": 1})"));
  EXPECT_FALSE(
      Retries(R"({"a": {"$regex": "^x"}})", R"({"a": 1})", R"({"a": "x"})"));
  EXPECT_FALSE(Retries(R"({"$expr": {"$eq": ["$a", 1]}})", R"({"a": 1})",
                       R"({"a": 1})"));
}

TEST(UpsertRetryTest, TheKeyMustBeExactlyTheEqualities) {
  // More equalities than key fields.
  EXPECT_FALSE(
      Retries(R"({"_id": "p", "x": 1})", R"({"_id": 1})", R"({"_id": "p"})"));
  // A key field the filter does not name.
  EXPECT_FALSE(
      Retries(R"({"_id": "p"})", R"({"email": 1})", R"({"email": "e"})"));
  EXPECT_FALSE(
      Retries(R"({"a": 1})", R"({"a": 1, "b": 1})", R"({"a": 1, "b": null})"));
  // Another value than the filter asks for.
  EXPECT_FALSE(Retries(R"({"a": 1})", R"({"a": 1})", R"({"a": 2})"));
  EXPECT_FALSE(Retries(R"({"a": "1"})", R"({"a": 1})", R"({"a": 1})"));
  // A path and its prefix: no equalities MongoDB can extract.
  EXPECT_FALSE(Retries(R"({"a": {"b": 1}, "a.b": 1})", R"({"a": 1, "a.b": 1})",
                       R"({"a": {"b": 1}, "a.b": 1})"));
  EXPECT_FALSE(Retries(R"({})", R"({"_id": 1})", R"({"_id": 1})"));
}

}  // namespace
}  // namespace ttldb
