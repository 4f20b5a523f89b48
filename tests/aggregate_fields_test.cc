// A pipeline whose $group / $bucket / $count reads only some fields makes
// its scan parse only those (pipeline/stage.h ScanRequest::fields,
// query/top_level_fields.h), groups in a hash table (document/
// compare_hash.h), and an index scan fetches its documents in batches
// (engine/query_exec.cc). None of it may change an answer: each pipeline
// is compared with itself behind a {$set} stage that sets nothing, which
// the scan cannot see past and so reads whole documents as before.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/aggregate_fixture.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class AggregateFieldsTest : public AggregateTest {
 protected:
  void SetUp() override {
    AggregateTest::SetUp();
    Insert(coll("c"),
           {R"({"_id": 1, "k": "a", "x": 1, "n": {"m": 5}, "tags": [1, 2],
                "t": {"$date": "2020-01-01T00:00:00Z"}})",
            R"({"_id": 2, "k": "b", "x": 2.5, "n": {"m": 6}, "tags": [2],
                "t": {"$date": "2099-01-01T00:00:00Z"}})",
            R"({"_id": 3, "k": "A", "x": {"$numberLong": "3"}, "n": [{"m": 7}],
                "tags": [], "t": {"$date": "2099-01-01T00:00:00Z"}})",
            R"({"_id": 4, "x": {"$numberDecimal": "1.00"}, "tags": [3, 3],
                "t": {"$date": "2099-01-01T00:00:00Z"}})",
            R"({"_id": 5, "k": "a", "x": 1.0, "n": {"m": 5},
                "t": {"$date": "2099-01-01T00:00:00Z"}, "z": "only here"})"});
  }
  // The pipeline's answer, and that of the same stages behind {$set}.
  void ExpectSame(const std::string& stages) {
    const std::string direct = Run(coll("c"), "[" + stages + "]");
    const std::string whole =
        Run(coll("c"), R"([{"$set": {"zz_": "$$REMOVE"}},)" + stages + "]");
    EXPECT_EQ(direct, whole) << stages;
    EXPECT_EQ(direct.find("error"), std::string::npos) << direct;
  }
};

TEST_F(AggregateFieldsTest, GroupsReadingSomeFieldsAnswerAsWholeDocuments) {
  ExpectSame(R"({"$group": {"_id": "$k", "s": {"$sum": "$x"}}})");
  ExpectSame(R"({"$group": {"_id": "$n.m", "c": {"$sum": 1}}})");
  ExpectSame(R"({"$group": {"_id": "$x", "ids": {"$push": "$_id"}}})");
  ExpectSame(R"({"$group": {"_id": null, "all": {"$push": "$$ROOT"}}})");
  ExpectSame(R"({"$group": {"_id": "$k", "d": {"$push": "$$CURRENT.z"}}})");
  ExpectSame(R"({"$group": {"_id": {"$toLower": "$k"},
                 "top": {"$top": {"output": "$_id", "sortBy": {"x": -1}}}}})");
  ExpectSame(R"({"$group": {"_id": {"$size": {"$ifNull": ["$tags", []]}},
                 "f": {"$first": {"$getField": "z"}}}})");
  ExpectSame(R"({"$group": {"_id": {"$let": {"vars": {"v": "$n"},
                 "in": "$$v.m"}}, "c": {"$sum": 1}}})");
  ExpectSame(R"({"$match": {"k": {"$in": ["a", "b"]}}},
                {"$group": {"_id": "$n", "c": {"$sum": 1}}})");
  ExpectSame(R"({"$match": {"$expr": {"$gt": ["$x", 1]}}},
                {"$group": {"_id": "$k"}}, {"$sort": {"_id": 1}})");
  ExpectSame(R"({"$sortByCount": "$k"})");
  ExpectSame(R"({"$bucket": {"groupBy": "$x", "boundaries": [0, 2, 10],
                 "output": {"ks": {"$push": "$k"}}}})");
  ExpectSame(R"({"$count": "n"})");
  ExpectSame(R"({"$match": {"tags": 2}}, {"$count": "n"})");
}

// A find's inclusion projection parses only what it returns and filters
// on; every other projection reads whole documents.
TEST_F(AggregateFieldsTest, FindProjectionsReturnWhatTheyAlwaysDid) {
  auto one = [&](const char* projection, const char* filter = R"({"_id": 2})") {
    FindOptions o;
    o.projection = *ParseDocument(projection);
    auto cursor = coll("c").Find(filter, o);
    EXPECT_TRUE(cursor.ok()) << cursor.status();
    if (!cursor.ok()) return std::string();
    auto docs = (*cursor)->ToVector();
    EXPECT_TRUE(docs.ok()) << docs.status();
    return docs.ok() ? ToJson(Value::MakeArray(*docs)) : std::string();
  };
  EXPECT_EQ(one(R"({"_id": 0})"),
            R"([{"k":"b","x":2.5,"n":{"m":6},"tags":[2],)"
            R"("t":{"$date":"2099-01-01T00:00:00.000Z"}}])");
  EXPECT_EQ(one(R"({"_id": 1})"), R"([{"_id":2}])");
  EXPECT_EQ(one(R"({"k": 1})"), R"([{"_id":2,"k":"b"}])");
  EXPECT_EQ(one(R"({"k": 1, "_id": false})"), R"([{"k":"b"}])");
  EXPECT_EQ(one(R"({"n.m": 1, "_id": 0})"), R"([{"n":{"m":6}}])");
  EXPECT_EQ(one(R"({"k": 0, "n": 0, "t": 0})"),
            R"([{"_id":2,"x":2.5,"tags":[2]}])");
  EXPECT_EQ(one(R"({"tags.$": 1})", R"({"tags": 2, "_id": 2})"),
            R"([{"_id":2,"tags":[2]}])");
  EXPECT_EQ(one(R"({"k": 1, "_id": 0})", R"({"x": {"$gt": 2}})"),
            R"([{"k":"b"},{"k":"A"}])");
}

// 1, 1.0, NumberLong(1) and NumberDecimal("1.00") are one group (MongoDB
// compares group keys by value), as are "a" and "A" under a case-insensitive
// collation; the hash table keeps the first key met as _id.
TEST_F(AggregateFieldsTest, EqualKeysOfDifferentTypesAreOneGroup) {
  EXPECT_EQ(Run(coll("c"),
                R"([{"$group": {"_id": "$x", "ids": {"$push": "$_id"}}}])"),
            R"([{"_id":1,"ids":[1,4,5]},{"_id":2.5,"ids":[2]},)"
            R"({"_id":3,"ids":[3]}])");
  AggregateOptions ci;
  ci.collation = *ParseDocument(R"({"locale": "en", "strength": 2})");
  EXPECT_EQ(Run(coll("c"),
                R"([{"$group": {"_id": "$k", "ids": {"$push": "$_id"}}}])", ci),
            R"([{"_id":"a","ids":[1,3,5]},{"_id":"b","ids":[2]},)"
            R"({"_id":null,"ids":[4]}])");
}

// Hiding reads the TTL index's field even when the pipeline does not.
TEST_F(AggregateFieldsTest,
       ExpiredDocumentsStayHiddenWhenTheGroupSkipsTheirDate) {
  ASSERT_TRUE(coll("c")
                  .CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 60})")
                  .ok());
  EXPECT_EQ(Run(coll("c"), R"([{"$group": {"_id": "$k", "c": {"$sum": 1}}}])"),
            R"([{"_id":"b","c":1},{"_id":"A","c":1},{"_id":null,"c":1},)"
            R"({"_id":"a","c":1}])");
  EXPECT_EQ(Run(coll("c"), R"([{"$count": "n"}])"), R"([{"n":4}])");
}

// An index scan's batches: a multikey index yields each document once, in
// index order, and explain counts every entry examined.
TEST_F(AggregateFieldsTest, IndexScanBatchesKeepOrderAndCounts) {
  Collection& big = coll("big");
  std::vector<std::string> docs;
  for (int i = 0; i < 700; ++i) {
    docs.push_back(absl::StrCat(R"({"_id": )", (i * 7919) % 700, R"(, "v": )",
                                i, R"(, "m": [)", i, ",", i + 1,
                                R"(], "pad": "p"})"));
  }
  Insert(big, docs);
  ASSERT_TRUE(big.CreateIndex(R"({"v": 1})").ok());
  ASSERT_TRUE(big.CreateIndex(R"({"m": 1})").ok());
  FindOptions by_v;
  by_v.hint = "v_1";
  by_v.projection = *ParseDocument(R"({"v": 1, "_id": 0})");
  auto cursor = big.Find(R"({"v": {"$gte": 100}})", by_v);
  ASSERT_TRUE(cursor.ok()) << cursor.status();
  auto got = (*cursor)->ToVector();
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), 600u);
  for (size_t i = 0; i < got->size(); ++i) {
    EXPECT_EQ(ToJson((*got)[i]), absl::StrCat(R"({"v":)", 100 + i, "}"));
  }
  // m's entries 0..700: documents 99..699 have one or two in [100, 700].
  EXPECT_EQ(Run(big, R"([{"$match": {"m": {"$gte": 100}}},
                         {"$group": {"_id": null, "n": {"$sum": 1},
                                     "s": {"$sum": "$v"}}}])"),
            R"([{"_id":null,"n":601,"s":)" +
                std::to_string((99 + 699) * 601 / 2) + "}]");
  FindOptions by_m;
  by_m.hint = "m_1";
  auto e = big.Explain(R"({"m": {"$gte": 100}})", by_m);
  ASSERT_TRUE(e.ok()) << e.status();
  const Value* stats = e->Get("executionStats");
  ASSERT_NE(stats, nullptr);
  EXPECT_EQ(stats->Get("totalKeysExamined")->int64_value(), 1201);
  EXPECT_EQ(stats->Get("totalDocsExamined")->int64_value(), 601);
  EXPECT_EQ(stats->Get("nReturned")->int64_value(), 601);
}

}  // namespace
}  // namespace ttldb
