#include "query/sort.h"

#include <algorithm>
#include <string>
#include <vector>

#include "base/status.h"
#include "gtest/gtest.h"
#include "query/test_doc.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// Sorts the documents with `spec` and returns their "_id"s in order, or
// the error.
std::string SortIds(const std::string& spec, std::vector<std::string> docs) {
  auto s = SortSpec::Parse(Doc(spec));
  EXPECT_TRUE(s.ok()) << s.status();
  std::vector<Value> values;
  for (const auto& d : docs) values.push_back(Doc(d));
  std::vector<SortSpec::Key> keys;
  for (const Value& v : values) {
    auto key = s->KeyOf(v);
    if (!key.ok()) {
      return "error " + std::to_string(ErrorCode(key.status())) + ": " +
             std::string(key.status().message());
    }
    keys.push_back(*std::move(key));
  }
  std::vector<size_t> order;
  for (size_t i = 0; i < values.size(); ++i) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return s->CompareKeys(keys[a], keys[b]) < 0;
  });
  std::string out;
  for (size_t i : order) {
    if (!out.empty()) out += ",";
    out += ToJson(*values[i].Get("_id"));
  }
  return out;
}

TEST(SortTest, Parse) {
  auto s = SortSpec::Parse(Doc(R"({"a": 1, "b.c": -1})"));
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->fields().size(), 2u);
  EXPECT_EQ(s->fields()[0].first, "a");
  EXPECT_EQ(s->fields()[0].second, 1);
  EXPECT_EQ(s->fields()[1].first, "b.c");
  EXPECT_EQ(s->fields()[1].second, -1);
  for (const char* bad : {R"({"a": 2})", R"({"a": "x"})", R"({"a": 0})"}) {
    auto e = SortSpec::Parse(Doc(bad));
    EXPECT_EQ(ErrorCode(e.status()), 15975) << bad;
    EXPECT_EQ(e.status().message(),
              "$sort key ordering must be 1 (for ascending) or -1 (for "
              "descending)");
  }
}

TEST(SortTest, ScalarsAndTypes) {
  const std::vector<std::string> docs = {
      R"({"_id": 1, "a": "x"})", R"({"_id": 2, "a": 3})",
      R"({"_id": 3})",           R"({"_id": 4, "a": null})",
      R"({"_id": 5, "a": 1.5})", R"({"_id": 6, "a": {"b": 1}})",
      R"({"_id": 7, "a": true})"};
  EXPECT_EQ(SortIds(R"({"a": 1})", docs), "3,4,5,2,1,6,7");
  EXPECT_EQ(SortIds(R"({"a": -1})", docs), "7,6,1,2,5,3,4");
}

TEST(SortTest, Arrays) {
  const std::vector<std::string> docs = {
      R"({"_id": 1, "a": [1, 10]})", R"({"_id": 2, "a": 5})",
      R"({"_id": 3, "a": [3, 4]})", R"({"_id": 4, "a": []})",
      R"({"_id": 5, "a": null})"};
  // Ascending by smallest element; the empty array below null.
  EXPECT_EQ(SortIds(R"({"a": 1})", docs), "4,5,1,3,2");
  // Descending by largest element.
  EXPECT_EQ(SortIds(R"({"a": -1})", docs), "1,2,3,5,4");
}

TEST(SortTest, DottedAndCompound) {
  const std::vector<std::string> docs = {
      R"({"_id": 1, "a": [{"b": 3}, {"b": 1}], "c": 1})",
      R"({"_id": 2, "a": {"b": 2}, "c": 1})",
      R"({"_id": 3, "a": {"b": 2}, "c": 0})"};
  EXPECT_EQ(SortIds(R"({"a.b": 1})", docs), "1,2,3");
  EXPECT_EQ(SortIds(R"({"a.b": -1})", docs), "1,2,3");
  EXPECT_EQ(SortIds(R"({"a.b": 1, "c": 1})", docs), "1,3,2");
  EXPECT_EQ(SortIds(R"({"c": -1, "a.b": -1})", docs), "1,2,3");
  EXPECT_EQ(SortIds("{}", docs), "1,2,3");
}

// The review's T6 (a): a scalar element met on a dotted path gives the key
// null (btree_key_generator_test.cpp MultipleArraysNotParallel: {'a.b.c': 1}
// on {a: [1, 2, {b: {c: [3, 4]}}]} gives null, 3, 4), so doc 1 sorts first.
TEST(SortTest, ScalarOnDottedPathSortsAsNull) {
  EXPECT_EQ(SortIds(R"({"a.b": 1})", {R"({"_id": 1, "a": [{"b": 1}, 5]})",
                                      R"({"_id": 2, "a": [{"b": 0}]})"}),
            "1,2");
}

// The review's T6 (c): jstests/core/query/sort/sort_dotted_paths_parallel_
// arrays.js and sort_key_generator.cpp ("cannot sort with keys that are
// parallel arrays", BadValue).
TEST(SortTest, ParallelArraysAreAnError) {
  auto s = SortSpec::Parse(Doc(R"({"x": 1, "y": 1})"));
  ASSERT_TRUE(s.ok());
  auto key = s->KeyOf(Doc(R"({"_id": 3, "x": [1, 2], "y": [3, 4]})"));
  EXPECT_EQ(ErrorCode(key.status()), kBadValue);
  EXPECT_EQ(key.status().message(),
            "cannot sort with keys that are parallel arrays");
  // One array with a scalar is fine.
  EXPECT_TRUE(s->KeyOf(Doc(R"({"x": [1, 2], "y": 3})")).ok());
}

// jstests/core/query/sort/sort_dotted_paths_parallel_arrays.js, every case.
TEST(SortTest, ParallelArraysJstest) {
  const std::string err =
      "error 2: cannot sort with keys that are parallel arrays";
  const std::vector<std::string> docs = {R"({"_id": 1, "a": [], "b": 1})",
                                         R"({"_id": 2, "a": 1, "b": []})",
                                         R"({"_id": 3, "a": [], "b": []})"};
  for (const char* spec :
       {R"({"a": 1, "b": 1})", R"({"_id": 1, "a": 1, "b": 1})",
        R"({"a": 1, "_id": 1, "b": 1})", R"({"a": 1, "b": 1, "_id": 1})"}) {
    EXPECT_EQ(SortIds(spec, docs), err) << spec;
  }
  // (undefined, 1) before (1, undefined).
  EXPECT_EQ(SortIds(R"({"a": 1, "b": 1})", {docs[1], docs[0]}), "1,2");
  EXPECT_EQ(SortIds(R"({"a.b": 1, "a.c": 1})",
                    {R"({"_id": 1, "a": {"b": [1, 2], "c": [3, 4]}})"}),
            err);
  EXPECT_EQ(SortIds(R"({"a.b": 1, "c.d": 1})",
                    {R"({"_id": 1, "a": {"b": [1, 2]}, "c": {"d": [3, 4]}})"}),
            err);
}

// The review's T6 (b): compound keys are tuples per array element. Keys of
// doc 1 are (1, 1) and (2, 0); the first in ascending order is (1, 1),
// after doc 2's (1, 0.5) (sort_key_generator.cpp "The sort key is the first
// index key").
TEST(SortTest, CompoundKeysArePerElementTuples) {
  EXPECT_EQ(SortIds(R"({"a.x": 1, "a.y": 1})",
                    {R"({"_id": 1, "a": [{"x": 1, "y": 1}, {"x": 2, "y": 0}]})",
                     R"({"_id": 2, "a": {"x": 1, "y": 0.5}})"}),
            "2,1");
  // Descending: the largest tuple, (2, 0) against (1, 0.5).
  EXPECT_EQ(
      SortIds(R"({"a.x": -1, "a.y": -1})",
              {R"({"_id": 2, "a": {"x": 1, "y": 0.5}})",
               R"({"_id": 1, "a": [{"x": 1, "y": 1}, {"x": 2, "y": 0}]})"}),
      "1,2");
}

// An empty array is MongoDB's `undefined` key: above MinKey, below null.
TEST(SortTest, EmptyArrayBetweenMinKeyAndNull) {
  const std::vector<std::string> docs = {R"({"_id": 1, "a": null})",
                                         R"({"_id": 2, "a": []})",
                                         R"({"_id": 3, "a": {"$minKey": 1}})"};
  EXPECT_EQ(SortIds(R"({"a": 1})", docs), "3,2,1");
  EXPECT_EQ(SortIds(R"({"a": -1})", docs), "1,2,3");
}

// $push's $sort compares whole values found by exact lookup (update/
// pattern_cmp.cpp PatternElementCmp, extractElementsBasedOnTemplate), not
// the find sort's index keys: [1, 5] < [3] element by element, both ways.
TEST(SortTest, PushSortComparesWholeValues) {
  auto asc = SortSpec::Parse(Doc(R"({"s": 1})"));
  auto desc = SortSpec::Parse(Doc(R"({"s": -1})"));
  ASSERT_TRUE(asc.ok() && desc.ok());
  const Value a = Doc(R"({"s": [1, 5]})");
  const Value b = Doc(R"({"s": [3]})");
  EXPECT_LT(asc->CompareElements(a, b), 0);
  EXPECT_GT(desc->CompareElements(a, b), 0);
  // A non-object element has no field: null, below numbers.
  EXPECT_LT(asc->CompareElements(Value::Int32(7), Doc(R"({"s": 0})")), 0);
  // Numeric components index arrays; dotted paths do not traverse them.
  auto dotted = SortSpec::Parse(Doc(R"({"s.1": 1})"));
  ASSERT_TRUE(dotted.ok());
  EXPECT_GT(
      dotted->CompareElements(Doc(R"({"s": [9, 2]})"), Doc(R"({"s": [0, 1]})")),
      0);
}

}  // namespace
}  // namespace ttldb
