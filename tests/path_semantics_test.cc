// MongoDB 8.0's answers for dotted paths through arrays, through the public
// API, with and without indexes: the review's T1, T3, T6 and T9
// reproductions (shared/reviews/query-conformance.md). An index never
// changes an answer.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class PathSemanticsTest : public DbTest {
 protected:
  Collection& c() { return db_->collection("c"); }
  void Insert(const std::vector<std::string>& docs) {
    for (const std::string& d : docs) {
      auto r = c().InsertOne(d);
      ASSERT_TRUE(r.ok()) << r.status() << " " << d;
    }
  }
  // The _ids Find returns, in order, as "0,1,2"; or the error.
  std::string Ids(const std::string& filter, const std::string& sort = "",
                  const std::string& hint = "", int64_t limit = 0) {
    FindOptions options;
    if (!sort.empty()) options.sort = *ParseValue(sort);
    options.hint = hint;
    options.limit = limit;
    auto cursor = c().Find(filter, options);
    if (!cursor.ok()) return cursor.status().ToString();
    std::string out;
    while (true) {
      auto doc = (*cursor)->Next();
      if (!doc.ok()) return doc.status().ToString();
      if (!doc->has_value()) break;
      if (!out.empty()) out += ",";
      out += ToJson(*(*doc)->Get("_id"));
    }
    return out;
  }
  // Ids sorted by _id (for answers whose order is not the point).
  std::string SortedIds(const std::string& filter,
                        const std::string& hint = "") {
    return Ids(filter, R"({"_id": 1})", hint);
  }
};

// T1: jstests/core/query/null_query_semantics.js (8.0): "a.b" through an
// array of scalars or an empty array yields nothing, so null does not
// match and $ne/$nin null do. Same answers with an index on "a.b", hinted
// or chosen (index null keys are a superset; the filter is re-applied).
TEST_F(PathSemanticsTest, DottedNullThroughArraysWithAndWithoutIndex) {
  Insert({R"({"_id": 0, "a": [1, 2]})", R"({"_id": 1, "a": []})",
          R"({"_id": 2, "a": [{"c": 1}]})", R"({"_id": 3, "a": 5})",
          R"({"_id": 4, "a": [[]]})", R"({"_id": 5, "a": [null]})",
          R"({"_id": 6})"});
  for (const std::string hint : {"", "none", "a.b_1"}) {
    SCOPED_TRACE(hint);
    if (hint == "a.b_1") {
      ASSERT_TRUE(c().CreateIndex(R"({"a.b": 1})").ok());
    }
    const std::string h = hint == "none" ? "" : hint;
    EXPECT_EQ(SortedIds(R"({"a.b": null})", h), "2,3,6");
    EXPECT_EQ(SortedIds(R"({"a.b": {"$ne": null}})", h), "0,1,4,5");
    EXPECT_EQ(SortedIds(R"({"a.b": {"$in": [null, 75]}})", h), "2,3,6");
    EXPECT_EQ(SortedIds(R"({"a.b": {"$nin": [null]}})", h), "0,1,4,5");
    EXPECT_EQ(SortedIds(R"({"a.b": {"$gte": null}})", h), "2,3,6");
    EXPECT_EQ(SortedIds(R"({"a.b": {"$all": [null]}})", h), "2,3,6");
  }
  // The planner picks the index by itself for null equality.
  auto explain = c().Explain(R"({"a.b": null})");
  ASSERT_TRUE(explain.ok()) << explain.status();
  EXPECT_NE(ToJson(*explain).find("IXSCAN"), std::string::npos);
}

// T3: btree_key_generator_test.cpp GetKeysAlternateMissing and
// jstests/core/query/sort/sort_array.js (SERVER-31858 case,
// createIndex({"a.b": 1, "a.c": 1}) over a: [{b: 1, c: 2}, {b: 2, c: 3}]).
TEST_F(PathSemanticsTest, CompoundIndexOnOneArrayOfSubdocuments) {
  auto name = c().CreateIndex(R"({"items.sku": 1, "items.qty": 1})");
  ASSERT_TRUE(name.ok()) << name.status();
  EXPECT_EQ(*name, "items.sku_1_items.qty_1");
  auto id = c().InsertOne(
      R"({"_id": 1, "items": [{"sku": "x", "qty": 1}, {"sku": "y", "qty": 2}]})");
  ASSERT_TRUE(id.ok()) << id.status();
  Insert({R"({"_id": 2, "items": [{"sku": "x", "qty": 2}]})",
          R"({"_id": 3, "items": {"sku": "y", "qty": 1}})"});
  // Built over existing documents too.
  ASSERT_TRUE(db_->collection("d")
                  .InsertOne(R"({"a": [{"b": 1, "c": 2}, {"b": 2, "c": 3}]})")
                  .ok());
  EXPECT_TRUE(db_->collection("d").CreateIndex(R"({"a.b": 1, "a.c": 1})").ok());
  // Without $elemMatch the two conditions may hold in different elements:
  // doc 1 matches {sku: "x", qty: 2} although no element has both, with or
  // without the index (whose keys are per-element tuples).
  for (const std::string hint : {"", "items.sku_1_items.qty_1"}) {
    SCOPED_TRACE(hint);
    EXPECT_EQ(SortedIds(R"({"items.sku": "x", "items.qty": 2})", hint), "1,2");
    EXPECT_EQ(SortedIds(R"({"items.sku": "y", "items.qty": 2})", hint), "1");
    EXPECT_EQ(SortedIds(R"({"items.sku": "y"})", hint), "1,3");
    EXPECT_EQ(
        SortedIds(R"({"items": {"$elemMatch": {"sku": "x", "qty": 2}}})", hint),
        "2");
  }
  // Arrays below the shared prefix are parallel (GetKeysFromParallelArrays
  // Complex): error 171, nothing written.
  auto bad =
      c().InsertOne(R"({"_id": 4, "items": [{"sku": ["a"], "qty": [1]}]})");
  EXPECT_EQ(ErrorCode(bad.status()), kCannotIndexParallelArrays);
  EXPECT_EQ(SortedIds(R"({"_id": 4})"), "");
  auto valid = c().Validate();
  ASSERT_TRUE(valid.ok()) << valid.status();
  EXPECT_TRUE(valid->Get("valid")->bool_value()) << ToJson(*valid);
}

// T6: sort keys are index keys (index/sort_key_generator.cpp): a scalar met
// on a dotted path is null; compound keys are per-element tuples; parallel
// arrays are BadValue "cannot sort with keys that are parallel arrays"
// (jstests/core/query/sort/sort_dotted_paths_parallel_arrays.js).
TEST_F(PathSemanticsTest, SortKeysAreIndexKeys) {
  Insert(
      {R"({"_id": 1, "a": [{"b": 1}, 5]})", R"({"_id": 2, "a": [{"b": 0}]})"});
  EXPECT_EQ(Ids("{}", R"({"a.b": 1})"), "1,2");
  Insert({R"({"_id": 3, "x": [1, 2], "y": [3, 4]})"});
  const std::string err = Ids("{}", R"({"x": 1, "y": 1})");
  EXPECT_NE(err.find("cannot sort with keys that are parallel arrays"),
            std::string::npos)
      << err;
  // With an index on "a.b" the in-memory and indexed orders agree.
  ASSERT_TRUE(c().CreateIndex(R"({"a.b": 1})").ok());
  EXPECT_EQ(Ids(R"({"_id": {"$lte": 2}})", R"({"a.b": 1})"), "1,2");
  EXPECT_EQ(Ids("{}", R"({"a.b": 1})", "a.b_1"), "1,3,2");
}

// With an equality on one field of a shared array root, the index does not
// provide a sort on another: doc 1's sort key is its smallest qty (1, from
// the "y" element), not the qty of its "x" element (sort_key_generator.cpp).
TEST_F(PathSemanticsTest, SharedRootIndexDoesNotProvideOtherFieldsSort) {
  ASSERT_TRUE(c().CreateIndex(R"({"items.sku": 1, "items.qty": 1})").ok());
  Insert(
      {R"({"_id": 1, "items": [{"sku": "x", "qty": 5}, {"sku": "y", "qty": 1}]})",
       R"({"_id": 2, "items": [{"sku": "x", "qty": 3}]})"});
  EXPECT_EQ(Ids(R"({"items.sku": "x"})", R"({"items.qty": 1})"), "1,2");
  EXPECT_EQ(Ids(R"({"items.sku": "x"})", R"({"items.qty": 1})",
                "items.sku_1_items.qty_1"),
            "1,2");
  EXPECT_EQ(Ids(R"({"items.sku": "x"})", R"({"items.qty": 1})", "", 1), "1");
}

// T6, the review's second case: keys (1, 1), (2, 0) against (1, 0.5).
TEST_F(PathSemanticsTest, CompoundSortUsesPerElementTuples) {
  Insert({R"({"_id": 1, "a": [{"x": 1, "y": 1}, {"x": 2, "y": 0}]})",
          R"({"_id": 2, "a": {"x": 1, "y": 0.5}})"});
  EXPECT_EQ(Ids("{}", R"({"a.x": 1, "a.y": 1})"), "2,1");
  ASSERT_TRUE(c().CreateIndex(R"({"a.x": 1, "a.y": 1})").ok());
  EXPECT_EQ(Ids("{}", R"({"a.x": 1, "a.y": 1})"), "2,1");
  EXPECT_EQ(Ids("{}", R"({"a.x": 1, "a.y": 1})", "a.x_1_a.y_1"), "2,1");
}

// T9: src/mongo/db/matcher/path_test.cpp ArrayIndex2, ArrayIndexNested1;
// with an index on the positional path, null equality is not answered from
// the index (its keys miss the implicit traversal's missing values).
TEST_F(PathSemanticsTest, ExplicitArrayOffsets) {
  Insert({R"({"_id": 0, "a": [5, [2, 4], 3]})",
          R"({"_id": 1, "a": [5, {"b": 4}, 3]})",
          R"({"_id": 2, "a": [{"b": 1}]})", R"({"_id": 3, "a": [5]})"});
  for (const std::string index : {"", "a.1", "a.1.b", "a.0.b"}) {
    SCOPED_TRACE(index);
    if (!index.empty()) {
      ASSERT_TRUE(
          c().CreateIndex(absl::StrCat(R"({")", index, R"(": 1})")).ok());
    }
    EXPECT_EQ(SortedIds(R"({"a.1": 2})"), "");
    EXPECT_EQ(SortedIds(R"({"a.1.b": null})"), "1,2");
    EXPECT_EQ(SortedIds(R"({"a.0.b": null})"), "1,2");
    EXPECT_EQ(SortedIds(R"({"a.1.b": {"$in": [null, 4]}})"), "1,2");
  }
}

}  // namespace
}  // namespace ttldb
