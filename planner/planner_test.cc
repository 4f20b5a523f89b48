// Plan choice without a database: which index, which bounds, whether the
// scan provides the sort and why not, and hints. Expected answers cite
// MongoDB's jstests and planner sources beside each test.
#include "planner/planner.h"

#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "query/test_doc.h"
#include "ttldb/json.h"

namespace ttldb {
namespace planner {
namespace {

IndexSpec Spec(const std::string& name,
               std::vector<std::pair<std::string, int>> keys) {
  IndexSpec spec;
  spec.name = name;
  for (const auto& [path, dir] : keys) spec.key.push_back({path, dir});
  return spec;
}

class PlannerTest : public ::testing::Test {
 protected:
  void Add(IndexSpec spec, bool multikey,
           const std::string& partial_filter = "") {
    specs_.push_back(std::move(spec));
    IndexInfo info;
    info.prefix = std::string(1, static_cast<char>('0' + specs_.size()));
    info.multikey = multikey;
    if (!partial_filter.empty()) {
      partials_.push_back(*Filter::Parse(Doc(partial_filter)));
      info.partial = &partials_.back().root();
    }
    infos_.push_back(std::move(info));
  }
  absl::StatusOr<Plan> Choose(const std::string& filter,
                              const std::string& sort, Hint hint = Hint()) {
    // specs_ may have grown: point each IndexInfo at its spec now.
    for (size_t i = 0; i < infos_.size(); ++i) infos_[i].spec = &specs_[i];
    filter_ = *Filter::Parse(Doc(filter));
    if (!sort.empty()) sort_ = *SortSpec::Parse(Doc(sort));
    return ChoosePlan(infos_, filter_, sort.empty() ? nullptr : &sort_, hint);
  }

  std::vector<IndexSpec> specs_;
  std::vector<IndexInfo> infos_;
  std::deque<Filter> partials_;  // stable addresses
  Filter filter_;
  SortSpec sort_;
};

// jstests/core/query/sort/sort_array.js: with {a: 1} on arrays, {a: {$gte:
// 2}} sorted {a: 1} uses the index for the bounds and sorts in memory
// (expectBlockingSort: true).
TEST_F(PlannerTest, MultikeyIndexWithBoundsDoesNotProvideSort) {
  Add(Spec("a_1", {{"a", 1}}), /*multikey=*/true);
  auto plan = Choose(R"({"a": {"$gte": 2}})", R"({"a": 1})");
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->kind, Plan::Kind::kIndexScan);
  EXPECT_EQ(plan->index, 0);
  EXPECT_FALSE(plan->provides_sort);
  EXPECT_EQ(plan->sort_reason,
            "index a_1 is multikey and the scan has bounds on a");
}

// The same index before any array arrived provides the sort, and says that
// this holds only while it stays non-multikey.
TEST_F(PlannerTest, NonMultikeyIndexProvidesSortUntilItBecomesMultikey) {
  Add(Spec("a_1", {{"a", 1}}), /*multikey=*/false);
  auto plan = Choose(R"({"a": {"$gte": 2}})", R"({"a": 1})");
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_TRUE(plan->provides_sort);
  EXPECT_TRUE(plan->sort_needs_not_multikey);
  // Equality on a, sort on nothing else: provided either way.
  plan = Choose(R"({"a": 3})", R"({"b": 1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->provides_sort);
  EXPECT_FALSE(plan->sort_needs_not_multikey);
}

// computeSortsForScan: {a: 5} on {a: 1, b: 1} provides {b: 1}, even when a
// is multikey (point bounds on it are skipped).
TEST_F(PlannerTest, EqualityPrefixThenSortField) {
  Add(Spec("a_1_b_1", {{"a", 1}, {"b", 1}}), /*multikey=*/true);
  auto plan = Choose(R"({"a": 5})", R"({"b": 1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->provides_sort);
  EXPECT_FALSE(plan->sort_needs_not_multikey);
  // With a range on b as well, b has bounds: a blocking sort.
  plan = Choose(R"({"a": 5, "b": {"$gt": 1}})", R"({"b": 1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->provides_sort);
  EXPECT_EQ(plan->sort_reason,
            "index a_1_b_1 is multikey and the scan has bounds on a");
}

// Bounds: several ranges on one field intersect only on a non-multikey
// index ({a: [0, 10]} matches {$gt: 1, $lt: 5} through two elements).
TEST_F(PlannerTest, RangeBoundsIntersectOnlyWithoutArrays) {
  Add(Spec("a_1", {{"a", 1}}), /*multikey=*/false);
  Add(Spec("b_1", {{"b", 1}}), /*multikey=*/true);
  auto plan = Choose(R"({"a": {"$gt": 1, "$lt": 5}})", "");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->index, 0);
  EXPECT_EQ(ToJson(plan->bounds), R"js({"a":["(1, 5)"]})js");
  ASSERT_TRUE(plan->multikey_ranges.has_value());
  ASSERT_EQ(plan->ranges.size(), 1u);
  EXPECT_LT(plan->ranges[0].first, plan->ranges[0].second);
  plan = Choose(R"({"b": {"$gt": 1, "$lt": 5}})", "");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->index, 1);
  EXPECT_EQ(ToJson(plan->bounds), R"js({"b":["(1, int max]"]})js");
  EXPECT_FALSE(plan->multikey_ranges.has_value());
  // $in: one point per value, ascending, with the index prefix.
  plan = Choose(R"({"a": {"$in": [5, 2]}})", "");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(ToJson(plan->bounds), R"({"a":["[2, 2], [5, 5]"]})");
  ASSERT_EQ(plan->ranges.size(), 2u);
  EXPECT_LT(plan->ranges[0].second, plan->ranges[1].first);
  EXPECT_EQ(plan->ranges[0].first[0], '1');
}

// No index bounds the filter, but one provides the sort: a whole-index scan
// instead of a blocking sort (MongoDB's query_planner.cpp adds such plans);
// never a sparse or partial index, which would miss documents.
TEST_F(PlannerTest, WholeIndexScanProvidesSort) {
  IndexSpec sparse = Spec("s_1", {{"a", 1}});
  sparse.sparse = true;
  Add(sparse, false);
  Add(Spec("p_1", {{"a", 1}}), false, R"({"c": 1})");
  auto plan = Choose(R"({"b": 1})", R"({"a": 1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kCollectionScan);
  Add(Spec("a_1_b_1", {{"a", 1}, {"b", 1}}), /*multikey=*/true);
  plan = Choose(R"({"c": 1})", R"({"a": 1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kIndexScan);
  EXPECT_EQ(plan->index, 2);
  EXPECT_TRUE(plan->provides_sort);
  EXPECT_EQ(ToJson(plan->bounds), "{}");
  EXPECT_FALSE(plan->backward);
  // The reverse of the index's order: the same index scanned backward
  // (planner_analysis.cpp analyzeSort reverses the scan; a multikey index
  // with full bounds meets each document at its greatest key first).
  plan = Choose(R"({"c": 1})", R"({"a": -1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kIndexScan);
  EXPECT_EQ(plan->index, 2);
  EXPECT_TRUE(plan->provides_sort);
  EXPECT_TRUE(plan->backward);
  // Neither direction: a collection scan and a blocking sort.
  plan = Choose(R"({"c": 1})", R"({"a": 1, "b": -1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kCollectionScan);
  EXPECT_FALSE(plan->provides_sort);
}

// query_planner_test.cpp ReverseScanForSort: sort {_id: -1} with no filter
// is the _id index scanned backward ({ixscan: {pattern: {_id: 1}, dir:
// -1}}); ttldb's _id index is the collection itself (documents are stored
// in _id order), so a backward collection scan, and _id lookups come in
// descending _id order.
TEST_F(PlannerTest, IdSortBackward) {
  Add(Spec("a_1", {{"a", 1}}), false);
  auto plan = Choose("{}", R"({"_id": -1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kCollectionScan);
  EXPECT_TRUE(plan->provides_sort);
  EXPECT_TRUE(plan->backward);
  plan = Choose("{}", R"({"_id": 1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->provides_sort);
  EXPECT_FALSE(plan->backward);
  plan = Choose(R"({"_id": {"$in": [3, 1]}})", R"({"_id": -1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kIdLookup);
  EXPECT_TRUE(plan->provides_sort);
  EXPECT_TRUE(plan->backward);
  // A filter an index bounds: that index, and a blocking sort by _id.
  plan = Choose(R"({"a": 5})", R"({"_id": -1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kIndexScan);
  EXPECT_FALSE(plan->provides_sort);
  EXPECT_FALSE(plan->backward);
  // {_id: -1, a: 1} is not _id order.
  plan = Choose("{}", R"({"_id": -1, "a": 1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->provides_sort);
  EXPECT_FALSE(plan->backward);
}

// Backward index scans and their explain bounds: each field's intervals in
// the scan's key order, high to low for an ascending field scanned
// backward or a descending one scanned forward (MongoDB's
// index_bounds_builder.cpp IndexBoundsBuilder::alignBounds(bounds, kp,
// scanDir) reverses the interval list and each interval of every field
// whose direction times scanDir is -1: "[5.0, 1.0)").
TEST_F(PlannerTest, BackwardIndexScanBounds) {
  Add(Spec("a_1_b_1", {{"a", 1}, {"b", 1}}), false);
  auto plan = Choose(R"({"a": {"$gt": 1, "$lte": 5}})", R"({"a": -1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kIndexScan);
  EXPECT_TRUE(plan->provides_sort);
  EXPECT_TRUE(plan->backward);
  EXPECT_EQ(ToJson(plan->bounds), R"js({"a":["[5, 1)"]})js");
  // The sort {a: -1, b: -1} is the reverse of {a: 1, b: 1}.
  plan = Choose(R"({"a": {"$in": [2, 1, 3]}})", R"({"a": -1, "b": -1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->provides_sort);
  EXPECT_TRUE(plan->backward);
  EXPECT_EQ(ToJson(plan->bounds), R"({"a":["[3, 3], [2, 2], [1, 1]"]})");
  // An equality prefix, then the sort field reversed.
  plan = Choose(R"({"a": 7, "b": {"$gte": 2}})", R"({"b": -1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->provides_sort);
  EXPECT_TRUE(plan->backward);
  EXPECT_EQ(ToJson(plan->bounds), R"({"a":["[7, 7]"],"b":["[int max, 2]"]})");
  // Forward, unchanged.
  plan = Choose(R"({"a": {"$gt": 1, "$lte": 5}})", R"({"a": 1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->backward);
  EXPECT_EQ(ToJson(plan->bounds), R"({"a":["(1, 5]"]})");

  // A descending field: forward bounds high to low, backward low to high.
  Add(Spec("c_-1", {{"c", -1}}), false);
  plan = Choose(R"({"c": {"$lt": 4}})", R"({"c": -1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->index, 1);
  EXPECT_FALSE(plan->backward);
  EXPECT_EQ(ToJson(plan->bounds), R"({"c":["(4, int min]"]})");
  plan = Choose(R"({"c": {"$lt": 4}})", R"({"c": 1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->provides_sort);
  EXPECT_TRUE(plan->backward);
  EXPECT_EQ(ToJson(plan->bounds), R"js({"c":["[int min, 4)"]})js");
}

// {$natural: -1}: a backward collection scan, which provides {_id: -1}
// (ttldb's natural order is _id order).
TEST_F(PlannerTest, NaturalHintBackward) {
  Hint natural;
  natural.key_pattern = Doc(R"({"$natural": -1})");
  auto plan = Choose("{}", "", natural);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->kind, Plan::Kind::kCollectionScan);
  EXPECT_TRUE(plan->backward);
  plan = Choose("{}", R"({"_id": -1})", natural);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->provides_sort);
  plan = Choose("{}", R"({"_id": 1})", natural);
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->provides_sort);
  natural.key_pattern = Doc(R"({"$natural": 2})");
  EXPECT_FALSE(Choose("{}", "", natural).ok());
}

TEST_F(PlannerTest, CollectionScanAndIdLookupReasons) {
  Add(Spec("a_1", {{"a", 1}}), false);
  auto plan = Choose(R"({"b": 1})", R"({"c": -1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kCollectionScan);
  EXPECT_FALSE(plan->provides_sort);
  EXPECT_NE(plan->sort_reason.find("no index bounds the filter"),
            std::string::npos);
  plan = Choose(R"({"_id": {"$in": [3, 1]}})", R"({"_id": 1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kIdLookup);
  EXPECT_TRUE(plan->provides_sort);
}

// Sparse and partial indexes are never chosen when they could miss a
// matching document: a sparse index cannot look up null; a partial index
// needs a filter that implies its expression (MongoDB:
// jstests/core/index/index_partial_read_ops.js, e.g. {x: 6} does not use
// {x: 1} with partialFilterExpression {a: {$lte: 1.5}}, {x: 6, a: 1} does).
TEST_F(PlannerTest, SparseAndPartialIndexes) {
  IndexSpec sparse = Spec("a_1", {{"a", 1}});
  sparse.sparse = true;
  Add(sparse, false);
  Add(Spec("x_1", {{"x", 1}}), false, R"({"b": {"$lte": 1.5}})");
  auto plan = Choose(R"({"a": null})", R"({"a": 1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kCollectionScan);
  plan = Choose(R"({"a": {"$in": [1, null]}})", "");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kCollectionScan);
  plan = Choose(R"({"a": 1})", "");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kIndexScan);
  // Sorting alone never picks a sparse index (it would skip documents
  // without the field).
  plan = Choose("{}", R"({"a": 1})");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kCollectionScan);

  for (const char* implied :
       {R"({"x": 6, "b": 1})", R"({"x": {"$gt": 1}, "b": 1})",
        R"({"x": 6, "b": {"$lte": 1}})", R"({"x": 6, "b": {"$lt": 1.5}})",
        R"({"x": 6, "b": {"$in": [0, 1.5]}})"}) {
    plan = Choose(implied, "");
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(plan->kind, Plan::Kind::kIndexScan) << implied;
    EXPECT_EQ(plan->index, 1) << implied;
  }
  Hint hint;
  hint.name = "x_1";
  for (const char* not_implied :
       {R"({"x": 6})", R"({"x": 6, "b": {"$lt": 1.6}})",
        R"({"x": 6, "b": "s"})", R"({"x": 6, "b": {"$in": [1, 2]}})",
        R"({"$or": [{"x": 6}, {"b": 1}]})"}) {
    plan = Choose(not_implied, "");
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(plan->kind, Plan::Kind::kCollectionScan) << not_implied;
    // Hinted, it is used anyway (MongoDB: a whole-index scan, SERVER-26413).
    plan = Choose(not_implied, "", hint);
    ASSERT_TRUE(plan.ok()) << not_implied;
    EXPECT_EQ(plan->index, 1) << not_implied;
  }
  EXPECT_TRUE(Choose(R"({"x": 6, "b": 1})", "", hint).ok());
}

// cursor.hint(): by name or key pattern; {$natural: 1} is a collection scan;
// an unknown or hidden index is BadValue "hint provided does not correspond
// to an existing index" (MongoDB: "Can't 'hint' a hidden index").
TEST_F(PlannerTest, Hints) {
  Add(Spec("a_1", {{"a", 1}}), false);
  IndexSpec hidden = Spec("b_1", {{"b", 1}});
  hidden.hidden = true;
  Add(hidden, false);
  Hint by_name;
  by_name.name = "a_1";
  auto plan = Choose(R"({"b": 1})", R"({"a": 1})", by_name);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->kind, Plan::Kind::kIndexScan);
  EXPECT_EQ(plan->index, 0);
  EXPECT_TRUE(plan->provides_sort);  // a whole-index scan in key order
  Hint by_keys;
  by_keys.key_pattern = Doc(R"({"a": 1.0})");
  plan = Choose(R"({"a": 1})", "", by_keys);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->index, 0);
  Hint natural;
  natural.key_pattern = Doc(R"({"$natural": 1})");
  plan = Choose(R"({"a": 1})", R"({"a": 1})", natural);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, Plan::Kind::kCollectionScan);
  EXPECT_FALSE(plan->provides_sort);

  for (const std::string& bad :
       {std::string(R"({"a": -1})"), std::string(R"({"b": 1})"),
        std::string(R"({"c": 1})")}) {
    Hint h;
    h.key_pattern = Doc(bad);
    plan = Choose("{}", "", h);
    EXPECT_EQ(plan.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_EQ(plan.status().message(),
              "hint provided does not correspond to an existing index")
        << bad;
  }
  // Two indexes on one key pattern: hint by name (MongoDB's
  // query_planner.cpp, IndexNotFound "Hint matched multiple indexes").
  Add(Spec("a_partial", {{"a", 1}}), false, R"({"c": 1})");
  plan = Choose("{}", "", by_keys);
  EXPECT_EQ(plan.status().message(),
            "Hint matched multiple indexes, must hint by index name. Matched: "
            "a_1 and a_partial");
  Hint by_partial_name;
  by_partial_name.name = "a_partial";
  plan = Choose("{}", "", by_partial_name);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->index, 2);
  Hint h;
  h.name = "b_1";
  EXPECT_FALSE(Choose("{}", "", h).ok());
  h.name = "nosuch";
  EXPECT_FALSE(Choose("{}", "", h).ok());
}

// The _id index can be hinted like any other (by "_id_" or {_id: 1}):
// MongoDB's jstests hashindex1.js compares find({a: 3}).hint({_id: 1})
// with another index's answer. ttldb stores documents in _id
// order, so the hinted _id index is _id lookups or the collection in _id
// order. {_id: -1} names no index.
TEST_F(PlannerTest, HintTheIdIndex) {
  Add(Spec("a_1", {{"a", 1}}), false);
  Hint by_name;
  by_name.name = "_id_";
  auto plan = Choose(R"({"a": 1})", R"({"_id": 1})", by_name);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->kind, Plan::Kind::kCollectionScan);
  EXPECT_TRUE(plan->provides_sort);
  Hint by_keys;
  by_keys.key_pattern = Doc(R"({"_id": 1})");
  plan = Choose(R"({"_id": {"$in": [3, 1]}, "a": 1})", "", by_keys);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->kind, Plan::Kind::kIdLookup);
  plan = Choose(R"({"a": 1})", R"({"a": 1})", by_keys);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->kind, Plan::Kind::kCollectionScan);
  EXPECT_FALSE(plan->provides_sort);
  Hint descending;
  descending.key_pattern = Doc(R"({"_id": -1})");
  EXPECT_EQ(Choose("{}", "", descending).status().message(),
            "hint provided does not correspond to an existing index");
}

}  // namespace
}  // namespace planner
}  // namespace ttldb
