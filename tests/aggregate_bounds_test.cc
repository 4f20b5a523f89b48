// Aggregation that one client cannot use to take the server down (issue 28,
// review reliability-3 N4-N6), through the public API with MongoDB's codes:
//  - every stage is linear in its input ($unwind of one 200,000-element
//    array completes; it was quadratic) and stops at the operation's
//    interrupt point (base/op_deadline.h) between documents, inside one
//    array's $unwind and inside $map/$filter/$reduce;
//  - no document a pipeline returns exceeds BSONObjMaxInternalSize (10334
//    BSONObjectTooLarge, src/mongo/bson/bsonobj.cpp), $facet's document is
//    bounded at 100 MiB (4031700, document_source_facet.cpp) and $sample's
//    buffer like a blocking stage's (292);
//  - no value an expression builds exceeds the same bound (10334) and no
//    operator holds more than 64 MiB of arguments (146 ExceededMemoryLimit,
//    as $range's bound in src/mongo/db/exec/expression/evaluate_math.cpp),
//    so that a $reduce doubling an array fails instead of aborting the
//    process with std::bad_alloc.
// Nothing here is timed: the deadline comes from a clock that advances one
// millisecond per read.
#include <atomic>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/op_deadline.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/aggregate_fixture.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// Steady time moves 1 ms per read; wall time stands still.
class TickingClock : public Clock {
 public:
  absl::Time WallNow() override { return absl::FromUnixSeconds(1'800'000'000); }
  absl::Time SteadyNow() override {
    return absl::FromUnixMillis(steady_ms_.fetch_add(1) + 1);
  }
  int64_t reads() const { return steady_ms_.load(); }

 private:
  std::atomic<int64_t> steady_ms_{0};
};

class AggregateBoundsTest : public AggregateTest {
 protected:
  void InsertValue(Collection& c, Value doc) {
    auto r = c.InsertOne(std::move(doc));
    ASSERT_TRUE(r.ok()) << r.status();
  }
  // {_id: id, a: [0, 1, ..., n-1]}
  void InsertArray(Collection& c, int id, int n) {
    Value::Array a;
    a.reserve(n);
    for (int i = 0; i < n; ++i) a.push_back(Value::Int32(i));
    InsertValue(c, Value::MakeObject({Field("_id", Value::Int32(id)),
                                      Field("a", Value::MakeArray(a))}));
  }
  // {_id: id, s: <bytes of 'x'>}
  void InsertString(Collection& c, int id, size_t bytes) {
    InsertValue(c, Value::MakeObject(
                       {Field("_id", Value::Int32(id)),
                        Field("s", Value::String(std::string(bytes, 'x')))}));
  }
  Collection& coll(const char* name) { return db_->collection(name); }
};

// ---- N4: linear stages, interrupt points ------------------------------------

TEST_F(AggregateBoundsTest, UnwindOfOneHugeArrayIsLinear) {
  // reliability-3 N4: 20,000 elements took 94 s (each output copied the
  // whole array). 200,000 now finish well inside the test's timeout.
  Collection& c = coll("c");
  InsertArray(c, 1, 200000);
  EXPECT_EQ(Run(c, R"([{"$match":{"_id":1}},{"$unwind":"$a"},)"
                   R"({"$count":"n"}])"),
            R"([{"n":200000}])");
  EXPECT_EQ(Run(c, R"([{"$unwind":{"path":"$a","includeArrayIndex":"i"}},)"
                   R"({"$match":{"a":199999}}])"),
            R"([{"_id":1,"a":199999,"i":199999}])");
}

TEST_F(AggregateBoundsTest, UnwindKeepsFieldOrderAndNestedPaths) {
  // The element takes the array's place (document_source_unwind.cpp).
  Collection& c = coll("c");
  ASSERT_TRUE(
      c.InsertOne(R"({"_id":1,"x":{"a":[1,2],"k":"v"},"b":"after"})").ok());
  EXPECT_EQ(Run(c, R"([{"$unwind":"$x.a"}])"),
            R"([{"_id":1,"x":{"a":1,"k":"v"},"b":"after"},)"
            R"({"_id":1,"x":{"a":2,"k":"v"},"b":"after"}])");
}

TEST_F(AggregateBoundsTest, UnwindStopsAtTheDeadlineWithinOneDocument) {
  // The scan checks once per document examined (one here); $unwind then
  // checks once per element, so 5,000 elements cannot finish within 1,000
  // ticks: 50 MaxTimeMSExpired (src/mongo/base/error_codes.yml).
  Collection& c = coll("c");
  InsertArray(c, 1, 5000);
  TickingClock clock;
  ScopedOpDeadline deadline(&clock, clock.SteadyNow() + absl::Seconds(1));
  EXPECT_EQ(Run(c, R"([{"$match":{"_id":1}},{"$unwind":"$a"},)"
                   R"({"$count":"n"}])"),
            "error 50: operation exceeded time limit");
  EXPECT_LT(clock.reads(), 1100);
}

TEST_F(AggregateBoundsTest, MapAndReduceStopAtTheDeadline) {
  // evaluate_map_reduce_filter.cpp checks for interrupt per element.
  Collection& c = coll("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id":1})").ok());
  for (const char* expr :
       {R"({"$size":{"$map":{"input":{"$range":[0,100000]},"in":1}}})",
        R"({"$reduce":{"input":{"$range":[0,100000]},"initialValue":0,)"
        R"("in":{"$add":["$$value","$$this"]}}})",
        R"({"$size":{"$filter":{"input":{"$range":[0,100000]},)"
        R"("cond":true}}})"}) {
    std::string pipeline = absl::StrCat(R"([{"$project":{"r":)", expr, "}}]");
    {
      TickingClock clock;
      ScopedOpDeadline deadline(&clock, clock.SteadyNow() + absl::Seconds(1));
      EXPECT_EQ(Run(c, pipeline), "error 50: operation exceeded time limit")
          << expr;
    }
    // Without a deadline the same expression completes.
    EXPECT_TRUE(absl::StartsWith(Run(c, pipeline), R"([{"_id":1,"r":)"))
        << expr;
  }
}

TEST_F(AggregateBoundsTest, BlockingStagesStopAtTheDeadline) {
  // $group, $sort, $facet and $lookup read their input through the
  // interrupt point between stages: 300 documents of input, each checked.
  Collection& c = coll("c");
  for (int i = 0; i < 300; ++i) {
    ASSERT_TRUE(
        c.InsertOne(absl::StrCat(R"({"_id":)", i, R"(,"k":)", i % 7, "}"))
            .ok());
  }
  // Each stage is fed by a $unwind of a 300-element array built per
  // document, so the scan's own checks (one per document) are not enough.
  const std::string unwind =
      R"({"$project":{"r":{"$range":[0,300]}}},{"$unwind":"$r"},)";
  for (const char* stage :
       {R"({"$group":{"_id":"$r","n":{"$sum":1}}})", R"({"$sort":{"r":-1}})",
        R"({"$facet":{"a":[{"$count":"n"}]}})",
        R"({"$lookup":{"from":"none","localField":"r",)"
        R"("foreignField":"x","as":"j"}})",
        R"({"$sample":{"size":5}})"}) {
    TickingClock clock;
    ScopedOpDeadline deadline(&clock, clock.SteadyNow() + absl::Seconds(20));
    EXPECT_EQ(Code(c, absl::StrCat("[", unwind, stage, "]")), 50) << stage;
  }
}

// ---- N5: documents and stage outputs
// ------------------------------------------

TEST_F(AggregateBoundsTest, ResultDocumentsOverTheBsonLimitFail) {
  // reliability-3 N5: a $facet of 30,000 documents replied 62 MB, $group
  // with $push 30 MB. mongod fails such a reply with 10334 "BSONObj size:
  // N (0x..) is invalid. Size must be between 0 and 16793600(16MB) First
  // element: ..." (bsonobj.cpp); a document just over 16 MiB (up to
  // BSONObjMaxInternalSize) is still returned
  // (jstests/core/query/bson_size_limit.js).
  Collection& c = coll("c");
  for (int i = 0; i < 20; ++i) InsertString(c, i, 1 << 20);
  EXPECT_EQ(Code(c, R"([{"$facet":{"a":[],"b":[]}}])"), kBSONObjectTooLarge);
  // {_id: null, p: [twenty 1 MiB strings]}: 4 + 5 + 3 + (4 + 20 * 1048582
  // + 50 + 1) + 1 bytes.
  EXPECT_EQ(Run(c, R"([{"$group":{"_id":null,"p":{"$push":"$s"}}}])"),
            "error 10334: BSONObj size: 20971708 (0x14000BC) is invalid. Size "
            "must be between 0 and 16793600(16MB) First element: _id: null");
  EXPECT_EQ(Code(c, R"([{"$limit":1},{"$lookup":{"from":"c","localField":"x",)"
                    R"("foreignField":"x","as":"j"}}])"),
            kBSONObjectTooLarge);
  // 16 of them (16 MiB + a little) are still returned, as mongod does.
  EXPECT_EQ(
      Run(c, R"([{"$limit":16},{"$group":{"_id":null,)"
             R"("p":{"$push":"$s"}}},{"$project":{"n":{"$size":"$p"}}}])"),
      R"([{"_id":null,"n":16}])");
  EXPECT_EQ(Code(c, R"([{"$limit":17},{"$group":{"_id":null,)"
                    R"("p":{"$push":"$s"}}}])"),
            kBSONObjectTooLarge);
}

TEST_F(AggregateBoundsTest, FacetDocumentIsBoundedAt100MiB) {
  // document_source_facet.cpp: 4031700 "document constructed by $facet is
  // N bytes, which exceeds the limit of 104857600 bytes"
  // (internalQueryFacetMaxOutputDocSizeBytes), before the 10334 of the
  // reply: six copies of 20 MiB.
  Collection& c = coll("c");
  for (int i = 0; i < 20; ++i) InsertString(c, i, 1 << 20);
  std::string r = Run(c, R"([{"$facet":{"a":[],"b":[],"c":[],"d":[],)"
                         R"("e":[],"f":[]}}])");
  EXPECT_TRUE(
      absl::StartsWith(r, "error 4031700: document constructed by $facet is 1"))
      << r.substr(0, 200);
  EXPECT_NE(r.find("which exceeds the limit of 104857600 bytes"),
            std::string::npos);
}

TEST_F(AggregateBoundsTest, ProjectionCannotBuildAnOversizedDocument) {
  // reliability-3 N5: [{$project: {a: "$s", b: "$s"}}] of one 16 MiB
  // document returned 32 MiB; a thousand such fields would have needed
  // 16 GB. The computed fields are bounded as they are built.
  Collection& c = coll("c");
  InsertString(c, 1, 10 << 20);
  EXPECT_EQ(Code(c, R"([{"$project":{"a":"$s","b":"$s"}}])"),
            kBSONObjectTooLarge);
  std::string many = "[{\"$addFields\":{";
  for (int i = 0; i < 1000; ++i) {
    absl::StrAppend(&many, i ? "," : "", "\"f", i, "\":\"$s\"");
  }
  absl::StrAppend(&many, "}}]");
  EXPECT_EQ(Code(c, many), kBSONObjectTooLarge);
  EXPECT_EQ(Run(c, R"([{"$project":{"n":{"$strLenBytes":"$s"}}}])"),
            R"([{"_id":1,"n":10485760}])");
}

TEST_F(AggregateBoundsTest, SampleIsBoundedLikeABlockingStage) {
  // $sample keeps its sample in memory: the blocking stages' bound, 292
  // QueryExceededMemoryLimitNoDiskUseAllowed.
  Collection& c = coll("c");
  for (int i = 0; i < 300; ++i) {
    ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id":)", i, "}")).ok());
  }
  AggregateOptions small;
  small.max_memory_bytes = 1000;
  EXPECT_EQ(Code(c, R"([{"$sample":{"size":200}}])", small),
            kQueryExceededMemoryLimitNoDiskUseAllowed);
  EXPECT_EQ(Run(c, R"([{"$sample":{"size":200}},{"$count":"n"}])"),
            R"([{"n":200}])");
}

// ---- N6: expression values
// ----------------------------------------------------

TEST_F(AggregateBoundsTest, ReduceDoublingAnArrayFailsInsteadOfAborting) {
  // reliability-3 N6: this aggregate allocated until std::bad_alloc
  // aborted the server. The $concatArrays that passes 16 MiB fails.
  Collection& c = coll("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id":1})").ok());
  std::string r =
      Run(c, R"([{"$project":{"s":{"$reduce":{"input":{"$range":[0,25]},)"
             R"("initialValue":[1],)"
             R"("in":{"$concatArrays":["$$value","$$value"]}}}}},)"
             R"({"$project":{"n":{"$size":"$s"}}}])");
  EXPECT_TRUE(
      absl::StartsWith(r, "error 10334: $concatArrays would build a value of "))
      << r;
  EXPECT_TRUE(absl::EndsWith(
      r, " bytes, over the 16793600-byte limit of a BSON document"))
      << r;
  // The $concat version (a 32 MiB string at 25 doublings).
  r = Run(c, R"([{"$project":{"s":{"$reduce":{"input":{"$range":[0,25]},)"
             R"("initialValue":"x",)"
             R"("in":{"$concat":["$$value","$$value"]}}}}}])");
  EXPECT_TRUE(
      absl::StartsWith(r, "error 10334: $concat would build a value of "))
      << r;
  // Below the bound both work.
  EXPECT_EQ(Run(c, R"([{"$project":{"n":{"$size":{"$reduce":{)"
                   R"("input":{"$range":[0,10]},"initialValue":[1],)"
                   R"("in":{"$concatArrays":["$$value","$$value"]}}}}}}])"),
            R"([{"_id":1,"n":1024}])");
}

TEST_F(AggregateBoundsTest, OperatorsThatMultiplyTheirInputAreBounded) {
  Collection& c = coll("c");
  InsertString(c, 1, 4 << 20);  // s: 4 MiB of 'x'
  struct Case {
    const char* expr;
    int code;
  } cases[] = {
      // 4 MiB -> 4 Mi one-byte strings: far more BSON than the input.
      {R"({"$size":{"$split":["$s","x"]}})", kBSONObjectTooLarge},
      {R"({"$strLenBytes":{"$replaceAll":{"input":"$s","find":"x",)"
       R"("replacement":"xxxxxxxx"}}})",
       kBSONObjectTooLarge},
      // 400,000 x 64 bytes.
      {R"({"$size":{"$map":{"input":{"$range":[0,400000]},"in":)"
       R"("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl"}}})",
       kBSONObjectTooLarge},
      {R"({"$size":{"$zip":{"inputs":[{"$range":[0,400000]},[]],)"
       R"("useLongestLength":true,"defaults":[0,)"
       R"("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl"]}}})",
       kBSONObjectTooLarge},
      {R"({"$size":[["$s","$s","$s","$s","$s"]]})", kBSONObjectTooLarge},
      {R"({"$size":{"$objectToArray":{"a":"$s","b":"$s","c":"$s",)"
       R"("d":"$s","e":"$s"}}})",
       kBSONObjectTooLarge},
      // Arguments held at once: 17 x 4 MiB > 64 MiB (146).
      {R"({"$strLenBytes":{"$concat":["$s","$s","$s","$s","$s","$s",)"
       R"("$s","$s","$s","$s","$s","$s","$s","$s","$s","$s","$s"]}})",
       kExceededMemoryLimit},
      {R"({"$strLenBytes":{"$concat":["$s","$s","$s","$s","$s"]}})",
       kBSONObjectTooLarge},
  };
  for (const Case& k : cases) {
    const std::string pipeline =
        absl::StrCat(R"([{"$project":{"r":)", k.expr, "}}]");
    EXPECT_EQ(Code(c, pipeline), k.code)
        << k.expr << " -> " << Run(c, pipeline).substr(0, 300);
  }
  // Within the bound they work.
  EXPECT_EQ(Run(c, R"([{"$project":{"r":{"$strLenBytes":)"
                   R"({"$concat":["$s","$s","$s"]}}}}])"),
            R"([{"_id":1,"r":12582912}])");
}

}  // namespace
}  // namespace ttldb
