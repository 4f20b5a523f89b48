// Collations through the command layer: find, count, distinct, aggregate,
// update, delete and findAndModify with `collation`; the collection default
// (create's `collation`, listCollections); index collations (createIndexes,
// listIndexes, the unique case-insensitive index, the planner's rule).
// Expected answers: MongoDB 8.0's jstests/core/query/collation/collation.js
// (the resolved spec listIndexes and listCollections show; "an index with a
// collation is not used by a query with another"; count, distinct, find,
// aggregate, update, remove and findAndModify with a collation; indexes and
// queries inheriting the collection default, {locale: "simple"}
// overriding it), src/mongo/db/query/query_planner_collation_test.cpp
// (StringPredicatesUseIndexOnlyWithMatchingCollation), the manual's
// Collation page (https://www.mongodb.com/docs/manual/reference/collation/:
// strength 2 is case-insensitive, numericOrdering "10" after "2",
// case-insensitive unique index: https://www.mongodb.com/docs/manual/core/
// index-case-insensitive/).
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "commands/command_test_util.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace commands {
namespace {

constexpr char kCi[] = R"({"locale": "en_US", "strength": 2})";

class CollationTest : public CommandTest {
 protected:
  int Code(const std::string& cmd) {
    Value r = Run("test", cmd);
    const Value* code = r.Get("code");
    return code == nullptr ? 0 : static_cast<int>(code->int64_value());
  }
  // The `field` of each document of a find / aggregate's first batch.
  std::string Values(const std::string& cmd, const char* field = "a") {
    Value r = Run("test", cmd);
    const Value* c = r.Get("cursor");
    if (c == nullptr) return ToJson(r);
    std::string out;
    for (const Value& d : c->Get("firstBatch")->array_items()) {
      const Value* v = d.Get(field);
      absl::StrAppend(&out, out.empty() ? "" : ",",
                      v == nullptr ? "-" : ToJson(*v));
    }
    return out;
  }
  void Insert(const std::string& docs, const std::string& coll = "c") {
    Value r = Run("test", absl::StrCat(R"({"insert": ")", coll,
                                       R"(", "documents": )", docs, "}"));
    ASSERT_EQ(F(r, "ok"), "1.0") << ToJson(r);
    ASSERT_EQ(r.Get("writeErrors"), nullptr) << ToJson(r);
  }
  static std::string F(const Value& v, const char* name) {
    const Value* f = v.Get(name);
    return f == nullptr ? std::string("<none>") : ToJson(*f);
  }
  // The index the plan of a find uses, or "COLLSCAN".
  std::string PlanOf(const std::string& find) {
    Value r = Run("test", absl::StrCat(R"({"explain": )", find, "}"));
    const std::string text = ToJson(r);
    const size_t at = text.find("\"indexName\":\"");
    if (at == std::string::npos) return "COLLSCAN";
    const size_t start = at + 13;
    return text.substr(start, text.find('"', start) - start);
  }
};

TEST_F(CollationTest, FindMatchesAndSortsInTheCollation) {
  Insert(R"([{"_id": 1, "a": "abc"}, {"_id": 2, "a": "ABC"},
             {"_id": 3, "a": "b"}, {"_id": 4, "a": "B"}])");
  // collation.js: find with a collation matches case-insensitively.
  EXPECT_EQ(Values(R"({"find": "c", "filter": {"a": "abc"}})"), R"("abc")");
  EXPECT_EQ(Values(absl::StrCat(R"({"find": "c", "filter": {"a": "abc"},
                                   "collation": )",
                                kCi, "}")),
            R"("abc","ABC")");
  EXPECT_EQ(Values(absl::StrCat(R"({"find": "c", "filter": {"a": {"$in":
                                   ["B"]}}, "collation": )",
                                kCi, "}")),
            R"("b","B")");
  EXPECT_EQ(Values(absl::StrCat(R"({"find": "c", "filter": {"a": {"$gt":
                                   "ABC"}}, "collation": )",
                                kCi, "}")),
            R"("b","B")");
  EXPECT_EQ(Values(absl::StrCat(R"({"find": "c", "filter": {"a": {"$ne":
                                   "abc"}}, "collation": )",
                                kCi, "}")),
            R"("b","B")");
  // The binary order puts capitals first; en_US puts "abc" before "b".
  EXPECT_EQ(Values(R"({"find": "c", "sort": {"a": 1, "_id": 1}})"),
            R"("ABC","B","abc","b")");
  EXPECT_EQ(Values(R"({"find": "c", "sort": {"a": 1, "_id": 1},
                       "collation": {"locale": "en_US"}})"),
            R"("abc","ABC","b","B")");
  // $regex ignores the collation (collation.js "regex" cases).
  EXPECT_EQ(Values(absl::StrCat(R"({"find": "c", "filter": {"a": {"$regex":
                                   "^a"}}, "collation": )",
                                kCi, "}")),
            R"("abc")");
  // {locale: "simple"} is the binary comparison.
  EXPECT_EQ(Values(R"({"find": "c", "filter": {"a": "abc"},
                       "collation": {"locale": "simple"}})"),
            R"("abc")");
}

TEST_F(CollationTest, NumericOrdering) {
  Insert(R"([{"_id": 1, "a": "10"}, {"_id": 2, "a": "2"},
             {"_id": 3, "a": "1"}])");
  EXPECT_EQ(Values(R"({"find": "c", "sort": {"a": 1}})"), R"("1","10","2")");
  EXPECT_EQ(Values(R"({"find": "c", "sort": {"a": 1}, "collation":
                       {"locale": "en", "numericOrdering": true}})"),
            R"("1","2","10")");
  EXPECT_EQ(Values(R"({"find": "c", "filter": {"a": {"$gt": "9"}},
                       "collation": {"locale": "en", "numericOrdering":
                       true}})"),
            R"("10")");
}

TEST_F(CollationTest, BadCollationsFailWithMongoDBsCodes) {
  Insert(R"([{"_id": 1, "a": "x"}])");
  EXPECT_EQ(Code(R"({"find": "c", "collation": {"locale": "bogus_XX"}})"),
            2);  // BadValue
  EXPECT_EQ(Code(R"({"find": "c", "collation": {"locale": "en",
                     "strength": 9}})"),
            9);  // FailedToParse
  EXPECT_EQ(Code(R"({"find": "c", "collation": {"locale": "en",
                     "version": "1.0"}})"),
            240);  // IncompatibleCollationVersion
  EXPECT_EQ(Code(R"({"find": "c", "collation": 5})"), 14);
  EXPECT_EQ(Code(R"({"createIndexes": "c", "indexes": [{"key": {"a": 1},
                     "name": "a_1", "collation": {"locale": "en",
                     "caseLevel": 3}}]})"),
            14);
  EXPECT_EQ(Code(R"({"create": "d", "collation": {"locale": "yy"}})"), 2);
}

TEST_F(CollationTest, CaseInsensitiveUniqueIndex) {
  // index-case-insensitive: a unique index with strength 2.
  Value r = Run("test", absl::StrCat(R"({"createIndexes": "c", "indexes":
      [{"key": {"name": 1}, "name": "name_ci", "unique": true,
        "collation": )",
                                     kCi, "}]}"));
  ASSERT_EQ(F(r, "ok"), "1.0") << ToJson(r);
  Insert(R"([{"_id": 1, "name": "abc"}])");
  r = Run("test",
          R"({"insert": "c", "documents": [{"_id": 2, "name": "ABC"}]})");
  ASSERT_NE(r.Get("writeErrors"), nullptr) << ToJson(r);
  EXPECT_EQ(F(r.Get("writeErrors")->array_items()[0], "code"), "11000");
  Insert(R"([{"_id": 3, "name": "abd"}])");
  // listIndexes shows the resolved spec (collation.js).
  r = Run("test", R"({"listIndexes": "c"})");
  const std::string text = ToJson(r);
  EXPECT_TRUE(absl::StrContains(
      text,
      R"("collation":{"locale":"en_US","caseLevel":false,"caseFirst":"off","strength":2,"numericOrdering":false,"alternate":"non-ignorable","maxVariable":"punct","normalization":false,"backwards":false,"version":"57.1"})"))
      << text;
}

TEST_F(CollationTest, AnIndexAnswersOnlyItsOwnCollation) {
  ASSERT_EQ(F(Run("test", absl::StrCat(R"({"createIndexes": "c", "indexes":
      [{"key": {"a": 1}, "name": "a_ci", "collation": )",
                                       kCi, "}]}")),
              "ok"),
            "1.0");
  Insert(R"([{"_id": 1, "a": "abc"}, {"_id": 2, "a": "ABC"},
             {"_id": 3, "a": "b"}])");
  // query_planner_collation_test.cpp: a string predicate uses the index
  // only with the index's collation.
  EXPECT_EQ(PlanOf(absl::StrCat(R"({"find": "c", "filter": {"a": "abc"},
                                   "collation": )",
                                kCi, "}")),
            "a_ci");
  EXPECT_EQ(PlanOf(R"({"find": "c", "filter": {"a": "abc"}})"), "COLLSCAN");
  EXPECT_EQ(Values(absl::StrCat(R"({"find": "c", "filter": {"a": "abc"},
                                   "collation": )",
                                kCi, "}")),
            R"("abc","ABC")");
  EXPECT_EQ(Values(R"({"find": "c", "filter": {"a": "abc"}})"), R"("abc")");
  EXPECT_EQ(Values(absl::StrCat(R"({"find": "c", "filter": {"a": {"$in":
                                   ["ABC", "abc", "B"]}}, "collation": )",
                                kCi, "}")),
            R"("abc","ABC","b")");
  EXPECT_EQ(Values(absl::StrCat(R"({"find": "c", "filter": {"a": {"$gte":
                                   "ABC"}}, "sort": {"a": -1, "_id": 1},
                                   "collation": )",
                                kCi, "}")),
            R"("b","abc","ABC")");
  // An index of another collation still answers predicates on numbers
  // (query_planner_collation_test.cpp
  // NonStringPredicatesCanUseIndexWithDifferentCollation), and a hinted one
  // is scanned whole and filtered in the query's collation.
  ASSERT_EQ(F(Run("test", R"({"createIndexes": "c", "indexes":
                    [{"key": {"n": 1}, "name": "n_1"}]})"),
              "ok"),
            "1.0");
  Insert(R"([{"_id": 4, "n": 5, "a": "x"}])");
  EXPECT_EQ(PlanOf(absl::StrCat(R"({"find": "c", "filter": {"n": 5},
                                   "collation": )",
                                kCi, "}")),
            "n_1");
  EXPECT_EQ(PlanOf(R"({"find": "c", "filter": {"a": 5}})"), "a_ci");
  EXPECT_EQ(Values(R"({"find": "c", "filter": {"a": "abc"},
                       "hint": "a_ci"})"),
            R"("abc")");
  // The same key with another collation is another index
  // (collation.js: "Two indexes with the same key pattern and different
  // collations").
  Value r = Run("test", R"({"createIndexes": "c", "indexes":
      [{"key": {"a": 1}, "name": "a_fr", "collation": {"locale": "fr"}}]})");
  EXPECT_EQ(F(r, "ok"), "1.0") << ToJson(r);
  EXPECT_EQ(PlanOf(R"({"find": "c", "filter": {"a": "abc"},
                       "collation": {"locale": "fr"}})"),
            "a_fr");
}

TEST_F(CollationTest, CollectionDefaultIsInherited) {
  Value r =
      Run("test", absl::StrCat(R"({"create": "c", "collation": )", kCi, "}"));
  ASSERT_EQ(F(r, "ok"), "1.0") << ToJson(r);
  r = Run("test", R"({"listCollections": 1, "filter": {"name": "c"}})");
  EXPECT_TRUE(absl::StrContains(
      ToJson(r),
      R"("options":{"collation":{"locale":"en_US","caseLevel":false,"caseFirst":"off","strength":2)"))
      << ToJson(r);
  Insert(R"([{"_id": 1, "a": "abc"}, {"_id": 2, "a": "ABC"}])");
  EXPECT_EQ(Values(R"({"find": "c", "filter": {"a": "abc"}})"),
            R"("abc","ABC")");
  EXPECT_EQ(Values(R"({"find": "c", "filter": {"a": "abc"},
                       "collation": {"locale": "simple"}})"),
            R"("abc")");
  // An index created without a collation gets the collection's.
  ASSERT_EQ(F(Run("test", R"({"createIndexes": "c", "indexes":
                    [{"key": {"a": 1}, "name": "a_1"}]})"),
              "ok"),
            "1.0");
  r = Run("test", R"({"listIndexes": "c"})");
  EXPECT_TRUE(absl::StrContains(
      ToJson(r), R"("name":"a_1","collation":{"locale":"en_US")"))
      << ToJson(r);
  EXPECT_EQ(PlanOf(R"({"find": "c", "filter": {"a": "abc"}})"), "a_1");
  EXPECT_EQ(Values(R"({"find": "c", "filter": {"a": "ABC"}})"),
            R"("abc","ABC")");
  // {locale: "simple"} on createIndexes opts out.
  ASSERT_EQ(F(Run("test", R"({"createIndexes": "c", "indexes":
                    [{"key": {"a": -1}, "name": "a_simple",
                      "collation": {"locale": "simple"}}]})"),
              "ok"),
            "1.0");
  r = Run("test", R"({"listIndexes": "c"})");
  EXPECT_TRUE(absl::StrContains(ToJson(r), R"("name":"a_simple"})"))
      << ToJson(r);
}

TEST_F(CollationTest, CountDistinctAggregateAndWrites) {
  Insert(R"([{"_id": 1, "a": "abc"}, {"_id": 2, "a": "ABC"},
             {"_id": 3, "a": "b"}])");
  // collation.js: count, distinct and aggregate with a collation.
  EXPECT_EQ(F(Run("test", absl::StrCat(R"({"count": "c", "query": {"a":
                                          "abc"}, "collation": )",
                                       kCi, "}")),
              "n"),
            "2");
  EXPECT_EQ(F(Run("test", R"({"count": "c", "query": {"a": "abc"}})"), "n"),
            "1");
  EXPECT_EQ(F(Run("test", absl::StrCat(R"({"distinct": "c", "key": "a",
                                          "collation": )",
                                       kCi, "}")),
              "values"),
            R"(["abc","b"])");
  EXPECT_EQ(F(Run("test", R"({"distinct": "c", "key": "a"})"), "values"),
            R"(["ABC","abc","b"])");
  EXPECT_EQ(Values(absl::StrCat(R"({"aggregate": "c", "pipeline": [
                                   {"$project": {"a": 1}},
                                   {"$match": {"a": "abc"}},
                                   {"$sort": {"a": -1, "_id": 1}}],
                                   "cursor": {}, "collation": )",
                                kCi, "}")),
            R"("abc","ABC")");
  EXPECT_EQ(Values(absl::StrCat(R"({"aggregate": "c", "pipeline": [
                                   {"$match": {"a": {"$lt": "b"}}}],
                                   "cursor": {}, "collation": )",
                                kCi, "}")),
            R"("abc","ABC")");
  // $group's keys compare in the collation: "abc" and "ABC" are one group
  // whose _id is the first met (collation.js "$group").
  EXPECT_EQ(Values(absl::StrCat(R"({"aggregate": "c", "pipeline": [
                                   {"$group": {"_id": "$a", "n": {"$sum": 1}}},
                                   {"$sort": {"_id": 1}}],
                                   "cursor": {}, "collation": )",
                                kCi, "}"),
                   "n"),
            "2,1");
  EXPECT_EQ(Values(R"({"aggregate": "c", "pipeline": [
                       {"$group": {"_id": "$a", "n": {"$sum": 1}}},
                       {"$sort": {"_id": 1}}], "cursor": {}})",
                   "n"),
            "1,1,1");
  // Expressions compare in the collation too ($expr in a filter, $eq in a
  // $project; collation.js "$expr", "aggregation expressions").
  EXPECT_EQ(Values(absl::StrCat(R"({"find": "c", "filter": {"$expr": {"$eq":
                                   ["$a", "ABC"]}}, "collation": )",
                                kCi, "}")),
            R"("abc","ABC")");
  EXPECT_EQ(Values(absl::StrCat(R"({"aggregate": "c", "pipeline": [
                                   {"$project": {"e": {"$eq": ["$a", "B"]}}}],
                                   "cursor": {}, "collation": )",
                                kCi, "}"),
                   "e"),
            "false,false,true");
  EXPECT_EQ(Values(R"({"aggregate": "c", "pipeline": [
                       {"$project": {"e": {"$in": ["$a", ["B"]]}}}],
                       "cursor": {}})",
                   "e"),
            "false,false,false");
  // update and delete statements with a collation.
  Value r = Run("test", absl::StrCat(R"({"update": "c", "updates": [{"q":
      {"a": "ABC"}, "u": {"$set": {"x": 1}}, "multi": true, "collation": )",
                                     kCi, "}]}"));
  EXPECT_EQ(F(r, "nModified"), "2") << ToJson(r);
  r = Run("test", absl::StrCat(R"({"findAndModify": "c", "query": {"a":
      "B"}, "update": {"$set": {"y": 1}}, "new": true, "collation": )",
                               kCi, "}"));
  EXPECT_EQ(F(*r.Get("value"), "_id"), "3") << ToJson(r);
  r = Run("test", absl::StrCat(R"({"delete": "c", "deletes": [{"q":
      {"a": "aBc"}, "limit": 0, "collation": )",
                               kCi, "}]}"));
  EXPECT_EQ(F(r, "n"), "2") << ToJson(r);
  r = Run("test", R"({"delete": "c", "deletes": [{"q": {"a": "B"},
                      "limit": 0}]})");
  EXPECT_EQ(F(r, "n"), "0") << ToJson(r);
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
