// MongoDB 8.0's path traversal in the matcher: dotted paths through arrays,
// equality to null, explicit array offsets, $elemMatch over nested arrays.
// Each expectation names the MongoDB file it comes from.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "query/filter.h"
#include "query/test_doc.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

struct NamedDoc {
  std::string id;
  std::string json;
};

// The _ids of `docs` that `filter` matches, in order.
std::vector<std::string> Matching(const std::string& filter,
                                  const std::vector<NamedDoc>& docs) {
  auto f = Filter::Parse(Doc(filter));
  EXPECT_TRUE(f.ok()) << f.status() << " in " << filter;
  std::vector<std::string> out;
  if (!f.ok()) return out;
  for (const NamedDoc& d : docs) {
    if (f->Matches(Doc(d.json))) out.push_back(d.id);
  }
  return out;
}

// The documents of jstests/core/query/null_query_semantics.js, without the
// ones holding `undefined` (ttldb has no undefined type).
const std::vector<NamedDoc>& NullSemanticsDocs() {
  static const auto* docs = new std::vector<NamedDoc>{
      {"a_empty_subobject", R"({"a": {}})"},
      {"a_null", R"({"a": null})"},
      {"a_number", R"({"a": 4})"},
      {"a_subobject_b_not_null", R"({"a": {"b": "hi"}})"},
      {"a_subobject_b_null", R"({"a": {"b": null}})"},
      {"no_a", R"({})"},
      {"a_double_array", R"({"a": [[]]})"},
      {"a_empty_array", R"({"a": []})"},
      {"a_object_array_b_mix_null_missing",
       R"({"a": [{"b": null}, {"b": null}, {}]})"},
      {"a_object_array_no_b_nulls",
       R"({"a": [{"b": 1}, {"b": 3}, {"b": "string"}]})"},
      {"a_object_array_some_b_nulls",
       R"({"a": [{"b": null}, {"b": 3}, {"b": null}]})"},
      {"a_object_array_some_b_missing", R"({"a": [{"b": 3}, {}]})"},
      {"a_value_array_all_nulls", R"({"a": [null, null]})"},
      {"a_value_array_no_nulls", R"({"a": [1, "string", 4]})"},
      {"a_value_array_with_null", R"({"a": [1, "string", null, 4]})"},
  };
  return *docs;
}

// null_query_semantics.js (8.0, requires_fcv_80) testDottedEqualsNull and
// testDottedInNullQuery: an empty array, an array of scalars and an array
// holding only an empty array yield no value for "a.b", so they do not
// match null. (SERVER-36681 changes this after 8.0; master keeps 8.0's
// answers behind internalQueryLegacyDottedPathNullSemantics.)
TEST(FilterPathsTest, DottedEqualsNullSkipsArraysWithoutObjects) {
  const std::vector<std::string> expected = {
      "a_empty_subobject",
      "a_null",
      "a_number",
      "a_subobject_b_null",
      "no_a",
      "a_object_array_b_mix_null_missing",
      "a_object_array_some_b_nulls",
      "a_object_array_some_b_missing"};
  EXPECT_EQ(Matching(R"({"a.b": null})", NullSemanticsDocs()), expected);
  EXPECT_EQ(Matching(R"({"a.b": {"$eq": null}})", NullSemanticsDocs()),
            expected);
  EXPECT_EQ(Matching(R"({"a.b": {"$in": [null, 75]}})", NullSemanticsDocs()),
            expected);
  EXPECT_EQ(
      Matching(R"({"$or": [{"a.b": null}, {"a.b": 75}]})", NullSemanticsDocs()),
      expected);
  // $gte/$lte null are equality to null in MongoDB's matcher.
  EXPECT_EQ(Matching(R"({"a.b": {"$gte": null}})", NullSemanticsDocs()),
            expected);
  EXPECT_EQ(Matching(R"({"a.b": {"$lte": null}})", NullSemanticsDocs()),
            expected);
  EXPECT_EQ(Matching(R"({"a.b": {"$all": [null]}})", NullSemanticsDocs()),
            expected);
}

// null_query_semantics.js (8.0) testDottedNotEqualsNull and
// testDottedNotInNullQuery: those arrays fall through to $ne / $nin.
TEST(FilterPathsTest, DottedNotEqualsNullKeepsArraysWithoutObjects) {
  const std::vector<std::string> expected = {
      "a_subobject_b_not_null",  "a_double_array",
      "a_empty_array",           "a_object_array_no_b_nulls",
      "a_value_array_all_nulls", "a_value_array_no_nulls",
      "a_value_array_with_null"};
  EXPECT_EQ(Matching(R"({"a.b": {"$ne": null}})", NullSemanticsDocs()),
            expected);
  EXPECT_EQ(Matching(R"({"a.b": {"$nin": [null, 75]}})", NullSemanticsDocs()),
            expected);
}

// The review's T1 reproduction (query-conformance.md), same sources.
TEST(FilterPathsTest, ReviewT1Repro) {
  const std::vector<NamedDoc> docs = {{"0", R"({"a": [1, 2]})"},
                                      {"1", R"({"a": []})"},
                                      {"2", R"({"a": [{"c": 1}]})"},
                                      {"3", R"({"a": 5})"},
                                      {"4", R"({"a": [[]]})"},
                                      {"5", R"({"a": [null]})"},
                                      {"6", R"({})"}};
  const std::vector<std::string> eq = {"2", "3", "6"};
  const std::vector<std::string> ne = {"0", "1", "4", "5"};
  EXPECT_EQ(Matching(R"({"a.b": null})", docs), eq);
  EXPECT_EQ(Matching(R"({"a.b": {"$ne": null}})", docs), ne);
  EXPECT_EQ(Matching(R"({"a.b": {"$in": [null, 75]}})", docs), eq);
  EXPECT_EQ(Matching(R"({"a.b": {"$nin": [null]}})", docs), ne);
}

// src/mongo/db/matcher/path_test.cpp NestedPartialMatchArray: "a.b" over
// {a: [4]} yields no element at all.
TEST(FilterPathsTest, ScalarArrayYieldsNothing) {
  const std::vector<NamedDoc> docs = {{"x", R"({"a": [4]})"}};
  EXPECT_TRUE(Matching(R"({"a.b": null})", docs).empty());
  EXPECT_TRUE(Matching(R"({"a.b": {"$exists": true}})", docs).empty());
  EXPECT_EQ(Matching(R"({"a.b": {"$exists": false}})", docs),
            std::vector<std::string>{"x"});
}

// The review's T9 reproduction; expectations from path_test.cpp:
// ArrayIndex2 ("a.1" on {a: [5, [2, 4], 3]} yields only the array [2, 4],
// not its elements), ArrayIndexNested1 ("a.1.b" on {a: [5, {b: 4}, 3]}
// yields EOO then 4: object elements lacking the numeric field are
// missing), and "a.0.b" on a scalar element yields nothing.
TEST(FilterPathsTest, ExplicitArrayOffsets) {
  const std::vector<NamedDoc> docs = {{"0", R"({"a": [5, [2, 4], 3]})"},
                                      {"1", R"({"a": [5, {"b": 4}, 3]})"},
                                      {"2", R"({"a": [{"b": 1}]})"},
                                      {"3", R"({"a": [5]})"}};
  EXPECT_TRUE(Matching(R"({"a.1": 2})", docs).empty());
  EXPECT_EQ(Matching(R"({"a.1": [2, 4]})", docs),
            std::vector<std::string>{"0"});
  EXPECT_EQ(Matching(R"({"a.1.b": null})", docs),
            (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(Matching(R"({"a.0.b": null})", docs),
            (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(Matching(R"({"a.1.b": 4})", docs), std::vector<std::string>{"1"});
}

// path_test.cpp ArrayOffsetWithImplicitAndExplicitTraversal: "a.0.b" on
// {a: [{b: [2, 3]}, {b: [4, 5]}]} yields EOO (implicit traversal of the
// first element, which has no field "0"), then 2, 3 and [2, 3] (the
// explicit offset); the second element yields only EOO.
TEST(FilterPathsTest, ImplicitAndExplicitTraversal) {
  const std::vector<NamedDoc> docs = {
      {"x", R"({"a": [{"b": [2, 3]}, {"b": [4, 5]}]})"}};
  const std::vector<std::string> x = {"x"};
  EXPECT_EQ(Matching(R"({"a.0.b": null})", docs), x);
  EXPECT_EQ(Matching(R"({"a.0.b": 3})", docs), x);
  EXPECT_EQ(Matching(R"({"a.0.b": [2, 3]})", docs), x);
  EXPECT_TRUE(Matching(R"({"a.0.b": 4})", docs).empty());
  // Minimongo's port of MongoDB's matcher tests (see the review):
  // match({"x.1.y": null}, {x: [7, {y: 8}, 9]}), match({"a.1.foo": null},
  // {a: [{1: {foo: 4}}, {foo: 5}]}), nomatch({"a.0.b": null}, {a: [5]}).
  EXPECT_EQ(
      Matching(R"({"x.1.y": null})", {{"x", R"({"x": [7, {"y": 8}, 9]})"}}), x);
  EXPECT_EQ(Matching(R"({"a.1.foo": null})",
                     {{"x", R"({"a": [{"1": {"foo": 4}}, {"foo": 5}]})"}}),
            x);
  EXPECT_TRUE(Matching(R"({"a.0.b": null})", {{"x", R"({"a": [5]})"}}).empty());
}

// An offset into an array nested in an array walks that array's elements
// with the rest of the path (path.cpp, the isArrayOffsetMatch branch).
TEST(FilterPathsTest, OffsetIntoNestedArray) {
  const std::vector<NamedDoc> docs = {
      {"x", R"({"a": [[{"b": 1}, {"b": 2}]]})"}};
  EXPECT_EQ(Matching(R"({"a.0.b": 2})", docs), std::vector<std::string>{"x"});
  EXPECT_TRUE(Matching(R"({"a.b": 2})", docs).empty());
}

// The review's T10 reproduction. null_query_semantics.js (8.0)
// testElemMatchObject expects a_double_array ({a: [[]]}) for
// {a: {$elemMatch: {b: {$eq: null}}}}; expression_array.cpp
// ElemMatchObjectMatchExpression::matchesArray skips only elements that are
// not BSON objects (`if (!inner.isABSONObj()) continue;`), and an array
// element is matched as the object {"0": ..., "1": ...}.
TEST(FilterPathsTest, ElemMatchObjectConsidersArrayElements) {
  const std::vector<NamedDoc> docs = {{"0", R"({"a": [[]]})"},
                                      {"1", R"({"a": [[5]]})"},
                                      {"2", R"({"a": [{}]})"}};
  // The review expected [0, 2] here, but by the same source {a: [[5]]}
  // matches too: its element [5] is matched as {"0": 5}, which has no "b".
  EXPECT_EQ(Matching(R"({"a": {"$elemMatch": {"b": null}}})", docs),
            (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(Matching(R"({"a": {"$elemMatch": {"0": 5}}})", docs),
            std::vector<std::string>{"1"});
  EXPECT_EQ(
      Matching(R"({"a": {"$elemMatch": {"b": {"$eq": null}}}})",
               NullSemanticsDocs()),
      (std::vector<std::string>{
          "a_double_array", "a_object_array_b_mix_null_missing",
          "a_object_array_some_b_nulls", "a_object_array_some_b_missing"}));
}

// The elemMatchKey (for positional "a.$") of an $elemMatch matched by an
// element that is an array is that element's position.
TEST(FilterPathsTest, ElemMatchKeyOfArrayElement) {
  auto f = Filter::Parse(Doc(R"({"a": {"$elemMatch": {"0": 5}}})"));
  ASSERT_TRUE(f.ok()) << f.status();
  MatchDetails details;
  ASSERT_TRUE(f->Matches(Doc(R"({"a": [1, [5]]})"), &details));
  ASSERT_TRUE(details.elem_match_key.has_value());
  EXPECT_EQ(*details.elem_match_key, 1u);
}

}  // namespace
}  // namespace ttldb
