// The sort orders an index scan provides, without a database. Expected
// answers follow MongoDB's src/mongo/db/query/query_solution.cpp
// (computeSortsForScan, confirmBoundsProvideSortComponentGivenMultikeyness)
// and jstests/core/query/sort/sort_array.js.
#include "planner/sort_provision.h"

#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "query/test_doc.h"

namespace ttldb {
namespace planner {
namespace {

using B = FieldBounds;

IndexSpec Spec(const std::string& name,
               std::vector<std::pair<std::string, int>> keys) {
  IndexSpec spec;
  spec.name = name;
  for (const auto& [path, dir] : keys) spec.key.push_back({path, dir});
  return spec;
}

SortSpec Sort(const std::string& json) { return *SortSpec::Parse(Doc(json)); }

SortProvision Provides(const IndexSpec& spec, bool multikey,
                       std::vector<B> bounds, const std::string& sort) {
  return IndexProvidesSort(spec, multikey, bounds, Sort(sort));
}

// sort_array.js: {a: {$gte: 2}} sorted {a: 1} with {a: 1} on arrays is a
// blocking sort ("Since there are bounds on ... this index cannot provide the
// sort"): the scan would meet [3, 0, 1] at 3, its sort key is 0.
TEST(SortProvisionTest, MultikeyFieldWithBoundsCannotSort) {
  const auto a = Spec("a_1", {{"a", 1}});
  SortProvision p = Provides(a, true, {B::kOther}, R"({"a": 1})");
  EXPECT_FALSE(p.provided);
  EXPECT_EQ(p.reason, "index a_1 is multikey and the scan has bounds on a");
  // Point bounds too: {a: 5} sorted {a: -1} orders by each array's maximum.
  EXPECT_FALSE(Provides(a, true, {B::kPoint}, R"({"a": 1})").provided);
  // Not multikey: one key per document, the scan order is the sort.
  EXPECT_TRUE(Provides(a, false, {B::kOther}, R"({"a": 1})").provided);
  EXPECT_TRUE(Provides(a, false, {B::kPoint}, R"({"a": 1})").provided);
}

// Full bounds: the scan meets each document first at its smallest key, which
// is its ascending sort key.
TEST(SortProvisionTest, MultikeyFieldWithFullBoundsSorts) {
  const auto a = Spec("a_1", {{"a", 1}});
  EXPECT_TRUE(Provides(a, true, {B::kFull}, R"({"a": 1})").provided);
  const auto ab = Spec("a_1_b_1", {{"a", 1}, {"b", 1}});
  // computeSortsForScan's example: point bounds on a multikey field are
  // skipped by the provided pattern ("ignoreFields") but may not be sorted
  // on.
  EXPECT_TRUE(
      Provides(ab, true, {B::kPoint, B::kFull}, R"({"b": 1})").provided);
  SortProvision p =
      Provides(ab, true, {B::kPoint, B::kFull}, R"({"a": 1, "b": 1})");
  EXPECT_FALSE(p.provided);
  EXPECT_EQ(p.reason, "index a_1_b_1 is multikey and the scan has bounds on a");
  // Not multikey: the equality field may appear anywhere, or not at all.
  EXPECT_TRUE(Provides(ab, false, {B::kPoint, B::kFull}, R"({"a": 1, "b": 1})")
                  .provided);
  EXPECT_TRUE(Provides(ab, false, {B::kPoint, B::kFull}, R"({"b": 1, "a": -1})")
                  .provided);
}

// SERVER-31898: bounds on a multikey field sharing a path prefix with the
// sort field ({"a.x": 5} sorted {"a.y": 1} over {a: [{x: 5, y: 9}, {x: 6,
// y: 1}]}: the scan meets the document at y 9, its sort key is 1).
TEST(SortProvisionTest, SharedPrefixWithBoundedMultikeyFieldCannotSort) {
  const auto xy = Spec("a.x_1_a.y_1", {{"a.x", 1}, {"a.y", 1}});
  EXPECT_FALSE(
      Provides(xy, true, {B::kPoint, B::kFull}, R"({"a.y": 1})").provided);
  EXPECT_TRUE(
      Provides(xy, false, {B::kPoint, B::kFull}, R"({"a.y": 1})").provided);
}

TEST(SortProvisionTest, SortMustBeAPrefixOfTheKeyPattern) {
  const auto ab = Spec("a_1_b_1", {{"a", 1}, {"b", 1}});
  EXPECT_TRUE(
      Provides(ab, false, {B::kFull, B::kFull}, R"({"a": 1})").provided);
  EXPECT_TRUE(Provides(ab, false, {B::kOther, B::kFull}, R"({"a": 1, "b": 1})")
                  .provided);
  SortProvision p = Provides(ab, false, {B::kOther, B::kFull}, R"({"b": 1})");
  EXPECT_FALSE(p.provided);
  EXPECT_EQ(p.reason,
            "index a_1_b_1 provides the sort {a: 1, b: 1} or its reverse "
            "within its bounds, not {b: 1}");
  // The _id is not part of the key pattern.
  EXPECT_FALSE(
      Provides(ab, false, {B::kFull, B::kFull}, R"({"a": 1, "_id": 1})")
          .provided);
  // Several points ($in) are not an equality: {a: {$in: [1, 2]}} sorted
  // {b: 1} is not in key order (MongoDB would merge-sort exploded scans).
  EXPECT_FALSE(
      Provides(ab, false, {B::kOther, B::kFull}, R"({"b": 1})").provided);
}

// src/mongo/db/query/planner_analysis.cpp (QueryPlannerAnalysis::analyzeSort):
// "Sort is not provided. See if we provide the reverse of our sort pattern.
// If so, we can reverse the scan direction(s)"; query_planner_test.cpp
// ReverseScanForSort ({_id: -1}: ixscan {pattern: {_id: 1}, dir: -1}):
// {a: 1, b: 1} serves {a: -1, b: -1} backward, not {a: 1, b: -1}
// (jstests/cursor6.js: a_1_b_-1 serves {a: -1, b: 1} "reverse").
TEST(SortProvisionTest, BackwardScans) {
  const auto a = Spec("a_1", {{"a", 1}});
  SortProvision p = Provides(a, false, {B::kFull}, R"({"a": -1})");
  EXPECT_TRUE(p.provided);
  EXPECT_TRUE(p.backward);
  p = Provides(a, false, {B::kFull}, R"({"a": 1})");
  EXPECT_TRUE(p.provided);
  EXPECT_FALSE(p.backward);
  const auto d = Spec("a_-1", {{"a", -1}});
  p = Provides(d, false, {B::kFull}, R"({"a": -1})");
  EXPECT_TRUE(p.provided);
  EXPECT_FALSE(p.backward);
  p = Provides(d, false, {B::kOther}, R"({"a": 1})");
  EXPECT_TRUE(p.provided);
  EXPECT_TRUE(p.backward);

  const auto ab = Spec("a_1_b_1", {{"a", 1}, {"b", 1}});
  p = Provides(ab, false, {B::kFull, B::kFull}, R"({"a": -1, "b": -1})");
  EXPECT_TRUE(p.provided);
  EXPECT_TRUE(p.backward);
  p = Provides(ab, false, {B::kFull, B::kFull}, R"({"a": -1})");
  EXPECT_TRUE(p.backward);
  p = Provides(ab, false, {B::kFull, B::kFull}, R"({"a": 1, "b": -1})");
  EXPECT_FALSE(p.provided);
  EXPECT_EQ(p.reason,
            "index a_1_b_1 provides the sort {a: 1, b: 1} or its reverse "
            "within its bounds, not {a: 1, b: -1}");
  // Mixed directions: cursor6.js, a_1_b_-1 serves {a: -1, b: 1} reversed.
  const auto amb = Spec("a_1_b_-1", {{"a", 1}, {"b", -1}});
  p = Provides(amb, false, {B::kFull, B::kFull}, R"({"a": -1, "b": 1})");
  EXPECT_TRUE(p.provided);
  EXPECT_TRUE(p.backward);
  EXPECT_FALSE(
      Provides(amb, false, {B::kFull, B::kFull}, R"({"a": -1, "b": -1})")
          .provided);
  // An equality prefix may be left out of the sort in either direction:
  // {a: 5} sorted {b: -1} scans a_1_b_1 backward within a = 5.
  p = Provides(ab, false, {B::kPoint, B::kFull}, R"({"b": -1})");
  EXPECT_TRUE(p.provided);
  EXPECT_TRUE(p.backward);
  p = Provides(ab, false, {B::kPoint, B::kFull}, R"({"a": 1, "b": -1})");
  EXPECT_TRUE(p.provided);
  EXPECT_TRUE(p.backward);
  // Sorting on equality fields only: forward.
  p = Provides(ab, false, {B::kPoint, B::kFull}, R"({"a": -1})");
  EXPECT_TRUE(p.provided);
  EXPECT_FALSE(p.backward);
}

// A multikey field with full bounds: the backward scan meets each document
// first at its greatest key, its sort key for a descending sort
// (sort_array.js "Descending sort": [8, 4, -1] before [3, 0, 1]); with
// bounds on it, neither direction provides the sort.
TEST(SortProvisionTest, BackwardScanOfMultikeyIndex) {
  const auto a = Spec("a_1", {{"a", 1}});
  SortProvision p = Provides(a, true, {B::kFull}, R"({"a": -1})");
  EXPECT_TRUE(p.provided);
  EXPECT_TRUE(p.backward);
  p = Provides(a, true, {B::kOther}, R"({"a": -1})");
  EXPECT_FALSE(p.provided);
  EXPECT_EQ(p.reason, "index a_1 is multikey and the scan has bounds on a");
}

TEST(SortProvisionTest, EmptySortIsAlwaysProvided) {
  const auto a = Spec("a_1", {{"a", 1}});
  EXPECT_TRUE(Provides(a, true, {B::kOther}, "{}").provided);
}

}  // namespace
}  // namespace planner
}  // namespace ttldb
