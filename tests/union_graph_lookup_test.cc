// $unionWith and $graphLookup through the public API. The expected answers
// are the MongoDB manual's examples (reference/operator/aggregation/
// unionWith/ and graphLookup/) and the error codes and messages of
// src/mongo/db/pipeline/document_source_union_with.cpp and
// document_source_graph_lookup.cpp.
#include <string>

#include "gtest/gtest.h"
#include "tests/aggregate_fixture.h"
#include "ttldb/database.h"

namespace ttldb {
namespace {

class UnionWithTest : public AggregateTest {
 protected:
  void SetUp() override {
    AggregateTest::SetUp();
    // unionWith/ ("Report 1: All Sales by Year and Stores and Items").
    Insert(
        coll("sales_2017"),
        {R"({"_id":1,"store":"General Store","item":"Chocolates","quantity":150})",
         R"({"_id":2,"store":"ShopMart","item":"Cookies","quantity":100})"});
    Insert(
        coll("sales_2018"),
        {R"({"_id":1,"store":"General Store","item":"Cookies","quantity":200})",
         R"({"_id":2,"store":"ShopMart","item":"Chocolates","quantity":100})"});
  }
};

TEST_F(UnionWithTest, TheOtherCollectionAfterThisOne) {
  EXPECT_EQ(
      Run(coll("sales_2017"), R"([{"$set":{"_id":"2017"}},)"
                              R"({"$unionWith":{"coll":"sales_2018",)"
                              R"("pipeline":[{"$set":{"_id":"2018"}}]}},)"
                              R"({"$sort":{"_id":1,"store":1,"item":1}}])"),
      R"([{"_id":"2017","store":"General Store","item":"Chocolates","quantity":150},)"
      R"({"_id":"2017","store":"ShopMart","item":"Cookies","quantity":100},)"
      R"({"_id":"2018","store":"General Store","item":"Cookies","quantity":200},)"
      R"({"_id":"2018","store":"ShopMart","item":"Chocolates","quantity":100}])");
  // The string form; then a $group over both ("Report 2: Aggregated Sales
  // by Items").
  EXPECT_EQ(
      Run(coll("sales_2017"),
          R"([{"$unionWith":"sales_2018"},)"
          R"({"$group":{"_id":"$item","total":{"$sum":"$quantity"}}},)"
          R"({"$sort":{"total":-1}}])"),
      R"([{"_id":"Cookies","total":300},{"_id":"Chocolates","total":250}])");
}

TEST_F(UnionWithTest, MissingCollectionsAndDocuments) {
  // A collection that does not exist adds nothing; a collectionless
  // sub-pipeline starts with $documents (MongoDB 6.0+).
  EXPECT_EQ(
      Run(coll("sales_2017"), R"([{"$unionWith":"none"},{"$count":"n"}])"),
      R"([{"n":2}])");
  EXPECT_EQ(
      Run(coll("sales_2017"),
          R"([{"$match":{"_id":1}},{"$project":{"_id":1}},)"
          R"({"$unionWith":{"pipeline":[{"$documents":[{"x":1},{"x":2}]}]}}])"),
      R"([{"_id":1},{"x":1},{"x":2}])");
  // Nested, and inside $lookup and $facet.
  EXPECT_EQ(Run(coll("sales_2017"),
                R"([{"$project":{"_id":0,"q":"$quantity"}},)"
                R"({"$unionWith":{"coll":"sales_2018","pipeline":[)"
                R"({"$project":{"_id":0,"q":"$quantity"}},)"
                R"({"$unionWith":{"coll":"sales_2017","pipeline":[)"
                R"({"$project":{"_id":0,"q":{"$literal":0}}}]}}]}},)"
                R"({"$group":{"_id":null,"n":{"$sum":1},"q":{"$sum":"$q"}}}])"),
            R"([{"_id":null,"n":6,"q":550}])");
  EXPECT_EQ(Run(coll("sales_2017"),
                R"([{"$match":{"_id":1}},{"$lookup":{"from":"sales_2017",)"
                R"("pipeline":[{"$unionWith":"sales_2018"},{"$count":"n"}],)"
                R"("as":"all"}},{"$project":{"all":1}}])"),
            R"([{"_id":1,"all":[{"n":4}]}])");
}

TEST_F(UnionWithTest, ErrorsAsMongoDB) {
  Collection& c = coll("sales_2017");
  EXPECT_EQ(Run(c, R"([{"$unionWith":1}])"),
            "error 9: the $unionWith stage specification must be an object or "
            "string, but found int");
  EXPECT_EQ(Run(c, R"([{"$unionWith":{"coll":1}}])"),
            "error 14: BSON field '$unionWith.coll' is the wrong type 'int', "
            "expected type 'string'");
  EXPECT_EQ(Run(c, R"([{"$unionWith":{"coll":"x","pipeline":{}}}])"),
            "error 14: BSON field '$unionWith.pipeline' is the wrong type "
            "'object', expected type 'array'");
  EXPECT_EQ(Run(c, R"([{"$unionWith":{"coll":"x","other":1}}])"),
            "error 40415: BSON field '$unionWith.other' is an unknown field.");
  EXPECT_EQ(Run(c, R"([{"$unionWith":{"pipeline":[{"$match":{}}]}}])"),
            "error 9: $unionWith stage without explicit collection must have a "
            "pipeline with $documents as first stage");
  EXPECT_EQ(
      Run(c, R"([{"$unionWith":{"coll":"x","pipeline":[{"$out":"y"}]}}])"),
      "error 31441: $out is not allowed within a $unionWith's "
      "sub-pipeline");
  EXPECT_EQ(Code(c, R"([{"$unionWith":{"coll":"x","pipeline":[{"$bad":1}]}}])"),
            40324);
}

class GraphLookupTest : public AggregateTest {
 protected:
  void SetUp() override {
    AggregateTest::SetUp();
    // graphLookup/ ("Within a Single Collection").
    Insert(coll("employees"),
           {R"({"_id":1,"name":"Dev"})",
            R"({"_id":2,"name":"Eliot","reportsTo":"Dev"})",
            R"({"_id":3,"name":"Ron","reportsTo":"Eliot"})",
            R"({"_id":4,"name":"Andrew","reportsTo":"Eliot"})",
            R"({"_id":5,"name":"Asya","reportsTo":"Ron"})",
            R"({"_id":6,"name":"Dan","reportsTo":"Andrew"})"});
    // ("Across Multiple Collections").
    Insert(coll("airports"),
           {R"({"_id":0,"airport":"JFK","connects":["BOS","ORD"]})",
            R"({"_id":1,"airport":"BOS","connects":["JFK","PWM"]})",
            R"({"_id":2,"airport":"ORD","connects":["JFK"]})",
            R"({"_id":3,"airport":"PWM","connects":["BOS","LHR"]})",
            R"({"_id":4,"airport":"LHR","connects":["PWM"]})"});
    Insert(coll("travelers"),
           {R"({"_id":1,"name":"Dev","nearestAirport":"JFK"})",
            R"({"_id":2,"name":"Eliot","nearestAirport":"JFK"})",
            R"({"_id":3,"name":"Jeff","nearestAirport":"BOS"})"});
  }
  // MongoDB leaves the order of the `as` array unspecified: stages that
  // sort it by _id (keeping each input's _id and the array only).
  static std::string Sorted(const std::string& as) {
    return R"({"$unwind":{"path":"$)" + as +
           R"(","preserveNullAndEmptyArrays":true}},{"$sort":{"_id":1,")" + as +
           R"(._id":1}},{"$group":{"_id":"$_id",")" + as + R"(":{"$push":"$)" +
           as + R"("}}},{"$sort":{"_id":1}})";
  }
};

TEST_F(GraphLookupTest, WithinOneCollection) {
  EXPECT_EQ(
      Run(coll("employees"),
          R"([{"$match":{"_id":{"$in":[1,3,5]}}},)"
          R"({"$graphLookup":{"from":"employees","startWith":"$reportsTo",)"
          R"("connectFromField":"reportsTo","connectToField":"name",)"
          R"("as":"reportingHierarchy"}},)" +
              Sorted("reportingHierarchy") +
              R"(,{"$project":{"ids":"$reportingHierarchy._id"}}])"),
      R"([{"_id":1,"ids":[]},{"_id":3,"ids":[1,2]},{"_id":5,"ids":[1,2,3]}])");
}

TEST_F(GraphLookupTest, MaxDepthAndDepthField) {
  EXPECT_EQ(
      Run(coll("travelers"),
          R"([{"$match":{"name":"Dev"}},)"
          R"({"$graphLookup":{"from":"airports","startWith":"$nearestAirport",)"
          R"("connectFromField":"connects","connectToField":"airport",)"
          R"("maxDepth":2,"depthField":"numConnections","as":"destinations"}},)" +
              Sorted("destinations") +
              R"(,{"$project":{"_id":0,"d":{"$map":{"input":"$destinations",)"
              R"("in":["$$this.airport","$$this.numConnections"]}}}}])"),
      R"([{"d":[["JFK",0],["BOS",1],["ORD",1],["PWM",2]]}])");
  // maxDepth 0: only the documents startWith names.
  EXPECT_EQ(
      Run(coll("travelers"),
          R"([{"$match":{"name":"Jeff"}},)"
          R"({"$graphLookup":{"from":"airports","startWith":"$nearestAirport",)"
          R"("connectFromField":"connects","connectToField":"airport",)"
          R"("maxDepth":0,"as":"d"}},{"$project":{"_id":0,"a":"$d.airport"}}])"),
      R"([{"a":["BOS"]}])");
  // Without maxDepth the whole component; cycles end.
  EXPECT_EQ(
      Run(coll("travelers"),
          R"([{"$match":{"name":"Jeff"}},)"
          R"({"$graphLookup":{"from":"airports","startWith":"$nearestAirport",)"
          R"("connectFromField":"connects","connectToField":"airport",)"
          R"("as":"d"}},{"$project":{"_id":0,"n":{"$size":"$d"}}}])"),
      R"([{"n":5}])");
}

TEST_F(GraphLookupTest, RestrictSearchWithMatchAndArrayStart) {
  // startWith an array: each element starts the search.
  EXPECT_EQ(Run(coll("employees"),
                R"([{"$documents":[{"start":["Asya","Dan"]}]},)"
                R"({"$graphLookup":{"from":"employees","startWith":"$start",)"
                R"("connectFromField":"reportsTo","connectToField":"name",)"
                R"("restrictSearchWithMatch":{"_id":{"$ne":2}},"as":"h"}},)" +
                    Sorted("h") + R"(,{"$project":{"_id":0,"ids":"$h._id"}}])"),
            R"([{"ids":[3,4,5,6]}])");
}

TEST_F(GraphLookupTest, DepthFieldOnStringIds) {
  // jstests/aggregation/sources/graphLookup/airports.js's shape: string
  // _ids with depthField (adding the field moved the _id being counted).
  Insert(coll("g"), {R"({"_id":"s","k":5})", R"({"_id":{"o":1},"k":5})"});
  EXPECT_EQ(Run(coll("g"),
                R"([{"$match":{"_id":"s"}},{"$graphLookup":{"from":"g",)"
                R"("startWith":5,"connectFromField":"c","connectToField":"k",)"
                R"("depthField":"d","as":"o"}},{"$project":{"o.d":1}}])"),
            R"([{"_id":"s","o":[{"d":0},{"d":0}]}])");
}

TEST_F(GraphLookupTest, RestrictSearchWithMatchSeesLetVariables) {
  // jstests/aggregation/sources/graphLookup/filter.js: $$foo of the
  // enclosing $lookup's let inside restrictSearchWithMatch's $expr.
  Insert(coll("foreign"),
         {R"({"_id":0,"from":0,"to":1,"shouldBeIncluded":true})",
          R"({"_id":1,"from":1,"to":2,"shouldBeIncluded":false})"});
  Insert(coll("local"), {R"({"_id":0,"starting":0})"});
  EXPECT_EQ(
      Run(coll("local"),
          R"([{"$lookup":{"from":"local","let":{"foo":true},"pipeline":[)"
          R"({"$graphLookup":{"from":"foreign","startWith":"$starting",)"
          R"("connectFromField":"to","connectToField":"from","as":"results",)"
          R"("restrictSearchWithMatch":{"$expr":{"$eq":)"
          R"(["$shouldBeIncluded","$$foo"]}}}}],"as":"array"}},)"
          R"({"$project":{"ids":"$array.results._id"}}])"),
      R"([{"_id":0,"ids":[[0]]}])");
}

TEST_F(GraphLookupTest, NullStartFindsOnlyExplicitNulls) {
  Insert(coll("nulls"), {R"({"_id":1,"to":null})", R"({"_id":2})"});
  EXPECT_EQ(Run(coll("nulls"),
                R"([{"$documents":[{"s":null}]},)"
                R"({"$graphLookup":{"from":"nulls","startWith":"$s",)"
                R"("connectFromField":"x","connectToField":"to","as":"h"}},)"
                R"({"$project":{"_id":0,"ids":"$h._id"}}])"),
            R"([{"ids":[1]}])");
}

TEST_F(GraphLookupTest, ErrorsAsMongoDB) {
  Collection& c = coll("employees");
  const std::string ok =
      R"("startWith":"$a","connectFromField":"a","connectToField":"b","as":"x")";
  EXPECT_EQ(Run(c, R"([{"$graphLookup":1}])"),
            "error 9: the $graphLookup stage specification must be an object, "
            "but found int");
  EXPECT_EQ(
      Run(c, R"([{"$graphLookup":{"as":"x"}}])"),
      R"(error 9: missing 'from' option to $graphLookup stage specification: {"as":"x"})");
  EXPECT_EQ(
      Run(c, R"([{"$graphLookup":{"from":1,)" + ok + "}}]"),
      "error 9: $graphLookup 'from' field must be a string, but found int");
  EXPECT_EQ(
      Run(c, R"([{"$graphLookup":{"from":"e","maxDepth":"1",)" + ok + "}}]"),
      "error 40100: maxDepth must be numeric, found type: string");
  EXPECT_EQ(
      Run(c, R"([{"$graphLookup":{"from":"e","maxDepth":-1,)" + ok + "}}]"),
      "error 40101: maxDepth requires a nonnegative argument, found: -1");
  EXPECT_EQ(
      Run(c, R"([{"$graphLookup":{"from":"e","maxDepth":1.5,)" + ok + "}}]"),
      "error 40102: maxDepth could not be represented as a long long: 1");
  EXPECT_EQ(
      Run(c, R"([{"$graphLookup":{"from":"e","restrictSearchWithMatch":1,)" +
                 ok + "}}]"),
      "error 40185: restrictSearchWithMatch must be an object, found int");
  EXPECT_EQ(Code(c, R"([{"$graphLookup":{"from":"e",)"
                    R"("restrictSearchWithMatch":{"$bad":1},)" +
                        ok + "}}]"),
            2);
  EXPECT_EQ(
      Run(c, R"([{"$graphLookup":{"from":"e","depthField":2,)" + ok + "}}]"),
      "error 40103: expected string as argument for depthField, found: int");
  EXPECT_EQ(Run(c, R"([{"$graphLookup":{"from":"e","other":2,)" + ok + "}}]"),
            "error 40104: Unknown argument to $graphLookup: other");
  EXPECT_EQ(Run(c, R"([{"$graphLookup":{"from":"e","as":"x","startWith":1}}])"),
            "error 40105: $graphLookup requires 'from', 'as', 'startWith', "
            "'connectFromField', and 'connectToField' to be specified.");
  EXPECT_EQ(
      Code(c, R"([{"$graphLookup":{"from":"e","startWith":"$a",)"
              R"("connectFromField":"$a","connectToField":"b","as":"x"}}])"),
      16410);
}

TEST_F(GraphLookupTest, TheMemoryBound) {
  // 40099 "$graphLookup reached maximum memory consumption" when what it
  // visited outgrows the stage bound (AggregateOptions::max_memory_bytes).
  AggregateOptions small;
  small.max_memory_bytes = 300;
  EXPECT_EQ(
      Run(coll("travelers"),
          R"([{"$graphLookup":{"from":"airports","startWith":"$nearestAirport",)"
          R"("connectFromField":"connects","connectToField":"airport",)"
          R"("as":"d"}}])",
          small),
      "error 40099: $graphLookup reached maximum memory consumption");
}

}  // namespace
}  // namespace ttldb
