// Filter::Matches(doc, &details): MongoDB's elemMatchKey, which the
// positional projection and update operator read. Expectations follow
// src/mongo/db/matcher/path.cpp (elements before the array itself; the
// outermost implicit array offset wins; an explicit ".1" records nothing),
// expression_array.cpp ($elemMatch on a root array reports the matching
// element) and expression_tree.cpp ($or/$nor/$not pass no details).
#include <optional>
#include <string>

#include "gtest/gtest.h"
#include "query/filter.h"
#include "query/test_doc.h"

namespace ttldb {
namespace {

// The key as a string: "none", "nomatch", or the position.
std::string Key(const std::string& filter, const std::string& doc) {
  auto f = Filter::Parse(Doc(filter));
  EXPECT_TRUE(f.ok()) << f.status();
  if (!f.ok()) return "error";
  MatchDetails details;
  if (!f->Matches(Doc(doc), &details)) return "nomatch";
  return details.elem_match_key.has_value()
             ? std::to_string(*details.elem_match_key)
             : "none";
}

TEST(MatchDetailsTest, LeafThroughArrays) {
  EXPECT_EQ(Key(R"({"a": 5})", R"({"a": [1, 5]})"), "1");
  EXPECT_EQ(Key(R"({"a": 5})", R"({"a": 5})"), "none");
  EXPECT_EQ(Key(R"({"a": 6})", R"({"a": [1, 5]})"), "nomatch");
  EXPECT_EQ(Key(R"({"a": {"$gt": 2}})", R"({"a": [1, 3, 5]})"), "1");
  // Elements come first: [1, 2] equals element 0 before the whole array.
  EXPECT_EQ(Key(R"({"a": [1, 2]})", R"({"a": [[1, 2], [3]]})"), "0");
  EXPECT_EQ(Key(R"({"a": [1, 2]})", R"({"a": [1, 2]})"), "none");
  EXPECT_EQ(Key(R"({"a": {"$exists": true}})", R"({"a": [7]})"), "0");
  // Dotted paths: the position in the outermost array traversed.
  EXPECT_EQ(Key(R"({"a.b": 2})", R"({"a": [{"b": [1]}, {"b": [3, 2]}]})"), "1");
  EXPECT_EQ(Key(R"({"o.a": 2})", R"({"o": {"a": [0, 2]}})"), "1");
  // An explicit position is not an implicit traversal.
  EXPECT_EQ(Key(R"({"a.1": 5})", R"({"a": [4, 5]})"), "none");
  EXPECT_EQ(Key(R"({"a.0.b": 3})", R"({"a": [{"b": [1, 3]}]})"), "1");
}

TEST(MatchDetailsTest, ArrayOperators) {
  EXPECT_EQ(Key(R"({"a": {"$elemMatch": {"b": 3}}})",
                R"({"a": [{"b": 1}, {"b": 3}, {"b": 3}]})"),
            "1");
  EXPECT_EQ(Key(R"({"a": {"$elemMatch": {"$gt": 1, "$lt": 5}}})",
                R"({"a": [0, 9, 4]})"),
            "2");
  EXPECT_EQ(Key(R"({"x.a": {"$elemMatch": {"$gt": 1}}})",
                R"({"x": [{"a": [0]}, {"a": [5]}]})"),
            "1");
  EXPECT_EQ(Key(R"({"a": {"$size": 2}})", R"({"a": [1, 2]})"), "none");
  EXPECT_EQ(Key(R"({"a": {"$all": [2, 3]}})", R"({"a": [3, 2, 1]})"), "0");
}

TEST(MatchDetailsTest, NegationsAndOrRecordNothing) {
  EXPECT_EQ(Key(R"({"$or": [{"a": 5}]})", R"({"a": [1, 5]})"), "none");
  EXPECT_EQ(Key(R"({"a": {"$ne": 1}})", R"({"a": [2, 3]})"), "none");
  EXPECT_EQ(Key(R"({"a": {"$nin": [1]}})", R"({"a": [2, 3]})"), "none");
  EXPECT_EQ(Key(R"({"a": {"$not": {"$lt": 0}}})", R"({"a": [2, 3]})"), "none");
  // Other conditions of the $and keep the recorded key.
  EXPECT_EQ(Key(R"({"a": 5, "b": 1})", R"({"a": [1, 5], "b": 1})"), "1");
  EXPECT_EQ(
      Key(R"({"$and": [{"a": 5}, {"b": 1}]})", R"({"a": [1, 5], "b": 1})"),
      "1");
}

}  // namespace
}  // namespace ttldb
