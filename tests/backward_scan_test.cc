// Backward scans end to end on LevelDB: a sort that is the reverse of the
// _id order or of an index's key pattern is served by scanning from the
// high end (no blocking sort), with MongoDB's answers, explain and cursor
// behaviour. MongoDB's rule: QueryPlannerAnalysis::analyzeSort
// (src/mongo/db/query/planner_analysis.cpp) reverses a scan that provides
// the reverse of the sort; query_planner_test.cpp ReverseScanForSort
// (sort {_id: -1}: {ixscan: {pattern: {_id: 1}, dir: -1}}).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class BackwardScanTest : public DbTest {
 protected:
  Collection& c() { return db_->collection("c"); }

  void Insert(const std::vector<std::string>& docs) {
    for (const std::string& d : docs) {
      auto r = c().InsertOne(d);
      ASSERT_TRUE(r.ok()) << r.status() << " " << d;
    }
  }

  FindOptions Options(const std::string& sort, int64_t limit = 0,
                      int64_t skip = 0, const std::string& hint_keys = "") {
    FindOptions o;
    o.sort = *ParseDocument(sort);
    o.limit = limit;
    o.skip = skip;
    if (!hint_keys.empty()) o.hint_keys = *ParseDocument(hint_keys);
    return o;
  }

  // The _ids Find returns, in order, comma-separated.
  std::string Ids(const std::string& filter, const FindOptions& o) {
    auto cursor = c().Find(filter, o);
    if (!cursor.ok()) return std::string(cursor.status().message());
    auto docs = (*cursor)->ToVector();
    if (!docs.ok()) return std::string(docs.status().message());
    std::string out;
    for (const Value& d : *docs) {
      out += (out.empty() ? "" : ",") + ToJson(*d.Get("_id"));
    }
    return out;
  }
  std::string Ids(const std::string& filter, const std::string& sort,
                  int64_t limit = 0, int64_t skip = 0) {
    return Ids(filter, Options(sort, limit, skip));
  }
  // The same query as a collection scan with a blocking sort.
  std::string BlockingIds(const std::string& filter, const std::string& sort,
                          int64_t limit = 0, int64_t skip = 0) {
    return Ids(filter, Options(sort, limit, skip, R"({"$natural": 1})"));
  }

  Value Explain(const std::string& filter, const FindOptions& o) {
    auto e = c().Explain(filter, o);
    EXPECT_TRUE(e.ok()) << e.status();
    return e.ok() ? *e : Value();
  }
  static std::string Plan(const Value& explain) {
    return ToJson(*explain.Get("queryPlanner")->Get("winningPlan"));
  }
  static int64_t Stat(const Value& explain, const char* name) {
    return explain.Get("executionStats")->Get(name)->int64_value();
  }
};

// sort({_id: -1}).limit(1) reads one document: ttldb's _id index is the
// collection (documents are stored in _id order, explain shows COLLSCAN as
// for sort({_id: 1})), scanned backward. _ids of every type in MongoDB's
// bracket order (src/mongo/bson/bsontypes.cpp canonicalizeBSONType: MinKey
// < null < numbers < strings < objects < ObjectId < bool < Date < MaxKey).
TEST_F(BackwardScanTest, IdSortScansTheCollectionBackward) {
  Insert({R"({"_id": {"$maxKey": 1}})", R"({"_id": "b"})", R"({"_id": 2.5})",
          R"({"_id": {"$minKey": 1}})", R"({"_id": null})",
          R"({"_id": {"x": 1}})", R"({"_id": true})",
          R"({"_id": {"$oid": "5f0000000000000000000001"}})",
          R"({"_id": {"$date": "2020-01-01T00:00:00Z"}})", R"({"_id": 1})",
          R"({"_id": "a"})"});
  const std::string forward =
      R"({"$minKey":1},null,1,2.5,"a","b",{"x":1},)"
      R"({"$oid":"5f0000000000000000000001"},true,)"
      R"({"$date":"2020-01-01T00:00:00.000Z"},{"$maxKey":1})";
  const std::string backward =
      R"({"$maxKey":1},{"$date":"2020-01-01T00:00:00.000Z"},true,)"
      R"({"$oid":"5f0000000000000000000001"},{"x":1},"b","a",2.5,1,null,)"
      R"({"$minKey":1})";
  EXPECT_EQ(Ids("{}", R"({"_id": 1})"), forward);
  EXPECT_EQ(Ids("{}", R"({"_id": -1})"), backward);
  EXPECT_EQ(BlockingIds("{}", R"({"_id": -1})"), backward);
  EXPECT_EQ(Ids("{}", R"({"_id": -1})", 1), R"({"$maxKey":1})");
  EXPECT_EQ(Ids("{}", R"({"_id": -1})", 2, 3),
            R"({"$oid":"5f0000000000000000000001"},{"x":1})");
  // A filter on other fields: still the backward scan, filtered.
  EXPECT_EQ(Ids(R"({"_id": {"$type": "string"}})", R"({"_id": -1})"),
            R"("b","a")");
  EXPECT_EQ(Ids(R"({"_id": {"$lt": 3}})", R"({"_id": -1})"), "2.5,1");

  Value e = Explain("{}", Options(R"({"_id": -1})", 1));
  EXPECT_EQ(Plan(e), R"({"stage":"COLLSCAN","direction":"backward"})");
  EXPECT_EQ(Stat(e, "totalDocsExamined"), 1);
  EXPECT_EQ(Stat(e, "nReturned"), 1);
  e = Explain("{}", Options(R"({"_id": 1})", 1));
  EXPECT_EQ(Plan(e), R"({"stage":"COLLSCAN","direction":"forward"})");
}

// _id lookups ($in) come in descending _id order for sort {_id: -1}.
TEST_F(BackwardScanTest, IdLookupsInDescendingOrder) {
  Insert({R"({"_id": 1})", R"({"_id": 2})", R"({"_id": 3})", R"({"_id": 4})"});
  EXPECT_EQ(Ids(R"({"_id": {"$in": [3, 1, 4, 9]}})", R"({"_id": -1})"),
            "4,3,1");
  EXPECT_EQ(Ids(R"({"_id": {"$in": [3, 1, 4, 9]}})", R"({"_id": -1})", 2),
            "4,3");
  Value e =
      Explain(R"({"_id": {"$in": [3, 1, 4]}})", Options(R"({"_id": -1})"));
  EXPECT_EQ(Plan(e), R"({"stage":"IDHACK"})");
}

// hint({$natural: -1}): a backward collection scan (ttldb's natural order is
// _id order), which provides {_id: -1}; MongoDB's
// jstests/core/query/natural.js style reverse natural order.
TEST_F(BackwardScanTest, NaturalHintBackward) {
  Insert({R"({"_id": 2})", R"({"_id": 1})", R"({"_id": 3})"});
  EXPECT_EQ(Ids("{}", Options("{}", 0, 0, R"({"$natural": -1})")), "3,2,1");
  EXPECT_EQ(Ids("{}", Options(R"({"_id": 1})", 0, 0, R"({"$natural": -1})")),
            "1,2,3");
  Value e = Explain("{}", Options("{}", 1, 0, R"({"$natural": -1})"));
  EXPECT_EQ(Plan(e), R"({"stage":"COLLSCAN","direction":"backward"})");
  EXPECT_EQ(Stat(e, "totalDocsExamined"), 1);
}

// sort({a: -1}) with {a: 1}: the index scanned backward, over every type in
// bracket order, arrays at their greatest element, null and missing
// together (one null key). Ties (5 and 6 both null) come in descending
// RecordId (here _id) order, as a backward scan of MongoDB's index keys
// {key, RecordId} returns them. sort_array.js: a descending sort orders an
// array by its greatest element.
TEST_F(BackwardScanTest, IndexScannedBackwardAcrossTypes) {
  ASSERT_TRUE(c().CreateIndex(R"({"a": 1})").ok());
  Insert({R"({"_id": 1, "a": {"$minKey": 1}})", R"({"_id": 5, "a": null})",
          R"({"_id": 6})", R"({"_id": 2, "a": 1})", R"({"_id": 3, "a": 2.5})",
          R"({"_id": 4, "a": [0, 10]})", R"({"_id": 7, "a": "b"})",
          R"({"_id": 8, "a": {"x": 1}})",
          R"({"_id": 9, "a": {"$oid": "5f0000000000000000000001"}})",
          R"({"_id": 10, "a": true})",
          R"({"_id": 11, "a": {"$date": "2020-01-01T00:00:00Z"}})",
          R"({"_id": 12, "a": {"$maxKey": 1}})"});
  const std::string expected = "12,11,10,9,8,7,4,3,2,6,5,1";
  EXPECT_EQ(Ids("{}", R"({"a": -1})"), expected);
  EXPECT_EQ(Ids("{}", R"({"a": -1})", 3), "12,11,10");
  EXPECT_EQ(Ids("{}", R"({"a": -1})", 3, 5), "7,4,3");
  // Forward, for comparison: [0, 10] at its least element.
  EXPECT_EQ(Ids("{}", R"({"a": 1})"), "1,5,6,4,2,3,7,8,9,10,11,12");

  Value e = Explain("{}", Options(R"({"a": -1})", 3));
  EXPECT_EQ(Plan(e),
            R"({"stage":"IXSCAN","indexName":"a_1","keyPattern":{"a":1},)"
            R"("isMultiKey":true,"direction":"backward","indexBounds":{}})");
  EXPECT_EQ(Stat(e, "totalKeysExamined"), 3);
  EXPECT_EQ(Stat(e, "totalDocsExamined"), 3);
}

// Multikey documents are returned once, at the first key the backward scan
// meets (their greatest): sort_array.js "Descending sort" expects
// [8, 4, -1] before [3, 0, 1].
TEST_F(BackwardScanTest, MultikeyDocumentsOnceAtTheirGreatestKey) {
  ASSERT_TRUE(c().CreateIndex(R"({"a": 1})").ok());
  Insert({R"({"_id": 0, "a": [3, 0, 1]})", R"({"_id": 1, "a": [8, 4, -1]})",
          R"({"_id": 2, "a": 2})", R"({"_id": 3, "a": [1, 5, 9]})"});
  EXPECT_EQ(Ids("{}", R"({"a": -1})"), "3,1,0,2");
  EXPECT_EQ(BlockingIds("{}", R"({"a": -1})"), "3,1,0,2");
  Value e = Explain("{}", Options(R"({"a": -1})"));
  EXPECT_EQ(Stat(e, "totalKeysExamined"), 10);
  EXPECT_EQ(Stat(e, "totalDocsExamined"), 4);
  EXPECT_EQ(Stat(e, "nReturned"), 4);
  // Bounds on a multikey field: neither direction provides the sort
  // (sort_array.js expectBlockingSort), and the answer is the same.
  EXPECT_EQ(Ids(R"({"a": {"$gte": 2}})", R"({"a": -1})"), "3,1,0,2");
  EXPECT_NE(Plan(Explain(R"({"a": {"$gte": 2}})", Options(R"({"a": -1})")))
                .find(R"("stage":"SORT")"),
            std::string::npos);
}

// Ranges with exclusive and inclusive ends, $in points, several ranges:
// walked last to first, each from its end down to its begin. Bounds print
// high to low ("[7, 2)"), as MongoDB's IndexBoundsBuilder::alignBounds
// reverses them for a backward scan (index_bounds_builder.cpp).
TEST_F(BackwardScanTest, RangesWalkedFromTheirEnds) {
  ASSERT_TRUE(c().CreateIndex(R"({"a": 1})").ok());
  std::vector<std::string> docs;
  for (int i = 0; i < 10; ++i) {
    docs.push_back(absl::StrCat(R"({"_id": )", i, R"(, "a": )", i, "}"));
  }
  docs.push_back(R"({"_id": 10, "a": "x"})");
  docs.push_back(R"({"_id": 11, "a": null})");
  Insert(docs);
  EXPECT_EQ(Ids(R"({"a": {"$gt": 2, "$lte": 7}})", R"({"a": -1})"),
            "7,6,5,4,3");
  EXPECT_EQ(Ids(R"({"a": {"$gte": 2, "$lt": 7}})", R"({"a": -1})"),
            "6,5,4,3,2");
  EXPECT_EQ(Ids(R"({"a": {"$lt": 3}})", R"({"a": -1})"), "2,1,0");
  EXPECT_EQ(Ids(R"({"a": {"$gt": 7}})", R"({"a": -1})"), "9,8");
  EXPECT_EQ(Ids(R"({"a": {"$in": [3, 9, 1, "x", 42]}})", R"({"a": -1})"),
            "10,9,3,1");
  EXPECT_EQ(Ids(R"({"a": {"$in": [3, 9, 1, "x"]}})", R"({"a": -1})", 2, 1),
            "9,3");

  Value e = Explain(R"({"a": {"$gt": 2, "$lte": 7}})", Options(R"({"a": -1})"));
  EXPECT_EQ(Plan(e),
            R"js({"stage":"IXSCAN","indexName":"a_1","keyPattern":{"a":1},)js"
            R"js("isMultiKey":false,"direction":"backward",)js"
            R"js("indexBounds":{"a":["[7, 2)"]}})js");
  EXPECT_EQ(Stat(e, "totalKeysExamined"), 5);
  e = Explain(R"({"a": {"$in": [3, 9, 1]}})", Options(R"({"a": -1})", 2));
  EXPECT_NE(Plan(e).find(R"("indexBounds":{"a":["[9, 9], [3, 3], [1, 1]"]})"),
            std::string::npos)
      << Plan(e);
  EXPECT_EQ(Stat(e, "totalKeysExamined"), 2);
}

// A descending index: sort {b: 1} scans it backward; its forward bounds
// print high to low, its backward ones low to high.
TEST_F(BackwardScanTest, DescendingIndexScannedBackward) {
  ASSERT_TRUE(c().CreateIndex(R"({"b": -1})").ok());
  Insert({R"({"_id": 1, "b": 3})", R"({"_id": 2, "b": 1})",
          R"({"_id": 3, "b": 2})", R"({"_id": 4, "b": 5})",
          R"({"_id": 5, "b": "s"})"});
  EXPECT_EQ(Ids(R"({"b": {"$lt": 5}})", R"({"b": 1})"), "2,3,1");
  EXPECT_EQ(Ids(R"({"b": {"$lt": 5}})", R"({"b": -1})"), "1,3,2");
  EXPECT_EQ(Ids("{}", R"({"b": 1})"), "2,3,1,4,5");
  Value e = Explain(R"({"b": {"$lt": 5}})", Options(R"({"b": 1})"));
  EXPECT_NE(
      Plan(e).find(
          R"js("direction":"backward","indexBounds":{"b":["[int min, 5)"]})js"),
      std::string::npos)
      << Plan(e);
  e = Explain(R"({"b": {"$lt": 5}})", Options(R"({"b": -1})"));
  EXPECT_NE(
      Plan(e).find(
          R"js("direction":"forward","indexBounds":{"b":["(5, int min]"]})js"),
      std::string::npos)
      << Plan(e);
}

// Compound indexes with mixed directions: {a: 1, b: -1} serves {a: 1, b: -1}
// forward and {a: -1, b: 1} backward, not {a: -1, b: -1}
// (jstests/cursor6.js: "BtreeCursor a_1_b_-1 reverse" for {a: -1, b: 1});
// with an equality on a, {b: 1} alone is served backward.
TEST_F(BackwardScanTest, CompoundMixedDirections) {
  ASSERT_TRUE(c().CreateIndex(R"({"a": 1, "b": -1})").ok());
  Insert({R"({"_id": 1, "a": 1, "b": 1})", R"({"_id": 2, "a": 1, "b": 2})",
          R"({"_id": 3, "a": 1, "b": 3})", R"({"_id": 4, "a": 2, "b": 1})",
          R"({"_id": 5, "a": 2, "b": 2})", R"({"_id": 6, "a": 2, "b": 3})",
          R"({"_id": 7, "a": 2})"});
  EXPECT_EQ(Ids("{}", R"({"a": -1, "b": 1})"), "7,4,5,6,1,2,3");
  EXPECT_EQ(Ids("{}", R"({"a": 1, "b": -1})"), "3,2,1,6,5,4,7");
  EXPECT_EQ(BlockingIds("{}", R"({"a": -1, "b": 1})"), "7,4,5,6,1,2,3");
  EXPECT_EQ(Ids(R"({"a": 2})", R"({"b": 1})"), "7,4,5,6");
  EXPECT_EQ(Ids(R"({"a": 2, "b": {"$gt": 1}})", R"({"b": 1})"), "5,6");
  EXPECT_EQ(Ids(R"({"a": {"$gte": 2}})", R"({"a": -1})", 2), "7,4");
  Value e = Explain("{}", Options(R"({"a": -1, "b": 1})"));
  EXPECT_NE(Plan(e).find(R"("stage":"IXSCAN")"), std::string::npos);
  EXPECT_NE(Plan(e).find(R"("direction":"backward")"), std::string::npos);
  e = Explain(R"({"a": 2, "b": {"$gt": 1}})", Options(R"({"b": 1})"));
  EXPECT_NE(
      Plan(e).find(
          R"js("direction":"backward","indexBounds":{"a":["[2, 2]"],"b":["(1, int max]"]})js"),
      std::string::npos)
      << Plan(e);
  // Neither direction: a blocking sort, same answer as the collection scan.
  e = Explain("{}", Options(R"({"a": -1, "b": -1})"));
  EXPECT_NE(Plan(e).find(R"("stage":"SORT")"), std::string::npos);
  EXPECT_EQ(Ids("{}", R"({"a": -1, "b": -1})"), "6,5,4,7,3,2,1");
}

// The cursor keeps its position between batches: a backward scan read a
// few documents at a time, with writes in between (the cursor's snapshot
// does not see them), returns the whole answer once, in order.
TEST_F(BackwardScanTest, CursorContinuesBackward) {
  ASSERT_TRUE(c().CreateIndex(R"({"a": 1})").ok());
  std::vector<std::string> docs;
  for (int i = 0; i < 250; ++i) {
    docs.push_back(absl::StrCat(R"({"_id": )", i, R"(, "a": )", i % 50, "}"));
  }
  Insert(docs);
  for (const char* sort : {R"({"_id": -1})", R"({"a": -1})"}) {
    auto cursor = c().Find("{}", Options(sort));
    ASSERT_TRUE(cursor.ok()) << cursor.status();
    std::vector<int> got;
    for (int batch = 0; batch < 3; ++batch) {
      for (int i = 0; i < 101; ++i) {
        auto doc = (*cursor)->Next();
        ASSERT_TRUE(doc.ok()) << doc.status();
        if (!doc->has_value()) break;
        got.push_back(static_cast<int>((*doc)->Get("_id")->AsDouble()));
      }
      ASSERT_TRUE(c().InsertOne(absl::StrCat(R"({"_id": )", 1000 + batch,
                                             R"(, "a": 1000})"))
                      .ok());
    }
    ASSERT_EQ(got.size(), 250u) << sort;
    for (size_t i = 1; i < got.size(); ++i) {
      if (std::string(sort) == R"({"_id": -1})") {
        EXPECT_EQ(got[i], got[i - 1] - 1) << sort << " " << i;
      } else {
        // a descending; equal a (5 documents each) in descending _id.
        const int prev = got[i - 1], cur = got[i];
        EXPECT_TRUE(cur % 50 < prev % 50 ||
                    (cur % 50 == prev % 50 && cur < prev))
            << sort << " " << i << ": " << prev << " then " << cur;
      }
    }
    EXPECT_EQ(got.front(), 249);
    ASSERT_TRUE(c().DeleteMany(R"({"a": 1000})").ok());
  }
}

}  // namespace
}  // namespace ttldb
